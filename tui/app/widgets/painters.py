"""Board painters: the position of any of the three games as rich text that fits a size.

Painters (:class:`ChessPainter`, :class:`CheckersPainter`,
:class:`QuixoPainter`; :func:`painter_for` picks one by game name) turn a game
into a :class:`rich.text.Text` that fits a given number of terminal cells.
They know nothing of Textual and are tested on their own;
:class:`~tui.app.widgets.board.BoardView` draws with them.

What the painters draw:

chess
    An 8x8 board of light and dark squares, files ``a``-``h`` above and below,
    ranks ``1``-``8`` on both sides.  Pieces are the solid Unicode glyphs
    (``♚♛♜♝♞♟``) coloured white or black, or with ``ascii=True`` the FEN letters
    ``KQRBNP``/``kqrbnp`` and ``.`` on empty squares.  The last move's from and
    to squares are tinted, the king in check is red.
checkers
    The 8x8 board with the PDN number (1-32) on every dark square: in the
    corner of the square when a square is at least two lines tall, otherwise
    on the empty dark squares only.  Files and ranks are dimmed around the
    board.  Men ``●``, kings ``◉`` (ASCII: ``b``/``B`` for Black, ``w``/``W``
    for White, as in :meth:`games.checkers.Checkers.render`).  Every square of
    the last move's path is tinted and the squares of the pieces it took are
    tinted red.  Square 1 is at the top, as in the game's own diagram.
Quixo
    The 5x5 board with the column and row indices of the move notation
    (``COL ROW EDGE``, 0-based, ``(0, 0)`` top-left) and the edge names
    ``top``/``bottom``/``left``/``right`` beside the board, so a move can be
    typed by reading it off.  Cubes ``X`` and ``O``, a blank cube ``·`` (ASCII
    ``.``).  The last move's source cell (the cube taken) and target cell (where
    it was pushed back in) are tinted, and the rest of the shifted row or
    column more lightly.

``flipped=True`` turns the board by 180 degrees (chess: Black at the bottom;
checkers: square 32 at the top-left; Quixo: row 4 at the top), coordinates
with it.  In ASCII mode the colours stay but the marks no longer depend on
them: last-move squares are bracketed ``[P]`` (an empty, numbered checkers
square at the smallest size gets a ``*`` after its number), the king in check
is shown ``!K!`` and the squares of captured checkers pieces ``x``.

Sizes: a square is 3x1 terminal cells (wide x tall) at the smallest, then
4x2, 5x2, 6x3, 7x3, 8x4, ...; a painter picks the largest size whose drawing
fits the width and height it is given, and the smallest one when nothing fits
(the container clips).  See :meth:`BoardPainter.geometry`.
"""

from __future__ import annotations

from typing import Any, ClassVar, Sequence

import chess
from rich.style import Style

from games import Game, UnknownGameError
from games.checkers import SQUARES as CHECKERS_SQUARES
from games.checkers import square_coords
from games.quixo import MOVES as QUIXO_MOVES
from games.quixo import SIZE as QUIXO_SIZE

from .painting import CURSOR, PLAIN, SELECTED, TARGET, BoardGeometry, BoardPainter, Cell, Square

__all__ = [
    "BoardGeometry",
    "BoardPainter",
    "CURSOR",
    "Cell",
    "CheckersPainter",
    "ChessPainter",
    "QuixoPainter",
    "SELECTED",
    "Square",
    "TARGET",
    "painter_for",
]


# ---------------------------------------------------------------------------
# Chess
# ---------------------------------------------------------------------------


