"""What fixes a match (:class:`MatchConfig`), and how a bad one is refused (:class:`MatchError`,
with a :class:`~engines.remedy.Remedy` the front ends word, see :mod:`engines.remedy`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from games import GAME_NAMES, game_class

from ..registry import create_engine, parse_engine_spec
from ..remedy import RunError
from ..spec import SpecError

__all__ = ["MAX_GAMES", "MatchConfig", "MatchError"]

#: The most games one match may have: a million games at a millisecond each is a quarter of an
#: hour of play, and every finished game's result is kept in memory for the report.
MAX_GAMES = 1_000_000


class MatchError(RunError):
    """A bad match: arguments, a results file, a cluster.  The message is one
    line; ``remedy`` says what the user can do (see :mod:`engines.remedy`)."""


@dataclass(frozen=True)
class MatchConfig:
    """What fixes a match: every game's result carries it (its JSON line's ``match`` key).

    ``a`` and ``b`` are canonical spec texts (see :meth:`create`)."""

    game: str
    a: str
    b: str
    games: int
    openings: int = 4
    seed: int = 0

    @classmethod
    def create(cls, game: str, a: str, b: str, games: int, openings: int = 4, seed: int = 0) -> MatchConfig:
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
                spec = parse_engine_spec(text)
                create_engine(spec, cls_).close()  # heuristics, the game, a stockfish binary ...
            except SpecError as error:
                raise SpecError(f"agent {side}: {error}") from None
            texts.append(str(spec))
        return cls(game, texts[0], texts[1], games, openings, seed)

    def to_json(self) -> dict[str, Any]:
        """The ``match`` key of its games' JSON lines."""
        return asdict(self)

    def spec(self, agent: str) -> str:
        return self.a if agent == "a" else self.b

    def describe(self) -> str:
        """One line naming the match: ``quixo random vs pvs, 10 games, 4 opening plies, seed 0``."""
        return (f"{self.game} {self.a} vs {self.b}, {self.games} games, {self.openings} opening plies, "
                f"seed {self.seed}")
