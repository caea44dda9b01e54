"""How long to think with a clock: one budget for UCI and the app's clocks.

:func:`time_for_move` spreads the time left over the moves still to go (30
when nobody says) and spends 80% of the increment on top, never more than
half the time left (90% when one move remains), less a safety margin for the
latency of processes and pipes.
"""

from __future__ import annotations

__all__ = ["DEFAULT_MOVES_TO_GO", "FOREVER", "INCREMENT_SHARE", "SAFETY_MARGIN", "time_for_move"]

#: Seconds kept back from every clock-derived budget (process and pipe latency).
SAFETY_MARGIN = 0.05
#: Moves the remaining time is spread over when nobody says.
DEFAULT_MOVES_TO_GO = 30
#: Share of the increment spent on top of the base budget.
INCREMENT_SHARE = 0.8
#: A budget no search reaches: search until told to stop (UCI's ``go infinite``, analysis).
FOREVER = 1e9


def time_for_move(remaining_ms: float, increment_ms: float = 0, moves_to_go: int | None = None) -> float:
    """Seconds to think with ``remaining_ms`` on the clock (never below 10 ms)."""
    remaining = max(0.0, remaining_ms) / 1000
    increment = max(0.0, increment_ms) / 1000
    horizon = moves_to_go if moves_to_go and moves_to_go > 0 else DEFAULT_MOVES_TO_GO
    budget = remaining / horizon + INCREMENT_SHARE * increment
    budget = min(budget, remaining * (0.9 if horizon == 1 else 0.5))
    return max(0.01, budget - SAFETY_MARGIN)
