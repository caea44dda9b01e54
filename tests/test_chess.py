"""Chess rules, notation, outcomes and heuristics (games.chess)."""

from __future__ import annotations

import pickle
import random

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import (
    HEURISTIC_BOUND,
    IllegalMoveError,
    MoveError,
    MoveSyntaxError,
    PositionError,
    UnknownHeuristicError,
    game_class,
    new_game,
)
from games.chess import TERMINATION_REASONS, ChessGame
from games.chess.bitboards import count_legal_moves
from games.chess.evaluation import pawn_terms, sef_phase
from games.perft import divide, perft

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"


def random_games(seed: int, games: int, max_plies: int = 200, policy: str = "random", fen: str | None = None):
    """Yield every position (the same ChessGame, moving on) of seeded random games.

    ``policy``: ``"random"`` picks uniformly; ``"quiet"`` mostly picks piece moves
    that capture nothing (long games, fifty-move draws); ``"shuffle"`` often
    takes back the side's previous move by moving the piece home again
    (repetitions)."""
    rng = random.Random(seed)
    for _ in range(games):
        game = ChessGame() if fen is None else ChessGame.from_text(fen)
        board = game.board
        for _ in range(max_plies):
            yield game
            if game.outcome() is not None:
                break
            moves = game.legal_moves()
            if policy == "shuffle" and len(board.move_stack) >= 2 and rng.random() < 0.6:
                previous = board.move_stack[-2]
                back = chess.Move(previous.to_square, previous.from_square)
                if back in moves:
                    game.play(back)
                    continue
            if policy in ("quiet", "shuffle") and rng.random() < 0.8:
                quiet = [
                    m for m in moves if not board.is_capture(m) and board.piece_type_at(m.from_square) != chess.PAWN
                ]
                if quiet:
                    moves = quiet
            game.play(rng.choice(moves))


# ---------------------------------------------------------------------------
# registry and protocol basics
# ---------------------------------------------------------------------------


def test_registered_and_class_attributes():
    assert game_class("chess") is ChessGame
    g = new_game("chess")
    assert g.NAME == "chess" and g.PLAYERS == ("White", "Black")
    assert g.turn == 0
    assert g.DEFAULT_HEURISTIC in g.HEURISTICS and g.CUT_HEURISTIC == "soft"
    assert set(g.HEURISTICS) == {"material", "sef", "soft", "hard", "pesto", "network"}
    assert ChessGame.from_text(ChessGame.EXAMPLE_POSITION).to_text() == chess.STARTING_FEN
    assert g.parse_move(g.EXAMPLE_MOVE) == chess.Move.from_uci("g1f3")
    with pytest.raises(UnknownHeuristicError, match="expected one of"):
        g.heuristic("nope")


def test_play_undo_ply_stack_turn():
    g = ChessGame()
    moves = [g.parse_move("e4")]
    g.play(moves[0])
    assert g.turn == 1 and g.ply == 1
    moves.append(g.play_text("c5"))
    assert list(g.move_stack) == moves
    assert g.undo() == moves[1] and g.undo() == moves[0]
    assert g.ply == 0 and g.to_text() == chess.STARTING_FEN
    with pytest.raises(IndexError):
        g.undo()


def test_copy_is_independent_and_keeps_history():
    g = new_game("chess")
    g.play_all(["e4", "e5", "Nf3"])
    g.claim_draws = False
    c = g.copy()
    assert c.to_text() == g.to_text() and list(c.move_stack) == list(g.move_stack) and not c.claim_draws
    c.play_text("Nc6")
    assert c.ply == 4 and g.ply == 3
    c.undo()
    c.undo()
    assert g.ply == 3 and c.ply == 2


def test_pickle_round_trip_rebinds_methods():
    g = ChessGame()
    g.play_all(["d4", "Nf6"])
    h = pickle.loads(pickle.dumps(g))
    assert h.to_text() == g.to_text() and h.ply == 2
    h.play_text("c4")  # bound methods must drive h's own board
    assert h.board.fen() == h.to_text() and g.ply == 2 and h.count_moves() == h.board.legal_moves.count()


