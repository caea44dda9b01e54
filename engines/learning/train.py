"""Fitting learned evaluators from self-play datasets (``tui-games train``).

A dataset is the CSV file ``tui-games dataset`` writes (columns ``game_id, ply,
side, position``, the game's features, ``h0``, ``h_l``, ``mate`` and, in files
written since it existed, ``outcome``) with its
sidecar ``FILE.meta.json``.  :func:`read_dataset` reads and checks it;
:func:`train_model` fits a regressor from ``h0`` alone or from the features to
the depth-L search value ``h_l``::

    dataset = read_dataset("quixo.csv", Quixo)
    fit = train_model(Quixo, dataset, model="rf", inputs="features", grid=True)
    save_model(fit.estimator, "quixo-mi.npz", fit.meta())      # engines.learning.models

Positions that occur more than once (same position text) are kept once, the
first time, *before* the train/test split, so that no test position was seen
in training.  The split, the forests, the networks and the cross-validation
folds are all seeded: the same dataset and arguments give the same model.

The grids (:data:`RF_GRID`, :data:`MLP_GRID`) are small on purpose: a grid
search over 10,000 rows takes minutes on two cores, and depth-limited forests
keep the model files (shipped in the package) small.
"""

from __future__ import annotations

import csv
import hashlib
import math
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Iterator, Sequence

import numpy as np

from games import Game, GameError
from games.files import open_regular, read_json, user_path
from games.lines import RecordBudget, capped_lines

from .dataset import FORMAT as DATASET_FORMAT
from .dataset import dataset_columns, meta_path
from .models import library_versions
from .trained import CrossValidation, FitRows, TrainedModel

__all__ = [
    "DATASET_FORMAT",
    "MODEL_KINDS",
    "INPUT_KINDS",
    "RF_GRID",
    "MLP_GRID",
    "RF_DEFAULTS",
    "MLP_DEFAULTS",
    "CHECK_ROWS",
    "CrossValidation",
    "Dataset",
    "FitRows",
    "TrainedModel",
    "DatasetError",
    "TrainError",
    "dataset_columns",
    "fit_metrics",
    "make_estimator",
    "read_dataset",
    "split_by_game",
    "train_model",
    "join_datasets",
]

#: The format tag of a dataset's sidecar metadata.
MODEL_KINDS = ("rf", "mlp")
INPUT_KINDS = ("features", "h0")

#: The random-forest grid of ``--grid``: 2 x 3 x 2 = 12 candidates.
RF_GRID: dict[str, list[Any]] = {
    "n_estimators": [50, 100],
    "max_depth": [6, 10, 14],
    "min_samples_leaf": [2, 8],
}
#: The forest fitted without ``--grid``.
RF_DEFAULTS: dict[str, Any] = {"n_estimators": 100, "max_depth": 10, "min_samples_leaf": 4}

#: The neural-network grid of ``--grid``: 2 x 2 x 2 = 8 candidates (``max_iter`` 500 and
#: ``early_stopping`` on for all of them; inputs and target are standardised).
MLP_GRID: dict[str, list[Any]] = {
    "hidden_layer_sizes": [(32,), (64, 32)],
    "alpha": [1e-4, 1e-2],
    "learning_rate_init": [1e-3, 1e-2],
}
#: The network fitted without ``--grid``.
MLP_DEFAULTS: dict[str, Any] = {"hidden_layer_sizes": (64, 32), "alpha": 1e-3, "learning_rate_init": 1e-3}
#: Fixed settings of every network.
MLP_FIXED: dict[str, Any] = {"max_iter": 500, "early_stopping": True}

#: Training positions a network needs per fit (early stopping holds out a tenth).
MLP_LEAST_ROWS = 20
#: The largest magnitude a dataset cell may have (heuristic values are far below it;
#: nearer float's limits the fitting's sums overflow).
MAX_CELL = 1e12
#: The largest dataset and sidecar read (a dataset of a million positions is about 200 MB).
MAX_BYTES = 1024 * 1024 * 1024
MAX_META_BYTES = 1024 * 1024
#: The longest line of a dataset read (a row of a game's 25 to 33 columns is under a kilobyte; the
#: header is the same columns' names).  The file is read a line at a time, never a longer line whole.
MAX_LINE_BYTES = 64 * 1024

