"""The ``tui-games`` command line.

Commands (SPEC §7)::

    tui-games perft GAME DEPTH [--position TEXT] [--divide]
    tui-games moves GAME [--position TEXT]
    tui-games show GAME [--position TEXT] [--moves MOVE ...]
    tui-games bench perft [--game GAME ...] [--quick]

Bad arguments, positions and moves print one line on stderr and exit with
status 2, never a traceback.  Nothing here imports Textual: scripts and tests
can call these commands cheaply.
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn, Sequence

from games import GAME_NAMES, GameError, new_game
from games.perft import divide, perft

__all__ = ["main", "UsageError"]

PROG = "tui-games"


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


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Chess, English checkers and Quixo in the terminal, with minimax-family engines.",
        epilog=f"Games: {', '.join(GAME_NAMES)}.  Run '{PROG} COMMAND --help' for a command's options.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def add_position(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--position",
            metavar="TEXT",
            help="start from this position (chess FEN, checkers PDN FEN, Quixo rows + side to move)",
        )

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

    p = sub.add_parser("bench", help="benchmarks (speed, reported against reference implementations)")
    bench_sub = p.add_subparsers(dest="bench", metavar="WHAT", parser_class=_Parser, required=True)
    b = bench_sub.add_parser("perft", help="perft leaves/s per game beside reference implementations")
    b.add_argument(
        "--game", dest="games", action="append", type=_game_name, metavar="GAME",
        help="only this game (repeatable; default: all)",
    )
    b.add_argument("--quick", action="store_true", help="smaller depths (a smoke run, not a measurement)")
    b.add_argument("--repeat", type=_depth, default=3, metavar="N", help="best of N runs (default 3)")
    b.set_defaults(run=_cmd_bench_perft)
    return parser


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
    for number, text in enumerate(args.moves, 1):
        try:
            game.play_text(text)
        except GameError as exc:
            raise type(exc)(f"move {number} ({text!r}): {exc}") from None
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


def _cmd_bench_perft(args: argparse.Namespace) -> int:
    from .bench import run_perft_bench

    run_perft_bench(args.games or list(GAME_NAMES), quick=args.quick, repeat=args.repeat)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (also used as the console script)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 0
        return args.run(args)
    except UsageError as exc:
        print(f"{exc.prog}: error: {exc}", file=sys.stderr)
        return 2
    except GameError as exc:
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
