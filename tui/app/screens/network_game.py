"""The game screen of a network game: :class:`NetworkGameScreen`, a :class:`~.game.GameScreen` whose
other side is a friend over the network (:class:`~.remote_turns.RemoteTurns`).

The host is the referee: a move typed or clicked here is sent, and the board changes when the host's
state comes back (within a frame on a local network); the clocks show the host's times; a flag falls
on the host.  The board is turned to this side.  The commands that need the other player go through
the host as offers (:class:`NetworkCommands`): undo asks a takeback, the draw key offers a draw,
resign resigns (after asking), a rematch after the end asks one; the other player's offer opens a
question with *Decline* first.  Saving writes the record as on any game screen; both sides' records
come from the host's one list of moves, and hold nothing else (no hint or report of one side, no
variation explored), so both are the same file.  Leaving the screen closes the link: a host's server
tells every peer the game ended, also when the host's app is ended by SIGINT, SIGHUP or SIGTERM
(:class:`EndOnSignals`); a guest told so says it and does not join again.

The engine aids (hints, analysis, the report, the search tree, the best line, the threat, the
evaluation bar, and variations played in a position reviewed) are off until the game is over, unless the host allowed them and the guest agreed as it joined (the state's
``aids``).  A spectator has none of the commands that act on the game (takeback, draw, resign,
rematch, hint): the footer and the palette do not show them; its quit asks nothing, and its game is
never kept for Continue (:attr:`NetworkGameScreen.keeps_for_continue`).
"""

from __future__ import annotations

import asyncio
import signal
import threading
from typing import Any, Callable, Iterable

from textual import events, on, work
from textual.app import App, SystemCommand
from textual.widgets import Static

from games import Game
from games.clock import TimeControl, clk_text
from games.records import RecordNotes

from ...net.link import Link
from ..engine_link import EngineLink
from ..messages import NetworkFailed
from ..session import GameSetup
from ..widgets.game_clocks import GameClocks
from ..widgets.move_list import MoveList
from .dialogs import ConfirmDialog
from .game import GameScreen
from .game_commands import GameCommands
from .remote_turns import RemoteBroken, RemoteClosed, RemoteEnded, RemoteRefused, RemoteState, RemoteTurns

__all__ = ["AIDS", "EndOnSignals", "NetworkGameScreen", "NetworkCommands", "network_setup"]

#: The commands that are engine aids: off in a friend game until it is over, unless both agreed.
AIDS = ("hint", "analyse", "report", "tree", "best_line", "threat")
#: The commands that act on the game, which a spectator has none of.
ACTING = ("undo", "offer_draw", "resign", "rematch", "swap", "hint")
#: The commands a network game has no use for: no engine to pause or step, the host's clock goes on,
#: and the game plays on from its end only.
UNUSED = ("pause", "step", "delay", "play_from_here")
#: The line that refuses an engine aid.
NO_AIDS = "no engine aids in this friend game (the host did not allow them) until it ends"
#: The line that refuses a move made in a position reviewed: a variation explored is an analysis board.
NO_VARIATIONS = "no variations in this friend game (no aids agreed) until it ends: back to its last move"

#: What the other player's offer says, by what is offered.
OFFER_WORDS = {"draw": "offers a draw", "takeback": "asks to take back their last move",
               "rematch": "asks for a rematch"}


def network_setup(state: dict[str, Any]) -> GameSetup:
    """The local screen's setup for the host's ``state``: two human seats, the host's start and clock."""
    clock = state.get("clock")
    control = TimeControl(float(clock["base"]), float(clock["increment"])) if clock else None
    return GameSetup(str(state["game"]), ("human", "human"), state.get("start"), clock=control)


def _engine_aid(name: str) -> Callable[[NetworkCommands], None]:
    """The engine aid ``name`` (a command of :class:`GameCommands`), refused in one line while it is not
    allowed (a hint is for a player's move: a spectator has none)."""
    def command(self: NetworkCommands) -> None:
        if name in ACTING and not self._plays():
            return
        if not self.screen.aids_free:
            self.screen.say(NO_AIDS, error=True)
            return
        getattr(GameCommands, name)(self)

    command.__name__ = command.__qualname__ = name
    return command


