"""Chess on top of python-chess.

:class:`ChessGame` wraps one :class:`chess.Board`.  Moves are :class:`chess.Move`
values; :meth:`ChessGame.play` is ``board.push`` and :meth:`ChessGame.undo` is
``board.pop`` -- bound straight onto the instance, so search and perft pay no
extra Python frame for them.  The same goes for :meth:`ChessGame.key`,
:meth:`ChessGame.count_moves`, :meth:`ChessGame.legal_moves` and
:meth:`ChessGame.is_capture`.

Notation (SPEC section 3): positions are FEN; moves are typed in SAN (``e4``,
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

Mobility everywhere is counted from bitboards (pseudo-legal moves, king moves
to unattacked squares only), not with ``board.legal_moves.count()``, which costs
about 100 us per side in a middlegame; see :func:`_scan`.  Likewise
:meth:`ChessGame.count_moves` (perft's bulk count) counts legal moves from
bitboards, see :func:`count_legal_moves`.

python-chess internals used (checked by the tests): ``Board._transposition_key``,
``Board._stack`` (the repetition scan) and ``Board._slider_blockers`` (pins).
"""

from __future__ import annotations

import functools
import re
from typing import Any, ClassVar, Hashable, NoReturn, Sequence

import chess

from .base import (
    Game,
    Heuristic,
    IllegalMoveError,
    MoveSyntaxError,
    Outcome,
    PositionError,
    quote_input,
)

__all__ = [
    "ChessGame",
    "START_FEN",
    "material",
    "sef",
    "soft",
    "hard",
    "pesto",
]

#: The standard start position.
START_FEN = chess.STARTING_FEN

WHITE_PLAYER = 0
BLACK_PLAYER = 1

# ---------------------------------------------------------------------------
# Outcomes (pre-built: outcome() is called at every search node)
# ---------------------------------------------------------------------------

#: Checkmate outcome by the colour that is mated (python-chess colour: True = White).
_MATED = {chess.WHITE: Outcome(BLACK_PLAYER, "checkmate"), chess.BLACK: Outcome(WHITE_PLAYER, "checkmate")}
_STALEMATE = Outcome(None, "stalemate")
_INSUFFICIENT = Outcome(None, "insufficient material")
_SEVENTY_FIVE = Outcome(None, "seventy-five-move rule")
_FIVEFOLD = Outcome(None, "fivefold repetition")
_FIFTY = Outcome(None, "fifty-move rule")
_THREEFOLD = Outcome(None, "threefold repetition")

#: python-chess terminations in our words (used to convert chess.Outcome).
TERMINATION_REASONS: dict[chess.Termination, str] = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient material",
    chess.Termination.SEVENTYFIVE_MOVES: "seventy-five-move rule",
    chess.Termination.FIVEFOLD_REPETITION: "fivefold repetition",
    chess.Termination.FIFTY_MOVES: "fifty-move rule",
    chess.Termination.THREEFOLD_REPETITION: "threefold repetition",
}

# ---------------------------------------------------------------------------
# Notation helpers
# ---------------------------------------------------------------------------

_SYNTAX_HINT = "expected SAN like 'Nf3', 'exd5', 'O-O', 'e8=Q' or UCI like 'g1f3', 'e7e8q'"
_UCI_RE = re.compile(r"[a-h][1-8][a-h][1-8][nbrq]?\Z")
#: Check marks and annotation glyphs tolerated after a move ("Nf3+", "e4!?", "Qh5#!!").
_SUFFIX_RE = re.compile(r"(?:\s*(?:[+#!?]|e\.p\.|ep))+\Z")
_KINGSIDE = frozenset({"O-O", "0-0", "o-o"})
_QUEENSIDE = frozenset({"O-O-O", "0-0-0", "o-o-o"})
_PIECE_NAMES = {
    chess.PAWN: "pawn",
    chess.KNIGHT: "knight",
    chess.BISHOP: "bishop",
    chess.ROOK: "rook",
    chess.QUEEN: "queen",
    chess.KING: "king",
}
_COLOR_NAMES = {chess.WHITE: "White", chess.BLACK: "Black"}

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


def _one_line(message: str) -> str:
    return " ".join(message.split())


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------


