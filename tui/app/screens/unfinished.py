"""Continue: the list of every game left unfinished (:mod:`tui.unfinished`).

One row a game, last played first: the game, the players (a level by its
name), how many moves, when it was last played.  Enter (or Open, or a click)
asks the app to play it on as it stood (:class:`~tui.app.messages.ContinueGame`);
Delete (the key or the button) asks first, then asks the app to remove it
(:class:`~tui.app.messages.ForgetGame`), and the app hands the list back
(:meth:`UnfinishedScreen.show`).  Escape goes back to the screen below.
"""

from __future__ import annotations

from typing import Sequence

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Static

from games import game_class, game_kind

from ...unfinished import KeptGame
from ...views.format import plies_text
from ..keymap import screen_bindings
from ..messages import ContinueGame, ForgetGame
from .dialogs import ConfirmDialog

__all__ = ["UnfinishedScreen", "game_title", "players_text"]


def game_title(game: str) -> str:
    """``Chess``, ``Quixo``: the game's name as a list's first word."""
    title = game_kind(game).title
    return title[:1].upper() + title[1:]


def players_text(kept: KeptGame) -> str:
    """``White you · Black Beginner``: each side and who plays it, a level by its name."""
    sides = game_class(kept.game).PLAYERS
    names = ["you" if name == "human" else name.capitalize() for name in kept.players]
    if names == ["you", "you"]:
        names = ["human", "human"]
    return f"{sides[0]} {names[0]} · {sides[1]} {names[1]}"


class UnfinishedScreen(Screen):
    """The unfinished games (see the module doc)."""

    CSS_PATH = "unfinished.tcss"
    BINDINGS = screen_bindings("UnfinishedScreen", choose="open")

    def __init__(self, games: Sequence[KeptGame], problems: Sequence[str] = ()) -> None:
        super().__init__()
        self.games = list(games)
        self.problems = list(problems)

    def compose(self) -> ComposeResult:
        with Vertical(id="unfinished"):
            yield Static("[b]Continue[/b] — every game left unfinished, last played first.  "
                         "[dim]Enter opens one as it stood; Delete removes one (it asks first).[/dim]",
                         id="unfinished-title")
            yield DataTable(id="unfinished-games", cursor_type="row", zebra_stripes=True)
            yield Static("", id="unfinished-notice", markup=False, classes="about")
            with Horizontal(id="unfinished-buttons"):
                yield Button("Open", id="open-button", variant="primary", compact=True)
                yield Button("Delete", id="delete-button", compact=True)
                yield Button("Back", id="back-button", compact=True)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.title = "tui-games"
        self.sub_title = "continue a game"
        table = self.query_one(DataTable)
        table.add_columns("Game", "Players", "Moves", "Last played")
        self.show(self.games, self.problems)
        table.focus()

    def show(self, games: Sequence[KeptGame], problems: Sequence[str] = ()) -> None:
        """List ``games`` (the cursor stays on the same row number), and say ``problems`` in a line."""
        self.games = list(games)
        table = self.query_one(DataTable)
        row = table.cursor_row
        table.clear()
        for kept in self.games:
            table.add_row(game_title(kept.game), players_text(kept), plies_text(len(kept.moves)),
                          kept.saved, key=kept.id)
        if self.games:
            table.move_cursor(row=min(row, len(self.games) - 1))
        notice = " · ".join(problems) if problems else ("" if self.games else "no unfinished games: "
                                                        "a game left with moves in it is kept here")
        self.query_one("#unfinished-notice", Static).update(notice)
        for button in ("#open-button", "#delete-button"):
            self.query_one(button, Button).disabled = not self.games

    @property
    def chosen(self) -> KeptGame | None:
        """The game under the cursor (``None``: the list is empty)."""
        row = self.query_one(DataTable).cursor_row
        return self.games[row] if 0 <= row < len(self.games) else None

    @on(DataTable.RowSelected)
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    @on(Button.Pressed, "#open-button")
    def action_open(self) -> None:
        """Play the chosen game on."""
        if self.chosen is not None:
            self.post_message(ContinueGame(self.chosen.id))

    @on(Button.Pressed, "#delete-button")
    def action_delete(self) -> None:
        """Ask, then remove the chosen game."""
        kept = self.chosen
        if kept is None:
            return

        def answered(answer: str | None) -> None:
            if answer == "delete":
                self.post_message(ForgetGame(kept.id))

        self.app.push_screen(ConfirmDialog(
            "Delete this unfinished game?", [("cancel", "Keep it"), ("delete", "Delete")],
            detail=f"{game_title(kept.game)}: {players_text(kept)}, {plies_text(len(kept.moves))}, "
                   f"last played {kept.saved}", topic="deleting a game"), answered)

    @on(Button.Pressed, "#back-button")
    def action_back(self) -> None:
        """Back to the screen below."""
        self.dismiss()
