"""Learned evaluators on disk: saving and *safely* loading trained models.

A model is two files side by side, written by ``tui-games train``::

    mi.npz     the model as plain numeric arrays (``numpy.savez_compressed``)
    mi.json    its metadata: game, inputs, target, metrics, versions, sha256,
                     check rows, and ``predictor``: what the arrays describe

The fitted scikit-learn estimator -- a ``RandomForestRegressor``
(``"model": "rf"``) or a ``TransformedTargetRegressor`` around
``Pipeline([("scale", StandardScaler()), ("mlp", MLPRegressor(...))])``
(``"model": "mlp"``) -- is exported as arrays (the forest's nodes, or the
scalers' means and scales and the network's weights) by
:func:`~engines.learning.predictor.export_predictor`; loading builds the
numpy predictor back from them.  Its inputs are either ``["h0"]`` (the static
heuristic: the ``pred`` engine) or the game's :attr:`~games.Game.FEATURE_NAMES`
(``hr`` and ``mi-pred``).

**No pickle is ever loaded.**  The arrays are read with
``numpy.load(..., allow_pickle=False)``, which refuses object arrays: a file,
whatever its bytes and whatever its metadata claims, can at worst be refused.
(A hash beside a file guards against corruption, not against an attacker;
pickles run code when loaded.)  A ``.joblib`` file, the pickle format of
earlier versions, is refused with a one-line reason.  :func:`load_model`
checks, in this order, and stops at the first failure with one
:class:`ModelError` line starting ``model NAME:``:

1. the name resolves to a path and the ``.npz`` file exists (both files are read through
   :mod:`games.files`: regular files only, at most :data:`MAX_BYTES` and :data:`MAX_META_BYTES`);
2. the ``.json`` beside it exists, is JSON nested at most :data:`games.files.MAX_DEPTH` deep, has the format tag
   ``tui-games-model/2`` and the keys and types loading relies on;
3. it was trained for this game, with a heuristic the game has;
4. the sha256 of the ``.npz`` bytes equals the metadata's (a changed or
   corrupted file is refused; the bytes hashed are the bytes read);
5. its inputs are the game's feature names or ``["h0"]`` (and the kind asked for);
6. the arrays load without pickles (their headers checked first: no object or complex arrays, no
   declared shape beyond its entry, no NaN) and make the forest or network the
   metadata's ``predictor`` describes, for that many inputs;
7. it predicts the metadata's check rows as it did when saved (``rtol`` 1e-6).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import platform
import warnings
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from games import Game, GameError, game_files
from games.arrays import UNPACKED_RATIO, unpack_arrays
from games.files import MAX_DEPTH, nesting_depth, read_bytes, read_text, unknown_user, user_path

from .predictor import Predictor, export_predictor, predictor_from_arrays

__all__ = [
    "BUNDLED_FOLDER",
    "BUNDLED_NAMES",
    "FORMAT",
    "PICKLE_FORMAT",
    "SUFFIX",
    "CHECK_RTOL",
    "LoadedModel",
    "ModelError",
    "file_sha256",
    "library_versions",
    "package_versions",
    "load_model",
    "metadata_path",
    "read_metadata",
    "bundled_folder",
    "resolve_model",
    "save_model",
]

#: The format tag of a model's metadata file.
FORMAT = "tui-games-model/2"
#: The pickle-based format of earlier versions: refused, never loaded.
PICKLE_FORMAT = "tui-games-model/1"
#: The model file's suffix.
SUFFIX = ".npz"
#: The largest model file and metadata file read (the bundled ones are under 130 kB and 8 kB).
MAX_BYTES = 64 * 1024 * 1024
MAX_META_BYTES = 4 * 1024 * 1024

#: The folder of a game's package its bundled models live in: ``models/{name}.npz`` and ``.json``.
BUNDLED_FOLDER = "models"

#: Model names that mean a bundled model: ``pred`` (inputs ``["h0"]``), ``mi`` (the features).
BUNDLED_NAMES: tuple[str, ...] = ("pred", "mi")

#: Tolerance of the check rows: relative, and absolute times the scale of the targets.
CHECK_RTOL = 1e-6

#: The predictor each ``"model"`` kind is stored as.
_PREDICTOR_KINDS = {"rf": "forest", "mlp": "mlp"}
#: The refusal of a pickle, wherever one turns up.
_NO_PICKLES = ("is a pickle (the model format of earlier versions), and pickles are never loaded: "
               "they can run code; retrain it with 'tui-games train' to get an .npz model")


class ModelError(ValueError):
    """A model file that cannot be used: missing, corrupt, tampered or mismatched (one line)."""


@dataclass(frozen=True)
class LoadedModel:
    """A model that passed every check of :func:`load_model`.

    ``name`` is what the user asked for (``"pred"``, ``"mi"`` or a path), ``path``
    the ``.npz`` file, ``meta`` its metadata, ``predictor`` the numpy function
    built from its arrays and ``notes`` what loading observed without refusing.
    """

    predictor: Predictor
    meta: dict[str, Any]
    path: Path
    name: str
    notes: tuple[str, ...] = field(default=(), compare=False)

    @property
    def inputs(self) -> tuple[str, ...]:
        """The columns the model takes, in order: ``("h0",)`` or the game's feature names."""
        return tuple(self.meta["inputs"])

    @property
    def game(self) -> str:
        return str(self.meta["game"])

    @property
    def heuristic(self) -> str:
        """The heuristic ``h0`` and the search targets were computed with."""
        return str(self.meta["heuristic"])

    @property
    def kind(self) -> str:
        """``"h0"`` for a model of the static heuristic alone, else ``"features"``."""
        return "h0" if self.inputs == ("h0",) else "features"

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Predicted search values for the rows of ``X`` (``n x len(inputs)``), in one call."""
        rows = np.asarray(X, dtype=np.float64)
        if rows.ndim == 1:
            rows = rows.reshape(1, -1)
        return self.predictor(rows)


# ----------------------------------------------------------------------- helpers
def file_sha256(path: str | os.PathLike[str]) -> str:
    """The hex sha256 digest of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def metadata_path(path: str | os.PathLike[str]) -> Path:
    """The metadata file of a model file: ``chess-mi.npz`` -> ``chess-mi.json``."""
    return Path(path).with_suffix(".json")


