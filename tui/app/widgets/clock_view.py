"""One side's clock, shown beside its side of the board."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from games.clock import clock_text

__all__ = ["ClockView", "LOW_TIME"]

#: Under this many seconds the clock turns red.
LOW_TIME = 10.0


class ClockView(Widget):
    """``● White 4:59``: the side's time left; the running clock is bright."""

    DEFAULT_CSS = """
    ClockView {
        height: 1;
        padding: 0 1;
        color: $text-muted;
    }
    ClockView.-running {
        color: $text;
        text-style: bold;
        background: $boost;
    }
    ClockView.-low {
        color: $error;
    }
    """

    def __init__(self, side: int, side_name: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.side = side
        self.side_name = side_name
        self.seconds = 0.0
        self.running = False

    def show(self, side: int, side_name: str, seconds: float, running: bool) -> None:
        """Show ``side``'s time (the views swap sides when the board flips)."""
        if (side, seconds, running) == (self.side, self.seconds, self.running):
            return
        self.side, self.side_name, self.seconds, self.running = side, side_name, seconds, running
        self.set_class(running, "-running")
        self.set_class(seconds < LOW_TIME, "-low")
        self.refresh()

    @property
    def text(self) -> str:
        return f"{'●' if self.running else '○'} {self.side_name} {clock_text(self.seconds)}"

    def render(self) -> Text:
        return Text(self.text, no_wrap=True, end="")