class ChessGame(Game):
    """A chess position with its move history, backed by a :class:`chess.Board`.

    >>> g = ChessGame()
    >>> g.play_all(["e4", "e5"])
    >>> g.format_move(g.parse_move("g1f3"))
    'Nf3'

    Player ``0`` is White.  ``play``/``undo``/``key``/``count_moves``/
    ``legal_moves``/``is_capture`` are bound to the board's own methods on the
    instance (see :meth:`_bind`), so never replace :attr:`board` behind the
    game's back.
    """

    NAME: ClassVar[str] = "chess"
    PLAYERS: ClassVar[tuple[str, str]] = ("White", "Black")
    HEURISTICS: ClassVar[dict[str, Heuristic]] = {}  # filled in below the heuristics
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
        """The start position, or a game that takes ownership of ``board``."""
        self._board = chess.Board() if board is None else board
        self.claim_draws = True
        self._bind()

    def _bind(self) -> None:
        """Bind the hot-path methods straight to the board's (no wrapper frame)."""
        board = self._board
        self.play = board.push  # type: ignore[method-assign]
        self.undo = board.pop  # type: ignore[method-assign]
        self.key = board._transposition_key  # type: ignore[method-assign]
        self.is_capture = board.is_capture  # type: ignore[method-assign]
        self.count_moves = functools.partial(count_legal_moves, board)  # type: ignore[method-assign]
        self.legal_moves = functools.partial(list, chess.LegalMoveGenerator(board))  # type: ignore[method-assign]

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
        fen = text.strip()
        if not fen:
            raise PositionError(f"expected a FEN like '{START_FEN}', got an empty text")
        if fen.lower() == "startpos":
            return cls()
        try:
            board = chess.Board(fen)
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
    def legal_moves(self) -> list[chess.Move]:  # type: ignore[override]
        """The legal moves in python-chess's generation order."""
        return list(self._board.generate_legal_moves())

    def count_moves(self) -> int:  # type: ignore[override]
        """The number of legal moves, counted from bitboards without building
        them (see :func:`count_legal_moves`); 3-4x faster than
        ``board.legal_moves.count()``."""
        return count_legal_moves(self._board)

    def play(self, move: chess.Move) -> None:  # type: ignore[override]
        """``board.push(move)``: play a legal move."""
        self._board.push(move)

    def undo(self) -> chess.Move:  # type: ignore[override]
        """``board.pop()``: take back the last move (``IndexError`` if none)."""
        return self._board.pop()

    def key(self) -> Hashable:  # type: ignore[override]
        """python-chess's transposition key: the piece bitboards, side to move,
        castling rights and the en passant square when an en passant capture is
        legal.  Exact (no hash collisions) and equal whenever the FENs without
        counters are equal; about 1.5 us."""
        return self._board._transposition_key()

    def is_capture(self, move: chess.Move) -> bool:  # type: ignore[override]
        """True for captures, including en passant."""
        return self._board.is_capture(move)

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

    def capture_scores(self, moves: Sequence[chess.Move]) -> list[int]:  # type: ignore[override]
        """:meth:`capture_score` for many moves at once (the ordering hot path)."""
        board = self._board
        them = board.occupied_co[not board.turn]
        squares = chess.BB_SQUARES
        piece_type_at = board.piece_type_at
        ep_square = board.ep_square
        pawns = board.pawns
        scores = []
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

    def can_stand_pat(self) -> bool:
        """Not in check."""
        return not self._board.is_check()

    def tactical_moves(self) -> list[chess.Move]:
        """In check: every evasion.  Otherwise the legal captures and the
        non-capturing queen promotions."""
        board = self._board
        if board.is_check():
            return self.legal_moves()
        moves = list(board.generate_legal_captures())
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

        Fast: one legal-move probe; the repetition history is scanned only back
        to the last capture or pawn move and only when the half-move clock
        allows a repetition, and python-chess's exact ``is_repetition`` replay
        runs only when that scan finds enough earlier positions with the same
        occupancy.
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

        Counts the earlier positions with the same side to move, since the last
        capture or pawn move, whose occupancy by colour matches.  Reads
        python-chess's private ``_stack`` of board states (``_stack[-k]`` is
        the position ``k`` plies ago).
        """
        board = self._board
        stack = board._stack
        n = len(stack)
        start = n - clock if clock < n else 0
        start += (n - start) & 1  # same side to move as now
        occupied = board.occupied
        white = board.occupied_co[chess.WHITE]
        count = 0
        for state in stack[start : n - 1 : 2]:
            if state.occupied == occupied and state.occupied_w == white:
                count += 1
        return count

    @property
    def ply(self) -> int:
        return len(self._board.move_stack)

    @property
    def move_stack(self) -> Sequence[chess.Move]:
        return tuple(self._board.move_stack)

    # ----------------------------------------------------------------- notation
    def format_move(self, move: chess.Move) -> str:
        """The move in SAN, with ``+``/``#`` (e.g. ``'Nf3'``, ``'O-O'``, ``'exd8=Q+'``)."""
        return self._board.san(move)

    def parse_move(self, text: str) -> chess.Move:
        """Read a move in SAN or UCI and check that it is legal here.

        Accepts ``O-O``/``0-0``, check marks and annotation glyphs
        (``Nf3+``, ``e4!?``), long algebraic (``Ng1-f3``, ``e2xe4``), ``e8Q``
        for ``e8=Q``, and lowercase piece letters other than ``b`` (``nf3``).
        """
        if not isinstance(text, str):
            raise MoveSyntaxError(f"{_SYNTAX_HINT}, got {type(text).__name__}")
        core = _SUFFIX_RE.sub("", text.strip())
        if not core:
            raise MoveSyntaxError(f"{_SYNTAX_HINT}, got {quote_input(text)}")
        board = self._board
        if _UCI_RE.match(core.lower()):
            return self._parse_uci(core.lower(), text)
        if core in _KINGSIDE or core in _QUEENSIDE:
            return self._parse_castling(core in _KINGSIDE, text)
        match = chess.SAN_REGEX.match(core)
        if match is None and core[0] in "nrqk" and len(core) > 1:
            core = core[0].upper() + core[1:]
            match = chess.SAN_REGEX.match(core)
        if match is None:
            raise MoveSyntaxError(f"{_SYNTAX_HINT}, got {quote_input(text)}")
        try:
            return board.parse_san(core)
        except chess.AmbiguousMoveError:
            candidates = [board.san(m) for m in self._san_matches(match, legal=True)]
            raise IllegalMoveError(
                f"ambiguous move {quote_input(text)}: it could be {' or '.join(candidates)}"
            ) from None
        except ValueError:  # IllegalMoveError, or find_move's complaints
            raise IllegalMoveError(self._why_illegal_san(match, text)) from None

    # -- helpers of parse_move
    def _example(self) -> str:
        for move in self._board.generate_legal_moves():
            return f"; try e.g. '{self._board.san(move)}'"
        return "; there is no legal move here"

    def _parse_uci(self, uci: str, text: str) -> chess.Move:
        board = self._board
        if uci[:2] == uci[2:4]:
            raise IllegalMoveError(f"illegal move {quote_input(text)}: a move must change squares{self._example()}")
        try:
            move = chess.Move.from_uci(uci)
        except ValueError:
            raise MoveSyntaxError(f"{_SYNTAX_HINT}, got {quote_input(text)}") from None
        try:
            return board.parse_uci(uci)
        except ValueError:
            pass
        self._raise_illegal_from_to(move, text)

    def _raise_illegal_from_to(self, move: chess.Move, text: str) -> NoReturn:
        """Explain why the move from one named square to another is illegal."""
        board = self._board
        frm, to = move.from_square, move.to_square
        piece = board.piece_at(frm)
        fname, tname = chess.square_name(frm), chess.square_name(to)
        if piece is None:
            reason = f"there is no piece on {fname}"
        elif piece.color != board.turn:
            reason = (
                f"the {_PIECE_NAMES[piece.piece_type]} on {fname} is {_COLOR_NAMES[piece.color]}'s "
                f"and it is {_COLOR_NAMES[board.turn]}'s move"
            )
        else:
            name = _PIECE_NAMES[piece.piece_type]
            last_rank = chess.square_rank(to) in (0, 7)
            promotes = piece.piece_type == chess.PAWN and last_rank
            if promotes and move.promotion is None and board.is_legal(chess.Move(frm, to, chess.QUEEN)):
                reason = f"a pawn reaching the last rank must promote, e.g. '{fname}{tname}q'"
            elif move.promotion is not None and not promotes:
                reason = "only a pawn reaching the last rank can promote"
            else:
                plain = chess.Move(frm, to, chess.QUEEN if promotes else None)
                if board.is_pseudo_legal(plain):
                    reason = self._king_reason()
                else:
                    reason = f"the {name} on {fname} cannot move to {tname}"
        raise IllegalMoveError(f"illegal move {quote_input(text)}: {reason}{self._example()}")

    def _king_reason(self) -> str:
        if self._board.is_check():
            return "it does not get the king out of check"
        return "it would leave the king in check"

    def _parse_castling(self, kingside: bool, text: str) -> chess.Move:
        board = self._board
        for move in board.generate_castling_moves():
            if board.is_kingside_castling(move) == kingside:
                return move
        side = "kingside" if kingside else "queenside"
        color = board.turn
        has_right = (
            board.has_kingside_castling_rights(color) if kingside else board.has_queenside_castling_rights(color)
        )
        if not has_right:
            reason = f"{_COLOR_NAMES[color]} can no longer castle {side}"
        elif board.is_check():
            reason = "you cannot castle out of check"
        else:
            reason = f"castling {side} is blocked or the king would cross or land on an attacked square"
        raise IllegalMoveError(f"illegal move {quote_input(text)}: {reason}{self._example()}")

    def _san_masks(self, match: re.Match[str]) -> tuple[int, int, int | None, int]:
        """(from mask, to mask, promotion, piece type) named by a SAN regex match."""
        board = self._board
        to_square = chess.parse_square(match.group(4))
        to_mask = chess.BB_SQUARES[to_square] & ~board.occupied_co[board.turn]
        promo = match.group(5)
        promotion = chess.PIECE_SYMBOLS.index(promo[-1].lower()) if promo else None
        from_mask = chess.BB_ALL
        if match.group(2):
            from_mask &= chess.BB_FILES[chess.FILE_NAMES.index(match.group(2))]
        if match.group(3):
            from_mask &= chess.BB_RANKS[int(match.group(3)) - 1]
        if match.group(1):
            piece_type = chess.PIECE_SYMBOLS.index(match.group(1).lower())
        else:
            piece_type = chess.PAWN
            if not match.group(2):
                from_mask &= chess.BB_FILES[chess.square_file(to_square)]
        from_mask &= board.pieces_mask(piece_type, board.turn)
        return from_mask, to_mask, promotion, piece_type

    def _san_matches(self, match: re.Match[str], legal: bool) -> list[chess.Move]:
        board = self._board
        from_mask, to_mask, promotion, _ = self._san_masks(match)
        generate = board.generate_legal_moves if legal else board.generate_pseudo_legal_moves
        return [m for m in generate(from_mask, to_mask) if m.promotion == promotion]

    def _why_illegal_san(self, match: re.Match[str], text: str) -> str:
        board = self._board
        piece_letter, from_file, from_rank, target = match.group(1), match.group(2), match.group(3), match.group(4)
        if not piece_letter and from_file and from_rank:  # fully specified: "e2-e4", "e7e8Q"
            promo = match.group(5)
            move = chess.Move(
                chess.parse_square(from_file + from_rank),
                chess.parse_square(target),
                chess.PIECE_SYMBOLS.index(promo[-1].lower()) if promo else None,
            )
            if move.from_square == move.to_square:
                return f"illegal move {quote_input(text)}: a move must change squares{self._example()}"
            try:
                self._raise_illegal_from_to(move, text)
            except IllegalMoveError as exc:
                return str(exc)
        _, _, promotion, piece_type = self._san_masks(match)
        name = _PIECE_NAMES[piece_type]
        color = _COLOR_NAMES[board.turn]
        if self._san_matches(match, legal=False):
            reason = self._king_reason()
        elif piece_type == chess.PAWN and promotion is None and chess.square_rank(chess.parse_square(target)) in (0, 7):
            reason = f"a pawn reaching the last rank must promote, e.g. '{target}=Q'"
        elif promotion is not None and piece_type != chess.PAWN:
            reason = "only a pawn reaching the last rank can promote"
        elif promotion == chess.KING:
            reason = "a pawn cannot promote to a king"
        elif board.occupied_co[board.turn] & chess.BB_SQUARES[chess.parse_square(target)]:
            reason = f"{target} is occupied by a {color} piece"
        elif not board.pieces_mask(piece_type, board.turn):
            reason = f"{color} has no {name}"
        else:
            where = ""
            if from_file or from_rank:
                where = f" from {(from_file or '')}{(from_rank or '')}"
            reason = f"no {color} {name}{where} can move to {target}"
        return f"illegal move {quote_input(text)}: {reason}{self._example()}"

    # ------------------------------------------------------ evaluation/learning
    def features(self, player: int) -> list[float]:
        """The :attr:`FEATURE_NAMES` values seen by ``player`` (0 White, 1 Black).

        Counts are ``player``'s own then the opponent's (``opp_``); ``material``
        is the MA difference in pawns; ``doubled/isolated/passed_pawns`` and
        ``centre_control`` (centre squares attacked) and ``castling_rights``
        (0-2 each) are own minus opponent's; ``king_shelter`` counts own pawns
        next to the king, ``king_danger`` the king's neighbour squares the enemy
        attacks; ``in_check`` is 1 if ``player`` is in check, -1 if the
        opponent is; ``phase`` runs from 24 (all pieces) down to 0 (pawns and
        kings); ``to_move`` is 1 when ``player`` moves next.
        """
        b = self._board
        occ_w = b.occupied_co[chess.WHITE]
        occ_b = b.occupied_co[chess.BLACK]
        counts_w = [float((bb & occ_w).bit_count()) for bb in (b.pawns, b.knights, b.bishops, b.rooks, b.queens)]
        counts_b = [float((bb & occ_b).bit_count()) for bb in (b.pawns, b.knights, b.bishops, b.rooks, b.queens)]
        mat = _ma_diff(b) / 100.0
        att_w, att_b, mob_w, mob_b = _scan(b)
        kw = b.kings & occ_w
        kb = b.kings & occ_b
        zone_w = _KING_ZONE[kw.bit_length() - 1] if kw else 0
        zone_b = _KING_ZONE[kb.bit_length() - 1] if kb else 0
        pw = b.pawns & occ_w
        pb = b.pawns & occ_b
        shelter_w = float((zone_w & pw).bit_count())
        shelter_b = float((zone_b & pb).bit_count())
        danger_w = float((zone_w & att_b).bit_count())
        danger_b = float((zone_b & att_w).bit_count())
        dbl_w, iso_w, _, _, passed_w = _pawn_terms(pw, pb, True)
        dbl_b, iso_b, _, _, passed_b = _pawn_terms(pb, pw, False)
        centre = float((att_w & _CENTRE).bit_count() - (att_b & _CENTRE).bit_count())
        rights = b.clean_castling_rights()
        castle_w = float((rights & chess.BB_RANK_1).bit_count())
        castle_b = float((rights & chess.BB_RANK_8).bit_count())
        white_in_check = 0.0
        if b.is_check():
            white_in_check = 1.0 if b.turn else -1.0
        phase = float(_phase(b))
        white_to_move = 1.0 if b.turn else 0.0
        white_view = [
            *counts_w,
            *counts_b,
            mat,
            float(mob_w),
            float(mob_b),
            shelter_w,
            shelter_b,
            danger_w,
            danger_b,
            float(dbl_w - dbl_b),
            float(iso_w - iso_b),
            float(len(passed_w) - len(passed_b)),
            centre,
            castle_w - castle_b,
            white_in_check,
            phase,
            white_to_move,
        ]
        if player == WHITE_PLAYER:
            return white_view
        v = white_view
        negated = [0.0 - x for x in v[17:23]]  # "0.0 - x" avoids -0.0
        return [*v[5:10], *v[0:5], 0.0 - v[10], v[12], v[11], v[14], v[13], v[16], v[15], *negated, v[23], 1.0 - v[24]]

    # ------------------------------------------------------------------ display
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


