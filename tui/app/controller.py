"""The game a game screen plays, and what comes next in it: no Textual here.

:class:`GameController` owns what a game is beyond its drawing: the played game
(:class:`~tui.app.screens.played.PlayedGame`: the moves, the result decided off
the board, the ply reviewed), the clock (:class:`games.clock.Clock`), whether the
engines are paused or step one move, the premove queued while an engine thinks,
and the players (:class:`~tui.app.session.GameSetup`, whose engine may fall back
mid-game).  Asked what comes next (:meth:`GameController.turn`) it answers with a
typed value:

- :class:`GameOver` -- the game ended, on the board or off it;
- :class:`Reviewing` -- an earlier position is shown: nothing is played;
- :class:`HumanToMove` -- a human's move (with the premove to play now, if any);
- :class:`EngineToMove` -- an engine's search, with its spec and its limits under the clock;
- :class:`EngineWaits` -- an engine is to move but does not: paused, or held (a
  dialog covers the screen, the report runs), with the word its panel shows.

The game screen draws what it is told and asks the search process for the
engine's move; every time is passed in (``now``, on :func:`time.monotonic`'s
clock), so the whole of the turn logic is tested without a terminal.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Union

from engines import Limits, parse_engine_spec
from engines.timing import time_for_move
from games import Game, Outcome, Termination
from games.clock import Clock
from games.variations import MoveNode

from .screens.played import PlayedGame
from .session import GameSetup

__all__ = ["EngineToMove", "EngineWaits", "GameController", "GameOver", "HumanToMove", "Premove",
           "Reviewing", "Turn"]

#: Two squares of a board, a premove made by clicks: from, to.
Squares = tuple[tuple[int, int], tuple[int, int]]


@dataclass(frozen=True)
class Premove:
    """A move queued while an engine thinks: as typed (or named by its squares), and
    the squares of one made by two clicks (replayed as clicks, so a promotion asks)."""

    text: str
    squares: Squares | None = None


@dataclass(frozen=True)
class GameOver:
    """The game ended: how."""

    outcome: Outcome


@dataclass(frozen=True)
class Reviewing:
    """The position after ``ply`` moves is shown: nothing is played until the review ends."""

    ply: int


@dataclass(frozen=True)
class HumanToMove:
    """``side`` is a human's to move; ``premove`` is the move queued for now (taken off the queue)."""

    side: int
    premove: Premove | None = None


@dataclass(frozen=True)
class EngineToMove:
    """``side``'s engine searches now: its ``spec``, and its ``limits`` under the clock
    (``None`` without a clock: the spec's own)."""

    side: int
    spec: str
    limits: Limits | None


@dataclass(frozen=True)
class EngineWaits:
    """``side``'s engine is to move but waits: ``why`` is the word its panel shows
    (``paused``, ``waits for the dialog``)."""

    side: int
    why: str


#: What comes next in a game.
Turn = Union[GameOver, Reviewing, HumanToMove, EngineToMove, EngineWaits]


