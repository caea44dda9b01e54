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

Anything else falls back to the estimator's own ``predict`` (still one call
per batch).  ``tests/test_learned.py`` checks every compiled shape against
``predict``.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

__all__ = ["Predictor", "compile_predictor"]

#: ``f(X)`` with ``X`` of shape ``(rows, inputs)`` -> predictions of shape ``(rows,)``.
Predictor = Callable[[np.ndarray], np.ndarray]


def compile_predictor(estimator: Any) -> Predictor:
    """A numpy function computing ``estimator.predict`` for a batch (see the module doc)."""
    compiled = _compile(estimator)
    if compiled is not None:
        return compiled
    predict = estimator.predict

    def fallback(X: np.ndarray) -> np.ndarray:
        return np.asarray(predict(X), dtype=np.float64).reshape(-1)

    return fallback


def _compile(estimator: Any) -> Predictor | None:
    kind = type(estimator).__name__
    if kind == "TransformedTargetRegressor":
        return _target_transformed(estimator)
    if kind == "Pipeline":
        return _pipeline(estimator)
    if kind in ("RandomForestRegressor", "ExtraTreesRegressor"):
        return _forest([tree.tree_ for tree in estimator.estimators_])
    if kind == "DecisionTreeRegressor":
        return _forest([estimator.tree_])
    if kind == "MLPRegressor":
        return _mlp(estimator)
    return None


def _scaler(step: Any) -> Callable[[np.ndarray], np.ndarray] | None:
    """``StandardScaler.transform`` as a function, or ``None`` if ``step`` is something else."""
    if step is None or step == "passthrough":
        return lambda X: X
    if type(step).__name__ != "StandardScaler":
        return None
    mean = step.mean_ if step.with_mean else None
    scale = step.scale_ if step.with_std else None

    def transform(X: np.ndarray) -> np.ndarray:
        if mean is not None:
            X = X - mean
        if scale is not None:
            X = X / scale
        return X

    return transform


def _pipeline(pipeline: Any) -> Predictor | None:
    transforms = []
    for _, step in pipeline.steps[:-1]:
        transform = _scaler(step)
        if transform is None:
            return None
        transforms.append(transform)
    final = _compile(pipeline.steps[-1][1])
    if final is None:
        return None

    def predict(X: np.ndarray) -> np.ndarray:
        for transform in transforms:
            X = transform(X)
        return final(X)

    return predict


def _target_transformed(estimator: Any) -> Predictor | None:
    inner = _compile(estimator.regressor_)
    transformer = estimator.transformer_
    if inner is None or type(transformer).__name__ != "StandardScaler":
        return None
    mean = float(transformer.mean_[0]) if transformer.with_mean else 0.0
    scale = float(transformer.scale_[0]) if transformer.with_std else 1.0

    def predict(X: np.ndarray) -> np.ndarray:
        return inner(X) * scale + mean

    return predict


_ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "identity": lambda h: h,
    "relu": lambda h: np.maximum(h, 0.0, out=h),
    "tanh": lambda h: np.tanh(h, out=h),
    "logistic": lambda h: np.divide(1.0, 1.0 + np.exp(-h), out=h),
}


def _mlp(mlp: Any) -> Predictor | None:
    activation = _ACTIVATIONS.get(mlp.activation)
    if activation is None or mlp.out_activation_ != "identity":
        return None
    layers = list(zip(mlp.coefs_, mlp.intercepts_))
    hidden, (last_w, last_b) = layers[:-1], layers[-1]

    def predict(X: np.ndarray) -> np.ndarray:
        h = np.asarray(X, dtype=np.float64)
        for weights, bias in hidden:
            h = activation(h @ weights + bias)
        return (h @ last_w + last_b).reshape(-1)

    return predict


def _forest(trees: list[Any]) -> Predictor:
    """Every tree's nodes in flat arrays; a batch descends all trees at once.

    A leaf points to itself, so after ``max depth`` steps every (tree, row)
    pair stands on its leaf; the prediction is the mean of the leaves' values.
    ``child[went_left * nodes + node]`` is the next node.
    """
    rights, lefts, features, thresholds, values, roots = [], [], [], [], [], []
    offset = 0
    depth = 0
    for tree in trees:
        index = np.arange(tree.node_count) + offset
        left = tree.children_left.astype(np.int64)
        leaf = left < 0
        lefts.append(np.where(leaf, index, left + offset))
        rights.append(np.where(leaf, index, tree.children_right.astype(np.int64) + offset))
        features.append(np.where(leaf, 0, tree.feature).astype(np.int64))
        thresholds.append(np.where(leaf, np.inf, tree.threshold))
        values.append(tree.value[:, 0, 0].astype(np.float64))
        roots.append(offset)
        offset += tree.node_count
        depth = max(depth, int(tree.max_depth))
    nodes = offset
    child = np.concatenate(rights + lefts)
    feature_of = np.concatenate(features)
    threshold_of = np.concatenate(thresholds)
    value_of = np.concatenate(values)
    root = np.array(roots, dtype=np.int64)
    count = len(trees)

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
