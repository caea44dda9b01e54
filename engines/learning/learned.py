"""Engines guided by trained regressors: ``hr``, ``pred`` and ``mi-pred``.

A model (see :mod:`engines.learning.models`) maps a position, seen by the side to move,
to the value a depth-L search gives it (H_L).  Its input is either the static
heuristic H0 alone (the seeds' "Pred BLMinMax") or the game's feature vector
(their "MI Pred" and "Hr CutOff").

:class:`ChildScorer` scores every child of a position for the mover in **one**
batched model call -- the seeds built a one-row DataFrame and called
``predict`` per child -- through the numpy predictor of
:mod:`engines.learning.predictor`.  A child that ends the game is scored by its result,
not by the model (which never saw finished games): a winning move is never
dropped or passed over.

- ``hr``: the alpha-beta core with :class:`~engines.search.HrCutoff` (keep the
  top ``k`` children by the model at every node); :func:`hr_cutoff` is its
  selector factory for :class:`~engines.search.AlphaBetaEngine`.
- ``pred`` / ``mi-pred``: :class:`PredictEngine`, one ply: play the child with
  the best predicted value.

A model that cannot be used is an :class:`EngineModelError`, a
:class:`~engines.spec.SpecError` with one line saying why; the app then plays
:func:`engines.registry.fallback_spec` (``h0``) instead.
"""

from __future__ import annotations

import functools
import os
import random
import time
from typing import Any, Callable, Sequence

import numpy as np

from games import WIN, Game, GameError

from ..base import Engine, InfoCallback, Limits, SearchResult, StopFlag, mate_in, root_moves
from ..search import HrCutoff, Selector
from ..spec import EngineSpec, SpecError

__all__ = ["EngineModelError", "ChildScorer", "HeuristicScorer", "HEURISTIC_MODEL", "PredictEngine", "child_scorer",
           "hr_cutoff"]


class EngineModelError(SpecError):
    """A learned engine's model is missing, corrupt, tampered with or mismatched."""


class ChildScorer:
    """The values of a position's children for the player to move, by a model.

    ``scorer(game, moves)`` plays each move, reads the model's input for the
    side to move there (H0 or the feature vector), takes it back, predicts all
    rows at once and returns ``-prediction`` (the mover's view, negamax).
    Children that end the game get ``WIN - 1``, ``0`` or ``1 - WIN``.
    ``evals`` counts the rows predicted.
    """

    def __init__(self, model: Any, game_class: type[Game]) -> None:
        self.model = model
        #: The model's numpy predictor, built from its arrays (load_model checked it).
        self.predict = model.predictor
        self.uses_features = model.kind == "features"
        self.h0 = None if self.uses_features else game_class.heuristic(model.heuristic)
        self.evals = 0

    def rows(self, game: Game, moves: Sequence[Any]) -> tuple[list[list[float]], dict[int, float]]:
        """The model's input row of every child that goes on, and the exact
        value (for the mover) of every child that ends the game, by index."""
        me = game.turn
        play, undo, outcome = game.play, game.undo, game.outcome
        rows: list[list[float]] = []
        final: dict[int, float] = {}
        features, h0 = self.uses_features, self.h0
        for i, move in enumerate(moves):
            play(move)
            ended = outcome()
            if ended is not None:
                final[i] = 0.0 if ended.winner is None else float(WIN - 1 if ended.winner == me else 1 - WIN)
            elif features:
                rows.append(game.features(game.turn))
            else:
                rows.append([h0(game, game.turn)])  # type: ignore[misc]
            undo()
        return rows, final

    def __call__(self, game: Game, moves: Sequence[Any]) -> list[float]:
        rows, final = self.rows(game, moves)
        predicted = iter(-self.predict(np.asarray(rows, dtype=np.float64)) if rows else ())
        self.evals += len(rows)
        return [final[i] if i in final else float(next(predicted)) for i in range(len(moves))]


class HeuristicScorer:
    """The values of a position's children for the player to move, by a learned evaluation
    (``model=heuristic:NAME``): the learned evaluations are models of a deeper search's value
    from a position's features too -- the chess network's pieces on squares, the pattern tables'
    states -- made fast enough to ask one child at a time.  Children that end the game are scored
    by their result, as :class:`ChildScorer` scores them."""

    def __init__(self, name: str, game_class: type[Game]) -> None:
        self.model = None
        self.name = name
        self.evaluate = game_class.heuristic(name)
        self.evals = 0

    def __call__(self, game: Game, moves: Sequence[Any]) -> list[float]:
        me = game.turn
        play, undo, outcome, evaluate = game.play, game.undo, game.outcome, self.evaluate
        values = []
        for move in moves:
            play(move)
            ended = outcome()
            if ended is not None:
                values.append(0.0 if ended.winner is None else float(WIN - 1 if ended.winner == me else 1 - WIN))
            else:
                values.append(float(evaluate(game, me)))
                self.evals += 1
            undo()
        return values


