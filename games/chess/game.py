"""Chess on top of python-chess.

:class:`ChessGame` wraps one :class:`chess.Board`, a
:class:`~games.chess.fastboard.FastBoard` unless given another: python-chess's
board with a lean make/undo that also keeps the incremental evaluations
(:mod:`games.chess.accumulator`).  Moves are :class:`chess.Move` values;
:meth:`ChessGame.play` is ``board.push`` and :meth:`ChessGame.undo` is
``board.pop`` -- bound straight onto the instance, so search and perft pay no
extra Python frame for them.  The same goes for :meth:`ChessGame.count_moves`,
:meth:`ChessGame.legal_moves` (the board's ``legal_move_list``),
:meth:`ChessGame.is_capture` and :meth:`ChessGame.in_check`.  A game made on a
plain ``chess.Board`` plays with python-chess's own push, pop and move
generator: the reference the tests hold the fast board to.

Notation: positions are FEN; moves are typed in SAN (``e4``,
``Nf3``, ``O-O``, ``exd8=Q``; also ``0-0``, trailing ``+``/``#`` and annotation
marks such as ``!?``) or UCI (``e2e4``, ``e7e8q``) and formatted in SAN.

Outcomes use python-chess's rules.  With :attr:`ChessGame.claim_draws` on (the
default, for engine games) a position where threefold repetition or the
fifty-move rule *has occurred on the board* is a finished draw; a draw that
could only be claimed by announcing the next move (python-chess's
``can_claim_*`` also accept those) is not, since the side to move may prefer
another move.  See :meth:`ChessGame.outcome`.

Heuristics, all in integer centipawn-like units (a pawn is about 100), scored
from White's side and negated for Black, so ``h(g, 0) == -h(g, 1)`` exactly:

``material``
    The seed's Material Advantage: P 1, N 3, B 3, R 5, Q 9, K 20, times 100.
``sef``
    The seed's Simplified Evaluation Function: material, pawn structure,
    centre, mobility and king safety weighted by game phase (see :func:`sef`).
``soft``
    The cheap cut heuristic (seeds' ``SoftBoardEvaluationChessGame``): material,
    piece-square tables, centre control, king safety.
``hard``
    ``soft`` plus mobility and pawn structure (``HardBoardEvaluationChessGame``).
``pesto``
    A tapered PeSTO evaluation (material and midgame/endgame piece-square
    tables), the strongest static evaluation here.

The heuristics and the feature vector live in :mod:`games.chess.evaluation`,
move reading in :mod:`games.chess.notation`, and perft's bulk move count
(:meth:`ChessGame.count_moves`, from bitboards) in :mod:`games.chess.bitboards`.
Only python-chess's public API is used.
"""

from __future__ import annotations

import functools
import re
from enum import StrEnum
from typing import Any, Callable, ClassVar, Hashable, Sequence

import chess

from ..base import (
    MAX_POSITION_TEXT,
    EndgameTables,
    Game,
    Heuristic,
    Outcome,
    PositionError,
    Termination,
    check_length,
    quote_input,
)
from .fastboard import FastBoard
from .openings import opening_of
from .bitboards import BLACK_PLAYER, WHITE_PLAYER, count_legal_moves
from .evaluation import HEURISTIC_FILES, HEURISTICS, features
from .notation import MoveReading
from .syzygy import open_syzygy

__all__ = ["ChessGame", "ChessTermination", "START_FEN", "TERMINATION_REASONS"]

#: The standard start position.
START_FEN = chess.STARTING_FEN

# ---------------------------------------------------------------------------
# Outcomes (pre-built: outcome() is called at every search node)
# ---------------------------------------------------------------------------

class ChessTermination(StrEnum):
    """Chess's own reasons a game ends (threefold repetition is the shared
    :class:`~games.base.Termination`'s)."""

    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    INSUFFICIENT_MATERIAL = "insufficient material"
    SEVENTYFIVE_MOVES = "seventy-five-move rule"
    FIVEFOLD_REPETITION = "fivefold repetition"
    FIFTY_MOVES = "fifty-move rule"


