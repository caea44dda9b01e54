"""The exact Othello endgame solver compiled with numba: an optional fast path.

:mod:`games.othello.solver` hands a solve to this module when numba is
installed (the ``fast`` extra: ``pip install 'tui-games[fast]'``) and the
compiled code is ready (:class:`games.othello.solving.CompiledPath` compiles it
once, in a thread, the first time a solve wants it); otherwise the pure-Python
:class:`~games.othello.solver.Solver` serves.  Importing this module needs
numba and compiles every function (explicit signatures, so numba's cache on
disk serves the recursive ones too: a cold compile takes 10-30 s, a warm load
1-3 s).

The algorithm is the pure solver's, refinement for refinement (a table of
bounds and a best move, ETC, stability cutoffs, fastest-first above
:data:`~games.othello.solver.SHALLOW` empties, parity below it, null windows,
the last cell counted without playing it), on two ``uint64`` bitboards; the
root's moves are ordered by the pure solver's own code and searched with the
full window as :meth:`Solver.solve <games.othello.solver.Solver.solve>` does
without a guess, so the value and the best move (the first move reaching the
value in that order) are the pure solver's.  The node counts differ: the table
is an array of ``2 ** table_bits(empties)`` slots in buckets of two -- the
first keeps the entry of most empties, the second the latest other one -- not a
dict emptied when full: ``2 ** TABLE_BITS`` (about the pure solver's
:data:`~games.othello.solver.TABLE_LIMIT` entries, 48 MB) up to
:data:`LARGER_FROM` empties, twice as many for each empty cell more, at most
``2 ** MAX_TABLE_BITS`` (a solve of 26 empties outgrows 48 MB: FFO #49 took
12 billion nodes in 15 minutes without finishing in it).

A solve runs in chunks of nodes (at most :data:`CHUNK`): when a chunk is spent the
compiled search unwinds without storing anything it has not finished, the
nodes are reported to ``tick`` (which may raise, or return a true value to
stop with :class:`~games.othello.solver.SolveStopped`), and the same root move
is searched again from the table, which keeps what the chunks before found.
The compiled code releases the GIL (``nogil``): a solve in a worker thread
leaves the app's own thread free.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from ..base import Solution
from . import bitboards as bb
from . import solver as pure

__all__ = ["CHUNK", "LARGER_FROM", "MAX_TABLE_BITS", "TABLE_BITS", "solve", "table_bits"]

#: The table holds ``2 ** TABLE_BITS`` entries (about the pure solver's ``TABLE_LIMIT``), 48 MB ...
TABLE_BITS = 20
#: ... for a solve of up to this many empty cells; twice as many for each empty cell more ...
LARGER_FROM = 24
#: ... up to ``2 ** MAX_TABLE_BITS`` entries (768 MB).
MAX_TABLE_BITS = 24


def table_bits(empties: int) -> int:
    """The table of a solve of ``empties`` empty cells holds ``2 ** table_bits(empties)``
    entries (48 bytes each, allocated as they are first written)."""
    return min(MAX_TABLE_BITS, TABLE_BITS + max(0, empties - LARGER_FROM))
#: At most this many nodes are searched between two calls of ``tick`` (a few hundredths
#: of a second); the first chunks are smaller (the pure solver's ``TICK``, then as many
#: nodes as were searched before), so a small node budget is not overshot by much.
CHUNK = 1 << 19

_U = np.uint64
_FULL = _U(bb.FULL)
_ZERO = _U(0)
_ONE = _U(1)
_INNER = _U(bb.INNER_COLUMNS)
_NOT_A = _U(bb.NOT_COLUMN_A)
_NOT_H = _U(bb.NOT_COLUMN_H)
_CORNERS = _U(bb.CORNERS)
_COLUMN_A = _U(bb.COLUMN_A)
_GATHER = _U(0x0102040810204080)
_EDGE_STABLE = np.array(bb.EDGE_STABLE, dtype=np.int64)
_PASS = bb.PASS
_SHALLOW = pure.SHALLOW
_MAX = pure.MAX_VALUE
_QUADRANT = np.array(pure._QUADRANT, dtype=np.int64)
_ODD_CELLS = np.array(pure._ODD_CELLS, dtype=np.uint64)
_NEIGHBOURS = np.array(pure._NEIGHBOURS, dtype=np.uint64)
#: Where in the cells' buffer a node's ordering keys sit, past its cells (more than
#: any line of nodes below the root uses: at most 60 plies of at most 32 moves).
_ORDER_KEYS = 64 * 32
#: The search's state, an int64 array: nodes searched, the chunk's end, stopped (1).
_NODES, _LIMIT, _STOPPED = 0, 1, 2


# ------------------------------------------------------------ bit intrinsics
def _popcount_typing(typingctx: Any, x: Any) -> Any:
    """The number of set bits of a uint64, as an int64 (LLVM's ctpop)."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(fn, args)
    return types.int64(types.uint64), codegen


def _lowest_typing(typingctx: Any, x: Any) -> Any:
    """The index of the lowest set bit of a nonzero uint64 (LLVM's cttz)."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        fn = builder.module.declare_intrinsic("llvm.cttz", [ir.IntType(64), ir.IntType(1)])
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])
    return types.int64(types.uint64), codegen


def _highest_typing(typingctx: Any, x: Any) -> Any:
    """The index of the highest set bit of a nonzero uint64 (63 - LLVM's ctlz)."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        fn = builder.module.declare_intrinsic("llvm.ctlz", [ir.IntType(64), ir.IntType(1)])
        zeros = builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])
        return builder.sub(ir.Constant(ir.IntType(64), 63), zeros)
    return types.int64(types.uint64), codegen


