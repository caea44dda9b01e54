"""Tournaments: reproducible games, results files that survive kills, resume, summaries, joblib and dask."""

from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from engines import SpecError
from engines.tournament import (
    TOTALS,
    GameResult,
    MatchConfig,
    MatchError,
    ResultsFile,
    elo_difference,
    missing_games,
    play_game,
    play_games,
    read_results,
    summarize,
    wilson_interval,
)
from games import new_game
from cli_run import assert_usage_error, run

ROOT = Path(__file__).resolve().parent.parent

#: A tiny match: random against one-ply alpha-beta on Quixo (games of a few milliseconds).
TINY = ["quixo", "--a", "alphabeta:depth=1", "--b", "random", "--openings", "2", "--seed", "7"]


def comparable(result: GameResult) -> dict[str, Any]:
    """A result's JSON line without what depends on the clock."""
    record = json.loads(json.dumps(result.to_json()))
    record.pop("wall_s")
    for agent in ("a", "b"):
        record["stats"][agent].pop("time_s")
    record["log"] = [entry[:-1] for entry in record["log"]]  # each move's seconds
    return record


def results_by_index(path: Path) -> dict[int, dict[str, Any]]:
    results, partial = read_results(path)
    assert partial is None
    return {result.index: comparable(result) for result in results}


def comparable_summary(text: str) -> dict[str, Any]:
    summary = json.loads(text)
    summary.pop("wall_s")
    for agent in ("a", "b"):
        summary[agent]["totals"].pop("time_s")
        summary[agent]["per_move"].pop("time_s")
    return summary


# ------------------------------------------------------------------ the games
def test_paired_games_share_a_random_opening_with_colours_swapped() -> None:
    config = MatchConfig.create("checkers", "alphabeta:depth=1", "random", 4, openings=5, seed=3)
    records = [play_game(config, index).to_json() for index in range(4)]
    assert records[0]["opening"] == records[1]["opening"]
    assert records[2]["opening"] == records[3]["opening"]
    assert records[0]["opening"] != records[2]["opening"]
    assert [r["first"] for r in records] == ["a", "b", "a", "b"]
    assert records[0]["colours"] == {"a": "Black", "b": "White"}
    assert records[1]["colours"] == {"a": "White", "b": "Black"}
    for record in records:
        assert len(record["opening"]) == 5
        game = new_game("checkers")
        game.play_all(record["opening"])
        assert game.outcome() is None and game.to_text() == record["start"]
        game.play_all(record["moves"])  # the recorded game is legal and ends as recorded
        outcome = game.outcome()
        assert outcome is not None and outcome.reason == record["reason"]
        assert record["plies"] == len(record["moves"])
        winner = None if outcome.winner is None else game.PLAYERS[outcome.winner]
        assert winner == record["winner_colour"]
        expected = "draw" if winner is None else next(a for a, c in record["colours"].items() if c == winner)
        assert record["result"] == expected


def test_a_game_depends_only_on_the_match_and_its_index() -> None:
    config = MatchConfig.create("quixo", "alphabeta:depth=2", "h0:depth=2,k=3", 6, openings=3, seed=11)
    first = comparable(play_game(config, 5))
    play_game(config, 2)  # nothing carries over between games
    assert comparable(play_game(config, 5)) == first
    # Each engine got its own derived seed; the recorded specs reproduce the moves.
    assert first["engines"]["a"].startswith("alphabeta:depth=2,seed=")
    assert first["engines"]["a"] != comparable(play_game(config, 4))["engines"]["a"]
    other = MatchConfig.create("quixo", "alphabeta:depth=2", "h0:depth=2,k=3", 6, openings=3, seed=12)
    assert comparable(play_game(other, 5))["opening"] != first["opening"]


def test_an_explicit_engine_seed_is_kept() -> None:
    config = MatchConfig.create("quixo", "random:seed=5", "random", 2, openings=0)
    record = play_game(config, 1).to_json()
    assert record["engines"]["a"] == "random:seed=5"
    assert record["engines"]["b"].startswith("random:seed=")


