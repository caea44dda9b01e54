"""A finished game's result: :class:`GameResult`, the typed form of one line of a results file.

:func:`~engines.tournament.match.play_game` returns one; the parent process
writes it as a JSON line (:meth:`GameResult.to_json`) and every reader --
summaries, the SPRT, crosstables, game records, the lab's claims, the
command line and the app -- reads it back typed (:meth:`GameResult.from_json`
checks a line and names ``FILE:LINE`` when it is not one).  The line's keys,
in the order written::

    match          the MatchConfig: game, a, b, games, openings, seed
    index          the game's number in its match (0-based)
    colours        {"a": colour of A, "b": colour of B}
    first          the agent that moved first from the start ("a" or "b")
    engines        {"a": spec, "b": spec} as played (with derived seeds)
    opening        the opening's moves (random plies, or a book's line); start: the position after them
    moves          the engines' moves; log: per move [score, mate, depth, nodes, time_s]
    plies          len(moves)
    result         "a", "b" or "draw"; winner_colour: the winner's colour or null
    reason         how the game ended; wall_s: seconds it took
    stats          {"a": totals, "b": totals} over each agent's moves (AgentTotals)
    sprt           [elo0, elo1, alpha, beta], only in the games of a ``match --sprt``
    book           {"line": N, "label": ..., "from": position}: the book's line the opening is
                   (1-based among the lines played), only in the games of a match with a book
    clocks         the seconds left on the mover's clock after each engine move, only with clocks

Lines written before ``log`` existed (and without ``sprt``, ``book`` or
``clocks``) read too.  A game decided off the board says how in ``reason``:
``time`` (or ``time, X cannot win``: a draw), ``adjudication: resign``,
``adjudication: draw``, ``adjudication: max moves``, and an external engine's
forfeit, ``forfeit: `` and why (``timeout``, ``illegal move e2e5``, ``null
move``, ``malformed move 'xyz'``, ``engine crashed``, ``output over N
bytes``): the side that forfeits is the loser.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any, Generic, Iterator, Literal, NamedTuple, TypeVar

from games import game_class

from ..base import COUNTERS, SearchStats
from .conditions import BookPlace, Conditions
from .config import BASE_KEYS, MatchConfig, MatchError

__all__ = ["AGENTS", "FORFEIT", "MatchTermination", "RESULTS", "forfeit_reason", "is_forfeit", "TOTALS", "RESULT_KEYS", "MATCH_KEYS", "Agent", "AgentTotals", "GameResult",
           "LogEntry", "ResultsFileError", "Sides"]

class MatchTermination(StrEnum):
    """The reasons a match ends a game for, beside the game's own and the clock's: the
    adjudications (the results' ``reason`` and the record's termination say these words)
    and a forfeit (whose words go on with its cause: ``"forfeit: timeout"``)."""

    RESIGN = "adjudication: resign"
    DRAW = "adjudication: draw"
    MAX_MOVES = "adjudication: max moves"
    FORFEIT = "forfeit"


#: How the reason of a game an engine forfeited begins.
FORFEIT = f"{MatchTermination.FORFEIT}: "


def forfeit_reason(why: str) -> str:
    """The ``reason`` of a game lost by forfeit, ``why`` being the engine's failure (``timeout`` ...)."""
    return FORFEIT + why


def is_forfeit(reason: str) -> bool:
    """Whether a game's ``reason`` is a forfeit (the loser's engine broke the rules)."""
    return reason.startswith(FORFEIT)


#: The two sides of a match, as results name them.
Agent = Literal["a", "b"]
AGENTS: tuple[Agent, Agent] = ("a", "b")
#: A line's ``result``: who won, or a draw.
RESULTS = ("a", "b", "draw")

#: The statistics summed over an agent's moves (the search counters, plus the
#: cutoffs by the first move and the selective depth); with ``moves`` they give
#: the averages per move.  ``depth`` and ``seldepth`` sum too: their average is
#: the mean depth reached.
TOTALS: tuple[str, ...] = COUNTERS + ("depth", "time_s")

#: What every line carries; :meth:`GameResult.from_json` checks for these
#: (``start``, ``log`` and ``sprt`` may be absent).
RESULT_KEYS = ("match", "index", "colours", "first", "engines", "opening", "moves", "plies",
               "result", "winner_colour", "reason", "wall_s", "stats")
