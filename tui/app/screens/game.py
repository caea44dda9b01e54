"""The game screen, one for all three games.

The board (left) with the status line and the move box under it; on the right
an engine panel per AI side and the move list.  Humans type moves; engines
search in the app's :class:`~tui.app.search_service.SearchService` process, and
a timer drains its events twenty times a second into the panels, so keys echo
and the panel ticks while an engine thinks.

Flow: after every change :meth:`GameScreen.next_turn` decides what happens —
the result dialog when the game is over, the move box for a human, a search
for an engine (after the spectating delay when engines play each other, not
while paused).  Anything that changes the position (undo, a new game, leaving
the screen) cancels the running search first.
"""

from __future__ import annotations

import datetime
from dataclasses import replace
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Label, Static

from games import Game, GameError, MoveSyntaxError, new_game

from games.records import EXTENSIONS, default_filename, describe_outcome, record_text, result_token
from ..search_service import SearchDone, SearchFailed, SearchInfo, SearchService
from ..session import GameSetup, fallback_notice, side_names
from ..widgets.board import BoardView
from ..widgets.engine_panel import EnginePanel
from ..widgets.move_input import MoveInput
from ..widgets.move_list import MoveList
from .dialogs import HelpDialog, ResultDialog, SaveDialog

__all__ = ["GameScreen", "DELAYS"]

#: The spectating delays F7 cycles through (seconds between engine moves).
DELAYS = (0.0, 0.5, 1.0, 2.0, 5.0)
#: How often the search process's events are drained (seconds).
POLL_INTERVAL = 0.05
#: Below this many rows the idle engine's panel shrinks to one line.
SHORT_SCREEN = 32
#: What the record formats are called in the save dialog.
RECORD_NAMES = {"chess": "PGN", "checkers": "PDN", "quixo": "a Quixo move list"}


