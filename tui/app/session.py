"""What a game in the app is made of: the game, who plays each side, the start.

:class:`GameSetup` is checked once, where it is made (the start screen or
``tui-games play``): every error is one line (:class:`SetupError`), so the
game screen never meets a bad engine spec or position.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engines import ENGINES, SpecError, create_engine
from engines import fallback_spec
from engines.learning.learned import EngineModelError
from engines.levels import Level, levels_for, rating_interval, rating_words
from games import GAME_NAMES, GameError, Outcome, game_class
from games.clock import ClockError, TimeControl
from games.reading import LoadedGame

from ..served import program_refusal
from ..views.format import default_text

__all__ = ["HUMAN", "DEFAULT_PLAYERS", "PRESETS", "presets_for", "level_summary", "GameSetup", "SetupError", "engine_summary", "fallback_notice",
           "resolve_player", "side_names", "level_of", "rounded", "engine_label", "record_player"]

#: The player spec of a human.
HUMAN = "human"

#: The start screen's player choices: (label, spec).  Every seed algorithm is
#: here with its defaults; the spec box under the choice edits the options.
PRESETS: tuple[tuple[str, str], ...] = (
    ("Human", HUMAN),
    ("pvs · 1 s a move", "pvs:time=1"),
    ("pvs · 3 s a move", "pvs:time=3"),
    ("pvs · 0.2 s a move", "pvs:time=0.2"),
    ("alphabeta · depth 4", "alphabeta:depth=4"),
    ("alphabeta · depth 2", "alphabeta:depth=2"),
    ("alphabeta-hard · depth 4", "alphabeta-hard:depth=4"),
    ("minimax · depth 3", "minimax:depth=3"),
    ("bl · bf 5, l 1", "bl:depth=4,bf=5,l=1"),
    ("h0 · k 5", "h0:depth=4,k=5"),
    ("hl · k 5, l 3", "hl:depth=4,k=5,l=3"),
    ("hr · k 5 (trained model)", "hr:depth=4,k=5"),
    ("pred (trained model, 1 ply)", "pred"),
    ("mi-pred (trained model, 1 ply)", "mi-pred"),
    ("random", "random"),
)


def presets_for(game: str) -> tuple[tuple[str, str], ...]:
    """The start screen's player choices for ``game``: Human, the game's
    levels with their ratings (weakest first), then :data:`PRESETS`."""
    levels = tuple((level.label, level.spec) for level in levels_for(game))
    return PRESETS[:1] + levels + PRESETS[1:]


def rounded(level: Level) -> str:
    """A level's rating as a player reads it: ``~1450`` (to the ten, as :func:`engines.levels.about`),
    or ``unrated``."""
    return "unrated" if level.elo is None else f"~{round(level.elo, -1):.0f}"


def level_of(game: str, spec: str) -> Level | None:
    """The level ``spec`` is, by name (``club``) or by its spec (``pvs:nodes=3000``); ``None``: none."""
    text = spec.strip().lower()
    for level in levels_for(game):
        if text in (level.name, level.spec):
            return level
    return None


def engine_label(game: str, spec: str) -> str:
    """How a game names an engine player: a level by its name and rating (``Club ~1450``),
    any other engine (or ``human``) by its spec."""
    level = level_of(game, spec)
    return spec if level is None else f"{level.name.capitalize()} {rounded(level)}"


def record_player(game: str, spec: str) -> str:
    """How a saved record names a player: a level by its name and rating (``Club (~1450)``; its
    spec goes in a tag of its own, :meth:`GameSetup.record_tags`), anyone else as given."""
    level = level_of(game, spec)
    return spec if level is None else f"{level.name.capitalize()} ({rounded(level)})"


def level_summary(game: str, spec: str) -> str | None:
    """One line about the level whose spec is ``spec``, or ``None``."""
    for level in levels_for(game):
        if level.spec == spec:
            return f"{level.name}: {level.about}; {rating_words(game, level)}, measured {rating_interval(game, level)}"
    return None


#: Who plays a new game unless the player chose otherwise: you first, against ``pvs``.
DEFAULT_PLAYERS: tuple[str, str] = ("human", "pvs:time=1")


class SetupError(ValueError):
    """A bad game, player spec or position; the message is one line."""


def side_names(game: str) -> tuple[str, str]:
    """The sides' names, first mover first: White/Black, Black/White, X/O."""
    return game_class(game).PLAYERS


def fallback_notice(spec: str, error: Exception) -> tuple[str, str]:
    """The fallback spec for a learned engine whose model failed, and the line saying so."""
    fallback = fallback_spec(spec)
    return fallback, f"{error} — {fallback} plays instead"


def resolve_player(spec: str, game: str) -> tuple[str, str | None]:
    """The player to use for ``spec`` (a human, a level of ``game`` by name,
    or an engine that can play ``game``) and a notice, or SetupError (one line).

    A learned engine (``hr``, ``pred``, ``mi-pred``) whose model is missing,
    corrupt, tampered with or mismatched falls back to ``h0``: the notice
    says so (otherwise it is ``None``)."""
    text = spec.strip()
    if not text:
        raise SetupError("empty player: type 'human' or an engine spec like 'pvs:time=1'")
    if text.lower() == HUMAN:
        return HUMAN, None
    for level in levels_for(game):
        if text.lower() == level.name:
            return level.spec, None  # a level by name: its engine spec
    refusal = program_refusal(text)  # a served app: before create_engine would start the program
    if refusal is not None:
        raise SetupError(refusal)
    try:
        create_engine(text, game_class(game)).close()
    except EngineModelError as error:
        return fallback_notice(text, error)
    except (SpecError, GameError) as error:
        message = str(error)
        if ":" not in text and "," not in text and text.lower() not in ENGINES:  # a name: maybe a level mistyped
            names = ", ".join(level.name for level in levels_for(game))
            message = f"{message}; or a level: {names}, or human"
        raise SetupError(message) from None
    return text, None