#: The intrinsics, typed ``Any`` for mypy (numba's ``intrinsic`` hides the call's signature).
_popcount: Any = intrinsic(_popcount_typing)
_lowest: Any = intrinsic(_lowest_typing)
_highest: Any = intrinsic(_highest_typing)


# ------------------------------------------------------------------ primitives
@njit(cache=True, inline="always", nogil=True)
def _direction(own: Any, line: Any, shift: Any) -> Any:
    """Moves along one pair of opposite directions (the flood fill of bitboards.legal_mask)."""
    s2 = shift + shift
    left = line & (own << shift)
    right = line & (own >> shift)
    left |= line & (left << shift)
    right |= line & (right >> shift)
    pair_left = line & (line << shift)
    pair_right = pair_left >> shift
    left |= pair_left & (left << s2)
    right |= pair_right & (right >> s2)
    left |= pair_left & (left << s2)
    right |= pair_right & (right >> s2)
    return (left << shift) | (right >> shift)


@njit("uint64(uint64, uint64)", cache=True, nogil=True)
def legal_mask(own: Any, opp: Any) -> Any:
    """As :func:`games.othello.bitboards.legal_mask`."""
    empty = _FULL ^ (own | opp)
    inner = opp & _INNER
    moves = _direction(own, inner, _U(1))
    moves |= _direction(own, opp, _U(8))
    moves |= _direction(own, inner, _U(7))
    moves |= _direction(own, inner, _U(9))
    return moves & empty


@njit(cache=True, inline="always", nogil=True)
def _run(own: Any, line: Any, placed: Any, shift: Any) -> Any:
    """The discs of ``line`` a disc on ``placed`` turns over along one pair of directions."""
    run = _ZERO
    step = (placed << shift) & line
    while step:
        run |= step
        step = (step << shift) & line
    flipped = run if (run << shift) & own else _ZERO
    run = _ZERO
    step = (placed >> shift) & line
    while step:
        run |= step
        step = (step >> shift) & line
    if (run >> shift) & own:
        flipped |= run
    return flipped


