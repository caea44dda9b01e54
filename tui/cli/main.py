"""The ``tui-games`` command line: :func:`main` and its parser.

Commands::

    tui-games [--ascii]                 (no command: the app's start screen)
    tui-games play GAME [--first SPEC] [--second SPEC] [--position TEXT] [--ascii]
    tui-games continue [--list] [--ascii]
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
    tui-games host GAME [--port P] [--clock 5+3] [--as white|black|random] [--public] [--tls] [--position TEXT]
    tui-games join HOST:PORT CODE [--watch] [--tls] [--fingerprint AB:CD:...]
    tui-games serve [--port P] [--host ADDRESS | --public] [--tls] [--max-sessions N] [--idle-minutes M]
                    [--files DIR] [--allow-programs]
    tui-games train GAME --data FILE --model rf|mlp [--inputs features|h0] [--grid] [--test-size F]
                    [--seed S] [--jobs J] [--cv K] --out MODEL.npz
    tui-games models [GAME] [--json]  |  tui-games models --check PATH --game GAME

Bad arguments, engine specs, positions and moves print one line on stderr and
exit with status 2, never a traceback.  Only the app (no command, or
``play``) imports Textual: scripts and tests can call the others cheaply.

Ctrl-C during ``search`` stops the search cleanly: the engine returns the best
move of its last completed depth, which is printed as usual (with
``"interrupted": true`` in the JSON), and the command exits with status 130.
A second Ctrl-C aborts at once.  Ctrl-C during ``match`` keeps every finished
game in the results file (``--resume`` plays the rest), prints the summary so
far and exits with status 130.  SIGHUP (the terminal closed) and SIGTERM (``kill``,
``timeout``) end every command but the app's the same way, with status 129 and 143.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from engines import SpecError
from engines import RunError
from games import GAME_NAMES, GameError, game_titles

from . import (bench, books, endgame, lab, learn, learning, match, network, play, puzzles, rules, search, serve,
               tree, uci, unfinished)
from .common import PROG, Parser, UsageError, error_text, interrupted_status, one_line, notices_on_stderr, stop_signals

__all__ = ["main", "build_parser", "UsageError"]


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=PROG,
        description=f"{game_titles()[:1].upper()}{game_titles()[1:]} in the terminal, with minimax-family engines.",
        epilog=f"Games: {', '.join(GAME_NAMES)}.  Run '{PROG} COMMAND --help' for a command's options.",
    )
    parser.add_argument(
        "--ascii", action="store_true",
        help="with no command: draw pieces as letters (for terminals that misrender chess glyphs)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for group in (play, unfinished, learn, network, serve, puzzles, rules, search, tree, bench, endgame, match, lab, books, learning, uci):
        group.add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (also used as the console script)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            return play.run_app(ascii=args.ascii)
        if _opens_app(args):  # the app answers signals as it does
            return args.run(args)
        with stop_signals(), notices_on_stderr():
            return interrupted_status(args.run(args))
    except UsageError as exc:
        print(f"{exc.prog}: error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except (GameError, SpecError, RunError) as exc:
        print(f"{PROG}: error: {one_line(error_text(exc))}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `tui-games moves chess | head -1`: the reader has all it wants
        _quiet_stdout()
        return 0
    except OSError as exc:  # a file the system refuses (a special file, a full disk, ...): one line
        name = str(exc.filename or "")
        where = f" ({name if len(name) <= 240 else '…' + name[-240:]})" if name else ""  # the file's end names it
        print(f"{PROG}: error: {one_line(str(exc.strerror or exc) + where)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return interrupted_status(130)


def _opens_app(args: argparse.Namespace) -> bool:
    """Whether the command opens the app (``play``, ``continue`` but ``--list``, ``lab``, ``learn``, ``host``,
    ``join``, ``serve``'s server, ``puzzles`` but ``--make``)."""
    return (args.command in ("play", "lab", "learn", "host", "join", "serve")
            or (args.command == "puzzles" and args.make is None) or (args.command == "continue" and not args.list))


def _quiet_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush of
    what the closed pipe did not take raises nothing more (as Unix tools go quiet)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
