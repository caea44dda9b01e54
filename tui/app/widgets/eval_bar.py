"""The eval bar beside the board: the first player's winning chance, as lichess draws it.

:class:`EvalBar` is one column of cells as high as the board: the first
player's share fills it from that player's edge of the board (the bottom unless
the board is turned) in that player's colour, the rest is the second player's.
The share is the winning chance of the last score an engine gave for the
position shown or just before it (:meth:`games.kind.ScoreScale.chance`), drawn to
an eighth of a cell.  Before any engine has searched, the bar is level and dim.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from games.kind import ScoreScale

__all__ = ["EvalBar", "bar_cells"]

#: Lower eighths of a cell, from empty to full.
LOWER = " ▁▂▃▄▅▆▇█"


def bar_cells(share: float, height: int, ascii: bool = False) -> list[tuple[str, bool]]:
    """The bar's cells from the bottom up: ``(character, full)``; the first player's part
    is drawn with lower blocks in its colour on the second player's colour (``ascii``: ``#``
    for the first player's cells, ``.`` for the second's and ``:`` for a cell about half each,
    which needs no colour and reads the same turned)."""
    eighths = round(max(0.0, min(1.0, share)) * height * 8)
    cells = []
    for row in range(height):
        filled = max(0, min(8, eighths - row * 8))
        if ascii:
            cells.append(("#" if filled >= 6 else ":" if filled >= 3 else ".", filled >= 6))
        else:
            cells.append((LOWER[filled], filled == 8))
    return cells


class EvalBar(Widget):
    """The first player's winning chance beside the board (see the module doc)."""

    DEFAULT_CSS = """
    EvalBar {
        width: 1;
        height: 1fr;
    }
    """

    #: The first player's edge is the top (the board is turned).
    turned: reactive[bool] = reactive(False)

    def __init__(self, scores: ScoreScale, colours: tuple[str, str], *, ascii: bool = False,
                 id: str | None = None) -> None:
        super().__init__(id=id)
        self.scores = scores
        self.colours = colours
        #: ``#`` and ``.`` rather than blocks (the letters setting).
        self.ascii = ascii
        #: The first player's score and mate shown (``None``: no engine has searched yet).
        self.score: tuple[float, int | None] | None = None

    @property
    def share(self) -> float:
        if self.score is None:
            return 0.5
        return self.scores.chance(*self.score)

    @property
    def text(self) -> str:
        """The eval in the game's unit for the first player (``-`` before any)."""
        return "-" if self.score is None else self.scores.signed(*self.score)

    def show(self, score: float, mate: int | None) -> None:
        """A new score, for the first player."""
        self.score = (score, mate)
        self.tooltip = f"eval {self.text}"
        self.refresh()

    def clear(self) -> None:
        self.score = None
        self.refresh()

    def render(self) -> Text:
        height = max(self.size.height, 1)
        share, (fill, rest) = self.share, self.colours
        if self.turned:  # the first player's part hangs from the top: draw the second's from the bottom
            share, fill, rest = 1.0 - share, rest, fill
        style = Style(color=fill, bgcolor=rest, dim=self.score is None)
        cells = bar_cells(share, height, self.ascii)
        if self.ascii and self.turned:  # "#" stays the first player's part, now from the top
            cells = [({"#": ".", ".": "#"}.get(char, char), full) for char, full in cells]
        return Text("\n", end="").join(Text(char, style=style, end="") for char, _ in reversed(cells))
