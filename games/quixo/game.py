"""Quixo on a 5x5 board: positions, moves, outcomes and notation.

The board
    25 cells numbered ``row * 5 + col`` with ``(0, 0)`` the top-left corner; cell
    ``i`` is bit ``1 << i`` of a 25-bit Python int.  A position is two such
    bitboards, one for the X cubes and one for the O cubes (a cell in neither
    is blank), plus the side to move.  X is player 0 and moves first.

Moves
    A move is an ``int`` from 0 to 43 indexing :data:`MOVES`: take the border
    cube at ``(col, row)`` (blank or the mover's, never the opponent's) and push
    it back in at one ``edge`` of its row (``left``/``right``) or column
    (``top``/``bottom``), shifting the cubes in between by one; the cube
    becomes the mover's.  It never goes back in at the edge it was taken from,
    so a corner has 2 moves and any other border cube 3 (44 in all).  The
    notation is ``COL ROW EDGE``, e.g. ``0 0 bottom``.

Outcomes
    Five cubes of one symbol in a row, column or diagonal win ("five in a
    row"); a move that completes a line of the opponent's symbol loses, even if
    it completes one of the mover's as well.  Draws: the same position (board
    and side to move) for the third time ("threefold repetition"), or
    ``move_cap`` moves by each side ("move cap", 100 by default).

Heuristics
    ``longest-line`` (the seed's, :data:`Quixo.CUT_HEURISTIC`): the most cubes
    the player has in any one line minus the opponent's, ±5 for a won
    position.  ``line-potential`` (:data:`Quixo.DEFAULT_HEURISTIC`): a steep
    score per line by the cubes each side has in it, damped where the line is
    contested, plus bonuses for four-cube threats and the centre.  ``learned``
    (:data:`Quixo.STRONG_HEURISTIC`, ``pvs``'s): pattern tables over the lines
    and corners fitted to self-play searches (:mod:`games.quixo.patterns`),
    ``line-potential`` among their terms.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Callable, ClassVar, Hashable, Sequence

from ..grid import GridText
from ..base import (
    MAX_MOVE_TEXT,
    check_length,
    Game,
    GameError,
    Heuristic,
    IllegalMoveError,
    MoveSyntaxError,
    Outcome,
    Termination,
    quote_input,
)

from .moves import (
    ANTI,
    BORDER,
    BORDER_BOTTOM,
    BORDER_TOP,
    CENTRE,
    CORNERS,
    DIAG,
    EDGES,
    EDGE_WORDS,
    LINES,
    MOVES,
    MOVES_BOTTOM,
    MOVES_TOP,
    MOVE_INDEX,
    MOVE_RE,
    NO_WINNER,
    PLAY,
    QuixoMove,
    ROW_STARTS,
    SIZE,
    SYMBOLS,
    TEXT,
    bit,
    has_five,
)
from .evaluation import HEURISTICS
from .patterns import HEURISTIC_FILES, learned

__all__ = ["Quixo", "QuixoTermination"]


class QuixoTermination(StrEnum):
    """Quixo's own reasons a game ends (threefold repetition is the shared
    :class:`~games.base.Termination`'s)."""

    FIVE_IN_A_ROW = "five in a row"
    MOVE_CAP = "move cap"

#: Position texts: five rows of X, O and '.', and the side to move.
_TEXT = GridText("Quixo", SIZE, SYMBOLS, "...../...../...../...../..... X", "X..O.")


