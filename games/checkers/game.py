"""English checkers (8x8 American draughts) on Python-int bitboards.

The board
=========

The 32 dark squares carry the standard PDN numbers 1-32.  Square 1 is b8, the
top-left dark square of the top row; row 0 (rank 8) holds 1-4 on b, d, f, h,
row 1 (rank 7) holds 5-8 on a, c, e, g, and so on down to 29 (a1) ... 32 (g1)::

      a  b  c  d  e  f  g  h
   8     1     2     3     4
   7  5     6     7     8
   6     9    10    11    12
   5 13    14    15    16
   4    17    18    19    20
   3 21    22    23    24
   2    25    26    27    28
   1 29    30    31    32

Black (player 0) starts on 1-12, moves first and moves *down* the board,
towards higher numbers; White (player 1) starts on 21-32 and moves up.  A
position is three 32-bit masks (bit ``s - 1`` stands for square ``s``): the
black pieces, the white pieces and the kings of either colour, plus the side
to move.

Moves
=====

A move is a tuple ``(path, captured)``:

* ``path`` -- the tuple of PDN squares the piece visits, from its start to
  where it stops: ``(11, 15)`` for a step, ``(15, 24, 31)`` for a double jump;
* ``captured`` -- the mask of the squares of the pieces it takes (``0`` for a
  step), so ``move[1] != 0`` tells a capture.

Moves are plain tuples, hashable and cheap; simple steps are built once, shared.

Rules: capture is compulsory, but any capture will do (not necessarily the
longest); a jump sequence must be completed; men step and jump forward only;
kings step one square in any diagonal direction and jump both ways; a man that
reaches the far row is crowned and its move ends there even if it could jump on
as a king.  During a multi-jump the pieces taken stay on the board until the
move ends: they cannot be jumped a second time.  The moving piece's own start
square counts as empty (a king may come back to it).

*Which sequences are distinct moves.*  Two jump sequences of the same piece
that end on the same square having taken the same set of pieces are one move
(only a king can do that, going round a ring of pieces either way); the first
path found is kept.  Sequences that take different pieces are different
moves, even with the same start and end.  This is the usual convention of
checkers perft programs and gives the standard numbers 7, 49, 302, 1469, 7361,
36768, 179740, 845931.

The game is lost by the side to move when it has no pieces (``"no pieces"``)
or no legal move (``"no moves"``); these take precedence over the draws:
threefold repetition of the same board with the same side to move
(``"threefold repetition"``) and 40 moves by each side -- 80 plies -- without
a capture or a man move (``"40-move rule"``).

Notation
========

Moves: ``11-15`` for a step, ``15x24`` for a capture, ``15x24x31`` for a
multi-jump with every landing square (what :meth:`Checkers.format_move`
writes).  :meth:`Checkers.parse_move` is lenient where that is unambiguous:
spaces around separators, ``X`` or ``x``, ``-`` typed for a capture
(``15-24``) and ``x`` for a step (the squares decide), a king's ring of
captures typed the other way round, and a capture given by some of its
landing squares, at least the first and the last (``15x31`` for
``15x24x31``); an ambiguous short form is refused with the candidates listed.

Positions: PDN FEN ``B:W21,...,32:B1,...,12`` -- the side to move, then the
two colours' squares in either order, kings prefixed ``K``.  Reading accepts
ranges (``B1-12``), lowercase, spaces and a trailing ``.``; writing gives the
canonical form (White list first, ascending squares, no ranges).
"""

from __future__ import annotations

import re
from typing import Callable, ClassVar, Sequence

from ..base import (
    MAX_POSITION_TEXT,
    check_length,
    EndgameTables,
    Game,
    Heuristic,
    Outcome,
    PositionError,
    Termination,
    quote_input,
)

