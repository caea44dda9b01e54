"""Othello (Reversi) on an 8x8 board: positions, moves, outcomes and notation.

The board
    64 cells: columns ``a``-``h`` left to right, rows ``1``-``8`` top to bottom
    (the usual Othello convention).  Cell ``a1`` is number 0, ``h1`` is 7,
    ``a8`` 56 and ``h8`` 63, bit ``row * 8 + col`` of a Python int (see
    :mod:`games.othello.bitboards`).  A position is two such bitboards, the
    discs of the side to move and those of its opponent, plus the side to
    move.  Black is player 0 and moves first; the start has White on d4 and
    e5, Black on e4 and d5.

Moves
    A move is an ``int``: the cell 0-63 where the mover places a disc, or
    :data:`PASS` (64).  A placement must bracket, in at least one of the
    eight directions, a run of the opponent's discs between the new disc and
    another of the mover's; every run so bracketed turns over.  A side with
    no placement must pass, if its opponent has one: :meth:`Othello.legal_moves`
    is then exactly ``[PASS]``.  Passing is otherwise illegal.  The notation
    is the cell name, ``d3``, or ``pass``.  :meth:`Othello.move_code` is the
    move itself.

Outcomes
    When neither side can place a disc (the board full or not), the game is
    over: :meth:`Othello.legal_moves` is empty and the side with more discs
    wins ("disc count"); equal counts draw (also "disc count").  Othello has
    no repetitions or move caps: every placement fills a cell, so a game
    lasts at most 60 placements (plus passes, never two in a row).

Solving
    :meth:`Othello.solve` gives the exact value of a position with few empty
    cells (the final disc difference, empties to the winner) and a best move,
    from the endgame solver of :mod:`games.othello.solver`.

Play and undo
    :meth:`Othello.play` computes the discs turned over with shifts (see
    :func:`~games.othello.bitboards.flips`) and pushes ``(move, flipped, ...)``
    on a stack; :meth:`Othello.undo` takes them back with XORs.  The legal
    placements of both sides are computed at most once per position and kept
    on the same stack, so :meth:`~Othello.outcome`, :meth:`~Othello.legal_moves`
    and the heuristics share them.

Position text
    Eight rows from row 1 (top) to row 8, each eight cells of ``B`` (black),
    ``W`` (white) or ``.`` (empty), joined by ``/``; a space; the side to
    move, ``B`` or ``W``.  The start is
    ``......../......../......../...WB.../...BW.../......../......../........ B``.
    Any case and surrounding whitespace are accepted; any board is (even one
    where neither side can move: that game is over).
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Callable, ClassVar, Hashable, Iterable, Sequence

from ..grid import GridText
from ..base import (
    MAX_MOVE_TEXT,
    Game,
    Heuristic,
    IllegalMoveError,
    MoveSyntaxError,
    Outcome,
    PositionError,
    Solution,
    check_length,
    quote_input,
)
from .bitboards import (
    CELL_NAMES,
    CELL_OF_NAME,
    COLUMN_LETTERS,
    PASS,
    SIZE,
    START_BLACK,
    START_WHITE,
    flips,
    legal_mask,
)
from .evaluation import HEURISTICS, features
from .patterns import HEURISTIC_FILES, learned
from .solver import SWITCHES
from .solving import solve

__all__ = ["Othello", "OthelloTermination"]


class OthelloTermination(StrEnum):
    """Why an Othello game ends: neither side can move, and the discs are counted."""

    DISC_COUNT = "disc count"

#: The unknown value of a cached legal-placement mask (masks are never negative).
_UNKNOWN = -1
#: The letters of Black and White in position texts.
_SIDES = "BW"
_MOVE_RE = re.compile(r"(?P<cell>[a-h][1-8])|(?P<pass>pass)", re.ASCII | re.IGNORECASE)
#: Position texts: eight rows of B, W and '.', and the side to move.
_TEXT = GridText("Othello", SIZE, _SIDES, "......../......../......../...WB.../...BW.../......../......../........ B",
                 "...WB...")
_MOVE_HINT = "expected a cell a1 to h8 like 'd3' (column a-h, row 1-8 from the top) or 'pass'"


class Othello(Game[int]):
    """An Othello position with its history.

    >>> game = Othello()
    >>> game.legal_move_texts()
    ['d3', 'c4', 'f5', 'e6']
    >>> game.play_text("d3")
    19
    >>> game.to_text()
    '......../......../...B..../...BB.../...BW.../......../......../........ W'
    """

    NAME: ClassVar[str] = "othello"
    PLAYERS: ClassVar[tuple[str, str]] = ("Black", "White")
    HEURISTICS: ClassVar[dict[str, Heuristic]] = {**HEURISTICS, "learned": learned}
    HEURISTIC_FILES: ClassVar[dict[str, Callable[[str], Heuristic]]] = HEURISTIC_FILES  # tables:FILE
    DEFAULT_HEURISTIC: ClassVar[str] = "standard"
    CUT_HEURISTIC: ClassVar[str] = "discs"
    STRONG_HEURISTIC: ClassVar[str] = "learned"
    HAND_MADE_HEURISTIC: ClassVar[str | None] = "standard"
    FEATURE_NAMES: ClassVar[tuple[str, ...]] = (
        "own_discs",
        "opp_discs",
        "own_mobility",
        "opp_mobility",
        "own_potential_mobility",
        "opp_potential_mobility",
        "own_corners",
        "opp_corners",
        "own_x_squares",
        "opp_x_squares",
        "own_stable",
        "opp_stable",
        "own_edges",
        "opp_edges",
        "parity",
        "empties",
        "to_move",
        "result",
    )
    #: A won game on the ``standard`` scale: the least a finished game won by
    #: one disc scores (see :mod:`games.othello.evaluation`); no unfinished
    #: position comes near it.
    DECISIVE_SCORE: ClassVar[int] = 4000
    #: After the opening f5 f6 e6 f4; d3 is legal here as at the start.
    EXAMPLE_POSITION: ClassVar[str] = (
        "......../......../......../...WWW../...BBW../....BW../......../........ B"
    )
    EXAMPLE_MOVE: ClassVar[str] = "d3"
    MOVE_NOTATION: ClassVar[str] = (
        "the cell to place a disc on, column a-h and row 1-8 (row 1 at the top), e.g. 'd3'; "
        "'pass' when no placement is legal"
    )
    POSITION_NOTATION: ClassVar[str] = (
        "eight rows of B, W or '.' from row 1 (top) to row 8 joined by '/', a space and the "
        "side to move, e.g. '......../......../......../...WB.../...BW.../......../......../........ B'"
    )

    __slots__ = ("_own", "_opp", "_turn", "_mobility", "_opp_mobility", "_stack")

    def __init__(self) -> None:
        """The start position, Black to move."""
        self._set(START_BLACK, START_WHITE, 0)

    def _set(self, black: int, white: int, turn: int) -> None:
        self._own, self._opp = (white, black) if turn else (black, white)
        self._turn = turn
        #: Legal placements of the side to move and of its opponent, once known.
        self._mobility = _UNKNOWN
        self._opp_mobility = _UNKNOWN
        #: Undo records: ``(move, flipped, mobility, opp_mobility)`` before each move.
        self._stack: list[tuple[int, int, int, int]] = []

    # ----------------------------------------------------------------- creation
    @classmethod
    def from_text(cls, text: str) -> Othello:
        """Read a position such as ``'......../......../...B..../...BB.../...BW.../......../......../........ W'``.

        Surrounding whitespace and lowercase are accepted.
        """
        black, white, turn = _TEXT.read(text)
        game = cls.__new__(cls)
        game._set(black, white, turn)
        return game

    def check_reachable(self) -> None:
        """The four centre cells hold discs from the start and a disc is never taken off: a board
        with one of them empty (an empty board, fewer than four discs) is no position of a game."""
        centre = START_BLACK | START_WHITE
        missing = centre & ~(self.black | self.white)
        empty = [CELL_NAMES[cell] for cell in range(SIZE * SIZE) if missing >> cell & 1]
        if empty:
            raise PositionError(f"not an Othello position: {', '.join(sorted(empty))} empty (the four centre "
                                f"cells hold discs from the start, and a disc is never taken off)")

    def to_text(self) -> str:
        """The position text, e.g. ``'......../......../......../...WB.../...BW.../......../......../........ B'``."""
        return _TEXT.write(self.black, self.white, self._turn)

    def copy(self) -> Othello:
        """An independent copy with the same history (not for the search hot path)."""
        other = Othello.__new__(type(self))
        other._own, other._opp, other._turn = self._own, self._opp, self._turn
        other._mobility, other._opp_mobility = self._mobility, self._opp_mobility
        other._stack = self._stack.copy()
        return other

    # ---------------------------------------------------------------- the board
    @property
    def black(self) -> int:
        """Bitboard of Black's discs (bit ``row * 8 + col``, ``a1`` = bit 0)."""
        return self._opp if self._turn else self._own

    @property
    def white(self) -> int:
        """Bitboard of White's discs."""
        return self._own if self._turn else self._opp

    def discs(self, player: int) -> int:
        """Bitboard of ``player``'s discs."""
        return self._own if player == self._turn else self._opp

    def piece_at(self, cell: int) -> int | None:
        """The player (0 Black, 1 White) with a disc on ``cell`` (0-63), or ``None`` if empty."""
        bit = 1 << cell
        if self.black & bit:
            return 0
        if self.white & bit:
            return 1
        return None

    def disc_counts(self) -> tuple[int, int]:
        """The numbers of Black's and of White's discs."""
        return self.black.bit_count(), self.white.bit_count()

    @property
    def empties(self) -> int:
        """The number of empty cells."""
        return 64 - (self._own | self._opp).bit_count()

    def mobility(self) -> int:
        """The cells where the side to move may place a disc (a bitboard; 0 if it
        must pass or the game is over).  Computed once per position."""
        mobility = self._mobility
        if mobility < 0:
            mobility = self._mobility = legal_mask(self._own, self._opp)
        return mobility

    def opponent_mobility(self) -> int:
        """The cells where the opponent of the side to move could place a disc if
        it were its turn.  Computed once per position."""
        mobility = self._opp_mobility
        if mobility < 0:
            mobility = self._opp_mobility = legal_mask(self._opp, self._own)
        return mobility

    def mobility_of(self, player: int) -> int:
        """The cells where ``player`` could place a disc if it were to move."""
        return self.mobility() if player == self._turn else self.opponent_mobility()

    # ---------------------------------------------------------------- the rules
    @property
    def turn(self) -> int:
        return self._turn

    @property
    def ply(self) -> int:
        """Moves played since the position was created, passes included."""
        return len(self._stack)

    @property
    def move_stack(self) -> Sequence[int]:
        return tuple([entry[0] for entry in self._stack])

    def legal_moves(self) -> list[int]:
        """The cells (0-63) the side to move may place a disc on, ascending; ``[PASS]``
        if it has none but the opponent has; ``[]`` when the game is over."""
        mobility = self._mobility
        if mobility < 0:
            mobility = self._mobility = legal_mask(self._own, self._opp)
        if mobility:
            moves = []
            while mobility:
                low = mobility & -mobility
                moves.append(low.bit_length() - 1)
                mobility ^= low
            return moves
        return [PASS] if self.opponent_mobility() else []

    def count_moves(self) -> int:
        """The number of legal moves: a popcount of the placements (1 for a forced pass)."""
        mobility = self._mobility
        if mobility < 0:
            mobility = self._mobility = legal_mask(self._own, self._opp)
        if mobility:
            return mobility.bit_count()
        return 1 if self.opponent_mobility() else 0

    def play(self, move: int) -> None:
        """Place a disc on cell ``move`` and turn over what it brackets, or pass
        (``PASS``).  Not checked: pass only moves from :meth:`legal_moves`."""
        own, opp = self._own, self._opp
        if move == PASS:
            self._stack.append((PASS, 0, self._mobility, self._opp_mobility))
            self._own, self._opp = opp, own
            self._mobility, self._opp_mobility = self._opp_mobility, self._mobility
        else:
            flipped = flips(own, opp, move)
            self._stack.append((move, flipped, self._mobility, self._opp_mobility))
            self._own = opp ^ flipped
            self._opp = own | flipped | (1 << move)
            self._mobility = self._opp_mobility = _UNKNOWN
        self._turn ^= 1

    def undo(self) -> int:
        """Take back the last move (a placement or a pass) and return it."""
        move, flipped, mobility, opp_mobility = self._stack.pop()  # IndexError when nothing was played
        own, opp = self._own, self._opp  # the side that did not move, the mover
        if move == PASS:
            self._own, self._opp = opp, own
        else:
            self._own = opp ^ flipped ^ (1 << move)
            self._opp = own ^ flipped
        self._mobility, self._opp_mobility = mobility, opp_mobility
        self._turn ^= 1
        return move

    def last_flipped(self) -> int:
        """The discs the last move turned over, as a bitboard (0 after a pass or at the start)."""
        return self._stack[-1][1] if self._stack else 0

    def outcome(self) -> Outcome | None:
        """``None`` while either side can place a disc; then the disc count decides."""
        if self.mobility() or self.opponent_mobility():
            return None
        black, white = self.black.bit_count(), self.white.bit_count()
        return _BLACK_WINS if black > white else _WHITE_WINS if white > black else _DRAW

    def key(self) -> Hashable:
        """One int: the side to move's discs in bits 0-63, the other side's in
        bits 64-127, the side to move in bit 128."""
        return self._own | self._opp << 64 | self._turn << 128

    def must_pass(self) -> bool:
        """Whether the only legal move is a pass."""
        return not self.mobility() and bool(self.opponent_mobility())

    SOLVER_SWITCHES: ClassVar[tuple[str, ...]] = SWITCHES

    def left_to_solve(self) -> int:
        """The empty cells: what :meth:`solve`'s reach counts."""
        return self.empties

    def solve(self, reach: int, tick: Callable[[int], object] | None = None,
              off: Iterable[str] = ()) -> Solution | None:
        """The exact final disc difference for the side to move and a best move
        (see :mod:`games.othello.solving`: compiled with numba when it is ready), when
        at most ``reach`` cells are empty; else ``None``.  The solve leaves the
        position untouched (it works on two ints)."""
        if self.empties > reach:
            return None
        return solve(self._own, self._opp, tick, off)

    def tactical_moves(self) -> list[int]:
        """Othello has no captures to resolve: a quiescence search stops at once."""
        return []

    def move_code(self, move: int) -> int:
        """A move is already a small int: the cell 0-63, or 64 for a pass."""
        return move

    def move_from_code(self, code: int) -> int | None:
        if code == PASS:
            return PASS if self.must_pass() else None
        if 0 <= code < 64 and self.mobility() >> code & 1:
            return code
        return None

    # ----------------------------------------------------------------- notation
    def format_move(self, move: int) -> str:
        """The cell name, e.g. ``'d3'``, or ``'pass'``."""
        return "pass" if move == PASS else CELL_NAMES[move]

    def parse_move(self, text: str) -> int:
        """Read a cell name (``'d3'``, ``' D3 '``) or ``pass`` in any case.

        Raises :class:`MoveSyntaxError` for text not in that form and
        :class:`IllegalMoveError`, saying why, for a move the rules forbid here:
        an occupied cell, a cell that brackets nothing, a pass while a placement
        exists, a placement when the side must pass, any move once the game is over.
        """
        if not isinstance(text, str):
            raise MoveSyntaxError(f"{_MOVE_HINT}, got {type(text).__name__}")
        check_length(text, MAX_MOVE_TEXT, "a move", MoveSyntaxError)
        match = _MOVE_RE.fullmatch(text.strip())
        if match is None:
            raise MoveSyntaxError(f"{_MOVE_HINT}, got {quote_input(text)}")
        mover, other = self.PLAYERS[self._turn], self.PLAYERS[self._turn ^ 1]
        moves = self.legal_moves()
        if not moves:
            black, white = self.disc_counts()
            raise IllegalMoveError(
                f"no move is legal: the game is over, neither side can place a disc (Black {black}, White {white})"
            )
        if match["pass"] is not None:
            if moves == [PASS]:
                return PASS
            raise IllegalMoveError(
                f"{mover} may not pass while a placement is legal, e.g. '{CELL_NAMES[moves[0]]}'"
            )
        name = match["cell"].lower()
        cell = CELL_OF_NAME[name]
        if moves == [PASS]:
            raise IllegalMoveError(f"{mover} has no legal placement and must pass: type 'pass'")
        if (self._own | self._opp) >> cell & 1:
            raise IllegalMoveError(
                f"{name} is occupied: place a disc on an empty cell, e.g. '{CELL_NAMES[moves[0]]}'"
            )
        if not self.mobility() >> cell & 1:
            raise IllegalMoveError(
                f"{name} turns over no disc: a placement must bracket a line of {other}'s discs "
                f"with one of {mover}'s, e.g. '{CELL_NAMES[moves[0]]}'"
            )
        return cell

    def render(self) -> str:
        """An ASCII diagram, columns a-h on top and rows 1-8 down the left::

              a b c d e f g h
            1 . . . . . . . .
            ...
            4 . . . W B . . .
            ...
            Black to move (Black 2, White 2)
        """
        black, white = self.black, self.white
        lines = ["  " + " ".join(COLUMN_LETTERS)]
        for row in range(SIZE):
            cells = []
            for col in range(SIZE):
                bit = 1 << (row * SIZE + col)
                cells.append("B" if black & bit else "W" if white & bit else ".")
            lines.append(f"{row + 1} " + " ".join(cells))
        counts = f"(Black {black.bit_count()}, White {white.bit_count()})"
        outcome = self.outcome()
        if outcome is None:
            status = f"{self.PLAYERS[self._turn]} {'must pass' if self.must_pass() else 'to move'}"
        elif outcome.winner is None:
            status = f"draw ({outcome.text})"
        else:
            status = f"{self.PLAYERS[outcome.winner]} wins ({outcome.text})"
        lines.append(f"{status} {counts}")
        return "\n".join(lines)

    # ------------------------------------------------------ evaluation/learning
    def features(self, player: int) -> list[float]:
        """The values named by :attr:`FEATURE_NAMES`, seen by ``player`` (see
        :func:`games.othello.evaluation.features`)."""
        return features(self, player)


_BLACK_WINS = Outcome(0, OthelloTermination.DISC_COUNT)
_WHITE_WINS = Outcome(1, OthelloTermination.DISC_COUNT)
_DRAW = Outcome(None, OthelloTermination.DISC_COUNT)
