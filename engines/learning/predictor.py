"""Fast batched predictions from fitted scikit-learn regressors.

Search asks a model about every child of a node in one call.  scikit-learn's
own ``predict`` checks its input and, for forests, fans the trees out over
threads on every call: about 10 ms for a 50-tree forest whatever the batch, far
more than the search itself spends on a node.  :func:`compile_predictor` reads
the fitted parameters once and returns a plain numpy function that gives the
same numbers:

- ``RandomForestRegressor``, ``ExtraTreesRegressor`` and
  ``DecisionTreeRegressor``: every tree walked at once, level by level, over
  the whole batch (inputs rounded to float32 first, as scikit-learn does);
- ``MLPRegressor``: the forward pass as matrix products;
- ``Pipeline`` steps that are ``StandardScaler`` (or ``passthrough``) before
  the regressor, and ``TransformedTargetRegressor`` with a ``StandardScaler``
  on the target.

:func:`export_predictor` turns those estimators into plain arrays and a
JSON-able description -- what a model file stores, with no pickle -- and
:func:`predictor_from_arrays` builds the function back from them, checking
every array's type, shape and range.  Anything else compiles to the
estimator's own ``predict`` (still one call per batch) and cannot be stored.
``tests/test_learned.py`` checks every compiled shape against ``predict``.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

__all__ = ["Predictor", "PredictorSpec", "compile_predictor", "export_predictor", "predictor_from_arrays",
           "MAX_TREE_DEPTH"]

#: ``f(X)`` with ``X`` of shape ``(rows, inputs)`` -> predictions of shape ``(rows,)``.
Predictor = Callable[[np.ndarray], np.ndarray]
#: What :func:`export_predictor` says of the arrays, as JSON: ``kind`` (``"forest"`` or
#: ``"mlp"``), ``inputs``, ``x_scaled``, ``y_mean``, ``y_scale``; for a forest
#: ``trees`` and ``depth``; for a network ``activation`` and ``layers``.
PredictorSpec = dict[str, Any]

#: The deepest tree a model file may hold (a walk costs one step per level).
MAX_TREE_DEPTH = 64


def compile_predictor(estimator: Any) -> Predictor:
    """A numpy function computing ``estimator.predict`` for a batch (see the module doc)."""
    try:
        spec, arrays = export_predictor(estimator)
    except ValueError:
        predict = estimator.predict

        def fallback(X: np.ndarray) -> np.ndarray:
            return np.asarray(predict(X), dtype=np.float64).reshape(-1)

        return fallback
    return predictor_from_arrays(spec, arrays)


# --------------------------------------------------------------------- export
def export_predictor(estimator: Any) -> tuple[PredictorSpec, dict[str, np.ndarray]]:
    """The fitted ``estimator`` as plain arrays and a JSON-able spec (what a model
    file stores); :class:`ValueError` for an estimator of another shape."""
    y_mean, y_scale = 0.0, 1.0
    kind = type(estimator).__name__
    if kind == "TransformedTargetRegressor":
        transformer = estimator.transformer_
        if type(transformer).__name__ != "StandardScaler":
            raise ValueError(f"target transformer {type(transformer).__name__} is not a StandardScaler")
        y_mean = float(transformer.mean_[0]) if transformer.with_mean else 0.0
        y_scale = float(transformer.scale_[0]) if transformer.with_std else 1.0
        estimator = estimator.regressor_
        kind = type(estimator).__name__
    x_mean: np.ndarray | None = None
    x_scale: np.ndarray | None = None
    if kind == "Pipeline":
        for _, step in estimator.steps[:-1]:
            if step is None or step == "passthrough":
                continue
            if type(step).__name__ != "StandardScaler":
                raise ValueError(f"pipeline step {type(step).__name__} is not a StandardScaler")
            mean = step.mean_ if step.with_mean else np.zeros(step.n_features_in_)
            scale = step.scale_ if step.with_std else np.ones(step.n_features_in_)
            # Compose the scalers: ((x - m1) / s1 - m2) / s2 = (x - (m1 + m2 s1)) / (s1 s2).
            if x_mean is None:
                x_mean, x_scale = np.asarray(mean, dtype=np.float64), np.asarray(scale, dtype=np.float64)
            else:
                x_mean, x_scale = x_mean + mean * x_scale, x_scale * scale
        estimator = estimator.steps[-1][1]
        kind = type(estimator).__name__
    spec: PredictorSpec = {"inputs": int(estimator.n_features_in_), "x_scaled": x_mean is not None,
                           "y_mean": y_mean, "y_scale": y_scale}
    arrays: dict[str, np.ndarray] = {}
    if x_mean is not None:
        arrays["x_mean"], arrays["x_scale"] = x_mean, x_scale  # type: ignore[assignment]
    if kind in ("RandomForestRegressor", "ExtraTreesRegressor", "DecisionTreeRegressor"):
        trees = [tree.tree_ for tree in estimator.estimators_] if kind != "DecisionTreeRegressor" \
            else [estimator.tree_]
        spec.update(kind="forest", trees=len(trees))
        depth = _export_forest(trees, arrays)
        spec["depth"] = depth
    elif kind == "MLPRegressor":
        if estimator.activation not in _ACTIVATIONS or estimator.out_activation_ != "identity":
            raise ValueError(f"network activation {estimator.activation!r} is not supported")
        spec.update(kind="mlp", activation=estimator.activation, layers=len(estimator.coefs_))
        for i, (weights, bias) in enumerate(zip(estimator.coefs_, estimator.intercepts_)):
            arrays[f"w{i}"] = np.asarray(weights, dtype=np.float64)
            arrays[f"b{i}"] = np.asarray(bias, dtype=np.float64)
    else:
        raise ValueError(f"{kind} cannot be stored as arrays")
    return spec, arrays


def _export_forest(trees: list[Any], arrays: dict[str, np.ndarray]) -> int:
    """Every tree's nodes in flat arrays (see :func:`_forest`); returns the depth."""
    rights, lefts, features, thresholds, values, roots = [], [], [], [], [], []
    offset = depth = 0
    for tree in trees:
        index = np.arange(tree.node_count) + offset
        left = tree.children_left.astype(np.int64)
        leaf = left < 0
        lefts.append(np.where(leaf, index, left + offset))
        rights.append(np.where(leaf, index, tree.children_right.astype(np.int64) + offset))
        features.append(np.where(leaf, 0, tree.feature).astype(np.int64))
        thresholds.append(np.where(leaf, np.inf, tree.threshold).astype(np.float64))
        values.append(tree.value[:, 0, 0].astype(np.float64))
        roots.append(offset)
        offset += tree.node_count
        depth = max(depth, int(tree.max_depth))
    arrays["child"] = np.concatenate(rights + lefts)
    arrays["feature"] = np.concatenate(features)
    arrays["threshold"] = np.concatenate(thresholds)
    arrays["value"] = np.concatenate(values)
    arrays["root"] = np.array(roots, dtype=np.int64)
    return depth


