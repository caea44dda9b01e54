"""A :class:`chess.Board` whose ``push``/``pop`` do what search needs, fast, and keep accumulators.

:class:`FastBoard` is the board of every :class:`~games.chess.game.ChessGame`.  It IS a
``chess.Board`` (python-chess stays the data model: FEN, SAN, records, legal-move generation,
``is_check``, outcomes, repetition), and it keeps python-chess's invariants: the same bitboards,
``promoted``, castling rights, en passant square, counters, ``move_stack`` and ``_stack`` (whose
records answer ``.occupied`` and ``.restore(board)`` as python-chess's own do), so every
``chess.Board`` method, ``pop()`` included, works on it unchanged.  What differs:

* :meth:`FastBoard.push` plays a standard-chess move (pseudo-legal, as python-chess's asks, or the
  null move) in straight-line bit operations, saving the position before it in one tuple
  (:class:`_Undo`) instead of python-chess's ``_BoardState`` object; a drop or a Chess960 board
  goes through python-chess's own ``push``.
* :meth:`FastBoard.pop` unpacks that tuple back.
* :meth:`FastBoard.accumulated` keeps the :class:`~games.chess.accumulator.Accumulator` sums
  incrementally (the contract is in :mod:`games.chess.accumulator`): ``push`` adds the columns of
  the features a move adds and subtracts those it removes, ``pop`` restores the saved sums, and any
  other change of the pieces drops them for a recomputation on the next read.

What it relies on of python-chess beyond its public API (python-chess's own ``push``/``pop``
rely on the same): the move stack's twin ``_stack`` of position records, which ``pop``, ``root``,
``copy`` and ``is_repetition`` read (:class:`_Undo` is such a record); and the private piece
setters every public way of changing the pieces goes through (``_set_piece_at``,
``_remove_piece_at``, ``_reset_board``, ``_clear_board``, ``_set_chess960_pos``), overridden here to
drop the sums.  ``tests/test_chess_fastboard.py`` checks both against python-chess (the state after
every push and pop, and each public mutator followed by an evaluation), so a python-chess release
that changes them fails the tests instead of the evaluations.

The plain python-chess path stays reachable: a ``ChessGame`` made on a plain ``chess.Board`` plays
with python-chess's ``push``/``pop`` and evaluates from scratch; the tests check that both give the
same perft counts and the same search trees.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Callable

import chess

from .accumulator import Accumulator
from .bitboards import pinned_mask

__all__ = ["FastBoard"]

_SQUARES = chess.BB_SQUARES
_NAMES = ("", "pawns", "knights", "bishops", "rooks", "queens", "kings")
_NOT_RANK_1 = ~chess.BB_RANK_1 & chess.BB_ALL
_NOT_RANK_8 = ~chess.BB_RANK_8 & chess.BB_ALL
_RANKS_3_4 = chess.BB_RANK_3 | chess.BB_RANK_4
_RANKS_6_5 = chess.BB_RANK_6 | chess.BB_RANK_5
_KNIGHT_ATTACKS, _KING_ATTACKS, _PAWN_ATTACKS = chess.BB_KNIGHT_ATTACKS, chess.BB_KING_ATTACKS, chess.BB_PAWN_ATTACKS
_DIAG_MASKS, _DIAG_ATTACKS = chess.BB_DIAG_MASKS, chess.BB_DIAG_ATTACKS
_RANK_MASKS, _RANK_ATTACKS = chess.BB_RANK_MASKS, chess.BB_RANK_ATTACKS
_FILE_MASKS, _FILE_ATTACKS = chess.BB_FILE_MASKS, chess.BB_FILE_ATTACKS
_RAYS = chess.BB_RAYS
#: Every move from a square to a square, made once: move lists share them (python-chess makes new
#: ones, equal to these; nothing changes a move).
_MOVES = [[chess.Move(from_square, to_square) for to_square in range(64)] for from_square in range(64)]
#: A pawn's moves from a square to a square: the move, or to the last rank its four promotions in
#: python-chess's order (queen, rook, bishop, knight).
_PAWN_MOVES = [[tuple(chess.Move(from_square, to_square, promotion) for promotion in (5, 4, 3, 2))
                if to_square >> 3 in (0, 7) else (_MOVES[from_square][to_square],)
                for to_square in range(64)] for from_square in range(64)]


class _Undo(tuple[Any, ...]):
    """What :meth:`FastBoard.push` saves: ``(pawns, knights, bishops, rooks, queens, kings,
    occupied_w, occupied_b, occupied, promoted, turn, castling_rights, ep_square, halfmove_clock,
    fullmove_number, sums, checkers)``.  Like python-chess's ``_BoardState`` it answers ``occupied`` (read by
    ``Board.is_repetition``) and ``restore(board)`` (``Board.root``)."""

    __slots__ = ()

    occupied = property(itemgetter(8))

    def restore(self, board: chess.Board) -> None:
        """Put this position on ``board`` (another board: its accumulator sums are dropped)."""
        (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings, white, black,
         board.occupied, board.promoted, board.turn, board.castling_rights, board.ep_square,
         board.halfmove_clock, board.fullmove_number, _sums, _checkers) = self
        board.occupied_co[chess.WHITE] = white
        board.occupied_co[chess.BLACK] = black
        if isinstance(board, FastBoard):
            board._sums = board._checkers = None


def _dropping_sums(name: str) -> Callable[..., Any]:
    """python-chess's mutator ``name``, then the accumulator sums dropped (recomputed on the next read)."""
    method = getattr(chess.Board, name)

    def mutator(self: FastBoard, *args: Any, **kwargs: Any) -> Any:
        result = method(self, *args, **kwargs)
        self._sums = self._checkers = None
        return result

    mutator.__name__ = name
    mutator.__doc__ = f"python-chess's ``{name}``; the accumulator sums are recomputed on the next read."
    return mutator


