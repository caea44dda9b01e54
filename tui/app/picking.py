"""Moves made by pointing: pick a piece up, put it down.

:class:`MovePicker` groups a position's legal moves by the squares they start
and end on (as a board painter sees them), so that two squares name a move --
or several: a chess promotion (one per piece), a checkers multi-jump that
reaches the same square by two paths.  A move that starts and ends on one
square (a disc placed) is made by choosing that square once; a move on no
square (a pass) is typed, or made by choosing any square when it is the
only move.  It knows nothing of Textual; the game
screen asks it what a click means and the board shows its answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import Game, GameError

from ..views.format import illegal_text
from .widgets.painting import BoardPainter, Square

__all__ = ["MovePicker", "Pick"]


@dataclass(frozen=True)
class Pick:
    """What choosing a square did.

    ``selected`` is the square now picked up (``None``: nothing is), with its
    ``targets``; ``moves`` the legal moves the choice completes (one, or several
    to choose between; ``ask``: ask even for one); ``error`` why the choice is not
    a move, worded as for a typed move.
    """

    selected: Square | None = None
    targets: frozenset[Square] = frozenset()
    moves: tuple[Any, ...] = ()
    error: str = ""
    #: The moves are asked for even when there is one (the choice might be meant otherwise).
    ask: bool = False


class MovePicker:
    """The legal moves of ``game`` by start and end square."""

    def __init__(self, game: Game, painter: BoardPainter) -> None:
        self.game = game
        self.painter = painter
        self.moves: dict[Square, dict[Square, list[Any]]] = {}
        #: The moves on no square (a pass): when they are all there is, any square chooses them.
        self.unplaced: tuple[Any, ...] = ()
        for move in game.legal_moves():
            squares = painter.move_squares(game, move)
            if squares is None:
                self.unplaced += (move,)
                continue
            start, end = squares
            self.moves.setdefault(start, {}).setdefault(end, []).append(move)

    @property
    def forced(self) -> tuple[Any, ...]:
        """The moves on no square when they are all there is (a pass the side must make), else ``()``."""
        return self.unplaced if not self.moves else ()

    def targets(self, start: Square) -> frozenset[Square]:
        """Where the piece on ``start`` can go."""
        return frozenset(self.moves.get(start, ()))

    def choose(self, selected: Square | None, square: Square) -> Pick:
        """The result of choosing ``square`` while ``selected`` is picked up."""
        if self.forced:
            return Pick(moves=self.forced)  # nothing to point at: the pass it must make
        if selected is not None and square in self.moves.get(selected, {}):
            # The piece chosen again, where a move also ends (a checkers ring of captures):
            # asked, so that the choice can still put it back.
            return Pick(moves=tuple(self.moves[selected][square]), ask=square == selected)
        if square == selected:
            return Pick()  # put it back
        if square in self.moves:
            targets = self.targets(square)
            if targets == {square}:  # placed where it is chosen: one choice makes the move
                return Pick(moves=tuple(self.moves[square][square]))
            return Pick(square, targets)
        name = self.painter.square_name(square)
        if selected is None:
            typed = self.painter.typed_move(square, square)  # a placement: the game says why not
            if typed is not None:
                try:
                    self.game.parse_move(typed)
                except GameError as error:
                    return Pick(error=illegal_text(error))
            return Pick(error=f"no legal move starts on {name}")
        typed = self.painter.typed_move(selected, square)
        if typed is not None:
            try:
                self.game.parse_move(typed)
            except GameError as error:
                return Pick(selected, self.targets(selected), error=illegal_text(error))
        start = self.painter.square_name(selected)
        return Pick(selected, self.targets(selected), error=f"illegal: {start} cannot go to {name}")
