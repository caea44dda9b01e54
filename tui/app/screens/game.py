"""The game screen, one for all four games: its layout, and ``@on`` handlers that tell its parts what happened.

:class:`GameScreen` is a plain :class:`~textual.screen.Screen`: the board
(left) with the status line and the move box under it, the clocks
(:class:`~tui.app.widgets.game_clocks.GameClocks`) above and below it; on the
right an engine panel per AI side, the coach
(:class:`~tui.app.screens.coach.Coach`, holding the analysis panel when
analysis is on), the material and the move list.  The game itself, its clock,
pauses and premove are the :class:`~tui.app.controller.GameController`'s (no
Textual), which says what comes next as a typed value.  The screen composes
three plain objects, each in its own module, and tells them what happened:

- the engines' turns (:class:`~tui.app.screens.engine_turns.EngineTurns`):
  their searches in the app's search process, their panels, the eval beside
  the board; the search process's messages (``EngineInfo``, ``EngineDone``,
  ``EngineFailed``) come to the screen and go to it;
- the commands (:class:`~tui.app.screens.game_commands.GameCommands`; its keys
  are the action ``command(name)``, the table of :mod:`.commands` makes them,
  the footer, the help and the palette; the result dialog and the review of
  earlier positions are its too);
- the board aids (:class:`~tui.app.screens.aids.BoardAids`: premoves, the best
  line, the threat, the hint's marks).

Moves typed in the move box or clicked on the board come from the
:class:`~tui.app.widgets.move_entry.MoveEntry` as one message.  The screen is
an analysis board too: the move list shows the game's tree (variations,
comments, NAGs), and a move made while an earlier position is shown plays on
from there -- it follows the variation that plays it or starts a new one,
nothing is cut.  After every
change :meth:`GameScreen.next_turn` does what the controller's turn says -- the
result dialog when the game is over, the move box for a human, a search for an
engine -- and tells the coach which position to analyse and the clocks which
side runs.  Engines do not play while paused, while a dialog is open over the
screen, while the player reviews an earlier position or while the report runs;
anything that changes the position (undo, a new game, leaving the screen)
cancels the running search first.  The components answer with messages: a flag
falls (``GameClocks.Flagged``: the controller says the result), the coach found
a hint, ends the game (a resignation, an agreed draw), gives a move of its
report to review or has a line to say.
"""

from __future__ import annotations

import time
from typing import Iterable

from textual import on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, Label, Static

from games import Game, Outcome, game_kind
from games.records import describe_outcome, result_token

from ...settings import Settings
from ...views.format import plies_text
from ..controller import EngineToMove, EngineWaits, GameController, GameOver, HumanToMove
from ..engine_link import EngineDone, EngineFailed, EngineInfo, EngineLink
from ..session import GameSetup, engine_label
from ..widgets.board import BoardView
from ..widgets.engine_panel import EnginePanel
from ..widgets.eval_bar import EvalBar
from ..widgets.game_clocks import GameClocks
from ..widgets.material import MaterialLine
from ..widgets.move_entry import MoveEntry
from ..widgets.move_input import MoveInput
from ..widgets.move_list import MoveList
from .aids import BoardAids
from .coach import Coach
from .commands import COMMANDS, DELAYS, TYPED_COMMANDS, bindings
from .engine_turns import SHORT_SCREEN, EngineTurns
from .game_commands import GameCommands

__all__ = ["GameScreen", "DELAYS", "SHORT_SCREEN"]


