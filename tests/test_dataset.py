"""Self-play datasets: the CSV contract, labels a direct search reproduces, determinism, safety."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cli_run import assert_usage_error, run
from engines import MATE_BOUND, create_engine, mate_in
from engines.learning.dataset import (
    FORMAT,
    MAX_PLIES_REASON,
    DatasetConfig,
    DatasetError,
    Labeller,
    label_score,
    meta_path,
    play_dataset_game,
    self_play,
    write_dataset,
)
from engines.tournament.match import derived_seed
from games import GAME_NAMES, WIN, game_class, game_kind, new_game

ROOT = Path(__file__).resolve().parent.parent
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"  # White mates with Ra8
MATED_IN_ONE = "k7/8/1K6/8/8/8/8/7R b - - 0 1"  # Black's only move Kb8 runs into Rh8

def read_csv(path: Path) -> tuple[list[str], list[list[str]]]:
    with open(path, newline="", encoding="utf-8") as handle:
        header, *rows = list(csv.reader(handle))
    return header, rows


def contract_columns(name: str) -> list[str]:
    return ["game_id", "ply", "side", "position", *game_class(name).FEATURE_NAMES, "h0", "h_l", "mate", "outcome"]


def executable(path: Path, command: str) -> Path:
    path.write_text(f"#!/bin/sh\nPYTHONPATH='{ROOT}' exec '{sys.executable}' {command}\n")
    path.chmod(0o755)
    return path


def direct_label(name: str, position: str, depth: int, heuristic: str, seed: int) -> tuple[Any, int, int]:
    """The move, h_l and mate the contract asks for, from a search of the position text alone."""
    cls = game_class(name)
    result = create_engine(f"alphabeta:depth={depth},heuristic={heuristic},seed={seed}", cls).search(
        new_game(name, position))
    mate = mate_in(result.score)
    if mate is None:
        return result.move, result.score, 0
    assert abs(result.score) >= MATE_BOUND
    return result.move, (cls.DECISIVE_SCORE if mate > 0 else -cls.DECISIVE_SCORE), mate


def successor_move(name: str, before: str, after: str) -> Any:
    """The legal move that turns position ``before`` into ``after`` (None if there is none)."""
    game = new_game(name, before)
    for move in game.legal_moves():
        game.play(move)
        reached = game.to_text()
        game.undo()
        if reached == after:
            return move
    return None


# ----------------------------------------------------------------- the rows
@pytest.mark.parametrize("name", GAME_NAMES)
def test_rows_follow_the_contract_and_a_direct_search_gives_their_labels(name: str, tmp_path: Path) -> None:
    # A tiny dataset: a second or two (the game's samples say where its games are cut).
    depth, max_plies = 2, game_kind(name).samples.dataset_plies
    config = DatasetConfig(name, 2, depth, openings=3, seed=5, explore=0.5, max_plies=max_plies)
    out = tmp_path / "data.csv"
    summary = write_dataset(config, out)
    header, rows = read_csv(out)
    assert header == contract_columns(name)
    cls = game_class(name)
    features = len(cls.FEATURE_NAMES)
    heuristic = cls.DEFAULT_HEURISTIC
    assert config.heuristic == heuristic
    assert summary.games == 2 and summary.positions == len(rows)
    assert sum(summary.reasons.values()) == 2
    by_game: dict[int, list[list[str]]] = {}
    for row in rows:
        assert len(row) == len(header)
        by_game.setdefault(int(row[0]), []).append(row)
    assert sorted(by_game) == [0, 1]
    for game_id, game_rows in by_game.items():
        plies = [int(row[1]) for row in game_rows]
        assert plies == list(range(3, 3 + len(game_rows)))  # after the 3-ply opening, one row a ply
        assert len(game_rows) <= max_plies
        for before, after in zip(game_rows, game_rows[1:]):  # consecutive rows: one legal move apart
            assert successor_move(name, before[3], after[3]) is not None
        for row in game_rows[:3] + game_rows[-1:]:
            position = new_game(name, row[3])
            side = int(row[2])
            assert side == position.turn and position.outcome() is None
            assert row[4:4 + features] == [str(value) for value in position.features(side)]
            assert row[4 + features] == str(position.evaluate(side, heuristic))
            _, h_l, mate = direct_label(name, row[3], depth, heuristic,
                                        derived_seed(5, name, game_id, int(row[1])))
            assert (int(row[-3]), int(row[-2])) == (h_l, mate)
    for row in rows:  # decided rows carry the decisive score, no other row reaches a win's scale
        h_l, mate = int(row[-3]), int(row[-2])
        if mate:
            assert h_l == (cls.DECISIVE_SCORE if mate > 0 else -cls.DECISIVE_SCORE)
        else:
            assert abs(h_l) < MATE_BOUND


def test_without_exploration_the_searched_move_is_played() -> None:
    """Checkers at depth 2 has ties between moves to different positions: the seed picks among them."""
    config = DatasetConfig("checkers", 1, 2, openings=2, seed=3, explore=0.0, max_plies=20)
    rows = play_dataset_game(config, 0)
    assert len(rows) == 20
    for before, after in zip(rows, rows[1:]):
        move, _, _ = direct_label("checkers", before[3], 2, config.heuristic,
                                  derived_seed(3, "checkers", 0, before[1]))
        game = new_game("checkers", before[3])
        game.play(move)
        assert game.to_text() == after[3]


def test_exploration_plays_moves_the_search_did_not_choose() -> None:
    config = DatasetConfig("quixo", 1, 1, openings=2, seed=3, explore=1.0, max_plies=30)
    rows = play_dataset_game(config, 0)
    differ = 0
    for before, after in zip(rows, rows[1:]):
        move, _, _ = direct_label("quixo", before[3], 1, config.heuristic, derived_seed(3, "quixo", 0, before[1]))
        game = new_game("quixo", before[3])
        game.play(move)
        differ += game.to_text() != after[3]
    assert differ >= len(rows) // 2


def test_games_stop_at_max_plies_and_say_so(tmp_path: Path) -> None:
    config = DatasetConfig("checkers", 3, 1, openings=0, seed=1, max_plies=5)
    summary = write_dataset(config, tmp_path / "d.csv")
    _, rows = read_csv(tmp_path / "d.csv")
    assert summary.reasons == {MAX_PLIES_REASON: 3}
    assert summary.positions == len(rows) == 15 and summary.plies == 15
    assert [int(row[1]) for row in rows] == [0, 1, 2, 3, 4] * 3
    assert all(row[-1] == "" for row in rows)  # the outcome is not known


@pytest.mark.parametrize("name", GAME_NAMES)
def test_each_row_carries_its_games_outcome_for_its_side_to_move(name: str) -> None:
    if not game_kind(name).samples.self_play_ends:
        pytest.skip(f"{name}'s self-play does not end quickly (its samples' self_play_ends)")
    config = DatasetConfig(name, 4, 1, openings=2, seed=4, explore=0.3, max_plies=400)
    for index in range(config.games):
        played = self_play(config, index)
        assert played.reason != MAX_PLIES_REASON
        by_side = {side: {row[-1] for row in played.rows if int(row[2]) == side} for side in (0, 1)}
        assert all(len(results) == 1 for results in by_side.values())  # one outcome a game
        first, second = (float(by_side[side].pop()) for side in (0, 1))
        assert first + second == 1.0 and first in (0.0, 0.5, 1.0)
        # Where the last row's position decides the winner by itself (no repetition), check it is the one written.
        last = new_game(name, played.rows[-1][3])
        winners = set()
        for move in last.legal_moves():
            last.play(move)
            outcome = last.outcome()
            if outcome is not None and outcome.reason == played.reason:
                winners.add(outcome.winner)
            last.undo()
        if len(winners) == 1 and "repetition" not in played.reason:
            winner = winners.pop()
            assert (first, second) == ((0.5, 0.5) if winner is None else (1.0 - winner, float(winner)))


# ----------------------------------------------------------------- clipping
@given(st.integers(-WIN + 1, WIN - 1), st.integers(1, 10_000))
def test_label_score_replaces_proved_results_only(score: int, decisive: int) -> None:
    """Every score a search of a position still in play can return (a win in one is WIN - 1)."""
    h_l, mate = label_score(score, decisive)
    if abs(score) >= MATE_BOUND:
        assert mate == mate_in(score) and mate != 0
        assert h_l == (decisive if score > 0 else -decisive)
    else:
        assert (h_l, mate) == (score, 0)


def test_a_forced_win_is_labelled_with_the_decisive_score_and_its_distance() -> None:
    config = DatasetConfig("chess", 1, 3)
    with Labeller(config, 0) as labeller:
        win = new_game("chess", MATE_IN_ONE)
        move, h_l, mate = labeller.label(win, 0)
        assert win.format_move(move) == "Ra8#" and (h_l, mate) == (4000, 1)
        assert labeller.label(new_game("chess", MATED_IN_ONE), 0)[1:] == (-4000, -1)


# --------------------------------------------------------------- determinism
def test_the_same_seed_gives_the_same_bytes_for_any_jobs(tmp_path: Path, capsys) -> None:
    base = ["dataset", "quixo", "--games", "6", "--depth", "1", "--max-plies", "60"]
    runs = {"one": ["--seed", "9", "--jobs", "1"], "again": ["--seed", "9"], "two": ["--seed", "9", "--jobs", "2"],
            "other": ["--seed", "10"]}
    files = {}
    for label, extra in runs.items():
        path = tmp_path / f"{label}.csv"
        code, out, _ = run(capsys, *base, *extra, "--out", str(path))
        assert code == 0 and "positions" in out
        files[label] = path.read_bytes()
    assert files["one"] == files["again"] == files["two"]
    assert files["other"] != files["one"]


# ------------------------------------------------------------ the meta file
def test_the_sidecar_meta_follows_the_contract(tmp_path: Path, capsys) -> None:
    out = tmp_path / "c.csv"
    code, _, _ = run(capsys, "dataset", "checkers", "--games", "1", "--depth", "1", "--max-plies", "3",
                     "--openings", "2", "--seed", "4", "--explore", "0.25", "--out", str(out))
    assert code == 0
    assert meta_path(out) == tmp_path / "c.csv.meta.json"
    meta = json.loads(meta_path(out).read_text(encoding="utf-8"))
    assert set(meta) == {"format", "game", "games", "depth", "heuristic", "label", "openings", "explore",
                         "max_plies", "seed", "decisive_score", "features", "columns", "command", "created",
                         "versions"}
    assert meta["format"] == FORMAT == "tui-games-dataset/1"
    assert (meta["game"], meta["games"], meta["depth"], meta["heuristic"], meta["label"]) == (
        "checkers", 1, 1, "positional", "search")
    assert (meta["openings"], meta["explore"], meta["max_plies"], meta["seed"]) == (2, 0.25, 3, 4)
    assert meta["decisive_score"] == 1200
    assert meta["features"] == list(game_class("checkers").FEATURE_NAMES)
    assert meta["columns"] == contract_columns("checkers") == read_csv(out)[0]
    assert meta["command"].startswith("tui-games dataset checkers --games 1 --depth 1")
    assert datetime.fromisoformat(meta["created"]).utcoffset().total_seconds() == 0
    assert {"python", "tui_games", "numpy"} <= set(meta["versions"])
    # The recorded command writes the same rows.
    again = tmp_path / "again.csv"
    argv = meta["command"].split()[1:]
    argv[argv.index("--out") + 1] = str(again)
    assert run(capsys, *argv)[0] == 0
    assert again.read_bytes() == out.read_bytes()


# ------------------------------------------------------------------- safety
def test_an_existing_dataset_is_never_overwritten(tmp_path: Path, capsys) -> None:
    out = tmp_path / "old.csv"
    out.write_bytes(b"game_id,ply\n0,1\n")
    assert_usage_error(capsys, ["dataset", "quixo", "--games", "1", "--depth", "1", "--out", str(out)],
                       "already holds data")
    assert out.read_bytes() == b"game_id,ply\n0,1\n"
    assert not meta_path(out).exists()
    empty = tmp_path / "empty.csv"
    empty.touch()  # an empty file is no data: it is used
    assert run(capsys, "dataset", "quixo", "--games", "1", "--depth", "1", "--max-plies", "2",
               "--out", str(empty))[0] == 0
    assert read_csv(empty)[0] == contract_columns("quixo")


@pytest.mark.parametrize(("argv", "needle"), [
    (["go", "--games", "1", "--depth", "1"], "unknown game 'go'"),
    (["quixo", "--games", "0", "--depth", "1"], "--games"),
    (["quixo", "--games", "1", "--depth", "0"], "--depth"),
    (["quixo", "--games", "1", "--depth", "1", "--explore", "1.5"], "explore must be a probability"),
    (["quixo", "--games", "1", "--depth", "1", "--explore", "-0.1"], "explore must be a probability"),
    (["quixo", "--games", "1", "--depth", "1", "--max-plies", "0"], "--max-plies"),
    (["quixo", "--games", "1", "--depth", "1", "--heuristic", "sef"],
     "expected one of: learned, line-potential, longest-line"),
    (["quixo", "--games", "1", "--depth", "1", "--label", "stockfish"], "chess only"),
    (["chess", "--games", "1", "--depth", "1", "--label", "pvs"], "'search' or a stockfish spec"),
    (["chess", "--games", "1", "--depth", "1", "--label", "stockfish:path=/no/such/fish"],
     "not an executable file"),
])
def test_bad_arguments_are_one_line_errors(argv: list[str], needle: str, tmp_path: Path, capsys) -> None:
    out = tmp_path / "d.csv"
    assert_usage_error(capsys, ["dataset", *argv, "--out", str(out)], needle)
    assert not out.exists() and not meta_path(out).exists()


def test_unwritable_outputs_are_one_line_errors(tmp_path: Path, capsys) -> None:
    base = ["dataset", "quixo", "--games", "1", "--depth", "1", "--out"]
    assert_usage_error(capsys, base + [str(tmp_path / "no" / "such" / "d.csv")], "cannot write it")
    assert_usage_error(capsys, base + [str(tmp_path)], "is a directory")


def test_the_config_checks_its_values() -> None:
    with pytest.raises(DatasetError, match="games must be"):
        DatasetConfig("quixo", 0, 1)
    with pytest.raises(DatasetError, match="unknown game"):
        DatasetConfig("go", 1, 1)
    assert DatasetConfig("chess", 1, 2).heuristic == "sef"


def test_a_killed_run_keeps_every_row_written(tmp_path: Path) -> None:
    out = tmp_path / "big.csv"
    process = subprocess.Popen(
        [sys.executable, "-m", "tui.cli", "dataset", "checkers", "--games", "500", "--depth", "2",
         "--out", str(out)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if out.exists() and len({line.split(",", 1)[0] for line in out.read_text().splitlines()}) >= 3:
                break
            time.sleep(0.05)
        else:
            pytest.fail("no rows written in 60 s")
        written = out.read_bytes()
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait(timeout=30)
    after = out.read_bytes()
    assert after.startswith(written) and after.endswith(b"\n")
    header, rows = read_csv(out)
    assert header == contract_columns("checkers")
    assert all(len(row) == len(header) for row in rows)


def test_ctrl_c_keeps_the_games_written_and_prints_their_summary(tmp_path: Path) -> None:
    out = tmp_path / "big.csv"
    # Ctrl-C as a terminal delivers it: to a process whose SIGINT is not ignored
    # (a test runner's worker may ignore it, and children inherit that).
    process = subprocess.Popen(
        [sys.executable, "-m", "tui.cli", "dataset", "checkers", "--games", "500", "--depth", "2",
         "--out", str(out)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (out.exists() and out.stat().st_size > 2000):
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130
    _, rows = read_csv(out)
    games = len({row[0] for row in rows})
    assert f"positions  {len(rows):,}" in stdout and f"games      {games} of 500" in stdout
    assert f"interrupted after {games} of 500 games" in stderr and "Traceback" not in stderr


# ---------------------------------------------------------------- stockfish
@pytest.fixture
def fakefish(tmp_path: Path) -> Path:
    """A fake UCI engine that answers every search with python-chess's first legal move, score 0."""
    return executable(tmp_path / "fakefish", f"'{ROOT / 'tests' / 'fake_uci_engine.py'}'")