class Quixo(Game[int]):
    """A Quixo position with its history.

    >>> g = Quixo()
    >>> len(g.legal_moves())
    44
    >>> g.format_move(g.play_text("0,0 b"))
    '0 0 bottom'
    >>> g.to_text()
    '...../...../...../...../X.... O'
    """

    NAME: ClassVar[str] = "quixo"
    PLAYERS: ClassVar[tuple[str, str]] = ("X", "O")
    HEURISTICS: ClassVar[dict[str, Heuristic]] = {**HEURISTICS, "learned": learned}
    HEURISTIC_FILES: ClassVar[dict[str, Callable[[str], Heuristic]]] = HEURISTIC_FILES  # tables:FILE
    DEFAULT_HEURISTIC: ClassVar[str] = "line-potential"
    CUT_HEURISTIC: ClassVar[str] = "longest-line"
    STRONG_HEURISTIC: ClassVar[str] = "learned"
    HAND_MADE_HEURISTIC: ClassVar[str | None] = "line-potential"
    FEATURE_NAMES: ClassVar[tuple[str, ...]] = (
        "own_cubes",
        "opp_cubes",
        "own_open_2",
        "own_open_3",
        "own_open_4",
        "opp_open_2",
        "opp_open_3",
        "opp_open_4",
        "own_longest",
        "opp_longest",
        "own_centre",
        "opp_centre",
        "own_corners",
        "opp_corners",
        "own_mobility",
        "opp_mobility",
        "to_move",
        "result",
    )
    #: About a won game on the ``line-potential`` scale: beyond a four-in-a-line
    #: threat of the side to move (1024 on top of the lines' values).
    DECISIVE_SCORE: ClassVar[int] = 1500
    EXAMPLE_POSITION: ClassVar[str] = "X...O/.X.../..O../...../O...X X"
    EXAMPLE_MOVE: ClassVar[str] = "0 0 bottom"
    MOVE_NOTATION: ClassVar[str] = (
        "COL ROW EDGE: the 0-based column and row of a border cube ((0, 0) is top-left) "
        "and the edge to push it in at, top, bottom, left or right (t, b, l, r), e.g. '0 0 bottom'"
    )
    POSITION_NOTATION: ClassVar[str] = (
        "five rows of X, O or '.' from top to bottom joined by '/', a space and the side "
        "to move, e.g. '...../...../...../...../..... X'"
    )
    #: Default number of moves *by each side* after which the game is drawn.
    DEFAULT_MOVE_CAP: ClassVar[int] = 100

    __slots__ = ("_x", "_o", "_turn", "_winner", "_key", "_stack", "_seen", "move_cap")

    def __init__(self, move_cap: int | None = DEFAULT_MOVE_CAP) -> None:
        """The empty board, X to move.  ``move_cap`` moves by each side draw the game
        (``None``: no cap)."""
        if move_cap is not None and (
            isinstance(move_cap, bool) or not isinstance(move_cap, int) or move_cap < 1
        ):
            raise GameError(f"expected a move cap of at least 1 move each (or None), got {move_cap!r}")
        #: Moves by each side after which the game is drawn ("move cap"); ``None``: never.
        self.move_cap = move_cap
        self._set(0, 0, 0)

    def _set(self, x: int, o: int, turn: int) -> None:
        self._x = x
        self._o = o
        self._turn = turn
        x_five, o_five = has_five(x), has_five(o)
        if x_five and o_five:
            # Only a move completing both lines makes both: its maker lost.
            self._winner = turn
        else:
            self._winner = 0 if x_five else 1 if o_five else NO_WINNER
        self._key = x | (o << 25) | (turn << 50)
        #: Undo stack: (x, o, winner, key) before each move, and the move.
        self._stack: list[tuple[int, int, int, int, int]] = []
        #: How many times each position (key) occurred in this game's history.
        self._seen: dict[int, int] = {self._key: 1}

    # ----------------------------------------------------------------- creation
    @classmethod
    def from_text(cls, text: str, move_cap: int | None = DEFAULT_MOVE_CAP) -> Quixo:
        """Read a position such as ``'X...O/.X.../..O../...../O...X X'``.

        Surrounding whitespace and lowercase are accepted.  A board with five in
        a row is accepted as a won game; with a line of each symbol the side to
        move has won (the last mover completed both).
        """
        x, o, turn = _TEXT.read(text)
        game = cls(move_cap)
        game._set(x, o, turn)
        return game

    def to_text(self) -> str:
        """The position text, e.g. ``'X...O/.X.../..O../...../O...X X'``."""
        return _TEXT.write(self._x, self._o, self._turn)

    def copy(self) -> Quixo:
        """An independent copy with the same history (not for the search hot path)."""
        other = Quixo.__new__(type(self))
        other.move_cap = self.move_cap
        other._x, other._o, other._turn = self._x, self._o, self._turn
        other._winner, other._key = self._winner, self._key
        other._stack = self._stack.copy()
        other._seen = self._seen.copy()
        return other

    # ---------------------------------------------------------------- the board
    @property
    def x(self) -> int:
        """Bitboard of the X cubes (bit ``row * 5 + col``)."""
        return self._x

    @property
    def o(self) -> int:
        """Bitboard of the O cubes (bit ``row * 5 + col``)."""
        return self._o

    def board(self, player: int) -> int:
        """Bitboard of ``player``'s cubes."""
        return self._o if player else self._x

    def piece_at(self, col: int, row: int) -> int | None:
        """The player (0 for X, 1 for O) owning the cube at ``(col, row)``, or ``None`` if blank."""
        b = bit(col, row)
        return 0 if self._x & b else 1 if self._o & b else None

    @property
    def winner(self) -> int | None:
        """The player with five in a row on the board, if any."""
        return None if self._winner == NO_WINNER else self._winner

    # ---------------------------------------------------------------- the rules
    @property
    def turn(self) -> int:
        return self._turn

    @property
    def ply(self) -> int:
        return len(self._stack)

    @property
    def move_stack(self) -> Sequence[int]:
        return tuple([entry[4] for entry in self._stack])

    def can_stand_pat(self) -> bool:
        """No five in a row on the board."""
        return self._winner == NO_WINNER

    def move_code(self, move: int) -> int:
        """A Quixo move is already an int (its index in the move table)."""
        return move

    def move_from_code(self, code: int) -> int | None:
        return code if code in self.legal_moves() else None

    def tactical_moves(self) -> list[int]:
        """Quixo has no captures: no move is tactical."""
        return []

    def legal_moves(self) -> list[int]:
        """The legal moves (ints indexing :data:`MOVES`) in row-major order of the cube taken."""
        if self._winner != NO_WINNER:
            return []
        opp = self._x if self._turn else self._o
        return MOVES_TOP[opp & BORDER_TOP] + MOVES_BOTTOM[opp & BORDER_BOTTOM]

    def count_moves(self) -> int:
        if self._winner != NO_WINNER:
            return 0
        free = BORDER & ~(self._x if self._turn else self._o)
        # Three moves per border cube the mover may take, two for a corner.
        return 3 * free.bit_count() - (free & CORNERS).bit_count()

    def play(self, move: int) -> None:
        x, o, turn = self._x, self._o, self._turn
        self._stack.append((x, o, self._winner, self._key, move))
        keep, shifted, up, down, target = PLAY[move]
        if turn:
            x = (x & keep) | (((x & shifted) << up) >> down)
            o = (o & keep) | (((o & shifted) << up) >> down) | target
        else:
            x = (x & keep) | (((x & shifted) << up) >> down) | target
            o = (o & keep) | (((o & shifted) << up) >> down)
        x_five = (
            (x & (x >> 1) & (x >> 2) & (x >> 3) & (x >> 4) & ROW_STARTS)
            or (x & (x >> 5) & (x >> 10) & (x >> 15) & (x >> 20))
            or (x & DIAG) == DIAG
            or (x & ANTI) == ANTI
        )
        o_five = (
            (o & (o >> 1) & (o >> 2) & (o >> 3) & (o >> 4) & ROW_STARTS)
            or (o & (o >> 5) & (o >> 10) & (o >> 15) & (o >> 20))
            or (o & DIAG) == DIAG
            or (o & ANTI) == ANTI
        )
        if turn:
            winner = 0 if x_five else 1 if o_five else NO_WINNER
        else:
            winner = 1 if o_five else 0 if x_five else NO_WINNER
        turn ^= 1
        key = x | (o << 25) | (turn << 50)
        self._x, self._o, self._turn, self._winner, self._key = x, o, turn, winner, key
        seen = self._seen
        seen[key] = seen.get(key, 0) + 1

    def undo(self) -> int:
        x, o, winner, previous, move = self._stack.pop()  # IndexError when nothing was played
        seen, key = self._seen, self._key
        count = seen[key]
        if count == 1:
            del seen[key]
        else:
            seen[key] = count - 1
        self._x, self._o, self._winner, self._key = x, o, winner, previous
        self._turn ^= 1
        return move

    def outcome(self) -> Outcome | None:
        """Five in a row first; then threefold repetition; then the move cap."""
        if self._winner != NO_WINNER:
            return _WINS[self._winner]
        if self._seen[self._key] >= 3:
            return _REPETITION
        cap = self.move_cap
        if cap is not None and len(self._stack) >= 2 * cap:
            return _MOVE_CAP
        return None

    def key(self) -> Hashable:
        """One int: X bits 0-24, O bits 25-49, side to move bit 50."""
        return self._key

    def repetitions(self) -> int:
        """How many times the current position has occurred in this game (at least 1)."""
        return self._seen[self._key]

    # ----------------------------------------------------------------- notation
    @staticmethod
    def move_parts(move: int) -> QuixoMove:
        """The table entry of ``move``: ``col``, ``row``, ``edge``, the cells it touches."""
        return MOVES[move]

    @staticmethod
    def move_for(col: int, row: int, edge: str) -> int | None:
        """The move taking the cube at ``(col, row)`` in at ``edge``, or ``None`` if no such move
        exists on any board (an inner cube, or back where it came from)."""
        return MOVE_INDEX.get((col, row, edge))

    def format_move(self, move: int) -> str:
        """``COL ROW EDGE`` with the full edge word, e.g. ``'0 0 bottom'``."""
        return TEXT[move]

    def parse_move(self, text: str) -> int:
        """Read ``COL ROW EDGE``, e.g. ``'0 0 bottom'``, ``'0,4 r'``, ``'(4, 2) TOP'``.

        EDGE is any prefix of ``top``, ``bottom``, ``left``, ``right`` in any case.
        Raises :class:`MoveSyntaxError` for text not in that form and
        :class:`IllegalMoveError`, saying why, for a move the rules forbid here.
        Like :meth:`legal_moves`, it ignores draws by rule (repetition, move cap).
        """
        if not isinstance(text, str):
            raise MoveSyntaxError(f"expected 'COL ROW EDGE' like '0 0 bottom', got {type(text).__name__}")
        check_length(text, MAX_MOVE_TEXT, "a move", MoveSyntaxError)
        match = MOVE_RE.fullmatch(text.strip())
        if match is None:
            raise MoveSyntaxError(
                "expected 'COL ROW EDGE' like '0 0 bottom' (COL and ROW 0 to 4; EDGE top, bottom, "
                f"left or right, or t, b, l, r), got {quote_input(text)}"
            )
        col_text = match["col"] or match["pc"]
        row_text = match["row"] or match["pr"]
        edge = EDGE_WORDS.get(match["edge"].lower())
        if edge is None:
            raise MoveSyntaxError(
                f"expected the edge top, bottom, left or right (or t, b, l, r) like '0 0 bottom', "
                f"got {quote_input(match['edge'])}"
            )
        if len(col_text) > 2 or len(row_text) > 2 or int(col_text) >= SIZE or int(row_text) >= SIZE:
            raise MoveSyntaxError(
                "expected COL and ROW from 0 to 4 like '0 0 bottom', "
                f"got {quote_input(col_text)} and {quote_input(row_text)}"
            )
        col, row = int(col_text), int(row_text)
        cell = f"{col} {row}"
        mover, other = self.PLAYERS[self._turn], self.PLAYERS[self._turn ^ 1]
        if self._winner != NO_WINNER:
            raise IllegalMoveError(
                f"no move is legal: the game is over, {self.PLAYERS[self._winner]} has five in a row"
            )
        if not (col in (0, 4) or row in (0, 4)):
            raise IllegalMoveError(
                f"the cube at {cell} is not on the border: take one from the outer ring "
                f"(COL or ROW 0 or 4), e.g. '{TEXT[self.legal_moves()[0]]}'"
            )
        if (self._o if self._turn == 0 else self._x) & bit(col, row):
            example = self.legal_moves()
            hint = f", e.g. '{TEXT[example[0]]}'" if example else ""
            raise IllegalMoveError(
                f"the cube at {cell} is {other}'s: {mover} may take only a blank cube or one of its own{hint}"
            )
        move = MOVE_INDEX.get((col, row, edge))
        if move is None:
            others = [e for e in EDGES if (col, row, e) in MOVE_INDEX]
            raise IllegalMoveError(
                f"the cube at {cell} comes from the {edge} edge and cannot be pushed back in there; "
                f"push it in at {', '.join(others[:-1])} or {others[-1]}, e.g. '{cell} {others[0]}'"
            )
        return move

    def render(self) -> str:
        """An ASCII diagram, column numbers on top and row numbers on the left::

                0 1 2 3 4
              0 X . . . O
              ...
              X to move
        """
        text = self.to_text()
        lines = ["  " + " ".join(str(c) for c in range(SIZE))]
        for row, cells in enumerate(text[:-2].split("/")):
            lines.append(f"{row} " + " ".join(cells))
        outcome = self.outcome()
        if outcome is None:
            lines.append(f"{self.PLAYERS[self._turn]} to move")
        elif outcome.winner is None:
            lines.append(f"draw ({outcome.text})")
        else:
            lines.append(f"{self.PLAYERS[outcome.winner]} wins ({outcome.text})")
        return "\n".join(lines)

    # ------------------------------------------------------ evaluation/learning
    def features(self, player: int) -> list[float]:
        """The position seen by ``player``; names in :attr:`FEATURE_NAMES`.

        ``own_open_k``/``opp_open_k``: lines holding exactly k of that side's cubes
        and none of the other's.  ``own_longest``: the seed's longest line (most
        cubes in one line).  ``own_mobility``: the moves that side would have if
        it were to move.  ``to_move``: 1 if ``player`` moves next.  ``result``:
        1/-1 if ``player`` has won/lost on the board, else 0.
        """
        own, opp = (self._o, self._x) if player else (self._x, self._o)
        own_open = [0] * 6
        opp_open = [0] * 6
        own_longest = opp_longest = 0
        for line in LINES:
            a, b = (own & line).bit_count(), (opp & line).bit_count()
            if a > own_longest:
                own_longest = a
            if b > opp_longest:
                opp_longest = b
            if not b:
                own_open[a] += 1
            if not a:
                opp_open[b] += 1
        own_free, opp_free = BORDER & ~opp, BORDER & ~own
        winner = self._winner
        return [
            float(own.bit_count()),
            float(opp.bit_count()),
            float(own_open[2]),
            float(own_open[3]),
            float(own_open[4]),
            float(opp_open[2]),
            float(opp_open[3]),
            float(opp_open[4]),
            float(own_longest),
            float(opp_longest),
            float(bool(own & CENTRE)),
            float(bool(opp & CENTRE)),
            float((own & CORNERS).bit_count()),
            float((opp & CORNERS).bit_count()),
            float(3 * own_free.bit_count() - (own_free & CORNERS).bit_count()),
            float(3 * opp_free.bit_count() - (opp_free & CORNERS).bit_count()),
            float(self._turn == player),
            0.0 if winner == NO_WINNER else 1.0 if winner == player else -1.0,
        ]


_WINS = (Outcome(0, QuixoTermination.FIVE_IN_A_ROW), Outcome(1, QuixoTermination.FIVE_IN_A_ROW))
_REPETITION = Outcome(None, Termination.THREEFOLD_REPETITION)
_MOVE_CAP = Outcome(None, QuixoTermination.MOVE_CAP)


