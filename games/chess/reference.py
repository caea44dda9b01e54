"""Chess perft the plain python-chess way, a reference for our move generation's speed.

A ``push``/``pop`` recursion over python-chess that, like our perft, counts
the last ply with ``board.legal_moves.count()`` instead of playing it.
"""

from __future__ import annotations

import chess

__all__ = ["python_chess_perft", "reference_perft"]


def python_chess_perft(board: chess.Board, depth: int) -> int:
    """Plain python-chess recursion, last ply counted without playing it."""
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total


def reference_perft(position: str | None, depth: int) -> int:
    """The leaves ``depth`` plies below ``position`` (a FEN; ``None``: the start)."""
    return python_chess_perft(chess.Board(position) if position else chess.Board(), depth)
