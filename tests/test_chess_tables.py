"""Tapered piece-square tables: PeSTO's form, its tables fitted again (Texel tuning), and their files."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import chess
import numpy as np
import pytest

from games import game_class, game_kind, new_game
from games.chess.evaluation import pesto
from games.chess.tapered import (
    TablesError,
    load_tables,
    pesto_start,
    save_tables,
    tables_file,
    tables_terms,
    tapered,
)

from cli_run import assert_usage_error, run
from learning_data import positions, random_boards, write_dataset


def random_positions(count: int, seed: int) -> list[str]:
    return [board.fen() for board in random_boards(count, seed)]


def test_pesto_is_the_tapered_evaluation_of_its_tables_and_the_terms_add_up_to_it():
    for text in random_positions(60, seed=1):
        game = new_game("chess", text)
        mg, eg, tempo = pesto_start()
        indices, signs, phase = tables_terms(text)
        midgame = sum(sign * mg[index // 64][index % 64] for index, sign in zip(indices, signs))
        endgame = sum(sign * eg[index // 64][index % 64] for index, sign in zip(indices, signs))
        for_mover = pesto(game, 0 if game.board.turn else 1)
        assert for_mover == pytest.approx(midgame * phase + endgame * (1 - phase) + tempo, abs=1)
        assert pesto(game, 0) == -pesto(game, 1)


def test_tables_files_round_trip_and_bad_ones_are_one_line(tmp_path: Path):
    mg, eg, tempo = pesto_start()
    mg[1][18] += 40  # a knight on c3 is worth more
    path = save_tables(mg, eg, tempo, tmp_path / "t.npz")
    assert load_tables(path) == (mg, eg, tempo)
    with pytest.raises(FileExistsError):
        save_tables(mg, eg, tempo, path)
    evaluate = tables_file(str(path))
    game = new_game("chess", "rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/R1BQKBNR b KQkq - 1 1")
    assert evaluate(game, 0) - pesto(game, 0) in (40, 39, 41)  # blended by the phase, rounded
    assert game_class("chess").heuristic(f"tables:{path}")(game, 0) == evaluate(game, 0)

    def npz(**arrays: object) -> bytes:
        buffer = io.BytesIO()
        np.savez(buffer, **arrays)
        return buffer.getvalue()

    good = dict(format=np.array("tui-games-chess-tables/1"), mg=np.zeros((6, 64), np.int32),
                eg=np.zeros((6, 64), np.int32), tempo=np.int32(0))
    for content, words in [(b"", "not a tables file"), (npz(**{**good, "format": np.array("x")}), "format"),
                           (npz(**{**good, "mg": np.zeros((6, 63), np.int32)}), "wrong shapes"),
                           (npz(**{**good, "eg": np.zeros((6, 64), np.float32)}), "wrong types"),
                           (npz(**{**good, "tempo": np.int32(99_999)}), "beyond"),
                           (npz(**{k: v for k, v in good.items() if k != "tempo"}), "no array")]:
        bad = tmp_path / "bad.npz"
        bad.write_bytes(content)
        with pytest.raises(TablesError) as error:
            load_tables(bad)
        assert words in str(error.value) and "\n" not in str(error.value)
    assert zipfile.is_zipfile(path)


def test_fitting_tables_moves_them_toward_the_labels():
    # Labels that value a knight 2 pawns more than pesto does: the fit must raise the knights' values
    # and lower the loss, and it starts from pesto exactly.
    from engines.learning.train import Dataset
    from engines.learning.tables_training import train_tables

    texts = random_positions(4000, seed=2)
    values = []
    for text in texts:
        game = new_game("chess", text)
        board = game.board
        knights = len(board.pieces(chess.KNIGHT, board.turn)) - len(board.pieces(chess.KNIGHT, not board.turn))
        values.append(pesto(game, 0 if board.turn else 1) + 200 * knights)
    count = len(texts)
    dataset = Dataset(path=Path("synthetic.csv"), game="chess", positions=texts, game_id=np.arange(count) // 30,
                      ply=np.zeros(count), side=np.zeros(count), features=np.zeros((count, 1)),
                      h0=np.zeros(count), h_l=np.asarray(values, dtype=float), mate=np.zeros(count),
                      outcome=np.full(count, np.nan), feature_names=("x",), heuristic="pesto", depth=1, meta=None, sha256="0")
    plan = game_kind("chess").tables
    fit = train_tables(plan, dataset, max_iter=60, rate=2e-2)
    start_mg = np.asarray(pesto_start()[0])
    squares = [chess.B1, chess.G1, chess.C3, chess.F3]  # where knights stand most
    assert (fit.mg[1][squares] - start_mg[1][squares]).mean() > 30  # knights gained
    assert fit.metrics["test"]["mse"] < 0.8 * fit.start_metrics["test"]["mse"]


def test_train_tables_command_writes_tables_to_play_and_refuses_a_game_without_them(tmp_path: Path, capsys):
    data = write_dataset(tmp_path / "chess.csv", "chess", positions("chess", 80, seed=6), depth=1)
    out = tmp_path / "tables.npz"
    code, stdout, _ = run(capsys, "train", "chess", "--data", str(data), "--model", "tables", "--max-iter", "3",
                          "--out", str(out))
    assert code == 0 and "R², where the fit started" in stdout and f"heuristic=tables:{out}" in stdout
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["kind"] == "tables" and "--model tables" in meta["command"] and "start_metrics" in meta
    from engines import create_engine

    game = new_game("chess")
    assert create_engine(f"pvs:depth=2,heuristic=tables:{out}", game_class("chess")).search(game).move is not None
    # (every game has tables to fit now: Quixo's are its patterns', tests/test_pattern_tables.py)
    for extra, words in ((["--test-size", "0.99"], "leaves no game to train on"), (["--hidden", "3"], "--hidden goes"),
                         (["--grid"], "--grid and --inputs go with rf")):
        assert_usage_error(capsys, ["train", "chess", "--data", str(data), "--model", "tables", *extra,
                                    "--out", str(tmp_path / "t2.npz")], words)
    assert meta["trained"] <= meta["positions"]
