"""The fast chess board (games.chess.fastboard) against python-chess's own, and the accumulators it keeps.

python-chess's ``chess.Board`` is the reference: perft counts, the whole state after every push and
pop, and search trees at fixed depth must be the same; the incremental ``pesto`` must equal the
from-scratch one through make and undo.
"""

from __future__ import annotations

import copy
import pickle
import random

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import Limits, create_engine
from games.chess import ChessGame
from games.chess.accumulator import FEATURES, Accumulator, board_features, feature, pack, unpack
from games.chess.evaluation import pesto
from games.chess.fastboard import FastBoard
from games.chess.samples import KIWIPETE
from games.chess.tables import PESTO_EG_TABLES, PESTO_MG_TABLES
from games.chess.tapered import KINDS, pesto_start, tapered_from_scratch

#: The usual perft positions (chessprogramming.org's 3-6 besides kiwipete), with castling, en passant,
#: promotions and rights that python-chess filters at the first push (the last two).
POSITIONS = (
    chess.STARTING_FEN,
    KIWIPETE,
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r3k3/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "4k3/1P6/8/8/8/8/6p1/R3K3 w KQ - 0 1",
    "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2",  # the en passant capture would expose the king
)

_SCRATCH = tapered_from_scratch(*pesto_start())


def _perft(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in list(board.generate_legal_moves()):
        board.push(move)
        total += _perft(board, depth - 1)
        board.pop()
    return total


def _state(board: chess.Board) -> tuple[object, ...]:
    """Everything python-chess keeps about a position and its history."""
    return (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
            tuple(board.occupied_co), board.occupied, board.promoted, board.turn, board.castling_rights,
            board.ep_square, board.halfmove_clock, board.fullmove_number, tuple(board.move_stack),
            [state.occupied for state in board._stack])


def _assert_same_moves(fast: FastBoard, reference: chess.Board) -> None:
    """The fast move lists are python-chess's, in its order; check and quiescence's moves agree."""
    theirs = reference.occupied_co[not reference.turn]
    assert fast.legal_move_list() == list(reference.generate_legal_moves())
    assert fast.legal_move_list(theirs) == list(reference.generate_legal_moves(chess.BB_ALL, theirs))
    assert fast.is_check() == reference.is_check() and fast.checkers_mask() == reference.checkers_mask()
    assert ChessGame(fast).tactical_moves() == ChessGame(reference).tactical_moves()


def _scratch_value(board: chess.Board, player: int = 0) -> int:
    return _SCRATCH(ChessGame(board), player)


@pytest.mark.parametrize("fen", POSITIONS)
def test_perft_equals_python_chess(fen: str) -> None:
    depth = 3 if fen in (chess.STARTING_FEN, POSITIONS[2], POSITIONS[6], POSITIONS[7]) else 2
    assert _perft(FastBoard(fen), depth) == _perft(chess.Board(fen), depth)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), start=st.sampled_from(POSITIONS))
def test_push_and_pop_leave_python_chess_state(seed: int, start: str) -> None:
    """After every push (null moves included) and every pop, the fast board's whole state and move
    lists are python-chess's, and the incremental pesto equals the from-scratch one."""
    rng = random.Random(seed)
    reference, fast = chess.Board(start), FastBoard(start)
    game = ChessGame(fast)
    for _ in range(rng.randint(1, 80)):
        moves = list(reference.generate_legal_moves())
        if not moves:
            break
        move = chess.Move.null() if rng.random() < 0.05 and not reference.is_check() else rng.choice(moves)
        reference.push(move)
        fast.push(move)
        assert _state(fast) == _state(reference)
        assert pesto(game, 0) == _scratch_value(reference)
        _assert_same_moves(fast, reference)
        if rng.random() < 0.3:
            assert fast.pop() == reference.pop()
            assert _state(fast) == _state(reference)
            assert pesto(game, 1) == _scratch_value(reference, 1)
            _assert_same_moves(fast, reference)
    while reference.move_stack:
        assert fast.pop() == reference.pop()
        assert _state(fast) == _state(reference)
        assert pesto(game, 0) == _scratch_value(reference)
    assert fast.fen() == chess.Board(start).fen()


