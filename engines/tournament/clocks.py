"""The clocks of a match's game: what each engine is told, and who loses on time.

Each side has its own :class:`~games.clock.TimeControl` (the match's ``tc``,
or the ``tc=`` of its engine's spec: time odds).  The match measures every
search on the wall clock, around the call (:meth:`MatchClocks.spend`): the
time is taken off the mover's clock; a move that took more than the time left
plus the margin (``timemargin``, milliseconds) loses on time -- a draw when
the other side could not win (:meth:`games.Game.can_win`: chess without
mating material) -- and one within the margin leaves the clock at zero.
Then the increment is added, and with ``MOVES/BASE+INC`` the base again after
every ``MOVES`` moves of that side.  The opening's moves are not timed.

Engines are told their clocks (:meth:`MatchClocks.limits`): ours through the
budget the app gives them (:func:`engines.timing.clock_limits`), a UCI engine
as its ``go wtime btime winc binc movestogo``.  An engine whose spec sets a
time of its own (``pvs:time=2``) thinks that long whatever its clock says --
and loses on time when that is more than it has.
"""

from __future__ import annotations

from games import Game, Outcome, Termination
from games.clock import TimeControl

from ..base import Clocks, Engine, Limits
from ..timing import clock_limits

__all__ = ["MatchClocks", "TIME"]

#: The reason a game lost on time gives.
TIME = Termination.TIME


class MatchClocks:
    """Both players' clocks in one game: ``controls[player]`` for the first player (0) and the second."""

    def __init__(self, controls: tuple[TimeControl, TimeControl], margin_ms: int = 0) -> None:
        self.controls = controls
        self.margin = margin_ms / 1000
        self.left = [controls[0].base, controls[1].base]
        self.moves = [0, 0]

    def moves_to_go(self, player: int) -> int | None:
        """Moves ``player`` has until its base comes again (``None``: it never does)."""
        period = self.controls[player].moves
        return None if period is None else period - self.moves[player] % period

    def clocks(self, player: int) -> Clocks:
        """Both clocks as ``player`` is about to move."""
        return Clocks((self.left[0], self.left[1]), (self.controls[0].increment, self.controls[1].increment),
                      self.moves_to_go(player), self.margin)

    def limits(self, engine: Engine, player: int) -> Limits:
        """The limits of ``engine``'s search as ``player``: its spec's own time if it sets
        one (fixed, whatever the clock), else the clock's budget under its depth or node limit."""
        own = engine.limits()
        if "time" in engine.spec.options:
            return own
        return clock_limits(own, self.clocks(player), player)

    def spend(self, player: int, seconds: float) -> bool:
        """``player`` moved in ``seconds``: its clock runs down, then gains the increment
        (and its base at the end of a period).  False when it overstepped: it lost on time."""
        left = self.left[player] - seconds
        if left < -self.margin:
            self.left[player] = 0.0
            return False
        control = self.controls[player]
        self.moves[player] += 1
        left = max(0.0, left) + control.increment
        if control.moves and self.moves[player] % control.moves == 0:
            left += control.base
        self.left[player] = left
        return True

    @staticmethod
    def flag_outcome(game: Game, player: int) -> Outcome:
        """``player``'s clock fell: the other side wins, or draws when it cannot win."""
        other = 1 - player
        if not game.can_win(other):
            return Outcome(None, TIME, f"{TIME}, {game.PLAYERS[other]} cannot win")
        return Outcome(other, TIME)
