"""Othello records: the move list tui-games writes, and plain transcripts.

Written: :class:`games.movelist.MoveList`'s format, headed ``# tui-games
Othello``, with ``# Black:`` (who moved first) and ``# White:``, then
numbered lines of cells, ``1. f5  d6``, and ``pass`` where a side had to pass.

Read as well: the transcripts Othello programs and game databases exchange,
one game per line, the cells run together (``f5d6c3d3c4f4...``) or apart,
passes left out (they are put back where the side to move has no placement).
"""

from __future__ import annotations

import re
from typing import ClassVar

from ..movelist import MoveList
from ..base import GameError
from ..records import MAX_GAMES, LoadedGame, RecordError, games_over_cap
from .bitboards import PASS
from .game import Othello

__all__ = ["OthelloMoveList"]

#: A line of a transcript: cells only (``f5d6c3``, ``f5 d6 c3``), maybe with ``pass``.
_TRANSCRIPT_LINE = re.compile(r"^\s*(?:(?:[a-h][1-8]|pass)\s*)+$", re.IGNORECASE)
_TRANSCRIPT_MOVE = re.compile(r"[a-h][1-8]|pass", re.IGNORECASE)


class OthelloMoveList(MoveList):
    """The Othello move list, and transcripts."""

    name: ClassVar[str] = "an Othello move list"
    game_name: ClassVar[str] = "othello"
    title: ClassVar[str] = "Othello"
    player_tags: ClassVar[tuple[str, str]] = ("Black", "White")
    move_pattern: ClassVar[str] = r"\b([a-hA-H][1-8]|[Pp][Aa][Ss][Ss])\b"
    example: ClassVar[str] = "f5  d6"

    def recognises(self, text: str) -> bool:
        lines = [line for line in text.splitlines() if line.strip()]
        return super().recognises(text) or bool(lines) and all(_TRANSCRIPT_LINE.match(line) for line in lines[:5])

    def read(self, text: str) -> list[LoadedGame | RecordError]:
        lines = [line for line in text.splitlines() if line.strip()]
        if not lines or not all(_TRANSCRIPT_LINE.match(line) for line in lines):
            return super().read(text)
        if len(lines) > MAX_GAMES:  # a game a line: counted before any is played through
            raise games_over_cap()
        return [self._transcript(line) for line in lines]

    def _transcript(self, line: str) -> LoadedGame:
        """One transcript line's game, with the passes it leaves out put back."""
        game = Othello()
        written = _TRANSCRIPT_MOVE.findall(line)
        moves: list[str] = []
        for index, text in enumerate(written):
            if text.lower() != "pass" and game.legal_moves() == [PASS]:
                moves.append("pass")
                game.play(PASS)
            try:
                move = game.parse_move(text)
            except GameError:
                moves += [rest.lower() for rest in written[index:]]  # as written: the replay says what is wrong
                break
            moves.append(game.format_move(move))
            game.play(move)
        return LoadedGame(self.game_name, None, tuple(moves), {}, player_tags=self.player_tags)