@pytest.mark.parametrize("fen,uci,recorded", [
    (KIWIPETE, "e1h1", "e1g1"),
    (KIWIPETE, "e1a1", "e1c1"),
    ("4k3/8/8/8/8/8/8/5K1R w H - 0 1", "f1h1", "f1h1"),  # a king off e1 (X-FEN rights): kept as given
    ("4k3/8/8/8/8/8/8/4K1R1 w G - 0 1", "e1g1", "e1g1"),  # onto a rook on g1
])
def test_castling_onto_the_rook_is_recorded_as_python_chess_records_it(fen: str, uci: str, recorded: str) -> None:
    reference, fast = chess.Board(fen), FastBoard(fen)
    for board in (reference, fast):
        board.push(chess.Move.from_uci(uci))
    assert _state(fast) == _state(reference)
    assert fast.move_stack[-1] == chess.Move.from_uci(recorded)
    fast.pop()
    reference.pop()
    assert _state(fast) == _state(reference)


def test_python_chess_methods_work_on_the_fast_board() -> None:
    """root(), copy(), is_repetition and SAN read the fast board's undo records like their own."""
    fast = FastBoard()
    for san in ("Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"):
        fast.push_san(san)
    assert fast.is_repetition(3)
    assert fast.root().fen() == chess.STARTING_FEN
    copied = fast.copy()
    assert copied.move_stack == fast.move_stack and copied.pop() == fast.pop()
    assert fast.san(chess.Move.from_uci("f6g8")) == "Ng8"


def test_pack_and_unpack_are_inverse_and_add_lane_by_lane() -> None:
    rng = random.Random(7)
    for _ in range(200):
        lanes = [rng.randint(-(2**22), 2**22) for _ in range(rng.randint(1, 6))]
        more = [rng.randint(-(2**22), 2**22) for _ in lanes]
        assert unpack(pack(lanes), len(lanes)) == lanes
        assert unpack(pack(lanes) + pack(more), len(lanes)) == [a + b for a, b in zip(lanes, more)]


def test_features_follow_python_chess_numbering() -> None:
    assert feature(chess.BLACK, chess.PAWN, chess.A1) == 0
    assert feature(chess.WHITE, chess.KING, chess.H8) == FEATURES - 1
    assert sorted(board_features(chess.Board())) == sorted(
        feature(piece.color, piece.piece_type, square) for square, piece in chess.Board().piece_map().items())


def test_pesto_lanes_are_the_tables_sums() -> None:
    """The accumulator's lanes: the midgame and endgame sums and the phase, White's pieces plus,
    Black's minus (mirrored)."""
    board = chess.Board("4k3/8/8/8/8/8/3N4/4K3 w - - 0 1")
    mg, eg, phase = pesto.accumulator.lanes_of(board)  # type: ignore[attr-defined]
    assert (mg, eg, phase) == (
        PESTO_MG_TABLES[chess.KNIGHT][0][chess.D2] + PESTO_MG_TABLES[chess.KING][0][chess.E1]
        - PESTO_MG_TABLES[chess.KING][0][chess.E8 ^ 56],
        PESTO_EG_TABLES[chess.KNIGHT][0][chess.D2] + PESTO_EG_TABLES[chess.KING][0][chess.E1]
        - PESTO_EG_TABLES[chess.KING][0][chess.E8 ^ 56],
        1,
    )
    assert len(KINDS) * 128 == FEATURES


