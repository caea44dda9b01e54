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

The games are the entry points of the group ``tui_games.games``, ours and
those of any installed distribution (:mod:`games.registry`): ``GAME_NAMES``,
:func:`game_kind` and :func:`game_titles` read them.

Nothing here knows about engines or the user interface: ``games`` imports
nothing else of ours.  Pick a game by name::

    >>> from games import new_game
    >>> g = new_game("checkers")
    >>> g.legal_move_texts()[:3]
    ['9-13', '9-14', '10-14']
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING

from . import registry
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
    Termination,
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
    "Termination",
    "UnknownGameError",
    "UnknownHeuristicError",
    "GameKind",
    "game_class",
    "game_files",
    "game_package",
    "game_kind",
    "game_titles",
    "kind_of",
    "new_game",
    "plugin_problems",
]

if TYPE_CHECKING:
    #: The registered games' names, in menu order (the module's ``__getattr__`` reads them on first use).
    GAME_NAMES: tuple[str, ...]


def __getattr__(name: str) -> object:
    """``GAME_NAMES``: the registered games, by name in menu order, read on first use."""
    if name == "GAME_NAMES":
        return tuple(registry.registered().loaders)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class UnknownGameError(GameError):
    """No game of that name."""


def game_kind(name: str) -> GameKind[Game]:
    """Everything about the game registered as ``name`` (case-insensitive)."""
    key = name.strip().lower()
    games = registry.registered()
    if key not in games.loaders:
        raise UnknownGameError(
            f"unknown game {name!r}; expected one of: {', '.join(games.loaders)}"
        ) from None
    return games.kind(key)


def game_package(name: str) -> str:
    """The package that holds the game registered as ``name`` (its ``KIND``), and so the files it
    ships: books, puzzles, learned tables, models (``games.othello``)."""
    game_kind(name)
    return registry.registered().package(name.strip().lower())


def game_files(name: str) -> Traversable:
    """The folder of the game's package (:func:`game_package`), as :mod:`importlib.resources` finds
    it wherever the package is installed."""
    return resources.files(game_package(name))


def game_class(name: str) -> type[Game]:
    """The :class:`Game` subclass registered as ``name`` (case-insensitive)."""
    return game_kind(name).game


def game_titles() -> str:
    """The games in a sentence: ``chess, checkers and Quixo``."""
    titles = [game_kind(name).title for name in registry.registered().loaders]
    return ", ".join(titles[:-1]) + " and " + titles[-1] if len(titles) > 1 else titles[0]


def kind_of(game: Game | type[Game]) -> GameKind[Game]:
    """Everything about the game ``game`` is a position (or the class) of."""
    return game_kind(game.NAME)


def new_game(name: str, position: str | None = None) -> Game:
    """A new game called ``name`` at the start position or at ``position`` (a position text,
    refused where the rules cannot reach it: :meth:`~games.base.Game.check_reachable`)."""
    cls = game_class(name)
    return cls() if position is None else cls.from_user_text(position)


def plugin_problems() -> tuple[str, ...]:
    """The registered games left out, each in one line (said on stderr once, when the games were listed)."""
    return tuple(str(problem) for problem in registry.registered().problems)
