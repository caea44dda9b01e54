"""An experiment's figures per arm, and each claim's verdict at 95%.

Every arm's games give per-game outcomes for its engine (agent A): a score of
1, ½ or 0, a win (1 or 0), a draw (1 or 0); and per-move seconds.  A measure's
rate has a Wilson 95% interval; two arms are compared by the difference of
their mean per-game values, significant when it exceeds 1.96 standard errors
(a two-sample z test, each arm's own variance).  A claim is then

``equals``  (arm, measure, value)
    agrees when ``value`` lies in the arm's interval, else disagrees;
``above`` / ``below``  (arm, measure, value)
    agrees when the whole interval is above (below) ``value``, disagrees when
    it is wholly on the other side, else inconclusive;
``better``  (arm, other)
    agrees when the arm is significantly higher, disagrees when significantly
    lower, else inconclusive;
``best``  (arm)
    agrees when the arm is significantly higher than every other arm,
    disagrees when some arm is significantly higher than it;
``order``  (arms, best first)
    agrees when every arm is significantly higher than the next, disagrees
    when some arm is significantly lower than the next;
``faster`` / ``slower``  (arm, other)
    as ``better``, on the mean seconds per move (lower is faster); without
    ``other``, the arm's engine against its own opponent's moves;
``balance``  (arm)
    "the best trade of strength for time": disagrees when some arm is
    significantly higher, agrees when every arm that spends less time per
    move is significantly lower, else inconclusive.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Iterable, Sequence

from ..tournament.config import MatchConfig
from ..tournament.result import GameResult
from ..tournament.summary import Z95, MatchSummary, elo_difference, summarize, wilson_interval
from .experiment import Arm, Claim, Experiment

__all__ = ["ArmResult", "Verdict", "arm_results", "judge", "AGREES", "DISAGREES", "INCONCLUSIVE", "PENDING"]

AGREES, DISAGREES, INCONCLUSIVE, PENDING = "agrees", "disagrees", "inconclusive", "no games yet"


@dataclass
class ArmResult:
    """What an arm's finished games show (its engine's side)."""

    arm: Arm
    summary: MatchSummary | None
    #: Per game: the engine's score (1, 0.5, 0).
    scores: list[float]
    #: Seconds of each of the engine's moves, and of its opponent's.
    move_times: list[float]
    opponent_times: list[float]
    #: Per game: the score of the side that moved first from the start.
    first_scores: list[float]

    @property
    def games(self) -> int:
        return len(self.scores)

    def values(self, measure: str) -> list[float]:
        """Per game: the score, 1 for a win, 1 for a draw, or the first mover's score."""
        if measure == "first":
            return list(self.first_scores)
        if measure == "wins":
            return [1.0 if s == 1 else 0.0 for s in self.scores]
        if measure == "draws":
            return [1.0 if s == 0.5 else 0.0 for s in self.scores]
        return list(self.scores)

    def rate(self, measure: str = "score") -> float:
        values = self.values(measure)
        return sum(values) / len(values) if values else 0.0

    def interval(self, measure: str = "score") -> tuple[float, float]:
        return wilson_interval(sum(self.values(measure)), self.games)

    @property
    def elo(self) -> tuple[float, float, float]:
        """The engine's Elo advantage over its opponent, with the interval's ends."""
        low, high = self.interval()
        return elo_difference(self.rate()), elo_difference(low), elo_difference(high)

    def per_move(self, name: str) -> float:
        """The engine's average of a statistic per move (``time_s``, ``nodes`` ...)."""
        return self.summary.a.per_move(name) if self.summary else 0.0

    @property
    def wdl(self) -> tuple[int, int, int]:
        side = self.summary.a if self.summary else None
        return (side.wins, side.draws, side.losses) if side else (0, 0, 0)


def arm_results(experiment: Experiment, results: Iterable[GameResult], games: int | None = None,
                configs: Sequence[MatchConfig] | None = None) -> list[ArmResult]:
    """What every arm's games show, from the experiment's game results (games
    of other matches are ignored); ``configs``: the arms' matches when already built."""
    by_pairing: dict[tuple[str, str], list[GameResult]] = {}
    for result in results:
        by_pairing.setdefault((result.match.a, result.match.b), []).append(result)
    arms = []
    for arm, config in zip(experiment.arms, configs if configs is not None else experiment.configs(games)):
        found = sorted(by_pairing.get((config.a, config.b), []), key=lambda result: result.index)
        summaries = summarize(found)
        scores = [result.points("a") for result in found]
        times = [entry.time_s for result in found for entry in result.log_of("a")]
        opponent = [entry.time_s for result in found for entry in result.log_of("b")]
        first = [result.points(result.first) for result in found]
        arms.append(ArmResult(arm, summaries[0] if summaries else None, scores, times, opponent, first))
    return arms


