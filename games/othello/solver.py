"""An exact Othello endgame solver: the final disc difference with perfect play.

:func:`solve` (and :class:`Solver` behind it) searches a position to the end of
the game and returns its exact value -- the final disc difference for the
side to move, the empty cells going to the winner as Othello scores a game
(so every value is even) -- with a best move and the nodes searched.  A
position is two bitboards, the side to move's discs and the opponent's (see
:mod:`games.othello.bitboards`); the search makes no object and no copy: every
node is a pair of ints, and a move is ``(opp ^ flipped, own | flipped | bit)``.

The search is negamax alpha-beta on the disc difference, fail-soft, with the
refinements strong solvers use, each one a switch of :class:`Solver` so that
its worth can be measured (``tui-games bench endgame --without ...``):

``table``
    a transposition table keyed by the two bitboards, holding a lower and an
    upper bound of the position's exact value and its best move; positions
    with more than :data:`SHALLOW` empty cells only (below it a lookup costs
    more than the search it saves); emptied when it holds :data:`TABLE_LIMIT`.
``fastest_first``
    above :data:`SHALLOW` empties, the moves that leave the opponent the
    fewest replies first (a corner reply counting more, a corner move first,
    fewer empty cells next to the mover's discs and more moves left to the
    mover breaking ties), the table's move before them -- the order that
    finds a cutoff soonest when the first move wins.
``parity``
    at :data:`SHALLOW` empties or fewer, the moves into a quadrant with an odd
    number of empty cells first (the side that fills a region last gets its
    discs), corners before the other cells in each group.
``stability``
    the opponent's stable discs bound the score from above (at most
    ``64 - 2 * stable``): when that bound is no better than alpha, the node
    fails low at once.  Counted are the edge discs that no move can ever
    turn (see :func:`~games.othello.bitboards.stable_counts`).
``etc``
    enhanced transposition cutoffs: before searching the moves, a child whose
    table entry already proves a cutoff ends the node.
``null_window``
    principal variation search: every move after the first is searched with a
    null window, and again with the full one only when it beats alpha; the
    root is driven by null-window tests from a first guess (MTD(f)-like,
    values being even, tests on odd bounds) when one is given.

The last three empty cells have their own code: no move generation, the
flips of each cell tried in turn; with two empty cells the loop is unrolled
(:meth:`Solver._last2`), and the last cell's value is counted from its flips
without making the move.

The game's ``solve`` hook (:func:`games.othello.solving.solve`) hands the solve to
the same algorithm compiled with numba (:mod:`games.othello.compiled`) when numba is
installed and its code is ready; this module's pure-Python :class:`Solver` serves
otherwise, and is the reference the compiled one is checked against.
"""

from __future__ import annotations

from typing import Callable, Iterable

from ..base import Solution
from .bitboards import CORNERS, EDGE_STABLE, FULL, PASS, SIZE, legal_mask

__all__ = ["SWITCHES", "SolveStopped", "Solver", "flips_of", "final_value", "SHALLOW", "TICK"]

#: Positions with this many empty cells or fewer are searched without the
#: table and with parity ordering; above it, with both tables and fastest-first.
SHALLOW = 7
#: The table holds at most this many entries (about 150 bytes each); it is emptied when full.
TABLE_LIMIT = 1_000_000
#: The solver reports its nodes (and looks at its stop condition) every so many nodes.
TICK = 1024
#: The refinements :class:`Solver` can turn off, by their keyword.
SWITCHES = ("table", "fastest_first", "parity", "stability", "etc", "null_window")
#: Values are within these bounds (a disc difference).
MAX_VALUE = 64


class SolveStopped(Exception):
    """Raised out of a solve when its ``tick`` callback says to stop."""


