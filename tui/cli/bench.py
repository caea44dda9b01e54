"""``bench perft|search|profile|parallel|keys|models|network|tree|endgame``: the benchmarks (in :mod:`tui.bench`), imported when run."""

from __future__ import annotations

import argparse
import shutil

from games import GAME_NAMES

from .common import PROG, Parser, UsageError, add_game_filter, finite, path_arg, whole



def add_commands(sub: argparse._SubParsersAction) -> None:
    """Add this module's commands to the ``tui-games`` parser."""
    p = sub.add_parser("bench", help="benchmarks (speed, reported against reference implementations)")
    bench_sub = p.add_subparsers(dest="bench", metavar="WHAT", parser_class=Parser, required=True)
    b = bench_sub.add_parser("perft", help="perft leaves/s per game beside reference implementations")
    add_game_filter(b)
    b.add_argument("--quick", action="store_true", help="smaller depths (a smoke run, not a measurement)")
    b.add_argument("--repeat", type=whole(1), default=3, metavar="N", help="best of N runs (default 3)")
    b.set_defaults(run=_cmd_bench_perft)
    b = bench_sub.add_parser(
        "search", help="engine nodes/s at fixed depth beside perft and a naive deep-copying alpha-beta"
    )
    add_game_filter(b)
    b.add_argument("--quick", action="store_true", help="smaller depths (a smoke run, not a measurement)")
    b.add_argument(
        "--sunfish", metavar="PATH",
        help="also time this sunfish UCI executable (e.g. sunfish-uci) for 1 s on the chess positions",
    )
    b.set_defaults(run=_cmd_bench_search)
    b = bench_sub.add_parser(
        "profile", help="where a search's time goes: move generation, make/undo, evaluation, ordering, "
                        "the table, the search loop; nodes/s and the top functions, per game"
    )
    add_game_filter(b)
    b.add_argument("--engine", metavar="SPEC",
                   help="the engine (default pvs with a node budget; a spec without a limit gets the budget)")
    b.add_argument("--position", metavar="TEXT",
                   help="profile this position, in the game's position text (needs one --game; "
                        "default: the game's deepest benchmark middlegame)")
    b.add_argument("--quick", action="store_true", help="a small node budget (a smoke run, not a measurement)")
    b.add_argument("--json", action="store_true", help="print one JSON object instead of the tables")
    b.set_defaults(run=_cmd_bench_profile)
    b = bench_sub.add_parser(
        "keys", help="key-press-to-echo latency in the app while an engine searches, and without"
    )
    add_game_filter(b)
    b.add_argument("--presses", type=int, metavar="N",
                   help="keys timed per run (default 100; --quick: 20)")
    b.add_argument("--quick", action="store_true",
                   help="one game, 20 presses (a smoke run, not a measurement)")
    b.set_defaults(run=_cmd_bench_keys)
    b = bench_sub.add_parser(
        "parallel", help="time to depth: pvs in one process against pvs:workers=N, per game"
    )
    add_game_filter(b)
    b.add_argument("--workers", type=whole(1), default=2, metavar="N", help="processes (default 2)")
    b.add_argument("--repeat", type=whole(1), default=1, metavar="N",
                   help="searches of each position per engine, times summed (default 1)")
    b.add_argument("--quick", action="store_true", help="small depths (a smoke run, not a measurement)")
    b.set_defaults(run=_cmd_bench_parallel)
    b = bench_sub.add_parser(
        "models", help="the bundled models' cost per node: one predict per child, batched, compiled; hr vs h0"
    )
    add_game_filter(b)
    b.add_argument("--quick", action="store_true", help="fewer positions (a smoke run, not a measurement)")
    b.set_defaults(run=_cmd_bench_models)
    b = bench_sub.add_parser(
        "network", help="a learned network evaluation's cost beside the hand-made heuristic: per evaluation, "
                        "kept up to date or from scratch, and pvs nodes/s"
    )
    add_game_filter(b)
    b.add_argument("--quick", action="store_true", help="fewer positions (a smoke run, not a measurement)")
    b.add_argument("--network", type=path_arg, metavar="FILE",
                   help="a network file (train --model network) in place of the bundled network")
    b.set_defaults(run=_cmd_bench_network)
    b = bench_sub.add_parser(
        "learned", help="every learned evaluation's cost beside the hand-made heuristic it replaces: per "
                        "evaluation, and pvs nodes/s at a fixed depth"
    )
    add_game_filter(b)
    b.add_argument("--quick", action="store_true", help="fewer positions (a smoke run, not a measurement)")
    b.add_argument("--network", type=path_arg, metavar="FILE",
                   help="a network file (train --model network) in place of the bundled network")
    b.add_argument("--tables", type=path_arg, metavar="FILE",
                   help="a tables file (train --model tables) in place of the bundled learned tables")
    b.set_defaults(run=_cmd_bench_learned)
    b = bench_sub.add_parser(
        "tree", help="what recording a search tree costs: pvs nodes/s plain and recording, same positions"
    )
    add_game_filter(b)
    b.add_argument("--quick", action="store_true", help="smaller depths (a smoke run, not a measurement)")
    b.set_defaults(run=_cmd_bench_tree)
    b = bench_sub.add_parser(
        "clock", help="chess games on a real clock against Stockfish (UCI_Elo): score and losses on time"
    )
    b.add_argument("--engine", default="pvs:workers=2", metavar="SPEC", help="our engine (default pvs:workers=2)")
    b.add_argument("--games", type=whole(1), default=20, metavar="N", help="games (default 20)")
    b.add_argument("--base", type=float, default=1.0, metavar="S", help="seconds a side (default 1)")
    b.add_argument("--inc", type=float, default=0.0, metavar="S", help="increment a move (default 0)")
    b.add_argument("--elo", type=whole(1), default=1350, metavar="ELO", help="Stockfish's UCI_Elo (default 1350)")
    b.set_defaults(run=_cmd_bench_clock)
    b = bench_sub.add_parser(
        "endgame", help="the exact endgame solver on positions with published values (Othello: FFO #40-#49)"
    )
    add_game_filter(b)
    b.add_argument("--positions", metavar="A-B", help="only these numbers, e.g. 40-44 or 40,42 (default: all)")
    b.add_argument("--timeout", type=finite, metavar="S", help="abandon a position after S seconds (default: none)")
    b.add_argument("--without", action="append", default=[], metavar="NAME",
                   help="turn this refinement of the solver off (repeatable), to measure what it buys")
    b.add_argument("--solver", choices=("python", "compiled"),
                   help="Othello's pure-Python solver or the one compiled with numba (default: compiled "
                        "when numba is installed, the fast extra)")
    b.set_defaults(run=_cmd_bench_endgame)



