"""Named levels per game, from beginner to the strongest, with measured ratings.

A level is an engine spec -- ``pvs`` limited by depth, node budget or time,
the easiest ones with deliberate noise (``jitter``: noise on every leaf
evaluation; ``blunder``: a share of moves played at random) -- and the rating
it earned in games:

- on a scale of engines from outside held at fixed ratings (chess: Stockfish
  15.1 with ``UCI_LimitStrength`` at fixed ``UCI_Elo`` rungs), each level
  playing them and its neighbour levels; the ratings are the maximum-likelihood
  fit with the rungs held (:func:`engines.tournament.ratings.fit_ratings`);
- or by a chain of games up from ``random``, anchored at ``random`` = 0.

The numbers -- each level's noise, its measured rating, the pairings and the
anchors -- are the game's (its kind's :class:`~games.kind.LevelPlan`); the
ladder of engine specs is built here, the same for every game.

``tui-games levels GAME`` lists them; ``tui-games levels GAME --measure``
plays the games again and prints the fit.  The numbers and the way they were
measured are in docs/levels.md.  Node budgets make the middle levels play the
same on any machine; the time-limited ones depend on the machine's speed (the
ratings were measured on 2 cores of a 2026 cloud machine).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from games import game_kind

__all__ = ["BRIDGES", "FROM_RANDOM", "Level", "about", "anchors", "level_named", "levels_for", "pairings",
           "player_spec", "rating_interval", "rating_words", "scale"]


@dataclass(frozen=True)
class Level:
    """A named engine preset and its measured rating (``None``: not measured)."""

    name: str
    spec: str
    elo: int | None
    margin: int | None
    about: str

    @property
    def label(self) -> str:
        """``"Club · about 1450"`` (the start screen's choice; :func:`about`)."""
        return f"{self.name.capitalize()} · {about(self)}"


def levels_for(game: str) -> tuple[Level, ...]:
    """The five levels of ``game``, weakest first: the easy ones' leaf noise
    (beginner, casual) in its heuristic's units, what casual's two plies see,
    and the ratings, all from the game's level plan."""
    return _levels(game_kind(game).name)


@functools.cache
def _levels(game: str) -> tuple[Level, ...]:
    plan = game_kind(game).levels
    noise = plan.noise
    made = (
        ("beginner", f"pvs:depth=1,jitter={noise[0]},blunder=0.25", "one ply, noisy, a quarter of its moves at random"),
        ("casual", f"pvs:depth=2,jitter={noise[1]}", f"two plies{plan.casual_sees}, a little noise"),
        ("club", "pvs:nodes=3000", "3,000 nodes a move"),
        ("expert", "pvs:time=0.5", "half a second a move"),
        ("master", "pvs:time=1,workers=2", "a second a move on two cores"),
    )
    ratings = plan.ratings + ((None, None),) * (len(made) - len(plan.ratings))
    return tuple(Level(name, spec, elo, margin, about)
                 for (name, spec, about), (elo, margin) in zip(made, ratings))


def scale(game: str) -> str:
    """What ``game``'s ratings are relative to (``random = 0``)."""
    return game_kind(game).levels.scale


def about(level: Level) -> str:
    """A level's rating as a player reads it: ``about 1450`` (to the ten), or ``not rated``."""
    return "not rated" if level.elo is None else f"about {round(level.elo, -1):.0f}"


def rating_words(game: str, level: Level) -> str:
    """``about 1450 (Stockfish's scale)``, ``about 1140 (random play = 0)``: the rating and the scale
    in a player's words (the interval is :func:`rating_interval`'s, for the help)."""
    if level.elo is None:
        return about(level)
    return f"{about(level)} ({game_kind(game).levels.scale_words})"


def rating_interval(game: str, level: Level) -> str:
    """The measured rating with its 95% interval and the scale as measured:
    ``1449 ± 76 (Stockfish 15.1 UCI_Elo, 95% interval)`` (docs/levels.md)."""
    if level.elo is None:
        return "not measured"
    return f"{level.elo} ± {level.margin} ({scale(game)}, 95% interval)"


#: Players between ``random`` and the beginner, only for measuring: every level
#: beats ``random`` every time, and a sweep says "much stronger" without saying
#: how much, so the chain to the anchor goes through engines that play a share
#: of random moves and lose some games to it.
BRIDGES: dict[str, str] = {
    "blunder-90": "pvs:depth=1,blunder=0.9",
    "blunder-70": "pvs:depth=1,blunder=0.7",
    "blunder-50": "pvs:depth=1,blunder=0.5",
}

#: The pairings of a measurement anchored at ``random``: up through :data:`BRIDGES`, then neighbours.
FROM_RANDOM: tuple[tuple[str, str], ...] = (
    ("random", "blunder-90"), ("random", "blunder-70"), ("blunder-90", "blunder-70"),
    ("blunder-70", "blunder-50"), ("blunder-50", "beginner"), ("blunder-70", "beginner"),
    ("random", "beginner"), ("random", "casual"), ("beginner", "casual"), ("beginner", "club"),
    ("casual", "club"), ("casual", "expert"), ("club", "expert"), ("expert", "master"),
)


def pairings(game: str) -> tuple[tuple[str, str], ...]:
    """The pairings a measurement of ``game``'s levels plays: the game's own
    (chess: neighbours, and the Stockfish rungs around each level), else the
    chain up from ``random`` (:data:`FROM_RANDOM`)."""
    return game_kind(game).levels.pairings or FROM_RANDOM


def player_spec(game: str, name: str) -> str:
    """The spec of a ladder player: a level, ``random``, a bridge or a rung."""
    if name == "random":
        return "random"
    rungs = game_kind(game).levels.rungs
    if name in rungs:
        return rungs[name]
    if name in BRIDGES:
        return BRIDGES[name]
    return level_named(game, name).spec


def anchors(game: str) -> dict[str, float]:
    """The players whose ratings a measurement holds fixed."""
    return dict(game_kind(game).levels.anchors)


def level_named(game: str, name: str) -> Level:
    """The level of ``game`` called ``name`` (``KeyError`` if none)."""
    levels = levels_for(game)
    for level in levels:
        if level.name == name.lower():
            return level
    raise KeyError(f"no level {name!r} for {game}; expected one of: "
                   f"{', '.join(level.name for level in levels)}")
