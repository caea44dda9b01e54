"""A numba prototype of Othello's hot path, to decide by measurement (issue 41).

Not imported by the package: run it with a Python that has numba (a separate
venv, ``python -m venv /work/numba-venv; /work/numba-venv/bin/pip install -e .
numba==0.68``).  Everything here is compiled with ``@njit(cache=True)`` and
works on two ``uint64`` bitboards, the side to move's discs and the
opponent's, as :mod:`games.othello.bitboards` does on Python ints:

- the primitives: :func:`legal_mask`, :func:`flips`, :func:`standard` (the
  ``standard`` heuristic for the side to move, the same ints as
  :func:`games.othello.evaluation.standard`);
- :func:`negamax`: the search core's alpha-beta as ``pvs`` runs it with the
  table, killers and quiescence off (fail-soft, null windows after the first
  move, moves in cell order, a pass when only the opponent can move, a
  finished game ``WIN - ply``): the same tree node for node as
  :class:`engines.search.core.Searcher` configured that way, so nodes/s are
  compared at equal nodes;
- :func:`solve`: the exact endgame solver of :mod:`games.othello.solver` (the
  same algorithm: a transposition table with bounds and a best move, ETC,
  stability cutoffs, fastest-first above ``SHALLOW`` empties, parity below
  it, null windows, the last cell counted without playing it), its table an
  array of ``2**TABLE_BITS`` slots replaced on collision instead of a dict.

``tools/bench_numba.py check`` compares every compiled function with the
pure-Python one on random positions; its other sections measure.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from games.othello import bitboards as bb
from games.othello import evaluation as ev
from games.othello import solver as pysolver

U = np.uint64
FULL = U(bb.FULL)
ZERO = U(0)
ONE = U(1)
INNER = U(bb.INNER_COLUMNS)
NOT_A = U(bb.NOT_COLUMN_A)
NOT_H = U(bb.NOT_COLUMN_H)
CORNERS = U(bb.CORNERS)
COLUMN_A = U(bb.COLUMN_A)
GATHER = U(0x0102040810204080)
EDGE_STABLE = np.array(bb.EDGE_STABLE, dtype=np.int64)
PASS = 64
WIN = 1_000_000
INF = 10 * WIN


# ------------------------------------------------------------ bit intrinsics
@intrinsic
def popcount(typingctx, x):  # type: ignore[no-untyped-def]
    """The number of set bits of a uint64, as an int64 (LLVM's ctpop: one instruction)."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(fn, args)

    return sig, codegen


@intrinsic
def lowest(typingctx, x):  # type: ignore[no-untyped-def]
    """The index of the lowest set bit of a nonzero uint64 (LLVM's cttz)."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        fn = builder.module.declare_intrinsic("llvm.cttz", [ir.IntType(64), ir.IntType(1)])
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])

    return sig, codegen


@intrinsic
def highest(typingctx, x):  # type: ignore[no-untyped-def]
    """The index of the highest set bit of a nonzero uint64 (63 - LLVM's ctlz)."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        fn = builder.module.declare_intrinsic("llvm.ctlz", [ir.IntType(64), ir.IntType(1)])
        zeros = builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])
        return builder.sub(ir.Constant(ir.IntType(64), 63), zeros)

    return sig, codegen


# ------------------------------------------------------------------ primitives
@njit(cache=True, inline="always")
def _direction(own: np.uint64, line: np.uint64, shift: np.uint64) -> np.uint64:
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


@njit("uint64(uint64, uint64)", cache=True)
def legal_mask(own: np.uint64, opp: np.uint64) -> np.uint64:
    """As :func:`games.othello.bitboards.legal_mask`."""
    own = U(own)
    opp = U(opp)
    empty = FULL ^ (own | opp)
    inner = opp & INNER
    moves = _direction(own, inner, U(1))
    moves |= _direction(own, opp, U(8))
    moves |= _direction(own, inner, U(7))
    moves |= _direction(own, inner, U(9))
    return moves & empty


@njit(cache=True, inline="always")
def _run(own: np.uint64, line: np.uint64, placed: np.uint64, shift: np.uint64) -> np.uint64:
    run = ZERO
    step = (placed << shift) & line
    while step:
        run |= step
        step = (step << shift) & line
    if (run << shift) & own:
        flipped = run
    else:
        flipped = ZERO
    run = ZERO
    step = (placed >> shift) & line
    while step:
        run |= step
        step = (step >> shift) & line
    if (run >> shift) & own:
        flipped |= run
    return flipped