class GameController:
    """One game of ``setup``: its moves, clock, pauses and premove (see the module doc)."""

    def __init__(self, setup: GameSetup) -> None:
        self.setup = setup
        #: The game, its moves as texts, the result off the board, the position reviewed.
        self.played = PlayedGame(setup)
        self.clock: Clock | None = None if setup.clock is None else Clock(setup.clock, len(self.played.moves))
        #: A loaded game waits for the player before an engine moves, unless it is continued.
        self.paused = bool(setup.moves) and bool(setup.engine_sides) and not setup.continued
        #: One engine move is played while paused (then it pauses again).
        self.stepping = False
        #: The move queued while an engine thinks (``None``: none), and the square of one begun by a click.
        self.premove: Premove | None = None
        self.premove_from: tuple[int, int] | None = None

    # -- the game, read through ------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.played.game

    @property
    def moves(self) -> list[str]:
        return self.played.moves

    def outcome(self) -> Outcome | None:
        """How the game ended: off the board or on it; ``None`` while it goes on."""
        return self.played.outcome()

    @property
    def exploring(self) -> bool:
        """The game is off the end of its main line: in a variation, or in the main line's middle."""
        node = self.played.node
        return bool(node.variations) or not node.is_main_line()

    @property
    def free_hand(self) -> bool:
        """The player moves for either side: exploring with the engines paused (a move made in review
        pauses them); the engine plays on from there only when asked (ctrl+b)."""
        return self.engines_paused and self.exploring

    @property
    def human_to_move(self) -> bool:
        """A human is to move in a game still going on: the side to move is a human's, or the player
        has a free hand (:attr:`free_hand`)."""
        return self.outcome() is None and (self.setup.is_human(self.game.turn) or self.free_hand)

    @property
    def engines_paused(self) -> bool:
        """Engines are paused and none steps a move."""
        return self.paused and not self.stepping

    # -- what comes next ---------------------------------------------------------------------

    def turn(self, *, held: bool = False, now: float | None = None) -> Turn:
        """What comes next; ``held``: engines wait (a dialog over the screen, the report runs).

        A human's turn takes the premove off the queue (it is played now, or dropped)."""
        if self.played.review is not None:
            return Reviewing(self.played.review)
        outcome = self.outcome()
        if outcome is not None:
            return GameOver(outcome)
        side = self.game.turn
        if self.setup.is_human(side):
            premove, self.premove, self.premove_from = self.premove, None, None
            return HumanToMove(side, premove)
        if self.engines_paused:
            return EngineWaits(side, "paused")
        if held:
            return EngineWaits(side, "waits for the dialog")
        spec = self.setup.players[side]
        return EngineToMove(side, spec, self.limits(side, now))

    def limits(self, side: int, now: float | None) -> Limits | None:
        """The limits of ``side``'s engine under its clock (``None`` without a clock: the spec's own).

        The clock's budget, capped by the time the spec sets explicitly
        (``pvs:time=0.5`` stays a fast player); a depth or node limit the spec sets still holds."""
        if self.clock is None or now is None:
            return None
        left = self.clock.left(side, now)
        budget = time_for_move(left * 1000, self.clock.control.increment * 1000)
        given = parse_engine_spec(self.setup.players[side]).options
        if given.get("time") is not None:
            budget = min(budget, float(given["time"]))
        return Limits(depth=given.get("depth"), time=budget, nodes=given.get("nodes"), flexible=True)

    def clock_side(self, *, held: bool = False, delaying: bool = False) -> int | None:
        """The side whose clock runs now: the side to move, unless the game is over, paused,
        reviewed or ``held`` (a dialog, the report), or the engines' watching delay runs
        (that is for watching, not thinking) -- or both sides have not made their first move
        yet (as on lichess: nobody loses on time before moving)."""
        if (self.outcome() is not None or held or self.played.review is not None or self.engines_paused
                or len(self.moves) < 2 or delaying):
            return None
        return self.game.turn

    # -- what changes the game -------------------------------------------------------------

    def play(self, move: Any, now: float) -> None:
        """Play ``move`` for the side to move (its clock stops, with the increment)."""
        if self.clock is not None:
            self.clock.press(self.game.turn, now)
        self.played.play(move)

    def engine_played(self, move: Any, now: float) -> None:
        """The engine's ``move``: played; a stepped move pauses the engines again."""
        self.play(move, now)
        if self.stepping:
            self.stepping = False
            self.paused = True

    def undo_one(self, *, forget: bool = True) -> None:
        """Take back the last move (the premove goes, the clock goes back with it); ``forget``:
        it leaves the tree of moves too (see :meth:`PlayedGame.undo`)."""
        self.drop_premove()
        self.played.undo(forget=forget)
        if self.clock is not None:
            self.clock.back_to(len(self.moves))

    def undo(self) -> int:
        """Take back the last move, and the engine's reply before it when a human plays an
        engine (engines playing each other pause: they would replay the move at once).
        The verdict off the board goes; redo can bring the moves back (:attr:`PlayedGame.redo`).
        Returns how many moves were taken back (0: none to take)."""
        if not self.moves:
            return 0
        self.played.verdict = None
        before = list(self.moves)
        self.undo_one()
        if len(self.setup.engine_sides) == 2 or self.free_hand:
            self.paused = bool(self.setup.engine_sides)
        else:
            while self.moves and not self.setup.is_human(self.game.turn) and self.setup.engine_sides:
                self.undo_one()
        self.played.redo.append(before[len(self.moves):])
        return len(before) - len(self.moves)

    def redo(self, moves: list[str], now: float) -> None:
        """Play again ``moves`` that undo took back (a :class:`~games.GameError` if one is no longer legal)."""
        for text in moves:
            move = self.game.parse_move(text)
            if self.clock is not None:
                self.clock.press(self.game.turn, now)
            self.played.replay(move)

    def back_to(self, ply: int) -> int:
        """Play on from the position after ``ply`` moves (a reviewed one): the moves after it
        stay in the tree, as the line a different move becomes a variation of; how many
        moves the game went back."""
        dropped = len(self.moves) - ply
        for _ in range(dropped):
            self.undo_one(forget=False)
        self.played.verdict = None
        self.played.review = None
        return dropped

    def follow_line(self, node: MoveNode) -> int | None:
        """Make the line through ``node`` the game's (to its end), showing ``node``: the
        ply reviewed (``None``: ``node`` is the line's end, the game itself)."""
        self.drop_premove()
        ply = self.played.follow_line(node)
        if self.clock is not None:
            self.clock.back_to(min(len(self.moves), len(self.clock.history) - 1))
        self.played.verdict = None
        self.played.review = None if ply == len(self.moves) else ply
        return self.played.review

    def end(self, outcome: Outcome, now: float) -> None:
        """The game ends off the board (a resignation, an agreed draw, a flag fall): the clocks stop."""
        self.played.verdict = outcome
        if self.clock is not None:
            self.clock.stop(now)

    def flag_fell(self, side: int) -> Outcome | None:
        """``side``'s time ran out: the other side wins, or draws when it cannot win (chess: no
        mating material); ``None`` when it does not count (the game is over, or it is not
        ``side``'s move any more)."""
        if self.outcome() is not None or side != self.game.turn:
            return None
        other = 1 - side
        if not self.game.can_win(other):
            return Outcome(None, Termination.TIME, f"time, but {self.played.sides[other]} cannot mate")
        return Outcome(other, Termination.TIME)

    def fall_back(self, side: int, spec: str, notice: str) -> None:
        """``side``'s engine plays ``spec`` from now on (its learned model was lost), ``notice`` says why."""
        players = list(self.setup.players)
        players[side] = spec
        notices = list(self.setup.notices)
        notices[side] = notice
        self.setup = replace(self.setup, players=(players[0], players[1]), notices=(notices[0], notices[1]))

    # -- pause and step ------------------------------------------------------------------------

    def toggle_pause(self) -> bool:
        """Pause the engines and clocks, or resume them; whether they are paused now."""
        self.paused = not self.paused
        self.stepping = False
        return self.paused

    def step_refusal(self) -> str:
        """Why no engine move can be stepped now ("": it can)."""
        if self.outcome() is not None or self.setup.is_human(self.game.turn) or self.played.review is not None:
            return "step plays one engine move when an engine is to move"
        return ""

    def step(self) -> None:
        """One engine move, then paused again."""
        self.paused = True
        self.stepping = True

    # -- premoves ------------------------------------------------------------------------------

    @property
    def premove_possible(self) -> bool:
        """The engine is to move in the game itself and a human plays the other side."""
        return (self.played.review is None and self.outcome() is None and not self.setup.is_human(self.game.turn)
                and self.setup.is_human(1 - self.game.turn) and not self.free_hand)

    def queue_premove(self, text: str, squares: Squares | None = None) -> None:
        """Queue ``text`` (made by clicking ``squares``) to play when the engine has moved."""
        self.premove = Premove(text, squares)
        self.premove_from = None

    def drop_premove(self) -> bool:
        """Forget the premove, whole or begun; whether there was one."""
        had = self.premove is not None or self.premove_from is not None
        self.premove = self.premove_from = None
        return had
