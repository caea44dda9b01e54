"""Round-robin and gauntlet tournaments: the pairings, the crosstable, the ratings.

A :class:`Tournament` is a list of engines and the games each pairing plays.
Round-robin pairs every two engines; a gauntlet pairs the first engine with
each of the others.  Each pairing is a :class:`~engines.tournament.MatchConfig`
(so its games are reproducible and resumable like a match's, colours
alternating and pairs of games sharing a random opening), the first-listed
engine as agent A.  :meth:`Tournament.standings` turns the games' results into a
crosstable (points of each row against each column) and maximum-likelihood
Elo ratings with 95% intervals (:func:`~engines.tournament.ratings.fit_ratings`,
the first engine held at the anchor).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Iterable, Sequence

from .conditions import Conditions
from .config import MatchConfig, MatchError
from .ratings import Pairing, Rating, fit_ratings
from .result import GameResult, is_forfeit

__all__ = ["Tournament", "Standings"]


@dataclass(frozen=True)
class Standings:
    """A tournament's table: each engine's results against each other, and ratings."""

    engines: tuple[str, ...]
    #: (row, column) -> [points of row, games]
    cells: dict[tuple[str, str], list[float]]
    ratings: tuple[Rating, ...]
    planned: int
    played: int
    #: engine -> its drawn games
    draws: dict[str, int] = field(default_factory=dict)
    #: engine -> the games it lost by forfeit (an external engine that broke the rules)
    forfeits: dict[str, int] = field(default_factory=dict)

    def points(self, engine: str) -> float:
        return sum(cell[0] for (row, _), cell in self.cells.items() if row == engine)

    def draw_rate(self, engine: str) -> float:
        """The share of the engine's games drawn."""
        games = self.games(engine)
        return self.draws.get(engine, 0) / games if games else 0.0

    def games(self, engine: str) -> int:
        return int(sum(cell[1] for (row, _), cell in self.cells.items() if row == engine))

    def rating(self, engine: str) -> Rating | None:
        return next((rating for rating in self.ratings if rating.name == engine), None)

    def order(self) -> list[str]:
        """The engines by rating, best first (by points without ratings)."""
        if self.ratings:
            return [rating.name for rating in self.ratings]
        return sorted(self.engines, key=lambda engine: -self.points(engine))

    def to_dict(self) -> dict[str, Any]:
        return {
            "engines": list(self.engines), "games": self.played, "planned": self.planned,
            "crosstable": {row: {column: {"points": cell[0], "games": cell[1]}
                                 for (r, column), cell in self.cells.items() if r == row}
                           for row in self.engines},
            "ratings": [{"engine": r.name, "elo": round(r.elo, 1), "margin": round(r.margin, 1),
                         "games": r.games, "anchor": r.anchor} for r in self.ratings],
            "draws": dict(self.draws), "forfeits": dict(self.forfeits),
        }


@dataclass(frozen=True)
class Tournament:
    """The engines (canonical specs), the pairings and their games."""

    game: str
    engines: tuple[str, ...]
    configs: tuple[MatchConfig, ...]
    gauntlet: bool = False

    @classmethod
    def create(cls, game: str, engines: Sequence[str], games: int, *, gauntlet: bool = False,
               openings: int = 4, seed: int = 0, conditions: Conditions | None = None) -> Tournament:
        """Check every spec (a :class:`~engines.spec.SpecError` names the bad
        one) and lay out the pairings, every one under ``conditions`` (book,
        adjudication, clocks)."""
        if len(engines) < 2:
            raise MatchError("a tournament needs two engines or more")
        canonical: list[str] = []
        pairs = [(0, j) for j in range(1, len(engines))] if gauntlet else list(combinations(range(len(engines)), 2))
        configs = []
        for i, j in pairs:
            config = MatchConfig.create(game, engines[i], engines[j], games, openings, seed, conditions)
            configs.append(config)
            for index, spec in ((i, config.a), (j, config.b)):
                while len(canonical) <= index:
                    canonical.append("")
                canonical[index] = spec
        if len(set(canonical)) != len(canonical):
            raise MatchError("the same engine is listed twice; a tournament's engines must differ")
        return cls(game, tuple(canonical), tuple(configs), gauntlet)

    def standings(self, results: Iterable[GameResult], *, anchor: float = 0.0) -> Standings:
        """The crosstable and ratings of the games in ``results`` (of this tournament)."""
        ours = set(self.configs)
        cells: dict[tuple[str, str], list[float]] = {}
        for config in self.configs:
            cells[(config.a, config.b)] = [0.0, 0]
            cells[(config.b, config.a)] = [0.0, 0]
        played = 0
        draws = dict.fromkeys(self.engines, 0)
        forfeits = dict.fromkeys(self.engines, 0)
        for result in results:
            config = result.match
            if config not in ours:
                continue
            played += 1
            a_points = result.points("a")
            if result.drawn:
                draws[config.a] += 1
                draws[config.b] += 1
            elif is_forfeit(result.reason):
                forfeits[config.b if result.winner == "a" else config.a] += 1
            for row, column, points in ((config.a, config.b, a_points), (config.b, config.a, 1 - a_points)):
                cells[(row, column)][0] += points
                cells[(row, column)][1] += 1
        pairings = [Pairing(config.a, config.b, cells[(config.a, config.b)][0], int(cells[(config.a, config.b)][1]))
                    for config in self.configs]
        ratings: tuple[Rating, ...] = ()
        if played:
            try:
                ratings = tuple(fit_ratings(pairings, {self.engines[0]: anchor}))
            except ValueError:  # early in a run: some engine not yet linked to the anchor by games
                ratings = ()
        return Standings(self.engines, cells, ratings, sum(c.games for c in self.configs), played, draws,
                         forfeits)
