"""The Kalah board as the app draws it: North's pits on top, South's below, a store at each end.

Eight columns: North's store on the left, the six pits, South's store on the right; two rows.
South's pits read ``a``-``f`` left to right along the bottom, North's ``a``-``f`` right to left
along the top (each side names its pits from its own left).  A pit shows its seeds as a number,
in its side's colour; the pits the last move sowed into are tinted.  A move is pointed at by
choosing one of the mover's pits.
"""

from __future__ import annotations

from typing import Any

from games.board import BoardColours, BoardDescription, BoardLayout, Cell, Piece, Square, Tint

from .game import LETTERS, Kalah

__all__ = ["KalahBoard"]


def _seeds(count: int, side: int) -> Piece | None:
    return Piece(str(count), str(count), side) if count else None


class KalahBoard(BoardDescription[Kalah]):
    """The board of six pits a side (the standard start's size: the app plays the standard board)."""

    layout = BoardLayout(
        columns=8, rows=2, column_labels=["", *LETTERS[:6], ""],
        row_labels=["N", "S"],
        colours=BoardColours(light="#8a5a2b", dark="#7d5126", tints={Tint.TO: ("#b7864f", "#ad7d47")},
                             pieces=("#ffffff", "#f5d523"), neutral="#ffffff"),
        empty_glyph="·", empty_letter=".",
        turns_for_players=False,
    )

    def squares(self, game: Kalah) -> list[list[Square]]:
        n = game.size
        sown: set[int] = set()
        if game.ply:
            before = game.copy()
            before.undo()
            sown = {cell for cell, (was, now) in enumerate(zip(before.board, game.board)) if now > was}
        def pit(side: int, j: int) -> Square:  # ``side``'s pit ``j`` (none past a small board's)
            light = (j + side) % 2 == 0
            if j >= n:
                return Square(light)
            cell = side * (n + 1) + j
            return Square(light, _seeds(game.board[cell], side), tint=Tint.TO if cell in sown else None)

        top = [Square(True, _seeds(game.store(1), 1), tint=Tint.TO if 2 * n + 1 in sown else None)]
        top += [pit(1, 6 - col) for col in range(1, 7)]
        top.append(Square(True))
        bottom = [Square(True), *(pit(0, col - 1) for col in range(1, 7))]
        bottom.append(Square(True, _seeds(game.store(0), 0), tint=Tint.TO if n in sown else None))
        return [top, bottom]

    def move_cells(self, game: Kalah, move: Any) -> tuple[Cell, Cell] | None:
        cell = (move + 1, 1) if game.turn == 0 else (6 - move, 0)
        return cell, cell

    def cell_name(self, cell: Cell) -> str:
        col, row = cell
        if col == 0 or col == 7:
            return "North's store" if col == 0 else "South's store"
        return f"{'NS'[row]} {LETTERS[col - 1 if row else 6 - col]}"

    def typed_move(self, start: Cell, end: Cell) -> str | None:
        col, row = start
        if start != end or not 1 <= col <= 6:
            return None
        return LETTERS[col - 1] if row == 1 else LETTERS[6 - col]
