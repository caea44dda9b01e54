"""A watched UCI engine process: a program of someone else's, held to deadlines and limits.

:class:`UciProcess` is the client side of the Universal Chess Interface for
programs we do not trust: every wait has a deadline, every byte the program
writes is counted, and every way it can misbehave ends in one
:class:`EngineFailure` whose :attr:`~EngineFailure.reason` is short enough to
stand in a game's result (a match scores it as a forfeit):

==========================  ===================================================
``timeout``                 no answer (``uciok``, ``readyok``, ``bestmove``)
                            by the deadline, or input it stopped reading
``engine crashed``          it ended (or closed its output) while we waited
``output over N bytes``     it wrote more than :data:`MAX_OUTPUT` bytes between
                            two of our commands
``a line over N bytes``     it wrote a line longer than :data:`MAX_LINE`
``illegal move e2e5``       its ``bestmove`` is not legal where it stands
``null move``               its ``bestmove`` is ``0000`` or ``(none)`` in a
                            position with legal moves
``malformed move 'xyz'``    its ``bestmove`` is not a move in UCI notation
==========================  ===================================================

The program runs under a guard (:mod:`engines.uci_guard`), a few lines of
Python started from the thread that reads the program's output, in a session
of its own, with the kernel told to send it SIGTERM when that thread ends
(:func:`engines.lifetime.killed_with_parent`): the guard then kills the
program's whole process group.  So the program and every process it started
die with us however we die (SIGKILL included), a terminal's Ctrl-C reaches
only us, and :meth:`kill` ends them all at once.  :meth:`close` asks the
program to ``quit`` and ends the group after :data:`QUIT_GRACE` seconds either
way.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .lifetime import killed_with_parent, stop_signals_blocked
from .spec import SpecError

__all__ = ["EngineFailure", "MAX_LINE", "MAX_OUTPUT", "QUIT_GRACE", "UciInfo", "UciOption", "UciProcess",
           "parse_info", "parse_option"]

#: Bytes a program may write between two of our commands before it forfeits (a long search with many
#: ``info`` lines writes well under a megabyte).
MAX_OUTPUT = 16 * 1024 * 1024
#: The longest line a program may write, in bytes.
MAX_LINE = 64 * 1024
#: Seconds a program is given to end after ``quit`` before its process group is killed.
QUIT_GRACE = 1.0
#: The largest count (depth, nodes, nps, time in ms) an ``info`` line may give; a line beyond is ignored.
MAX_COUNT = 10**15
#: The largest score in centipawns, and the longest mate in moves, an ``info`` line may give.
MAX_CENTIPAWNS = 100_000
MAX_MATE = 1_000
#: The guard each program runs under (run by path, with the standard library alone).
GUARD = str(Path(__file__).with_name("uci_guard.py"))
#: Bytes read from the program's output at a time.
_CHUNK = 65536


class EngineFailure(SpecError):
    """An external engine broke the protocol, missed a deadline or died: it loses the game.

    ``reason`` is the short phrase a result records (``timeout``, ``illegal
    move e2e5`` ...); the message names the program and says more."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason

    def __reduce__(self) -> tuple[object, ...]:
        """Both arguments, so that a failure raised in a worker process reaches the parent."""
        return type(self), (self.reason, *self.args), self.__dict__


@dataclass(frozen=True)
class UciOption:
    """An option a program declares (``option name NAME type TYPE ...``)."""

    name: str
    type: str
    default: str | None = None
    min: int | None = None
    max: int | None = None
    var: tuple[str, ...] = ()


@dataclass
class UciInfo:
    """What one ``info`` line says (the fields this project reads)."""

    depth: int | None = None
    seldepth: int | None = None
    nodes: int | None = None
    nps: int | None = None
    time_ms: int | None = None
    multipv: int = 1
    cp: int | None = None
    mate: int | None = None
    pv: list[str] = field(default_factory=list)


_INTEGERS = {"depth": "depth", "seldepth": "seldepth", "nodes": "nodes", "nps": "nps", "time": "time_ms",
             "multipv": "multipv"}
_SKIPPED_ONE = {"hashfull", "tbhits", "cpuload", "currmove", "currmovenumber", "sbhits"}
_INFO_WORDS = set(_INTEGERS) | _SKIPPED_ONE | {"score", "pv", "string", "refutation", "currline", "lowerbound",
                                               "upperbound", "wdl"}


