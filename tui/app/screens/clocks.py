"""The clocks on the game screen, and games that end off the board.

:class:`Clocks` is mixed into :class:`~tui.app.screens.game.GameScreen`.  A
timer (every :data:`CLOCK_INTERVAL` seconds) runs the clock of the side to
move -- except while the game is over, paused, reviewed, reported on or behind
a dialog, and until both sides have made their first move (as on lichess) --
redraws both :class:`~tui.app.widgets.clock_view.ClockView` s and
ends the game when a clock falls: the other side wins on time (chess: a draw
when it has no mating material).  An engine side thinks for the share of its
clock :func:`engines.timing.time_for_move` gives, no longer than the time its
spec sets (a depth or node limit of the spec holds too).  Undo and "play from here" put the clocks back as they were after that
move (:meth:`games.clock.Clock.back_to`); review shows them as they were.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from engines import Limits, parse_engine_spec
from engines.timing import time_for_move
from games import Outcome
from games.records import describe_outcome

from ..widgets.clock_view import ClockView

if TYPE_CHECKING:
    from .game import GameScreen

__all__ = ["CLOCK_INTERVAL", "Clocks"]

#: How often the clocks are redrawn and checked for a flag fall (seconds).
CLOCK_INTERVAL = 0.1


class Clocks:
    """The clocks, and :meth:`end_game` for results decided off the board."""

    def end_game(self: GameScreen, outcome: Outcome, why: str = "") -> None:
        """The game ends off the board: a resignation, an agreed draw, a flag fall
        (``why`` comes first in the line under the board)."""
        self.cancel_search()
        self.cancel_coach("analysis", "hint")
        self.verdict = outcome
        if self.clock is not None:
            self.clock.stop(time.monotonic())
        said = describe_outcome(self.game, outcome) or ""
        self.say(f"{why} — {said}" if why else said)
        self.next_turn()

    def clock_side(self: GameScreen) -> int | None:
        """The side whose clock runs now: the side to move, unless the game is over,
        paused, reviewed, reported on or behind a dialog -- or both sides have not
        made their first move yet (as on lichess: nobody loses on time before moving)."""
        if (self.clock is None or self.outcome() is not None or not self.is_active or self.review is not None
                or (self.paused and not self.stepping) or self.report_running or len(self.moves) < 2):
            return None
        return self.game.turn

    def clock_limits(self: GameScreen, side: int) -> Limits | None:
        """An engine's limits under its clock (``None`` without clocks: the spec's own).

        The clock's budget, capped by the time the spec sets explicitly
        (``pvs:time=0.5`` stays a fast player); a depth or node limit the spec
        sets still holds."""
        if self.clock is None:
            return None
        left = self.clock.left(side, time.monotonic())
        budget = time_for_move(left * 1000, self.clock.control.increment * 1000)
        given = parse_engine_spec(self.setup.players[side]).options
        if given.get("time") is not None:
            budget = min(budget, float(given["time"]))
        return Limits(depth=given.get("depth"), time=budget, nodes=given.get("nodes"), flexible=True)

    def tick_clock(self: GameScreen) -> None:
        """Run the right clock, redraw both, and end the game when one falls (a timer calls this)."""
        clock = self.clock
        if clock is None:
            return
        now = time.monotonic()
        side = self.clock_side()
        if side is None:
            clock.stop(now)
        else:
            clock.start(side, now)
            if clock.flagged(side, now):
                self.end_game(self.flag_outcome(side))
        self.show_clocks(now)

    def flag_outcome(self: GameScreen, side: int) -> Outcome:
        """``side``'s time ran out: the other side wins, or draws when it cannot win
        (chess: no mating material)."""
        other = 1 - side
        if not self.game.can_win(other):
            return Outcome(None, f"time, but {self.sides[other]} cannot mate")
        return Outcome(other, "time")

    @property
    def bottom_side_shown(self: GameScreen) -> int:
        """The side drawn at the bottom now (after any flip)."""
        bottom = self.setup.bottom_side
        return bottom if self.board.flipped == self.board.painter.flipped_for(bottom) else 1 - bottom

    def show_clocks(self: GameScreen, now: float | None = None) -> None:
        clock = self.clock
        if clock is None:
            return
        now = time.monotonic() if now is None else now
        if self.review is not None:
            times = clock.at_ply(self.review)
            left = (lambda side: times[side])
        else:
            left = (lambda side: clock.left(side, now))
        bottom = self.bottom_side_shown
        for view_id, side in (("#clock-top", 1 - bottom), ("#clock-bottom", bottom)):
            self.query_one(view_id, ClockView).show(side, self.sides[side], left(side), clock.running == side)