#: Checkmate outcome by the colour that is mated (python-chess colour: True = White).
_MATED = {chess.WHITE: Outcome(BLACK_PLAYER, ChessTermination.CHECKMATE),
          chess.BLACK: Outcome(WHITE_PLAYER, ChessTermination.CHECKMATE)}
_STALEMATE = Outcome(None, ChessTermination.STALEMATE)
_INSUFFICIENT = Outcome(None, ChessTermination.INSUFFICIENT_MATERIAL)
_SEVENTY_FIVE = Outcome(None, ChessTermination.SEVENTYFIVE_MOVES)
_FIVEFOLD = Outcome(None, ChessTermination.FIVEFOLD_REPETITION)
_FIFTY = Outcome(None, ChessTermination.FIFTY_MOVES)
_THREEFOLD = Outcome(None, Termination.THREEFOLD_REPETITION)

#: python-chess terminations as ours (used to convert chess.Outcome).
TERMINATION_REASONS: dict[chess.Termination, StrEnum] = {
    chess.Termination.CHECKMATE: ChessTermination.CHECKMATE,
    chess.Termination.STALEMATE: ChessTermination.STALEMATE,
    chess.Termination.INSUFFICIENT_MATERIAL: ChessTermination.INSUFFICIENT_MATERIAL,
    chess.Termination.SEVENTYFIVE_MOVES: ChessTermination.SEVENTYFIVE_MOVES,
    chess.Termination.FIVEFOLD_REPETITION: ChessTermination.FIVEFOLD_REPETITION,
    chess.Termination.FIFTY_MOVES: ChessTermination.FIFTY_MOVES,
    chess.Termination.THREEFOLD_REPETITION: Termination.THREEFOLD_REPETITION,
}


_STATUS_WORDS: tuple[tuple[chess.Status, str], ...] = (
    (chess.STATUS_EMPTY, "the board is empty"),
    (chess.STATUS_NO_WHITE_KING, "White has no king"),
    (chess.STATUS_NO_BLACK_KING, "Black has no king"),
    (chess.STATUS_TOO_MANY_KINGS, "a side has more than one king"),
    (chess.STATUS_TOO_MANY_WHITE_PAWNS, "White has more than 8 pawns"),
    (chess.STATUS_TOO_MANY_BLACK_PAWNS, "Black has more than 8 pawns"),
    (chess.STATUS_PAWNS_ON_BACKRANK, "pawns stand on the first or last rank"),
    (chess.STATUS_TOO_MANY_WHITE_PIECES, "White has more than 16 pieces"),
    (chess.STATUS_TOO_MANY_BLACK_PIECES, "Black has more than 16 pieces"),
    (chess.STATUS_BAD_CASTLING_RIGHTS, "castling rights need the king and that rook on their home squares"),
    (chess.STATUS_INVALID_EP_SQUARE, "the en passant square does not follow a double pawn push"),
    (chess.STATUS_OPPOSITE_CHECK, "the side not to move is in check"),
    (chess.STATUS_TOO_MANY_CHECKERS, "the king is attacked by more than two pieces"),
    (chess.STATUS_IMPOSSIBLE_CHECK, "the check could not have come from a legal move"),
)


def _legal_to(board: chess.Board, to_mask: int) -> list[chess.Move]:
    """The legal moves to the squares of ``to_mask``, in python-chess's order (the reference path's
    :meth:`~games.chess.fastboard.FastBoard.legal_move_list`)."""
    return list(board.generate_legal_moves(chess.BB_ALL, to_mask))


def _one_line(message: str) -> str:
    return " ".join(message.split())


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------


#: What a capture wins, by piece type (centipawns; delta pruning only needs the order of size).
PIECE_GAIN = {chess.PAWN: 100, chess.KNIGHT: 320, chess.BISHOP: 330, chess.ROOK: 500, chess.QUEEN: 900,
              chess.KING: 0}