def _cmd_bench_perft(args: argparse.Namespace) -> int:
    from ..bench.perft import run_perft_bench

    run_perft_bench(args.games or list(GAME_NAMES), quick=args.quick, repeat=args.repeat)
    return 0


def _cmd_bench_search(args: argparse.Namespace) -> int:
    from ..bench.search import run_search_bench
    from ..bench.warm import run_warm_bench

    if args.sunfish is not None and shutil.which(args.sunfish) is None:
        raise UsageError(f"{PROG} bench search", f"--sunfish: no executable {args.sunfish!r}")
    run_search_bench(args.games or list(GAME_NAMES), quick=args.quick, sunfish=args.sunfish)
    run_warm_bench(args.games or list(GAME_NAMES), quick=args.quick)
    return 0


def _cmd_bench_profile(args: argparse.Namespace) -> int:
    from engines import SpecError
    from games import GameError, game_class

    from ..bench.profile import NODES, QUICK_NODES, default_position, limited_spec, run_profile_bench

    prog = f"{PROG} bench profile"
    games = args.games or list(GAME_NAMES)
    if args.position is not None and len(games) != 1:
        raise UsageError(prog, "--position needs exactly one --game (the game whose position text it is)")
    runs = []
    for game in games:  # a bad spec or position: one line, exit 2, before any measuring
        try:
            spec = limited_spec(args.engine or "pvs", game_class(game), QUICK_NODES if args.quick else NODES)
        except SpecError as error:
            raise UsageError(prog, f"--engine: {error}") from None
        if args.position is None:
            label, text = default_position(game)
        else:
            label, text = args.position, args.position
            try:
                game_class(game).from_text(text)
            except GameError as error:
                raise UsageError(prog, f"--position: {error}") from None
        runs.append((game, spec, text, label))
    run_profile_bench(runs, as_json=args.json)
    return 0


def _cmd_bench_parallel(args: argparse.Namespace) -> int:
    from ..bench.parallel import run_parallel_bench

    run_parallel_bench(args.games or list(GAME_NAMES), workers=args.workers, quick=args.quick,
                       repeat=args.repeat)
    return 0


def _cmd_bench_network(args: argparse.Namespace) -> int:
    from ..bench.network import run_network_bench

    games = args.games or list(GAME_NAMES)
    if args.network is not None:  # a file that is no network: one line, exit 2, before any measuring
        from games import UnknownHeuristicError, game_class, game_kind

        having = [name for name in GAME_NAMES if game_kind(name).network is not None]
        if not any(game in having for game in games):
            raise UsageError(f"{PROG} bench network", f"--network: {', '.join(games)} "
                             f"{'has' if len(games) == 1 else 'have'} no network evaluation "
                             f"({', '.join(having) or 'no game'} {'has' if len(having) == 1 else 'have'} one)")
        for game in games:
            plan = game_kind(game).network
            if plan is not None:
                try:
                    game_class(game).heuristic(f"{plan.heuristic}:{args.network}")
                except UnknownHeuristicError as error:
                    raise UsageError(f"{PROG} bench network", str(error)) from None
    run_network_bench(games, quick=args.quick, network=args.network)
    return 0


