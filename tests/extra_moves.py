"""A game written inside the tests where a side may move again: "take two, move again".

A row of stones, each worth some points (a digit); the side to move takes 1, 2 or 3 stones from
the left end and scores their points.  Taking exactly two stones gives the same side another move.
When the row is empty the side with more points wins (equal points: a draw).

Small enough for a plain recursive minimax to solve, and uneven enough (the points) that a search
which negates the value of a child where the same side moves again gets the wrong value.

Position text: the stones' digits left to right (``-`` for none), the two scores, the side to move
(``A`` or ``B``): ``3141 0 2 A``.  A move is the number of stones taken, ``1``-``3``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, ClassVar, Sequence

from games import Game, IllegalMoveError, MoveSyntaxError, Outcome, PositionError
from games.board import BoardColours, BoardDescription, BoardLayout, Cell, Piece, Square
from games.kind import BenchPlan, BenchPosition, GameKind, LevelPlan, PerftCase, ScoreScale
from games.movelist import MoveList
from games.samples import Decided, Samples

__all__ = ["KIND", "TakeTwo", "points"]

#: The sides as a position text writes them.
SIDES = "AB"


class TakeTwoTermination(StrEnum):
    """Why a game of take-two ends."""

    NO_STONES = "no stones left"


def points(game: TakeTwo, player: int) -> float:
    """``player``'s points less the opponent's, ten to a point."""
    return 10.0 * (game.scores[player] - game.scores[1 - player])


class TakeTwo(Game[int]):
    """A take-two position and the moves that led to it."""

    NAME: ClassVar[str] = "take-two"
    PLAYERS: ClassVar[tuple[str, str]] = ("A", "B")
    HEURISTICS: ClassVar[dict[str, Any]] = {"points": points}
    DEFAULT_HEURISTIC: ClassVar[str] = "points"
    CUT_HEURISTIC: ClassVar[str] = "points"
    STRONG_HEURISTIC: ClassVar[str] = "points"
    FEATURE_NAMES: ClassVar[tuple[str, ...]] = ("points",)
    DECISIVE_SCORE: ClassVar[int] = 1000
    EXAMPLE_POSITION: ClassVar[str] = "31415926 0 0 A"
    EXAMPLE_MOVE: ClassVar[str] = "2"
    MOVE_NOTATION: ClassVar[str] = "the number of stones taken, 1-3, e.g. 2"
    POSITION_NOTATION: ClassVar[str] = "the stones' digits (- for none), the two scores and the side to move (A or B)"
    START: ClassVar[str] = "31415926 0 0 A"
    MOVES_AGAIN: ClassVar[bool] = True

    def __init__(self) -> None:
        self.stones: tuple[int, ...] = ()
        self.scores = [0, 0]
        self._turn = 0
        #: Per move played: the stones taken and who took them.
        self._stack: list[tuple[int, int]] = []
        self._load(self.START)

    def _load(self, text: str) -> None:
        parts = text.split()
        if (len(parts) != 4 or not (parts[0] == "-" or parts[0].isdigit()) or not parts[1].isdigit()
                or not parts[2].isdigit() or parts[3] not in SIDES):
            raise PositionError(f"expected {self.POSITION_NOTATION}, e.g. {self.EXAMPLE_POSITION!r}; got {text[:80]!r}")
        self.stones = () if parts[0] == "-" else tuple(int(c) for c in parts[0])
        self.scores = [int(parts[1]), int(parts[2])]
        self._turn = SIDES.index(parts[3])
        self._stack = []
        self._taken = 0

    @classmethod
    def from_text(cls, text: str) -> TakeTwo:
        game = cls()
        game._load(text)
        return game

    def to_text(self) -> str:
        row = "".join(map(str, self.stones[self._taken:])) or "-"
        return f"{row} {self.scores[0]} {self.scores[1]} {SIDES[self._turn]}"

    def copy(self) -> TakeTwo:
        other = type(self)()
        other.stones, other._taken = self.stones, self._taken
        other._stack = list(self._stack)
        other.scores = list(self.scores)
        other._turn = self._turn
        return other

    @property
    def turn(self) -> int:
        return self._turn

    def left(self) -> tuple[int, ...]:
        """The stones not taken yet, the next first."""
        return self.stones[self._taken:]

    def legal_moves(self) -> list[int]:
        return list(range(1, min(3, len(self.stones) - self._taken) + 1))

    def play(self, move: int) -> None:
        start = self._taken
        self.scores[self._turn] += sum(self.stones[start:start + move])
        self._taken += move
        self._stack.append((move, self._turn))
        if move != 2:
            self._turn = 1 - self._turn

    def undo(self) -> int:
        move, mover = self._stack.pop()
        self._taken -= move
        self.scores[mover] -= sum(self.stones[self._taken:self._taken + move])
        self._turn = mover
        return move

    def outcome(self) -> Outcome | None:
        if self._taken < len(self.stones):
            return None
        a, b = self.scores
        return Outcome(None if a == b else 0 if a > b else 1, TakeTwoTermination.NO_STONES)

    def key(self) -> tuple[Any, ...]:
        return (self.stones[self._taken:], self.scores[0], self.scores[1], self._turn)

    @property
    def ply(self) -> int:
        return len(self._stack)

    @property
    def move_stack(self) -> Sequence[int]:
        return tuple(move for move, _ in self._stack)

    def format_move(self, move: Any) -> str:
        return str(move)

    def parse_move(self, text: str) -> int:
        if text.strip() not in ("1", "2", "3"):
            raise MoveSyntaxError(f"expected {self.MOVE_NOTATION}; got {text[:40]!r}")
        move = int(text)
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{move}: only {len(self.stones) - self._taken} stones are left")
        return move

    def features(self, player: int) -> list[float]:
        return [points(self, player)]


# ------------------------------------------------------------------ its kind
class TakeTwoBoard(BoardDescription[TakeTwo]):
    """The stones left, in a row of nine cells (the first is the next taken)."""

    layout = BoardLayout(columns=9, rows=1, column_labels=list("123456789"), row_labels=["1"],
                         colours=BoardColours(light="#777777", dark="#666666", tints={}, pieces=("#ffffff", "#000000"),
                                              neutral="#dddddd"),
                         empty_glyph="·", empty_letter=".", turns_for_players=False)

    def squares(self, game: TakeTwo) -> list[list[Square]]:
        left = game.left()
        cells = [Square(col % 2 == 0, Piece(str(left[col]), str(left[col]), None) if col < len(left) else None)
                 for col in range(9)]
        return [cells]

    def move_cells(self, game: TakeTwo, move: Any) -> tuple[Cell, Cell] | None:
        return (move - 1, 0), (move - 1, 0)

    def cell_name(self, cell: Cell) -> str:
        return str(cell[0] + 1)

    def typed_move(self, start: Cell, end: Cell) -> str | None:
        return str(start[0] + 1) if start == end and start[0] < 3 else None


class TakeTwoMoveList(MoveList):
    name: ClassVar[str] = "a take-two move list"
    game_name: ClassVar[str] = "take-two"
    title: ClassVar[str] = "Take Two"
    player_tags: ClassVar[tuple[str, str]] = ("A", "B")
    move_pattern: ClassVar[str] = r"\b([1-3])\b"
    example: ClassVar[str] = "2  1"


KIND: GameKind[TakeTwo] = GameKind(
    game=TakeTwo, title="Take Two", records=TakeTwoMoveList(), board=TakeTwoBoard(),
    scores=ScoreScale(unit=10.0, unit_name="point", win_scale=50.0, report_depth=4, puzzle_depth=4,
                      draw_min_plies=4),
    levels=LevelPlan(noise=(50, 15), casual_sees="", ratings=()),
    bench=BenchPlan(positions=(BenchPosition("start", None),), search_depth=(6, 4), warm_depth=(6, 4),
                    parallel_depth=(6, 4), perft_depth=4, perft=(PerftCase("start", None, 5, 3),)),
    help="Type how many stones to take from the left, 1-3: 2. Taking exactly two moves again.",
    position_hint="the stones' digits, the two scores and the side to move (A or B)",
    samples=Samples(line=("2", "1", "3"), finished=("- 5 3 B",), cheap_heuristic="points", search_depth=4,
                    small_tree=("31415 0 0 A", (), 4),
                    decided=(Decided("0099 0 0 A", 2, 2),), ended=("12 0 0 A", ("2",)),
                    near_end=("3141 0 0 A", "alphabeta:depth=4"), move_alphabet="0123456789 ",
                    position_alphabet="0123456789- AB"),
)