@njit("uint64(uint64, uint64, int64)", cache=True, nogil=True)
def flips(own: Any, opp: Any, cell: Any) -> Any:
    """As :func:`games.othello.bitboards.flips`."""
    placed = _ONE << _U(cell)
    inner = opp & _INNER
    return (_run(own, inner, placed, _U(1)) | _run(own, inner, placed, _U(7))
            | _run(own, opp, placed, _U(8)) | _run(own, inner, placed, _U(9)))


@njit(cache=True, inline="always", nogil=True)
def _around(discs: Any) -> Any:
    """The cells next to ``discs`` (and ``discs`` themselves)."""
    row = discs | ((discs & _NOT_H) << _U(1)) | ((discs & _NOT_A) >> _U(1))
    return row | (row << _U(8)) | (row >> _U(8))


@njit(cache=True, inline="always", nogil=True)
def _edge(discs: Any, i: Any) -> Any:
    """Edge ``i`` of ``discs`` (bottom, top, column a, column h) as 8 bits."""
    if i == 0:
        return np.int64(discs & _U(0xFF))
    if i == 1:
        return np.int64(discs >> _U(56))
    if i == 2:
        return np.int64(((discs & _COLUMN_A) * _GATHER >> _U(56)) & _U(0xFF))
    return np.int64((((discs >> _U(7)) & _COLUMN_A) * _GATHER >> _U(56)) & _U(0xFF))


@njit(cache=True, inline="always", nogil=True)
def _stable_opp(own: Any, opp: Any) -> Any:
    """As :func:`games.othello.solver.stable_edge_discs`."""
    counts = np.int64(0)
    for i in range(4):
        counts += _EDGE_STABLE[_edge(opp, i) << 8 | _edge(own, i)]
    return (counts & 0xFF) - _popcount(opp & _CORNERS)


@njit(cache=True, inline="always", nogil=True)
def _final(own: Any, opp: Any) -> Any:
    """As :func:`games.othello.solver.final_value`."""
    diff = _popcount(own) - _popcount(opp)
    empties = 64 - _popcount(own | opp)
    if diff > 0:
        return diff + empties
    if diff < 0:
        return diff - empties
    return 0


@njit("int64(uint64, uint64, int64)", cache=True, nogil=True)
def _last1(own: Any, opp: Any, cell: Any) -> Any:
    """The value with one empty ``cell`` (as the pure solver's ``_last1``)."""
    diff = _popcount(own) - _popcount(opp)
    n = _popcount(flips(own, opp, cell)) if opp & _NEIGHBOURS[cell] else 0
    if n:
        return diff + 1 + 2 * n
    n = _popcount(flips(opp, own, cell)) if own & _NEIGHBOURS[cell] else 0
    if n:
        return diff - 1 - 2 * n
    return diff + 1 if diff > 0 else diff - 1


@njit(cache=True, inline="always", nogil=True)
def _bucket(own: Any, opp: Any, mask: Any) -> Any:
    """The first of the position's two table slots."""
    h = own * _U(0x9E3779B97F4A7C15) ^ (opp * _U(0xC2B2AE3D27D4EB4F))
    return np.int64((h ^ (h >> _U(29))) & mask) & ~np.int64(1)


@njit(cache=True, inline="always", nogil=True)
def _find(keys: Any, own: Any, opp: Any, mask: Any) -> Any:
    """The table slot holding the position, or -1.  A position has a bucket of two
    slots: the first keeps the entry of most empties (the costliest to find again),
    the second the latest of the others."""
    bucket = _bucket(own, opp, mask)
    if keys[bucket, 0] == own and keys[bucket, 1] == opp:
        return bucket
    if keys[bucket + 1, 0] == own and keys[bucket + 1, 1] == opp:
        return bucket + 1
    return -1


