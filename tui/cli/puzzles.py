"""``puzzles``: solve a game's puzzles in the app, or make a set (``--make``)."""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import time
from pathlib import Path
from typing import IO, Iterable, Iterator

from engines.puzzles import (
    HEADER,
    Puzzle,
    puzzle_line,
    scan_puzzle_file,
    PuzzleError,
    depth_of,
    puzzle_text,
    puzzles_from_blunders,
    shipped_puzzles,
)

from engines.puzzle_lines import FOLLOW_DEPTH, SCREEN_DEPTH, SLIP_SHARE, VERIFY_DEPTH, make_lines, thresholds
from engines.puzzle_themes import tag
from engines.stockfish import UCI_GAME
from games.files import open_regular
from games.records import RecordError

from ..puzzle_sets import MINE, add_to_mine, set_path
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
    p.add_argument("--import", dest="import_file", type=path_arg, metavar="FILE",
                   help="read a lichess puzzle CSV (plain or .zst, any size, a row at a time) into a set of "
                        "yours named --name; bad rows are reported by line and skipped")
    p.add_argument("--name", metavar="NAME", help="with --import: the set's name (default: the file's stem)")
    p.add_argument("--set", dest="set_name", metavar="NAME", help="a set of yours (--import makes them; 'mine' "
                   "holds the puzzles from your games)")
    p.add_argument("--theme", metavar="T", help="only the puzzles tagged T (e.g. mateIn2, fork)")
    p.add_argument("--rating", type=_rating_range, metavar="LO-HI", help="only the puzzles rated LO to HI")
    p.add_argument("--list", action="store_true", help="print one line per puzzle (id, rating, themes, plies) "
                   "instead of opening the app")
    p.add_argument("--export", type=path_arg, metavar="FILE", help="write the puzzles as a lichess CSV "
                   "(never over a file)")
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

        return _make(args, prog, out)
    if args.out is not None or args.stockfish:
        raise UsageError(prog, "--out and --stockfish go with --make")
    if args.import_file is not None:
        return _import(prog, args)
    if args.name is not None:
        raise UsageError(prog, "--name goes with --import")
    sources = [flag for flag, value in (("--file", args.file), ("--from", args.records), ("--set", args.set_name))
               if value is not None]
    if len(sources) > 1:
        raise UsageError(prog, f"{' and '.join(sources)} exclude each other")
    try:
        if args.records is not None:
            puzzles, source = _from_games(args), f"the blunders of {args.records}"
        elif args.set_name is not None:
            path = _set_path(prog, args.game, args.set_name)
            puzzles, source = scan_puzzle_file(path, args.game, check=False), args.set_name
        elif args.file is not None:
            puzzles, source = scan_puzzle_file(Path(args.file).expanduser(), args.game, check=False), args.file
        else:
            puzzles, source = iter(shipped_puzzles(args.game)), "the shipped set"
        chosen = _filtered(puzzles, args.theme, args.rating)
        if args.list:
            for puzzle in chosen:
                print(f"{puzzle.id}\t{puzzle.rating}\t{' '.join(puzzle.themes) or '-'}\t{puzzle.plies}")
            return 0
        if args.export is not None:
            return _export(prog, args, chosen)
        kept = _checked(_sample(chosen, IN_APP, args.seed), args.game, source)
    except (PuzzleError, RecordError) as error:
        raise UsageError(prog, one_line(str(error))) from None
    if not kept:
        narrowed = " matching --theme/--rating" if args.theme or args.rating else ""
        raise UsageError(prog, f"no puzzles for {args.game}{narrowed} in {one_line(str(source))}; --make N --out FILE "
                               "finds some")
    from .play import run_app

    return run_app(ascii=args.ascii, puzzles=(args.game, kept, source, args.seed))


#: The most puzzles taken into the app from one set (a sample, by --seed, of a larger one).
IN_APP = 5_000
#: The bad rows of an import told one by one; the rest are counted.
BAD_TOLD = 20
def _rating_range(text: str) -> tuple[int, int]:
    """An argparse type: ``LO-HI``, two whole ratings, LO at most HI."""
    match = re.fullmatch(r"\s*(\d{1,4})\s*-\s*(\d{1,4})\s*", text)
    if match is None or int(match[1]) > int(match[2]):
        raise argparse.ArgumentTypeError(f"expected LO-HI like 1200-1800, got {one_line(text[:30])!r}")
    return int(match[1]), int(match[2])


def _set_path(prog: str, game: str, name: str) -> Path:
    """The file of the set ``name`` (a name refused in one line)."""
    try:
        return set_path(game, name)
    except ValueError as error:
        raise UsageError(prog, one_line(str(error))) from None


def _filtered(puzzles: Iterable[Puzzle], theme: str | None, rating: tuple[int, int] | None) -> Iterator[Puzzle]:
    """The puzzles tagged ``theme`` (any case) and rated within ``rating``, as they come."""
    wanted = theme.lower() if theme else None
    for puzzle in puzzles:
        if wanted is not None and wanted not in (tag.lower() for tag in puzzle.themes):
            continue
        if rating is not None and not rating[0] <= puzzle.rating <= rating[1]:
            continue
        yield puzzle


