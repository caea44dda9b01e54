"""The minimax family as engines: everything on the alpha-beta core.

:class:`AlphaBetaEngine` drives a :class:`~engines.search.core.Searcher`
configured by a :class:`SearchConfig` -- the registry gives each engine name
its own (see :mod:`engines.registry`): a single search to the spec's depth, or
iterative deepening when a time or node limit is set (always for the
strongest configuration, ``pvs``, with aspiration windows).

With the ``tables`` option (the folder of the game's endgame tables, chess's
Syzygy files) the tables answer for the positions they hold: inside the tree
(see :mod:`engines.search.core`) and at the root, where a won or lost position
is played by the tables' ranking (the fastest win, the longest resistance) and
a drawn one is searched among the moves that keep the draw.  Without the
option the game's own tables are used when it finds some
(:meth:`~games.Game.default_tables`: checkers' database in the data
directory); ``tables=off`` uses none.

The engine keeps its transposition table from one search to the next (the
app, the UCI front end and a match reuse one engine per side), so a second
move starts with what the first one proved; :meth:`AlphaBetaEngine.new_game`
empties it.
"""

from __future__ import annotations

import functools
import gc
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from games import WIN, Game
from games.base import EndgameTables, GameError, Solution, TableRanking

from ..base import (
    MATE_BOUND,
    Engine,
    InfoCallback,
    Limits,
    PvLine,
    SearchResult,
    SearchStats,
    StopFlag,
    check_playable,
    line_texts,
    mate_in,
    restrict,
)
from ..spec import EngineSpec, SpecError
from .core import INF, TABLE_WIN, TT_CAPACITY, Control, Searcher, Stopped, TranspositionTable
from .recorder import DEFAULT_BUDGET, RecordingSearcher, SearchTree, TreeRecorder
from .selectors import FullWidth, Selector
from .table import dict_entries, hash_cap

__all__ = ["AlphaBetaEngine", "SearchConfig", "SelectorFactory", "MAX_DEPTH"]

#: Deepest nominal depth iterative deepening goes to (quiescence may go further).
MAX_DEPTH = 64
#: Half-width of the first aspiration window, in heuristic units (centipawns
#: in chess, a man is 100 in checkers).
ASPIRATION = 40
#: With a time limit, do not start another depth after this share of it
#: (``predict=off``; with ``predict`` the next depth's time is estimated instead).
NEXT_DEPTH_SHARE = 0.5
#: The share of a search's time and node budget the game's exact solver may take
#: at the root (``solve``); an unfinished solve leaves the rest to the search.
SOLVE_SHARE = 0.5
#: The bounds of the growth factor from one depth's time to the next's.
GROWTH_BOUNDS = (1.5, 8.0)
#: The share of a depth's time its first root move takes (with ``predict``, a
#: depth is started only if that much of it fits in the time left).
FIRST_MOVE_SHARE = 0.4

#: Given an engine's spec and game, the maker of the selector a search uses
#: (one selector per search: some remember their root ranking).
SelectorFactory = Callable[[EngineSpec, type[Game]], Callable[[], Selector]]


@dataclass(frozen=True)
class SearchConfig:
    """What makes one engine of the minimax family differ from another.

    ``prune``: cut off at beta (off: plain minimax).  ``fail_hard``: clamp
    values to the window.  ``strongest``: the ``pvs`` refinements --
    iterative deepening always, principal variation search, aspiration
    windows, quiescence, a win in one never missed, and the game's strong
    heuristic by default.  ``selector``: how a node's children are chosen
    (``None``: full width with move ordering); an engine with a selector
    does not prove wins, since it may not see every reply.
    """

    prune: bool = True
    fail_hard: bool = False
    strongest: bool = False
    selector: SelectorFactory | None = None

    @property
    def full_width(self) -> bool:
        return self.selector is None