# ------------------------------------------------------------------ the search
@njit("int64(uint64, uint64, int64, int64, int64, int64, int64[::1])", cache=True, nogil=True)
def _shallow(own: Any, opp: Any, alpha: Any, beta: Any, empties: Any, parity: Any, state: Any) -> Any:
    """A node of 2 to SHALLOW empties: parity order, no table (the pure ``_shallow``)."""
    state[_NODES] += 1
    empty = _FULL ^ (own | opp)
    if empties > 3 and alpha >= 0:
        bound = _MAX - 2 * _stable_opp(own, opp)
        if bound <= alpha:
            return bound
    if empties > 3:
        odd = _ODD_CELLS[parity]
        n_groups = 4
    else:
        odd = _FULL
        n_groups = 1
    best = -_MAX - 1
    for g in range(n_groups):
        if n_groups == 1:
            group = empty
        elif g == 0:
            group = empty & odd & _CORNERS
        elif g == 1:
            group = empty & odd & ~_CORNERS
        elif g == 2:
            group = empty & ~odd & _CORNERS
        else:
            group = empty & ~odd & ~_CORNERS
        while group:
            cell = _lowest(group)
            low = _ONE << _U(cell)
            group ^= low
            if not opp & _NEIGHBOURS[cell]:
                continue
            flipped = flips(own, opp, cell)
            if not flipped:
                continue
            if empties == 2:
                state[_NODES] += 1
                value = -_last1(opp ^ flipped, own | flipped | low, _highest(empty ^ low))
            else:
                value = -_shallow(opp ^ flipped, own | flipped | low, -beta,
                                  -(alpha if alpha > best else best), empties - 1, parity ^ _QUADRANT[cell], state)
            if value > best:
                best = value
                if value >= beta:
                    return value
    if best > -_MAX - 1:
        return best
    if not legal_mask(opp, own):
        return _final(own, opp)
    return -_shallow(opp, own, -beta, -alpha, empties, parity, state)


@njit("void(uint64[:, ::1], int64[:, ::1], uint64, uint64, uint64, int64, int64, int64, int64, int64)",
      cache=True, nogil=True)
def _store(keys: Any, bounds: Any, mask: Any, own: Any, opp: Any, empties: Any, value: Any, alpha: Any,
           beta: Any, move: Any) -> None:
    """Record a finished node's bound (or exact value) and best move: in its own slot
    if the table holds it, else in its bucket's first slot if it has as many empties
    as the entry there (which moves to the second), else in the second slot."""
    slot = _find(keys, own, opp, mask)
    if slot >= 0:
        lower = bounds[slot, 0]
        upper = bounds[slot, 1]
        old_move = bounds[slot, 2]
    else:
        slot = _bucket(own, opp, mask)
        if empties >= bounds[slot, 3]:
            for i in range(2):
                keys[slot + 1, i] = keys[slot, i]
            for i in range(4):
                bounds[slot + 1, i] = bounds[slot, i]
        else:
            slot += 1
        lower = -_MAX
        upper = _MAX
        old_move = -1
    if value <= alpha:
        upper = min(upper, value)
        if old_move >= 0:
            move = old_move
    elif value >= beta:
        lower = max(lower, value)
    else:
        lower = value
        upper = value
    keys[slot, 0] = own
    keys[slot, 1] = opp
    bounds[slot, 0] = lower
    bounds[slot, 1] = upper
    bounds[slot, 2] = move
    bounds[slot, 3] = empties


