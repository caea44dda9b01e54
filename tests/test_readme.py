"""The README's set-up commands are the ones CI runs, and its examples are true."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tui.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def shell_blocks() -> list[str]:
    return re.findall(r"```sh\n(.*?)```", README, flags=re.S)


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
    block = re.search(r"```\n\$ tui-games show (.*?)\n(.*?)```", README, flags=re.S)
    assert block, "README lost its board capture"
    argv = block.group(1).split()
    assert main(["show", *argv]) == 0
    out = capsys.readouterr().out
    assert out.startswith(block.group(2))
