"""Fitting a game's tapered piece-square tables (its kind's :class:`~games.kind.TablesPlan`;
chess: ``pesto``'s form) to a dataset: Texel tuning, against a deeper search's values.

The model is the hand-made evaluation's own form -- for the side to move, the
sum over its pieces of their midgame values less the sum over the other side's
(each seen from its own side), blended with the endgame sums by the phase,
plus a tempo -- so the fitted tables are evaluated exactly as fast as the
hand-made ones.  The fit starts from the hand-made tables and works in the
game's unit (chess: pawns); the loss, the quiet positions, the splits and
the optimiser are :mod:`engines.learning.fitting`'s.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from games.kind import TablesPlan

from .fitting import CLIP_UNITS, fit_adam, kept_rows, splits, target_chances
from .train import Dataset, fit_metrics

__all__ = ["TablesFit", "tables_terms_matrix", "train_tables"]


@dataclass(frozen=True)
class TablesFit:
    """Fitted tables (midgame, endgame, tempo: the game's score) and how well they fit, beside the
    tables the fit started from: MSE, MAE and R² on the quiet training and test positions."""

    mg: np.ndarray
    eg: np.ndarray
    tempo: float
    metrics: dict[str, dict[str, float]]
    start_metrics: dict[str, dict[str, float]]
    #: How well the dataset's own heuristic (its ``h0`` column) fits the same labels, for comparison.
    h0_metrics: dict[str, dict[str, float]]
    #: The quiet positions kept, and those of the training games (the rest were held out for testing).
    positions: int
    trained: int
    iterations: int
    fit_s: float


def tables_terms_matrix(plan: TablesPlan, positions: list[str]) -> tuple[Any, np.ndarray]:
    """The signed terms of each position text (a SciPy CSR matrix, positions x weights) and their phases."""
    from scipy.sparse import csr_matrix

    columns: list[int] = []
    values: list[float] = []
    starts = [0]
    phases = np.empty(len(positions))
    for row, text in enumerate(positions):
        indices, signs, phases[row] = plan.terms(text)
        columns.extend(indices)
        values.extend(signs)
        starts.append(len(columns))
    return (csr_matrix((np.asarray(values), np.asarray(columns, dtype=np.int32), np.asarray(starts, dtype=np.int64)),
                       shape=(len(positions), plan.weights)), phases)


class _Tables:
    """The tables being fitted, in the game's unit."""

    def __init__(self, mg: Any, eg: Any, tempo: float, unit: float) -> None:
        self.params = {"mg": np.asarray(mg, dtype=np.float64).reshape(-1) / unit,
                       "eg": np.asarray(eg, dtype=np.float64).reshape(-1) / unit,
                       "tempo": np.array([tempo / unit])}

    def forward(self, data: tuple[Any, ...]) -> tuple[np.ndarray, None]:
        terms, phases = data
        params = self.params
        return (np.asarray(terms @ params["mg"]) * phases + np.asarray(terms @ params["eg"]) * (1 - phases)
                + params["tempo"][0]), None

    def backward(self, data: tuple[Any, ...], cache: None, d_out: np.ndarray) -> dict[str, np.ndarray]:
        terms, phases = data
        return {"mg": np.asarray(terms.T @ (d_out * phases)), "eg": np.asarray(terms.T @ (d_out * (1 - phases))),
                "tempo": np.array([d_out.sum()])}


def train_tables(plan: TablesPlan, dataset: Dataset, *, seed: int = 0, test_size: float = 0.2, max_iter: int = 60,
                 unit: float = 100.0, rate: float = 2e-3, outcome_weight: float = 0.0,
                 progress: Callable[[int, float, float], None] | None = None) -> TablesFit:
    """Fit the game's tables to ``dataset``'s ``h_l`` from the hand-made ones (see the module's docstring);
    ``unit`` is the game's score unit the fit works in, and the loss compares
    ``sigmoid(score / (SIGMOID_UNITS x unit))``. With ``outcome_weight`` above 0 the chance fitted is blended
    with the game's result by that weight (:func:`~engines.learning.fitting.target_chances`).
    ``progress(pass, held-out loss, learning rate)`` is called after each pass."""
    keep = kept_rows(dataset, plan.quiet)
    positions = [dataset.positions[index] for index in keep]
    target = np.clip(np.asarray(dataset.h_l, dtype=np.float64)[keep], -CLIP_UNITS * unit, CLIP_UNITS * unit) / unit
    chances = target_chances(target, np.asarray(dataset.outcome, dtype=np.float64)[keep], outcome_weight)
    terms, phases = tables_terms_matrix(plan, positions)
    train_rows, test_rows, fit_rows, stop_rows = splits(np.asarray(dataset.game_id)[keep], test_size, seed)
    start = _Tables(*plan.start(), unit)
    model = _Tables(*plan.start(), unit)
    started = time.perf_counter()
    params, passes = fit_adam(model, (terms, phases), target, fit_rows, stop_rows, seed=seed, max_iter=max_iter,
                              rate=rate, progress=progress, chances=chances)
    fit_s = time.perf_counter() - started
    model.params = params
    labels = target * unit

    def measured(tables: _Tables) -> dict[str, dict[str, float]]:
        return {name: fit_metrics(labels[rows], tables.forward((terms[rows], phases[rows]))[0] * unit)
                for name, rows in (("train", train_rows), ("test", test_rows))}

    h0 = np.asarray(dataset.h0, dtype=np.float64)[keep]
    h0_metrics = {name: fit_metrics(labels[rows], h0[rows]) for name, rows in (("train", train_rows), ("test", test_rows))}
    shape = np.asarray(plan.start()[0]).shape  # the tables' own shape (chess: 6 kinds x 64 squares)
    return TablesFit(params["mg"].reshape(shape) * unit, params["eg"].reshape(shape) * unit,
                     float(params["tempo"][0]) * unit, measured(model), measured(start), h0_metrics, len(positions),
                     len(train_rows), passes, fit_s)