def _sample(puzzles: Iterable[Puzzle], size: int, seed: int | None) -> list[Puzzle]:
    """At most ``size`` of ``puzzles``, each as likely (a reservoir: a set of millions is never held)."""
    rng = random.Random(seed)
    kept: list[Puzzle] = []
    for seen, puzzle in enumerate(puzzles):
        if seen < size:
            kept.append(puzzle)
        else:
            slot = rng.randrange(seen + 1)
            if slot < size:
                kept[slot] = puzzle
    return kept


def _checked(puzzles: list[Puzzle], game: str, source: str) -> list[Puzzle]:
    """``puzzles`` (read without their moves played through), each checked now:
    :class:`PuzzleError` names the first that is not a puzzle."""
    for puzzle in puzzles:
        try:
            puzzle.check(game)
        except ValueError as error:
            raise PuzzleError(f"{source}: puzzle {puzzle.id[:40]}: {str(error).splitlines()[0][:120]}") from None
    return puzzles


def _new_file(prog: str, path: Path, what: str) -> IO[str]:
    """``path`` created for writing (never over a file), or a one-line refusal."""
    if path.exists() or path.is_symlink():
        raise UsageError(prog, f"{path} already exists; {what} is never written over")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return open(path, "x", encoding="utf-8")
    except OSError as error:
        raise UsageError(prog, f"cannot write {path}: {error.strerror or error}") from None


def _from_games(args: argparse.Namespace) -> Iterator[Puzzle]:
    """``--from RECORDS``: the puzzles among the positions before the moves the game report called
    mistakes or blunders, each a few plies of the line our search prefers, added to the set
    :data:`MINE` (those not there already: its puzzles are never lost); the new ones."""
    from games.reading import read_record_text

    text = read_record_text(Path(args.records).expanduser())

    def found(count: int, tried: int) -> None:
        print(f"{count} puzzles from {tried} mistakes", file=sys.stderr, flush=True)

    fresh = puzzles_from_blunders(args.game, text, found, source=f"your game {Path(args.records).name}")
    try:
        added, path = add_to_mine(args.game, fresh)
    except OSError as error:
        raise UsageError(f"{PROG} puzzles", f"cannot keep the puzzles in your set {MINE}: "
                                            f"{error.strerror or error}") from None
    if added:
        print(f"{len(added)} new puzzle{'s' if len(added) != 1 else ''} kept in the set {MINE} ({path}); "
              f"again later: {PROG} puzzles {args.game} --set {MINE}", file=sys.stderr)
    return iter(fresh)


def _export(prog: str, args: argparse.Namespace, puzzles: Iterable[Puzzle]) -> int:
    """Write ``puzzles`` to ``--export`` as a lichess CSV."""
    from engines.puzzle_import import HEADER_LINE, lichess_row

    out = Path(args.export).expanduser()
    count = 0
    with _new_file(prog, out, "an export") as handle:
        handle.write(HEADER_LINE + "\n")
        for puzzle in puzzles:
            handle.write(lichess_row(puzzle, args.game) + "\n")
            count += 1
    print(f"wrote {out} ({count} puzzle{'s' if count != 1 else ''}, the lichess format)")
    return 0


class _Progress:
    """How far an import is, on standard error: a bar redrawn in place when it is a terminal
    (from the bytes read of the file), else a line every :data:`EVERY` rows."""

    EVERY = 100_000
    WIDTH = 30

    def __init__(self, raw: IO[bytes], total: int) -> None:
        self.raw, self.total = raw, max(total, 1)
        self.tty = sys.stderr.isatty()
        self.drawn = 0.0

    def row(self, count: int) -> None:
        if self.tty:
            now = time.monotonic()
            if now - self.drawn >= 0.2:
                self.drawn = now
                share = min(1.0, self.raw.tell() / self.total)
                bar = "#" * int(share * self.WIDTH)
                print(f"\r[{bar:<{self.WIDTH}}] {share:4.0%} {count} puzzles", end="", file=sys.stderr, flush=True)
        elif count % self.EVERY == 0:
            print(f"{count} puzzles read", file=sys.stderr, flush=True)

    def done(self) -> None:
        if self.tty:
            print(file=sys.stderr)


