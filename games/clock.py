"""Game clocks: a time control (``MIN+INC``) and the two sides' clocks.

:class:`TimeControl` is what ``--clock 5+3`` names: five minutes for each
side and three seconds added after each of its moves (``0.1+0`` is six
seconds, no increment).  Matches name theirs in seconds, as engine testers
do (:meth:`TimeControl.parse_seconds`): ``10+0.1``, and ``40/60+0.6`` for
60 seconds every 40 moves (the base is added again after each 40th move).  :class:`Clock` runs one side at a time and keeps the
time left after every move, so taking a move back (or looking at an earlier
position) puts the clocks back as they were then.  The clock does not read
the time itself: every call takes ``now`` (seconds, e.g. ``time.monotonic()``),
so it can be driven exactly in tests.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

__all__ = ["Clock", "ClockError", "TimeControl", "clk_text", "clock_text"]

#: A number as a time control's parts may be written: signed or with an exponent too, so that
#: ``-1+0`` or ``1e9+0`` is refused for its value (out of range), not for its spelling.
_NUMBER = r"(-?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)"
_CONTROL_RE = re.compile(rf"^\s*{_NUMBER}\s*(?:\+\s*{_NUMBER})?\s*$")
_SECONDS_RE = re.compile(rf"^\s*(?:([0-9]+)\s*/\s*)?{_NUMBER}\s*(?:\+\s*{_NUMBER})?\s*$")

#: The longest base time accepted (minutes): a day.
MAX_MINUTES = 24 * 60.0
#: The largest increment accepted (seconds).
MAX_INCREMENT = 3600.0


class ClockError(ValueError):
    """A time control that cannot be read; the message says what is expected."""


@dataclass(frozen=True)
class TimeControl:
    """``base`` seconds for each side, ``increment`` seconds added after each of its moves;
    with ``moves``, the base is added again after every ``moves`` moves of a side."""

    base: float
    increment: float = 0.0
    moves: int | None = None

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``"5+3"`` (minutes + seconds), ``"0.1+0"``, ``"10"``; :class:`ClockError` otherwise."""
        match = _CONTROL_RE.match(text or "")
        if match is None:
            raise ClockError(f"bad clock {text!r}: expected MIN+INC, e.g. 5+3 (five minutes, "
                             "three seconds a move) or 0.1+0 (six seconds)")
        minutes = float(match.group(1))
        increment = float(match.group(2) or 0)
        if not 0 < minutes <= MAX_MINUTES:
            raise ClockError(f"bad clock {text!r}: the minutes must be above 0 and at most {MAX_MINUTES:g}")
        if not 0 <= increment <= MAX_INCREMENT:
            raise ClockError(f"bad clock {text!r}: the increment is 0 to {MAX_INCREMENT:g} seconds")
        return cls(minutes * 60.0, increment)

    @classmethod
    def parse_seconds(cls, text: str) -> TimeControl:
        """``"10+0.1"``, ``"60"``, ``"40/60+0.6"`` (moves / seconds + seconds), as
        engine testers write a time control; :class:`ClockError` otherwise."""
        match = _SECONDS_RE.match(text or "")
        if match is None:
            raise ClockError(f"bad time control {text[:40]!r}: expected BASE+INC in seconds, e.g. 10+0.1, "
                             f"or MOVES/BASE+INC, e.g. 40/60+0.6 (60 seconds every 40 moves)")
        moves = int(match.group(1)) if match.group(1) else None
        base = float(match.group(2))
        increment = float(match.group(3) or 0)
        if not 0 < base <= MAX_MINUTES * 60:
            raise ClockError(f"bad time control {text[:40]!r}: the base must be above 0 and at most "
                             f"{MAX_MINUTES * 60:g} seconds")
        if not 0 <= increment <= MAX_INCREMENT:
            raise ClockError(f"bad time control {text[:40]!r}: the increment is 0 to {MAX_INCREMENT:g} seconds")
        if moves is not None and moves < 1:
            raise ClockError(f"bad time control {text[:40]!r}: a period has 1 move or more")
        return cls(base, increment, moves)

    @property
    def pgn_tag(self) -> str:
        """The PGN ``TimeControl`` value: ``300+3`` (seconds + seconds), ``40/60+0.6`` with moves."""
        return self.seconds_text

    @property
    def seconds_text(self) -> str:
        """The control in seconds as :meth:`parse_seconds` reads it: ``10+0.1``, ``40/60+0.6``."""
        period = f"{self.moves}/" if self.moves else ""
        return f"{period}{_seconds_text(self.base)}+{_seconds_text(self.increment)}"

    def __str__(self) -> str:
        """``5+3`` as typed (minutes + seconds)."""
        return f"{self.base / 60:g}+{self.increment:g}"


