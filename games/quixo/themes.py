"""Quixo puzzle themes (engines.puzzle_themes asks them): ``lineInN``, the line makes five in a
row in N moves of the player's."""

from __future__ import annotations

from typing import Any

__all__ = ["themes"]


def themes(game: Any, solution: list[Any]) -> list[str]:
    """The line's Quixo themes; ``game`` is at the puzzle's position."""
    player = game.turn
    for move in solution:
        game.play(move)
    outcome = game.outcome()
    return [f"lineIn{(len(solution) + 1) // 2}"] if outcome is not None and outcome.winner == player else []
