"""Drawing any game's board as rich text that fits a size.

A game describes its board as data (:class:`games.board.BoardDescription`:
the cells, what stands on each, the labels around, the last move's tints,
the game's colours); :class:`BoardPainter` draws every game from that
description.  It lays out squares, coordinates and captions for a given
number of terminal cells (:class:`BoardGeometry`), draws what each square
shows (:class:`Cell`) and the marks a player's pointing puts on squares
(:data:`SELECTED`, :data:`TARGET`, :data:`CURSOR`).  It knows nothing of
Textual and is tested on its own; :class:`~tui.app.widgets.board.BoardView`
draws with it.

How a description becomes cells: a cell's background is the game's light or
dark colour, or its tint's (``FROM``/``TO``/``ALONG``/``TAKEN``/``ALERT``),
on a light or a dark cell.  A piece is its glyph (or its letter with
``ascii=True``) in its side's colour, bold; an empty cell shows the board's
empty glyph or letter in the neutral colour; a label (a checkers square
number) goes on the piece's line, left of it (in the top corner where it does
not fit there).  In ASCII mode the colours stay but the
marks no longer depend on them: the last move's cells are bracketed ``[P]``
(an empty, labelled square at the smallest size gets a ``*`` after its
label), a king in check is shown ``!K!`` and the cell of a piece taken ``x``.

``flipped=True`` turns the board by 180 degrees, coordinates with it.  Sizes:
a square is 3x1 terminal cells (wide x tall) at the smallest, then 4x2, 5x2,
6x3, 7x3, 8x4, ...; the painter picks the largest size whose drawing fits the
width and height it is given, and the smallest one when nothing fits (the
container clips).  See :meth:`BoardPainter.geometry`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar, Iterator, Mapping, Sequence

from rich.style import Style
from rich.text import Text

from games import Game, game_kind
from games.board import BoardDescription, Tint

__all__ = [
    "BoardGeometry",
    "BoardPainter",
    "CURSOR",
    "Cell",
    "PLAIN",
    "SELECTED",
    "Square",
    "TARGET",
    "painter_for",
]

#: The unstyled style (margins, labels take the widget's own colours).
PLAIN = Style()

#: Kinds of square marks a caller can ask :meth:`BoardPainter.paint` for: the
#: square whose piece is picked up, the squares it can go to, the keyboard cursor.
SELECTED = "selected"
TARGET = "target"
CURSOR = "cursor"

#: Board coordinates ``(col, row)``.
Square = tuple[int, int]


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
    glyph_style: Style = PLAIN
    label: str = ""
    label_style: Style = PLAIN
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
        self.styles = [[PLAIN] * width for _ in range(height)]

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
    """Draws one game's board, as its :class:`~games.board.BoardDescription` says, as Rich text.

    Board coordinates are ``(col, row)`` with ``(0, 0)`` the top-left square of
    the unflipped board (chess and checkers: a8; Quixo: the cell ``0 0``).
    """

    #: Style of the edge names (Quixo).
    caption_style: ClassVar[Style] = Style(italic=True)
    #: Style of the ASCII marks drawn around a glyph.
    mark_style: ClassVar[Style] = Style(bold=True)
    #: The ASCII marks of the tints drawn around a glyph.
    TINT_MARKS: ClassVar[dict[Tint, str]] = {Tint.FROM: "[]", Tint.TO: "[]", Tint.ALERT: "!!"}
    #: What the cell of a piece taken shows in ASCII.
    TAKEN_LETTER: ClassVar[str] = "x"

    def __init__(self, description: BoardDescription[Any], game_name: str = "",
                 squares: tuple[str, str] | None = None, *, outlined: bool = False) -> None:
        self.description = description
        self.game_name = game_name
        self.squares = squares
        #: The outlined piece set: pieces with a hollow glyph (:attr:`~games.board.Piece.outline`) drawn with it.
        self.outlined = outlined
        layout = description.layout
        self.layout = layout
        self.columns = layout.columns
        self.rows = layout.rows
        colours = layout.colours
        #: The game's colours, with the light and dark squares of a theme (``squares``) if given.
        self.colours = colours if squares is None else replace(colours, light=squares[0], dark=squares[1])
        self.coordinate_style = Style(dim=True) if layout.dim_labels else Style(bold=True)
        self._pieces = tuple(Style(color=colour, bold=True) for colour in colours.pieces)
        self._neutral = Style(color=colours.neutral)
        self._label = Style(color=colours.label)

    # ------------------------------------------------------------ the description
    def column_labels(self) -> Sequence[str]:
        """The label of each board column, left to right (unflipped)."""
        return self.layout.column_labels

    def row_labels(self) -> Sequence[str]:
        """The label of each board row, top to bottom (unflipped)."""
        return self.layout.row_labels

    def edge_captions(self) -> tuple[str, str, str, str]:
        """Names written beyond the coordinates on the (top, bottom, left, right)
        edges of the unflipped board; '' for none."""
        return self.layout.edge_captions

    def move_squares(self, game: Game, move: Any) -> tuple[Square, Square] | None:
        """Where a legal ``move`` of ``game`` starts and ends, in board coordinates
        (``None`` for a move on no square: a pass)."""
        return self.description.move_cells(game, move)

    def square_name(self, square: Square) -> str:
        """What a player calls the square: ``e4``, ``square 11``, ``cell 0 2``."""
        return self.description.cell_name(square)

    def typed_move(self, start: Square, end: Square) -> str | None:
        """The move text a player would type for ``start`` to ``end``, or ``None``."""
        return self.description.typed_move(start, end)

    def flipped_for(self, side: int) -> bool:
        """The orientation that puts ``side`` (0 moves first) at the bottom."""
        return self.description.turned_for(side)

    def cells(self, game: Game, *, ascii: bool = False) -> list[list[Cell]]:
        """What every square shows: ``cells[row][col]`` in board coordinates."""
        colours = self.colours
        empty = self.layout.empty_letter if ascii else self.layout.empty_glyph
        grid = []
        for line in self.description.squares(game):
            row = []
            for square in line:
                if square.tint is None:
                    background = colours.light if square.light else colours.dark
                else:
                    light, dark = colours.tints[square.tint]
                    background = light if square.light else dark
                mark = self.TINT_MARKS.get(square.tint, "") if square.tint is not None else ""
                piece = square.piece
                if piece is not None:
                    glyph = piece.letter if ascii else (piece.outline or piece.glyph) if self.outlined else piece.glyph
                    style = self._neutral if piece.side is None else self._pieces[piece.side]
                elif ascii and square.tint is Tint.TAKEN:
                    glyph, style = self.TAKEN_LETTER, PLAIN
                else:
                    glyph, style = empty, (self._neutral if empty else PLAIN)
                row.append(Cell(background, glyph, style, square.label,
                                self._label if square.label else PLAIN, mark))
            grid.append(row)
        return grid

    #: Marks on squares: backgrounds, and the ASCII brackets drawn around the glyph.
    MARKS: ClassVar[dict[str, tuple[str, str]]] = {
        SELECTED: ("#3f74b8", "<>"),
        TARGET: ("#76a3d6", "()"),
        CURSOR: ("#8c5fc0", "{}"),
    }

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

    def square_under(self, x: int, y: int, *, width: int, height: int,
                  flipped: bool = False) -> Square | None:
        """The board square drawn at column ``x``, line ``y`` of the drawing
        :meth:`paint` makes for ``width`` x ``height``; ``None`` off the board."""
        geometry = self.geometry(width, height, flipped)
        dx, dy = x - geometry.left, y - geometry.top
        if dx < 0 or dy < 0:
            return None
        col, row = dx // geometry.cell_width, dy // geometry.cell_height
        if col >= self.columns or row >= self.rows:
            return None
        return self._display(col, row, flipped)

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
        self, game: Game, *, width: int, height: int, flipped: bool = False, ascii: bool = False,
        marks: Mapping[Square, str] | None = None, coordinates: bool = True,
    ) -> Text:
        """The board of ``game`` drawn to fit ``width`` x ``height`` terminal cells,
        with ``marks`` (:data:`SELECTED`, :data:`TARGET`, :data:`CURSOR`) on squares,
        and the coordinates around it unless ``coordinates`` is off."""
        geometry = self.geometry(width, height, flipped)
        canvas = _Canvas(geometry.width, geometry.height)
        cells = self.cells(game, ascii=ascii)
        marks = marks or {}
        for row in range(self.rows):
            for col in range(self.columns):
                x, y = geometry.cell_origin(*self._display(col, row, flipped))
                cell = cells[row][col]
                kind = marks.get((col, row))
                if kind is not None:
                    background, brackets = self.MARKS[kind]
                    cell = replace(cell, background=background, mark=brackets)
                self._draw_cell(canvas, x, y, geometry, cell, ascii)
        if coordinates:
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
            # On the piece's line, left of it, where it fits (not under an ASCII mark's brackets):
            # on a line of its own the number reads as the square's above and to the left.
            beside = len(label) <= middle_x - x and not (ascii and cell.mark)
            canvas.put(x, middle_y if beside else y, label, ground + cell.label_style)
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


def painter_for(game_name: str, squares: tuple[str, str] | None = None, *, outlined: bool = False) -> BoardPainter:
    """A painter for the game called ``game_name`` (any registered game), its squares in
    the colours ``squares`` (light, dark) if given, else the game's own; ``outlined``: the
    light side's pieces hollow where the game has such glyphs."""
    kind = game_kind(game_name)
    return BoardPainter(kind.board, kind.name, squares, outlined=outlined)
