"""The ``tui-games`` command line.

Commands (SPEC §7)::

    tui-games [--ascii]                 (no command: the app's start screen)
    tui-games play GAME [--first SPEC] [--second SPEC] [--position TEXT] [--ascii]
    tui-games perft GAME DEPTH [--position TEXT] [--divide]
    tui-games moves GAME [--position TEXT]
    tui-games show GAME [--position TEXT] [--moves MOVE ...]
    tui-games search GAME [--engine SPEC] [--position TEXT] [--moves MOVE ...] [--json]
    tui-games engines
    tui-games bench perft [--game GAME ...] [--quick]
    tui-games bench search [--game GAME ...] [--quick] [--sunfish PATH]
    tui-games bench keys [--game GAME ...] [--presses N] [--quick]
    tui-games match GAME --a SPEC --b SPEC --games N [--jobs J] [--openings PLIES] [--seed S]
                    [--out FILE.jsonl] [--resume] [--dask ADDRESS] [--json]
    tui-games report FILE.jsonl [FILE.jsonl ...] [--json]
    tui-games dataset GAME --games N --depth L [--openings PLIES] [--seed S] [--jobs J]
                      [--explore P] [--max-plies M] [--heuristic NAME] [--label search|stockfish[:OPTS]]
                      --out FILE.csv
    tui-games uci [--engine SPEC]
    tui-games train GAME --data FILE --model rf|mlp [--inputs features|h0] [--grid] [--test-size F]
                    [--seed S] [--jobs J] [--cv K] --out MODEL.joblib
    tui-games models [GAME] [--json]  |  tui-games models --check PATH --game GAME

Bad arguments, engine specs, positions and moves print one line on stderr and
exit with status 2, never a traceback.  Only the app (no command, or
``play``) imports Textual: scripts and tests can call the others cheaply.

Ctrl-C during ``search`` stops the search cleanly: the engine returns the best
move of its last completed depth, which is printed as usual (with
``"interrupted": true`` in the JSON), and the command exits with status 130.
A second Ctrl-C aborts at once.  Ctrl-C during ``match`` keeps every finished
game in the results file (``--resume`` plays the rest), prints the summary so
far and exits with status 130.
"""

from __future__ import annotations

import argparse
import json
import shutil
import signal
import sys
import threading
from contextlib import contextmanager
from typing import Any, Iterator, NoReturn, Sequence

from engines import ENGINES, STAT_NAMES, SpecError, create_engine
from engines.match import MatchError
from games import GAME_NAMES, Game, GameError, game_class, new_game
from games.perft import divide, perft

from .format import CUTOFF_STATS, default_text, line_text, score_text

__all__ = ["main", "UsageError"]

PROG = "tui-games"
#: The engine ``search`` uses when none is given.
DEFAULT_ENGINE = "pvs"


class UsageError(Exception):
    """A bad command line; reported as one line with exit status 2."""

    def __init__(self, prog: str, message: str) -> None:
        super().__init__(message)
        self.prog = prog


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that reports errors as one line instead of usage + message."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(self.prog, f"{message} (see '{self.prog} --help')")


def _game_name(text: str) -> str:
    name = text.strip().lower()
    if name not in GAME_NAMES:
        raise argparse.ArgumentTypeError(
            f"unknown game {text!r}; expected one of: {', '.join(GAME_NAMES)}"
        )
    return name


def _depth(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"DEPTH must be a whole number like 4, got {text!r}"
        ) from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"DEPTH must be at least 1, got {value}")
    return value


