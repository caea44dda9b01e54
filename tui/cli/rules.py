"""``perft``, ``moves`` and ``show``: the rules from the command line."""

from __future__ import annotations

import argparse

from games.perft import divide, perft

from ..views.format import counted

from .common import add_position, depth_type, game_name, play_moves, position_of



def add_commands(sub: argparse._SubParsersAction) -> None:
    """Add this module's commands to the ``tui-games`` parser."""
    p = sub.add_parser("perft", help="count leaf nodes of the move tree for depths 1..DEPTH")
    p.add_argument("game", type=game_name, metavar="GAME")
    p.add_argument("depth", type=depth_type, metavar="DEPTH")
    add_position(p)
    p.add_argument(
        "--divide", action="store_true", help="also list each root move with its count at DEPTH"
    )
    p.set_defaults(run=_cmd_perft)

    p = sub.add_parser("moves", help="list the legal moves, one per line, in the game's notation")
    p.add_argument("game", type=game_name, metavar="GAME")
    add_position(p)
    p.set_defaults(run=_cmd_moves)

    p = sub.add_parser("show", help="draw the board as text, with the side to move and the outcome")
    p.add_argument("game", type=game_name, metavar="GAME")
    add_position(p)
    p.add_argument(
        "--moves", nargs="+", default=[], metavar="MOVE", help="play these moves first (game notation)"
    )
    p.set_defaults(run=_cmd_show)



def _cmd_perft(args: argparse.Namespace) -> int:
    game = position_of(args)
    for depth in range(1, args.depth + 1):
        print(f"d{depth} {perft(game, depth)}", flush=True)
    if args.divide:
        for move, count in divide(game, args.depth):
            print(f"{move}: {count}")
    return 0


def _cmd_moves(args: argparse.Namespace) -> int:
    game = position_of(args)
    for text in game.legal_move_texts():
        print(text)
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    game = position_of(args)
    play_moves(game, args.moves)
    print(game.render())
    print(f"position: {game.to_text()}")
    outcome = game.outcome()
    if outcome is None:
        print(f"{game.PLAYERS[game.turn]} to move, {counted(game.count_moves(), 'legal move')}")
    elif outcome.winner is None:
        print(f"draw ({outcome.text})")
    else:
        print(f"{game.PLAYERS[outcome.winner]} wins ({outcome.text})")
    return 0
