"""Every process we start ends within 2 s of its parent's death, SIGKILL included.

Each test starts a command in a session of its own (so its process group holds
everything it starts: search workers, the app's search process, joblib
workers), waits until the workers are busy, kills the command's own process
(only it, not the group) and checks that no process of the group is left.  A
UCI program runs in a session of its own: its tests follow it by its pid.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Sequence

import pytest

from tui.bench.pty_app import AppProcess, group_pids
from uci_programs import sunfish
from processes import children, descendants, marked, running, signal_mask

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc"),
              pytest.mark.xdist_group("processes")]  # see test_signals.py

#: The issue's bound: every descendant gone this long after the parent died.
GRACE = 2.0
#: How long a command may take to get its workers busy.
START_TIMEOUT = 60.0
COMMAND = (sys.executable, "-m", "tui.cli")


#: The stop signals as a /proc signal mask.
STOP_MASK = sum(1 << (sig - 1) for sig in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM))


def has_mask(pid: int, kind: str, mask: int) -> bool:
    """Whether process ``pid``'s ``kind`` mask (SigBlk, SigIgn, SigCgt) holds every signal of ``mask``
    (``False`` once it is gone)."""
    try:
        return signal_mask(pid, kind) & mask == mask
    except OSError:
        return False


def blocks_a_stop(pid: int) -> bool:
    """Whether process ``pid`` blocks a stop signal (``False`` once it is gone)."""
    try:
        return bool(signal_mask(pid) & STOP_MASK)
    except OSError:
        return False


def wait_for_group(pgid: int, watching: int, timeout: float = START_TIMEOUT) -> list[int]:
    """The group's processes once ``watching`` of them watch their parent (they have called
    ``exit_with_parent``, which makes them ignore the stop signals: the resource trackers ignore only
    two).  A worker killed while it still imports cannot see its parent go until the import is done."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pids = group_pids(pgid)
        if sum(has_mask(pid, "SigIgn", STOP_MASK) for pid in pids) >= watching:
            return pids
        time.sleep(0.05)
    raise AssertionError(f"fewer than {watching} of {group_pids(pgid)} watch their parent after {timeout} s")


def assert_all_end(leader: subprocess.Popen | None, pgid: int, sig: int,
                   pause: Callable[[float], None] = time.sleep) -> None:
    """Kill the leader alone with ``sig``; every other process must end within GRACE.

    ``pause`` waits a little; the app's test reads its terminal meanwhile, as a
    terminal does (a process writing a last warning to a full pty would block)."""
    os.kill(pgid, sig)
    if leader is not None:
        leader.wait(timeout=10)
    deadline = time.monotonic() + GRACE
    while time.monotonic() < deadline and group_pids(pgid):
        pause(0.02)
    left = group_pids(pgid)
    if left:  # do not leave them running for the next test
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert left == [], f"still running {GRACE} s after the parent died: {left}"


def start(argv: Sequence[str], **kwargs) -> subprocess.Popen:
    return subprocess.Popen([*COMMAND, *argv], start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, **kwargs)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_a_parallel_search_ends_with_the_command(sig: int) -> None:
    process = start(["search", "chess", "--engine", "pvs:time=60,workers=3"])
    wait_for_group(process.pid, 2)  # the command's two helpers (beside it and the resource tracker)
    assert_all_end(process, process.pid, sig)


def test_uci_workers_end_with_the_server_during_go_infinite() -> None:
    process = start(["uci", "--engine", "pvs:workers=3"], stdin=subprocess.PIPE)
    assert process.stdin is not None
    process.stdin.write(b"uci\nisready\nposition startpos moves e2e4\ngo infinite\n")
    process.stdin.flush()
    wait_for_group(process.pid, 2)
    assert_all_end(process, process.pid, signal.SIGKILL)


def test_match_workers_end_with_the_match(tmp_path: Path) -> None:
    process = start(["match", "chess", "--a", "alphabeta:depth=4", "--b", "alphabeta:depth=4",
                     "--games", "8", "--jobs", "2", "--out", str(tmp_path / "r.jsonl")])
    wait_for_group(process.pid, 2)
    assert_all_end(process, process.pid, signal.SIGKILL)


def test_dataset_workers_end_with_the_command(tmp_path: Path) -> None:
    process = start(["dataset", "chess", "--games", "8", "--depth", "3", "--jobs", "2",
                     "--out", str(tmp_path / "d.csv")])
    wait_for_group(process.pid, 2)
    assert_all_end(process, process.pid, signal.SIGKILL)