def count_legal_moves(board: chess.Board) -> int:
    """``board.legal_moves.count()`` without generating the moves.

    When the side to move is not in check, counts each piece's targets from the
    attack tables, keeping pinned pieces (python-chess's private
    ``_slider_blockers``) on the line through their king, the king's steps to
    squares the enemy does not attack, promotions four times, castling and en
    passant through python-chess.  In check (or without a king) it lets
    python-chess generate the evasions.  Verified by perft and random play.
    """
    turn = board.turn
    us = board.occupied_co[turn]
    king = board.kings & us
    if not king:
        return len(list(board.generate_legal_moves()))
    ksq = king.bit_length() - 1
    them_color = not turn
    attackers = board.attackers_mask
    if attackers(them_color, ksq):
        return len(list(board.generate_legal_moves()))
    occ = board.occupied
    not_us = ~us
    pinned = board._slider_blockers(ksq)
    rays = _RAYS[ksq]
    n = 0
    bb = board.knights & us & ~pinned
    while bb:
        low = bb & -bb
        n += (_KNIGHT[low.bit_length() - 1] & not_us).bit_count()
        bb ^= low
    bb = (board.bishops | board.queens) & us
    while bb:
        low = bb & -bb
        sq = low.bit_length() - 1
        a = _DIAG_ATTACKS[sq][_DIAG_MASKS[sq] & occ] & not_us
        if low & pinned:
            a &= rays[sq]
        n += a.bit_count()
        bb ^= low
    bb = (board.rooks | board.queens) & us
    while bb:
        low = bb & -bb
        sq = low.bit_length() - 1
        a = (_FILE_ATTACKS[sq][_FILE_MASKS[sq] & occ] | _RANK_ATTACKS[sq][_RANK_MASKS[sq] & occ]) & not_us
        if low & pinned:
            a &= rays[sq]
        n += a.bit_count()
        bb ^= low
    bb = _KING_ZONE[ksq] & not_us
    while bb:
        low = bb & -bb
        if not attackers(them_color, low.bit_length() - 1):
            n += 1
        bb ^= low
    if board.castling_rights & (_RANK_1 if turn else _RANK_8):
        for _ in board.generate_castling_moves():
            n += 1
    pawns = board.pawns & us
    if pawns:
        them = board.occupied_co[them_color]
        empty = ~occ & _ALL
        free = pawns & ~pinned
        if turn:
            push = free << 8 & empty
            double = (push & _RANK_3) << 8 & empty
            left = (free & _NOT_A) << 7 & them
            right = (free & _NOT_H) << 9 & them
            last = _RANK_8
        else:
            push = free >> 8 & empty
            double = (push & _RANK_6) >> 8 & empty
            left = (free & _NOT_A) >> 9 & them
            right = (free & _NOT_H) >> 7 & them
            last = _RANK_1
        n += (
            push.bit_count() + double.bit_count() + left.bit_count() + right.bit_count()
            + 3 * ((push & last).bit_count() + (left & last).bit_count() + (right & last).bit_count())
        )
        bb = pawns & pinned
        while bb:
            low = bb & -bb
            sq = low.bit_length() - 1
            if turn:
                single = low << 8 & empty
                targets = single | (single & _RANK_3) << 8 & empty
            else:
                single = low >> 8 & empty
                targets = single | (single & _RANK_6) >> 8 & empty
            targets = (targets | _PAWN_ATTACKS[turn][sq] & them) & rays[sq]
            n += targets.bit_count() + 3 * (targets & last).bit_count()
            bb ^= low
        ep = board.ep_square
        if ep is not None and _PAWN_ATTACKS[them_color][ep] & pawns:
            for _ in board.generate_legal_ep():
                n += 1
    return n


