"""External engines that misbehave lose their games by forfeit, and leave nothing running.

A UCI program of someone else's is held to deadlines and to the protocol
(:mod:`engines.uci_client`): one that hangs, answers an illegal, null or
malformed move, floods its output, dies, or ignores ``quit`` loses the game
with the reason in its result, is killed with everything it started, and
starts afresh for the next game; ``report`` counts the forfeits per engine.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

from cli_run import assert_usage_error, run
from processes import children, running
from engines import create_engine
from engines.stockfish import GRACE, UciEngine
from engines.uci_client import EngineFailure, parse_info, parse_option
from engines.base import Clocks, Limits
from games import new_game
from games.chess import ChessGame

ROOT = Path(__file__).resolve().parent.parent
FAKE = ROOT / "tests" / "fake_uci_engine.py"


def misbehaving(tmp_path: Path, mode: str) -> Path:
    """A fake UCI program that misbehaves as ``mode`` says on every ``go`` (see tests/fake_uci_engine.py)."""
    program = tmp_path / f"engine-{mode}"
    child = tmp_path / f"{mode}.child"
    program.write_text(f"#!/bin/sh\nFAKE_UCI_MODE={mode} FAKE_UCI_CHILD='{child}' PYTHONPATH='{ROOT}' "
                       f"exec '{sys.executable}' '{FAKE}'\n")
    program.chmod(0o755)
    return program


def gone(pid: int, within: float = 3.0) -> bool:
    """Whether process ``pid`` has ended (or is a zombie) within ``within`` seconds."""
    deadline = time.monotonic() + within
    while running(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


MODES = [
    ("silent", "forfeit: timeout"),
    ("illegal", "forfeit: illegal move e2e5"),
    ("garbage", "forfeit: malformed move 'zz9'"),
    ("null", "forfeit: null move"),
    ("flood", "forfeit: output over 16,777,216 bytes"),
]


@pytest.mark.parametrize("mode, reason", MODES)
def test_a_misbehaving_engine_forfeits_each_game_and_the_match_ends(tmp_path: Path, capsys, mode: str,
                                                                     reason: str) -> None:
    out = tmp_path / "r.jsonl"
    spec = f"uci:path={misbehaving(tmp_path, mode)},time=0.1"
    began = time.monotonic()
    code, stdout, err = run(capsys, "match", "chess", "--a", "alphabeta:depth=1", "--b", spec, "--games", "2",
                            "--maxmoves", "6", "--out", str(out), "--json")
    # Two games, each within its deadline (0.1 s + the grace) plus a second.
    assert time.monotonic() - began < 2 * (0.1 + GRACE + 1) + 5
    assert code == 0, err
    results = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["result"], r["reason"]) for r in results] == [("a", reason), ("a", reason)]
    summary = json.loads(stdout)
    assert summary["b"]["forfeits"] == 2 and summary["a"]["forfeits"] == 0
    assert "Traceback" not in err


def test_a_dying_engine_forfeits_and_the_next_game_starts_it_again(tmp_path: Path, capsys) -> None:
    program = tmp_path / "dies"
    program.write_text(f"#!/bin/sh\nFAKE_UCI_DIE=1 PYTHONPATH='{ROOT}' exec '{sys.executable}' '{FAKE}'\n")
    program.chmod(0o755)
    out = tmp_path / "r.jsonl"
    code, _, err = run(capsys, "match", "chess", "--a", f"uci:path={program},time=0.1", "--b", "random",
                       "--games", "2", "--out", str(out))
    assert code == 0, err
    reasons = [json.loads(line)["reason"] for line in out.read_text().splitlines()]
    assert reasons == ["forfeit: engine crashed", "forfeit: engine crashed"]


def test_an_engine_that_ignores_quit_is_killed_with_what_it_started(tmp_path: Path) -> None:
    program = misbehaving(tmp_path, "deaf")
    engine = create_engine(f"uci:path={program},time=0.1", ChessGame)
    pid = engine.pid
    assert pid is not None
    result = engine.search(new_game("chess"))
    assert result.move in new_game("chess").legal_moves()
    child = int((tmp_path / "deaf.child").read_text())
    engine.close()
    assert gone(pid) and gone(child)


def test_a_timed_out_engine_is_killed_at_once(tmp_path: Path) -> None:
    engine = create_engine(f"uci:path={misbehaving(tmp_path, 'silent')},time=0.05", ChessGame)
    pid = engine.pid
    assert pid is not None
    with pytest.raises(EngineFailure, match="timed out") as failure:
        engine.search(new_game("chess"))
    assert failure.value.reason == "timeout"
    assert gone(pid)
    engine.close()
    with pytest.raises(RuntimeError, match="closed"):  # closed for good: no new start
        engine.search(new_game("chess"))


@pytest.mark.parametrize("mode, message", [
    ("illegal", "answered an illegal move e2e5"),
    ("null", "answered a null move (bestmove 0000)"),
    ("garbage", "answered a malformed move 'zz9'"),
    ("silent", "timed out (no answer by its deadline) while searching"),
])
def test_search_says_what_the_engine_did_in_one_line(tmp_path: Path, capsys, mode: str, message: str) -> None:
    spec = f"uci:path={misbehaving(tmp_path, mode)},time=0.05"
    assert_usage_error(capsys, ["search", "chess", "--engine", spec], message)


@pytest.mark.parametrize("command", [["book", "chess", "--lines", "4", "--engine"],
                                     ["dataset", "chess", "--games", "2", "--depth", "1", "--label"]],
                         ids=["book", "dataset"])
def test_a_forfeit_on_a_worker_is_one_line_too(tmp_path: Path, capsys, command: list[str]) -> None:
    """The engine's failure crosses the process pool (it pickles): one line and exit 2, not a
    broken pool's traceback."""
    label = "uci" if command[0] == "book" else "stockfish"
    code, _, err = run(capsys, *command, f"{label}:path={misbehaving(tmp_path, 'illegal')}", "--jobs", "2",
                       "--out", str(tmp_path / "out"))
    assert code == 2
    assert "Traceback" not in err and "BrokenProcessPool" not in err
    assert err.splitlines()[-1].startswith("tui-games") and "answered an illegal move e2e5" in err


