"""Child selection: which children of a node the core searches, in what order.

A :class:`~engines.search.core.Selector` is what distinguishes most of the minimax family: full
width with staged move ordering (:class:`FullWidth`), the seeds' branching
limit (:class:`BranchingLimit`, ``bl``), the H0 cutoff (:class:`H0Cutoff`,
``h0``), the Hl cutoff (:class:`HlCutoff`, ``hl``) and the regressor cutoff
(:class:`HrCutoff`, ``hr``).  Each one counts what it scored and dropped in
the search's :class:`~engines.search.core.Control`.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Iterable, Iterator, Sequence

from games import Game, Heuristic

from ..spec import EngineSpec
from .core import INF, Searcher, Selector

__all__ = ["Selector", "FullWidth", "BranchingLimit", "Cutoff", "H0Cutoff", "HrCutoff", "HlCutoff",
           "branching_limit", "h0_cutoff", "hl_cutoff", "cut_heuristic"]


class FullWidth(Selector):
    """Every move, in stages: the TT move, the captures by the game's capture
    score (MVV-LVA in chess), the killer moves, then the quiet moves by
    history (killers and history when the searcher keeps them; otherwise the
    quiet moves in their given order).  ``ordered=False`` keeps the given order.

    The stages are lazy: a node with a TT move searches it before generating
    the other moves (keys are exact, so the TT move is legal), and the quiet
    moves are sorted only when the search gets to them -- at a node that a
    TT move or a capture cuts off, that work is saved.
    """

    def __init__(self, ordered: bool = True) -> None:
        self.ordered = ordered

    def select(self, search: Searcher, depth: int, ply: int, tt_move: Any) -> Iterable[Any]:
        if not self.ordered:
            return search.node_moves(ply)
        if not ply:
            if tt_move not in search.root_moves:
                tt_move = None  # the root may be restricted to some moves (searchmoves, workers)
            return list(self.staged(search, list(search.root_moves), ply, tt_move))
        return self.staged(search, None, ply, tt_move)

    @staticmethod
    def staged(search: Searcher, moves: list[Any] | None, ply: int, tt_move: Any) -> Iterator[Any]:
        """The moves in search order; ``moves=None`` generates them after the TT move."""
        game = search.game
        if tt_move is not None:
            yield tt_move
        if moves is None:
            moves = game.legal_moves()
        if tt_move is not None:
            try:
                moves.remove(tt_move)
            except ValueError:  # pragma: no cover - a TT move is always legal here
                pass
        scores = game.capture_scores(moves)
        captures = [(score, i) for i, score in enumerate(scores) if score]
        if captures:
            captures.sort(key=_first, reverse=True)  # stable: equal scores keep their order
            for _, i in captures:
                yield moves[i]
            quiet = [move for move, score in zip(moves, scores) if not score]
        else:
            quiet = moves
        if search.killers is not None and quiet:
            for killer in search.killers[ply][:]:
                if killer is not None and killer in quiet:
                    quiet.remove(killer)
                    yield killer
            if len(quiet) > 1:
                get = search.history[game.turn].get
                quiet.sort(key=lambda move: get(move, 0), reverse=True)
        yield from quiet


def _first(pair: tuple[int, int]) -> int:
    return pair[0]


def _keep_best(search: Searcher, moves: Sequence[Any], scores: list[float], keep: int,
               tt_move: Any) -> list[Any]:
    """The ``keep`` moves with the highest scores, best first (ties in given order),
    with the TT move moved to the front if it survived."""
    order = sorted(range(len(moves)), key=scores.__getitem__, reverse=True)[:keep]
    kept = [moves[i] for i in order]
    if tt_move is not None and kept[0] != tt_move and tt_move in kept:
        kept.remove(tt_move)
        kept.insert(0, tt_move)
    return kept


class Cutoff(Selector):
    """Keep the top ``k`` children of every node by a score, best first (the
    seeds' H0 and Hr cutoffs).  Subclasses give :meth:`scores` and name the
    counters of the children they scored and dropped."""

    #: The :class:`Control` counters of the children scored and dropped.
    EVALS = "h0_evals"
    PRUNED = "h0_pruned"

    def __init__(self, k: int) -> None:
        self.k = k

    def scores(self, search: Searcher, moves: Sequence[Any]) -> Sequence[float]:
        """Each child's score from the mover's point of view, larger is better."""
        raise NotImplementedError

    def select(self, search: Searcher, depth: int, ply: int, tt_move: Any) -> Iterable[Any]:
        moves = search.node_moves(ply)
        control = search.control
        n = len(moves)
        keep = min(n, self.k)  # with nothing to drop the scores still order the children
        setattr(control, self.EVALS, getattr(control, self.EVALS) + n)
        setattr(control, self.PRUNED, getattr(control, self.PRUNED) + n - keep)
        return _keep_best(search, moves, list(self.scores(search, moves)), keep, tt_move)


class H0Cutoff(Cutoff):
    """The seeds' H0 cutoff: score every child with the cheap ``cut`` heuristic
    (from the mover's point of view) and keep the top ``k``."""

    def __init__(self, k: int, cut: Callable[[Game, int], float]) -> None:
        super().__init__(k)
        self.cut = cut

    def scores(self, search: Searcher, moves: Sequence[Any]) -> list[float]:
        game = search.game
        cut = self.cut
        me = game.turn
        play, undo = game.play, game.undo
        scores = []
        for move in moves:
            play(move)
            scores.append(cut(game, me))
            undo()
        return scores


class HrCutoff(Cutoff):
    """The seeds' Hr cutoff (seed 001): score every child with a trained
    regressor and keep the top ``k``.  ``score_children(game, moves)`` returns
    the children's values for the mover, all of a node's children in one
    batched model call (see :mod:`engines.learning.learned`)."""

    EVALS = "hr_evals"
    PRUNED = "hr_pruned"

    def __init__(self, k: int, score_children: Callable[[Game, Sequence[Any]], Sequence[float]]) -> None:
        super().__init__(k)
        self.score_children = score_children

    def scores(self, search: Searcher, moves: Sequence[Any]) -> Sequence[float]:
        return self.score_children(search.game, moves)


class HlCutoff(Selector):
    """The seeds' Hl cutoff (seed 001): at the root keep the top ``k`` children
    by an ``l``-ply alpha-beta counted from the root (so ``l - 1`` plies below
    each child, the ``cut`` heuristic at its leaves); below the root the H0
    cutoff with the same ``k``.  The root's choice is made once per search."""

    def __init__(self, k: int, l: int, cut: Callable[[Game, int], float]) -> None:
        self.k = k
        self.l = l
        self.h0 = H0Cutoff(k, cut)
        self.cut = cut
        self._root: list[Any] | None = None  # one selector per search: never reset

    def select(self, search: Searcher, depth: int, ply: int, tt_move: Any) -> Iterable[Any]:
        if ply:
            return self.h0.select(search, depth, ply, tt_move)
        if self._root is None:
            moves = search.node_moves(ply)
            control = search.control
            n = len(moves)
            control.hl_evals += n
            control.hl_pruned += max(0, n - self.k)
            lookahead = search.sub_searcher(self.cut, FullWidth())
            game = search.game
            me = game.turn
            scores = []
            for move in moves:
                game.play(move)
                value = lookahead.negamax(self.l - 1, -INF, INF, 1)
                scores.append(value if game.turn == me else -value)
                game.undo()
            self._root = _keep_best(search, moves, scores, self.k, None)
        root = self._root
        if tt_move is not None and root[0] != tt_move and tt_move in root:
            root = [tt_move] + [m for m in root if m != tt_move]
        return root


class BranchingLimit(Selector):
    """The seeds' branching limit (seed 000): score every child by H^l -- an
    ``l'``-ply search from the child with ``l' = min(l, remaining depth - 1)``,
    or the static heuristic when ``l'`` is 0 -- and search only the best ``bf``.
    The lookahead searches are themselves branching-limited with ``l = 0``."""

    def __init__(self, bf: int, l: int) -> None:
        self.bf = bf
        self.l = l

    def select(self, search: Searcher, depth: int, ply: int, tt_move: Any) -> Iterable[Any]:
        moves = search.node_moves(ply)
        game = search.game
        control = search.control
        lookahead_depth = min(self.l, depth - 1)
        scores: list[float] = []
        if lookahead_depth <= 0:
            evaluate = search.evaluate
            me = game.turn
            for move in moves:
                game.play(move)
                scores.append(evaluate(game, me))
                game.undo()
            control.evals += len(moves)
        else:
            lookahead = search.lookahead
            if lookahead is None:
                lookahead = search.lookahead = search.sub_searcher(
                    search.evaluate, BranchingLimit(self.bf, 0))
            me = game.turn
            for move in moves:
                game.play(move)
                value = lookahead.negamax(lookahead_depth, -INF, INF, ply + 1)
                scores.append(value if game.turn == me else -value)
                game.undo()
        return _keep_best(search, moves, scores, self.bf, tt_move)




# ------------------------------------------------------------------ factories
# What the registry gives each engine (see :class:`~engines.search.alphabeta.SearchConfig`):
# from the spec and the game, the maker of one selector per search.

def cut_heuristic(spec: EngineSpec, game_class: type[Game]) -> Heuristic:
    """The spec's ``cut`` heuristic, or the game's cheap cut heuristic."""
    return game_class.heuristic(spec.get("cut") or game_class.CUT_HEURISTIC)


def branching_limit(spec: EngineSpec, game_class: type[Game]) -> Callable[[], Selector]:
    """``bl``: the best ``bf`` children by H^l."""
    return functools.partial(BranchingLimit, spec.get("bf"), spec.get("l"))


def h0_cutoff(spec: EngineSpec, game_class: type[Game]) -> Callable[[], Selector]:
    """``h0``: the top ``k`` children by the cut heuristic."""
    return functools.partial(H0Cutoff, spec.get("k"), cut_heuristic(spec, game_class))


def hl_cutoff(spec: EngineSpec, game_class: type[Game]) -> Callable[[], Selector]:
    """``hl``: the root's top ``k`` by an ``l``-ply search, the H0 cutoff below."""
    return functools.partial(HlCutoff, spec.get("k"), spec.get("l"), cut_heuristic(spec, game_class))