# ---------------------------------------------------------------------------
# Evaluation tables
# ---------------------------------------------------------------------------

_ALL = chess.BB_ALL
_NOT_A = ~chess.BB_FILE_A & _ALL
_NOT_H = ~chess.BB_FILE_H & _ALL
_CENTRE = chess.BB_D4 | chess.BB_E4 | chess.BB_D5 | chess.BB_E5
_KNIGHT = chess.BB_KNIGHT_ATTACKS
_KING_ZONE = chess.BB_KING_ATTACKS
_DIAG_MASKS, _DIAG_ATTACKS = chess.BB_DIAG_MASKS, chess.BB_DIAG_ATTACKS
_FILE_MASKS, _FILE_ATTACKS = chess.BB_FILE_MASKS, chess.BB_FILE_ATTACKS
_RANK_MASKS, _RANK_ATTACKS = chess.BB_RANK_MASKS, chess.BB_RANK_ATTACKS
_RANK_3, _RANK_6 = chess.BB_RANK_3, chess.BB_RANK_6
_RAYS = chess.BB_RAYS
_PAWN_ATTACKS = chess.BB_PAWN_ATTACKS
_RANK_1, _RANK_8 = chess.BB_RANK_1, chess.BB_RANK_8
#: Squares of the undeveloped minor pieces (used for the SEF opening phase).
_WHITE_MINOR_HOME = chess.BB_B1 | chess.BB_C1 | chess.BB_F1 | chess.BB_G1
_BLACK_MINOR_HOME = chess.BB_B8 | chess.BB_C8 | chess.BB_F8 | chess.BB_G8
#: Bitboard of the files in an 8-bit file set.
_FILES_OF_SET = [
    functools.reduce(lambda acc, f: acc | (chess.BB_FILES[f] if fs >> f & 1 else 0), range(8), 0) for fs in range(256)
]


def _north_fill(bb: int) -> int:
    bb |= bb << 8
    bb |= bb << 16
    bb |= bb << 32
    return bb & _ALL


def _south_fill(bb: int) -> int:
    bb |= bb >> 8
    bb |= bb >> 16
    bb |= bb >> 32
    return bb


def _file_set(bb: int) -> int:
    """The 8-bit set of files holding a bit of ``bb``."""
    bb |= bb >> 32
    bb |= bb >> 16
    bb |= bb >> 8
    return bb & 0xFF


def _ma_diff(b: chess.Board) -> int:
    """White's Material Advantage over Black: P 100, N 300, B 300, R 500, Q 900, K 2000."""
    w = b.occupied_co[chess.WHITE]
    k = b.occupied_co[chess.BLACK]
    pawns, knights, bishops, rooks, queens, kings = b.pawns, b.knights, b.bishops, b.rooks, b.queens, b.kings
    return (
        100 * ((pawns & w).bit_count() - (pawns & k).bit_count())
        + 300 * ((knights & w).bit_count() - (knights & k).bit_count())
        + 300 * ((bishops & w).bit_count() - (bishops & k).bit_count())
        + 500 * ((rooks & w).bit_count() - (rooks & k).bit_count())
        + 900 * ((queens & w).bit_count() - (queens & k).bit_count())
        + 2000 * ((kings & w).bit_count() - (kings & k).bit_count())
    )


def _phase(b: chess.Board) -> int:
    """Game phase from the pieces left: N 1, B 1, R 2, Q 4 (24 at the start, capped)."""
    phase = (b.knights | b.bishops).bit_count() + 2 * b.rooks.bit_count() + 4 * b.queens.bit_count()
    return phase if phase < 24 else 24