class NetworkCommands(GameCommands):
    """The game's commands, with those that need the other player sent to the host as offers, the
    engine aids kept for when both agreed (or the game is over), and none that act on the game for a
    spectator."""

    screen: NetworkGameScreen

    def allows(self, name: str) -> bool:
        if name in UNUSED or (name in ACTING and not self.screen.network.plays):
            return False
        if self.screen.ended and name in ACTING and name not in AIDS:  # nobody to ask any more
            return False
        return super().allows(name)

    def _plays(self) -> bool:
        """Whether this side plays; a spectator is told it only watches."""
        if not self.screen.network.plays:
            self.screen.say("spectators only watch", error=True)
        return self.screen.network.plays

    def undo(self) -> None:
        if self._plays():
            self.screen.remote.send("offer", what="takeback")
            self.screen.say("asked your friend to take back your last move")

    def redo(self) -> None:
        """In review a step on, as anywhere; the game's own moves are the host's: nothing to bring back."""
        if self.screen.review is not None:
            super().redo()
        else:
            self.screen.say("no redo in a friend game: the host keeps the moves (ctrl+z asks a takeback)",
                            error=True)

    def offer_draw(self) -> None:
        if self._plays():
            self.screen.remote.send("offer", what="draw")
            self.screen.say("offered a draw")

    def resign(self) -> None:
        def answered(answer: str | None) -> None:
            if answer == "resign":
                self.screen.remote.send("resign")

        if self._plays():
            self.screen.app.push_screen(
                ConfirmDialog("Resign this game?", [("cancel", "Cancel"), ("resign", "Resign")]), answered)

    def rematch(self) -> None:
        if self._plays():
            self.screen.remote.send("offer", what="rematch")
            self.screen.say("asked your friend for a rematch")

    swap = rematch

    hint = _engine_aid("hint")
    analyse = _engine_aid("analyse")
    report = _engine_aid("report")
    tree = _engine_aid("tree")
    best_line = _engine_aid("best_line")
    threat = _engine_aid("threat")

    def refuse_move(self) -> bool:
        """A move made in a position reviewed would explore a variation (an analysis board: an aid)."""
        if self.screen.review is not None and not self.screen.aids_free:
            self.screen.say(NO_VARIATIONS, error=True)
            return True
        return super().refuse_move()

    def guard_unsaved(self, what: str, then: Callable[[], Any]) -> None:
        """A spectator's game is the players' to keep: leaving it asks nothing (ctrl+s still saves a copy)."""
        if self.screen.network.plays:
            super().guard_unsaved(what, then)
        else:
            self.screen.app.call_later(then)

    def tree_notes(self) -> tuple[RecordNotes, Game]:
        """What a save writes: the host's game alone (its moves, clocks, result and the aids agreed),
        nothing of this side's own (hints, a report, variations, notes), so both records are one file."""
        return self.record_notes(), self.screen.game

    def record_notes(self) -> RecordNotes:
        """The clocks after each move, the result off the board, and whether the aids were allowed."""
        clock = self.screen.clocks.clock
        comments = []
        played = self.screen.played
        path = played.node.path()
        for ply in range(len(self.screen.moves)):  # the side that made each move (a side may move again)
            mover = played.tree.mover(path[ply]) if ply < len(path) else (played.first_mover + ply) % 2
            comments.append(f"[%clk {clk_text(clock.history[ply + 1][mover])}]"
                            if clock is not None and ply + 1 < len(clock.history) else "")
        tags = {"TimeControl": clock.control.pgn_tag} if clock is not None else {}
        tags["Aids"] = "allowed" if self.screen.remote.state.get("aids") else "none"
        return RecordNotes(outcome=self.screen.played.verdict, comments=comments, tags=tags)


