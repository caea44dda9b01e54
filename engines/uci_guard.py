"""The guard a UCI program runs under: when we go, its whole process group goes.

Run as ``python -S -E uci_guard.py PROGRAM`` by :class:`engines.uci_client.UciProcess`
(standard library only, nothing of ours imported, so it starts in a few
milliseconds).  The guard forks the program into a process group of its own
(its pipes are the guard's standard input and output, which the guard then
lets go of), and waits for it:

- the program ends: the guard kills what is left of its group (children it
  left behind) and exits with the program's status (a program killed by a
  signal, the guard by the same signal);
- the guard gets SIGTERM or SIGHUP -- from :meth:`UciProcess.kill`, or from
  the kernel when the thread that started it ends
  (``PR_SET_PDEATHSIG``: our process died, however it died): it kills the
  program's whole group with SIGKILL and exits.

The guard holds those signals until its handlers are in place, then unblocks
every signal, whatever mask it was started with; the program starts with no
signal blocked and every action at its default, as from a shell.

The guard is a child subreaper (``PR_SET_CHILD_SUBREAPER``): a process the
program started that left its group (``setsid``) and was orphaned becomes the
guard's child, and is killed with the rest.  The program is also told to die
with the guard (``PR_SET_PDEATHSIG``), should the guard itself be killed
outright.
"""

import ctypes
import os
import signal
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
#: The signals that end the guard (SIGINT it ignores: a terminal's Ctrl-C is for the command).
STOPS = {signal.SIGTERM, signal.SIGHUP, signal.SIGINT}
#: The signals whose action the program gets back to the default (Python ignores SIGPIPE and SIGXFSZ,
#: and a worker that started the guard ignores the stop signals: ignored signals stay so across exec).
RESET = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGPIPE, signal.SIGXFSZ)


def _prctl(option: int, value: int) -> None:
    try:
        ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the guard's signals still end the group
        pass


def _end_all(child: int) -> None:
    """Kill the program's group, then every process left to the guard (orphans that left the group),
    until the group is gone and no process but the guard's zombies is left (2 s at most)."""
    me = str(os.getpid())
    for _ in range(2000):
        try:
            os.killpg(child, signal.SIGKILL)
            group = True
        except OSError:
            group = False
        left = _orphans(me)
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:  # reap what was killed
                pass
        except ChildProcessError:
            pass
        if not group and not left:
            return
        time.sleep(0.001)


def _orphans(me: str) -> list[int]:
    """The running processes whose parent is the guard."""
    found: list[int] = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if fields[1] == me and fields[0] != "Z":
                found.append(int(entry))
    return found


def main() -> None:
    program = sys.argv[1]
    guard = os.getpid()
    # Held until the handlers are in place (the guard may also have been started with them blocked, or
    # ignored, by a worker): a SIGTERM that comes meanwhile runs the handler as they are unblocked.
    signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    child = os.fork()
    if child == 0:
        os.setpgid(0, 0)
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != guard:
            os._exit(1)
        for sig in RESET:  # the program starts as from a shell: default actions, nothing blocked
            signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, ())
        try:
            os.execv(program, [program])
        except OSError as error:
            os._exit(126 if error.errno != 2 else 127)

    def end(*_: object) -> None:
        _end_all(child)
        os._exit(128 + signal.SIGTERM)

    try:
        os.setpgid(child, child)  # also here: no race with a kill before the child's own call
    except OSError:
        pass
    signal.signal(signal.SIGTERM, end)
    signal.signal(signal.SIGHUP, end)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_SETMASK, ())
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    while True:
        try:
            _, status = os.waitpid(child, 0)
            break
        except ChildProcessError:
            status = 0
            break
        except InterruptedError:
            continue
    _end_all(child)  # what the program left behind
    code = os.waitstatus_to_exitcode(status)
    if code < 0:
        try:
            signal.signal(-code, signal.SIG_DFL)
        except (OSError, ValueError):  # SIGKILL, SIGSTOP: default already
            pass
        os.kill(guard, -code)
    os._exit(code)


if __name__ == "__main__":
    main()