class AlphaBetaEngine(Engine):
    """``minimax``, ``alphabeta``, ``alphabeta-hard``, ``bl``, ``h0``, ``hl``, ``hr`` and ``pvs``.

    One engine class, one search core: the name picks pruning, fail-hard
    clamping, the child selector and the ``pvs`` refinements.
    """

    def __init__(self, spec: EngineSpec, game_class: type[Game], config: SearchConfig) -> None:
        super().__init__(spec, game_class)
        self.config = config
        default_heuristic = game_class.STRONG_HEURISTIC if config.strongest else game_class.DEFAULT_HEURISTIC
        self.heuristic_name: str = spec.get("heuristic") or default_heuristic
        self.evaluate = game_class.heuristic(self.heuristic_name)
        self.rng = random.Random(spec.get("seed"))
        jitter = spec.get("jitter") if "jitter" in spec.table else 0
        if jitter:
            self.evaluate = _jittered(self.evaluate, jitter, random.Random(spec.get("seed")))
        #: The share of moves played at random (an easy level's blunders).
        self.blunder: float = spec.get("blunder") if "blunder" in spec.table else 0.0
        #: Move ordering on (the ``order`` option; always for ``pvs``).
        self.ordered: bool = spec.get("order") if "order" in spec.table else True
        #: Builds each search's selector (a bad option or model fails here, before any search).
        self.make_selector: Callable[[], Selector] = (
            config.selector(spec, game_class) if config.selector is not None
            else lambda: FullWidth(ordered=self.ordered))
        #: The transposition table, kept between searches (``None``: ``tt=off``), and the
        #: entries it may hold (the ``hash`` option, in megabytes).
        self.table: TranspositionTable | None = {} if spec.get("tt") else None
        self.hash_mb: int | None = spec.get("hash") if "hash" in spec.table else None
        if self.hash_mb is not None:  # what the machine can hold (the clamp is said where the spec is read)
            self.hash_mb = hash_cap(self.hash_mb, shared=False)[0]
        self.tt_capacity = TT_CAPACITY if self.hash_mb is None else dict_entries(self.hash_mb)
        #: The best root moves to report, each with its line and score (``multipv``).
        self.multipv: int = spec.get("multipv") if "multipv" in spec.table else 1
        #: How far from the end the game's exact solver is tried at the root (``solve``,
        #: in the game's measure: Othello's empty cells; 0 never), and whether the spec
        #: asked for it (else a fixed depth, given or asked by the caller, searches instead).
        self.solve_reach: int = spec.get("solve") if config.strongest and "solve" in spec.table else 0
        self.solve_asked = "solve" in spec.options
        #: The game's endgame tables (the ``tables`` option, their folder; ``None``: none).
        self.tables: EndgameTables | None = None
        if config.strongest and "tables" in spec.table and spec.get("tables") not in (None, "off"):
            try:
                self.tables = game_class.open_tables(spec.get("tables"))
            except GameError as error:
                raise SpecError(f"{spec.name}: {error}") from None
        elif config.strongest and "tables" in spec.table and "tables" not in spec.options and not (
                jitter or self.blunder):  # a level made weak on purpose is not handed perfect endings
            self.tables = game_class.default_tables()  # the game's own, when it finds some
        #: Set while :meth:`record` runs: the searches record their trees into it.
        self.recorder: TreeRecorder | None = None

    def new_game(self) -> None:
        """Empty the transposition table: the next search starts cold."""
        if self.table is not None:
            self.table.clear()

    def record(self, game: Game, limits: Limits | None = None, *, budget: int = DEFAULT_BUDGET,
               stop: StopFlag | None = None, on_info: InfoCallback | None = None) -> tuple[SearchResult, SearchTree]:
        """Search ``game`` as :meth:`search` does, in this process, recording its tree
        (see :mod:`engines.search.recorder`): at most ``budget`` nodes, the node past
        them stopping the search as a node limit would."""
        recorder = TreeRecorder(budget)
        self.recorder = recorder
        try:
            result = AlphaBetaEngine.search(self, game, limits, stop=stop, on_info=on_info)
        finally:
            self.recorder = None
        return result, recorder.tree(result.stats.nodes)

    def _searcher(self, game: Game, control: Control) -> Searcher:
        config = self.config
        select = self.make_selector()
        make: Callable[..., Searcher] = (
            Searcher if self.recorder is None else functools.partial(RecordingSearcher, self.recorder))
        return make(
            game, self.evaluate, control,
            select=select,
            prune=config.prune,
            fail_hard=config.fail_hard,
            tt=self.table,
            pvs=config.strongest,
            quiesce=config.strongest,
            # Killers and history only reorder moves: the value stays the seeds'.
            # (The seeds' cutoffs order children by their own scores instead.)
            killers=self.ordered and isinstance(select, FullWidth),
            null_move=self.refinement("null"),
            lmr=self.refinement("lmr"),
            extend=self.refinement("checks"),
            delta=self.refinement("delta"),
            tt_capacity=self.tt_capacity,
            tables=self.tables,
        )

    def refinement(self, name: str) -> bool:
        """Whether the ``pvs`` refinement ``name`` is on (its option; never for the seeds' engines)."""
        return self.config.strongest and name in self.spec.table and bool(self.spec.get(name))

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
               moves: Sequence[Any] | None = None) -> SearchResult:
        """See :meth:`Engine.search`.

        ``moves`` restricts the root to those legal moves (UCI's ``searchmoves``).
        """
        limits = limits if limits is not None else self.limits()
        root_moves = check_playable(game)  # a fresh list, equal to the copy's moves
        if moves is not None:
            root_moves = restrict(root_moves, moves)
        if self.blunder and self.rng.random() < self.blunder:
            return self._blunder(game, root_moves, on_info)
        work = game.copy()
        root_ply = work.ply
        self.rng.shuffle(root_moves)  # reproducible tie-breaks among equal moves
        texts = _RootTexts(game)  # only the moves shown are written (SAN costs in chess)
        max_depth = min(limits.depth or MAX_DEPTH, MAX_DEPTH)
        iterative = self.config.strongest or limits.time is not None or limits.nodes is not None
        state = SearchProgress(plies=game.MOVES_AGAIN)
        plies = game.MOVES_AGAIN
        wanted = min(self.multipv, len(root_moves))
        def snapshot() -> SearchStats:
            elapsed = control.elapsed()
            move = state.move
            pv_texts = state.pv
            score = state.score
            if move is None and searcher.root_best is not None:
                move = searcher.root_best
                pv_texts = [texts[move]]
                score = searcher.root_best_value
            return SearchStats(
                **control.counters(),
                depth=state.depth, time_s=round(elapsed, 4),
                nps=int(control.nodes / elapsed) if elapsed > 0 else 0,
                score=int(score) if abs(score) < INF else 0, mate=mate_in(score, plies=plies),
                best=texts[move] if move is not None else None, pv=list(pv_texts),
                engine=str(self.spec), lines=list(state.lines), solved=state.solved,
            )

        start = time.perf_counter()
        control = Control(
            deadline=None if limits.time is None else start + limits.time,
            node_limit=limits.nodes, stop=stop, on_info=on_info, snapshot=snapshot)
        searcher = self._searcher(work, control)
        searcher.root_moves = root_moves
        depths = range(1, max_depth + 1) if iterative else range(max_depth, max_depth + 1)
        if self.config.strongest and wanted == 1:
            win = self._win_in_one(work, root_moves, control)
            if win is not None:  # never missed, whatever the time limit
                state.settle(win, WIN - 1, [win], [texts[win]], depth=1)
                depths = range(0)
        ranking = self._ranking(work, moves, wanted) if depths else None
        if ranking is not None:
            if ranking.value or len(ranking.moves) == 1:  # won or lost: the tables' move
                move = ranking.moves[0]
                state.settle(move, table_score(ranking), [move], [texts[move]], depth=1)
                state.solved = ranking.value
                depths = range(0)
                if on_info is not None:
                    on_info(snapshot())
            else:  # drawn: the search picks among the moves that hold the draw
                searcher.root_moves = [move for move in root_moves if move in ranking.moves]
        if depths and self._solving(limits, moves, wanted):
            solved = self._solve(work, control)
            if solved is not None and solved.move is not None:
                move = solved.move
                state.settle(move, solved_score(solved), [move], [texts[move]], depth=solved.depth)
                state.solved = solved.value
                depths = range(0)
                if on_info is not None:
                    on_info(snapshot())
        predict = self.refinement("predict")
        finished: list[float] = []  # when each depth was completed (seconds from the start)
        gc_was_enabled = gc.isenabled()
        gc.disable()  # play/undo allocate a lot and make no cycles: collections only cost
        try:
            for depth in depths:
                searcher.root_exact = False
                try:
                    score = self._root_search(searcher, depth, state)
                except Stopped:
                    best = searcher.root_best
                    if (predict and searcher.root_exact and state.move is not None
                            and best != state.move):
                        # The unfinished depth proved another move inside its window: it
                        # is at least as good as the last depth's choice, so take it, with
                        # the line that proved it. (The same move keeps the completed
                        # depth's line and score.)
                        while work.ply > root_ply:  # the stop left the search where it was
                            work.undo()
                        line = searcher.principal_variation(depth)
                        if not line or line[0] != best:
                            line = [best]
                        state.settle(best, searcher.root_best_value, line, line_texts(work, line))
                        if wanted > 1:
                            state.lines = state.led_by(wanted)
                    break
                pv = searcher.principal_variation(depth)
                if not pv or pv[0] != searcher.root_best:
                    pv = [searcher.root_best]
                state.settle(pv[0], score, pv, line_texts(work, pv), depth=depth)
                if wanted > 1:
                    try:
                        state.lines = self._best_lines(searcher, work, depth, wanted, state)
                    except Stopped:  # this depth's other lines are not all known: the last depth's stay
                        state.lines = state.led_by(wanted)
                        break
                if on_info is not None:
                    on_info(snapshot())
                if not iterative:
                    break
                if self.config.full_width and abs(score) >= MATE_BOUND and WIN - abs(score) <= depth:
                    break  # a forced win or loss within the searched depth: final
                elapsed = control.elapsed()
                finished.append(elapsed)
                if limits.time is not None and limits.flexible:
                    if predict:
                        if elapsed + FIRST_MOVE_SHARE * next_depth_time(finished) > limits.time:
                            break  # not even its first move would be searched
                    elif elapsed > NEXT_DEPTH_SHARE * limits.time:
                        break
                if len(root_moves) == 1 and limits.depth is None:
                    break  # the only move: nothing to think about
        finally:
            if gc_was_enabled:
                gc.enable()
        final = snapshot()
        if state.move is not None:
            move, score, line = state.move, state.score, state.line
        elif searcher.root_best is not None:  # stopped inside depth 1
            move, score, line = searcher.root_best, searcher.root_best_value, [searcher.root_best]
        else:  # stopped before any move was searched
            move, score, line = root_moves[0], 0, [root_moves[0]]
            final = final.copy(best=texts[move], pv=[texts[move]], score=0, mate=None)
        return SearchResult(move, int(score), list(line), final)

    def _ranking(self, game: Game, moves: Sequence[Any] | None, wanted: int) -> TableRanking | None:
        """The endgame tables' ranking of the root, when there are tables, every root
        move is allowed, one line is wanted, no tree is recorded and the tables hold it."""
        if self.tables is None or moves is not None or wanted != 1 or self.recorder is not None:
            return None
        ranking = self.tables.rank(game)
        return ranking if ranking is not None and ranking.moves else None

    def _solving(self, limits: Limits, moves: Sequence[Any] | None, wanted: int) -> bool:
        """Whether this search first asks the game for the root's exact value: with
        ``solve`` on, the full width, one line wanted, every root move allowed, no tree
        recorded, and no fixed depth unless the spec asked for ``solve`` itself."""
        return (self.solve_reach > 0 and self.config.full_width and wanted == 1 and moves is None
                and self.recorder is None and (self.solve_asked or limits.depth is None))

    def _solve(self, game: Game, control: Control) -> Solution | None:
        """The game's exact solve of the root within :data:`SOLVE_SHARE` of the time
        and node budget (its nodes counted in ``control``), or ``None`` when the
        game cannot solve it or the solve did not finish (the search goes on)."""
        deadline, node_limit = control.deadline, control.node_limit
        if deadline is not None:
            control.deadline = control.start + SOLVE_SHARE * (deadline - control.start)
        if node_limit is not None:
            control.node_limit = control.nodes + max(1, int(SOLVE_SHARE * (node_limit - control.nodes)))

        def tick(nodes: int) -> None:
            control.nodes += nodes
            if control.nodes >= control.next_poll:
                control.poll()

        try:
            return game.solve(self.solve_reach, tick)
        except Stopped:
            return None
        finally:
            control.deadline, control.node_limit = deadline, node_limit
            control.next_poll = control.nodes  # the search's first node looks at the limits

    def _best_lines(self, searcher: Searcher, game: Game, depth: int, wanted: int,
                    state: SearchProgress) -> list[PvLine]:
        """The ``wanted`` best root moves at ``depth``, each with its exact score and line
        (``multipv``): the best is the depth's own search; each next one is a search of the
        root without the moves already found, with the full window, so its value is exact."""
        root = searcher.root_moves
        best, value = state.move, state.score
        lines = [state.best_line()]
        found = [best]
        try:
            while len(lines) < wanted:
                if self.recorder is not None:
                    self.recorder.pv_line = len(lines) + 1
                searcher.root_moves = [move for move in root if move not in found]
                searcher.root_exact = False
                score = searcher.negamax(depth, -INF, INF, 0)
                line = searcher.principal_variation(depth)
                if not line or line[0] != searcher.root_best:
                    line = [searcher.root_best]
                found.append(line[0])
                lines.append(PvLine(int(score), mate_in(score, plies=game.MOVES_AGAIN),
                                    line_texts(game, line)))
        finally:
            searcher.root_moves = root
            searcher.root_best, searcher.root_best_value = best, value
            if self.recorder is not None:
                self.recorder.pv_line = 1
        return lines

    def _blunder(self, game: Game, moves: list[Any], on_info: InfoCallback | None) -> SearchResult:
        """A move picked at random, unsearched (``blunder``)."""
        move = self.rng.choice(moves)
        text = game.format_move(move)
        stats = SearchStats(depth=0, best=text, pv=[text], engine=str(self.spec))
        if on_info is not None:
            on_info(stats.copy())
        return SearchResult(move, 0, [move], stats)

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

    def _root_search(self, searcher: Searcher, depth: int, state: SearchProgress) -> float:
        previous = state.score
        if not (self.config.strongest and depth >= 3 and state.move is not None and abs(previous) < MATE_BOUND):
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


