"""What a match adds to the game's rules: its opening book, adjudication and clocks (:class:`Conditions`).

Each is off unless asked, and each is part of what fixes the match (its
:class:`~engines.tournament.config.MatchConfig`): a results file of a match
played under other conditions is refused on resume.

- **The book** (:class:`BookChoice`): the lines the games start from instead
  of random plies -- one line per pair of games, each played once by each
  engine with each colour -- taken in file order (``sequential``) or in a
  seeded shuffle (``random``), each cut to its first ``plies``; lines marked
  lost left out unless asked.  The book is known by a digest of its lines,
  whatever its file is called.
- **Adjudication**, as fastchess names it: :class:`Resign` (a side whose own
  score has been at least ``score`` below zero for ``movecount`` moves in a
  row loses; ``twosided``: both sides' scores at least ``score`` from zero,
  the loser the one below), :class:`DrawRule` (after ``movenumber`` moves,
  both sides' scores within ``score`` of zero for ``movecount`` moves each)
  and ``maxmoves`` (a draw when the game reaches that many moves).  Scores are
  in the game's unit (its :class:`~games.kind.ScoreScale`: pawns in chess).
- **Clocks**: ``tc`` (seconds, ``BASE+INC`` or ``MOVES/BASE+INC``) for the
  engines whose spec sets no ``tc=`` of its own, and ``timemargin``: the
  milliseconds an engine may go beyond its clock before it loses on time.

In a results line they are keys of ``match`` beside the game, specs, games,
openings and seed, present only when set: a match without any writes the
line it always did.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

from games import game_kind
from games.books import BookError, BookLine, load_book, shipped_book
from games.clock import ClockError, TimeControl

from ..remedy import Remedy, RunError

__all__ = ["BOOK_ORDERS", "MAX_TIMEMARGIN", "SETTINGS", "BookChoice", "BookPlace", "Conditions", "ConditionsError", "DrawRule",
           "Opening", "Resign", "conditions_from", "parse_time_control"]

#: How a book's lines are taken: in file order, or shuffled by the match's seed.
BOOK_ORDERS = ("sequential", "random")
#: The longest time margin, in milliseconds: an hour (a clock's largest increment; more is no clock).
MAX_TIMEMARGIN = 3_600_000


class ConditionsError(RunError):
    """Conditions that cannot be used (a bad rule text, a book with no line to play); one line."""


def parse_time_control(text: str) -> TimeControl:
    """A time control in seconds (``10+0.1``, ``40/60+0.6``), or a :class:`ConditionsError`."""
    try:
        return TimeControl.parse_seconds(text)
    except ClockError as error:
        raise ConditionsError(str(error)) from None


# ------------------------------------------------------------------ the book
@dataclass(frozen=True)
class BookPlace:
    """Where a game's opening came from: its ``line`` among the book's lines
    played (1-based), the line's ``label``, and the position it starts from
    (``origin``; ``None``: the standard start)."""

    line: int
    label: str = ""
    origin: str | None = None

    def to_json(self) -> dict[str, Any]:
        value: dict[str, Any] = {"line": self.line}
        if self.label:
            value["label"] = self.label
        if self.origin:
            value["from"] = self.origin
        return value


@dataclass(frozen=True)
class Opening:
    """What a game starts from: the moves played before the engines take over,
    and, for a book's line, where in the book it is (``None``: random plies)."""

    moves: tuple[str, ...]
    place: BookPlace | None = None


#: The lines of the books opened in this process, by (digest, lost included).
_OPENED: dict[tuple[str, bool], tuple[BookLine, ...]] = {}