def test_agent_totals_sum_every_statistic_over_its_moves() -> None:
    config = MatchConfig.create("quixo", "h0:depth=2,k=3", "alphabeta:depth=1", 1, openings=0)
    record = play_game(config, 0).to_json()
    a, b = record["stats"]["a"], record["stats"]["b"]
    assert list(a) == ["moves", *TOTALS] and list(b) == ["moves", *TOTALS]
    assert a["moves"] + b["moves"] == record["plies"]
    assert a["moves"] - b["moves"] in (0, 1)  # A moved first
    assert a["nodes"] > 0 and a["evals"] > 0 and a["h0_evals"] > 0 and a["h0_pruned"] > 0
    assert a["depth"] == 2 * a["moves"] and b["depth"] == b["moves"]
    assert b["h0_evals"] == 0


def test_bad_match_arguments_are_refused_up_front() -> None:
    with pytest.raises(SpecError, match="agent B: .*unknown engine"):
        MatchConfig.create("quixo", "random", "nonsense", 2)
    with pytest.raises(SpecError, match="agent A: .*heuristic"):
        MatchConfig.create("quixo", "alphabeta:heuristic=sef", "random", 2)
    with pytest.raises(MatchError):
        MatchConfig.create("quixo", "random", "random", 0)
    assert MatchConfig.create("quixo", "AlphaBeta: depth = 2", "random", 2).a == "alphabeta:depth=2"


