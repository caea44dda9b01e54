"""``search`` (one search, live depth lines or JSON) and ``engines`` (the engines and heuristics)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engines import ENGINES, EngineFailure, SearchStats, create_engine
from games import GAME_NAMES, Game, game_class
from games.kind import by_tables, tables_text

from ..views.format import ENGINE_COUNTS, default_text, line_text, score_text, visits_text
from .common import PROG, add_position, game_name, one_line, play_moves, position_of, stop_on_interrupt
from .tables import add_syzygy, checked_tables, syzygy_spec, tables_problem


#: The engine ``search`` uses when none is given.
DEFAULT_ENGINE = "pvs"


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Add this module's commands to the ``tui-games`` parser."""
    p = sub.add_parser(
        "search",
        help="search one position with an engine: live depth lines, then the move and statistics",
        description="Search one position with an engine.  While it searches, one line per completed "
                    "depth; then the best move, score (for the side to move), principal variation and "
                    "search statistics.  Ctrl-C stops the search and reports its last completed depth.",
    )
    p.add_argument("game", type=game_name, metavar="GAME")
    p.add_argument(
        "--engine", default=DEFAULT_ENGINE, metavar="SPEC",
        help=f"engine spec NAME or NAME:key=value,... (default {DEFAULT_ENGINE!r}; "
             f"see '{PROG} engines')",
    )
    add_position(p)
    add_syzygy(p)
    p.add_argument(
        "--moves", nargs="+", default=[], metavar="MOVE", help="play these moves first (game notation)"
    )
    p.add_argument(
        "--json", action="store_true",
        help="print only one JSON object with every search statistic (no live lines)",
    )
    p.set_defaults(run=_cmd_search)

    p = sub.add_parser(
        "engines", help="list the engines, their options with defaults, and each game's heuristics"
    )
    p.set_defaults(run=_cmd_engines)



def _info_line(stats: SearchStats) -> str:
    return (
        f"depth {stats.depth}  score {score_text(stats.score, stats.mate)}  "
        f"nodes {stats.nodes}  nps {stats.nps}  time {stats.time_s:.2f}  "
        f"pv {line_text(stats.pv)}"
    ).rstrip()


def _summary(game: Game, stats: SearchStats) -> list[str]:
    """The human-readable block printed after a search."""
    mate = stats.mate
    mover = game.PLAYERS[game.turn]
    if mate is None and not stats.depth:  # the limit came before the first depth: the move is unsearched
        score = "none: no depth was completed within the limit"
    elif mate is None and by_tables(stats.score):  # the endgame tables know the result
        score = f"{tables_text(stats.score)} (for {mover}, to move)"
    elif mate is None:
        score = f"{stats.score} (for {mover}, to move)"
    elif mate > 0:
        score = f"mate in {mate} (for {mover}, to move)"
    else:
        score = f"mated in {-mate} ({mover}, to move, loses)"
    if stats.solved is not None:  # the game's solver proved the root: its exact value, in the game's units
        score = f"{score}; solved, exact value {stats.solved:+d}"
    prunes = stats.prunes
    first = stats.first_cutoffs
    prune_text = f"{prunes:,}" + (f" ({first / prunes:.0%} by the first move)" if prunes else "")
    depth = f"{stats.depth}"
    if stats.seldepth > stats.depth:
        depth += f" (selective {stats.seldepth})"
    rows = [
        ("best move", stats.best or "-"),
        ("score", score),
        ("depth", depth),
        ("nodes", f"{stats.nodes:,}"),
        ("evals", f"{stats.evals:,}"),
        ("prunes", prune_text),
        ("tt hits", f"{stats.tt_hits:,}"),
        ("time", f"{stats.time_s:.3f} s"),
        ("nps", f"{stats.nps:,}"),
    ]
    rows += [(name.replace("_", " "), f"{stats[name]:,}") for name in ENGINE_COUNTS if stats[name]]
    if stats.visits:
        rows.append(("visits", visits_text(stats.visits, 5)))
    rows += [("pv", line_text(stats.pv) or "-"), ("engine", stats.engine)]
    return [f"{label:<10} {value}" for label, value in rows]


