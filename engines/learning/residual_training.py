"""Training chess's residual network (:mod:`games.chess.residual`) from Stockfish-labelled datasets, in NumPy.

The network learns what ``pesto`` misses: its output is added to ``pesto``'s
value, and the loss compares the winning chance of the sum with the label's
(:mod:`engines.learning.fitting`'s loss, splits, quiet positions and
minibatch Adam).  Both views go through the same clipped-ReLU layer and the
output is ``G(own view) - G(other view)``: no constant, colour-antisymmetric.
The float model is then quantised into the integer lanes the evaluation adds
up (:func:`games.chess.residual.quantise`).

``tools/train_residual.py`` runs it from the command line and writes
``residual.npz`` and ``residual.json`` (the command, the data's sha256, the
fit and how ``pesto`` and the network score the held-out positions), never
overwriting either.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .fitting import CLIP_UNITS, SIGMOID_UNITS, fit_adam, kept_rows, sigmoid, splits, target_chances
from .network_training import network_inputs
from .train import join_datasets, read_dataset

__all__ = ["ResidualModel", "pesto_pawns", "train_residual", "write_residual"]


class ResidualModel:
    """The float residual network being fitted: ``pesto + G(own) - G(other)`` in pawns."""

    def __init__(self, hidden: int, rng: np.random.Generator) -> None:
        self.hidden = hidden
        self.params = {
            "w1": rng.normal(0.0, 1.0 / math.sqrt(32), (768, hidden)).astype(np.float32),
            "b1": np.full(hidden, 0.25, np.float32),
            "w2": rng.normal(0.0, 0.1 / math.sqrt(hidden), hidden).astype(np.float32),
        }

    def forward(self, data: tuple[Any, ...]) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
        own, other, base = data
        w1, b1, w2 = self.params["w1"], self.params["b1"], self.params["w2"]
        a_own = np.asarray(own @ w1) + b1
        a_other = np.asarray(other @ w1) + b1
        h_own = np.clip(a_own, 0.0, 1.0)
        h_other = np.clip(a_other, 0.0, 1.0)
        return base + (h_own - h_other) @ w2, (a_own, a_other, h_own, h_other)

    def backward(self, data: tuple[Any, ...], cache: tuple[np.ndarray, ...], d_out: np.ndarray) -> dict[str, np.ndarray]:
        own, other, _ = data
        a_own, a_other, h_own, h_other = cache
        w2 = self.params["w2"]
        d_own = np.outer(d_out, w2) * ((a_own > 0) & (a_own < 1))
        d_other = -np.outer(d_out, w2) * ((a_other > 0) & (a_other < 1))
        return {"w1": np.asarray(own.T @ d_own) + np.asarray(other.T @ d_other),
                "b1": d_own.sum(axis=0) + d_other.sum(axis=0),
                "w2": (h_own - h_other).T @ d_out}


class _Position:
    """Just enough of a game for a heuristic: its board."""

    def __init__(self, text: str) -> None:
        import chess

        self.board = chess.Board(text)


def pesto_pawns(positions: Sequence[str]) -> np.ndarray:
    """``pesto``'s value of each position for its side to move, in pawns."""
    from games.chess.evaluation import pesto

    values = []
    for text in positions:
        game = _Position(text)
        values.append(pesto(game, 0 if game.board.turn else 1) / 100.0)
    return np.asarray(values, dtype=np.float64)


def _chance_mse(scores: np.ndarray, chances: np.ndarray) -> float:
    error = sigmoid(scores / SIGMOID_UNITS) - chances
    return float(np.mean(error * error))


