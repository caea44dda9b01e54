"""Quixo's board geometry and move table.

Cell ``(col, row)`` is bit ``row * SIZE + col``.  Every move (a border cube
and the edge it is pushed in at) is precomputed once as a :class:`QuixoMove`
with the masks that shift its row or column.
"""

from __future__ import annotations

import re
from typing import NamedTuple

#: The board is ``SIZE`` x ``SIZE``.
SIZE = 5
#: The four edges a cube can be pushed in at, in move-table order.
EDGES: tuple[str, ...] = ("top", "bottom", "left", "right")

FULL = (1 << 25) - 1


def bit(col: int, row: int) -> int:
    return 1 << (row * SIZE + col)


CELLS = [(col, row) for row in range(SIZE) for col in range(SIZE)]
#: Masks of the 16 border cells, the 4 corners, the centre and the 9 inner cells.
BORDER = sum(bit(c, r) for c, r in CELLS if c in (0, 4) or r in (0, 4))
CORNERS = bit(0, 0) | bit(4, 0) | bit(0, 4) | bit(4, 4)
CENTRE = bit(2, 2)
INNER = FULL & ~BORDER

ROWS = tuple(sum(bit(c, r) for c in range(SIZE)) for r in range(SIZE))
COLS = tuple(sum(bit(c, r) for r in range(SIZE)) for c in range(SIZE))
DIAG = sum(bit(i, i) for i in range(SIZE))  # top-left to bottom-right
ANTI = sum(bit(SIZE - 1 - i, i) for i in range(SIZE))  # top-right to bottom-left
#: The 12 lines (5 rows, 5 columns, 2 diagonals) as bitmasks.
LINES: tuple[int, ...] = ROWS + COLS + (DIAG, ANTI)
#: Bits at column 0 of every row: where a full row shows after the row test.
ROW_STARTS = sum(bit(0, r) for r in range(SIZE))


def has_five(b: int) -> bool:
    """True if bitboard ``b`` fills a row, a column or a diagonal."""
    return bool(
        (b & (b >> 1) & (b >> 2) & (b >> 3) & (b >> 4) & ROW_STARTS)
        or (b & (b >> 5) & (b >> 10) & (b >> 15) & (b >> 20))
        or (b & DIAG) == DIAG
        or (b & ANTI) == ANTI
    )


class QuixoMove(NamedTuple):
    """One entry of the move table: what move ``index`` does."""

    #: The move's number (it shadows ``tuple.index``, which no one calls on a move).
    index: int  # type: ignore[assignment]
    col: int
    row: int
    edge: str
    #: The cube taken from the border.
    source: int
    #: The cell where it goes back in, at ``edge``.
    target: int
    #: Cells that keep their cube: everything outside the source-target segment.
    keep: int
    #: Cells whose cubes shift by one towards the source (target side, source excluded).
    shifted: int
    #: The shift of those cubes, as ``(x << up) >> down`` with one of them 0.
    up: int
    down: int


def build_moves() -> tuple[QuixoMove, ...]:
    moves: list[QuixoMove] = []
    for col, row in CELLS:
        if not (col in (0, 4) or row in (0, 4)):
            continue
        for edge in EDGES:
            if edge == "top" and row != 0:
                target, cells, up, down = (col, 0), [(col, r) for r in range(row)], 5, 0
            elif edge == "bottom" and row != 4:
                target, cells, up, down = (col, 4), [(col, r) for r in range(row + 1, 5)], 0, 5
            elif edge == "left" and col != 0:
                target, cells, up, down = (0, row), [(c, row) for c in range(col)], 1, 0
            elif edge == "right" and col != 4:
                target, cells, up, down = (4, row), [(c, row) for c in range(col + 1, 5)], 0, 1
            else:
                continue  # back where it came from
            shifted = sum(bit(c, r) for c, r in cells)
            source = bit(col, row)
            moves.append(
                QuixoMove(
                    len(moves), col, row, edge, source, bit(*target),
                    FULL & ~(shifted | source), shifted, up, down,
                )
            )
    return tuple(moves)


#: The 44 moves, indexed by the move int, in row-major order of their source cube.
MOVES: tuple[QuixoMove, ...] = build_moves()
assert len(MOVES) == 44
MOVE_INDEX: dict[tuple[int, int, str], int] = {(m.col, m.row, m.edge): m.index for m in MOVES}
#: Per move: (keep, shifted, up, down, target), what play() needs.
PLAY: tuple[tuple[int, int, int, int, int], ...] = tuple(
    (m.keep, m.shifted, m.up, m.down, m.target) for m in MOVES
)
TEXT: tuple[str, ...] = tuple(f"{m.col} {m.row} {m.edge}" for m in MOVES)

# legal_moves(): the moves of the mover depend only on which border cubes the
# opponent owns.  The border is split in two parts (rows 0-1 and rows 2-4, 7 and
# 9 cells) with every subset of each precomputed; the list is two lookups and a
# concatenation, in row-major order.
BORDER_TOP = BORDER & (ROWS[0] | ROWS[1])
BORDER_BOTTOM = BORDER & ~BORDER_TOP


def subsets(mask: int) -> list[int]:
    subsets, sub = [], mask
    while True:
        subsets.append(sub)
        if sub == 0:
            return subsets
        sub = (sub - 1) & mask


def moves_avoiding(part: int) -> dict[int, list[int]]:
    return {
        opp: [m.index for m in MOVES if m.source & part and not m.source & opp]
        for opp in subsets(part)
    }


MOVES_TOP = moves_avoiding(BORDER_TOP)
MOVES_BOTTOM = moves_avoiding(BORDER_BOTTOM)

EDGE_WORDS = {edge[:n]: edge for edge in EDGES for n in range(1, len(edge) + 1)}
MOVE_RE = re.compile(
    r"(?:\(\s*(?P<pc>[0-9]+)[\s,]+(?P<pr>[0-9]+)\s*\)|(?P<col>[0-9]+)[\s,]+(?P<row>[0-9]+))"
    r"[\s,]*(?<=[\s,)])(?P<edge>[a-z]+)",
    re.ASCII | re.IGNORECASE,
)
SYMBOLS = "XO"
NO_WINNER = -1