# ------------------------------------------------------------------ the tables
def _lines() -> list[tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]]:
    """Per cell, the lines of at least two cells leaving it, as ``(neighbour, ray)``
    masks: those going up the bit order, and those going down."""
    table = []
    for cell in range(64):
        col, row = cell % SIZE, cell // SIZE
        up: list[tuple[int, int]] = []
        down: list[tuple[int, int]] = []
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)):
            ray = 0
            c, r = col + dc, row + dr
            while 0 <= c < SIZE and 0 <= r < SIZE:
                ray |= 1 << (r * SIZE + c)
                c, r = c + dc, r + dr
            if ray.bit_count() < 2:
                continue
            neighbour = 1 << ((row + dr) * SIZE + col + dc)
            (up if dr * SIZE + dc > 0 else down).append((neighbour, ray))
        table.append((tuple(up), tuple(down)))
    return table


_LINES = _lines()
#: Per cell, the cells next to it: a placement with no opponent disc among them flips nothing.
_NEIGHBOURS: list[int] = [sum(neighbour for lines in _LINES[cell] for neighbour, _ in lines) for cell in range(64)]


def flips_of(own: int, opp: int, cell: int) -> int:
    """The ``opp`` discs a disc of ``own`` on the empty ``cell`` turns over (0: the
    placement is illegal) -- as :func:`~games.othello.bitboards.flips`, by masks:
    along each line the first cell that is not the opponent's is found with one
    bit trick (the lowest set bit going up, the highest going down), and the run
    before it turns over when that cell is ``own``."""
    up, down = _LINES[cell]
    flipped = 0
    for neighbour, ray in up:
        if opp & neighbour:
            stop = ray & ~opp
            stop &= -stop
            if stop & own:
                flipped |= (stop - 1) & ray
    for neighbour, ray in down:
        if opp & neighbour:
            stop = ray & ~opp
            if stop:
                stop = 1 << (stop.bit_length() - 1)
                if stop & own:
                    flipped |= ray & -(stop << 1)
    return flipped


