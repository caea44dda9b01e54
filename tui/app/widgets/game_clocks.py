"""The game's clocks: the :class:`games.clock.Clock`, its two views and its timer.

:class:`GameClocks` is a widget without a look of its own (the two
:class:`~tui.app.widgets.clock_view.ClockView` s it holds are placed by the
game screen, above and below the board).  The screen tells it what it needs:
:attr:`GameClocks.running` is the side whose clock runs (``None``: stopped --
the game is over, paused, reviewed, reported on or behind a dialog),
:attr:`GameClocks.review` the ply reviewed (the clocks then show the times
after that move), :attr:`GameClocks.bottom` the side drawn at the bottom (after
a flip).  The :class:`~games.clock.Clock` itself is the game controller's
(:mod:`tui.app.controller`), which presses it for each move, takes it back on
an undo and gives an engine side its limits from it.  Every
:data:`CLOCK_INTERVAL` seconds the timer here runs the clock and redraws both views; when the running side's time is out it posts
:class:`GameClocks.Flagged`, and the screen decides what that means.
"""

from __future__ import annotations

import time

from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from games.clock import Clock

from .clock_view import ClockView

__all__ = ["CLOCK_INTERVAL", "GameClocks"]

#: How often the clocks are redrawn and checked for a flag fall (seconds).
CLOCK_INTERVAL = 0.1


class GameClocks(Widget):
    """Both sides' clocks (``clock`` ``None``: the game has none and nothing here does anything)."""

    DEFAULT_CSS = """
    GameClocks {
        display: none;
    }
    """

    class Flagged(Message):
        """``side``'s time ran out while its clock ran."""

        def __init__(self, side: int) -> None:
            super().__init__()
            self.side = side

    #: The side whose clock runs, or ``None``.
    running: reactive[int | None] = reactive(None, init=False)
    #: The ply reviewed (the times after that move are shown), or ``None``: the game's.
    review: reactive[int | None] = reactive(None, init=False)
    #: The side drawn at the bottom now.
    bottom: reactive[int] = reactive(0, init=False)

    def __init__(self, clock: Clock | None, sides: tuple[str, str], bottom: int) -> None:
        super().__init__()
        self.clock = clock
        self.sides = sides
        self.set_reactive(GameClocks.bottom, bottom)
        #: The views, top and bottom (none without a clock), for the screen to place.
        self.views: tuple[ClockView, ...] = () if clock is None else (
            ClockView(1 - bottom, sides[1 - bottom], id="clock-top"),
            ClockView(bottom, sides[bottom], id="clock-bottom"),
        )
        self._flag_posted: int | None = None
        #: How many times the timer has run the clocks (what a test waits for instead of a time).
        self.ticks = 0

    def on_mount(self) -> None:
        if self.clock is not None:
            self.set_interval(CLOCK_INTERVAL, self.tick)

    def watch_running(self) -> None:
        self._flag_posted = None
        self.tick()  # the side's clock runs from now, not from the next tick

    def watch_review(self) -> None:
        self.show()

    def watch_bottom(self) -> None:
        self.show()

    # -- what the screen tells --------------------------------------------------------

    def stop(self) -> None:
        """Stop the clocks now (the game ended, a dialog opened), before the screen says so."""
        if self.clock is not None:
            self.clock.stop(time.monotonic())
        self.running = None

    # -- the timer -------------------------------------------------------------------------

    def tick(self) -> None:
        """Run the right clock, redraw both, and say when one falls (the timer calls this)."""
        clock = self.clock
        if clock is None:
            return
        self.ticks += 1
        now = time.monotonic()
        side = self.running
        if side is None:
            clock.stop(now)
        else:
            clock.start(side, now)
            if clock.flagged(side, now) and self._flag_posted != side:
                self._flag_posted = side
                self.post_message(self.Flagged(side))
        self.show(now)

    def show(self, now: float | None = None) -> None:
        """Redraw both views: the times left now, or after the move reviewed."""
        clock = self.clock
        if clock is None or not self.views:
            return
        now = time.monotonic() if now is None else now
        review = self.review
        times = clock.at_ply(review) if review is not None else None
        top, bottom = self.views
        for view, side in ((top, 1 - self.bottom), (bottom, self.bottom)):
            left = times[side] if times is not None else clock.left(side, now)
            view.show(side, self.sides[side], left, clock.running == side)