class FastBoard(chess.Board):
    """A ``chess.Board`` with a lean ``push``/``pop`` and incremental accumulators (see the module)."""

    #: The attached accumulators' packed columns, in slot order.
    _columns: tuple[tuple[int, ...], ...]
    #: Each attached accumulator's slot.
    _slots: dict[Accumulator, int]
    #: The packed sums of the position on the board, by slot; ``None``: to be recomputed.
    _sums: list[int] | None
    #: The side to move's checkers (python-chess's ``checkers_mask``); ``None``: not computed yet.
    _checkers: int | None

    def __init__(self, fen: str | None = chess.STARTING_FEN, *, chess960: bool = False) -> None:
        self._columns = ()
        self._slots = {}
        self._sums = self._checkers = None
        super().__init__(fen, chess960=chess960)

    # Every other way python-chess changes the pieces drops the sums.
    _set_piece_at = _dropping_sums("_set_piece_at")
    _remove_piece_at = _dropping_sums("_remove_piece_at")
    _reset_board = _dropping_sums("_reset_board")
    _clear_board = _dropping_sums("_clear_board")
    _set_chess960_pos = _dropping_sums("_set_chess960_pos")
    apply_transform = _dropping_sums("apply_transform")

    # ------------------------------------------------------------ accumulators
    def accumulated(self, accumulator: Accumulator) -> int:
        """The packed sum of ``accumulator`` for the position on the board (attached on first use)."""
        slot = self._slots.get(accumulator)
        sums = self._sums
        if slot is None or sums is None or slot >= len(sums):
            if slot is None:
                slot = self._slots[accumulator] = len(self._columns)
                self._columns += (accumulator.columns,)
            sums = self._recompute()
        return sums[slot]

    def _recompute(self) -> list[int]:
        """Every attached accumulator's sum, from scratch."""
        sums = [accumulator.value_of(self) for accumulator in self._slots]
        self._sums = sums
        return sums

    # ------------------------------------------------------------- make/undo
    def push(self, move: chess.Move) -> None:
        """python-chess's ``push`` for a standard board (same resulting state), in straight-line code."""
        if self.chess960 or move.drop:
            super().push(move)
            self._sums = self._checkers = None
            return
        turn = self.turn
        co = self.occupied_co
        ours = co[turn]
        theirs = co[not turn]
        sums = self._sums
        columns = self._columns
        if columns and (sums is None or len(sums) != len(columns)):
            sums = self._recompute()  # saved below, so the sums are computed once, not again after the pop
        castling_rights = self.castling_rights
        stack = self._stack
        if not stack:  # python-chess's rights are filtered once, at the first move
            self.castling_rights = self.clean_castling_rights()
        record = _Undo((self.pawns, self.knights, self.bishops, self.rooks, self.queens, self.kings,
                        co[True], co[False], self.occupied, self.promoted, turn, castling_rights,
                        self.ep_square, self.halfmove_clock, self.fullmove_number, sums, self._checkers))
        self._checkers = None
        stack.append(record)  # type: ignore[arg-type]  # read as python-chess reads its _BoardState
        castling_rights = self.castling_rights
        self.move_stack.append(move)
        ep_square = self.ep_square
        self.ep_square = None
        self.halfmove_clock += 1
        if not turn:
            self.fullmove_number += 1
        from_square = move.from_square
        to_square = move.to_square
        if from_square == to_square:  # the null move
            self.castling_rights = castling_rights
            self.turn = not turn
            return

        from_bb = _SQUARES[from_square]
        to_bb = _SQUARES[to_square]
        if self.pawns & from_bb:
            piece = 1
        elif self.knights & from_bb:
            piece = 2
        elif self.bishops & from_bb:
            piece = 3
        elif self.rooks & from_bb:
            piece = 4
        elif self.queens & from_bb:
            piece = 5
        else:
            piece = 6
        captured = 0
        capture_bb = to_bb
        if theirs & to_bb:
            captured = self.piece_type_at(to_square)  # type: ignore[assignment]
        promoted = self.promoted
        castling_rights &= ~(from_bb | to_bb)
        if piece == 6 and not promoted & from_bb:
            castling_rights &= _NOT_RANK_1 if turn else _NOT_RANK_8
        elif captured == 6 and not promoted & to_bb:
            if turn and to_square >> 3 == 7:
                castling_rights &= _NOT_RANK_8
            elif not turn and to_square >> 3 == 0:
                castling_rights &= _NOT_RANK_1
        self.castling_rights = castling_rights
        base = 384 if turn else 0
        other = 384 - base

        if piece == 6 and (to_bb & ours or (from_square == 4 or from_square == 60)
                           and (to_square - from_square == 2 or from_square - to_square == 2)):
            # Castling: given as the king's two-square move or (Chess960 style) onto its own rook.
            if to_bb & ours:
                rook_square = to_square
                a_side = to_square & 7 < from_square & 7
            else:
                a_side = to_square < from_square
                rook_square = from_square - 4 if a_side else from_square + 3
            back = 0 if turn else 56
            king_to = back + (2 if a_side else 6)
            rook_to = back + (3 if a_side else 5)
            if to_bb & ours and (from_square == 4 or from_square == 60) and to_square & 7 in (0, 7):
                self.move_stack[-1] = chess.Move(from_square, king_to)  # recorded as python-chess records it
            king_bbs = from_bb | _SQUARES[king_to]
            rook_bbs = _SQUARES[rook_square] | _SQUARES[rook_to]
            self.kings ^= king_bbs
            self.rooks ^= rook_bbs
            co[turn] = ours ^ king_bbs ^ rook_bbs
            if promoted:
                self.promoted = promoted & ~(king_bbs | rook_bbs)
            self.occupied = co[turn] | theirs
            self.turn = not turn
            if sums is not None:
                king_from_f = base + 320 + from_square
                king_to_f = base + 320 + king_to
                rook_from_f = base + 192 + rook_square
                rook_to_f = base + 192 + rook_to
                self._sums = [s + c[king_to_f] + c[rook_to_f] - c[king_from_f] - c[rook_from_f]
                              for s, c in zip(sums, columns)]
            return

        placed = piece
        if piece == 1:
            self.halfmove_clock = 0
            diff = to_square - from_square
            if diff == 16 and from_square >> 3 == 1:
                self.ep_square = from_square + 8
            elif diff == -16 and from_square >> 3 == 6:
                self.ep_square = from_square - 8
            elif to_square == ep_square and not captured and diff in (7, 9, -7, -9):
                captured = 1
                capture_bb = _SQUARES[ep_square - 8 if turn else ep_square + 8]
            if move.promotion:
                placed = move.promotion
        if captured:
            self.halfmove_clock = 0
            name = _NAMES[captured]
            setattr(self, name, getattr(self, name) ^ capture_bb)
            co[not turn] = theirs = theirs ^ capture_bb
        if placed == piece:
            name = _NAMES[piece]
            setattr(self, name, getattr(self, name) ^ (from_bb | to_bb))
        else:
            self.pawns ^= from_bb
            name = _NAMES[placed]
            setattr(self, name, getattr(self, name) | to_bb)
        co[turn] = ours = ours ^ (from_bb | to_bb)
        self.occupied = ours | theirs
        if promoted or placed != piece:
            moved_promoted = promoted & from_bb
            promoted &= ~(from_bb | to_bb | capture_bb)
            if moved_promoted or placed != piece:
                promoted |= to_bb
            self.promoted = promoted
        self.turn = not turn
        if sums is not None:
            removed = base + piece * 64 - 64 + from_square
            added = base + placed * 64 - 64 + to_square
            if captured:
                taken = other + captured * 64 - 64 + (capture_bb.bit_length() - 1)
                if len(columns) == 1:  # one accumulator (pesto alone): no loop
                    c = columns[0]
                    self._sums = [sums[0] + c[added] - c[removed] - c[taken]]
                else:
                    self._sums = [s + c[added] - c[removed] - c[taken] for s, c in zip(sums, columns)]
            elif len(columns) == 1:
                c = columns[0]
                self._sums = [sums[0] + c[added] - c[removed]]
            else:
                self._sums = [s + c[added] - c[removed] for s, c in zip(sums, columns)]

    def pop(self) -> chess.Move:
        """Take back the last move: restore the saved position (``IndexError`` if none)."""
        move = self.move_stack.pop()
        record = self._stack.pop()
        if type(record) is not _Undo:  # pushed by python-chess itself (a drop, Chess960)
            record.restore(self)
            self._sums = self._checkers = None
            return move
        (self.pawns, self.knights, self.bishops, self.rooks, self.queens, self.kings, white, black,
         self.occupied, self.promoted, self.turn, self.castling_rights, self.ep_square,
         self.halfmove_clock, self.fullmove_number, self._sums, self._checkers) = record
        co = self.occupied_co
        co[True] = white
        co[False] = black
        return move

    # ----------------------------------------------------------- move lists
    def checkers_mask(self) -> int:
        """python-chess's, computed once per position (pop restores the saved one)."""
        checkers = self._checkers
        if checkers is None:
            checkers = self._checkers = self._find_checkers()
        return checkers

    def is_check(self) -> bool:
        """python-chess's, from the position's saved checkers."""
        checkers = self._checkers
        if checkers is None:
            checkers = self._checkers = self._find_checkers()
        return checkers != 0

    def _find_checkers(self) -> int:
        """python-chess's ``checkers_mask``: the pieces attacking the side to move's (unpromoted) king."""
        turn = self.turn
        king = self.kings & self.occupied_co[turn] & ~self.promoted
        return self.attackers_mask(not turn, king.bit_length() - 1) if king else 0

    def legal_move_list(self, to_mask: int = chess.BB_ALL) -> list[chess.Move]:
        """``list(self.generate_legal_moves(chess.BB_ALL, to_mask))``, in the same order, built in one pass.

        Out of check each pseudo-legal move is kept by python-chess's own test (a king move to an
        unattacked square, a pinned piece along its pin), written inline, and en passant comes from
        ``generate_legal_ep``; in check (or on a Chess960 board) it is python-chess's generator itself.
        """
        turn = self.turn
        co = self.occupied_co
        ours = co[turn]
        kings = self.kings
        king_mask = kings & ours
        if not king_mask or self.chess960 or self.is_check():
            return list(self.generate_legal_moves(chess.BB_ALL, to_mask))
        king = king_mask.bit_length() - 1
        them = not turn
        blockers = pinned_mask(self, king)
        occupied = self.occupied
        pawns = self.pawns
        knights = self.knights
        diagonal = self.bishops | self.queens
        straight = self.rooks | self.queens
        attackers_mask = self.attackers_mask
        moves: list[chess.Move] = []
        append = moves.append
        extend = moves.extend
        not_ours = ~ours & to_mask
        pieces = ours & ~pawns
        while pieces:
            from_square = pieces.bit_length() - 1
            from_bb = _SQUARES[from_square]
            pieces ^= from_bb
            if from_bb & knights:
                targets = _KNIGHT_ATTACKS[from_square]
            elif from_bb & kings:
                targets = _KING_ATTACKS[from_square]
            else:
                targets = 0
                if from_bb & diagonal:
                    targets = _DIAG_ATTACKS[from_square][_DIAG_MASKS[from_square] & occupied]
                if from_bb & straight:
                    targets |= (_RANK_ATTACKS[from_square][_RANK_MASKS[from_square] & occupied]
                                | _FILE_ATTACKS[from_square][_FILE_MASKS[from_square] & occupied])
            targets &= not_ours
            if from_square == king:
                while targets:
                    to_square = targets.bit_length() - 1
                    targets ^= _SQUARES[to_square]
                    if not attackers_mask(them, to_square):
                        append(_MOVES[from_square][to_square])
            elif from_bb & blockers:
                while targets:
                    to_square = targets.bit_length() - 1
                    targets ^= _SQUARES[to_square]
                    if _RAYS[from_square][to_square] & king_mask:
                        append(_MOVES[from_square][to_square])
            else:
                while targets:
                    to_square = targets.bit_length() - 1
                    targets ^= _SQUARES[to_square]
                    append(_MOVES[from_square][to_square])
        if self.castling_rights & to_mask:  # python-chess's castling moves are to a square of these rights
            moves.extend(self.generate_castling_moves(chess.BB_ALL, to_mask))
        own_pawns = pawns & ours
        if not own_pawns:
            return moves
        theirs = co[them]
        capturers = own_pawns
        pawn_attacks = _PAWN_ATTACKS[turn]
        while capturers:
            from_square = capturers.bit_length() - 1
            from_bb = _SQUARES[from_square]
            capturers ^= from_bb
            targets = pawn_attacks[from_square] & theirs & to_mask
            pinned = from_bb & blockers
            while targets:
                to_square = targets.bit_length() - 1
                targets ^= _SQUARES[to_square]
                if not pinned or _RAYS[from_square][to_square] & king_mask:
                    extend(_PAWN_MOVES[from_square][to_square])
        empty = ~occupied
        if turn:
            single = own_pawns << 8 & empty
            double = single << 8 & empty & _RANKS_3_4
            step = -8
        else:
            single = own_pawns >> 8 & empty
            double = single >> 8 & empty & _RANKS_6_5
            step = 8
        single &= to_mask
        double &= to_mask
        for targets, back in ((single, step), (double, 2 * step)):
            while targets:
                to_square = targets.bit_length() - 1
                targets ^= _SQUARES[to_square]
                from_square = to_square + back
                if not _SQUARES[from_square] & blockers or _RAYS[from_square][to_square] & king_mask:
                    extend(_PAWN_MOVES[from_square][to_square])
        if self.ep_square:
            moves.extend(self.generate_legal_ep(chess.BB_ALL, to_mask))
        return moves

    # ------------------------------------------------------------------ copies
    def copy(self, *, stack: bool | int = True) -> FastBoard:
        """python-chess's copy, keeping the attached accumulators and their sums."""
        board = super().copy(stack=stack)
        board._columns = self._columns
        board._slots = dict(self._slots)
        board._sums = self._sums
        board._checkers = self._checkers
        return board

    def __getstate__(self) -> dict[str, Any]:
        """The board's state without its accumulators (they are re-attached on first use)."""
        state = dict(self.__dict__)
        state["_columns"] = ()
        state["_slots"] = {}
        state["_sums"] = state["_checkers"] = None
        return state