def _quadrants() -> tuple[list[int], tuple[int, int, int, int]]:
    """Per cell its quadrant's bit (1, 2, 4, 8), and the quadrants' masks."""
    of_cell = []
    masks = [0, 0, 0, 0]
    for cell in range(64):
        quadrant = (cell % SIZE >= 4) + 2 * (cell // SIZE >= 4)
        of_cell.append(1 << quadrant)
        masks[quadrant] |= 1 << cell
    return of_cell, (masks[0], masks[1], masks[2], masks[3])


_QUADRANT, _QUADRANT_MASKS = _quadrants()
#: For a parity (the odd quadrants' bits), the cells of those quadrants.
_ODD_CELLS: list[int] = [
    sum(mask for bit, mask in enumerate(_QUADRANT_MASKS) if parity >> bit & 1) for parity in range(16)]
_GATHER = 0x0102040810204080
_COLUMN_A = 0x0101010101010101
_NOT_COLUMN_A = FULL ^ _COLUMN_A
_NOT_COLUMN_H = FULL ^ (_COLUMN_A << 7)


def _around(discs: int) -> int:
    """The cells next to ``discs`` (and ``discs`` themselves)."""
    row = discs | ((discs & _NOT_COLUMN_H) << 1) | ((discs & _NOT_COLUMN_A) >> 1)
    return row | (row << 8) | (row >> 8)


def parity_of(empty: int) -> int:
    """The bits (1, 2, 4, 8) of the quadrants holding an odd number of the ``empty`` cells."""
    parity = 0
    for bit, mask in enumerate(_QUADRANT_MASKS):
        parity |= ((empty & mask).bit_count() & 1) << bit
    return parity


def stable_edge_discs(own: int, opp: int) -> int:
    """The number of ``opp``'s discs on the edges that can never be turned over
    (corner runs and full edges, :data:`~games.othello.bitboards.EDGE_STABLE`)."""
    table = EDGE_STABLE
    counts = (
        table[(opp & 0xFF) << 8 | (own & 0xFF)]
        + table[(opp >> 56) << 8 | (own >> 56)]
        + table[(((opp & _COLUMN_A) * _GATHER >> 56) & 0xFF) << 8 | (((own & _COLUMN_A) * _GATHER >> 56) & 0xFF)]
        + table[((((opp >> 7) & _COLUMN_A) * _GATHER >> 56) & 0xFF) << 8
                | ((((own >> 7) & _COLUMN_A) * _GATHER >> 56) & 0xFF)]
    )
    return (counts & 0xFF) - (opp & CORNERS).bit_count()


def final_value(own: int, opp: int) -> int:
    """The final disc difference for ``own`` when the game ends here: the empty
    cells go to the side with more discs."""
    diff = own.bit_count() - opp.bit_count()
    if diff > 0:
        return diff + 64 - (own | opp).bit_count()
    if diff < 0:
        return diff - 64 + (own | opp).bit_count()
    return 0


# ------------------------------------------------------------------ the solver
class Solver:
    """Exact negamax alpha-beta to the end of the game, with switchable refinements
    (see the module doc); one solver keeps its table from one solve to the next.

    ``tick(n)`` is called with the nodes searched since its last call, every
    :data:`TICK` nodes and at the end; it may raise (the search core's stop) or
    return a true value to stop the solve with :class:`SolveStopped`.  ``off``
    names switches (:data:`SWITCHES`) to turn off, as the keywords do.
    """

    def __init__(self, *, table: bool = True, fastest_first: bool = True, parity: bool = True,
                 stability: bool = True, etc: bool = True, null_window: bool = True,
                 shallow: int = SHALLOW, tick: Callable[[int], object] | None = None,
                 off: Iterable[str] = ()) -> None:
        off = set(off)
        unknown = off.difference(SWITCHES)
        if unknown:
            raise ValueError(f"no such switch of the solver: {', '.join(sorted(unknown))} "
                             f"(the switches: {', '.join(SWITCHES)})")
        self.use_table = table and "table" not in off
        self.fastest_first = fastest_first and "fastest_first" not in off
        self.parity = parity and "parity" not in off
        self.stability = stability and "stability" not in off
        self.etc = etc and "etc" not in off
        self.null_window = null_window and "null_window" not in off
        self.tick = tick
        #: Above this many empties the table and fastest-first are used (:data:`SHALLOW`).
        self.shallow = max(2, shallow)
        #: ``own | opp << 64`` -> ``(lower, upper, best move)``.
        self.table: dict[int, tuple[int, int, int]] = {}
        self.nodes = 0
        self._reported = 0
        self._next_tick = TICK

    # --------------------------------------------------------------- the root
    def solve(self, own: int, opp: int, guess: int | None = None,
              alpha: int = -MAX_VALUE, beta: int = MAX_VALUE) -> Solution:
        """The exact value of the position (``own`` to move) and a best move.

        With ``guess`` (an estimate of the value) the root is driven by
        null-window tests from it (when ``null_window``); else one search
        with the window ``(alpha, beta)`` (the value is exact inside it, a bound
        outside).
        """
        empties = 64 - (own | opp).bit_count()
        start = self.nodes
        moves = legal_mask(own, opp)
        if not moves and not legal_mask(opp, own):
            self._count(1)
            return Solution(final_value(own, opp), None, self._flush(start), empties)
        if guess is not None and self.null_window:
            value, move = self._mtd(own, opp, guess)
        else:
            value, move = self._root(own, opp, alpha, beta)
        return Solution(value, move, self._flush(start), empties)

    def _flush(self, start: int) -> int:
        """Report the nodes not reported yet; the nodes since ``start``."""
        if self.tick is not None and self.nodes > self._reported:
            self.tick(self.nodes - self._reported)
            self._reported = self.nodes
        return self.nodes - start

    def _count(self, nodes: int) -> None:
        self.nodes += nodes
        if self.nodes >= self._next_tick:
            self._poll()

    def _poll(self) -> None:
        self._next_tick = self.nodes + TICK
        if self.tick is not None:
            stop = self.tick(self.nodes - self._reported)
            self._reported = self.nodes
            if stop:
                raise SolveStopped

    def _mtd(self, own: int, opp: int, guess: int) -> tuple[int, int]:
        """Null-window tests from ``guess`` until the value is pinned: each test asks
        whether the value beats an odd bound (values are even), and narrows the
        range ``[low, high]`` by what it returns.  The move of the last test that
        failed high reaches the value; if none did, the value is the least there
        is and every move reaches it."""
        low, high = -MAX_VALUE, MAX_VALUE
        value = max(-MAX_VALUE, min(MAX_VALUE, guess & ~1))
        best = PASS
        while low < high:
            bound = value - 1 if value > low else value + 1
            value, move = self._root(own, opp, bound, bound + 1)
            if value > bound:
                low, best = value, move
            else:
                high = value
                if best == PASS:
                    best = move
        return low, best

    def _root(self, own: int, opp: int, alpha: int, beta: int) -> tuple[int, int]:
        """The root: as :meth:`_deep`, returning the best move too."""
        self._count(1)
        empties = 64 - (own | opp).bit_count()
        moves = legal_mask(own, opp)
        if not moves:
            value = -self._search(opp, own, -beta, -alpha, empties, parity_of(FULL ^ (own | opp)))
            return value, PASS
        best_value, best_move = -MAX_VALUE - 1, PASS
        parity = parity_of(FULL ^ (own | opp))
        entry = self.table.get(own | opp << 64)
        first = entry[2] if entry is not None else PASS
        for cell, flipped in self._ordered(own, opp, moves, first):
            bit = 1 << cell
            child_own, child_opp = opp ^ flipped, own | flipped | bit
            lower = max(alpha, best_value)
            if best_move != PASS and self.null_window:
                value = -self._search(child_own, child_opp, -lower - 1, -lower, empties - 1, parity ^ _QUADRANT[cell])
                if lower < value < beta:
                    value = -self._search(child_own, child_opp, -beta, -value, empties - 1, parity ^ _QUADRANT[cell])
            else:
                value = -self._search(child_own, child_opp, -beta, -lower, empties - 1, parity ^ _QUADRANT[cell])
            if value > best_value:
                best_value, best_move = value, cell
                if value >= beta:
                    break
        self._store(own | opp << 64, best_value, alpha, beta, best_move)
        return best_value, best_move

    # ------------------------------------------------------------- the search
    def _search(self, own: int, opp: int, alpha: int, beta: int, empties: int, parity: int) -> int:
        """The value of ``own`` to move, fail-soft within ``(alpha, beta)``."""
        if empties > self.shallow:
            return self._deep(own, opp, alpha, beta, empties, parity)
        if empties > 1:
            return self._shallow(own, opp, alpha, beta, empties, parity)
        self.nodes += 1
        if empties:
            return self._last1(own, opp, (FULL ^ (own | opp)).bit_length() - 1)
        return final_value(own, opp)

    def _ordered(self, own: int, opp: int, moves: int, first: int) -> list[tuple[int, int]]:
        """The cells of ``moves`` with the discs each turns over, ``(cell, flipped)``:
        the table's move ``first``, then fastest-first (fewest opponent replies, a
        corner counting two, a corner move first on ties), or in cell order without
        ``fastest_first``.  The node reuses the flips for ETC and its moves."""
        cells = []
        while moves:
            low = moves & -moves
            cell = low.bit_length() - 1
            cells.append((cell, flips_of(own, opp, cell)))
            moves ^= low
        if not self.fastest_first:
            for i, (cell, flipped) in enumerate(cells):
                if cell == first:
                    del cells[i]
                    cells.insert(0, (cell, flipped))
                    break
            return cells
        keyed = []
        for cell, flipped in cells:
            if cell == first:
                keyed.append((-1000, cell, flipped))
                continue
            child_own, child_opp = opp ^ flipped, own | flipped | (1 << cell)
            replies = legal_mask(child_own, child_opp)
            # Fewest replies (4 each, 2 more for a corner), a corner taken (-8), fewest
            # empty cells next to the mover's discs (the opponent's potential moves),
            # most moves left to the mover.
            keyed.append((4 * replies.bit_count() + 2 * (replies & CORNERS).bit_count()
                          - 8 * (CORNERS >> cell & 1)
                          + (FULL & ~(child_own | child_opp) & _around(child_opp)).bit_count()
                          - legal_mask(child_opp, child_own).bit_count(), cell, flipped))
        keyed.sort()
        return [(cell, flipped) for _, cell, flipped in keyed]

    def _store(self, key: int, value: int, alpha: int, beta: int, move: int) -> None:
        if not self.use_table:
            return
        table = self.table
        entry = table.get(key)
        if entry is not None:
            lower, upper = entry[0], entry[1]
        else:
            lower, upper = -MAX_VALUE, MAX_VALUE
            if len(table) >= TABLE_LIMIT:
                table.clear()
        if value <= alpha:
            upper = min(upper, value)
            if entry is not None:
                move = entry[2]
        elif value >= beta:
            lower = max(lower, value)
        else:
            lower = upper = value
        table[key] = (lower, upper, move)

    def _deep(self, own: int, opp: int, alpha: int, beta: int, empties: int, parity: int) -> int:
        """A node above :data:`SHALLOW` empties: table, stability, fastest-first, PVS."""
        self.nodes += 1
        if self.nodes >= self._next_tick:
            self._poll()
        key = own | opp << 64
        first = PASS
        table = self.table
        if self.use_table:
            entry = table.get(key)
            if entry is not None:
                lower, upper, first = entry
                if lower >= beta:
                    return lower
                if upper <= alpha:
                    return upper
                if lower == upper:
                    return lower
                if lower > alpha:
                    alpha = lower
                if upper < beta:
                    beta = upper
        moves = legal_mask(own, opp)
        if not moves:
            if not legal_mask(opp, own):
                return final_value(own, opp)
            return -self._search(opp, own, -beta, -alpha, empties, parity)
        if self.stability and alpha >= 0:
            bound = MAX_VALUE - 2 * stable_edge_discs(own, opp)
            if bound <= alpha:
                return bound
        cells = self._ordered(own, opp, moves, first)
        if self.etc and self.use_table:
            for cell, flipped in cells:
                entry = table.get((opp ^ flipped) | (own | flipped | (1 << cell)) << 64)
                if entry is not None and -entry[1] >= beta:
                    return -entry[1]
        best_value, best_move = -MAX_VALUE - 1, PASS
        alpha0 = alpha
        search = self._search
        null_window = self.null_window
        for cell, flipped in cells:
            child_own, child_opp = opp ^ flipped, own | flipped | (1 << cell)
            child_parity = parity ^ _QUADRANT[cell]
            if best_move != PASS and null_window:
                value = -search(child_own, child_opp, -alpha - 1, -alpha, empties - 1, child_parity)
                if alpha < value < beta:
                    value = -search(child_own, child_opp, -beta, -value, empties - 1, child_parity)
            else:
                value = -search(child_own, child_opp, -beta, -alpha, empties - 1, child_parity)
            if value > best_value:
                best_value, best_move = value, cell
                if value > alpha:
                    if value >= beta:
                        break
                    alpha = value
        self._store(key, best_value, alpha0, beta, best_move)
        return best_value

    def _shallow(self, own: int, opp: int, alpha: int, beta: int, empties: int, parity: int) -> int:
        """A node of 2 to :data:`SHALLOW` empties: each empty cell tried in turn
        (odd quadrants first with ``parity``, corners first in each group); with
        two empties left, each child's last cell is counted without playing it."""
        self.nodes += 1
        if self.nodes >= self._next_tick:
            self._poll()
        empty = FULL ^ (own | opp)
        if empties == 2:
            return self._last2(own, opp, alpha, beta, empty)
        if empties > 3 and self.stability and alpha >= 0:
            bound = MAX_VALUE - 2 * stable_edge_discs(own, opp)
            if bound <= alpha:
                return bound
        groups: tuple[int, ...]
        if self.parity and empties > 3:
            odd = _ODD_CELLS[parity]
            groups = (empty & odd & CORNERS, empty & odd & ~CORNERS, empty & ~odd & CORNERS,
                      empty & ~odd & ~CORNERS)
        else:
            groups = (empty,)
        best_value = -MAX_VALUE - 1
        last = empties == 2
        for group in groups:
            while group:
                low = group & -group
                group ^= low
                cell = low.bit_length() - 1
                if not opp & _NEIGHBOURS[cell]:
                    continue
                flipped = flips_of(own, opp, cell)
                if not flipped:
                    continue
                if last:
                    self.nodes += 1
                    value = -self._last1(opp ^ flipped, own | flipped | low, (empty ^ low).bit_length() - 1)
                else:
                    value = -self._shallow(opp ^ flipped, own | flipped | low, -beta,
                                           -(alpha if alpha > best_value else best_value), empties - 1,
                                           parity ^ _QUADRANT[cell])
                if value > best_value:
                    best_value = value
                    if value >= beta:
                        return value
        if best_value > -MAX_VALUE - 1:
            return best_value
        # No placement: the opponent's turn if it has one, else the game is over.
        if not legal_mask(opp, own):
            return final_value(own, opp)
        return -self._shallow(opp, own, -beta, -alpha, empties, parity)

    def _last2(self, own: int, opp: int, alpha: int, beta: int, empty: int) -> int:
        """A node with the two ``empty`` cells (counted by the caller): ``own`` on
        the lower cell, then on the higher, each child's last cell counted by
        :meth:`_last1` -- :meth:`_shallow`'s loop unrolled, the same nodes."""
        low = empty & -empty
        high = empty ^ low
        x1, x2 = low.bit_length() - 1, high.bit_length() - 1
        best_value = -MAX_VALUE - 1
        last1 = self._last1
        if opp & _NEIGHBOURS[x1]:
            flipped = flips_of(own, opp, x1)
            if flipped:
                self.nodes += 1
                best_value = -last1(opp ^ flipped, own | flipped | low, x2)
                if best_value >= beta:
                    return best_value
        if opp & _NEIGHBOURS[x2]:
            flipped = flips_of(own, opp, x2)
            if flipped:
                self.nodes += 1
                value = -last1(opp ^ flipped, own | flipped | high, x1)
                if value > best_value:
                    best_value = value
        if best_value > -MAX_VALUE - 1:
            return best_value
        # No placement: the opponent's turn (a node) if it has one, else the game is over.
        if not legal_mask(opp, own):
            return final_value(own, opp)
        self.nodes += 1
        if self.nodes >= self._next_tick:
            self._poll()
        return -self._last2(opp, own, -beta, -alpha, empty)

    @staticmethod
    def _last1(own: int, opp: int, cell: int) -> int:
        """The value with one empty ``cell``: ``own`` fills it if it can, else ``opp``
        does if it can, else it goes to the winner."""
        diff = own.bit_count() - opp.bit_count()  # own + opp = 63: never 0
        flipped = flips_of(own, opp, cell).bit_count() if opp & _NEIGHBOURS[cell] else 0
        if flipped:
            return diff + 1 + 2 * flipped
        flipped = flips_of(opp, own, cell).bit_count() if own & _NEIGHBOURS[cell] else 0
        if flipped:
            return diff - 1 - 2 * flipped
        return diff + 1 if diff > 0 else diff - 1