@njit("uint64(uint64, uint64, int64)", cache=True)
def flips(own: np.uint64, opp: np.uint64, move: np.int64) -> np.uint64:
    """As :func:`games.othello.bitboards.flips`."""
    own = U(own)
    opp = U(opp)
    placed = ONE << U(move)
    inner = opp & INNER
    return (_run(own, inner, placed, U(1)) | _run(own, inner, placed, U(7))
            | _run(own, opp, placed, U(8)) | _run(own, inner, placed, U(9)))


@njit(cache=True, inline="always")
def _around(discs: np.uint64) -> np.uint64:
    row = discs | ((discs & NOT_H) << U(1)) | ((discs & NOT_A) >> U(1))
    return row | (row << U(8)) | (row >> U(8))


@njit(cache=True, inline="always")
def _edges(discs: np.uint64, i: int) -> np.int64:
    if i == 0:
        return np.int64(discs & U(0xFF))
    if i == 1:
        return np.int64(discs >> U(56))
    if i == 2:
        return np.int64(((discs & COLUMN_A) * GATHER >> U(56)) & U(0xFF))
    return np.int64((((discs >> U(7)) & COLUMN_A) * GATHER >> U(56)) & U(0xFF))


@njit(cache=True, inline="always")
def _stable_pair(black: np.uint64, white: np.uint64) -> tuple[np.int64, np.int64]:
    counts = np.int64(0)
    for i in range(4):
        counts += EDGE_STABLE[_edges(black, i) << 8 | _edges(white, i)]
    return (counts & 0xFF) - popcount(black & CORNERS), (counts >> 8) - popcount(white & CORNERS)


# ``standard``'s tables as arrays: the other cells' weight masks, and for each set of
# empty corners (4 bits, a1 h1 a8 h8) the X- and C-squares next to them.
_OTHER_WEIGHTS = np.array([weight for weight, _ in ev._OTHER_MASKS], dtype=np.int64)
_OTHER_MASKS = np.array([mask for _, mask in ev._OTHER_MASKS], dtype=np.uint64)
_CORNER_BITS = (0, 7, 56, 63)
_XC = np.zeros((16, 2), dtype=np.uint64)
for _subset in range(16):
    _empty = sum(1 << _CORNER_BITS[i] for i in range(4) if _subset >> i & 1)
    _XC[_subset, 0], _XC[_subset, 1] = ev._NEXT_TO_EMPTY_CORNERS[_empty]


@njit("int64(uint64, uint64)", cache=True)
def standard(own: np.uint64, opp: np.uint64) -> np.int64:
    """``standard`` for the side to move (``own``): the same int as
    :func:`games.othello.evaluation.standard` (finished games included)."""
    own = U(own)
    opp = U(opp)
    own_moves = popcount(legal_mask(own, opp))
    opp_moves = popcount(legal_mask(opp, own))
    disc_margin = popcount(own) - popcount(opp)
    if own_moves == 0 and opp_moves == 0:
        if disc_margin > 0:
            return 4000 + 16 * disc_margin
        if disc_margin < 0:
            return -4000 + 16 * disc_margin
        return 0
    occupied = own | opp
    empties = 64 - popcount(occupied)
    opening = empties if empties < 60 else 60
    end = 60 - opening
    corners = popcount(own & CORNERS) - popcount(opp & CORNERS)
    free = ~occupied
    subset = ((free & ONE) | ((free >> U(6)) & U(2)) | ((free >> U(54)) & U(4)) | ((free >> U(60)) & U(8)))
    x_mask = _XC[subset, 0]
    c_mask = _XC[subset, 1]
    x_squares = popcount(own & x_mask) - popcount(opp & x_mask)
    c_squares = popcount(own & c_mask) - popcount(opp & c_mask)
    table = np.int64(0)
    for i in range(_OTHER_WEIGHTS.shape[0]):
        mask = _OTHER_MASKS[i]
        table += _OTHER_WEIGHTS[i] * (popcount(own & mask) - popcount(opp & mask))
    moves = own_moves - opp_moves
    potential = popcount(_around(opp) & free) - popcount(_around(own) & free)
    own_stable, opp_stable = _stable_pair(own, opp)
    stable = own_stable - opp_stable
    parity = 1 if empties & 1 else -1
    total = opening * (100 * corners - 50 * x_squares - 20 * c_squares + table + 12 * moves
                       + 5 * potential + 10 * stable) + end * (
        50 * corners - 20 * x_squares - 8 * c_squares + 6 * moves + potential + 20 * stable
        + 8 * disc_margin + 30 * parity)
    score = total // 60
    if score > 3000:
        return 3000
    if score < -3000:
        return -3000
    return score