def solved_score(solved: Solution) -> int:
    """A solved root's score on the search's scale: a win or a loss at ``depth``
    plies (the game's measure of what is left; the value's margin is in the
    stats' ``solved``), or 0 for a draw."""
    if solved.value > 0:
        return WIN - solved.depth
    if solved.value < 0:
        return solved.depth - WIN
    return 0


def table_score(ranking: TableRanking) -> int:
    """A root the endgame tables ranked, on the search's scale: :data:`TABLE_WIN`
    less the plies of its first move's line for a win (minus that for a loss), 0 for a draw."""
    return ranking.value * (TABLE_WIN - min(ranking.plies, TABLE_WIN // 2))


@dataclass(slots=True)
class SearchProgress:
    """What a search has settled on so far: the last depth completed (or the solve's, or 1
    for a win in one), the best ``move`` with its ``score``, its ``line`` of moves and that
    line's texts (``pv``); with ``multipv``, the best ``lines``; ``solved`` the exact value
    when the game's solver settled the root.  ``move`` is ``None`` until something is."""

    depth: int = 0
    score: float = 0
    move: Any = None
    pv: list[str] = field(default_factory=list)
    line: list[Any] = field(default_factory=list)
    lines: list[PvLine] = field(default_factory=list)
    solved: int | None = None
    #: Whether mates count plies (a game where a side may move again).
    plies: bool = False

    def settle(self, move: Any, score: float, line: list[Any], pv: list[str], *,
               depth: int | None = None) -> None:
        """Take ``move`` as the best, with its ``score``, ``line`` and the line's texts ``pv``
        (and ``depth`` as the depth completed, when one was)."""
        self.move, self.score, self.line, self.pv = move, score, line, pv
        if depth is not None:
            self.depth = depth

    def best_line(self) -> PvLine:
        """The best move's line as ``multipv`` reports it."""
        return PvLine(int(self.score), mate_in(self.score, plies=self.plies), list(self.pv))

    def led_by(self, wanted: int) -> list[PvLine]:
        """The lines with the best move's line first (a search stopped inside a depth that
        changed the best move: the others are the last completed depth's)."""
        first = self.best_line()
        return [first, *(line for line in self.lines if line.pv[:1] != first.pv[:1])][:wanted]


def next_depth_time(finished: Sequence[float]) -> float:
    """The time the next depth will take, from when the previous depths were
    completed: the last depth's time times the growth from the one before it
    (bounded by :data:`GROWTH_BOUNDS`; the upper bound until two depths are known)."""
    times = [b - a for a, b in zip([0.0, *finished[:-1]], finished)]
    last = times[-1] if times else 0.0
    low, high = GROWTH_BOUNDS
    if len(times) < 2 or times[-2] <= 0:
        return last * high
    return last * max(low, min(high, last / times[-2]))


def _jittered(evaluate: Callable[[Game, int], float], jitter: int,
              rng: random.Random) -> Callable[[Game, int], float]:
    """``evaluate`` plus uniform noise in ``[-jitter, jitter]`` (``jitter``)."""
    noise = rng.randint

    def noisy(game: Game, player: int) -> float:
        return evaluate(game, player) + noise(-jitter, jitter)

    return noisy


class _RootTexts(dict[Any, str]):
    """The texts of root moves, each written the first time it is asked for, in
    ``game`` -- the position searched, which the search leaves untouched (it
    plays on a copy): formatting every root move up front cost a chess search
    about 3% of its time for the one or two it reports."""

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game

    def __missing__(self, move: Any) -> str:
        text: str = self.game.format_move(move)
        self[move] = text
        return text
