"""``tui-games bench models``: what a learned evaluation costs inside search.

For each game and each bundled model, on positions of seeded random play, the
time to value every child of a node two ways, with the numpy predictor the
model file's arrays make (:mod:`engines.learning.predictor`):

- **per child** -- the seeds' way: one predict call per child on a one-row
  input (they called scikit-learn's ``predict`` and built a pandas DataFrame per
  row, which costs far more);
- **batched** -- one call for all the children (what ``hr``, ``pred`` and
  ``mi-pred`` do).

Reading the children's inputs (play, features or H0, undo) is timed apart and
is the same for both.  Then the search itself: ``hr`` against ``h0`` at
the same depth and ``k`` from the same positions (nodes/s and time per move),
so the model's share of a search is visible.  Ratios are against the per-child
way, measured in the same run on the same machine.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from engines import create_engine
from engines.learning.learned import ChildScorer
from engines.learning.models import BUNDLED_NAMES, load_model
from games import Game, game_class, new_game

from .perft import best_time

__all__ = ["ModelRow", "SearchCostRow", "model_rows", "search_cost_rows", "run_models_bench"]

#: Random-play positions per game.
POSITIONS = 24
QUICK_POSITIONS = 4


def bench_positions(game: str, count: int, seed: int = 7) -> list[Game]:
    """``count`` positions reached by 4 to 40 seeded random plies (none over)."""
    rng = random.Random(seed)
    found: list[Game] = []
    while len(found) < count:
        board = new_game(game)
        for _ in range(rng.randrange(4, 41)):
            if board.outcome() is not None:
                break
            board.play(rng.choice(board.legal_moves()))
        if board.outcome() is None and len(board.legal_moves()) > 1:
            found.append(board)
    return found


@dataclass
class ModelRow:
    game: str
    name: str
    model: str
    nodes: int
    children: int
    inputs_s: float
    per_child_s: float
    batched_s: float

    def per_node(self, seconds: float) -> float:
        return seconds / self.nodes

    @property
    def batched_ratio(self) -> float:
        return self.per_child_s / self.batched_s


def model_rows(games: Sequence[str], *, quick: bool = False) -> list[ModelRow]:
    rows = []
    count = QUICK_POSITIONS if quick else POSITIONS
    repeat = 1 if quick else 3
    for game in games:
        cls = game_class(game)
        boards = bench_positions(game, count)
        for name in BUNDLED_NAMES:
            model = load_model(cls, name)
            scorer = ChildScorer(model, cls)
            predict = scorer.predict
            batches, inputs_s = best_time(
                lambda: [np.asarray(scorer.rows(b, b.legal_moves())[0], dtype=np.float64) for b in boards],
                repeat)
            batches = [batch for batch in batches if len(batch)]
            children = sum(len(batch) for batch in batches)
            _, per_child_s = best_time(
                lambda: [[predict(row[None, :]) for row in batch] for batch in batches], repeat)
            _, batched_s = best_time(lambda: [predict(batch) for batch in batches], repeat)
            rows.append(ModelRow(game, name, model.meta.get("model", "?"), len(batches), children,
                                 inputs_s, per_child_s, batched_s))
    return rows


@dataclass
class SearchCostRow:
    game: str
    spec: str
    nodes: int
    seconds: float
    moves: int

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds else 0.0


def search_cost_rows(games: Sequence[str], *, quick: bool = False, depth: int = 3, k: int = 5) -> list[SearchCostRow]:
    rows = []
    count = QUICK_POSITIONS if quick else POSITIONS // 3
    for game in games:
        cls = game_class(game)
        boards = bench_positions(game, count, seed=11)
        for spec in (f"h0:depth={depth},k={k}", f"hr:depth={depth},k={k}"):
            engine = create_engine(spec, cls)
            nodes = 0
            start = time.perf_counter()
            for board in boards:
                nodes += engine.search(board).stats["nodes"]
            rows.append(SearchCostRow(game, spec, nodes, time.perf_counter() - start, len(boards)))
    return rows


def _us(seconds: float) -> str:
    micro = seconds * 1e6
    return f"{micro:,.0f} µs" if micro >= 100 else f"{micro:.1f} µs"


def run_models_bench(games: Sequence[str], *, quick: bool = False) -> None:
    """Measure and print the tables."""
    from rich.console import Console
    from rich.table import Table

    console = Console(width=max(130, Console().width))
    with console.status("measuring…"):
        predictions = model_rows(games, quick=quick)
        searches = search_cost_rows(games, quick=quick)
    table = Table(title="valuing all the children of a node (per node; ratios against one call per child)")
    for column in ("game", "model", "kind", "children", "inputs", "per child", "batched", "batched ×"):
        table.add_column(column, justify="left" if column in ("game", "model", "kind") else "right")
    for row in predictions:
        table.add_row(row.game, row.name, row.model, f"{row.children / row.nodes:.1f}",
                      _us(row.per_node(row.inputs_s)), _us(row.per_node(row.per_child_s)),
                      _us(row.per_node(row.batched_s)), f"{row.batched_ratio:.1f}")
    console.print(table)
    search = Table(title="hr against h0 at the same depth and k, from the same positions")
    for column in ("game", "engine", "moves", "nodes", "time a move", "nodes/s"):
        search.add_column(column, justify="left" if column in ("game", "engine") else "right")
    for row in searches:
        search.add_row(row.game, row.spec, str(row.moves), f"{row.nodes:,}",
                       f"{row.seconds / row.moves * 1000:,.1f} ms", f"{row.nps:,.0f}")
    console.print(search)
    console.print("inputs: playing each child, reading its features or H0, taking it back (the same for the "
                  "two ways). per child: the seeds' one predict call per child.")
