"""``uci``: the chess engine over UCI on stdin/stdout (the protocol is in :mod:`tui.uci`)."""

from __future__ import annotations

import argparse

from .search import DEFAULT_ENGINE
from .common import PROG
from .tables import add_syzygy, checked_tables



def add_commands(sub: argparse._SubParsersAction) -> None:
    """Add this module's commands to the ``tui-games`` parser."""
    p = sub.add_parser("uci", help="play chess as a UCI engine on stdin/stdout (for chess GUIs)",
                       description="A UCI chess engine on standard input and output.  The engine "
                                   "can be changed with 'setoption name Engine value SPEC'.")
    p.add_argument("--engine", default=DEFAULT_ENGINE, metavar="SPEC",
                   help=f"engine spec (default {DEFAULT_ENGINE!r})")
    add_syzygy(p)
    p.set_defaults(run=_cmd_uci)



def _cmd_uci(args: argparse.Namespace) -> int:
    from ..uci import run_uci

    from games.chess import ChessGame

    tables = checked_tables(f"{PROG} uci", ChessGame, args.syzygy)  # one line before the session starts
    return run_uci(args.engine, tables=tables)