def test_a_stockfish_label_comes_from_that_engine(fakefish: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "sf.csv"
    code, _, _ = run(capsys, "dataset", "chess", "--games", "2", "--depth", "3", "--max-plies", "4",
                     "--explore", "0", "--label", f"stockfish:path={fakefish}", "--out", str(out))
    assert code == 0
    header, rows = read_csv(out)
    assert header == contract_columns("chess") and len(rows) == 8
    assert all(row[-3:-1] == ["0", "0"] for row in rows)  # the fake's score: cp 0
    for before, after in zip(rows, rows[1:]):
        if before[0] == after[0]:  # the fake's move was played
            board = chess.Board(before[3])
            board.push(next(iter(board.legal_moves)))
            assert board.fen() == after[3]
    meta = json.loads(meta_path(out).read_text())
    assert meta["label"] == f"stockfish:path={fakefish},depth=3"  # depth L, as the spec set none
    assert meta["versions"]["label_engine"] == "FakeFish"


def test_a_stockfish_spec_keeps_its_own_limits(fakefish: Path) -> None:
    assert DatasetConfig("chess", 1, 3, label=f"stockfish:path={fakefish},time=0.5").label == \
        f"stockfish:path={fakefish},time=0.5"
    assert DatasetConfig("chess", 1, 3, label=f"stockfish:depth=9,path={fakefish}").label == \
        f"stockfish:depth=9,path={fakefish}"


def test_a_stockfish_label_without_a_binary_is_refused(tmp_path: Path, no_stockfish, capsys) -> None:
    out = tmp_path / "sf.csv"
    assert_usage_error(capsys, ["dataset", "chess", "--games", "1", "--depth", "1", "--label", "stockfish",
                                "--out", str(out)], "no stockfish binary found")
    assert not out.exists()
