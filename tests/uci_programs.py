"""Where the real UCI programs some tests play against are, if this machine has them."""

from __future__ import annotations

import os
import shutil

import engines.stockfish


def sunfish() -> str | None:
    """sunfish's UCI program (``pip install sunfish`` in a virtual environment of its own):
    ``$TUI_GAMES_SUNFISH``, ``sunfish-uci`` on the PATH, or ``/work/sunfish-venv``'s."""
    for candidate in (os.environ.get("TUI_GAMES_SUNFISH"), shutil.which("sunfish-uci"),
                      "/work/sunfish-venv/bin/sunfish-uci"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def stockfish() -> str | None:
    """A Stockfish binary on the PATH or where Debian's package puts it."""
    return shutil.which("stockfish") or (
        engines.stockfish.DEBIAN_PATH if os.access(engines.stockfish.DEBIAN_PATH, os.X_OK) else None)
