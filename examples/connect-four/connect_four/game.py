"""Connect Four: seven columns of six cells; drop a disc, four in a line wins.

The board
    Columns ``a``-``g`` left to right, rows ``1``-``6`` from the bottom.  Each
    side's discs are a Python int, bit ``col * 7 + row`` for the cell of column
    ``col`` and row ``row`` (0: the bottom); the seventh bit of each column stays
    empty, so that the shifts which find four in a line never wrap from one
    column into the next.  Red is player 0 and moves first.

Moves
    A move is an ``int``, the column 0-6 a disc is dropped into; it lands on the
    lowest empty cell.  A full column cannot be played.  The notation is the
    column's letter, ``d`` (its number, ``4``, is read too).

Outcomes
    Four discs of one side in a row, a column or a diagonal win ("four in a
    row"); a full board without one is a draw ("board full").  The game has no
    repetitions: every move fills a cell.

Position text
    Six rows from the top, each seven cells of ``R``, ``Y`` or ``.``, joined by
    ``/``; a space; the side to move, ``R`` or ``Y``.  A disc must stand on a
    disc or the bottom.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, ClassVar, Sequence

from games import Game, IllegalMoveError, MoveSyntaxError, Outcome, PositionError

__all__ = ["COLUMNS", "ROWS", "ConnectFour", "ConnectFourTermination", "center", "threats"]

COLUMNS = 7
ROWS = 6
#: Bits per column: the six cells and an empty guard bit.
HEIGHT = ROWS + 1
LETTERS = "abcdefg"
#: A disc's side by its letter in a position text, and back.
SIDES = {"R": 0, "Y": 1}
TOP_BIT = [1 << (col * HEIGHT + ROWS - 1) for col in range(COLUMNS)]


class ConnectFourTermination(StrEnum):
    """Why a game of Connect Four ends: each member is its words (``"four in a row"``)."""

    FOUR_IN_A_ROW = "four in a row"
    BOARD_FULL = "board full"


def _bit(col: int, row: int) -> int:
    return 1 << (col * HEIGHT + row)


def _windows() -> list[int]:
    """Every line of four cells on the board, as a mask."""
    windows = []
    for col in range(COLUMNS):
        for row in range(ROWS):
            for dcol, drow in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(col + dcol * i, row + drow * i) for i in range(4)]
                if all(0 <= c < COLUMNS and 0 <= r < ROWS for c, r in cells):
                    windows.append(sum(_bit(c, r) for c, r in cells))
    return windows


#: The 69 lines of four.
WINDOWS = _windows()
#: What a disc in each column is worth to :func:`center`: the middle takes part in most lines.
COLUMN_WORTH = (1, 2, 3, 4, 3, 2, 1)


def four_in_a_row(discs: int) -> bool:
    """Whether ``discs`` hold four in a line (shifts by 1: a column, 7: a row, 6 and 8: diagonals)."""
    for shift in (1, HEIGHT, HEIGHT - 1, HEIGHT + 1):
        pairs = discs & (discs >> shift)
        if pairs & (pairs >> 2 * shift):
            return True
    return False


def center(game: ConnectFour, player: int) -> float:
    """The discs' worth by column (the middle most), ``player``'s less the opponent's: cheap."""
    mine, theirs = game.discs(player), game.discs(1 - player)
    return float(sum(worth * (((mine >> (col * HEIGHT)) & 0x3F).bit_count()
                              - ((theirs >> (col * HEIGHT)) & 0x3F).bit_count())
                     for col, worth in enumerate(COLUMN_WORTH)))


def threats(game: ConnectFour, player: int) -> float:
    """Lines of four still open to one side, weighted by the discs in them (1, 10, 50), ``player``'s
    less the opponent's, plus :func:`center`."""
    mine, theirs = game.discs(player), game.discs(1 - player)
    score = 0
    for window in WINDOWS:
        own, other = (mine & window).bit_count(), (theirs & window).bit_count()
        if own and not other:
            score += (0, 1, 10, 50, 0)[own]
        elif other and not own:
            score -= (0, 1, 10, 50, 0)[other]
    return score + center(game, player)


