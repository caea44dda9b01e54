"""How the other side sees the board: the map between the two sides' views of the network's inputs."""

from __future__ import annotations

__all__ = ["other_view_of"]


def other_view_of(index: int) -> int:
    """The input the other side sees for the side to move's input ``index``: colours swapped, ranks mirrored
    (the map :mod:`games.chess.network` uses)."""
    kind, square = divmod(index, 64)
    return ((kind + 6) % 12) * 64 + (square ^ 56)
