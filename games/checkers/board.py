"""The checkerboard as front ends draw it: PDN numbers on the dark squares, White at the bottom.

Square 1 is at the top, as in the game's own diagram (Black, who moves first,
starts on 1-12 at the top); files and ranks are dimmed around the board (the
numbers are what moves are typed with).  Men ``●``, kings ``◉`` in their
side's colour, or the letters ``b``/``B`` (Black) and ``w``/``W`` (White)
where glyphs misrender.  Every square of the last move's path is tinted and
the squares of the pieces it took.  A move is pointed at by its first and
last squares; a multi-jump reaching the same square by two paths is one of
several moves between them.
"""

from __future__ import annotations

import chess

from ..board import BoardColours, BoardDescription, BoardLayout, Cell, Piece, Square, Tint
from .bitboards import SQUARES, Move, square_coords
from .game import Checkers

__all__ = ["CheckersBoard"]

#: The pieces by the letter :meth:`Checkers.piece_at` gives.
PIECES: dict[str, Piece] = {
    "b": Piece("●", "b", 0), "B": Piece("◉", "B", 0),
    "w": Piece("●", "w", 1, outline="○"), "W": Piece("◉", "W", 1, outline="◎"),
}
#: The cell of each PDN square, and the square of each dark cell.
CELLS: dict[int, Cell] = {square: square_coords(square)[::-1] for square in SQUARES}
NUMBERS: dict[Cell, int] = {cell: square for square, cell in CELLS.items()}


class CheckersBoard(BoardDescription[Checkers]):
    """The English checkerboard."""

    #: Men, as players count: a king is worth about a man and a half.
    MATERIAL = {"B": 1.5, "b": 1, "W": 1.5, "w": 1}
    TAKES = True
    KINDS = {"b": "man", "w": "man", "B": "king", "W": "king"}
    layout = BoardLayout(
        columns=8, rows=8, column_labels=chess.FILE_NAMES, row_labels=chess.RANK_NAMES[::-1],
        colours=BoardColours(
            light="#d8c7a3", dark="#5b7c4e",
            tints={Tint.FROM: ("#8f8a2e", "#8f8a2e"), Tint.TO: ("#8f8a2e", "#8f8a2e"),
                   Tint.TAKEN: ("#9a4a3a", "#9a4a3a")},
            pieces=("#000000", "#ffffff"), neutral="#000000", label="#c9dcbf",
        ),
        dim_labels=True,
        bottom_side=1,
    )

    def squares(self, game: Checkers) -> list[list[Square]]:
        grid = [[Square(True)] * 8 for _ in range(8)]
        tints: dict[int, Tint] = {}
        stack = game.move_stack
        if stack:
            path, taken = stack[-1]
            tints.update((square, Tint.TAKEN) for square in SQUARES if taken >> (square - 1) & 1)
            tints.update((square, Tint.TO) for square in path)
            tints[path[0]] = Tint.FROM
        for square, (col, row) in CELLS.items():
            piece = game.piece_at(square)
            grid[row][col] = Square(False, None if piece is None else PIECES[piece], str(square), tints.get(square))
        return grid

    def move_cells(self, game: Checkers, move: Move) -> tuple[Cell, Cell]:
        squares = move[0]
        return CELLS[squares[0]], CELLS[squares[-1]]

    def cell_name(self, cell: Cell) -> str:
        number = NUMBERS.get(cell)
        return "a light square (pieces stay on the numbered ones)" if number is None else f"square {number}"

    def typed_move(self, start: Cell, end: Cell) -> str | None:
        first, last = NUMBERS.get(start), NUMBERS.get(end)
        if first is None or last is None or start == end:
            return None
        return f"{first}{'-' if abs(start[1] - end[1]) == 1 else 'x'}{last}"
