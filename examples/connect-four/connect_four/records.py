"""Connect Four records: the move list tui-games writes for games no other program records.

``# tui-games Connect Four``, the tags (``# Red:``, ``# Yellow:``, ``# Result:``...), then numbered
lines of columns, ``1. d  d``.
"""

from __future__ import annotations

from typing import ClassVar

from games.movelist import MoveList

__all__ = ["ConnectFourMoveList"]


class ConnectFourMoveList(MoveList):
    """The Connect Four move list."""

    name: ClassVar[str] = "a Connect Four move list"
    game_name: ClassVar[str] = "connect-four"
    title: ClassVar[str] = "Connect Four"
    player_tags: ClassVar[tuple[str, str]] = ("Red", "Yellow")
    move_pattern: ClassVar[str] = r"\b([a-gA-G])\b"
    example: ClassVar[str] = "d  d"