# ------------------------------------------------------------- the alpha-beta
@njit("int64(uint64, uint64, int64, int64, int64, int64, int64[::1])", cache=True)
def _negamax(own: np.uint64, opp: np.uint64, depth: np.int64, alpha: np.int64, beta: np.int64,
             ply: np.int64, nodes: np.ndarray) -> np.int64:
    nodes[0] += 1
    moves = legal_mask(own, opp)
    if ply:
        if not moves and not legal_mask(opp, own):
            margin = popcount(own) - popcount(opp)
            if margin > 0:
                return WIN - ply
            if margin < 0:
                return ply - WIN
            return 0
    if depth <= 0:
        return standard(own, opp)
    alpha0 = alpha
    best = -INF
    i = 0
    if not moves:  # a pass (the opponent has a move: a finished game returned above)
        return -_negamax(opp, own, depth - 1, -beta, -alpha, ply + 1, nodes)
    while moves:
        cell = lowest(moves)
        bit = ONE << U(cell)
        moves ^= bit
        flipped = flips(own, opp, cell)
        child_own = opp ^ flipped
        child_opp = own | flipped | bit
        if i or alpha > alpha0:
            value = -_negamax(child_own, child_opp, depth - 1, -alpha - 1, -alpha, ply + 1, nodes)
            if alpha < value < beta:
                value = -_negamax(child_own, child_opp, depth - 1, -beta, -alpha, ply + 1, nodes)
        else:
            value = -_negamax(child_own, child_opp, depth - 1, -beta, -alpha, ply + 1, nodes)
        i += 1
        if value > best:
            best = value
            if value > alpha:
                if value >= beta:
                    break
                alpha = value
    return best


@njit("UniTuple(int64, 2)(uint64, uint64, int64)", cache=True)
def negamax(own: np.uint64, opp: np.uint64, depth: np.int64) -> tuple[np.int64, np.int64]:
    """The root's value (full window) and the nodes searched, as the core counts them."""
    nodes = np.zeros(1, dtype=np.int64)
    value = _negamax(U(own), U(opp), depth, -INF, INF, 0, nodes)
    return value, nodes[0]


# ------------------------------------------------------------------ the solver
SHALLOW = pysolver.SHALLOW
MAX_VALUE = 64
TABLE_BITS = 21
#: Where in the cells' buffer a node's ordering keys sit, past its cells (more than any
#: branch of the line below it uses).
ORDER_KEYS = 64 * 32
_QUADRANT = np.array(pysolver._QUADRANT, dtype=np.int64)
_ODD_CELLS = np.array(pysolver._ODD_CELLS, dtype=np.uint64)
_NEIGHBOURS = np.array(pysolver._NEIGHBOURS, dtype=np.uint64)


@njit(cache=True, inline="always")
def _final(own: np.uint64, opp: np.uint64) -> np.int64:
    diff = popcount(own) - popcount(opp)
    empties = 64 - popcount(own | opp)
    if diff > 0:
        return diff + empties
    if diff < 0:
        return diff - empties
    return 0


@njit(cache=True, inline="always")
def _stable_opp(own: np.uint64, opp: np.uint64) -> np.int64:
    counts = np.int64(0)
    for i in range(4):
        counts += EDGE_STABLE[_edges(opp, i) << 8 | _edges(own, i)]
    return (counts & 0xFF) - popcount(opp & CORNERS)


@njit(cache=True)
def _last1(own: np.uint64, opp: np.uint64, cell: np.int64) -> np.int64:
    diff = popcount(own) - popcount(opp)
    n = popcount(flips(own, opp, cell)) if opp & _NEIGHBOURS[cell] else 0
    if n:
        return diff + 1 + 2 * n
    n = popcount(flips(opp, own, cell)) if own & _NEIGHBOURS[cell] else 0
    if n:
        return diff - 1 - 2 * n
    return diff + 1 if diff > 0 else diff - 1


@njit(cache=True, inline="always")
def _slot(own: np.uint64, opp: np.uint64, mask: np.uint64) -> np.int64:
    h = own * U(0x9E3779B97F4A7C15) ^ (opp * U(0xC2B2AE3D27D4EB4F))
    return np.int64((h ^ (h >> U(29))) & mask)


