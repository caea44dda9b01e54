"""The English checkers ballots: the three-move openings tournaments draw, as a book.

The file (``games/checkers/books/ballots.txt``, shipped as the book
``ballots``) starts with the line ``# tui-games ballots``, then ``#``
comments (the source and its licence), then one ballot a line: its number,
its moves in PDN squares, and ``lost`` when the ballot gives one side a lost
game with best play::

    001 9-13 21-17 5-9
    003 9-13 21-17 10-14 lost

The data come from pydraughts (MIT licence, see ``books/LICENSE-pydraughts``),
written in this format of our own.
"""

from __future__ import annotations

import re
from typing import ClassVar

from ..books import BookError, BookFormat, BookLine, ShippedBook

__all__ = ["BALLOTS", "Ballots", "HEADER"]

#: The first line of a ballots file.
HEADER = "# tui-games ballots"
_BALLOT = re.compile(r"^([0-9]+)\s+((?:[0-9]+[-x][0-9x-]*\s*)+?)\s*(lost)?\s*$")

#: The book as shipped.
BALLOTS = ShippedBook("ballots", "games.checkers", "books/ballots.txt",
                      "the 174 three-move ballots of English checkers, 17 of them marked lost (pydraughts, MIT)")


class Ballots(BookFormat):
    """The checkers ballots file (see the module doc)."""

    name: ClassVar[str] = "the checkers ballots"

    def recognises(self, text: str) -> bool:
        return text.lstrip().startswith(HEADER)

    def read(self, text: str) -> list[BookLine]:
        lines = []
        for row, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            match = _BALLOT.match(line)
            if match is None:
                raise BookError(f"line {row}: expected a ballot like '001 9-13 21-17 5-9' (and 'lost' for a "
                                f"lost one), got {line[:40]!r}")
            lines.append(BookLine(tuple(match.group(2).split()), None, f"ballot {match.group(1)}",
                                  match.group(3) is not None, row))
        return lines
