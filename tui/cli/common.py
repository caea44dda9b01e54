"""What every command shares: one-line usage errors, argument types, positions, Ctrl-C."""

from __future__ import annotations

import argparse
import math
import os
import signal
import threading
from contextlib import contextmanager
from typing import Any, Iterator, NoReturn, Sequence

from engines.remedy import Remedy
from games import GAME_NAMES, Game, GameError, new_game
from games.base import quote_input

__all__ = ["PROG", "REMEDIES", "error_text", "UsageError", "Parser", "check_workers", "game_name", "depth_type", "whole", "fraction", "integer", "finite", "path_arg",
           "add_position", "add_game_filter", "position_of", "play_moves", "stop_on_interrupt"]

PROG = "tui-games"

class UsageError(Exception):
    """A bad command line; reported as one line with exit status 2."""

    def __init__(self, prog: str, message: str) -> None:
        super().__init__(message)
        self.prog = prog


#: What the user can do about a refused run (an engine error's ``remedy``), in the command line's flags.
REMEDIES: dict[Remedy, str] = {
    Remedy.RESUME: "add --resume to finish it, or choose another --out",
    Remedy.OTHER_OUTPUT: "choose another --out",
    Remedy.WAIT: "wait until it ends (then --resume) or choose another --out",
    Remedy.GAMES: "resume it with --games {games}, or choose another --out",
    Remedy.SEPARATE_FILES: "give the results a .jsonl name, or the records (--records) a file of their own",
    Remedy.FEWER_OPENING_PLIES: "use fewer --openings plies",
    Remedy.INCLUDE_LOST: "add --book-include-lost, or choose another --book",
}


def error_text(error: Exception) -> str:
    """An error's one line; for an engine error with a remedy, followed by
    what to do in the command line's words (its flags)."""
    remedy = getattr(error, "remedy", None)
    if not isinstance(remedy, Remedy):
        return str(error)
    return f"{error}; {REMEDIES[remedy].format(games=getattr(error, 'games', None))}"

class Parser(argparse.ArgumentParser):
    """An ArgumentParser that reports errors as one line instead of usage + message."""

    def error(self, message: str) -> NoReturn:
        if len(message) > _ARGPARSE_MESSAGE:  # argparse quotes what it refuses whole ("unrecognized arguments: ...")
            message = message[:_ARGPARSE_MESSAGE - 3] + "..."
        raise UsageError(self.prog, f"{message} (see '{self.prog} --help')")


#: Characters of an argparse error message shown (it may quote a whole argument).
_ARGPARSE_MESSAGE = 160

def game_name(text: str) -> str:
    name = text.strip().lower()
    if name not in GAME_NAMES:
        raise argparse.ArgumentTypeError(
            f"unknown game {text!r}; expected one of: {', '.join(GAME_NAMES)}"
        )
    return name

def depth_type(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"DEPTH must be a whole number like 4, got {text!r}"
        ) from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"DEPTH must be at least 1, got {value}")
    return value

def whole(minimum: int):
    """An argparse type: a whole number at least ``minimum``."""

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < minimum:
            raise argparse.ArgumentTypeError(f"expected a whole number >= {minimum}, got {text!r}")
        return value

    return convert

def fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a fraction between 0 and 1 like 0.2, got {text!r}")
    return value

def share(text: str) -> float:
    """An argparse type: a weight from 0 to 1, both included."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"expected a weight from 0 to 1 like 0.5, got {text!r}")
    return value


def finite(text: str) -> float:
    """An argparse type: a number, not nan nor infinite."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a number like 1500, got {text!r}")
    return value

def integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


#: Bytes a file name (one path component) and a whole path may have (Linux's limits).
NAME_MAX, PATH_MAX = 255, 4096


def path_arg(text: str) -> str:
    """An argparse type: a file path the operating system can take, refused in one
    line otherwise (a NUL, a ``~user`` that does not exist, a name too long)."""
    if not text:
        raise argparse.ArgumentTypeError("expected a file path, got an empty string")
    if "\0" in text:
        raise argparse.ArgumentTypeError("a file path cannot contain a NUL character")
    expanded = os.path.expanduser(text)
    if text.startswith("~") and expanded == text:
        user = text[1:].split("/", 1)[0]
        raise argparse.ArgumentTypeError(f"{text[:60]!r}: there is no user {user[:40]!r} to expand ~{user[:40]}")
    encoded = os.fsencode(expanded)
    if len(encoded) > PATH_MAX or any(len(part) > NAME_MAX for part in encoded.split(b"/")):
        raise argparse.ArgumentTypeError(f"a file path or name too long ({len(encoded):,} bytes): {text[:40]!r}...")
    return text


def add_game_filter(b: argparse.ArgumentParser) -> None:
    b.add_argument(
        "--game", dest="games", action="append", type=game_name, metavar="GAME",
        help="only this game (repeatable; default: all)",
    )


def add_position(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--position",
        metavar="TEXT",
        help="start from this position, in the game's position text ('tui-games show GAME' prints one)",
    )


def position_of(args: argparse.Namespace):
    return new_game(args.game, args.position)


def play_moves(game: Game, texts: Sequence[str]) -> None:
    """Play ``texts`` on ``game``; a bad one is reported with its number."""
    for number, text in enumerate(texts, 1):
        try:
            game.play_text(text)
        except GameError as exc:
            raise type(exc)(f"move {number} ({quote_input(text)}): {exc}") from None


@contextmanager
def stop_on_interrupt() -> Iterator[threading.Event]:
    """An event that Ctrl-C sets (instead of raising) while the block runs.

    A second Ctrl-C raises :class:`KeyboardInterrupt` as usual.  Outside the
    main thread signals cannot be caught: the event is then never set.
    """
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def on_sigint(signum: int, frame: Any) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)


def check_workers(prog: str, args: argparse.Namespace) -> None:
    """``--jobs`` and ``--dask`` of a command that plays games: one or the other."""
    if args.dask is not None and args.jobs != 1:
        raise UsageError(prog, "--jobs and --dask exclude each other (the dask cluster has its own workers)")