def _whole(minimum: int):
    """An argparse type: a whole number at least ``minimum``."""

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < minimum:
            raise argparse.ArgumentTypeError(f"expected a whole number >= {minimum}, got {text!r}")
        return value

    return convert


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Chess, English checkers and Quixo in the terminal, with minimax-family engines.",
        epilog=f"Games: {', '.join(GAME_NAMES)}.  Run '{PROG} COMMAND --help' for a command's options.",
    )
    parser.add_argument(
        "--ascii", action="store_true",
        help="with no command: draw pieces as letters (for terminals that misrender chess glyphs)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def add_game_filter(b: argparse.ArgumentParser) -> None:
        b.add_argument(
            "--game", dest="games", action="append", type=_game_name, metavar="GAME",
            help="only this game (repeatable; default: all)",
        )

    def add_position(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--position",
            metavar="TEXT",
            help="start from this position (chess FEN, checkers PDN FEN, Quixo rows + side to move)",
        )

    p = sub.add_parser(
        "play", help="open a game in the app: each side 'human' or an engine spec",
        description="Open a game directly.  --first is the side that moves first (chess White, "
        "checkers Black, Quixo X); side names work too: --white/--black, --x/--o.  "
        "Without them: you (first) against pvs:time=1.",
    )
    p.add_argument("game", type=_game_name, metavar="GAME")
    p.add_argument("--first", metavar="SPEC", help="who moves first: 'human' (default) or an engine spec")
    p.add_argument("--second", metavar="SPEC", help="who moves second (default pvs:time=1)")
    for side in SIDE_OPTIONS:
        p.add_argument(f"--{side}", metavar="SPEC", help=argparse.SUPPRESS)
    add_position(p)
    p.add_argument("--ascii", action="store_true",
                   help="draw pieces as letters (for terminals that misrender chess glyphs)")
    p.set_defaults(run=_cmd_play)

    p = sub.add_parser("perft", help="count leaf nodes of the move tree for depths 1..DEPTH")
    p.add_argument("game", type=_game_name, metavar="GAME")
    p.add_argument("depth", type=_depth, metavar="DEPTH")
    add_position(p)
    p.add_argument(
        "--divide", action="store_true", help="also list each root move with its count at DEPTH"
    )
    p.set_defaults(run=_cmd_perft)

    p = sub.add_parser("moves", help="list the legal moves, one per line, in the game's notation")
    p.add_argument("game", type=_game_name, metavar="GAME")
    add_position(p)
    p.set_defaults(run=_cmd_moves)

    p = sub.add_parser("show", help="draw the board as text, with the side to move and the outcome")
    p.add_argument("game", type=_game_name, metavar="GAME")
    add_position(p)
    p.add_argument(
        "--moves", nargs="+", default=[], metavar="MOVE", help="play these moves first (game notation)"
    )
    p.set_defaults(run=_cmd_show)

    p = sub.add_parser(
        "search",
        help="search one position with an engine: live depth lines, then the move and statistics",
        description="Search one position with an engine.  While it searches, one line per completed "
                    "depth; then the best move, score (for the side to move), principal variation and "
                    "search statistics.  Ctrl-C stops the search and reports its last completed depth.",
    )
    p.add_argument("game", type=_game_name, metavar="GAME")
    p.add_argument(
        "--engine", default=DEFAULT_ENGINE, metavar="SPEC",
        help=f"engine spec NAME or NAME:key=value,... (default {DEFAULT_ENGINE!r}; "
             f"see '{PROG} engines')",
    )
    add_position(p)
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

    p = sub.add_parser("bench", help="benchmarks (speed, reported against reference implementations)")
    bench_sub = p.add_subparsers(dest="bench", metavar="WHAT", parser_class=_Parser, required=True)
    b = bench_sub.add_parser("perft", help="perft leaves/s per game beside reference implementations")
    add_game_filter(b)
    b.add_argument("--quick", action="store_true", help="smaller depths (a smoke run, not a measurement)")
    b.add_argument("--repeat", type=_depth, default=3, metavar="N", help="best of N runs (default 3)")
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
        "keys", help="key-press-to-echo latency in the app while an engine searches, and without"
    )
    add_game_filter(b)
    b.add_argument("--presses", type=int, metavar="N",
                   help="keys timed per run (default 100; --quick: 20)")
    b.add_argument("--quick", action="store_true",
                   help="one game, 20 presses (a smoke run, not a measurement)")
    b.set_defaults(run=_cmd_bench_keys)
    b = bench_sub.add_parser(
        "models", help="the bundled models' cost per node: one predict per child, batched, compiled; hr vs h0"
    )
    add_game_filter(b)
    b.add_argument("--quick", action="store_true", help="fewer positions (a smoke run, not a measurement)")
    b.set_defaults(run=_cmd_bench_models)

    p = sub.add_parser(
        "match",
        help="a tournament between two engines: many games, in parallel, resumable",
        description="Engine A against engine B over N games.  Colours alternate; games 2k and 2k+1 "
                    "start from the same random opening with colours swapped.  Each finished game is "
                    "appended to --out as one JSON line; at the end, a summary table.  Everything but "
                    "wall times is reproducible from --seed (for depth-limited engines).",
    )
    p.add_argument("game", type=_game_name, metavar="GAME")
    p.add_argument("--a", required=True, metavar="SPEC", help="engine spec of agent A")
    p.add_argument("--b", required=True, metavar="SPEC", help="engine spec of agent B")
    p.add_argument("--games", type=_whole(1), required=True, metavar="N", help="games to play")
    p.add_argument("--jobs", type=_whole(1), default=1, metavar="J",
                   help="worker processes (joblib; default 1: in this process)")
    p.add_argument("--openings", type=_whole(0), default=4, metavar="PLIES",
                   help="random plies before the engines take over, the same for a pair of games "
                        "(default 4)")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="seed of the openings and of the engines' tie-breaks (default 0)")
    p.add_argument("--out", metavar="FILE.jsonl", help="append one JSON line per finished game here")
    p.add_argument("--resume", action="store_true",
                   help="play only the games missing from --out (same match arguments)")
    p.add_argument("--dask", metavar="ADDRESS",
                   help="play the games on this dask.distributed scheduler (extra 'tui-games[dask]')")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.set_defaults(run=_cmd_match)

    p = sub.add_parser("report", help="the summary of 'match' results files",
                       description="Summary tables of the games in results files written by "
                                   "'tui-games match --out', one summary per pairing of engines.")
    p.add_argument("files", nargs="+", metavar="FILE.jsonl")
    p.add_argument("--json", action="store_true", help="one JSON object per pairing instead of tables")
    p.set_defaults(run=_cmd_report)

    p = sub.add_parser(
        "dataset",
        help="self-play positions with features, H0 and a depth-L search label, as CSV for 'train'",
        description="Play N seeded self-play games from random openings and write every position "
                    "with its feature vector, H0 (the static heuristic) and H_L (the depth-L alpha-beta "
                    "value, forced results as +/- the game's DECISIVE_SCORE) for the side to move, one "
                    "CSV row each, plus FILE.meta.json.  The file is the same, byte for byte, for any "
                    "--jobs.  An existing non-empty --out is refused.",
    )
    p.add_argument("game", type=_game_name, metavar="GAME")
    p.add_argument("--games", type=_whole(1), required=True, metavar="N", help="self-play games")
    p.add_argument("--depth", type=_whole(1), required=True, metavar="L",
                   help="plies of the alpha-beta search that labels each position (and picks the move)")
    p.add_argument("--openings", type=_whole(0), default=4, metavar="PLIES",
                   help="random plies before self-play starts (default 4)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of everything random (default 0)")
    p.add_argument("--jobs", type=_whole(1), default=1, metavar="J",
                   help="worker processes (joblib; default 1: in this process)")
    p.add_argument("--explore", type=float, default=0.1, metavar="P",
                   help="chance of a random legal move instead of the searched one (default 0.1)")
    p.add_argument("--max-plies", type=_whole(1), default=200, metavar="M",
                   help="self-play plies after which a game stops (default 200)")
    p.add_argument("--heuristic", metavar="NAME",
                   help="heuristic of H0 and of the search (default: the game's default heuristic)")
    p.add_argument("--label", default="search", metavar="search|stockfish[:OPTS]",
                   help="who labels and picks moves: our search (default) or, for chess, a stockfish spec "
                        "(depth L unless it sets depth, time or nodes)")
    p.add_argument("--out", required=True, metavar="FILE.csv", help="the CSV to write (must not hold data)")
    p.set_defaults(run=_cmd_dataset)

    p = sub.add_parser("uci", help="play chess as a UCI engine on stdin/stdout (for chess GUIs)",
                       description="A UCI chess engine on standard input and output.  The engine "
                                   "can be changed with 'setoption name Engine value SPEC'.")
    p.add_argument("--engine", default=DEFAULT_ENGINE, metavar="SPEC",
                   help=f"engine spec (default {DEFAULT_ENGINE!r})")
    p.set_defaults(run=_cmd_uci)

    p = sub.add_parser(
        "train", help="fit a model of the search value from a dataset (random forest or neural network)",
        description="Fit a scikit-learn regressor from a 'tui-games dataset' CSV to its depth-L search "
                    "value h_l, from the static heuristic h0 alone (--inputs h0: the 'pred' engine) or "
                    "from the game's features (--inputs features: 'hr' and 'mi-pred').  Repeated "
                    "positions are dropped before a seeded train/test split.  Prints train and test "
                    "MSE, MAE and R², and writes MODEL.joblib with its metadata MODEL.json beside it "
                    "(never overwriting either).",
    )
    p.add_argument("game", type=_game_name, metavar="GAME")
    p.add_argument("--data", required=True, metavar="FILE", help="the dataset CSV (its FILE.meta.json beside it)")
    p.add_argument("--model", required=True, choices=("rf", "mlp"),
                   help="rf: RandomForestRegressor; mlp: MLPRegressor on standardised inputs and target")
    p.add_argument("--inputs", choices=("features", "h0"), default="features",
                   help="what the model sees (default: features)")
    p.add_argument("--grid", action="store_true",
                   help="choose the parameters by a cross-validated grid search (else the defaults)")
    p.add_argument("--test-size", type=_fraction, default=0.2, metavar="F",
                   help="fraction of the positions held out for testing (default 0.2)")
    p.add_argument("--seed", type=_integer, default=0, metavar="S",
                   help="seed of the split, the model and the folds (default 0)")
    p.add_argument("--jobs", type=_whole(1), default=1, metavar="J",
                   help="processes for the grid search (default 1)")
    p.add_argument("--cv", type=_whole(2), default=5, metavar="K", help="cross-validation folds (default 5)")
    p.add_argument("--out", required=True, metavar="MODEL.joblib", help="the model file to write")
    p.set_defaults(run=_cmd_train)

    p = sub.add_parser(
        "models", help="list the bundled models, or check a model file",
        description="List the models bundled with the package (from their metadata), or with --check "
                    "load a model file the way the engines do and summarise it.",
    )
    p.add_argument("game", nargs="?", type=_game_name, metavar="GAME", help="only this game's models")
    p.add_argument("--check", metavar="PATH", help="load this model file (or bundled name pred/mi) and summarise it")
    p.add_argument("--game", dest="game_option", type=_game_name, metavar="GAME", help="the game, for --check")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(run=_cmd_models)
    return parser