def test_deadlines_come_from_the_limits() -> None:
    assert UciEngine.deadline(Limits(time=0.5), True) == pytest.approx(0.5 + GRACE)
    clocks = Clocks((3.0, 7.0), margin=0.25)
    assert UciEngine.deadline(Limits(time=1.0, clocks=clocks), True) == pytest.approx(3.25 + GRACE)
    assert UciEngine.deadline(Limits(time=1.0, clocks=clocks), False) == pytest.approx(7.25 + GRACE)
    assert UciEngine.deadline(Limits(depth=3), True) > 60
    assert UciEngine.deadline(Limits(), True) == float("inf")  # analysis: the stop flag ends it


def test_report_counts_forfeits_per_engine(tmp_path: Path, capsys) -> None:
    out = tmp_path / "r.jsonl"
    spec = f"uci:path={misbehaving(tmp_path, 'null')},time=0.1"
    code, _, _ = run(capsys, "match", "chess", "--a", spec, "--b", "random", "--games", "2", "--out", str(out))
    assert code == 0
    code, stdout, _ = run(capsys, "report", str(out))
    assert code == 0
    assert "forfeits (games lost by breaking the rules): A 2, B 0" in stdout
    assert "forfeit: null move" in stdout


def test_uci_lines_are_read_leniently() -> None:
    info = parse_info("info depth 7 seldepth 9 multipv 1 score cp -31 upperbound nodes 120 nps 9 time 12 "
                      "pv e2e4 e7e5 string hi".split())
    assert info is not None and (info.depth, info.cp, info.nodes, info.time_ms) == (7, -31, 120, 12)
    assert info.pv == ["e2e4", "e7e5"]
    assert parse_info("info depth x".split()) is None
    assert parse_info("info score".split()) is None
    option = parse_option("option name Skill Level type spin default 20 min 0 max 20".split())
    assert option is not None and (option.name, option.type, option.min, option.max) == ("Skill Level", "spin",
                                                                                          0, 20)
    combo = parse_option("option name Style type combo default Normal var Solid var Normal".split())
    assert combo is not None and combo.var == ("Solid", "Normal") and combo.default == "Normal"
    assert parse_option("option type spin".split()) is None


def test_nothing_is_left_running_after_a_forfeit_match(tmp_path: Path, capsys) -> None:
    out = tmp_path / "r.jsonl"
    program = misbehaving(tmp_path, "deaf")
    code, _, err = run(capsys, "match", "chess", "--a", f"uci:path={program},time=0.05", "--b", "random",
                       "--games", "2", "--maxmoves", "4", "--out", str(out))
    assert code == 0, err
    child = int((tmp_path / "deaf.child").read_text())
    assert gone(child)
    left = [pid for pid in children(os.getpid()) if str(program) in _command(Path(f"/proc/{pid}"))]
    assert not left


