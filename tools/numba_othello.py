"""A numba prototype of Othello's hot path, to decide by measurement (issue 41).

Not imported by the package: run it with a Python that has numba (the ``fast``
extra: ``pip install -e '.[fast]'``).  Everything here is compiled with ``@njit(cache=True)`` and
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
- :func:`solve`: the exact endgame solver, compiled -- shipped now as
  :mod:`games.othello.compiled` (the package's optional fast path), which also
  holds the primitives :func:`legal_mask` and :func:`flips` used here.

``tools/bench_numba.py check`` compares every compiled function with the
pure-Python one on random positions; its other sections measure.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.othello import evaluation as ev
from games.othello import compiled
from games.othello.compiled import _around, _edge, _lowest, _popcount, flips, legal_mask

U = np.uint64
ONE, CORNERS, EDGE_STABLE = compiled._ONE, compiled._CORNERS, compiled._EDGE_STABLE  # the package's, as uint64
WIN = 1_000_000
INF = 10 * WIN



# The bit intrinsics and the primitives are the package's (games.othello.compiled).
popcount = _popcount
lowest = _lowest
_edges = _edge


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
#: The package's table size (the prototype measured 21 bits in docs/benchmarks.md).
TABLE_BITS = compiled.TABLE_BITS


def solve(own: int, opp: int, table_bits: int = TABLE_BITS) -> tuple[int, int, int]:
    """The compiled solver of the package (games.othello.compiled; ``table_bits`` is
    its own now): the value, a best move (64: a pass, -1: the game is over), the nodes."""
    solution = compiled.solve(own, opp)
    return solution.value, -1 if solution.move is None else solution.move, solution.nodes
