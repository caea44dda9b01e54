"""The sequential probability ratio test on paired games, as engine testers run it.

A match's games come in pairs (games ``2k`` and ``2k+1`` share an opening,
colours swapped).  Each finished pair scores 0, ½, 1, 1½ or 2 points for A:
the *pentanomial* counts.  Scoring pairs rather than games takes out the
opening's bias, so the test needs fewer games than a trinomial one.

The hypotheses are Elo differences (logistic: a score ``s`` is ``-400
log10(1/s - 1)`` Elo): H0 "A is ``elo0`` stronger", H1 "A is ``elo1``
stronger".  The log-likelihood ratio is the generalised one (GSPRT): for each
hypothesis, the pentanomial distribution closest to the observed one (maximum
likelihood) whose mean score is that hypothesis's; the LLR is the
log-likelihood of the counts under the H1 distribution minus under H0's
(fishtest's and fastchess's test; their normal approximation agrees with
it for small Elo gaps).
The test stops when the LLR leaves ``(log(β/(1-α)), log((1-β)/α))``: below,
H0 is accepted; above, H1.  Empty buckets get a tiny count (1e-3) so that
the distributions stay positive; so a one-sided run (every pair won 2-0)
has almost no spread to measure, and crosses more slowly than its score
suggests (about 0.13 of LLR a pair for H1 = +50).

:func:`los` is the likelihood of superiority from wins and losses alone
(cutechess's); the report uses fastchess's figures from the pairs
(:class:`~engines.tournament.stats.MatchStats`), and :func:`pair_elo` is
their Elo estimate with its 95% interval.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from .result import GameResult
from .stats import MatchStats, Pairs, expected_score, pair_counts

__all__ = ["SPRT", "SprtState", "pentanomial", "llr", "los", "pair_elo", "parse_sprt"]

#: The points a pair can score for A, as a rate of the pair's two points.
_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
_EMPTY = 1e-3


def pentanomial(results: Iterable[GameResult]) -> list[int]:
    """The counts of finished pairs scoring 0, ½, 1, 1½ and 2 points for A
    (a pair whose second game is not finished yet is not counted)."""
    return pair_counts(results).counts


def _closest(probabilities: Sequence[float], score: float) -> list[float]:
    """The distribution on :data:`_SCORES` of mean ``score`` that maximises the
    likelihood of ``probabilities``: ``p_i / (1 + λ (a_i - score))`` with λ
    found by bisection (the constraint is monotone in λ)."""
    shifted = [a - score for a in _SCORES]
    high = max(shifted)
    low = min(shifted)
    # 1 + λ x_i > 0 for every i: λ in (-1/high, -1/low).
    lo = -1 / high + 1e-12 if high > 0 else -1e9
    hi = -1 / low - 1e-12 if low < 0 else 1e9

    def excess(lam: float) -> float:
        return sum(p * x / (1 + lam * x) for p, x in zip(probabilities, shifted))

    for _ in range(200):
        middle = (lo + hi) / 2
        if excess(middle) > 0:
            lo = middle
        else:
            hi = middle
    lam = (lo + hi) / 2
    weights = [p / (1 + lam * x) for p, x in zip(probabilities, shifted)]
    total = sum(weights)
    return [w / total for w in weights]


def llr(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) for
    pentanomial ``counts`` (see the module doc); 0 with no pairs."""
    if sum(counts) == 0:
        return 0.0
    regularised = [count if count > 0 else _EMPTY for count in counts]
    total = sum(regularised)
    probabilities = [count / total for count in regularised]
    h0 = _closest(probabilities, expected_score(elo0))
    h1 = _closest(probabilities, expected_score(elo1))
    return sum(n * math.log(q1 / q0) for n, q0, q1 in zip(regularised, h0, h1))


def los(wins: int, losses: int) -> float:
    """The likelihood of superiority: the chance A is the stronger, from its
    wins and losses (draws say nothing)."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * (wins + losses))))


def pair_elo(counts: Sequence[int]) -> tuple[float, float, float]:
    """A's Elo and its 95% interval from the pentanomial ``counts`` (the pair
    scores' own variance; see :class:`MatchStats`)."""
    if sum(counts) == 0:
        return 0.0, -math.inf, math.inf
    ll, ld, one, wd, ww = counts
    stats = MatchStats(0, 0, 0, Pairs(ll, ld, one, 0, wd, ww))
    return (stats.elo, *stats.elo_interval)


