"""Othello puzzle themes (engines.puzzle_themes asks them).

``corner``: a move of the player's takes a corner; ``parity``: in the endgame (at most
:data:`ENDGAME` empty cells), a move of the player's leaves every region of empty cells even (the
player will have the last move in each);
``winInN``: the line ends the game, won, in N moves.
"""

from __future__ import annotations

from typing import Any

__all__ = ["themes"]

CORNERS = (0, 7, 56, 63)
SIZE = 8
ENDGAME = 16


def _even_regions(game: Any) -> bool:
    """Whether every region of empty cells (cells joined by a side or a corner) has an even size."""
    empty = {cell for cell in range(SIZE * SIZE) if game.piece_at(cell) is None}
    if not empty:
        return False
    while empty:
        todo = [empty.pop()]
        size = 0
        while todo:
            cell = todo.pop()
            size += 1
            row, col = divmod(cell, SIZE)
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    near = (row + dr) * SIZE + col + dc
                    if 0 <= row + dr < SIZE and 0 <= col + dc < SIZE and near in empty:
                        empty.discard(near)
                        todo.append(near)
        if size % 2:
            return False
    return True


def themes(game: Any, solution: list[Any]) -> list[str]:
    """The line's Othello themes (see the module doc); ``game`` is at the puzzle's position."""
    player = game.turn
    found = []
    for ply, move in enumerate(solution):
        game.play(move)
        if ply % 2:
            continue
        if move in CORNERS:
            found.append("corner")
        if game.empties <= ENDGAME and _even_regions(game):
            found.append("parity")
    outcome = game.outcome()
    if outcome is not None and outcome.winner == player:
        found.append(f"winIn{(len(solution) + 1) // 2}")
    return found