# ------------------------------------------------------------- from arrays
def predictor_from_arrays(spec: PredictorSpec, arrays: Any) -> Predictor:
    """The predictor a model file describes; :class:`ValueError` (one line) if the
    spec and the arrays do not make a well-formed forest or network.

    ``arrays`` maps names to numpy arrays (an ``np.load`` of an ``.npz`` read
    with ``allow_pickle=False`` does).
    """
    def get(name: str, dtype: Any, ndim: int) -> np.ndarray:
        if name not in arrays:
            raise ValueError(f"array {name!r} is missing")
        array = np.asarray(arrays[name])
        if array.dtype != dtype or array.ndim != ndim:
            raise ValueError(f"array {name!r} is {array.dtype} with {array.ndim} dimensions, "
                             f"expected {np.dtype(dtype)} with {ndim}")
        if dtype == np.float64 and name != "threshold" and not np.isfinite(array).all():
            raise ValueError(f"array {name!r} holds values that are not finite")
        return array

    if not isinstance(spec, dict):
        raise ValueError("the predictor description is not an object")
    try:
        width = int(spec["inputs"])
        y_mean, y_scale = float(spec["y_mean"]), float(spec["y_scale"])
        kind, scaled = spec["kind"], bool(spec["x_scaled"])
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"the predictor description lacks or garbles {error}") from None
    if width < 1 or not (np.isfinite(y_mean) and np.isfinite(y_scale)):
        raise ValueError("the predictor description has no inputs or a non-finite target scale")
    transform: Callable[[np.ndarray], np.ndarray] = lambda X: X  # noqa: E731
    if scaled:
        x_mean, x_scale = get("x_mean", np.float64, 1), get("x_scale", np.float64, 1)
        if x_mean.shape != (width,) or x_scale.shape != (width,) or not x_scale.all():
            raise ValueError(f"the input scaler is not {width} means and non-zero scales")
        transform = lambda X: (X - x_mean) / x_scale  # noqa: E731
    if kind == "forest":
        inner = _forest_from(spec, width, get)
    elif kind == "mlp":
        inner = _mlp_from(spec, width, get)
    else:
        raise ValueError(f"unknown predictor kind {str(kind)[:20]!r}")

    def predict(X: np.ndarray) -> np.ndarray:
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != width:
            raise ValueError(f"expected rows of {width} inputs, got shape {X.shape}")
        return inner(transform(X)) * y_scale + y_mean

    return predict