class ChessGame(MoveReading, Game[chess.Move]):
    """A chess position with its move history, backed by a :class:`chess.Board`.

    >>> g = ChessGame()
    >>> g.play_all(["e4", "e5"])
    >>> g.format_move(g.parse_move("g1f3"))
    'Nf3'

    Player ``0`` is White.  ``play``/``undo``/``count_moves``/``legal_moves``/
    ``is_capture``/``in_check`` are bound to the board's own methods on the
    instance (see :meth:`_bind`), so never replace :attr:`board` behind the
    game's back.
    """

    NAME: ClassVar[str] = "chess"
    PLAYERS: ClassVar[tuple[str, str]] = ("White", "Black")
    HEURISTICS: ClassVar[dict[str, Heuristic]] = HEURISTICS
    HEURISTIC_FILES: ClassVar[dict[str, Callable[[str], Heuristic]]] = HEURISTIC_FILES
    DEFAULT_HEURISTIC: ClassVar[str] = "sef"
    CUT_HEURISTIC: ClassVar[str] = "soft"
    STRONG_HEURISTIC: ClassVar[str] = "pesto"
    FEATURE_NAMES: ClassVar[tuple[str, ...]] = (
        "pawns",
        "knights",
        "bishops",
        "rooks",
        "queens",
        "opp_pawns",
        "opp_knights",
        "opp_bishops",
        "opp_rooks",
        "opp_queens",
        "material",
        "mobility",
        "opp_mobility",
        "king_shelter",
        "opp_king_shelter",
        "king_danger",
        "opp_king_danger",
        "doubled_pawns",
        "isolated_pawns",
        "passed_pawns",
        "centre_control",
        "castling_rights",
        "in_check",
        "phase",
        "to_move",
    )
    #: About a won game on the ``sef`` scale (centipawns): all of one side's pieces and pawns (3900).
    DECISIVE_SCORE: ClassVar[int] = 4000
    EXAMPLE_POSITION: ClassVar[str] = START_FEN
    EXAMPLE_MOVE: ClassVar[str] = "Nf3"
    MOVE_NOTATION: ClassVar[str] = "SAN like 'Nf3', 'exd5', 'O-O', 'e8=Q' or UCI like 'g1f3', 'e7e8q'"
    POSITION_NOTATION: ClassVar[str] = (
        f"FEN like '{START_FEN}' (the move counters may be left out)"
    )

    #: When true (the default) :meth:`outcome` also ends the game on threefold
    #: repetition and the fifty-move rule; a UI for humans may turn it off.
    claim_draws: bool

    def __init__(self, board: chess.Board | None = None) -> None:
        """The start position (on a :class:`FastBoard`), or a game that takes ownership of ``board``
        (a plain ``chess.Board`` gives python-chess's own make/undo: the reference path)."""
        self._board = FastBoard() if board is None else board
        self.claim_draws = True
        self._bind()

    def _bind(self) -> None:
        """Bind the hot-path methods straight to the board's (no wrapper frame)."""
        board = self._board
        self.play = board.push  # type: ignore[method-assign]
        self.undo = board.pop  # type: ignore[method-assign]
        self.is_capture = board.is_capture  # type: ignore[method-assign]
        self.in_check = board.is_check  # type: ignore[method-assign]
        self.count_moves = functools.partial(count_legal_moves, board)  # type: ignore[method-assign]
        if isinstance(board, FastBoard):  # the same lists in the same order, built in one pass
            self.legal_moves = board.legal_move_list  # type: ignore[method-assign]
            self._legal_to: Callable[[int], list[chess.Move]] = board.legal_move_list
        else:
            self.legal_moves = functools.partial(list, chess.LegalMoveGenerator(board))  # type: ignore[method-assign]
            self._legal_to = functools.partial(_legal_to, board)

    def __getstate__(self) -> dict[str, Any]:
        return {"board": self._board, "claim_draws": self.claim_draws}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._board = state["board"]
        self.claim_draws = state["claim_draws"]
        self._bind()

    # ----------------------------------------------------------------- creation
    @classmethod
    def from_text(cls, text: str) -> ChessGame:
        """Read a FEN (``startpos`` also names the start position).

        Missing fields default as python-chess does (side to move White, no
        castling, no en passant square, counters 0 and 1).  Positions that
        python-chess calls invalid (no king, pawns on the back rank, impossible
        checks, ...) are refused with the reason.
        """
        if not isinstance(text, str):
            raise PositionError(f"expected a FEN string like '{START_FEN}', got {type(text).__name__}")
        check_length(text, MAX_POSITION_TEXT, "a position", PositionError)
        fen = text.strip()
        if not fen:
            raise PositionError(f"expected a FEN like '{START_FEN}', got an empty text")
        if fen.lower() == "startpos":
            return cls()
        try:
            board = FastBoard(fen)
        except Exception as exc:  # python-chess raises ValueError; be safe with garbage
            reason = _one_line(str(exc))
            reason = re.sub(r":\s*'.*\Z|:\s*\".*\Z", "", reason) or "unreadable"
            raise PositionError(
                f"bad FEN {quote_input(fen, 90)}: {reason} (a FEN looks like '{START_FEN}')"
            ) from None
        status = board.status()
        if status != chess.STATUS_VALID:
            words = [word for flag, word in _STATUS_WORDS if status & flag] or ["it is not a legal chess position"]
            raise PositionError(
                f"impossible position {quote_input(fen, 90)}: {', '.join(words)} (a legal FEN: '{START_FEN}')"
            )
        return cls(board)

    def to_text(self) -> str:
        """The FEN (en passant square shown only when a capture is legal)."""
        return self._board.fen()

    def copy(self) -> ChessGame:
        game = ChessGame(self._board.copy(stack=True))
        game.claim_draws = self.claim_draws
        return game

    @property
    def board(self) -> chess.Board:
        """The underlying board.  Read it, copy it, but do not change it."""
        return self._board

    # ---------------------------------------------------------------- the rules
    @property
    def turn(self) -> int:
        return WHITE_PLAYER if self._board.turn else BLACK_PLAYER

    # The following six are replaced on each instance by bound board methods
    # (see _bind); these definitions document them and satisfy the protocol.
    def legal_moves(self) -> list[chess.Move]:
        """The legal moves in python-chess's generation order."""
        return list(self._board.generate_legal_moves())

    def count_moves(self) -> int:
        """The number of legal moves, counted from bitboards without building
        them (see :func:`count_legal_moves`); 3-4x faster than
        ``board.legal_moves.count()``."""
        return count_legal_moves(self._board)

    def play(self, move: chess.Move) -> None:
        """``board.push(move)``: play a legal move."""
        self._board.push(move)

    def undo(self) -> chess.Move:
        """``board.pop()``: take back the last move (``IndexError`` if none)."""
        return self._board.pop()

    def key(self) -> Hashable:
        """The transposition key: the piece bitboards, side to move, castling
        rights and the en passant square when an en passant capture is legal.
        Exact (no hash collisions) and equal whenever the FENs without
        counters are equal; built from python-chess's public board state.
        Only ints and bools, so its ``hash()`` is the same in every process
        (``None``'s is not before Python 3.12)."""
        b = self._board
        return (b.pawns, b.knights, b.bishops, b.rooks, b.queens, b.kings,
                b.occupied_co[chess.WHITE], b.occupied_co[chess.BLACK], b.turn,
                b.clean_castling_rights(), b.ep_square if b.has_legal_en_passant() else -1)

    def is_capture(self, move: chess.Move) -> bool:
        """True for captures, including en passant."""
        return self._board.is_capture(move)

    def is_irreversible(self, move: chess.Move) -> bool:
        """A capture or a pawn move: python-chess's ``is_zeroing``."""
        return self._board.is_zeroing(move)

    def capture_score(self, move: chess.Move) -> int:
        """MVV-LVA: ``8 * victim - attacker + 8`` for a capture (piece types
        pawn 1 ... king 6, so any capture scores at least 10), plus ``8 *`` the
        promoted piece's type for a promotion; 0 for a quiet move."""
        board = self._board
        to_square = move.to_square
        score = 0
        if board.occupied_co[not board.turn] & chess.BB_SQUARES[to_square]:
            score = 8 * board.piece_type_at(to_square) - board.piece_type_at(move.from_square) + 8  # type: ignore[operator]
        elif to_square == board.ep_square and board.pawns & chess.BB_SQUARES[move.from_square]:
            score = 15  # pawn takes pawn en passant
        if move.promotion:
            score += 8 * move.promotion
        return score

    def capture_scores(self, moves: Sequence[chess.Move]) -> list[int]:
        """:meth:`capture_score` for many moves at once (the ordering hot path)."""
        board = self._board
        them = board.occupied_co[not board.turn]
        squares = chess.BB_SQUARES
        piece_type_at = board.piece_type_at
        ep_square = board.ep_square
        pawns = board.pawns
        scores: list[int] = []
        append = scores.append
        for move in moves:
            to_square = move.to_square
            if them & squares[to_square]:
                score = 8 * piece_type_at(to_square) - piece_type_at(move.from_square) + 8  # type: ignore[operator]
            elif to_square == ep_square and pawns & squares[move.from_square]:
                score = 15
            else:
                score = 0
            if move.promotion:
                score += 8 * move.promotion
            append(score)
        return scores

    def can_win(self, player: int) -> bool:
        """Whether ``player`` has mating material (python-chess's rule for a flag fall)."""
        return not self._board.has_insufficient_material(player == WHITE_PLAYER)

    def can_stand_pat(self) -> bool:
        """Not in check."""
        return not self._board.is_check()

    def opening(self) -> str | None:
        """``C60 Ruy Lopez``: the last named position on the way here (lichess's names)."""
        found = opening_of(self._board)
        return None if found is None else str(found)

    @classmethod
    def open_tables(cls, path: str) -> EndgameTables:
        """The Syzygy tables in the folder ``path`` (see :mod:`games.chess.syzygy`)."""
        return open_syzygy(path)

    def in_check(self) -> bool:
        """``board.is_check()`` (bound to the board's on the instance, see :meth:`_bind`)."""
        return self._board.is_check()

    def null_move_ok(self) -> bool:
        """Not in check, and the side to move has a knight, bishop, rook or queen
        (king and pawns alone are where zugzwang lives)."""
        board = self._board
        if board.is_check():
            return False
        pieces = board.knights | board.bishops | board.rooks | board.queens
        return bool(pieces & board.occupied_co[board.turn])

    def play_null(self) -> None:
        self._board.push(chess.Move.null())

    def undo_null(self) -> None:
        self._board.pop()

    def capture_gain(self, move: chess.Move) -> int:
        """The captured piece's value plus a promotion's gain, in centipawns."""
        board = self._board
        gain = 0
        victim = board.piece_type_at(move.to_square)
        if victim is not None:
            gain = PIECE_GAIN[victim]
        elif move.to_square == board.ep_square and board.pawns & chess.BB_SQUARES[move.from_square]:
            gain = PIECE_GAIN[chess.PAWN]
        if move.promotion:
            gain += PIECE_GAIN[move.promotion] - PIECE_GAIN[chess.PAWN]
        return gain

    def move_code(self, move: chess.Move) -> int:
        """``from + 64 * to + 4096 * promotion`` (python-chess's square and piece numbers)."""
        return move.from_square | move.to_square << 6 | (move.promotion or 0) << 12

    def move_from_code(self, code: int) -> chess.Move | None:
        move = chess.Move(code & 63, code >> 6 & 63, code >> 12 or None)
        return move if move and self._board.is_legal(move) else None

    def tactical_moves(self) -> list[chess.Move]:
        """In check: every evasion.  Otherwise the legal captures and the
        non-capturing queen promotions."""
        board = self._board
        if board.is_check():
            return self.legal_moves()
        moves = self._legal_to(board.occupied_co[not board.turn])
        if board.ep_square is not None:
            moves.extend(board.generate_legal_ep())
        promoting = board.pawns & board.occupied_co[board.turn] & (
            chess.BB_RANK_7 if board.turn else chess.BB_RANK_2)
        if promoting:
            moves.extend(
                m for m in board.generate_legal_moves(promoting, ~board.occupied)
                if m.promotion == chess.QUEEN
            )
        return moves

    def outcome(self) -> Outcome | None:
        """The outcome, in python-chess's order of precedence.

        Checkmate, insufficient material, stalemate, the seventy-five-move rule
        and fivefold repetition always end the game.  With :attr:`claim_draws`
        the fifty-move rule (half-move clock at 100) and threefold repetition
        (the position on the board occurred three times) do too.  Unlike
        ``chess.Board.outcome(claim_draw=True)`` a draw that could only be
        claimed by announcing a move that *would* reach it is not an outcome.

        Fast: one legal-move probe; the moves are walked back only to the last
        capture or pawn move and only when the half-move clock allows a
        repetition, and python-chess's exact ``is_repetition`` replay runs only
        when that walk finds enough earlier positions with the same occupancy.
        """
        board = self._board
        if not any(board.generate_legal_moves()):
            if board.is_check():
                return _MATED[board.turn]
            if board.is_insufficient_material():
                return _INSUFFICIENT
            return _STALEMATE
        if not (board.pawns | board.rooks | board.queens) and board.is_insufficient_material():
            return _INSUFFICIENT
        clock = board.halfmove_clock
        if clock < 8:  # fewer than 8 reversible plies: no threefold yet
            return None
        if clock >= 150:
            return _SEVENTY_FIVE
        seen = self._earlier_occurrences(clock)
        if seen >= 4 and board.is_repetition(5):
            return _FIVEFOLD
        if self.claim_draws:
            if clock >= 100:
                return _FIFTY
            if seen >= 2 and board.is_repetition(3):
                return _THREEFOLD
        return None

    def _earlier_occurrences(self, clock: int) -> int:
        """An upper bound on how often the current position occurred before.

        Walks back through the last ``clock`` moves (none of them a capture or
        a pawn move, so no piece left the board) toggling each move's from- and
        to-squares: where the toggles cancel after an even number of plies,
        the occupancy then was the occupancy now.  A castling move moves a rook
        the walk does not see, but no position before it can equal a later one
        (its castling rights differ), so the count may only overshoot.
        """
        moves = self._board.move_stack
        n = len(moves)
        squares = chess.BB_SQUARES
        diff = count = 0
        for k in range(1, min(clock, n) + 1):
            move = moves[n - k]
            diff ^= squares[move.from_square] ^ squares[move.to_square]
            if not diff and not k & 1:
                count += 1
        return count

    @property
    def ply(self) -> int:
        return len(self._board.move_stack)

    @property
    def move_stack(self) -> Sequence[chess.Move]:
        return tuple(self._board.move_stack)

    # ----------------------------------------------------------------- notation
    # ------------------------------------------------------ evaluation/learning
    def features(self, player: int) -> list[float]:
        """The :attr:`FEATURE_NAMES` values seen by ``player`` (see :func:`~games.chess.evaluation.features`)."""
        return features(self._board, player)

    def render(self) -> str:
        """An ASCII diagram, White at the bottom, with ranks and files::

            8 r n b q k b n r
            ...
            1 R N B Q K B N R
              a b c d e f g h
        """
        rows = str(self._board).split("\n")
        lines = [f"{8 - i} {row}" for i, row in enumerate(rows)]
        lines.append("  a b c d e f g h")
        return "\n".join(lines)
