"""The score over a game: the first player's winning chance after every move, as columns.

The middle line (``─``) is an even game; columns rise above it while the first player
stands better and hang below it while the second does, full height at a won
(or lost) position.  A row of marks under the chart points at the moves the
report called mistakes (``?``) and blunders (``⁇``, one cell for the ``??`` the
report writes; ``‼`` would be chess's sign of a brilliant move).
A short game's positions are as wide as the chart allows; when the game has
more moves than the chart has columns, each column shows the position at the
end of the moves it stands for.
"""

from __future__ import annotations

from typing import Sequence

from rich.text import Text
from textual.widget import Widget

__all__ = ["ScoreChart", "chart_lines"]

#: Eighths of a cell, filled from the bottom.
RISING = " ▁▂▃▄▅▆▇█"
#: Halves of a cell, filled from the top.
HANGING = " ▀█"


def _columns(values: Sequence[float], width: int) -> list[int]:
    """Which value each column shows: each value as many columns as fit evenly, or,
    when there are more values than columns, the last of the ones a column stands for."""
    if len(values) <= width:
        repeat = width // max(1, len(values))
        return [index for index in range(len(values)) for _ in range(repeat)]
    return [min(len(values) - 1, round((column + 1) * len(values) / width) - 1) for column in range(width)]


def chart_lines(chances: Sequence[float], marks: Sequence[str], width: int, height: int) -> list[str]:
    """The chart as ``height`` lines of at most ``width`` columns: the first player's
    half, the even line, the second player's half; then the marks row.

    ``chances``: the first player's winning chance (0..1) per position;
    ``marks``: one per position after the first (``""``, ``"?"`` or ``"??"``)."""
    half = max(1, (height - 1) // 2)
    shown = _columns(chances, max(1, width))
    upper: list[str] = []
    lower: list[str] = []
    for row in range(half):
        up_cells, down_cells = [], []
        for index in shown:
            lead = (chances[index] - 0.5) * 2  # -1..1, the first player's side above
            level = abs(lead) * half
            # rows count away from the middle: row 0 touches it
            filled = level - row
            if lead >= 0:
                up_cells.append(RISING[max(0, min(8, round(filled * 8)))])
                down_cells.append(" ")
            else:
                up_cells.append(" ")
                down_cells.append(HANGING[max(0, min(2, round(filled * 2)))])
        upper.append("".join(up_cells))
        lower.append("".join(down_cells))
    axis = "".join("─" for _ in shown)
    lines = list(reversed(upper)) + [axis] + lower
    mark_row = []
    for column, index in enumerate(shown):
        first = column == 0 or shown[column - 1] != index
        mark = marks[index - 1] if first and index >= 1 and index - 1 < len(marks) else ""
        mark_row.append("⁇" if mark == "??" else "?" if mark == "?" else " ")
    return lines + ["".join(mark_row)]


class ScoreChart(Widget):
    """The winning chance over the game, sized to the widget."""

    DEFAULT_CSS = """
    ScoreChart {
        height: 10;
    }
    """

    def __init__(self, chances: Sequence[float], marks: Sequence[str], *, labels: tuple[str, str],
                 id: str | None = None) -> None:
        super().__init__(id=id)
        self.chances = list(chances)
        self.marks = list(marks)
        self.labels = labels

    def render(self) -> Text:
        label_width = max(len(label) for label in self.labels) + 1
        width = max(1, self.size.width - label_width)
        height = max(2, self.size.height - 1)
        lines = chart_lines(self.chances, self.marks, width, height)
        text = Text(no_wrap=True, overflow="crop", end="")
        half = (len(lines) - 2) // 2
        labels = {0: self.labels[0], half: "even", len(lines) - 2: self.labels[1]}
        for number, line in enumerate(lines):
            text.append(labels.get(number, "").ljust(label_width), "dim")
            style = ("bold green" if number < half else "dim" if number == half
                     else "bold red" if number < len(lines) - 1 else "bold yellow")
            text.append(line, style)
            if number < len(lines) - 1:
                text.append("\n")
        return text
