"""Whether the processes a test started have all ended (for the Ctrl-C and lifetime tests)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Iterator


def alive_in_group(pgid: int) -> list[int]:
    """The processes of group ``pgid`` still running: a zombie has ended (only
    its reaping by init, which may take a second in a container, is pending)."""
    return [pid for pid, fields in _running_stats() if int(fields[2]) == pgid]


def children(pid: int) -> list[int]:
    """The running processes whose parent is ``pid`` (a UCI program runs in a session of its
    own, so it is not in the command's group)."""
    return [child for child, fields in _running_stats() if int(fields[1]) == pid]


def descendants(pid: int) -> list[int]:
    """The running processes below ``pid``: its children, theirs, and so on."""
    found, frontier = [], [pid]
    while frontier:
        below = [child for parent in frontier for child in children(parent)]
        found += below
        frontier = below
    return found


def marked(mark: str) -> dict[int, str]:
    """The running processes whose environment holds ``mark`` (``NAME=value``), with their command
    lines: a test that starts a command with a mark of its own finds everything it started that way,
    in whatever session or group, orphans adopted by init included."""
    wanted = mark.encode() + b"\0"
    found = {}
    for pid in [pid for pid, _ in _running_stats()]:
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes()
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if (b"\0" + environ).find(b"\0" + wanted) >= 0 and running(pid):
            found[pid] = command.replace(b"\0", b" ").decode(errors="replace").strip()
    return found


def signal_mask(pid: int, kind: str = "SigBlk") -> int:
    """A signal mask of process ``pid`` (bit ``n - 1`` for signal ``n``): the signals its main thread
    blocks (``SigBlk``), or those it ignores (``SigIgn``) or catches (``SigCgt``).  An OSError once it
    is gone."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{kind}:"):
            return int(line.split()[1], 16)
    raise ValueError(f"no {kind} in /proc/{pid}/status")


def running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return _fields(stat)[0] != "Z"


def _fields(stat: str) -> list[str]:
    """The fields of a ``/proc/PID/stat`` after the command's name: state, ppid, pgrp, ..."""
    return stat[stat.rindex(")") + 2:].split()


def _running_stats() -> Iterator[tuple[int, list[str]]]:
    """Each running (not zombie) process's pid and its stat fields."""
    for pid, stat in _proc_files("stat"):
        fields = _fields(stat)
        if fields[0] != "Z":
            yield pid, fields


def _proc_files(name: str) -> Iterator[tuple[int, str]]:
    """Each running process's pid and its file ``/proc/PID/name`` (those that can be read)."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                yield int(entry.name), (entry / name).read_text()
            except OSError:
                continue


def group_gone(pgid: int, within: float = 2.0) -> bool:
    """Whether every process of group ``pgid`` ends within ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        if Path("/proc/self/stat").exists() and not alive_in_group(pgid):
            return True
        time.sleep(0.05)
    return False


#: Where POSIX semaphores (``sem.NAME``) and shared memory blocks (``psm_...``) live on Linux.
SHM = Path("/dev/shm")


def shm_files() -> set[str]:
    """The names in /dev/shm now (empty where there is none)."""
    try:
        return {entry.name for entry in SHM.iterdir()}
    except OSError:
        return set()


def leaked_shm(before: set[str], pid: int, within: float = 5.0) -> list[str]:
    """Semaphores and shared memory blocks made since ``before`` that no running
    process maps: left behind by a process that died.  Loky's semaphores name
    the process that made them (``sem.loky-PID-...``): only ``pid``'s count, so
    that another run's leak on a shared machine is not blamed on this one; the
    standard library's (``sem.mp-...``, ``psm_...``) name none, and a block some
    other process still uses is mapped by it, and is not counted.  A run's
    resource tracker frees what its processes left once they are all gone, a
    moment after the run ends (later on a loaded machine): what is still there
    ``within`` seconds is leaked."""
    deadline = time.monotonic() + within
    while (leaked := _unmapped_since(before, pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return leaked


def _unmapped_since(before: set[str], pid: int) -> list[str]:
    """What :func:`leaked_shm` counts, now."""
    new = {name for name in shm_files() - before
           if name.startswith(("sem.mp-", "psm_", f"sem.loky-{pid}-"))}
    if not new:
        return []
    for _, maps in _proc_files("maps"):
        new = {name for name in new if f"{SHM}/{name}" not in maps}
    return sorted(name for name in new if (SHM / name).exists())
