"""The game screen's layout and the flow of a game: what happens without the player.

:class:`GameFlow` is the base of :class:`~tui.app.screens.game.GameScreen`,
which adds what the player does (typed and clicked moves, the review, the
commands).  The board (left) with the status line and the move box under it,
the clocks (:class:`~tui.app.widgets.game_clocks.GameClocks`) above and below
it; on the right an engine panel per AI side, the coach
(:class:`~tui.app.screens.coach.Coach`, holding the analysis panel when
analysis is on) and the move list.  The game itself, its clock, pauses and
premove are the :class:`~tui.app.controller.GameController`'s (no Textual),
which says what comes next as a typed value.  Engines search in the app's
search process through its :class:`~tui.app.engine_link.EngineLink`, whose
reader thread posts their figures and moves here as messages
(:class:`~tui.app.engine_link.EngineInfo`, ``EngineDone``, ``EngineFailed``,
naming the side whose search it was), so keys echo and the panel ticks while
an engine thinks.

Flow: after every change :meth:`GameFlow.next_turn` does what the controller's
turn says -- the result dialog when the game is over, the move box for a human, a search
for an engine (after the spectating delay when engines play each other) --
and tells the coach which position to analyse and the clocks which side runs
(:meth:`GameFlow.update_status`).  Engines do not play while paused, while a
dialog is open over the screen, while the player reviews an earlier position
or while the report runs; anything that changes the position (undo, a new
game, leaving the screen) cancels the running search first.  The components
answer with messages: a flag falls (``GameClocks.Flagged``: the screen
decides the result), the coach found a hint, ends the game (a resignation,
an agreed draw), gives a move of its report to review or has a line to say.
"""

from __future__ import annotations

import time
from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Label, Static

from engines import Limits
from games import Game, GameError, Outcome, game_kind
from games.records import describe_outcome, result_token

from ...views.format import first_player_view, line_text, plies_text
from ...settings import Settings
from ..controller import EngineWaits, GameController, GameOver, HumanToMove, Reviewing
from ..engine_link import EngineDone, EngineFailed, EngineInfo, EngineLink
from ..picking import MovePicker
from ..session import GameSetup, fallback_notice
from ..widgets.board import BoardView
from ..widgets.engine_panel import EnginePanel
from ..widgets.eval_bar import EvalBar
from ..widgets.game_clocks import GameClocks
from ..widgets.material import MaterialLine
from ..widgets.move_input import MoveInput
from ..widgets.move_list import MoveList
from .aids import BoardAids
from .coach import Coach
from .commands import DELAYS
from .dialogs import ResultDialog

__all__ = ["GameFlow", "SHORT_SCREEN"]

#: Below this many rows the idle engine's panel shrinks to one line.
SHORT_SCREEN = 32


