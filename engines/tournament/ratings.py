"""Maximum-likelihood Elo ratings from the games of many pairings.

Each player has a rating; a game between ``i`` and ``j`` is scored for ``i``
with expectation ``1 / (1 + 10 ** ((r_j - r_i) / 400))`` (draws count half, as
in every Elo list).  :func:`fit_ratings` finds the ratings that make the
observed scores most likely, with some players held at known ratings (the
*anchors*: ``random`` at 0, or Stockfish's ``UCI_Elo`` rungs), by Newton's
method on the log-likelihood.  The 95% intervals come from the curvature of
the log-likelihood at its maximum (the inverse of the observed information,
anchors fixed).

A player who won or lost every game has no finite maximum; like BayesElo,
every pairing gets a *prior* of ``prior`` virtual draws (default one: half a
point each way), which keeps the estimates finite and says plainly that
10-0 means "a lot stronger", not "infinitely".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Mapping

import numpy as np

__all__ = ["Pairing", "Rating", "fit_ratings", "expected_score"]

_K = math.log(10) / 400
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Pairing:
    """The games between two players: ``points`` scored by ``a`` out of ``games``."""

    a: str
    b: str
    points: float
    games: int


@dataclass(frozen=True)
class Rating:
    """A player's fitted rating with its 95% half-interval (0 for an anchor)."""

    name: str
    elo: float
    margin: float
    games: int
    anchor: bool = False

    def __str__(self) -> str:
        if self.anchor:
            return f"{self.name}: {self.elo:.0f} (anchor)"
        return f"{self.name}: {self.elo:.0f} ± {self.margin:.0f} ({self.games} games)"


def expected_score(elo: float, opponent: float) -> float:
    """The score ``elo`` expects against ``opponent``."""
    return 1 / (1 + 10 ** ((opponent - elo) / 400))


def fit_ratings(pairings: Iterable[Pairing], anchors: Mapping[str, float], *,
                prior: float = 1.0, iterations: int = 100) -> list[Rating]:
    """The maximum-likelihood ratings of everyone in ``pairings`` (see the module doc).

    ``anchors`` maps the players whose ratings are known to them; at least one
    player of every connected group must be an anchor.
    """
    pairings = [p for p in pairings if p.games > 0]
    names = sorted({p.a for p in pairings} | {p.b for p in pairings})
    if not anchors or not set(anchors) & set(names):
        raise ValueError("at least one player of the pairings must be an anchor")
    free = [name for name in names if name not in anchors]
    index = {name: i for i, name in enumerate(free)}
    ratings = {name: float(anchors.get(name, 0.0)) for name in names}
    games = {name: 0 for name in names}
    for p in pairings:
        games[p.a] += p.games
        games[p.b] += p.games
    # Each pairing with its prior draws added: points and games as floats.
    data = [(p.a, p.b, p.points + prior / 2, p.games + prior) for p in pairings]
    n = len(free)
    covariance: np.ndarray = np.zeros((n, n))
    for _ in range(iterations):
        gradient = np.zeros(n)
        hessian = np.zeros((n, n))
        for a, b, points, count in data:
            e = expected_score(ratings[a], ratings[b])
            g = _K * (points - count * e)  # d logL / d r_a
            h = _K * _K * count * e * (1 - e)  # -d2 logL / d r_a2
            for name, sign in ((a, 1.0), (b, -1.0)):
                if name in index:
                    gradient[index[name]] += sign * g
                    hessian[index[name], index[name]] += h
            if a in index and b in index:
                hessian[index[a], index[b]] -= h
                hessian[index[b], index[a]] -= h
        if n == 0:
            break
        try:
            step = np.linalg.solve(hessian, gradient)
        except np.linalg.LinAlgError as error:
            raise ValueError("some players are not connected to an anchor") from error
        step = np.clip(step, -400, 400)  # far from the optimum, Newton may overshoot
        for name, i in index.items():
            ratings[name] += float(step[i])
        covariance = np.linalg.inv(hessian)
        if float(np.max(np.abs(step))) < 1e-6:
            break
    result = []
    for name in names:
        if name in index:
            i = index[name]
            margin = Z95 * math.sqrt(max(0.0, float(covariance[i, i])))
            result.append(Rating(name, ratings[name], margin, games[name]))
        else:
            result.append(Rating(name, ratings[name], 0.0, games[name], anchor=True))
    return sorted(result, key=lambda rating: -rating.elo)
