"""What the player can ask of the game screen: the commands of :mod:`.commands`.

:class:`GameCommands` is mixed into :class:`~tui.app.screens.game.GameScreen`
and uses its state (the game, the moves, the search).  Nothing here discards
an unsaved game without asking: :meth:`GameCommands.guard_unsaved` puts the
question (save, discard, cancel) before a new game, a rematch, opening a file
or quitting.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any, Callable, Iterable

from textual.app import SystemCommand

from games.clock import clk_text
from games import game_kind
from games.reading import resaved_record
from games.records import RecordNotes

from ..session import GameSetup
from .commands import COMMANDS, DELAYS
from .dialogs import ConfirmDialog
from .files import OpenDialog, SaveDialog
from .help import HelpDialog, MovesDialog

if TYPE_CHECKING:
    from .game import GameScreen

__all__ = ["GameCommands"]


class GameCommands:
    """The game screen's actions (help, moves, flip, undo, pause, step, delay,
    review, play from here, save, open, new game) and the palette's list of them."""

    # -- the palette -----------------------------------------------------------------

    def palette_commands(self: GameScreen) -> Iterable[SystemCommand]:
        """Every command by name, for Textual's command palette."""
        for command in COMMANDS:
            keys = f" ({command.keys})" if command.keys != "palette" else ""
            yield SystemCommand(command.title, command.help + keys, getattr(self, f"action_{command.action}"))

    def check_action(self: GameScreen, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide the footer keys that do nothing in this game (no engine to pause or step)."""
        if action == "pause" and not self.setup.engine_sides and self.clock is None:
            return False
        if action == "step" and not self.setup.engine_sides:
            return False
        if action == "delay" and len(self.setup.engine_sides) < 2:
            return False
        if action == "step" and not self.paused:
            return False
        if action in ("hint", "offer_draw", "resign") and not any(map(self.setup.is_human, (0, 1))):
            return False
        return True

    # -- unsaved games ---------------------------------------------------------------

    @property
    def unsaved(self: GameScreen) -> bool:
        """Moves were played that no file holds."""
        return bool(self.moves) and self.moves != self.saved_moves

    def guard_unsaved(self: GameScreen, what: str, then: Callable[[], Any]) -> None:
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
            detail=f"{len(self.moves)} moves played", topic=what,
        ), answered)

    # -- the commands ------------------------------------------------------------------

    def action_help(self: GameScreen) -> None:
        self.app.push_screen(HelpDialog(self.setup.game))

    def action_list_moves(self: GameScreen) -> None:
        if self.outcome() is not None:
            self.say("the game is over: no legal moves")
            return
        moves = self.game.legal_move_texts()
        title = f"{len(moves)} legal moves for {self.sides[self.game.turn]}"
        self.app.push_screen(MovesDialog(title, moves))

    def action_flip(self: GameScreen) -> None:
        self.board.flipped = not self.board.flipped
        self.show_clocks()

    def action_undo(self: GameScreen) -> None:
        if self.review is not None:
            self.show_ply(len(self.moves))
        if not self.moves:
            self.say("nothing to undo", error=True)
            return
        self.cancel_search()
        self.cancel_coach("hint")
        self.verdict = None
        self._undo_one()
        if len(self.setup.engine_sides) == 2:
            self.paused = True  # engines would replay the move at once
        else:
            # Back to a human's turn: take back the engine's reply too.
            while self.moves and not self.setup.is_human(self.game.turn) and self.setup.engine_sides:
                self._undo_one()
        self._result_shown = False
        self.say("took back a move" + (" — paused, ctrl+b resumes" if self.paused else ""))
        self.next_turn()

    def _undo_one(self: GameScreen) -> None:
        self.game.undo()
        self.moves.pop()
        if self.clock is not None:
            self.clock.back_to(len(self.moves))

    def action_pause(self: GameScreen) -> None:
        if not self.setup.engine_sides and self.clock is None:
            self.say("no engine or clock is running: nothing to pause")
            return
        self.paused = not self.paused
        self.stepping = False
        if self.paused:
            self.cancel_search()
            self.say("paused — ctrl+b resumes, ctrl+y plays one engine move")
            side = self.game.turn
            if not self.setup.is_human(side):
                self._set_panel_status(side, "paused")
            self.update_status()
        else:
            self.say("resumed")
            self.next_turn()
        self.refresh_bindings()

    def action_step(self: GameScreen) -> None:
        side = self.game.turn
        if self.outcome() is not None or self.setup.is_human(side) or self.review is not None:
            self.say("step plays one engine move when an engine is to move", error=True)
            return
        if self.request is not None:
            self.say("the engine is already thinking")
            return
        self.paused = True
        self.stepping = True
        self.next_turn()

    def action_delay(self: GameScreen) -> None:
        index = (DELAYS.index(self.delay) + 1) % len(DELAYS) if self.delay in DELAYS else 0
        self.delay = DELAYS[index]
        self.say(f"delay between engine moves: {self.delay:g} s")
        self.update_status()

    def action_review(self: GameScreen) -> None:
        if not self.moves:
            self.say("no moves to review yet", error=True)
            return
        self.move_list.focus()
        self.move_list.select_ply(len(self.moves) - 1 if self.review is None else self.review)

    def action_play_from_here(self: GameScreen) -> None:
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
            for _ in range(dropped):
                self._undo_one()
            self.verdict = None
            self.review = None
            self._result_shown = False
            self.say(f"playing from here: {dropped} later move{'s' if dropped != 1 else ''} dropped")
            self.move_input.focus()
            self.next_turn()

        self.app.push_screen(ConfirmDialog(
            f"Play on from here? The {dropped} later move{'s' if dropped != 1 else ''} will be dropped.",
            [("keep", "Keep them"), ("drop", "Drop them and play")],
            detail="" if not self.unsaved else "The game is not saved: save it first (ctrl+s) to keep them.",
        ), answered)

    def action_save(self: GameScreen, then: Callable[[], Any] | None = None) -> None:
        now = datetime.datetime.now()
        records = game_kind(self.setup.game).records
        if self.setup.record is not None:  # a game read from a file: keep all it held
            text = resaved_record(self.setup.record, self.game, self.record_notes())
        else:
            text = records.text(
                self.game, first_player=self.setup.record_name(0), second_player=self.setup.record_name(1),
                date=now.date(), notes=self.record_notes(),
            )
        what = f"{records.name} (.{records.extension})"
        moves = list(self.moves)

        def saved(path: Any) -> None:
            if path is None:
                self.say("not saved")
                return
            self.saved_moves = moves
            self.say(f"saved to {path}")
            if then is not None:
                then()

        self.app.push_screen(SaveDialog(records.filename(now), text, what), saved)

    def record_notes(self: GameScreen) -> RecordNotes:
        """What the record holds beyond the moves: the result off the board, the
        report's evals and verdicts, the clocks, the hints."""
        comments = []
        report = self.report.moves if self.report_is_current else ()
        for ply in range(len(self.moves)):
            parts = [report[ply].comment] if ply < len(report) and report[ply].comment else []
            if self.clock is not None and ply + 1 < len(self.clock.history):
                mover = (self.first_mover + ply) % 2
                parts.append(f"[%clk {clk_text(self.clock.history[ply + 1][mover])}]")
            if ply in self.hinted:
                parts.append("hint used")
            comments.append(" ".join(parts))
        tags = {"TimeControl": self.clock.control.pgn_tag} if self.clock is not None else {}
        used = [f"{self.sides[side]} {count}" for side, count in enumerate(self.hints) if count]
        comment = f"hints used: {', '.join(used)}" if used else ""
        return RecordNotes(outcome=self.verdict, comments=comments, tags=tags, comment=comment)

    def action_open(self: GameScreen, path: str = "") -> None:
        def opened(result: Any) -> None:
            if result is None:
                return
            loaded, path = result
            # Another game's file keeps that game's default players.
            setup = self.setup if loaded.game_name == self.setup.game else GameSetup(loaded.game_name)
            new = setup.with_record(loaded, str(path))
            self.guard_unsaved("opening another game", lambda: self.app.open_game(new))

        self.app.push_screen(OpenDialog(self.setup.game, path), opened)

    def action_new_game(self: GameScreen) -> None:
        self.guard_unsaved("a new game", lambda: self.app.open_start(self.setup.fresh()))
