"""The game as the host keeps it: the referee of a network game (no I/O, no Textual).

A :class:`Referee` holds one game between two *seats* -- the host's (:data:`HOST`) and the guest's
(:data:`GUEST`) -- and the clock.  Every change comes as a peer's message (already checked for its
shape by :mod:`.protocol`) through :meth:`Referee.handle`, which checks it against the rules and the
game's state first and raises :class:`RefereeError` (one line; nothing changed) when it does not fit:
a move for the other side or out of turn, a move the game's rules refuse, a message for another ply
than the game's (late, out of order or replayed), a message number not above the seat's last one
(replayed), an answer to no offer, an offer that does not fit the game's state.

A player who leaves cannot hold the game hostage (:meth:`Referee.connected`, :meth:`Referee.check_time`).
On a clock nothing pauses: the clock of the side to move runs, away or not, and a player away for
longer than ``abandon`` seconds loses by :attr:`~games.Termination.ABANDONMENT`, as on lichess.
Without a clock the game pauses while a player is away, and once the limit has passed the one who
stayed may claim the game (a ``claim`` message).  :meth:`Referee.state` is the whole game as each
peer is sent it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from games import Game, Outcome, Termination, new_game
from games.base import MAX_MOVE_TEXT, GameError
from games.clock import Clock, TimeControl

from .protocol import OFFERS

__all__ = ["ABANDON_AFTER", "HOST", "GUEST", "WATCHER", "Referee", "RefereeError", "Offer"]

#: The seats: the host's, the guest's; a spectator has none.
HOST, GUEST = 0, 1
WATCHER = None
#: Seconds a player may be away before losing the game (on a clock) or letting it be claimed.
ABANDON_AFTER = 60.0


class RefereeError(ValueError):
    """A message refused by the referee: the message is the one line sent back; nothing changed."""


@dataclass(frozen=True)
class Offer:
    """An offer (``draw``, ``takeback``, ``rematch``) waiting for the other player's answer."""

    what: str
    by: int  # the side (colour) that offered


