"""Puzzles in the lichess format: read a lichess puzzle CSV a row at a time, write one.

Lichess's puzzle database is a CSV with the columns :data:`COLUMNS`.  ``FEN`` is the
position BEFORE the opponent's move, and ``Moves`` (UCI, separated by spaces) starts
with that move; the rest is the solution, ending on the player's move.  A row becomes
a :class:`~engines.puzzles.Puzzle` (:func:`puzzle_of_row`): the id ``lichess:ID``, the
setting-up move, the solution, the rating, the themes, the game's URL as its source.

:func:`read_lichess` reads rows one at a time from any iterable of lines (a file, or a
``.zst`` file decompressed as a stream: :func:`open_csv`, :func:`lichess_lines`), so the
whole database -- five million rows -- is never held in memory; a bad row (a bad FEN, an
illegal move, a rating that is not a number, too few columns) is reported with its line
number and skipped.  A line over :data:`MAX_ROW` bytes is not a row of the database: it
refuses the file (:class:`LichessFileError`, naming the line), read no further than the cap.  :func:`lichess_row` writes a puzzle back in the same format (chess moves in
UCI; a move's own spaces as ``_`` for the other games).  Our own puzzles without a
setting-up move are written with ``Moves`` starting at the player's move (an odd number
of moves), and such a row reads back the same way.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import IO, Callable, Iterable, Iterator

from games import Game, new_game
from games.lines import LineSource, RecordBudget, capped_lines

from .puzzles import MAX_RATING, Puzzle

__all__ = ["COLUMNS", "HEADER_LINE", "MAX_ROW", "read_lichess", "puzzle_of_row", "lichess_row", "open_csv",
           "lichess_lines", "LichessError", "LichessFileError", "move_token"]

#: The lichess puzzle CSV's columns, in order.
COLUMNS = ("PuzzleId", "FEN", "Moves", "Rating", "RatingDeviation", "Popularity", "NbPlays", "Themes", "GameUrl",
           "OpeningTags")
HEADER_LINE = ",".join(COLUMNS)
#: The longest field read (a FEN is under 100 characters; a line of moves a few hundred).
MAX_FIELD = 2_000
#: The longest line read (a lichess row is a few hundred bytes; ten fields of :data:`MAX_FIELD` fit).
MAX_ROW = 32 * 1024


class LichessError(ValueError):
    """A row that is not a puzzle (one line, without its line number)."""


class LichessFileError(ValueError):
    """A file that cannot be imported at all (one line naming the file, and the line where it says)."""


def open_csv(path: Path) -> Iterator[str]:
    """The lines of the file at ``path`` (:func:`lichess_lines`).  Raises :class:`OSError`."""
    return lichess_lines(open(path, "rb"), path.name, str(path))


def lichess_lines(raw: IO[bytes], name: str, where: str, cap: int = MAX_ROW) -> Iterator[str]:
    """The lines of the binary stream ``raw`` as text, decompressed as a stream when ``name`` ends
    in ``.zst`` (the ``zstandard`` package) and closed at the end; bytes that are not UTF-8 read as
    U+FFFD.  A line over ``cap`` bytes is a :class:`LichessFileError` naming ``where`` and the line,
    read no further than the cap (decompressed a chunk at a time)."""
    source: LineSource = raw
    if name.endswith(".zst"):
        import zstandard

        source = io.BufferedReader(zstandard.ZstdDecompressor().stream_reader(raw, closefd=True))
    with raw:
        for line in capped_lines(source, where, LichessFileError, cap):
            yield line.decode("utf-8", errors="replace")


def move_token(game: Game, move: object) -> str:
    """A move's text in a lichess row: UCI where the game's moves have it (chess), else the
    game's own text with its spaces as ``_``."""
    uci = getattr(move, "uci", None)
    return uci() if callable(uci) else game.format_move(move).replace(" ", "_")


def puzzle_of_row(row: list[str], game_name: str) -> Puzzle:
    """The puzzle of one row (:data:`COLUMNS`; at least the first four and Themes, GameUrl
    may be missing); :class:`LichessError` says what is wrong."""
    if len(row) < 4:
        raise LichessError(f"{len(row)} columns, expected {len(COLUMNS)} ({HEADER_LINE})")
    if any(len(field) > MAX_FIELD for field in row):
        raise LichessError(f"a field longer than {MAX_FIELD} characters")
    ident, position, moves = row[0].strip(), row[1].strip(), row[2].split()
    if not ident or any(char.isspace() for char in ident):
        raise LichessError(f"bad puzzle id {ident[:30]!r}")
    try:
        game = new_game(game_name, position)
    except ValueError as error:
        said = str(error).splitlines()[0][:140]
        raise LichessError(said if said.lower().startswith("bad fen") else f"bad FEN {position[:90]!r}: {said}") from None
    if not moves:
        raise LichessError("no moves")
    for ply, text in enumerate(moves, 1):
        if game.outcome() is not None:
            raise LichessError(f"the game is over before move {ply} ({text[:20]})")
        try:
            game.play_text(text.replace("_", " "))
        except ValueError as error:
            raise LichessError(f"move {ply}: {str(error).splitlines()[0][:120]}") from None
    try:
        rating = int(row[3])
    except ValueError:
        raise LichessError(f"the rating {row[3][:20]!r} is not a whole number") from None
    if not 0 <= rating <= MAX_RATING:
        raise LichessError(f"the rating {rating} is not between 0 and {MAX_RATING}")
    texts = tuple(text.replace("_", " ") for text in moves)
    setup, solution = (texts[0], texts[1:]) if len(texts) % 2 == 0 else (None, texts)
    themes = tuple(row[7].split()) if len(row) > 7 else ()
    source = row[8].strip() if len(row) > 8 else ""
    return Puzzle(ident if ":" in ident or "-" in ident else f"lichess:{ident}", position, setup, solution, rating,
                  themes, source)


def read_lichess(lines: Iterable[str], game_name: str,
                 bad: Callable[[int, str], None] | None = None, where: str = "the CSV") -> Iterator[Puzzle]:
    """The puzzles of a lichess CSV's lines, one row at a time; a header row is skipped, and a
    bad row is told to ``bad`` (its line number, what is wrong) and skipped.  A row over
    :data:`MAX_ROW` characters, over however many lines, is a :class:`LichessFileError` naming
    ``where`` and its line."""
    budget = RecordBudget(lines, where, LichessFileError, MAX_ROW)
    reader = csv.reader(budget)
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            budget.spent()
            if bad is not None:
                bad(reader.line_num, f"not CSV: {str(error).splitlines()[0][:100]}")
            continue
        budget.spent()
        if not row or (row[0] == COLUMNS[0] and reader.line_num == 1):
            continue
        try:
            yield puzzle_of_row(row, game_name)
        except LichessError as error:
            if bad is not None:
                bad(reader.line_num, str(error))


def lichess_row(puzzle: Puzzle, game_name: str) -> str:
    """One puzzle as a line of a lichess CSV (RatingDeviation, Popularity, NbPlays and
    OpeningTags left empty where we have none)."""
    game = puzzle.start(game_name)
    moves = []
    for text in ((puzzle.setup,) if puzzle.setup is not None else ()) + puzzle.solution:
        move = game.parse_move(text)
        moves.append(move_token(game, move))
        game.play(move)
    ident = puzzle.id.removeprefix("lichess:")
    out = io.StringIO()
    csv.writer(out, lineterminator="").writerow(
        [ident, puzzle.position, " ".join(moves), puzzle.rating, "", "", "", " ".join(puzzle.themes), puzzle.source, ""])
    return out.getvalue()
