"""The board widget: the position of any of the three games, drawn in the terminal.

:class:`BoardView` keeps a copy of the position shown and asks its painter
(:mod:`tui.app.widgets.painters`) for a drawing whenever the position, the
orientation, the ASCII switch or the widget's size changes -- once per change,
never per frame.
"""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from games import Game

from .painters import BoardPainter, painter_for

__all__ = ["BoardView"]


# ---------------------------------------------------------------------------
# The widget
# ---------------------------------------------------------------------------


class BoardView(Widget):
    """The board of one game, centred in its region and sized to it.

    Call :meth:`show` with the game after every move (it keeps a copy); set
    :attr:`flipped` to turn the board and :attr:`ascii` for letters instead of
    glyphs.  The drawing is made once per change of position, orientation,
    ASCII switch or size.
    """

    DEFAULT_CSS = """
    BoardView {
        width: 1fr;
        height: 1fr;
        content-align: center middle;
        text-wrap: nowrap;
        text-overflow: clip;
        overflow: hidden hidden;
    }
    """

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
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.painter: BoardPainter = painter_for(game_name)
        self._game: Game | None = None
        #: Bumped by :meth:`show`; part of the drawing's cache key.
        self._version = 0
        self._drawn: tuple[tuple[object, ...], Text] | None = None
        self.set_reactive(BoardView.ascii, ascii)
        self.set_reactive(BoardView.flipped, flipped)

    @property
    def game(self) -> Game | None:
        """The position shown (the view's own copy: do not change it)."""
        return self._game

    def show(self, game: Game) -> None:
        """Show (a copy of) ``game``; a game of another kind switches the painter."""
        if game.NAME != self.painter.game_name:
            self.painter = painter_for(game.NAME)
        self._game = game.copy()
        self._version += 1
        self.refresh()

    def render(self) -> Text:
        if self._game is None:
            return Text("")
        width, height = self.size
        key = (width, height, self.flipped, self.ascii, self._version, self.painter.game_name)
        if self._drawn is None or self._drawn[0] != key:
            text = self.painter.paint(
                self._game, width=width, height=height, flipped=self.flipped, ascii=self.ascii
            )
            self._drawn = (key, text)
        return self._drawn[1]

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """With ``width: auto``: the width of the drawing for the container."""
        return self.painter.size_for(container.width, container.height)[0]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """With ``height: auto``: the height of the drawing for that width."""
        return self.painter.size_for(width, container.height)[1]
