"""``play`` and the bare ``tui-games``: open the Textual app (imported only here)."""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Any

from games import GAME_NAMES, game_class, game_kind

from .common import PROG, UsageError, add_position, game_name, path_arg, whole
from .tables import add_syzygy, checked_tables

#: Who plays second unless told: the middle level, by name (every game has one called so), as on
#: the start screen, so that dialogs and records name it as a level.
DEFAULT_OPPONENT = "club"


def side_options() -> tuple[str, ...]:
    """The side-name options of ``play``, beside --first/--second: every game's players' names."""
    names = (name.lower() for game in GAME_NAMES for name in game_class(game).PLAYERS)
    return tuple(dict.fromkeys(name for name in names if re.fullmatch(r"[a-z][a-z0-9-]*", name)))


def first_movers() -> str:
    """``chess White, checkers Black, ...``: who moves first in each registered game."""
    return ", ".join(f"{game_kind(game).title} {game_class(game).PLAYERS[0]}" for game in GAME_NAMES)


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Add this module's commands to the ``tui-games`` parser."""
    lab = sub.add_parser("lab", help="open the app's lab: run and watch experiments and tournaments",
                         description="The app's lab screen: pick a shipped experiment or lay out a "
                                     "tournament, run it, watch the table and chart fill in, stop and "
                                     "resume it, open its games for review.")
    lab.add_argument("--ascii", action="store_true", help="draw pieces as letters in reviewed games")
    lab.set_defaults(run=lambda args: run_app(ascii=args.ascii, lab=True))
    p = sub.add_parser(
        "play", help="open a game in the app: each side 'human' or an engine spec",
        description=f"Open a game directly.  --first is the side that moves first ({first_movers()}); "
        f"side names work too: {', '.join('--' + side for side in side_options())}.  "
        "Without them: you (first) against club, the middle level.",
    )
    p.add_argument("game", type=game_name, metavar="GAME")
    p.add_argument("--first", metavar="SPEC",
                   help="who moves first: 'human' (default), a level (beginner, casual, club, expert, "
                        "master; 'tui-games levels GAME') or an engine spec")
    p.add_argument("--second", metavar="SPEC", help="who moves second (default club, the middle level)")
    for side in side_options():
        try:
            p.add_argument(f"--{side}", metavar="SPEC", help=argparse.SUPPRESS)
        except argparse.ArgumentError:  # a plug-in's side named as an option already is (First, Second)
            continue
    add_position(p)
    p.add_argument("--load", metavar="FILE", type=path_arg,
                   help="open a saved game to review or play on: the game's record (PGN, PDN, a move list)")
    p.add_argument("--game", dest="game_number", metavar="N", type=whole(1), default=None,
                   help="which game of a file holding several (default: list them and pick one)")
    p.add_argument("--clock", metavar="MIN+INC",
                   help="clocks for both sides: minutes each plus seconds added a move (5+3; 0.1+0 is six "
                   "seconds); engines then budget their time from their clock")
    p.add_argument("--analyse", "--analyze", dest="analyse", nargs="?", const="pvs", metavar="SPEC",
                   help="an engine (default pvs) analyses the position shown without end, beside the game")
    p.add_argument("--ascii", action="store_true",
                   help="draw pieces as letters (for terminals that misrender chess glyphs)")
    add_syzygy(p)
    p.set_defaults(run=_cmd_play)



def _players(args: argparse.Namespace) -> tuple[str, str]:
    """The two players' specs, first mover first, from --first/--second and side names."""
    names = [name.lower() for name in game_class(args.game).PLAYERS]
    chosen: list[str | None] = [args.first, args.second]
    for option in side_options():
        spec = getattr(args, option.replace("-", "_"), None)
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
            DEFAULT_OPPONENT if chosen[1] is None else chosen[1])


def run_app(setup: Any = None, *, ascii: bool = False, lab: bool = False, pick_from: str | None = None,
            puzzles: Any = None, learn: bool = False, friend: Any = None,
            ask_how: bool = False, syzygy: str | None = None, unfinished: bool = False) -> int:
    """Open the Textual app (imported only here: the other commands never load Textual);
    ``pick_from``: a record file whose games the app lists to pick one; ``puzzles``: a game,
    its puzzles, where they come from and their order's seed, to solve; ``learn``: the course; ``friend``: a
    network game's link (``host``, ``join``); ``syzygy``: the endgame tables' folder the engines
    read instead of the settings'; ``unfinished``: the list of the unfinished games (``continue``).
    Refused in one line when standard input or output is not a terminal (``play chess </dev/null``
    would wait for keys that never come)."""
    # textual-serve (tui-games serve) runs the app on pipes, drawn by its web driver in the browser.
    served = os.environ.get("TEXTUAL_DRIVER", "").startswith("textual.drivers.web_driver")
    if served:  # a browser tab's app ends with the server that started it, however it ends
        from engines.lifetime import exit_with_parent

        exit_with_parent()
    elif not (sys.stdin.isatty() and sys.stdout.isatty()):
        which = "input" if not sys.stdin.isatty() else "output"
        raise UsageError(PROG, f"the app needs a terminal: its standard {which} is not one")
    from ..app.app import TuiGamesApp

    app = TuiGamesApp(setup, ascii=ascii, lab=lab, pick_from=pick_from, puzzles=puzzles, learn=learn, friend=friend,
                      ask_how=ask_how, syzygy=syzygy, unfinished=unfinished)
    app.run()
    return app.return_code or 0  # 2: a host that broke the protocol ended `join` (the app printed why)


def _cmd_play(args: argparse.Namespace) -> int:
    from ..app.session import GameSetup, SetupError

    first, second = _players(args)
    syzygy = checked_tables(f"{PROG} play", game_class(args.game), args.syzygy)
    if args.load is not None and args.position:
        raise UsageError(f"{PROG} play", "--load and --position both set the start; give one of them")
    try:
        setup = GameSetup.checked(args.game, first, second, args.position,
                                  clock=args.clock, analysis=args.analyse)
    except SetupError as error:
        raise UsageError(f"{PROG} play", str(error)) from None
    if args.load is not None:
        from games.reading import index_records, load_record_file
        from games.records import RecordError

        try:
            if args.game_number is None and len(index_records(args.load, args.game)) > 1:
                return run_app(setup, ascii=args.ascii, pick_from=str(args.load), syzygy=syzygy)  # the app lists them
            loaded, _count = load_record_file(args.load, args.game, args.game_number or 1)
        except RecordError as error:
            where = os.path.expanduser(args.load)
            named = str(error) if str(error).startswith(where) else f"{where}: {error}"  # the listing's too
            raise UsageError(f"{PROG} play", named) from None
        setup = setup.with_record(loaded, str(args.load))
        return run_app(setup, ascii=args.ascii, ask_how=True, syzygy=syzygy)  # unfinished: continue, review or analyse
    return run_app(setup, ascii=args.ascii, syzygy=syzygy)