def _side_attacks(
    b: chess.Board,
    own: int,
    occ: int,
    white: bool,
    _knight: list[int] = _KNIGHT,
    _diag_attacks: list[dict[int, int]] = _DIAG_ATTACKS,
    _diag_masks: list[int] = _DIAG_MASKS,
    _file_attacks: list[dict[int, int]] = _FILE_ATTACKS,
    _file_masks: list[int] = _FILE_MASKS,
    _rank_attacks: list[dict[int, int]] = _RANK_ATTACKS,
    _rank_masks: list[int] = _RANK_MASKS,
) -> tuple[int, int]:
    """(squares attacked, pseudo-legal non-king move count) of the side owning
    ``own``, sliders seeing through nothing but ``occ``.  (The keyword
    defaults only bind the tables to fast locals.)"""
    not_own = ~own
    attacks = 0
    moves = 0
    bb = b.knights & own
    while bb:
        low = bb & -bb
        a = _knight[low.bit_length() - 1]
        attacks |= a
        moves += (a & not_own).bit_count()
        bb ^= low
    bb = (b.bishops | b.queens) & own
    while bb:
        low = bb & -bb
        sq = low.bit_length() - 1
        a = _diag_attacks[sq][_diag_masks[sq] & occ]
        attacks |= a
        moves += (a & not_own).bit_count()
        bb ^= low
    bb = (b.rooks | b.queens) & own
    while bb:
        low = bb & -bb
        sq = low.bit_length() - 1
        a = _file_attacks[sq][_file_masks[sq] & occ] | _rank_attacks[sq][_rank_masks[sq] & occ]
        attacks |= a
        moves += (a & not_own).bit_count()
        bb ^= low
    pawns = b.pawns & own
    if pawns:
        occupied = b.occupied
        enemy = occupied & not_own
        empty = ~occupied
        if white:
            left = (pawns & _NOT_A) << 7 & _ALL
            right = (pawns & _NOT_H) << 9 & _ALL
            push = pawns << 8 & empty & _ALL
            double = (push & _RANK_3) << 8 & empty
            last = _RANK_8
        else:
            left = (pawns & _NOT_A) >> 9
            right = (pawns & _NOT_H) >> 7
            push = pawns >> 8 & empty
            double = (push & _RANK_6) >> 8 & empty
            last = _RANK_1
        attacks |= left | right
        left &= enemy
        right &= enemy
        moves += left.bit_count() + right.bit_count() + push.bit_count() + double.bit_count()
        if (left | right | push) & last:
            moves += 3 * ((left & last).bit_count() + (right & last).bit_count() + (push & last).bit_count())
    return attacks, moves


def _scan(b: chess.Board) -> tuple[int, int, int, int]:
    """Attack maps and mobility of both sides: (att_w, att_b, mob_w, mob_b).

    Attacks are computed with the enemy king taken off the board, so squares
    behind it on a checking line count as attacked (the king cannot step
    there).  Mobility counts pseudo-legal moves from bitboards -- every
    promotion counted four times like python-chess -- plus king steps to
    squares the enemy does not attack; it ignores pins, checks, castling and
    en passant, so it equals the legal move count in most quiet positions.
    """
    occ_b, occ_w = b.occupied_co  # indexed by colour: [BLACK, WHITE]
    occ = b.occupied
    kings = b.kings
    kw = kings & occ_w
    kb = kings & occ_b
    att_w, mob_w = _side_attacks(b, occ_w, occ ^ kb, True)
    att_b, mob_b = _side_attacks(b, occ_b, occ ^ kw, False)
    if kw:
        zone = _KING_ZONE[kw.bit_length() - 1]
        att_w |= zone
    if kb:
        zone_b = _KING_ZONE[kb.bit_length() - 1]
        att_b |= zone_b
        mob_b += (zone_b & ~occ_b & ~att_w).bit_count()
    if kw:
        mob_w += (zone & ~occ_w & ~att_b).bit_count()
    return att_w, att_b, mob_w, mob_b


def _pawn_terms(own: int, their: int, white: bool) -> tuple[int, int, int, int, list[int]]:
    """Pawn structure of the side with pawns ``own`` against pawns ``their``.

    Returns (doubled, isolated, on_doubled_files, backward, passed squares):
    ``doubled`` is pawns beyond the first on each file (the SEF's count),
    ``isolated`` pawns with no own pawn on a neighbour file,
    ``on_doubled_files`` every pawn sharing its file with another,
    ``backward`` pawns that no own pawn can support on their way whose stop
    square an enemy pawn attacks, and the squares of passed pawns.
    """
    if not own:
        return 0, 0, 0, 0, []
    files = _file_set(own)
    doubled = own.bit_count() - files.bit_count()
    neighbours = ((files << 1) | (files >> 1)) & 0xFF
    isolated = (own & _FILES_OF_SET[files & ~neighbours]).bit_count()
    if white:
        ahead = _north_fill(own << 8)
        behind = _south_fill(own >> 8)
        own_att = ((own & _NOT_A) << 7 | (own & _NOT_H) << 9) & _ALL
        their_att = (their & _NOT_A) >> 9 | (their & _NOT_H) >> 7
        support = _north_fill(own_att)
        stops = own << 8 & _ALL
        backward = ((stops & their_att & ~support) >> 8).bit_count()
        span = _south_fill(their >> 8)
    else:
        ahead = _south_fill(own >> 8)
        behind = _north_fill(own << 8)
        own_att = (own & _NOT_A) >> 9 | (own & _NOT_H) >> 7
        their_att = ((their & _NOT_A) << 7 | (their & _NOT_H) << 9) & _ALL
        support = _south_fill(own_att)
        stops = own >> 8
        backward = ((stops & their_att & ~support) << 8 & _ALL).bit_count()
        span = _north_fill(their << 8)
    on_doubled = (own & (ahead | behind)).bit_count()
    blocked = span | (span & _NOT_A) >> 1 | ((span & _NOT_H) << 1 & _ALL)
    passers = own & ~blocked
    passed = []
    while passers:
        low = passers & -passers
        passed.append(low.bit_length() - 1)
        passers ^= low
    return doubled, isolated, on_doubled, backward, passed


# ---------------------------------------------------------------------------
# Heuristics
# ---------------------------------------------------------------------------


def material(game: ChessGame, player: int) -> int:
    """The seed's Material Advantage (P 1, N 3, B 3, R 5, Q 9, K 20) in centipawns."""
    score = _ma_diff(game._board)
    return score if player == WHITE_PLAYER else -score


#: SEF weights in tenths per phase: (material, pawn structure, centre, mobility, king safety).
SEF_WEIGHTS: dict[str, tuple[int, int, int, int, int]] = {
    "opening": (10, 2, 5, 5, 1),
    "middlegame": (10, 3, 3, 4, 3),
    "endgame": (15, 2, 1, 2, 5),
}


def sef_phase(b: chess.Board) -> str:
    """The SEF game phase.  The seed names three phases without defining them;
    ours: *endgame* when the pieces left are worth at most 8 phase points
    (N 1, B 1, R 2, Q 4; 24 at the start), *opening* while at least 20 points
    remain and at least four knights and bishops still stand on their home
    squares, *middlegame* otherwise."""
    phase = _phase(b)
    if phase <= 8:
        return "endgame"
    if phase >= 20:
        minors = b.knights | b.bishops
        home = (minors & b.occupied_co[chess.WHITE] & _WHITE_MINOR_HOME) | (
            minors & b.occupied_co[chess.BLACK] & _BLACK_MINOR_HOME
        )
        if home.bit_count() >= 4:
            return "opening"
    return "middlegame"


