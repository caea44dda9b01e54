"""The game screen, one for all three games.

The board (left) with the status line and the move box under it; on the right
an engine panel per AI side and the move list.  Humans type moves or click
them on the board; engines search in the app's
:class:`~tui.app.search_service.SearchService` process, and a timer drains its
events twenty times a second into the panels, so keys echo and the panel ticks
while an engine thinks.

Flow: after every change :meth:`GameScreen.next_turn` decides what happens —
the result dialog when the game is over, the move box for a human, a search
for an engine (after the spectating delay when engines play each other).
Engines do not play while paused, while a dialog is open over the screen, or
while the player reviews an earlier position; anything that changes the
position (undo, a new game, leaving the screen) cancels the running search
first.  The commands (keys, palette) are in
:class:`~tui.app.screens.game_commands.GameCommands`.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Label, Static

from engines.review import GameReport
from games import Game, GameError, MoveSyntaxError, Outcome, new_game
from games.clock import Clock
from games.records import describe_outcome, result_token

from ..picking import MovePicker
from ..search_service import SearchDone, SearchFailed, SearchInfo, SearchService
from ..session import GameSetup, fallback_notice, side_names
from ..widgets.board import BoardView
from ..widgets.clock_view import ClockView
from ..widgets.engine_panel import EnginePanel
from ..widgets.move_input import MoveInput
from ..widgets.move_list import MoveList
from .commands import DELAYS, TYPED_COMMANDS, bindings
from .clocks import CLOCK_INTERVAL, Clocks
from .coach import Coach, CoachJob
from .dialogs import ChoiceDialog, ResultDialog
from .game_commands import GameCommands

__all__ = ["GameScreen", "DELAYS"]

#: How often the search process's events are drained (seconds).
POLL_INTERVAL = 0.05
#: Below this many rows the idle engine's panel shrinks to one line.
SHORT_SCREEN = 32


def start_move_number(game: Game) -> int:
    """The move number of a game's start position (a chess FEN's full-move number, else 1)."""
    board = getattr(game, "board", None)
    return int(getattr(board, "fullmove_number", 1)) if board is not None else 1


class GameScreen(Coach, Clocks, GameCommands, Screen):
    """Play one game of ``setup``; engines search in ``service``."""

    BINDINGS = bindings()
    AUTO_FOCUS = "#move-input"

    def __init__(self, setup: GameSetup, service: SearchService, *, ascii: bool = False) -> None:
        super().__init__()
        self.setup = setup
        self.service = service
        self.ascii = ascii
        self.sides = side_names(setup.game)
        self.game: Game = new_game(setup.game, setup.position)
        self.first_number = start_move_number(self.game)
        #: A fallback notice still to repeat with the next engine move (else it would flash by).
        self._unread_notice = ""
        #: The moves played, as texts (what the search process replays).
        self.moves: list[str] = []
        self.clock: Clock | None = None
        for text in setup.moves:
            self._play(self.game.parse_move(text))
        if setup.clock is not None:
            self.clock = Clock(setup.clock, len(self.moves))
        #: A result decided off the board: resignation, agreed draw, time.
        self.verdict: Outcome | None = setup.outcome
        #: The coach: the analysis engine's spec (``None``: off), its running search, the report.
        self.analysis_spec: str | None = setup.analysis
        self.coach_job: CoachJob | None = None
        self.report: GameReport | None = None
        self.report_moves: tuple[str, ...] = ()
        #: Hints used per side, and the plies they were used at.
        self.hints = [0, 0]
        self.hinted: set[int] = set()
        self.hint_move: str | None = None
        #: Each engine side's last score and mate, for itself (draw offers).
        self.last_scores: list[tuple[float, int | None] | None] = [None, None]
        #: The moves as last saved (or read from a file); ``None``: never saved.
        self.saved_moves: list[str] | None = list(self.moves) if setup.source else None
        #: The request id of the running search, if any.
        self.request: int | None = None
        self.searching_side: int | None = None
        #: A loaded game waits for the player before an engine moves.
        self.paused = bool(setup.moves) and bool(setup.engine_sides)
        self.stepping = False
        self.delay = DELAYS[2] if len(setup.engine_sides) == 2 else 0.0
        self._delay_timer: Timer | None = None
        self._result_shown = False
        #: The position reviewed (after this many moves); ``None``: the game itself.
        self.review: int | None = None
        self._picker: MovePicker | None = None

    # -- layout --------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="board-column"):
                bottom = self.setup.bottom_side
                if self.clock is not None:
                    yield ClockView(1 - bottom, self.sides[1 - bottom], id="clock-top")
                board = BoardView(self.setup.game, ascii=self.ascii, id="board")
                board.flipped = board.painter.flipped_for(bottom)
                yield board
                if self.clock is not None:
                    yield ClockView(bottom, self.sides[bottom], id="clock-bottom")
                yield Static("", id="status", markup=False)
            with Vertical(id="side-column"):
                for side in self.setup.engine_sides:
                    panel = EnginePanel(side, self.sides[side], self.setup.players[side], id=f"panel-{side}")
                    if self.setup.notices[side]:
                        panel.border_title = f"{panel.border_title} · fallback"
                    yield panel
                if self.analysis_spec is not None:
                    yield EnginePanel(self.game.turn, self.sides[self.game.turn], self.analysis_spec,
                                      id="panel-analysis", title="analysis", trend=False)
                yield MoveList(self.sides, id="moves")
        yield Static("", id="message", markup=False)
        with Horizontal(id="input-row"):
            yield Label("move ›", id="prompt")
            yield MoveInput(id="move-input")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.title = f"tui-games · {self.setup.game}"
        self.sub_title = f"{self.setup.player_label(0)} vs {self.setup.player_label(1)}"
        self.set_interval(POLL_INTERVAL, self.poll_search)
        if self.clock is not None:
            self.set_interval(CLOCK_INTERVAL, self.tick_clock)
        self.refresh_position()
        if any(self.setup.notices):
            self._unread_notice = " · ".join(notice for notice in self.setup.notices if notice)
            self.say(self._unread_notice, error=True)
        elif self.setup.source:
            resume = " — ctrl+b lets the engines play on" if self.paused else ""
            self.say(f"read {len(self.moves)} moves from {self.setup.source}; ↑ reviews them{resume}")
        self.next_turn()

    def on_unmount(self) -> None:
        self.cancel_search()
        self.cancel_coach()

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

    def outcome(self) -> Outcome | None:
        """How the game ended: off the board (resignation, agreement, time) or on it; ``None`` while it goes on."""
        return self.verdict or self.game.outcome()

    def shown_game(self) -> Game:
        """The position on the board: the game's, or the one reviewed."""
        if self.review is None:
            return self.game
        shown = self.game.copy()
        for _ in range(len(self.moves) - self.review):
            shown.undo()
        return shown

    @property
    def first_mover(self) -> int:
        """The side that made (or makes) the first move of this game."""
        return (self.game.turn + len(self.moves)) % 2

    def move_number(self, ply: int) -> int:
        """The number of the move made after ``ply`` plies (from the start position's number)."""
        return self.first_number + (ply + self.first_mover) // 2

    def refresh_position(self) -> None:
        self._picker = None
        self.board.mark(None)
        self.board.show(self.game)
        self.move_list.show_moves(self.moves, self.first_mover, self.first_number)
        # Suggestions only on a human's turn: while an engine thinks, what you type is your next move.
        self.move_input.set_moves(self.game.legal_move_texts() if self.human_to_move else [])
        self.update_status()

    @property
    def human_to_move(self) -> bool:
        return self.outcome() is None and self.setup.is_human(self.game.turn)

    def update_status(self) -> None:
        outcome = self.outcome()
        number = self.move_number(len(self.moves))
        if self.review is not None:
            text = self._review_status()
        elif outcome is not None:
            text = f"{result_token(self.game, self.verdict)}  {describe_outcome(self.game, self.verdict)}"
        else:
            side = self.game.turn
            who = self.sides[side]
            if self.setup.is_human(side):
                text = f"{who} to move (you): type or click a move"
            elif self.request is not None:
                text = f"{who} ({self.setup.players[side]}) is thinking…"
            elif self.paused:
                text = f"{who} to move — paused: ctrl+b resumes, ctrl+y plays one move"
            else:
                text = f"{who} to move ({self.setup.players[side]})"
            if self.game.in_check():
                text += " — check!"
        delay = f" · delay {self.delay:g}s" if len(self.setup.engine_sides) == 2 else ""
        prefix = "" if self.review is not None else f"move {number} · "
        self.query_one("#status", Static).update(f"{prefix}{text}{delay}")

    def _review_status(self) -> str:
        ply = self.review or 0
        if ply == 0:
            where = "the start position"
        else:
            dots = "." if (ply - 1 + self.first_mover) % 2 == 0 else "..."
            where = f"after {self.move_number(ply - 1)}{dots} {self.moves[ply - 1]}"
        return f"reviewing {where} ({ply}/{len(self.moves)}) — ←→ Home End, Enter plays from here, Esc returns"

    # -- the flow of the game -------------------------------------------------

    @property
    def engines_held(self) -> bool:
        """Engines wait: a dialog covers the screen, an earlier position is reviewed, the report runs."""
        return not self.is_active or self.review is not None or self.report_running

    def next_turn(self) -> None:
        """Whatever comes next: the result, a human's move or an engine's search (and the analysis)."""
        self._next_turn()
        self.update_analysis()
        self.tick_clock()  # the next side's clock runs from now, not from the next tick

    def _next_turn(self) -> None:
        self.refresh_position()
        if self.review is not None:
            return
        outcome = self.outcome()
        if outcome is not None:
            self._show_result()
            return
        side = self.game.turn
        if self.setup.is_human(side):
            if self.is_active and not isinstance(self.focused, BoardView):
                self.move_input.focus()
            return
        if self.paused and not self.stepping:
            self._set_panel_status(side, "paused")
            return
        if self.engines_held:
            self._set_panel_status(side, "waits for the dialog")
            return
        if self._delay_timer is not None:
            self._delay_timer.stop()
            self._delay_timer = None
        if self.delay and len(self.setup.engine_sides) == 2 and self.moves and not self.stepping:
            self._set_panel_status(side, f"next in {self.delay:g}s")
            self._delay_timer = self.set_timer(self.delay, self.start_search)
        else:
            self.start_search()

    def on_screen_suspend(self) -> None:
        """A dialog opened over the game (or the game was left): engines stop."""
        if self.request is not None or self._delay_timer is not None:
            self.cancel_search()
        self.cancel_coach("analysis")
        if self.clock is not None:
            self.clock.stop(time.monotonic())

    def on_screen_resume(self) -> None:
        """The dialog closed: the game goes on where it was."""
        if self.is_mounted and self.request is None and self.review is None:
            self.next_turn()
        elif self.is_mounted:
            self.update_analysis()

    def start_search(self) -> None:
        """Ask the search process for the side to move's engine move."""
        self._delay_timer = None
        if self.outcome() is not None or self.request is not None or self.engines_held:
            return
        side = self.game.turn
        if self.setup.is_human(side):
            return
        self.cancel_coach("analysis")
        self.request = self.service.search(
            self.setup.game, side, self.setup.players[side], self.setup.position, self.moves,
            self.clock_limits(side),
        )
        self.searching_side = side
        self._set_panel_status(side, "thinking…", thinking=True)
        self.update_status()

    def cancel_search(self) -> None:
        """Stop the running search (its figures stay in the panel) and any pending start."""
        if self._delay_timer is not None:
            self._delay_timer.stop()
            self._delay_timer = None
        if self.request is not None:
            self.service.cancel(self.request)
            side = self.searching_side
            self.request = None
            self.searching_side = None
            if side is not None:
                self._set_panel_status(side, "stopped")

    def poll_search(self) -> None:
        """Drain the search process's events (a timer calls this)."""
        events = self.service.poll()
        if self.request is not None and not events and not self.service.alive:
            events = [SearchFailed(self.request, "the search process ended unexpectedly")]
        if self.coach_job is not None and not events and not self.service.alive:
            events = [SearchFailed(self.coach_job.request, "the search process ended unexpectedly")]
        for event in events:
            if self.coach_job is not None and event.request_id == self.coach_job.request:
                self.coach_event(event)
                continue
            if event.request_id != self.request:
                continue
            panel = self.panel(self.searching_side) if self.searching_side is not None else None
            if isinstance(event, SearchInfo):
                if panel is not None:
                    panel.show_stats(event.stats)
            elif isinstance(event, SearchDone):
                self._engine_moved(event, panel)
            elif isinstance(event, SearchFailed) and event.model_error and self.searching_side is not None:
                self._fall_back(self.searching_side, event.message)
            elif isinstance(event, SearchFailed):
                side = self.searching_side
                self.request = None
                self.searching_side = None
                self.paused = True
                if side is not None:
                    self._set_panel_status(side, "failed")
                self.say(f"{self.sides[side or 0]}'s engine failed: {event.message} — paused", error=True)
                self.update_status()

    def _fall_back(self, side: int, message: str) -> None:
        """The side's learned engine lost its model mid-game: play ``h0`` instead and go on."""
        fallback, notice = fallback_notice(self.setup.players[side], ValueError(message))
        players = list(self.setup.players)
        players[side] = fallback
        notices = list(self.setup.notices)
        notices[side] = notice
        self.setup = replace(self.setup, players=(players[0], players[1]), notices=(notices[0], notices[1]))
        self.request = None
        self.searching_side = None
        panel = self.panel(side)
        if panel is not None:
            panel.spec = fallback
            panel.border_title = f"{self.sides[side]} · {fallback} · fallback"
            panel.set_status("waiting")
        self._unread_notice = notice
        self.say(notice, error=True)
        self.sub_title = f"{self.setup.player_label(0)} vs {self.setup.player_label(1)}"
        self.next_turn()

    def _engine_moved(self, event: SearchDone, panel: EnginePanel | None) -> None:
        side = self.searching_side
        self.request = None
        self.searching_side = None
        if panel is not None:
            panel.show_stats(event.stats)
            panel.record_score(event.stats.score, event.stats.mate)
            panel.set_status("waiting")
        if side is not None:
            self.last_scores[side] = (event.stats.score, event.stats.mate)
        try:
            move = self.game.parse_move(event.move)
        except GameError as error:  # the process searched another position: a bug
            self.paused = True
            self.say(f"engine move {event.move!r} rejected: {error}", error=True)
            return
        self._play(move)
        if self.stepping:
            self.stepping = False
            self.paused = True
        if side is not None and self.setup.is_human(self.game.turn):
            notice = self._unread_notice
            self._unread_notice = ""
            if notice:  # the fallback's first move: keep saying why it plays
                self.say(f"{self.sides[side]} played {event.move} · {notice}", error=True)
            else:
                self.say(f"{self.sides[side]} played {event.move}")
        self.next_turn()

    def _play(self, move: Any) -> None:
        if self.clock is not None:
            self.clock.press(self.game.turn, time.monotonic())
        self.moves.append(self.game.format_move(move))
        self.game.play(move)

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
        analysing = self.coach_job is not None and self.coach_job.kind == "analysis"
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
        for side in self.setup.engine_sides:
            self._set_panel_status(side, "game over")
        self.show_clocks()
        self.app.push_screen(
            ResultDialog(result_token(self.game, self.verdict), describe_outcome(self.game, self.verdict) or ""),
            self._after_result,
        )

    def _after_result(self, choice: str | None) -> None:
        if choice == "rematch":
            self.guard_unsaved("a rematch", lambda: self.app.open_game(self.setup.fresh()))
        elif choice == "swap":
            self.guard_unsaved("a new game", lambda: self.app.open_game(self.setup.fresh().swapped()))
        elif choice == "new":
            self.guard_unsaved("a new game", lambda: self.app.open_start(self.setup))
        elif choice == "save":
            self.action_save()
        elif choice == "report":
            self.action_report()
        else:
            self.say("game over — ↑ reviews the game, ctrl+s saves, ctrl+n starts a new one")

    # -- moves: typed or clicked -----------------------------------------------------------

    def _refuse_move(self) -> bool:
        """Say why no move can be made now (reviewing, game over, an engine's turn)."""
        if self.review is not None:
            self.say("you are reviewing an earlier position: Esc or End returns to the game, "
                     "Enter in the move list plays from here", error=True)
        elif self.outcome() is not None:
            self.say("the game is over — ctrl+z takes a move back, ctrl+n starts a new game", error=True)
        elif not self.setup.is_human(self.game.turn):
            self.say(f"it is {self.sides[self.game.turn]}'s turn and an engine plays it; wait, "
                     "or ctrl+b pauses", error=True)
        else:
            return False
        return True

    def on_input_submitted(self, event: MoveInput.Submitted) -> None:
        if event.input.id != "move-input":
            return
        text = event.value.strip()
        if not text:
            return
        if text in {"?", "help", "moves"}:
            self.input_clear()
            self.action_list_moves()
            return
        if text.lower() in TYPED_COMMANDS:
            self.input_clear()
            getattr(self, f"action_{TYPED_COMMANDS[text.lower()]}")()
            return
        if self._refuse_move():
            return
        try:
            move = self.game.parse_move(text)
        except MoveSyntaxError as error:
            self.say(f"not a move: {error}", error=True)
            return
        except GameError as error:
            self.say(f"illegal: {error}", error=True)
            return
        self.input_clear()
        self.human_moved(move)

    def human_moved(self, move: Any) -> None:
        self._play(move)
        self.say(f"you played {self.moves[-1]}")
        self.next_turn()

    def input_clear(self) -> None:
        self.move_input.value = ""

    def on_board_view_square_chosen(self, event: BoardView.SquareChosen) -> None:
        if self._refuse_move():
            return
        if self._picker is None:
            self._picker = MovePicker(self.game, self.board.painter)
        pick = self._picker.choose(self.board.selected, event.square)
        self.board.mark(pick.selected, pick.targets)
        if pick.error:
            self.say(pick.error, error=True)
        elif pick.selected is not None:
            name = self.board.painter.square_name(pick.selected)
            self.say(f"{name}: {len(pick.targets)} target{'s' if len(pick.targets) != 1 else ''} "
                     "— click one, or the piece again to put it back")
        if len(pick.moves) == 1:
            self.human_moved(pick.moves[0])
        elif pick.moves:
            labels = [self.game.format_move(move) for move in pick.moves]
            self.app.push_screen(ChoiceDialog("Which move?", labels),
                                 lambda choice: self._chose(pick.moves, choice))

    def _chose(self, moves: tuple[Any, ...], choice: str | None) -> None:
        if choice and choice.isdigit() and int(choice) < len(moves) and self.human_to_move:
            self.human_moved(moves[int(choice)])
        else:
            self.board.mark(None)
            self.say("no move made")

    # -- review ----------------------------------------------------------------------------

    def on_move_list_ply_selected(self, event: MoveList.PlySelected) -> None:
        self.show_ply(event.ply)

    def on_move_list_leave(self, event: MoveList.Leave) -> None:
        self.show_ply(len(self.moves))
        self.move_input.focus()

    def on_move_list_play_here(self, event: MoveList.PlayHere) -> None:
        self.action_play_from_here()

    def show_ply(self, ply: int) -> None:
        """Show the position after ``ply`` moves; the last one ends the review."""
        if ply >= len(self.moves):
            if self.review is not None:
                self.review = None
                self.say("back to the game")
                self.next_turn()
                self.show_clocks()
            return
        if self.review is None:
            self.cancel_search()
        self.review = ply
        self.board.mark(None)
        self.board.show(self.shown_game())
        self.update_status()
        self.show_clocks()
        self.update_analysis()