@dataclass(frozen=True)
class GameSetup:
    """A game to play: its name, the two players' specs (first mover first), the start."""

    game: str
    players: tuple[str, str] = DEFAULT_PLAYERS
    position: str | None = None
    #: Per side, first mover first: why a learned engine's model could not be
    #: used and what plays instead ("" when nothing was replaced).
    notices: tuple[str, str] = ("", "")
    #: Moves already played from ``position`` (a game read from a record file).
    moves: tuple[str, ...] = ()
    #: The record file those moves were read from ("" for none).
    source: str = ""
    #: The clocks' time control (``None``: no clocks).
    clock: TimeControl | None = None
    #: The engine spec analysing beside the game (``None``: analysis off).
    analysis: str | None = None
    #: A result the record states off the board (resignation, agreement, time).
    outcome: Outcome | None = None
    #: The players a loaded record names, first mover first: a human seat
    #: replaying the record saves under that name ("" for none).
    names: tuple[str, str] = ("", "")
    #: The record those moves were read from, which a save writes back with what followed.
    record: LoadedGame | None = None
    #: The moves read are played on at once (the player chose to continue the game), not
    #: reviewed with the engines paused.
    continued: bool = False

    @classmethod
    def checked(cls, game: str, first: str, second: str, position: str | None = None, *,
                clock: str | None = None, analysis: str | None = None) -> GameSetup:
        """A setup whose every part is valid; SetupError (one line) otherwise.

        ``clock`` is a time control as typed (``5+3``); ``analysis`` the spec
        of an engine analysing beside the game."""
        name = game.strip().lower()
        if name not in GAME_NAMES:
            raise SetupError(f"unknown game {game!r}; expected one of: {', '.join(GAME_NAMES)}")
        resolved = (resolve_player(first, name), resolve_player(second, name))
        players = (resolved[0][0], resolved[1][0])
        notices = (resolved[0][1] or "", resolved[1][1] or "")
        text = position.strip() if position else None
        if text:
            try:
                game_class(name).from_user_text(text)
            except GameError as error:
                raise SetupError(str(error)) from None
        control = None
        if clock is not None and clock.strip():
            try:
                control = TimeControl.parse(clock)
            except ClockError as error:
                raise SetupError(str(error)) from None
        analyst = None
        if analysis is not None:
            analyst, _ = resolve_player(analysis, name)
            if analyst == HUMAN:
                raise SetupError("analysis needs an engine spec like 'pvs', not 'human'")
        return cls(name, players, text or None, notices, clock=control, analysis=analyst)

    def is_human(self, side: int) -> bool:
        return self.players[side] == HUMAN

    @property
    def engine_sides(self) -> tuple[int, ...]:
        """The sides an engine plays."""
        return tuple(side for side in (0, 1) if not self.is_human(side))

    def swapped(self) -> GameSetup:
        """The same game with the players changing sides."""
        return replace(self, players=(self.players[1], self.players[0]),
                       notices=(self.notices[1], self.notices[0]), names=(self.names[1], self.names[0]))

    def fresh(self) -> GameSetup:
        """The same players, start and clock, without the moves read from a file (a rematch)."""
        return replace(self, moves=(), source="", outcome=None, names=("", ""), record=None, continued=False)

    def with_record(self, loaded: LoadedGame, source: str) -> GameSetup:
        """This setup replaying a game read from ``source``: its start, moves,
        stated result and player names."""
        return replace(self, position=loaded.start, moves=loaded.moves, source=source,
                       outcome=loaded.outcome, names=loaded.player_names, record=loaded)

    def record_name(self, side: int) -> str:
        """The name a saved record gives ``side``: the loaded record's for a
        human seat replaying it, a level's name and rating (``Club (~1450)``), else the
        player's spec (``human``)."""
        if self.is_human(side) and self.names[side]:
            return self.names[side]
        return record_player(self.game, self.players[side])

    def record_tags(self, player_tags: tuple[str, str]) -> dict[str, str]:
        """The tags a saved record gives the engines' specs, named after the tags naming the
        players (``player_tags``, first mover first): ``{"BlackEngine": "pvs:nodes=3000"}``."""
        return {f"{player_tags[side]}Engine": self.players[side] for side in self.engine_sides}

    @property
    def bottom_side(self) -> int:
        """The side drawn at the bottom: the human's when one human plays, else the first."""
        humans = [side for side in (0, 1) if self.is_human(side)]
        return humans[0] if len(humans) == 1 else 0

    def player_label(self, side: int) -> str:
        """``White (human)``, ``Black (pvs:time=1)``, ``Black (Club ~1500)`` (a level by its name)."""
        return f"{side_names(self.game)[side]} ({engine_label(self.game, self.players[side])})"


def engine_summary(spec: str, game: str | None = None) -> str:
    """One line about the engine a spec names, with its options and defaults (those that mean
    something in ``game``, when it is given)."""
    name = spec.split(":", 1)[0].strip().lower()
    info = ENGINES.get(name)
    if info is None:
        return ""
    # An option without a default is named alone, as in the docs' tables (``depth, time=1, nodes``).
    cls = game_class(game) if game is not None else None
    options = ", ".join(o.name if o.default is None else f"{o.name}={default_text(o)}"
                        for o in info.options.values() if cls is None or o.applies_to(cls))
    return f"{info.summary}\noptions: {options}"
