"""The game screen, one for all four games: the flow of :mod:`.game_flow` and what the player does.

:class:`GameScreen` adds to :class:`~tui.app.screens.game_flow.GameFlow` the
player's side of the game: moves typed in the move box or clicked on the
board (the :class:`~tui.app.widgets.move_entry.MoveEntry` posts them), the
review of earlier positions in the move list, and two components it composes
and tells what the player did: the commands
(:class:`~tui.app.screens.game_commands.GameCommands`; its keys are the action
``command(name)``, the table of :mod:`.commands` makes them, the footer, the
help and the palette) and the board aids
(:class:`~tui.app.screens.aids.BoardAids`: premoves, the best line, the threat).
"""

from __future__ import annotations

from typing import Iterable

from textual import on
from textual.app import SystemCommand
from textual.binding import Binding
from textual.widgets import Input

from ..engine_link import EngineLink
from ..session import GameSetup
from ..widgets.board import BoardView
from ..widgets.move_entry import MoveEntry
from ..widgets.move_list import MoveList
from .commands import COMMANDS, DELAYS, TYPED_COMMANDS, bindings
from .game_commands import GameCommands
from .game_flow import GameFlow

__all__ = ["GameScreen", "DELAYS"]

#: What the result dialog's buttons ask for, beside looking at the board.
RESULT_CHOICES = {"rematch": "rematch", "swap": "swap", "new": "new_game", "save": "save", "report": "report"}


class GameScreen(GameFlow):
    """A game and the commands the player gives it (see the module doc)."""

    BINDINGS = [*bindings(), Binding("escape", "cancel_premove", "Cancel premove", show=False)]

    #: Opened from the lab to review one of its games: New goes back to the lab.
    back_to_lab = False

    def __init__(self, setup: GameSetup, link: EngineLink, *, ascii: bool = False) -> None:
        super().__init__(setup, link, ascii=ascii)
        #: What the keys, the palette and the typed words do.
        self.commands = GameCommands(self)

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

    def result_chosen(self, choice: str | None) -> None:
        action = RESULT_CHOICES.get(choice or "")
        if action is None:
            super().result_chosen(choice)
        else:
            self.commands.run(action)

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
            self.commands.run(command)
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

    # -- review ----------------------------------------------------------------------------

    def on_move_list_ply_selected(self, event: MoveList.PlySelected) -> None:
        self.show_ply(event.ply)

    def on_move_list_leave(self, event: MoveList.Leave) -> None:
        self.show_ply(len(self.moves))
        self.move_input.focus()

    def on_move_list_play_here(self, event: MoveList.PlayHere) -> None:
        self.commands.play_from_here()

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