@dataclass(frozen=True)
class SPRT:
    """A test: H0 ``elo0`` against H1 ``elo1`` with error rates ``alpha`` (false
    H1) and ``beta`` (false H0)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def state(self, results: Sequence[GameResult]) -> SprtState:
        """Where the test stands after the games of ``results`` (one match's)."""
        stats = MatchStats.of(results)
        value = llr(stats.pairs.counts, self.elo0, self.elo1)
        lower, upper = self.bounds
        verdict = "H1 accepted" if value >= upper else "H0 accepted" if value <= lower else None
        return SprtState(self, stats, value, verdict)

    @property
    def parameters(self) -> tuple[float, float, float, float]:
        """``(elo0, elo1, alpha, beta)``: what a game's result keeps of the test."""
        return self.elo0, self.elo1, self.alpha, self.beta


@dataclass(frozen=True)
class SprtState:
    """Where a test stands after some games: their figures and the LLR."""

    test: SPRT
    stats: MatchStats
    llr: float
    #: ``"H0 accepted"``, ``"H1 accepted"`` or ``None`` (go on).
    verdict: str | None

    @property
    def counts(self) -> list[int]:
        """The pentanomial counts the LLR is computed on."""
        return self.stats.pairs.counts

    @property
    def games(self) -> int:
        return self.stats.games

    @property
    def los(self) -> float:
        """fastchess's likelihood of superiority, from the pairs."""
        return self.stats.los

    def llr_line(self) -> str:
        """fastchess's ``LLR: value (lower, upper) [elo0, elo1]``."""
        lower, upper = self.test.bounds
        return f"LLR: {self.llr:.2f} ({lower:.2f}, {upper:.2f}) [{self.test.elo0:.2f}, {self.test.elo1:.2f}]"

    def verdict_line(self) -> str:
        """The test and where it stands, in one line (``SPRT: ...``)."""
        test = self.test
        where = self.verdict or "no verdict yet"
        return (f"SPRT: H0 {test.elo0:g} Elo vs H1 {test.elo1:g} Elo, alpha {test.alpha:g}, beta {test.beta:g}"
                f" -- {where} after {self.games} games")

    def lines(self) -> list[str]:
        """The figures fastchess prints with a test, then the test: Elo, LOS, games, Ptnml, verdict, LLR."""
        return [*self.stats.fastchess_lines("A", "B")[1:], self.verdict_line(), self.llr_line()]

    def to_json(self) -> dict[str, Any]:
        sprt = self.test
        return {"elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha, "beta": sprt.beta,
                "llr": round(self.llr, 4), "bounds": [round(bound, 4) for bound in sprt.bounds],
                "pentanomial": self.counts, "los": round(self.los, 4), "verdict": self.verdict,
                "games": self.games}


def parse_sprt(text: str) -> SPRT:
    """``ELO0,ELO1[,ALPHA,BETA]`` as a test; ValueError with a one-line reason."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) not in (2, 4):
        raise ValueError(f"expected ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA, got {text!r}")
    try:
        numbers = [float(part) for part in parts]
    except ValueError:
        raise ValueError(f"expected numbers in {text!r}") from None
    if not all(math.isfinite(n) for n in numbers):
        raise ValueError(f"expected finite numbers in {text!r}")
    elo0, elo1 = numbers[:2]
    if elo0 >= elo1:
        raise ValueError(f"ELO0 must be below ELO1, got {elo0:g} and {elo1:g}")
    if max(abs(elo0), abs(elo1)) > 2000:
        raise ValueError("ELO0 and ELO1 are Elo differences between -2000 and 2000")
    alpha, beta = numbers[2:] if len(numbers) == 4 else (0.05, 0.05)
    if not (0 < alpha < 0.5 and 0 < beta < 0.5):
        raise ValueError(f"ALPHA and BETA are error rates between 0 and 0.5, got {alpha:g} and {beta:g}")
    return SPRT(elo0, elo1, alpha, beta)