@njit("int64(uint64, uint64, int64, int64, int64, int64, int64[::1])", cache=True)
def _shallow(own, opp, alpha, beta, empties, parity, nodes):  # type: ignore[no-untyped-def]
    nodes[0] += 1
    empty = FULL ^ (own | opp)
    if empties > 3 and alpha >= 0:
        bound = MAX_VALUE - 2 * _stable_opp(own, opp)
        if bound <= alpha:
            return bound
    if empties > 3:
        odd = _ODD_CELLS[parity]
        n_groups = 4
    else:
        odd = FULL
        n_groups = 1
    best = -MAX_VALUE - 1
    for g in range(n_groups):
        if n_groups == 1:
            group = empty
        elif g == 0:
            group = empty & odd & CORNERS
        elif g == 1:
            group = empty & odd & ~CORNERS
        elif g == 2:
            group = empty & ~odd & CORNERS
        else:
            group = empty & ~odd & ~CORNERS
        while group:
            cell = lowest(group)
            low = ONE << U(cell)
            group ^= low
            if not opp & _NEIGHBOURS[cell]:
                continue
            flipped = flips(own, opp, cell)
            if not flipped:
                continue
            if empties == 2:
                nodes[0] += 1
                value = -_last1(opp ^ flipped, own | flipped | low, highest(empty ^ low))
            else:
                value = -_shallow(opp ^ flipped, own | flipped | low, -beta,
                                  -(alpha if alpha > best else best), empties - 1, parity ^ _QUADRANT[cell], nodes)
            if value > best:
                best = value
                if value >= beta:
                    return value
    if best > -MAX_VALUE - 1:
        return best
    if not legal_mask(opp, own):
        return _final(own, opp)
    return -_shallow(opp, own, -beta, -alpha, empties, parity, nodes)


@njit(cache=True)
def _store(keys, bounds, slot, own, opp, value, alpha, beta, move):  # type: ignore[no-untyped-def]
    if keys[slot, 0] == own and keys[slot, 1] == opp:
        lower = bounds[slot, 0]
        upper = bounds[slot, 1]
        old_move = bounds[slot, 2]
    else:
        lower = -MAX_VALUE
        upper = MAX_VALUE
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


@njit(cache=True)
def _order(own, opp, moves, first, cells, flipped_of, n_base):  # type: ignore[no-untyped-def]
    """Fastest-first into ``cells[n_base:]`` (their flips beside them, the keys in a
    row of ``cells`` further on, ``ORDER_KEYS`` ahead); the count."""
    keys = cells[n_base + ORDER_KEYS:]
    n = 0
    while moves:
        cell = lowest(moves)
        bit = ONE << U(cell)
        moves ^= bit
        flipped = flips(own, opp, cell)
        if cell == first:
            key = -1000
        else:
            child_own = opp ^ flipped
            child_opp = own | flipped | bit
            replies = legal_mask(child_own, child_opp)
            key = (4 * popcount(replies) + 2 * popcount(replies & CORNERS) - 8 * np.int64((CORNERS >> U(cell)) & ONE)
                   + popcount(FULL & ~(child_own | child_opp) & _around(child_opp))
                   - popcount(legal_mask(child_opp, child_own)))
        # insertion, stable on (key, cell) as Python's sort of the pairs
        j = n
        while j > 0 and keys[j - 1] > key:
            keys[j] = keys[j - 1]
            cells[n_base + j] = cells[n_base + j - 1]
            flipped_of[n_base + j] = flipped_of[n_base + j - 1]
            j -= 1
        keys[j] = key
        cells[n_base + j] = cell
        flipped_of[n_base + j] = flipped
        n += 1
    return n


@njit("int64(uint64, uint64, int64, int64, int64, int64, int64[::1], uint64[:, ::1], int64[:, ::1], "
      "uint64, int64[::1], uint64[::1], int64)", cache=True)
