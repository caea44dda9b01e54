"""Ctrl-C during a tournament or an experiment, as a terminal sends it.

SIGINT goes to the whole process group: the command prints what is finished,
exits 130 with no traceback (none from loky's workers either, even from one
still starting up), its results file stays valid, no process of the group
is left 2 s later and no semaphore in /dev/shm.  SIGHUP and SIGTERM on the
group do the same, exiting 129 and 143.  Real processes in a session of their own, signalled with
``os.killpg`` once the first game is in the results file.  (``match`` is in
test_signals.py.)
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engines.tournament.results import read_results

from processes import group_gone, leaked_shm, shm_files

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("processes")]  # see test_signals.py

COMMAND = [sys.executable, "-m", "tui.cli"]


def _interrupt_after_first_game(argv: list[str], results: Path, cwd: Path,
                                sig: int = signal.SIGINT) -> tuple[int, str, str, int]:
    process = subprocess.Popen([*COMMAND, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, cwd=cwd)
    deadline = time.monotonic() + 60
    while ((not results.exists() or results.stat().st_size == 0) and process.poll() is None
           and time.monotonic() < deadline):
        time.sleep(0.02)
    assert process.poll() is None, process.communicate()
    os.killpg(process.pid, sig)
    out, err = process.communicate(timeout=30)
    return process.returncode, out, err, process.pid


def _check(code: int, err: str, pgid: int, results: Path, sig: int = signal.SIGINT,
           before: set[str] | None = None) -> None:
    assert code == 128 + sig, err
    assert "Traceback" not in err and "leaked" not in err, err
    assert "interrupted after" in err and "--resume" in err, err
    assert group_gone(pgid)
    if before is not None:
        assert leaked_shm(before, pgid) == []
    kept, partial = read_results(results)
    assert kept and partial is None


@pytest.mark.parametrize(("jobs", "sig"), [("1", signal.SIGINT), ("2", signal.SIGINT), ("2", signal.SIGHUP),
                                           ("2", signal.SIGTERM)])
def test_a_tournament_keeps_its_finished_games(tmp_path: Path, jobs: str, sig: int) -> None:
    out = tmp_path / "t.jsonl"
    before = shm_files()
    code, text, err, pgid = _interrupt_after_first_game(
        ["tournament", "quixo", "--engine", "pvs:depth=2", "--engine", "pvs:depth=1", "--games", "200",
         "--jobs", jobs, "--out", str(out)], out, tmp_path, sig)
    _check(code, err, pgid, out, sig, before)
    assert "pvs:depth=1" in text  # the crosstable of the games finished


@pytest.mark.parametrize(("jobs", "sig"), [("1", signal.SIGINT), ("2", signal.SIGINT), ("2", signal.SIGHUP),
                                           ("1", signal.SIGTERM)])
def test_an_experiment_keeps_its_finished_games(tmp_path: Path, jobs: str, sig: int) -> None:
    folder = tmp_path / "run"
    before = shm_files()
    code, text, err, pgid = _interrupt_after_first_game(
        ["experiment", "seed004-quixo", "--games", "100", "--jobs", jobs, "--out", str(folder)],
        folder / "games.jsonl", tmp_path, sig)
    _check(code, err, pgid, folder / "games.jsonl", sig, before)
    assert "depth 1" in text  # the summary of the games finished


def _signal_masks(_: None, index: int) -> tuple[int, int]:
    """The signals this worker process blocks (its main thread) and those it ignores."""
    with open("/proc/self/status", encoding="ascii") as status:
        fields = dict(line.split(":", 1) for line in status)
    return int(fields["SigBlk"], 16), int(fields["SigIgn"], 16)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_match_workers_are_deaf_to_ctrl_c_and_block_nothing() -> None:
    """A worker still importing when Ctrl-C reaches the group must not print a
    KeyboardInterrupt traceback: it starts with the stop signals blocked, and
    once started it ignores them, and no longer blocks them, so that what it
    starts (a UCI engine's guard) gets the mask a process should have (the
    parent's own SIGINT handling is unchanged)."""
    from engines.tournament.match import parallel_games

    stops = sum(1 << (sig - 1) for sig in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM))
    masks = list(parallel_games(_signal_masks, None, range(4), jobs=2, ordered=True, workers_only=True))
    assert all(not blocked & stops and ignored & stops == stops for blocked, ignored in masks), \
        [(hex(blocked), hex(ignored)) for blocked, ignored in masks]
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGHUP, signal.SIGTERM])
def test_puzzles_make_writes_what_it_found_and_exits_as_the_signal_says(tmp_path: Path, sig: int) -> None:
    """``puzzles --make`` stopped once it has found a puzzle writes those found and exits 130, 129 or
    143 as the other runs do (it exited 0)."""
    out = tmp_path / "p.txt"
    process = subprocess.Popen([*COMMAND, "puzzles", "quixo", "--make", "50", "--out", str(out)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    assert process.stderr is not None
    deadline = time.monotonic() + 60
    while not re.match(r"[1-9]\d* puzzles from", line := process.stderr.readline()):
        assert line and time.monotonic() < deadline, f"no puzzle found: {line!r}"
    os.killpg(process.pid, sig)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 128 + sig, err
    assert "Traceback" not in err
    assert "--make" in out.read_text()


def test_a_pool_worker_watches_its_parent_before_it_imports_the_engines() -> None:
    """The pool's initializer runs engines/lifetime.py by its path: a worker watches its parent (and
    ignores the stop signals) before ``import engines`` (a second or more), so one whose parent is
    killed while it starts goes sooner.  The pickle is the test's own."""
    import pickle

    from engines.lifetime import worker_initializer

    sent = pickle.dumps(worker_initializer(os.getpid()))
    code = ("import pickle, signal, sys, threading\n"
            f"initializer, initargs = pickle.loads({sent!r})\n"
            "initializer(*initargs)\n"
            "print('engines' in sys.modules, signal.getsignal(signal.SIGTERM) == signal.SIG_IGN,\n"
            "      [thread.name for thread in threading.enumerate()])\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).resolve().parent.parent)
    assert done.stdout.startswith("False True ") and "exit-with-parent" in done.stdout, done.stderr