def parse_info(words: list[str]) -> UciInfo | None:
    """The fields of ``info`` line ``words`` (``words[0] == "info"``); ``None`` for a line that is not one
    (a number that is not a number, a score without its value, a count below 0 or beyond
    :data:`MAX_COUNT`, a score beyond :data:`MAX_CENTIPAWNS` or a mate beyond :data:`MAX_MATE`):
    such lines are ignored, as UCI asks."""
    info = UciInfo()
    index = 1
    try:
        while index < len(words):
            word = words[index]
            if word in _INTEGERS:
                value = int(words[index + 1])
                if not 0 <= value <= MAX_COUNT:
                    return None
                setattr(info, _INTEGERS[word], value)
                index += 2
            elif word == "score":
                kind, value = words[index + 1], int(words[index + 2])
                if kind == "cp" and abs(value) <= MAX_CENTIPAWNS:
                    info.cp = value
                elif kind == "mate" and abs(value) <= MAX_MATE:
                    info.mate = value
                else:
                    return None
                index += 3
            elif word == "pv":
                index += 1
                while index < len(words) and words[index] not in _INFO_WORDS:
                    info.pv.append(words[index])
                    index += 1
            elif word == "string":
                break
            elif word in _SKIPPED_ONE:
                index += 2
            else:  # bounds, wdl's numbers, refutation and currline moves, words we do not know
                index += 1
    except (IndexError, ValueError):
        return None
    return info


def parse_option(words: list[str]) -> UciOption | None:
    """The option an ``option name ... type ...`` line declares; ``None`` if it is not one."""
    if "name" not in words or "type" not in words:
        return None
    name_at, type_at = words.index("name"), words.index("type")
    name = " ".join(words[name_at + 1:type_at])
    if not name or type_at + 1 >= len(words):
        return None
    kind = words[type_at + 1].lower()
    fields: dict[str, list[str]] = {}
    current: str | None = None
    for word in words[type_at + 2:]:
        if word in ("default", "min", "max", "var"):
            current = word
            fields.setdefault(word, []).append("")
        elif current is not None:
            fields[current][-1] = (fields[current][-1] + " " + word).strip()

    def number(key: str) -> int | None:
        try:
            return int(fields[key][0]) if key in fields else None
        except ValueError:
            return None

    default = fields.get("default", [None])[0]
    return UciOption(name, kind, default, number("min"), number("max"), tuple(fields.get("var", ())))


class _Ended:
    """The reader's last word: the program's output ended (``flood``: it was cut off for writing too much)."""

    def __init__(self, flood: str | None = None) -> None:
        self.flood = flood