def _deep(own, opp, alpha, beta, empties, parity, nodes, keys, bounds, mask, cells, flipped_of, base):  # type: ignore[no-untyped-def]
    if empties <= SHALLOW:
        if empties > 1:
            return _shallow(own, opp, alpha, beta, empties, parity, nodes)
        nodes[0] += 1
        if empties:
            return _last1(own, opp, highest(FULL ^ (own | opp)))
        return _final(own, opp)
    nodes[0] += 1
    slot = _slot(own, opp, mask)
    first = PASS
    if keys[slot, 0] == own and keys[slot, 1] == opp:
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
        return -_deep(opp, own, -beta, -alpha, empties, parity, nodes, keys, bounds, mask, cells, flipped_of, base)
    if alpha >= 0:
        bound = MAX_VALUE - 2 * _stable_opp(own, opp)
        if bound <= alpha:
            return bound
    n = _order(own, opp, moves, first, cells, flipped_of, base)
    for i in range(n):  # enhanced transposition cutoffs
        cell = cells[base + i]
        flipped = flipped_of[base + i]
        child_own = opp ^ flipped
        child_opp = own | flipped | (ONE << U(cell))
        s = _slot(child_own, child_opp, mask)
        if keys[s, 0] == child_own and keys[s, 1] == child_opp and -bounds[s, 1] >= beta:
            return -bounds[s, 1]
    best = -MAX_VALUE - 1
    best_move = PASS
    alpha0 = alpha
    child_base = base + n
    for i in range(n):
        cell = cells[base + i]
        flipped = flipped_of[base + i]
        child_own = opp ^ flipped
        child_opp = own | flipped | (ONE << U(cell))
        child_parity = parity ^ _QUADRANT[cell]
        if best_move != PASS:
            value = -_deep(child_own, child_opp, -alpha - 1, -alpha, empties - 1, child_parity, nodes,
                           keys, bounds, mask, cells, flipped_of, child_base)
            if alpha < value < beta:
                value = -_deep(child_own, child_opp, -beta, -value, empties - 1, child_parity, nodes,
                               keys, bounds, mask, cells, flipped_of, child_base)
        else:
            value = -_deep(child_own, child_opp, -beta, -alpha, empties - 1, child_parity, nodes,
                           keys, bounds, mask, cells, flipped_of, child_base)
        if value > best:
            best = value
            best_move = cell
            if value > alpha:
                if value >= beta:
                    break
                alpha = value
    _store(keys, bounds, slot, own, opp, best, alpha0, beta, best_move)
    return best


@njit(cache=True)
def _parity_of(empty: np.uint64) -> np.int64:
    parity = 0
    for q in range(4):
        quadrant = np.int64(0)
        for cell in range(64):
            if (empty >> U(cell)) & ONE and _QUADRANT[cell] == 1 << q:
                quadrant += 1
        parity |= (quadrant & 1) << q
    return parity


@njit("UniTuple(int64, 3)(uint64, uint64, int64)", cache=True)
def solve(own: np.uint64, opp: np.uint64, table_bits: np.int64) -> tuple[np.int64, np.int64, np.int64]:
    """The exact value for ``own`` to move, a best move (64: a pass, -1: the game is
    over) and the nodes: the root searched with the full window, as
    :meth:`games.othello.solver.Solver.solve` without a guess."""
    own = U(own)
    opp = U(opp)
    size = 1 << table_bits
    keys = np.zeros((size, 2), dtype=np.uint64)
    bounds = np.zeros((size, 3), dtype=np.int64)
    mask = U(size - 1)
    cells = np.empty(2 * ORDER_KEYS + 64, dtype=np.int64)
    flipped_of = np.empty(64 * 32, dtype=np.uint64)
    nodes = np.zeros(1, dtype=np.int64)
    empties = 64 - popcount(own | opp)
    parity = _parity_of(FULL ^ (own | opp))
    moves = legal_mask(own, opp)
    if not moves:
        if not legal_mask(opp, own):
            return _final(own, opp), -1, 1
        nodes[0] += 1
        value = -_deep(opp, own, -MAX_VALUE, MAX_VALUE, empties, parity, nodes, keys, bounds, mask,
                       cells, flipped_of, 0)
        return value, PASS, nodes[0]
    nodes[0] += 1
    n = _order(own, opp, moves, PASS, cells, flipped_of, 0)
    alpha = -MAX_VALUE
    beta = MAX_VALUE
    best = -MAX_VALUE - 1
    best_move = PASS
    for i in range(n):
        cell = cells[i]
        flipped = flipped_of[i]
        child_own = opp ^ flipped
        child_opp = own | flipped | (ONE << U(cell))
        child_parity = parity ^ _QUADRANT[cell]
        lower = max(alpha, best)
        if best_move != PASS:
            value = -_deep(child_own, child_opp, -lower - 1, -lower, empties - 1, child_parity, nodes,
                           keys, bounds, mask, cells, flipped_of, n)
            if lower < value < beta:
                value = -_deep(child_own, child_opp, -beta, -value, empties - 1, child_parity, nodes,
                               keys, bounds, mask, cells, flipped_of, n)
        else:
            value = -_deep(child_own, child_opp, -beta, -lower, empties - 1, child_parity, nodes,
                           keys, bounds, mask, cells, flipped_of, n)
        if value > best:
            best = value
            best_move = cell
            if value >= beta:
                break
    return best, best_move, nodes[0]
