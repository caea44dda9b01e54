"""Move entry: a move typed (with legal-move suggestions) or clicked on the board, one message out.

:class:`MoveEntry` is the move box of every screen that takes a player's move
(the game screen's :class:`~tui.app.widgets.move_input.MoveInput` is one, the
puzzle screen's is another).  The screen tells it, as attributes, the position
moves are made in (:attr:`MoveEntry.game`) and the board its clicks are on
(:attr:`MoveEntry.board`); it hands it a typed text (:meth:`MoveEntry.enter`)
or a chosen square (:meth:`MoveEntry.square_chosen`) once the screen's own
checks have passed (a command's word, a premove, a move out of turn).  Typed
text is parsed in the position; squares are picked with a
:class:`~tui.app.picking.MovePicker` (a piece picked up shows its targets,
a second square makes the move, several moves between two squares -- a
promotion, a checkers path -- are asked for in a
:class:`~tui.app.screens.dialogs.ChoiceDialog`).  A move made posts
:class:`MoveEntry.MoveEntered` with the move and its text; what the player is
told (a refusal, a piece picked up) posts :class:`MoveEntry.Said`.
"""

from __future__ import annotations

from typing import Any, Sequence

from textual.message import Message
from textual.suggester import Suggester
from textual.widgets import Input

from games import Game, GameError, MoveSyntaxError

from ...views.format import illegal_text
from ..picking import MovePicker
from ..screens.dialogs import ChoiceDialog
from .board import BoardView
from .painting import Square

__all__ = ["LegalMoveSuggester", "MoveEntry", "moves_starting"]


#: The most moves a refusal lists (the rest are counted).
LISTED_MOVES = 8


def moves_starting(game: Game, text: str) -> str:
    """The legal moves a typed beginning starts, as a refusal lists them: ``N`` in chess, the knight
    moves ``Na3, Nc3, Nf3, Nh3``; ``11`` in checkers, ``11-15, 11-16``; '' for none.  Case counts
    where it matches (chess's ``b`` is a file, ``B`` a bishop), else it is ignored."""
    typed = " ".join(text.split())
    if not typed:
        return ""
    moves = [game.format_move(move) for move in game.legal_moves()]
    started = [move for move in moves if move.startswith(typed)] or [
        move for move in moves if move.lower().startswith(typed.lower())]
    more = len(started) - LISTED_MOVES
    return ", ".join(started[:LISTED_MOVES]) + (f" and {more} more" if more > 0 else "")


class LegalMoveSuggester(Suggester):
    """Completes what is typed to the first legal move that starts with it.

    Matching ignores case, so ``nf`` suggests ``Nf3`` and ``0 0 b`` suggests
    ``0 0 bottom``.  The right arrow (or End) takes the suggestion.
    """

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.moves: list[str] = []

    async def get_suggestion(self, value: str) -> str | None:
        return self.suggest(value)

    def suggest(self, value: str) -> str | None:
        typed = " ".join(value.split()).lower()
        if not typed:
            return None
        for move in self.moves:
            if move.lower().startswith(typed):
                return move
        return None


