"""The minimax family as engines: ``random`` and everything on the alpha-beta core.

:class:`AlphaBetaEngine` turns a spec into a :class:`~engines.search.Searcher`
configuration (see the table in :mod:`engines.registry`) and drives it: a single
search to the spec's depth, or iterative deepening when a time or node limit is
set (always for ``pvs``), with aspiration windows for ``pvs``.
"""

from __future__ import annotations

import gc
import random
import time
from typing import Any, Callable, Sequence

from games import WIN, Game, GameError

from .base import (
    MATE_BOUND,
    STAT_NAMES,
    Engine,
    GameOverError,
    InfoCallback,
    Limits,
    SearchResult,
    StopFlag,
    mate_in,
)
from .search import (
    INF,
    BranchingLimit,
    Control,
    FullWidth,
    H0Cutoff,
    HlCutoff,
    HrCutoff,
    Searcher,
    Selector,
    Stopped,
)
from .spec import EngineSpec

__all__ = ["RandomEngine", "AlphaBetaEngine", "MAX_DEPTH", "check_playable", "root_moves"]

#: Deepest nominal depth iterative deepening goes to (quiescence may go further).
MAX_DEPTH = 64
#: Half-width of the first aspiration window, in heuristic units (centipawns
#: in chess, a man is 100 in checkers).
ASPIRATION = 40
#: With a time limit, do not start another depth after this share of it.
NEXT_DEPTH_SHARE = 0.5


def check_playable(game: Game) -> list[Any]:
    """The legal moves, or :class:`GameOverError` if the game is over."""
    outcome = game.outcome()
    if outcome is not None:
        winner = "draw" if outcome.winner is None else f"{game.PLAYERS[outcome.winner]} won"
        raise GameOverError(f"the game is over ({winner}, {outcome.reason}); there is no move to search")
    moves = game.legal_moves()
    if not moves:  # pragma: no cover - outcome() covers it for every game
        raise GameOverError("the side to move has no legal move; there is nothing to search")
    return moves


def root_moves(game: Game, moves: Sequence[Any] | None = None) -> list[Any]:
    """The legal moves to choose from: all of them, or those among ``moves``
    (UCI's ``searchmoves``); :class:`GameOverError` if the game is over."""
    legal = check_playable(game)
    return legal if moves is None else restrict(legal, moves)


def restrict(legal: list[Any], moves: Sequence[Any]) -> list[Any]:
    """The legal moves among ``moves``, in legal-move order; an error if none."""
    wanted = set(moves)
    kept = [move for move in legal if move in wanted]
    if not kept:
        raise GameError("none of the moves to search is legal here")
    return kept


def _base_stats(spec: EngineSpec) -> dict[str, Any]:
    """Every statistic of a search that has not started: :data:`STAT_NAMES`,
    then the extras, in the order results report them."""
    stats: dict[str, Any] = dict.fromkeys(STAT_NAMES, 0)
    stats.update(time_s=0.0, best=None, pv=[], mate=None, seldepth=0, first_cutoffs=0, engine=str(spec))
    return stats


class RandomEngine(Engine):
    """A uniformly random legal move, reproducible from ``seed`` (the baseline)."""

    def __init__(self, spec: EngineSpec, game_class: type[Game]) -> None:
        super().__init__(spec, game_class)
        self.rng = random.Random(spec.get("seed"))

    def search(self, game: Game, limits: Limits | None = None, *,
               stop: StopFlag | None = None, on_info: InfoCallback | None = None,
               moves: Sequence[Any] | None = None) -> SearchResult:
        start = time.perf_counter()
        legal = root_moves(game, moves)
        move = self.rng.choice(legal)
        stats = _base_stats(self.spec)
        text = game.format_move(move)
        stats.update(nodes=1, best=text, pv=[text], time_s=time.perf_counter() - start)
        if on_info is not None:
            on_info(dict(stats))
        return SearchResult(move, 0, [move], stats)


