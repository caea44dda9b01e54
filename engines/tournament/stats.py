"""A match's figures as engine testers compare them: the fields of fastchess's summary.

:class:`MatchStats` holds what a pairing's games give -- wins, draws, losses
and the *pentanomial* counts of its finished pairs (games ``2k`` and ``2k+1``
share an opening, colours swapped) -- and computes from them:

- the **Elo** difference and its 95% margin: the mean pair score ``s`` (a
  pair scores 0, ¼, ½, ¾ or 1 of its two points), its variance ``σ²`` over the
  pairs, the interval ``s ± z·√(σ²/N)`` over ``N`` pairs, each end turned into
  Elo by the logistic ``-400·log10(1/s - 1)``; the margin is half the interval's
  width in Elo;
- **nElo**, the normalized Elo: ``(s - ½) / √(2σ²) · 800/ln 10`` -- the score's
  distance from even in units of its own spread, so that it does not depend
  on how drawish the games are -- with its margin the same way;
- **LOS**, the likelihood of superiority: ``Φ((s - ½) / √(σ²/N))``;
- the **draw ratio** (pairs scoring 1 of 2: two draws, or a win and a loss),
  the **pairs ratio** (pairs won, 2 or 1½, over pairs lost, 0 or ½) and the
  WL/DD ratio (win-loss pairs over drawn-drawn ones).

These are fastchess's pentanomial definitions (read in its ``elo_pentanomial``
and ``output_fastchess`` sources, written again here).  A run with no
finished pair yet (a single game) uses the trinomial ones instead, as
fastchess does without pairs: the game score, its variance over games, and
``√σ²`` in the nElo.  Values that do not exist (the Elo of a clean sweep, a
margin without spread) are infinite or ``nan``; :meth:`MatchStats.to_json`
gives them as ``null``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from .result import GameResult

__all__ = ["Z95", "NELO_SCALE", "MatchStats", "Pairs", "elo_difference", "expected_score", "pair_counts"]

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054
#: Elo per unit of normalized score in nElo: 800 / ln 10.
NELO_SCALE = 800 / math.log(10)
#: The share of its two points each pentanomial bucket scores (0 to 2 points).
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


def elo_difference(rate: float) -> float:
    """The Elo difference that expects a score rate ``rate`` (logistic model):
    ``-400 log10(1/rate - 1)``, infinite at 0 and 1 (``nan`` for ``nan``)."""
    if rate != rate:
        return math.nan
    if rate <= 0:
        return -math.inf
    if rate >= 1:
        return math.inf
    return -400 * math.log10(1 / rate - 1)


def expected_score(elo: float) -> float:
    """The score rate an Elo difference expects (the inverse of :func:`elo_difference`)."""
    return 1 / (1 + 10 ** (-elo / 400))


@dataclass(frozen=True)
class Pairs:
    """Finished pairs by what they scored for A: both lost (``ll``), a loss
    and a draw (``ld``), a win and a loss (``wl``), two draws (``dd``), a win
    and a draw (``wd``), both won (``ww``)."""

    ll: int = 0
    ld: int = 0
    wl: int = 0
    dd: int = 0
    wd: int = 0
    ww: int = 0

    @property
    def counts(self) -> list[int]:
        """``Ptnml(0-2)``: the pairs scoring 0, ½, 1, 1½ and 2 points."""
        return [self.ll, self.ld, self.wl + self.dd, self.wd, self.ww]

    @property
    def total(self) -> int:
        return self.ll + self.ld + self.wl + self.dd + self.wd + self.ww


def pair_counts(results: Iterable[GameResult]) -> Pairs:
    """The finished pairs of ``results`` (games ``2k`` and ``2k+1`` of one
    match; a pair whose other game is missing is not counted)."""
    pairs: dict[tuple[Any, int], list[float]] = {}
    for result in results:
        pairs.setdefault((result.match, result.index // 2), []).append(result.points("a"))
    buckets = dict.fromkeys(("ll", "ld", "wl", "dd", "wd", "ww"), 0)
    for points in pairs.values():
        if len(points) != 2:
            continue
        total = sum(points)
        if total == 1:
            buckets["dd" if points[0] == 0.5 else "wl"] += 1
        else:
            buckets[{0.0: "ll", 0.5: "ld", 1.5: "wd", 2.0: "ww"}[total]] += 1
    return Pairs(**buckets)


def moments(counts: Sequence[float], values: Sequence[float]) -> tuple[float, float]:
    """The mean and the variance of ``values`` weighted by ``counts`` (``nan`` without any)."""
    n = sum(counts)
    if n <= 0:
        return math.nan, math.nan
    mean = sum(c * v for c, v in zip(counts, values)) / n
    return mean, sum(c * (v - mean) ** 2 for c, v in zip(counts, values)) / n


@dataclass(frozen=True)
class MatchStats:
    """One pairing's results for A, and the figures fastchess prints from them (see the module doc)."""

    wins: int
    draws: int
    losses: int
    pairs: Pairs = Pairs()

    @classmethod
    def of(cls, results: Sequence[GameResult]) -> MatchStats:
        wins = sum(1 for result in results if result.winner == "a")
        losses = sum(1 for result in results if result.winner == "b")
        return cls(wins, len(results) - wins - losses, losses, pair_counts(results))

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    @property
    def pentanomial(self) -> bool:
        """Whether the figures come from the pairs (else from the games: no pair is finished)."""
        return self.pairs.total > 0

    @property
    def _sample(self) -> tuple[float, float, int, float]:
        """Mean score, its variance, the sample's size, and the factor of the variance in nElo."""
        if self.pentanomial:
            mean, variance = moments(self.pairs.counts, PAIR_SCORES)
            return mean, variance, self.pairs.total, 2.0
        mean, variance = moments([self.losses, self.draws, self.wins], (0.0, 0.5, 1.0))
        return mean, variance, self.games, 1.0

    @property
    def score(self) -> float:
        """A's mean score rate as the figures use it (pairs', or games' without pairs)."""
        return self._sample[0]

    @property
    def score_interval(self) -> tuple[float, float]:
        mean, variance, n, _ = self._sample
        half = Z95 * math.sqrt(variance / n) if n else math.nan
        return mean - half, mean + half

    @property
    def elo(self) -> float:
        return elo_difference(self.score)

    @property
    def elo_interval(self) -> tuple[float, float]:
        low, high = self.score_interval
        return elo_difference(low), elo_difference(high)

    @property
    def elo_error(self) -> float:
        """Half the 95% interval's width in Elo (fastchess's ``+/-``)."""
        low, high = self.elo_interval
        if low == high:  # no spread: no margin (a sweep, or every pair alike)
            return 0.0 if math.isfinite(low) else math.nan
        return (high - low) / 2

    def _nelo(self, score: float) -> float:
        mean, variance, _, factor = self._sample
        if variance > 0:
            return (score - 0.5) / math.sqrt(factor * variance) * NELO_SCALE
        return 0.0 if score == 0.5 else math.copysign(math.inf, score - 0.5) if score == score else math.nan

    @property
    def nelo(self) -> float:
        return self._nelo(self.score)

    @property
    def nelo_error(self) -> float:
        low, high = self.score_interval
        if low == high:
            return 0.0 if math.isfinite(self.nelo) else math.nan
        return (self._nelo(high) - self._nelo(low)) / 2

    @property
    def los(self) -> float:
        """The likelihood that A is the stronger (½ without games or spread at an even score)."""
        mean, variance, n, _ = self._sample
        if not n or mean != mean:
            return 0.5
        if variance <= 0:
            return 0.5 if mean == 0.5 else float(mean > 0.5)
        return 0.5 * (1 + math.erf((mean - 0.5) / math.sqrt(2 * variance / n)))

    @property
    def draw_ratio(self) -> float:
        """Pairs scoring 1 of 2 (games drawn, without pairs), as a share."""
        if self.pentanomial:
            return (self.pairs.wl + self.pairs.dd) / self.pairs.total
        return self.draws / self.games if self.games else math.nan

    @property
    def pairs_ratio(self) -> float:
        """Pairs won (2 or 1½ points) over pairs lost (0 or ½); infinite when none was lost."""
        return _ratio(self.pairs.ww + self.pairs.wd, self.pairs.ll + self.pairs.ld)

    @property
    def wl_dd_ratio(self) -> float:
        """Win-loss pairs over draw-draw pairs."""
        return _ratio(self.pairs.wl, self.pairs.dd)

    def to_json(self) -> dict[str, Any]:
        """Every figure, as JSON (a value that does not exist is ``null``)."""
        return {
            "games": self.games, "wins": self.wins, "losses": self.losses, "draws": self.draws,
            "points": self.points, "pairs": self.pairs.total,
            "model": "pentanomial" if self.pentanomial else "trinomial",
            "elo": _finite(self.elo), "elo_error": _finite(self.elo_error),
            "elo_interval": [_finite(value) for value in self.elo_interval],
            "nelo": _finite(self.nelo), "nelo_error": _finite(self.nelo_error),
            "los": _finite(self.los, 4), "draw_ratio": _finite(self.draw_ratio, 4),
            "pairs_ratio": _finite(self.pairs_ratio, 4), "wl_dd_ratio": _finite(self.wl_dd_ratio, 4),
            "ptnml": self.pairs.counts, "ptnml_wl_dd": [self.pairs.wl, self.pairs.dd],
        }

    def fastchess_lines(self, first: str, second: str) -> list[str]:
        """fastchess's summary of these games: ``Results of``, ``Elo``/``nElo``,
        ``LOS``/``DrawRatio``/``PairsRatio``, ``Games``, ``Ptnml(0-2)``."""
        points = self.points
        elo, nelo = self.elo + 0.0, self.nelo + 0.0  # no "-0.00"
        return [
            f"Results of {first} vs {second}:",
            f"Elo: {elo:.2f} +/- {self.elo_error:.2f}, nElo: {nelo:.2f} +/- {self.nelo_error:.2f}",
            f"LOS: {100 * self.los:.2f} %, DrawRatio: {100 * self.draw_ratio:.2f} %, "
            f"PairsRatio: {self.pairs_ratio:.2f}",
            f"Games: {self.games}, Wins: {self.wins}, Losses: {self.losses}, Draws: {self.draws}, "
            f"Points: {points:.1f} ({100 * points / max(1, self.games):.2f} %)",
            f"Ptnml(0-2): [{', '.join(map(str, self.pairs.counts))}], WL/DD Ratio: {self.wl_dd_ratio:.2f}",
        ]


def _ratio(numerator: int, denominator: int) -> float:
    if denominator:
        return numerator / denominator
    return math.inf if numerator else math.nan


def _finite(value: float, digits: int = 2) -> float | None:
    return round(value, digits) if math.isfinite(value) else None
