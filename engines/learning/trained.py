"""What a fit made: :class:`TrainedModel` (the estimator and every fact of its fit) and its parts.

:func:`engines.learning.train.train_model` returns one; :meth:`TrainedModel.meta`
is the model's metadata file as :func:`engines.learning.models.save_model`
writes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .models import FORMAT

__all__ = ["CrossValidation", "FitRows", "TrainedModel"]


@dataclass(frozen=True)
class CrossValidation:
    """A grid search's cross-validation: its ``folds``, the best candidate's mean
    squared error over them and how many ``candidates`` were fitted."""

    folds: int
    best_mse: float
    candidates: int


@dataclass(frozen=True)
class FitRows:
    """The positions a model was fitted on (``train``) and scored on (``test``), and
    how many repeated positions were dropped before the split."""

    train: int
    test: int
    duplicates_dropped: int


@dataclass(frozen=True)
class TrainedModel:
    """What :func:`train_model` fitted: the ``estimator`` and all that the model's
    metadata file says of it (:meth:`meta` gives that metadata as written).

    ``inputs`` names the estimator's columns; ``depth``, ``heuristic`` and ``label``
    describe the dataset's target; ``params`` are the parameters fitted (the best
    of ``grid`` when there was a grid search, with its ``cv``);
    ``train_metrics``/``test_metrics`` hold MSE, MAE and R²; ``split`` is
    ``"by game"`` or ``"by row"``; ``fit_s`` the seconds the fit took; ``notes``
    the dataset's notes and the fit's; ``check_X``/``check_y`` a few test rows
    and the estimator's predictions, which a saved model must reproduce.
    """

    estimator: Any
    game: str
    model: str
    inputs: list[str]
    depth: int | None
    heuristic: str
    label: str
    decisive_score: float | None
    params: dict[str, Any]
    grid: dict[str, Any] | None
    cv: CrossValidation | None
    train_metrics: dict[str, float]
    test_metrics: dict[str, float]
    rows: FitRows
    dataset: dict[str, Any]
    seed: int
    test_size: float
    split: str
    fit_s: float
    notes: list[str]
    versions: dict[str, str]
    check_X: list[list[float]]
    check_y: list[float]

    def meta(self, command: str | None = None) -> dict[str, Any]:
        """The model's metadata as :func:`engines.learning.models.save_model` takes it
        (it fills ``sha256`` and ``created``), with the ``command`` that trained it."""
        return {
            "format": FORMAT,
            "game": self.game,
            "model": self.model,
            "inputs": list(self.inputs),
            "target": "h_l",
            "depth": self.depth,
            "heuristic": self.heuristic,
            "label": self.label,
            "decisive_score": self.decisive_score,
            "params": dict(self.params),
            "grid": self.grid,
            "cv": None if self.cv is None else {"folds": self.cv.folds, "best_mse": self.cv.best_mse,
                                                "candidates": self.cv.candidates},
            "metrics": {"train": dict(self.train_metrics), "test": dict(self.test_metrics)},
            "rows": {"train": self.rows.train, "test": self.rows.test,
                     "duplicates_dropped": self.rows.duplicates_dropped},
            "dataset": self.dataset,
            "seed": self.seed,
            "test_size": self.test_size,
            "split": self.split,
            "fit_s": self.fit_s,
            "notes": list(self.notes),
            "versions": dict(self.versions),
            "sha256": None,
            "created": None,
            "command": command,
            "check": {"X": self.check_X, "y": self.check_y},
        }
