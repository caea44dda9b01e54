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


@pytest.mark.parametrize("argv, needle", [
    (["match", "quixo", "--a", "random", "--b", "random", "--games", "2", "--out"], "Too many levels of symbolic links"),
    (["match", "quixo", "--a", "random", "--b", "random", "--games", "2", "--resume", "--out"],
     "Too many levels of symbolic links"),
    (["tournament", "quixo", "--engine", "random", "--engine", "alphabeta:depth=1", "--games", "2", "--out"],
     "Too many levels of symbolic links"),
    (["book", "quixo", "--lines", "1", "--plies", "1", "--out"], "a symbolic link that leads to no file"),
])
def test_an_output_through_a_loop_of_links_is_one_line(capsys, loop: Path, argv: list[str], needle: str) -> None:
    assert_usage_error(capsys, [*argv, str(loop)], needle)


def test_control_characters_in_a_path_are_escaped_in_the_message(capsys, tmp_path: Path) -> None:
    strange = f"{tmp_path}/a\nb\x1b]0;title\x07"
    assert_usage_error(capsys, ["search", "othello", "--engine", f"pvs:heuristic=tables:{strange}"],
                       "a\\nb\\x1b]0;title\\x07")
