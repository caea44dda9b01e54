"""How the other side sees the board: the map between the two sides' views of the network's inputs."""

from __future__ import annotations

__all__ = ["OTHER_VIEW", "other_view_of"]


def other_view_of(index: int) -> int:
    """The input the other side sees for the side to move's input ``index``: colours swapped, ranks mirrored
    (the map :mod:`games.chess.network` uses)."""
    kind, square = divmod(index, 64)
    return ((kind + 6) % 12) * 64 + (square ^ 56)


#: For each of the 768 inputs of the side to move, the one the other side sees (the map is its own inverse).
OTHER_VIEW: tuple[int, ...] = tuple(other_view_of(index) for index in range(768))
