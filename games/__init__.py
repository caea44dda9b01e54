"""Rules of the games: positions, legal moves, play/undo, outcomes, notation, heuristics.

Nothing here knows about engines or the user interface.  Pick a game by name::

    >>> from games import new_game
    >>> g = new_game("checkers")
    >>> g.legal_move_texts()[:3]
    ['9-13', '9-14', '10-14']
"""

from __future__ import annotations

from importlib import import_module

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
    "game_class",
    "new_game",
]

#: Registry name -> (module, class).  Modules are imported on first use.
_REGISTRY: dict[str, tuple[str, str]] = {
    "chess": ("games.chess", "ChessGame"),
    "checkers": ("games.checkers", "Checkers"),
    "quixo": ("games.quixo", "Quixo"),
}

#: The games, by registry name, in menu order.
GAME_NAMES: tuple[str, ...] = tuple(_REGISTRY)


class UnknownGameError(GameError):
    """No game of that name."""


def game_class(name: str) -> type[Game]:
    """The :class:`Game` subclass registered as ``name`` (case-insensitive)."""
    key = name.strip().lower()
    try:
        module, cls = _REGISTRY[key]
    except KeyError:
        raise UnknownGameError(
            f"unknown game {name!r}; expected one of: {', '.join(GAME_NAMES)}"
        ) from None
    return getattr(import_module(module), cls)


def new_game(name: str, position: str | None = None) -> Game:
    """A new game called ``name`` at the start position or at ``position`` (a position text)."""
    cls = game_class(name)
    return cls() if position is None else cls.from_text(position)