def sef(game: ChessGame, player: int) -> int:
    """The seed's Simplified Evaluation Function, in centipawns.

    Components, each White's minus Black's (the seed states them for one
    player; the difference makes the heuristic antisymmetric):

    * material M: the MA values (P 100 ... K 2000);
    * pawn structure P: -50 for each pawn beyond the first on a file, -50 for
      each isolated pawn (the seed also names backward pawns but gives them no
      penalty, so they are not scored);
    * centre C: +50 per own piece standing on d4, e4, d5 or e5 (the seed's
      formula counts pieces *on* those squares);
    * mobility Mv: +10 per move; the seed counts legal moves, we count
      pseudo-legal moves from bitboards (see :func:`_scan`), 10x cheaper;
    * king safety Ks: +20 per square next to the king that the enemy does not
      attack (the seed's -100 for a missing king cannot happen: kings are
      always there).

    Weighted by the seed's phase table :data:`SEF_WEIGHTS` (see
    :func:`sef_phase` for the phases).
    """
    b = game._board
    occ_w = b.occupied_co[chess.WHITE]
    occ_b = b.occupied_co[chess.BLACK]
    att_w, att_b, mob_w, mob_b = _scan(b)
    pw = b.pawns & occ_w
    pb = b.pawns & occ_b
    pawn_score = 0
    for own, sign in ((pw, 1), (pb, -1)):
        if own:
            files = _file_set(own)
            neighbours = ((files << 1) | (files >> 1)) & 0xFF
            weak = own.bit_count() - files.bit_count() + (own & _FILES_OF_SET[files & ~neighbours]).bit_count()
            pawn_score -= sign * 50 * weak
    centre = 50 * ((occ_w & _CENTRE).bit_count() - (occ_b & _CENTRE).bit_count())
    mobility = 10 * (mob_w - mob_b)
    kw = b.kings & occ_w
    kb = b.kings & occ_b
    safe_w = (_KING_ZONE[kw.bit_length() - 1] & ~att_b).bit_count() if kw else 0
    safe_b = (_KING_ZONE[kb.bit_length() - 1] & ~att_w).bit_count() if kb else 0
    king = 20 * (safe_w - safe_b)
    phase = sef_phase(b)
    wm, wp, wc, wmv, wk = SEF_WEIGHTS[phase]
    total = wm * _ma_diff(b) + wp * pawn_score + wc * centre + wmv * mobility + wk * king
    score = total // 10 if total >= 0 else -(-total // 10)  # round toward zero: colour-symmetric
    return score if player == WHITE_PLAYER else -score


# -- piece-square tables (a8 first, as printed; White reads square ^ 56) -----

# Tomasz Michniewski's "Simplified Evaluation Function" tables, the ones the
# seeds' soft/hard heuristics use.
_SIMPLE_VALUES = {
    chess.PAWN: 100, chess.KNIGHT: 320, chess.BISHOP: 330, chess.ROOK: 500, chess.QUEEN: 900, chess.KING: 0,
}
_SIMPLE_PST: dict[int, list[int]] = {
    chess.PAWN: [
        0, 0, 0, 0, 0, 0, 0, 0,
        50, 50, 50, 50, 50, 50, 50, 50,
        10, 10, 20, 30, 30, 20, 10, 10,
        5, 5, 10, 25, 25, 10, 5, 5,
        0, 0, 0, 20, 20, 0, 0, 0,
        5, -5, -10, 0, 0, -10, -5, 5,
        5, 10, 10, -20, -20, 10, 10, 5,
        0, 0, 0, 0, 0, 0, 0, 0,
    ],
    chess.KNIGHT: [
        -50, -40, -30, -30, -30, -30, -40, -50,
        -40, -20, 0, 0, 0, 0, -20, -40,
        -30, 0, 10, 15, 15, 10, 0, -30,
        -30, 5, 15, 20, 20, 15, 5, -30,
        -30, 0, 15, 20, 20, 15, 0, -30,
        -30, 5, 10, 15, 15, 10, 5, -30,
        -40, -20, 0, 5, 5, 0, -20, -40,
        -50, -40, -30, -30, -30, -30, -40, -50,
    ],
    chess.BISHOP: [
        -20, -10, -10, -10, -10, -10, -10, -20,
        -10, 0, 0, 0, 0, 0, 0, -10,
        -10, 0, 5, 10, 10, 5, 0, -10,
        -10, 5, 5, 10, 10, 5, 5, -10,
        -10, 0, 10, 10, 10, 10, 0, -10,
        -10, 10, 10, 10, 10, 10, 10, -10,
        -10, 5, 0, 0, 0, 0, 5, -10,
        -20, -10, -10, -10, -10, -10, -10, -20,
    ],
    chess.ROOK: [
        0, 0, 0, 0, 0, 0, 0, 0,
        5, 10, 10, 10, 10, 10, 10, 5,
        -5, 0, 0, 0, 0, 0, 0, -5,
        -5, 0, 0, 0, 0, 0, 0, -5,
        -5, 0, 0, 0, 0, 0, 0, -5,
        -5, 0, 0, 0, 0, 0, 0, -5,
        -5, 0, 0, 0, 0, 0, 0, -5,
        0, 0, 0, 5, 5, 0, 0, 0,
    ],
    chess.QUEEN: [
        -20, -10, -10, -5, -5, -10, -10, -20,
        -10, 0, 0, 0, 0, 0, 0, -10,
        -10, 0, 5, 5, 5, 5, 0, -10,
        -5, 0, 5, 5, 5, 5, 0, -5,
        0, 0, 5, 5, 5, 5, 0, -5,
        -10, 5, 5, 5, 5, 5, 0, -10,
        -10, 0, 5, 0, 0, 0, 0, -10,
        -20, -10, -10, -5, -5, -10, -10, -20,
    ],
}
_SIMPLE_KING_MIDDLE = [
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -20, -30, -30, -40, -40, -30, -30, -20,
    -10, -20, -20, -20, -20, -20, -20, -10,
    20, 20, 0, 0, 0, 0, 20, 20,
    20, 30, 10, 0, 0, 10, 30, 20,
]
_SIMPLE_KING_END = [
    -50, -40, -30, -20, -20, -30, -40, -50,
    -30, -20, -10, 0, 0, -10, -20, -30,
    -30, -10, 20, 30, 30, 20, -10, -30,
    -30, -10, 30, 40, 40, 30, -10, -30,
    -30, -10, 30, 40, 40, 30, -10, -30,
    -30, -10, 20, 30, 30, 20, -10, -30,
    -30, -30, 0, 0, 0, 0, -30, -30,
    -50, -30, -30, -30, -30, -30, -30, -50,
]