# ------------------------------------------------------------------ summaries
def test_wilson_interval_and_elo() -> None:
    low, high = wilson_interval(5, 10)
    assert math.isclose(low, 0.2366, abs_tol=1e-4) and math.isclose(high, 0.7634, abs_tol=1e-4)
    low, high = wilson_interval(10, 10)
    assert high == 1.0 and math.isclose(low, 0.7225, abs_tol=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert elo_difference(0.5) == 0
    assert math.isclose(elo_difference(0.75), 190.85, abs_tol=0.01)
    assert math.isclose(elo_difference(0.25), -190.85, abs_tol=0.01)
    assert elo_difference(1.0) == math.inf and elo_difference(0.0) == -math.inf


def test_summary_counts_results_reasons_and_colours() -> None:
    config = MatchConfig.create("quixo", "alphabeta:depth=2", "random", 6, openings=2)
    results = [play_game(config, index) for index in range(6)]
    records = [result.to_json() for result in results]
    (summary,) = summarize(results)
    a, b = summary.a, summary.b
    assert summary.games == summary.planned == 6
    assert a.wins + a.draws + a.losses == 6 and a.wins == b.losses and a.draws == b.draws
    assert sum(a.first) == sum(a.second) == 3
    assert sum(sum(counts.values()) for counts in summary.reasons.values()) == 6
    assert a.totals["nodes"] == sum(r["stats"]["a"]["nodes"] for r in records)
    data = summary.to_dict()
    assert data["score"] == round(a.points / 6, 4)
    json.dumps(data, allow_nan=False)  # infinite Elo values are None, never NaN/Infinity


# -------------------------------------------------------------- command line
def test_match_prints_the_summary_and_writes_one_line_per_game(tmp_path: Path, capsys) -> None:
    out = tmp_path / "m.jsonl"
    code, stdout, stderr = run(capsys, "match", *TINY, "--games", "4", "--out", str(out))
    assert code == 0
    for text in ("W", "D", "L", "score % [95% CI]", "Elo [95% CI]", "per move", "nodes", "evals",
                 "prunes", "tt hits", "how the games ended", "alphabeta:depth=1", "moving first"):
        assert text in stdout, text
    assert "4/4" in stderr  # the progress bar's last state
    lines = out.read_text().splitlines()
    assert len(lines) == 4
    assert sorted(json.loads(line)["index"] for line in lines) == [0, 1, 2, 3]


def test_match_json_summary_equals_report_of_its_file(tmp_path: Path, capsys) -> None:
    out = tmp_path / "m.jsonl"
    code, stdout, _ = run(capsys, "match", *TINY, "--games", "4", "--out", str(out), "--json")
    assert code == 0
    code, report, _ = run(capsys, "report", str(out), "--json")
    assert code == 0 and report == stdout
    code, table, _ = run(capsys, "report", str(out))
    assert code == 0 and "Elo [95% CI]" in table


def test_jobs_do_not_change_the_games(tmp_path: Path, capsys) -> None:
    one, two = tmp_path / "j1.jsonl", tmp_path / "j2.jsonl"
    assert run(capsys, "match", *TINY, "--games", "6", "--out", str(one))[0] == 0
    assert run(capsys, "match", *TINY, "--games", "6", "--out", str(two), "--jobs", "2")[0] == 0
    assert results_by_index(one) == results_by_index(two)


def test_parallel_engines_run_inside_joblib_workers(capsys) -> None:
    """pvs:workers=N spawns processes from a loky worker (whose start method is 'loky')."""
    code, stdout, _ = run(capsys, "match", "quixo", "--a", "pvs:workers=2,depth=2", "--b", "random",
                          "--games", "2", "--openings", "2", "--jobs", "2", "--json")
    assert code == 0 and json.loads(stdout)["games"] == 2


def test_resume_plays_only_the_missing_games(tmp_path: Path, capsys) -> None:
    whole, broken = tmp_path / "whole.jsonl", tmp_path / "broken.jsonl"
    assert run(capsys, "match", *TINY, "--games", "6", "--out", str(whole))[0] == 0
    lines = whole.read_text().splitlines(keepends=True)
    # A run killed after games 0, 3 and 4, while writing game 5.
    broken.write_text(lines[0] + lines[3] + lines[4] + lines[5][:40])
    code, _, stderr = run(capsys, "match", *TINY, "--games", "6", "--out", str(broken), "--resume")
    assert code == 0
    assert "cut-off last line" in stderr
    assert broken.read_text().startswith(lines[0] + lines[3] + lines[4])  # nothing before it rewritten
    assert results_by_index(broken) == results_by_index(whole)
    # Resuming a finished match plays nothing and prints the same summary.
    before = broken.read_bytes()
    code, summary, _ = run(capsys, "match", *TINY, "--games", "6", "--out", str(broken), "--resume", "--json")
    assert code == 0 and broken.read_bytes() == before
    assert comparable_summary(summary) == comparable_summary(run(capsys, "report", str(whole), "--json")[1])


def test_resume_of_an_absent_file_starts_the_match(tmp_path: Path, capsys) -> None:
    out = tmp_path / "new.jsonl"
    assert run(capsys, "match", *TINY, "--games", "2", "--out", str(out), "--resume")[0] == 0
    assert len(out.read_text().splitlines()) == 2


@pytest.mark.slow
def test_a_killed_run_loses_no_finished_game_and_resumes_to_the_same_totals(tmp_path: Path, capsys) -> None:
    """SIGKILL a real run after some games, resume it, compare with an unbroken run."""
    argv = ["quixo", "--a", "alphabeta:depth=2", "--b", "h0:depth=3,k=4", "--games", "20", "--openings", "3"]
    killed = tmp_path / "killed.jsonl"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    process = subprocess.Popen([sys.executable, "-m", "tui.cli", "match", *argv, "--out", str(killed)],
                               cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline and process.poll() is None:
            if killed.exists() and killed.read_bytes().count(b"\n") >= 3:
                break
            time.sleep(0.005)
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait()
    saved, partial = read_results(killed)
    assert 3 <= len(saved) < 20  # killed mid-run; every line it finished is there and whole
    code, _, _ = run(capsys, "match", *argv, "--out", str(killed), "--resume", "--json")
    assert code == 0
    whole = tmp_path / "whole.jsonl"
    assert run(capsys, "match", *argv, "--out", str(whole))[0] == 0
    assert results_by_index(killed) == results_by_index(whole)
    totals = [comparable_summary(run(capsys, "report", str(path), "--json")[1]) for path in (killed, whole)]
    assert totals[0] == totals[1]


def test_a_malformed_results_file_is_named_and_left_untouched(tmp_path: Path, capsys) -> None:
    out = tmp_path / "m.jsonl"
    assert run(capsys, "match", *TINY, "--games", "4", "--out", str(out))[0] == 0
    lines = out.read_text().splitlines(keepends=True)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(lines[0] + "this is not json\n" + lines[1])
    before = bad.read_bytes()
    for argv in (["match", *TINY, "--games", "4", "--out", str(bad), "--resume"], ["report", str(bad)]):
        assert_usage_error(capsys, argv, f"{bad}:2: not a JSON game record")
        assert bad.read_bytes() == before
    bad.write_text(lines[0] + '{"index": 1}\n')
    assert_usage_error(capsys, ["report", str(bad)], f"{bad}:2: not a game record")
    bad.write_text(lines[0] + lines[0])
    assert_usage_error(capsys, ["report", str(bad)], f"{bad}:2: game")
    # Blank lines (files joined by hand) are no records and no errors.
    bad.write_text(lines[0] + "\n  \n" + lines[1])
    assert len(read_results(bad)[0]) == 2
    # A cut-off last line: report ignores it and says so.
    bad.write_text(lines[0] + lines[1][:30])
    code, stdout, stderr = run(capsys, "report", str(bad))
    assert code == 0 and f"{bad}:2: ignored its cut-off last line" in stderr and "1 game" in stdout


def test_results_of_another_match_or_without_resume_are_not_touched(tmp_path: Path, capsys) -> None:
    out = tmp_path / "m.jsonl"
    assert run(capsys, "match", *TINY, "--games", "2", "--out", str(out))[0] == 0
    before = out.read_bytes()
    assert_usage_error(capsys, ["match", *TINY, "--games", "2", "--out", str(out)], "--resume")
    assert_usage_error(capsys, ["match", *TINY, "--games", "4", "--out", str(out), "--resume"],
                       f"{out}:1: a game of another match (its number of games is 2, not 4")
    assert_usage_error(capsys, ["match", *TINY, "--games", "2", "--seed", "8", "--out", str(out), "--resume"],
                       "another match")
    assert out.read_bytes() == before


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["match", "quixo", "--a", "random", "--b", "random", "--games", "0"], "--games"),
        (["match", "quixo", "--a", "random", "--b", "random", "--games", "2", "--jobs", "0"], "--jobs"),
        (["match", "quixo", "--a", "random", "--b", "random", "--games", "2", "--openings", "-1"], "--openings"),
        (["match", "quixo", "--a", "random", "--games", "2"], "--b"),
        (["match", "go", "--a", "random", "--b", "random", "--games", "2"], "unknown game"),
        (["match", "quixo", "--a", "random", "--b", "pvs:depth=0", "--games", "2"], "agent B"),
        (["match", "quixo", "--a", "random", "--b", "random", "--games", "2", "--resume"], "--out"),
        (["match", "quixo", "--a", "random", "--b", "random", "--games", "2", "--jobs", "2",
          "--dask", "tcp://127.0.0.1:8786"], "--dask"),
        (["report", "/no/such/results.jsonl"], "no such file"),
    ],
)
def test_match_and_report_bad_input_is_one_line_and_exit_2(capsys, argv: list[str], needle: str) -> None:
    assert_usage_error(capsys, argv, needle)


