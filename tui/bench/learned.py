"""``tui-games bench learned``: what every learned evaluation costs, beside the hand-made one it replaces.

For each game, on positions of seeded random play (:func:`~tui.bench.models.bench_positions`):

- the game's strongest hand-made heuristic (``pesto``, ``positional``,
  ``line-potential``, ``standard``), per evaluation, every child of a node in turn;
- each learned evaluation the game has -- the bundled pattern tables
  (``learned``), chess's network (``network``, kept up to date from the
  sibling evaluated before, and scattered), or the files given with
  ``--tables`` and ``--network`` -- on the same children;
- ``pvs`` at a fixed depth with each, from the same positions: nodes, time
  and nodes/s (a learned evaluation changes the tree as well as the cost).

Times are per evaluation (play and undo excluded); ratios are against the
hand-made heuristic measured in the same run on the same machine.
"""

from __future__ import annotations

import time
from typing import Sequence

from engines import create_engine
from games import Game, game_class, game_kind

from .models import bench_positions
from .network import POSITIONS, QUICK_POSITIONS, EvalRow, SearchRow, node_children, scattered, time_evaluations

__all__ = ["hand_made", "learned_heuristics", "eval_rows", "search_rows", "run_learned_bench"]


def hand_made(cls: type[Game]) -> str:
    """The game's strongest hand-made heuristic: what its learned evaluations are measured against."""
    return cls.HAND_MADE_HEURISTIC or cls.STRONG_HEURISTIC


def learned_heuristics(game: str, *, network: str | None = None, tables: str | None = None) -> list[str]:
    """The learned evaluations of ``game`` to measure: the bundled ones (``learned``, ``network``), or
    the files given in their place (``tables:FILE`` for any game with tables, ``network:FILE`` for one
    with a network)."""
    cls, kind = game_class(game), game_kind(game)
    names = []
    if tables is not None and kind.tables is not None:
        names.append(f"{kind.tables.heuristic}:{tables}")
    elif "learned" in cls.HEURISTICS:
        names.append("learned")
    if kind.network is not None:
        names.append(kind.network.heuristic if network is None else f"{kind.network.heuristic}:{network}")
    return names


def eval_rows(games: Sequence[str], *, quick: bool = False, network: str | None = None,
              tables: str | None = None) -> list[EvalRow]:
    rows = []
    for game in games:
        cls = game_class(game)
        learned = learned_heuristics(game, network=network, tables=tables)
        if not learned:
            continue
        children = node_children(bench_positions(game, QUICK_POSITIONS if quick else POSITIONS))
        for name in (hand_made(cls), *learned):
            evaluate = cls.heuristic(name)
            time_evaluations(evaluate, children)  # warm: files read, caches filled
            rows.append(EvalRow(game, name, "siblings", *time_evaluations(evaluate, children)))
            if name.split(":")[0] == "network":
                rows.append(EvalRow(game, name, "scattered (another node's child before)",
                                    *time_evaluations(evaluate, scattered(children))))
    return rows


def search_rows(games: Sequence[str], *, quick: bool = False, network: str | None = None,
                tables: str | None = None) -> list[SearchRow]:
    rows = []
    for game in games:
        cls = game_class(game)
        learned = learned_heuristics(game, network=network, tables=tables)
        if not learned:
            continue
        boards = bench_positions(game, 2 if quick else 8, seed=11)
        depth = 3 if quick else game_kind(game).bench.search_depth[1]
        for name in (hand_made(cls), *learned):
            spec = f"pvs:depth={depth},heuristic={name}"
            engine = create_engine(spec, cls)
            nodes = 0
            start = time.perf_counter()
            for board in boards:
                nodes += engine.search(board).stats["nodes"]
            rows.append(SearchRow(game, spec, len(boards), nodes, time.perf_counter() - start))
            engine.close()
    return rows


def run_learned_bench(games: Sequence[str], *, quick: bool = False, network: str | None = None,
                      tables: str | None = None) -> None:
    """Measure and print the tables."""
    from rich.console import Console
    from rich.table import Table

    console = Console(width=max(110, Console().width))
    with console.status("measuring…"):
        evals = eval_rows(games, quick=quick, network=network, tables=tables)
        searches = search_rows(games, quick=quick, network=network, tables=tables)
    if not evals:
        console.print("no game here has a learned evaluation")
        return
    table = Table(title="one evaluation (ratio: against the hand-made heuristic, same positions, same run)")
    for column in ("game", "heuristic", "order", "evaluations", "per evaluation", "ratio"):
        table.add_column(column, justify="left" if column in ("game", "heuristic", "order") else "right")
    base = {row.game: row.micros for row in evals if row.heuristic == hand_made(game_class(row.game))}
    for row in evals:
        table.add_row(row.game, row.heuristic, row.way, f"{row.evaluations:,}", f"{row.micros:.1f} µs",
                      f"{row.micros / base[row.game]:.2f}x")
    console.print(table)
    search = Table(title="pvs at a fixed depth from the same positions (ratio: nodes/s against the hand-made)")
    for column in ("game", "engine", "positions", "nodes", "time", "nodes/s", "ratio"):
        search.add_column(column, justify="left" if column in ("game", "engine") else "right")
    base_nps = {row.game: row.nps for row in searches if row.spec.endswith(f"heuristic={hand_made(game_class(row.game))}")}
    for srow in searches:
        search.add_row(srow.game, srow.spec, str(srow.positions), f"{srow.nodes:,}", f"{srow.seconds:.2f} s",
                       f"{srow.nps:,.0f}", f"{srow.nps / base_nps[srow.game]:.2f}x" if base_nps.get(srow.game) else "-")
    console.print(search)
