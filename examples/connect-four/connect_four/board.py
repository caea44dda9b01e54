"""The Connect Four board as the app draws it: columns ``a``-``g``, rows ``6`` (top) to ``1``.

A blue frame of round holes, never turned (the discs fall down for both players).  Red and
yellow discs (``R``/``Y`` where glyphs misrender); the disc the last move dropped is tinted.
A move is pointed at by choosing the cell its disc would land on.
"""

from __future__ import annotations

from typing import Any

from games.board import BoardColours, BoardDescription, BoardLayout, Cell, Piece, Square, Tint

from .game import COLUMNS, LETTERS, ROWS, ConnectFour

__all__ = ["ConnectFourBoard"]

DISCS = (Piece("●", "R", 0), Piece("●", "Y", 1))


class ConnectFourBoard(BoardDescription[ConnectFour]):
    """The Connect Four board: cells ``(col, row)`` with row 0 at the top."""

    #: Discs on the board, for the material line.
    MATERIAL = {"R": 1, "Y": 1}
    layout = BoardLayout(
        columns=COLUMNS, rows=ROWS, column_labels=list(LETTERS),
        row_labels=[str(ROWS - row) for row in range(ROWS)],
        colours=BoardColours(light="#1f4fa8", dark="#1c489b", tints={Tint.TO: ("#5f8fe0", "#5a88d8")},
                             pieces=("#e8322b", "#f5d523"), neutral="#ffffff"),
        empty_glyph="○", empty_letter=".",
        turns_for_players=False,
    )

    def squares(self, game: ConnectFour) -> list[list[Square]]:
        stack = game.move_stack
        last = (stack[-1], ROWS - game.height(stack[-1])) if stack else None
        grid = []
        for row in range(ROWS):
            bottom_row = ROWS - 1 - row
            line = []
            for col in range(COLUMNS):
                bit = 1 << (col * (ROWS + 1) + bottom_row)
                side = 0 if game.discs(0) & bit else 1 if game.discs(1) & bit else None
                line.append(Square((col + row) % 2 == 0, DISCS[side] if side is not None else None,
                                   tint=Tint.TO if (col, row) == last else None))
            grid.append(line)
        return grid

    def move_cells(self, game: ConnectFour, move: Any) -> tuple[Cell, Cell] | None:
        cell = (move, ROWS - 1 - game.height(move))  # where the disc lands, counted from the top
        return cell, cell

    def cell_name(self, cell: Cell) -> str:
        return f"{LETTERS[cell[0]]}{ROWS - cell[1]}"

    def typed_move(self, start: Cell, end: Cell) -> str | None:
        return LETTERS[start[0]] if start[0] == end[0] else None
