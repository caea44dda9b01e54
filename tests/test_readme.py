"""The README's set-up commands are the ones CI runs, and the examples of the README and docs/ are true."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from tui.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
#: The README and every page of docs/: the examples may stand in any of them.
DOCS = "\n".join([README, *(path.read_text(encoding="utf-8") for path in sorted((ROOT / "docs").glob("*.md")))])


def shell_blocks() -> list[str]:
    return re.findall(r"```sh\n(.*?)```", DOCS, flags=re.S)


def test_readme_has_exactly_the_two_setup_commands_and_ci_runs_the_test_one() -> None:
    setup = README.split("## Set up", 1)[1].split("\n## ", 1)[0]
    commands = [b.strip() for b in re.findall(r"```sh\n(.*?)```", setup, flags=re.S)]
    assert len(commands) == 2 and all("\n" not in c for c in commands)
    install_and_run, test = commands
    assert "pip install ." in install_and_run and install_and_run.endswith("tui-games")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test in ci.splitlines(), "CI must run the README's test command verbatim"


def test_readme_perft_example_matches_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    block = next(b for b in shell_blocks() if "$ tui-games perft checkers 6" in b)
    expected = block.split("$ tui-games perft checkers 6\n", 1)[1].split("$", 1)[0].split()
    assert main(["perft", "checkers", "6"]) == 0
    assert capsys.readouterr().out.split() == expected


def test_readme_board_capture_matches_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = re.findall(r"```\n\$ tui-games show (.*?)\n(.*?)```", README, flags=re.S)
    assert blocks, "README lost its board capture"
    assert len(blocks) == 3, "one capture per game"
    for command, shown in blocks:
        argv = shlex.split(command)
        assert main(["show", *argv]) == 0
        out = capsys.readouterr().out
        assert out.startswith(shown)


def example_output(command: str) -> str:
    """The output the README shows after ``$ COMMAND`` in a shell block."""
    block = next(b for b in shell_blocks() if f"$ {command}\n" in b)
    return block.split(f"$ {command}\n", 1)[1].split("\n$ ", 1)[0]


def test_readme_search_example_matches_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    """Times, rates and tie-breaks aside: the same lines, depth and score as the CLI prints."""
    shown = example_output("tui-games search checkers --engine alphabeta:depth=8").splitlines()
    assert main(["search", "checkers", "--engine", "alphabeta:depth=8"]) == 0
    printed = capsys.readouterr().out.splitlines()

    def label(line: str) -> str:
        return line[:10].strip() if not line.startswith("depth 8  ") else "info"

    assert [label(line) for line in shown] == [label(line) for line in printed]
    for prefix in ("depth 8  score ", "score ", "depth   "):
        ours = [line.split("  nodes")[0] for line in printed if line.startswith(prefix)]
        assert ours and ours == [line.split("  nodes")[0] for line in shown if line.startswith(prefix)]


def test_readme_search_json_example_matches_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    shown = json.loads(example_output("tui-games search quixo --engine alphabeta:depth=3 --json"))
    assert main(["search", "quixo", "--engine", "alphabeta:depth=3", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert list(shown) == list(printed)
    for key in ("depth", "score", "mate", "engine", "game", "position", "interrupted"):
        assert shown[key] == printed[key], key


def test_readme_engine_table_matches_the_registry() -> None:
    from engines import ENGINES

    rows = {}
    for line in README.splitlines():
        match = re.match(r"\| `([a-z0-9-]+)` \| (.*?) \| (.*) \|$", line)
        if match and match.group(1) in ENGINES:
            rows[match.group(1)] = (match.group(2), match.group(3).split())
    assert list(rows) == list(ENGINES)
    for name, info in ENGINES.items():
        summary, options = rows[name]
        assert summary == info.summary
        expected = []
        for option in info.options.values():
            default = option.default
            if default is None:
                expected.append(f"`{option.name}`")
            elif isinstance(default, bool):
                expected.append(f"`{option.name}={'on' if default else 'off'}`")
            else:
                expected.append(f"`{option.name}={default:g}`" if isinstance(default, float)
                                else f"`{option.name}={default}`")
        assert options == expected, name