class AlphaBetaEngine(Engine):
    """``minimax``, ``alphabeta``, ``alphabeta-hard``, ``bl``, ``h0``, ``hl``, ``hr`` and ``pvs``.

    One engine class, one search core: the name picks pruning, fail-hard
    clamping, the child selector and the ``pvs`` refinements.
    """

    def __init__(self, spec: EngineSpec, game_class: type[Game]) -> None:
        super().__init__(spec, game_class)
        name = spec.name
        self.is_pvs = name == "pvs"
        default_heuristic = game_class.STRONG_HEURISTIC if self.is_pvs else game_class.DEFAULT_HEURISTIC
        self.heuristic_name: str = spec.get("heuristic") or default_heuristic
        self.evaluate = game_class.heuristic(self.heuristic_name)
        cut_name = spec.get("cut") if "cut" in spec.table else None
        self.cut_name: str | None = (cut_name or game_class.CUT_HEURISTIC) if "cut" in spec.table else None
        self.cut = game_class.heuristic(self.cut_name) if self.cut_name else None
        self.rng = random.Random(spec.get("seed"))
        # Engines whose tree is full width prove wins: once a win or loss is
        # found within the searched depth, deeper iterations cannot change it.
        self.full_width = name in ("minimax", "alphabeta", "alphabeta-hard", "pvs")
        self.workers: int = spec.get("workers") if "workers" in spec.table else 1
        #: Move ordering on (the ``order`` option; always for ``pvs``).
        self.ordered: bool = spec.get("order") if "order" in spec.table else True
        #: The worker processes of a parallel search, started on first use.
        self.pool: Any = None
        #: ``hr``: the trained model scoring children (loaded and checked here,
        #: so a bad model is a spec error before any search).
        self.child_scorer: Any = None
        if name == "hr":
            from .learned import child_scorer  # numpy and the model files: only for hr

            self.child_scorer = child_scorer(spec, game_class, "features")

    def close(self) -> None:
        """Stop the worker processes of a parallel engine (no-op otherwise)."""
        if self.pool is not None:
            self.pool.close()
            self.pool = None

    def _selector(self) -> Selector:
        spec = self.spec
        name = spec.name
        if name == "bl":
            return BranchingLimit(spec.get("bf"), spec.get("l"))
        if name == "h0":
            return H0Cutoff(spec.get("k"), self.cut)  # type: ignore[arg-type]
        if name == "hl":
            return HlCutoff(spec.get("k"), spec.get("l"), self.cut)  # type: ignore[arg-type]
        if name == "hr":
            return HrCutoff(spec.get("k"), self.child_scorer)
        return FullWidth(ordered=self.ordered)

    def _searcher(self, game: Game, control: Control) -> Searcher:
        name = self.spec.name
        select = self._selector()
        return Searcher(
            game, self.evaluate, control,
            select=select,
            prune=name != "minimax",
            fail_hard=name == "alphabeta-hard",
            tt=self.spec.get("tt"),
            pvs=self.is_pvs,
            quiesce=self.is_pvs,
            # Killers and history only reorder moves: the value stays the seeds'.
            # (The seeds' cutoffs order children by their own scores instead.)
            killers=self.ordered and isinstance(select, FullWidth),
        )

    def limits(self) -> Limits:
        """The spec's limits.  A time or node budget without an explicit depth
        searches as deep as it allows; ``pvs``'s default time applies only when
        neither a depth nor a node budget is given."""
        limits = super().limits()
        given = self.spec.options
        depth, time_limit = limits.depth, limits.time
        if "depth" not in given and (time_limit is not None or limits.nodes is not None):
            depth = None
        if "time" not in given and ("depth" in given or "nodes" in given):
            time_limit = None
        return Limits(depth, time_limit, limits.nodes)

    # ------------------------------------------------------------------ search
    def search(self, game: Game, limits: Limits | None = None, *,
               stop: StopFlag | None = None, on_info: InfoCallback | None = None,
               moves: Sequence[Any] | None = None,
               on_depth: Callable[[dict[str, Any], list[Any], bool], None] | None = None,
               shared_alpha: Any = None, follower: bool = False) -> SearchResult:
        """See :meth:`Engine.search`.

        ``moves`` restricts the root to those legal moves (UCI's ``searchmoves``;
        parallel workers split the root this way).  ``on_depth`` is called after
        every completed depth with the statistics, the principal variation as
        moves and whether the root value is exact (always, unless
        ``shared_alpha`` raised the window).  ``shared_alpha`` and
        ``follower`` are for parallel workers (see :mod:`engines.parallel`):
        per depth, the best root value proved so far by any worker, and
        whether to wait for the leader's first one.
        """
        limits = limits if limits is not None else self.limits()
        root_moves = check_playable(game)  # a fresh list, equal to the copy's moves
        if self.workers > 1 and moves is None and len(root_moves) > 1:
            from .parallel import parallel_search  # spawns processes: only when asked

            return parallel_search(self, game, root_moves, limits, stop=stop, on_info=on_info)
        work = game.copy()
        if moves is not None:
            root_moves = restrict(root_moves, moves)
        self.rng.shuffle(root_moves)  # reproducible tie-breaks among equal moves
        texts = {move: work.format_move(move) for move in root_moves}
        max_depth = min(limits.depth or MAX_DEPTH, MAX_DEPTH)
        iterative = self.is_pvs or limits.time is not None or limits.nodes is not None
        state: dict[str, Any] = {"depth": 0, "score": 0, "move": None, "pv": []}
        stats = _base_stats(self.spec)

        def snapshot() -> dict[str, Any]:
            elapsed = control.elapsed()
            move = state["move"]
            pv_texts = state["pv"]
            score = state["score"]
            if move is None and searcher.root_best is not None:
                move = searcher.root_best
                pv_texts = [texts[move]]
                score = searcher.root_best_value
            snap = dict(stats)
            snap.update(control.counters())
            snap.update(
                depth=state["depth"], time_s=round(elapsed, 4),
                nps=int(control.nodes / elapsed) if elapsed > 0 else 0,
                score=int(score) if abs(score) < INF else 0, mate=mate_in(score),
                best=texts[move] if move is not None else None, pv=list(pv_texts),
            )
            return snap

        start = time.perf_counter()
        control = Control(
            deadline=None if limits.time is None else start + limits.time,
            node_limit=limits.nodes, stop=stop, on_info=on_info, snapshot=snapshot)
        searcher = self._searcher(work, control)
        searcher.root_moves = root_moves
        searcher.shared_alpha = shared_alpha
        searcher.follower = follower
        depths = range(1, max_depth + 1) if iterative else range(max_depth, max_depth + 1)
        if self.is_pvs:
            win = self._win_in_one(work, root_moves, control)
            if win is not None:  # never missed, whatever the time limit
                state.update(depth=1, score=WIN - 1, move=win, pv=[texts[win]], line=[win])
                depths = range(0)
        gc_was_enabled = gc.isenabled()
        gc.disable()  # play/undo allocate a lot and make no cycles: collections only cost
        try:
            for depth in depths:
                searcher.root_exact = False
                try:
                    score = self._root_search(searcher, depth, state)
                except Stopped:
                    break
                pv = searcher.principal_variation(depth)
                if not pv or pv[0] != searcher.root_best:
                    pv = [searcher.root_best]
                state.update(depth=depth, score=score, move=pv[0], pv=self._format_line(work, pv), line=pv)
                if on_info is not None or on_depth is not None:
                    snap = snapshot()
                    if on_info is not None:
                        on_info(snap)
                    if on_depth is not None:
                        on_depth(snap, list(pv), searcher.root_exact)
                if not iterative:
                    break
                if self.full_width and abs(score) >= MATE_BOUND and WIN - abs(score) <= depth:
                    break  # a forced win or loss within the searched depth: final
                if limits.time is not None and control.elapsed() > NEXT_DEPTH_SHARE * limits.time:
                    break
                if len(root_moves) == 1 and limits.depth is None:
                    break  # the only move: nothing to think about
        finally:
            # Free the table while collections are still off: otherwise the first
            # collection after the search scans every entry (a tenth of a second
            # after a one-second search).
            if searcher.tt is not None:
                searcher.tt.clear()
            if gc_was_enabled:
                gc.enable()
        final = snapshot()
        if state["move"] is not None:
            move, score, line = state["move"], state["score"], state["line"]
        elif searcher.root_best is not None:  # stopped inside depth 1
            move, score, line = searcher.root_best, searcher.root_best_value, [searcher.root_best]
        else:  # stopped before any move was searched
            move, score, line = root_moves[0], 0, [root_moves[0]]
            final.update(best=texts[move], pv=[texts[move]], score=0, mate=None)
        return SearchResult(move, int(score), list(line), final)

    @staticmethod
    def _win_in_one(game: Game, moves: list[Any], control: Control) -> Any:
        """The first of ``moves`` that wins on the spot, if any."""
        mover = game.turn
        for move in moves:
            game.play(move)
            control.nodes += 1
            outcome = game.outcome()
            game.undo()
            if outcome is not None and outcome.winner == mover:
                return move
        return None

    def _root_search(self, searcher: Searcher, depth: int, state: dict[str, Any]) -> float:
        previous = state["score"]
        if not (self.is_pvs and depth >= 3 and state["move"] is not None and abs(previous) < MATE_BOUND
                and searcher.shared_alpha is None):
            return searcher.negamax(depth, -INF, INF, 0)
        delta = ASPIRATION
        alpha, beta = previous - delta, previous + delta
        while True:
            score = searcher.negamax(depth, alpha, beta, 0)
            if score <= alpha:
                delta *= 4
                alpha = previous - delta if delta < MATE_BOUND // 4 else -INF
            elif score >= beta:
                delta *= 4
                beta = previous + delta if delta < MATE_BOUND // 4 else INF
            else:
                return score

    @staticmethod
    def _format_line(game: Game, line: list[Any]) -> list[str]:
        texts: list[str] = []
        for move in line:
            texts.append(game.format_move(move))
            game.play(move)
        for _ in line:
            game.undo()
        return texts

