"""Bitboard tables and the bulk legal-move count (perft's fast path).

Everything here reads python-chess's public surface only: the board's piece
bitboards, ``occupied_co``, ``attackers_mask``, the ``BB_*`` attack tables and
its move generators.
"""

from __future__ import annotations

import functools

import chess

__all__ = ["WHITE_PLAYER", "BLACK_PLAYER", "count_legal_moves", "pinned_mask"]

#: Player numbers of the game protocol: White moves first.
WHITE_PLAYER = 0
BLACK_PLAYER = 1

ALL = chess.BB_ALL
NOT_A = ~chess.BB_FILE_A & ALL
NOT_H = ~chess.BB_FILE_H & ALL
CENTRE = chess.BB_D4 | chess.BB_E4 | chess.BB_D5 | chess.BB_E5
KNIGHT = chess.BB_KNIGHT_ATTACKS
KING_ZONE = chess.BB_KING_ATTACKS
DIAG_MASKS, DIAG_ATTACKS = chess.BB_DIAG_MASKS, chess.BB_DIAG_ATTACKS
FILE_MASKS, FILE_ATTACKS = chess.BB_FILE_MASKS, chess.BB_FILE_ATTACKS
RANK_MASKS, RANK_ATTACKS = chess.BB_RANK_MASKS, chess.BB_RANK_ATTACKS
RANK_3, RANK_6 = chess.BB_RANK_3, chess.BB_RANK_6
RAYS = chess.BB_RAYS
PAWN_ATTACKS = chess.BB_PAWN_ATTACKS
RANK_1, RANK_8 = chess.BB_RANK_1, chess.BB_RANK_8
#: Squares of the undeveloped minor pieces (used for the SEF opening phase).
WHITE_MINOR_HOME = chess.BB_B1 | chess.BB_C1 | chess.BB_F1 | chess.BB_G1
BLACK_MINOR_HOME = chess.BB_B8 | chess.BB_C8 | chess.BB_F8 | chess.BB_G8
#: Bitboard of the files in an 8-bit file set.
FILES_OF_SET = [
    functools.reduce(lambda acc, f: acc | (chess.BB_FILES[f] if fs >> f & 1 else 0), range(8), 0) for fs in range(256)
]


def north_fill(bb: int) -> int:
    bb |= bb << 8
    bb |= bb << 16
    bb |= bb << 32
    return bb & ALL


def south_fill(bb: int) -> int:
    bb |= bb >> 8
    bb |= bb >> 16
    bb |= bb >> 32
    return bb


def file_set(bb: int) -> int:
    """The 8-bit set of files holding a bit of ``bb``."""
    bb |= bb >> 32
    bb |= bb >> 16
    bb |= bb >> 8
    return bb & 0xFF




def pinned_mask(board: chess.Board, king_square: int) -> int:
    """The side to move's pieces pinned to its king on ``king_square``: each
    one the only piece between the king and an enemy slider on its line."""
    them = board.occupied_co[not board.turn]
    straight = (board.rooks | board.queens) & them
    diagonal = (board.bishops | board.queens) & them
    snipers = ((RANK_ATTACKS[king_square][0] | FILE_ATTACKS[king_square][0]) & straight
               | DIAG_ATTACKS[king_square][0] & diagonal)
    occupied = board.occupied
    blockers = 0
    between = chess.between
    while snipers:
        low = snipers & -snipers
        line = between(king_square, low.bit_length() - 1) & occupied
        if line and not line & (line - 1):
            blockers |= line
        snipers ^= low
    return blockers & board.occupied_co[board.turn]


def count_legal_moves(board: chess.Board) -> int:
    """``board.legal_moves.count()`` without generating the moves.

    When the side to move is not in check, counts each piece's targets from the
    attack tables, keeping pinned pieces (:func:`pinned_mask`) on the line through their king, the king's steps to
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
    pinned = pinned_mask(board, ksq)
    rays = RAYS[ksq]
    n = 0
    bb = board.knights & us & ~pinned
    while bb:
        low = bb & -bb
        n += (KNIGHT[low.bit_length() - 1] & not_us).bit_count()
        bb ^= low
    bb = (board.bishops | board.queens) & us
    while bb:
        low = bb & -bb
        sq = low.bit_length() - 1
        a = DIAG_ATTACKS[sq][DIAG_MASKS[sq] & occ] & not_us
        if low & pinned:
            a &= rays[sq]
        n += a.bit_count()
        bb ^= low
    bb = (board.rooks | board.queens) & us
    while bb:
        low = bb & -bb
        sq = low.bit_length() - 1
        a = (FILE_ATTACKS[sq][FILE_MASKS[sq] & occ] | RANK_ATTACKS[sq][RANK_MASKS[sq] & occ]) & not_us
        if low & pinned:
            a &= rays[sq]
        n += a.bit_count()
        bb ^= low
    bb = KING_ZONE[ksq] & not_us
    while bb:
        low = bb & -bb
        if not attackers(them_color, low.bit_length() - 1):
            n += 1
        bb ^= low
    if board.castling_rights & (RANK_1 if turn else RANK_8):
        for _ in board.generate_castling_moves():
            n += 1
    pawns = board.pawns & us
    if pawns:
        them = board.occupied_co[them_color]
        empty = ~occ & ALL
        free = pawns & ~pinned
        if turn:
            push = free << 8 & empty
            double = (push & RANK_3) << 8 & empty
            left = (free & NOT_A) << 7 & them
            right = (free & NOT_H) << 9 & them
            last = RANK_8
        else:
            push = free >> 8 & empty
            double = (push & RANK_6) >> 8 & empty
            left = (free & NOT_A) >> 9 & them
            right = (free & NOT_H) >> 7 & them
            last = RANK_1
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
                targets = single | (single & RANK_3) << 8 & empty
            else:
                single = low >> 8 & empty
                targets = single | (single & RANK_6) >> 8 & empty
            targets = (targets | PAWN_ATTACKS[turn][sq] & them) & rays[sq]
            n += targets.bit_count() + 3 * (targets & last).bit_count()
            bb ^= low
        ep = board.ep_square
        if ep is not None and PAWN_ATTACKS[them_color][ep] & pawns:
            for _ in board.generate_legal_ep():
                n += 1
    return n