def test_render_has_coordinates():
    lines = ChessGame().render().splitlines()
    assert lines[0] == "8 r n b q k b n r"
    assert lines[7] == "1 R N B Q K B N R"
    assert lines[8] == "  a b c d e f g h"


def test_is_capture_includes_en_passant():
    g = ChessGame.from_text("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
    assert g.is_capture(g.parse_move("exd6"))
    assert not g.is_capture(g.parse_move("e6"))


# ---------------------------------------------------------------------------
# perft and move counting
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "counts"),
    [
        (chess.STARTING_FEN, [20, 400, 8902, 197281]),
        (KIWIPETE, [48, 2039, 97862]),
        (POSITION_3, [14, 191, 2812, 43238]),
        (POSITION_4, [6, 264, 9467]),
        (POSITION_5, [44, 1486, 62379]),
    ],
    ids=["start", "kiwipete", "position3", "position4", "position5"],
)
def test_perft(fen, counts):
    g = ChessGame.from_text(fen)
    assert [perft(g, depth) for depth in range(1, len(counts) + 1)] == counts
    assert g.to_text() == chess.Board(fen).fen() and g.ply == 0


def test_divide_sums_to_perft():
    g = ChessGame.from_text(KIWIPETE)
    rows = divide(g, 2)
    assert len(rows) == 48 and sum(n for _, n in rows) == 2039
    assert ("O-O", 43) in rows


def test_count_moves_matches_python_chess_on_random_play():
    for g in random_games(seed=11, games=24, policy="shuffle"):
        b = g.board
        assert g.count_moves() == count_legal_moves(b) == b.legal_moves.count(), b.fen()
        assert g.legal_moves() == list(b.legal_moves)


@pytest.mark.parametrize(
    "fen",
    [
        "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1",  # check: evasions
        "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1",  # pinned bishop cannot move
        "4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1",  # pinned rook moves along the pin
        "4k3/8/8/1b6/8/3P4/8/5K2 w - - 0 1",  # pawn pinned diagonally
        "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",  # en passant would expose the king
        "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",  # promotions count four times
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",  # castling both ways
        "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1",  # castling through attack
    ],
)
def test_count_moves_special_cases(fen):
    b = chess.Board(fen)
    assert count_legal_moves(b) == b.legal_moves.count()


# ---------------------------------------------------------------------------
# outcomes
# ---------------------------------------------------------------------------


def shuffle(game: ChessGame, times: int) -> None:
    """Knights out and back ``times`` times (each adds one repetition)."""
    for _ in range(times):
        game.play_all(["Nf3", "Nf6", "Ng1", "Ng8"])


def test_fools_mate():
    g = ChessGame()
    g.play_all(["f3", "e5", "g4", "Qh4#"])
    o = g.outcome()
    assert o is not None and o.winner == 1 and o.reason == "checkmate"
    assert g.legal_moves() == [] and g.count_moves() == 0
    assert o.result_for(1) == 1.0 and o.result_for(0) == 0.0


