"""The Quixo board as front ends draw it: the indices and edges of the move notation.

The 5x5 board with the 0-based column and row indices of ``COL ROW EDGE``
(``(0, 0)`` top-left) and the edge names ``top``/``bottom``/``left``/``right``
beside it, so that a move can be typed by reading it off; never turned (the
numbers are typed as read).  Cubes ``X`` and ``O`` in their side's colour, a
blank cube ``·`` (``.`` in ASCII).  The last move's source (the cube taken)
and target (where it was pushed back in) are tinted, the rest of the line it
shifted more lightly.  A move is pointed at by the cube and the cell on the
edge it goes back in at.
"""

from __future__ import annotations

from ..board import BoardColours, BoardDescription, BoardLayout, Cell, Piece, Square, Tint
from .game import Quixo
from .moves import MOVES, SIZE

__all__ = ["QuixoBoard"]

#: The cubes of X and O.
CUBES = (Piece("X", "X", 0), Piece("O", "O", 1))


class QuixoBoard(BoardDescription[Quixo]):
    """The Quixo board."""

    #: Cubes of each side's symbol on the board.
    MATERIAL = {"X": 1, "O": 1}
    layout = BoardLayout(
        columns=SIZE, rows=SIZE, column_labels=[str(col) for col in range(SIZE)],
        row_labels=[str(row) for row in range(SIZE)],
        colours=BoardColours(
            light="#d6c29a", dark="#c7b084",
            tints={Tint.FROM: ("#e3b55a", "#e3b55a"), Tint.TO: ("#e8d54a", "#e8d54a"),
                   Tint.ALONG: ("#dfd092", "#d2c07c")},
            pieces=("#b0201a", "#1a4c9a"), neutral="#7a6a4a",
        ),
        edge_captions=("top", "bottom", "left", "right"),
        empty_glyph="·", empty_letter=".",
        turns_for_players=False,
    )

    def squares(self, game: Quixo) -> list[list[Square]]:
        source = target = shifted = 0
        if game.move_stack:
            move = MOVES[game.move_stack[-1]]
            source, target, shifted = move.source, move.target, move.shifted
        grid = []
        for row in range(SIZE):
            line = []
            for col in range(SIZE):
                bit = 1 << (row * SIZE + col)
                tint = (Tint.TO if bit & target else Tint.FROM if bit & source
                        else Tint.ALONG if bit & shifted else None)
                owner = game.piece_at(col, row)
                line.append(Square((col + row) % 2 == 0, None if owner is None else CUBES[owner], tint=tint))
            grid.append(line)
        return grid

    def move_cells(self, game: Quixo, move: int) -> tuple[Cell, Cell]:
        quixo_move = MOVES[move]
        target = quixo_move.target.bit_length() - 1
        return (quixo_move.col, quixo_move.row), (target % SIZE, target // SIZE)

    def cell_name(self, cell: Cell) -> str:
        return f"cell {cell[0]} {cell[1]}"

    def typed_move(self, start: Cell, end: Cell) -> str | None:
        (col, row), (to_col, to_row) = start, end
        last = SIZE - 1
        if row == to_row and to_col in (0, last) and to_col != col:
            edge = "left" if to_col == 0 else "right"
        elif col == to_col and to_row in (0, last) and to_row != row:
            edge = "top" if to_row == 0 else "bottom"
        else:
            return None
        return f"{col} {row} {edge}"
