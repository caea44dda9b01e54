"""How a refused run says what the user can do: :class:`Remedy`, carried by :class:`RunError`.

A match, tournament, experiment or dataset that cannot start (its output
holds something, another run is writing it, ...) is refused with a one-line
:class:`RunError` in the engines' words, without the command line's flags;
what the user can do about it is data -- a :class:`Remedy` (and, for
:attr:`Remedy.GAMES`, the number of games).  Each front end words it in its
own terms: the command line with its flags (``add --resume ...``, ``choose
another --out``), the app's lab screen with its fields and buttons.
"""

from __future__ import annotations

import enum
import errno

__all__ = ["Remedy", "RunError", "write_failure"]

#: Why a write failed, for the errors a full disk or a limit gives (the system's words are terse: a
#: file over ``ulimit -f`` is "File too large").
_WRITE_FAILURES = {
    errno.ENOSPC: "the disk is full",
    errno.EFBIG: "the file size limit is reached (ulimit -f)",
    errno.EDQUOT: "the disk quota is reached",
}


class Remedy(enum.Enum):
    """What the user can do about a refused run."""

    #: The output already holds games of this run: finish them (resume), or choose another output.
    RESUME = "resume"
    #: The output holds something else (another match, another experiment, data): choose another output.
    OTHER_OUTPUT = "other output"
    #: Another run is writing the output: wait until it ends (then resume), or choose another output.
    WAIT = "wait"
    #: The output's run plays another number of games an arm (the error's ``games``): resume it with
    #: that number, or choose another output.
    GAMES = "games"
    #: The results and the game records would be one file: give each a file of its own.
    SEPARATE_FILES = "separate files"
    #: No random opening of that many plies leaves the game going: ask for fewer plies.
    FEWER_OPENING_PLIES = "fewer opening plies"
    #: Every line of the opening book is marked lost: ask for the lost lines too, or choose another book.
    INCLUDE_LOST = "include lost lines"


class RunError(ValueError):
    """A refused run: the message is one line; ``remedy`` (a :class:`Remedy`
    or ``None``) says what the user can do, ``games`` the number of games
    :attr:`Remedy.GAMES` asks for."""

    def __init__(self, message: str, *, remedy: Remedy | None = None, games: int | None = None) -> None:
        super().__init__(message)
        self.remedy = remedy
        self.games = games


def write_failure(error: OSError) -> str:
    """Why a write failed, in a few words: a full disk (ENOSPC), the file size limit (EFBIG), the disk
    quota (EDQUOT), else the system's own words."""
    return _WRITE_FAILURES.get(error.errno or 0) or error.strerror or str(error)
