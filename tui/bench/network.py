"""``tui-games bench network``: what a learned network evaluation costs, beside the hand-made one.

For each game whose kind has a network (:class:`~games.kind.NetworkPlan`), on
positions of seeded random play:

- **evaluation, kept up to date** -- every child of a node evaluated in turn,
  as a search's leaves are: the network starts from the sibling evaluated
  before and adds the pieces that differ;
- **evaluation, scattered** -- the same positions shuffled, each after a child
  of another node: the accumulator is recomputed, or updated from a position
  that differs in more pieces (what a search's jumps between branches cost);
- the game's strongest hand-made heuristic on the same positions;
- ``pvs`` at a fixed depth with each heuristic from the same positions:
  nodes, time and nodes/s (the network changes the tree as well as the cost).

Times are per evaluation (play and undo excluded), ratios against the
hand-made heuristic measured in the same run on the same machine.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, Sequence

from engines import create_engine
from games import Game, game_class, game_kind

from .models import bench_positions

__all__ = ["POSITIONS", "QUICK_POSITIONS", "EvalRow", "SearchRow", "node_children", "time_evaluations", "scattered",
           "eval_rows", "search_rows", "run_network_bench"]

POSITIONS = 24
QUICK_POSITIONS = 4


@dataclass
class EvalRow:
    game: str
    heuristic: str
    way: str
    evaluations: int
    seconds: float

    @property
    def micros(self) -> float:
        return self.seconds / self.evaluations * 1e6


@dataclass
class SearchRow:
    game: str
    spec: str
    positions: int
    nodes: int
    seconds: float

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds else 0.0


def node_children(boards: Sequence[Game]) -> list[tuple[Game, Any]]:
    """Every (node, move) pair of the nodes' children, node by node."""
    return [(board, move) for board in boards for move in board.legal_moves()]


def time_evaluations(evaluate: Any, children: Sequence[tuple[Game, Any]]) -> tuple[int, float]:
    """Evaluate each child in the order given: (evaluations, seconds spent evaluating)."""
    spent = 0.0
    for board, move in children:
        board.play(move)
        start = time.perf_counter()
        evaluate(board, 0)
        spent += time.perf_counter() - start
        board.undo()
    return len(children), spent


def scattered(children: Sequence[tuple[Game, Any]], seed: int = 3) -> list[tuple[Game, Any]]:
    """The same children shuffled: each comes after a child of another node."""
    shuffled = list(children)
    random.Random(seed).shuffle(shuffled)
    return shuffled


def _with_networks(games: Sequence[str], network: str | None = None) -> list[tuple[str, type[Game], str]]:
    """The games that have a network: name, class, and the network's heuristic (the bundled one,
    or ``heuristic:FILE`` for a ``network`` file)."""
    plans = [(game, game_kind(game).network) for game in games]
    return [(game, game_class(game), plan.heuristic if network is None else f"{plan.heuristic}:{network}")
            for game, plan in plans if plan is not None]


def eval_rows(games: Sequence[str], *, quick: bool = False, network: str | None = None) -> list[EvalRow]:
    rows = []
    for game, cls, learned in _with_networks(games, network):
        children = node_children(bench_positions(game, QUICK_POSITIONS if quick else POSITIONS))
        for name in (cls.STRONG_HEURISTIC, learned):
            evaluate = cls.heuristic(name)
            time_evaluations(evaluate, children)  # warm: files read, caches filled
            rows.append(EvalRow(game, name, "siblings (kept up to date)", *time_evaluations(evaluate, children)))
            if name == learned:
                rows.append(EvalRow(game, name, "scattered (another node's child before)",
                                    *time_evaluations(evaluate, scattered(children))))
    return rows


def search_rows(games: Sequence[str], *, quick: bool = False, network: str | None = None) -> list[SearchRow]:
    rows = []
    for game, cls, learned in _with_networks(games, network):
        boards = bench_positions(game, 2 if quick else 8, seed=11)
        depth = 3 if quick else 5
        for name in (cls.STRONG_HEURISTIC, learned):
            spec = f"pvs:depth={depth},heuristic={name}"
            engine = create_engine(spec, cls)
            nodes = 0
            start = time.perf_counter()
            for board in boards:
                nodes += engine.search(board).stats["nodes"]
            rows.append(SearchRow(game, spec, len(boards), nodes, time.perf_counter() - start))
            engine.close()
    return rows


def run_network_bench(games: Sequence[str], *, quick: bool = False, network: str | None = None) -> None:
    """Measure and print the tables (``network``: a network file in place of the bundled one)."""
    from rich.console import Console
    from rich.table import Table

    console = Console(width=max(110, Console().width))
    with console.status("measuring…"):
        evals = eval_rows(games, quick=quick, network=network)
        searches = search_rows(games, quick=quick, network=network)
    if not evals:
        console.print("no game here has a network evaluation")
        return
    table = Table(title="one evaluation (ratio: against the hand-made heuristic, same positions, same run)")
    for column in ("game", "heuristic", "way", "evaluations", "per evaluation", "ratio"):
        table.add_column(column, justify="left" if column in ("game", "heuristic", "way") else "right")
    base = {row.game: row.micros for row in evals if row.heuristic == game_class(row.game).STRONG_HEURISTIC}
    for row in evals:
        table.add_row(row.game, row.heuristic, row.way, f"{row.evaluations:,}", f"{row.micros:.1f} µs",
                      f"{row.micros / base[row.game]:.2f}x")
    console.print(table)
    search = Table(title="pvs at a fixed depth from the same positions")
    for column in ("game", "engine", "positions", "nodes", "time", "nodes/s"):
        search.add_column(column, justify="left" if column in ("game", "engine") else "right")
    for srow in searches:
        search.add_row(srow.game, srow.spec, str(srow.positions), f"{srow.nodes:,}", f"{srow.seconds:.2f} s",
                       f"{srow.nps:,.0f}")
    console.print(search)
