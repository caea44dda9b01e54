"""Othello bitboards: cells, masks, move generation, flips and edge stability.

Cell ``(col, row)`` -- column ``a``-``h`` is ``col`` 0-7, row ``1``-``8`` is
``row`` 0-7 with row 1 at the top -- is bit ``row * 8 + col`` of a Python int:
``a1`` is bit 0, ``h1`` bit 7, ``a8`` bit 56, ``h8`` bit 63.  A shift by 1
moves a disc one column right, by 8 one row down, by 9 and 7 diagonally down
right and down left; the opposite shifts go the other way.

Shifts along a row or a diagonal would wrap from one row's end to the next
row's start.  Move generation masks the opponent's discs to the columns b-g
(:data:`INNER_COLUMNS`) for those six directions: a run of opponent discs in
such a direction then never reaches column a or h, so the cell after it is
on the same line.  Vertical shifts need no mask; bits shifted past bit 63
are cut by the ``&`` with a 64-bit mask that always follows.
"""

from __future__ import annotations

#: The board is ``SIZE`` x ``SIZE``.
SIZE = 8
#: All 64 cells.
FULL = (1 << 64) - 1
#: The move value of a pass (cells are 0-63).
PASS = 64

COLUMN_LETTERS = "abcdefgh"


def cell_index(col: int, row: int) -> int:
    """The cell number (bit index) of ``(col, row)``, both 0-7, row 0 being row ``1``."""
    return row * SIZE + col


def cell_name(cell: int) -> str:
    """``'a1'`` for cell 0, ``'h8'`` for cell 63."""
    return COLUMN_LETTERS[cell & 7] + str((cell >> 3) + 1)


#: ``CELL_NAMES[cell]`` and its inverse.
CELL_NAMES: tuple[str, ...] = tuple(cell_name(cell) for cell in range(64))
CELL_OF_NAME: dict[str, int] = {name: cell for cell, name in enumerate(CELL_NAMES)}


def mask_of(names: str) -> int:
    """The mask of the cells named in a space-separated list, e.g. ``'a1 h8'``."""
    mask = 0
    for name in names.split():
        mask |= 1 << CELL_OF_NAME[name]
    return mask


COLUMN_A = 0x0101010101010101
COLUMN_H = COLUMN_A << 7
ROW_1 = 0xFF
ROW_8 = ROW_1 << 56
#: Columns b-g: where a disc may sit inside a run along a row or a diagonal.
INNER_COLUMNS = FULL & ~(COLUMN_A | COLUMN_H)
NOT_COLUMN_A = FULL & ~COLUMN_A
NOT_COLUMN_H = FULL & ~COLUMN_H

#: The four corners, the X-squares (diagonally next to a corner) and the
#: C-squares (next to a corner along an edge).
CORNERS = mask_of("a1 h1 a8 h8")
X_SQUARES = mask_of("b2 g2 b7 g7")
C_SQUARES = mask_of("b1 a2 g1 h2 a7 b8 h7 g8")
#: The 28 cells of the four edges (corners included).
EDGES = COLUMN_A | COLUMN_H | ROW_1 | ROW_8
#: Per corner: its bit, and the X-square and C-squares that stand next to it.
CORNER_NEIGHBOURS: tuple[tuple[int, int, int], ...] = (
    (mask_of("a1"), mask_of("b2"), mask_of("b1 a2")),
    (mask_of("h1"), mask_of("g2"), mask_of("g1 h2")),
    (mask_of("a8"), mask_of("b7"), mask_of("a7 b8")),
    (mask_of("h8"), mask_of("g7"), mask_of("h7 g8")),
)

#: The start: White on d4 and e5, Black on e4 and d5.
START_BLACK = mask_of("e4 d5")
START_WHITE = mask_of("d4 e5")


# ------------------------------------------------------------- move generation
def legal_mask(own: int, opp: int) -> int:
    """The empty cells where the side with discs ``own`` may place a disc: those
    from which, in some direction, one or more ``opp`` discs run up to an
    ``own`` disc.

    For each pair of opposite directions, the runs of ``opp`` discs adjacent
    to ``own`` discs are flood-filled away from them: two single steps, then
    two doubled steps along pairs of ``opp`` discs (runs of up to six discs,
    the most a line of eight holds between two cells).  The cells just past
    the runs that are empty are the moves.
    """
    empty = FULL ^ (own | opp)
    inner = opp & INNER_COLUMNS
    # Along a row: shifts by 1.
    left = inner & (own << 1)
    right = inner & (own >> 1)
    left |= inner & (left << 1)
    right |= inner & (right >> 1)
    pair_left = inner & (inner << 1)
    pair_right = pair_left >> 1
    left |= pair_left & (left << 2)
    right |= pair_right & (right >> 2)
    left |= pair_left & (left << 2)
    right |= pair_right & (right >> 2)
    moves = (left << 1) | (right >> 1)
    # Along a column: shifts by 8 (no wrap, no mask).
    left = opp & (own << 8)
    right = opp & (own >> 8)
    left |= opp & (left << 8)
    right |= opp & (right >> 8)
    pair_left = opp & (opp << 8)
    pair_right = pair_left >> 8
    left |= pair_left & (left << 16)
    right |= pair_right & (right >> 16)
    left |= pair_left & (left << 16)
    right |= pair_right & (right >> 16)
    moves |= (left << 8) | (right >> 8)
    # Down-left / up-right diagonals: shifts by 7.
    left = inner & (own << 7)
    right = inner & (own >> 7)
    left |= inner & (left << 7)
    right |= inner & (right >> 7)
    pair_left = inner & (inner << 7)
    pair_right = pair_left >> 7
    left |= pair_left & (left << 14)
    right |= pair_right & (right >> 14)
    left |= pair_left & (left << 14)
    right |= pair_right & (right >> 14)
    moves |= (left << 7) | (right >> 7)
    # Down-right / up-left diagonals: shifts by 9.
    left = inner & (own << 9)
    right = inner & (own >> 9)
    left |= inner & (left << 9)
    right |= inner & (right >> 9)
    pair_left = inner & (inner << 9)
    pair_right = pair_left >> 9
    left |= pair_left & (left << 18)
    right |= pair_right & (right >> 18)
    left |= pair_left & (left << 18)
    right |= pair_right & (right >> 18)
    moves |= (left << 9) | (right >> 9)
    return moves & empty


