"""Reading the lines of a file from elsewhere, each at most a cap long.

A reader that takes a line whole, however long, holds a 3 GB line in memory
(and more while it is decoded).  :func:`capped_lines` reads a stream -- a
file, a ``.zst`` file decompressed as a stream, standard input -- a line at a
time with ``readline(cap)``: it never holds more than the cap and a buffer.
A line over the cap is refused in one line naming the file, the line number
and the cap (:func:`long_line`), or, for a reader that goes on (UCI), told to
``overlong`` and skipped unread.  :func:`first_long_line` checks a text
already read whole (a record file, a book, a puzzle set: bounded by its
loader's size limit) in one linear pass; :func:`games.files.read_text` does
so for every text file it reads.  A CSV record may go on over several lines
(a quoted field holding newlines): :class:`RecordBudget` caps a record as a
whole, so that thousands of short lines cannot make one endless row.

The cap counts the bytes of a line before its newline.  :data:`MAX_LINE` is
the cap of every text file unless its reader names its own.
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator, Protocol

__all__ = ["MAX_LINE", "LineSource", "RecordBudget", "capped_lines", "first_long_line", "long_line"]

#: The longest line of any text file read (a PGN game's moves on one line are a few kilobytes).
MAX_LINE = 1 << 20
_CHUNK = 1 << 16


class LineSource(Protocol):
    """What lines are read from: a binary stream with a ``readline`` that takes a size."""

    def readline(self, size: int = -1, /) -> bytes: ...


def long_line(where: str, number: int, cap: int) -> str:
    """The one line that refuses line ``number`` of ``where`` for being over ``cap`` bytes."""
    return f"{where}:{number}: a line over {cap:,} bytes; refused"


def capped_lines(source: LineSource, where: str, error: type[ValueError], cap: int = MAX_LINE,
                 overlong: Callable[[int], None] | None = None) -> Iterator[bytes]:
    """The lines of ``source`` (each with its newline, the last one perhaps without), none
    over ``cap`` bytes, read without ever holding more.  A longer line raises ``error``
    (:func:`long_line`), or, given ``overlong``, is told to it by number and skipped."""
    number = 0
    while True:
        line = source.readline(cap + 2)
        if not line:
            return
        number += 1
        ended = line.endswith(b"\n")
        if len(line) - ended <= cap:
            yield line
            continue
        if overlong is None:
            raise error(long_line(where, number, cap))
        overlong(number)
        while not ended:  # the rest of the line, a chunk at a time, dropped
            rest = source.readline(_CHUNK)
            ended = not rest or rest.endswith(b"\n")


def first_long_line(data: bytes, cap: int = MAX_LINE) -> int | None:
    """The number of the first line of ``data`` over ``cap`` bytes, or ``None``: one pass,
    each step a search of at most ``cap`` bytes that moves on by a whole line or more."""
    start = 0
    while len(data) - start > cap:
        newline = data.rfind(b"\n", start, start + cap + 1)
        if newline < 0:
            return data.count(b"\n", 0, start) + 1
        start = newline + 1
    return None


class RecordBudget:
    """The lines a ``csv.reader`` reads, a record at most ``cap`` characters however many lines it
    spans (a quoted field may hold newlines): the reader's caller calls :meth:`spent` after each
    record, and a record that grows past the cap raises ``error`` naming its first line."""

    def __init__(self, lines: Iterable[str], where: str, error: type[ValueError], cap: int) -> None:
        self.lines, self.where, self.error, self.cap = lines, where, error, cap
        self.used = self.number = 0
        self.first = 1

    def __iter__(self) -> Iterator[str]:
        for line in self.lines:
            self.number += 1
            self.used += len(line)
            if self.used > self.cap:
                raise self.error(f"{self.where}:{self.first}: a record over {self.cap:,} characters "
                                 f"(a quoted field left open?); refused")
            yield line

    def spent(self) -> None:
        """A record was read: the next one starts on the next line, with the whole cap."""
        self.used, self.first = 0, self.number + 1
