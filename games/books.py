"""Opening books: the lines a match's games start from, read from files of any game.

A book is a list of :class:`BookLine` s -- moves from the standard start, or a
start position and moves from it -- each checked by replaying it: every move
legal in turn, the game still going at its end.  A line may be marked
*lost* (unbalanced: one side is known to lose it, as some of the checkers
ballots); a match leaves those out unless asked.

Which files a game reads as books is its kind's to say
(:class:`~games.kind.GameKind`): first the formats of its own
(``book_formats``: chess EPD, the checkers ballots), then its record format
(PGN, PDN, its move list: every game of the file is a line, its main line
the moves), then :class:`MoveLines`, which every game reads -- one line per
opening, moves in the game's notation::

    # a comment; blank lines are skipped
    e4 c5 Nf3 d6           # chess (move numbers such as "1." are read past)
    11-15 23-19 8-11       # checkers
    2 0 bottom, 4 4 left   # Quixo (its moves hold spaces: commas part them)
    f5 d6 c3               # Othello

A line without commas is read greedily: each move is the fewest words the
game reads as a legal move (``2 0 bottom 4 4 left`` reads too).

A game's package ships books of its own (``books`` of its kind, a
:class:`ShippedBook` each), named on the command line by their names
(``ballots``, ``balanced``).  :func:`load_book` reads a shipped book or a file;
every problem is a one-line :class:`BookError` naming the file and line.  A
book holds at most :data:`~games.records.MAX_GAMES` lines (50,000; a record
file as a book, as many games), none over :data:`~games.lines.MAX_LINE`
bytes: a larger one is refused, counted before any line is replayed.
"""

from __future__ import annotations

import hashlib
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import ClassVar, Protocol, Sequence

from .base import Game, GameError, ReplayError
from .records import MAX_GAMES, LoadedGame, RecordError, RecordFormat, read_text_file


__all__ = ["Book", "BookError", "BookFormat", "BookLine", "MADE_BOOK_MARK", "MAX_BOOK_BYTES", "MoveLines", "RecordBook",
           "ShippedBook", "book_names", "load_book", "read_book", "shipped_book"]

#: Book files larger than this are refused (a book of 100,000 lines is far smaller).
MAX_BOOK_BYTES = 50_000_000
#: The first words of a book ``tui-games book --out`` makes.  Such a book is written a line
#: at a time: a last line without its newline is a write that did not finish, refused rather
#: than read as a shorter line.
MADE_BOOK_MARK = "# tui-games book:"
#: The most words one move is read from (Quixo's ``2 0 bottom`` is three).
_MOST_WORDS = 4
_MOVE_NUMBER = re.compile(r"^[0-9]+\.+")


class BookError(GameError):
    """A book that cannot be used; the message is one line and says where."""


@dataclass(frozen=True)
class BookLine:
    """One opening: ``moves`` (texts in the game's notation) from ``start`` (a
    position text; ``None``: the standard start), its ``label`` in the book
    (a ballot's number, an EPD ``id``; ``""`` for none), whether it is marked
    ``lost`` (unbalanced), and the ``row`` of the file it was read from."""

    moves: tuple[str, ...]
    start: str | None = None
    label: str = ""
    lost: bool = False
    row: int = 0

    def describe(self) -> str:
        """``ballot 001: 9-13 21-17 5-9`` -- the line as a note shows it."""
        moves = " ".join(self.moves) or "(its position)"
        return f"{self.label}: {moves}" if self.label else moves


@dataclass(frozen=True)
class Book:
    """A book's ``name`` (the file, or a shipped book's name) and its lines, in file order."""

    name: str
    lines: tuple[BookLine, ...]

    def usable(self, include_lost: bool = False) -> tuple[BookLine, ...]:
        """The lines a match plays: all of them, or those not marked lost."""
        return self.lines if include_lost else tuple(line for line in self.lines if not line.lost)

    @property
    def lost(self) -> int:
        """How many lines are marked lost."""
        return sum(line.lost for line in self.lines)

    def digest(self) -> str:
        """A SHA-256 of the lines (their starts, moves and marks): what identifies the book
        to a match, whatever its file is called or how it is laid out."""
        text = "\n".join(f"{line.start or ''}|{' '.join(line.moves)}|{int(line.lost)}" for line in self.lines)
        return hashlib.sha256(text.encode()).hexdigest()


