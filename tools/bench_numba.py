"""Measure the numba prototype (tools/numba_othello.py) against today's pure-Python path.

Run with a Python that has numba (the ``fast`` extra), from the repository's root, nothing else of ours running:
``nice -n 0 python tools/bench_numba.py [section ...]``; sections
``check`` (the compiled functions agree with the pure-Python ones), ``start``, ``primitives``,
``search``, ``solver`` (default: all).  Every figure is a ratio
measured in this run, the two paths interleaved (A, B, A, B, ...), the median of the
repetitions; the load average is printed with each section.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import numba_othello as nb  # noqa: E402

from engines import create_engine  # noqa: E402
from engines.search.core import INF, Control, Searcher  # noqa: E402
from engines.search.selectors import FullWidth  # noqa: E402
from games.othello import Othello  # noqa: E402
from games.othello import bitboards as bb  # noqa: E402
from games.othello import evaluation as ev  # noqa: E402
from games.othello import game as game_module  # noqa: E402
from games.othello.ffo import ffo_cases  # noqa: E402
from games.othello.solver import Solver  # noqa: E402


def load() -> str:
    return Path("/proc/loadavg").read_text().split(" ")[0]


def positions(count: int, plies: int, seed: int = 7) -> list[Othello]:
    """Positions of seeded random play after ``plies`` moves (games still going)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        game = Othello()
        for _ in range(plies):
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
        if game.legal_moves() and game.legal_moves() != [64]:
            found.append(game)
    return found


def interleaved(a: Callable[[], float], b: Callable[[], float], reps: int) -> tuple[list[float], list[float]]:
    """Times of ``a`` and ``b`` run alternately ``reps`` times each."""
    ta, tb = [], []
    for _ in range(reps):
        ta.append(a())
        tb.append(b())
    return ta, tb


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


# ---------------------------------------------------------------- start-up
def run_python(code: str, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=ROOT)
    return time.perf_counter() - start


def start_section(reps: int = 5) -> None:
    print(f"== start-up (load {load()})")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "tools"))
    base = [run_python("pass", env) for _ in range(reps)]
    numba_import = [run_python("import numba", env) for _ in range(reps)]
    games_import = [run_python("import games.othello", env) for _ in range(reps)]
    print(f"python -c pass {statistics.median(base):.3f} s; import numba {statistics.median(numba_import):.3f} s; "
          f"import games.othello {statistics.median(games_import):.3f} s")
    use = "import numba_othello as nb; nb.negamax(0x0000000810000000, 0x0000001008000000, 2)"
    cold, warm = [], []
    for _ in range(3):
        with tempfile.TemporaryDirectory() as cache:
            env_cache = dict(env, NUMBA_CACHE_DIR=cache)
            cold.append(run_python(use, env_cache))
            warm.append(run_python(use, env_cache))
    print(f"prototype's import and first call: cold (compiling, empty cache) {statistics.median(cold):.2f} s "
          f"[{', '.join(f'{t:.2f}' for t in cold)}]; warm (cache hit) {statistics.median(warm):.2f} s "
          f"[{', '.join(f'{t:.2f}' for t in warm)}]")
    import llvmlite
    import numba
    for module in (numba, llvmlite):
        path = Path(module.__file__).parent
        size = subprocess.run(["du", "-sk", str(path)], capture_output=True, text=True).stdout.split()[0]
        print(f"installed {module.__name__} {module.__version__}: {int(size) / 1024:.1f} MB ({path})")


# ---------------------------------------------------------------- primitives
def primitives_section(reps: int = 5) -> None:
    print(f"== primitives called from Python, per call (load {load()})")
    games = positions(40, 20)
    pairs = [(g.discs(g.turn), g.discs(g.turn ^ 1)) for g in games]
    cells = [(own, opp, cell) for own, opp in pairs for cell in range(64) if not (own | opp) >> cell & 1]
    for name, py, fast, args in (
        ("legal_mask", bb.legal_mask, nb.legal_mask, pairs * 50),
        ("flips", bb.flips, nb.flips, cells * 2),
        ("standard", lambda own, opp: ev.standard(_Pair(own, opp), 0), nb.standard, pairs * 20),
    ):
        def run(fn: Callable[..., object]) -> float:
            return timed(lambda: [fn(*a) for a in args]) / len(args)
        tp, tn = interleaved(lambda: run(py), lambda: run(fast), reps)
        ratio = statistics.median(p / n for p, n in zip(tp, tn))
        print(f"{name:>10}: Python {statistics.median(tp) * 1e6:.2f} us, numba {statistics.median(tn) * 1e6:.2f} us "
              f"a call: {ratio:.1f}x")