#: The prefix of a ``model`` that names a learned evaluation rather than a model file.
HEURISTIC_MODEL = "heuristic:"


# ------------------------------------------------------------------ loading
_CACHE: dict[tuple[Any, ...], Any] = {}


def load_engine_model(spec: EngineSpec, game_class: type[Game], inputs: str) -> Any:
    """The spec's ``model`` for ``game_class``, checked (see :func:`engines.learning.models.load_model`).

    Loaded models are kept per file (path, size, modification time), so a
    tournament does not read the same file for every game.  Raises
    :class:`EngineModelError`.
    """
    from .models import ModelError, load_model, resolve_model  # numpy: only when a learned engine is built

    name = spec.get("model")
    try:
        path = resolve_model(game_class.NAME, name)
        stat = os.stat(path)
        key: tuple[Any, ...] | None = (game_class.NAME, str(path), inputs, stat.st_size, stat.st_mtime_ns)
    except (ModelError, OSError, ValueError):
        key = None  # load_model says what is wrong
    if key is not None and key in _CACHE:
        return _CACHE[key]
    try:
        model = load_model(game_class, name, inputs=inputs)
    except ModelError as error:
        raise EngineModelError(f"{spec.name}: {error}") from None
    if key is not None:
        _CACHE[key] = model
    return model


def child_scorer(spec: EngineSpec, game_class: type[Game], inputs: str) -> ChildScorer | HeuristicScorer:
    """A :class:`ChildScorer` for the spec's model, or a :class:`HeuristicScorer` for a learned evaluation
    (``model=heuristic:NAME``, feature-vector engines only); :class:`EngineModelError` if it cannot be used."""
    name = spec.get("model")
    if isinstance(name, str) and name.startswith(HEURISTIC_MODEL):
        if inputs != "features":
            raise EngineModelError(f"{spec.name}: model={name[:60]}: a learned evaluation stands for a model of the "
                                   "features (hr, mi-pred); pred maps H0 by a trained regressor")
        try:
            return HeuristicScorer(name[len(HEURISTIC_MODEL):], game_class)
        except GameError as error:
            raise EngineModelError(f"{spec.name}: model={name[:60]}: {error}") from None
    return ChildScorer(load_engine_model(spec, game_class, inputs), game_class)


def hr_cutoff(spec: EngineSpec, game_class: type[Game]) -> Callable[[], Selector]:
    """``hr``'s selector factory: the model is loaded and checked here, once,
    so a bad model is a spec error before any search."""
    return functools.partial(HrCutoff, spec.get("k"), child_scorer(spec, game_class, "features"))


# ------------------------------------------------------------------ engines
class PredictEngine(Engine):
    """``pred`` and ``mi-pred``: one ply, each child valued by the model.

    ``inputs`` is the model's input: ``"h0"`` for ``pred`` (bundled model:
    ``pred``), ``"features"`` for ``mi-pred`` (bundled: ``mi``).  Among equally
    valued children the choice is random, reproducible from ``seed``.
    """

    def __init__(self, spec: EngineSpec, game_class: type[Game], inputs: str) -> None:
        super().__init__(spec, game_class)
        self.scorer = child_scorer(spec, game_class, inputs)
        self.rng = random.Random(spec.get("seed"))

    @property
    def model(self) -> Any:
        return self.scorer.model

    def search(self, game: Game, limits: Limits | None = None, *,
               stop: StopFlag | None = None, on_info: InfoCallback | None = None,
               moves: Sequence[Any] | None = None) -> SearchResult:
        start = time.perf_counter()
        legal = root_moves(game, moves)
        self.rng.shuffle(legal)  # reproducible tie-breaks: the first best in this order wins
        work = game.copy()
        before = self.scorer.evals
        values = self.scorer(work, legal)
        best = max(range(len(legal)), key=values.__getitem__)
        move, value = legal[best], values[best]
        score = int(round(value))
        text = work.format_move(move)
        elapsed = time.perf_counter() - start
        nodes = len(legal) + 1
        stats = self.new_stats().copy(
            nodes=nodes, evals=self.scorer.evals - before, depth=1, seldepth=1,
            time_s=round(elapsed, 4), nps=int(nodes / elapsed) if elapsed > 0 else 0,
            score=score, mate=mate_in(score), best=text, pv=[text],
        )
        if on_info is not None:
            on_info(stats.copy())
        return SearchResult(move, score, [move], stats)
