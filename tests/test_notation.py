"""Every legal move reads back from every way it is commonly written.

Chess: the SAN python-chess writes and the forms other programs write (every
disambiguation, ``=Q`` or ``Q``, ``+``/``#`` and ``!?`` suffixes, castling with
``O`` or ``0``), long algebraic and UCI, over random positions rich in
promotions and twin pieces (two bishops that share a rank, three queens...),
where a rank-disambiguated ``B8d5`` must not be read as a square move from b8.
Checkers and Quixo: what ``format_move`` writes, and its usual variants.
"""

from __future__ import annotations

import random

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.checkers import Checkers
from games.chess import ChessGame
from games.quixo import Quixo

_PIECES = "QQRRBBNNPPPqqrrbbnnppp"


def _rich_board(rng: random.Random) -> chess.Board | None:
    """A random legal position with twins and pawns near promotion, or None."""
    board = chess.Board(None)
    squares = list(chess.SQUARES)
    rng.shuffle(squares)
    board.set_piece_at(squares.pop(), chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(squares.pop(), chess.Piece(chess.KING, chess.BLACK))
    for symbol in rng.sample(_PIECES, rng.randint(4, 14)):
        piece = chess.Piece.from_symbol(symbol)
        square = squares.pop()
        if piece.piece_type == chess.PAWN:
            # Pawns mostly one step from promoting, never on their back ranks.
            rank = rng.choice([6, 6, 6, 1, 4, 3]) if piece.color else rng.choice([1, 1, 1, 6, 3, 4])
            square = chess.square(chess.square_file(square), rank)
            if board.piece_at(square):
                continue
        board.set_piece_at(square, piece)
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    board.castling_rights = board.clean_castling_rights()
    return board if board.is_valid() else None


def _boards(seed: int) -> list[chess.Board]:
    rng = random.Random(seed)
    boards = []
    while len(boards) < 3:
        board = _rich_board(rng)
        if board is not None and board.legal_moves.count():
            boards.append(board)
            # and a position a few random plies on (promoted twins, castling gone)
            for _ in range(rng.randint(1, 6)):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board = board.copy(stack=False)
                board.push(rng.choice(moves))
            if board.legal_moves.count():
                boards.append(board)
    return boards


def written_forms(board: chess.Board, move: chess.Move) -> set[str]:
    """The texts programs write for ``move``: SAN, over-disambiguated SAN, LAN, UCI, variants."""
    san = board.san(move)
    forms = {san, board.lan(move), move.uci(), san + "!?", san + "!", san.rstrip("+#")}
    if move.promotion:
        forms |= {san.replace("=", ""), move.uci()[:4] + move.uci()[4].upper()}
    if board.is_castling(move):
        forms |= {san.replace("O", "0"), board.lan(move).replace("O", "0")}
        return forms
    piece = board.piece_at(move.from_square)
    assert piece is not None
    frm, to = chess.square_name(move.from_square), chess.square_name(move.to_square)
    capture = "x" if board.is_capture(move) else ""
    promo = f"={chess.piece_symbol(move.promotion).upper()}" if move.promotion else ""
    check = "#" if board.is_checkmate() else ""
    letter = piece.symbol().upper() if piece.piece_type != chess.PAWN else ""
    twins = [
        other for other in board.legal_moves
        if other != move and other.to_square == move.to_square and other.promotion == move.promotion
        and board.piece_type_at(other.from_square) == piece.piece_type
    ]
    forms.add(f"{letter}{frm}{capture}{to}{promo}{check}")  # square disambiguation
    forms.add(f"{letter}{frm}-{to}{promo}" if not capture else f"{letter}{frm}x{to}{promo}")
    if not any(chess.square_file(o.from_square) == chess.square_file(move.from_square) for o in twins):
        forms.add(f"{letter}{frm[0]}{capture}{to}{promo}")  # file disambiguation
    if letter and not any(chess.square_rank(o.from_square) == chess.square_rank(move.from_square) for o in twins):
        forms.add(f"{letter}{frm[1]}{capture}{to}{promo}")  # rank disambiguation: B8d5
    return forms


def test_san_rank_disambiguation_as_python_chess_writes_it() -> None:
    # Two bishops on one file (after a promotion): SAN names the rank, "B8e5",
    # which is not the square move "b8e5" of a pawn-less file letter.
    game = ChessGame.from_text("1B6/8/8/8/8/8/1B6/4K2k w - - 0 1")
    move = chess.Move.from_uci("b8e5")
    assert game.board.san(move) == "B8e5"
    for text in ("B8e5", "Bb8e5", "Bb8-e5", "B8e5!?", "b8e5"):
        assert game.parse_move(text) == move, text
    assert game.parse_move("B2e5") == chess.Move.from_uci("b2e5")
    for move in game.board.legal_moves:
        assert game.parse_move(game.board.san(move)) == move


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_every_chess_move_reads_back_from_every_written_form(seed: int) -> None:
    for board in _boards(seed):
        game = ChessGame.from_text(board.fen())
        for move in list(board.legal_moves):
            for text in sorted(written_forms(board, move)):
                assert game.parse_move(text) == move, (board.fen(), move.uci(), text)


@pytest.mark.parametrize("fen", [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "Q6Q/8/1k6/8/8/8/8/Q3K2Q w - - 0 1",
    "4k3/1P6/8/4Pp2/8/8/8/R3K2R w KQ f6 0 1",
])
def test_every_written_form_reads_back_in_known_positions(fen: str) -> None:
    board = chess.Board(fen)
    game = ChessGame.from_text(fen)
    for move in board.legal_moves:
        for text in sorted(written_forms(board, move)):
            assert game.parse_move(text) == move, (fen, move.uci(), text)


def _random_positions(cls, seed: int, plies: int):
    rng = random.Random(seed)
    game = cls()
    for _ in range(plies):
        if game.outcome() is not None:
            break
        yield game
        game.play(rng.choice(game.legal_moves()))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 120))
def test_every_checkers_move_reads_back(seed: int, plies: int) -> None:
    for game in _random_positions(Checkers, seed, plies):
        for move in game.legal_moves():
            text = game.format_move(move)
            assert game.parse_move(text) == move
            assert game.parse_move(f" {text.replace('x', ' x ')} ") == move
            if "x" in text:
                assert game.parse_move(text.replace("x", "X")) == move
        positioned = Checkers.from_text(game.to_text())
        for move in positioned.legal_moves():
            assert positioned.parse_move(positioned.format_move(move)) == move


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 60))
def test_every_quixo_move_reads_back(seed: int, plies: int) -> None:
    for game in _random_positions(Quixo, seed, plies):
        for move in game.legal_moves():
            text = game.format_move(move)
            col, row, edge = text.split()
            for form in (text, text.upper(), f"{col},{row} {edge[0]}", f"({col}, {row}) {edge[:3]}"):
                assert game.parse_move(form) == move, form