# PeSTO (Ronald Friederich's Rofchade tuning, as published on the Chess
# Programming Wiki): midgame/endgame values and tables.
_PESTO_MG_VALUES = {
    chess.PAWN: 82, chess.KNIGHT: 337, chess.BISHOP: 365, chess.ROOK: 477, chess.QUEEN: 1025, chess.KING: 0,
}
_PESTO_EG_VALUES = {
    chess.PAWN: 94, chess.KNIGHT: 281, chess.BISHOP: 297, chess.ROOK: 512, chess.QUEEN: 936, chess.KING: 0,
}
_PESTO_MG: dict[int, list[int]] = {
    chess.PAWN: [
        0, 0, 0, 0, 0, 0, 0, 0,
        98, 134, 61, 95, 68, 126, 34, -11,
        -6, 7, 26, 31, 65, 56, 25, -20,
        -14, 13, 6, 21, 23, 12, 17, -23,
        -27, -2, -5, 12, 17, 6, 10, -25,
        -26, -4, -4, -10, 3, 3, 33, -12,
        -35, -1, -20, -23, -15, 24, 38, -22,
        0, 0, 0, 0, 0, 0, 0, 0,
    ],
    chess.KNIGHT: [
        -167, -89, -34, -49, 61, -97, -15, -107,
        -73, -41, 72, 36, 23, 62, 7, -17,
        -47, 60, 37, 65, 84, 129, 73, 44,
        -9, 17, 19, 53, 37, 69, 18, 22,
        -13, 4, 16, 13, 28, 19, 21, -8,
        -23, -9, 12, 10, 19, 17, 25, -16,
        -29, -53, -12, -3, -1, 18, -14, -19,
        -105, -21, -58, -33, -17, -28, -19, -23,
    ],
    chess.BISHOP: [
        -29, 4, -82, -37, -25, -42, 7, -8,
        -26, 16, -18, -13, 30, 59, 18, -47,
        -16, 37, 43, 40, 35, 50, 37, -2,
        -4, 5, 19, 50, 37, 37, 7, -2,
        -6, 13, 13, 26, 34, 12, 10, 4,
        0, 15, 15, 15, 14, 27, 18, 10,
        4, 15, 16, 0, 7, 21, 33, 1,
        -33, -3, -14, -21, -13, -12, -39, -21,
    ],
    chess.ROOK: [
        32, 42, 32, 51, 63, 9, 31, 43,
        27, 32, 58, 62, 80, 67, 26, 44,
        -5, 19, 26, 36, 17, 45, 61, 16,
        -24, -11, 7, 26, 24, 35, -8, -20,
        -36, -26, -12, -1, 9, -7, 6, -23,
        -45, -25, -16, -17, 3, 0, -5, -33,
        -44, -16, -20, -9, -1, 11, -6, -71,
        -19, -13, 1, 17, 16, 7, -37, -26,
    ],
    chess.QUEEN: [
        -28, 0, 29, 12, 59, 44, 43, 45,
        -24, -39, -5, 1, -16, 57, 28, 54,
        -13, -17, 7, 8, 29, 56, 47, 57,
        -27, -27, -16, -16, -1, 17, -2, 1,
        -9, -26, -9, -10, -2, -4, 3, -3,
        -14, 2, -11, -2, -5, 2, 14, 5,
        -35, -8, 11, 2, 8, 15, -3, 1,
        -1, -18, -9, 10, -15, -25, -31, -50,
    ],
    chess.KING: [
        -65, 23, 16, -15, -56, -34, 2, 13,
        29, -1, -20, -7, -8, -4, -38, -29,
        -9, 24, 2, -16, -20, 6, 22, -22,
        -17, -20, -12, -27, -30, -25, -14, -36,
        -49, -1, -27, -39, -46, -44, -33, -51,
        -14, -14, -22, -46, -44, -30, -15, -27,
        1, 7, -8, -64, -43, -16, 9, 8,
        -15, 36, 12, -54, 8, -28, 24, 14,
    ],
}
_PESTO_EG: dict[int, list[int]] = {
    chess.PAWN: [
        0, 0, 0, 0, 0, 0, 0, 0,
        178, 173, 158, 134, 147, 132, 165, 187,
        94, 100, 85, 67, 56, 53, 82, 84,
        32, 24, 13, 5, -2, 4, 17, 17,
        13, 9, -3, -7, -7, -8, 3, -1,
        4, 7, -6, 1, 0, -5, -1, -8,
        13, 8, 8, 10, 13, 0, 2, -7,
        0, 0, 0, 0, 0, 0, 0, 0,
    ],
    chess.KNIGHT: [
        -58, -38, -13, -28, -31, -27, -63, -99,
        -25, -8, -25, -2, -9, -25, -24, -52,
        -24, -20, 10, 9, -1, -9, -19, -41,
        -17, 3, 22, 22, 22, 11, 8, -18,
        -18, -6, 16, 25, 16, 17, 4, -18,
        -23, -3, -1, 15, 10, -3, -20, -22,
        -42, -20, -10, -5, -2, -20, -23, -44,
        -29, -51, -23, -15, -22, -18, -50, -64,
    ],
    chess.BISHOP: [
        -14, -21, -11, -8, -7, -9, -17, -24,
        -8, -4, 7, -12, -3, -13, -4, -14,
        2, -8, 0, -1, -2, 6, 0, 4,
        -3, 9, 12, 9, 14, 10, 3, 2,
        -6, 3, 13, 19, 7, 10, -3, -9,
        -12, -3, 8, 10, 13, 3, -7, -15,
        -14, -18, -7, -1, 4, -9, -15, -27,
        -23, -9, -23, -5, -9, -16, -5, -17,
    ],
    chess.ROOK: [
        13, 10, 18, 15, 12, 12, 8, 5,
        11, 13, 13, 11, -3, 3, 8, 3,
        7, 7, 7, 5, 4, -3, -5, -3,
        4, 3, 13, 1, 2, 1, -1, 2,
        3, 5, 8, 4, -5, -6, -8, -11,
        -4, 0, -5, -1, -7, -12, -8, -16,
        -6, -6, 0, 2, -9, -9, -11, -3,
        -9, 2, 3, -1, -5, -13, 4, -20,
    ],
    chess.QUEEN: [
        -9, 22, 22, 27, 27, 19, 10, 20,
        -17, 20, 32, 41, 58, 25, 30, 0,
        -20, 6, 9, 49, 47, 35, 19, 9,
        3, 22, 24, 45, 57, 40, 57, 36,
        -18, 28, 19, 47, 31, 34, 39, 23,
        -16, -27, 15, 6, 9, 17, 10, 5,
        -22, -23, -30, -16, -16, -23, -36, -32,
        -33, -28, -22, -43, -5, -32, -20, -41,
    ],
    chess.KING: [
        -74, -35, -18, -18, -11, 15, 4, -17,
        -12, 17, 14, 17, 17, 38, 23, 11,
        10, 17, 23, 15, 20, 45, 44, 13,
        -8, 22, 24, 27, 26, 33, 26, 3,
        -18, -4, 21, 24, 27, 23, 9, -11,
        -19, -3, 11, 21, 23, 16, 7, -9,
        -27, -11, 4, 13, 14, 4, -5, -17,
        -53, -34, -21, -11, -28, -14, -24, -43,
    ],
}


def _signed_tables(values: dict[int, int], tables: dict[int, list[int]]) -> dict[int, tuple[list[int], list[int]]]:
    """Per piece type, (White's, Black's) value+table by python-chess square,
    Black's negated: summing over all pieces gives White's score."""
    out = {}
    for piece_type, table in tables.items():
        value = values[piece_type]
        white = [value + table[sq ^ 56] for sq in range(64)]
        black = [-(value + table[sq]) for sq in range(64)]
        out[piece_type] = (white, black)
    return out


_SOFT_TABLES = _signed_tables(_SIMPLE_VALUES, _SIMPLE_PST)
_SOFT_KING_MIDDLE = _signed_tables({chess.KING: 0}, {chess.KING: _SIMPLE_KING_MIDDLE})[chess.KING]
_SOFT_KING_END = _signed_tables({chess.KING: 0}, {chess.KING: _SIMPLE_KING_END})[chess.KING]
_PESTO_MG_TABLES = _signed_tables(_PESTO_MG_VALUES, _PESTO_MG)
_PESTO_EG_TABLES = _signed_tables(_PESTO_EG_VALUES, _PESTO_EG)
_PESTO_PHASE = {chess.PAWN: 0, chess.KNIGHT: 1, chess.BISHOP: 1, chess.ROOK: 2, chess.QUEEN: 4, chess.KING: 0}


def _is_simple_endgame(b: chess.Board) -> bool:
    """The seeds' endgame test for the king table: no queens, or every side
    with a queen has no rook and at most one minor piece."""
    queens = b.queens
    if not queens:
        return True
    minors = b.knights | b.bishops
    for color in (chess.WHITE, chess.BLACK):
        own = b.occupied_co[color]
        if queens & own and (b.rooks & own or (minors & own).bit_count() > 1):
            return False
    return True


