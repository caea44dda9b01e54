"""``continue``: the games left unfinished (:mod:`tui.unfinished`): their list in the app, to open
or delete one, or (``--list``) printed one game a line."""

from __future__ import annotations

import argparse
import sys

from games import game_kind

from . import play
from .common import PROG, one_line


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Add ``continue`` to the ``tui-games`` parser."""
    p = sub.add_parser("continue", help="the games left unfinished: open the app's list, or print it (--list)",
                       description="Every game left unfinished is kept (quitting, a new game, the lab): this "
                                   "opens their list in the app, where Enter plays one on as it stood and "
                                   "Delete removes one.  --list prints them instead, one game a line.")
    p.add_argument("--list", action="store_true",
                   help="print the games (id, game, players, moves, last played), one a line, and exit")
    p.add_argument("--ascii", action="store_true", help="draw pieces as letters")
    p.set_defaults(run=_cmd_continue)


def _cmd_continue(args: argparse.Namespace) -> int:
    if not args.list:
        return play.run_app(ascii=args.ascii, unfinished=True)
    from ..unfinished import kept_games

    games, problems = kept_games()
    for problem in problems:  # a file that cannot be read was moved aside: one line each
        print(f"{PROG} continue: {one_line(problem)}", file=sys.stderr)
    rows = [("id", "game", "players", "moves", "last played")]
    rows += [(kept.id, game_kind(kept.game).name, " vs ".join(kept.players), str((len(kept.moves) + 1) // 2),
              kept.saved) for kept in games]  # moves as players count them: one of each side's
    widths = [max(len(one_line(row[column])) for row in rows) for column in range(4)]
    for row in rows:
        print("  ".join(one_line(cell).ljust(width) for cell, width in zip(row, widths)) + "  " + row[4])
    return 0
