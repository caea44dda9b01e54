"""``tui-games bench tree``: what recording a search tree costs, and that it costs nothing when off.

For each game, ``pvs`` at a fixed depth searches the same positions of seeded
random play three times, alternating: plain (the core as every search runs it),
recording (:meth:`~engines.search.alphabeta.AlphaBetaEngine.record`), plain
again.  The node counts must agree (the recording search is the same search);
the nodes/s of the recording runs are given as a ratio against the plain runs
of the same run on the same machine.  (Whether recording is free when off is
a comparison with a checkout from before the recorder: ``bench search`` there
and here, one after the other; docs/search-trees.md has the figures.)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Sequence

from engines import create_engine
from games import game_class, game_kind

from .models import bench_positions

__all__ = ["TreeRow", "tree_rows", "run_tree_bench"]

#: Positions per game (the depths are each game's warm-table benchmark depths).
POSITIONS, QUICK_POSITIONS = 6, 2


@dataclass
class TreeRow:
    game: str
    depth: int
    nodes: int
    plain_s: float
    record_s: float
    recorded: int

    @property
    def ratio(self) -> float:
        """Nodes/s recording over nodes/s plain."""
        return self.plain_s / self.record_s if self.record_s else 0.0


def tree_rows(games: Sequence[str], *, quick: bool = False) -> list[TreeRow]:
    rows = []
    for name in games:
        cls = game_class(name)
        full, short = game_kind(name).bench.warm_depth
        depth = short if quick else full
        positions = bench_positions(name, QUICK_POSITIONS if quick else POSITIONS)
        nodes = recorded = 0
        plain = record = 0.0
        for game in positions:
            spec = f"pvs:depth={depth},seed=1"
            for turn in ("plain", "record", "plain"):
                engine = create_engine(spec, cls)
                start = time.perf_counter()
                if turn == "record":
                    result, tree = engine.record(game, budget=1_000_000)  # type: ignore[attr-defined]
                    record += time.perf_counter() - start
                    recorded += tree.size()
                else:
                    result = engine.search(game)
                    plain += (time.perf_counter() - start) / 2
                    nodes += result.stats.nodes / 2
        rows.append(TreeRow(name, depth, int(nodes), plain, record, recorded))
    return rows


def run_tree_bench(games: Sequence[str], *, quick: bool = False) -> None:
    """Measure and print the table."""
    from rich.console import Console
    from rich.table import Table

    console = Console(width=max(100, Console().width))
    with console.status("measuring…"):
        rows = tree_rows(games, quick=quick)
    table = Table(title="pvs at a fixed depth: plain search against the same search recording its tree")
    for column in ("game", "depth", "nodes", "recorded", "nodes/s plain", "nodes/s recording", "ratio"):
        table.add_column(column, justify="left" if column == "game" else "right")
    for row in rows:
        table.add_row(row.game, str(row.depth), f"{row.nodes:,}", f"{row.recorded:,}",
                      f"{row.nodes / row.plain_s:,.0f}", f"{row.nodes / row.record_s:,.0f}", f"{row.ratio:.2f}x")
    console.print(table)
