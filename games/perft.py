"""Perft: count the leaf nodes of the legal-move tree to a fixed depth.

The standard check of move generation.  The last ply is counted with
:meth:`Game.count_moves` (bulk counting) without playing the moves, as every
perft tool does.
"""

from __future__ import annotations

from .base import Game

__all__ = ["perft", "divide"]


def perft(game: Game, depth: int, *, bulk: bool = True) -> int:
    """Number of move sequences of length ``depth`` from the current position.

    A position with no legal move (game won on the board, or blocked) is a leaf
    that counts only when ``depth`` is 0.  With ``bulk`` (the default) the last
    ply is counted with :meth:`Game.count_moves` instead of being played; without
    it every leaf move is played and taken back (for benchmarks of play/undo).
    The position is left as it was.
    """
    if depth <= 0:
        return 1
    if depth == 1 and bulk:
        return game.count_moves()
    play, undo, below = game.play, game.undo, depth - 1
    total = 0
    for move in game.legal_moves():
        play(move)
        total += perft(game, below, bulk=bulk)
        undo()
    return total


def divide(game: Game, depth: int) -> list[tuple[str, int]]:
    """Per root move (formatted), the perft of ``depth - 1`` below it."""
    rows = []
    for move in game.legal_moves():
        text = game.format_move(move)
        game.play(move)
        rows.append((text, perft(game, depth - 1)))
        game.undo()
    return rows