#: The keys every line's ``match`` has (a :class:`MatchConfig`'s fields but its conditions,
#: whose keys are there only when set).
MATCH_KEYS: tuple[str, ...] = BASE_KEYS

T = TypeVar("T")


class ResultsFileError(MatchError):
    """A results file, or a line of one, that cannot be used; the message names ``FILE:LINE``."""


@dataclass(frozen=True)
class Sides(Generic[T]):
    """One value for each agent of a match: A's and B's (``sides["a"]``)."""

    a: T
    b: T

    def __getitem__(self, agent: str) -> T:
        if agent == "a":
            return self.a
        if agent == "b":
            return self.b
        raise KeyError(agent)

    def __iter__(self) -> Iterator[T]:
        return iter((self.a, self.b))


@dataclass(frozen=True)
class AgentTotals:
    """One agent's totals over its moves in a game (or over many games):
    ``moves`` and every statistic of :data:`TOTALS`.  Reads by name too
    (``totals["nodes"]``): the names are the JSON keys."""

    moves: int = 0
    nodes: int = 0
    evals: int = 0
    prunes: int = 0
    tt_hits: int = 0
    first_cutoffs: int = 0
    seldepth: int = 0
    h0_evals: int = 0
    h0_pruned: int = 0
    hl_evals: int = 0
    hl_pruned: int = 0
    hr_evals: int = 0
    hr_pruned: int = 0
    depth: int = 0
    time_s: float = 0.0

    def __getitem__(self, name: str) -> float:
        if name not in _TOTAL_FIELDS:
            raise KeyError(name)
        value: float = getattr(self, name)
        return value

    def add(self, stats: SearchStats) -> AgentTotals:
        """These totals with one more move searched with ``stats``."""
        return AgentTotals(self.moves + 1, *(getattr(self, name) + (getattr(stats, name) or 0) for name in TOTALS))

    def __add__(self, other: AgentTotals) -> AgentTotals:
        return AgentTotals(*(getattr(self, name) + getattr(other, name) for name in _TOTAL_FIELDS))

    def per_move(self, name: str) -> float:
        """The average of statistic ``name`` over these moves (0 without moves)."""
        return self[name] / self.moves if self.moves else 0.0

    def to_json(self) -> dict[str, float]:
        return {name: getattr(self, name) for name in _TOTAL_FIELDS}

    @classmethod
    def from_json(cls, obj: dict[str, Any], where: str) -> AgentTotals:
        """The totals of one agent in a line's ``stats`` (a name missing counts 0, as it always has)."""
        values = {}
        for name in _TOTAL_FIELDS:
            value = obj.get(name, 0)
            if not _is_number(value):
                raise ResultsFileError(f"{where}: the line's 'stats' hold {name} {_shown(value)}, not a number")
            values[name] = value
        return cls(**values)


#: ``moves`` then :data:`TOTALS`, in order: the keys of a line's ``stats``.
_TOTAL_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(AgentTotals))


class LogEntry(NamedTuple):
    """One engine move of a game's log: the score for the side that moved
    (its mate distance, or ``None``), the depth reached, the nodes searched
    and the seconds taken.  Written as a JSON list in this order."""

    score: int
    mate: int | None
    depth: int
    nodes: int
    time_s: float

    @classmethod
    def of(cls, stats: SearchStats) -> LogEntry:
        return cls(stats.score, stats.mate, stats.depth, stats.nodes, round(stats.time_s, 4))

    @property
    def searched(self) -> bool:
        """Whether the move came from a search (a random move reports none)."""
        return not (self.depth == 0 and self.nodes <= 1 and self.mate is None)


