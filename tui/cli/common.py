"""What every command shares: one-line usage errors, argument types, positions, Ctrl-C and the
other signals that end a run, the number of worker processes the machine gives a run."""

from __future__ import annotations

import argparse
import math
import os
import re
import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, NoReturn, Sequence

from engines import notices
from engines.remedy import Remedy
from games import GAME_NAMES, Game, GameError, new_game
from games.base import quote_input

__all__ = ["PROG", "REMEDIES", "error_text", "UsageError", "Parser", "check_workers", "game_name", "depth_type", "whole", "fraction", "integer", "finite", "path_arg",
           "refuse_link_to_nowhere",
           "add_position", "add_game_filter", "position_of", "play_moves", "stop_on_interrupt", "STOP_SIGNALS", "stop_signals", "interrupted_status",
           "machine_cores", "capped_jobs", "notices_on_stderr"]

PROG = "tui-games"

class UsageError(Exception):
    """A bad command line; reported as one line with exit status 2."""

    def __init__(self, prog: str, message: str) -> None:
        super().__init__(message)
        self.prog = prog

    def __reduce__(self) -> tuple[object, ...]:
        """Both arguments, so that the error pickles."""
        return type(self), (self.prog, *self.args), self.__dict__


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


def one_line(text: str) -> str:
    """``text`` with its control characters escaped (a newline as ``\\n``, an escape as ``\\x1b``):
    a path or a word the user gave stays one line, and no terminal sequence reaches the terminal."""
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


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
        missing = _NO_VALUE.match(message)
        if missing:  # argparse takes a value starting with '-' (-1+0) for a flag
            flag = missing.group(1).split("/")[-1]
            message = f"argument {flag}: expected a value after it (write one starting with '-' as {flag}=VALUE)"
        if len(message) > _ARGPARSE_MESSAGE:  # argparse quotes what it refuses whole ("unrecognized arguments: ...")
            message = message[:_ARGPARSE_MESSAGE - 3] + "..."
        raise UsageError(self.prog, f"{message} (see '{self.prog} --help')")


#: argparse's words for a flag given no value.
_NO_VALUE = re.compile(r"argument (\S+): expected one argument$")
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


def refuse_link_to_nowhere(prog: str, out: str | os.PathLike[str]) -> None:
    """Refuse ``--out`` ``out`` in one line when it is a symbolic link that leads to no file (a dangling
    link, or a loop of links): writing through it would make a file where the link points, not where
    the user looked.  (Results and game records files are refused so by
    :func:`engines.tournament.results.claim_output`.)"""
    path = Path(out).expanduser()
    if path.is_symlink() and not path.exists():
        raise UsageError(prog, f"{path}: a symbolic link that leads to no file; choose another --out")


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


#: The signals that end a run as Ctrl-C does: what is finished is kept and printed, and the command
#: exits with 128 + the signal's number (130 for SIGINT, 129 for SIGHUP, 143 for SIGTERM).
STOP_SIGNALS = (signal.SIGINT, signal.SIGHUP, signal.SIGTERM)
#: The exit status of a run ended by Ctrl-C; the commands return it, and :func:`interrupted_status`
#: turns it into the status of the signal that really came.
INTERRUPTED = 128 + signal.SIGINT
#: The last stop signal this process received (while :func:`stop_signals` or :func:`stop_on_interrupt` ran).
_received: list[int] = []


def _raise_interrupt(signum: int, frame: Any) -> None:
    """SIGHUP and SIGTERM do what Ctrl-C does: raise :class:`KeyboardInterrupt` (remembering which came)."""
    _received.append(signum)
    raise KeyboardInterrupt


@contextmanager
def stop_signals() -> Iterator[None]:
    """SIGHUP (the terminal closed) and SIGTERM (``kill``, ``timeout``) raise
    :class:`KeyboardInterrupt` while the block runs, as Ctrl-C does: every
    command's answer to Ctrl-C (keep and print what is finished, stop the
    workers, free their semaphores) answers them too.  Outside the main thread
    signals cannot be caught: nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, _raise_interrupt) for sig in STOP_SIGNALS if sig != signal.SIGINT}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def interrupted_status(status: int) -> int:
    """The exit status for a command's ``status``: a run ended by SIGHUP or
    SIGTERM exits 128 + its number (129, 143) where the command said 130."""
    if status == INTERRUPTED and _received:
        return 128 + _received[-1]
    return status


@contextmanager
def stop_on_interrupt() -> Iterator[threading.Event]:
    """An event that Ctrl-C (or SIGHUP, SIGTERM) sets, instead of raising, while the block runs.

    A second one raises :class:`KeyboardInterrupt` as usual.  Outside the
    main thread signals cannot be caught: the event is then never set.
    """
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def on_signal(signum: int, frame: Any) -> None:
        _received.append(signum)
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    previous = {sig: signal.signal(sig, on_signal) for sig in STOP_SIGNALS}
    try:
        yield stop
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


@contextmanager
def notices_on_stderr() -> Iterator[None]:
    """While the block runs, what an engine does differently from its spec (a clamp:
    :mod:`engines.notices`) is printed once, one line on stderr."""
    stop = notices.listen(lambda text: print(f"{PROG}: {text}", file=sys.stderr))
    try:
        yield
    finally:
        stop()


def machine_cores() -> int:
    """The cores this process may run on (its affinity, not the machine's whole count)."""
    counted = getattr(os, "process_cpu_count", None)  # Python 3.13
    if counted is not None:
        return counted() or 1
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # pragma: no cover - a system without affinities
        return os.cpu_count() or 1


def capped_jobs(prog: str, jobs: int, tasks: int | None = None, *, what: str = "game") -> int:
    """``--jobs`` capped at the ``tasks`` to do (games to play, fits to make; ``None``: no such
    cap) and at the cores this process may use: a worker with nothing to do, or sharing a core,
    only costs its start and its memory.  A clamp is said in one line on stderr; with nothing to
    do (a finished run resumed) there is nothing to say."""
    if tasks is not None and tasks <= 0:
        return 1
    cores = machine_cores()
    capped = max(1, min(jobs, cores, jobs if tasks is None else tasks))
    if capped < jobs:
        if tasks is not None and capped == tasks:
            why = f"the {tasks:,} {what}{'s' * (tasks != 1)} to {'play' if what == 'game' else 'do'}"
        else:
            why = f"this machine's {cores} core{'s' * (cores != 1)}"
        print(f"{prog}: --jobs {jobs:,} is more than {why}: starting {capped} worker{'s' * (capped != 1)}",
              file=sys.stderr)
    return capped


def check_workers(prog: str, args: argparse.Namespace) -> None:
    """``--jobs`` and ``--dask`` of a command that plays games: one or the other."""
    if args.dask is not None and args.jobs != 1:
        raise UsageError(prog, "--jobs and --dask exclude each other (the dask cluster has its own workers)")