class Referee:
    """One game of ``name`` from ``position`` between the host's seat, playing ``host_side``, and the
    guest's, under ``control`` (``None``: no clock); ``now`` reads the time (``time.monotonic``);
    ``abandon``: the seconds a player may be away (see the module doc); ``aids``: the host allows the
    engine aids (hints, analysis, the engine panel) in this game, if the guest agrees as it joins."""

    def __init__(self, name: str, position: str | None = None, *, host_side: int = 0,
                 control: TimeControl | None = None, now: Callable[[], float],
                 abandon: float = ABANDON_AFTER, aids: bool = False) -> None:
        self.name = name
        self.aids = aids
        self.abandon = abandon
        self.position = position
        self.control = control
        self.now = now
        self.host_side = host_side
        #: The last message number seen from each seat (replays are refused).
        self.seqs = [0, 0]
        #: Whether each seat is connected (the host's always is), and since when each is away.
        self.present = [True, False]
        self.away_since: list[float | None] = [None, None]
        #: Whether the guest has come at all (the clock starts then).
        self.arrived = False
        #: The games played so far in this session (a rematch adds one).
        self.number = 1
        self._new_game()

    def _new_game(self) -> None:
        self.game: Game = new_game(self.name, self.position)
        self.first_ply = self.game.ply
        self.moves: list[str] = []
        self.result: Outcome | None = None  # off the board: resignation, agreement, time
        self.offer: Offer | None = None
        self.clock = Clock(self.control) if self.control is not None else None
        self._run_clock()

    # -- who is who ------------------------------------------------------------------------

    def side_of(self, seat: int) -> int:
        """The side (0 moves first) ``seat`` plays in the current game."""
        return self.host_side if seat == HOST else 1 - self.host_side

    def outcome(self) -> Outcome | None:
        """How the game ended (off the board or on it), ``None`` while it goes on."""
        return self.result or self.game.outcome()

    # -- the clock ---------------------------------------------------------------------------

    @property
    def paused(self) -> bool:
        """Whether the game waits for a player: the guest's first arrival, or on no clock one who left."""
        return not all(self.present) and (self.clock is None or not self.arrived)

    def _run_clock(self) -> None:
        if self.clock is None:
            return
        now = self.now()
        if self.paused or self.outcome() is not None:
            self.clock.stop(now)
        else:
            self.clock.start(self.game.turn, now)

    def connected(self, seat: int, present: bool) -> None:
        """``seat`` came or went: without a clock the game pauses while a player is away; on a clock
        it goes on, and the time away counts towards :attr:`abandon`."""
        self.check_time()
        self.present[seat] = present
        self.arrived = self.arrived or present
        self.away_since[seat] = None if present else self.now()
        self._run_clock()

    def away(self) -> tuple[int, float] | None:
        """The seat away and for how many seconds (``None``: both are here)."""
        for seat in (HOST, GUEST):
            since = self.away_since[seat]
            if since is not None and not self.present[seat]:
                return seat, self.now() - since
        return None

    def claimable(self) -> bool:
        """Whether the player who stayed may claim the game (no clock, the other away past the limit)."""
        gone = self.away()
        return self.clock is None and gone is not None and gone[1] >= self.abandon and self.outcome() is None

    def check_time(self) -> bool:
        """End the game on time if the side to move has run out, or by abandonment if a player has
        been away past the limit on a clock; whether it did."""
        if self.clock is None or self.outcome() is not None:
            return False
        gone = self.away()
        if gone is not None and gone[1] >= self.abandon:
            self.result = Outcome(self.side_of(1 - gone[0]), Termination.ABANDONMENT)
        else:
            side = self.game.turn
            if not self.clock.flagged(side, self.now()):
                return False
            winner = 1 - side if self.game.can_win(1 - side) else None
            self.result = Outcome(winner, Termination.TIME)
        self.offer = None
        self._run_clock()
        return True

    # -- the messages --------------------------------------------------------------------------

    def handle(self, seat: int, message: dict[str, Any]) -> None:
        """Apply a player's checked message, or raise :class:`RefereeError` and change nothing."""
        kind = message["type"]
        if kind == "ping":
            return
        seq = message["seq"]
        if seq <= self.seqs[seat]:
            raise RefereeError(f"{kind}: message {seq} is not after {self.seqs[seat]} (replayed?)")
        self.check_time()
        if message["ply"] != self.game.ply:
            raise RefereeError(f"{kind}: sent at ply {message['ply']}, the game is at ply {self.game.ply}")
        side = self.side_of(seat)
        getattr(self, f"_{kind}")(side, message)
        self.seqs[seat] = seq
        self._run_clock()

    def _over(self, kind: str) -> None:
        if self.outcome() is not None:
            raise RefereeError(f"{kind}: the game is over")
        if self.paused:
            raise RefereeError(f"{kind}: the game is paused until both players are connected")

    def _move(self, side: int, message: dict[str, Any]) -> None:
        self._over("move")
        if self.game.turn != side:
            raise RefereeError("move: it is not your turn")
        text = message["move"]
        if len(text) > MAX_MOVE_TEXT:
            raise RefereeError(f"move: at most {MAX_MOVE_TEXT} characters")
        try:
            move = self.game.parse_move(text)
        except GameError as error:
            raise RefereeError(f"move: {error}") from None
        self.moves.append(self.game.format_move(move))
        self.game.play(move)
        if self.clock is not None:
            self.clock.press(side, self.now())
        self.offer = None

    def _offer(self, side: int, message: dict[str, Any]) -> None:
        what = message["what"]
        if what not in OFFERS:
            raise RefereeError(f"offer: expected one of {', '.join(OFFERS)}")
        if self.offer is not None:
            raise RefereeError(f"offer: a {self.offer.what} offer is waiting for its answer")
        if what == "rematch":
            if self.outcome() is None:
                raise RefereeError("offer: a rematch once the game is over")
        else:
            self._over("offer")
        if what == "takeback" and not self._takeback_plies(side):
            raise RefereeError("offer: you have no move to take back")
        self.offer = Offer(what, side)

    def _takeback_plies(self, side: int) -> int:
        """How many plies a takeback asked by ``side`` undoes: back to before its last move (0: none)."""
        history = self.game.ply - self.first_ply
        plies = 1 if self.game.turn != side else 2
        return plies if history >= plies else 0

    def _answer(self, side: int, message: dict[str, Any]) -> None:
        offer = self.offer
        if offer is None or offer.what != message["what"]:
            raise RefereeError(f"answer: no {message['what'][:20]} offer is waiting")
        if offer.by == side:
            raise RefereeError("answer: the other player answers your offer")
        self.offer = None
        if not message["accept"]:
            return
        if offer.what == "draw":
            self.result = Outcome(None, Termination.AGREEMENT)
        elif offer.what == "takeback":
            for _ in range(self._takeback_plies(offer.by)):
                self.game.undo()
                self.moves.pop()
            if self.clock is not None:
                self.clock.back_to(self.game.ply - self.first_ply)
        else:
            self.host_side = 1 - self.host_side
            self.number += 1
            self._new_game()

    def _claim(self, side: int, message: dict[str, Any]) -> None:
        if not self.claimable():
            raise RefereeError(f"claim: the other player must be away for {self.abandon:g} s first")
        self.result = Outcome(side, Termination.ABANDONMENT)
        self.offer = None

    def _resign(self, side: int, message: dict[str, Any]) -> None:
        if self.outcome() is not None:
            raise RefereeError("resign: the game is over")
        self.result = Outcome(1 - side, Termination.RESIGNATION)
        self.offer = None

    # -- what the peers are sent ----------------------------------------------------------------

    def _away_state(self) -> dict[str, Any] | None:
        gone = self.away()
        if gone is None or self.outcome() is not None:
            return None
        return {"side": self.side_of(gone[0]), "seconds": round(gone[1], 1), "limit": self.abandon,
                "claimable": self.claimable()}

    def state(self, seat: int | None) -> dict[str, Any]:
        """The whole game as ``seat`` (``None``: a spectator) is sent it after every change."""
        outcome = self.outcome()
        clock: dict[str, Any] | None = None
        if self.clock is not None and self.control is not None:
            now = self.now()
            clock = {"base": self.control.base, "increment": self.control.increment,
                     "left": [round(self.clock.left(side, now), 3) for side in (0, 1)],
                     "running": self.clock.running,
                     "history": [[round(a, 3), round(b, 3)] for a, b in self.clock.history]}
        return {
            "type": "state", "game": self.name, "start": self.position, "number": self.number,
            "moves": list(self.moves), "ply": self.game.ply, "turn": self.game.turn,
            "you": None if seat is None else self.side_of(seat),
            "seq": 0 if seat is None else self.seqs[seat], "paused": self.paused, "aids": self.aids, "clock": clock,
            "offer": None if self.offer is None else {"what": self.offer.what, "by": self.offer.by},
            "away": self._away_state(),
            "outcome": None if outcome is None else {"winner": outcome.winner, "reason": str(outcome.reason),
                                                     "said": outcome.text},
        }
