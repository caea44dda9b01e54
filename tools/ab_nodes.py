"""pvs nodes/s per game in two checkouts, measured in one run: before and after a change.

    python tools/ab_nodes.py BEFORE AFTER [--game GAME ...] [--repeat N] [--best-of K] [--quick] [--json]

BEFORE and AFTER are two checkouts of the project (folders holding ``games/`` and ``engines/``),
typically a git worktree of an older commit and the working tree::

    git worktree add /tmp/before HEAD~3
    python tools/ab_nodes.py /tmp/before .

For each game, each search is the same fixed-depth ``pvs`` search (``pvs:depth=D``: the depth of
the game's warm-table benchmark, its ``--quick`` depth with ``--quick``) of each of the game's
benchmark positions (the start and its middlegames), as AFTER's game kinds list them.  Every
measurement runs in a fresh Python process whose imports come from one checkout (``PYTHONPATH``),
after a small warm-up search, each position searched ``--best-of`` times and the fastest kept
(a burst of load elsewhere lengthens a search, never shortens it); the two checkouts take turns -- BEFORE then AFTER, then AFTER then
BEFORE, ``--repeat`` times -- so that a change of the machine's load falls on both alike.

Printed per game: the nodes (summed over the positions: equal on both sides when the change
keeps the tree; if they differ the trees differ and the time ratio says more than nodes/s), the
median nodes/s of each side, the median of the per-round ratios AFTER/BEFORE of nodes/s and of
time (BEFORE's time over AFTER's: above 1 is faster), and the load average before and after.
One process at a time: on a shared machine run it with ``nice -n 0`` and nothing else heavy.

Bad input (a folder that is no checkout, an unknown game) is one line on stderr, exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

PROG = "ab_nodes"
#: The warm-up search before the timed ones, in each process.
WARM_DEPTH = 2
#: A process that runs longer than this many seconds is killed (and the run refused).
TIMEOUT = 900


class Refused(Exception):
    """Bad input, or a checkout that cannot run the searches: one line, exit status 2."""


# ------------------------------------------------------------------ in a fresh process
def child(job: dict[str, Any]) -> dict[str, Any]:
    """Run ``job`` (from stdin) with the checkout on ``sys.path``: ``plan`` lists the games'
    positions and depths; ``search`` times ``pvs:depth=D`` on each position of one game."""
    import gc

    try:  # end with the parent however it dies (where the checkout has the helper)
        from engines.lifetime import exit_with_parent
    except ImportError:
        pass
    else:
        exit_with_parent()
    import engines
    import games

    where = os.path.dirname(os.path.dirname(os.path.abspath(games.__file__ or "")))
    if job["kind"] == "plan":
        from games import GAME_NAMES, game_kind

        plan = {}
        for name in GAME_NAMES:
            bench = game_kind(name).bench
            plan[name] = {"positions": [[position.label, position.text] for position in bench.positions],
                          "depth": bench.warm_depth[1 if job["quick"] else 0]}
        return {"where": where, "plan": plan}
    from engines import create_engine
    from games import new_game

    nodes, seconds = 0, 0.0
    texts = job["positions"]
    warm = new_game(job["game"], texts[0])
    create_engine(f"pvs:depth={WARM_DEPTH}", type(warm)).search(warm)
    for text in texts:
        fastest = float("inf")
        for _ in range(job["best_of"]):
            game = new_game(job["game"], text)
            engine = create_engine(f"pvs:depth={job['depth']}", type(game))  # a new engine: a cold table
            gc.collect()
            start = time.perf_counter()
            result = engine.search(game)
            fastest = min(fastest, time.perf_counter() - start)
        seconds += fastest
        nodes += result.stats["nodes"]
    return {"where": where, "engines": os.path.dirname(os.path.abspath(engines.__file__ or "")),
            "nodes": nodes, "seconds": seconds}


def run_child(checkout: Path, job: dict[str, Any]) -> dict[str, Any]:
    """``job`` in a fresh process importing from ``checkout``; refused if it imported elsewhere."""
    from engines.lifetime import killed_with_parent

    env = dict(os.environ, PYTHONPATH=str(checkout))
    done = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--child"], input=json.dumps(job), env=env,
        cwd=checkout, capture_output=True, text=True, timeout=TIMEOUT, preexec_fn=killed_with_parent(),
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise Refused(f"{checkout}: the {job['kind']} process failed: {last}")
    answer = json.loads(done.stdout)
    if Path(answer["where"]).resolve() != checkout.resolve():
        raise Refused(f"{checkout}: its process imported the games from {answer['where']}, not from the checkout")
    return answer


# ------------------------------------------------------------------ the rounds
def checkout_path(text: str) -> Path:
    path = Path(text)
    if not (path / "games" / "__init__.py").is_file() or not (path / "engines" / "__init__.py").is_file():
        raise Refused(f"{text}: not a checkout of the project (no games/ and engines/ packages in it)")
    return path.resolve()


def load() -> str:
    try:
        return " ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:  # pragma: no cover - every Linux has it
        return "-"


def measure(before: Path, after: Path, games: list[str] | None, repeat: int, quick: bool,
            best_of: int = 1) -> dict[str, Any]:
    """The rounds, interleaved; the figures per game."""
    plan = run_child(after, {"kind": "plan", "quick": quick})["plan"]
    names = games or list(plan)
    unknown = [name for name in names if name not in plan]
    if unknown:
        raise Refused(f"--game {unknown[0]!r}: {after} has the games {', '.join(plan)}")
    load_before = load()
    runs: dict[str, dict[str, list[tuple[int, float]]]] = {name: {"before": [], "after": []} for name in names}
    for round_ in range(repeat):
        for name in names:
            job = {"kind": "search", "game": name, "depth": plan[name]["depth"], "best_of": best_of,
                   "positions": [text for _, text in plan[name]["positions"]]}
            sides = [("before", before), ("after", after)]
            for side, checkout in sides if round_ % 2 == 0 else sides[::-1]:
                answer = run_child(checkout, job)
                runs[name][side].append((answer["nodes"], answer["seconds"]))
                print(f"round {round_ + 1}/{repeat} {name} {side}: {answer['nodes']:,} nodes in "
                      f"{answer['seconds']:.3f} s", file=sys.stderr, flush=True)
    rows = []
    for name in names:
        first, second = runs[name]["before"], runs[name]["after"]
        rows.append({
            "game": name, "depth": plan[name]["depth"], "positions": len(plan[name]["positions"]),
            "nodes_before": first[0][0], "nodes_after": second[0][0],
            "nps_before": statistics.median(nodes / seconds for nodes, seconds in first),
            "nps_after": statistics.median(nodes / seconds for nodes, seconds in second),
            "nps_ratio": statistics.median((b[0] / b[1]) / (a[0] / a[1]) for a, b in zip(first, second)),
            "time_ratio": statistics.median(a[1] / b[1] for a, b in zip(first, second)),
        })
    return {"before": str(before), "after": str(after), "repeat": repeat, "best_of": best_of, "quick": quick,
            "load_before": load_before, "load_after": load(), "games": rows}


def print_table(result: dict[str, Any]) -> None:
    print(f"pvs at a fixed depth, {result['repeat']} interleaved rounds, each in fresh processes; "
          f"each position's fastest of {result['best_of']} searches")
    print(f"before: {result['before']}")
    print(f"after:  {result['after']}")
    header = f"{'game':<10}{'depth':>6}{'nodes before':>14}{'nodes after':>13}{'nodes/s before':>16}" \
             f"{'nodes/s after':>15}{'nodes/s ratio':>15}{'time ratio':>12}"
    print(header)
    for row in result["games"]:
        same = "" if row["nodes_before"] == row["nodes_after"] else "  (trees differ)"
        print(f"{row['game']:<10}{row['depth']:>6}{row['nodes_before']:>14,}{row['nodes_after']:>13,}"
              f"{row['nps_before']:>16,.0f}{row['nps_after']:>15,.0f}{row['nps_ratio']:>14.3f}x"
              f"{row['time_ratio']:>11.3f}x{same}")
    print("ratios: medians of the rounds' after/before nodes/s and before/after time (above 1: after is faster)")
    print(f"load average: {result['load_before']} before, {result['load_after']} after")


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    if arguments == ["--child"]:
        print(json.dumps(child(json.loads(sys.stdin.read()))))
        return 0
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("before", help="the checkout before the change (e.g. a git worktree of an older commit)")
    parser.add_argument("after", help="the checkout after it (e.g. the working tree)")
    parser.add_argument("--game", dest="games", action="append", metavar="GAME",
                        help="only this game (repeatable; default: all of AFTER's)")
    parser.add_argument("--repeat", type=int, default=5, metavar="N", help="rounds (default 5)")
    parser.add_argument("--best-of", type=int, default=3, metavar="K",
                        help="search each position K times in each process and keep the fastest, which a "
                             "burst of load elsewhere touches least (default 3)")
    parser.add_argument("--quick", action="store_true", help="the quick depths (a smoke run)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args(arguments)
    try:
        if args.repeat < 1 or args.best_of < 1:
            raise Refused(f"--repeat and --best-of must be at least 1, got {args.repeat} and {args.best_of}")
        result = measure(checkout_path(args.before), checkout_path(args.after), args.games, args.repeat,
                         args.quick, args.best_of)
    except (Refused, subprocess.TimeoutExpired) as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result))
    else:
        print_table(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
