"""The puzzle trainer's model: ratings with their uncertainty, a streak, failed puzzles coming back.

A player's :class:`Training` in one game holds a Glicko-2 rating (:class:`Rating`:
the rating, its deviation -- how unsure it is -- and its volatility) for the game and
one for each theme met (``mateIn2``, ``fork``...), the streak and the best streak, the
count solved and tried, and the review queue: a puzzle failed comes back after
:data:`FIRST_GAP` more puzzles; solved when it comes back, its gap doubles, and past
:data:`LAST_GAP` it leaves the queue (spaced repetition, counted in puzzles tried, not
days, so it works in one sitting as in many).

Each puzzle is one rated game against the puzzle's own rating (with a deviation of
:data:`PUZZLE_DEVIATION`): solved is a win, failed (a wrong move, a hint, the solution
viewed, skipped) a loss.  A :class:`Session` counts what one sitting did, for the
summary shown when leaving.  Nothing here reads or writes files: :meth:`Training.to_table`
and :meth:`Training.from_table` turn a record into a TOML-ready table and back (the app
keeps them beside its settings), refusing anything out of range.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable

__all__ = ["Rating", "Training", "Session", "glicko2", "START_RATING", "START_DEVIATION", "PUZZLE_DEVIATION",
           "FIRST_GAP", "LAST_GAP", "MAX_REVIEWS"]

#: Glicko-2's starting rating, deviation and volatility, its system constant, and its scale.
START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
TAU = 0.5
SCALE = 173.7178
#: How sure a puzzle's own rating is taken to be.
PUZZLE_DEVIATION = 80.0
#: The bounds a rating, a deviation and a volatility are kept within.
RATING_BOUNDS = (0.0, 4000.0)
DEVIATION_BOUNDS = (30.0, START_DEVIATION)
VOLATILITY_BOUNDS = (0.0, 0.2)
#: A failed puzzle comes back after this many puzzles; solved again, the gap doubles until past the last.
FIRST_GAP = 3
LAST_GAP = 48
#: The most puzzles kept waiting for review (the oldest leave first).
MAX_REVIEWS = 500


def _clamp(value: float, bounds: tuple[float, float]) -> float:
    return max(bounds[0], min(bounds[1], value))


@dataclass
class Rating:
    """A Glicko-2 rating: the rating, its deviation (the uncertainty) and its volatility."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    def expected(self, opponent: float) -> float:
        """The chance of solving a puzzle rated ``opponent`` (Glicko-2's E)."""
        g = _g(PUZZLE_DEVIATION / SCALE)
        return 1.0 / (1.0 + math.exp(-g * (self.rating - opponent) / SCALE))


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / math.pi ** 2)


def glicko2(player: Rating, opponent: float, score: float) -> Rating:
    """``player``'s rating after one game against a puzzle rated ``opponent`` (deviation
    :data:`PUZZLE_DEVIATION`), ``score`` 1 (solved) or 0 (failed): Glicko-2 for a rating
    period of one game, the volatility found by the Illinois method, the result kept in bounds."""
    mu, phi, sigma = (player.rating - 1500.0) / SCALE, player.deviation / SCALE, player.volatility
    mu_j, g = (opponent - 1500.0) / SCALE, _g(PUZZLE_DEVIATION / SCALE)
    expected = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
    v = 1.0 / (g * g * expected * (1.0 - expected))
    delta = v * g * (score - expected)
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2)) - (x - a) / (TAU * TAU)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * TAU) < 0 and k < 100:
            k += 1
        high = a - k * TAU
    f_low, f_high = f(low), f(high)
    for _ in range(100):
        if abs(high - low) <= 1e-6:
            break
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    new_sigma = math.exp(low / 2.0)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * g * (score - expected)
    return Rating(_clamp(new_mu * SCALE + 1500.0, RATING_BOUNDS), _clamp(new_phi * SCALE, DEVIATION_BOUNDS),
                  _clamp(new_sigma, VOLATILITY_BOUNDS))