# --------------------------------------------------------------------- verdicts
@dataclass(frozen=True)
class Verdict:
    """A claim with our figure and the verdict."""

    claim: Claim
    verdict: str
    figure: str


def _mean_se(values: Sequence[float]) -> tuple[float, float]:
    if not values:
        return 0.0, math.inf
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, statistics.pstdev(values) / math.sqrt(len(values))


def compare(a: Sequence[float], b: Sequence[float]) -> int:
    """+1 when the mean of ``a`` is significantly above that of ``b`` (95%,
    two-sample z), -1 when below, 0 otherwise."""
    if not a or not b:
        return 0
    (ma, sa), (mb, sb) = _mean_se(a), _mean_se(b)
    se = math.sqrt(sa * sa + sb * sb) if math.isfinite(sa) and math.isfinite(sb) else math.inf
    difference = ma - mb
    if se == 0:
        return 0 if difference == 0 else (1 if difference > 0 else -1)
    if abs(difference) > Z95 * se:
        return 1 if difference > 0 else -1
    return 0


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _rate_text(result: ArmResult, measure: str) -> str:
    low, high = result.interval(measure)
    name = {"score": "scores", "wins": "wins", "draws": "draws", "first": "first mover scores"}[measure]
    return f"{result.arm.label} {name} {_pct(result.rate(measure))} [{_pct(low)}, {_pct(high)}]"


def judge(claim: Claim, results: Sequence[ArmResult]) -> Verdict:
    """The verdict on ``claim`` from the arms' results (see the module doc)."""
    by_label = {result.arm.label: result for result in results}
    named = [by_label[label] for label in claim.arms]
    if any(result.games == 0 for result in named) or (
            claim.kind in ("best", "balance") and any(result.games == 0 for result in results)):
        return Verdict(claim, PENDING, "")
    measure = claim.measure
    first = named[0]
    kind = claim.kind
    if kind in ("equals", "above", "below"):
        low, high = first.interval(measure)
        value = claim.value or 0.0
        if kind == "equals":
            verdict = AGREES if low <= value <= high else DISAGREES
        else:
            above, below = low > value, high < value
            if kind == "below":
                above, below = below, above
            verdict = AGREES if above else DISAGREES if below else INCONCLUSIVE
        return Verdict(claim, verdict, _rate_text(first, measure))
    if kind in ("faster", "slower"):
        if len(named) > 1:
            other_times, other_name = named[1].move_times, named[1].arm.label
        else:
            other_times, other_name = first.opponent_times, f"its opponent {first.arm.opponent}"
        sign = -compare(first.move_times, other_times) * (1 if kind == "faster" else -1)
        figure = (f"{first.arm.label} {_ms(first.move_times)} ms/move, {other_name} {_ms(other_times)} ms/move")
        return Verdict(claim, _signed(sign), figure)
    if kind == "better":
        other = named[1]
        sign = compare(first.values(measure), other.values(measure))
        return Verdict(claim, _signed(sign), f"{_rate_text(first, measure)}; {_rate_text(other, measure)}")
    if kind == "order":
        signs = [compare(a.values(measure), b.values(measure)) for a, b in zip(named, named[1:])]
        verdict = DISAGREES if -1 in signs else AGREES if all(s == 1 for s in signs) else INCONCLUSIVE
        return Verdict(claim, verdict, "; ".join(_rate_text(result, measure) for result in named))
    others = [result for result in results if result is not first]
    stronger = [o for o in others if compare(o.values(measure), first.values(measure)) == 1]
    figure = "; ".join(_rate_text(result, measure) for result in results)
    if kind == "best":
        if stronger:
            return Verdict(claim, DISAGREES, figure)
        above_all = all(compare(first.values(measure), o.values(measure)) == 1 for o in others)
        return Verdict(claim, AGREES if above_all else INCONCLUSIVE, figure)
    # balance
    times = "; ".join(f"{r.arm.label} {_ms(r.move_times)} ms/move" for r in results)
    if stronger:
        return Verdict(claim, DISAGREES, f"{figure}; {times}")
    cheaper = [o for o in others if _mean(o.move_times) < _mean(first.move_times)]
    weaker = all(compare(first.values(measure), o.values(measure)) == 1 for o in cheaper)
    return Verdict(claim, AGREES if weaker else INCONCLUSIVE, f"{figure}; {times}")


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _ms(times: Sequence[float]) -> str:
    return f"{1000 * sum(times) / len(times):.1f}" if times else "-"


def _signed(sign: int) -> str:
    return AGREES if sign > 0 else DISAGREES if sign < 0 else INCONCLUSIVE