#: Side-name options of ``play``, beside --first/--second.
SIDE_OPTIONS = ("white", "black", "x", "o")


def _players(args: argparse.Namespace) -> tuple[str, str]:
    """The two players' specs, first mover first, from --first/--second and side names."""
    names = [name.lower() for name in game_class(args.game).PLAYERS]
    chosen: list[str | None] = [args.first, args.second]
    for option in SIDE_OPTIONS:
        spec = getattr(args, option)
        if spec is None:
            continue
        if option not in names:
            raise UsageError(
                f"{PROG} play",
                f"{args.game} has no side --{option}; use --{names[0]}/--{names[1]} or --first/--second",
            )
        side = names.index(option)
        if chosen[side] is not None:
            raise UsageError(
                f"{PROG} play",
                f"--{option} and --{('first', 'second')[side]} name the same side; give one of them",
            )
        chosen[side] = spec
    return ("human" if chosen[0] is None else chosen[0],
            "pvs:time=1" if chosen[1] is None else chosen[1])


def run_app(setup: Any = None, *, ascii: bool = False) -> int:
    """Open the Textual app (imported only here: the other commands never load Textual)."""
    from .app import TuiGamesApp

    TuiGamesApp(setup, ascii=ascii).run()
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from .session import GameSetup, SetupError

    first, second = _players(args)
    try:
        setup = GameSetup.checked(args.game, first, second, args.position)
    except SetupError as error:
        raise UsageError(f"{PROG} play", str(error)) from None
    return run_app(setup, ascii=args.ascii)