@dataclass(frozen=True)
class BookChoice:
    """The book a match plays and how (see the module doc).  Two choices are
    the same when their lines, order, plies and lost lines are: ``name`` (as
    given) and ``source`` (what reads it again: a shipped name or a path) are
    not compared."""

    digest: str
    lines: int
    order: str = "sequential"
    plies: int | None = None
    include_lost: bool = False
    name: str = field(default="", compare=False)
    source: str = field(default="", compare=False)

    @classmethod
    def open(cls, game: str, source: str, *, order: str = "sequential", plies: int | None = None,
             include_lost: bool = False) -> BookChoice:
        """Read the book ``source`` names (a book the game ships, or a file):
        a :class:`~games.books.BookError` if it cannot be used."""
        if order not in BOOK_ORDERS:
            raise ConditionsError(f"book order {order!r}; expected one of: {', '.join(BOOK_ORDERS)}")
        if plies is not None and plies < 0:
            raise ConditionsError(f"a book line cannot be cut to {plies} plies; expected 0 or more")
        kind = game_kind(game)
        book = load_book(kind, source)
        usable = book.usable(include_lost)
        if not usable:
            raise ConditionsError(f"{book.name}: all its {len(book.lines)} lines are marked lost",
                                  remedy=Remedy.INCLUDE_LOST)
        digest = book.digest()
        _OPENED[(digest, include_lost)] = usable
        where = source if shipped_book(kind, source) else str(Path(source).expanduser().resolve())
        return cls(digest, len(usable), order, plies, include_lost, book.name, where)

    def book_lines(self, game: str) -> tuple[BookLine, ...]:
        """The lines played, read again from :attr:`source` in a process that has not read them."""
        key = (self.digest, self.include_lost)
        if key not in _OPENED:
            book = load_book(game_kind(game), self.source)
            if book.digest() != self.digest:
                raise BookError(f"{self.source}: the book changed since the match began")
            _OPENED[key] = book.usable(self.include_lost)
        return _OPENED[key]

    def line_of(self, pair: int, seed: int) -> int:
        """The index of the line pair ``pair`` of the match plays: in order, or
        each round through the book in a shuffle of its own (seeded by the
        match's seed and the round)."""
        round_, at = divmod(pair, self.lines)
        if self.order == "sequential":
            return at
        order = list(range(self.lines))
        random.Random(f"book/{seed}/{round_}").shuffle(order)  # a text seed: the same in every process
        return order[at]

    def opening(self, game: str, pair: int, seed: int) -> Opening:
        """The opening of pair ``pair``'s games."""
        index = self.line_of(pair, seed)
        line = self.book_lines(game)[index]
        moves = line.moves if self.plies is None else line.moves[:self.plies]
        return Opening(moves, BookPlace(index + 1, line.label, line.start))

    def describe(self) -> str:
        cut = f", {self.plies} plies" if self.plies is not None else ""
        lost = ", lost lines too" if self.include_lost else ""
        lines = f"{self.lines} line{'s' if self.lines != 1 else ''}"
        return f"book {Path(self.name).name} ({lines}, {self.order}{cut}{lost})"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "source": self.source, "sha256": self.digest, "lines": self.lines,
                "order": self.order, "plies": self.plies, "lost": self.include_lost}

    @classmethod
    def from_json(cls, value: Any) -> BookChoice:
        if not isinstance(value, dict):
            raise ValueError("its 'book' is not an object")
        digest, lines, order, plies = value.get("sha256"), value.get("lines"), value.get("order"), value.get("plies")
        if not (isinstance(digest, str) and _whole(lines) and lines >= 1 and order in BOOK_ORDERS
                and (plies is None or _whole(plies) and plies >= 0) and isinstance(value.get("lost"), bool)):
            raise ValueError("its 'book' is incomplete")
        return cls(digest, lines, order, plies, value["lost"], str(value.get("name", "")),
                   str(value.get("source", "")))


# ------------------------------------------------------------- adjudication
def _settings(text: str, what: str, known: dict[str, type]) -> dict[str, Any]:
    """``key=value,...`` read into ``known``'s types; a :class:`ConditionsError` otherwise."""
    values: dict[str, Any] = {}
    for item in text.split(","):
        key, eq, raw = (part.strip() for part in item.partition("="))
        if not eq or key not in known:
            raise ConditionsError(f"{what} {text[:60]!r}: expected {', '.join(f'{k}=...' for k in known)}")
        kind = known[key]
        try:
            if kind is bool:
                if raw.lower() not in ("true", "false", "on", "off", "yes", "no", "1", "0"):
                    raise ValueError
                values[key] = raw.lower() in ("true", "on", "yes", "1")
            else:
                values[key] = kind(raw)
        except ValueError:
            raise ConditionsError(f"{what}: {key}={raw[:20]!r} is not {'true or false' if kind is bool else 'a number'}") \
                from None
        if kind is not bool and not 0 <= values[key] < 1e9:
            shown = raw if len(raw) <= 20 else f"{raw[:20]}... ({len(raw)} characters)"
            wrong = "must be 0 or more" if values[key] < 0 else "is too large (under 1,000,000,000)"
            raise ConditionsError(f"{what}: {key} {wrong}, got {shown}")
    return values