class _Pair:
    """A stand-in for the game ``standard`` reads (own to move, player 0)."""

    turn = 0

    def __init__(self, own: int, opp: int) -> None:
        self.own, self.opp = own, opp

    def discs(self, player: int) -> int:
        return self.own if player == 0 else self.opp

    def mobility(self) -> int:
        return bb.legal_mask(self.own, self.opp)

    def opponent_mobility(self) -> int:
        return bb.legal_mask(self.opp, self.own)


# ---------------------------------------------------------------- search
def core_search(game: Othello, depth: int, evaluate: Callable[[Othello, int], int]) -> int:
    """The one search core, ``pvs`` without table, killers or quiescence, moves in
    cell order: the tree the compiled negamax searches.  Its node count."""
    searcher = Searcher(game, evaluate, Control(), select=FullWidth(ordered=True), pvs=True)
    searcher.root_moves = game.legal_moves()
    searcher.negamax(depth, -INF, INF, 0)
    return searcher.control.nodes


def compiled_eval(game: Othello, player: int) -> int:
    own, opp = game.discs(game.turn), game.discs(game.turn ^ 1)
    score = nb.standard(own, opp)
    return score if player == game.turn else -score


class CompiledPrimitives:
    """While inside, the Othello game's play/moves use the compiled flips and legal_mask."""

    def __enter__(self) -> None:
        self.saved = game_module.flips, game_module.legal_mask, Othello.HEURISTICS
        game_module.flips, game_module.legal_mask = nb.flips, nb.legal_mask
        Othello.HEURISTICS = {**Othello.HEURISTICS, "standard": compiled_eval}

    def __exit__(self, *exc: object) -> None:
        game_module.flips, game_module.legal_mask, Othello.HEURISTICS = self.saved


def engine_nodes(game: Othello, spec: str) -> int:
    engine = create_engine(spec, Othello)
    return engine.search(game.copy()).stats.nodes


def search_section(depth: int = 4, reps: int = 3) -> None:
    print(f"== alpha-beta at equal nodes: the core and numba at depth {depth}, pvs at {depth + 2} (load {load()})")
    games = positions(4, 16, seed=11) + positions(4, 30, seed=12)
    rows = []
    for game in games:
        own, opp = game.discs(game.turn), game.discs(game.turn ^ 1)
        nodes = core_search(game.copy(), depth, ev.standard)
        _, compiled_nodes = nb.negamax(own, opp, depth)
        assert compiled_nodes == nodes, (compiled_nodes, nodes)
        with CompiledPrimitives():
            assert core_search(game.copy(), depth, compiled_eval) == nodes
        py, fast, mixed = [], [], []
        for _ in range(reps):
            py.append(timed(lambda: core_search(game.copy(), depth, ev.standard)))
            fast.append(timed(lambda: nb.negamax(own, opp, depth)))
            with CompiledPrimitives():
                mixed.append(timed(lambda: core_search(game.copy(), depth, compiled_eval)))
        pvs_std, pvs_learned, pvs_fast = [], [], []
        std = f"pvs:depth={depth + 2},heuristic=standard"
        n_std = engine_nodes(game, std)
        n_learned = engine_nodes(game, f"pvs:depth={depth + 2}")
        with CompiledPrimitives():
            assert engine_nodes(game, std) == n_std  # the same tree, on the compiled primitives
        for _ in range(reps):
            pvs_std.append(timed(lambda: engine_nodes(game, std)))
            with CompiledPrimitives():
                pvs_fast.append(timed(lambda: engine_nodes(game, std)))
            pvs_learned.append(timed(lambda: engine_nodes(game, f"pvs:depth={depth + 2}")))
        rows.append((nodes, statistics.median(py), statistics.median(fast), statistics.median(mixed),
                     n_std / statistics.median(pvs_std), n_learned / statistics.median(pvs_learned),
                     statistics.median(pvs_std) / statistics.median(pvs_fast)))
        print(f"{game.empties:>2} empties, {nodes:>7,} nodes: core {nodes / rows[-1][1]:>9,.0f} n/s, "
              f"compiled {nodes / rows[-1][2]:>12,.0f} n/s ({rows[-1][1] / rows[-1][2]:6.1f}x), core on compiled "
              f"primitives {nodes / rows[-1][3]:>9,.0f} n/s ({rows[-1][1] / rows[-1][3]:.2f}x); "
              f"pvs standard {rows[-1][4]:,.0f} n/s ({n_std:,} nodes; on compiled primitives {rows[-1][6]:.2f}x), "
              f"pvs learned {rows[-1][5]:,.0f} n/s", flush=True)
    print(f"median: compiled {statistics.median(r[1] / r[2] for r in rows):.1f}x the core's nodes/s; "
          f"the core on compiled primitives {statistics.median(r[1] / r[3] for r in rows):.2f}x; "
          f"the core (no table/killers) runs at {statistics.median((r[0] / r[1]) / r[4] for r in rows):.2f}x "
          f"full pvs:heuristic=standard's nodes/s, {statistics.median((r[0] / r[1]) / r[5] for r in rows):.2f}x "
          f"pvs's (learned); full pvs:heuristic=standard on compiled primitives "
          f"{statistics.median(r[6] for r in rows):.2f}x its nodes/s")