def test_stalemate():
    g = ChessGame.from_text("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    o = g.outcome()
    assert o is not None and o.is_draw and o.reason == "stalemate"


@pytest.mark.parametrize(
    "fen", ["8/8/4k3/8/8/3K4/8/8 w - - 0 1", "8/8/4k3/8/8/3KB3/8/8 b - - 0 1", "8/8/4kn2/8/8/3K4/8/8 w - - 0 1"]
)
def test_insufficient_material(fen):
    o = ChessGame.from_text(fen).outcome()
    assert o is not None and o.winner is None and o.reason == "insufficient material"


def test_sufficient_material_plays_on():
    assert ChessGame.from_text("8/8/4k3/8/8/3K4/3P4/8 w - - 0 1").outcome() is None
    assert ChessGame.from_text("8/5k2/4b3/8/8/3KB3/8/8 w - - 0 1").outcome() is None  # opposite bishops


def test_fifty_move_rule_is_claimed_by_default_only():
    g = ChessGame.from_text("4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    assert g.outcome() is None
    g.play_text("Ra2")
    o = g.outcome()
    assert o is not None and o.is_draw and o.reason == "fifty-move rule"
    g.claim_draws = False
    assert g.outcome() is None


def test_checkmate_beats_fifty_move_rule():
    g = ChessGame.from_text("6k1/8/6K1/8/8/8/8/R7 w - - 99 80")
    g.play_text("Ra8#")
    assert g.board.halfmove_clock == 100
    o = g.outcome()
    assert o is not None and o.reason == "checkmate" and o.winner == 0


def test_seventy_five_move_rule_is_automatic():
    g = ChessGame.from_text("4k3/8/8/8/8/8/8/R3K3 w - - 149 120")
    g.claim_draws = False
    g.play_text("Ra2")
    o = g.outcome()
    assert o is not None and o.reason == "seventy-five-move rule"


def test_threefold_repetition_with_knight_shuffles():
    g = ChessGame()
    shuffle(g, 1)
    assert g.outcome() is None  # start position seen twice
    g.play_all(["Nf3", "Nf6", "Ng1"])
    assert g.outcome() is None  # Black could claim by playing Ng8 -- not an outcome here
    assert g.board.outcome(claim_draw=True) is not None
    g.play_text("Ng8")
    o = g.outcome()
    assert o is not None and o.is_draw and o.reason == "threefold repetition"
    g.claim_draws = False
    assert g.outcome() is None
    g.undo()
    assert g.outcome() is None


def test_fivefold_repetition_is_automatic():
    g = ChessGame()
    g.claim_draws = False
    shuffle(g, 3)
    assert g.outcome() is None
    shuffle(g, 1)
    o = g.outcome()
    assert o is not None and o.reason == "fivefold repetition"


def test_repetition_needs_same_castling_rights():
    # King steps out and back: same pieces, but castling rights are gone.
    g = ChessGame.from_text("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    for _ in range(2):
        g.play_all(["Ke2", "Ke7", "Ke1", "Ke8"])
    assert g.outcome() is None  # the first position had castling rights
    g.play_all(["Ke2", "Ke7", "Ke1", "Ke8"])
    o = g.outcome()
    assert o is not None and o.reason == "threefold repetition"


def _reference(board: chess.Board):
    """python-chess's rules with draws claimed only when they happened on the board."""
    o = board.outcome()
    if o is not None:
        winner = None if o.winner is None else (0 if o.winner else 1)
        return winner, TERMINATION_REASONS[o.termination]
    if board.is_fifty_moves():
        return None, "fifty-move rule"
    if board.is_repetition(3):
        return None, "threefold repetition"
    return None


def _claim_by_next_move(board: chess.Board) -> bool:
    """A draw python-chess lets the side to move claim by announcing a move."""
    for move in board.legal_moves:
        board.push(move)
        try:
            if board.is_fifty_moves() or board.is_repetition(3):
                return True
        finally:
            board.pop()
    return False


OUTCOME_RUNS = [
    (None, "random", 12),
    (None, "shuffle", 12),
    ("8/8/4k3/8/2n5/8/3R4/4K3 w - - 0 1", "quiet", 4),  # K+R v K+N
    ("8/5k2/4b3/8/8/3KB3/8/8 w - - 0 1", "shuffle", 6),  # opposite bishops
    ("8/3q4/4k3/8/8/3Q4/8/4K3 w - - 0 1", "random", 6),  # K+Q v K+Q
    ("4k3/8/8/8/8/8/8/R3K3 w - - 60 1", "quiet", 4),
]


def test_outcome_agrees_with_python_chess_on_random_playouts():
    reasons = set()
    next_move_claims = 0
    for run, (fen, policy, games) in enumerate(OUTCOME_RUNS):
        for g in random_games(seed=run, games=games, max_plies=300, policy=policy, fen=fen):
            b = g.board
            o = g.outcome()
            ours = None if o is None else (o.winner, o.reason)
            assert ours == _reference(b), b.fen()
            if o is not None:
                reasons.add(o.reason)
            theirs = b.outcome(claim_draw=True)
            theirs = None if theirs is None else (
                None if theirs.winner is None else (0 if theirs.winner else 1),
                TERMINATION_REASONS[theirs.termination],
            )
            if ours != theirs:
                # Only python-chess's "claim by announcing the next move" differs.
                assert _claim_by_next_move(b), b.fen()
                next_move_claims += 1
            g.claim_draws = False
            strict = g.outcome()
            g.claim_draws = True
            automatic = b.outcome()
            assert (strict is None) == (automatic is None), b.fen()
            if strict is not None:
                assert strict.reason == TERMINATION_REASONS[automatic.termination]
    # The playouts above reach every kind of ending the claims and rules produce.
    expected = {"checkmate", "stalemate", "insufficient material", "fifty-move rule", "threefold repetition"}
    assert expected <= reasons, reasons
    assert next_move_claims > 0


# ---------------------------------------------------------------------------
# notation: moves
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "text", "uci"),
    [
        (None, "e4", "e2e4"),
        (None, "e2e4", "e2e4"),
        (None, "E2E4", "e2e4"),
        (None, " Nf3 ", "g1f3"),
        (None, "nf3", "g1f3"),
        (None, "g1f3", "g1f3"),
        (None, "Ng1-f3", "g1f3"),
        (None, "Nf3!?", "g1f3"),
        (None, "e4!!", "e2e4"),
        (KIWIPETE, "O-O", "e1g1"),
        (KIWIPETE, "0-0", "e1g1"),
        (KIWIPETE, "O-O-O", "e1c1"),
        (KIWIPETE, "0-0-0", "e1c1"),
        (KIWIPETE, "e1g1", "e1g1"),
        (KIWIPETE, "Qxf6", "f3f6"),
        (KIWIPETE, "Nxf7", "e5f7"),
        (KIWIPETE, "gxh3", "g2h3"),
        ("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "exd8=Q+", "e7d8q"),
        ("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "exd8=N", "e7d8n"),
        ("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "exd8Q", "e7d8q"),
        ("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q", "e7d8q"),
        ("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8=R#", "e7e8r"),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6 e.p.", "e5d6"),
        ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "Rad1", "a1d1"),
        ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O+", "e1g1"),
    ],
)
def test_parse_move(fen, text, uci):
    g = ChessGame() if fen is None else ChessGame.from_text(fen)
    move = g.parse_move(text)
    assert move == chess.Move.from_uci(uci)
    assert move in g.board.legal_moves


@pytest.mark.parametrize(
    ("fen", "uci", "san"),
    [
        (None, "g1f3", "Nf3"),
        (KIWIPETE, "e1g1", "O-O"),
        (KIWIPETE, "e1c1", "O-O-O"),
        ("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q", "exd8=Q+"),
        ("6k1/8/6K1/8/8/8/8/R7 w - - 0 1", "a1a8", "Ra8#"),
        ("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "h1d1", "Rhd1"),
    ],
)
def test_format_move_is_san(fen, uci, san):
    g = ChessGame() if fen is None else ChessGame.from_text(fen)
    move = chess.Move.from_uci(uci)
    assert g.format_move(move) == san
    assert g.parse_move(san) == move


def test_every_legal_move_round_trips_through_san_and_uci():
    for g in random_games(seed=5, games=6, max_plies=120):
        for move in g.legal_moves():
            assert g.parse_move(g.format_move(move)) == move
            assert g.parse_move(move.uci()) == move


@pytest.mark.parametrize(
    "text", ["", "   ", "foo", "e9", "Nf", "e2e4e", "--", "0000", "Z0", "N@f3", "e4 e5", "Ix4", "a1-", "\x00"]
)
def test_move_syntax_errors(text):
    with pytest.raises(MoveSyntaxError) as info:
        ChessGame().parse_move(text)
    message = str(info.value)
    assert "expected SAN like 'Nf3'" in message and "UCI like 'g1f3'" in message and "\n" not in message


@pytest.mark.parametrize(
    ("fen", "text", "why"),
    [
        (None, "e5", "no White pawn can move to e5"),
        (None, "Nf5", "no White knight can move to f5"),
        (None, "e3e4", "there is no piece on e3"),
        (None, "e7e5", "the pawn on e7 is Black's and it is White's move"),
        (None, "b1d2", "the knight on b1 cannot move to d2"),
        (None, "Ke2", "e2 is occupied by a White piece"),
        (None, "O-O", "castling kingside is blocked"),
        (None, "a1a1", "a move must change squares"),
        (None, "Qh5#", "no White queen can move to h5"),
        ("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "Kf2", "does not get the king out of check"),
        ("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", "Bd3", "would leave the king in check"),
        ("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", "e2d3", "would leave the king in check"),
        ("4k3/8/8/8/8/8/8/R3K2R w Q - 0 1", "O-O", "White can no longer castle kingside"),
        ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "Nd2", "White has no knight"),
        ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "Rhd1", "no White rook from h can move to d1"),
        ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8", "must promote, e.g. 'a8=Q'"),
        ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", "must promote, e.g. 'a7a8q'"),
        ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8=K", "cannot promote to a king"),
        ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "Kd1=Q", "only a pawn reaching the last rank can promote"),
        ("r3k3/8/8/8/8/8/8/4K2R b q - 0 1", "O-O", "Black can no longer castle kingside"),
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "O-O-O", "White can no longer castle queenside"),
    ],
)
def test_illegal_moves_say_why_and_suggest(fen, text, why):
    g = ChessGame() if fen is None else ChessGame.from_text(fen)
    with pytest.raises(IllegalMoveError) as info:
        g.parse_move(text)
    message = str(info.value)
    assert why in message, message
    assert f"illegal move {text!r}" in message and "try e.g. '" in message and "\n" not in message


def test_ambiguous_san_lists_candidates():
    g = ChessGame.from_text("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1")
    with pytest.raises(IllegalMoveError) as info:
        g.parse_move("Nd2")
    assert "ambiguous" in str(info.value) and "Nbd2" in str(info.value) and "Nfd2" in str(info.value)
    assert g.parse_move("Nbd2") == chess.Move.from_uci("b1d2")
    assert g.parse_move("Nfd2") == chess.Move.from_uci("f3d2")


def test_no_legal_move_message():
    g = ChessGame()
    g.play_all(["f3", "e5", "g4", "Qh4#"])
    with pytest.raises(IllegalMoveError, match="there is no legal move here"):
        g.parse_move("e4")


MOVE_ALPHABET = st.sampled_from(list("abcdefgh12345678NBRQKOo0-x=+#!? PpnbrqkZ@/e."))


@settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.sampled_from([chess.STARTING_FEN, KIWIPETE, POSITION_4, "4k3/P7/8/8/8/8/8/4K3 b - - 0 1"]),
    st.one_of(st.text(max_size=12), st.text(MOVE_ALPHABET, max_size=8)),
)
def test_garbage_moves_raise_only_move_errors(fen, text):
    g = ChessGame.from_text(fen)
    try:
        move = g.parse_move(text)
    except MoveError as exc:
        assert "\n" not in str(exc)
    else:
        assert move in g.board.legal_moves


