"""What a game's pattern tables cost beside its hand-made evaluation, the fast path against the generic one.

    python tools/bench_tables.py GAME [--tables FILE] [--depth D] [--repeats 7]

Three evaluations of the same position are measured, interleaved (hand-made, generic, fast,
hand-made, ...) so that a shared machine's load falls on all alike; the median of each one's ratio
to the hand-made evaluation of the same round is printed with the load average. Times are CPU
time (``time.process_time``), which other processes' load disturbs less than the wall clock.

* **per evaluation**: the children of 24 seeded random-play positions, each evaluated in turn;
* **per node**: ``pvs:depth=D`` from 8 positions, a fresh engine each round, nodes/s.  The generic
  and the fast evaluations give the same values, so their trees are the same: the node counts
  printed show it.

The hand-made evaluation is the game's ``HAND_MADE_HEURISTIC`` (or its strongest); the tables are
the file given, or the game's bundled ``learned`` tables, or random ones (per evaluation only: the
cost of an evaluation does not depend on the entries' values).
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

from engines import create_engine
from games import base, game_class, game_kind, new_game
from games.learned import Tables, load_tables, tables_heuristic
from tui.bench.models import bench_positions
from tui.bench.network import node_children


def _evaluations(evaluate: Callable[[Any, int], int], boards: list[Any], rounds: int) -> float:
    """Microseconds of CPU time an evaluation, over ``rounds`` passes over ``boards``."""
    start = time.process_time()
    for _ in range(rounds):
        for board in boards:
            evaluate(board, 0)
    return (time.process_time() - start) / (rounds * len(boards)) * 1e6


def _search(spec: str, cls: type, boards: list[Any]) -> tuple[int, float]:
    """Nodes and CPU seconds of ``spec`` from each board, a fresh engine."""
    engine = create_engine(spec, cls)
    nodes = 0
    start = time.process_time()
    for board in boards:
        nodes += engine.search(board).stats["nodes"]
    spent = time.process_time() - start
    engine.close()
    return nodes, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--tables", help="a tables file (default: the game's bundled learned tables, if any)")
    parser.add_argument("--depth", type=int, help="pvs's depth (default: the game's bench search depth)")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=20, help="passes over the children a measure")
    args = parser.parse_args()
    cls = game_class(args.game)
    form = importlib.import_module(cls.__module__.rpartition(".")[0] + ".patterns").FORM
    bundled = Path(importlib.import_module(cls.__module__).__file__).with_name("learned.npz")
    path = args.tables or (str(bundled) if bundled.exists() else None)
    if path is not None:
        tables = load_tables(form, path)
    else:
        rng = np.random.default_rng(3)
        tables = Tables(tuple(rng.integers(-300, 300, form.weights).tolist()),
                        tuple(rng.integers(-300, 300, form.weights).tolist()), 7)
    hand = cls.HAND_MADE_HEURISTIC or cls.STRONG_HEURISTIC
    evaluators = {hand: cls.heuristic(hand), "generic": tables_heuristic(form, tables, generic=True),
                  "fast": tables_heuristic(form, tables)}
    boards = []
    for board, move in node_children(bench_positions(args.game, 24)):
        board.play(move)
        boards.append(new_game(args.game, board.to_text()))
        board.undo()
    for evaluate in evaluators.values():
        _evaluations(evaluate, boards, 2)
    micros: dict[str, list[float]] = {name: [] for name in evaluators}
    for _ in range(args.repeats):
        for name, evaluate in evaluators.items():
            micros[name].append(_evaluations(evaluate, boards, args.rounds))
    load = Path("/proc/loadavg").read_text().split()[:3]
    print(f"{args.game}: {len(boards)} children, {args.repeats} rounds; load {load}")
    for name, times in micros.items():
        ratio = statistics.median(t / h for t, h in zip(times, micros[hand]))
        print(f"  per evaluation  {name:16s} {statistics.median(times):6.2f} us  {ratio:.2f}x")
    if path is None:
        print("  (no tables file: no search)")
        return
    depth = args.depth or game_kind(args.game).bench.search_depth[1]
    with tempfile.TemporaryDirectory() as folder:
        generic_path = str(Path(folder) / "generic.npz")
        shutil.copyfile(path, generic_path)
        # the same file under another name, read by the generic evaluation
        base._FILE_HEURISTICS[(cls, "tables", generic_path)] = evaluators["generic"]
        specs = {hand: f"pvs:depth={depth},heuristic={hand}",
                 "generic": f"pvs:depth={depth},heuristic=tables:{generic_path}",
                 "fast": f"pvs:depth={depth},heuristic=tables:{path}"}
        positions = bench_positions(args.game, 8, seed=11)
        searched: dict[str, list[tuple[int, float]]] = {name: [] for name in specs}
        for _ in range(args.repeats):
            for name, spec in specs.items():
                searched[name].append(_search(spec, cls, positions))
    print(f"  pvs:depth={depth} from 8 positions; load {Path('/proc/loadavg').read_text().split()[:3]}")
    for name, runs in searched.items():
        rates = [nodes / seconds for nodes, seconds in runs]
        ratio = statistics.median(rate / (nodes / seconds) for rate, (nodes, seconds) in zip(rates, searched[hand]))
        print(f"  per node        {name:16s} {statistics.median(rates):9,.0f} nodes/s  {ratio:.2f}x  "
              f"nodes {sorted({nodes for nodes, _ in runs})}")


if __name__ == "__main__":
    main()
