"""``host`` and ``join``: play a friend over the network (``serve``, the app in a browser, is :mod:`.serve`).

``host`` starts the referee (:class:`tui.net.link.HostLink`) before the app opens, so a taken port
or a bad clock is one line and exit 2; it prints the address and the join and watch codes, and the
app shows them too; ``--aids`` allows the engine aids, if the guest agrees.  ``join`` connects first (a
wrong code, nobody listening: one line, exit 2); a host that allows the aids is agreed to by
``--aids``, or else asked about on the terminal (*Leave*, the default, exits 1 without taking the seat).
Both open the app on the game through :func:`.play.run_app`.
"""

from __future__ import annotations

import argparse
import random
import sys

from games import GAME_NAMES
from games.clock import ClockError, TimeControl

from ..net.referee import ABANDON_AFTER

from .common import PROG, UsageError, add_position, game_name, whole
from .play import run_app

#: Which side the host plays: the game's first player's, second's, or either at random.
SIDE_WORDS = ("white", "black", "first", "second", "random")


def add_commands(sub: argparse._SubParsersAction) -> None:
    h = sub.add_parser("host", help="host a game for a friend over the network (you are the referee)",
                       description="Open GAME in the app and wait for a friend: prints the address and a join "
                                   "code (and a spectators' code). Listens on 127.0.0.1 unless --public.")
    h.add_argument("game", type=game_name, metavar="GAME", help=f"one of: {', '.join(GAME_NAMES)}")
    h.add_argument("--port", type=whole(0), default=0, help="the port to listen on (0, the default: any free one)")
    h.add_argument("--clock", default=None, metavar="MIN+INC", help="a clock for both, e.g. 5+3 (the host keeps it)")
    h.add_argument("--as", dest="side", choices=SIDE_WORDS, default="first",
                   help="the side you play: white/first (the default), black/second or random")
    h.add_argument("--public", action="store_true", help="listen on every interface, not only 127.0.0.1")
    h.add_argument("--tls", action="store_true",
                   help="TLS with a certificate made for this game: compare its fingerprint with your friend's")
    h.add_argument("--aids", action="store_true",
                   help="allow the engine aids (hints, analysis, the report, the engine panel) for both players; "
                        "your friend agrees as it joins, and the records say so")
    h.add_argument("--abandon-after", type=_seconds, default=ABANDON_AFTER, metavar="SECONDS",
                   help=f"a friend away this long loses on a clock, or lets you claim the game without one "
                        f"(default {ABANDON_AFTER:g}; 10 to 86400)")
    add_position(h)
    h.add_argument("--ascii", action="store_true", help="draw pieces as letters")
    h.set_defaults(run=_cmd_host)

    j = sub.add_parser("join", help="join a friend's hosted game", description="Join the game at HOST:PORT with "
                       "the host's code (the board turned to your side); --watch with the spectators' code.")
    j.add_argument("address", metavar="HOST:PORT")
    j.add_argument("code", metavar="CODE")
    j.add_argument("--watch", action="store_true", help="watch the game (the spectators' code)")
    j.add_argument("--aids", action="store_true",
                   help="agree to the engine aids if the host allows them (else you are asked)")
    j.add_argument("--tls", action="store_true", help="the host uses TLS (tui-games host --tls)")
    j.add_argument("--fingerprint", metavar="AB:CD:...", default=None,
                   help="refuse the host unless its certificate has this fingerprint (implies --tls)")
    j.add_argument("--ascii", action="store_true", help="draw pieces as letters")
    j.set_defaults(run=_cmd_join)


def _agrees_to_aids() -> bool:
    """Ask on the terminal whether the guest joins a game whose host allows the engine aids (Enter,
    the end of input or anything but *join*: it leaves)."""
    print("the host allows engine aids in this game (hints, analysis, the report, the engine panel, for both "
          "players; the records say so)", flush=True)
    try:
        answer = input("join? [Leave] [Join] (l/j): ")
    except EOFError:
        return False
    return answer.strip().lower() in ("j", "join")


def _seconds(text: str) -> float:
    """``--abandon-after``'s seconds: a number from 10 to a day."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, e.g. 60, not {text[:40]!r}") from None
    if not 10 <= seconds <= 86400:
        raise argparse.ArgumentTypeError(f"{text[:40]} is not from 10 to 86400 seconds")
    return seconds


def _cmd_host(args: argparse.Namespace) -> int:
    from tui.net.link import HostLink
    from tui.net.tls import TlsError

    try:
        control = TimeControl.parse(args.clock) if args.clock is not None else None
    except ClockError as error:
        raise UsageError(f"{PROG} host", str(error)) from None
    side = random.randrange(2) if args.side == "random" else (0 if args.side in ("white", "first") else 1)
    position = args.position.strip() if args.position else None
    if position:
        from games import game_class
        game_class(args.game).from_user_text(position)  # a bad one is a GameError: one line
    if not 0 <= args.port < 65536:
        raise UsageError(f"{PROG} host", f"bad port {args.port}: 0 to 65535")
    try:
        link = HostLink(args.game, position, host_side=side, control=control, port=args.port, public=args.public,
                        tls=args.tls, abandon=args.abandon_after, aids=args.aids)
    except TlsError as error:
        raise UsageError(f"{PROG} host", str(error)) from None
    except OSError as error:
        raise UsageError(f"{PROG} host", f"cannot listen on port {args.port}: {error.strerror or error}") from None
    for line in link.where:
        print(line, flush=True)
    try:
        return run_app(ascii=args.ascii, friend=link)
    finally:
        link.close()


def _cmd_join(args: argparse.Namespace) -> int:
    from tui.net.client import AidsAsked, ConnectError, parse_address
    from tui.net.link import GuestLink

    def joined(aids: bool) -> GuestLink:
        return GuestLink(address, args.code, watch=args.watch, tls=args.tls or args.fingerprint is not None,
                         fingerprint=args.fingerprint, aids=aids)

    try:
        address = parse_address(args.address)
        try:
            link = joined(args.aids)
        except AidsAsked:
            if not _agrees_to_aids():
                print(f"{PROG} join: left: the host allows engine aids in this game, and you did not agree "
                      f"({PROG} join --aids agrees)", file=sys.stderr)
                return 1
            link = joined(True)
    except (ValueError, ConnectError) as error:
        raise UsageError(f"{PROG} join", str(error)) from None
    try:
        return run_app(ascii=args.ascii, friend=link)
    finally:
        link.close()