@dataclass(frozen=True)
class GameResult:
    """One finished game of a match (see the module doc for its JSON line).

    ``winner`` is the agent who won (``None``: a draw; the line's ``result``)
    and ``totals`` each agent's :class:`AgentTotals` (the line's ``stats``);
    the other fields are the line's keys.
    """

    match: MatchConfig
    index: int
    colours: Sides[str]
    first: Agent
    engines: Sides[str]
    opening: tuple[str, ...]
    start: str
    moves: tuple[str, ...]
    log: tuple[LogEntry, ...]
    plies: int
    winner: Agent | None
    winner_colour: str | None
    reason: str
    wall_s: float
    totals: Sides[AgentTotals]
    #: The sequential test of a ``match --sprt``: ``(elo0, elo1, alpha, beta)``.
    sprt: tuple[float, ...] | None = None
    #: The book's line the opening is (a match with a book).
    book: BookPlace | None = None
    #: Seconds left on the mover's clock after each engine move (a match with clocks).
    clocks: tuple[float, ...] | None = None

    @property
    def drawn(self) -> bool:
        return self.winner is None

    @property
    def outcome(self) -> str:
        """``"a"``, ``"b"`` or ``"draw"`` (the line's ``result``)."""
        return "draw" if self.winner is None else self.winner

    def points(self, agent: str) -> float:
        """What the game scored for ``agent``: 1 for a win, ½ for a draw, 0 for a loss."""
        return 0.5 if self.winner is None else 1.0 if self.winner == agent else 0.0

    def log_of(self, agent: str) -> list[LogEntry]:
        """The log entries of ``agent``'s moves (the moves alternate from the
        side to move after the opening; the agent that moved first from the
        start played the even plies of the whole game)."""
        first_is_agent = self.first == agent
        offset = len(self.opening)
        if self.book is not None and self.book.origin:  # the line starts elsewhere: whoever is to move there
            offset += game_class(self.match.game).from_text(self.book.origin).turn
        return [entry for ply, entry in enumerate(self.log, offset) if (ply % 2 == 0) == first_is_agent]

    def with_sprt(self, sprt: tuple[float, ...] | None) -> GameResult:
        return replace(self, sprt=sprt)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of its line (the keys in the order every run has written them)."""
        line: dict[str, Any] = {
            "match": self.match.to_json(),
            "index": self.index,
            "colours": {"a": self.colours.a, "b": self.colours.b},
            "first": self.first,
            "engines": {"a": self.engines.a, "b": self.engines.b},
            "opening": list(self.opening),
            "start": self.start,
            "moves": list(self.moves),
            "log": [list(entry) for entry in self.log],
            "plies": self.plies,
            "result": self.outcome,
            "winner_colour": self.winner_colour,
            "reason": self.reason,
            "wall_s": self.wall_s,
            "stats": {"a": self.totals.a.to_json(), "b": self.totals.b.to_json()},
        }
        if self.sprt is not None:
            line["sprt"] = list(self.sprt)
        if self.book is not None:
            line["book"] = self.book.to_json()
        if self.clocks is not None:
            line["clocks"] = list(self.clocks)
        return line

    @classmethod
    def from_json(cls, obj: Any, where: str) -> GameResult:
        """The result a line's JSON object holds, or a one-line
        :class:`ResultsFileError` naming ``where`` (``FILE:LINE``)."""
        if not isinstance(obj, dict):
            raise ResultsFileError(f"{where}: not a game record (a JSON object expected)")
        missing = [key for key in RESULT_KEYS if key not in obj]
        if missing:
            raise ResultsFileError(f"{where}: not a game record of 'tui-games match' "
                                   f"(no {', '.join(repr(k) for k in missing[:3])})")
        match = obj["match"]
        if not isinstance(match, dict) or any(key not in match for key in MATCH_KEYS):
            raise ResultsFileError(f"{where}: the line's 'match' key is incomplete")
        index = obj["index"]
        if not _is_int(index) or not _is_int(match["games"]) or not 0 <= index < match["games"]:
            raise ResultsFileError(f"{where}: game index {index!r} outside the match's {match['games']!r} games")
        if obj["result"] not in RESULTS:
            raise ResultsFileError(f"{where}: result {_shown(obj['result'])}; expected a, b or draw")
        stats = obj["stats"]
        if not isinstance(stats, dict) or any(not isinstance(stats.get(agent), dict) for agent in AGENTS):
            raise ResultsFileError(f"{where}: the line's 'stats' lack an agent")
        check = _Checker(obj, where)
        try:
            conditions = Conditions.from_json(match)
        except ValueError as error:
            raise ResultsFileError(f"{where}: the line's 'match': {error}") from None
        config = MatchConfig(**{key: _match_field(match, key, where) for key in MATCH_KEYS}, conditions=conditions)
        sprt = obj.get("sprt")
        if sprt is not None and (not isinstance(sprt, list) or len(sprt) not in (2, 4)
                                 or not all(_is_number(number) for number in sprt)):
            raise ResultsFileError(f"{where}: its 'sprt' {_shown(sprt)} is not a list of 2 or 4 numbers")
        return cls(
            match=config,
            index=index,
            colours=check.sides("colours"),
            first=check.agent("first"),
            engines=check.sides("engines"),
            opening=check.texts("opening"),
            start=check.text("start", default=""),
            moves=check.texts("moves"),
            log=check.log(),
            plies=check.count("plies"),
            winner=None if obj["result"] == "draw" else obj["result"],
            winner_colour=check.text("winner_colour", optional=True),
            reason=check.text("reason"),
            wall_s=check.number("wall_s"),
            totals=Sides(AgentTotals.from_json(stats["a"], where), AgentTotals.from_json(stats["b"], where)),
            sprt=None if sprt is None else tuple(sprt),
            book=check.book(),
            clocks=check.clocks(),
        )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)) and math.isfinite(value)


def _shown(value: Any) -> str:
    """A value as an error message quotes it: its repr, cut to about 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _match_field(match: dict[str, Any], key: str, where: str) -> Any:
    value = match[key]
    if key in ("game", "a", "b"):
        good = isinstance(value, str)
    else:  # games (at least 1, checked with the index), openings and seed
        good = _is_int(value) and (key != "openings" or value >= 0)
    if not good:
        raise ResultsFileError(f"{where}: the line's 'match' has {key} {_shown(value)}")
    return value