#: soft/hard weights, centipawns.
SOFT_CENTRE = 10  # per centre square (d4 e4 d5 e5) the side attacks
SOFT_SHELTER = 10  # per own pawn next to the king
SOFT_DANGER = 15  # per square next to the king the enemy attacks (a penalty)
SOFT_TEMPO = 10  # for the side to move
HARD_MOBILITY = 4  # per pseudo-legal move
HARD_ISOLATED = 20
HARD_DOUBLED = 10  # per pawn on a file with another own pawn
HARD_BACKWARD = 15
#: Passed pawn bonus by rank counted from the pawn's own side (the seed gives a flat 50).
HARD_PASSED = (0, 10, 15, 25, 40, 60, 90, 0)


#: Pawn hash: (White pawns, Black pawns) -> (pawn material + table score for
#: soft/hard, hard's pawn-structure score), both from White's side.  Pawn
#: structures repeat all over a search tree, so this saves most of the pawn work.
_PAWN_CACHE: dict[tuple[int, int], tuple[int, int]] = {}
_PAWN_CACHE_LIMIT = 1 << 17


def _pawn_entry(pw: int, pb: int) -> tuple[int, int]:
    entry = _PAWN_CACHE.get((pw, pb))
    if entry is not None:
        return entry
    white_table, black_table = _SOFT_TABLES[chess.PAWN]
    table = 0
    bb = pw
    while bb:
        low = bb & -bb
        table += white_table[low.bit_length() - 1]
        bb ^= low
    bb = pb
    while bb:
        low = bb & -bb
        table += black_table[low.bit_length() - 1]
        bb ^= low
    structure = 0
    for own, their, white_side, sign in ((pw, pb, True, 1), (pb, pw, False, -1)):
        _, isolated, on_doubled, backward, passed = _pawn_terms(own, their, white_side)
        side = -(HARD_ISOLATED * isolated + HARD_DOUBLED * on_doubled + HARD_BACKWARD * backward)
        for sq in passed:
            rank = sq >> 3
            side += HARD_PASSED[rank if white_side else 7 - rank]
        structure += sign * side
    if len(_PAWN_CACHE) >= _PAWN_CACHE_LIMIT:
        _PAWN_CACHE.clear()
    entry = _PAWN_CACHE[(pw, pb)] = (table, structure)
    return entry


_SOFT_PIECE_TABLES = tuple(_SOFT_TABLES[pt] for pt in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN))


def _soft_white(b: chess.Board, with_extras: bool) -> int:
    occ_b, occ_w = b.occupied_co
    pawns = b.pawns
    pawn_table, pawn_structure = _pawn_entry(pawns & occ_w, pawns & occ_b)
    score = pawn_table
    for bb, (white, black) in zip((b.knights, b.bishops, b.rooks, b.queens), _SOFT_PIECE_TABLES):
        own = bb & occ_w
        bb ^= own
        while own:
            low = own & -own
            score += white[low.bit_length() - 1]
            own ^= low
        while bb:
            low = bb & -bb
            score += black[low.bit_length() - 1]
            bb ^= low
    king_white, king_black = _SOFT_KING_END if _is_simple_endgame(b) else _SOFT_KING_MIDDLE
    kings = b.kings
    kw = kings & occ_w
    kb = kings & occ_b
    att_w, att_b, mob_w, mob_b = _scan(b)
    score += SOFT_CENTRE * ((att_w & _CENTRE).bit_count() - (att_b & _CENTRE).bit_count())
    if kw:
        sq = kw.bit_length() - 1
        zone = _KING_ZONE[sq]
        score += king_white[sq]
        score += SOFT_SHELTER * (zone & pawns & occ_w).bit_count() - SOFT_DANGER * (zone & att_b).bit_count()
    if kb:
        sq = kb.bit_length() - 1
        zone = _KING_ZONE[sq]
        score += king_black[sq]
        score -= SOFT_SHELTER * (zone & pawns & occ_b).bit_count() - SOFT_DANGER * (zone & att_w).bit_count()
    score += SOFT_TEMPO if b.turn else -SOFT_TEMPO
    if with_extras:
        score += HARD_MOBILITY * (mob_w - mob_b) + pawn_structure
    return score


def soft(game: ChessGame, player: int) -> int:
    """The cheap cut heuristic (the seeds' ``SoftBoardEvaluationChessGame``).

    Material and Michniewski's piece-square tables (king table for the
    middlegame or, by the seeds' endgame test, the endgame), centre control
    (+10 per centre square attacked), king safety (+10 per own pawn next to the
    king, -15 per neighbour square the enemy attacks) and +10 for the side to
    move, in centipawns.  The seeds normalise each part to +-100 and mix them
    0.35/0.20/0.25/0.20, which makes a whole queen worth less than one attacked
    centre square; we keep their parts with centipawn weights instead.
    """
    score = _soft_white(game._board, False)
    return score if player == WHITE_PLAYER else -score


def hard(game: ChessGame, player: int) -> int:
    """``soft`` plus mobility and pawn structure (``HardBoardEvaluationChessGame``).

    Mobility: +4 per pseudo-legal move (see :func:`_scan`).  Pawn structure
    (the seed's terms): -20 per isolated pawn, -10 per pawn on a file shared
    with another own pawn, -15 per backward pawn, and a passed pawn bonus that
    grows with its rank (:data:`HARD_PASSED`; the seed gives a flat 50).
    """
    score = _soft_white(game._board, True)
    return score if player == WHITE_PLAYER else -score


_PESTO_PIECES = tuple(
    (_PESTO_MG_TABLES[pt], _PESTO_EG_TABLES[pt], _PESTO_PHASE[pt])
    for pt in (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)
)


def pesto(game: ChessGame, player: int) -> int:
    """A tapered PeSTO evaluation: midgame and endgame material and
    piece-square tables blended by the game phase (N 1, B 1, R 2, Q 4 out of
    24), plus a small tempo bonus.  The strongest static evaluation here."""
    b = game._board
    occ_w = b.occupied_co[chess.WHITE]
    mg = 0
    eg = 0
    phase = 0
    for bb, ((mg_white, mg_black), (eg_white, eg_black), weight) in zip(
        (b.pawns, b.knights, b.bishops, b.rooks, b.queens, b.kings), _PESTO_PIECES
    ):
        if weight:
            phase += weight * bb.bit_count()
        own = bb & occ_w
        bb ^= own
        while own:
            low = own & -own
            sq = low.bit_length() - 1
            mg += mg_white[sq]
            eg += eg_white[sq]
            own ^= low
        while bb:
            low = bb & -bb
            sq = low.bit_length() - 1
            mg += mg_black[sq]
            eg += eg_black[sq]
            bb ^= low
    if phase > 24:
        phase = 24
    total = mg * phase + eg * (24 - phase)
    score = total // 24 if total >= 0 else -(-total // 24)  # round toward zero: colour-symmetric
    score += SOFT_TEMPO if b.turn else -SOFT_TEMPO
    return score if player == WHITE_PLAYER else -score


ChessGame.HEURISTICS = {
    "material": material,
    "sef": sef,
    "soft": soft,
    "hard": hard,
    "pesto": pesto,
}