# ---------------------------------------------------------------------------
# notation: positions
# ---------------------------------------------------------------------------


def test_fen_round_trips_on_random_play():
    for g in random_games(seed=8, games=15, max_plies=150):
        text = g.to_text()
        h = ChessGame.from_text(text)
        assert h.to_text() == text
        assert h.key() == g.key()
        assert h.turn == g.turn


def test_equal_positions_have_equal_keys_whatever_the_history():
    a = ChessGame()
    a.play_all(["e4", "e5", "Nf3", "Nc6"])
    b = ChessGame()
    b.play_all(["Nf3", "Nc6", "e4", "e5"])
    assert a.key() == b.key()
    hash(a.key())
    c = ChessGame()
    c.play_all(["e4"])  # an en passant square that no pawn can use does not count
    assert c.key() == ChessGame.from_text(c.to_text()).key()
    assert a.key() != ChessGame().key()


def test_fen_with_missing_counters_and_startpos():
    g = ChessGame.from_text("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -")
    assert g.turn == 1 and g.to_text().endswith(" 0 1")
    assert ChessGame.from_text("4k3/8/8/8/8/8/8/4K3").to_text() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    assert ChessGame.from_text("startpos").to_text() == chess.STARTING_FEN


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "empty text"),
        ("hello", "expected 8 rows"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "expected 'w' or 'b'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 9", "more parts than expected"),
        ("4k3/8/8/8/8/8/8/4K3 w - - -5 1", "cannot be negative"),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "the board is empty"),
        ("4k3/8/8/8/8/8/8/8 w - - 0 1", "White has no king"),
        ("4k3/8/8/8/8/8/8/4K2P w - - 0 1", "pawns stand on the first or last rank"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "castling rights need"),
        ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "en passant square"),
        ("4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1", "the side not to move is in check"),
        ("4k3/8/8/8/8/8/PPPPPPPP/PPPPK3 w - - 0 1", "more than 8 pawns"),
    ],
)
def test_bad_fens_say_why_with_an_example(text, why):
    with pytest.raises(PositionError) as info:
        ChessGame.from_text(text)
    message = str(info.value)
    assert why in message, message
    assert chess.STARTING_FEN in message and "\n" not in message


