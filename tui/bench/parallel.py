"""Time to depth: ``pvs`` in one process against ``pvs:workers=N``.

For each game, on the search benchmark's positions (:data:`POSITIONS`) and on
a few more reached by seeded random moves, both engines search each position
to the same depth (:data:`DEPTHS`) from an empty table, one after the other
in the same process, ``repeat`` times.  The parallel engine's helpers are
started before the clock runs (they stay between searches, as in a game).
The row gives both times and their ratio; a game's line the ratio of the
summed times (long searches weigh most, as they do in play).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from engines import create_engine
from engines.base import Limits
from games import GAME_NAMES, Game, game_kind, new_game

from .search import POSITIONS

__all__ = ["DEPTHS", "QUICK_DEPTHS", "ParallelRow", "parallel_rows", "run_parallel_bench"]

#: The depth every position is searched to, per game (full and quick).
DEPTHS: dict[str, int] = {name: game_kind(name).bench.parallel_depth[0] for name in GAME_NAMES}
QUICK_DEPTHS: dict[str, int] = {name: game_kind(name).bench.parallel_depth[1] for name in GAME_NAMES}
#: Positions reached by random moves from the start, besides the fixed ones: (seed, plies).
RANDOM_POSITIONS = ((1, 12), (2, 16), (3, 20))


@dataclass(frozen=True)
class ParallelRow:
    game: str
    position: str
    depth: int
    serial_seconds: float
    parallel_seconds: float
    serial_nodes: int
    parallel_nodes: int

    @property
    def speedup(self) -> float:
        return self.serial_seconds / self.parallel_seconds if self.parallel_seconds else 1.0


def _positions(name: str) -> list[tuple[str, Game]]:
    positions = [(position.label, position.new_game()) for position in POSITIONS[name]]
    for seed, plies in RANDOM_POSITIONS:
        rng = random.Random(seed)
        game = new_game(name)
        for _ in range(plies):
            moves = game.legal_moves()
            if not moves or game.outcome() is not None:
                break
            game.play(rng.choice(moves))
        if game.outcome() is None:
            positions.append((f"random {plies} plies", game))
    return positions


def parallel_rows(name: str, *, workers: int = 2, quick: bool = False, repeat: int = 1) -> list[ParallelRow]:
    """One row per position of ``name``: serial and parallel time to depth."""
    depth = (QUICK_DEPTHS if quick else DEPTHS)[name]
    positions = _positions(name)
    serial = create_engine("pvs", type(positions[0][1]))
    limits = Limits(depth, None, None)
    rows = []
    with create_engine(f"pvs:workers={workers}", type(positions[0][1])) as parallel:
        parallel.search(positions[0][1], Limits(1, None, None))  # the helpers start now, not on the clock
        for label, game in positions:
            times = [0.0, 0.0]
            nodes = [0, 0]
            for _ in range(repeat):
                for i, engine in enumerate((serial, parallel)):
                    engine.new_game()
                    start = time.perf_counter()
                    result = engine.search(game, limits)
                    times[i] += time.perf_counter() - start
                    nodes[i] += result.stats["nodes"]
            rows.append(ParallelRow(name, label, depth, times[0], times[1], nodes[0], nodes[1]))
    return rows


def run_parallel_bench(games: list[str], *, workers: int = 2, quick: bool = False, repeat: int = 1) -> None:
    """Measure and print the time-to-depth table."""
    from rich.console import Console
    from rich.table import Table

    console = Console(width=max(120, Console().width))
    table = Table(title=f"time to depth: pvs against pvs:workers={workers} (the same depth, an empty table)")
    for column in ("game", "position", "depth", "1 process s", f"{workers} workers s", "speedup",
                   "1 process nodes", f"{workers} workers nodes"):
        table.add_column(column, no_wrap=True, justify="left" if column in ("game", "position") else "right")
    totals = []
    with console.status("measuring time to depth…"):
        for name in games:
            rows = parallel_rows(name, workers=workers, quick=quick, repeat=repeat)
            for row in rows:
                table.add_row(row.game, row.position, str(row.depth), f"{row.serial_seconds:.2f}",
                              f"{row.parallel_seconds:.2f}", f"{row.speedup:.2f}", f"{row.serial_nodes:,}",
                              f"{row.parallel_nodes:,}")
            serial = sum(row.serial_seconds for row in rows)
            parallel = sum(row.parallel_seconds for row in rows)
            totals.append((name, serial, parallel))
            table.add_row(name, "[b]all positions[/b]", "", f"{serial:.2f}", f"{parallel:.2f}",
                          f"[b]{serial / parallel:.2f}[/b]", "", "", end_section=True)
    console.print(table)