class GameScreen(Screen):
    """Play one game of ``setup``; engines search through ``link`` (see the module doc)."""

    AUTO_FOCUS = "#move-input"
    BINDINGS = [*bindings(), Binding("escape", "command('cancel_premove')", "Cancel premove", show=False)]

    #: Opened from the lab to review one of its games: New goes back to the lab.
    back_to_lab = False
    #: The id of the game's entry among the unfinished games (:mod:`tui.unfinished`): ``None`` until kept.
    kept_id: str | None = None

    def __init__(self, setup: GameSetup, link: EngineLink, *, ascii: bool = False) -> None:
        super().__init__()
        #: The game, its clock, pauses and premove, and what comes next in it (no Textual).
        self.controller = GameController(setup)
        self.link = link
        self.ascii = ascii
        #: The game, its moves as texts, the result off the board, the position reviewed.
        self.played = self.controller.played
        self.sides = self.played.sides
        self.clocks = GameClocks(self.controller.clock, self.sides, setup.bottom_side)
        self.coach = Coach(link, setup.game, setup.position, self.sides, self.played.first_mover,
                           self.played.first_number, setup.analysis)
        #: The engine panels show the search's own figures (on when two engines play), not a player's words.
        self.advanced = len(setup.engine_sides) == 2
        self.coach.advanced = self.advanced
        #: The engines' searches, their panels and the eval.
        self.engines = EngineTurns(self)
        #: Premoves, the best line and the threat.
        self.aids = BoardAids(self)
        #: What the keys, the palette and the typed words do.
        self.commands = GameCommands(self, self.aids, self.engines)

    # -- the game's state, read through ----------------------------------------------------

    @property
    def game(self) -> Game:
        return self.played.game

    @property
    def moves(self) -> list[str]:
        return self.played.moves

    @property
    def review(self) -> int | None:
        return self.played.review

    def outcome(self) -> Outcome | None:
        """How the game ended: off the board (resignation, agreement, time) or on it; ``None`` while it goes on."""
        return self.controller.outcome()

    # -- layout --------------------------------------------------------------

    def compose(self) -> ComposeResult:
        setup = self.controller.setup
        kind = game_kind(setup.game)
        with Horizontal(id="main"):
            with Vertical(id="board-column"):
                views = self.clocks.views
                yield from views[:1]
                settings = getattr(self.app, "settings", None) or Settings()
                board = BoardView(setup.game, ascii=self.ascii, id="board", **settings.board_options())
                board.flipped = board.painter.flipped_for(setup.bottom_side) != (kind.name in settings.turned)
                with Horizontal(id="board-row"):
                    bar = EvalBar(kind.scores, kind.board.layout.colours.pieces, ascii=self.ascii, id="eval-bar")
                    bar.turned = board.flipped != board.painter.flipped_for(0)
                    yield bar
                    yield board
                yield from views[1:]
                yield Static("", id="status", markup=False)
                yield self.clocks
            with Vertical(id="side-column"):
                for side in setup.engine_sides:
                    panel = EnginePanel(side, self.sides[side], setup.players[side], id=f"panel-{side}",
                                        label=engine_label(kind.name, setup.players[side]),
                                        scores=kind.scores, first_name=self.sides[0], second_name=self.sides[1],
                                        advanced=self.advanced)
                    if setup.notices[side]:
                        panel.border_title = f"{panel.border_title} · fallback"
                    yield panel
                yield self.coach
                yield MaterialLine(kind.board, self.sides, ascii=self.ascii, id="material")
                yield MoveList(self.sides, id="moves")
        yield Static("", id="message", markup=False)
        with Horizontal(id="input-row"):
            yield Label("move ›", id="prompt")
            yield MoveInput(id="move-input")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        if not self.query("#board"):  # replaced before it was mounted (an opened game the player continues)
            return
        setup = self.controller.setup
        self.title = f"tui-games · {setup.game}"
        self.sub_title = f"{setup.player_label(0)} vs {setup.player_label(1)}"
        self.move_input.board = self.board
        self.board.typing_goes_to = self.move_list.typing_goes_to = self.move_input.take_typing  # a move
        self.refresh_position()
        self.clocks.bottom = self.board.side_at_bottom(setup.bottom_side)  # a board the settings keep turned turns the clocks too
        if any(setup.notices):
            self.engines.unread_notice = " · ".join(notice for notice in setup.notices if notice)
            self.say(self.engines.unread_notice, error=True)
        elif setup.source:
            resume = " — ctrl+b lets the engines play on" if self.controller.paused and self.outcome() is None else ""
            variations = sum(len(node.variations) - 1 for node in self.played.tree.walk() if node.variations)
            held = f" and {variations} variation{'s' if variations != 1 else ''}" if variations else ""
            self.say(f"read {plies_text(len(self.moves))}{held} from {setup.source}; ↑ reviews them{resume}")
        self.next_turn()

    def on_unmount(self) -> None:
        self.engines.cancel()
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
        self.move_list.show_tree(self.played.tree, self.played.node.path(), self.review)
        # Suggestions only on a human's turn: while an engine thinks, what you type is your next move.
        self.move_input.set_moves(self.game.legal_move_texts() if self.controller.human_to_move else [])
        self.update_status()

    def update_status(self) -> None:
        """The status line, and the clocks, follow the state of the game."""
        setup = self.controller.setup
        self.clocks.review = self.review
        self.clocks.running = self.engines.clock_side()
        if self.review is not None:
            text = self.played.review_status()
        elif self.outcome() is not None:
            text = f"{result_token(self.game, self.played.verdict)}  {describe_outcome(self.game, self.played.verdict)}"
        else:
            side = self.game.turn
            who = self.sides[side]
            picker = self.move_input.picker
            forced = picker.forced if setup.is_human(side) and picker is not None else ()
            if forced:  # a pass: nothing on the board to play
                text = (f"{who} to move (you): no move on the board, you must play "
                        f"{' or '.join(self.game.format_move(move) for move in forced)}: type it or click the board")
            elif setup.is_human(side):
                text = f"{who} to move (you): type or click a move"
            elif self.engines.request is not None:
                text = f"{who} ({engine_label(setup.game, setup.players[side])}) is thinking…"
            elif self.controller.paused:
                text = (f"{who} to move — paused: type a move for either side; ctrl+b lets the engine play on"
                        if self.controller.free_hand else f"{who} to move — paused: ctrl+b resumes, F6 plays one move")
            else:
                text = f"{who} to move ({engine_label(setup.game, setup.players[side])})"
            if self.game.in_check():
                text += " — check!"
        delay = f" · delay {self.engines.delay:g}s" if len(setup.engine_sides) == 2 else ""
        prefix = "" if self.review is not None else f"move {self.played.move_number(len(self.moves))} · "
        opening = self.played.shown_game().opening()
        named = f" · {opening}" if opening else ""
        self.query_one("#status", Static).update(f"{prefix}{text}{delay}{named}")
        self.engines.refresh_eval()

    # -- the flow of the game -------------------------------------------------

    @on(Coach.Freed)
    def next_turn(self) -> None:
        """Whatever comes next: the result, a human's move or an engine's search (and the analysis)."""
        self.refresh_position()
        turn = self.controller.turn(held=self.engines.held)
        if isinstance(turn, GameOver):
            self.commands.show_result()
        elif isinstance(turn, HumanToMove):
            if self.is_active and not isinstance(self.focused, BoardView):
                self.move_input.focus()
            self.aids.turn_began(turn.premove)  # the queued premove, if any
        elif isinstance(turn, EngineWaits):
            self.engines.set_panel_status(turn.side, turn.why)
            if self.controller.human_to_move and self.is_active and not isinstance(self.focused, (BoardView, MoveList)):
                self.move_input.focus()  # paused: the player may move for either side
        elif isinstance(turn, EngineToMove):
            self.engines.play(turn.side)
        self.update_analysis()

    def on_screen_suspend(self) -> None:
        """A dialog opened over the game (or the game was left): engines and clocks stop."""
        if self.engines.request is not None or self.engines.delay_timer is not None:
            self.engines.cancel()
        self.coach.cancel("analysis")
        self.clocks.stop()

    def on_screen_resume(self) -> None:
        """The dialog closed: the game goes on where it was."""
        if self.is_mounted and self.engines.request is None and self.review is None:
            listed = isinstance(self.focused, MoveList)  # a move list dialog (a comment, a mark) closed
            self.next_turn()
            if listed:
                self.move_list.focus()
        elif self.is_mounted:
            self.update_status()
            self.update_analysis()

    def human_moved(self, move: object) -> None:
        """Play the human's ``move`` and go on."""
        self.controller.play(move, time.monotonic())
        self.say(f"you played {self.moves[-1]}")
        self.next_turn()

    def end_game(self, outcome: Outcome, why: str = "") -> None:
        """The game ends off the board: a resignation, an agreed draw, a flag fall
        (``why`` comes first in the line under the board)."""
        self.engines.cancel()
        self.coach.cancel("analysis", "hint")
        self.controller.end(outcome, time.monotonic())
        self.clocks.stop()
        said = describe_outcome(self.game, outcome) or ""
        self.say(f"{why} — {said}" if why else said)
        self.next_turn()

    def update_analysis(self) -> None:
        """Tell the coach which position to analyse (if analysis is on)."""
        self.coach.analyse(*self.engines.analysis_target())
        self.engines.fit_panels()

    def on_resize(self) -> None:
        self.engines.fit_panels()

    # -- what the parts say ----------------------------------------------------------------

    @on(EngineInfo)
    @on(EngineDone)
    @on(EngineFailed)
    def engine_answered(self, message: EngineInfo | EngineDone | EngineFailed) -> None:
        """A search's figures, move or failure, from the search process."""
        self.engines.answered(message)

    def on_game_clocks_flagged(self, message: GameClocks.Flagged) -> None:
        """``side``'s time ran out: the other side wins, or draws when it cannot win (chess: no mating material)."""
        outcome = self.controller.flag_fell(message.side)
        if outcome is not None:
            self.end_game(outcome)

    @on(Coach.Say)
    @on(MoveEntry.Said)
    def said(self, message: Coach.Say | MoveEntry.Said) -> None:
        self.say(message.text, error=message.error)

    def on_coach_evaluated(self, message: Coach.Evaluated) -> None:
        self.engines.show_eval(message.score, message.mate, message.ply)

    def on_coach_game_ends(self, message: Coach.GameEnds) -> None:
        if self.outcome() is None:
            self.end_game(message.outcome, message.why)

    def on_coach_show_ply(self, message: Coach.ShowPly) -> None:
        if message.ply <= len(self.moves):
            self.move_list.focus()
            self.move_list.select_ply(message.ply)

    def on_coach_hint_found(self, message: Coach.HintFound) -> None:
        self.aids.hint_found(message.moves, message.move, message.stats)

    # -- the palette and the keys ------------------------------------------------------

    def palette_commands(self) -> Iterable[SystemCommand]:
        """Every command by name, for Textual's command palette."""
        for command in COMMANDS:
            keys = f" ({command.keys})" if command.keys != "palette" else ""
            yield SystemCommand(command.title, command.help + keys, getattr(self.commands, command.action))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide the footer keys that do nothing in this game (no engine to pause or step)."""
        if action == "command" and parameters:
            return self.commands.allows(str(parameters[0]))
        return True

    def action_command(self, name: str) -> None:
        """A command's key: the commands component does it."""
        self.commands.run(name)

    # -- moves: typed or clicked -----------------------------------------------------------

    @on(Input.Submitted, "#move-input")
    def typed(self, event: Input.Submitted) -> None:
        """A move typed in the move box, or a command's word (``?`` lists the moves)."""
        text = event.value.strip()
        command = "list_moves" if text in {"?", "help", "moves"} else TYPED_COMMANDS.get(text.lower())
        if command is not None:
            self.move_input.value = ""
            self.commands.run(command)
            return
        if text and self.controller.premove_possible:
            self.move_input.value = ""
            self.aids.queue_premove(text)
            return
        if not text or self.commands.refuse_move():
            return
        self.move_input.enter(text)

    @on(MoveEntry.MoveEntered, "#move-input")
    def move_entered(self, event: MoveEntry.MoveEntered) -> None:
        """A move typed or clicked: played, unless the game moved on meanwhile; made in a
        reviewed position it plays on from there, as a variation (or the one that plays it)."""
        if self.review is not None and event.entry.game is not self.game:
            self.commands.analysis.play_in_review(event.text)
            return
        if not self.controller.human_to_move or self.review is not None:
            self.board.mark(None)
            self.say("no move made")
            return
        self.human_moved(event.move)

    def on_board_view_square_chosen(self, event: BoardView.SquareChosen) -> None:
        if self.controller.premove_possible:
            self.aids.premove_click(event.square)
        elif not self.commands.refuse_move():
            self.move_input.square_chosen(event.square)

    def on_board_view_dismissed(self, event: BoardView.Dismissed) -> None:
        self.aids.dismissed()

    # -- review ----------------------------------------------------------------------------

    def on_move_list_ply_selected(self, event: MoveList.PlySelected) -> None:
        self.commands.show_ply(event.ply)

    def on_move_list_leave(self, event: MoveList.Leave) -> None:
        self.commands.show_ply(len(self.moves))
        self.move_input.focus()

    @on(MoveList.PlayHere)
    @on(MoveList.NodeSelected)
    @on(MoveList.Edit)
    def move_list_asked(self, message: MoveList.PlayHere | MoveList.NodeSelected | MoveList.Edit) -> None:
        """The analysis board's requests: play from here, another line, an edit of the move shown."""
        analysis = self.commands.analysis
        if isinstance(message, MoveList.NodeSelected):
            analysis.follow_line(message.node)
        elif isinstance(message, MoveList.Edit):
            analysis.edit_move(message.node, message.what)
        else:
            analysis.play_from_here()
