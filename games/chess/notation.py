"""Reading chess moves: SAN and UCI, with a reason for every refusal.

:class:`MoveReading` is the notation half of :class:`~games.chess.ChessGame`:
it parses a move typed in SAN (``e4``, ``Nf3``, ``O-O``, ``exd8=Q``; also
``0-0``, trailing ``+``/``#`` and annotation glyphs such as ``!?``, long
algebraic ``Ng1-f3``, ``e8Q``) or UCI (``e2e4``, ``e7e8q``), formats moves in
SAN, and explains an illegal move in one line (which piece cannot go there
and why, with an example of a legal move).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NoReturn

import chess

from ..base import MAX_MOVE_TEXT, IllegalMoveError, MoveSyntaxError, check_length, quote_input

__all__ = ["MoveReading"]

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


class MoveReading:
    """Move notation for a game that keeps its position in :attr:`board`."""

    if TYPE_CHECKING:
        @property
        def board(self) -> chess.Board:
            """The position, kept by the class this is mixed into (read-only there)."""
            ...

    def format_move(self, move: chess.Move) -> str:
        """The move in SAN, with ``+``/``#`` (e.g. ``'Nf3'``, ``'O-O'``, ``'exd8=Q+'``)."""
        return self.board.san(move)

    def parse_move(self, text: str) -> chess.Move:
        """Read a move in SAN or UCI and check that it is legal here.

        Accepts ``O-O``/``0-0``, check marks and annotation glyphs
        (``Nf3+``, ``e4!?``), any disambiguation by file, rank or square
        (``Nbd2``, ``B8d5``, ``Bb8d5``), long algebraic (``Ng1-f3``,
        ``e2xe4``), ``e8Q`` for ``e8=Q``, and lowercase piece letters other
        than ``b`` (``nf3``).  Text with a capital piece letter is SAN whenever
        SAN can read it, so ``B8d5`` is never the square move ``b8d5``.
        """
        if not isinstance(text, str):
            raise MoveSyntaxError(f"{_SYNTAX_HINT}, got {type(text).__name__}")
        check_length(text, MAX_MOVE_TEXT, "a move", MoveSyntaxError)
        core = _SUFFIX_RE.sub("", text.strip())
        if not core:
            raise MoveSyntaxError(f"{_SYNTAX_HINT}, got {quote_input(text)}")
        board = self.board
        lowered = core.lower()
        # "B8d5" is SAN (a bishop from the 8th rank), not the square move "b8d5":
        # a capital piece letter reads as SAN whenever SAN can read it.
        if _UCI_RE.match(lowered) and (core[0] not in "NBRQK" or chess.SAN_REGEX.match(core) is None):
            return self._parse_uci(lowered, text)
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
        for move in self.board.generate_legal_moves():
            return f"; try e.g. '{self.board.san(move)}'"
        return "; there is no legal move here"

    def _parse_uci(self, uci: str, text: str) -> chess.Move:
        board = self.board
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
        board = self.board
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
        if self.board.is_check():
            return "it does not get the king out of check"
        return "it would leave the king in check"

    def _parse_castling(self, kingside: bool, text: str) -> chess.Move:
        board = self.board
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
        board = self.board
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
        board = self.board
        from_mask, to_mask, promotion, _ = self._san_masks(match)
        generate = board.generate_legal_moves if legal else board.generate_pseudo_legal_moves
        return [m for m in generate(from_mask, to_mask) if m.promotion == promotion]

    def _why_illegal_san(self, match: re.Match[str], text: str) -> str:
        board = self.board
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