FEN_ALPHABET = st.sampled_from(list("rnbqkpRNBQKP12345678/ wb-KQkqabcdefgh0~9"))


@settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.one_of(st.text(max_size=60), st.text(FEN_ALPHABET, max_size=70)))
def test_garbage_positions_raise_only_position_errors(text):
    try:
        g = ChessGame.from_text(text)
    except PositionError as exc:
        assert "\n" not in str(exc)
    else:
        assert g.board.is_valid()
        assert ChessGame.from_text(g.to_text()).to_text() == g.to_text()


# ---------------------------------------------------------------------------
# heuristics and features
# ---------------------------------------------------------------------------

HEURISTIC_NAMES = sorted(ChessGame.HEURISTICS)


def test_material_known_values():
    assert ChessGame().evaluate(0, "material") == 0
    up_a_queen = ChessGame.from_text("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert up_a_queen.evaluate(0, "material") == 900
    assert up_a_queen.evaluate(1, "material") == -900
    g = ChessGame.from_text("4k3/8/8/8/8/8/8/RNB1K3 b - - 0 1")  # R + N + B
    assert g.evaluate(0, "material") == 1100


@pytest.mark.parametrize("name", [name for name in HEURISTIC_NAMES if name != "network"])
def test_start_position_is_level(name):
    # The learned network is not held to this: it gives the side to move about a pawn at the start,
    # a flaw docs/learning.md reports (it learned from games that mostly end in mate).
    value = ChessGame().evaluate(0, name)
    assert abs(value) <= 10  # only a tempo bonus for the side to move


@pytest.mark.parametrize("name", HEURISTIC_NAMES)
def test_a_queen_up_is_good(name):
    g = ChessGame.from_text("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert g.evaluate(0, name) > 500 and g.evaluate(1, name) < -500


@pytest.mark.parametrize("name", HEURISTIC_NAMES)
def test_heuristics_antisymmetric_bounded_and_colour_symmetric(name):
    h = ChessGame.heuristic(name)
    for g in random_games(seed=21, games=12, max_plies=150):
        white, black = h(g, 0), h(g, 1)
        assert isinstance(white, int)
        assert white == -black
        assert -HEURISTIC_BOUND < white < HEURISTIC_BOUND
        # The colour-flipped mirror position is the same position for the other side.
        mirrored = ChessGame(g.board.mirror())
        assert h(mirrored, 1) == white, g.to_text()


def test_pawn_structure_terms():
    # White a3 c3 c4 h5: c-pawns doubled, all four isolated, c4 backward (d6
    # hits c5 and no White pawn can ever guard it), a3 and h5 passed.
    # Black d6 e5: d6 backward (c4 hits d5, e5 is already past it), e5 passed.
    b = chess.Board("4k3/8/3p4/4p2P/2P5/P1P5/8/4K3 w - - 0 1")
    wp = b.pawns & b.occupied_co[chess.WHITE]
    bp = b.pawns & b.occupied_co[chess.BLACK]
    doubled, isolated, on_doubled, backward, passed = pawn_terms(wp, bp, True)
    assert (doubled, isolated, on_doubled, backward) == (1, 4, 2, 1)
    assert sorted(chess.square_name(sq) for sq in passed) == ["a3", "h5"]
    doubled, isolated, on_doubled, backward, passed = pawn_terms(bp, wp, False)
    assert (doubled, isolated, on_doubled, backward) == (0, 0, 0, 1)
    assert sorted(chess.square_name(sq) for sq in passed) == ["e5"]


def test_sef_phases():
    assert sef_phase(chess.Board()) == "opening"
    italian = chess.Board("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 0 1")
    assert sef_phase(italian) == "middlegame"
    assert sef_phase(chess.Board("4k3/pp3ppp/8/8/8/8/PP3PPP/3RK3 w - - 0 1")) == "endgame"


def test_sef_components_by_hand():
    # Kings only plus a White pawn on e4 (endgame weights 1.5/0.2/0.1/0.2/0.5):
    # material 100; centre 50 (e4); pawn structure -50 (isolated);
    # mobility: White 5 king steps + 1 pawn push, Black 5 king steps -> +10;
    # king safety: both kings have all 5 neighbour squares safe -> 0.
    g = ChessGame.from_text("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1")
    expected = (15 * 100 + 2 * -50 + 1 * 50 + 2 * 10 + 5 * 0) // 10
    assert g.evaluate(0, "sef") == expected


def test_features_shape_and_values():
    g = ChessGame()
    names = ChessGame.FEATURE_NAMES
    assert 15 <= len(names) <= 25 and len(set(names)) == len(names)
    white = dict(zip(names, g.features(0)))
    black = dict(zip(names, g.features(1)))
    assert len(g.features(0)) == len(names)
    assert white["pawns"] == 8 and white["opp_queens"] == 1 and white["material"] == 0
    assert white["mobility"] == 20 and white["opp_mobility"] == 20
    assert white["castling_rights"] == 0 and white["phase"] == 24
    assert white["to_move"] == 1 and black["to_move"] == 0
    g.play_text("e4")  # the pawn now hits d5; nothing else reaches the centre
    assert dict(zip(names, g.features(0)))["centre_control"] == 1
    assert dict(zip(names, g.features(1)))["centre_control"] == -1
    g.play_all(["f5", "Qh5+"])
    black = dict(zip(names, g.features(1)))
    white = dict(zip(names, g.features(0)))
    assert black["in_check"] == 1 and white["in_check"] == -1


def test_features_colour_symmetric_on_random_play():
    for g in random_games(seed=4, games=6, max_plies=120):
        mirrored = ChessGame(g.board.mirror())
        assert mirrored.features(1) == g.features(0)
        assert all(isinstance(x, float) for x in g.features(0))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 100))