class BookFormat(ABC):
    """A kind of book file a game reads."""

    #: What the format is called: ``EPD``, ``the checkers ballots``.
    name: ClassVar[str]

    @abstractmethod
    def recognises(self, text: str) -> bool:
        """Whether ``text`` (a whole file) is in this format."""

    @abstractmethod
    def read(self, text: str) -> list[BookLine]:
        """The lines of ``text``, not yet replayed; a :class:`BookError` naming the
        line for one that cannot be read."""


class RecordBook(BookFormat):
    """A file of game records (PGN, PDN, a move list) as a book: each game a line."""

    def __init__(self, records: RecordFormat) -> None:
        self.records = records
        self.name = records.name  # type: ignore[misc]

    def recognises(self, text: str) -> bool:
        return self.records.recognises(text)

    def read(self, text: str) -> list[BookLine]:
        try:
            self.records.check_count(text)  # counted before any game is read
        except RecordError as error:
            raise BookError(str(error)) from None
        lines = []
        for number, item in enumerate(self.records.each(text), 1):  # a game's model dropped once it is a line
            if isinstance(item, RecordError):
                raise BookError(str(item))
            assert isinstance(item, LoadedGame)
            label = item.tags.get("Opening", "") or item.tags.get("Event", "")
            lines.append(BookLine(item.moves, item.start, label if label not in ("?", "") else "", row=number))
        return lines


class MoveLines(BookFormat):
    """One opening per line, in the game's notation (see the module doc); every game reads it."""

    name: ClassVar[str] = "lines of moves"

    def __init__(self, game_class: type[Game]) -> None:
        self.game_class = game_class

    def recognises(self, text: str) -> bool:
        return True

    def read(self, text: str) -> list[BookLine]:
        lines = []
        for row, raw in enumerate(text.splitlines(), 1):
            body = raw.split("#", 1)[0].strip()
            if body:
                lines.append(BookLine(tuple(self.moves(body, row)), row=row))
        return lines

    def moves(self, body: str, row: int) -> list[str]:
        """The move texts of one line, each read in the position the ones before reach."""
        game = self.game_class()
        if "," in body:
            groups = [[part.strip()] for part in body.split(",") if part.strip()]
        else:
            groups = [[word] for word in body.split()]
        words = [_MOVE_NUMBER.sub("", group[0]) for group in groups]
        words = [word for word in words if word]
        texts: list[str] = []
        at = 0
        while at < len(words):
            if game.outcome() is not None:
                raise BookError(f"line {row}: the game is over before {words[at]!r}")
            most = 1 if "," in body else _MOST_WORDS
            first_error: GameError | None = None
            for count in range(1, min(most, len(words) - at) + 1):
                text = " ".join(words[at:at + count])
                try:
                    move = game.parse_move(text)
                except GameError as error:
                    first_error = first_error or error
                    continue
                texts.append(game.format_move(move))
                game.play(move)
                at += count
                break
            else:
                raise BookError(f"line {row}: move {len(texts) + 1} {words[at][:40]!r}: {first_error}")
        return texts


@dataclass(frozen=True)
class ShippedBook:
    """A book a game's package ships: its ``name`` on the command line, the
    ``package`` and the ``file`` in it, and a line ``about`` it."""

    name: str
    package: str
    file: str
    about: str

    def text(self) -> str:
        return resources.files(self.package).joinpath(self.file).read_text(encoding="utf-8")


class BookKind(Protocol):
    """What reading a game's books asks of its kind (a :class:`~games.kind.GameKind`)."""

    @property
    def game(self) -> type[Game]: ...
    @property
    def title(self) -> str: ...
    @property
    def records(self) -> RecordFormat: ...
    @property
    def book_formats(self) -> tuple[BookFormat, ...]: ...
    @property
    def books(self) -> tuple[ShippedBook, ...]: ...


