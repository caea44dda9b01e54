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

from dataclasses import dataclass
from typing import ClassVar, Iterator, Sequence

import chess
from rich.style import Style
from rich.text import Text

from games import Game, UnknownGameError
from games.checkers import SQUARES as CHECKERS_SQUARES
from games.checkers import square_coords
from games.quixo import MOVES as QUIXO_MOVES
from games.quixo import SIZE as QUIXO_SIZE

__all__ = [
    "BoardGeometry",
    "BoardPainter",
    "Cell",
    "CheckersPainter",
    "ChessPainter",
    "QuixoPainter",
    "painter_for",
]

#: The unstyled style (margins, labels take the widget's own colours).
_PLAIN = Style()


@dataclass(frozen=True, slots=True)
class Cell:
    """What one square (chess, checkers) or cell (Quixo) of the board shows.

    ``glyph`` is a single character drawn in the middle of the square ('' for
    nothing); ``label`` a square number drawn in the corner (checkers);
    ``mark`` the pair of characters drawn around the glyph in ASCII mode, such
    as ``"[]"`` for a last-move square ('' for none).
    """

    background: str
    glyph: str = ""
    glyph_style: Style = _PLAIN
    label: str = ""
    label_style: Style = _PLAIN
    mark: str = ""


@dataclass(frozen=True, slots=True)
class BoardGeometry:
    """Where a painter puts things for a given drawing area.

    Squares are ``cell_width`` x ``cell_height`` terminal cells; the top-left
    square (as displayed) starts at column ``left``, line ``top`` of the
    drawing, which is ``width`` x ``height`` cells in all.
    """

    cell_width: int
    cell_height: int
    left: int
    top: int
    width: int
    height: int

    def cell_origin(self, display_col: int, display_row: int) -> tuple[int, int]:
        """Column and line of the top-left character of the square displayed
        ``display_col`` squares from the left and ``display_row`` from the top."""
        return self.left + display_col * self.cell_width, self.top + display_row * self.cell_height


class _Canvas:
    """A grid of characters with a style each, turned into one :class:`Text`."""

    __slots__ = ("width", "height", "chars", "styles")

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.chars = [[" "] * width for _ in range(height)]
        self.styles = [[_PLAIN] * width for _ in range(height)]

    def put(self, x: int, y: int, text: str, style: Style) -> None:
        """Write ``text`` from column ``x`` of line ``y`` (clipped at the edges)."""
        if not 0 <= y < self.height:
            return
        chars, styles = self.chars[y], self.styles[y]
        for i, char in enumerate(text):
            if 0 <= x + i < self.width:
                chars[x + i] = char
                styles[x + i] = style

    def fill(self, x: int, y: int, width: int, height: int, style: Style) -> None:
        """Blank a rectangle in ``style``."""
        for line in range(y, y + height):
            self.put(x, line, " " * width, style)

    def to_text(self) -> Text:
        """The lines joined by newlines, runs of one style appended as one span."""
        text = Text(no_wrap=True, overflow="crop", end="")
        for y in range(self.height):
            if y:
                text.append("\n")
            chars, styles = self.chars[y], self.styles[y]
            start = 0
            for x in range(1, self.width + 1):
                if x == self.width or styles[x] != styles[start]:
                    text.append("".join(chars[start:x]), styles[start])
                    start = x
        return text