#: The optional column of the game's result for the side to move, and the texts it holds.
OUTCOME_COLUMN = "outcome"
_OUTCOMES = {"1": 1.0, "0.5": 0.5, "0": 0.0, "": math.nan}

#: Test rows stored in the model's metadata and re-predicted when it is loaded.
CHECK_ROWS = 8

#: Prefix of the network's parameters inside ``TransformedTargetRegressor(Pipeline(...))``.
_MLP_PREFIX = "regressor__mlp__"


class DatasetError(ValueError):
    """A dataset file that cannot be used; the one-line message starts ``FILE:`` or ``FILE:LINE:``."""


class TrainError(ValueError):
    """Training arguments that cannot work with this dataset (one line)."""


@dataclass
class Dataset:
    """The rows of a dataset file, as arrays, with what its sidecar says about them."""

    path: Path
    game: str
    positions: list[str]
    game_id: np.ndarray
    ply: np.ndarray
    side: np.ndarray
    features: np.ndarray
    h0: np.ndarray
    h_l: np.ndarray
    mate: np.ndarray
    #: The game's result for the side to move (1, 0.5, 0), NaN where it is not known (a game stopped
    #: at its plies' cap, or a dataset written before the column existed).
    outcome: np.ndarray
    feature_names: tuple[str, ...]
    heuristic: str
    depth: int | None
    meta: dict[str, Any] | None
    sha256: str
    notes: list[str] = field(default_factory=list)
    #: The files joined into this one (:func:`join_datasets`): each file's name and sha256.
    parts: list[tuple[str, str]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.positions)

    @property
    def source(self) -> dict[str, Any]:
        """The data, for a model's metadata: the file and its sha256, or each file joined."""
        if self.parts:
            return {"files": [{"file": name, "sha256": sha} for name, sha in self.parts]}
        return {"file": self.path.name, "sha256": self.sha256}

    @property
    def label(self) -> str:
        """What produced ``h_l``: ``"search"`` or the stockfish spec (``"search"`` without a sidecar)."""
        return str((self.meta or {}).get("label", "search"))

    @property
    def decisive_score(self) -> float | None:
        value = (self.meta or {}).get("decisive_score")
        return float(value) if isinstance(value, (int, float)) else None

    def first_occurrences(self) -> np.ndarray:
        """Indices of the rows whose position text was not seen before (in file order)."""
        seen: set[str] = set()
        keep = []
        for index, text in enumerate(self.positions):
            if text not in seen:
                seen.add(text)
                keep.append(index)
        return np.asarray(keep, dtype=np.int64)

    @property
    def duplicates(self) -> int:
        """Rows repeating an earlier row's position."""
        return len(self) - len(set(self.positions))

    def inputs(self, kind: str) -> tuple[list[str], np.ndarray]:
        """The input columns of a model kind (``"features"`` or ``"h0"``) and their values."""
        if kind == "h0":
            return ["h0"], self.h0.reshape(-1, 1)
        if kind == "features":
            return list(self.feature_names), self.features
        raise ValueError(f"inputs must be one of {INPUT_KINDS}, not {kind!r}")


def join_datasets(parts: Sequence[Dataset]) -> Dataset:
    """One dataset of several files' rows, their games kept apart (the ids of each file after the
    last's), to train one model on them all.  Raises :class:`TrainError` unless they are of one
    game, labelled alike (the same label and depth) and with the same features."""
    first = parts[0]
    if len(parts) == 1:
        return first
    seen: set[Path] = set()
    for part in parts:
        if part.path.resolve() in seen:
            raise TrainError(f"{part.path}: given twice; each dataset is joined once")
        seen.add(part.path.resolve())

    def labelled(part: Dataset) -> str:
        depth = f"depth {part.depth}" if part.depth is not None else "an unknown depth"
        return f"{part.game} labelled by {part.label} at {depth}"

    for part in parts[1:]:
        if (part.game, part.label, part.depth, part.feature_names) != (first.game, first.label, first.depth,
                                                                       first.feature_names):
            raise TrainError(f"{part.path}: {labelled(part)}, unlike {first.path.name} ({labelled(first)}): the "
                             "datasets joined must be of one game, labelled alike")
    ids = []
    offset = 0
    for part in parts:
        ids.append(part.game_id + offset)
        offset = int(ids[-1].max(initial=offset - 1)) + 1
    joined = hashlib.sha256("".join(part.sha256 for part in parts).encode()).hexdigest()
    return Dataset(
        path=first.path, game=first.game, positions=[text for part in parts for text in part.positions],
        game_id=np.concatenate(ids), ply=np.concatenate([part.ply for part in parts]),
        side=np.concatenate([part.side for part in parts]),
        features=np.concatenate([part.features for part in parts]),
        h0=np.concatenate([part.h0 for part in parts]), h_l=np.concatenate([part.h_l for part in parts]),
        mate=np.concatenate([part.mate for part in parts]),
        outcome=np.concatenate([part.outcome for part in parts]), feature_names=first.feature_names,
        heuristic=first.heuristic, depth=first.depth, meta=first.meta, sha256=joined,
        notes=[note for part in parts for note in part.notes],
        parts=[(part.path.name, part.sha256) for part in parts],
    )


