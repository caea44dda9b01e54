"""The games: one package each, and the registry that lists them.

A game's package holds everything particular to it: the rules (positions,
legal moves, play/undo, outcomes, notation, heuristics, features: a
:class:`Game` subclass) and all the rest the project needs to know of it --
its records, its board as drawn, its score scale, levels and benchmarks --
in its :class:`~games.kind.GameKind`, ``KIND``.  The shared pieces are here:
the protocol (:mod:`games.base`), the board description
(:mod:`games.board`), the record model (:mod:`games.records`,
:mod:`games.movelist`) and reading record files (:mod:`games.reading`),
opening books (:mod:`games.books`), grid position texts (:mod:`games.grid`),
clocks (:mod:`games.clock`), perft (:mod:`games.perft`).

Nothing here knows about engines or the user interface: ``games`` imports
nothing else of ours.  Pick a game by name::

    >>> from games import new_game
    >>> g = new_game("checkers")
    >>> g.legal_move_texts()[:3]
    ['9-13', '9-14', '10-14']
"""

from __future__ import annotations

from importlib import import_module

from .kind import GameKind
from .base import (
    HEURISTIC_BOUND,
    WIN,
    Game,
    GameError,
    Heuristic,
    IllegalMoveError,
    MoveError,
    MoveSyntaxError,
    Outcome,
    PositionError,
    UnknownHeuristicError,
)

__all__ = [
    "GAME_NAMES",
    "HEURISTIC_BOUND",
    "WIN",
    "Game",
    "GameError",
    "Heuristic",
    "IllegalMoveError",
    "MoveError",
    "MoveSyntaxError",
    "Outcome",
    "PositionError",
    "UnknownGameError",
    "UnknownHeuristicError",
    "GameKind",
    "game_class",
    "game_kind",
    "game_titles",
    "kind_of",
    "new_game",
]

#: The one list of the games: registry name -> the package that holds the game
#: (its ``KIND``).  Packages are imported on first use.
_REGISTRY: dict[str, str] = {
    "chess": "games.chess",
    "checkers": "games.checkers",
    "quixo": "games.quixo",
    "othello": "games.othello",
}

#: The games, by registry name, in menu order.
GAME_NAMES: tuple[str, ...] = tuple(_REGISTRY)


class UnknownGameError(GameError):
    """No game of that name."""


def game_kind(name: str) -> GameKind[Game]:
    """Everything about the game registered as ``name`` (case-insensitive)."""
    key = name.strip().lower()
    try:
        package = _REGISTRY[key]
    except KeyError:
        raise UnknownGameError(
            f"unknown game {name!r}; expected one of: {', '.join(GAME_NAMES)}"
        ) from None
    kind: GameKind[Game] = import_module(package).KIND
    return kind


def game_class(name: str) -> type[Game]:
    """The :class:`Game` subclass registered as ``name`` (case-insensitive)."""
    return game_kind(name).game


def game_titles() -> str:
    """The games in a sentence: ``chess, checkers and Quixo``."""
    titles = [game_kind(name).title for name in GAME_NAMES]
    return ", ".join(titles[:-1]) + " and " + titles[-1] if len(titles) > 1 else titles[0]


def kind_of(game: Game | type[Game]) -> GameKind[Game]:
    """Everything about the game ``game`` is a position (or the class) of."""
    return game_kind(game.NAME)


def new_game(name: str, position: str | None = None) -> Game:
    """A new game called ``name`` at the start position or at ``position`` (a position text,
    refused where the rules cannot reach it: :meth:`~games.base.Game.check_reachable`)."""
    cls = game_class(name)
    return cls() if position is None else cls.from_user_text(position)