def _position(args: argparse.Namespace):
    return new_game(args.game, args.position)


def _cmd_perft(args: argparse.Namespace) -> int:
    game = _position(args)
    for depth in range(1, args.depth + 1):
        print(f"d{depth} {perft(game, depth)}", flush=True)
    if args.divide:
        for move, count in divide(game, args.depth):
            print(f"{move}: {count}")
    return 0


def _cmd_moves(args: argparse.Namespace) -> int:
    game = _position(args)
    for text in game.legal_move_texts():
        print(text)
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    game = _position(args)
    _play_moves(game, args.moves)
    print(game.render())
    print(f"position: {game.to_text()}")
    outcome = game.outcome()
    if outcome is None:
        print(f"{game.PLAYERS[game.turn]} to move, {game.count_moves()} legal moves")
    elif outcome.winner is None:
        print(f"draw ({outcome.reason})")
    else:
        print(f"{game.PLAYERS[outcome.winner]} wins ({outcome.reason})")
    return 0


def _play_moves(game: Game, texts: Sequence[str]) -> None:
    """Play ``texts`` on ``game``; a bad one is reported with its number."""
    for number, text in enumerate(texts, 1):
        try:
            game.play_text(text)
        except GameError as exc:
            raise type(exc)(f"move {number} ({text!r}): {exc}") from None


