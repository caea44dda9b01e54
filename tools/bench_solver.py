"""Time the Othello solver of the working tree against an earlier commit's, in one run.

``nice -n 0 python tools/bench_solver.py [REV] [--empties N] [--count K] [--reps R]``:
the solver of ``games/othello/solver.py`` at ``REV`` (default ``HEAD``) and the
working tree's solve the same positions (``K`` of seeded random play at ``N``
empties, and the FFO-derived positions of ``tests/data/ffo-derived.txt`` at 14
empties), alternately, ``R`` times each; printed are both node counts (a change
that keeps the algorithm keeps them) and the median ratio of CPU times, with the
load average.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from games.othello import Othello  # noqa: E402
from games.othello import solver as current  # noqa: E402


def reference(rev: str) -> object:
    """``games.othello.solver`` as it was at ``rev``, loaded beside today's."""
    source = subprocess.run(["git", "show", f"{rev}:games/othello/solver.py"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    spec = importlib.util.spec_from_loader("games.othello._solver_at_rev", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "games.othello"
    exec(compile(source, f"{rev}:games/othello/solver.py", "exec"), module.__dict__)
    return module


def positions(empties: int, count: int) -> list[tuple[str, int, int]]:
    found = []
    seed = 0
    while len(found) < count:
        rng = random.Random(seed)
        seed += 1
        game = Othello()
        while game.empties > empties and game.legal_moves():
            game.play(rng.choice(game.legal_moves()))
        if game.empties == empties and game.legal_moves():
            found.append((f"seed {seed - 1}", game.discs(game.turn), game.discs(game.turn ^ 1)))
    for line in (ROOT / "tests/data/ffo-derived.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            number, rows, side = line.split()[:3]
            game = Othello.from_text(f"{rows} {side}")
            if game.empties == 14:
                found.append((f"FFO #{number}", game.discs(game.turn), game.discs(game.turn ^ 1)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("rev", nargs="?", default="HEAD")
    parser.add_argument("--empties", type=int, default=16)
    parser.add_argument("--count", type=int, default=6)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    old = reference(args.rev)
    print(f"load {Path('/proc/loadavg').read_text().split()[0]}; reference {args.rev}")
    ratios = []
    total = [0, 0, 0.0, 0.0]
    for name, own, opp in positions(args.empties, args.count):
        times: tuple[list[float], list[float]] = ([], [])
        nodes = [0, 0]
        values = [0, 0]
        for _ in range(args.reps):
            for i, module in enumerate((old, current)):
                start = time.process_time()
                solution = module.Solver().solve(own, opp)  # type: ignore[attr-defined]
                times[i].append(time.process_time() - start)
                nodes[i], values[i] = solution.nodes, solution.value
        assert values[0] == values[1], (name, values)
        ratio = statistics.median(times[0]) / statistics.median(times[1])
        ratios.append(ratio)
        total[0] += nodes[0]
        total[1] += nodes[1]
        total[2] += statistics.median(times[0])
        total[3] += statistics.median(times[1])
        print(f"{name:>10} {values[1]:+3d}: reference {nodes[0]:>9,} nodes {statistics.median(times[0]):6.2f} s, "
              f"now {nodes[1]:>9,} nodes {statistics.median(times[1]):6.2f} s: {ratio:.2f}x", flush=True)
    print(f"all: reference {total[0]:,} nodes {total[2]:.2f} s, now {total[1]:,} nodes {total[3]:.2f} s; "
          f"median speed-up {statistics.median(ratios):.2f}x, total {total[2] / total[3]:.2f}x; "
          f"load {Path('/proc/loadavg').read_text().split()[0]}")


if __name__ == "__main__":
    sys.exit(main())
