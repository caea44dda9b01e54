"""Chess's residual network over pesto: the packed lanes read exactly what a
lane-by-lane sum gives, the accumulator kept by make/undo (or by the per-ply
cache of a plain board) equals a recomputation, the correction is
colour-antisymmetric, files are checked, and a tiny network trains."""

from __future__ import annotations

import random
from pathlib import Path

import chess
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import new_game
from games.chess.network import piece_boards
from games.chess.residual import (LANE_LIMIT, Residual, ResidualAccumulators, ResidualError, black_view, quantise,
                                  residual_heuristic, white_view)
from games.chess.views import OTHER_VIEW


def random_residual(hidden: int = 6, seed: int = 0, spread: float = 0.4) -> Residual:
    rng = np.random.default_rng(seed)
    return Residual.from_arrays(quantise(rng.normal(0, spread, (768, hidden)), rng.normal(0.3, 0.3, hidden),
                                         rng.normal(0, 1.5, hidden)))


def test_the_views_are_the_networks_inputs() -> None:
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    from games.chess.accumulator import board_features
    from games.chess.network import input_indices

    features = board_features(board)
    assert sorted(white_view(f) for f in features) == sorted(input_indices(board))
    assert sorted(black_view(f) for f in features) == sorted(OTHER_VIEW[i] for i in input_indices(board))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), undo_rate=st.floats(0.0, 0.6))
def test_the_kept_accumulators_read_what_a_lane_by_lane_sum_gives(seed: int, undo_rate: float) -> None:
    residual = random_residual(seed=seed % 7)
    cached = ResidualAccumulators(residual)
    heuristic = residual_heuristic(residual, lambda game, player: 0, "residual:test")
    game = new_game("chess")  # the board of a game keeps the accumulator through push and pop
    board = game.board
    plain = chess.Board()
    chooser = random.Random(seed)
    for _ in range(60):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = chooser.choice(moves)  # captures, castling, en passant, promotions all come up
        board.push(move)
        plain.push(move)
        if chooser.random() < undo_rate:
            board.pop()
            plain.pop()
        expected = residual.reference(plain)
        assert residual.correction(plain) == expected
        assert cached.correction(plain) == expected
        assert heuristic(game, 0) == expected == -heuristic(game, 1)
        assert residual.correction(plain.mirror()) == -expected  # colour-antisymmetric
    assert cached.updates > 0


def test_every_lane_is_clipped_at_zero_and_at_its_ceiling() -> None:
    residual = random_residual(hidden=4, spread=3.0)  # lanes far beyond their ceilings both ways
    board = chess.Board()
    lanes = residual.lanes(residual.accumulate(piece_boards(board)))
    assert min(lanes) < 0 and any(lane > ceiling for lane, ceiling in zip(lanes, residual.ceilings * 2))
    assert residual.correction(board) == residual.reference(board)


def test_files_round_trip_and_bad_ones_are_one_line(tmp_path: Path) -> None:
    residual = random_residual()
    path = residual.save(tmp_path / "r.npz")
    with pytest.raises(FileExistsError):
        residual.save(path)
    loaded = Residual.load(path)
    board = chess.Board("8/5k2/8/3Pp3/8/8/2K5/8 w - e6 0 1")
    assert loaded.correction(board) == residual.correction(board)
    arrays = dict(np.load(path, allow_pickle=False))
    huge = dict(arrays, rows=np.full_like(arrays["rows"], LANE_LIMIT // 16))
    np.savez(tmp_path / "huge.npz", **huge)
    wrong = dict(arrays, format=np.array("something else"))
    np.savez(tmp_path / "wrong.npz", **wrong)
    for name in ("huge.npz", "wrong.npz", "missing.npz"):
        with pytest.raises(ResidualError) as error:
            Residual.load(tmp_path / name)
        assert "\n" not in str(error.value)


def test_a_tiny_network_learns_what_pesto_misses(tmp_path: Path) -> None:
    """Positions labelled pesto plus a pawn for every White knight: the residual learns the knights."""
    from engines.learning.residual_training import ResidualModel, pesto_pawns
    from engines.learning.fitting import fit_adam
    from scipy.sparse import csr_matrix

    from games.chess.accumulator import board_features

    chooser = random.Random(1)
    positions = []
    for _ in range(300):
        board = chess.Board()
        for _ in range(chooser.randrange(4, 40)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(chooser.choice(moves))
        positions.append(board.fen())
    boards = [chess.Board(text) for text in positions]
    base = pesto_pawns(positions)
    knights = np.asarray([len(b.pieces(chess.KNIGHT, chess.WHITE)) - len(b.pieces(chess.KNIGHT, chess.BLACK))
                          for b in boards], dtype=np.float64)
    target = base + np.where([b.turn for b in boards], knights, -knights)

    def views(view: object) -> csr_matrix:
        rows = [[view(f) for f in board_features(b)] if b.turn else [OTHER_VIEW[view(f)] for f in board_features(b)]
                for b in boards]  # type: ignore[operator]
        indptr = np.cumsum([0] + [len(r) for r in rows])
        return csr_matrix((np.ones(indptr[-1], np.float32), np.concatenate(rows), indptr), shape=(len(rows), 768))

    own, other = views(white_view), views(black_view)
    model = ResidualModel(4, np.random.default_rng(0))
    rows = np.arange(len(positions))
    before = float(np.mean(np.abs(model.forward((own, other, base))[0] - target)))
    model.params, _ = fit_adam(model, (own, other, base), target, rows, rows, seed=0, max_iter=60, rate=0.02)
    after = float(np.mean(np.abs(model.forward((own, other, base))[0] - target)))
    assert after < before / 2


def test_residual_file_is_a_heuristic_and_a_bad_file_one_line(tmp_path: Path) -> None:
    from games.base import UnknownHeuristicError
    from games.chess.evaluation import pesto
    from games.chess.game import ChessGame

    residual = random_residual(seed=3)
    path = residual.save(tmp_path / "r.npz")
    heuristic = ChessGame.heuristic(f"residual:{path}")
    game = new_game("chess", "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 5 4")
    correction = residual.correction(game.board)
    assert heuristic(game, 0) == pesto(game, 0) + correction and heuristic(game, 1) == -heuristic(game, 0)
    (tmp_path / "bad.npz").write_bytes(b"not an archive")
    with pytest.raises(UnknownHeuristicError) as error:
        ChessGame.heuristic(f"residual:{tmp_path / 'bad.npz'}")
    assert "\n" not in str(error.value) and "residual" in str(error.value)
