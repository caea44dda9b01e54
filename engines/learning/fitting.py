"""What fitting a learned evaluation to a dataset needs whatever its form (a network, tables):
the positions kept, the splits, the winning-chance loss and minibatch Adam with early stopping.

The loss is the squared difference of *winning chances*, not of scores:
``sigmoid(score / K)`` for the label and the output alike (``K`` is
:data:`SIGMOID_UNITS` of the game's unit: 4 pawns in chess), as NNUE trainers
and Texel tuning do.  A position a rook up and one two rooks up then weigh
almost the same, so the lopsided positions that fill self-played games (most
end in mate) do not swamp the near-level ones where games are decided.

The fit is minibatch Adam with the learning rate halved whenever the
held-out loss stops improving, stopped after ``max_iter`` passes or when it
has not improved for :data:`PATIENCE` halvings; the weights of the best pass
are kept.  Only the game's quiet positions are kept (a search asks its
evaluation at quiet leaves; a tactic's label only blurs the values), repeated
positions are dropped, and whole games are held out for testing (and a tenth
of the training games for the stopping rule).  Seeded: the same data and seed
give the same weights.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Protocol, Sequence

import numpy as np

from .train import Dataset, TrainError, split_by_game

__all__ = ["CLIP_UNITS", "SIGMOID_UNITS", "PATIENCE", "BATCH", "Fittable", "sigmoid", "kept_rows", "splits",
           "target_chances", "fit_adam"]

#: Labels are clipped to this many score units (chess: 15 pawns; mates are +/- the game's decisive score).
CLIP_UNITS = 15
#: The scale of the winning-chance curve the loss compares on: ``sigmoid(score / (SIGMOID_UNITS * unit))``.
SIGMOID_UNITS = 4.0
#: Halvings of the learning rate without a better held-out loss before the fit stops.
PATIENCE = 3
#: Positions per step at most (fewer for small datasets: about twenty steps a pass at least).
BATCH = 4096


class Fittable(Protocol):
    """A model being fitted: float parameters, and its output (in the game's unit) and gradients
    over rows of its data (a tuple of row-indexable arrays or sparse matrices)."""

    params: dict[str, np.ndarray]

    def forward(self, data: tuple[Any, ...]) -> tuple[np.ndarray, Any]: ...

    def backward(self, data: tuple[Any, ...], cache: Any, d_out: np.ndarray) -> dict[str, np.ndarray]: ...


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * x))


def kept_rows(dataset: Dataset, quiet: Callable[[str], bool] | None) -> np.ndarray:
    """The rows trained on: each position's first row, and only the quiet ones when ``quiet`` is given."""
    keep = dataset.first_occurrences()
    if quiet is not None:
        keep = keep[np.fromiter((quiet(dataset.positions[index]) for index in keep), bool, len(keep))]
    return keep


def splits(games: np.ndarray, test_size: float, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rows (train, test) holding out ``test_size`` of the games, and the training rows split again
    into (fitted, stopping) rows: a tenth of the training games decides when to stop (rows, when
    there is a single game; the same rows both, for a single position)."""
    try:
        train, test = split_by_game(games, test_size, seed)
    except ValueError:  # scikit-learn: a split that leaves one side empty
        raise TrainError(f"a test share of {test_size:g} of {len(set(games.tolist())):,} game(s) leaves no game to "
                         "train on or none to test on") from None
    if len(set(games[train].tolist())) >= 2:
        fit, stop = split_by_game(games[train], 0.1, seed + 1)
        return train, test, train[fit], train[stop]
    if len(train) < 2:
        return train, test, train, train
    shuffled = np.random.default_rng(seed + 1).permutation(train)
    cut = max(1, len(train) // 10)
    return train, test, np.sort(shuffled[cut:]), np.sort(shuffled[:cut])


def _rows(data: Sequence[Any], rows: np.ndarray) -> tuple[Any, ...]:
    return tuple(part[rows] for part in data)


def _loss(model: Fittable, data: tuple[Any, ...], chances: np.ndarray, scale: float) -> float:
    out, _ = model.forward(data)
    error = sigmoid(out / scale) - chances
    return float(np.mean(error * error))


def target_chances(target: np.ndarray, outcomes: np.ndarray | None = None, weight: float = 0.0,
                   scale: float = SIGMOID_UNITS) -> np.ndarray:
    """The winning chances fitted: each label's (``sigmoid(label / scale)``, labels in the game's unit),
    blended by ``weight`` with the game's result for the side to move (``outcomes``: 1, 0.5, 0) where it
    is known (NaN: not known, the label's chance alone)."""
    chances = sigmoid(np.asarray(target, dtype=np.float64) / scale)
    if weight and outcomes is not None:
        known = ~np.isnan(outcomes)
        chances[known] = (1.0 - weight) * chances[known] + weight * outcomes[known]
    return chances


def fit_adam(model: Fittable, data: Sequence[Any], target: np.ndarray, fit_rows: np.ndarray,
             stop_rows: np.ndarray, *, seed: int, max_iter: int, rate: float, scale: float = SIGMOID_UNITS,
             progress: Callable[[int, float, float], None] | None = None,
             chances: np.ndarray | None = None) -> tuple[dict[str, np.ndarray], int]:
    """Fit ``model`` to ``target`` (labels in the game's unit) on ``fit_rows`` of ``data``, stopping on
    the loss of ``stop_rows`` (see the module's docstring): the best parameters and the passes made.
    ``chances``, when given, are the winning chances fitted instead of the labels' (see
    :func:`target_chances`).  ``progress(pass, held-out loss, rate)`` is called after each pass."""
    rng = np.random.default_rng(seed)
    if chances is None:
        chances = target_chances(target, scale=scale)
    chances = np.asarray(chances, dtype=np.float32)
    held_data, held_chances = _rows(data, stop_rows), chances[stop_rows]
    moments = {name: (np.zeros_like(value), np.zeros_like(value)) for name, value in model.params.items()}
    best = (math.inf, {name: value.copy() for name, value in model.params.items()})
    steps = waited = passes = 0
    batch = min(BATCH, max(64, len(fit_rows) // 20))
    for passes in range(1, max_iter + 1):
        order = fit_rows[rng.permutation(len(fit_rows))]
        for start in range(0, len(order), batch):
            rows = np.sort(order[start:start + batch])
            part = _rows(data, rows)
            out, cache = model.forward(part)
            chance = sigmoid(out / scale)
            d_out = (2.0 / len(rows)) * (chance - chances[rows]) * chance * (1.0 - chance) / scale
            steps += 1
            correction = math.sqrt(1 - 0.999 ** steps) / (1 - 0.9 ** steps)
            for name, grad in model.backward(part, cache, d_out).items():
                first, second = moments[name]
                first *= 0.9
                first += 0.1 * grad.astype(first.dtype)
                second *= 0.999
                second += 0.001 * np.square(grad).astype(second.dtype)
                model.params[name] -= (rate * correction * first / (np.sqrt(second) + 1e-8)).astype(first.dtype)
        held = _loss(model, held_data, held_chances, scale)
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
