"""Puzzle themes: what a puzzle's line shows, computed from the line.

Every game's puzzles get the themes of their length, as lichess names them:
``oneMove`` (one move of the player's), ``short`` (two), ``long`` (three),
``veryLong`` (four or more).  What else a line shows is the game's to say: a
game's package may hold a ``themes`` module with ``themes(game, solution)``
(the position after the setting-up move, the line's moves) returning its
themes (chess: ``mateInN``, ``fork``, ``pin``, ``skewer``,
``discoveredAttack``, ``backRankMate``, ``promotion``, ``sacrifice``,
``endgame``; checkers: ``shot``, ``breakthrough``, ``winInN``; Othello:
``corner``, ``parity``, ``winInN``; Quixo: ``lineInN``).  A game without one
gets ``winInN`` for a line that wins the game on the board in N moves.
"""

from __future__ import annotations

import importlib
from dataclasses import replace
from typing import Any, Callable, Sequence

from games import Game, game_package, new_game

__all__ = ["tag", "themes", "length_theme", "game_themes"]

LENGTHS = ("oneMove", "short", "long", "veryLong")


def length_theme(plies: int) -> str:
    """The theme of a line's length in plies (its player's moves: 1, 2, 3, 4 or more)."""
    return LENGTHS[min((plies + 1) // 2, len(LENGTHS)) - 1]


def game_themes(game_name: str) -> Callable[[Game, list[Any]], list[str]] | None:
    """The game package's ``themes`` function, if its package has a ``themes`` module."""
    try:
        module = importlib.import_module(f"{game_package(game_name)}.themes")
    except ModuleNotFoundError:
        return None
    return getattr(module, "themes", None)


def _won_in(game: Game, solution: Sequence[Any]) -> int | None:
    """The player's moves to a win on the board, if the line ends in one."""
    work = game.copy()
    for move in solution:
        work.play(move)
    outcome = work.outcome()
    return (len(solution) + 1) // 2 if outcome is not None and outcome.winner == game.turn else None


def themes(game_name: str, game: Game, solution: Sequence[Any]) -> tuple[str, ...]:
    """The themes of the line ``solution`` from ``game`` (the position after the setting-up move)."""
    found = [length_theme(len(solution))]
    own = game_themes(game_name)
    if own is not None:
        found += own(game.copy(), list(solution))
    else:
        won = _won_in(game, solution)
        if won is not None:
            found.append(f"winIn{won}")
    return tuple(dict.fromkeys(found))


def tag(game_name: str, puzzles: Sequence[Any]) -> list[Any]:
    """The puzzles (any with ``position``, ``setup`` and ``solution`` texts) with their themes."""
    tagged = []
    for puzzle in puzzles:
        game = new_game(game_name, puzzle.position)
        if puzzle.setup is not None:
            game.play_text(puzzle.setup)
        work = game.copy()
        moves = [work.play_text(text) for text in puzzle.solution]
        tagged.append(replace(puzzle, themes=themes(game_name, game, moves)))
    return tagged
