"""Kalah records: the move list tui-games writes for games no other program records.

``# tui-games Kalah``, the tags (``# South:``, ``# North:``, ``# Result:``...), then one line per
move pair; where a side moves again its moves share the line with ``..`` marking the side
that did not move (see :mod:`games.movelist`).
"""

from __future__ import annotations

from typing import ClassVar

from games.movelist import MoveList

__all__ = ["KalahMoveList"]


class KalahMoveList(MoveList):
    """The Kalah move list."""

    name: ClassVar[str] = "a Kalah move list"
    game_name: ClassVar[str] = "kalah"
    title: ClassVar[str] = "Kalah"
    player_tags: ClassVar[tuple[str, str]] = ("South", "North")
    move_pattern: ClassVar[str] = r"\b([a-fA-F])\b"
    example: ClassVar[str] = "c  d"
