"""Quixo records: the move list tui-games writes (no other program writes Quixo records).

The format is :class:`games.movelist.MoveList`'s: ``# tui-games Quixo``, the
tags ``# X:`` (the first player) and ``# O:`` (the second), then numbered
lines of moves in the game's notation, ``1. 2 0 bottom  4 4 left``.
"""

from __future__ import annotations

from typing import ClassVar

from ..movelist import MoveList

__all__ = ["QuixoMoveList", "read_quixo_record"]


class QuixoMoveList(MoveList):
    """The Quixo move list."""

    name: ClassVar[str] = "a Quixo move list"
    game_name: ClassVar[str] = "quixo"
    title: ClassVar[str] = "Quixo"
    player_tags: ClassVar[tuple[str, str]] = ("X", "O")
    move_pattern: ClassVar[str] = r"([0-9]+)[ ,]+([0-9]+)[ ,]+([A-Za-z]+)"
    example: ClassVar[str] = "2 0 bottom  4 4 left"


def read_quixo_record(text: str) -> tuple[str | None, list[str]]:
    """The start position text (``None`` for the empty board) and the move texts of one Quixo record."""
    return QuixoMoveList().moves_of(text)
