"""Checkers puzzle themes (engines.puzzle_themes asks them).

``shot``: the player gives a piece away (the reply is a capture) and then takes two or more
in one move; ``breakthrough``: a man of the player's is crowned in the line after it gave a
piece away; ``winInN``: the line wins the game on the board in N moves.
"""

from __future__ import annotations

from typing import Any

__all__ = ["themes"]


def _pieces(game: Any, player: int) -> int:
    return (game.black if player == 0 else game.white).bit_count()


def themes(game: Any, solution: list[Any]) -> list[str]:
    """The line's checkers themes (see the module doc); ``game`` is at the puzzle's position."""
    player = game.turn
    found = []
    given = False
    for ply, move in enumerate(solution):
        mine = game.black if player == 0 else game.white
        kings = game.kings & mine
        before = _pieces(game, 1 - player)
        game.play(move)
        if ply % 2 == 1:
            given = given or _pieces(game, player) < mine.bit_count()
            continue
        if given and before - _pieces(game, 1 - player) >= 2:
            found.append("shot")
        now = game.black if player == 0 else game.white
        if given and (game.kings & now).bit_count() > kings.bit_count():
            found.append("breakthrough")
    outcome = game.outcome()
    if outcome is not None and outcome.winner == player:
        found.append(f"winIn{(len(solution) + 1) // 2}")
    return found