@njit("int64(uint64, uint64, uint64, int64, int64[::1], uint64[::1], int64)", cache=True, nogil=True)
def _order(own: Any, opp: Any, moves: Any, first: Any, cells: Any, flipped_of: Any, base: Any) -> Any:
    """Fastest-first into ``cells[base:]`` (their flips beside them in ``flipped_of``,
    the keys in ``cells`` further on, ``_ORDER_KEYS`` ahead); the count.  The keys and
    the tie order (by cell) are the pure solver's ``_ordered``."""
    keys = cells[base + _ORDER_KEYS:]
    n = 0
    while moves:
        cell = _lowest(moves)
        bit = _ONE << _U(cell)
        moves ^= bit
        flipped = flips(own, opp, cell)
        if cell == first:
            key = -1000
        else:
            child_own = opp ^ flipped
            child_opp = own | flipped | bit
            replies = legal_mask(child_own, child_opp)
            key = (4 * _popcount(replies) + 2 * _popcount(replies & _CORNERS)
                   - 8 * np.int64((_CORNERS >> _U(cell)) & _ONE)
                   + _popcount(_FULL & ~(child_own | child_opp) & _around(child_opp))
                   - _popcount(legal_mask(child_opp, child_own)))
        j = n  # insertion, stable on (key, cell) as Python's sort of the tuples
        while j > 0 and keys[j - 1] > key:
            keys[j] = keys[j - 1]
            cells[base + j] = cells[base + j - 1]
            flipped_of[base + j] = flipped_of[base + j - 1]
            j -= 1
        keys[j] = key
        cells[base + j] = cell
        flipped_of[base + j] = flipped
        n += 1
    return n


@njit("int64(uint64, uint64, int64, int64, int64, int64, int64[::1], uint64[:, ::1], int64[:, ::1], "
      "uint64, int64[::1], uint64[::1], int64)", cache=True, nogil=True)
def _deep(own: Any, opp: Any, alpha: Any, beta: Any, empties: Any, parity: Any, state: Any, keys: Any,
          bounds: Any, mask: Any, cells: Any, flipped_of: Any, base: Any) -> Any:
    """The value of ``own`` to move, fail-soft within ``(alpha, beta)`` (the pure
    ``_search`` and ``_deep``).  When the chunk is spent (``state``'s nodes reach its
    limit) it sets ``state``'s stopped flag and every node above returns at once,
    storing nothing: the value returned then means nothing."""
    if empties <= _SHALLOW:
        if empties > 1:
            return _shallow(own, opp, alpha, beta, empties, parity, state)
        state[_NODES] += 1
        if empties:
            return _last1(own, opp, _highest(_FULL ^ (own | opp)))
        return _final(own, opp)
    if state[_NODES] >= state[_LIMIT]:
        state[_STOPPED] = 1
        return 0
    state[_NODES] += 1
    slot = _find(keys, own, opp, mask)
    first = _PASS
    if slot >= 0:
        lower = bounds[slot, 0]
        upper = bounds[slot, 1]
        first = bounds[slot, 2]
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
            return _final(own, opp)
        return -_deep(opp, own, -beta, -alpha, empties, parity, state, keys, bounds, mask, cells, flipped_of, base)
    if alpha >= 0:
        bound = _MAX - 2 * _stable_opp(own, opp)
        if bound <= alpha:
            return bound
    n = _order(own, opp, moves, first, cells, flipped_of, base)
    for i in range(n):  # enhanced transposition cutoffs
        cell = cells[base + i]
        flipped = flipped_of[base + i]
        child_own = opp ^ flipped
        child_opp = own | flipped | (_ONE << _U(cell))
        s = _find(keys, child_own, child_opp, mask)
        if s >= 0 and -bounds[s, 1] >= beta:
            return -bounds[s, 1]
    best = -_MAX - 1
    best_move = _PASS
    alpha0 = alpha
    child_base = base + n
    for i in range(n):
        cell = cells[base + i]
        flipped = flipped_of[base + i]
        child_own = opp ^ flipped
        child_opp = own | flipped | (_ONE << _U(cell))
        child_parity = parity ^ _QUADRANT[cell]
        if best_move != _PASS:
            value = -_deep(child_own, child_opp, -alpha - 1, -alpha, empties - 1, child_parity, state,
                           keys, bounds, mask, cells, flipped_of, child_base)
            if alpha < value < beta and not state[_STOPPED]:
                value = -_deep(child_own, child_opp, -beta, -value, empties - 1, child_parity, state,
                               keys, bounds, mask, cells, flipped_of, child_base)
        else:
            value = -_deep(child_own, child_opp, -beta, -alpha, empties - 1, child_parity, state,
                           keys, bounds, mask, cells, flipped_of, child_base)
        if state[_STOPPED]:
            return 0
        if value > best:
            best = value
            best_move = cell
            if value > alpha:
                if value >= beta:
                    break
                alpha = value
    _store(keys, bounds, mask, own, opp, empties, best, alpha0, beta, best_move)
    return best


