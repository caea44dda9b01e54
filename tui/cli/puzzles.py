"""``puzzles``: solve a game's puzzles in the app, or make a set (``--make``)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from engines.puzzles import (
    GAP_CHANCE,
    WIN_CHANCE,
    PuzzleError,
    depth_of,
    load_puzzle_file,
    make_puzzles,
    puzzle_text,
    puzzles_from_blunders,
    shipped_puzzles,
)

from engines.stockfish import UCI_GAME
from games.records import RecordError

from .common import PROG, UsageError, game_name, one_line, path_arg, whole


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "puzzles", help="find the winning move: the game's shipped puzzles (or a file's) in the app; --make builds a set",
        description="Solve puzzles in the app: positions where one move wins clearly, by typing the move or "
                    "clicking it, with a hint, a streak and a rating kept between runs.  --make N finds N "
                    "puzzles by search (slow: minutes) and writes them to --out.",
    )
    p.add_argument("game", type=game_name, metavar="GAME")
    p.add_argument("--file", type=path_arg, metavar="FILE", help="a puzzle file (default: the game's shipped set)")
    p.add_argument("--from", dest="records", type=path_arg, metavar="RECORDS",
                   help="puzzles from your saved games: the positions before the moves the game report called "
                        "blunders, where the missed move wins clearly (a few seconds a blunder)")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="the order of the puzzles (default: random)")
    p.add_argument("--make", type=whole(1), metavar="N", help="find N puzzles by search and write them to --out")
    p.add_argument("--out", type=path_arg, metavar="FILE", help="with --make: the file to write (never over one)")
    p.add_argument("--stockfish", action="store_true", help="with --make, chess: keep only puzzles Stockfish agrees on")
    p.add_argument("--ascii", action="store_true", help="draw pieces as letters")
    p.set_defaults(run=_cmd_puzzles)


def _cmd_puzzles(args: argparse.Namespace) -> int:
    prog = f"{PROG} puzzles"
    if args.make is not None:
        if args.out is None:
            raise UsageError(prog, "--make needs --out FILE")
        out = Path(args.out).expanduser()
        if out.exists():
            raise UsageError(prog, f"{out} already exists; a puzzle file is never written over")
        if not out.parent.is_dir():
            raise UsageError(prog, f"cannot write {out}: the directory {out.parent} does not exist")
        if args.stockfish and args.game != UCI_GAME:
            raise UsageError(prog, f"--stockfish checks puzzles of games Stockfish plays, not {args.game}")
        if args.records is not None or getattr(args, "file", None) is not None:
            raise UsageError(prog, "--make finds puzzles in games of its own; --from and --file go without it "
                                   "(to solve the puzzles of your games or of a file)")

        looked = [0]

        def progress(found: int, tried: int) -> None:
            looked[0] = tried
            print(f"{found} puzzles from {tried} positions", file=sys.stderr, flush=True)

        seed = args.seed or 0
        started = time.perf_counter()
        puzzles: list = []
        stopped = ""
        try:
            _, tried = make_puzzles(args.game, args.make, seed, stockfish=args.stockfish, progress=progress,
                                    found=puzzles)
        except KeyboardInterrupt:  # keep what was found: hours of search
            tried = looked[0]
            stopped = f" (a run for {args.make} stopped: the same as --make {len(puzzles)})"
            if not puzzles:
                print("stopped before a puzzle was found; nothing written", file=sys.stderr)
                return 130
        depth = depth_of(args.game)
        how = (f"Made by: {PROG} puzzles {args.game} --make {len(puzzles) if stopped else args.make} --seed {seed}"
               + (" --stockfish" if args.stockfish else "") + "\n"
               + (f"{tried} candidate positions, every one 6 plies or more into 80-ply games" if args.stockfish
                  else f"{tried} candidate positions")
               + " from seeded games of two noisy pvs players (pvs:nodes=400,jitter=30,\n"
               "15% random moves); " + ("screened by Stockfish at depth 10, then " if args.stockfish else "")
               + f"kept where pvs:depth={depth},multipv=2 leaves the side to move a winning\n"
               f"chance of {WIN_CHANCE:.0%} or more and every other move {GAP_CHANCE:.0%} worse, and "
               f"pvs:depth={depth + 2} picks the same move"
               + ("; and pvs:depth=1 does not find it, and Stockfish at depth 14\nfinds the same move with the same gap"
                  if args.stockfish else "")
               + f".\n{len(puzzles)} puzzles in {time.perf_counter() - started:.0f} s{stopped}.")
        try:
            with open(out, "x", encoding="utf-8") as handle:
                handle.write(puzzle_text(puzzles, args.game, how))
        except OSError as error:
            raise UsageError(prog, f"cannot write {out}: {error.strerror or error}") from None
        print(f"wrote {out} ({len(puzzles)} puzzle{'s' if len(puzzles) != 1 else ''})")
        return 0
    if args.out is not None or args.stockfish:
        raise UsageError(prog, "--out and --stockfish go with --make")
    if args.file is not None and args.records is not None:
        raise UsageError(prog, "--file and --from exclude each other")
    try:
        if args.records is not None:
            from games.reading import read_record_text

            text = read_record_text(Path(args.records).expanduser())

            def found(count: int, tried: int) -> None:
                print(f"{count} puzzles from {tried} blunders", file=sys.stderr, flush=True)

            puzzles, source = puzzles_from_blunders(args.game, text, found), f"the blunders of {args.records}"
        elif args.file is not None:
            puzzles, source = load_puzzle_file(Path(args.file).expanduser(), args.game), args.file
        else:
            puzzles, source = shipped_puzzles(args.game), "the shipped set"
    except (PuzzleError, RecordError) as error:
        raise UsageError(prog, one_line(str(error))) from None
    if not puzzles:
        raise UsageError(prog, f"no puzzles for {args.game} in {source}; --make N --out FILE finds some")
    from .play import run_app

    return run_app(ascii=args.ascii, puzzles=(args.game, puzzles, source, args.seed))