@dataclass(frozen=True)
class Resign:
    """A side loses when its score has been ``score`` (in the game's unit) or more
    below zero for ``movecount`` of its moves in a row; ``twosided``: when both
    sides' scores have been ``score`` or more from zero for ``movecount`` moves
    each, the side below zero losing."""

    movecount: int
    score: float
    twosided: bool = False

    @classmethod
    def parse(cls, text: str) -> Resign:
        """``movecount=3,score=5[,twosided=true]``."""
        values = _settings(text, "resign", {"movecount": int, "score": float, "twosided": bool})
        if "movecount" not in values or "score" not in values or values["movecount"] < 1:
            raise ConditionsError(f"resign {text[:60]!r}: give movecount=N (1 or more) and score=S")
        return cls(values["movecount"], values["score"], values.get("twosided", False))

    def text(self) -> str:
        return f"movecount={self.movecount},score={self.score:g}" + (",twosided=true" if self.twosided else "")


@dataclass(frozen=True)
class DrawRule:
    """A draw when, after ``movenumber`` moves, both sides' scores have been within
    ``score`` (in the game's unit) of zero for ``movecount`` moves each in a row."""

    movenumber: int
    movecount: int
    score: float

    @classmethod
    def parse(cls, text: str) -> DrawRule:
        """``movenumber=40,movecount=8,score=0.1``."""
        values = _settings(text, "draw", {"movenumber": int, "movecount": int, "score": float})
        if "movecount" not in values or "score" not in values or values["movecount"] < 1:
            raise ConditionsError(f"draw {text[:60]!r}: give movecount=N (1 or more) and score=S "
                                  f"(and movenumber=M)")
        return cls(values.get("movenumber", 0), values["movecount"], values["score"])

    def text(self) -> str:
        return f"movenumber={self.movenumber},movecount={self.movecount},score={self.score:g}"


# --------------------------------------------------------------- conditions
@dataclass(frozen=True)
class Conditions:
    """A match's book, adjudication and clocks (see the module doc); all off by default."""

    book: BookChoice | None = None
    resign: Resign | None = None
    draw: DrawRule | None = None
    maxmoves: int | None = None
    #: Both engines' clock (seconds, canonical text) unless an engine's spec sets its own ``tc=``.
    tc: str | None = None
    #: Milliseconds an engine may go beyond its clock before it loses on time.
    timemargin: int = 0

    def __post_init__(self) -> None:
        if self.maxmoves is not None and self.maxmoves < 1:
            raise ConditionsError(f"maxmoves must be 1 or more, got {self.maxmoves}")
        if not 0 <= self.timemargin <= MAX_TIMEMARGIN:
            raise ConditionsError(f"the time margin is 0 to {MAX_TIMEMARGIN:,} ms (an hour), got {self.timemargin:,}")
        if self.tc is not None:
            object.__setattr__(self, "tc", parse_time_control(self.tc).seconds_text)

    @property
    def adjudicates(self) -> bool:
        return self.resign is not None or self.draw is not None or self.maxmoves is not None

    def describe(self) -> str:
        """``book ballots.txt (157 lines, random), resign movecount=3,score=5, tc 10+0.1`` ('' for none)."""
        parts = [self.book.describe()] if self.book else []
        if self.resign:
            parts.append(f"resign {self.resign.text()}")
        if self.draw:
            parts.append(f"draw {self.draw.text()}")
        if self.maxmoves:
            parts.append(f"maxmoves {self.maxmoves}")
        if self.tc:
            parts.append(f"tc {self.tc}")
        if self.timemargin:
            parts.append(f"time margin {self.timemargin} ms")
        return ", ".join(parts)

    def difference(self, other: Conditions) -> str | None:
        """What differs from ``other``'s conditions, in words (``None``: nothing)."""
        for name, shown in (("book", "book"), ("resign", "resign rule"), ("draw", "draw rule"),
                            ("maxmoves", "move limit"), ("tc", "time control"), ("timemargin", "time margin")):
            mine, theirs = getattr(self, name), getattr(other, name)
            if mine != theirs:
                return f"{shown} {_shown(theirs)}, not {_shown(mine)}"
        return None

    def to_json(self) -> dict[str, Any]:
        """The keys these conditions add to a results line's ``match`` (none when all are off)."""
        value: dict[str, Any] = {}
        if self.book is not None:
            value["book"] = self.book.to_json()
        if self.resign is not None:
            value["resign"] = {"movecount": self.resign.movecount, "score": self.resign.score,
                               "twosided": self.resign.twosided}
        if self.draw is not None:
            value["draw"] = {"movenumber": self.draw.movenumber, "movecount": self.draw.movecount,
                             "score": self.draw.score}
        if self.maxmoves is not None:
            value["maxmoves"] = self.maxmoves
        if self.tc is not None:
            value["tc"] = self.tc
        if self.timemargin:
            value["timemargin"] = self.timemargin
        return value

    @classmethod
    def from_json(cls, match: dict[str, Any]) -> Conditions:
        """The conditions of a results line's ``match`` (a ``ValueError`` saying what is wrong)."""
        book = BookChoice.from_json(match["book"]) if match.get("book") is not None else None
        resign = draw = None
        try:
            if match.get("resign") is not None:
                value = match["resign"]
                resign = Resign(_count(value["movecount"]), _number(value["score"]), bool(value.get("twosided")))
            if match.get("draw") is not None:
                value = match["draw"]
                draw = DrawRule(_count(value["movenumber"]), _count(value["movecount"]), _number(value["score"]))
        except (KeyError, TypeError):
            raise ValueError("its adjudication rules are incomplete") from None
        maxmoves = match.get("maxmoves")
        tc = match.get("tc")
        margin = match.get("timemargin", 0)
        if not (maxmoves is None or _whole(maxmoves)) or not (tc is None or isinstance(tc, str)) \
                or not _whole(margin):
            raise ValueError("its move limit or clocks are not what a match writes")
        try:
            return cls(book, resign, draw, maxmoves, tc, margin)
        except RunError as error:
            raise ValueError(str(error)) from None


