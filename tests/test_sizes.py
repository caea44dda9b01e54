"""Sizes are the machine's: ``--jobs`` capped at the tasks and the cores, the
``hash`` option at the free memory, every clamp said once in one line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import tui.cli.common as common
from tui.cli import main


@pytest.mark.parametrize(("jobs", "tasks", "cores", "started", "said"), [
    (1000, 2, 8, 2, "--jobs 1,000 is more than the 2 games to play: starting 2 workers"),
    (1000, None, 8, 8, "--jobs 1,000 is more than this machine's 8 cores: starting 8 workers"),
    (16, 100, 4, 4, "--jobs 16 is more than this machine's 4 cores: starting 4 workers"),
    (3, 1, 4, 1, "--jobs 3 is more than the 1 game to play: starting 1 worker"),
    (4, 4, 4, 4, None),
    (1, 0, 4, 1, None),
])
def test_jobs_are_capped_at_the_tasks_and_the_cores(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                                    jobs: int, tasks: int | None, cores: int, started: int,
                                                    said: str | None) -> None:
    monkeypatch.setattr(common, "machine_cores", lambda: cores)
    assert common.capped_jobs("tui-games match", jobs, tasks) == started
    err = capsys.readouterr().err
    assert err == ("" if said is None else f"tui-games match: {said}\n")


def test_the_cores_are_this_processs_own() -> None:
    assert common.machine_cores() == len(os.sched_getaffinity(0))


def test_a_match_of_two_games_starts_two_workers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.jsonl"
    assert main(["match", "quixo", "--a", "random", "--b", "random", "--games", "2", "--jobs", "1000",
                 "--out", str(out), "--json"]) == 0
    err = capsys.readouterr().err
    started = min(2, common.machine_cores())
    notices = [line for line in err.splitlines() if "--jobs" in line]
    assert len(notices) == 1 and notices[0].startswith("tui-games match: --jobs 1,000 is more than "), err
    assert notices[0].endswith(f": starting {started} worker{'s' * (started != 1)}"), err
    assert len(out.read_text().splitlines()) == 2