# ---------------------------------------------------------------- the solver
def solver_section(numbers: tuple[int, ...] = (40, 41, 42, 43, 44), python_too: tuple[int, ...] = (40,),
                   derived_too: bool = True) -> None:
    print(f"== the exact solver (load {load()})")
    derived = []
    for line in (ROOT / "tests/data/ffo-derived.txt").read_text().splitlines() if derived_too else ():
        if line and not line.startswith("#"):
            number, rows, side, value = line.split()[:4]
            derived.append((f"#{number} at {64 - (rows.count('B') + rows.count('W'))}", f"{rows} {side}", int(value)))
    cases = [(f"#{c.number}", c.position, c.value) for c in ffo_cases() if c.number in numbers]
    ratios = []
    for name, text, expected in derived + cases:
        game = Othello.from_text(text)
        own, opp = game.discs(game.turn), game.discs(game.turn ^ 1)
        start, cpu = time.perf_counter(), time.process_time()
        value, move, nodes = nb.solve(own, opp, nb.TABLE_BITS)
        fast, fast_cpu = time.perf_counter() - start, time.process_time() - cpu
        line = (f"{name:>10} {game.empties:>2} empties: numba {value:+d} {bb.CELL_NAMES[move] if 0 <= move < 64 else move}"
                f" {nodes:>12,} nodes {fast:8.2f} s (CPU {fast_cpu:.2f} s) {nodes / fast:>12,.0f} n/s"
                f" {'right' if value == expected else 'WRONG'}")
        if name.startswith("#") and (" at " in name or int(name[1:]) in python_too):
            start = time.perf_counter()
            solution = Solver().solve(own, opp)
            slow = time.perf_counter() - start
            assert solution.value == value
            ratios.append(slow / fast)
            line += (f"; Python {solution.nodes:>12,} nodes {slow:8.2f} s {solution.nodes / slow:>9,.0f} n/s:"
                     f" {slow / fast:.0f}x")
        print(line, flush=True)
    if ratios:
        print(f"median time ratio Python/numba {statistics.median(ratios):.0f}x ({len(ratios)} positions)")


# ---------------------------------------------------------------- the check
def check_section(positions: int = 300, seed: int = 1) -> None:
    """Compare each compiled function with the pure-Python one on positions of random play."""
    rng = random.Random(seed)
    seen = 0
    for _ in range(positions // 30):
        game = Othello()
        while game.legal_moves():
            own, opp = game.discs(game.turn), game.discs(game.turn ^ 1)
            assert nb.legal_mask(own, opp) == bb.legal_mask(own, opp)
            for cell in range(64):
                if not (own | opp) >> cell & 1:
                    assert nb.flips(own, opp, cell) == bb.flips(own, opp, cell), (own, opp, cell)
            assert nb.standard(own, opp) == ev.standard(game, game.turn), (own, opp)
            seen += 1
            game.play(rng.choice(game.legal_moves()))
    for depth in (1, 2, 3):
        game = Othello()
        for _ in range(rng.randrange(6, 30)):
            game.play(rng.choice(game.legal_moves()))
        searcher = Searcher(game, ev.standard, Control(), select=FullWidth(ordered=True), pvs=True)
        searcher.root_moves = game.legal_moves()
        value = searcher.negamax(depth, -INF, INF, 0)
        compiled, nodes = nb.negamax(game.discs(game.turn), game.discs(game.turn ^ 1), depth)
        assert (value, searcher.control.nodes) == (compiled, nodes), (depth, value, compiled)
    for _ in range(4):
        game = Othello()
        while game.empties > 12:
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
        own, opp = game.discs(game.turn), game.discs(game.turn ^ 1)
        expected = Solver().solve(own, opp).value
        value, _move, _nodes = nb.solve(own, opp, 16)
        assert value == expected, (value, expected)
    print(f"check: {seen} positions' primitives, 3 searches and 4 solves agree with the pure-Python path")


SECTIONS = {"check": check_section, "start": start_section, "primitives": primitives_section, "search": search_section,
            "solver": solver_section}

if __name__ == "__main__":
    for section in sys.argv[1:] or list(SECTIONS):
        if section.startswith("solver="):  # solver=45-49: those FFO numbers, compiled only
            low, _, high = section.partition("=")[2].partition("-")
            solver_section(tuple(range(int(low), int(high or low) + 1)), (), derived_too=False)
        else:
            SECTIONS[section]()
