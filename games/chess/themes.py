"""Chess puzzle themes (engines.puzzle_themes asks them): what a line shows, by python-chess.

``mateInN`` (the line mates in N), ``backRankMate`` (a rook or queen mates a king on its first
rank, shut in by its own pieces), ``fork`` (a move after which the piece moved attacks two
pieces worth more than it, or the king and a piece, and a later move of the line takes one),
``pin`` (the piece moved pins a piece to its king), ``skewer`` (a check by a rook, bishop or
queen, and the same piece takes what stood behind the king two plies later),
``discoveredAttack`` (a check by a piece other than the one moved), ``promotion``,
``sacrifice`` (after a reply the player is two pawns or more down on the material it started
with, and the line still wins) and ``endgame`` (at most 13 pawns' worth of pieces on the board
besides pawns and kings).
"""

from __future__ import annotations

from typing import Any

import chess

__all__ = ["themes"]

VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}


def _material(board: chess.Board, color: chess.Color) -> int:
    """``color``'s material less the other side's, in pawns."""
    return sum(VALUES[piece.piece_type] * (1 if piece.color == color else -1) for piece in board.piece_map().values())


def _back_rank_mate(board: chess.Board) -> bool:
    king = board.king(board.turn)
    if king is None or chess.square_rank(king) != (0 if board.turn == chess.WHITE else 7):
        return False
    if not all(board.piece_type_at(square) in (chess.ROOK, chess.QUEEN) for square in board.checkers()):
        return False
    forward = 1 if board.turn == chess.WHITE else -1
    ahead = [chess.square(file, chess.square_rank(king) + forward)
             for file in range(max(0, chess.square_file(king) - 1), min(8, chess.square_file(king) + 2))]
    return all(board.color_at(square) == board.turn for square in ahead)


def _fork(board: chess.Board, move: chess.Move, later: list[chess.Move]) -> bool:
    """After ``move`` (played on ``board``), whether the piece moved attacks two things worth taking
    and the player takes one of them later in the line."""
    piece = board.piece_at(move.to_square)
    if piece is None or piece.piece_type == chess.KING:
        return False
    targets = [square for square in board.attacks(move.to_square)
               if board.color_at(square) == (not piece.color)
               and (board.piece_type_at(square) == chess.KING
                    or VALUES[board.piece_type_at(square) or chess.PAWN] > VALUES[piece.piece_type])]
    return len(targets) >= 2 and any(m.to_square in targets for m in later)


def _pin(board: chess.Board, move: chess.Move) -> bool:
    """Whether the piece just moved pins one of the other side's pieces to its king."""
    them = board.turn
    for square in chess.SquareSet(board.occupied_co[them]):
        if board.is_pinned(them, square) and move.to_square in board.pin(them, square):
            return True
    return False


def themes(game: Any, solution: list[chess.Move]) -> list[str]:
    """The line's chess themes (see the module doc); ``game`` is at the puzzle's position."""
    board = chess.Board(game.to_text())
    player = board.turn
    start = _material(board, player)
    pieces = sum(VALUES[p.piece_type] for p in board.piece_map().values() if p.piece_type not in (chess.PAWN, chess.KING))
    found = []
    if pieces <= 13:
        found.append("endgame")
    for ply, move in enumerate(solution):
        mover = ply % 2 == 0
        if mover and move.promotion:
            found.append("promotion")
        board.push(move)
        if not mover:
            if _material(board, player) <= start - 2:
                found.append("sacrifice")
            continue
        if board.is_check():
            checkers = board.checkers()
            if move.to_square not in checkers:
                found.append("discoveredAttack")
            elif (board.piece_type_at(move.to_square) in (chess.ROOK, chess.BISHOP, chess.QUEEN)
                  and ply + 2 < len(solution) and solution[ply + 2].from_square == move.to_square):
                king = board.king(board.turn)
                target = solution[ply + 2].to_square
                if king is not None and target in chess.SquareSet.ray(move.to_square, king) and \
                        chess.square_distance(move.to_square, target) > chess.square_distance(move.to_square, king):
                    found.append("skewer")
        if _fork(board, move, solution[ply + 2::2]):
            found.append("fork")
        if _pin(board, move):
            found.append("pin")
    if board.is_checkmate():
        found.append(f"mateIn{(len(solution) + 1) // 2}")
        if _back_rank_mate(board):
            found.append("backRankMate")
    return found