class ChessPainter(BoardPainter):
    """Chess: files a-h, ranks 1-8, last move and check highlighted."""

    game_name = "chess"
    columns = 8
    rows = 8

    LIGHT: ClassVar[str] = "#a88a66"
    DARK: ClassVar[str] = "#765636"
    #: Last move's from and to squares, on light and on dark squares.
    LAST_LIGHT: ClassVar[str] = "#b9ae5c"
    LAST_DARK: ClassVar[str] = "#8d8733"
    #: The king in check.
    CHECK: ClassVar[str] = "#c83737"
    WHITE_PIECE: ClassVar[Style] = Style(color="#ffffff", bold=True)
    BLACK_PIECE: ClassVar[Style] = Style(color="#000000", bold=True)
    EMPTY_ASCII: ClassVar[Style] = Style(color="#4a3520")

    def column_labels(self) -> Sequence[str]:
        return chess.FILE_NAMES

    def row_labels(self) -> Sequence[str]:
        return chess.RANK_NAMES[::-1]

    @staticmethod
    def square_at(col: int, row: int) -> chess.Square:
        """The python-chess square at board ``(col, row)`` (row 0 is rank 8)."""
        return chess.square(col, 7 - row)

    @staticmethod
    def coords(square: chess.Square) -> tuple[int, int]:
        """Board ``(col, row)`` of a python-chess square."""
        return chess.square_file(square), 7 - chess.square_rank(square)

    def move_squares(self, game: Game, move: Any) -> tuple[Square, Square]:
        return self.coords(move.from_square), self.coords(move.to_square)

    def square_name(self, square: Square) -> str:
        return chess.square_name(self.square_at(*square))

    def typed_move(self, start: Square, end: Square) -> str | None:
        return self.square_name(start) + self.square_name(end)

    def cells(self, game: Game, *, ascii: bool = False) -> list[list[Cell]]:
        board: chess.Board = game.board  # type: ignore[attr-defined]
        last = board.move_stack[-1] if board.move_stack else None
        moved = {last.from_square, last.to_square} if last else set()
        checked = board.king(board.turn) if board.is_check() else None
        grid = []
        for row in range(8):
            line = []
            for col in range(8):
                square = self.square_at(col, row)
                light = (col + row) % 2 == 0
                background = self.LIGHT if light else self.DARK
                mark = ""
                if square == checked:
                    background, mark = self.CHECK, "!!"
                elif square in moved:
                    background, mark = (self.LAST_LIGHT if light else self.LAST_DARK), "[]"
                piece = board.piece_at(square)
                if piece is None:
                    glyph, style = ("." if ascii else ""), self.EMPTY_ASCII
                else:
                    glyph = piece.symbol() if ascii else chess.UNICODE_PIECE_SYMBOLS[piece.symbol().lower()]
                    style = self.WHITE_PIECE if piece.color == chess.WHITE else self.BLACK_PIECE
                line.append(Cell(background, glyph, style, mark=mark))
            grid.append(line)
        return grid


# ---------------------------------------------------------------------------
# Checkers
# ---------------------------------------------------------------------------


class CheckersPainter(BoardPainter):
    """English checkers: PDN numbers on the dark squares, the last move's path
    and captures highlighted; files and ranks dimmed around the board."""

    game_name = "checkers"
    columns = 8
    rows = 8
    coordinate_style = Style(dim=True)

    LIGHT: ClassVar[str] = "#d8c7a3"
    DARK: ClassVar[str] = "#5b7c4e"
    #: Squares of the last move's path and of the pieces it took.
    PATH: ClassVar[str] = "#8f8a2e"
    CAPTURED: ClassVar[str] = "#9a4a3a"
    BLACK_PIECE: ClassVar[Style] = Style(color="#000000", bold=True)
    WHITE_PIECE: ClassVar[Style] = Style(color="#ffffff", bold=True)
    NUMBER: ClassVar[Style] = Style(color="#c9dcbf")
    #: Glyphs of a man and a king (both colours), Unicode and ASCII.
    MAN: ClassVar[str] = "●"
    KING: ClassVar[str] = "◉"
    CAPTURED_ASCII: ClassVar[str] = "x"

    def column_labels(self) -> Sequence[str]:
        return chess.FILE_NAMES

    def row_labels(self) -> Sequence[str]:
        return chess.RANK_NAMES[::-1]

    @staticmethod
    def coords(square: int) -> tuple[int, int]:
        """Board ``(col, row)`` of a PDN square (1 is b8: ``(1, 0)``)."""
        row, col = square_coords(square)
        return col, row

    def number(self, square: Square) -> int | None:
        """The PDN number of a dark square, ``None`` for a light one."""
        for number in CHECKERS_SQUARES:
            if self.coords(number) == square:
                return number
        return None

    def move_squares(self, game: Game, move: Any) -> tuple[Square, Square]:
        squares = move[0]
        return self.coords(squares[0]), self.coords(squares[-1])

    def square_name(self, square: Square) -> str:
        number = self.number(square)
        return "a light square (pieces stay on the numbered ones)" if number is None else f"square {number}"

    def typed_move(self, start: Square, end: Square) -> str | None:
        first, last = self.number(start), self.number(end)
        if first is None or last is None:
            return None
        return f"{first}{'-' if abs(start[1] - end[1]) == 1 else 'x'}{last}"

    def flipped_for(self, side: int) -> bool:
        return side == 0  # Black (first) starts at the top, on squares 1-12

    def cells(self, game: Game, *, ascii: bool = False) -> list[list[Cell]]:
        light = Cell(self.LIGHT)
        grid = [[light] * 8 for _ in range(8)]
        stack = game.move_stack
        path: set[int] = set()
        captured: set[int] = set()
        if stack:
            squares, taken = stack[-1]
            path = set(squares)
            captured = {s for s in CHECKERS_SQUARES if taken >> (s - 1) & 1}
        for square in CHECKERS_SQUARES:
            col, row = self.coords(square)
            piece: str | None = game.piece_at(square)  # type: ignore[attr-defined]
            background, mark, glyph, style = self.DARK, "", "", PLAIN
            if square in path:
                background, mark = self.PATH, "[]"
            elif square in captured:
                background = self.CAPTURED
                if ascii:
                    glyph = self.CAPTURED_ASCII
            if piece is not None:
                if ascii:
                    glyph = piece
                else:
                    glyph = self.KING if piece.isupper() else self.MAN
                style = self.BLACK_PIECE if piece in "bB" else self.WHITE_PIECE
            grid[row][col] = Cell(background, glyph, style, str(square), self.NUMBER, mark)
        return grid


