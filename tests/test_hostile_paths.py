"""Paths nobody should give, given: loops of symbolic links and control characters stay one line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cli_run import assert_usage_error


@pytest.fixture
def loop(tmp_path: Path) -> Path:
    """A loop of two symbolic links."""
    first, second = tmp_path / "loop1", tmp_path / "loop2"
    os.symlink(second, first)
    os.symlink(first, second)
    return first


#: Commands whose last argument is an output file (``--out``, ``--records``, ``--export``).
OUTPUTS = [
    ["match", "quixo", "--a", "random", "--b", "random", "--games", "2", "--out"],
    ["match", "quixo", "--a", "random", "--b", "random", "--games", "2", "--resume", "--out"],
    ["tournament", "quixo", "--engine", "random", "--engine", "alphabeta:depth=1", "--games", "2", "--out"],
    ["book", "quixo", "--lines", "1", "--plies", "1", "--out"],
    ["dataset", "quixo", "--games", "1", "--depth", "1", "--out"],
]
IDS = ["match", "match --resume", "tournament", "book", "dataset"]


@pytest.mark.parametrize("argv", OUTPUTS, ids=IDS)
def test_an_output_through_a_loop_of_links_is_one_line(capsys, loop: Path, argv: list[str]) -> None:
    assert_usage_error(capsys, [*argv, str(loop)], "a symbolic link that leads to no file")


@pytest.mark.parametrize("argv", [*OUTPUTS, ["match", "quixo", "--a", "random", "--b", "random", "--games", "2",
                                             "--out", "r.jsonl", "--records"],
                                  ["puzzles", "quixo", "--export"]],
                         ids=[*IDS, "match --records", "puzzles --export"])
def test_an_output_through_a_dangling_link_is_refused_and_its_target_not_made(
        capsys, tmp_path: Path, monkeypatch, argv: list[str]) -> None:
    """A link to a file that does not exist: writing through it would make that file, elsewhere than
    where the user looked (``match --out`` did)."""
    monkeypatch.chdir(tmp_path)
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "target")
    needle = "already exists" if argv[0] == "puzzles" else "a symbolic link that leads to no file"
    assert_usage_error(capsys, [*argv, str(link)], needle)
    assert not (tmp_path / "target").exists() and not (tmp_path / "r.jsonl").exists()


def test_control_characters_in_a_path_are_escaped_in_the_message(capsys, tmp_path: Path) -> None:
    strange = f"{tmp_path}/a\nb\x1b]0;title\x07"
    assert_usage_error(capsys, ["search", "othello", "--engine", f"pvs:heuristic=tables:{strange}"],
                       "a\\nb\\x1b]0;title\\x07")