class GameFlow(Screen):
    """Play one game of ``setup``; engines search through ``link``."""

    AUTO_FOCUS = "#move-input"

    def __init__(self, setup: GameSetup, link: EngineLink, *, ascii: bool = False) -> None:
        super().__init__()
        #: The game, its clock, pauses and premove, and what comes next in it (no Textual).
        self.controller = GameController(setup)
        self.link = link
        self.ascii = ascii
        #: The game, its moves as texts, the result off the board, the position reviewed.
        self.played = self.controller.played
        self.sides = self.played.sides
        #: A fallback notice still to repeat with the next engine move (else it would flash by).
        self._unread_notice = ""
        self.clocks = GameClocks(self.controller.clock, self.sides, setup.bottom_side)
        self.coach = Coach(link, setup.game, setup.position, self.sides, self.played.first_mover,
                           self.played.first_number, setup.analysis)
        #: Each engine side's last score and mate, for itself (draw offers).
        self.last_scores: list[tuple[float, int | None] | None] = [None, None]
        #: The latest eval shown beside the board: the first player's score and mate, and the
        #: ply of the position it is of.
        self._eval: tuple[float, int | None, int] | None = None
        #: The request id of the running search, if any, and whose it is.
        self.request: int | None = None
        self.searching_side: int | None = None
        self.delay = DELAYS[2] if len(setup.engine_sides) == 2 else 0.0
        self._delay_timer: Timer | None = None
        self._result_shown = False
        #: Premoves, the best line and the threat.
        self.aids = BoardAids(self)

    # -- the game's state, read through ----------------------------------------------------

    @property
    def picker(self) -> MovePicker | None:
        """The legal moves of the position by square, for clicks (the move box's)."""
        return self.move_input.picker

    @property
    def game(self) -> Game:
        return self.played.game

    @property
    def moves(self) -> list[str]:
        return self.played.moves

    @property
    def review(self) -> int | None:
        return self.played.review

    @property
    def verdict(self) -> Outcome | None:
        return self.played.verdict

    def outcome(self) -> Outcome | None:
        """How the game ended: off the board (resignation, agreement, time) or on it; ``None`` while it goes on."""
        return self.controller.outcome()

    @property
    def human_to_move(self) -> bool:
        return self.controller.human_to_move

    # -- layout --------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="board-column"):
                views = self.clocks.views
                yield from views[:1]
                settings = getattr(self.app, "settings", None) or Settings()
                board = BoardView(self.controller.setup.game, ascii=self.ascii, id="board", **settings.board_options())
                board.flipped = (board.painter.flipped_for(self.controller.setup.bottom_side)
                                 != (game_kind(self.controller.setup.game).name in settings.turned))
                kind = game_kind(self.controller.setup.game)
                with Horizontal(id="board-row"):
                    bar = EvalBar(kind.scores, kind.board.layout.colours.pieces, ascii=self.ascii, id="eval-bar")
                    bar.turned = board.flipped != board.painter.flipped_for(0)
                    yield bar
                    yield board
                yield from views[1:]
                yield Static("", id="status", markup=False)
                yield self.clocks
            with Vertical(id="side-column"):
                for side in self.controller.setup.engine_sides:
                    panel = EnginePanel(side, self.sides[side], self.controller.setup.players[side], id=f"panel-{side}",
                                        scores=game_kind(self.controller.setup.game).scores, first_name=self.sides[0])
                    if self.controller.setup.notices[side]:
                        panel.border_title = f"{panel.border_title} · fallback"
                    yield panel
                yield self.coach
                kind = game_kind(self.controller.setup.game)
                yield MaterialLine(kind.board, self.sides, ascii=self.ascii, id="material")
                yield MoveList(self.sides, id="moves")
        yield Static("", id="message", markup=False)
        with Horizontal(id="input-row"):
            yield Label("move ›", id="prompt")
            yield MoveInput(id="move-input")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.title = f"tui-games · {self.controller.setup.game}"
        self.sub_title = f"{self.controller.setup.player_label(0)} vs {self.controller.setup.player_label(1)}"
        self.move_input.board = self.board
        self.refresh_position()
        self.clocks.bottom = self.bottom_side_shown  # a board the settings keep turned turns the clocks too
        if any(self.controller.setup.notices):
            self._unread_notice = " · ".join(notice for notice in self.controller.setup.notices if notice)
            self.say(self._unread_notice, error=True)
        elif self.controller.setup.source:
            resume = " — ctrl+b lets the engines play on" if self.controller.paused and self.outcome() is None else ""
            source = self.controller.setup.source
            self.say(f"read {plies_text(len(self.moves))} from {source}; ↑ reviews them{resume}")
        self.next_turn()

    def on_unmount(self) -> None:
        self.cancel_search()
        self.coach.cancel()

    # -- what is shown ---------------------------------------------------------

    @property
    def board(self) -> BoardView:
        return self.query_one("#board", BoardView)

    @property
    def move_input(self) -> MoveInput:
        return self.query_one("#move-input", MoveInput)

    @property
    def move_list(self) -> MoveList:
        return self.query_one(MoveList)

    def panel(self, side: int) -> EnginePanel | None:
        panels = self.query(f"#panel-{side}")
        return panels.first(EnginePanel) if panels else None

    def say(self, text: str, *, error: bool = False) -> None:
        """A line under the board: answers to moves, notices."""
        message = self.query_one("#message", Static)
        message.update(text)
        message.set_class(error, "-error")

    @property
    def message_text(self) -> str:
        return str(self.query_one("#message", Static).render())

    def refresh_position(self) -> None:
        self.move_input.game = self.game  # the position moves are made in, changed in place
        self.board.mark(None)
        self.board.show(self.game)
        self.move_list.show_moves(self.moves, self.played.first_mover, self.played.first_number)
        # Suggestions only on a human's turn: while an engine thinks, what you type is your next move.
        self.move_input.set_moves(self.game.legal_move_texts() if self.human_to_move else [])
        self.update_status()

    def update_status(self) -> None:
        """The status line, and the clocks, follow the state of the game."""
        self.clocks.review = self.review
        self.clocks.running = self.clock_side()
        outcome = self.outcome()
        if self.review is not None:
            text = self.played.review_status()
        elif outcome is not None:
            text = f"{result_token(self.game, self.verdict)}  {describe_outcome(self.game, self.verdict)}"
        else:
            side = self.game.turn
            who = self.sides[side]
            picker = self.picker
            forced = picker.forced if self.controller.setup.is_human(side) and picker is not None else ()
            if forced:  # a pass: nothing on the board to play
                text = (f"{who} to move (you): no move on the board, you must play "
                        f"{' or '.join(self.game.format_move(move) for move in forced)}: type it or click the board")
            elif self.controller.setup.is_human(side):
                text = f"{who} to move (you): type or click a move"
            elif self.request is not None:
                text = f"{who} ({self.controller.setup.players[side]}) is thinking…"
            elif self.controller.paused:
                text = f"{who} to move — paused: ctrl+b resumes, ctrl+y plays one move"
            else:
                text = f"{who} to move ({self.controller.setup.players[side]})"
            if self.game.in_check():
                text += " — check!"
        delay = f" · delay {self.delay:g}s" if len(self.controller.setup.engine_sides) == 2 else ""
        prefix = "" if self.review is not None else f"move {self.played.move_number(len(self.moves))} · "
        opening = self.played.shown_game().opening()
        named = f" · {opening}" if opening else ""
        self.query_one("#status", Static).update(f"{prefix}{text}{delay}{named}")
        self._show_eval()

    # -- the flow of the game -------------------------------------------------

    @property
    def engines_held(self) -> bool:
        """Engines wait: a dialog covers the screen, an earlier position is reviewed, the report runs."""
        return not self.is_active or self.review is not None or self.coach.report_running

    def next_turn(self) -> None:
        """Whatever comes next: the result, a human's move or an engine's search (and the analysis)."""
        self._next_turn()
        self.update_analysis()

    def _next_turn(self) -> None:
        self.refresh_position()
        turn = self.controller.turn(held=self.engines_held)
        if isinstance(turn, Reviewing):
            return
        if isinstance(turn, GameOver):
            self._show_result()
            return
        if isinstance(turn, HumanToMove):
            if self.is_active and not isinstance(self.focused, BoardView):
                self.move_input.focus()
            self.aids.turn_began(turn.premove)  # the queued premove, if any
            return
        if isinstance(turn, EngineWaits):
            self._set_panel_status(turn.side, turn.why)
            return
        side = turn.side
        if self._delay_timer is not None:
            self._delay_timer.stop()
            self._delay_timer = None
        if self.delay and len(self.controller.setup.engine_sides) == 2 and self.moves and not self.controller.stepping:
            self._set_panel_status(side, f"next in {self.delay:g}s")
            self._delay_timer = self.set_timer(self.delay, self.start_search)
            self.clocks.running = self.clock_side()  # the watching delay stops the clocks
        else:
            self.start_search()

    def on_screen_suspend(self) -> None:
        """A dialog opened over the game (or the game was left): engines and clocks stop."""
        if self.request is not None or self._delay_timer is not None:
            self.cancel_search()
        self.coach.cancel("analysis")
        self.clocks.stop()

    def on_screen_resume(self) -> None:
        """The dialog closed: the game goes on where it was."""
        if self.is_mounted and self.request is None and self.review is None:
            self.next_turn()
        elif self.is_mounted:
            self.update_status()
            self.update_analysis()

    def start_search(self) -> None:
        """Ask the search process for the side to move's engine move."""
        self._delay_timer = None
        if self.outcome() is not None or self.request is not None or self.engines_held:
            return
        side = self.game.turn
        if self.controller.setup.is_human(side):
            return
        self.coach.cancel("analysis")
        setup = self.controller.setup
        self.request = self.link.search(
            self, side, setup.game, setup.players[side], setup.position, self.moves,
            self.clock_limits(side),
        )
        self.searching_side = side
        self._set_panel_status(side, "thinking…", thinking=True)
        self.update_status()

    def clock_limits(self, side: int) -> Limits | None:
        """``side``'s engine's limits under its clock (``None`` without clocks: its spec's own)."""
        return self.controller.limits(side, time.monotonic())

    def cancel_search(self) -> None:
        """Stop the running search (its figures stay in the panel) and any pending start."""
        if self._delay_timer is not None:
            self._delay_timer.stop()
            self._delay_timer = None
        if self.request is not None:
            self.link.cancel(self.request)
            side = self.searching_side
            self.request = None
            self.searching_side = None
            if side is not None:
                self._set_panel_status(side, "stopped")

    # -- the players' engines: their messages ---------------------------------------

    def on_engine_info(self, message: EngineInfo) -> None:
        panel = self.panel(message.owner) if message.request_id == self.request else None
        if panel is not None:  # else a search stopped since
            panel.show_stats(message.stats)
            self.show_eval(*panel.first_view(message.stats.score, message.stats.mate))

    def show_eval(self, score: float, mate: int | None, ply: int | None = None) -> None:
        """An engine's latest score for the first player, of the position after ``ply`` moves
        (default: the game's): the eval bar and the material line's eval, while the position
        shown is that one or the one after it."""
        self._eval = (score, mate, len(self.moves) if ply is None else ply)
        self._show_eval()

    def _show_eval(self) -> None:
        bar = self.query_one("#eval-bar", EvalBar)
        shown = len(self.moves) if self.review is None else self.review
        evaluated = self._eval
        if evaluated is not None and evaluated[2] <= shown <= evaluated[2] + 1:
            bar.show(evaluated[0], evaluated[1])
        else:
            bar.clear()  # a score of another position would mislead
        self.query_one("#material", MaterialLine).show(self.played.shown_game(), "" if bar.score is None else bar.text)

    def on_engine_done(self, message: EngineDone) -> None:
        if message.request_id == self.request:  # else a search stopped since
            self._engine_moved(message)

    def on_engine_failed(self, message: EngineFailed) -> None:
        if message.request_id != self.request:
            return
        side = message.owner
        self.request = None
        self.searching_side = None
        if message.model_error:
            self._fall_back(side, message.message)
            return
        self.controller.paused = True
        self._set_panel_status(side, "failed")
        self.say(f"{self.sides[side]}'s engine failed: {message.message} — paused", error=True)
        self.update_status()

    def _fall_back(self, side: int, message: str) -> None:
        """The side's learned engine lost its model mid-game: play ``h0`` instead and go on."""
        fallback, notice = fallback_notice(self.controller.setup.players[side], ValueError(message))
        self.controller.fall_back(side, fallback, notice)
        panel = self.panel(side)
        if panel is not None:
            panel.spec = fallback
            panel.border_title = f"{self.sides[side]} · {fallback} · fallback"
            panel.set_status("waiting")
        self._unread_notice = notice
        self.say(notice, error=True)
        self.sub_title = f"{self.controller.setup.player_label(0)} vs {self.controller.setup.player_label(1)}"
        self.next_turn()

    def _engine_moved(self, message: EngineDone) -> None:
        side = message.owner
        self.request = None
        self.searching_side = None
        panel = self.panel(side)
        if panel is not None:
            panel.show_stats(message.stats)
            panel.record_score(message.stats.score, message.stats.mate, len(self.moves))
            panel.set_status("waiting")
            self.show_eval(*panel.first_view(message.stats.score, message.stats.mate))
        self.last_scores[side] = (message.stats.score, message.stats.mate)
        try:
            move = self.game.parse_move(message.move)
        except GameError as error:  # the process searched another position: a bug
            self.controller.paused = True
            self.say(f"engine move {message.move!r} rejected: {error}", error=True)
            return
        self.controller.engine_played(move, time.monotonic())
        if self.controller.setup.is_human(self.game.turn):
            notice = self._unread_notice
            self._unread_notice = ""
            if notice:  # the fallback's first move: keep saying why it plays
                self.say(f"{self.sides[side]} played {message.move} · {notice}", error=True)
            else:
                self.say(f"{self.sides[side]} played {message.move}")
        self.next_turn()

    def human_moved(self, move: Any) -> None:
        """Play the human's ``move`` and go on."""
        self.controller.play(move, time.monotonic())
        self.say(f"you played {self.moves[-1]}")
        self.next_turn()

    def _set_panel_status(self, side: int, text: str, *, thinking: bool = False) -> None:
        panel = self.panel(side)
        if panel is not None:
            panel.set_status(text, thinking=thinking)
        self._fit_panels()

    def _fit_panels(self) -> None:
        """On a short terminal with two panels or more, only the one searching (or
        the side to move's) gets the full panel; the others shrink to a line."""
        panels = list(self.query(EnginePanel))
        short = self.size.height < SHORT_SCREEN and len(panels) >= 2
        analysing = self.coach.analysing
        for panel in panels:
            if panel.id == "panel-analysis":
                active = analysing
            else:
                active = (self.searching_side == panel.side if self.request is not None
                          else panel.side == self.game.turn and not analysing)
            panel.compact = short and not active

    def on_resize(self) -> None:
        self._fit_panels()

    def _show_result(self) -> None:
        if self._result_shown or not self.is_active:
            return
        self._result_shown = True
        for side in self.controller.setup.engine_sides:
            self._set_panel_status(side, "game over")
        self.app.push_screen(
            ResultDialog(result_token(self.game, self.verdict), describe_outcome(self.game, self.verdict) or ""),
            self.result_chosen,
        )

    def result_chosen(self, choice: str | None) -> None:
        """What the player chose in the result dialog (the commands answer the other choices)."""
        self.say("game over — ↑ reviews the game, ctrl+s saves, ctrl+n starts a new one")

    def end_game(self, outcome: Outcome, why: str = "") -> None:
        """The game ends off the board: a resignation, an agreed draw, a flag fall
        (``why`` comes first in the line under the board)."""
        self.cancel_search()
        self.coach.cancel("analysis", "hint")
        self.controller.end(outcome, time.monotonic())
        self.clocks.stop()
        said = describe_outcome(self.game, outcome) or ""
        self.say(f"{why} — {said}" if why else said)
        self.next_turn()

    # -- the clocks and the coach: what they are told, what they say ----------------

    def clock_side(self) -> int | None:
        """The side whose clock runs now: the side to move, unless the game is over,
        paused, reviewed, reported on or behind a dialog, or waiting out the delay
        between two engines' moves (that is for watching, not thinking) -- or both
        sides have not made their first move yet (as on lichess: nobody loses on time
        before moving)."""
        return self.controller.clock_side(held=not self.is_active or self.coach.report_running,
                                          delaying=self._delay_timer is not None)

    @property
    def bottom_side_shown(self) -> int:
        """The side drawn at the bottom now (after any flip)."""
        bottom = self.controller.setup.bottom_side
        return bottom if self.board.flipped == self.board.painter.flipped_for(bottom) else 1 - bottom

    def on_game_clocks_flagged(self, message: GameClocks.Flagged) -> None:
        """``side``'s time ran out: the other side wins, or draws when it cannot win (chess: no mating material)."""
        outcome = self.controller.flag_fell(message.side)
        if outcome is not None:
            self.end_game(outcome)

    def analysis_target(self) -> tuple[tuple[str, ...] | None, str]:
        """The moves of the position to analyse now, or ``None`` and why it waits."""
        if not self.is_active:
            return None, "waits for the dialog"
        if self.coach.report_running:
            return None, "waits for the report"
        if self.review is not None:
            moves = tuple(self.moves[:self.review])
        elif self.outcome() is not None:
            return None, "game over"
        elif self.controller.setup.is_human(self.game.turn) or self.controller.engines_paused:
            moves = tuple(self.moves)
        else:
            return None, "waits: the engine's turn"  # it has the CPU
        return (None, "game over") if self.played.shown_game().outcome() is not None else (moves, "")

    def update_analysis(self) -> None:
        """Tell the coach which position to analyse (if analysis is on)."""
        self.coach.analyse(*self.analysis_target())
        self._fit_panels()

    def on_coach_evaluated(self, message: Coach.Evaluated) -> None:
        self.show_eval(message.score, message.mate, message.ply)

    def on_coach_say(self, message: Coach.Say) -> None:
        self.say(message.text, error=message.error)

    def on_coach_freed(self, message: Coach.Freed) -> None:
        self.next_turn()

    def on_coach_game_ends(self, message: Coach.GameEnds) -> None:
        if self.outcome() is None:
            self.end_game(message.outcome, message.why)

    def on_coach_show_ply(self, message: Coach.ShowPly) -> None:
        if message.ply <= len(self.moves):
            self.move_list.focus()
            self.move_list.select_ply(message.ply)

    def on_coach_hint_found(self, message: Coach.HintFound) -> None:
        """Mark the hint's move on the board, unless the position changed meanwhile."""
        if message.moves != tuple(self.moves) or self.review is not None or not self.human_to_move:
            self.update_analysis()
            return
        side = self.game.turn
        used = self.coach.use_hint(len(self.moves), side, message.move)
        start, end = self.board.painter.move_squares(self.game, self.game.parse_move(message.move))
        self.board.mark(start, (end,))
        stats = message.stats
        scores = game_kind(self.controller.setup.game).scores
        evaluation = scores.signed(*first_player_view(stats.score, stats.mate, side))
        self.say(f"hint: {message.move} (eval {evaluation} for {self.sides[0]}, "
                 f"line {line_text(stats.pv) or message.move}) — not played · {used} hint{'s' if used != 1 else ''} used")
        self.update_analysis()