def _whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _count(value: Any) -> int:
    if not _whole(value) or value < 0:
        raise TypeError(value)
    return int(value)


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(value)
    return float(value)


def _shown(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, BookChoice):
        return value.describe().removeprefix("book ")
    if isinstance(value, (Resign, DrawRule)):
        return value.text()
    return str(value)


#: The settings of :func:`conditions_from`, by name, and what each is.
SETTINGS: dict[str, str] = {
    "book": "a book the game ships, or a book file",
    "book_order": "sequential or random",
    "book_plies": "the plies of each line played (0 or more)",
    "book_include_lost": "whether the lines marked lost are played",
    "resign": "movecount=N,score=S[,twosided=true]",
    "draw": "movenumber=M,movecount=N,score=S",
    "maxmoves": "the moves after which the game is a draw (1 or more)",
    "tc": "BASE+INC or MOVES/BASE+INC in seconds",
    "timemargin": f"milliseconds an engine may go beyond its clock (0 to {MAX_TIMEMARGIN:,})",
}


def conditions_from(game: str, settings: dict[str, Any], *, folder: str | Path | None = None) -> Conditions:
    """The conditions ``settings`` name (by the names of :data:`SETTINGS`; the
    rules as texts or already read), the book read -- a relative book path from
    ``folder`` when it is there (an experiment file's folder).  A bad setting
    is a one-line :class:`ConditionsError` (a book, a :class:`~games.books.BookError`)."""
    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        raise ConditionsError(f"unknown setting {unknown[0]!r}; expected one of: {', '.join(SETTINGS)}")
    source = settings.get("book")
    if source is None:
        tuning = [name for name in ("book_order", "book_plies", "book_include_lost") if settings.get(name) is not None]
        if tuning:
            raise ConditionsError(f"{tuning[0]!r} goes with a 'book'")
        book = None
    else:
        if folder is not None and shipped_book(game_kind(game), source) is None and not Path(source).is_absolute() \
                and (Path(folder) / source).exists():
            source = str(Path(folder) / source)
        book = BookChoice.open(game, source, order=settings.get("book_order") or "sequential",
                               plies=settings.get("book_plies"),
                               include_lost=bool(settings.get("book_include_lost")))
    resign, draw = settings.get("resign"), settings.get("draw")
    return Conditions(book, Resign.parse(resign) if isinstance(resign, str) else resign,
                      DrawRule.parse(draw) if isinstance(draw, str) else draw, settings.get("maxmoves"),
                      settings.get("tc"), settings.get("timemargin") or 0)