def flips(own: int, opp: int, move: int) -> int:
    """The ``opp`` discs that a disc of ``own`` placed on cell ``move`` turns over
    (0 if it brackets none: then the placement is illegal).

    In each of the eight directions, walk from the new disc over ``opp`` discs
    (masked to columns b-g for the directions that cross columns); the run
    turns over if the cell just past it holds an ``own`` disc.
    """
    placed = 1 << move
    inner = opp & INNER_COLUMNS
    flipped = 0
    # Shifts towards higher cells: right (1), down-left (7), down (8), down-right (9).
    for shift, line in ((1, inner), (7, inner), (8, opp), (9, inner)):
        run = 0
        step = (placed << shift) & line
        while step:
            run |= step
            step = (step << shift) & line
        if (run << shift) & own:
            flipped |= run
    # Shifts towards lower cells: left, up-right, up, up-left.
    for shift, line in ((1, inner), (7, inner), (8, opp), (9, inner)):
        run = 0
        step = (placed >> shift) & line
        while step:
            run |= step
            step = (step >> shift) & line
        if (run >> shift) & own:
            flipped |= run
    return flipped


def neighbours(discs: int) -> int:
    """The cells next to (in any of the eight directions) some cell of ``discs``,
    ``discs`` themselves possibly included."""
    row = discs | ((discs & NOT_COLUMN_H) << 1) | ((discs & NOT_COLUMN_A) >> 1)
    return (row | (row << 8) | (row >> 8)) & FULL


def potential_mobility(own: int, opp: int) -> int:
    """The number of empty cells next to an ``opp`` disc: where ``own`` may get
    moves later (the usual "potential mobility")."""
    return (neighbours(opp) & ~(own | opp) & FULL).bit_count()


# ------------------------------------------------------------- edge stability
# An edge disc lies inside only one line, the edge itself (every other line
# through it ends there), so it can be turned over only along the edge.  Two
# simple cases make it stable for good: the edge is full, or the disc belongs
# to the run of discs of one colour that starts at a corner (the run can never
# be bracketed: its end is the corner).  Those are the stable discs counted.
# The table gives, for an edge read as a byte per colour, the number of stable
# discs of each colour packed as ``black | white << 8``: entries of the four
# edges add up without carries (at most 32 per colour).


def _edge_stable(black: int, white: int) -> tuple[int, int]:
    """Stable discs (as bytes) of each colour on one edge of 8 cells."""
    if black | white == 0xFF:
        return black, white
    stable = [0, 0]
    for start, step in ((0, 1), (7, -1)):
        first = 1 << start
        colour = 0 if black & first else 1 if white & first else None
        if colour is None:
            continue
        discs = (black, white)[colour]
        cell = start
        while 0 <= cell < 8 and discs >> cell & 1:
            stable[colour] |= 1 << cell
            cell += step
    return stable[0], stable[1]


def _build_edge_table() -> list[int]:
    table = [0] * (1 << 16)
    for black in range(256):
        others = 0xFF ^ black
        white = others
        while True:  # every subset of the cells black leaves free
            b, w = _edge_stable(black, white)
            table[black << 8 | white] = b.bit_count() | w.bit_count() << 8
            if not white:
                break
            white = (white - 1) & others
    return table


#: ``EDGE_STABLE[black_byte << 8 | white_byte]``: the numbers of stable discs of
#: each colour on an edge, ``black | white << 8`` (0 for overlapping bytes).
EDGE_STABLE: list[int] = _build_edge_table()

#: Gathers the cells of column a (bits 0, 8, ..., 56) into bits 56-63, in order.
_GATHER = 0x0102040810204080


def edge_bytes(discs: int) -> tuple[int, int, int, int]:
    """The four edges of ``discs`` as bytes: row 1, row 8, column a, column h
    (cell ``k`` of an edge, counted from row 1 or column a, is bit ``k``)."""
    return (
        discs & 0xFF,
        discs >> 56,
        ((discs & COLUMN_A) * _GATHER >> 56) & 0xFF,
        (((discs >> 7) & COLUMN_A) * _GATHER >> 56) & 0xFF,
    )


def stable_counts(black: int, white: int) -> tuple[int, int]:
    """The edge-stable discs of Black and of White (see the table above): runs
    of one colour from a corner along an edge, and every disc of a full edge.
    A corner, on two edges, is counted once."""
    table = EDGE_STABLE
    b_row1, b_row8, b_col_a, b_col_h = edge_bytes(black)
    w_row1, w_row8, w_col_a, w_col_h = edge_bytes(white)
    counts = (
        table[b_row1 << 8 | w_row1]
        + table[b_row8 << 8 | w_row8]
        + table[b_col_a << 8 | w_col_a]
        + table[b_col_h << 8 | w_col_h]
    )
    return (
        (counts & 0xFF) - (black & CORNERS).bit_count(),
        (counts >> 8) - (white & CORNERS).bit_count(),
    )
