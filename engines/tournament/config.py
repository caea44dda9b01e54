"""What fixes a match (:class:`MatchConfig`), and how a bad one is refused (:class:`MatchError`,
with a :class:`~engines.remedy.Remedy` the front ends word, see :mod:`engines.remedy`).

An engine spec of a match may carry a clock of its own, ``tc=BASE+INC`` among
its options (``pvs:nodes=500,tc=10+0.1``: time odds): the match reads it off
before the engine sees the spec (:func:`split_clock`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import GAME_NAMES, game_class
from games.clock import TimeControl

from ..registry import create_engine, parse_engine_spec
from ..remedy import RunError
from ..spec import EngineSpec, SpecError
from .conditions import Conditions, ConditionsError, parse_time_control

__all__ = ["MAX_GAMES", "MatchConfig", "MatchError", "join_clock", "split_clock"]

#: The most games one match may have: a million games at a millisecond each is a quarter of an
#: hour of play, and every finished game's result is kept in memory for the report.
MAX_GAMES = 1_000_000


class MatchError(RunError):
    """A bad match: arguments, a results file, a cluster.  The message is one
    line; ``remedy`` says what the user can do (see :mod:`engines.remedy`)."""


def split_clock(text: str) -> tuple[str, TimeControl | None]:
    """An engine spec without its ``tc=`` option, and that clock (``None``: none)."""
    name, colon, rest = text.strip().partition(":")
    kept, clock = [], None
    for item in rest.split(",") if colon else ():
        key, eq, value = item.partition("=")
        if eq and key.strip().lower() == "tc":
            if clock is not None:
                raise SpecError(f"{name.strip()}: option tc given twice")
            try:
                clock = parse_time_control(value.strip())
            except ConditionsError as error:
                raise SpecError(f"{name.strip()}: option tc: {error}") from None
        else:
            kept.append(item)
    return (f"{name}:{','.join(kept)}" if kept else name), clock


def join_clock(spec: EngineSpec | str, clock: TimeControl | None) -> str:
    """The spec text with its clock as the last option (``pvs:nodes=500,tc=10+0.1``)."""
    text = str(spec)
    if clock is None:
        return text
    return f"{text}{',' if ':' in text else ':'}tc={clock.seconds_text}"


#: The keys of a results line's ``match`` every match has written (the conditions add theirs when set).
BASE_KEYS = ("game", "a", "b", "games", "openings", "seed")
#: How a message names each of :data:`BASE_KEYS`.
_KEY_WORDS = {"game": "game", "a": "engine a", "b": "engine b", "games": "number of games",
              "openings": "number of opening plies", "seed": "seed"}


@dataclass(frozen=True)
class MatchConfig:
    """What fixes a match: every game's result carries it (its JSON line's ``match`` key).

    ``a`` and ``b`` are canonical spec texts, each with its own clock if it has
    one (see :meth:`create`); ``conditions`` are the book, adjudication and
    clocks (:class:`~engines.tournament.conditions.Conditions`, all off by
    default).  With a book, ``openings`` is not used."""

    game: str
    a: str
    b: str
    games: int
    openings: int = 4
    seed: int = 0
    conditions: Conditions = Conditions()

    @classmethod
    def create(cls, game: str, a: str, b: str, games: int, openings: int = 4, seed: int = 0,
               conditions: Conditions | None = None) -> MatchConfig:
        """A config with the game name and specs checked and made canonical.

        Raises :class:`SpecError` for a bad spec (one the game cannot use
        included: the engines are built once and closed) and
        :class:`MatchError` for the rest.
        """
        if game not in GAME_NAMES:
            raise MatchError(f"unknown game {game!r}; expected one of: {', '.join(GAME_NAMES)}")
        if games < 1:
            raise MatchError(f"a match needs at least 1 game, got {games}")
        if games > MAX_GAMES:
            raise MatchError(f"a match of {games:,} games is more than this runner plays "
                             f"(at most {MAX_GAMES:,}); split it into matches with other seeds")
        if openings < 0:
            raise MatchError(f"the random opening cannot have {openings} plies; expected 0 or more")
        cls_ = game_class(game)
        texts = []
        for side, text in (("A", a), ("B", b)):
            try:
                engine_text, clock = split_clock(text)
                spec = parse_engine_spec(engine_text)
                create_engine(spec, cls_).close()  # heuristics, the game, a stockfish binary ...
            except SpecError as error:
                raise SpecError(f"agent {side}: {error}") from None
            texts.append(join_clock(spec, clock))
        return cls(game, texts[0], texts[1], games, openings, seed, conditions or Conditions())

    def to_json(self) -> dict[str, Any]:
        """The ``match`` key of its games' JSON lines: the keys every match writes, then
        those of the conditions that are set."""
        return {**{key: getattr(self, key) for key in BASE_KEYS}, **self.conditions.to_json()}

    def spec(self, agent: str) -> str:
        return self.a if agent == "a" else self.b

    def clock(self, agent: str) -> TimeControl | None:
        """``agent``'s clock: its spec's ``tc=``, else the match's (``None``: no clock)."""
        _, own = split_clock(self.spec(agent))
        if own is not None:
            return own
        tc = self.conditions.tc
        return None if tc is None else parse_time_control(tc)

    def describe(self) -> str:
        """One line naming the match: ``quixo random vs pvs, 10 games, 4 opening plies, seed 0``
        (and its conditions, when it has any)."""
        start = (f"{self.conditions.book.describe()}" if self.conditions.book
                 else f"{self.openings} opening plies")
        rest = self.conditions.describe() if not self.conditions.book else \
            self.conditions.describe().removeprefix(self.conditions.book.describe()).lstrip(", ")
        return (f"{self.game} {self.a} vs {self.b}, {self.games} games, {start}, seed {self.seed}"
                + (f", {rest}" if rest else ""))

    def difference(self, other: MatchConfig) -> str:
        """What makes ``other`` another match than this one, in words."""
        for key in BASE_KEYS:
            if getattr(self, key) != getattr(other, key):
                return f"its {_KEY_WORDS[key]} is {getattr(other, key)}, not {getattr(self, key)}"
        return f"its {self.conditions.difference(other.conditions)}"
