"""The app as a child process in a pseudo-terminal, for the key-echo benchmark.

:class:`AppProcess` starts ``python -m tui.cli ARGS`` in a pty of a given
size, reads its output as it comes, writes keys, and ends it and every process
it started; the ``/proc`` helpers find a process group's members and CPU time.
"""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
from typing import Sequence

__all__ = ["APP_COMMAND", "SIZE", "QUIT_KEY", "AppProcess", "screen_text", "cpu_seconds", "group_pids"]


#: ctrl+q: quit the app.
QUIT_KEY = b"\x11"
#: How the app is started (the arguments of ``tui-games`` follow).
APP_COMMAND: tuple[str, ...] = (sys.executable, "-m", "tui.cli")
#: The terminal's size: columns, rows.
SIZE = (120, 40)
#: Seconds to wait for the app to quit.
QUIT_TIMEOUT = 10.0
#: Escape sequences: CSI, OSC (ended by BEL or ST), DCS/SOS/PM/APC strings, two-byte escapes.
_ESCAPES = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[PX^_][^\x1b]*\x1b\\|[ -~])"
)


def screen_text(data: bytes) -> str:
    """``data`` as text with every escape sequence replaced by one NUL separator."""
    return _ESCAPES.sub("\x00", data.decode("utf-8", errors="replace"))


# --------------------------------------------------------------- /proc helpers
def _stat_fields(pid: int) -> list[str] | None:
    """Fields of ``/proc/PID/stat`` after the command name (state first), or ``None``."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            text = f.read().decode("ascii", errors="replace")
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def group_pids(pgid: int) -> list[int]:
    """Live (not zombie) processes of process group ``pgid``; empty without ``/proc``."""
    found = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit():
            continue
        fields = _stat_fields(int(name))
        if fields is not None and fields[0] != "Z" and int(fields[2]) == pgid:
            found.append(int(name))
    return sorted(found)


def _group_alive(pgid: int) -> bool:
    """Whether any process of group ``pgid`` still runs."""
    if os.path.isdir("/proc"):
        return bool(group_pids(pgid))
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of ``pid`` so far, or ``None``."""
    fields = _stat_fields(pid)
    if fields is None:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ------------------------------------------------------------------- the app
class AppProcess:
    """``python -m tui.cli ARGS`` (or ``command ARGS``) in a pseudo-terminal, its output read as it comes.

    Everything the app writes is appended to :attr:`output`; :meth:`read`
    returns when a chunk arrived (with the time it was read) or the timeout
    passed.  The app runs in a new session, so it and the processes it starts
    form one process group (:attr:`pid` is its id) that :meth:`quit` checks.
    """

    def __init__(self, args: Sequence[str], size: tuple[int, int] = SIZE,
                 command: Sequence[str] | None = None) -> None:
        import fcntl
        import struct
        import termios

        self.args = tuple(args)
        #: What runs the command line (another program can stand in, e.g. a profiling wrapper).
        self.command = tuple(command) if command is not None else APP_COMMAND
        self.output = bytearray()
        self.eof = False
        master, slave = os.openpty()
        try:
            columns, rows = size
            fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
            env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "TEXTUAL")}
            env["TERM"] = "xterm-256color"
            self.process = subprocess.Popen(
                [*self.command, *self.args],
                stdin=slave, stdout=slave, stderr=slave, env=env,
                start_new_session=True, close_fds=True,
            )
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        self.master = master

    @property
    def pid(self) -> int:
        return self.process.pid

    def read(self, timeout: float) -> float | None:
        """Wait up to ``timeout`` s for output; the time it was read, or ``None``."""
        if self.eof:
            time.sleep(max(0.0, timeout))
            return None
        ready, _, _ = select.select([self.master], [], [], max(0.0, timeout))
        if not ready:
            return None
        try:
            data = os.read(self.master, 1 << 16)
        except OSError:  # EIO: every process holding the terminal has closed it
            data = b""
        now = time.perf_counter()
        if not data:
            self.eof = True
            return None
        self.output += data
        return now

    def pump(self, seconds: float) -> None:
        """Read whatever arrives for ``seconds``."""
        deadline = time.perf_counter() + seconds
        while (left := deadline - time.perf_counter()) > 0:
            self.read(left)

    def wait_for(self, text: str, timeout: float, start: int = 0) -> bool:
        """Read until ``text`` is on screen (in the output from ``start``); whether it came."""
        deadline = time.perf_counter() + timeout
        while text not in screen_text(bytes(self.output[start:])):
            left = deadline - time.perf_counter()
            if left <= 0 or self.eof:
                return False
            self.read(min(left, 0.1))
        return True

    def write(self, data: bytes) -> float:
        """Type ``data``; the time just before it was written."""
        now = time.perf_counter()
        os.write(self.master, data)
        return now

    def tail(self, characters: int = 400) -> str:
        """The end of the screen text, escapes removed: for error messages."""
        text = screen_text(bytes(self.output[-20000:])).replace("\x00", "")
        return " ".join(text.split())[-characters:]

    def quit(self, timeout: float = QUIT_TIMEOUT) -> tuple[int | None, list[str]]:
        """ctrl+q, then wait for the app and its process group; kill what is left.

        Returns the app's exit status (``None`` if it had to be killed) and what
        had to be killed, described for the report (empty: everything exited).
        """
        killed: list[str] = []
        status: int | None = None
        if self.process.poll() is None and not self.eof:
            try:
                self.write(QUIT_KEY)
            except OSError:
                pass
        deadline = time.perf_counter() + timeout
        while self.process.poll() is None and time.perf_counter() < deadline:
            self.read(min(0.05, max(0.0, deadline - time.perf_counter())))
        if self.process.poll() is None:
            killed.append(f"app (pid {self.pid})")
            self.process.kill()
            self.process.wait()
        else:
            status = self.process.returncode
        while _group_alive(self.pid) and time.perf_counter() < deadline:
            self.read(0.05)
        leftover = group_pids(self.pid)
        if _group_alive(self.pid):
            killed.append("processes of the app's group" + (f" {leftover}" if leftover else ""))
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        os.close(self.master)
        return status, killed

    def kill(self) -> None:
        """Kill the app's whole process group at once (after a failure)."""
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()
        try:
            os.close(self.master)
        except OSError:
            pass