def _prepare_solver(game: Game, engine: Any) -> None:
    """When the engine will ask the game's solver for the root (within its ``solve``
    reach, by :meth:`~games.Game.left_to_solve`), have Othello's compiled solver ready first (numba installed): the command
    solves one position, so it waits for the compilation once, saying so on stderr."""
    reach = getattr(engine, "solve_reach", 0)
    left = game.left_to_solve()  # the protocol's measure: no attribute of one game is read
    if reach and left is not None and left <= reach:
        from ..bench.endgame import choose_solver

        choose_solver(None, say=lambda line: print(f"{PROG} search: {line}", file=sys.stderr, flush=True))


def _cmd_search(args: argparse.Namespace) -> int:
    game = position_of(args)
    play_moves(game, args.moves)
    prog = f"{PROG} search"
    spec = syzygy_spec(prog, args.engine, type(game), checked_tables(prog, type(game), args.syzygy))
    engine = create_engine(spec, type(game))
    _prepare_solver(game, engine)
    reached = 0  # the deepest depth printed so far
    shown: tuple[Any, ...] = ()  # what the last line printed said: depth, score, mate, line

    def said(stats: SearchStats) -> tuple[Any, ...]:
        return stats.depth, stats.score, stats.mate, tuple(stats.pv)

    def on_info(stats: SearchStats) -> None:
        nonlocal reached, shown
        if stats.depth > reached:
            reached, shown = stats.depth, said(stats)
            print(_info_line(stats), flush=True)

    try:
        with stop_on_interrupt() as stop:
            try:
                result = engine.search(game, stop=stop, on_info=None if args.json else on_info)
            except EngineFailure as failure:
                if not stop.is_set():
                    raise
                # Stopped, it gave no move and went on: it was killed, and there is no result to print.
                print(f"{PROG}: interrupted; {one_line(spec)} gave no move when told to stop "
                      f"({failure.reason}) and was killed", file=sys.stderr)
                return 130
    finally:
        engine.close()  # worker processes of a parallel engine
    interrupted = stop.is_set()
    problem = tables_problem(engine)
    if problem is not None:
        print(f"{PROG} search: {problem}; the search went on without it", file=sys.stderr)
    if args.json:
        stats = result.stats.as_dict()  # the contract names first (STAT_NAMES), then the extras
        stats.update(game=game.NAME, position=game.to_text(), interrupted=interrupted)
        if result.stats.mate is None and not result.stats.depth:
            stats["score"] = None  # the limit came before the first depth: there is no score to give
        print(json.dumps(stats))
    else:
        if reached and said(result.stats) != shown:
            # A last depth the callback did not report, or its line completed after it was
            # printed (parallel workers): the last line printed is the result's.
            print(_info_line(result.stats))
        print("\n".join(_summary(game, result.stats)))
    if interrupted:
        print(f"{PROG}: interrupted; the result is that of the last completed depth", file=sys.stderr)
        return 130
    return 0


def _cmd_engines(args: argparse.Namespace) -> int:
    print(f"Engine specs: NAME or NAME:key=value,...  e.g. {PROG} search chess --engine alphabeta:depth=4")
    for info in ENGINES.values():
        print()
        print(f"{info.name:<15} {info.summary}")
        for option in info.options.values():
            setting = f"{option.name}=VALUE" if option.family else f"{option.name}={default_text(option)}"
            print(f"  {setting:<20} {option.help}")
    print()
    print("Heuristics (heuristic=NAME; cut=NAME for h0 and hl):")
    width = max(9, *(len(name) + 1 for name in GAME_NAMES))
    for name in GAME_NAMES:
        cls = game_class(name)
        roles = (
            (cls.DEFAULT_HEURISTIC, "default"), (cls.CUT_HEURISTIC, "cut"), (cls.STRONG_HEURISTIC, "pvs"),
        )
        labels = []
        for heuristic in cls.HEURISTICS:
            its = [role for named, role in roles if named == heuristic]
            labels.append(heuristic + (f" ({', '.join(its)})" if its else ""))
        print(f"  {name:<{width}} {', '.join(labels)}")
    return 0