# ------------------------------------------------------------------ the root
class _Run:
    """One solve's table, buffers and node count, and its chunked searches."""

    def __init__(self, tick: Callable[[int], object] | None, bits: int = TABLE_BITS) -> None:
        size = 1 << bits
        self.keys = np.zeros((size, 2), dtype=np.uint64)
        self.bounds = np.zeros((size, 4), dtype=np.int64)  # lower, upper, move, empties
        self.mask = _U(size - 1)
        self.cells = np.zeros(2 * _ORDER_KEYS + 64, dtype=np.int64)
        self.flipped_of = np.zeros(_ORDER_KEYS, dtype=np.uint64)
        self.state = np.zeros(3, dtype=np.int64)
        self.tick = tick
        self.reported = 0

    @property
    def nodes(self) -> int:
        """The nodes searched so far."""
        return int(self.state[_NODES])

    def report(self) -> None:
        """Hand the nodes not reported yet to ``tick``: it may raise, or say stop."""
        nodes = self.nodes
        if self.tick is not None and nodes > self.reported:
            stop = self.tick(nodes - self.reported)
            self.reported = nodes
            if stop:
                raise pure.SolveStopped

    def search(self, own: int, opp: int, alpha: int, beta: int, empties: int, parity: int) -> int:
        """The compiled search of one position, chunk after chunk until it finishes."""
        state = self.state
        while True:
            state[_LIMIT] = state[_NODES] + min(CHUNK, max(pure.TICK, state[_NODES]))
            value = int(_deep(_U(own), _U(opp), alpha, beta, empties, parity, state, self.keys, self.bounds,
                              self.mask, self.cells, self.flipped_of, 0))
            self.report()
            if not state[_STOPPED]:
                return value
            state[_STOPPED] = 0


def solve(own: int, opp: int, tick: Callable[[int], object] | None = None) -> Solution:
    """The exact value of the position (``own`` to move) and a best move: the
    pure :meth:`Solver.solve <games.othello.solver.Solver.solve>` without a guess,
    compiled.  ``tick`` as the pure solver's (called after each chunk of nodes)."""
    empties = 64 - (own | opp).bit_count()
    run = _Run(tick, table_bits(empties))
    run.state[_NODES] = 1
    moves = bb.legal_mask(own, opp)
    if not moves and not bb.legal_mask(opp, own):
        run.report()
        return Solution(pure.final_value(own, opp), None, 1, empties)
    parity = pure.parity_of(bb.FULL ^ (own | opp))
    if not moves:
        value = -run.search(opp, own, -_MAX, _MAX, empties, parity)
        return Solution(value, _PASS, run.nodes, empties)
    alpha, beta = -_MAX, _MAX
    best_value, best_move = -_MAX - 1, _PASS
    for cell, flipped in pure.Solver()._ordered(own, opp, moves, _PASS):
        child_own, child_opp = opp ^ flipped, own | flipped | (1 << cell)
        child_parity = parity ^ pure._QUADRANT[cell]
        lower = max(alpha, best_value)
        if best_move != _PASS:
            value = -run.search(child_own, child_opp, -lower - 1, -lower, empties - 1, child_parity)
            if lower < value < beta:
                value = -run.search(child_own, child_opp, -beta, -value, empties - 1, child_parity)
        else:
            value = -run.search(child_own, child_opp, -beta, -lower, empties - 1, child_parity)
        if value > best_value:
            best_value, best_move = value, cell
            if value >= beta:
                break
    run.report()
    return Solution(best_value, best_move, run.nodes, empties)