def package_versions(packages: dict[str, str]) -> dict[str, str]:
    """The Python version and each installed package's (``key -> distribution
    name``; ``unknown`` when it is not installed, e.g. running from a checkout)."""
    from importlib.metadata import PackageNotFoundError, version

    versions = {"python": platform.python_version()}
    for key, package in packages.items():
        try:
            versions[key] = version(package)
        except PackageNotFoundError:
            versions[key] = "unknown"
    return versions


def library_versions() -> dict[str, str]:
    """The versions a model depends on, recorded in its metadata."""
    return package_versions({"sklearn": "scikit-learn", "numpy": "numpy", "tui_games": "tui-games"})


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    message = text[0] if text else ""
    if len(message) > 160:
        message = message[:157] + "..."
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def _shown(path: Path) -> str:
    """A path as the user will recognise it (relative to the working directory when inside it)."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


# ------------------------------------------------------------------ resolving
def bundled_folder(game_name: str) -> Path:
    """Where the game's bundled models are: the ``models`` folder of its package
    (``games/othello/models``), found through :mod:`importlib.resources`; a game that ships
    none has none there, and a bundled name is then refused in one line."""
    return Path(str(game_files(game_name).joinpath(BUNDLED_FOLDER)))


def resolve_model(game_name: str, name: str) -> Path:
    """The ``.npz`` path of a model name.

    A name in :data:`BUNDLED_NAMES` means the game's bundled ``models/{name}.npz``;
    anything else is a path the user named (``~`` expanded; a ``.json`` path
    means the ``.npz`` beside it).
    """
    if name in BUNDLED_NAMES:
        return bundled_folder(game_name) / f"{name}{SUFFIX}"
    if "\0" in name:
        raise ModelError(f"model {name[:60]!r}: a path cannot contain a NUL character")
    user = unknown_user(name)
    if user is not None:
        raise ModelError(f"model {name[:60]}: there is no user {user[:40]!r} to expand ~{user[:40]}")
    path = user_path(name)
    if path.suffix == ".json":
        path = path.with_suffix(SUFFIX)
    return path


def read_metadata(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The metadata of the model file ``path`` (the ``.npz`` or the ``.json``), checked for
    its format tag and the keys loading relies on.  Raises :class:`ModelError` (one line,
    starting ``model PATH:``)."""
    path = Path(path)
    return _read_metadata(path.with_suffix(SUFFIX) if path.suffix == ".json" else path, str(path))