def _too_many() -> str:
    return f"more than {MAX_GAMES:,} lines; a book of more is refused"


def _entries(text: str) -> int:
    """The lines of a book of a line per opening (EPD, ballots, lines of moves) that may hold one:
    neither blank nor a comment."""
    return sum(1 for raw in text.splitlines() if (line := raw.strip()) and not line.startswith("#"))


def _formats(kind: BookKind) -> list[BookFormat]:
    return [*kind.book_formats, RecordBook(kind.records), MoveLines(kind.game)]


def _checked(game_class: type[Game], line: BookLine, where: str) -> BookLine:
    """``line`` with its moves as the game writes them, or a :class:`BookError`:
    a bad start, an illegal move, a game over before the line's end."""
    def going(game: Game, ply: int) -> None:
        if game.outcome() is None:
            return
        if ply == 0:
            raise BookError(f"{where}: line {line.row}: the game is over at its start")
        raise BookError(f"{where}: line {line.row}: the game is over after ply {ply}; a book line leaves it going")

    try:
        _, texts = game_class.replay(line.start, line.moves, going)
    except ReplayError as error:
        if error.ply == 0:
            raise BookError(f"{where}: line {line.row}: bad start position: {error.cause}") from None
        raise BookError(f"{where}: line {line.row}, ply {error.ply}: {error.cause}") from None
    return BookLine(tuple(texts), line.start, line.label, line.lost, line.row)


def read_book(kind: BookKind, text: str, name: str) -> Book:
    """The book of ``kind``'s game in ``text`` (named ``name`` in messages), every
    line replayed; a :class:`BookError` for a text no format reads, a bad line,
    or no line at all."""
    if "\x00" in text:
        raise BookError(f"{name}: not a text file (it holds NUL bytes)")
    if text.startswith(MADE_BOOK_MARK) and not text.endswith("\n"):
        raise BookError(f"{name}: line {text.count(chr(10)) + 1} is cut off (it has no newline: a write that did "
                        f"not finish); finish the book, or delete that line")
    for book_format in _formats(kind):
        if not book_format.recognises(text):
            continue
        try:
            if not isinstance(book_format, RecordBook) and _entries(text) > MAX_GAMES:
                raise BookError(_too_many())  # a line a line, counted before any is read
            lines = book_format.read(text)
            if len(lines) > MAX_GAMES:  # before each is replayed
                raise BookError(_too_many())
        except BookError as error:
            raise BookError(f"{name}: {error} (read as {book_format.name})") from None
        for line in lines:
            if line.start is None and not line.moves:
                what = "game" if isinstance(book_format, RecordBook) else "line"
                raise BookError(f"{name}: {what} {line.row} holds no {kind.title} move (read as {book_format.name})")
        checked = tuple(_checked(kind.game, line, name) for line in lines)
        if not checked:
            raise BookError(f"{name}: no {kind.title} opening in it")
        return Book(name, checked)
    raise BookError(f"{name}: not a {kind.title} book")  # pragma: no cover - MoveLines reads any text


def shipped_book(kind: BookKind, name: str) -> ShippedBook | None:
    """The book ``kind``'s package ships under ``name``, if any."""
    return next((book for book in kind.books if book.name == name), None)


def load_book(kind: BookKind, source: str) -> Book:
    """The book ``source`` names: a book the game ships (by name), else a file."""
    shipped = shipped_book(kind, source)
    if shipped is not None:
        return read_book(kind, shipped.text(), shipped.name)
    if not Path(source).expanduser().exists():
        names = book_names(kind)
        ships = f"the {kind.title} books shipped are {', '.join(names)}" if names else \
            f"no {kind.title} book is shipped"
        raise BookError(f"{source}: no such book file ({ships})")
    text = read_text_file(source, "an opening book", MAX_BOOK_BYTES, BookError)
    return read_book(kind, text, str(Path(source).expanduser()))


def book_names(kind: BookKind) -> Sequence[str]:
    """The names of the books ``kind``'s package ships."""
    return [book.name for book in kind.books]
