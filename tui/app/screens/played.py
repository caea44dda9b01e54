"""The game a game screen plays, as data: no Textual here.

:class:`PlayedGame` holds the :class:`~games.Game`, its moves as texts (what
the search process replays and the records write), the result decided off the
board (a resignation, an agreed draw, a flag fall), the ply reviewed and the
moves last saved; it numbers the moves as the records do (a chess FEN's
full-move number) and says whether moves were played that no file holds.
"""

from __future__ import annotations

from typing import Any

from games import Game, Outcome, new_game

from ..session import GameSetup, side_names

__all__ = ["PlayedGame", "start_move_number"]


def start_move_number(game: Game) -> int:
    """The move number of a game's start position (a chess FEN's full-move number, else 1)."""
    board = getattr(game, "board", None)
    return int(getattr(board, "fullmove_number", 1)) if board is not None else 1


class PlayedGame:
    """The game of ``setup`` with the moves it read from a record played."""

    def __init__(self, setup: GameSetup) -> None:
        self.sides = side_names(setup.game)
        self.game: Game = new_game(setup.game, setup.position)
        self.first_number = start_move_number(self.game)
        #: The moves played, as texts.
        self.moves: list[str] = []
        for text in setup.moves:
            self.play(self.game.parse_move(text))
        #: The side that made (or makes) the first move of this game.
        self.first_mover = (self.game.turn + len(self.moves)) % 2
        #: A result decided off the board: resignation, agreed draw, time.
        self.verdict: Outcome | None = setup.outcome
        #: The moves as last saved (or read from a file); ``None``: never saved.
        self.saved_moves: list[str] | None = list(self.moves) if setup.source else None
        #: The position reviewed (after this many moves); ``None``: the game itself.
        self.review: int | None = None

    def play(self, move: Any) -> None:
        self.moves.append(self.game.format_move(move))
        self.game.play(move)

    def undo(self) -> None:
        """Take back the last move."""
        self.game.undo()
        self.moves.pop()

    def outcome(self) -> Outcome | None:
        """How the game ended: off the board or on it; ``None`` while it goes on."""
        return self.verdict or self.game.outcome()

    @property
    def unsaved(self) -> bool:
        """Moves were played that no file holds."""
        return bool(self.moves) and self.moves != self.saved_moves

    def shown_game(self) -> Game:
        """The position to show: the game's, or the one reviewed."""
        if self.review is None:
            return self.game
        shown = self.game.copy()
        for _ in range(len(self.moves) - self.review):
            shown.undo()
        return shown

    def move_number(self, ply: int) -> int:
        """The number of the move made after ``ply`` plies (from the start position's number)."""
        return self.first_number + (ply + self.first_mover) // 2

    def review_status(self) -> str:
        """The status line while reviewing: which position is shown."""
        ply = self.review or 0
        if ply == 0:
            where = "the start position"
        else:
            dots = "." if (ply - 1 + self.first_mover) % 2 == 0 else "..."
            where = f"after {self.move_number(ply - 1)}{dots} {self.moves[ply - 1]}"
        return f"reviewing {where} ({ply}/{len(self.moves)}) — ←→ Home End, Enter plays from here, Esc returns"
