"""Whether the processes a test started have all ended (for the Ctrl-C and lifetime tests)."""

from __future__ import annotations

import os
import time
from pathlib import Path


def alive_in_group(pgid: int) -> list[int]:
    """The processes of group ``pgid`` still running: a zombie has ended (only
    its reaping by init, which may take a second in a container, is pending)."""
    alive = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()  # state, ppid, pgrp, ...
            if int(fields[2]) == pgid and fields[0] != "Z":
                alive.append(int(entry.name))
    return alive


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