# ---------------------------------------------------------------------------
# Quixo
# ---------------------------------------------------------------------------


class QuixoPainter(BoardPainter):
    """Quixo: 0-based column and row indices and the edge names of the move
    notation ``COL ROW EDGE``; the last move's source and target cells and the
    shifted line highlighted."""

    game_name = "quixo"
    columns = QUIXO_SIZE
    rows = QUIXO_SIZE

    #: Cells alternate two shades of wood so that neighbours stay apart.
    LIGHT: ClassVar[str] = "#d6c29a"
    DARK: ClassVar[str] = "#c7b084"
    #: The cube taken (source) and the cell it was pushed into (target).
    SOURCE: ClassVar[str] = "#e3b55a"
    TARGET: ClassVar[str] = "#e8d54a"
    #: The rest of the row or column the move shifted, light and dark cells.
    SHIFTED_LIGHT: ClassVar[str] = "#dfd092"
    SHIFTED_DARK: ClassVar[str] = "#d2c07c"
    X_CUBE: ClassVar[Style] = Style(color="#b0201a", bold=True)
    O_CUBE: ClassVar[Style] = Style(color="#1a4c9a", bold=True)
    BLANK: ClassVar[Style] = Style(color="#7a6a4a")

    def column_labels(self) -> Sequence[str]:
        return [str(col) for col in range(QUIXO_SIZE)]

    def row_labels(self) -> Sequence[str]:
        return [str(row) for row in range(QUIXO_SIZE)]

    def edge_captions(self) -> tuple[str, str, str, str]:
        return ("top", "bottom", "left", "right")

    def move_squares(self, game: Game, move: Any) -> tuple[Square, Square]:
        quixo_move = QUIXO_MOVES[move]
        target = quixo_move.target.bit_length() - 1
        return (quixo_move.col, quixo_move.row), (target % QUIXO_SIZE, target // QUIXO_SIZE)

    def square_name(self, square: Square) -> str:
        return f"cell {square[0]} {square[1]}"

    def typed_move(self, start: Square, end: Square) -> str | None:
        (col, row), (to_col, to_row) = start, end
        last = QUIXO_SIZE - 1
        if row == to_row and to_col in (0, last) and to_col != col:
            edge = "left" if to_col == 0 else "right"
        elif col == to_col and to_row in (0, last) and to_row != row:
            edge = "top" if to_row == 0 else "bottom"
        else:
            return None
        return f"{col} {row} {edge}"

    def flipped_for(self, side: int) -> bool:
        return False  # the cells keep the numbers the moves are typed with

    def cells(self, game: Game, *, ascii: bool = False) -> list[list[Cell]]:
        source = target = shifted = 0
        stack = game.move_stack
        if stack:
            move = QUIXO_MOVES[stack[-1]]
            source, target, shifted = move.source, move.target, move.shifted
        blank = "." if ascii else "·"
        grid = []
        for row in range(QUIXO_SIZE):
            line = []
            for col in range(QUIXO_SIZE):
                bit = 1 << (row * QUIXO_SIZE + col)
                light = (col + row) % 2 == 0
                mark = ""
                if bit & target:
                    background, mark = self.TARGET, "[]"
                elif bit & source:
                    background, mark = self.SOURCE, "[]"
                elif bit & shifted:
                    background = self.SHIFTED_LIGHT if light else self.SHIFTED_DARK
                else:
                    background = self.LIGHT if light else self.DARK
                owner = game.piece_at(col, row)  # type: ignore[attr-defined]
                if owner is None:
                    glyph, style = blank, self.BLANK
                else:
                    glyph = game.PLAYERS[owner]
                    style = self.O_CUBE if owner else self.X_CUBE
                line.append(Cell(background, glyph, style, mark=mark))
            grid.append(line)
        return grid


_PAINTERS: dict[str, type[BoardPainter]] = {
    painter.game_name: painter for painter in (ChessPainter, CheckersPainter, QuixoPainter)
}


def painter_for(game_name: str) -> BoardPainter:
    """A painter for the game called ``game_name`` (``chess``, ``checkers``, ``quixo``)."""
    try:
        return _PAINTERS[game_name.strip().lower()]()
    except KeyError:
        raise UnknownGameError(
            f"unknown game {game_name!r}; expected one of: {', '.join(_PAINTERS)}"
        ) from None
