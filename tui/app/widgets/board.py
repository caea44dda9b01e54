"""The board widget: the position of any game, drawn in the terminal.

:class:`BoardView` keeps a copy of the position shown and asks its painter
(:mod:`tui.app.widgets.painting`) for a drawing whenever the position, the
orientation, the marks, the ASCII switch or the widget's size changes -- once
per change, never per frame.

It is also where a player points at squares: a click, or the arrow keys and
Enter when the board has the focus, posts :class:`BoardView.SquareChosen`
with the square's board coordinates; a right click posts :class:`BoardView.Dismissed`.  What a choice means (pick a piece up,
put it down) is the game screen's business; it tells the board which square
is selected and where that piece can go (:meth:`BoardView.mark`).
"""

from __future__ import annotations

from typing import Iterable

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Offset, Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from games import Game

from .painting import CURSOR, SELECTED, TARGET, BoardPainter, Square, painter_for
from .typed import TypingTarget, bound_keys, forward_typing

__all__ = ["BoardView"]


class BoardView(Widget, can_focus=True):
    """The board of one game, centred in its region and sized to it.

    Call :meth:`show` with the game after every move (it keeps a copy); set
    :attr:`flipped` to turn the board and :attr:`ascii` for letters instead of
    glyphs.
    """

    DEFAULT_CSS = """
    BoardView {
        width: 1fr;
        height: 1fr;
        text-wrap: nowrap;
        text-overflow: clip;
        overflow: hidden hidden;
    }
    """

    #: A click chooses a square but leaves the focus (the move box) where it is.
    FOCUS_ON_CLICK = False

    BINDINGS = [
        Binding("up", "cursor(0, -1)", "Up", show=False),
        Binding("down", "cursor(0, 1)", "Down", show=False),
        Binding("left", "cursor(-1, 0)", "Left", show=False),
        Binding("right", "cursor(1, 0)", "Right", show=False),
        Binding("enter,space", "choose", "Choose square", show=False),
    ]

    #: Where a letter this widget does not bind goes: the screen's move box (:mod:`.typed`).
    typing_goes_to: TypingTarget | None = None

    def on_key(self, event: events.Key) -> None:
        """A letter goes to the move box (a move typed after one made with the cursor)."""
        forward_typing(self.typing_goes_to, event, _BOARD_KEYS)

    class SquareChosen(Message):
        """A square was clicked, or chosen with the keyboard."""

        def __init__(self, board: BoardView, square: Square) -> None:
            super().__init__()
            self.board = board
            #: Board coordinates ``(col, row)``, ``(0, 0)`` the top-left of the unflipped board.
            self.square = square

        @property
        def control(self) -> BoardView:
            return self.board

    class Dismissed(Message):
        """The board was right-clicked: whatever is picked or queued there is put back."""

    #: Draw the board from the second player's side (turned by 180 degrees).
    flipped: reactive[bool] = reactive(False)
    #: Letters instead of Unicode glyphs, and marks that do not rely on colour.
    ascii: reactive[bool] = reactive(False)

    def __init__(
        self,
        game_name: str,
        *,
        ascii: bool = False,
        flipped: bool = False,
        squares: tuple[str, str] | None = None,
        outlined: bool = False,
        coordinates: bool = True,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.painter: BoardPainter = painter_for(game_name, squares, outlined=outlined)
        #: Whether the coordinates are drawn around the board (a setting).
        self.coordinates = coordinates
        self._game: Game | None = None
        #: Bumped by every change of what is drawn; part of the drawing's cache key.
        self._version = 0
        self._drawn: tuple[tuple[object, ...], Text] | None = None
        #: The picked-up piece's square and where it can go.
        self.selected: Square | None = None
        self.targets: frozenset[Square] = frozenset()
        #: The keyboard cursor (shown while the board has the focus).
        self.cursor: Square = (self.painter.columns // 2, self.painter.rows - 1)
        self.set_reactive(BoardView.ascii, ascii)
        self.set_reactive(BoardView.flipped, flipped)

    @property
    def game(self) -> Game | None:
        """The position shown (the view's own copy: do not change it)."""
        return self._game

    def show(self, game: Game) -> None:
        """Show (a copy of) ``game``; a game of another kind switches the painter."""
        if game.NAME != self.painter.game_name:
            self.painter = painter_for(game.NAME, self.painter.squares, outlined=self.painter.outlined)
        self._game = game.copy()
        self._changed()

    def side_at_bottom(self, bottom: int) -> int:
        """The side drawn at the bottom now, on a board set up with ``bottom`` there (after any flip)."""
        return bottom if self.flipped == self.painter.flipped_for(bottom) else 1 - bottom

    def mark(self, selected: Square | None, targets: Iterable[Square] = ()) -> None:
        """Mark the selected square and its targets (``None`` clears both)."""
        self.selected = selected
        self.targets = frozenset(targets) if selected is not None else frozenset()
        self._changed()

    def _changed(self) -> None:
        self._version += 1
        self.refresh()

    def _on_focus(self, event: events.Focus) -> None:
        self._changed()

    def _on_blur(self, event: events.Blur) -> None:
        self._changed()

    # -- where things are --------------------------------------------------------

    def drawing_origin(self) -> tuple[int, int]:
        """Where the drawing starts in the widget: it is centred."""
        width, height = self.size
        drawn_width, drawn_height = self.painter.size_for(width, height)
        return max((width - drawn_width) // 2, 0), max((height - drawn_height) // 2, 0)

    def square_at(self, offset: Offset) -> Square | None:
        """The square under a point of the widget (``None`` off the board)."""
        left, top = self.drawing_origin()
        width, height = self.size
        return self.painter.square_under(offset.x - left, offset.y - top, width=width, height=height,
                                         flipped=self.flipped)

    def square_offset(self, square: Square) -> Offset:
        """The middle of a square, relative to the widget (for clicks in tests)."""
        left, top = self.drawing_origin()
        width, height = self.size
        x, y, w, h = self.painter.cell_box(*square, width=width, height=height, flipped=self.flipped)
        return Offset(left + x + w // 2, top + y + h // 2)

    # -- input -------------------------------------------------------------------------

    def on_click(self, event: events.Click) -> None:
        if event.button == 3:  # a right click puts back what is picked (lichess: cancels a premove)
            self.post_message(self.Dismissed())
            return
        square = self.square_at(event.offset)
        if square is not None:
            self.cursor = square
            self.post_message(self.SquareChosen(self, square))

    def action_cursor(self, dx: int, dy: int) -> None:
        """Move the keyboard cursor (on screen: up is up, whichever way the board faces)."""
        if self.flipped:
            dx, dy = -dx, -dy
        col, row = self.cursor
        self.cursor = (min(max(col + dx, 0), self.painter.columns - 1),
                       min(max(row + dy, 0), self.painter.rows - 1))
        self._changed()

    def action_choose(self) -> None:
        self.post_message(self.SquareChosen(self, self.cursor))

    # -- drawing -----------------------------------------------------------------------

    def _marks(self) -> dict[Square, str]:
        marks = {square: TARGET for square in self.targets}
        if self.selected is not None:
            marks[self.selected] = SELECTED
        if self.has_focus:
            marks[self.cursor] = CURSOR
        return marks

    def render(self) -> Text:
        if self._game is None:
            return Text("")
        width, height = self.size
        key = (width, height, self.flipped, self.ascii, self._version, self.painter.game_name, self.coordinates)
        if self._drawn is None or self._drawn[0] != key:
            text = self.painter.paint(self._game, width=width, height=height, flipped=self.flipped,
                                      ascii=self.ascii, marks=self._marks(), coordinates=self.coordinates)
            left, top = self.drawing_origin()
            lines = text.split("\n", allow_blank=True)
            for line in lines:
                line.pad_left(left)
            centred = Text("\n" * top, no_wrap=True, overflow="crop", end="")
            centred.append_text(Text("\n", end="").join(lines))
            self._drawn = (key, centred)
        return self._drawn[1]

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """With ``width: auto``: the width of the drawing for the container."""
        return self.painter.size_for(container.width, container.height)[0]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """With ``height: auto``: the height of the drawing for that width."""
        return self.painter.size_for(width, container.height)[1]


#: The keys the board binds: every other printable key goes to the move box.
_BOARD_KEYS = bound_keys(BoardView.BINDINGS)