class ConnectFour(Game[int]):
    """A Connect Four position and the moves that led to it."""

    NAME: ClassVar[str] = "connect-four"
    PLAYERS: ClassVar[tuple[str, str]] = ("Red", "Yellow")
    HEURISTICS: ClassVar[dict[str, Any]] = {"center": center, "threats": threats}
    DEFAULT_HEURISTIC: ClassVar[str] = "threats"
    CUT_HEURISTIC: ClassVar[str] = "center"
    STRONG_HEURISTIC: ClassVar[str] = "threats"
    FEATURE_NAMES: ClassVar[tuple[str, ...]] = ("center", "open-twos", "open-threes", "discs")
    DECISIVE_SCORE: ClassVar[int] = 1000
    EXAMPLE_POSITION: ClassVar[str] = "......./......./......./......./...Y.../..RR... R"
    EXAMPLE_MOVE: ClassVar[str] = "d"
    MOVE_NOTATION: ClassVar[str] = "the column's letter a-g (or its number 1-7), e.g. d"
    POSITION_NOTATION: ClassVar[str] = ("six rows of seven cells (R, Y or .) from the top, joined by '/', "
                                        "then the side to move (R or Y)")

    def __init__(self) -> None:
        self._discs = [0, 0]
        self._heights = [0] * COLUMNS
        self._turn = 0
        self._stack: list[int] = []
        #: Whether the side that moved last made four in a row (one entry per move, and the start).
        self._won = [False]

    # ----------------------------------------------------------------- creation
    @classmethod
    def from_text(cls, text: str) -> ConnectFour:
        board, _, side = text.strip().partition(" ")
        rows = board.split("/")
        if len(rows) != ROWS or any(len(row) != COLUMNS or set(row) - {"R", "Y", "."} for row in rows) \
                or side.strip() not in SIDES:
            raise PositionError(f"expected {cls.POSITION_NOTATION}, e.g. {cls.EXAMPLE_POSITION!r}; "
                                f"got {text[:80]!r}")
        game = cls()
        for col in range(COLUMNS):
            column = [rows[ROWS - 1 - row][col] for row in range(ROWS)]  # from the bottom
            height = column.index(".") if "." in column else ROWS
            if any(cell != "." for cell in column[height:]):
                raise PositionError(f"column {LETTERS[col]} has a disc above an empty cell: "
                                    f"every disc stands on another or on the bottom")
            for row in range(height):
                game._discs[SIDES[column[row]]] |= _bit(col, row)
            game._heights[col] = height
        game._turn = SIDES[side.strip()]
        game._won = [four_in_a_row(game._discs[1 - game._turn])]
        return game

    def check_reachable(self) -> None:
        red, yellow = self._discs[0].bit_count(), self._discs[1].bit_count()
        if red - yellow != self._turn:
            raise PositionError(f"{red} red and {yellow} yellow discs with {self.PLAYERS[self._turn]} to move: "
                                "Red moves first, so it has as many discs as Yellow (Red to move) or one more")
        if four_in_a_row(self._discs[self._turn]):
            raise PositionError("the side to move has four in a row already: the game ended before its move")

    def to_text(self) -> str:
        rows = []
        for row in reversed(range(ROWS)):
            rows.append("".join("R" if self._discs[0] & _bit(col, row) else "Y" if self._discs[1] & _bit(col, row)
                                else "." for col in range(COLUMNS)))
        return "/".join(rows) + " " + "RY"[self._turn]

    def copy(self) -> ConnectFour:
        other = type(self)()
        other._discs, other._heights, other._turn = list(self._discs), list(self._heights), self._turn
        other._stack, other._won = list(self._stack), list(self._won)
        return other

    # ---------------------------------------------------------------- the rules
    @property
    def turn(self) -> int:
        return self._turn

    def discs(self, player: int) -> int:
        """``player``'s discs as a bitboard (see the module docstring)."""
        return self._discs[player]

    def height(self, col: int) -> int:
        """How many discs column ``col`` holds."""
        return self._heights[col]

    def legal_moves(self) -> list[int]:
        if self._won[-1]:
            return []
        return [col for col in range(COLUMNS) if self._heights[col] < ROWS]

    def play(self, move: int) -> None:
        self._discs[self._turn] |= _bit(move, self._heights[move])
        self._heights[move] += 1
        self._stack.append(move)
        self._won.append(four_in_a_row(self._discs[self._turn]))
        self._turn = 1 - self._turn

    def undo(self) -> int:
        move = self._stack.pop()
        self._won.pop()
        self._turn = 1 - self._turn
        self._heights[move] -= 1
        self._discs[self._turn] &= ~_bit(move, self._heights[move])
        return move

    def outcome(self) -> Outcome | None:
        if self._won[-1]:
            return Outcome(1 - self._turn, ConnectFourTermination.FOUR_IN_A_ROW)
        if all(height == ROWS for height in self._heights):
            return Outcome(None, ConnectFourTermination.BOARD_FULL)
        return None

    def key(self) -> int:
        return self._discs[0] | self._discs[1] << (COLUMNS * HEIGHT)

    @property
    def ply(self) -> int:
        return len(self._stack)

    @property
    def move_stack(self) -> Sequence[int]:
        return tuple(self._stack)

    def is_irreversible(self, move: Any) -> bool:
        return True  # a disc never leaves the board

    def move_code(self, move: Any) -> int:
        return int(move)

    # ----------------------------------------------------------------- notation
    def format_move(self, move: Any) -> str:
        return LETTERS[move]

    def parse_move(self, text: str) -> int:
        typed = text.strip().lower()
        if len(typed) == 1 and typed in LETTERS:
            col = LETTERS.index(typed)
        elif len(typed) == 1 and typed in "1234567":
            col = int(typed) - 1
        else:
            raise MoveSyntaxError(f"expected {self.MOVE_NOTATION}; got {text[:40]!r}")
        if self._won[-1] or self.outcome() is not None:
            raise IllegalMoveError(f"{LETTERS[col]}: the game is over")
        if self._heights[col] == ROWS:
            raise IllegalMoveError(f"{LETTERS[col]}: the column is full; legal: {' '.join(self.legal_move_texts())}")
        return col

    # ------------------------------------------------------ evaluation/learning
    def features(self, player: int) -> list[float]:
        mine, theirs = self._discs[player], self._discs[1 - player]
        twos = threes = 0
        for window in WINDOWS:
            own, other = (mine & window).bit_count(), (theirs & window).bit_count()
            sign = 1 if own and not other else -1 if other and not own else 0
            count = own or other
            twos += sign * (count == 2)
            threes += sign * (count == 3)
        return [center(self, player), float(twos), float(threes), float(mine.bit_count() - theirs.bit_count())]

    def render(self) -> str:
        rows = self.to_text().split()[0].split("/")
        lines = [f"{ROWS - index} " + " ".join(row) for index, row in enumerate(rows)]
        return "\n".join(lines + ["  " + " ".join(LETTERS), f"{self.PLAYERS[self._turn]} to move"])
