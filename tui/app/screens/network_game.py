"""The game screen of a network game: :class:`NetworkGameScreen`, a :class:`~.game.GameScreen` whose
other side is a friend over the network (:class:`~.remote_turns.RemoteTurns`).

The host is the referee: a move typed or clicked here is sent, and the board changes when the host's
state comes back (within a frame on a local network); the clocks show the host's times; a flag falls
on the host.  The board is turned to this side.  The commands that need the other player go through
the host as offers (:class:`NetworkCommands`): undo asks a takeback, the draw key offers a draw,
resign resigns (after asking), a rematch after the end asks one; the other player's offer opens a
question with *Decline* first.  Saving writes the record as on any game screen; both sides' records
come from the host's one list of moves.  Leaving the screen closes the link (the host's server stops).
"""

from __future__ import annotations

from typing import Any, Iterable

from textual import on, work
from textual.app import SystemCommand
from textual.widgets import Static

from games.clock import TimeControl

from ...net.link import Link
from ..engine_link import EngineLink
from ..messages import NetworkFailed
from ..session import GameSetup
from ..widgets.game_clocks import GameClocks
from .dialogs import ConfirmDialog
from .game import GameScreen
from .game_commands import GameCommands
from .remote_turns import RemoteBroken, RemoteClosed, RemoteRefused, RemoteState, RemoteTurns

__all__ = ["NetworkGameScreen", "NetworkCommands", "network_setup"]

#: What the other player's offer says, by what is offered.
OFFER_WORDS = {"draw": "offers a draw", "takeback": "asks to take back their last move",
               "rematch": "asks for a rematch"}


def network_setup(state: dict[str, Any]) -> GameSetup:
    """The local screen's setup for the host's ``state``: two human seats, the host's start and clock."""
    clock = state.get("clock")
    control = TimeControl(float(clock["base"]), float(clock["increment"])) if clock else None
    return GameSetup(str(state["game"]), ("human", "human"), state.get("start"), clock=control)


class NetworkCommands(GameCommands):
    """The game's commands, with those that need the other player sent to the host as offers."""

    screen: NetworkGameScreen

    def undo(self) -> None:
        self.screen.remote.send("offer", what="takeback")
        self.screen.say("asked your friend to take back your last move")

    def offer_draw(self) -> None:
        self.screen.remote.send("offer", what="draw")
        self.screen.say("offered a draw")

    def resign(self) -> None:
        def answered(answer: str | None) -> None:
            if answer == "resign":
                self.screen.remote.send("resign")

        self.screen.app.push_screen(ConfirmDialog("Resign this game?", [("cancel", "Cancel"), ("resign", "Resign")]),
                                    answered)

    def rematch(self) -> None:
        self.screen.remote.send("offer", what="rematch")
        self.screen.say("asked your friend for a rematch")

    swap = rematch