@dataclass
class Training:
    """A player's puzzles in one game (see the module doc)."""

    rating: Rating = field(default_factory=Rating)
    themes: dict[str, Rating] = field(default_factory=dict)
    streak: int = 0
    best_streak: int = 0
    solved: int = 0
    tried: int = 0
    #: Puzzle id -> (the count of puzzles tried when it is due again, its gap).
    reviews: dict[str, tuple[int, int]] = field(default_factory=dict)

    def scored(self, puzzle_id: str, puzzle_rating: float, themes: Iterable[str], solved: bool) -> float:
        """Count an attempt at a puzzle: the ratings (the game's and each theme's), the streak,
        the review queue; the game rating's change."""
        before = self.rating.rating
        score = 1.0 if solved else 0.0
        self.rating = glicko2(self.rating, puzzle_rating, score)
        for theme in themes:
            self.themes[theme] = glicko2(self.themes.get(theme, Rating()), puzzle_rating, score)
        self.tried += 1
        if solved:
            self.solved += 1
            self.streak += 1
            self.best_streak = max(self.best_streak, self.streak)
        else:
            self.streak = 0
        self._review(puzzle_id, solved)
        return self.rating.rating - before

    def _review(self, puzzle_id: str, solved: bool) -> None:
        waiting = self.reviews.pop(puzzle_id, None)
        if not solved:
            self.reviews[puzzle_id] = (self.tried + FIRST_GAP, FIRST_GAP)
        elif waiting is not None and waiting[1] * 2 <= LAST_GAP:
            self.reviews[puzzle_id] = (self.tried + waiting[1] * 2, waiting[1] * 2)
        while len(self.reviews) > MAX_REVIEWS:
            del self.reviews[next(iter(self.reviews))]

    def due(self, ids: Iterable[str]) -> list[str]:
        """Of ``ids``, those waiting for review and due now, the longest overdue first."""
        waiting = [(self.reviews[id_][0], id_) for id_ in ids if id_ in self.reviews
                   and self.reviews[id_][0] <= self.tried]
        return [id_ for _, id_ in sorted(waiting)]

    # -- kept as a TOML table ---------------------------------------------------------------

    def to_table(self) -> dict[str, Any]:
        """The record as a table of plain values (:meth:`from_table` reads it back)."""
        return {"rating": round(self.rating.rating, 1), "deviation": round(self.rating.deviation, 1),
                "volatility": round(self.rating.volatility, 6), "streak": self.streak,
                "best_streak": self.best_streak, "solved": self.solved, "tried": self.tried,
                "themes": {name: [round(r.rating, 1), round(r.deviation, 1), round(r.volatility, 6)]
                           for name, r in sorted(self.themes.items())},
                "reviews": {id_: list(due) for id_, due in self.reviews.items()}}

    @classmethod
    def from_table(cls, entry: object) -> "Training | None":
        """A record from its table, or ``None`` when any value is missing in type or out of
        range (a damaged file); missing keys take their defaults (an older file)."""
        if not isinstance(entry, dict):
            return None
        rating = _rating(entry.get("rating", START_RATING), entry.get("deviation", START_DEVIATION),
                         entry.get("volatility", START_VOLATILITY))
        counts = [entry.get(key, 0) for key in ("streak", "best_streak", "solved", "tried")]
        if rating is None or not all(_count(count) for count in counts):
            return None
        themes: dict[str, Rating] = {}
        table = entry.get("themes", {})
        if not isinstance(table, dict):
            return None
        for name, value in table.items():
            theme = _rating(*value) if isinstance(value, list) and len(value) == 3 else None
            if theme is None or not isinstance(name, str) or len(name) > 60:
                return None
            themes[name] = theme
        reviews: dict[str, tuple[int, int]] = {}
        table = entry.get("reviews", {})
        if not isinstance(table, dict) or len(table) > MAX_REVIEWS:
            return None
        for id_, value in table.items():
            if not (isinstance(value, list) and len(value) == 2 and all(map(_count, value)) and len(id_) <= 100):
                return None
            reviews[id_] = (value[0], value[1])
        streak, best_streak, solved, tried = counts
        return cls(rating, themes, streak, best_streak, solved, tried, reviews)


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**9


def _rating(*values: object) -> Rating | None:
    """A rating from its three numbers, or ``None`` if one is not a number in its bounds."""
    numbers = []
    for value, bounds in zip(values, (RATING_BOUNDS, DEVIATION_BOUNDS, VOLATILITY_BOUNDS)):
        if (not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value)
                or not bounds[0] <= value <= bounds[1]):
            return None
        numbers.append(float(value))
    return Rating(*numbers)


@dataclass
class Session:
    """What one sitting did: puzzles solved and failed, the rating at its start, the best streak."""

    start_rating: float
    solved: int = 0
    failed: int = 0
    best_streak: int = 0
    failed_ids: list[str] = field(default_factory=list)

    def count(self, puzzle_id: str, solved: bool, streak: int) -> None:
        if solved:
            self.solved += 1
        else:
            self.failed += 1
            self.failed_ids.append(puzzle_id)
        self.best_streak = max(self.best_streak, streak)

    def summary(self, training: Training) -> str:
        """One line: what this sitting did, the rating's change, what comes back for review."""
        tried = self.solved + self.failed
        change = training.rating.rating - self.start_rating
        waiting = len({id_ for id_ in self.failed_ids if id_ in training.reviews})
        back = f"; {waiting} will come back for review" if waiting else ""
        return (f"this session: {self.solved} of {tried} solved, best streak {self.best_streak}, rating "
                f"{training.rating.rating:.0f} ({change:+.0f}, ±{training.rating.deviation:.0f}){back}")
