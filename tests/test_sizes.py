"""Sizes are the machine's: ``--jobs`` capped at the tasks and the cores, the
``hash`` option at the free memory, every clamp said once in one line."""

from __future__ import annotations

import json

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
    (2, 0, 2, 1, None),  # a finished tournament resumed: no game to play, no worker to blame on the cores
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


def test_a_finished_tournament_resumed_with_two_jobs_says_nothing_of_the_cores(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "quixo", "--engine", "random", "--engine", "alphabeta:depth=1", "--games", "2",
            "--out", str(tmp_path / "t.jsonl")]
    assert main(argv) == 0
    capsys.readouterr()
    assert main([*argv, "--resume", "--jobs", "2"]) == 0
    assert "--jobs" not in capsys.readouterr().err


# ------------------------------------------------------------------ hash: what the machine holds
from engines import notices  # noqa: E402
from engines.registry import MAX_HASH, parse_engine_spec, spec_notices  # noqa: E402
from engines.search import table as tables  # noqa: E402
from engines.search.table import MEGABYTE, SharedTable, hash_cap, shared_entries  # noqa: E402

GIB = 1 << 30


@pytest.mark.parametrize(("asked", "shared", "memory", "shm", "gets"), [
    (65536, True, 24 * GIB, 23 * GIB, 23 * 1024 // 2),  # /dev/shm is the tighter
    (65536, False, 24 * GIB, 1 * GIB, 24 * 1024 // 2),  # a dict table does not live there
    (8192, True, 24 * GIB, 23 * GIB, 8192),
    (1, True, 1000, 1000, 1),  # never under a megabyte
])
def test_hash_is_capped_by_the_free_memory(asked: int, shared: bool, memory: int, shm: int, gets: int) -> None:
    megabytes, why = hash_cap(asked, shared=shared, memory=memory, shm=shm)
    assert megabytes == gets
    assert (why is None) == (gets == asked)
    if why is not None:
        assert why.startswith(f"hash={asked:,} MB is more than this machine can hold (")
        assert why.endswith(f"the table gets {gets:,} MB") and "\n" not in why


def test_the_machine_says_its_memory() -> None:
    memory, shm = tables.available_memory(), tables.shared_memory_free()
    assert memory is None or memory > 0
    assert shm is None or shm >= 0
    assert hash_cap(MAX_HASH, shared=True)[0] * MEGABYTE <= max(memory or 0, shm or 0) or memory is None


def _shared_resident() -> int:
    """Kilobytes of shared memory this process has touched (RssShmem)."""
    with open("/proc/self/status", encoding="ascii") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("RssShmem:"))


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_shared_table_costs_what_it_holds_not_its_size() -> None:
    """A 384 MB table is made, filled a little and cleared touching a few pages, where
    writing zeros over all of it took seconds at 8 GB (and Ctrl-C waited for it)."""
    from games import new_game

    before = _shared_resident()
    with SharedTable(shared_entries(400)) as table:
        assert table.array.nbytes == 384 * MEGABYTE  # the largest power of two of entries that fits
        assert _shared_resident() - before < 1024  # kilobytes: nothing written
        table.bind(new_game("chess"))
        for key in range(1000):
            table[(key,)] = (3, 0, key, None)
        touched = _shared_resident() - before
        assert 0 < touched < 8 * 1024
        assert table.get((7,)) == (3, 0, 7, None)
        table.clear()
        assert _shared_resident() - before < touched  # the pages went back to the kernel
        assert all(table.get((key,)) is None for key in range(1000))


def test_a_cleared_table_reads_empty_in_every_process_that_maps_it() -> None:
    from games import new_game

    with SharedTable(1 << 12) as made:
        other = SharedTable(1 << 12, name=made.name)
        made.bind(new_game("quixo"))
        other.bind(new_game("quixo"))
        made[(5,)] = (2, 0, 9, None)
        assert other.get((5,)) == (2, 0, 9, None)
        made.clear()
        assert other.get((5,)) is None
        other.close()


def test_a_parallel_engine_gets_the_table_the_machine_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    from engines import create_engine
    from games import game_class

    monkeypatch.setattr(tables, "shared_memory_free", lambda folder=tables.SHM_DIR: 64 * MEGABYTE)
    engine = create_engine("pvs:workers=2,hash=65536", game_class("quixo"))
    try:
        assert engine.hash_mb == 32  # half of the free space where the block lives
    finally:
        engine.close()


# ------------------------------------------------------------------ notices: every clamp said once
# (conftest's no_waiting_notices: notices said by earlier tests are not this test's)
def test_a_depth_beyond_the_search_is_said_once(capsys: pytest.CaptureFixture[str]) -> None:
    assert spec_notices(parse_engine_spec("alphabeta:depth=999")) == [
        "alphabeta: depth=999 is beyond the search's 64 plies: it searches 64 at most"]
    assert spec_notices(parse_engine_spec("alphabeta:depth=64")) == []
    assert spec_notices(parse_engine_spec("random")) == []
    assert main(["search", "quixo", "--engine", "pvs:depth=999,nodes=300"]) == 0
    err = capsys.readouterr().err
    assert err.count("tui-games: pvs: depth=999 is beyond the search's 64 plies") == 1, err


def test_a_hash_over_the_machine_is_said_once(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(tables, "available_memory", lambda meminfo="": 100 * MEGABYTE)
    assert spec_notices(parse_engine_spec("pvs:hash=60")) == [
        "pvs: hash=60 MB is more than this machine can hold (100 MB of memory available): the table gets 50 MB"]
    assert spec_notices(parse_engine_spec("pvs:hash=50")) == []
    assert main(["search", "quixo", "--engine", "alphabeta:hash=77,depth=2"]) == 0
    assert main(["search", "quixo", "--engine", "alphabeta:hash=77,depth=3"]) == 0
    err = capsys.readouterr().err
    assert err.count("hash=77 MB is more than this machine can hold") == 1, err


def test_a_notice_said_before_anyone_listens_waits_for_the_first() -> None:
    text = "test: a notice nobody heard yet"
    notices.say(text)
    heard: list[str] = []
    stop = notices.listen(heard.append)
    notices.say(text)
    stop()
    assert heard == [text] and text in notices.said()


# ------------------------------------------------------------------ messages that say what is wrong
@pytest.mark.parametrize(("argv", "said"), [
    (["--tc", "-1+0"], "argument --tc: expected a value after it (write one starting with '-' as --tc=VALUE)"),
    (["--tc=-1+0"], "bad time control '-1+0': the base must be above 0 and at most 86400 seconds"),
    (["--tc", "1e9+1e9"], "bad time control '1e9+1e9': the base must be above 0 and at most 86400 seconds"),
    (["--tc", "10+-1"], "bad time control '10+-1': the increment is 0 to 3600 seconds"),
    (["--resign", "movecount=12345678901234567890123,score=100"],
     "movecount is too large (under 1,000,000,000), got 12345678901234567890... (23 characters)"),
    (["--resign", "movecount=-1,score=100"], "movecount must be 0 or more, got -1"),
])
def test_a_refused_condition_says_what_is_wrong(capsys: pytest.CaptureFixture[str], argv: list[str], said: str) -> None:
    assert main(["match", "quixo", "--a", "random", "--b", "random", "--games", "1", *argv]) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1, err


@pytest.mark.parametrize("argv", [["bench", "parallel", "--workers", "0"], ["bench", "clock", "--games", "0"]])
def test_bench_names_the_flag_it_refuses(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"argument {argv[2]}: expected a whole number >= 1, got '0'" in err and "DEPTH" not in err, err


def test_a_search_that_completed_no_depth_gives_no_score(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "chess", "--engine", "pvs:nodes=1"]) == 0
    out = capsys.readouterr().out
    assert "score      none: no depth was completed within the limit" in out, out
    assert main(["search", "chess", "--engine", "pvs:depth=1"]) == 0
    assert "(for White, to move)" in capsys.readouterr().out
    assert main(["search", "chess", "--engine", "pvs:nodes=1", "--json"]) == 0
    unsearched = json.loads(capsys.readouterr().out)
    assert unsearched["score"] is None and unsearched["depth"] == 0 and unsearched["best"]
    assert main(["search", "chess", "--engine", "pvs:depth=1", "--json"]) == 0
    assert isinstance(json.loads(capsys.readouterr().out)["score"], int)


def test_the_app_needs_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "tui.cli", "play", "chess"], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == "tui-games: error: the app needs a terminal: its standard input is not one\n"