def _seconds_text(seconds: float) -> str:
    return str(int(seconds)) if float(seconds).is_integer() else f"{seconds:g}"


def clock_text(seconds: float) -> str:
    """``4:59``, ``1:02:03``, and tenths under ten seconds: ``0:07.3``."""
    seconds = max(0.0, seconds)
    if seconds < 10:
        tenths = math.floor(seconds * 10) / 10
        return f"0:{tenths:04.1f}"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def clk_text(seconds: float) -> str:
    """A PGN ``[%clk]`` value: ``0:04:59``, with tenths under ten seconds (``0:00:07.3``)."""
    seconds = max(0.0, seconds)
    hours, rest = divmod(int(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    if seconds < 10:
        return f"0:00:{math.floor(seconds * 10) / 10:04.1f}"
    return f"{hours}:{minutes:02d}:{secs:02d}"


class Clock:
    """The two sides' clocks under one :class:`TimeControl`.

    One side's clock runs at a time (:meth:`start`); :meth:`press` ends its
    move: the time used is taken off, the increment added, and the times left
    are kept for that ply (:meth:`back_to` restores them).  :meth:`stop`
    halts the running clock without ending a move (pause, a dialog).
    """

    def __init__(self, control: TimeControl, plies: int = 0) -> None:
        self.control = control
        #: Time left after each ply, ``history[0]`` at the start; ``plies``
        #: moves already played (a game read from a file) start with full clocks.
        self.history: list[tuple[float, float]] = [(control.base, control.base)] * (plies + 1)
        self._left = [control.base, control.base]
        self.running: int | None = None
        self._since = 0.0

    def left(self, side: int, now: float) -> float:
        """Seconds left on ``side``'s clock at ``now`` (never below 0)."""
        left = self._left[side]
        if self.running == side:
            left -= now - self._since
        return max(0.0, left)

    def start(self, side: int, now: float) -> None:
        """Run ``side``'s clock from ``now`` (stopping the other one's)."""
        if self.running == side:
            return
        self.stop(now)
        self.running = side
        self._since = now

    def stop(self, now: float) -> None:
        """Halt the running clock, keeping the time it used."""
        if self.running is not None:
            self._left[self.running] = self.left(self.running, now)
            self.running = None

    def press(self, side: int, now: float) -> None:
        """``side`` made a move at ``now``: its time is taken off and the increment added."""
        if self.running == side:
            self.stop(now)
        self._left[side] += self.control.increment
        self.history.append((self._left[0], self._left[1]))

    def set(self, left: tuple[float, float], running: int | None, now: float) -> None:
        """Show the times another keeps (a network game's host): ``left`` at ``now``, ``running``'s
        clock running from then (the history is not touched)."""
        self._left = [max(0.0, float(left[0])), max(0.0, float(left[1]))]
        self.running = running
        self._since = now

    def flagged(self, side: int, now: float) -> bool:
        """Whether ``side`` has run out of time."""
        return self.left(side, now) <= 0.0

    def back_to(self, ply: int) -> None:
        """Take the clocks back to how they stood after ``ply`` moves (an undo); stopped."""
        del self.history[ply + 1:]
        self.running = None
        self._left = list(self.history[-1])

    def standing(self, now: float) -> list[tuple[float, float]]:
        """The history with its last entry as the clocks stand at ``now``: the time the side to
        move has used since the last move taken off (a game kept to be continued)."""
        return self.history[:-1] + [(self.left(0, now), self.left(1, now))]

    def at_ply(self, ply: int) -> tuple[float, float]:
        """The times left after ``ply`` moves (for review), the last known if beyond."""
        return self.history[min(ply, len(self.history) - 1)]