def _read_metadata(path: Path, name: str) -> dict[str, Any]:
    meta_file = metadata_path(path)

    def fail(message: str) -> ModelError:
        return ModelError(f"model {name}: {message}")

    if not meta_file.exists():
        raise fail(f"its metadata file {_shown(meta_file)} is missing "
                   "(a model is the .npz and the .json that 'tui-games train' writes)")
    try:
        text = read_text(meta_file, "model metadata", MAX_META_BYTES, ModelError)
    except ModelError as error:
        raise fail(str(error)) from None
    if nesting_depth(text) > MAX_DEPTH:
        raise fail(f"{_shown(meta_file)} nests too deeply to be model metadata")
    try:
        meta = json.loads(text)
    except json.JSONDecodeError as error:
        raise fail(f"{_shown(meta_file)} is not valid JSON (line {error.lineno}: {error.msg})") from None
    except RecursionError:
        raise fail(f"{_shown(meta_file)} nests too deeply to be model metadata") from None
    if not isinstance(meta, dict):
        raise fail(f"{_shown(meta_file)} is not a model metadata object")
    if meta.get("format") == PICKLE_FORMAT:
        raise fail(f"{_shown(path)} {_NO_PICKLES}")
    if meta.get("format") != FORMAT:
        found = meta.get("format")
        raise fail(f"{_shown(meta_file)} is not model metadata: format is {found!r}, expected {FORMAT!r}")
    problem = _metadata_problem(meta)
    if problem:
        raise fail(f"{_shown(meta_file)}: {problem}")
    return meta


def _metadata_problem(meta: dict[str, Any]) -> str | None:
    """What is wrong with the keys loading relies on, or ``None``."""
    required: dict[str, type | tuple[type, ...]] = {
        "game": str, "model": str, "inputs": list, "target": str, "heuristic": str,
        "sha256": str, "check": dict, "versions": dict, "predictor": dict,
    }
    missing = [key for key in required if key not in meta]
    if missing:
        return f"missing key{'s' if len(missing) > 1 else ''} {', '.join(missing)}"
    for key, kind in required.items():
        if not isinstance(meta[key], kind):
            return f"{key!r} has the wrong type ({type(meta[key]).__name__})"
    if meta["model"] not in _PREDICTOR_KINDS:
        return f"unknown model kind {str(meta['model'])[:20]!r}; expected one of: {', '.join(_PREDICTOR_KINDS)}"
    if meta["predictor"].get("kind") != _PREDICTOR_KINDS[meta["model"]]:
        return f"'predictor' does not describe an {meta['model']} model"
    if not meta["inputs"] or not all(isinstance(name, str) for name in meta["inputs"]):
        return "'inputs' must be a non-empty list of column names"
    sha = meta["sha256"]
    if len(sha) != 64 or any(c not in "0123456789abcdef" for c in sha):
        return f"'sha256' is not a hex sha256 digest: {sha[:70]!r}"
    check = meta["check"]
    if not isinstance(check.get("X"), list) or not isinstance(check.get("y"), list):
        return "'check' must hold the lists 'X' and 'y'"
    return None