def _command(entry: Path) -> str:
    try:
        return (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


async def test_in_the_app_a_misbehaving_engine_is_said_and_the_game_kept(tmp_path: Path) -> None:
    from app_pilot import make_app, ready, type_move, wait_for

    app = make_app("chess", "human", f"uci:path={misbehaving(tmp_path, 'illegal')},time=0.1")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await type_move(pilot, "e4")
        await wait_for(pilot, lambda: "illegal move e2e5" in screen.message_text, "the engine's failure said")
        assert "paused" in screen.message_text and screen.moves == ["e4"]


def test_a_tournament_counts_forfeits_per_engine(tmp_path: Path, capsys) -> None:
    out = tmp_path / "t.jsonl"
    spec = f"uci:path={misbehaving(tmp_path, 'null')},time=0.1"
    code, stdout, err = run(capsys, "tournament", "chess", "--engine", "alphabeta:depth=1", "--engine", "random",
                            "--engine", spec, "--games", "2", "--out", str(out), "--json")
    assert code == 0, err
    standings = json.loads(stdout)
    assert standings["forfeits"] == {"alphabeta:depth=1": 0, "random": 0, spec: 4}
    code, stdout, _ = run(capsys, "report", str(out))
    assert code == 0  # the pairings the null-move engine played, each with its forfeits
    assert stdout.count("forfeits (games lost by breaking the rules): A 0, B 2") == 2


def test_a_line_over_the_limit_is_a_flood_whatever_the_total(tmp_path: Path) -> None:
    engine = create_engine(f"uci:path={misbehaving(tmp_path, 'longline')},time=0.1", ChessGame)
    with pytest.raises(EngineFailure, match=r"flooded its output \(a line over 65,536 bytes\)") as failure:
        engine.search(new_game("chess"))
    assert failure.value.reason == "a line over 65,536 bytes"
    engine.close()


def test_absurd_scores_are_ignored_not_believed(tmp_path: Path) -> None:
    with create_engine(f"uci:path={misbehaving(tmp_path, 'absurd')},time=0.1", ChessGame) as engine:
        result = engine.search(new_game("chess"))
    assert result.score == 0 and result.stats.mate is None and result.stats.depth == 0


def test_an_engine_ignoring_stop_is_killed_and_its_line_answers(tmp_path: Path) -> None:
    import threading

    engine = create_engine(f"uci:path={misbehaving(tmp_path, 'stubborn')},time=60", ChessGame)
    first = engine.pid
    stop = threading.Event()
    began = time.monotonic()

    def info(stats) -> None:  # stop once the engine has said its line
        stop.set()

    result = engine.search(new_game("chess"), stop=stop, on_info=info)
    assert time.monotonic() - began < GRACE + 5  # not its 60 s
    assert result.stats.best == "e4"
    assert first is not None and gone(first)
    again = engine.search(new_game("chess"), stop=stop)  # killed, not closed: it starts again
    assert engine.pid != first and again.stats.best == "e4"
    engine.close()


def test_an_engine_that_no_longer_starts_forfeits_the_rest_of_the_match(tmp_path: Path, capsys) -> None:
    program = tmp_path / "tired"
    program.write_text(f"#!/bin/sh\nFAKE_UCI_STARTS='{tmp_path / 'starts'}' FAKE_UCI_GOOD_STARTS=2 "
                       f"PYTHONPATH='{ROOT}' exec '{sys.executable}' '{FAKE}'\n")
    program.chmod(0o755)
    out = tmp_path / "r.jsonl"
    code, _, err = run(capsys, "match", "chess", "--a", f"uci:path={program},time=0.05", "--b", "random",
                       "--games", "4", "--maxmoves", "4", "--out", str(out))
    assert code == 0, err
    reasons = [json.loads(line)["reason"] for line in out.read_text().splitlines()]
    assert len(reasons) == 4 and reasons[0] != "forfeit: engine did not start"  # the spec's check started it once
    assert reasons[1:] == ["forfeit: engine did not start"] * 3


@pytest.mark.parametrize("sig, status", [(2, 130), (15, 143), (1, 129)])
def test_a_stopped_search_of_an_engine_that_gives_no_move_is_an_interruption(tmp_path: Path, sig: int,
                                                                              status: int) -> None:
    import signal
    import subprocess

    program = tmp_path / "stuck"
    thinking = f"{os.getpid() % 1000 + 1000}.{sig}"  # a sleep of its own, to be found among the processes
    program.write_text("#!/bin/sh\nwhile read line; do case $line in\nuci) echo uciok;; isready) echo readyok;;\n"
                       f"go*) sleep {thinking};; quit) exit 0;; esac; done\n")
    program.chmod(0o755)
    process = subprocess.Popen([sys.executable, "-m", "tui.cli", "search", "chess", "--engine",
                                f"uci:path={program},time=60"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)
    deadline = time.monotonic() + 30
    while not _sleeping(thinking):  # the engine is searching
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.02)
    process.send_signal(signal.Signals(sig))
    _, err = process.communicate(timeout=GRACE + 10)
    assert process.returncode == status
    assert err.strip().endswith("gave no move when told to stop (timeout) and was killed"), err


def _sleeping(seconds: str) -> bool:
    """Whether a ``sleep SECONDS`` runs on this machine."""
    wanted = f"sleep\0{seconds}\0".encode()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "cmdline").read_bytes() == wanted:
                    return True
            except OSError:
                continue
    return False
