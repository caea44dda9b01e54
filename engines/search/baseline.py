"""``random``: a uniformly random legal move, the baseline every engine must beat."""

from __future__ import annotations

import random
import time
from typing import Any, Sequence

from games import Game

from ..base import Engine, InfoCallback, Limits, SearchResult, StopFlag, root_moves
from ..spec import EngineSpec

__all__ = ["RandomEngine"]


class RandomEngine(Engine):
    """A uniformly random legal move, reproducible from ``seed`` (the baseline)."""

    def __init__(self, spec: EngineSpec, game_class: type[Game]) -> None:
        super().__init__(spec, game_class)
        self.rng = random.Random(spec.get("seed"))

    def search(self, game: Game, limits: Limits | None = None, *,
               stop: StopFlag | None = None, on_info: InfoCallback | None = None,
               moves: Sequence[Any] | None = None) -> SearchResult:
        start = time.perf_counter()
        legal = root_moves(game, moves)
        move = self.rng.choice(legal)
        text = game.format_move(move)
        stats = self.new_stats()
        stats.nodes, stats.best, stats.pv = 1, text, [text]
        stats.time_s = time.perf_counter() - start
        if on_info is not None:
            on_info(stats.copy())
        return SearchResult(move, 0, [move], stats)
