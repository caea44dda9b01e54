"""``book``: the opening books a game ships, and making one (``--balanced``: lines a deep search finds level)."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from .common import (PROG, UsageError, capped_jobs, error_text, finite, game_name, path_arg, refuse_link_to_nowhere,
                     whole)

__all__ = ["add_commands"]

#: The engine that scores a line when none is named: Stockfish where it is installed and plays the game,
#: else ours at a depth every game searches in a fraction of a second.
STOCKFISH_SPEC = "stockfish:depth=12"
OUR_SPEC = "pvs:depth=6"


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Add this module's commands to the ``tui-games`` parser."""
    p = sub.add_parser(
        "book", help="the opening books a game ships; --out makes one (--balanced: lines a search finds level)",
        description="Without --out: the books GAME ships, for 'match --book NAME'.  With --out: a new book of "
                    "--lines openings, each --plies uniformly random legal moves from the start, scored by a "
                    "search of --engine at their last position (default: Stockfish at depth 12 where it is "
                    "installed and plays the game, else pvs at depth 6); --balanced keeps only the lines "
                    "scored within --band of zero.  Reproducible from --seed, on any --jobs.",
    )
    p.add_argument("game", type=game_name, metavar="GAME")
    p.add_argument("--out", type=path_arg, metavar="FILE", help="write the new book here (never over a file)")
    p.add_argument("--balanced", action="store_true", help="keep only the lines the search scores level")
    p.add_argument("--lines", type=whole(1), default=300, metavar="N", help="openings to keep (default 300)")
    p.add_argument("--plies", type=whole(1), default=8, metavar="P", help="random plies a line (default 8)")
    p.add_argument("--engine", metavar="SPEC", help="the engine that scores each line (see above)")
    p.add_argument("--band", type=finite, metavar="S",
                   help="how far from zero a balanced line's score may be, in the game's unit (pawns in chess; "
                        "default: the game's own band, 0.5 pawn in chess)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the random lines (default 0)")
    p.add_argument("--tries", type=whole(1), default=100_000, metavar="T",
                   help="random lines to try at most (default 100,000)")
    p.add_argument("--resume", action="store_true",
                   help="finish the stopped book --out FILE (the same options: the file records its plan)")
    p.add_argument("--jobs", type=whole(1), default=1, metavar="J", help="worker processes (default 1)")
    p.set_defaults(run=_cmd_book)


def _cmd_book(args: argparse.Namespace) -> int:
    from games import game_kind

    prog = f"{PROG} book"
    kind = game_kind(args.game)
    if args.out is None:
        for flag in ("balanced", "engine", "band", "resume"):
            if getattr(args, flag) not in (None, False):
                raise UsageError(prog, f"--{flag} goes with --out (making a book)")
        return _list_books(kind)
    if args.band is not None and not args.balanced:
        raise UsageError(prog, "--band goes with --balanced")
    if args.band is not None and args.band < 0:
        raise UsageError(prog, f"--band is 0 or more, got {args.band:g}")
    out = Path(args.out).expanduser()
    refuse_link_to_nowhere(prog, out)
    if out.exists() and not out.is_file():
        raise UsageError(prog, f"{out}: not a regular file; a book goes to a file of its own, choose another --out")
    if out.exists() and not args.resume:
        from engines.openings import unfinished

        if unfinished(out):
            raise UsageError(prog, f"{out}: a book not finished; add --resume to finish it, or choose another --out")
        raise UsageError(prog, f"{out} already exists; a book is never written over, choose another --out")
    if args.resume and not out.exists():
        raise UsageError(prog, f"{out}: no such book to resume; leave out --resume to start it")
    if not out.parent.is_dir():
        raise UsageError(prog, f"cannot write {out}: the directory {out.parent} does not exist")
    return _make(prog, args, kind, out)


def _list_books(kind) -> int:
    from games.books import load_book

    if not kind.books:
        print(f"{kind.title} ships no opening book; make one with --out FILE --balanced")
        return 0
    for shipped in kind.books:
        book = load_book(kind, shipped.name)
        lost = f", {book.lost} marked lost" if book.lost else ""
        print(f"{shipped.name:<10} {len(book.lines)} lines{lost}: {shipped.about}")
    return 0


def _default_engine(game: str) -> str:
    from engines import SpecError, create_engine
    from games import game_class

    try:
        create_engine(STOCKFISH_SPEC, game_class(game)).close()
        return STOCKFISH_SPEC
    except SpecError:  # no binary, or a game it does not play
        return OUR_SPEC


#: Random lines drawn (not searched) before a run, to refuse plies no line lasts.
SAMPLED_LINES = 20


def _make(prog: str, args: argparse.Namespace, kind, out: Path) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .report import PipeConsole

    from engines import create_engine
    from engines import RunError
    from engines.openings import BookFile, BookPlan, engine_name, lasting, make_book

    spec = args.engine or _default_engine(args.game)
    create_engine(spec, kind.game).close()  # a bad spec is one line before any work
    band = None
    if args.balanced:
        band = kind.scores.balanced if args.band is None else args.band * kind.scores.unit
    plan = BookPlan(args.game, args.lines, args.plies, spec, band, args.seed, args.tries)
    going, longest = lasting(plan, SAMPLED_LINES)
    if not going:
        sampled = min(SAMPLED_LINES, plan.tries)
        raise UsageError(prog, f"none of the first {sampled} random lines of {kind.title} lasts {args.plies} plies "
                               f"(the longest ended the game at ply {longest}); ask for fewer --plies")
    if args.resume:
        try:
            book = BookFile.resume(out, plan)
        except RunError as error:
            raise UsageError(prog, error_text(error)) from None
        if book.note:
            print(book.note, file=sys.stderr)
    else:
        command = shlex.join(["tui-games", "book", args.game, *(["--balanced"] if args.balanced else []),
                              "--lines", str(args.lines), "--plies", str(args.plies), "--engine", spec,
                              *(["--band", f"{args.band:g}"] if args.band is not None else []),
                              "--seed", str(args.seed), "--out", out.name])
        book = BookFile.create(out, plan, command, engine_name(spec, args.game))
    with book:
        if book.done:
            print(f"{out}: already done: {book.made.counts(plan.seed)}", file=sys.stderr)
            return 0
        made = book.made
        try:
            with Progress(TextColumn("[bold]lines kept"), BarColumn(), MofNCompleteColumn(),
                          TextColumn("{task.fields[tried]}"), TimeElapsedColumn(),
                          console=PipeConsole(file=sys.stderr)) as progress:
                task = progress.add_task("kept", total=args.lines, completed=len(made.kept), tried="")

                def shown(made) -> None:
                    progress.update(task, completed=len(made.kept), tried=f"{made.tried:,} tried")

                jobs = capped_jobs(prog, args.jobs, plan.tries - made.tried, what="random line")
                made = make_book(plan, jobs=jobs, made=made, keep=book.add, progress=shown)
        except KeyboardInterrupt:
            print(f"{prog}: interrupted: {out} keeps {book.held()} of {args.lines} lines ({made.tried:,} random "
                  f"lines tried); add --resume to finish it", file=sys.stderr)
            return 130
        if not made.kept:
            book.remove()
            raise UsageError(prog, f"kept no line: {made.counts(plan.seed)}; {out} is not written")
        book.finish(made)
    short = "" if len(made.kept) >= args.lines else f" (only {len(made.kept)} of {args.lines} in {made.tried:,} tries)"
    print(f"{out}: {len(made.kept)} line{'s' * (len(made.kept) != 1)}{short}; {made.counts(plan.seed)}", file=sys.stderr)
    return 0