def train_residual(paths: Sequence[str], *, hidden: int = 32, seed: int = 0, test_size: float = 0.1,
                   max_iter: int = 40, outcome_weight: float = 0.0, shift: int = 6, rate: float = 1e-3,
                   rescale: bool = False) -> tuple[Any, dict[str, Any]]:
    """Fit a residual network to the datasets at ``paths``: the :class:`~games.chess.residual.Residual`
    and the facts of the fit (for the ``.json``)."""
    from games.chess.game import ChessGame
    from games.chess.kind import KIND
    from games.chess.residual import Residual, quantise

    from scipy.sparse import csr_matrix

    plan = KIND.network
    assert plan is not None and plan.quiet is not None
    dataset = join_datasets([read_dataset(path, ChessGame) for path in paths])
    keep = kept_rows(dataset, plan.quiet)
    positions = [dataset.positions[index] for index in keep]
    target = np.clip(np.asarray(dataset.h_l, dtype=np.float64)[keep], -CLIP_UNITS * 100, CLIP_UNITS * 100) / 100
    base = pesto_pawns(positions)
    own = network_inputs(plan, positions)
    other = csr_matrix((own.data, np.asarray(plan.other_view, dtype=np.int32)[own.indices], own.indptr),
                       shape=own.shape)  # the other side's view of the same pieces
    train_rows, test_rows, fit_rows, stop_rows = splits(np.asarray(dataset.game_id)[keep], test_size, seed)
    if rescale:  # the labels brought to pesto's scale: the factor that makes pesto fit them best
        factors = np.linspace(0.4, 1.6, 49)
        losses = [_chance_mse(base[train_rows], sigmoid(factor * target[train_rows] / SIGMOID_UNITS))
                  for factor in factors]
        factor = float(factors[int(np.argmin(losses))])
        target = target * factor
    else:
        factor = 1.0
    chances = target_chances(target, np.asarray(dataset.outcome, dtype=np.float64)[keep], outcome_weight)
    model = ResidualModel(hidden, np.random.default_rng(seed))
    started = time.perf_counter()
    model.params, passes = fit_adam(model, (own, other, base), target, fit_rows, stop_rows, seed=seed,
                                    max_iter=max_iter, rate=rate, chances=chances)
    fit_s = time.perf_counter() - started
    weights = model.params
    residual = Residual.from_arrays(quantise(weights["w1"], weights["b1"], weights["w2"], shift))
    float_out, _ = model.forward((own[test_rows], other[test_rows], base[test_rows]))
    # The integer network's values of the held-out positions, from scratch (White's view turned to the mover's).
    import chess

    integer = []
    for index in test_rows:
        board = chess.Board(positions[index])
        value = residual.correction(board)
        integer.append(base[index] + (value if board.turn else -value) / 100.0)
    integer_out = np.asarray(integer)
    test_chances = chances[test_rows]
    balanced = np.abs(target[test_rows]) <= 3.0

    def correlation(values: np.ndarray) -> float:
        return float(np.corrcoef(values[balanced], target[test_rows][balanced])[0, 1])

    facts = {
        "hidden": hidden, "positions": len(positions), "trained": int(len(train_rows)), "tested": int(len(test_rows)),
        "passes": passes, "fit_s": round(fit_s, 1), "shift": shift, "rate": rate, "label_factor": factor, "outcome_weight": outcome_weight,
        "test": {"pesto_chance_mse": _chance_mse(base[test_rows], test_chances),
                 "residual_chance_mse": _chance_mse(integer_out, test_chances),
                 "pesto_balanced_correlation": correlation(base[test_rows]),
                 "residual_balanced_correlation": correlation(integer_out),
                 "balanced": int(balanced.sum()),
                 "rounding_cp": float(np.max(np.abs(integer_out - float_out)) * 100.0)},
        "data": dataset.source,
    }
    return residual, facts


def write_residual(residual: Any, facts: dict[str, Any], out: Path, command: str) -> Path:
    """Write ``residual`` to ``out`` (a new ``.npz``) and its facts to the ``.json`` beside it, never
    overwriting either: the ``.json``'s path."""
    meta = out.with_suffix(".json")
    if out.suffix != ".npz" or out.exists() or meta.exists():
        raise FileExistsError(f"{out} must end in .npz and neither it nor {meta.name} may exist")
    residual.save(out)
    with meta.open("x") as file:
        json.dump({"format": "tui-games-residual-meta/1", "command": command, **facts}, file, indent=2)
        file.write("\n")
    return meta
