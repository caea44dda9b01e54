"""Quixo perft the seeds' way, a reference for our move generation's speed.

A 5x5 NumPy board deep-copied for every child, legal moves found by trying
every border cell and slide -- how the course write-ups this project grew
from searched.
"""

from __future__ import annotations

import copy

__all__ = ["SeedQuixo", "reference_perft", "seed_quixo_perft"]


class SeedQuixo:
    """Quixo the seeds' way: a 5x5 NumPy board, deep-copied for every child."""

    SLIDES = ("top", "bottom", "left", "right")

    def __init__(self) -> None:
        import numpy as np

        self.board = np.full((5, 5), -1, dtype=int)
        self.player = 0

    def children(self) -> list["SeedQuixo"]:
        out = []
        for x in range(5):
            for y in range(5):
                if x not in (0, 4) and y not in (0, 4):
                    continue
                for slide in self.SLIDES:
                    child = copy.deepcopy(self)
                    if child._move(x, y, slide):
                        child.player = 1 - self.player
                        out.append(child)
        return out

    def _move(self, x: int, y: int, slide: str) -> bool:
        b = self.board
        if b[y, x] not in (-1, self.player):
            return False
        # never pushed back in where it came from: that rule alone leaves a
        # corner 2 slides and any other border cube 3
        if (slide == "top" and y == 0) or (slide == "bottom" and y == 4):
            return False
        if (slide == "left" and x == 0) or (slide == "right" and x == 4):
            return False
        if slide == "top":
            b[1 : y + 1, x] = b[0:y, x].copy()
            b[0, x] = self.player
        elif slide == "bottom":
            b[y:4, x] = b[y + 1 : 5, x].copy()
            b[4, x] = self.player
        elif slide == "left":
            b[y, 1 : x + 1] = b[y, 0:x].copy()
            b[y, 0] = self.player
        else:
            b[y, x:4] = b[y, x + 1 : 5].copy()
            b[y, 4] = self.player
        return True


def seed_quixo_perft(state: SeedQuixo, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(seed_quixo_perft(child, depth - 1) for child in state.children())


def reference_perft(position: str | None, depth: int) -> int:
    """The leaves ``depth`` plies below the empty board (the seeds' board reads no
    position text: ``position`` must be ``None``)."""
    if position is not None:
        raise ValueError("the seeds' Quixo reference counts from the empty board only")
    return seed_quixo_perft(SeedQuixo(), depth)
