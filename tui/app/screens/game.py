"""The game screen, one for all three games: the flow of :mod:`.game_flow` and what the player does.

:class:`GameScreen` adds to :class:`~tui.app.screens.game_flow.GameFlow` the
player's side of the game: moves typed in the move box or clicked on the
board (:class:`~tui.app.picking.MovePicker`), the review of earlier positions
in the move list, and the commands (the table of :mod:`.commands` makes their
keys, the footer, the help and the palette): help, the legal moves, flip,
undo, pause, step, delay, review, play from here, save, open, new game, and
the coach's hint, analysis, report, resignation and draw offer -- each asks
the component that does it (the coach, the clocks) with explicit arguments.
Nothing here discards an unsaved game without asking:
:meth:`GameScreen.guard_unsaved` puts the question (save, discard, cancel)
before a new game, a rematch, opening a file or quitting.
"""

from __future__ import annotations

import datetime
from typing import Any, Callable, Iterable

from textual import on
from textual.app import SystemCommand
from textual.binding import Binding
from textual.widgets import Input

from games import Outcome, game_kind
from games.clock import clk_text
from games.reading import resaved_record
from games.records import RecordNotes

from ...views.format import counted, plies_text
from ..messages import OpenGame, OpenStart
from ..session import GameSetup
from ..widgets.board import BoardView
from ..widgets.eval_bar import EvalBar
from ..widgets.move_entry import MoveEntry
from ..widgets.move_list import MoveList
from .commands import COMMANDS, DELAYS, TYPED_COMMANDS, bindings
from .dialogs import ConfirmDialog
from .files import OpenDialog, SaveDialog
from .game_flow import GameFlow
from .help import HelpDialog, MovesDialog
from .tree import DEFAULT_TREE_ENGINE, TreeScreen, tree_spec

__all__ = ["GameScreen", "DELAYS"]

#: What the result dialog's buttons ask for, beside looking at the board.
RESULT_CHOICES = {"rematch": "rematch", "swap": "swap", "new": "new_game", "save": "save", "report": "report"}