# -------------------------------------------------------------------- loading
def load_model(game_class: type[Game], name: str, *, inputs: str | None = None) -> LoadedModel:
    """Load and check a model for ``game_class`` (see the module docstring for the checks).

    ``name`` is a bundled name (``"pred"``, ``"mi"``) or a path the user named.
    ``inputs`` (``"h0"`` or ``"features"``) demands a model of that kind.
    Raises :class:`ModelError` with a one-line message starting ``model NAME:``.
    """
    if inputs not in (None, "h0", "features"):
        raise ValueError(f"inputs must be 'h0', 'features' or None, not {inputs!r}")
    game = game_class.NAME
    path = resolve_model(game, name)
    shown_name = name if len(name) <= 120 else name[:60] + "..." + name[-20:]

    def fail(message: str) -> ModelError:
        return ModelError(f"model {shown_name}: {message}")

    # 1. the model file
    try:
        is_file, exists = path.is_file(), path.exists()
    except (OSError, ValueError) as error:  # a name too long for the file system, ...
        raise fail(f"not a usable path ({_first_line(error)[:100]})") from None
    if not is_file:
        if name in BUNDLED_NAMES:
            raise fail(f"the bundled {game} model {_shown(path)} is missing "
                       "(train one with 'tui-games train' and name its path instead)")
        if exists:
            raise fail(f"{_shown(path)} is not a file")
        raise fail(f"no such file {_shown(path)[:120]}")
    if path.suffix == ".joblib":
        raise fail(f"{_shown(path)} {_NO_PICKLES}")
    if path.suffix != SUFFIX:
        raise fail(f"{_shown(path)} is not an {SUFFIX} model file")
    # 2. the metadata
    meta = _read_metadata(path, name)
    # 3. the game and its heuristic
    if meta["game"] != game:
        raise fail(f"this model was trained for {meta['game']}, not {game}")
    try:
        game_class.heuristic(meta["heuristic"])
    except GameError as error:
        raise fail(f"trained with a heuristic {game} does not have ({error})") from None
    # 4. the bytes are the ones the metadata describes
    try:
        data = read_bytes(path, "a model file", MAX_BYTES, ModelError)
    except ModelError as error:
        raise fail(str(error)) from None
    if hashlib.sha256(data).hexdigest() != meta["sha256"]:
        raise fail(f"{_shown(path)} does not match its metadata (sha256 differs): "
                   "the file was changed or corrupted; it was not loaded")
    # 5. the inputs
    columns = tuple(meta["inputs"])
    features = tuple(game_class.FEATURE_NAMES)
    if columns == ("h0",):
        kind = "h0"
    elif columns == features:
        kind = "features"
    else:
        raise fail(_inputs_problem(columns, features, game))
    if inputs is not None and inputs != kind:
        has = "the static heuristic h0 alone" if kind == "h0" else f"the {len(features)} {game} features"
        wants = "h0 alone" if inputs == "h0" else f"the {len(features)} {game} features"
        raise fail(f"this model takes {has}, but it is needed with {wants} "
                   f"(use a model trained with --inputs {inputs})")
    # 6. the arrays, read without pickles, make the predictor the metadata describes
    predictor = _predictor(data, _shown(path), meta, len(columns), fail)
    loaded = LoadedModel(predictor=predictor, meta=meta, path=path, name=name)
    # 8. it computes what it computed when saved
    _check_rows(loaded, fail)
    return loaded


def _inputs_problem(columns: Sequence[str], features: Sequence[str], game: str) -> str:
    if "h0" in columns:
        return f"its inputs {list(columns)!r} are neither ['h0'] nor the {game} features"
    missing = [name for name in features if name not in columns]
    unknown = [name for name in columns if name not in features]
    if missing or unknown:
        parts = []
        if unknown:
            parts.append(f"unknown {', '.join(unknown[:4])}{' ...' if len(unknown) > 4 else ''}")
        if missing:
            parts.append(f"missing {', '.join(missing[:4])}{' ...' if len(missing) > 4 else ''}")
        return (f"its inputs are not the {game} features ({'; '.join(parts)}): "
                "trained on another game's or another version's features")
    return f"its inputs are the {game} features in another order: trained on another version's features"


def _predictor(data: bytes, where: str, meta: dict[str, Any], width: int, fail: Any) -> Predictor:
    """The numpy predictor of checked ``.npz`` bytes; every failure a :class:`ModelError`."""
    spec = meta["predictor"]
    if spec.get("inputs") != width:
        raise fail(f"its predictor takes {str(spec.get('inputs'))[:20]} inputs, its metadata names {width}")
    try:
        arrays = unpack_arrays(data, where, None, ModelError, "model", unpacked=len(data) * UNPACKED_RATIO,
                               infinite=("threshold",))
    except ModelError as error:
        raise fail(f"its arrays cannot be read ({error})") from None
    try:
        return predictor_from_arrays(spec, arrays)
    except ValueError as error:
        raise fail(f"its arrays do not make the model its metadata describes ({error})") from None


