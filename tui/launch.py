"""The ``tui-games`` console script: the command line, with Ctrl-C during its start quiet.

Loading the command line imports NumPy, scikit-learn's parts and every game and
engine, which takes a few tenths of a second; a Ctrl-C meanwhile would print
Python's traceback of an import.  This module imports nothing heavy itself, so it
can turn that into the command line's own answer to Ctrl-C: exit status 130,
no traceback.  (Once loaded, every command handles Ctrl-C itself.)
"""

from __future__ import annotations

import sys

__all__ = ["main"]

#: The exit status of a run ended by Ctrl-C (128 + SIGINT).
INTERRUPTED = 130


def main() -> int:
    """Load the command line and run it; a Ctrl-C while it loads exits 130 quietly."""
    try:
        from tui.cli.main import main as run
    except KeyboardInterrupt:
        print("tui-games: interrupted while starting", file=sys.stderr)
        return INTERRUPTED
    return run()


if __name__ == "__main__":  # pragma: no cover - python -m tui.launch
    sys.exit(main())