class MoveEntry(Input):
    """Where a player types or clicks a move (see the module doc).

    ``picked`` says a piece picked up (``{square}``: its name, ``{targets}``: how
    many targets, counted); ``cancelled`` is said when a choice between moves is
    cancelled ("": nothing is)."""

    class MoveEntered(Message):
        """The player made ``move`` (``text``: as the game writes it)."""

        def __init__(self, entry: MoveEntry, move: Any, text: str) -> None:
            super().__init__()
            self.entry = entry
            self.move = move
            self.text = text

        @property
        def control(self) -> MoveEntry:
            return self.entry

    class Said(Message):
        """A line for the player about what was typed or clicked (``error``: a refusal)."""

        def __init__(self, text: str, error: bool = False) -> None:
            super().__init__()
            self.text = text
            self.error = error

    def __init__(self, *, placeholder: str = "", id: str | None = None, select_on_focus: bool = True,
                 picked: str = "{square}: click where it goes", cancelled: str = "") -> None:
        self._suggester = LegalMoveSuggester()
        super().__init__(placeholder=placeholder, suggester=self._suggester, id=id, compact=True,
                         select_on_focus=select_on_focus)
        self.picked = picked
        self.cancelled = cancelled
        #: The board its clicks are on (the screen's).
        self.board: BoardView | None = None
        self._game: Game | None = None
        self._picker: MovePicker | None = None
        #: The board's marks as the player's own click left them (a piece picked up and its
        #: targets); marks made otherwise (a hint, a line) are not a piece the player holds.
        self._picked: tuple[Square | None, frozenset[Square]] | None = None
        #: The marks of a piece picked up for the player (:meth:`offer`, a hint): a click on one
        #: of its targets plays it.  Marks that are neither (the last move shown) hold nothing.
        self._offered: tuple[Square | None, frozenset[Square]] | None = None

    # -- what the screen tells it ------------------------------------------------------------

    @property
    def game(self) -> Game | None:
        """The position moves are made in (``None``: none)."""
        return self._game

    @game.setter
    def game(self, game: Game | None) -> None:
        self._game = game
        self._picker = None  # the position may have changed in place
        self._picked = self._offered = None

    @property
    def picker(self) -> MovePicker | None:
        """The legal moves of the position by square, for clicks (made when first asked for)."""
        if self._picker is None and self._game is not None and self.board is not None:
            self._picker = MovePicker(self._game, self.board.painter)
        return self._picker

    def set_moves(self, moves: Sequence[str]) -> None:
        """The legal moves of the position (texts), for suggestions (none: nothing is suggested).

        What is already typed gets the suggestion of the new position at once
        (Input only asks its suggester when the value changes).
        """
        self._suggester.moves = list(moves)
        self._suggestion = self._suggester.suggest(self.value) or ""

    # -- typed and clicked moves ---------------------------------------------------------------

    def enter(self, text: str) -> None:
        """A move typed: parsed in the position; refused in one line (selected: the next typed replaces it)."""
        if self._game is None:
            return
        try:
            move = self._game.parse_move(text)
        except MoveSyntaxError as error:
            started = moves_starting(self._game, text)
            if started:
                self.post_message(self.Said(f"{text.strip()} is not a whole move; the legal moves that start so: "
                                            f"{started}", error=True))
            else:
                self.post_message(self.Said(f"not a move: {error}", error=True))
            self.select_all()
            return
        except GameError as error:
            self.post_message(self.Said(illegal_text(error), error=True))
            self.select_all()
            return
        self.value = ""
        self.post_message(self.MoveEntered(self, move, self._game.format_move(move)))

    def take_typing(self, character: str) -> None:
        """A letter typed where it meant nothing (the move list, the board: :mod:`.typed`):
        the move box takes the focus with the letter added where its cursor is."""
        self.focus()
        self.insert_text_at_cursor(character)

    def square_chosen(self, square: Square) -> None:
        """A square clicked or chosen by keys on the board: a piece picked up, a move made or asked for.

        A square marked on the board by a hint (or :meth:`offer`) rather than picked up by the
        player is picked up when chosen, not put back: the click the hint invites keeps it, and a
        click on one of its targets makes the move."""
        self._choose(square, offered=False)

    def offer(self, square: Square) -> None:
        """Pick up ``square``'s piece for the player (a hint): its targets shown, a click on one
        plays it, and a click on the piece itself keeps it picked up."""
        if self.board is not None:
            self.board.mark(None)
        self._choose(square, offered=True)

    def _choose(self, square: Square, *, offered: bool) -> None:
        picker, board = self.picker, self.board
        if picker is None or board is None or self._game is None:
            return
        game = self._game
        selected = board.selected
        marks = (board.selected, board.targets)
        if marks != self._picked and (marks != self._offered or selected == square):
            # Not held: a move shown (a puzzle's setting-up move), or the hinted piece itself,
            # which this click picks up.  The click starts afresh.
            selected = None
        pick = picker.choose(selected, square)
        board.mark(pick.selected, pick.targets)
        marks = (board.selected, board.targets)
        self._picked, self._offered = (None, marks) if offered else (marks, None)
        if pick.error:
            self.post_message(self.Said(pick.error, error=True))
        elif pick.selected is not None:
            count = len(pick.targets)
            self.post_message(self.Said(self.picked.format(
                square=board.painter.square_name(pick.selected),
                targets=f"{count} target{'s' if count != 1 else ''}")))
        if len(pick.moves) == 1 and not pick.ask:
            self.post_message(self.MoveEntered(self, pick.moves[0], game.format_move(pick.moves[0])))
        elif pick.moves:
            labels = [game.format_move(move) for move in pick.moves]
            question = "Which move?"
            if pick.ask:  # the piece chosen again, where a move of it also ends
                labels.append("put it back")
                question = "Play this move, or put the piece back?"
            self.app.push_screen(ChoiceDialog(question, labels),
                                 lambda choice: self._chose(game, pick.moves, choice))

    def _chose(self, game: Game, moves: tuple[Any, ...], choice: str | None) -> None:
        if choice and choice.isdigit() and int(choice) < len(moves):
            self.post_message(self.MoveEntered(self, moves[int(choice)], game.format_move(moves[int(choice)])))
        elif self.cancelled:
            if self.board is not None:
                self.board.mark(None)
            self.post_message(self.Said(self.cancelled))
