"""Training a game's piece-square network (its kind's :class:`~games.kind.NetworkPlan`;
chess: :mod:`games.chess.network`) from a dataset.

The dataset is a ``tui-games dataset`` CSV: each position's text and
``h_l``, the value a deeper search gave it for the side to move (ours, or
Stockfish's with ``--label stockfish``).  The positions become the inputs of
the side to move (chess: 768, a sparse matrix); scikit-learn's
:class:`~sklearn.neural_network.MLPRegressor` (one ReLU hidden layer, Adam)
fits ``h_l`` in the game's score units (chess: pawns), clipped to +/-
:data:`CLIP_UNITS` so that mates and won endings do not swamp the rest; the fitted weights become a
:class:`~games.chess.network.Network` with its first layer in integers.
Repeated positions are dropped and whole games are held out for testing.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from games.kind import NetworkPlan, TrainedNetwork

from .train import Dataset, fit_metrics, split_by_game

__all__ = ["CLIP_UNITS", "NetworkFit", "network_inputs", "train_network"]

#: Labels are clipped to this many score units (chess: 15 pawns; mates are +/- the game's decisive score).
CLIP_UNITS = 15


@dataclass(frozen=True)
class NetworkFit:
    """A trained network and how well it fits: train and test MSE, MAE and R² in the game's score (centipawns)."""

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


def train_network(plan: NetworkPlan, dataset: Dataset, *, hidden: int = 64, seed: int = 0, test_size: float = 0.2,
                  max_iter: int = 60, alpha: float = 1e-4, unit: float = 100.0,
                  verbose: bool = False) -> NetworkFit:
    """Fit a network with ``hidden`` units to ``dataset``'s ``h_l`` (see the module's docstring)."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPRegressor

    keep = dataset.first_occurrences()
    positions = [dataset.positions[index] for index in keep]
    target = np.clip(np.asarray(dataset.h_l, dtype=np.float64)[keep], -CLIP_UNITS * unit, CLIP_UNITS * unit)
    inputs = network_inputs(plan, positions)
    train_rows, test_rows = split_by_game(np.asarray(dataset.game_id)[keep], test_size, seed)
    batch = min(256, max(1, int(len(train_rows) * 0.9)))  # early stopping keeps 10% aside
    model = MLPRegressor(hidden_layer_sizes=(hidden,), activation="relu", solver="adam", alpha=alpha,
                         batch_size=batch, learning_rate_init=1e-3, max_iter=max_iter, early_stopping=True,
                         validation_fraction=0.1, n_iter_no_change=6, random_state=seed, verbose=verbose)
    started = time.perf_counter()
    with warnings.catch_warnings():  # stopping at max_iter is reported as the passes made
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(inputs[train_rows], target[train_rows] / unit)
    fit_s = time.perf_counter() - started
    network = plan.build(model.coefs_[0], model.intercepts_[0], model.coefs_[1].reshape(-1) * unit,
                         float(model.intercepts_[1][0]) * unit)
    tested = network.batch(inputs[test_rows])
    metrics = {"train": fit_metrics(target[train_rows], network.batch(inputs[train_rows])),
               "test": fit_metrics(target[test_rows], tested)}
    rounding = float(np.abs(tested - model.predict(inputs[test_rows]) * unit).max(initial=0.0))
    return NetworkFit(network, metrics, len(positions), int(model.n_iter_), fit_s, rounding)