def _cmd_bench_learned(args: argparse.Namespace) -> int:
    from games import UnknownHeuristicError, game_class, game_kind

    from ..bench.learned import learned_heuristics, run_learned_bench

    games = args.games or list(GAME_NAMES)
    for game in games:  # a file that cannot be read: one line, exit 2, before any measuring
        for name in learned_heuristics(game, network=args.network, tables=args.tables):
            try:
                game_class(game).heuristic(name)
            except UnknownHeuristicError as error:
                raise UsageError(f"{PROG} bench learned", str(error)) from None
    if args.network is not None and not any(game_kind(game).network is not None for game in games):
        raise UsageError(f"{PROG} bench learned", f"--network: {', '.join(games)} "
                         f"{'has' if len(games) == 1 else 'have'} no network evaluation")
    run_learned_bench(games, quick=args.quick, network=args.network, tables=args.tables)
    return 0


def _cmd_bench_endgame(args: argparse.Namespace) -> int:
    from games import game_class, game_kind

    from ..bench.endgame import run_endgame_bench

    prog = f"{PROG} bench endgame"
    games = [name for name in args.games or list(GAME_NAMES) if game_kind(name).bench.solve_cases is not None]
    if not games:
        raise UsageError(prog, f"{', '.join(args.games)}: no endgame solver test positions for this game")
    switches = sorted({name for game in games for name in game_class(game).SOLVER_SWITCHES})
    for name in args.without:
        if name not in switches:
            raise UsageError(prog, f"--without takes one of {', '.join(switches) or 'nothing here'}, got {name!r}")
    if args.timeout is not None and args.timeout <= 0:
        raise UsageError(prog, f"--timeout must be positive, got {args.timeout:g}")
    if args.without and args.solver == "compiled":
        raise UsageError(prog, "--without measures the pure-Python solver's refinements: not with --solver compiled")
    wanted = _numbers(prog, args.positions) if args.positions else None
    try:
        rows = run_endgame_bench(games, numbers=(lambda number: True) if wanted is None else wanted.__contains__,
                                 timeout=args.timeout, off=args.without, solver=args.solver)
    except ValueError as error:  # the compiled solver asked for and unavailable
        raise UsageError(prog, str(error)) from None
    return 1 if any(row.value is not None and not row.right for row in rows) else 0


def _numbers(prog: str, text: str) -> set[int]:
    """The numbers of ``40-44,47``."""
    numbers: set[int] = set()
    for part in text.split(","):
        low, _, high = part.strip().partition("-")
        if not low.isdigit() or (high and not high.isdigit()) or int(high or low) < int(low):
            raise UsageError(prog, f"--positions takes numbers and ranges like 40-44 or 40,42, got {text!r}")
        numbers.update(range(int(low), int(high or low) + 1))
    return numbers


def _cmd_bench_tree(args: argparse.Namespace) -> int:
    from ..bench.tree import run_tree_bench

    run_tree_bench(args.games or list(GAME_NAMES), quick=args.quick)
    return 0


def _cmd_bench_models(args: argparse.Namespace) -> int:
    from ..bench.models import run_models_bench

    run_models_bench(args.games or list(GAME_NAMES), quick=args.quick)
    return 0


def _cmd_bench_keys(args: argparse.Namespace) -> int:
    from ..bench.keys import PRESSES, QUICK_PRESSES, NoPty, run_keys_bench

    if args.presses is not None and args.presses < 1:
        raise UsageError(f"{PROG} bench keys", f"--presses must be at least 1, got {args.presses}")
    games = args.games or list(GAME_NAMES)
    try:
        runs = run_keys_bench(
            games[:1] if args.quick else games, quick=args.quick,
            presses=args.presses or (QUICK_PRESSES if args.quick else PRESSES),
        )
    except NoPty as error:
        raise UsageError(f"{PROG} bench keys", str(error)) from None
    return 1 if any(run.error or run.killed for run in runs) else 0


def _cmd_bench_clock(args: argparse.Namespace) -> int:
    import math
    import sys

    from ..bench.clock import play_clock_games, stockfish_path

    prog = f"{PROG} bench clock"
    if not (math.isfinite(args.base) and math.isfinite(args.inc) and args.base > 0 and args.inc >= 0):
        raise UsageError(prog, f"--base must be a number of seconds above 0 and --inc at least 0, "
                               f"got {args.base:g} and {args.inc:g}")
    stockfish = stockfish_path()
    if stockfish is None:
        raise UsageError(prog, "needs Stockfish (Debian's stockfish package)")
    ours = [sys.executable, "-m", "tui.cli", "uci", "--engine", args.engine]
    games = play_clock_games(ours, [stockfish], {"UCI_LimitStrength": True, "UCI_Elo": args.elo},
                             args.games, args.base, args.inc)
    points = sum(game.points for game in games)
    lost = sum(1 for game in games if game.reason == "time" and game.points == 0)
    won = sum(1 for game in games if game.reason == "time" and game.points == 1)
    print(f"{args.engine} vs Stockfish UCI_Elo {args.elo} at {args.base:g} s + {args.inc:g} s: "
          f"{points:g} / {len(games)}; lost on time {lost}, won on time {won}; "
          f"least clock left {min(game.least_clock for game in games):.3f} s")
    return 0
