"""Training a game's piece-square network (its kind's :class:`~games.kind.NetworkPlan`;
chess: :mod:`games.chess.network`) from a dataset, in NumPy.

The dataset is a ``tui-games dataset`` CSV (or several): each position's text
and ``h_l``, the value a deeper search gave it for the side to move (ours, or
Stockfish's with ``--label stockfish``).  Each position becomes the inputs of
both sides' views (chess: 768 bits each, a sparse matrix); the network reads
each view through the same clipped-ReLU hidden layer and one output reads both
halves, the side to move's first -- the network :mod:`games.chess.network`
evaluates.  Only the game's quiet positions are kept (:attr:`NetworkPlan.quiet`:
chess drops checks and positions with a winning capture on the board): the
search asks the network at the quiet leaves of its quiescence search, and a
label of a tactic in progress would only blur the pieces' values.

The loss is the squared difference of *winning chances*, not of scores:
``sigmoid(score / K)`` for the label and the output alike (``K`` is
:data:`SIGMOID_UNITS` of the game's unit: 4 pawns in chess), as NNUE trainers
do.  A position a rook up and one two rooks up then weigh almost the same,
so the lopsided positions that fill self-played games (most end in mate) no
longer swamp the near-level ones where games are decided.

The fit is minibatch Adam with the learning rate halved whenever the held-out
loss stops improving, stopped after ``max_iter`` passes or when it has not
improved for :data:`PATIENCE` halvings; the weights of the best pass are
kept.  Repeated positions are dropped and whole games are held out for
testing (and a tenth of the training games for the stopping rule).  Seeded:
the same data and seed give the same network.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from games.kind import NetworkPlan, TrainedNetwork

from .train import Dataset, fit_metrics, split_by_game

__all__ = ["CLIP_UNITS", "SIGMOID_UNITS", "PATIENCE", "NetworkFit", "network_inputs", "train_network", "fit_views"]

#: Labels are clipped to this many score units (chess: 15 pawns; mates are +/- the game's decisive score).
CLIP_UNITS = 15
#: The scale of the winning-chance curve the loss compares on: ``sigmoid(score / (SIGMOID_UNITS * unit))``.
SIGMOID_UNITS = 4.0
#: Halvings of the learning rate without a better held-out loss before the fit stops.
PATIENCE = 3
#: Positions per step at most (fewer for small datasets: about twenty steps a pass at least).
BATCH = 4096


@dataclass(frozen=True)
class NetworkFit:
    """A trained network and how well it fits: train and test MSE, MAE and R² in the game's score (centipawns),
    on the quiet positions it was trained on (``positions`` of them)."""

    network: TrainedNetwork
    metrics: dict[str, dict[str, float]]
    positions: int
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


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * x))


class _Model:
    """The float network being fitted (weights in pawns, or the game's unit), with Adam's moments."""

    def __init__(self, inputs: int, hidden: int, rng: np.random.Generator) -> None:
        self.hidden = hidden
        self.params = {
            "w1": rng.normal(0.0, 1.0 / math.sqrt(32), (inputs, hidden)).astype(np.float32),
            "b1": np.full(hidden, 0.25, np.float32),
            "w2": rng.normal(0.0, 1.0 / math.sqrt(hidden), 2 * hidden).astype(np.float32),
            "b2": np.zeros(1, np.float32),
        }
        self.moments = {name: (np.zeros_like(value), np.zeros_like(value)) for name, value in self.params.items()}
        self.steps = 0

    def forward(self, own: Any, other: Any) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
        w1, b1, w2, b2 = (self.params[name] for name in ("w1", "b1", "w2", "b2"))
        a_own = np.asarray(own @ w1) + b1
        a_other = np.asarray(other @ w1) + b1
        h_own = np.clip(a_own, 0.0, 1.0)
        h_other = np.clip(a_other, 0.0, 1.0)
        out = h_own @ w2[:self.hidden] + h_other @ w2[self.hidden:] + b2[0]
        return out, (a_own, a_other, h_own, h_other)

    def step(self, own: Any, other: Any, target: np.ndarray, scale: float, rate: float) -> float:
        """One Adam step on a batch (``target`` the labels' winning chances); the batch's loss."""
        out, (a_own, a_other, h_own, h_other) = self.forward(own, other)
        chance = _sigmoid(out / scale)
        error = chance - target
        loss = float(np.mean(error * error))
        d_out = (2.0 / len(target)) * error * chance * (1.0 - chance) / scale
        w2 = self.params["w2"]
        hidden = self.hidden
        d_own = np.outer(d_out, w2[:hidden]) * ((a_own > 0) & (a_own < 1))
        d_other = np.outer(d_out, w2[hidden:]) * ((a_other > 0) & (a_other < 1))
        grads = {
            "w1": np.asarray(own.T @ d_own) + np.asarray(other.T @ d_other),
            "b1": d_own.sum(axis=0) + d_other.sum(axis=0),
            "w2": np.concatenate([h_own.T @ d_out, h_other.T @ d_out]),
            "b2": np.array([d_out.sum()]),
        }
        self.steps += 1
        beta1, beta2 = 0.9, 0.999
        correction = math.sqrt(1 - beta2 ** self.steps) / (1 - beta1 ** self.steps)
        for name, grad in grads.items():
            first, second = self.moments[name]
            first *= beta1
            first += (1 - beta1) * grad.astype(np.float32)
            second *= beta2
            second += (1 - beta2) * np.square(grad, dtype=np.float32)
            self.params[name] -= (rate * correction * first / (np.sqrt(second) + 1e-8)).astype(np.float32)
        return loss

    def loss(self, own: Any, other: Any, target: np.ndarray, scale: float) -> float:
        out, _ = self.forward(own, other)
        error = _sigmoid(out / scale) - target
        return float(np.mean(error * error))


def fit_views(own: Any, other: Any, target: np.ndarray, validation: tuple[Any, Any, np.ndarray], *, hidden: int,
              seed: int, max_iter: int, scale: float, rate: float = 1e-3,
              progress: Callable[[int, float, float], None] | None = None) -> tuple[dict[str, np.ndarray], int]:
    """Fit the float network to ``target`` (labels in the game's unit) from both views' inputs,
    stopping on the ``validation`` loss (see the module's docstring); its best weights and the passes made."""
    rng = np.random.default_rng(seed)
    model = _Model(own.shape[1], hidden, rng)
    chances = _sigmoid(target / scale).astype(np.float32)
    check = (validation[0], validation[1], _sigmoid(validation[2] / scale))
    best = (math.inf, {name: value.copy() for name, value in model.params.items()})
    waited = 0
    passes = 0
    batch = min(BATCH, max(64, own.shape[0] // 20))
    for passes in range(1, max_iter + 1):
        order = rng.permutation(own.shape[0])
        for start in range(0, len(order), batch):
            rows = np.sort(order[start:start + batch])
            model.step(own[rows], other[rows], chances[rows], scale, rate)
        held = model.loss(*check, scale)
        if progress is not None:
            progress(passes, held, rate)
        if held < best[0] - 1e-7:
            best = (held, {name: value.copy() for name, value in model.params.items()})
        else:
            rate /= 2
            waited += 1
            if waited > PATIENCE:
                break
    return best[1], passes


def _stopping_split(rows: np.ndarray, games: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The training ``rows`` split into those fitted and a tenth that decides when to stop: whole
    games if there are several, else rows (the same rows both, for a single position)."""
    if len(set(games[rows].tolist())) >= 2:
        fit, stop = split_by_game(games[rows], 0.1, seed + 1)
        return rows[fit], rows[stop]
    if len(rows) < 2:
        return rows, rows
    shuffled = np.random.default_rng(seed + 1).permutation(rows)
    cut = max(1, len(rows) // 10)
    return np.sort(shuffled[cut:]), np.sort(shuffled[:cut])


def train_network(plan: NetworkPlan, dataset: Dataset, *, hidden: int = 64, seed: int = 0, test_size: float = 0.2,
                  max_iter: int = 60, unit: float = 100.0,
                  progress: Callable[[int, float, float], None] | None = None) -> NetworkFit:
    """Fit a network with ``hidden`` units to ``dataset``'s ``h_l`` (see the module's docstring);
    ``progress(pass, held-out loss, learning rate)`` is called after each pass."""
    keep = dataset.first_occurrences()
    if plan.quiet is not None:
        keep = keep[np.fromiter((plan.quiet(dataset.positions[index]) for index in keep), bool, len(keep))]
    positions = [dataset.positions[index] for index in keep]
    target = np.clip(np.asarray(dataset.h_l, dtype=np.float64)[keep], -CLIP_UNITS * unit, CLIP_UNITS * unit) / unit
    own = network_inputs(plan, positions)
    other = _other_view(own, np.asarray(plan.other_view, dtype=np.int32))
    games = np.asarray(dataset.game_id)[keep]
    train_rows, test_rows = split_by_game(games, test_size, seed)
    fit_rows, stop_rows = _stopping_split(train_rows, games, seed)
    started = time.perf_counter()
    weights, passes = fit_views(own[fit_rows], other[fit_rows], target[fit_rows],
                                (own[stop_rows], other[stop_rows], target[stop_rows]), hidden=hidden, seed=seed,
                                max_iter=max_iter, scale=SIGMOID_UNITS, progress=progress)
    fit_s = time.perf_counter() - started
    network = plan.build(weights["w1"], weights["b1"], weights["w2"] * unit, float(weights["b2"][0]) * unit)
    labels = target * unit
    tested = network.batch(own[test_rows])
    metrics = {"train": fit_metrics(labels[train_rows], network.batch(own[train_rows])),
               "test": fit_metrics(labels[test_rows], tested)}
    model = _Model(plan.inputs, hidden, np.random.default_rng(0))
    model.params = weights
    floats, _ = model.forward(own[test_rows], other[test_rows])
    rounding = float(np.abs(tested - floats * unit).max(initial=0.0))
    return NetworkFit(network, metrics, len(positions), passes, fit_s, rounding)