def test_the_apps_search_process_and_its_workers_end_with_the_app() -> None:
    app = AppProcess(("play", "chess", "--first", "pvs:time=60,workers=3", "--second", "human"))
    try:
        assert app.wait_for("thinking", START_TIMEOUT), app.tail()
        wait_for_group(app.pid, 3)  # the app's search process and its two helpers
        assert_all_end(None, app.pid, signal.SIGKILL, pause=app.pump)
    finally:
        app.kill()


def _stockfish() -> str | None:
    """The binary the stockfish engine would run, if any (the engine's own search for it)."""
    from engines import SpecError
    from engines.stockfish import find_stockfish

    try:
        return find_stockfish()
    except SpecError:
        return None


def assert_program_ends_with(process: subprocess.Popen) -> None:
    """Once the command has started its UCI program, kill the command alone with SIGKILL: the
    program (in a session of its own, under its guard) and everything it started must end within
    GRACE too."""
    deadline = time.monotonic() + START_TIMEOUT
    while not any(has_mask(pid, "SigCgt", 1 << (signal.SIGTERM - 1)) for pid in children(process.pid)):
        assert time.monotonic() < deadline, "the command started no program (no guard with its handler)"
        time.sleep(0.05)
    programs = descendants(process.pid)
    assert_all_end(process, process.pid, signal.SIGKILL)
    deadline = time.monotonic() + GRACE
    while time.monotonic() < deadline and [pid for pid in programs if running(pid)]:
        time.sleep(0.02)
    left = [pid for pid in programs if running(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == [], f"the program still runs {GRACE} s after the command died: {left}"


@pytest.mark.skipif(_stockfish() is None, reason="no stockfish binary on this machine")
def test_stockfish_ends_with_the_command_searching_with_it() -> None:
    assert_program_ends_with(start(["search", "chess", "--engine", "stockfish:time=60"]))


def fake_engine(tmp_path: Path, name: str, setting: str) -> Path:
    """An executable ``name`` in ``tmp_path`` running tests/fake_uci_engine.py with ``setting``
    (``VARIABLE=value``) in its environment."""
    root = Path(__file__).resolve().parent.parent
    program = tmp_path / name
    program.write_text(f"#!/bin/sh\n{setting} PYTHONPATH='{root}' exec '{sys.executable}' "
                       f"'{root / 'tests' / 'fake_uci_engine.py'}'\n")
    program.chmod(0o755)
    return program


def test_a_uci_program_busy_searching_ends_with_the_command(tmp_path: Path) -> None:
    """A program that does not read its input while it thinks (so never sees it close) is killed
    by the kernel when the command dies (PR_SET_PDEATHSIG)."""
    program = fake_engine(tmp_path, "hangs", "FAKE_UCI_HANG=1")
    assert_program_ends_with(start(["search", "chess", "--engine", f"uci:path={program},time=60"]))


def test_what_a_uci_program_started_ends_with_the_command(tmp_path: Path) -> None:
    """A program that starts processes of its own (a shell script's children, one in a session of its
    own): they go too."""
    program = tmp_path / "spawns"
    program.write_text("#!/bin/sh\nwhile read line; do case $line in\n"
                       "uci) echo uciok;; isready) echo readyok;;\n"
                       "go*) setsid sleep 301 & sleep 300 & sleep 200;; quit) exit 0;; esac; done\n")
    program.chmod(0o755)
    process = start(["search", "chess", "--engine", f"uci:path={program},time=60"])
    deadline = time.monotonic() + START_TIMEOUT
    while len(descendants(process.pid)) < 5:  # the guard, the shell and its three sleeps (one setsid)
        assert time.monotonic() < deadline, f"only {descendants(process.pid)} started"
        time.sleep(0.05)
    assert_program_ends_with(process)


@pytest.mark.skipif(sunfish() is None, reason="no sunfish-uci (pip install sunfish in a venv)")
def test_sunfish_ends_with_the_command_searching_with_it() -> None:
    assert_program_ends_with(start(["search", "chess", "--engine", f"uci:path={sunfish()},time=60"]))


def test_a_signal_in_a_deferred_block_is_handled_as_the_block_ends() -> None:
    """Code that must not be interrupted half-way (a process pool's locks) runs
    with the stop signals held; the handler then runs once, after the block."""
    from engines.lifetime import signals_deferred

    seen: list[str] = []

    def handler(signum: int, frame: object) -> None:
        seen.append("handled")
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGUSR1, handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            with signals_deferred(frozenset({signal.SIGUSR1})):
                signal.raise_signal(signal.SIGUSR1)
                signal.raise_signal(signal.SIGUSR1)
                seen.append("block ended")
        assert seen == ["block ended", "handled"]
        assert signal.getsignal(signal.SIGUSR1) is handler
    finally:
        signal.signal(signal.SIGUSR1, previous)


# ------------------------------------------------ engines with children, on worker processes
#: The variable that marks the processes of one run (it is in the environment of all it starts).
MARK = "TUI_GAMES_LIFETIME_RUN"
def start_marked(tmp_path: Path, argv: Sequence[str]) -> tuple[subprocess.Popen, str]:
    """``argv`` started as :func:`start` does, with a mark of its own in its environment; and the mark."""
    mark = f"{MARK}={tmp_path.name}-{os.getpid()}"
    return start(argv, env={**os.environ, MARK: mark.split("=", 1)[1]}), mark


def assert_nothing_left(mark: str, since: float) -> None:
    """No process with ``mark`` runs GRACE seconds after ``since`` (the signal, or the command's end)."""
    deadline = since + GRACE
    while (left := marked(mark)) and time.monotonic() < deadline:
        time.sleep(0.02)
    for pid in left:  # do not leave them running for the next test
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert not left, f"still running {GRACE} s on: {left}"


def wait_for_marked(mark: str, ready: Callable[[dict[int, str]], bool], what: str) -> dict[int, str]:
    """The processes with ``mark`` once ``ready`` says they are there (by START_TIMEOUT)."""
    deadline = time.monotonic() + START_TIMEOUT
    while not ready(found := marked(mark)):
        assert time.monotonic() < deadline, f"no {what} after {START_TIMEOUT} s: {found}"
        time.sleep(0.05)
    return found


def sleeps(found: dict[int, str]) -> list[int]:
    """The ``sleep`` children the spawning engines started."""
    return [pid for pid, command in found.items() if command.startswith("sleep ")]


def guards(found: dict[int, str]) -> list[int]:
    """The UCI guards among ``found``."""
    return [pid for pid, command in found.items() if "uci_guard.py" in command]


@pytest.mark.parametrize("command,jobs", [("match", 1), ("match", 2), ("tournament", 2)])
def test_an_engines_children_end_with_a_run_that_finishes(tmp_path: Path, command: str, jobs: int) -> None:
    """A program that starts children and ignores ``quit``, played on one or two workers: when the run
    ends, its guards have killed every program's group (the issue's 4 and 8 orphans with ``--jobs 2``)."""
    program = fake_engine(tmp_path, "spawns", "FAKE_UCI_SPAWN=1")
    engine = f"uci:path={program},time=0.05"
    players = ["--a", engine, "--b", "random"] if command == "match" else ["--engine", engine, "--engine", "random"]
    process, mark = start_marked(tmp_path, [command, "chess", *players, "--games", "2", "--jobs", str(jobs),
                                            "--out", str(tmp_path / "r.jsonl")])
    assert process.wait(timeout=START_TIMEOUT) == 0
    assert_nothing_left(mark, time.monotonic())


def test_an_engines_children_end_with_a_killed_two_job_match(tmp_path: Path) -> None:
    """SIGKILL of a match on two workers, each playing a program that started children: the guards
    (which block no stop signal once started) end the programs and their children within GRACE."""
    program = fake_engine(tmp_path, "spawns", "FAKE_UCI_SPAWN=1")
    process, mark = start_marked(tmp_path, ["match", "chess", "--a", f"uci:path={program},time=0.05", "--b",
                                            "random", "--games", "20", "--jobs", "2",
                                            "--out", str(tmp_path / "r.jsonl")])
    found = wait_for_marked(mark, lambda found: len(sleeps(found)) >= 4 and len(guards(found)) >= 2,
                            "two engines with their children")
    wait_for_marked(mark, lambda now: not any(blocks_a_stop(pid) for pid in guards(found) if pid in now),
                    "guard that unblocked the stop signals")
    os.kill(process.pid, signal.SIGKILL)
    killed = time.monotonic()
    process.wait(timeout=10)
    assert_nothing_left(mark, killed)