def _check_rows(model: LoadedModel, fail: Any) -> None:
    """Re-predict the metadata's check rows; refuse a model that now computes something else."""
    check = model.meta["check"]
    try:
        X = np.asarray(check["X"], dtype=np.float64)
        y = np.asarray(check["y"], dtype=np.float64)
    except (TypeError, ValueError):
        raise fail("its metadata's check rows are not numbers") from None
    width = len(model.inputs)
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] != width or y.shape != (X.shape[0],):
        raise fail(f"its metadata's check rows are malformed (need rows of {width} numbers, one y each)")
    if not (np.isfinite(X).all() and np.isfinite(y).all()):
        raise fail("its metadata's check rows are not finite numbers")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            predicted = model.predict(X)
        except Exception as error:
            raise fail(f"predicting its check rows failed ({_first_line(error)})") from None
    scale = max(1.0, float(np.max(np.abs(y))))
    close = np.isclose(predicted, y, rtol=CHECK_RTOL, atol=CHECK_RTOL * scale)
    if predicted.shape != y.shape or not close.all():
        row = int(np.argmin(close)) if predicted.shape == y.shape else 0
        detail = (f"check row {row}: {predicted[row]:.6g} now, {y[row]:.6g} when saved"
                  if predicted.shape == y.shape else "wrong number of predictions")
        raise fail(f"predicts differently from when it was saved ({detail}): "
                   "its metadata's check rows were edited or the model changed")


# --------------------------------------------------------------------- saving
def save_model(estimator: Any, path: str | os.PathLike[str], meta: dict[str, Any]) -> dict[str, Any]:
    """Write ``estimator`` as arrays to ``path`` (``.npz``) and its ``.json`` metadata;
    return the metadata.

    Refuses (:class:`ModelError`) to overwrite either file, and an estimator
    that cannot be stored as arrays.  Fills ``"predictor"`` (what the arrays
    describe), ``"sha256"`` (of the written bytes), and ``"format"``,
    ``"created"`` and ``"versions"`` when missing.  The ``.npz`` is written
    first; if anything fails after it was opened, it is removed again, so no
    partial file is left to block a retry.
    """
    path = Path(path).expanduser()
    if path.suffix != SUFFIX:
        raise ModelError(f"model {path}: the file name must end in {SUFFIX}")
    meta_file = metadata_path(path)
    for target in (path, meta_file):
        if target.exists():
            raise ModelError(f"model {path}: {_shown(target)} already exists; "
                             "choose another name (models are never overwritten)")
    try:
        spec, arrays = export_predictor(estimator)
    except ValueError as error:
        raise ModelError(f"model {path}: cannot be stored as arrays ({error})") from None
    meta = dict(meta)
    meta["format"] = FORMAT
    meta["created"] = meta.get("created") or _now()
    meta["versions"] = meta.get("versions") or library_versions()
    meta["predictor"] = spec
    meta["sha256"] = ""
    try:
        handle = open(path, "xb")
    except FileExistsError:
        raise ModelError(f"model {path}: {_shown(path)} already exists; choose another name") from None
    except OSError as error:
        raise ModelError(f"model {path}: cannot write it ({_first_line(error)})") from None
    try:
        with handle:
            np.savez_compressed(handle, **arrays)  # type: ignore[arg-type]  # numpy's stub: a name could be allow_pickle
            handle.flush()
            os.fsync(handle.fileno())
        meta["sha256"] = file_sha256(path)
        text = json.dumps(_jsonable(meta), indent=2, allow_nan=False) + "\n"
        with open(meta_file, "x", encoding="utf-8") as meta_handle:
            meta_handle.write(text)
    except BaseException as error:  # a full disk, Ctrl-C: no partial file is left to block a retry
        path.unlink(missing_ok=True)
        if isinstance(error, FileExistsError):
            raise ModelError(f"model {path}: {_shown(meta_file)} already exists; "
                             "choose another name") from None
        if isinstance(error, (OSError, ValueError)):
            raise ModelError(f"model {path}: cannot write it ({_first_line(error)})") from None
        raise
    return meta


def _jsonable(value: Any) -> Any:
    """Metadata as plain JSON: tuples to lists, numpy scalars to numbers, NaN to ``None``."""
    if isinstance(value, dict):
        return {str(key): _jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(item) for item in value]
    if isinstance(value, np.ndarray):
        return [_jsonable(item) for item in value.tolist()]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