# -------------------------------------------------------------------- reading
def read_dataset(path: str | Path, game_class: type[Game]) -> Dataset:
    """Read and check a dataset CSV of ``game_class`` and its sidecar metadata.

    Raises :class:`DatasetError` naming ``FILE`` (or ``FILE:LINE``) for a missing
    or unreadable file, a header with missing or unknown columns (a dataset of
    another game), a non-numeric or non-finite cell, a row of the wrong length,
    or no data rows.  Without a sidecar the game's default heuristic is assumed
    (and :attr:`Dataset.notes` says so).
    """
    path = user_path(path)
    name = str(path)
    game = game_class.NAME
    meta, notes = _read_sidecar(path, game_class)
    heuristic = game_class.DEFAULT_HEURISTIC
    depth: int | None = None
    if meta is not None:
        heuristic = meta.get("heuristic", heuristic)
        depth = meta.get("depth") if isinstance(meta.get("depth"), int) else None
    columns = dataset_columns(game_class)
    digest = hashlib.sha256()
    try:
        with open_regular(path, "a dataset", DatasetError, MAX_BYTES) as raw:
            budget = RecordBudget(_hashed_lines(raw, name, digest), name, DatasetError, MAX_LINE_BYTES)
            reader = csv.reader(budget)
            header = next(reader, None)
            budget.spent()
            if header is None:
                raise DatasetError(f"{name}: empty file; expected a header row: {','.join(columns[:6])},...")
            header = [cell.strip() for cell in header]
            if OUTCOME_COLUMN not in header:  # written before the column existed
                columns = [column for column in columns if column != OUTCOME_COLUMN]
            _check_header(name, header, columns, game)
            where = {column: header.index(column) for column in columns}
            numeric = [column for column in columns if column not in ("position", OUTCOME_COLUMN)]
            outcomes: list[float] = []
            integers = {"game_id", "ply", "side", "mate"}
            rows: list[list[float]] = []
            positions: list[str] = []
            for cells in reader:
                budget.spent()
                line = reader.line_num
                if not cells:  # a blank line
                    continue
                if len(cells) != len(header):
                    raise DatasetError(
                        f"{name}:{line}: {len(cells)} cells, the header has {len(header)}"
                    )
                values = []
                for column in numeric:
                    text = cells[where[column]]
                    try:
                        value = float(text)
                    except ValueError:
                        raise DatasetError(
                            f"{name}:{line}: column {column!r}: {text[:30]!r} is not a number"
                        ) from None
                    if not math.isfinite(value):
                        raise DatasetError(f"{name}:{line}: column {column!r}: {text[:30]!r} is not finite")
                    if abs(value) > MAX_CELL:
                        raise DatasetError(f"{name}:{line}: column {column!r}: {text[:30]!r} is out of range "
                                           f"(at most {MAX_CELL:g} in magnitude)")
                    if column in integers and value != int(value):
                        raise DatasetError(
                            f"{name}:{line}: column {column!r}: {text!r} is not a whole number"
                        )
                    values.append(value)
                side = values[numeric.index("side")]
                if side not in (0, 1):
                    raise DatasetError(f"{name}:{line}: column 'side': {side:g} is not 0 or 1")
                positions.append(cells[where["position"]])
                rows.append(values)
                if OUTCOME_COLUMN in where:
                    text = cells[where[OUTCOME_COLUMN]].strip()
                    if text not in _OUTCOMES:
                        raise DatasetError(f"{name}:{line}: column 'outcome': {text[:30]!r} is not 1, 0.5, 0 or "
                                           "empty (not known)")
                    outcomes.append(_OUTCOMES[text])
    except UnicodeDecodeError:
        raise DatasetError(f"{name}: not UTF-8 text (is it a dataset CSV?)") from None
    except csv.Error as error:
        raise DatasetError(f"{name}:{reader.line_num}: {error}") from None
    if not rows:
        raise DatasetError(f"{name}: no data rows (only the header)")
    table = np.asarray(rows, dtype=np.float64)
    index = {column: i for i, column in enumerate(numeric)}
    features = table[:, [index[f] for f in game_class.FEATURE_NAMES]]
    return Dataset(
        path=path,
        game=game,
        positions=positions,
        game_id=table[:, index["game_id"]].astype(np.int64),
        ply=table[:, index["ply"]].astype(np.int64),
        side=table[:, index["side"]].astype(np.int64),
        features=features,
        h0=table[:, index["h0"]],
        h_l=table[:, index["h_l"]],
        mate=table[:, index["mate"]].astype(np.int64),
        outcome=np.asarray(outcomes, dtype=np.float64) if outcomes else np.full(len(rows), np.nan),
        feature_names=tuple(game_class.FEATURE_NAMES),
        heuristic=heuristic,
        depth=depth,
        meta=meta,
        sha256=digest.hexdigest(),
        notes=notes,
    )