def _forest_from(spec: PredictorSpec, width: int, get: Callable[..., np.ndarray]) -> Predictor:
    try:
        count, depth = int(spec["trees"]), int(spec["depth"])
    except (KeyError, TypeError, ValueError):
        raise ValueError("the forest description lacks its trees or depth") from None
    child, feature = get("child", np.int64, 1), get("feature", np.int64, 1)
    threshold, value, root = get("threshold", np.float64, 1), get("value", np.float64, 1), get("root", np.int64, 1)
    nodes = len(value)
    if not (0 < count == len(root) and 0 <= depth <= MAX_TREE_DEPTH and nodes > 0
            and child.shape == (2 * nodes,) and feature.shape == threshold.shape == (nodes,)):
        raise ValueError("the forest's arrays do not fit together")
    if child.min() < 0 or child.max() >= nodes or root.min() < 0 or root.max() >= nodes:
        raise ValueError("the forest's arrays point outside its nodes")
    if feature.min() < 0 or feature.max() >= width or np.isnan(threshold).any():
        raise ValueError(f"the forest tests inputs outside its {width} or has missing thresholds")
    return _forest(child, feature, threshold, value, root, depth)


def _mlp_from(spec: PredictorSpec, width: int, get: Callable[..., np.ndarray]) -> Predictor:
    activation = _ACTIVATIONS.get(spec.get("activation"))  # type: ignore[arg-type]
    try:
        count = int(spec["layers"])
    except (KeyError, TypeError, ValueError):
        raise ValueError("the network description lacks its layers") from None
    if activation is None or not 1 <= count <= 64:
        raise ValueError("the network's activation or number of layers is not one we run")
    layers = [(get(f"w{i}", np.float64, 2), get(f"b{i}", np.float64, 1)) for i in range(count)]
    size = width
    for weights, bias in layers:
        if weights.shape[0] != size or bias.shape != (weights.shape[1],):
            raise ValueError("the network's layers do not fit together")
        size = weights.shape[1]
    if size != 1:
        raise ValueError("the network does not end in one output")
    return _mlp(layers, activation)


_ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "identity": lambda h: h,
    "relu": lambda h: np.maximum(h, 0.0, out=h),
    "tanh": lambda h: np.tanh(h, out=h),
    "logistic": lambda h: np.divide(1.0, 1.0 + np.exp(-h), out=h),
}


def _mlp(layers: list[tuple[np.ndarray, np.ndarray]], activation: Callable[[np.ndarray], np.ndarray]) -> Predictor:
    hidden, (last_w, last_b) = layers[:-1], layers[-1]

    def predict(X: np.ndarray) -> np.ndarray:
        h = np.asarray(X, dtype=np.float64)
        for weights, bias in hidden:
            h = activation(h @ weights + bias)
        return (h @ last_w + last_b).reshape(-1)

    return predict


def _forest(child: np.ndarray, feature_of: np.ndarray, threshold_of: np.ndarray, value_of: np.ndarray,
            root: np.ndarray, depth: int) -> Predictor:
    """A batch descends all trees at once.

    A leaf points to itself, so after ``max depth`` steps every (tree, row)
    pair stands on its leaf; the prediction is the mean of the leaves' values.
    ``child[went_left * nodes + node]`` is the next node.
    """
    nodes = len(value_of)
    count = len(root)

    def predict(X: np.ndarray) -> np.ndarray:
        # scikit-learn compares float32 inputs with float64 thresholds.
        X = np.asarray(X, dtype=np.float32).astype(np.float64)
        rows, width = X.shape
        flat = X.ravel()
        row_start = np.tile(np.arange(rows) * width, count)  # (tree, row) pairs, tree-major
        node = np.repeat(root, rows)
        for _ in range(depth):
            went_left = flat[row_start + feature_of[node]] <= threshold_of[node]
            node = child[went_left * nodes + node]
        return value_of[node].reshape(count, rows).sum(axis=0) / count

    return predict