class UciProcess:
    """A UCI program, started and watched (see the module doc).

    ``name`` (the spec's engine name) and ``path`` name it in messages.
    Raises :class:`SpecError` when the program cannot be started."""

    def __init__(self, name: str, path: str) -> None:
        self.name = name
        self.path = path
        self.process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[str | _Ended] = queue.Queue()
        self._received = 0
        self._started = threading.Event()
        self._start_error: OSError | None = None
        self._ended: _Ended | None = None
        self._reader = threading.Thread(target=self._read, name=f"uci-reader-{os.path.basename(path)}",
                                        daemon=True)
        self._reader.start()
        self._started.wait()
        if self._start_error is not None:
            error = self._start_error
            raise SpecError(f"{name}: could not start {path}: {error.strerror or error}") from None

    @property
    def pid(self) -> int | None:
        """The program's process id (``None`` once it is closed)."""
        return self.process.pid if self.process is not None else None

    # ----------------------------------------------------------- the reader
    def _read(self) -> None:
        """Start the program (here, so that it dies when this thread ends) and queue its lines."""
        try:
            # Started with the stop signals blocked: the kernel's SIGTERM waits for the guard's handler.
            with stop_signals_blocked():
                process = self.process = subprocess.Popen(
                    [sys.executable, "-S", "-E", GUARD, self.path], stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True,
                    preexec_fn=killed_with_parent(signal.SIGTERM), bufsize=0)
        except OSError as error:
            self._start_error = error
            self._started.set()
            return
        assert process.stdout is not None and process.stdin is not None
        os.set_blocking(process.stdin.fileno(), False)
        self._started.set()
        out = process.stdout.fileno()
        partial = b""
        flood = None
        while True:
            try:
                chunk = os.read(out, _CHUNK)
            except OSError:
                break
            if not chunk:
                break
            self._received += len(chunk)
            if self._received > MAX_OUTPUT:
                flood = f"output over {MAX_OUTPUT:,} bytes"
                break
            *lines, partial = (partial + chunk).split(b"\n")
            if len(partial) > MAX_LINE or any(len(line) > MAX_LINE for line in lines):
                flood = f"a line over {MAX_LINE:,} bytes"
                break
            for line in lines:
                self._lines.put(line.decode("utf-8", "replace").strip())
        if flood is not None:
            _end(process)
        try:
            process.stdout.close()
        except OSError:
            pass
        self._lines.put(_Ended(flood))
        # This thread started the guard, whose death signal comes when the thread ends: it waits for
        # the guard, so that a program that ended is reported with its own status, not the signal's.
        process.wait()

    # ----------------------------------------------------------- commands
    def send(self, line: str, deadline: float | None = None) -> None:
        """Write ``line`` to the program (its output budget starts again); a full pipe it stops reading
        is a ``timeout`` by ``deadline``, a closed one the program's death."""
        if self.process is None:
            raise RuntimeError(f"this {self.name} engine is closed")
        self._received = 0
        data = (line + "\n").encode()
        assert self.process.stdin is not None
        fd = self.process.stdin.fileno()
        limit = deadline if deadline is not None else time.monotonic() + QUIT_GRACE
        while data:
            try:
                data = data[os.write(fd, data):]
            except BlockingIOError:
                if time.monotonic() > limit:
                    raise self.fail("timeout", "timed out (it stopped reading its input)") from None
                time.sleep(0.005)
            except (BrokenPipeError, OSError):
                raise self.crashed() from None

    def next_line(self, deadline: float, poll: Callable[[], float | None] | None = None) -> str:
        """The program's next line by ``deadline`` (``time.monotonic()``).  ``poll`` is called before
        each wait of at most 10 ms (it may raise, or send ``stop`` and return an earlier deadline).
        A ``timeout``, ``engine crashed`` or flood :class:`EngineFailure` when no line comes."""
        while True:
            if self._ended is not None:
                raise self._ended_failure()
            if poll is not None:
                sooner = poll()
                if sooner is not None:
                    deadline = min(deadline, sooner)
            left = deadline - time.monotonic()
            if left <= 0:
                raise self.fail("timeout", "timed out (no answer by its deadline)")
            try:
                item = self._lines.get(timeout=min(left, 0.01) if poll is not None else left)
            except queue.Empty:
                continue
            if isinstance(item, _Ended):
                self._ended = item
                continue
            return item

    def expect(self, word: str, deadline: float, collect: Callable[[list[str]], None] | None = None) -> None:
        """Read lines until one starting with ``word``, giving the others to ``collect`` (split)."""
        while True:
            words = self.next_line(deadline).split()
            if words and words[0] == word:
                return
            if words and collect is not None:
                collect(words)

    # ----------------------------------------------------------- failures
    def fail(self, reason: str, detail: str) -> EngineFailure:
        """The program forfeits for ``reason``: it is killed, and the failure says why."""
        self.kill()
        return EngineFailure(reason, f"{self.name}: {self.path} {detail}")

    def crashed(self) -> EngineFailure:
        """The failure for a program that ended (with its exit status when it is known)."""
        status = None
        if self.process is not None:
            try:
                status = self.process.wait(timeout=QUIT_GRACE)
            except subprocess.TimeoutExpired:  # its output closed but it runs on: end it
                pass
        how = "" if status is None else f" (exit status {status})" if status >= 0 else f" (signal {-status})"
        return self.fail("engine crashed", f"died{how}")

    def _ended_failure(self) -> EngineFailure:
        assert self._ended is not None
        if self._ended.flood is not None:
            return self.fail(self._ended.flood, f"flooded its output ({self._ended.flood})")
        return self.crashed()

    # ----------------------------------------------------------- the end
    def kill(self) -> None:
        """End the program and every process it started, at once (idempotent)."""
        process = self.process
        if process is None:
            return
        _end(process)
        try:
            if process.stdin is not None:
                process.stdin.close()
        except OSError:
            pass
        self.process = None

    def close(self) -> None:
        """Ask the program to ``quit``; kill its process group after :data:`QUIT_GRACE` s either way."""
        process = self.process
        if process is None:
            return
        try:
            self.send("quit")
            process.wait(timeout=QUIT_GRACE)
        except (EngineFailure, subprocess.TimeoutExpired, RuntimeError):
            pass
        self.kill()


def _end(guard: subprocess.Popen[bytes]) -> None:
    """End the program and everything it started: SIGTERM to its guard, which kills the program's
    process group and exits (:mod:`engines.uci_guard`); SIGKILL to the guard if it has not by then."""
    try:
        guard.send_signal(signal.SIGTERM)
        guard.wait(timeout=QUIT_GRACE)
    except subprocess.TimeoutExpired:
        guard.kill()
        guard.wait()
    except (ProcessLookupError, PermissionError):
        pass
