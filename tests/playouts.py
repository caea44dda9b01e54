"""Random playouts shared by the test modules."""

from __future__ import annotations

import random
from typing import TypeVar

from games import Game

G = TypeVar("G", bound=Game)


def play_randomly(game: G, seed: int, plies: int, *, stop_at_outcome: bool = True) -> G:
    """Play up to ``plies`` uniformly random legal moves on ``game`` (seeded) and return it.

    Stops early when no move is left, and (by default) when the game has an
    outcome, draws by rule included.
    """
    rng = random.Random(seed)
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves or (stop_at_outcome and game.outcome() is not None):
            break
        game.play(rng.choice(moves))
    return game