def _info_line(stats: dict[str, Any]) -> str:
    return (
        f"depth {stats['depth']}  score {score_text(stats['score'], stats.get('mate'))}  "
        f"nodes {stats['nodes']}  nps {stats['nps']}  time {stats['time_s']:.2f}  "
        f"pv {line_text(stats['pv'])}"
    ).rstrip()


def _summary(game: Game, stats: dict[str, Any]) -> list[str]:
    """The human-readable block printed after a search."""
    mate = stats.get("mate")
    mover = game.PLAYERS[game.turn]
    if mate is None:
        score = f"{stats['score']} (for {mover}, to move)"
    elif mate > 0:
        score = f"mate in {mate} (for {mover}, to move)"
    else:
        score = f"mated in {-mate} ({mover}, to move, loses)"
    prunes = stats["prunes"]
    first = stats.get("first_cutoffs", 0)
    prune_text = f"{prunes:,}" + (f" ({first / prunes:.0%} by the first move)" if prunes else "")
    depth = f"{stats['depth']}"
    if stats.get("seldepth", 0) > stats["depth"]:
        depth += f" (selective {stats['seldepth']})"
    rows = [
        ("best move", stats["best"] or "-"),
        ("score", score),
        ("depth", depth),
        ("nodes", f"{stats['nodes']:,}"),
        ("evals", f"{stats['evals']:,}"),
        ("prunes", prune_text),
        ("tt hits", f"{stats['tt_hits']:,}"),
        ("time", f"{stats['time_s']:.3f} s"),
        ("nps", f"{stats['nps']:,}"),
    ]
    rows += [(name.replace("_", " "), f"{stats[name]:,}") for name in CUTOFF_STATS if stats.get(name)]
    rows += [("pv", line_text(stats["pv"]) or "-"), ("engine", stats["engine"])]
    return [f"{label:<10} {value}" for label, value in rows]