def test_sums_follow_every_other_change_of_the_pieces() -> None:
    """set_piece_at, set_fen, mirror, copies and pickles: the next read agrees with a recomputation."""
    fast = FastBoard(KIWIPETE)
    game = ChessGame(fast)
    pesto(game, 0)
    fast.set_piece_at(chess.D5, chess.Piece(chess.QUEEN, chess.BLACK))
    assert pesto(game, 0) == _scratch_value(chess.Board(fast.fen()))
    fast.set_fen(POSITIONS[3])
    assert pesto(game, 0) == _scratch_value(chess.Board(POSITIONS[3]))
    mirrored = fast.mirror()
    assert pesto(ChessGame(mirrored), 0) == _scratch_value(chess.Board(POSITIONS[3]).mirror())
    fast.push(next(iter(fast.legal_moves)))
    for other in (fast.copy(), copy.deepcopy(fast), pickle.loads(pickle.dumps(fast))):
        assert pesto(ChessGame(other), 1) == pesto(game, 1)
        other.pop()
        assert pesto(ChessGame(other), 0) == _scratch_value(chess.Board(POSITIONS[3]))


@pytest.mark.parametrize("change", [
    lambda board: board.set_piece_at(chess.D5, chess.Piece(chess.QUEEN, chess.BLACK)),
    lambda board: board.remove_piece_at(chess.E2),
    lambda board: board.set_board_fen("4k3/8/8/8/8/8/8/4K2R"),
    lambda board: board.set_piece_map({chess.E1: chess.Piece(chess.KING, chess.WHITE),
                                       chess.E8: chess.Piece(chess.KING, chess.BLACK),
                                       chess.A2: chess.Piece(chess.PAWN, chess.WHITE)}),
    lambda board: board.set_fen(POSITIONS[3]),
    lambda board: board.set_epd(POSITIONS[2].rsplit(" ", 2)[0]),
    lambda board: board.reset(),
    lambda board: board.reset_board(),
    lambda board: board.clear_board(),
    lambda board: board.set_chess960_pos(518),
    lambda board: board.apply_mirror(),
    lambda board: board.apply_transform(chess.flip_horizontal),
])
def test_every_public_change_of_the_pieces_is_followed(change: object) -> None:
    """python-chess's public mutators go through the setters the fast board overrides: the
    next evaluation agrees with one from scratch."""
    fast = FastBoard(KIWIPETE)
    game = ChessGame(fast)
    pesto(game, 0)
    fast.push(next(iter(fast.legal_moves)))
    pesto(game, 0)
    change(fast)  # type: ignore[operator]
    assert pesto(game, 0) == _scratch_value(fast.copy())


def test_an_accumulator_attached_in_the_middle_of_a_line_stays_right() -> None:
    """A second accumulator attached after some pushes: right after the pops that go back past it."""
    counter = Accumulator("pieces", [(1, square) for square in range(64)] * 12)
    fast = FastBoard(KIWIPETE)
    game = ChessGame(fast)
    pesto(game, 0)
    moves = []
    for _ in range(3):
        moves.append(next(iter(fast.legal_moves)))
        fast.push(moves[-1])
    for _ in range(3):
        assert fast.accumulated(counter) == counter.value_of(fast)
        assert pesto(game, 0) == _scratch_value(chess.Board(fast.fen()))
        fast.pop()
    assert fast.accumulated(counter) == counter.value_of(fast)


def test_an_accumulator_refuses_columns_of_the_wrong_shape() -> None:
    with pytest.raises(ValueError, match="767 columns"):
        Accumulator("short", [(1,)] * 767)
    with pytest.raises(ValueError, match="same number"):
        Accumulator("ragged", [(1,)] * 767 + [(1, 2)])


@pytest.mark.parametrize("spec", ["pvs:depth=3", "alphabeta:depth=3"])
@pytest.mark.parametrize("fen", [POSITIONS[1], POSITIONS[3]])
def test_search_trees_equal_python_chess_path(spec: str, fen: str) -> None:
    """The fast board and python-chess's (from-scratch evaluation) search identical trees."""
    results = []
    for game in (ChessGame(chess.Board(fen)), ChessGame.from_text(fen)):
        result = create_engine(spec, ChessGame).search(game, Limits(depth=3))
        results.append((result.move, result.score, result.pv, result.stats.nodes, result.stats.evals))
    assert results[0] == results[1]
    assert type(ChessGame.from_text(fen).board) is FastBoard
