"""Training a game's piece-square network (its kind's :class:`~games.kind.NetworkPlan`;
chess: :mod:`games.chess.network`) from a dataset, in NumPy.

The dataset is a ``tui-games dataset`` CSV (or several): each position's text
and ``h_l``, the value a deeper search gave it for the side to move (ours, or
Stockfish's with ``--label stockfish``).  Each quiet position becomes the
inputs of both sides' views (chess: 768 bits each, a sparse matrix); the
network reads each view through the same clipped-ReLU hidden layer and one
output reads both halves, the side to move's first -- the network
:mod:`games.chess.network` evaluates.  The loss (winning chances), the
optimiser and the splits are :mod:`engines.learning.fitting`'s.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from games.kind import NetworkPlan, TrainedNetwork

from .fitting import CLIP_UNITS, SIGMOID_UNITS, fit_adam, kept_rows, splits, target_chances
from .train import Dataset, fit_metrics

__all__ = ["CLIP_UNITS", "SIGMOID_UNITS", "NetworkFit", "network_inputs", "train_network", "fit_views"]

@dataclass(frozen=True)
class NetworkFit:
    """A trained network and how well it fits: train and test MSE, MAE and R² in the game's score (centipawns),
    on the quiet positions it was trained on (``positions`` of them)."""

    network: TrainedNetwork
    metrics: dict[str, dict[str, float]]
    #: The quiet positions kept, and those of the training games (the rest were held out for testing).
    positions: int
    trained: int
    iterations: int
    fit_s: float
    #: The largest difference between the float model and the integer network on the test positions.
    rounding_cp: float


def network_inputs(plan: NetworkPlan, positions: list[str]) -> Any:
    """The side to move's inputs of each position text, as a SciPy CSR 0/1 matrix."""
    from scipy.sparse import csr_matrix

    columns: list[int] = []
    starts = [0]
    for text in positions:
        columns.extend(plan.active(text))
        starts.append(len(columns))
    data = np.ones(len(columns), dtype=np.float32)
    return csr_matrix((data, np.asarray(columns, dtype=np.int32), np.asarray(starts, dtype=np.int64)),
                      shape=(len(positions), plan.inputs))


def _other_view(inputs: Any, other: np.ndarray) -> Any:
    """The other side's inputs of the same positions: each column through the map ``other``."""
    from scipy.sparse import csr_matrix

    return csr_matrix((inputs.data, other[inputs.indices], inputs.indptr), shape=inputs.shape)


class _Model:
    """The float network being fitted (weights in pawns, or the game's unit) over both views' inputs."""

    def __init__(self, inputs: int, hidden: int, rng: np.random.Generator) -> None:
        self.hidden = hidden
        self.params = {
            "w1": rng.normal(0.0, 1.0 / math.sqrt(32), (inputs, hidden)).astype(np.float32),
            "b1": np.full(hidden, 0.25, np.float32),
            "w2": rng.normal(0.0, 1.0 / math.sqrt(hidden), 2 * hidden).astype(np.float32),
            "b2": np.zeros(1, np.float32),
        }

    def forward(self, data: tuple[Any, ...]) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
        own, other = data
        w1, b1, w2, b2 = (self.params[name] for name in ("w1", "b1", "w2", "b2"))
        a_own = np.asarray(own @ w1) + b1
        a_other = np.asarray(other @ w1) + b1
        h_own = np.clip(a_own, 0.0, 1.0)
        h_other = np.clip(a_other, 0.0, 1.0)
        out = h_own @ w2[:self.hidden] + h_other @ w2[self.hidden:] + b2[0]
        return out, (a_own, a_other, h_own, h_other)

    def backward(self, data: tuple[Any, ...], cache: tuple[np.ndarray, ...], d_out: np.ndarray) -> dict[str, np.ndarray]:
        own, other = data
        a_own, a_other, h_own, h_other = cache
        w2 = self.params["w2"]
        hidden = self.hidden
        d_own = np.outer(d_out, w2[:hidden]) * ((a_own > 0) & (a_own < 1))
        d_other = np.outer(d_out, w2[hidden:]) * ((a_other > 0) & (a_other < 1))
        return {
            "w1": np.asarray(own.T @ d_own) + np.asarray(other.T @ d_other),
            "b1": d_own.sum(axis=0) + d_other.sum(axis=0),
            "w2": np.concatenate([h_own.T @ d_out, h_other.T @ d_out]),
            "b2": np.array([d_out.sum()]),
        }


def fit_views(own: Any, other: Any, target: np.ndarray, fit_rows: np.ndarray, stop_rows: np.ndarray, *,
              hidden: int, seed: int, max_iter: int, scale: float = SIGMOID_UNITS, rate: float = 1e-3,
              progress: Callable[[int, float, float], None] | None = None,
              chances: np.ndarray | None = None) -> tuple[_Model, int]:
    """Fit a float network with ``hidden`` units to ``target`` (labels in the game's unit; or to
    ``chances``, winning chances, when given) from both views' inputs, on ``fit_rows``, stopping on the
    loss of ``stop_rows``: the network with its best weights, and the passes made."""
    model = _Model(own.shape[1], hidden, np.random.default_rng(seed))
    model.params, passes = fit_adam(model, (own, other), target, fit_rows, stop_rows, seed=seed, max_iter=max_iter,
                                    rate=rate, scale=scale, progress=progress, chances=chances)
    return model, passes


def train_network(plan: NetworkPlan, dataset: Dataset, *, hidden: int = 64, seed: int = 0, test_size: float = 0.2,
                  max_iter: int = 60, unit: float = 100.0, outcome_weight: float = 0.0,
                  progress: Callable[[int, float, float], None] | None = None) -> NetworkFit:
    """Fit a network with ``hidden`` units to ``dataset``'s ``h_l`` (see the module's docstring), its
    winning chance blended with the game's result by ``outcome_weight``;
    ``progress(pass, held-out loss, learning rate)`` is called after each pass."""
    keep = kept_rows(dataset, plan.quiet)
    positions = [dataset.positions[index] for index in keep]
    target = np.clip(np.asarray(dataset.h_l, dtype=np.float64)[keep], -CLIP_UNITS * unit, CLIP_UNITS * unit) / unit
    chances = target_chances(target, np.asarray(dataset.outcome, dtype=np.float64)[keep], outcome_weight)
    own = network_inputs(plan, positions)
    other = _other_view(own, np.asarray(plan.other_view, dtype=np.int32))
    train_rows, test_rows, fit_rows, stop_rows = splits(np.asarray(dataset.game_id)[keep], test_size, seed)
    started = time.perf_counter()
    model, passes = fit_views(own, other, target, fit_rows, stop_rows, hidden=hidden, seed=seed, max_iter=max_iter,
                              progress=progress, chances=chances)
    fit_s = time.perf_counter() - started
    weights = model.params
    network = plan.build(weights["w1"], weights["b1"], weights["w2"] * unit, float(weights["b2"][0]) * unit)
    labels = target * unit
    tested = network.batch(own[test_rows])
    metrics = {"train": fit_metrics(labels[train_rows], network.batch(own[train_rows])),
               "test": fit_metrics(labels[test_rows], tested)}
    floats, _ = model.forward((own[test_rows], other[test_rows]))
    rounding = float(np.abs(tested - floats * unit).max(initial=0.0))
    return NetworkFit(network, metrics, len(positions), len(train_rows), passes, fit_s, rounding)
