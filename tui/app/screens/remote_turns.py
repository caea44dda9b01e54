"""The remote player: the other side's moves arrive from the network (as :mod:`.engine_turns`'s come
from the search process).

:class:`RemoteTurns` holds the game screen's :class:`~tui.net.link.Link` (the host's referee or the
guest's connection).  The link's threads hear the host's states, refusals and a dropped line; this
component posts them to the screen as messages (:class:`RemoteState`, :class:`RemoteRefused`,
:class:`RemoteClosed`, :class:`RemoteBroken`, :class:`RemoteEnded`) and, on the screen's event loop,
makes the screen's game what the state says (:meth:`RemoteTurns.sync`): the moves (taken back and
played on from where they part), the outcome, the clocks' times.  What the local player does goes out through :meth:`RemoteTurns.send`.  A guest
whose line drops tries to join again with its code every two seconds in a worker thread until it
does or the screen goes; one whose host broke the protocol (:class:`RemoteBroken`) or ended the game
(:class:`RemoteEnded`: it quit) does not, nor one whose host's process is gone without a word (killed):
its machine answers :data:`GONE_AFTER` times in a row that nothing listens there.
"""

from __future__ import annotations

import time
from typing import Any, Protocol

from textual.message import Message

from games import Outcome, Termination

from ...net.client import ConnectError, HostBroke, NobodyListens
from ...net.link import GuestLink, Link
from ..controller import GameController

__all__ = ["RemoteTurns", "RemoteState", "RemoteRefused", "RemoteClosed", "RemoteBroken", "RemoteEnded",
           "outcome_of"]

#: Seconds between a dropped guest's tries to join again.
RETRY_EVERY = 2.0
#: Tries in a row answered "nothing listens" after which the host is taken to be gone.
GONE_AFTER = 3


class RemoteState(Message):
    """The host's whole game, after a change."""

    def __init__(self, state: dict[str, Any]) -> None:
        super().__init__()
        self.state = state


class RemoteRefused(Message):
    """The host refused what this side sent (one line)."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


class RemoteClosed(Message):
    """The line to the host dropped (``reason``)."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


class RemoteBroken(Message):
    """The host broke the protocol (``reason``, one line): the connection is over for good."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


class RemoteEnded(Message):
    """The host ended the game (it quit): the connection is over for good."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


def outcome_of(state: dict[str, Any], on_board: Outcome | None) -> Outcome | None:
    """The state's outcome as the game's own (``on_board``) when the board says it, else off the board."""
    told = state.get("outcome")
    if told is None:
        return None
    if on_board is not None:
        return on_board
    reasons = {str(member): member for member in Termination}
    reason = reasons.get(str(told.get("reason")), Termination.RECORDED)
    winner = told.get("winner")
    return Outcome(winner if winner in (0, 1) else None, reason,
                   None if reason is not Termination.RECORDED else str(told.get("said"))[:100])


class RemoteScreen(Protocol):
    """What the remote player uses of its screen (a :class:`~.network_game.NetworkGameScreen`)."""

    controller: GameController

    def post_message(self, message: Message) -> bool: ...

    def say(self, text: str, *, error: bool = False) -> None: ...


class RemoteTurns:
    """The network side of a :class:`~.network_game.NetworkGameScreen` (see the module doc)."""

    def __init__(self, screen: RemoteScreen, link: Link) -> None:
        self.screen = screen
        self.link = link
        self.state: dict[str, Any] = link.state()
        self.closed = False
        link.listen(self._heard)

    @property
    def you(self) -> int | None:
        """The side this screen plays (``None``: a spectator)."""
        you = self.state.get("you")
        return you if you in (0, 1) else None

    def _heard(self, kind: str, value: Any) -> None:
        """From the link's thread: post it to the screen (Textual's post_message is thread-safe)."""
        message: Message
        if kind == "state":
            message = RemoteState(value)
        elif kind == "error":
            message = RemoteRefused(str(value))
        elif kind == "broken":
            message = RemoteBroken(str(value))
        elif kind == "ended":
            message = RemoteEnded(str(value))
        else:
            message = RemoteClosed(str(value))
        self.screen.post_message(message)

    def send(self, kind: str, **fields: Any) -> None:
        if not self.link.plays:
            self.screen.say("spectators only watch", error=True)
            return
        self.link.act(kind, **fields)

    def sync(self, state: dict[str, Any]) -> None:
        """Make the screen's game what the host's ``state`` says (see the module doc)."""
        self.state = state
        controller = self.screen.controller
        moves = list(state.get("moves") or ())
        common = 0
        while common < min(len(moves), len(controller.moves)) and moves[common] == controller.moves[common]:
            common += 1
        controller.played.review = None
        while len(controller.moves) > common:
            controller.undo_one()
        now = time.monotonic()
        for text in moves[common:]:
            controller.play(controller.game.parse_move(text), now)
        controller.played.verdict = None
        outcome = outcome_of(state, controller.game.outcome())
        if outcome is not None and controller.game.outcome() is None:
            controller.end(outcome, now)
        clock = state.get("clock")
        if clock and controller.clock is not None:
            left = clock.get("left") or (0.0, 0.0)
            controller.clock.set((left[0], left[1]), clock.get("running"), now)
            # the times after each move are the host's, so both sides' records say the same
            controller.clock.history[:] = [(float(a), float(b)) for a, b in clock.get("history") or ()]

    def keep_trying(self) -> None:
        """In a worker thread: join again every :data:`RETRY_EVERY` seconds until it works, the
        screen has gone, the host breaks the protocol (said as :class:`RemoteBroken`; a host's line
        never drops: it is the host) or it is gone (said as :class:`RemoteEnded`)."""
        link = self.link
        if not isinstance(link, GuestLink):
            return
        refused = 0
        while not self.closed:
            time.sleep(RETRY_EVERY)
            if self.closed:
                return
            try:
                link.reconnect()
                return
            except HostBroke as error:
                self.screen.post_message(RemoteBroken(str(error)))
                return
            except NobodyListens:
                refused += 1
                if refused >= GONE_AFTER:  # the host's process is gone: its game with it
                    where = f"{link.address[0]}:{link.address[1]}"
                    self.screen.post_message(RemoteEnded(f"the host is gone: nothing listens at {where} any more"))
                    return
            except (ConnectError, OSError):
                refused = 0

    def close(self) -> None:
        self.closed = True
        self.link.listen(None)
        self.link.close()