@contextmanager
def _stop_on_interrupt() -> Iterator[threading.Event]:
    """An event that Ctrl-C sets (instead of raising) while the block runs.

    A second Ctrl-C raises :class:`KeyboardInterrupt` as usual.  Outside the
    main thread signals cannot be caught: the event is then never set.
    """
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def on_sigint(signum: int, frame: Any) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)


def _cmd_search(args: argparse.Namespace) -> int:
    game = _position(args)
    _play_moves(game, args.moves)
    engine = create_engine(args.engine, type(game))
    reached = 0  # the deepest depth printed so far

    def on_info(stats: dict[str, Any]) -> None:
        nonlocal reached
        if stats["depth"] > reached:
            reached = stats["depth"]
            print(_info_line(stats), flush=True)

    try:
        with _stop_on_interrupt() as stop:
            result = engine.search(game, stop=stop, on_info=None if args.json else on_info)
    finally:
        engine.close()  # worker processes of a parallel engine
    interrupted = stop.is_set()
    if args.json:
        stats = {name: result.stats[name] for name in STAT_NAMES}
        stats.update({k: v for k, v in result.stats.items() if k not in stats})
        stats.update(game=game.NAME, position=game.to_text(), interrupted=interrupted)
        print(json.dumps(stats))
    else:
        if reached and result.depth > reached:  # a last depth the callback did not report
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
            setting = f"{option.name}={default_text(option)}"
            print(f"  {setting:<20} {option.help}")
    print()
    print("Heuristics (heuristic=NAME; cut=NAME for h0 and hl):")
    for name in GAME_NAMES:
        cls = game_class(name)
        roles = (
            (cls.DEFAULT_HEURISTIC, "default"), (cls.CUT_HEURISTIC, "cut"), (cls.STRONG_HEURISTIC, "pvs"),
        )
        labels = []
        for heuristic in cls.HEURISTICS:
            its = [role for named, role in roles if named == heuristic]
            labels.append(heuristic + (f" ({', '.join(its)})" if its else ""))
        print(f"  {name:<9} {', '.join(labels)}")
    return 0


def _cmd_bench_perft(args: argparse.Namespace) -> int:
    from .bench import run_perft_bench

    run_perft_bench(args.games or list(GAME_NAMES), quick=args.quick, repeat=args.repeat)
    return 0


def _cmd_bench_search(args: argparse.Namespace) -> int:
    from .bench_search import run_search_bench

    if args.sunfish is not None and shutil.which(args.sunfish) is None:
        raise UsageError(f"{PROG} bench search", f"--sunfish: no executable {args.sunfish!r}")
    run_search_bench(args.games or list(GAME_NAMES), quick=args.quick, sunfish=args.sunfish)
    return 0


def _cmd_bench_models(args: argparse.Namespace) -> int:
    from .bench_models import run_models_bench

    run_models_bench(args.games or list(GAME_NAMES), quick=args.quick)
    return 0


def _cmd_bench_keys(args: argparse.Namespace) -> int:
    from .bench_keys import PRESSES, QUICK_PRESSES, NoPty, run_keys_bench

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