class BoardPainter:
    """Draws one game's board as Rich text; subclasses say what each square shows.

    Board coordinates are ``(col, row)`` with ``(0, 0)`` the top-left square of
    the unflipped board (chess and checkers: a8; Quixo: the cell ``0 0``).
    """

    #: The game's registry name.
    game_name: ClassVar[str]
    #: Squares across and down.
    columns: ClassVar[int]
    rows: ClassVar[int]
    #: Style of the coordinates around the board.
    coordinate_style: ClassVar[Style] = Style(bold=True)
    #: Style of the edge names (Quixo).
    caption_style: ClassVar[Style] = Style(italic=True)
    #: Style of the ASCII marks drawn around a glyph.
    mark_style: ClassVar[Style] = Style(bold=True)

    # ------------------------------------------------------------ per game
    def column_labels(self) -> Sequence[str]:
        """The label of each board column, left to right (unflipped)."""
        raise NotImplementedError

    def row_labels(self) -> Sequence[str]:
        """The label of each board row, top to bottom (unflipped)."""
        raise NotImplementedError

    def edge_captions(self) -> tuple[str, str, str, str]:
        """Names written beyond the coordinates on the (top, bottom, left, right)
        edges of the unflipped board; '' for none."""
        return ("", "", "", "")

    def cells(self, game: Game, *, ascii: bool = False) -> list[list[Cell]]:
        """What every square shows: ``cells[row][col]`` in board coordinates."""
        raise NotImplementedError

    # ------------------------------------------------------------ geometry
    def _captions(self, flipped: bool) -> tuple[str, str, str, str]:
        """The edge captions as displayed: (top, bottom, left, right)."""
        top, bottom, left, right = self.edge_captions()
        return (bottom, top, right, left) if flipped else (top, bottom, left, right)

    @staticmethod
    def cell_sizes() -> Iterator[tuple[int, int]]:
        """Square sizes ``(width, height)`` from the smallest up: 3x1, then for
        each height ``h`` from 2 on, ``2h`` and ``2h + 1`` wide (4x2 is about
        square on a terminal whose cells are twice as tall as wide)."""
        yield 3, 1
        height = 2
        while True:
            yield 2 * height, height
            yield 2 * height + 1, height
            height += 1

    def _geometry_for(self, cell_width: int, cell_height: int, flipped: bool) -> BoardGeometry:
        top_caption, bottom_caption, left_caption, right_caption = self._captions(flipped)
        label = max(len(text) for text in self.row_labels())
        left = label + 1 + (len(left_caption) + 1 if left_caption else 0)
        right = 1 + label + (1 + len(right_caption) if right_caption else 0)
        top = 1 + (1 if top_caption else 0)
        bottom = 1 + (1 if bottom_caption else 0)
        return BoardGeometry(
            cell_width,
            cell_height,
            left,
            top,
            left + self.columns * cell_width + right,
            top + self.rows * cell_height + bottom,
        )

    def geometry(self, width: int, height: int, flipped: bool = False) -> BoardGeometry:
        """The layout of the largest drawing that fits ``width`` x ``height``
        (the smallest one if none fits)."""
        sizes = self.cell_sizes()
        best = self._geometry_for(*next(sizes), flipped)
        for size in sizes:  # both sides grow along the sizes: stop at the first misfit
            bigger = self._geometry_for(*size, flipped)
            if bigger.width > width or bigger.height > height:
                return best
            best = bigger
        return best  # pragma: no cover - the sizes never end

    def min_size(self) -> tuple[int, int]:
        """Width and height of the smallest drawing (3x1 squares)."""
        geometry = self._geometry_for(*next(self.cell_sizes()), False)
        return geometry.width, geometry.height

    def size_for(self, width: int, height: int) -> tuple[int, int]:
        """Width and height of the drawing :meth:`paint` makes for that area."""
        geometry = self.geometry(width, height)
        return geometry.width, geometry.height

    def _display(self, col: int, row: int, flipped: bool) -> tuple[int, int]:
        """Where board square ``(col, row)`` is displayed (its display column and row)."""
        if flipped:
            return self.columns - 1 - col, self.rows - 1 - row
        return col, row

    def cell_box(
        self, col: int, row: int, *, width: int, height: int, flipped: bool = False
    ) -> tuple[int, int, int, int]:
        """``(x, y, w, h)``: where the square at board ``(col, row)`` is drawn by
        :meth:`paint` with the same arguments."""
        geometry = self.geometry(width, height, flipped)
        x, y = geometry.cell_origin(*self._display(col, row, flipped))
        return x, y, geometry.cell_width, geometry.cell_height

    # ------------------------------------------------------------ painting
    def paint(
        self, game: Game, *, width: int, height: int, flipped: bool = False, ascii: bool = False
    ) -> Text:
        """The board of ``game`` drawn to fit ``width`` x ``height`` terminal cells."""
        geometry = self.geometry(width, height, flipped)
        canvas = _Canvas(geometry.width, geometry.height)
        cells = self.cells(game, ascii=ascii)
        for row in range(self.rows):
            for col in range(self.columns):
                x, y = geometry.cell_origin(*self._display(col, row, flipped))
                self._draw_cell(canvas, x, y, geometry, cells[row][col], ascii)
        self._draw_coordinates(canvas, geometry, flipped)
        return canvas.to_text()

    def _draw_cell(
        self, canvas: _Canvas, x: int, y: int, geometry: BoardGeometry, cell: Cell, ascii: bool
    ) -> None:
        width, height = geometry.cell_width, geometry.cell_height
        ground = Style(bgcolor=cell.background)
        canvas.fill(x, y, width, height, ground)
        middle_x, middle_y = x + width // 2, y + height // 2
        label = cell.label
        if label and height >= 2:
            canvas.put(x, y, label, ground + cell.label_style)
        elif label and not cell.glyph:
            # One line per square: the number takes the middle of an empty square.
            start = middle_x - len(label) // 2
            canvas.put(start, middle_y, label, ground + cell.label_style)
            if ascii and cell.mark:
                canvas.put(x + width - 1, middle_y, "*", ground + self.mark_style)
            return
        if cell.glyph:
            canvas.put(middle_x, middle_y, cell.glyph, ground + cell.glyph_style)
        if ascii and cell.mark:
            canvas.put(middle_x - 1, middle_y, cell.mark[0], ground + self.mark_style)
            canvas.put(middle_x + 1, middle_y, cell.mark[1], ground + self.mark_style)

    def _draw_coordinates(self, canvas: _Canvas, geometry: BoardGeometry, flipped: bool) -> None:
        cw, ch = geometry.cell_width, geometry.cell_height
        board_right = geometry.left + self.columns * cw
        board_bottom = geometry.top + self.rows * ch
        style = self.coordinate_style
        for col, label in enumerate(self.column_labels()):
            display_col, _ = self._display(col, 0, flipped)
            x = geometry.left + display_col * cw + cw // 2 - (len(label) - 1) // 2
            canvas.put(x, geometry.top - 1, label, style)
            canvas.put(x, board_bottom, label, style)
        label_width = max(len(text) for text in self.row_labels())
        for row, label in enumerate(self.row_labels()):
            _, display_row = self._display(0, row, flipped)
            y = geometry.top + display_row * ch + ch // 2
            canvas.put(geometry.left - 1 - len(label), y, label, style)
            canvas.put(board_right + 1, y, label.rjust(label_width), style)
        top, bottom, left, right = self._captions(flipped)
        middle_x = geometry.left + (self.columns * cw) // 2
        middle_y = geometry.top + (self.rows * ch) // 2
        caption = self.caption_style
        if top:
            canvas.put(middle_x - len(top) // 2, 0, top, caption)
        if bottom:
            canvas.put(middle_x - len(bottom) // 2, geometry.height - 1, bottom, caption)
        if left:
            canvas.put(0, middle_y, left, caption)
        if right:
            canvas.put(board_right + 1 + label_width + 1, middle_y, right, caption)


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
            background, mark, glyph, style = self.DARK, "", "", _PLAIN
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


