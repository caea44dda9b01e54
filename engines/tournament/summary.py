"""A match's summary: W/D/L, the score with a Wilson 95% interval, the Elo
difference with its interval, the average cost per move of each side, and
fastchess's figures (:class:`~engines.tournament.stats.MatchStats`: Elo from
the pairs, nElo, LOS, draw and pairs ratios, the pentanomial counts).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable

from .config import MatchConfig
from .result import RESULTS, TOTALS, AgentTotals, GameResult, is_forfeit
from .stats import Z95, MatchStats, Pairs, elo_difference, pair_counts

__all__ = ["Z95", "AgentSummary", "MatchSummary", "summarize", "wilson_interval", "elo_difference",
           "running_score"]

def wilson_interval(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``score / n`` (``score`` may
    count draws as halves); ``(0, 1)`` when ``n`` is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = score / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z2 / (4 * n * n))) / denominator
    low = 0.0 if score <= 0 else max(0.0, centre - half)  # exact ends, not rounding errors
    high = 1.0 if score >= n else min(1.0, centre + half)
    return low, high


@dataclass
class AgentSummary:
    """One side of a match summary: results and the totals of its moves."""

    agent: str
    spec: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    #: Results when this agent moved first (from the start) and second: W, D, L.
    first: list[int] = field(default_factory=lambda: [0, 0, 0])
    second: list[int] = field(default_factory=lambda: [0, 0, 0])
    #: The totals over all its moves.
    totals: AgentTotals = field(default_factory=AgentTotals)
    #: Games it lost by forfeit (an external engine that missed a deadline, moved illegally, died ...).
    forfeits: int = 0

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    def per_move(self, name: str) -> float:
        """The average of statistic ``name`` over this agent's moves."""
        return self.totals.per_move(name)


@dataclass
class MatchSummary:
    """The summary of the games of one pairing (game, spec A, spec B)."""

    game: str
    a: AgentSummary
    b: AgentSummary
    games: int = 0
    #: Games planned (the ``games`` of the match keys seen).
    planned: int = 0
    plies: int = 0
    wall_s: float = 0.0
    #: reason -> {"a": wins of A, "b": wins of B, "draw": draws}.
    reasons: dict[str, dict[str, int]] = field(default_factory=dict)
    #: The finished pairs (games 2k and 2k+1 of a match) by what they scored for A.
    pairs: Pairs = field(default_factory=Pairs)

    @property
    def stats(self) -> MatchStats:
        """fastchess's figures for A: Elo and nElo with their margins, LOS, ratios, pentanomial."""
        return MatchStats(self.a.wins, self.a.draws, self.a.losses, self.pairs)

    @property
    def score(self) -> float:
        """A's score rate (draws count a half)."""
        return self.a.points / self.games if self.games else 0.5

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of A's score rate."""
        return wilson_interval(self.a.points, self.games)

    @property
    def elo(self) -> float:
        """A's Elo advantage over B."""
        return elo_difference(self.score)

    @property
    def elo_interval(self) -> tuple[float, float]:
        low, high = self.interval
        return elo_difference(low), elo_difference(high)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (infinite Elo values as ``None``)."""

        def finite(value: float) -> float | None:
            return round(value, 1) if math.isfinite(value) else None

        def agent(side: AgentSummary) -> dict[str, Any]:
            averages = {name: round(side.per_move(name), 4) for name in TOTALS}
            return {
                "spec": side.spec, "wins": side.wins, "draws": side.draws, "losses": side.losses,
                "forfeits": side.forfeits,
                "points": side.points, "as_first": side.first, "as_second": side.second,
                "moves": side.totals.moves,
                "totals": {name: round(value, 4) for name, value in side.totals.to_json().items()},
                "per_move": averages,
            }

        low, high = self.interval
        elo_low, elo_high = self.elo_interval
        return {
            "game": self.game, "games": self.games, "planned": self.planned,
            "a": agent(self.a), "b": agent(self.b),
            "score": round(self.score, 4), "score_interval": [round(low, 4), round(high, 4)],
            "elo": finite(self.elo), "elo_interval": [finite(elo_low), finite(elo_high)],
            "stats": self.stats.to_json(),
            "reasons": self.reasons, "average_plies": round(self.plies / self.games, 1) if self.games else 0,
            "wall_s": round(self.wall_s, 2),
        }


def summarize(results: Iterable[GameResult]) -> list[MatchSummary]:
    """One summary per pairing (game, spec A, spec B), in order of first appearance."""
    summaries: dict[tuple[str, str, str], MatchSummary] = {}
    planned: dict[tuple[str, str, str], set[MatchConfig]] = {}
    games: dict[tuple[str, str, str], list[GameResult]] = {}
    for result in results:
        match = result.match
        pairing = (match.game, match.a, match.b)
        summary = summaries.get(pairing)
        if summary is None:
            summary = summaries[pairing] = MatchSummary(match.game, AgentSummary("a", match.a),
                                                        AgentSummary("b", match.b))
            planned[pairing] = set()
            games[pairing] = []
        games[pairing].append(result)
        if match not in planned[pairing]:
            planned[pairing].add(match)
            summary.planned += match.games
        summary.games += 1
        summary.plies += result.plies
        summary.wall_s += result.wall_s
        counts = summary.reasons.setdefault(result.reason, dict.fromkeys(RESULTS, 0))
        counts[result.outcome] += 1
        for side in (summary.a, summary.b):
            outcome = {1.0: 0, 0.5: 1, 0.0: 2}[result.points(side.agent)]  # W, D, L
            if outcome == 0:
                side.wins += 1
            elif outcome == 1:
                side.draws += 1
            else:
                side.losses += 1
                side.forfeits += is_forfeit(result.reason)
            (side.first if result.first == side.agent else side.second)[outcome] += 1
            side.totals += result.totals[side.agent]
    for pairing, summary in summaries.items():
        summary.pairs = pair_counts(games[pairing])
    return list(summaries.values())


def running_score(results: Iterable[GameResult]) -> tuple[float, float]:
    """Points of A and of B over ``results``."""
    a = b = 0.0
    for result in results:
        a += result.points("a")
        b += result.points("b")
    return a, b