class GameScreen(Screen):
    """Play one game of ``setup``; engines search in ``service``."""

    BINDINGS = [
        Binding("f1", "help", "Help"),
        Binding("f2", "list_moves", "List"),
        Binding("f3", "flip", "Flip"),
        Binding("f4", "undo", "Undo"),
        Binding("f5", "pause", "Pause"),
        Binding("f6", "step", "Step"),
        Binding("f7", "delay", "Delay"),
        Binding("f8", "save", "Save"),
        Binding("f9", "new_game", "New"),
        Binding("ctrl+s", "save", "Save", show=False),
        Binding("ctrl+n", "new_game", "New game", show=False),
        Binding("ctrl+o", "flip", "Flip", show=False),
    ]

    def __init__(self, setup: GameSetup, service: SearchService, *, ascii: bool = False) -> None:
        super().__init__()
        self.setup = setup
        self.service = service
        self.ascii = ascii
        self.sides = side_names(setup.game)
        self.game: Game = new_game(setup.game, setup.position)
        #: A fallback notice still to repeat with the next engine move (else it would flash by).
        self._unread_notice = ""
        #: The moves played, as texts (what the search process replays).
        self.moves: list[str] = []
        #: The request id of the running search, if any.
        self.request: int | None = None
        self.searching_side: int | None = None
        self.paused = False
        self.stepping = False
        self.delay = DELAYS[2] if len(setup.engine_sides) == 2 else 0.0
        self._delay_timer: Timer | None = None
        self._result_shown = False

    # -- layout --------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="board-column"):
                yield BoardView(self.setup.game, ascii=self.ascii, id="board")
                yield Static("", id="status", markup=False)
            with Vertical(id="side-column"):
                for side in self.setup.engine_sides:
                    panel = EnginePanel(side, self.sides[side], self.setup.players[side], id=f"panel-{side}")
                    if self.setup.notices[side]:
                        panel.border_title = f"{panel.border_title} · fallback"
                    yield panel
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
        self.refresh_position()
        if any(self.setup.notices):
            self._unread_notice = " · ".join(notice for notice in self.setup.notices if notice)
            self.say(self._unread_notice, error=True)
        self.next_turn()

    def on_unmount(self) -> None:
        self.cancel_search()

    # -- what is shown ---------------------------------------------------------

    @property
    def board(self) -> BoardView:
        return self.query_one("#board", BoardView)

    @property
    def move_input(self) -> MoveInput:
        return self.query_one("#move-input", MoveInput)

    def panel(self, side: int) -> EnginePanel | None:
        panels = self.query(f"#panel-{side}")
        return panels.first(EnginePanel) if panels else None

    def say(self, text: str, *, error: bool = False) -> None:
        """A line under the board: answers to typed moves, notices."""
        message = self.query_one("#message", Static)
        message.update(text)
        message.set_class(error, "-error")

    @property
    def message_text(self) -> str:
        return str(self.query_one("#message", Static).render())

    def refresh_position(self) -> None:
        self.board.show(self.game)
        first_mover = self._first_mover()
        self.query_one(MoveList).show_moves(self.moves, first_mover)
        # Suggestions only on a human's turn: while an engine thinks, what you type is your next move.
        human_to_move = self.game.outcome() is None and self.setup.is_human(self.game.turn)
        self.move_input.set_moves(self.game.legal_move_texts() if human_to_move else [])
        self.update_status()

    def _first_mover(self) -> int:
        """The side that made (or makes) the first move of this game."""
        return (self.game.turn + len(self.moves)) % 2

    def update_status(self) -> None:
        outcome = self.game.outcome()
        number = len(self.moves) // 2 + 1
        if outcome is not None:
            text = f"{result_token(self.game)}  {describe_outcome(self.game)}"
        else:
            side = self.game.turn
            who = self.sides[side]
            if self.setup.is_human(side):
                text = f"{who} to move (you) — type a move below"
            elif self.request is not None:
                text = f"{who} ({self.setup.players[side]}) is thinking…"
            elif self.paused:
                text = f"{who} to move — paused: F5 resumes, F6 plays one move"
            else:
                text = f"{who} to move ({self.setup.players[side]})"
            if self.setup.game == "chess" and self.game.board.is_check():  # type: ignore[attr-defined]
                text += " — check!"
        delay = f" · delay {self.delay:g}s" if len(self.setup.engine_sides) == 2 else ""
        self.query_one("#status", Static).update(f"move {number} · {text}{delay}")

    # -- the flow of the game -------------------------------------------------

    def next_turn(self) -> None:
        """Whatever comes next: the result, a human's move or an engine's search."""
        self.refresh_position()
        outcome = self.game.outcome()
        if outcome is not None:
            self._show_result()
            return
        side = self.game.turn
        if self.setup.is_human(side):
            self.move_input.focus()
            return
        if self.paused and not self.stepping:
            self._set_panel_status(side, "paused")
            return
        if self.delay and len(self.setup.engine_sides) == 2 and self.moves and not self.stepping:
            self._set_panel_status(side, f"next in {self.delay:g}s")
            self._delay_timer = self.set_timer(self.delay, self.start_search)
        else:
            self.start_search()

    def start_search(self) -> None:
        """Ask the search process for the side to move's engine move."""
        self._delay_timer = None
        if self.game.outcome() is not None or self.request is not None:
            return
        side = self.game.turn
        if self.setup.is_human(side):
            return
        self.request = self.service.search(
            self.setup.game, side, self.setup.players[side], self.setup.position, self.moves
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
        for event in events:
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
        self.moves.append(self.game.format_move(move))
        self.game.play(move)

    def _set_panel_status(self, side: int, text: str, *, thinking: bool = False) -> None:
        panel = self.panel(side)
        if panel is not None:
            panel.set_status(text, thinking=thinking)
        self._fit_panels()

    def _fit_panels(self) -> None:
        """On a short terminal with two engines, only the side to move gets the full panel."""
        short = self.size.height < SHORT_SCREEN and len(self.setup.engine_sides) == 2
        for side in self.setup.engine_sides:
            panel = self.panel(side)
            if panel is not None:
                panel.compact = short and side != self.game.turn

    def on_resize(self) -> None:
        self._fit_panels()

    def _show_result(self) -> None:
        if self._result_shown:
            return
        self._result_shown = True
        for side in self.setup.engine_sides:
            self._set_panel_status(side, "game over")
        self.app.push_screen(
            ResultDialog(result_token(self.game), describe_outcome(self.game) or ""),
            self._after_result,
        )

    def _after_result(self, choice: str | None) -> None:
        # Later: the dialog is still on the screen stack while this runs.
        if choice == "rematch":
            self.app.call_later(self.app.open_game, self.setup)
        elif choice == "swap":
            self.app.call_later(self.app.open_game, self.setup.swapped())
        elif choice == "new":
            self.app.call_later(self.app.open_start, self.setup)
        else:
            self.say("game over — F4 undoes, F8 saves, F9 starts a new game")

    # -- typed moves -------------------------------------------------------------

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
        if self.game.outcome() is not None:
            self.say("the game is over — F4 undoes a move, F9 starts a new game", error=True)
            return
        side = self.game.turn
        if not self.setup.is_human(side):
            self.say(f"it is {self.sides[side]}'s turn and an engine plays it; wait, or F5 pauses",
                     error=True)
            return
        try:
            move = self.game.parse_move(text)
        except MoveSyntaxError as error:
            self.say(f"not a move: {error}", error=True)
            return
        except GameError as error:
            self.say(f"illegal: {error}", error=True)
            return
        self._play(move)
        self.input_clear()
        self.say(f"you played {self.moves[-1]}")
        self.next_turn()

    def input_clear(self) -> None:
        self.move_input.value = ""

    # -- actions (F-keys) ----------------------------------------------------------

    def action_help(self) -> None:
        keys = [(b.key, b.description) for b in self.BINDINGS if isinstance(b, Binding) and b.show]
        keys += [("ctrl+s", "save"), ("ctrl+n", "new game"), ("ctrl+o", "flip"), ("ctrl+q", "quit")]
        self.app.push_screen(HelpDialog(self.setup.game, keys))

    def action_list_moves(self) -> None:
        if self.game.outcome() is not None:
            self.say("the game is over: no legal moves")
            return
        moves = self.game.legal_move_texts()
        joined = ("  " if any(" " in m for m in moves) else " ").join(moves)
        self.say(f"{len(moves)} legal moves for {self.sides[self.game.turn]}: {joined}")

    def action_flip(self) -> None:
        self.board.flipped = not self.board.flipped

    def action_undo(self) -> None:
        if not self.moves:
            self.say("nothing to undo", error=True)
            return
        self.cancel_search()
        self._undo_one()
        if len(self.setup.engine_sides) == 2:
            self.paused = True  # engines would replay the move at once
        else:
            # Back to a human's turn: take back the engine's reply too.
            while self.moves and not self.setup.is_human(self.game.turn) and self.setup.engine_sides:
                self._undo_one()
        self._result_shown = False
        self.say("took back a move" + (" — paused, F5 resumes" if self.paused else ""))
        self.next_turn()

    def _undo_one(self) -> None:
        self.game.undo()
        self.moves.pop()

    def action_pause(self) -> None:
        if not self.setup.engine_sides:
            self.say("no engine is playing: nothing to pause")
            return
        self.paused = not self.paused
        self.stepping = False
        if self.paused:
            self.cancel_search()
            self.say("paused — F5 resumes, F6 plays one engine move")
            side = self.game.turn
            if not self.setup.is_human(side):
                self._set_panel_status(side, "paused")
            self.update_status()
        else:
            self.say("resumed")
            self.next_turn()

    def action_step(self) -> None:
        side = self.game.turn
        if self.game.outcome() is not None or self.setup.is_human(side):
            self.say("F6 plays one engine move when an engine is to move", error=True)
            return
        if self.request is not None:
            self.say("the engine is already thinking")
            return
        self.paused = True
        self.stepping = True
        self.next_turn()

    def action_delay(self) -> None:
        index = (DELAYS.index(self.delay) + 1) % len(DELAYS) if self.delay in DELAYS else 0
        self.delay = DELAYS[index]
        self.say(f"delay between engine moves: {self.delay:g} s")
        self.update_status()

    def action_save(self) -> None:
        now = datetime.datetime.now()
        text = record_text(
            self.setup.game, self.game,
            first_player=self.setup.players[0], second_player=self.setup.players[1], date=now.date(),
        )
        what = f"{RECORD_NAMES[self.setup.game]} (.{EXTENSIONS[self.setup.game]})"
        self.app.push_screen(SaveDialog(default_filename(self.setup.game, now), text, what),
                             self._after_save)

    def _after_save(self, path: Any) -> None:
        if path is not None:
            self.say(f"saved to {path}")

    def action_new_game(self) -> None:
        self.cancel_search()
        self.app.open_start(self.setup)