def test_results_file_refuses_a_directory(tmp_path: Path) -> None:
    config = MatchConfig.create("quixo", "random", "random", 2)
    with pytest.raises(MatchError, match="directory"):
        ResultsFile.open(tmp_path, config, resume=True)
    assert list(missing_games(config, [])) == [0, 1]


# ----------------------------------------------------------------------- dask
@pytest.mark.slow
def test_a_match_on_a_local_dask_cluster(tmp_path: Path, capsys) -> None:
    distributed = pytest.importorskip("distributed")
    config = MatchConfig.create("quixo", "alphabeta:depth=1", "random", 4, openings=2, seed=7)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        out = tmp_path / "dask.jsonl"
        code, _, _ = run(capsys, "match", *TINY, "--games", "4", "--out", str(out),
                         "--dask", cluster.scheduler_address)
        assert code == 0
    expected = {index: comparable(play_game(config, index)) for index in range(4)}
    assert results_by_index(out) == expected


def test_an_unreachable_dask_scheduler_is_one_line(capsys, monkeypatch) -> None:
    pytest.importorskip("distributed")
    import engines.tournament.match

    monkeypatch.setattr(engines.tournament.match, "DASK_TIMEOUT", 1)
    assert_usage_error(capsys, ["match", *TINY, "--games", "2", "--dask", "tcp://127.0.0.1:9"],
                       "no dask scheduler reachable")