def _cmd_match(args: argparse.Namespace) -> int:
    from engines.match import MatchConfig, ResultsFile, missing_games, play_games

    from .report import MatchProgress

    prog = f"{PROG} match"
    if args.resume and args.out is None:
        raise UsageError(prog, "--resume needs --out FILE.jsonl, the results file to finish")
    if args.dask is not None and args.jobs != 1:
        raise UsageError(prog, "--jobs and --dask exclude each other (the dask cluster has its own workers)")
    config = MatchConfig.create(args.game, args.a, args.b, args.games, args.openings, args.seed)
    results = None
    if args.out is not None:
        results, note = ResultsFile.open(args.out, config, resume=args.resume)
        if note:
            print(f"{prog}: {note}", file=sys.stderr)
    records = results.records if results is not None else []
    games = play_games(config, missing_games(config, records), jobs=args.jobs, dask=args.dask)
    interrupted = False
    try:
        with MatchProgress(config.games, records) as progress:
            for record in games:
                if results is not None:
                    results.append(record)
                else:
                    records.append(record)
                progress.advance(record)
    except KeyboardInterrupt:
        interrupted = True
    _print_summaries(sorted(records, key=lambda record: record["index"]), args.json)
    if interrupted:
        where = (f"; they are in {args.out}: run the same command with --resume to play the rest"
                 if args.out else "")
        print(f"{prog}: interrupted after {len(records)} of {config.games} games{where}", file=sys.stderr)
        return 130
    return 0


def _print_summaries(records: list[dict[str, Any]], as_json: bool) -> None:
    from engines.match import summarize

    from .report import print_summaries

    summaries = summarize(records)
    if as_json:
        for summary in summaries:
            print(json.dumps(summary.to_dict()))
    else:
        print_summaries(summaries)


def _cmd_report(args: argparse.Namespace) -> int:
    from engines.match import read_results_files

    records, notes = read_results_files(args.files)
    for note in notes:
        print(f"{PROG} report: {note}", file=sys.stderr)
    if not records:
        raise UsageError(f"{PROG} report", f"no finished games in {', '.join(args.files)}")
    _print_summaries(records, args.json)
    return 0


def _cmd_dataset(args: argparse.Namespace) -> int:
    from engines.dataset import DatasetConfig, DatasetError, DatasetInterrupted, write_dataset

    prog = f"{PROG} dataset"
    try:
        config = DatasetConfig(args.game, args.games, args.depth, openings=args.openings, seed=args.seed,
                               explore=args.explore, max_plies=args.max_plies, heuristic=args.heuristic,
                               label=args.label)
        from .report import DatasetProgress

        with DatasetProgress(config.games) as progress:
            summary = write_dataset(config, args.out, jobs=args.jobs,
                                    on_start=progress.start, on_game=progress.advance)
    except DatasetError as error:
        raise UsageError(prog, str(error)) from None
    except DatasetInterrupted as interrupt:
        print("\n".join(interrupt.summary.lines()))
        print(f"{prog}: interrupted after {interrupt.summary.games} of {config.games} games; "
              f"they are in {args.out}", file=sys.stderr)
        return 130
    print("\n".join(summary.lines()))
    return 0


def _cmd_uci(args: argparse.Namespace) -> int:
    from .uci import run_uci

    return run_uci(args.engine)


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a fraction between 0 and 1 like 0.2, got {text!r}")
    return value


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def _cmd_train(args: argparse.Namespace) -> int:
    from engines.models import ModelError
    from engines.train import DatasetError, TrainError

    from .training import run_train

    try:
        return run_train(args)
    except (DatasetError, TrainError, ModelError) as error:
        raise UsageError(f"{PROG} train", str(error)) from None


def _cmd_models(args: argparse.Namespace) -> int:
    from engines.models import ModelError
    from engines.train import TrainError

    from .training import run_models

    if args.game is not None and args.game_option is not None and args.game != args.game_option:
        raise UsageError(f"{PROG} models", f"two games named: {args.game} and --game {args.game_option}")
    args.game = args.game or args.game_option
    try:
        return run_models(args)
    except (TrainError, ModelError) as error:
        raise UsageError(f"{PROG} models", str(error)) from None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (also used as the console script)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            return run_app(ascii=args.ascii)
        return args.run(args)
    except UsageError as exc:
        print(f"{exc.prog}: error: {exc}", file=sys.stderr)
        return 2
    except (GameError, SpecError, MatchError) as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `tui-games moves chess | head -1`
        sys.stderr.close()
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
