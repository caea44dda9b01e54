"""Warm transposition tables: the nodes a second move costs, cold and warm.

An engine keeps its transposition table between searches (the app, the UCI
front end and a match reuse one engine per side).  For each benchmark
position: the engine searches it to a fixed depth and plays its move, the
reply is the second move of its principal variation (or the first legal move),
and then the same position is searched to the same depth twice -- by that same
engine (warm: the table of the first search) and by a fresh one (cold).  The
row gives both node counts and times, their ratio, and whether both chose a
move of the same value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines import create_engine
from games import GAME_NAMES, game_kind

from .search import POSITIONS, BenchPosition

__all__ = ["WARM_DEPTHS", "QUICK_WARM_DEPTHS", "WarmRow", "warm_row", "warm_rows", "run_warm_bench"]

#: The depth of both moves' searches, per game (full and quick).
WARM_DEPTHS: dict[str, int] = {name: game_kind(name).bench.warm_depth[0] for name in GAME_NAMES}
QUICK_WARM_DEPTHS: dict[str, int] = {name: game_kind(name).bench.warm_depth[1] for name in GAME_NAMES}


@dataclass(frozen=True)
class WarmRow:
    game: str
    position: str
    spec: str
    cold_nodes: int
    warm_nodes: int
    cold_seconds: float
    warm_seconds: float
    cold_score: int
    warm_score: int

    @property
    def node_ratio(self) -> float:
        """Warm nodes over cold nodes (below 1: the warm table saved work)."""
        return self.warm_nodes / self.cold_nodes if self.cold_nodes else 1.0


def warm_row(position: BenchPosition, spec: str) -> WarmRow:
    """Cold and warm second-move searches from ``position`` with ``spec`` (see the module doc)."""
    game = position.new_game()
    cls = type(game)
    engine = create_engine(spec, cls)
    first = engine.search(game)
    game.play(first.move)
    reply: Any = first.pv[1] if len(first.pv) > 1 else None
    if reply is None or reply not in game.legal_moves():
        reply = game.legal_moves()[0]
    game.play(reply)
    warm = engine.search(game)
    cold = create_engine(spec, cls).search(game)
    engine.close()
    return WarmRow(position.game, position.label, spec, cold.stats.nodes, warm.stats.nodes,
                   cold.stats.time_s, warm.stats.time_s, cold.score, warm.score)


def warm_rows(games: list[str], *, quick: bool = False) -> list[WarmRow]:
    """One row per benchmark position of ``games`` whose game is not over after two moves."""
    depths = QUICK_WARM_DEPTHS if quick else WARM_DEPTHS
    return [warm_row(position, f"pvs:depth={depths[name]}")
            for name in games for position in POSITIONS[name]]


def run_warm_bench(games: list[str], *, quick: bool = False) -> None:
    """Measure and print the cold/warm table."""
    from rich.console import Console
    from rich.table import Table

    console = Console(width=max(150, Console().width))
    table = Table(title="second move at the same depth: the engine's table kept (warm) or new (cold)")
    for column in ("game", "position", "engine", "cold nodes", "warm nodes", "warm / cold", "cold s",
                   "warm s", "score cold / warm"):
        table.add_column(column, no_wrap=True,
                         justify="left" if column in ("game", "position", "engine") else "right")
    with console.status("measuring warm tables…"):
        for row in warm_rows(games, quick=quick):
            table.add_row(row.game, row.position, row.spec, f"{row.cold_nodes:,}", f"{row.warm_nodes:,}",
                          f"{row.node_ratio:.2f}", f"{row.cold_seconds:.2f}", f"{row.warm_seconds:.2f}",
                          f"{row.cold_score} / {row.warm_score}")
    console.print(table)