class EndOnSignals:
    """SIGINT, SIGHUP and SIGTERM to a hosting app: its guests are told the game ended (``link``
    closes), then the app ends with 128 + the signal.  Handled on the app's event loop while a hosting
    screen is up; the handlers there before come back after.  A signal the process ignores (an app
    ``tui-games serve`` runs, which ends with its server) stays ignored."""

    SIGNALS = (signal.SIGINT, signal.SIGHUP, signal.SIGTERM)

    def __init__(self, link: Link, app: App[Any]) -> None:
        self.link = link
        self.app = app
        self._previous: dict[int, Any] = {}

    def install(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        loop = asyncio.get_running_loop()
        for sig in self.SIGNALS:
            previous = signal.getsignal(sig)
            if previous is signal.SIG_IGN:  # a served app: its server answers them (engines.lifetime)
                continue
            try:
                loop.add_signal_handler(sig, self.signalled, sig)
            except (NotImplementedError, RuntimeError, ValueError):  # no signals here (another platform)
                continue
            self._previous[sig] = previous

    def remove(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        for sig, previous in self._previous.items():
            loop.remove_signal_handler(sig)
            signal.signal(sig, previous if previous is not None else signal.SIG_DFL)
        self._previous.clear()

    def signalled(self, sig: int) -> None:
        self.link.close()  # first: the guests hear the game ended, whatever the app does next
        self.app.exit(return_code=128 + sig)


class NetworkGameScreen(GameScreen):
    """Play ``link``'s game against a friend (see the module doc)."""

    def __init__(self, link: Link, engine_link: EngineLink, *, ascii: bool = False,
                 signals: EndOnSignals | None = None) -> None:
        state = link.state()
        super().__init__(network_setup(state), engine_link, ascii=ascii)
        self.network = link
        self.remote = RemoteTurns(self, link)
        self.commands = NetworkCommands(self, self.aids, self.engines)
        self.number = state.get("number", 1)
        self._asked: tuple[Any, ...] | None = None
        #: The link went on to a rematch's screen: leaving this one does not close it.
        self.handed_over = False
        #: The host's answer to the stop signals (handed on to a rematch's screen with the link).
        self.signals = signals
        #: Why nothing more comes: the host ended the game (it quit), or is gone ("": it goes on).
        self.ended = ""

    @property
    def aids_free(self) -> bool:
        """Whether the engine aids may be used: both players agreed as the game began, or it is over."""
        return bool(self.remote.state.get("aids")) or self.outcome() is not None or bool(self.ended)

    @property
    def keeps_for_continue(self) -> bool:
        """Whether the app keeps this game for Continue when it is left unfinished: a player's, never a
        spectator's (the app's autosave reads it)."""
        return self.network.plays

    def on_mount(self) -> None:
        # Textual runs GameScreen's own on_mount after this one (handlers go up the classes):
        # the board is turned to this side once it has.
        if self.network.hosts and self.signals is None:
            self.signals = EndOnSignals(self.network, self.app)
            self.signals.install()
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

    @on(events.ScreenResume)
    def resumed_before_composed(self, event: events.ScreenResume) -> None:
        """Switched in before its widgets are composed (a join agreed in a dialog, switched in at once):
        nothing to resume yet (GameScreen's handler is skipped); on_mount starts the game."""
        if not self.query("#board"):
            event.prevent_default()

    def on_unmount(self) -> None:
        # GameScreen's on_unmount runs too (it stops the engines and the coach).
        if not self.handed_over:
            self.remote.close()
            if self.signals is not None:
                self.signals.remove()

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
            self.query_one("#eval-bar").display = self.aids_free  # an engine aid: shown once allowed
            clock = state.get("clock")
            self.clocks.running = clock.get("running") if clock else None
            you = self.remote.you
            status = self.query_one("#status", Static)
            if self.ended:
                self.clocks.running = None
                status.update(self.ended)
                return
            if state.get("outcome") is not None or self.review is not None:
                return
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
            self.app.switch_screen(NetworkGameScreen(self.network, self.link, ascii=self.ascii, signals=self.signals))
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
        """The game's commands this side has (a spectator's act on nothing; the engine aids once they
        are allowed), and the claim while the other player has been away past the limit."""
        for command in super().palette_commands():
            name = getattr(command.callback, "__name__", "")
            if self.commands.allows(name) and (name not in AIDS or self.aids_free):
                yield command
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

    @on(MoveList.PlayHere)
    def play_here_refused(self, message: MoveList.PlayHere) -> None:
        """Enter on a move of the list would play on from there without the friend (against a level):
        not while the friend game goes on (GameScreen's handler is skipped)."""
        if self.outcome() is None and not self.ended:
            message.prevent_default()
            self.say("a friend game plays on from its last move only", error=True)

    @on(RemoteEnded)
    def remote_ended(self, message: RemoteEnded) -> None:
        """The host ended the game (it quit) or is gone: said, and not joined again; the board stays as
        it stood."""
        self.remote.closed = True
        self.ended = message.reason
        self.clocks.stop()
        self.say(f"{message.reason} — ctrl+s saves it as it stood", error=True)
        self.update_status()
        self.refresh_bindings()

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
