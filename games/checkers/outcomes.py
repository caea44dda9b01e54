"""Why a game of checkers ends: its own reasons, beside the shared ones of
:class:`games.base.Termination` (threefold repetition)."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["CheckersTermination"]


class CheckersTermination(StrEnum):
    """Checkers' own reasons a game ends; each member is its words (``"40-move rule"``)."""

    NO_PIECES = "no pieces"
    NO_MOVES = "no moves"
    FORTY_MOVE_RULE = "40-move rule"