from . import endgame
from .outcomes import CheckersTermination
from .bitboards import (
    BIT, BLACK, CROWN, DL3, DL4, DOWN4, DR4, DR5, FULL, JUMPS, KING_JUMPS, KING_STEPS, Move, SQUARES,
    START_BLACK, START_WHITE, STEPS, UL4, UL5, UP4, UR3, UR4, WHITE, jump_moves, man_jump_count, square_at,
)
from .evaluation import HEURISTICS, features
from .patterns import HEURISTIC_FILES
from .notation import parse_move

__all__ = ["Checkers"]

_ITEM_RE = re.compile(r"(K?)([0-9]{1,3})(?:\s*-\s*([0-9]{1,3}))?", re.IGNORECASE)
_POSITION_HINT = "expected a PDN FEN like 'B:W21-32:B1-12' or 'W:WK10,24:B5,K14'"


# ------------------------------------------------------------------ the game
class Checkers(Game[Move]):
    """A position of English checkers with its history.

    >>> game = Checkers()
    >>> game.legal_move_texts()
    ['9-13', '9-14', '10-14', '10-15', '11-15', '11-16', '12-16']
    >>> game.play_text("11-15")
    ((11, 15), 0)
    >>> game.turn, game.legal_move_texts()[:3]
    (1, ['21-17', '22-17', '22-18'])
    """

    NAME: ClassVar[str] = "checkers"
    PLAYERS: ClassVar[tuple[str, str]] = ("Black", "White")
    HEURISTICS: ClassVar[dict[str, Heuristic]] = HEURISTICS
    HEURISTIC_FILES: ClassVar[dict[str, Callable[[str], Heuristic]]] = HEURISTIC_FILES  # tables:FILE
    DEFAULT_HEURISTIC: ClassVar[str] = "positional"
    CUT_HEURISTIC: ClassVar[str] = "material"
    STRONG_HEURISTIC: ClassVar[str] = "positional"
    FEATURE_NAMES: ClassVar[tuple[str, ...]] = (
        "men", "opp_men", "kings", "opp_kings", "back_rank", "opp_back_rank", "centre", "opp_centre",
        "advancement", "opp_advancement", "mobility", "opp_mobility", "captures", "opp_captures",
        "edge", "opp_edge", "to_move",
    )
    #: About a won game on the ``positional`` scale (a man is 100): every piece of one side.
    DECISIVE_SCORE: ClassVar[int] = 1200
    EXAMPLE_POSITION: ClassVar[str] = "W:WK10,24:B5,K14"
    EXAMPLE_MOVE: ClassVar[str] = "11-15"
    MOVE_NOTATION: ClassVar[str] = (
        "PDN squares 1-32: '11-15' for a step, '15x24' or '15x24x31' for captures "
        "('15x31' is enough when unambiguous)"
    )
    POSITION_NOTATION: ClassVar[str] = (
        "PDN FEN: side to move, then each colour's squares, kings prefixed K, "
        "ranges allowed, e.g. 'B:W21-32:B1-12' or 'W:WK10,24:B5,K14'"
    )

    __slots__ = ("_black", "_white", "_kings", "_turn", "_quiet", "_key", "_counts", "_stack", "_moves")

    def __init__(self) -> None:
        self._reset(START_BLACK, START_WHITE, 0, BLACK)

    def _reset(self, black: int, white: int, kings: int, turn: int) -> None:
        self._black = black
        self._white = white
        self._kings = kings
        self._turn = turn
        #: Plies since the last capture or man move (the 40-move rule).
        self._quiet = 0
        self._key = self._make_key()
        #: How many times each key occurred in the history (threefold repetition).
        self._counts: dict[int, int] = {self._key: 1}
        #: Undo records: ``(black, white, kings, quiet, key)`` before each move.
        self._stack: list[tuple[int, int, int, int, int]] = []
        self._moves: list[Move] = []

    def _make_key(self) -> int:
        return ((self._black << 32 | self._white) << 32 | self._kings) << 1 | self._turn

    # ------------------------------------------------------------- creation
    @classmethod
    def from_text(cls, text: str) -> "Checkers":
        """Read a PDN FEN such as ``B:W21-32:B1-12`` or ``W:WK10,24:B5,K14``."""
        if not isinstance(text, str):
            raise PositionError(f"{_POSITION_HINT}, got {type(text).__name__}")
        check_length(text, MAX_POSITION_TEXT, "a position", PositionError)
        body = text.strip()
        if body.endswith("."):
            body = body[:-1].rstrip()
        parts = [p.strip() for p in body.split(":")]
        if len(parts) != 3 or parts[0].upper() not in ("B", "W"):
            raise PositionError(f"{_POSITION_HINT}, got {quote_input(text)}")
        turn = BLACK if parts[0].upper() == "B" else WHITE
        masks: dict[str, int | None] = {"B": None, "W": None}
        kings = 0
        for part in parts[1:]:
            colour = part[:1].upper()
            if colour not in masks:
                raise PositionError(
                    f"each piece list starts with its colour B or W, got {quote_input(part)}; {_POSITION_HINT}"
                )
            if masks[colour] is not None:
                raise PositionError(f"colour {colour} is listed twice; {_POSITION_HINT}")
            pieces = 0
            for item in part[1:].split(","):
                item = item.strip()
                if not item:
                    continue
                match = _ITEM_RE.fullmatch(item)
                if not match:
                    raise PositionError(
                        f"expected squares like '5', 'K14' or '1-12' in the {colour} list, "
                        f"got {quote_input(item)}; {_POSITION_HINT}"
                    )
                is_king, first, last = match.group(1), int(match.group(2)), match.group(3)
                last = first if last is None else int(last)
                for s in (first, last):
                    if not 1 <= s <= 32:
                        raise PositionError(f"square {s} is off the board: squares are numbered 1-32 (e.g. 'B:W21-32:B1-12')")
                if first > last:
                    raise PositionError(f"range {first}-{last} runs backwards: write it as {last}-{first}")
                for s in range(first, last + 1):
                    bit = BIT[s]
                    if bit & pieces:
                        raise PositionError(f"square {s} is listed twice in the {colour} list")
                    pieces |= bit
                    if is_king:
                        kings |= bit
            masks[colour] = pieces
        black, white = masks["B"] or 0, masks["W"] or 0  # both set: two lists, neither twice
        if not black | white:
            raise PositionError("the board is empty: give some pieces, e.g. 'B:W21-32:B1-12'")
        if black & white:
            s = (black & white & -(black & white)).bit_length()
            raise PositionError(f"square {s} holds both a black and a white piece")
        crowned = black & ~kings & CROWN[BLACK]
        if crowned:
            s = (crowned & -crowned).bit_length()
            raise PositionError(f"a black man cannot stand on square {s} (row 29-32 crowns it): write K{s} for a king")
        crowned = white & ~kings & CROWN[WHITE]
        if crowned:
            s = (crowned & -crowned).bit_length()
            raise PositionError(f"a white man cannot stand on square {s} (row 1-4 crowns it): write K{s} for a king")
        game = cls.__new__(cls)
        game._reset(black, white, kings, turn)
        return game

    def to_text(self) -> str:
        """The canonical PDN FEN: side to move, White's squares, Black's squares, ascending."""
        return "{}:W{}:B{}".format(
            "BW"[self._turn], self._list(self._white), self._list(self._black)
        )

    def _list(self, pieces: int) -> str:
        kings = self._kings
        return ",".join(
            ("K" if kings & BIT[s] else "") + str(s) for s in SQUARES if pieces & BIT[s]
        )

    def copy(self) -> "Checkers":
        twin = Checkers.__new__(type(self))
        twin._black, twin._white, twin._kings = self._black, self._white, self._kings
        twin._turn, twin._quiet, twin._key = self._turn, self._quiet, self._key
        twin._counts = dict(self._counts)
        twin._stack = list(self._stack)
        twin._moves = list(self._moves)
        return twin

    # -------------------------------------------------------------- the rules
    @property
    def black(self) -> int:
        """Bitboard of Black's pieces (bit ``s - 1`` for PDN square ``s``)."""
        return self._black

    @property
    def white(self) -> int:
        """Bitboard of White's pieces."""
        return self._white

    @property
    def kings(self) -> int:
        """Bitboard of the kings of both sides."""
        return self._kings

    @property
    def turn(self) -> int:
        return self._turn

    @property
    def ply(self) -> int:
        return len(self._moves)

    @property
    def move_stack(self) -> Sequence[Move]:
        return tuple(self._moves)

    @property
    def quiet_plies(self) -> int:
        """Plies since the last capture or man move (80 draws by the 40-move rule)."""
        return self._quiet

    def repetitions(self) -> int:
        """How many times the current position (board and side to move) has occurred."""
        return self._counts[self._key]

    def piece_at(self, square: int) -> str | None:
        """``'b'``/``'B'`` for a black man/king, ``'w'``/``'W'`` for white, ``None`` if empty."""
        bit = BIT[square]
        if self._black & bit:
            return "B" if self._kings & bit else "b"
        if self._white & bit:
            return "W" if self._kings & bit else "w"
        return None

    def _jumpers(self, own: int, opp: int, empty: int) -> int:
        """The pieces of ``own`` (the side to move) that can capture."""
        kings = self._kings
        if self._turn == BLACK:
            down, up = own, own & kings
        else:
            down, up = own & kings, own
        # A piece jumps down-left if its down-left neighbour is an enemy whose
        # down-left neighbour is empty: walk back from the empty squares.
        jumpers = 0
        if down:
            t = ((empty & UR4) >> 4 | (empty & UR3) >> 3) & opp
            u = ((empty & UL4) >> 4 | (empty & UL5) >> 5) & opp
            jumpers = (
                (t & UR4) >> 4 | (t & UR3) >> 3 | (u & UL4) >> 4 | (u & UL5) >> 5
            ) & down
        if up:
            t = ((empty & DR4) << 4 | (empty & DR5) << 5) & opp
            u = ((empty & DL4) << 4 | (empty & DL3) << 3) & opp
            jumpers |= (
                (t & DR4) << 4 | (t & DR5) << 5 | (u & DL4) << 4 | (u & DL3) << 3
            ) & up
        return jumpers

    def legal_moves(self) -> list[Move]:
        """Captures if any (compulsory), else steps.

        Ordered by start square, then steps by target square and captures in
        search order (up-left, up-right, down-left, down-right first hop).
        """
        turn, kings = self._turn, self._kings
        if turn == BLACK:
            own, opp = self._black, self._white
        else:
            own, opp = self._white, self._black
        occupied = own | opp
        empty = FULL ^ occupied
        jumpers = self._jumpers(own, opp, empty)
        moves: list[Move] = []
        if jumpers:
            crown = CROWN[turn]
            man_jumps = JUMPS[turn]
            while jumpers:
                low = jumpers & -jumpers
                jumpers ^= low
                if low & kings:
                    jump_moves(low.bit_length(), True, opp, occupied ^ low, KING_JUMPS, crown, moves)
                else:
                    jump_moves(low.bit_length(), False, opp, occupied ^ low, man_jumps, crown, moves)
            return moves
        append = moves.append
        man_steps = STEPS[turn]
        while own:
            low = own & -own
            own ^= low
            for target, move in (KING_STEPS if low & kings else man_steps)[low.bit_length()]:
                if target & empty:
                    append(move)
        return moves

    def count_moves(self) -> int:
        """The number of legal moves, counted with shifts and popcounts (steps) or a
        move-free search (men's jumps), without building them."""
        turn, kings = self._turn, self._kings
        if turn == BLACK:
            own, opp = self._black, self._white
            down, up = own, own & kings
        else:
            own, opp = self._white, self._black
            down, up = own & kings, own
        occupied = own | opp
        empty = FULL ^ occupied
        # self._jumpers(own, opp, empty), inlined: this is the bulk-counting hot path
        jumpers = 0
        if down:
            t = ((empty & UR4) >> 4 | (empty & UR3) >> 3) & opp
            u = ((empty & UL4) >> 4 | (empty & UL5) >> 5) & opp
            jumpers = ((t & UR4) >> 4 | (t & UR3) >> 3 | (u & UL4) >> 4 | (u & UL5) >> 5) & down
        if up:
            t = ((empty & DR4) << 4 | (empty & DR5) << 5) & opp
            u = ((empty & DL4) << 4 | (empty & DL3) << 3) & opp
            jumpers |= ((t & DR4) << 4 | (t & DR5) << 5 | (u & DL4) << 4 | (u & DL3) << 3) & up
        if jumpers:
            crown = CROWN[turn]
            man_jumps = JUMPS[turn]
            total = 0
            while jumpers:
                low = jumpers & -jumpers
                jumpers ^= low
                if low & kings:
                    found: list[Move] = []
                    jump_moves(low.bit_length(), True, opp, occupied ^ low, KING_JUMPS, crown, found)
                    total += len(found)
                else:
                    total += man_jump_count(low.bit_length(), opp, occupied, man_jumps, crown)
            return total
        total = 0
        if down:
            total = (((down & DL4) << 4 | (down & DL3) << 3) & empty).bit_count() + (
                ((down & DR4) << 4 | (down & DR5) << 5) & empty
            ).bit_count()
        if up:
            total += (((up & UL4) >> 4 | (up & UL5) >> 5) & empty).bit_count() + (
                ((up & UR4) >> 4 | (up & UR3) >> 3) & empty
            ).bit_count()
        return total

    def _has_moves(self) -> bool:
        """Whether the side to move has any legal move (cheap, by shifts)."""
        kings = self._kings
        if self._turn == BLACK:
            own, opp = self._black, self._white
            down, up = own, own & kings
        else:
            own, opp = self._white, self._black
            down, up = own & kings, own
        empty = FULL ^ (own | opp)
        if down and ((down & DOWN4) << 4 | (down & DL3) << 3 | (down & DR5) << 5) & empty:
            return True
        if up and ((up & UP4) >> 4 | (up & UL5) >> 5 | (up & UR3) >> 3) & empty:
            return True
        return bool(self._jumpers(own, opp, empty))

    def play(self, move: Move) -> None:
        """Play ``move`` (from :meth:`legal_moves`; not checked): the piece moves,
        the pieces taken go, a man reaching the far row is crowned."""
        path, captured = move
        start, end = BIT[path[0]], BIT[path[-1]]
        black, white, kings = self._black, self._white, self._kings
        self._stack.append((black, white, kings, self._quiet, self._key))
        self._moves.append(move)
        turn = self._turn
        if start & kings:
            kings = (kings & ~start) | end
            quiet = 0 if captured else self._quiet + 1
        else:
            quiet = 0
            if end & CROWN[turn]:
                kings |= end
        if turn == BLACK:
            black = (black & ~start) | end
            if captured:
                white &= ~captured
                kings &= ~captured
        else:
            white = (white & ~start) | end
            if captured:
                black &= ~captured
                kings &= ~captured
        self._black, self._white, self._kings = black, white, kings
        self._turn = turn ^ 1
        self._quiet = quiet
        key = ((black << 32 | white) << 32 | kings) << 1 | (turn ^ 1)
        self._key = key
        counts = self._counts
        counts[key] = counts.get(key, 0) + 1

    def undo(self) -> Move:
        """Take back the last move and return it (``IndexError`` if there is none)."""
        if not self._stack:
            raise IndexError("undo: no move to take back")
        counts, key = self._counts, self._key
        left = counts[key] - 1
        if left:
            counts[key] = left
        else:
            del counts[key]
        self._black, self._white, self._kings, self._quiet, self._key = self._stack.pop()
        self._turn ^= 1
        return self._moves.pop()

    def outcome(self) -> Outcome | None:
        """Loss for the side to move with no pieces or no moves; else the draws by rule."""
        turn = self._turn
        if not (self._white if turn else self._black):
            return Outcome(turn ^ 1, CheckersTermination.NO_PIECES)
        if not self._has_moves():
            return Outcome(turn ^ 1, CheckersTermination.NO_MOVES)
        if self._counts[self._key] >= 3:
            return Outcome(None, Termination.THREEFOLD_REPETITION)
        if self._quiet >= 80:
            return Outcome(None, CheckersTermination.FORTY_MOVE_RULE)
        return None

    def key(self) -> int:
        """The board and the side to move packed into one int (exact, no collisions)."""
        return self._key

    def is_capture(self, move: Move) -> bool:
        """Whether ``move`` takes pieces (``move[1]``, the mask taken, is not 0)."""
        return move[1] != 0

    def is_irreversible(self, move: Move) -> bool:
        """A capture, or a man's step (men never step back)."""
        return move[1] != 0 or not BIT[move[0][0]] & self._kings

    def capture_score(self, move: Move) -> int:
        """Pieces taken, kings counting double (0 for a step)."""
        captured = move[1]
        if not captured:
            return 0
        return captured.bit_count() + (captured & self._kings).bit_count()

    def can_stand_pat(self) -> bool:
        """No jump pending (jumps are compulsory) and the game not lost on the board."""
        if self._turn == BLACK:
            own, opp = self._black, self._white
        else:
            own, opp = self._white, self._black
        if not own or self._jumpers(own, opp, FULL ^ (own | opp)):
            return False
        return self._has_moves()

    def tactical_moves(self) -> list[Move]:
        """The jumps, if any."""
        moves = self.legal_moves()
        return moves if moves and moves[0][1] else []

    def move_code(self, move: Move) -> int:
        """The squares visited as digits base 33 (a landing square fixes what a
        jump takes); -1 for a jump of more than nine hops, which does not fit."""
        path = move[0]
        if len(path) > 10:
            return -1
        code = 0
        for square in reversed(path):
            code = code * 33 + square
        return code

    def move_from_code(self, code: int) -> Move | None:
        path = []
        while code > 0:
            code, square = divmod(code, 33)
            path.append(square)
        squares = tuple(path)
        return next((move for move in self.legal_moves() if move[0] == squares), None)

    # ------------------------------------------------------------- notation
    def format_move(self, move: Move) -> str:
        """``11-15`` for a step, ``15x24x31`` for a capture (every landing square)."""
        return ("x" if move[1] else "-").join(map(str, move[0]))

    def parse_move(self, text: str) -> Move:
        """A move typed as ``11-15``, ``15x24``, ``15x24x31`` or short ``15x31`` (see
        :func:`games.checkers.notation.parse_move`)."""
        return parse_move(self, text)

    # ------------------------------------------------------------ endgames
    @classmethod
    def open_tables(cls, path: str) -> EndgameTables:
        """The endgame database in the folder ``path`` (see :mod:`games.checkers.endgame`)."""
        return endgame.open_tables(path)

    @classmethod
    def default_tables(cls) -> EndgameTables | None:
        """The endgame database the user built into the data directory, if any."""
        return endgame.default_tables()

    # ------------------------------------------------------ evaluation/learning
    def features(self, player: int) -> list[float]:
        """The values named by :attr:`FEATURE_NAMES`, seen by ``player`` (see
        :func:`games.checkers.evaluation.features`)."""
        return features(self, player)

    # ---------------------------------------------------------------- display
    def render(self) -> str:
        """An ASCII diagram: ``b``/``B`` black man/king, ``w``/``W`` white, numbers on
        empty dark squares, files and ranks around, and the side to move."""
        lines = ["     a  b  c  d  e  f  g  h"]
        for row in range(8):
            cells = []
            for col in range(8):
                s = square_at(row, col)
                if not s:
                    cells.append("   ")
                else:
                    piece = self.piece_at(s)
                    cells.append(f"  {piece}" if piece else f"{s:3d}")
            lines.append(f" {8 - row} {''.join(cells)}   {8 - row}")
        lines.append("     a  b  c  d  e  f  g  h")
        lines.append(f"{self.PLAYERS[self._turn]} to move   (b/B black man/king, w/W white man/king)")
        return "\n".join(lines)
