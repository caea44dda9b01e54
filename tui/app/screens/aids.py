"""What the game screen draws on the board to help: premoves, the best line, the threat.

:class:`BoardAids` is a plain object the game screen
(:class:`~tui.app.screens.game.GameScreen`) makes and tells what the player did;
it acts through the screen it is given (its board, its line under the board,
its controller, which holds the premove), typed by what it uses
(:class:`~tui.app.screens.host.GameHost`):

- **premoves**: while an engine thinks, a move typed or picked by two clicks is
  queued (one at a time) and played the moment the engine has moved, if it is
  legal then; Esc, a right click or undo cancels it;
- **the best line** and **the threat**: a short search (:data:`LINE_SPEC`) of the
  position shown -- after a pass, for the threat (where the game allows one) --
  in a worker thread; the squares of its first :data:`LINE_MOVES` moves are
  marked on the board and the line is said under it;
- **the hint**: the coach's move marked on the board like a picked-up piece.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.screen import ModalScreen

from engines import SearchStats, create_engine
from games import GameError, game_kind

from ...views.format import first_player_view, illegal_text, line_text
from ..controller import Premove
from ..widgets.engine_panel import why_figures_differ

if TYPE_CHECKING:
    from .host import GameHost

__all__ = ["BoardAids", "LINE_SPEC", "LINE_MOVES"]

#: The search that finds the best line and the threat, and the moves of it marked on the board.
LINE_SPEC = "pvs:nodes=20000"
LINE_MOVES = 4


class BoardAids:
    """Premoves, the best line and the threat of ``screen``'s game (see the module doc)."""

    def __init__(self, screen: GameHost) -> None:
        #: The game screen it draws on.
        self.screen = screen

    # -- premoves: one move queued while the engine thinks (the controller holds it) ----------

    def queue_premove(self, text: str, squares: tuple[tuple[int, int], tuple[int, int]] | None = None) -> None:
        self.screen.controller.queue_premove(text, squares)
        engine = self.screen.sides[self.screen.game.turn]
        self.screen.say(f"premove {text}: played the moment {engine} has moved, if legal then — "
                        "Esc or a right click cancels it")

    def premove_click(self, square: tuple[int, int]) -> None:
        """A click while the engine thinks: the first picks the square, the second queues the move."""
        painter = self.screen.board.painter
        controller = self.screen.controller
        start = controller.premove_from
        if start is None or start == square:
            controller.premove, controller.premove_from = None, (None if start == square else square)
            self.screen.board.mark(controller.premove_from)
            if controller.premove_from is not None:
                self.screen.say(f"premove from {painter.square_name(square)}: click where to")
            return
        text = painter.typed_move(start, square)
        if text is None:
            controller.premove_from = None
            self.screen.board.mark(None)
            self.screen.say("no move goes from there to there", error=True)
            return
        self.queue_premove(f"{painter.square_name(start)} to {painter.square_name(square)}", (start, square))
        self.screen.board.mark(start, (square,))

    def cancel_premove(self) -> None:
        if not self.screen.controller.drop_premove():
            return
        self.screen.board.mark(None)
        self.screen.say("premove cancelled")

    def dismissed(self) -> None:
        if self.screen.controller.premove is not None or self.screen.controller.premove_from is not None:
            self.cancel_premove()
        elif self.screen.board.selected is not None:
            self.screen.board.mark(None)
            self.screen.say("put back")

    def turn_began(self, premove: Premove | None) -> None:
        """Play the queued ``premove``, if it is legal now."""
        if premove is None:
            return
        text, squares = premove.text, premove.squares
        if squares is not None:
            self.screen.call_later(self._click_premove, squares, len(self.screen.moves))
            return
        try:
            move = self.screen.game.parse_move(text)
        except GameError as error:
            self.screen.say(f"premove {text} dropped: {illegal_text(error)}", error=True)
            return
        self.screen.call_later(self._play_premove, move, len(self.screen.moves))

    def _click_premove(self, squares: tuple[tuple[int, int], tuple[int, int]], ply: int) -> None:
        """A clicked premove, clicked again now: a move of those squares is played, several
        (a promotion) are asked about, none is said."""
        if len(self.screen.moves) != ply or not self.screen.controller.human_to_move or self.screen.review is not None:
            return
        self.screen.board.mark(None)
        self.screen.move_input.game = self.screen.game
        for square in squares:
            self.screen.move_input.square_chosen(square)
        if len(self.screen.moves) == ply and self.screen.board.selected is not None and not isinstance(self.screen.app.screen, ModalScreen):
            self.screen.board.mark(None)
            self.screen.say("premove dropped: it is not a legal move now", error=True)

    def _play_premove(self, move: Any, ply: int) -> None:
        if len(self.screen.moves) == ply and self.screen.controller.human_to_move and self.screen.review is None:
            self.screen.human_moved(move)
            self.screen.say(f"premove played: {self.screen.moves[-1]}")

    def hint_found(self, moves: tuple[str, ...], move: str, stats: SearchStats) -> None:
        """The coach's hint for the position after ``moves`` (the game's, or the one reviewed):
        its move marked on the board and said under it, unless the position changed meanwhile."""
        screen = self.screen
        reviewed = screen.review is not None
        if moves != tuple(screen.moves[:screen.review]) or not (reviewed or screen.controller.human_to_move):
            screen.update_analysis()
            return
        shown = screen.played.shown_game()
        side = shown.turn
        used = screen.coach.use_hint(len(moves), side, move)
        start, end = screen.board.painter.move_squares(shown, shown.parse_move(move))
        screen.board.mark(start, (end,))
        evaluation = game_kind(screen.controller.setup.game).scores.signed(*first_player_view(stats.score, stats.mate, side))
        screen.say(f"hint: {move} (eval {evaluation} for {screen.sides[0]}, "
                   f"line {line_text(stats.pv) or move}) — not played · {used} hint{'s' if used != 1 else ''} used"
                   + self._beside_panel(evaluation, stats, len(moves)))
        screen.update_analysis()

    def _beside_panel(self, evaluation: str, stats: SearchStats, ply: int) -> str:
        """Why the hint's eval is not the one the engine panel shows (''  when they agree): the
        panel's is of the engine's search before its last move, which looked as deep as it did."""
        screen = self.screen
        if ply == 0 or screen.review is not None:
            return ""
        panel = screen.panel(1 - screen.game.turn)
        if panel is None or panel.stats is None or panel.eval_text == evaluation:
            return ""
        earlier = f"before {screen.moves[ply - 1]}"
        return f" · the panel says {panel.eval_text}: {why_figures_differ(panel.stats.depth, stats.depth, earlier)}"

    # -- lines drawn on the board: the best line, the threat --------------------------------

    def best_line(self) -> None:
        self._mark_line(threat=False)

    def threat(self) -> None:
        self._mark_line(threat=True)

    def _mark_line(self, *, threat: bool) -> None:
        """Search the position shown (after a pass, for the threat) in a worker, then mark the line."""
        shown = self.screen.played.shown_game()
        if shown.outcome() is not None:
            self.screen.say("the game is over here: no line to show", error=True)
            return
        if threat and not shown.null_move_ok():
            why = "in check: the threat is what checks" if shown.in_check() else (
                "a threat is shown where a side may pass (chess, with more than king and pawns)")
            self.screen.say(f"no threat to show: {why}", error=True)
            return
        searched = shown.copy()
        if threat:
            searched.play_null()
        self.screen.say(f"{'threat' if threat else 'best line'}: the coach looks at the position…")
        self._line_search(searched, threat, shown.key())

    def _line_search(self, game: Any, threat: bool, key: Any) -> None:
        """The short search in a worker thread of the screen (a new one replaces the last)."""
        def search() -> None:
            engine = create_engine(LINE_SPEC, type(game))
            try:
                result = engine.search(game)
            finally:
                engine.close()
            self.screen.app.call_from_thread(self._line_found, game, threat, key, result)

        self.screen.run_worker(search, thread=True, exclusive=True, group="lines")

    def _line_found(self, game: Any, threat: bool, key: Any, result: Any) -> None:
        if self.screen.played.shown_game().key() != key:
            return  # the position changed meanwhile
        painter = self.screen.board.painter
        line = list(result.pv)[:LINE_MOVES]
        squares: list[tuple[int, int]] = []
        replay = game.copy()
        for move in line:
            cells = painter.move_squares(replay, move)
            if cells is not None:
                squares.extend(cells)
            replay.play(move)
        if squares:
            self.screen.board.mark(squares[0], squares[1:])
        texts = line_text(result.stats.pv[:LINE_MOVES])
        if threat:
            self.screen.say(f"threat: {texts} — what {self.screen.sides[game.turn]} would play if it were its move")
        else:
            self.screen.say(f"best line: {texts} (marked on the board; a click puts it away)")

