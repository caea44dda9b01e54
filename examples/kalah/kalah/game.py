"""Kalah: six pits a side, four seeds a pit; sow, and move again when the last seed lands home.

The rules (Kalah(6,4) as commonly published, e.g. Wikipedia's "Kalah")
    Each side has a row of pits (six) and a store at its right-hand end.  A move takes every seed
    of one of the mover's non-empty pits and sows them one by one counter-clockwise into the pits
    that follow and the mover's own store, skipping the opponent's store.

    - The last seed in the mover's own store: the mover moves again.
    - The last seed in an empty pit of the mover's side, with seeds in the pit opposite: that seed
      and the opposite pit's seeds are captured into the mover's store (the common rule: an
      empty opposite pit captures nothing, and the seed stays).
    - As soon as a side's pits are all empty the game ends, and the seeds left in the other
      side's pits go to their owner's store.  More seeds in the store wins; equal is a draw.

    South is player 0 and moves first.

The board
    A list of ``2 * pits + 2`` seed counts in sowing order: South's pits, South's store, North's
    pits, North's store.  A board of another size (``pits`` 1-6, any seeds) is read from a
    position text: small boards are what the solver checks the engines on.

Moves
    A move is an ``int``, the pit sown counted from the mover's left, 0 to ``pits - 1``; its text
    is the pit's letter, ``a`` (the pit farthest from the mover's store) to ``f``.  Both sides
    name their own pits so.

Position text
    South's pits left to right, ``:``, South's store; a space; North's pits from North's left,
    ``:``, North's store; a space; the side to move, ``S`` or ``N``:
    ``4,4,4,4,4,4:0 4,4,4,4,4,4:0 S``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, ClassVar, Sequence

from games import Game, IllegalMoveError, MoveSyntaxError, Outcome, PositionError

__all__ = ["PITS", "SEEDS", "LETTERS", "Kalah", "KalahTermination", "stores", "mobility"]

PITS = 6
SEEDS = 4
MOST_PITS = 6
LETTERS = "abcdef"
SIDES = "SN"


class KalahTermination(StrEnum):
    """Why a game of Kalah ends: each member is its words."""

    PITS_EMPTY = "a side's pits empty"


def stores(game: Kalah, player: int) -> float:
    """``player``'s store less the opponent's, ten to a seed: cheap."""
    return 10.0 * (game.store(player) - game.store(1 - player))


def mobility(game: Kalah, player: int) -> float:
    """:func:`stores`, plus a seed on one's own side at a fifth of one in the store, plus two
    seeds' worth for each pit whose last seed would land in the store (a move again).  Whole
    numbers: the engines report scores as ints."""
    score = stores(game, player)
    for side, sign in ((player, 1), (1 - player, -1)):
        pits = game.pits(side)
        score += sign * (2 * sum(pits) + 20 * sum(1 for j, seeds in enumerate(pits)
                                                  if seeds and seeds == len(pits) - j))
    return score


class Kalah(Game[int]):
    """A Kalah position and the moves that led to it."""

    NAME: ClassVar[str] = "kalah"
    PLAYERS: ClassVar[tuple[str, str]] = ("South", "North")
    HEURISTICS: ClassVar[dict[str, Any]] = {"stores": stores, "mobility": mobility}
    DEFAULT_HEURISTIC: ClassVar[str] = "mobility"
    CUT_HEURISTIC: ClassVar[str] = "stores"
    STRONG_HEURISTIC: ClassVar[str] = "mobility"
    FEATURE_NAMES: ClassVar[tuple[str, ...]] = ("stores", "own-seeds", "their-seeds", "moves-again")
    DECISIVE_SCORE: ClassVar[int] = 500
    EXAMPLE_POSITION: ClassVar[str] = "4,4,0,5,5,5:1 4,4,4,4,4,4:0 S"
    EXAMPLE_MOVE: ClassVar[str] = "c"
    MOVE_NOTATION: ClassVar[str] = "the pit sown, a-f from the mover's left (or its number 1-6), e.g. c"
    POSITION_NOTATION: ClassVar[str] = ("South's pits left to right:store, North's pits:store, the side to move (S or N), "
                                        "seeds as numbers joined by ','")
    MOVES_AGAIN: ClassVar[bool] = True

    def __init__(self) -> None:
        self.size = PITS
        self.board = ([SEEDS] * PITS + [0]) * 2
        self._turn = 0
        #: Per move played: the move, the board before it and the side that moved.
        self._stack: list[tuple[int, tuple[int, ...], int]] = []

    # ----------------------------------------------------------------- creation
    @classmethod
    def from_text(cls, text: str) -> Kalah:
        parts = text.split()
        rows: list[list[int]] = []
        try:
            if len(parts) != 3 or parts[2] not in SIDES:
                raise ValueError
            for part in parts[:2]:
                pits, store = part.split(":")
                rows.append([int(seeds) for seeds in pits.split(",")] + [int(store)])
            if (len(rows[0]) != len(rows[1]) or not 2 <= len(rows[0]) <= MOST_PITS + 1
                    or min(rows[0] + rows[1]) < 0 or sum(rows[0] + rows[1]) > 999):
                raise ValueError
        except ValueError:
            raise PositionError(f"expected {cls.POSITION_NOTATION}, e.g. {cls.EXAMPLE_POSITION!r}; "
                                f"got {text[:80]!r}") from None
        game = cls()
        game.size = len(rows[0]) - 1
        game.board = rows[0] + rows[1]
        game._turn = SIDES.index(parts[2])
        return game

    def to_text(self) -> str:
        return " ".join(",".join(map(str, self.pits(side))) + f":{self.store(side)}" for side in (0, 1)) \
            + f" {SIDES[self._turn]}"

    def copy(self) -> Kalah:
        other = type(self)()
        other.size, other.board, other._turn, other._stack = self.size, list(self.board), self._turn, list(self._stack)
        return other

    # ---------------------------------------------------------------- the rules
    @property
    def turn(self) -> int:
        return self._turn

    def pits(self, side: int) -> list[int]:
        """``side``'s pits, from its left (the pit farthest from its store) to its right."""
        start = side * (self.size + 1)
        return self.board[start:start + self.size]

    def store(self, side: int) -> int:
        return self.board[side * (self.size + 1) + self.size]

    def _over(self) -> bool:
        return not any(self.pits(0)) or not any(self.pits(1))

    def legal_moves(self) -> list[int]:
        if self._over():
            return []
        start = self._turn * (self.size + 1)
        return [pit for pit in range(self.size) if self.board[start + pit]]

    def play(self, move: int) -> None:
        board, n, mover = self.board, self.size, self._turn
        self._stack.append((move, tuple(board), mover))
        cells = 2 * n + 2
        own = mover * (n + 1)
        home, theirs = own + n, (1 - mover) * (n + 1) + n
        at = own + move
        seeds, board[at] = board[at], 0
        while seeds:
            at = (at + 1) % cells
            if at != theirs:
                board[at] += 1
                seeds -= 1
        if own <= at < home and board[at] == 1 and board[2 * n - at]:
            board[home] += 1 + board[2 * n - at]
            board[at] = board[2 * n - at] = 0
        if self._over():  # the seeds left go to their owner's store
            for side in (0, 1):
                start = side * (n + 1)
                board[start + n] += sum(board[start:start + n])
                board[start:start + n] = [0] * n
        elif at != home:
            self._turn = 1 - mover

    def undo(self) -> int:
        move, board, mover = self._stack.pop()
        self.board[:] = board
        self._turn = mover
        return move

    def outcome(self) -> Outcome | None:
        if not self._over():
            return None
        south, north = (self.store(side) + sum(self.pits(side)) for side in (0, 1))
        return Outcome(None if south == north else 0 if south > north else 1, KalahTermination.PITS_EMPTY)

    def key(self) -> tuple[int, ...]:
        return (*self.board, self._turn)

    @property
    def ply(self) -> int:
        return len(self._stack)

    @property
    def move_stack(self) -> Sequence[int]:
        return tuple(move for move, _, _ in self._stack)

    def _landing(self, at: int, seeds: int) -> int:
        """Where ``seeds`` sown from the cell ``at`` by the side to move end."""
        theirs = (1 - self._turn) * (self.size + 1) + self.size
        while seeds:
            at = (at + 1) % (2 * self.size + 2)
            if at != theirs:
                seeds -= 1
        return at

    def capture_score(self, move: Any) -> int:
        """2 where the move sows its last seed home (the mover moves again), 1 where it
        captures, else 0: what the search orders moves by."""
        n = self.size
        own = self._turn * (n + 1)
        at = self._landing(own + move, self.board[own + move])
        if at == own + n:
            return 2
        if own <= at < own + n and (self.board[at] == 0 or at == own + move) and self.board[2 * n - at]:
            return 1
        return 0

    def is_irreversible(self, move: Any) -> bool:
        return True  # a seed sown into a store never leaves it

    def move_code(self, move: Any) -> int:
        return int(move)

    # ----------------------------------------------------------------- notation
    def format_move(self, move: Any) -> str:
        return LETTERS[move]

    def parse_move(self, text: str) -> int:
        typed = text.strip().lower()
        letters, digits = LETTERS[:self.size], "123456"[:self.size]
        if len(typed) == 1 and typed in letters:
            pit = letters.index(typed)
        elif len(typed) == 1 and typed in digits:
            pit = int(typed) - 1
        else:
            raise MoveSyntaxError(f"expected {self.MOVE_NOTATION}; got {text[:40]!r}")
        if self._over():
            raise IllegalMoveError(f"{LETTERS[pit]}: the game is over")
        if not self.pits(self._turn)[pit]:
            raise IllegalMoveError(f"{LETTERS[pit]}: the pit is empty; legal: {' '.join(self.legal_move_texts())}")
        return pit

    # ------------------------------------------------------ evaluation/learning
    def features(self, player: int) -> list[float]:
        mine, theirs = self.pits(player), self.pits(1 - player)
        again = sum(1 for j, seeds in enumerate(mine) if seeds and seeds == self.size - j)
        return [stores(self, player), float(sum(mine)), float(sum(theirs)), float(again)]

    def render(self) -> str:
        n = self.size
        north = " ".join(f"{seeds:2}" for seeds in reversed(self.pits(1)))
        south = " ".join(f"{seeds:2}" for seeds in self.pits(0))
        letters = " ".join(f"{letter:>2}" for letter in LETTERS[:n])
        return "\n".join([f"     {' '.join(f'{letter:>2}' for letter in reversed(LETTERS[:n]))}   North",
                          f"{self.store(1):3}  {north}",
                          f"     {south}  {self.store(0):3}",
                          f"     {letters}   South",
                          f"{self.PLAYERS[self._turn]} to move"])
