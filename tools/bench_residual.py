"""What chess's residual network costs beside ``pesto``, measured as ratios in one run.

    python tools/bench_residual.py [--residual FILE] [--depth 4] [--repeats 5]

Two measures, each interleaved (pesto, residual, pesto, residual, ...) so that
a shared machine's load falls on both alike; the median of the ratios is
printed with the load average:

* **per evaluation**: every child of a few positions played, evaluated and
  taken back, less the same loop without the evaluation; the residual read
  from the board's kept accumulator ("incremental") and from scratch;
* **per node**: ``pvs:depth=D`` nodes/s from each position (the trees differ,
  since the values do; nodes/s is the cost of a node).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any, Callable

from engines import Limits, create_engine
from games import new_game
from games.chess.evaluation import pesto
from games.chess.residual import RESIDUAL_FILE, Residual, residual_heuristic

#: Positions: the start, an open game, Kiwipete, a queen middlegame, a rook endgame.
POSITIONS = (
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
    "8/5pk1/6p1/3R4/r7/6P1/5PK1/8 w - - 0 40",
)


def _evaluation_loop(evaluate: Callable[[Any, int], int] | None, rounds: int) -> float:
    """Seconds for ``rounds`` passes over every child of every position: push, evaluate, pop."""
    games: list[Any] = [new_game("chess", text) for text in POSITIONS]
    for game in games:  # attach the accumulators before timing
        if evaluate is not None:
            evaluate(game, 0)
    started = time.perf_counter()
    for _ in range(rounds):
        for game in games:
            board = game.board
            for move in list(board.legal_moves):
                board.push(move)
                if evaluate is not None:
                    evaluate(game, 0)
                board.pop()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--residual", default=str(RESIDUAL_FILE))
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    residual = Residual.load(args.residual)
    incremental = residual_heuristic(residual, pesto, "residual")

    def from_scratch(game: Any, player: int) -> int:
        value = residual.correction(game.board)
        return pesto(game, player) + (value if player == 0 else -value)

    boards: list[Any] = [new_game("chess", text).board for text in POSITIONS]  # type: ignore[attr-defined]
    children = sum(len(list(board.legal_moves)) for board in boards) * args.rounds
    costs: dict[str, list[float]] = {"pesto": [], "residual": [], "scratch": []}
    variants = (("bare", None), ("pesto", pesto), ("residual", incremental), ("scratch", from_scratch))
    for _ in range(args.repeats):  # each repeat: the best of three interleaved runs of each variant
        runs: dict[str, list[float]] = {name: [] for name, _ in variants}
        for _ in range(3):
            for name, evaluate in variants:
                runs[name].append(_evaluation_loop(evaluate, args.rounds))
        best = {name: min(times) for name, times in runs.items()}
        for name in costs:
            costs[name].append((best[name] - best["bare"]) / children * 1e6)
    print(f"load average before the pvs runs: {Path('/proc/loadavg').read_text().split()[:3]}")
    print(f"per evaluation ({children} children a repeat, {args.repeats} repeats, median):")
    for name in costs:
        ratios = [value / base for value, base in zip(costs[name], costs["pesto"])]
        print(f"  {name:9} {statistics.median(costs[name]):6.2f} us   x{statistics.median(ratios):.2f} pesto")

    specs = {"pesto": f"pvs:depth={args.depth}", "residual": f"pvs:depth={args.depth},heuristic=residual:{args.residual}"}
    rates: dict[str, list[float]] = {name: [] for name in specs}
    nodes: dict[str, int] = {name: 0 for name in specs}
    for _ in range(max(1, args.repeats // 2)):
        for name, spec in specs.items():
            total_nodes, total_s = 0, 0.0
            for text in POSITIONS:
                game = new_game("chess", text)
                engine = create_engine(spec, type(game))
                started = time.perf_counter()
                result = engine.search(game, Limits(depth=args.depth))
                total_s += time.perf_counter() - started
                total_nodes += result.stats["nodes"]
            rates[name].append(total_nodes / total_s)
            nodes[name] = total_nodes
    ratios = [value / base for value, base in zip(rates["residual"], rates["pesto"])]
    print(f"pvs:depth={args.depth} over {len(POSITIONS)} positions (median of {len(ratios)}):")
    for name in specs:
        print(f"  {name:9} {statistics.median(rates[name]):8.0f} nodes/s  ({nodes[name]} nodes)")
    print(f"  residual/pesto nodes/s: x{statistics.median(ratios):.2f}")
    print(f"load average after: {Path('/proc/loadavg').read_text().split()[:3]}")


if __name__ == "__main__":
    main()
