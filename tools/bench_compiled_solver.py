"""The compiled Othello endgame solver against the pure-Python one in one run.

The FFO positions played forward to 14 empties (tests/data/ffo-derived.txt) and three positions of
seeded random play at 16 empties, each solved pure, compiled, pure, compiled, ... (``REPS`` times
each, default 5); per position the median of the time ratios, and the load average before and after.
Both solvers must give the same value and move.  Run from the repository's root, numba installed:
``nice -n 0 python tools/bench_compiled_solver.py [REPS]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

from games.othello import Othello
from games.othello import compiled
from games.othello.solver import Solver

ROOT = Path(__file__).resolve().parent.parent


def load() -> str:
    return Path("/proc/loadavg").read_text().split()[0]


def positions(random_count: int = 3, empties: int = 16, seed: int = 3) -> list[tuple[str, Othello]]:
    """The FFO-derived positions at 14 empties, then ``random_count`` of seeded random play."""
    found = []
    for line in (ROOT / "tests/data/ffo-derived.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            number, rows, side = line.split()[:3]
            game = Othello.from_text(f"{rows} {side}")
            if game.empties == 14:
                found.append((f"ffo{number}@14", game))
    rng = random.Random(seed)
    made = 0
    while made < random_count:
        game = Othello()
        while game.empties > empties and game.legal_moves():
            game.play(rng.choice(game.legal_moves()))
        if game.empties == empties and game.outcome() is None:
            made += 1
            found.append((f"random@{empties} #{made}", game))
    return found


def main(reps: int) -> None:
    print("load before", load())
    for name, game in positions():
        own, opp = game.discs(game.turn), game.discs(game.turn ^ 1)
        pure_times, fast_times, ratios = [], [], []
        for _ in range(reps):
            start = time.perf_counter()
            pure = Solver().solve(own, opp)
            pure_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            fast = compiled.solve(own, opp)
            fast_times.append(time.perf_counter() - start)
            assert (pure.value, pure.move) == (fast.value, fast.move), name
            ratios.append(pure_times[-1] / fast_times[-1])
        print(f"{name:16} value {pure.value:+3d} pure {pure.nodes:>9,} nodes {statistics.median(pure_times):6.2f} s"
              f" | compiled {fast.nodes:>9,} nodes {statistics.median(fast_times):6.3f} s"
              f" | median ratio {statistics.median(ratios):5.1f}x", flush=True)
    print("load after", load())


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
