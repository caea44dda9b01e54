"""The Othello board as front ends draw it: columns ``a``-``h``, rows ``1``-``8`` from the top.

A green board, never turned (cells are typed as read).  Discs ``●`` in their
side's colour, or ``B``/``W`` where glyphs misrender; the cells where the
side to move may place a disc show a small dot (``+`` in ASCII).  The disc
the last move placed is tinted, and more lightly the discs it turned over.
A placement is pointed at by one choice of its cell; a pass is typed.
"""

from __future__ import annotations

from ..board import BoardColours, BoardDescription, BoardLayout, Cell, Piece, Square, Tint
from .bitboards import COLUMN_LETTERS, PASS, SIZE, cell_index, cell_name
from .game import Othello

__all__ = ["OthelloBoard"]

#: The discs of Black and White, and the dot on a cell the side to move may play.
DISCS = (Piece("●", "B", 0), Piece("●", "W", 1, outline="○"))
PLAYABLE = Piece("·", "+", None)


class OthelloBoard(BoardDescription[Othello]):
    """The Othello board."""

    #: Discs on the board: what decides the game.
    MATERIAL = {"B": 1, "W": 1}
    layout = BoardLayout(
        columns=SIZE, rows=SIZE, column_labels=list(COLUMN_LETTERS), row_labels=[str(row) for row in range(1, 9)],
        colours=BoardColours(
            light="#2f7d3b", dark="#2a7435",
            tints={Tint.TO: ("#8fae3a", "#8fae3a"), Tint.ALONG: ("#4f9a4a", "#4a9245")},
            pieces=("#000000", "#ffffff"), neutral="#b9e0b2",
        ),
        empty_letter=".",
        turns_for_players=False,
    )

    def squares(self, game: Othello) -> list[list[Square]]:
        stack = game.move_stack
        placed = stack[-1] if stack and stack[-1] != PASS else None
        flipped = game.last_flipped()
        playable = game.mobility() if game.outcome() is None else 0
        grid = []
        for row in range(SIZE):
            line = []
            for col in range(SIZE):
                cell = cell_index(col, row)
                bit = 1 << cell
                tint = Tint.TO if cell == placed else Tint.ALONG if bit & flipped else None
                owner = game.piece_at(cell)
                piece = DISCS[owner] if owner is not None else PLAYABLE if bit & playable else None
                line.append(Square((col + row) % 2 == 0, piece, tint=tint))
            grid.append(line)
        return grid

    def move_cells(self, game: Othello, move: int) -> tuple[Cell, Cell] | None:
        if move == PASS:
            return None
        cell = (move % SIZE, move // SIZE)
        return cell, cell

    def cell_name(self, cell: Cell) -> str:
        return cell_name(cell_index(*cell))

    def typed_move(self, start: Cell, end: Cell) -> str | None:
        return self.cell_name(start) if start == end else None
