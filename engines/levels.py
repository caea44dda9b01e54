"""Named levels per game, from beginner to the strongest, with measured ratings.

A level is an engine spec -- ``pvs`` limited by depth, node budget or time,
the easiest ones with deliberate noise (``jitter``: noise on every leaf
evaluation; ``blunder``: a share of moves played at random) -- and the rating
it earned in games:

- chess levels on Stockfish's ``UCI_Elo`` scale: each level played Stockfish
  15.1 with ``UCI_LimitStrength`` at fixed ``UCI_Elo`` rungs and its neighbour
  levels, and the ratings are the maximum-likelihood fit with the rungs held at
  their ``UCI_Elo`` (:func:`engines.tournament.ratings.fit_ratings`);
- checkers and Quixo levels by a round-robin among the levels and ``random``,
  anchored at ``random`` = 0.

``tui-games levels GAME`` lists them; ``tui-games levels GAME --measure``
plays the games again and prints the fit.  The numbers and the way they were
measured are in docs/levels.md.  Node budgets make the middle levels play the
same on any machine; the time-limited ones depend on the machine's speed (the
ratings were measured on 2 cores of a 2026 cloud machine).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BRIDGES", "Level", "LEVELS", "PAIRINGS", "RUNGS", "SCALES", "anchors", "levels_for", "level_named",
           "player_spec"]


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
        """``"Club · 1290 ± 120"`` (the start screen's choice)."""
        rating = "unrated" if self.elo is None else f"{self.elo} ± {self.margin}"
        return f"{self.name.capitalize()} · {rating}"


#: What each game's ratings are relative to.
SCALES: dict[str, str] = {
    "chess": "Stockfish 15.1 UCI_Elo",
    "checkers": "random = 0",
    "quixo": "random = 0",
}

def _ladder(noise: tuple[int, int], casual: str,
            ratings: tuple[tuple[int, int], ...]) -> tuple[Level, ...]:
    """The five levels of a game: the easy ones' leaf noise (beginner, casual)
    in its heuristic's units, what casual's two plies see, and the ratings."""
    made = (
        ("beginner", f"pvs:depth=1,jitter={noise[0]},blunder=0.25", "one ply, noisy, a quarter of its moves at random"),
        ("casual", f"pvs:depth=2,jitter={noise[1]}", f"two plies{casual}, a little noise"),
        ("club", "pvs:nodes=3000", "3,000 nodes a move"),
        ("expert", "pvs:time=0.5", "half a second a move"),
        ("master", "pvs:time=1,workers=2", "a second a move on two cores"),
    )
    return tuple(Level(name, spec, elo, margin, about)
                 for (name, spec, about), (elo, margin) in zip(made, ratings))


#: The levels, weakest first, with their ratings (measured 2026-11-22; see docs/levels.md).
LEVELS: dict[str, tuple[Level, ...]] = {
    "chess": _ladder((150, 60), " and quiescence",
                     ((754, 367), (1233, 171), (1502, 127), (1743, 120), (1811, 132))),
    "checkers": _ladder((100, 40), " and the jumps after them",
                        ((439, 232), (807, 363), (1120, 425), (1474, 499), (1538, 541))),
    "quixo": _ladder((100, 40), "",
                     ((413, 214), (693, 288), (738, 297), (887, 325), (918, 385))),
}


#: Stockfish's rungs on the chess ladder, by name: ``UCI_Elo`` at 0.5 s a move.
RUNGS: dict[str, int] = {f"stockfish-{elo}": elo for elo in (1350, 1600, 1800, 2000)}
#: Seconds a move Stockfish gets on the ladder.
RUNG_TIME = 0.5

#: Players between ``random`` and the beginner, only for measuring: every level
#: beats ``random`` every time, and a sweep says "much stronger" without saying
#: how much, so the chain to the anchor goes through engines that play a share
#: of random moves and lose some games to it.
BRIDGES: dict[str, str] = {
    "blunder-90": "pvs:depth=1,blunder=0.9",
    "blunder-70": "pvs:depth=1,blunder=0.7",
    "blunder-50": "pvs:depth=1,blunder=0.5",
}

#: The pairings a measurement plays, per game: neighbours, and (chess) the
#: Stockfish rungs around each level; ``random`` anchors checkers and Quixo
#: (through :data:`BRIDGES`).
_FROM_RANDOM: tuple[tuple[str, str], ...] = (
    ("random", "blunder-90"), ("random", "blunder-70"), ("blunder-90", "blunder-70"),
    ("blunder-70", "blunder-50"), ("blunder-50", "beginner"), ("blunder-70", "beginner"),
    ("random", "beginner"), ("random", "casual"), ("beginner", "casual"), ("beginner", "club"),
    ("casual", "club"), ("casual", "expert"), ("club", "expert"), ("expert", "master"),
)
PAIRINGS: dict[str, tuple[tuple[str, str], ...]] = {
    "chess": (
        ("beginner", "casual"), ("casual", "club"), ("club", "expert"), ("expert", "master"),
        ("beginner", "stockfish-1350"), ("casual", "stockfish-1350"), ("club", "stockfish-1350"),
        ("club", "stockfish-1600"), ("expert", "stockfish-1600"), ("expert", "stockfish-1800"),
        ("master", "stockfish-1800"), ("master", "stockfish-2000"),
    ),
    "checkers": _FROM_RANDOM,
    "quixo": _FROM_RANDOM,
}


def player_spec(game: str, name: str) -> str:
    """The spec of a ladder player: a level, ``random`` or a Stockfish rung."""
    if name == "random":
        return "random"
    if name in RUNGS:
        return f"stockfish:elo={RUNGS[name]},time={RUNG_TIME}"
    if name in BRIDGES:
        return BRIDGES[name]
    return level_named(game, name).spec


def anchors(game: str) -> dict[str, float]:
    """The players whose ratings a measurement holds fixed."""
    if game == "chess":
        return {name: float(elo) for name, elo in RUNGS.items()}
    return {"random": 0.0}


def levels_for(game: str) -> tuple[Level, ...]:
    """The levels of ``game``, weakest first."""
    return LEVELS[game]


def level_named(game: str, name: str) -> Level:
    """The level of ``game`` called ``name`` (``KeyError`` if none)."""
    for level in LEVELS[game]:
        if level.name == name.lower():
            return level
    raise KeyError(f"no level {name!r} for {game}; expected one of: "
                   f"{', '.join(level.name for level in LEVELS[game])}")