def _hashed_lines(raw: BinaryIO, name: str, digest: Any) -> Iterator[str]:
    """The lines of a dataset file as text, each at most :data:`MAX_LINE_BYTES` (a longer one is a
    :class:`DatasetError` naming it), its bytes added to ``digest`` as they are read."""
    for line in capped_lines(raw, name, DatasetError, MAX_LINE_BYTES):
        digest.update(line)
        yield line.decode("utf-8")


def _check_header(name: str, header: list[str], columns: list[str], game: str) -> None:
    """A header with every column of ``columns`` once and no other; else one :class:`DatasetError`
    line.  Sets, one pass over the header: linear in its length, whatever it holds."""
    known, present = set(columns), set(header)
    missing = [column for column in columns if column not in present]
    unknown = [cell for cell in header if cell not in known]
    seen: set[str] = set()
    repeated: set[str] = set()
    for cell in header:
        (repeated if cell in seen else seen).add(cell)
    duplicated = sorted(repeated)

    def listed(names: list[str]) -> str:
        shown = [name if name.isprintable() else ascii(name)[:40] for name in names[:5]]  # no raw control bytes
        return ", ".join(shown) + (f" and {len(names) - 5} more" if len(names) > 5 else "")

    if duplicated:
        raise DatasetError(f"{name}:1: column {listed(duplicated)} appears twice")
    if missing and unknown:
        raise DatasetError(
            f"{name}:1: not a {game} dataset: unknown columns {listed(unknown)}; missing {listed(missing)} "
            f"(features of another game?)"
        )
    if missing:
        raise DatasetError(f"{name}:1: missing columns {listed(missing)} (a {game} dataset has: "
                           f"{','.join(columns[:5])},... {len(columns)} columns)")
    if unknown:
        raise DatasetError(f"{name}:1: unknown columns {listed(unknown)} (not in a {game} dataset)")


def _read_sidecar(path: Path, game_class: type[Game]) -> tuple[dict[str, Any] | None, list[str]]:
    """The dataset's sidecar metadata (``None`` if there is none) and notes about it."""
    sidecar = meta_path(path)
    game = game_class.NAME
    if not sidecar.exists():
        return None, [f"no {sidecar.name} beside it: assuming {game}'s default heuristic "
                      f"{game_class.DEFAULT_HEURISTIC!r} and an unknown search depth"]
    meta = read_json(sidecar, "dataset metadata", MAX_META_BYTES, DatasetError)
    if not isinstance(meta, dict) or meta.get("format") != DATASET_FORMAT:
        found = meta.get("format") if isinstance(meta, dict) else None
        raise DatasetError(f"{sidecar}: not dataset metadata: format is {found!r}, expected {DATASET_FORMAT!r}")
    if meta.get("game") != game:
        raise DatasetError(f"{sidecar}: a dataset of {meta.get('game')}, not {game}")
    heuristic = meta.get("heuristic", game_class.DEFAULT_HEURISTIC)
    try:
        game_class.heuristic(heuristic)
    except (GameError, TypeError) as error:
        raise DatasetError(f"{sidecar}: {error}") from None
    return meta, []


