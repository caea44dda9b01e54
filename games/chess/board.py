"""The chessboard as front ends draw it: files ``a``-``h``, ranks ``1``-``8``, White at the bottom.

Pieces are the solid Unicode glyphs (``♚♛♜♝♞♟``) in their side's colour, or
the FEN letters ``KQRBNP``/``kqrbnp`` (``.`` on an empty square) where glyphs
misrender.  The last move's from and to squares are tinted, the king in
check is alerted.  A move is pointed at by its from and to squares; a
promotion is one of several moves between the same two squares.
"""

from __future__ import annotations

import chess

from ..board import BoardColours, BoardDescription, BoardLayout, Cell, Piece, Square, Tint
from .game import ChessGame

__all__ = ["ChessBoard", "cell_of", "square_of"]

#: The pieces, by python-chess symbol.
PIECES: dict[str, Piece] = {
    symbol: Piece(chess.UNICODE_PIECE_SYMBOLS[symbol.lower()], symbol, 0 if symbol.isupper() else 1,
                  outline=chess.UNICODE_PIECE_SYMBOLS[symbol] if symbol.isupper() else "")
    for symbol in "KQRBNPkqrbnp"
}


def square_of(cell: Cell) -> chess.Square:
    """The python-chess square drawn at ``cell`` (row 0 is rank 8)."""
    col, row = cell
    return chess.square(col, 7 - row)


def cell_of(square: chess.Square) -> Cell:
    """Where a python-chess square is drawn."""
    return chess.square_file(square), 7 - chess.square_rank(square)


class ChessBoard(BoardDescription[ChessGame]):
    """The chessboard."""

    #: Pawns, as players count: a minor piece 3, a rook 5, a queen 9.
    MATERIAL = {"P": 1, "N": 3, "B": 3, "R": 5, "Q": 9}
    TAKES = True
    layout = BoardLayout(
        columns=8, rows=8, column_labels=chess.FILE_NAMES, row_labels=chess.RANK_NAMES[::-1],
        colours=BoardColours(
            light="#a88a66", dark="#765636",
            tints={Tint.FROM: ("#b9ae5c", "#8d8733"), Tint.TO: ("#b9ae5c", "#8d8733"),
                   Tint.ALERT: ("#c83737", "#c83737")},
            pieces=("#ffffff", "#000000"), neutral="#4a3520",
        ),
        empty_letter=".",
    )

    def squares(self, game: ChessGame) -> list[list[Square]]:
        board = game.board
        last = board.move_stack[-1] if board.move_stack else None
        tints = {last.from_square: Tint.FROM, last.to_square: Tint.TO} if last else {}
        if board.is_check():
            king = board.king(board.turn)
            if king is not None:
                tints[king] = Tint.ALERT
        grid = []
        for row in range(8):
            line = []
            for col in range(8):
                square = square_of((col, row))
                piece = board.piece_at(square)
                line.append(Square((col + row) % 2 == 0, None if piece is None else PIECES[piece.symbol()],
                                   tint=tints.get(square)))
            grid.append(line)
        return grid

    def move_cells(self, game: ChessGame, move: chess.Move) -> tuple[Cell, Cell]:
        return cell_of(move.from_square), cell_of(move.to_square)

    def cell_name(self, cell: Cell) -> str:
        return chess.square_name(square_of(cell))

    def typed_move(self, start: Cell, end: Cell) -> str | None:
        return None if start == end else self.cell_name(start) + self.cell_name(end)
