"""The command-line contract (docs/cli.md): output formats, exit codes, one-line errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli_run import assert_usage_error, run
from games import GAME_NAMES, game_kind, new_game

def start_perft(game: str) -> dict[int, int]:
    """The published perft counts of ``game``'s start position, by depth (its samples)."""
    return {count.depth: count.leaves for count in game_kind(game).samples.perft if count.position is None}


@pytest.mark.parametrize("game", [name for name in GAME_NAMES if start_perft(name)])
def test_perft_prints_one_line_per_depth(capsys, game: str) -> None:
    counts = start_perft(game)
    depth = max(counts)
    code, out, err = run(capsys, "perft", game, str(depth))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == [f"d{d}" for d in range(1, depth + 1)]
    for d, leaves in counts.items():
        assert lines[d - 1] == f"d{d} {leaves}"


def test_perft_from_a_position(capsys) -> None:
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    code, out, _ = run(capsys, "perft", "chess", "2", "--position", kiwipete)
    assert code == 0 and out.splitlines() == ["d1 48", "d2 2039"]


def test_perft_divide(capsys) -> None:
    code, out, _ = run(capsys, "perft", "checkers", "2", "--divide")
    lines = out.splitlines()
    assert lines[:2] == ["d1 7", "d2 49"]
    divided = dict(line.split(": ") for line in lines[2:])
    assert len(divided) == 7 and sum(map(int, divided.values())) == 49
    assert "9-13" in divided


@pytest.mark.parametrize("game", GAME_NAMES)
def test_moves_lists_legal_moves(capsys, game: str) -> None:
    code, out, err = run(capsys, "moves", game)
    assert code == 0 and err == ""
    lines = out.splitlines()
    start = new_game(game)
    assert sorted(lines) == sorted(start.format_move(move) for move in start.legal_moves())
    if 1 in start_perft(game):
        assert len(lines) == start_perft(game)[1]
    for example in game_kind(game).samples.notation:
        if example.position is None:
            assert example.written in lines


def test_moves_from_a_position(capsys) -> None:
    # a forced capture: only the jump is listed
    code, out, _ = run(capsys, "moves", "checkers", "--position", "B:W18:B14")
    assert code == 0 and out.split() == ["14x23"]
    code, out, _ = run(capsys, "moves", "quixo", "--position", "XXXX./...../...../...../..... X")
    assert code == 0 and "4 0 left" in out.splitlines()


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["perft", "go", "2"], "unknown game 'go'"),
        (["perft", "chess", "x"], "DEPTH must be a whole number"),
        (["perft", "chess", "0"], "DEPTH must be at least 1"),
        (["perft", "chess", "-3"], "DEPTH"),
        (["perft", "chess"], "required"),
        (["perft", "chess", "2", "--position", "nonsense"], "error"),
        (["moves", "checkers", "--position", "B:W33:B1"], "error"),
        (["moves", "quixo", "--position", "XXXXX/...../...../...../..... Z"], "error"),
        (["moves", "nope"], "unknown game"),
        (["show", "chess", "--moves", "e4", "e4"], "move 2 ('e4')"),
        (["show", "checkers", "--moves", "zz"], "error"),
        (["frobnicate"], "invalid choice"),
        (["bench"], "required"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv: list[str], needle: str) -> None:
    assert_usage_error(capsys, argv, needle)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_show_draws_the_board(capsys, game: str) -> None:
    code, out, err = run(capsys, "show", game)
    assert code == 0 and err == ""
    assert "to move" in out and "position:" in out


def test_show_reports_the_outcome(capsys) -> None:
    code, out, _ = run(capsys, "show", "chess", "--moves", "f3", "e5", "g4", "Qh4#")
    assert code == 0
    assert "Black wins (checkmate)" in out


def test_show_counts_one_legal_move_in_the_singular(capsys) -> None:
    code, out, _ = run(capsys, "show", "chess", "--position", "k7/2R5/8/8/8/8/8/K7 b - - 0 1")
    assert code == 0 and "Black to move, 1 legal move\n" in out


def test_console_script_does_not_import_textual() -> None:
    """perft/moves are for scripts: they must not pay for (or depend on) Textual."""
    code = (
        "import sys\n"
        "from tui.cli import main\n"
        "rc = main(['perft', 'quixo', '1'])\n"
        "assert 'textual' not in sys.modules, 'textual was imported'\n"
        "rc |= main(['moves', 'checkers'])\n"
        "assert 'textual' not in sys.modules, 'textual was imported'\n"
        "sys.exit(rc)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("d1 44\n")


def test_exit_status_through_a_real_process() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tui.cli", "perft", "chess", "2", "--position", "8/8/8/8 w"],
        capture_output=True, text=True, timeout=60,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and "Traceback" not in proc.stderr


class _ClosedPipe:
    """A standard output whose reader has gone (``… | head -1``)."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    def fileno(self) -> int:
        raise ValueError("no file")


@pytest.mark.parametrize("argv", [["engines"], ["moves", "chess"], ["experiment", "list"]])
def test_a_closed_pipe_ends_quietly(monkeypatch, capsys, argv: list[str]) -> None:
    # It printed "error: Broken pipe" and exited 2, where Unix tools stop quietly.
    from tui.cli import main

    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    assert main(argv) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("command", [["report"], ["experiment", "seed004-quixo", "--resume", "--out"]])
def test_a_fifo_for_a_results_file_is_refused_not_waited_on(tmp_path: Path, command: list[str]) -> None:
    fifo = tmp_path / "games.jsonl"
    os.mkfifo(fifo)
    target = fifo if command[0] == "report" else tmp_path
    process = subprocess.run([sys.executable, "-m", "tui.cli", *command, str(target)], capture_output=True,
                             text=True, timeout=60)
    assert process.returncode == 2
    assert process.stderr.count("\n") == 1 and "not a regular file" in process.stderr


@pytest.mark.parametrize("argv", [
    ["tournament", "quixo", "--engine", "random", "--engine", "pvs:depth=1", "--games", "2"],
    ["match", "quixo", "--a", "random", "--b", "random", "--games", "2"],
    ["experiment", "list"],
])
def test_a_closed_pipe_ends_every_command_quietly(argv: list[str]) -> None:
    # Tables printed through rich exited with status 1 (rich's own handling of a closed pipe).
    process = subprocess.Popen([sys.executable, "-m", "tui.cli", *argv], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # as `| head -0` would
    err = process.stderr.read()
    assert process.wait(timeout=60) == 0, err
    assert "rror" not in err and "Traceback" not in err


@pytest.mark.parametrize("extra", [["--base", "nan"], ["--inc", "nan"], ["--base", "0"], ["--inc", "-1"],
                                   ["--base", "inf"]])
def test_bench_clock_refuses_a_clock_that_is_not_one(capsys, extra: list[str]) -> None:
    assert_usage_error(capsys, ["bench", "clock", *extra], "--base must be a number of seconds above 0")


def test_every_remedy_an_engine_can_give_has_the_command_lines_words() -> None:
    from engines.remedy import Remedy, RunError
    from tui.cli.common import REMEDIES, error_text

    assert set(REMEDIES) == set(Remedy)
    assert error_text(RunError("r.jsonl: already holds results", remedy=Remedy.RESUME)) == (
        "r.jsonl: already holds results; add --resume to finish it, or choose another --out")
    assert error_text(RunError("lab/x: its run plays 2 games an arm, not 3", remedy=Remedy.GAMES, games=2)).endswith(
        "; resume it with --games 2, or choose another --out")
    assert error_text(RunError("plain")) == "plain"
