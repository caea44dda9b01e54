"""Syzygy tables in chess ``pvs``: what probing costs where it never answers, and endings converted.

    python tools/bench_syzygy.py cost DIR      # pvs:depth=4 with and without tables=DIR, interleaved
    python tools/bench_syzygy.py endings DIR   # the attacker without, then with tables; the defender with

``cost`` searches three positions of more pieces than the tables hold, five times each, the two specs
one after the other, checks that both searched the same tree (nodes, move) and prints the median ratio
of nodes per second.  ``endings`` plays each won ending to its end (or 300 plies): White is
``pvs:depth=4`` without tables, then with them; Black is ``pvs:depth=4`` with them (the best defence).
The load average is printed before and after.  Results are in docs/benchmarks.md.
"""

from __future__ import annotations

import statistics
import sys
import time

from engines import create_engine
from games.chess import ChessGame

#: More pieces than any tables hold: the probe is asked at every node and never answers.
MIDDLE = ("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
          "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
          "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1")
#: Won for White with three pieces (KRvK, KQvK, KPvK).
ENDINGS = ("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", "8/8/3k4/8/8/8/8/4K2R w - - 0 1", "7k/8/8/8/8/8/8/K5R1 w - - 0 1",
           "8/8/8/8/8/3k4/8/K6Q w - - 0 1", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")


def load() -> str:
    with open("/proc/loadavg") as handle:
        return handle.read().strip()


def timed(spec: str, fen: str) -> tuple[int, float, object]:
    engine = create_engine(spec, ChessGame)
    start = time.perf_counter()
    result = engine.search(ChessGame.from_text(fen))
    return result.stats.nodes, result.stats.nodes / (time.perf_counter() - start), result.move


def cost(tables: str) -> None:
    for fen in MIDDLE:
        ratios = []
        for _ in range(5):
            plain, probed = timed("pvs:depth=4", fen), timed(f"pvs:depth=4,tables={tables}", fen)
            assert plain[0] == probed[0] and plain[2] == probed[2], (plain, probed)
            ratios.append(probed[1] / plain[1])
        print(f"{fen}  nodes {plain[0]:,}  nps with/without {statistics.median(ratios):.3f} "
              f"({', '.join(f'{ratio:.3f}' for ratio in ratios)})")


def endings(tables: str) -> None:
    for spec in ("pvs:depth=4", f"pvs:depth=4,tables={tables}"):
        print(spec)
        defender = create_engine(f"pvs:depth=4,tables={tables}", ChessGame)
        for fen in ENDINGS:
            attacker = create_engine(spec, ChessGame)
            game = ChessGame.from_text(fen)
            nodes = 0
            while game.outcome() is None and game.ply < 300:
                side = attacker if game.turn == 0 else defender
                result = side.search(game)
                if side is attacker:
                    nodes += result.stats.nodes
                game.play(result.move)
            outcome = game.outcome()
            end = "unfinished" if outcome is None else outcome.reason
            print(f"  {fen}  {end} after {game.ply} plies, White searched {nodes:,} nodes")


if __name__ == "__main__":
    print(load())
    {"cost": cost, "endings": endings}[sys.argv[1]](sys.argv[2])
    print(load())
