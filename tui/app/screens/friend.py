"""Play a friend over the network: :class:`FriendScreen`, host a game or join one.

*Host* starts the referee (:class:`~tui.net.link.HostLink`) on 127.0.0.1 with the game, the clock, the
side chosen and whether the engine aids are allowed, and opens the game; the address and the join and
watch codes are shown there (and in its title).  *Join* connects to ``HOST:PORT`` with a code (*watch*
for a spectator's code) and opens the game, board turned to this side; when the host allows the engine
aids, the guest is asked first (*Leave* focused; *Join* agrees and joins).  Connecting runs in a worker
thread; a refusal (a wrong code, nobody listening) is one line under the forms.  The game opens
through the app (:class:`~tui.app.messages.OpenNetworkGame`).
"""

from __future__ import annotations

import random
from typing import Callable

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select, Static

from games import GAME_NAMES
from games.clock import ClockError, TimeControl

from ...net.client import AidsAsked, ConnectError, parse_address
from ...net.link import GuestLink, HostLink, Link
from ..messages import OpenNetworkGame
from .dialogs import ConfirmDialog

__all__ = ["FriendScreen", "SIDES", "AIDS_QUESTION"]

#: What a guest is asked when the host allows the engine aids, and what they are.
AIDS_QUESTION = "The host allows engine aids in this game: join?"
AIDS_DETAIL = "hints, analysis, the report and the engine panel, for both players; the records say so"

#: The host's side choices: the first player's, the second's, either at random.
SIDES = ("first", "second", "random")


class FriendScreen(Screen[None]):
    """Host a network game or join one (see the module doc)."""

    CSS_PATH = "friend.tcss"
    BINDINGS = [Binding("escape", "close", "Back")]

    def compose(self) -> ComposeResult:
        with Horizontal(id="friend-forms"):
            with Vertical(classes="friend-form", id="friend-host"):
                yield Label("Host a game")
                yield Select([(name, name) for name in GAME_NAMES], value=GAME_NAMES[0], allow_blank=False,
                             id="friend-game")
                yield Input(placeholder="clock MIN+INC, e.g. 5+3 (empty: none)", id="friend-clock")
                yield Select([(f"you play {side}", side) for side in SIDES], value=SIDES[0], allow_blank=False,
                             id="friend-side")
                yield Checkbox("engine aids allowed", id="friend-aids")
                yield Button("Host", variant="primary", id="friend-host-button")
            with Vertical(classes="friend-form", id="friend-join"):
                yield Label("Join a game")
                yield Input(placeholder="HOST:PORT, e.g. 127.0.0.1:7777", id="friend-address")
                yield Input(placeholder="the code the host shows", id="friend-code")
                yield Checkbox("watch (a spectator's code)", id="friend-watch")
                yield Button("Join", variant="primary", id="friend-join-button")
        yield Static("The host's tui-games keeps the game and checks every move; it listens on "
                     "127.0.0.1 (tui-games host --public for other machines).", id="friend-answer", markup=False)
        yield Footer(compact=True)

    def answer(self, text: str, *, error: bool = False) -> None:
        widget = self.query_one("#friend-answer", Static)
        widget.update(text)
        widget.set_class(error, "-error")

    def action_close(self) -> None:
        self.app.pop_screen()

    @on(Button.Pressed, "#friend-host-button")
    def host(self) -> None:
        game = str(self.query_one("#friend-game", Select).value)
        text = self.query_one("#friend-clock", Input).value.strip()
        try:
            control = TimeControl.parse(text) if text else None
        except ClockError as error:
            self.answer(str(error), error=True)
            return
        side = str(self.query_one("#friend-side", Select).value)
        host_side = random.randrange(2) if side == "random" else SIDES.index(side)
        aids = self.query_one("#friend-aids", Checkbox).value
        self.answer("starting the host…")
        self.connect(lambda: HostLink(game, host_side=host_side, control=control, aids=aids))

    @on(Button.Pressed, "#friend-join-button")
    def join(self) -> None:
        try:
            address = parse_address(self.query_one("#friend-address", Input).value.strip())
        except ValueError as error:
            self.answer(str(error), error=True)
            return
        code = self.query_one("#friend-code", Input).value.strip()
        if not code:
            self.answer("type the code the host shows", error=True)
            return
        watch = self.query_one("#friend-watch", Checkbox).value
        self.answer(f"joining {address[0]}:{address[1]}…")
        self.connect(lambda: GuestLink(address, code, watch=watch),
                     lambda: GuestLink(address, code, watch=watch, aids=True))

    def ask_aids(self, agreed: Callable[[], Link]) -> None:
        """The host allows the engine aids: join agreeing to them (``agreed`` makes that link), or leave."""
        def answered(answer: str | None) -> None:
            if answer == "join":
                self.answer("joining, with the engine aids agreed…")
                self.connect(agreed)
            else:
                self.answer("left: the host allows engine aids, and you did not agree")

        self.answer(AIDS_DETAIL)
        self.app.push_screen(ConfirmDialog(AIDS_QUESTION, [("leave", "Leave"), ("join", "Join")], detail=AIDS_DETAIL),
                             answered)

    @work(thread=True, exclusive=True, group="friend")
    def connect(self, make: Callable[[], Link], agreed: Callable[[], Link] | None = None) -> None:
        """Make the link in a worker (connecting may wait); the game opens, or one line says why not
        (a host that allows the engine aids asks first, when ``agreed`` makes the link that agrees)."""
        try:
            link: Link = make()
        except AidsAsked as error:
            if agreed is None:
                self.app.call_from_thread(self.answer, str(error), error=True)
            else:
                self.app.call_from_thread(self.ask_aids, agreed)
            return
        except (ConnectError, OSError) as error:
            self.app.call_from_thread(self.answer, str(error) if isinstance(error, ConnectError)
                                      else f"cannot host: {error.strerror or error}", error=True)
            return
        self.post_message(OpenNetworkGame(link))