class _Checker:
    """Reads a line's fields, each checked for its type (one line naming the key when it is not)."""

    def __init__(self, obj: dict[str, Any], where: str) -> None:
        self.obj = obj
        self.where = where

    def _fail(self, key: str, expected: str) -> ResultsFileError:
        return ResultsFileError(f"{self.where}: the line's {key!r} is {_shown(self.obj[key])}; expected {expected}")

    def text(self, key: str, *, optional: bool = False, default: str | None = None) -> Any:
        if key not in self.obj and default is not None:
            return default
        value = self.obj[key]
        if not (isinstance(value, str) or (optional and value is None)):
            raise self._fail(key, "a text" + (" or null" if optional else ""))
        return value

    def texts(self, key: str) -> tuple[str, ...]:
        value = self.obj[key]
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self._fail(key, "a list of texts")
        return tuple(value)

    def agent(self, key: str) -> Agent:
        value = self.obj[key]
        if value not in AGENTS:
            raise self._fail(key, "a or b")
        return value

    def sides(self, key: str) -> Sides[str]:
        value = self.obj[key]
        if not isinstance(value, dict) or not all(isinstance(value.get(agent), str) for agent in AGENTS):
            raise self._fail(key, "a text for a and for b")
        return Sides(value["a"], value["b"])

    def count(self, key: str) -> int:
        value = self.obj[key]
        if not _is_int(value) or value < 0:
            raise self._fail(key, "a whole number")
        return value

    def number(self, key: str) -> float:
        value = self.obj[key]
        if not _is_number(value):
            raise self._fail(key, "a number")
        return value

    def book(self) -> BookPlace | None:
        value = self.obj.get("book")
        if value is None:
            return None
        if not (isinstance(value, dict) and _is_int(value.get("line")) and value["line"] >= 1
                and isinstance(value.get("label", ""), str) and isinstance(value.get("from", ""), str)):
            raise self._fail("book", "a book line: {line, label, from}")
        return BookPlace(value["line"], value.get("label", ""), value.get("from") or None)

    def clocks(self) -> tuple[float, ...] | None:
        value = self.obj.get("clocks")
        if value is None:
            return None
        if not isinstance(value, list) or not all(_is_number(seconds) for seconds in value):
            raise self._fail("clocks", "a list of seconds")
        return tuple(value)

    def log(self) -> tuple[LogEntry, ...]:
        value = self.obj.get("log", [])
        if not isinstance(value, list) or not all(_is_log_entry(entry) for entry in value):
            raise self._fail("log", "a list of [score, mate, depth, nodes, seconds]")
        return tuple(LogEntry(*entry) for entry in value)


def _is_log_entry(entry: Any) -> bool:
    if not isinstance(entry, list) or len(entry) != len(LogEntry._fields):
        return False
    score, mate, depth, nodes, seconds = entry
    return (all(_is_int(n) for n in (score, depth, nodes)) and (mate is None or _is_int(mate))
            and _is_number(seconds))
