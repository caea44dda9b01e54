"""Chess opening books in EPD: one position a line, read by python-chess.

An EPD line is the first four fields of a FEN (placement, side to move,
castling, en passant) and then operations: ``id "name";``, ``hmvc 0;`` ...
(``Board.set_epd`` reads them).  A book of them starts each game at a
position instead of after moves: the line's ``id`` (or its ``c0`` comment)
labels it.  Lines starting with ``#`` and blank lines are skipped.
"""

from __future__ import annotations

import re
from typing import ClassVar

import chess

from ..books import BookError, BookFormat, BookLine

__all__ = ["EPD"]

#: The placement field of a FEN: eight ranks of pieces and digits.
_PLACEMENT = re.compile(r"^(?:[pnbrqkPNBRQK1-8]{1,8}/){7}[pnbrqkPNBRQK1-8]{1,8}\s+[wb]\b")


def _rows(text: str) -> list[tuple[int, str]]:
    return [(row, line.strip()) for row, line in enumerate(text.splitlines(), 1)
            if line.strip() and not line.lstrip().startswith("#")]


class EPD(BookFormat):
    """Extended Position Description: a book of start positions."""

    name: ClassVar[str] = "EPD"

    def recognises(self, text: str) -> bool:
        rows = _rows(text)
        return bool(rows) and _PLACEMENT.match(rows[0][1]) is not None

    def read(self, text: str) -> list[BookLine]:
        lines = []
        for row, line in _rows(text):
            board = chess.Board()
            try:
                operations = board.set_epd(line)
            except ValueError as error:
                raise BookError(f"line {row}: not an EPD position ({' '.join(str(error).split())[:100]})") from None
            label = operations.get("id", operations.get("c0", ""))
            lines.append(BookLine((), board.fen(), str(label) if isinstance(label, str) else "", row=row))
        return lines
