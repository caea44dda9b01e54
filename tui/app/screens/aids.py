"""What the game screen draws on the board to help: premoves, the best line, the threat.

:class:`BoardAids` sits between :class:`~tui.app.screens.game_flow.GameFlow`
and :class:`~tui.app.screens.game.GameScreen`:

- **premoves**: while an engine thinks, a move typed or picked by two clicks is
  queued (one at a time) and played the moment the engine has moved, if it is
  legal then; Esc, a right click or undo cancels it;
- **the best line** and **the threat**: a short search (:data:`LINE_SPEC`) of the
  position shown -- after a pass, for the threat (where the game allows one) --
  in a worker thread; the squares of its first :data:`LINE_MOVES` moves are
  marked on the board and the line is said under it.
"""

from __future__ import annotations

from typing import Any

from textual import work
from textual.screen import ModalScreen

from engines import create_engine
from games import GameError

from ...views.format import illegal_text, line_text
from ..widgets.board import BoardView
from ..controller import Premove
from .game_flow import GameFlow

__all__ = ["BoardAids", "LINE_SPEC", "LINE_MOVES"]

#: The search that finds the best line and the threat, and the moves of it marked on the board.
LINE_SPEC = "pvs:nodes=20000"
LINE_MOVES = 4


class BoardAids(GameFlow):
    """Premoves, the best line and the threat (see the module doc)."""

    # -- premoves: one move queued while the engine thinks (the controller holds it) ----------

    @property
    def premove(self) -> str | None:
        """The move text a player queued while an engine thought (``None``: none)."""
        queued = self.controller.premove
        return None if queued is None else queued.text

    @property
    def premove_squares(self) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """A premove made by two clicks: its squares, played as the two clicks once it is
        the player's turn (so a promotion asks for its piece, as a click does)."""
        queued = self.controller.premove
        return None if queued is None else queued.squares

    def _queue_premove(self, text: str, squares: tuple[tuple[int, int], tuple[int, int]] | None = None) -> None:
        self.controller.queue_premove(text, squares)
        engine = self.sides[self.game.turn]
        self.say(f"premove {text}: played the moment {engine} has moved, if legal then — "
                 "Esc or a right click cancels it")

    def _premove_click(self, square: tuple[int, int]) -> None:
        """A click while the engine thinks: the first picks the square, the second queues the move."""
        painter = self.board.painter
        controller = self.controller
        start = controller.premove_from
        if start is None or start == square:
            controller.premove, controller.premove_from = None, (None if start == square else square)
            self.board.mark(controller.premove_from)
            if controller.premove_from is not None:
                self.say(f"premove from {painter.square_name(square)}: click where to")
            return
        text = painter.typed_move(start, square)
        if text is None:
            controller.premove_from = None
            self.board.mark(None)
            self.say("no move goes from there to there", error=True)
            return
        self._queue_premove(f"{painter.square_name(start)} to {painter.square_name(square)}", (start, square))
        self.board.mark(start, (square,))

    def action_cancel_premove(self) -> None:
        if not self.controller.drop_premove():
            return
        self.board.mark(None)
        self.say("premove cancelled")

    def on_board_view_dismissed(self, event: BoardView.Dismissed) -> None:
        if self.controller.premove is not None or self.controller.premove_from is not None:
            self.action_cancel_premove()
        elif self.board.selected is not None:
            self.board.mark(None)
            self.say("put back")

    def human_turn_began(self, premove: Premove | None) -> None:
        """Play the queued ``premove``, if it is legal now."""
        if premove is None:
            return
        text, squares = premove.text, premove.squares
        if squares is not None:
            self.call_later(self._click_premove, squares, len(self.moves))
            return
        try:
            move = self.game.parse_move(text)
        except GameError as error:
            self.say(f"premove {text} dropped: {illegal_text(error)}", error=True)
            return
        self.call_later(self._play_premove, move, len(self.moves))

    def _click_premove(self, squares: tuple[tuple[int, int], tuple[int, int]], ply: int) -> None:
        """A clicked premove, clicked again now: a move of those squares is played, several
        (a promotion) are asked about, none is said."""
        if len(self.moves) != ply or not self.human_to_move or self.review is not None:
            return
        self.board.mark(None)
        self.move_input.game = self.game
        for square in squares:
            self.move_input.square_chosen(square)
        if len(self.moves) == ply and self.board.selected is not None and not isinstance(self.app.screen, ModalScreen):
            self.board.mark(None)
            self.say("premove dropped: it is not a legal move now", error=True)

    def _play_premove(self, move: Any, ply: int) -> None:
        if len(self.moves) == ply and self.human_to_move and self.review is None:
            self.human_moved(move)
            self.say(f"premove played: {self.moves[-1]}")

    # -- lines drawn on the board: the best line, the threat --------------------------------

    def action_best_line(self) -> None:
        self._mark_line(threat=False)

    def action_threat(self) -> None:
        self._mark_line(threat=True)

    def _mark_line(self, *, threat: bool) -> None:
        """Search the position shown (after a pass, for the threat) in a worker, then mark the line."""
        shown = self.played.shown_game()
        if shown.outcome() is not None:
            self.say("the game is over here: no line to show", error=True)
            return
        if threat and not shown.null_move_ok():
            why = "in check: the threat is what checks" if shown.in_check() else (
                "a threat is shown where a side may pass (chess, with more than king and pawns)")
            self.say(f"no threat to show: {why}", error=True)
            return
        searched = shown.copy()
        if threat:
            searched.play_null()
        self.say(f"{'threat' if threat else 'best line'}: {LINE_SPEC} looks at the position…")
        self._line_search(searched, threat, shown.key())

    @work(thread=True, exclusive=True, group="lines")
    def _line_search(self, game: Any, threat: bool, key: Any) -> None:
        engine = create_engine(LINE_SPEC, type(game))
        try:
            result = engine.search(game)
        finally:
            engine.close()
        self.app.call_from_thread(self._line_found, game, threat, key, result)

    def _line_found(self, game: Any, threat: bool, key: Any, result: Any) -> None:
        if self.played.shown_game().key() != key:
            return  # the position changed meanwhile
        painter = self.board.painter
        line = list(result.pv)[:LINE_MOVES]
        squares: list[tuple[int, int]] = []
        replay = game.copy()
        for move in line:
            cells = painter.move_squares(replay, move)
            if cells is not None:
                squares.extend(cells)
            replay.play(move)
        if squares:
            self.board.mark(squares[0], squares[1:])
        texts = line_text(result.stats.pv[:LINE_MOVES])
        if threat:
            self.say(f"threat: {texts} — what {self.sides[game.turn]} would play if it were its move")
        else:
            self.say(f"best line: {texts} (marked on the board; a click puts it away)")

