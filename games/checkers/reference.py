"""Checkers perft through OpenSpiel, a reference for our move generation's speed.

OpenSpiel's ``checkers`` (``pip install open_spiel``, optional) walked from
Python with ``state.child``.  Its multi-jumps are several actions, so a move
counts only when the player to move changes.  It cannot count the last ply
without playing it, so the benchmark also shows our figure playing every leaf.
"""

from __future__ import annotations

from typing import Any

__all__ = ["openspiel_perft", "reference_perft"]


def openspiel_perft(state: Any, depth: int) -> int:
    """Perft over an OpenSpiel checkers state, counting a move when the player changes."""
    if depth == 0:
        return 1
    player = state.current_player()
    total = 0
    for action in state.legal_actions():
        child = state.child(action)
        if child.is_terminal():
            total += depth == 1
        elif child.current_player() == player:  # a multi-jump goes on: same move
            total += openspiel_perft(child, depth)
        else:
            total += openspiel_perft(child, depth - 1)
    return total


def reference_perft(position: str | None, depth: int) -> int | None:
    """The leaves ``depth`` plies below the start (OpenSpiel reads no PDN
    positions: ``position`` must be ``None``), or ``None`` without open_spiel."""
    if position is not None:
        raise ValueError("the OpenSpiel reference counts from the start position only")
    try:
        import pyspiel
    except ImportError:
        return None
    return openspiel_perft(pyspiel.load_game("checkers").new_initial_state(), depth)