class NetworkGameScreen(GameScreen):
    """Play ``link``'s game against a friend (see the module doc)."""

    def __init__(self, link: Link, engine_link: EngineLink, *, ascii: bool = False) -> None:
        state = link.state()
        super().__init__(network_setup(state), engine_link, ascii=ascii)
        self.network = link
        self.remote = RemoteTurns(self, link)
        self.commands = NetworkCommands(self, self.aids, self.engines)
        self.number = state.get("number", 1)
        self._asked: tuple[Any, ...] | None = None
        #: The link went on to a rematch's screen: leaving this one does not close it.
        self.handed_over = False

    def on_mount(self) -> None:
        # Textual runs GameScreen's own on_mount after this one (handlers go up the classes):
        # the board is turned to this side once it has.
        self.call_later(self._joined)

    def _joined(self) -> None:
        you = self.remote.you
        side = 0 if you is None else you
        self.board.flipped = self.board.painter.flipped_for(side)
        self.clocks.bottom = side
        self.sub_title = " · ".join(self.network.where)
        self.remote.sync(self.remote.state)
        self.next_turn()
        self.say(" · ".join(self.network.where[1:]) or self.network.where[0])

    def on_unmount(self) -> None:
        # GameScreen's on_unmount runs too (it stops the engines and the coach).
        if not self.handed_over:
            self.remote.close()

    # -- what the local player does ---------------------------------------------------------

    def human_moved(self, move: object) -> None:
        """Send the move; the board changes when the host's state comes back."""
        you = self.remote.you
        if you is None:
            self.say("spectators only watch", error=True)
            return
        if self.game.turn != you:
            self.say("it is your friend's move", error=True)
            return
        text = self.game.format_move(move)
        self.remote.send("move", move=text)
        self.say(f"you played {text}")

    def on_game_clocks_flagged(self, message: GameClocks.Flagged) -> None:
        """The host's clock decides a flag fall; this one only shows it (GameScreen's handler is skipped)."""
        message.prevent_default()

    def update_status(self) -> None:
        super().update_status()
        state = getattr(self, "remote", None) and self.remote.state
        if state:
            clock = state.get("clock")
            self.clocks.running = clock.get("running") if clock else None
            you = self.remote.you
            if state.get("outcome") is not None or self.review is not None:
                return
            status = self.query_one("#status", Static)
            away = state.get("away")
            if away is not None and away.get("side") != you:
                gone = f"{self.sides[away['side']]} is away ({away['seconds']:.0f} s of {away['limit']:.0f})"
                status.update(f"{gone}: the game may be claimed" if away.get("claimable") else
                              f"{gone}: their clock runs" if state.get("clock") else f"paused: {gone}")
            elif state.get("paused"):
                status.update(f"paused: waiting for the other player · {self.network.where[0]}")
            elif you is None:
                status.update(f"{self.sides[self.game.turn]} to move · you watch")
            elif self.game.turn != you:
                status.update(f"{self.sides[self.game.turn]} to move (your friend) · you play {self.sides[you]}")

    # -- what the host says -------------------------------------------------------------------

    @on(RemoteState)
    def remote_state(self, message: RemoteState) -> None:
        state = message.state
        if state.get("number", 1) != self.number:  # a rematch: a fresh screen, sides changed over
            self.remote.link.listen(None)
            self.remote.closed = True
            self.handed_over = True
            self.app.switch_screen(NetworkGameScreen(self.network, self.link, ascii=self.ascii))
            return
        self.remote.sync(state)
        self.next_turn()
        away = state.get("away")
        if away and away.get("claimable") and self.network.plays and away.get("side") != self.remote.you \
                and self._asked != ("claim", away.get("side")):
            self._asked = ("claim", away.get("side"))
            self._ask_claim(float(away.get("limit") or 0))
        offer = state.get("offer")
        you = self.remote.you
        if offer and you is not None and offer.get("by") != you:
            key = (state.get("number"), state.get("ply"), offer.get("what"))
            if key != self._asked:
                self._asked = key
                self._ask(str(offer.get("what")))

    def _ask(self, what: str) -> None:
        def answered(answer: str | None) -> None:
            self.remote.send("answer", what=what, accept=answer == "accept")

        self.app.push_screen(ConfirmDialog(f"Your friend {OFFER_WORDS.get(what, what)}.",
                                           [("decline", "Decline"), ("accept", "Accept")]), answered)

    def palette_commands(self) -> Iterable[SystemCommand]:
        """The game's commands, and the claim while the other player has been away past the limit."""
        yield from super().palette_commands()
        away = self.remote.state.get("away")
        if away and away.get("claimable") and self.network.plays:
            yield SystemCommand("Claim the game", "your friend has been away past the host's limit: you win",
                                lambda: self.remote.send("claim"))

    def _ask_claim(self, limit: float) -> None:
        def answered(answer: str | None) -> None:
            if answer == "claim":
                self.remote.send("claim")
            else:
                self.say("waiting for your friend; ctrl+p 'Claim the game' ends it when you choose")

        self.app.push_screen(ConfirmDialog(f"Your friend has been away for over {limit:.0f} s.",
                                           [("wait", "Wait"), ("claim", "Claim the game")]), answered)

    @on(RemoteRefused)
    def remote_refused(self, message: RemoteRefused) -> None:
        self.say(message.reason, error=True)

    @on(RemoteClosed)
    def remote_closed(self, message: RemoteClosed) -> None:
        if self.remote.closed:
            return
        self.say(f"{message.reason} — joining again…", error=True)
        self.clocks.stop()
        self.rejoin()

    @on(RemoteBroken)
    def remote_broken(self, message: RemoteBroken) -> None:
        """The host broke the protocol: the connection is over.  Opened by ``tui-games join``, the app
        ends with that line and exit status 2; opened from the friend screen, it says so and stays."""
        self.remote.closed = True
        self.clocks.stop()
        self.say(message.reason, error=True)
        self.app.post_message(NetworkFailed(message.reason))

    @work(thread=True, exclusive=True, group="rejoin")
    def rejoin(self) -> None:
        self.remote.keep_trying()