@contextlib.contextmanager
def not_a_scheduler(greeting: bytes | None) -> Iterator[str]:
    """The address of a TCP listener on 127.0.0.1 that accepts connections and says ``greeting`` on each
    (``None``: nothing, ever), as a dask scheduler would not."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                connection, _ = server.accept()
            except OSError:  # closed: the test is over
                return
            held.append(connection)
            if greeting is not None:
                connection.sendall(greeting)

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        server.close()
        for connection in held:
            connection.close()


@pytest.mark.parametrize("greeting,needle", [
    (None, "gave no dask handshake within 0.5 s"),
    (b'{"hello": "tui-games", "game": "chess"}\n', "not dask's protocol"),  # a `tui-games host` port's kind
    (b"\x00" * 8 + b"garbage", "not dask's protocol"),
], ids=["silent", "a line of text", "garbage"])
def test_a_listener_that_is_not_a_dask_scheduler_is_one_line(capsys, monkeypatch, greeting: bytes | None,
                                                             needle: str) -> None:
    """A silent listener is given up after the handshake timeout, and any answer that is not dask's
    handshake is refused: one line, exit 2 (no exabyte allocation's traceback, no wait of minutes)."""
    pytest.importorskip("distributed")
    import engines.tournament.match

    monkeypatch.setattr(engines.tournament.match, "DASK_TIMEOUT", 0.5)
    monkeypatch.setattr(engines.tournament.match, "DASK_HANDSHAKE_TIMEOUT", 0.5)
    with not_a_scheduler(greeting) as address:
        assert_usage_error(capsys, ["match", *TINY, "--games", "2", "--dask", address], needle)


def test_play_games_yields_every_requested_game_once() -> None:
    config = MatchConfig.create("quixo", "random", "random", 5, openings=1)
    assert sorted(r.index for r in play_games(config, [4, 0, 2])) == [0, 2, 4]


def test_report_shows_the_sprt_of_a_match_file_as_match_does(tmp_path: Path, capsys) -> None:
    out = tmp_path / "s.jsonl"
    code, played, _ = run(capsys, "match", "quixo", "--a", "pvs:depth=2", "--b", "random", "--games", "6",
                          "--sprt", "0,200", "--out", str(out))
    assert code == 0
    sprt = played[played.index("SPRT: "):]
    assert "LLR: " in sprt
    code, reported, _ = run(capsys, "report", str(out))
    assert code == 0
    assert reported.endswith(sprt)
    code, as_json, _ = run(capsys, "report", str(out), "--json")
    test = json.loads(as_json.splitlines()[-1])["sprt"]
    assert (test["elo0"], test["elo1"], test["alpha"]) == (0, 200, 0.05)


def test_a_run_refused_for_its_records_file_leaves_no_results_file(tmp_path: Path, capsys) -> None:
    records = tmp_path / "r.txt"
    records.write_text("not ours\n")
    out = tmp_path / "r.jsonl"
    assert_usage_error(capsys, ["match", "quixo", "--a", "random", "--b", "random", "--games", "2",
                                "--out", str(out)], "r.txt: already holds something that is not a game records file")
    assert not out.exists()
    assert records.read_text() == "not ours\n"
