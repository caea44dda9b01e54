"""How long to think: one budget for UCI, the app's clocks and a match's.

:func:`time_for_move` spreads the time left over the moves still to go (when
nobody says: 30 with an increment, 50 in sudden death, where the clock must
last a long game) and spends 80% of the increment on top, never more than
half the time left (90% when one move remains), after keeping back a reserve
for the latency of processes and pipes: 50 ms, or a tenth of the time left
when that is less, so the budget follows the clock down to :data:`LEAST_TIME`
(1 ms) instead of stopping at a floor the clock no longer has.  Every budget
is less :data:`MOVE_OVERHEAD` (10 ms): what a move costs beyond its search
through a GUI is 1.6-2.7 ms at the least budget (python-chess, one process or
two), and charging 10 ms early on keeps enough for the end: at 1 s + 0 a game
of 200 moves a side fits on the clock (with 5 ms it was 168, and a 149-move
game was lost on time).  Such a budget is
*flexible*: the search may end early when its next depth would not finish.

:func:`fixed_time` is the budget for a fixed time (UCI's ``movetime``): used
in full, less a margin of at most 5% of it.
"""

from __future__ import annotations

from .base import Clocks, Limits

__all__ = ["DEFAULT_MOVES_TO_GO", "FOREVER", "INCREMENT_SHARE", "LEAST_TIME", "MOVE_OVERHEAD", "SAFETY_MARGIN",
           "SUDDEN_DEATH_MOVES_TO_GO", "clock_limits", "fixed_time", "time_for_move"]

#: Seconds kept back from every clock-derived budget (process and pipe latency), at most.
SAFETY_MARGIN = 0.05
#: Moves the remaining time is spread over when nobody says and an increment comes with each move.
DEFAULT_MOVES_TO_GO = 30
#: The same without an increment (sudden death): the clock must last a long game, 60 moves and more.
SUDDEN_DEATH_MOVES_TO_GO = 50
#: Seconds each move costs beyond its search (our process and the GUI's pipes), taken off every budget.
MOVE_OVERHEAD = 0.010
#: Share of the increment spent on top of the base budget.
INCREMENT_SHARE = 0.8
#: The least budget, in seconds: a search always gets to choose a move.
LEAST_TIME = 0.001
#: A budget no search reaches: search until told to stop (UCI's ``go infinite``, analysis).
FOREVER = 1e9


def time_for_move(remaining_ms: float, increment_ms: float = 0, moves_to_go: int | None = None) -> float:
    """Seconds to think with ``remaining_ms`` on the clock (never below :data:`LEAST_TIME`)."""
    remaining = max(0.0, remaining_ms) / 1000
    usable = remaining - min(SAFETY_MARGIN, remaining / 10)  # the reserve stays on the clock
    increment = max(0.0, increment_ms) / 1000
    if moves_to_go and moves_to_go > 0:
        horizon = moves_to_go
    else:
        horizon = DEFAULT_MOVES_TO_GO if increment > 0 else SUDDEN_DEATH_MOVES_TO_GO
    budget = usable / horizon + INCREMENT_SHARE * increment
    budget = min(budget, usable * (0.9 if horizon == 1 else 0.5))
    return max(LEAST_TIME, budget - MOVE_OVERHEAD)


def fixed_time(milliseconds: float) -> float:
    """Seconds to search for a fixed ``milliseconds`` (UCI ``movetime``): all of
    it but a margin of 5% (at most :data:`SAFETY_MARGIN`) for the answer to arrive."""
    seconds = max(0.0, milliseconds) / 1000
    return max(LEAST_TIME, seconds - min(SAFETY_MARGIN, 0.05 * seconds))


def clock_limits(own: Limits, clocks: Clocks, side: int) -> Limits:
    """The limits of ``side``'s move under ``clocks``: the flexible budget
    :func:`time_for_move` gives for its clock, under the depth and node limits
    of ``own`` (an engine's own limits), with the clocks attached for an
    engine that manages its time itself (a UCI engine)."""
    budget = time_for_move(clocks.left[side] * 1000, clocks.increment[side] * 1000, clocks.moves_to_go)
    return Limits(own.depth, budget, own.nodes, flexible=True, clocks=clocks)