def test_quiescence_looks_at_captures_and_queen_promotions_or_every_evasion(seed: int, plies: int) -> None:
    """Chess's search hooks (the conformance kit checks what every game shares): standing pat
    only out of check; in check every move is tactical, else the captures and quiet queen
    promotions."""
    game = ChessGame()
    rng = random.Random(seed)
    for _ in range(plies):
        if game.outcome() is not None:
            break
        game.play(rng.choice(game.legal_moves()))
    if game.outcome() is not None:
        return
    board, legal, tactical = game.board, game.legal_moves(), game.tactical_moves()
    assert game.can_stand_pat() == (not board.is_check())
    if board.is_check():
        assert tactical == legal
    else:
        assert set(tactical) == {m for m in legal if board.is_capture(m) or m.promotion == 5 and not board.is_capture(m)}


@pytest.mark.slow
def test_bench_perft_quick_smoke() -> None:
    """The perft benchmark runs and its reference counts the same leaves as our perft."""
    from tui.bench.perft import perft_rows

    rows = perft_rows(['chess'], quick=True, repeat=1)
    by = {r.what: r for r in rows}
    assert by["start"].leaves == by["start"].ref_leaves == 8902
    assert by["kiwipete"].leaves == by["kiwipete"].ref_leaves == 2039
    assert all(r.rate > 0 for r in rows)


#: The position of docs/search-trees.md's chess walkthrough (after 1.e4 e5 2.Nf3 Nc6).
WALKTHROUGH = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"


@pytest.mark.parametrize("spec,nodes,value", [
    ("minimax:depth=3", 24_942, 194),
    ("alphabeta:depth=3,tt=off", 1_596, 194),
    ("h0:depth=3,k=5,tt=off", 82, 142),
])
def test_the_search_trees_walkthrough_figures(spec, nodes, value):
    """docs/search-trees.md's chess table, as the engines give it today."""
    from engines.tree import record_tree

    _, tree = record_tree(spec, new_game("chess", WALKTHROUGH), budget=200_000)
    assert (tree.size(), tree.root.value) == (nodes, value)
