"""How figures read, wherever they are shown: search scores, lines and counts (the command line,
the app's engine panel), and the rates, Elo differences, averages and times of the match,
tournament and lab tables."""

from __future__ import annotations

import math
from typing import Sequence

from engines import Option

__all__ = ["bar", "first_player_view", "plies_text", "CUTOFF_STATS", "ENGINE_COUNTS", "visits_text", "score_text", "line_text", "count_text", "default_text", "percent_text", "elo_text",
           "number_text", "seconds_text", "counted", "illegal_text"]

#: Counters of the cutoff engines (seeds' H0/HL/Hr), shown when non-zero.
CUTOFF_STATS = ("h0_evals", "h0_pruned", "hl_evals", "hl_pruned", "hr_evals", "hr_pruned")
#: Counters only some engines keep, shown where a search's figures are when non-zero: the cutoffs',
#: and the playouts of a Monte Carlo search (``mcts``).
ENGINE_COUNTS = (*CUTOFF_STATS, "playouts")


def visits_text(visits: Sequence[tuple[str, int, float, str | None]], most: int = 3) -> str:
    """The most visited root moves of a Monte Carlo search, each with its visits and its mean
    result for the side to move (or what the search proved): ``d3 181 48%, c4 175 47%``."""
    return ", ".join(f"{move} {count_text(count)} {proven or f'{value:.0%}'}"
                     for move, count, value, proven in visits[:most])


def score_text(score: int, mate: int | None) -> str:
    """A score: centi-units, or ``mate N`` (negative: mated)."""
    return f"mate {mate}" if mate is not None else str(score)


def line_text(moves: Sequence[str]) -> str:
    """Moves separated by spaces, or by commas when a move has spaces (Quixo's ``1 4 top``)."""
    return (", " if any(" " in move for move in moves) else " ").join(moves)


def counted(count: int, noun: str) -> str:
    """``1 legal move``, ``3 legal moves``: a count and its noun, plural when it is not one."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def first_player_view(score: float, mate: int | None, mover: int) -> tuple[float, int | None]:
    """A score and mate for the side to move (``mover``) as the first player's (side 0):
    the one view every score the app shows takes."""
    sign = 1 if mover == 0 else -1
    return sign * score, None if mate is None else sign * mate


def plies_text(plies: int) -> str:
    """``29 moves (57 plies)``: a game's length as players count it (a move is one of each
    side's), the plies beside it; ``1 ply`` and ``1 move (2 plies)`` read as they should."""
    if plies < 2:
        return counted(plies, "ply") if plies else "no moves"
    moves = (plies + 1) // 2
    return f"{counted(moves, 'move')} ({plies} plies)"


def illegal_text(error: object) -> str:
    """A game's refusal of a move as the player reads it: ``illegal: ...`` unless it says so itself."""
    text = str(error)
    return text if text.lower().startswith("illegal") else f"illegal: {text}"


def count_text(value: float) -> str:
    """A count in at most five characters: ``812``, ``12.3k``, ``4.56M``."""
    value = float(value)
    for bound, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= bound:
            scaled = value / bound
            return f"{scaled:.3g}{suffix}" if scaled < 100 else f"{scaled:.0f}{suffix}"
    return f"{value:.0f}"


def default_text(option: Option) -> str:
    """An engine option's default as a user would type it (``on``, ``1``, ``per game``)."""
    if option.default is None:
        return "per game" if option.name in ("heuristic", "cut") else "none"
    if option.kind is bool:
        return "on" if option.default else "off"
    return f"{option.default:g}" if option.kind is float else str(option.default)


def percent_text(rate: float) -> str:
    """A rate as a percentage with one decimal: ``76.2%``."""
    return f"{100 * rate:.1f}%"


def elo_text(value: float) -> str:
    """An Elo difference with its sign: ``+203``, ``-inf``."""
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"


def number_text(value: float) -> str:
    """An average in a table: whole from 100 up (``1,154``), else one decimal (``83.5``)."""
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:,.1f}"


def seconds_text(value: float) -> str:
    """Seconds: ``0.015 s`` under ten, ``34.1 s`` from there."""
    return f"{value:.3f} s" if value < 10 else f"{value:,.1f} s"


#: Eighths of a character cell, for :func:`bar`.
_EIGHTHS = " ▏▎▍▌▋▊▉"


def bar(share: float, width: int) -> str:
    """A horizontal bar ``share`` (0 to 1) of ``width`` cells long, drawn in eighths of a cell."""
    eighths = round(max(0.0, min(1.0, share)) * width * 8)
    full, rest = divmod(eighths, 8)
    return ("█" * full + (_EIGHTHS[rest] if rest else "")).ljust(width)
