"""The one alpha-beta core every minimax-family engine runs on.

:class:`Searcher` is a negamax alpha-beta over a mutable :class:`~games.Game`
(play/undo, never a copy per child).  Turn order is the game's: a child's value
is negated, and its window turned to ``(-beta, -alpha)``, only where the move
changed :attr:`~games.Game.turn`; where the same side moves again (Kalah, Dots
and Boxes) the child is searched in the parent's own window and its value kept
(:meth:`Searcher.again`), null windows included, and a null move that leaves the
side to move unchanged is not tried.  What distinguishes the engines is
configuration, not a copy of the loop:

- ``prune``: cut off when a move reaches beta (off: plain minimax);
- ``fail_hard``: clamp returned values to the window (the seed's fail-hard
  variant) instead of returning the true bound (fail-soft);
- ``tt``: a transposition table storing exact, lower and upper bounds (the
  engine's own dict, kept warm from one search to the next, or a table in
  shared memory that parallel workers fill together);
- ``pvs``: principal variation search (null windows after the first move);
- ``quiesce``: search captures / compulsory jumps past the horizon;
- ``killers``: killer moves and the history heuristic for ordering quiet moves;
- ``null_move``, ``lmr``, ``extend``, ``delta``: the selective refinements of
  the strongest engine -- null-move pruning where the game allows a pass
  (:meth:`~games.Game.null_move_ok`), late-move reductions of quiet moves,
  a ply more for a side in check, and delta pruning of hopeless captures in
  quiescence.  They change the values a search returns, so the seeds'
  engines (whose root values must agree) never use them;
- ``tables``: the game's endgame tables (:class:`~games.base.EndgameTables`,
  chess's Syzygy files): a position below the root they know is scored at
  once, :data:`TABLE_WIN` less its ply for a win (beyond every heuristic,
  short of every mate found on the board), 0 for a draw;
- ``select``: the child selection, a selector (see :mod:`engines.search.selectors`)
  that orders the moves of a node and may keep only some of them.

Counters live in a shared :class:`Control`, which also owns the clock, the node
budget, the stop flag and the throttled live-statistics callback; it is polled
every :data:`POLL_NODES` nodes and raises :class:`Stopped` to abandon a search.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Union

from games import HEURISTIC_BOUND, WIN, Game
from games.base import EndgameTables

from ..base import COUNTERS, MATE_BOUND, MAX_PLY, InfoCallback, SearchStats, StopFlag

if TYPE_CHECKING:
    from .table import SharedTable

__all__ = ["INF", "TABLE_WIN", "POLL_NODES", "TT_CAPACITY", "TranspositionTable", "Stopped", "Control", "Searcher", "Selector"]

INF = 10 * WIN
#: A won position the endgame tables know, less its ply: beyond every heuristic
#: value, short of every mate (``MATE_BOUND``), so a mate seen on the board ranks higher.
TABLE_WIN = 2 * HEURISTIC_BOUND
#: Nodes between two looks at the clock, the stop flag and the callback.
POLL_NODES = 256
#: Within this many seconds of the deadline the limits are checked every
#: :data:`POLL_NODES_NEAR_DEADLINE` nodes (256 nodes take about 5 ms in chess).
NEAR_DEADLINE = 0.01
POLL_NODES_NEAR_DEADLINE = 8
#: Seconds between two live statistics reports.
INFO_INTERVAL = 0.1
#: Transposition-table entries kept before the table is cleared.
TT_CAPACITY = 1_000_000
#: Null-move pruning: the least depth it is tried at, and the reduction (one more from depth 7).
NULL_MIN_DEPTH = 3
NULL_REDUCTION = 2
#: Late-move reductions: the least depth, and how many moves are searched in full first.
LMR_MIN_DEPTH = 3
LMR_FULL_MOVES = 3
#: Parallel search: the least depth at which a move another process is
#: searching is put off (ABDADA's deferred moves, on the shared table's busy list).
DEFER_DEPTH = 3
#: Delta pruning: a capture is skipped when even this much more than it wins cannot reach alpha.
DELTA_MARGIN = 200

EXACT, LOWER, UPPER = 0, 1, 2

#: A transposition table: position key -> (depth, bound, value, best move) --
#: the engine's own dict, or a :class:`~engines.search.table.SharedTable`
#: between processes.  Values of wins and losses are stored relative to the
#: entry's own position.
TranspositionTable = Union[dict[Any, tuple[int, int, float, Any]], "SharedTable"]


class Stopped(Exception):
    """Raised inside a search to abandon it (time, node budget or stop flag)."""


class Control:
    """Counters, limits and reporting shared by a search and its sub-searches."""

    def __init__(self, *, deadline: float | None = None, node_limit: int | None = None,
                 stop: StopFlag | None = None, on_info: InfoCallback | None = None,
                 snapshot: Callable[[], SearchStats] | None = None) -> None:
        self.nodes = self.evals = self.prunes = self.first_cutoffs = self.tt_hits = 0
        self.seldepth = 0
        self.h0_evals = self.h0_pruned = self.hl_evals = self.hl_pruned = 0
        self.hr_evals = self.hr_pruned = 0
        self.start = time.perf_counter()
        self.deadline = deadline
        self.node_limit = node_limit
        self.stop = stop
        self.on_info = on_info
        self.snapshot = snapshot
        self.last_info = self.start
        self.next_poll = 1  # the first node looks: a stop already set ends the search at once

    def poll(self) -> None:
        """Check the limits and maybe report; raise :class:`Stopped` to end the search."""
        nodes = self.nodes
        limit = self.node_limit
        if limit is not None:
            if nodes >= limit:
                raise Stopped
            self.next_poll = min(nodes + POLL_NODES, limit)
        else:
            self.next_poll = nodes + POLL_NODES
        if self.stop is not None and self.stop.is_set():
            raise Stopped
        now = time.perf_counter()
        if self.deadline is not None:
            if now >= self.deadline:
                raise Stopped
            if self.deadline - now < NEAR_DEADLINE:  # look more often: a 1 ms budget is kept to
                self.next_poll = min(self.next_poll, nodes + POLL_NODES_NEAR_DEADLINE)
        if self.on_info is not None and now - self.last_info >= INFO_INTERVAL:
            self.last_info = now
            if self.snapshot is not None:
                self.on_info(self.snapshot())

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def counters(self) -> dict[str, int]:
        """Every counter (:data:`COUNTERS`) by name."""
        return {name: getattr(self, name) for name in COUNTERS}


class Selector:
    """Chooses and orders the children of a node: what the core asks of the
    pluggable child selection (the selectors are in :mod:`engines.search.selectors`).

    ``select(search, depth, ply, tt_move)`` returns the moves to search, most
    promising first (a list or a lazy iterable); it may drop some (a cutoff)
    and must count what it scored and dropped in ``search.control``.  The
    node's legal moves come from ``search.node_moves(ply)``.
    """

    def select(self, search: Searcher, depth: int, ply: int, tt_move: Any) -> Iterable[Any]:
        raise NotImplementedError


class Searcher:
    """Negamax alpha-beta over ``game``, configured as described in the module doc.

    ``negamax(depth, alpha, beta, ply)`` returns the value of the position for
    the side to move.  At the root (``ply == 0``) it searches
    :attr:`root_moves` and records the best move found so far in
    :attr:`root_best`; :attr:`lines` ``[0]`` is the principal variation.
    """

    def __init__(self, game: Game, evaluate: Callable[[Game, int], float], control: Control, *,
                 select: Selector, prune: bool = True, fail_hard: bool = False,
                 tt: TranspositionTable | None = None, pvs: bool = False, quiesce: bool = False,
                 killers: bool = False, null_move: bool = False, lmr: bool = False,
                 extend: bool = False, delta: bool = False, tt_capacity: int = TT_CAPACITY,
                 tables: EndgameTables | None = None) -> None:
        self.game = game
        self.evaluate = evaluate
        self.control = control
        self.select = select
        self.prune = prune
        self.fail_hard = fail_hard
        #: A dict grows and is cleared when full (``tt_capacity`` entries); a shared table has a fixed size.
        self.tt_grows = isinstance(tt, dict)
        self.tt_capacity = tt_capacity
        if self.tt_grows:
            if len(tt) >= tt_capacity // 2:  # type: ignore[arg-type]
                tt.clear()  # type: ignore[union-attr]  # a table kept from earlier searches: start with room
        elif tt is not None:
            tt.bind(game)  # type: ignore[union-attr]  # the shared table codes moves with it
        self.tt = tt
        #: The shared table's busy list (positions other processes are searching), if any.
        self.busy: Any = None if self.tt_grows or tt is None else tt.busy  # type: ignore[union-attr]
        self.busy_mask = 0 if self.busy is None else tt.busy_mask  # type: ignore[union-attr]
        self.pvs = pvs
        self.quiesce = quiesce
        self.null_move = null_move
        self.lmr = lmr
        self.extend = extend
        self.delta = delta
        self.selective = null_move or lmr or extend
        self.tables = tables
        #: Whether the move into each ply was a null move (no two in a row).
        self.passed = [False] * (MAX_PLY + 2)
        self.killers: list[list[Any]] | None = (
            [[None, None] for _ in range(MAX_PLY + 1)] if killers else None)
        self.history: tuple[dict[Any, int], dict[Any, int]] = ({}, {})
        self.lines: list[tuple[Any, ...]] = [()] * (MAX_PLY + 2)
        self.root_moves: list[Any] = []
        self.root_best: Any = None
        self.root_best_value: float = -INF
        self.lookahead: Searcher | None = None
        #: Whether the best root move so far raised alpha (its value is exact
        #: inside the window, not a fail-low bound).
        self.root_exact = False

    def node_moves(self, ply: int) -> list[Any]:
        """The legal moves here: :attr:`root_moves` at the root (shuffled once
        per search for the tie-breaks), else the game's."""
        return self.root_moves if not ply else self.game.legal_moves()

    def sub_searcher(self, evaluate: Callable[[Game, int], float], select: Selector) -> Searcher:
        """A plain fail-soft alpha-beta on the same game and counters (for lookaheads)."""
        return Searcher(self.game, evaluate, self.control, select=select)

    # ------------------------------------------------------------------ search
    def negamax(self, depth: int, alpha: float, beta: float, ply: int) -> float:
        control = self.control
        control.nodes += 1
        if control.nodes >= control.next_poll:
            control.poll()
        game = self.game
        lines = self.lines
        lines[ply] = ()

        in_check = bool(ply) and self.selective and game.in_check()
        if in_check and self.extend and ply < MAX_PLY // 2:
            depth += 1  # a check is searched a ply deeper
        if ply:
            if self.tables is not None:
                known = self.tables.probe(game)
                if known is not None:  # exact: no search below can change it
                    return known * (TABLE_WIN - ply)
            if depth <= 0 and self.quiesce:
                # Quiescence spots the games won on the board itself; draws by
                # rule at the horizon are left to the next iteration.
                return self.qsearch(alpha, beta, ply)
            outcome = game.outcome()
            if outcome is not None:
                winner = outcome.winner
                if winner is None:
                    return 0
                return WIN - ply if winner == game.turn else ply - WIN
            if ply >= MAX_PLY:
                control.evals += 1
                return self.evaluate(game, game.turn)
        if depth <= 0:
            if self.quiesce:
                return self.qsearch(alpha, beta, ply)
            control.evals += 1
            return self.evaluate(game, game.turn)

        tt = self.tt
        tt_move = None
        key = None
        if tt is not None:
            key = game.key()
            entry = tt.get(key)
            if entry is not None:
                tt_depth, flag, value, tt_move = entry
                if ply and tt_depth >= depth:
                    if value >= MATE_BOUND:
                        value -= ply
                    elif value <= -MATE_BOUND:
                        value += ply
                    if flag == EXACT or (value >= beta if flag == LOWER else value <= alpha):
                        control.tt_hits += 1
                        if self.fail_hard:
                            return alpha if value < alpha else beta if value > beta else value
                        return value

        if (self.null_move and ply and depth >= NULL_MIN_DEPTH and beta - alpha == 1 and not in_check
                and not self.passed[ply] and abs(beta) < MATE_BOUND and game.null_move_ok()):
            control.evals += 1
            mover = game.turn
            if self.evaluate(game, mover) >= beta:
                reduction = NULL_REDUCTION + (depth > 6)
                game.play_null()
                value = -INF
                if game.turn != mover:  # a pass that leaves the same side to move proves nothing
                    self.passed[ply + 1] = True
                    try:
                        value = -self.negamax(depth - 1 - reduction, -beta, -beta + 1, ply + 1)
                    finally:
                        self.passed[ply + 1] = False
                        game.undo_null()
                else:
                    game.undo_null()
                if value >= beta:
                    control.prunes += 1
                    return beta  # a pass already holds: a real move would too (no zugzwang)

        moves = self.select.select(self, depth, ply, tt_move)
        alpha0 = alpha
        best: float = -INF
        best_move = None
        prune = self.prune
        pvs = self.pvs
        play, undo = game.play, game.undo
        child = ply + 1
        reduce = self.lmr and ply and depth >= LMR_MIN_DEPTH and not in_check
        killers = self.killers[ply] if self.killers is not None else ()
        busy = self.busy if depth >= DEFER_DEPTH else None
        if busy is not None:
            deferred: list[Any] = []
            moves = _then(moves, deferred)
        mover = game.turn
        for i, move in enumerate(moves):
            late = (reduce and i >= LMR_FULL_MOVES and move not in killers and move != tt_move
                    and not game.capture_score(move))
            play(move)
            if busy is not None:
                mark = hash(game.key())
                slot = mark & self.busy_mask
                if i and busy[slot] == mark and move not in deferred:
                    undo()  # another process is on it: search it last, when its result is in the table
                    deferred.append(move)
                    continue
                busy[slot] = mark
            if game.turn == mover:  # the same side moves again: its value is ours, unnegated
                value = self.again(depth - 1, alpha, beta, child, pvs and bool(i or alpha > alpha0))
            elif late and not game.in_check():
                # A late quiet move: first a shallower null-window look; only
                # one that beats alpha there is searched to the full depth.
                cut = 1 + (i >= 4 * LMR_FULL_MOVES and depth >= 6)
                value = -self.negamax(depth - 1 - cut, -alpha - 1, -alpha, child)
                if value > alpha:
                    value = -self.negamax(depth - 1, -alpha - 1, -alpha, child)
                    if alpha < value < beta:
                        value = -self.negamax(depth - 1, -beta, -alpha, child)
            elif pvs and (i or alpha > alpha0):  # a null window once any bound is known
                value = -self.negamax(depth - 1, -alpha - 1, -alpha, child)
                if alpha < value < beta:
                    value = -self.negamax(depth - 1, -beta, -alpha, child)
            else:
                value = -self.negamax(depth - 1, -beta, -alpha, child)
            if busy is not None and busy[slot] == mark:
                busy[slot] = 0
            undo()
            if value > best:
                best = value
                best_move = move
                if not ply:
                    self.root_best = move
                    self.root_best_value = value
                    self.root_exact = False
                if value > alpha:
                    if value >= beta and prune:
                        control.prunes += 1
                        if not i:
                            control.first_cutoffs += 1
                        if self.killers is not None and not game.capture_score(move):
                            self._reward(move, depth, ply)
                        break
                    alpha = value
                    lines[ply] = (move,) + lines[child]
                    if not ply:
                        self.root_exact = True

        if self.fail_hard:
            best = alpha0 if best < alpha0 else beta if best > beta else best
        if tt is not None:
            flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
            stored = best
            if stored >= MATE_BOUND:
                stored += ply
            elif stored <= -MATE_BOUND:
                stored -= ply
            if isinstance(tt, dict) and len(tt) >= self.tt_capacity:  # a dict grows (self.tt_grows)
                tt.clear()
            # At an all-node no move proved best: keep the earlier hint, if any.
            tt[key] = (depth, flag, stored, tt_move if flag == UPPER else best_move)
        return best

    def qsearch(self, alpha: float, beta: float, ply: int) -> float:
        """Quiescence: stand pat where the game allows it, then its tactical moves.

        Draws by repetition or move counters are not looked for here (captures
        and jumps are irreversible); a position with nothing to stand on and
        no tactical move is scored by :meth:`Game.outcome`.
        """
        control = self.control
        game = self.game
        if ply > control.seldepth:
            control.seldepth = ply
        if ply >= MAX_PLY:
            control.evals += 1
            return self.evaluate(game, game.turn)
        stand: float | None = None
        if game.can_stand_pat():
            control.evals += 1
            best = stand = self.evaluate(game, game.turn)
            if best >= beta:
                return best
            if best > alpha:
                alpha = best
            moves = game.tactical_moves()
            if not moves:
                return best
        else:
            moves = game.tactical_moves()
            if not moves:
                outcome = game.outcome()
                if outcome is None:  # pragma: no cover - games keep the contract
                    control.evals += 1
                    return self.evaluate(game, game.turn)
                if outcome.winner is None:
                    return 0
                return WIN - ply if outcome.winner == game.turn else ply - WIN
            best = -INF
        if len(moves) > 1:
            moves.sort(key=game.capture_score, reverse=True)
        play, undo = game.play, game.undo
        child = ply + 1
        delta = stand if self.delta else None  # delta pruning measures from the standing score
        mover = game.turn
        for i, move in enumerate(moves):
            if delta is not None:
                gain = game.capture_gain(move)
                if gain is not None and delta + gain + DELTA_MARGIN <= alpha:
                    continue  # even winning this piece and more leaves us below alpha
            play(move)
            control.nodes += 1
            if control.nodes >= control.next_poll:
                control.poll()
            if game.turn != mover:
                value = -self.qsearch(-beta, -alpha, child)
            else:  # the same side moves again: its value is ours, in our window
                value = self.qsearch(alpha, beta, child)
            undo()
            if value > best:
                best = value
                if value > alpha:
                    if value >= beta:
                        control.prunes += 1
                        if not i:
                            control.first_cutoffs += 1
                        break
                    alpha = value
        return best

    def again(self, depth: int, alpha: float, beta: float, ply: int, null_window: bool) -> float:
        """The value of a child where the side that just moved moves again: its own
        value (not negated), searched in the parent's window ``(alpha, beta)`` -- first
        a null window above ``alpha`` when ``null_window`` (principal variation search),
        then the full window if the value falls inside it.  No reduction here: late-move
        reductions assume the other side answers."""
        if null_window:
            value = self.negamax(depth, alpha, alpha + 1, ply)
            if alpha < value < beta:
                value = self.negamax(depth, alpha, beta, ply)
            return value
        return self.negamax(depth, alpha, beta, ply)

    def _reward(self, move: Any, depth: int, ply: int) -> None:
        killers = self.killers[ply]  # type: ignore[index]
        if killers[0] != move:
            killers[1] = killers[0]
            killers[0] = move
        history = self.history[self.game.turn]
        history[move] = min(history.get(move, 0) + depth * depth, 1 << 30)

    def principal_variation(self, depth: int) -> list[Any]:
        """The PV of the last root search to ``depth``: the triangular line,
        completed from the transposition table where a TT cutoff cut it short
        of ``depth`` plies (never past it)."""
        line = list(self.lines[0])
        if self.tt is None:
            return line
        game = self.game
        played = 0
        try:
            for move in line:
                game.play(move)
                played += 1
            seen = {game.key()}
            while len(line) < depth and game.outcome() is None:
                entry = self.tt.get(game.key())
                if entry is None or entry[3] is None or entry[1] != EXACT:
                    break
                move = entry[3]
                if move not in game.legal_moves():
                    break
                game.play(move)
                played += 1
                line.append(move)
                key = game.key()
                if key in seen:
                    break
                seen.add(key)
        finally:
            for _ in range(played):
                game.undo()
        return line


def _then(first: Iterable[Any], later: list[Any]) -> Iterator[Any]:
    """The moves of ``first``, then those put off into ``later`` meanwhile."""
    yield from first
    yield from later