def _import(prog: str, args: argparse.Namespace) -> int:
    """``--import FILE``: a lichess CSV into the set ``--name`` of the user's, a row at a time."""
    from engines.puzzle_import import LichessFileError, lichess_lines, read_lichess

    for flag, value in (("--make", args.make), ("--file", args.file), ("--from", args.records),
                        ("--set", args.set_name), ("--export", args.export)):
        if value is not None:
            raise UsageError(prog, f"--import and {flag} exclude each other")
    source = Path(args.import_file).expanduser()
    name = args.name or source.name.removesuffix(".zst").removesuffix(".csv").removesuffix(".txt")
    path = _set_path(prog, args.game, name)
    try:
        raw = open_regular(source, "a lichess puzzle file", ValueError)  # a FIFO or a device: refused, not waited on
    except ValueError as error:
        raise UsageError(prog, one_line(str(error))) from None
    bad_rows = [0]

    def bad(line: int, what: str) -> None:
        bad_rows[0] += 1
        if bad_rows[0] <= BAD_TOLD:
            fresh = "\n" if progress.tty else ""  # below the bar
            print(f"{fresh}line {line}: {one_line(what)}", file=sys.stderr)

    partial = path.with_name(path.name + ".part")
    with raw:
        progress = _Progress(raw, os.fstat(raw.fileno()).st_size)
        count = 0
        with _new_file(prog, path, "a set") as _placeholder, _new_file(prog, partial, "a set") as handle:
            try:
                handle.write(f"{HEADER}: {args.game}\n# imported from {one_line(source.name)} by {PROG} puzzles "
                             f"{args.game} --import\n")
                puzzles = read_lichess(lichess_lines(raw, source.name, str(source)), args.game, bad, str(source))
                for puzzle in _filtered(puzzles, args.theme, args.rating):
                    handle.write(puzzle_line(puzzle) + "\n")
                    count += 1
                    progress.row(count)
            except BaseException as error:
                progress.done()  # what is said next starts on a line of its own
                handle.close()
                partial.unlink(missing_ok=True)
                path.unlink(missing_ok=True)
                if isinstance(error, LichessFileError):  # a line over the cap: the file is refused
                    raise UsageError(prog, one_line(str(error))) from None
                raise
        progress.done()
        os.replace(partial, path)
    more = f" ({bad_rows[0] - BAD_TOLD} more not told)" if bad_rows[0] > BAD_TOLD else ""
    skipped = f", {bad_rows[0]} bad row{'s' if bad_rows[0] != 1 else ''} skipped{more}" if bad_rows[0] else ""
    print(f"imported {count} puzzle{'s' if count != 1 else ''} into the set {name} ({path}){skipped}; "
          f"play them: {PROG} puzzles {args.game} --set {name}")
    return 0


def _make(args: argparse.Namespace, prog: str, out: Path) -> int:
    """``--make``: find line puzzles (engines.puzzle_lines), tag their themes, write them to ``out``
    (a run stopped by Ctrl-C writes what it found, and exits 130 as every stopped run does)."""

    looked = [0]

    def progress(found: int, tried: int) -> None:
        looked[0] = tried
        print(f"{found} puzzles from {tried} positions", file=sys.stderr, flush=True)

    seed = args.seed or 0
    started = time.perf_counter()
    puzzles: list = []
    stopped = ""
    try:
        _, tried = make_lines(args.game, args.make, seed, stockfish=args.stockfish, progress=progress,
                              found=puzzles)
    except KeyboardInterrupt:  # keep what was found: hours of search
        tried = looked[0]
        stopped = f" (a run for {args.make} stopped: the same as --make {len(puzzles)})"
        if not puzzles:
            print("stopped before a puzzle was found; nothing written", file=sys.stderr)
            return 130
    puzzles = tag(args.game, puzzles)
    depth = depth_of(args.game)
    win, gap = thresholds(args.game)
    source = (f"seeded games of Stockfish at depth {SCREEN_DEPTH} with {SLIP_SHARE:.0%} random moves; the positions "
              f"after a random move,\nscreened by Stockfish (two lines, depth {SCREEN_DEPTH}); lines followed by "
              f"Stockfish at depth {FOLLOW_DEPTH}, each move\nof the player's found by pvs:depth={depth},multipv=2 and "
              f"by Stockfish at depth {VERIFY_DEPTH}" if args.stockfish else
              f"seeded games of two noisy pvs players (pvs:nodes=400,jitter=30, 15% random moves);\nlines found by "
              f"pvs:depth={depth},multipv=2 (replies pvs:depth={depth + 2}), each of the player's moves found again "
              f"by\npvs:depth={depth + 2}")
    how = (f"Made by: {PROG} puzzles {args.game} --make {len(puzzles) if stopped else args.make} --seed {seed}"
           + (" --stockfish" if args.stockfish else "") + f"\n{tried} candidate positions from " + source
           + f";\nevery move of the player's wins ({win:.0%} or more) and the second best is "
           f"{gap:.0%} worse (the last move of a\nwin: any winning move); the position before the setting-up "
           f"move was not won; near-duplicates dropped.\n{len(puzzles)} puzzles in {time.perf_counter() - started:.0f} s"
           f"{stopped}.\nColumns: id, position (before the setting-up move), setting-up move, solution, rating, themes.")
    try:
        with open(out, "x", encoding="utf-8") as handle:
            handle.write(puzzle_text(puzzles, args.game, how))
    except OSError as error:
        raise UsageError(prog, f"cannot write {out}: {error.strerror or error}") from None
    print(f"wrote {out} ({len(puzzles)} puzzle{'s' if len(puzzles) != 1 else ''})")
    return 130 if stopped else 0