# ------------------------------------------------------------------- training
def make_estimator(model: str, params: dict[str, Any] | None = None, *, seed: int = 0) -> Any:
    """An unfitted estimator of a kind (``"rf"`` or ``"mlp"``) with ``params`` (short names,
    as in :data:`RF_GRID` / :data:`MLP_GRID`), seeded."""
    from sklearn.compose import TransformedTargetRegressor
    from sklearn.ensemble import RandomForestRegressor
    from sklearn.neural_network import MLPRegressor
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler

    params = dict(params or {})
    if model == "rf":
        return RandomForestRegressor(random_state=seed, n_jobs=None, **params)
    if model == "mlp":
        settings = {**MLP_FIXED, **params}
        network = MLPRegressor(random_state=seed, **settings)
        return TransformedTargetRegressor(
            regressor=Pipeline([("scale", StandardScaler()), ("mlp", network)]),
            transformer=StandardScaler(),
        )
    raise ValueError(f"model must be one of {MODEL_KINDS}, not {model!r}")


def _short(params: dict[str, Any]) -> dict[str, Any]:
    """Grid-search parameter names without the pipeline prefix."""
    return {key.removeprefix(_MLP_PREFIX): value for key, value in params.items()}


def fit_metrics(y: np.ndarray, predicted: np.ndarray) -> dict[str, float]:
    from sklearn.metrics import mean_absolute_error, mean_squared_error, r2_score

    r2 = float(r2_score(y, predicted)) if len(y) > 1 else float("nan")
    return {
        "mse": float(mean_squared_error(y, predicted)),
        "mae": float(mean_absolute_error(y, predicted)),
        "r2": r2,
    }


def grid_candidates(model: str) -> int:
    """The number of parameter combinations of a kind's grid."""
    grid = RF_GRID if model == "rf" else MLP_GRID
    return math.prod(len(values) for values in grid.values())


