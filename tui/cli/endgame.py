"""``endgame build`` and ``endgame check``: a game's endgame database (checkers': every position of a
few pieces solved by retrograde analysis), built into the user data directory where ``pvs`` finds
it by itself, or into a folder of the user's choice (``pvs:tables=DIR`` reads that one).

Both ask the game's kind (``KIND.endgames``); a game without a database, a number of pieces beyond
what the build takes, or a folder that cannot be written is one line (exit 2).  A file the build
finds already there is kept when it reads back and checks, so a stopped build resumes.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from engines.remedy import write_failure
from games import game_kind
from games.files import user_path
from games.kind import EndgamePlan

from .common import Parser, UsageError, game_name, path_arg, whole

__all__ = ["add_commands"]


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Add this module's commands to the ``tui-games`` parser."""
    p = sub.add_parser("endgame", help="build or check a game's endgame database")
    what = p.add_subparsers(dest="endgame", metavar="WHAT", parser_class=Parser, required=True)
    b = what.add_parser("build", help="solve every position of up to N pieces by retrograde analysis "
                                      "(pvs then plays them perfectly)")
    b.add_argument("game", type=game_name, metavar="GAME")
    b.add_argument("--pieces", type=whole(2), metavar="N", help="the most pieces on the board (default: the game's)")
    b.add_argument("--out", type=path_arg, metavar="DIR",
                   help="the folder to build into (default: the user data directory, where pvs looks)")
    b.set_defaults(run=_cmd_build)
    c = what.add_parser("check", help="check a built database against itself: every position's value "
                                      "must be the best of its successors'")
    c.add_argument("game", type=game_name, metavar="GAME")
    c.add_argument("--pieces", type=whole(2), metavar="N", help="check up to N pieces (default: all built)")
    c.add_argument("--dir", type=path_arg, metavar="DIR", help="the folder (default: the user data directory's)")
    c.set_defaults(run=_cmd_check)


def _plan(prog: str, game: str, pieces: int | None) -> tuple[EndgamePlan, int]:
    plan = game_kind(game).endgames
    if plan is None:
        raise UsageError(prog, f"{game} has no endgame database")
    wanted = plan.pieces if pieces is None else pieces
    if wanted > plan.most:
        raise UsageError(prog, f"--pieces: at most {plan.most} for {game}, got {wanted}")
    return plan, wanted


def _say(text: str) -> None:
    print(text, flush=True)


def _cmd_build(args: argparse.Namespace) -> int:
    prog = "tui-games endgame build"
    plan, pieces = _plan(prog, args.game, args.pieces)
    folder = Path(user_path(args.out)) if args.out else Path(plan.folder())
    if folder.exists() and not folder.is_dir():
        raise UsageError(prog, f"--out: {folder} is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(prog, f"--out: cannot make {folder}: {error.strerror or error}") from None
    start = time.perf_counter()
    try:
        plan.build(folder, pieces, _say)
    except ValueError as error:
        raise UsageError(prog, str(error)) from None
    except OSError as error:
        raise UsageError(prog, f"cannot write {error.filename or folder}: {write_failure(error)}; the files "
                               f"finished before are kept (build again to go on)") from None
    print(f"built up to {pieces} pieces in {time.perf_counter() - start:.1f} s")
    return 0


def _cmd_check(args: argparse.Namespace) -> int:
    prog = "tui-games endgame check"
    plan = game_kind(args.game).endgames
    if plan is None:
        raise UsageError(prog, f"{args.game} has no endgame database")
    folder = Path(user_path(args.dir)) if args.dir else Path(plan.folder())
    pieces = args.pieces if args.pieces is not None else plan.most
    try:
        built = game_kind(args.game).game.open_tables(str(folder))
    except ValueError as error:
        raise UsageError(prog, str(error)) from None
    pieces = min(pieces, built.pieces)
    start = time.perf_counter()
    try:
        checked = plan.check(folder, pieces, _say)
    except ValueError as error:
        raise UsageError(prog, str(error)) from None
    print(f"{checked:,} positions of up to {pieces} pieces agree with their successors "
          f"({time.perf_counter() - start:.1f} s)")
    return 0
