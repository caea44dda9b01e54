"""The compiled Othello endgame solver against the pure-Python one in one run: the FFO positions played forward to
14 empties (tests/data/ffo-derived.txt) and three of seeded random play at 16, each timed pure, compiled, pure, ...
(``nice -n 0 python tools/bench_compiled_solver.py [REPS]``, numba installed), the median time ratio per position."""
import random, statistics, time, sys
from pathlib import Path
from games.othello import Othello
from games.othello.solver import Solver
from games.othello import compiled as c

def load(): return Path('/proc/loadavg').read_text().split()[0]
games = []
for l in Path('tests/data/ffo-derived.txt').read_text().splitlines():
    if l.strip() and not l.startswith('#') and ' 14 ' not in l:
        n, rows, side = l.split()[:3]
        g = Othello.from_text(f"{rows} {side}")
        if g.empties == 14: games.append((f"ffo{n}@14", g))
rng = random.Random(3)
while len(games) < 5:
    g = Othello()
    while g.empties > 16 and g.legal_moves():
        g.play(rng.choice(g.legal_moves()))
    if g.empties == 16 and g.outcome() is None: games.append((f"random@16 #{len(games)-1}", g))
print("load before", load())
for name, g in games:
    own, opp = g.discs(g.turn), g.discs(g.turn ^ 1)
    ratios = []; tp=[]; tc=[]
    for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else 5):
        t = time.perf_counter(); a = Solver().solve(own, opp); t1 = time.perf_counter() - t
        t = time.perf_counter(); b = c.solve(own, opp); t2 = time.perf_counter() - t
        assert (a.value, a.move) == (b.value, b.move)
        ratios.append(t1 / t2); tp.append(t1); tc.append(t2)
    print(f"{name:16} value {a.value:+3d} pure {a.nodes:>9,} nodes {statistics.median(tp):6.2f} s"
          f" | compiled {b.nodes:>9,} nodes {statistics.median(tc):6.3f} s | median ratio {statistics.median(ratios):5.1f}x", flush=True)
print("load after", load())