class GameScreen(GameFlow):
    """A game and the commands the player gives it (see the module doc)."""

    BINDINGS = [*bindings(), Binding("escape", "cancel_premove", "Cancel premove", show=False)]

    # -- the palette and the keys ------------------------------------------------------

    def palette_commands(self) -> Iterable[SystemCommand]:
        """Every command by name, for Textual's command palette."""
        for command in COMMANDS:
            keys = f" ({command.keys})" if command.keys != "palette" else ""
            yield SystemCommand(command.title, command.help + keys, getattr(self, f"action_{command.action}"))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide the footer keys that do nothing in this game (no engine to pause or step)."""
        if action == "pause" and not self.controller.setup.engine_sides and self.clocks.clock is None:
            return False
        if action == "step" and not self.controller.setup.engine_sides:
            return False
        if action == "delay" and len(self.controller.setup.engine_sides) < 2:
            return False
        if action == "step" and not self.controller.paused:
            return False
        if action in ("hint", "offer_draw", "resign") and not any(map(self.controller.setup.is_human, (0, 1))):
            return False
        return True

    def result_chosen(self, choice: str | None) -> None:
        action = RESULT_CHOICES.get(choice or "")
        if action is None:
            super().result_chosen(choice)
        else:
            getattr(self, f"action_{action}")()

    # -- moves: typed or clicked -----------------------------------------------------------

    def _refuse_move(self) -> bool:
        """Say why no move can be made now (reviewing, game over, an engine's turn)."""
        if self.review is not None:
            self.say("you are reviewing an earlier position: Esc or End returns to the game, "
                     "Enter in the move list plays from here", error=True)
        elif self.outcome() is not None:
            self.say("the game is over — ctrl+z takes a move back, ctrl+n starts a new game", error=True)
        elif not self.controller.setup.is_human(self.game.turn):
            self.say(f"it is {self.sides[self.game.turn]}'s turn and an engine plays it; wait, "
                     "or ctrl+b pauses", error=True)
        else:
            return False
        return True

    @on(Input.Submitted, "#move-input")
    def typed(self, event: Input.Submitted) -> None:
        """A move typed in the move box, or a command's word (``?`` lists the moves)."""
        text = event.value.strip()
        command = "list_moves" if text in {"?", "help", "moves"} else TYPED_COMMANDS.get(text.lower())
        if command is not None:
            self.input_clear()
            getattr(self, f"action_{command}")()
            return
        if text and self.controller.premove_possible:
            self.input_clear()
            self.aids.queue_premove(text)
            return
        if not text or self._refuse_move():
            return
        self.move_input.enter(text)

    @on(MoveEntry.MoveEntered, "#move-input")
    def move_entered(self, event: MoveEntry.MoveEntered) -> None:
        """A move typed or clicked: played, unless the game moved on meanwhile."""
        if not self.human_to_move or self.review is not None:
            self.board.mark(None)
            self.say("no move made")
            return
        self.human_moved(event.move)

    def on_move_entry_said(self, event: MoveEntry.Said) -> None:
        self.say(event.text, error=event.error)

    def input_clear(self) -> None:
        self.move_input.value = ""

    def on_board_view_square_chosen(self, event: BoardView.SquareChosen) -> None:
        self.square_chosen(event.square)

    def square_chosen(self, square: tuple[int, int]) -> None:
        if self.controller.premove_possible:
            self.aids.premove_click(square)
            return
        if self._refuse_move():
            return
        self.move_input.square_chosen(square)

    def on_board_view_dismissed(self, event: BoardView.Dismissed) -> None:
        self.aids.dismissed()

    def action_cancel_premove(self) -> None:
        self.aids.cancel_premove()

    def action_best_line(self) -> None:
        self.aids.best_line()

    def action_threat(self) -> None:
        self.aids.threat()

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
                self.played.review = None
                self.say("back to the game")
                self.next_turn()
            return
        if self.review is None:
            self.cancel_search()
        self.played.review = ply
        self.board.mark(None)
        self.board.show(self.played.shown_game())
        self.update_status()
        self.update_analysis()

    # -- unsaved games ---------------------------------------------------------------

    @property
    def unsaved(self) -> bool:
        """Moves were played that no file holds."""
        return self.played.unsaved

    def guard_unsaved(self, what: str, then: Callable[[], Any]) -> None:
        """Run ``then`` — after asking, if the game is not saved (save first, discard, cancel).

        ``then`` runs once the dialogs are gone (it may switch screens)."""
        def later() -> None:
            self.app.call_later(then)

        if not self.unsaved:
            later()
            return

        def answered(choice: str | None) -> None:
            if choice == "save":
                self.action_save(later)
            elif choice == "discard":
                later()
            else:
                self.say("kept the game")

        self.app.push_screen(ConfirmDialog(
            f"The game is not saved. Save it before {what}?",
            [("cancel", "Cancel"), ("save", "Save first"), ("discard", "Discard the game")],
            detail=f"{plies_text(len(self.moves))} played", topic=what,
        ), answered)

    # -- the commands ------------------------------------------------------------------

    def action_help(self) -> None:
        self.app.push_screen(HelpDialog(self.controller.setup.game))

    def action_list_moves(self) -> None:
        if self.outcome() is not None:
            self.say("the game is over: no legal moves")
            return
        moves = self.game.legal_move_texts()
        title = f"{counted(len(moves), 'legal move')} for {self.sides[self.game.turn]}"
        self.app.push_screen(MovesDialog(title, moves))

    def action_flip(self) -> None:
        """Turn the board; its orientation is kept for this game's next games (the settings)."""
        self.board.flipped = not self.board.flipped
        self.query_one("#eval-bar", EvalBar).turned = self.board.flipped != self.board.painter.flipped_for(0)
        self.clocks.bottom = self.bottom_side_shown
        keep = getattr(self.app, "keep_turned", None)
        if keep is not None:
            turned = self.board.flipped != self.board.painter.flipped_for(self.controller.setup.bottom_side)
            problem = keep(self.board.painter.game_name, turned)
            if problem:
                self.say(problem, error=True)

    def action_undo(self) -> None:
        if self.review is not None:
            self.show_ply(len(self.moves))
        if not self.moves:
            self.say("nothing to undo", error=True)
            return
        self.cancel_search()
        self.coach.cancel("hint")
        # Back to a human's turn (the engine's reply goes too); engines playing each other pause.
        taken = self.controller.undo()
        self._forget_taken_back()
        self._result_shown = False
        self.say(f"took back {'a move' if taken == 1 else counted(taken, 'move')}"
                 + (" — paused, ctrl+b resumes" if self.controller.paused else ""))
        self.next_turn()

    def _forget_taken_back(self) -> None:
        """The engines' panels forget the scores of the moves taken back."""
        for side in self.controller.setup.engine_sides:
            panel = self.panel(side)
            if panel is not None:
                panel.forget_from(len(self.moves))

    def action_pause(self) -> None:
        if not self.controller.setup.engine_sides and self.clocks.clock is None:
            self.say("no engine or clock is running: nothing to pause")
            return
        if self.controller.toggle_pause():
            self.cancel_search()
            self.say("paused — ctrl+b resumes, ctrl+y plays one engine move")
            side = self.game.turn
            if not self.controller.setup.is_human(side):
                self._set_panel_status(side, "paused")
            self.update_status()
        else:
            self.say("resumed")
            self.next_turn()
        self.refresh_bindings()

    def action_step(self) -> None:
        refusal = self.controller.step_refusal()
        if refusal:
            self.say(refusal, error=True)
            return
        if self.request is not None:
            self.say("the engine is already thinking")
            return
        self.controller.step()
        self.next_turn()

    def action_delay(self) -> None:
        index = (DELAYS.index(self.delay) + 1) % len(DELAYS) if self.delay in DELAYS else 0
        self.delay = DELAYS[index]
        self.say(f"delay between engine moves: {self.delay:g} s")
        self.update_status()

    def action_review(self) -> None:
        if not self.moves:
            self.say("no moves to review yet", error=True)
            return
        self.move_list.focus()
        self.move_list.select_ply(len(self.moves) - 1 if self.review is None else self.review)

    def action_play_from_here(self) -> None:
        if self.review is None:
            self.say("review first (↑, or click a move in the list), then play from that position",
                     error=True)
            return
        ply = self.review
        dropped = len(self.moves) - ply

        def answered(choice: str | None) -> None:
            if choice != "drop" or self.review != ply:
                self.say("kept every move")
                return
            self.cancel_search()
            self.controller.back_to(ply)
            self._forget_taken_back()
            self._result_shown = False
            self.say(f"playing from here: {dropped} later move{'s' if dropped != 1 else ''} dropped")
            self.move_input.focus()
            self.next_turn()

        self.app.push_screen(ConfirmDialog(
            f"Play on from here? The {dropped} later move{'s' if dropped != 1 else ''} will be dropped.",
            [("keep", "Keep them"), ("drop", "Drop them and play")],
            detail="" if not self.unsaved else "The game is not saved: save it first (ctrl+s) to keep them.",
        ), answered)

    # -- files -----------------------------------------------------------------------------

    def action_save(self, then: Callable[[], Any] | None = None) -> None:
        now = datetime.datetime.now()
        records = game_kind(self.controller.setup.game).records
        if self.controller.setup.record is not None:  # a game read from a file: keep all it held
            text = resaved_record(self.controller.setup.record, self.game, self.record_notes())
        else:
            text = records.text(
                self.game, first_player=self.controller.setup.record_name(0), second_player=self.controller.setup.record_name(1),
                date=now.date(), notes=self.record_notes(),
            )
        what = f"{records.name} (.{records.extension})"
        moves = list(self.moves)

        def saved(path: Any) -> None:
            if path is None:
                self.say("not saved")
                return
            self.played.saved_moves = moves
            self.say(f"saved to {path}")
            if then is not None:
                then()

        self.app.push_screen(SaveDialog(records.filename(now), text, what), saved)

    def record_notes(self) -> RecordNotes:
        """What the record holds beyond the moves: the result off the board, the
        report's evals and verdicts, the clocks, the hints."""
        comments = []
        report = self.coach.report_for(tuple(self.moves))
        judged = report.moves if report is not None else ()
        clock = self.clocks.clock
        for ply in range(len(self.moves)):
            parts = [judged[ply].comment] if ply < len(judged) and judged[ply].comment else []
            if clock is not None and ply + 1 < len(clock.history):
                mover = (self.played.first_mover + ply) % 2
                parts.append(f"[%clk {clk_text(clock.history[ply + 1][mover])}]")
            if ply in self.coach.hinted:
                parts.append("hint used")
            comments.append(" ".join(parts))
        tags = {"TimeControl": clock.control.pgn_tag} if clock is not None else {}
        used = [f"{self.sides[side]} {count}" for side, count in enumerate(self.coach.hints) if count]
        comment = f"hints used: {', '.join(used)}" if used else ""
        return RecordNotes(outcome=self.verdict, comments=comments, tags=tags, comment=comment)

    def action_open(self, path: str = "") -> None:
        def opened(result: Any) -> None:
            if result is None:
                return
            loaded, path = result
            # Another game's file keeps that game's default players.
            setup = self.controller.setup if loaded.game_name == self.controller.setup.game else GameSetup(loaded.game_name)
            new = setup.with_record(loaded, str(path))
            self.guard_unsaved("opening another game", lambda: self.post_message(OpenGame(new)))

        self.app.push_screen(OpenDialog(self.controller.setup.game, path), opened)

    #: Opened from the lab to review one of its games: New goes back to the lab.
    back_to_lab = False

    def action_new_game(self) -> None:
        if self.back_to_lab:
            self.guard_unsaved("going back to the lab", self.app.pop_screen)
            return
        self.guard_unsaved("a new game", lambda: self.post_message(OpenStart(self.controller.setup.fresh())))

    def action_rematch(self) -> None:
        self.guard_unsaved("a rematch", lambda: self.post_message(OpenGame(self.controller.setup.fresh())))

    def action_swap(self) -> None:
        self.guard_unsaved("a new game", lambda: self.post_message(OpenGame(self.controller.setup.fresh().swapped())))

    # -- the coach ---------------------------------------------------------------------------

    def action_hint(self) -> None:
        if self.review is not None or self.outcome() is not None or not self.human_to_move:
            self.say("a hint is for your move: on your turn, in the game (not while reviewing)", error=True)
            return
        if self.coach.busy is not None:
            self.say(f"the coach is busy with the {self.coach.busy}; wait a moment", error=True)
            return
        self.say(self.coach.hint(tuple(self.moves)))

    def action_analyse(self) -> None:
        """Analysis on or off."""
        if self.coach.toggle_analysis(self.game.turn):
            self.say(f"analysis on ({self.coach.analysis_spec}): it follows every move, undo and review step — "
                     "ctrl+e stops it")
            self.call_after_refresh(self.update_analysis)
        else:
            self.say("analysis off")
            self.call_after_refresh(self._fit_panels)

    def action_tree(self) -> None:
        """Open the search tree explorer (see :mod:`.tree`) on the search behind the last
        engine move shown, or with the analysis engine (or a small alpha-beta) on the
        position shown."""
        if self.clocks.clock is not None and self.clocks.running is not None and self.outcome() is None:
            self.say("the clocks run: pause them first (ctrl+b), or look at the tree after the game", error=True)
            return
        if self.request is not None:
            self.say("an engine is thinking: pause first (ctrl+b), then open the tree", error=True)
            return
        shown = self.played.shown_game()
        ply = len(self.moves) if self.review is None else self.review
        played = None
        before = shown.copy()
        if ply:
            before.undo()
        if self.coach.analysis_spec is not None and shown.outcome() is None:
            game, spec, about = shown, self.coach.analysis_spec, "the analysis of the position shown"
        elif ply and not self.controller.setup.is_human(before.turn):
            game, spec = before, tree_spec(self.controller.setup.players[before.turn])
            played = self.moves[ply - 1]
            about = f"{self.sides[before.turn]}'s search before {played}, searched again"
        elif shown.outcome() is None:
            game, spec, about = shown, DEFAULT_TREE_ENGINE, "the position shown"
        else:
            self.say("the game is over here, and no engine made the last move: nothing to search", error=True)
            return
        self.app.push_screen(TreeScreen(game, spec, about=about, ascii=self.board.ascii,
                                        flipped=self.board.flipped,
                                        played=played if game is before else None))

    def action_report(self) -> None:
        if not self.moves:
            self.say("no moves to report on yet", error=True)
            return
        if self.coach.report_for(tuple(self.moves)) is not None:
            self.coach.open_report()
            return
        if self.coach.report_running:
            self.coach.cancel("report")
            self.say("report stopped")
            self.next_turn()
            return
        self.cancel_search()
        self.coach.start_report(tuple(self.moves))
        self.update_status()  # the clocks stop while it runs

    def _human_side(self) -> int | None:
        """The side a resignation or offer is made for: the human (the one to move when both are)."""
        humans = [side for side in (0, 1) if self.controller.setup.is_human(side)]
        if not humans:
            return None
        return humans[0] if len(humans) == 1 else self.game.turn

    def action_resign(self) -> None:
        side = self._human_side()
        if side is None or self.outcome() is not None:
            self.say("only a human player can resign, in a game still going on", error=True)
            return
        self.coach.resign(side)

    def action_offer_draw(self) -> None:
        side = self._human_side()
        if side is None or self.outcome() is not None:
            self.say("only a human player can offer a draw, in a game still going on", error=True)
            return
        other = 1 - side
        if self.controller.setup.is_human(other):
            self.coach.ask_draw(side)
            return
        accepted, said = self.coach.engine_answers_draw(side, self.controller.setup.players[other], len(self.moves),
                                                        self.last_scores[other])
        if accepted:
            self.end_game(Outcome(None, "agreement"), said)
        else:
            self.say(said)