def split_by_game(games: np.ndarray, test_size: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Row indices (train, test) holding out about ``test_size`` of the rows as
    whole games (``games[i]`` is row i's game id), chosen with ``seed``."""
    from sklearn.model_selection import GroupShuffleSplit

    splitter = GroupShuffleSplit(n_splits=1, test_size=test_size, random_state=seed)
    train_rows, test_rows = next(splitter.split(np.zeros((len(games), 1)), groups=games))
    return train_rows, test_rows


def train_model(
    game_class: type[Game],
    dataset: Dataset,
    *,
    model: str = "rf",
    inputs: str = "features",
    grid: bool = False,
    test_size: float = 0.2,
    seed: int = 0,
    jobs: int = 1,
    cv: int = 5,
) -> TrainedModel:
    """Fit a model of ``h_l``: the estimator with all its metadata says (a
    :class:`TrainedModel`; its :meth:`~TrainedModel.meta` is what
    :func:`engines.learning.models.save_model` writes).

    Duplicated positions are dropped (first kept) before a seeded split into
    train and test rows.  With ``grid`` a :class:`~sklearn.model_selection.GridSearchCV`
    (negative MSE, ``cv`` folds, ``jobs`` processes) over :data:`RF_GRID` or
    :data:`MLP_GRID` picks the parameters; otherwise :data:`RF_DEFAULTS` or
    :data:`MLP_DEFAULTS` are fitted.  Raises :class:`TrainError` for arguments
    this dataset cannot support.
    """
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.model_selection import GridSearchCV, GroupKFold, train_test_split

    if model not in MODEL_KINDS:
        raise TrainError(f"model must be one of {', '.join(MODEL_KINDS)}, not {model!r}")
    if inputs not in INPUT_KINDS:
        raise TrainError(f"inputs must be one of {', '.join(INPUT_KINDS)}, not {inputs!r}")
    if not 0 < test_size < 1:
        raise TrainError(f"test-size must be between 0 and 1 (a fraction of the rows), got {test_size:g}")
    if jobs < 1:
        raise TrainError(f"jobs must be at least 1, got {jobs}")
    if cv < 2:
        raise TrainError(f"cv must be at least 2 folds, got {cv}")
    if dataset.game != game_class.NAME:
        raise TrainError(f"{dataset.path}: a dataset of {dataset.game}, not {game_class.NAME}")

    keep = dataset.first_occurrences()
    names, X_all = dataset.inputs(inputs)
    X = X_all[keep]
    y = dataset.h_l[keep]
    n = len(keep)
    n_test = math.ceil(test_size * n)
    n_train = n - n_test
    least = cv if grid else 2
    if n_test < 1 or n_train < least:
        raise TrainError(f"{dataset.path}: {n} distinct positions are too few to split {test_size:g} "
                         f"for testing and fit{f' {cv} folds' if grid else ''}: need more rows")
    if model == "mlp" and n_train < MLP_LEAST_ROWS * (cv if grid else 1):
        raise TrainError(f"{dataset.path}: {n_train} training positions are too few for an mlp "
                         f"(its early stopping holds out a tenth of each fit: at least "
                         f"{MLP_LEAST_ROWS * (cv if grid else 1)} needed); use more games or a random forest (rf)")
    games = dataset.game_id[keep]
    notes = list(dataset.notes)
    # Positions of one game are alike: hold out whole games, so the test
    # score is on games the model never saw (else neighbouring positions of
    # one game land on both sides and the score flatters the model).
    by_game = len(np.unique(games)) >= 4
    if by_game:
        train_rows, test_rows = split_by_game(games, test_size, seed)
        by_game = len(train_rows) >= least and len(np.unique(games[train_rows])) >= (cv if grid else 1)
    if by_game:
        X_train, X_test, y_train, y_test = X[train_rows], X[test_rows], y[train_rows], y[test_rows]
        train_games = games[train_rows]
    else:
        notes.append("too few games to hold out whole games: rows were split at random")
        X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=test_size, random_state=seed)
        train_games = None

    search_grid = None
    cv_info: CrossValidation | None = None
    started = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        if grid:
            search_grid = dict(RF_GRID if model == "rf" else MLP_GRID)
            prefix = "" if model == "rf" else _MLP_PREFIX
            search = GridSearchCV(
                make_estimator(model, seed=seed),
                {prefix + key: list(values) for key, values in search_grid.items()},
                scoring="neg_mean_squared_error",
                cv=GroupKFold(n_splits=cv) if train_games is not None else cv,
                n_jobs=jobs,
                refit=True,
            )
            search.fit(X_train, y_train, groups=train_games)
            estimator = search.best_estimator_
            params = _short(search.best_params_)
            cv_info = CrossValidation(cv, float(-search.best_score_), len(search.cv_results_["params"]))
        else:
            params = dict(RF_DEFAULTS if model == "rf" else MLP_DEFAULTS)
            estimator = make_estimator(model, params, seed=seed)
            if model == "rf":
                estimator.set_params(n_jobs=jobs)
            estimator.fit(X_train, y_train)
    fit_s = time.perf_counter() - started
    if model == "rf":
        estimator.set_params(n_jobs=None)  # a saved forest predicts single rows: no process pool
    converged = sum(issubclass(w.category, ConvergenceWarning) for w in caught)
    if converged:
        notes.append(f"{converged} fit{'s' if converged > 1 else ''} stopped at max_iter "
                     f"{MLP_FIXED['max_iter']} before converging")

    train_metrics = fit_metrics(y_train, estimator.predict(X_train))
    test_metrics = fit_metrics(y_test, estimator.predict(X_test))
    check_X = np.asarray(X_test[:CHECK_ROWS], dtype=np.float64)
    check_y = estimator.predict(check_X)
    decisive = dataset.decisive_score
    if decisive is None:
        decisive = getattr(game_class, "DECISIVE_SCORE", None)
    return TrainedModel(
        estimator=estimator, game=game_class.NAME, model=model, inputs=list(names), depth=dataset.depth,
        heuristic=dataset.heuristic, label=dataset.label, decisive_score=decisive, params=params,
        grid=search_grid, cv=cv_info, train_metrics=train_metrics, test_metrics=test_metrics,
        rows=FitRows(int(len(y_train)), int(len(y_test)), int(len(dataset) - n)),
        dataset={**dataset.source, "meta": dataset.meta}, seed=seed, test_size=test_size,
        split="by game" if train_games is not None else "by row", fit_s=round(fit_s, 3), notes=notes,
        versions=library_versions(), check_X=check_X.tolist(), check_y=[float(v) for v in check_y],
    )
