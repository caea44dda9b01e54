"""Ctrl-C in a terminal: SIGINT to the whole process group; the terminal closed
(SIGHUP) and ``kill``/``timeout`` (SIGTERM) on the group do the same.

Each command prints what is finished, exits 128 + the signal (130, 129, 143)
with no traceback, and leaves no process behind (its helpers ignore those
signals and are stopped by their parent) nor any semaphore or shared memory
in /dev/shm.  Real processes in a session of their own, signalled with
``os.killpg``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from processes import group_gone, leaked_shm, shm_files

#: One worker runs the tests that kill process trees or count what they leave in /dev/shm, one at a time:
#: a tree killed by one test must not be counted as another's leak.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("processes")]

COMMAND = [sys.executable, "-m", "tui.cli"]


def _start(*argv: str, stdin: int | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([*COMMAND, *argv], stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)


def _interrupt(process: subprocess.Popen[str], sig: int = signal.SIGINT) -> tuple[str, str]:
    """Signal the group and read the rest of both streams through their file objects:
    ``communicate()`` reads the pipes underneath and would drop what an earlier
    ``readline()`` had already buffered (a depth line, read ahead, then missing)."""
    assert process.stdout is not None and process.stderr is not None
    os.killpg(process.pid, sig)
    with ThreadPoolExecutor(2) as readers:
        out, err = readers.submit(process.stdout.read), readers.submit(process.stderr.read)
        process.wait(timeout=30)
        return out.result(timeout=30), err.result(timeout=30)


@pytest.mark.parametrize(("engine", "sig"), [("pvs", signal.SIGINT), ("pvs:workers=2", signal.SIGINT),
                                             ("pvs:workers=2", signal.SIGHUP), ("pvs:workers=2", signal.SIGTERM)])
def test_search_prints_its_last_completed_depth(engine: str, sig: int) -> None:
    before = shm_files()
    process = _start("search", "chess", "--engine", engine)
    assert process.stdout is not None
    lines = [process.stdout.readline(), process.stdout.readline()]  # depths 1 and 2 are done
    out, err = _interrupt(process, sig)
    assert process.returncode == 128 + sig, err
    assert "Traceback" not in err and "interrupted" in err
    def progress(line: str) -> bool:  # "depth 5  score 23  nodes ...  pv Nf3 Nf6 d4 d5 Nc3"
        return line.startswith("depth ") and " pv " in line

    last = [" ".join(line.split()) for line in lines + out.splitlines() if progress(line)][-1]
    summary = dict(line.split(None, 1) for line in out.splitlines() if line.strip() and not progress(line))
    # The summary is the deepest completed depth: its score and its whole line.
    assert summary["pv"].split() == last.split(" pv ", 1)[1].split()
    assert summary["score"].split()[0] == last.split()[3]
    assert group_gone(process.pid)
    assert leaked_shm(before, process.pid) == []


def test_uci_answers_bestmove_and_ends() -> None:
    process = _start("uci", "--engine", "pvs:workers=2", stdin=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write("uci\nisready\nposition startpos\ngo infinite\n")
    process.stdin.flush()
    while not process.stdout.readline().startswith("info depth 2"):
        pass
    out, err = _interrupt(process)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    assert any(line.startswith("bestmove ") for line in out.splitlines()), (out[-800:], err[-1500:])
    assert group_gone(process.pid)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGHUP, signal.SIGTERM])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_match_keeps_its_finished_games(tmp_path: Path, jobs: str, sig: int) -> None:
    out = tmp_path / "r.jsonl"
    before = shm_files()
    process = _start("match", "quixo", "--a", "pvs:depth=2", "--b", "pvs:depth=2", "--games", "200",
                     "--jobs", jobs, "--out", str(out))
    deadline = time.monotonic() + 60
    while (not out.exists() or out.stat().st_size == 0) and time.monotonic() < deadline:
        time.sleep(0.05)
    _, err = _interrupt(process, sig)
    assert process.returncode == 128 + sig, err
    assert "Traceback" not in err and "leaked" not in err and "interrupted after" in err, err
    assert group_gone(process.pid)
    assert leaked_shm(before, process.pid) == []
    from engines.tournament.results import read_results

    results, partial = read_results(out)
    assert results and partial is None


def test_sigterm_to_the_command_alone_stops_its_workers_too(tmp_path: Path) -> None:
    """``kill PID`` (not the group): the workers are stopped by the command, not by the signal."""
    out = tmp_path / "r.jsonl"
    before = shm_files()
    process = _start("match", "quixo", "--a", "pvs:depth=2", "--b", "pvs:depth=2", "--games", "200",
                     "--jobs", "2", "--out", str(out))
    deadline = time.monotonic() + 60
    while (not out.exists() or out.stat().st_size == 0) and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 143, err
    assert "Traceback" not in err and "interrupted after" in err, err
    assert group_gone(process.pid)
    assert leaked_shm(before, process.pid) == []
