"""English checkers: rules, perft, notation, outcomes and heuristics (games/checkers.py)."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from playouts import play_randomly
from games import HEURISTIC_BOUND, IllegalMoveError, MoveSyntaxError, Outcome, PositionError, new_game
from games.checkers import Checkers, material, positional, square_coords, square_name
from games.perft import divide, perft

START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def squares_of(mask: int) -> frozenset[int]:
    return frozenset(s for s in range(1, 33) if mask >> (s - 1) & 1)


def summary(game: Checkers) -> set[tuple[int, int, frozenset[int]]]:
    """The legal moves as (start, end, squares taken)."""
    return {(path[0], path[-1], squares_of(taken)) for path, taken in game.legal_moves()}


# ---------------------------------------------------------------- a reference
def _at(row: int, col: int) -> int | None:
    if 0 <= row < 8 and 0 <= col < 8 and (row + col) % 2:
        return 4 * row + col // 2 + 1
    return None


def reference_moves(game: Checkers) -> set[tuple[int, int, frozenset[int]]]:
    """A slow, independent move generator on (row, col) coordinates, straight from the rules."""
    board = {s: game.piece_at(s) for s in range(1, 33)}
    me = "bw"[game.turn]
    forward, crown_row = (1, 7) if me == "b" else (-1, 0)
    captures, steps = set(), set()
    for start, piece in board.items():
        if not piece or piece.lower() != me:
            continue
        dirs = [(dr, dc) for dr in (-1, 1) for dc in (-1, 1) if piece.isupper() or dr == forward]

        def jump(square: int, taken: frozenset[int]) -> bool:
            row, col = square_coords(square)
            extended = False
            for dr, dc in dirs:
                mid, land = _at(row + dr, col + dc), _at(row + 2 * dr, col + 2 * dc)
                if not (mid and land) or mid in taken or not board[mid] or board[mid].lower() == me:
                    continue
                if board[land] is not None and land != start:  # taken pieces still stand
                    continue
                extended = True
                now = taken | {mid}
                if piece.islower() and square_coords(land)[0] == crown_row:
                    captures.add((start, land, now))  # crowned: the move ends
                elif not jump(land, now):
                    captures.add((start, land, now))
            return extended

        jump(start, frozenset())
        row, col = square_coords(start)
        for dr, dc in dirs:
            to = _at(row + dr, col + dc)
            if to and board[to] is None:
                steps.add((start, to, frozenset()))
    return captures or steps


@st.composite
def positions(draw: st.DrawFn) -> str:
    """Random legal PDN FENs, with kings, men of both colours and either side to move."""
    cells = draw(st.lists(st.sampled_from("....bbwwBW"), min_size=32, max_size=32))
    black, white = [], []
    for s, cell in enumerate(cells, 1):
        row = square_coords(s)[0]
        if cell in "bB":
            black.append(("K" if cell == "B" or row == 7 else "") + str(s))
        elif cell in "wW":
            white.append(("K" if cell == "W" or row == 0 else "") + str(s))
    assume(black or white)  # an empty board is refused
    return f"{draw(st.sampled_from('BW'))}:W{','.join(white)}:B{','.join(black)}"


def random_walk(seed: int, plies: int, start: str | None = None) -> Checkers:
    game = Checkers() if start is None else Checkers.from_text(start)
    return play_randomly(game, seed, plies)


def rotated(text: str) -> str:
    """The same position seen from the other side: board turned 180°, colours and turn swapped."""
    game = Checkers.from_text(text)
    black, white = [], []
    for s in range(1, 33):
        piece = game.piece_at(s)
        if piece:
            item = ("K" if piece.isupper() else "") + str(33 - s)
            (white if piece.lower() == "b" else black).append(item)
    return f"{'WB'[game.turn]}:W{','.join(white)}:B{','.join(black)}"


# ---------------------------------------------------------------------- perft
@pytest.mark.parametrize(
    "depth,leaves",
    [(1, 7), (2, 49), (3, 302), (4, 1469), (5, 7361), (6, 36768), (7, 179740)],
)
def test_perft_from_the_start(depth: int, leaves: int) -> None:
    game = Checkers()
    assert perft(game, depth) == leaves
    assert game.to_text() == START and game.ply == 0


@pytest.mark.slow
def test_perft_8_from_the_start() -> None:
    assert perft(Checkers(), 8) == 845931


def test_perft_without_bulk_counting_agrees() -> None:
    def expand(game: Checkers, depth: int) -> int:
        if depth == 0:
            return 1
        total = 0
        for move in game.legal_moves():
            game.play(move)
            total += expand(game, depth - 1)
            game.undo()
        return total

    assert expand(Checkers(), 5) == 7361
    assert dict(divide(Checkers(), 2)) == {
        "9-13": 7, "9-14": 7, "10-14": 7, "10-15": 7, "11-15": 7, "11-16": 7, "12-16": 7
    }


# ---------------------------------------------------------------------- rules
def test_start_position_and_moves() -> None:
    game = Checkers()
    assert game.to_text() == START == Checkers.from_text(START).to_text()
    assert game.turn == 0 and Checkers.PLAYERS == ("Black", "White")
    assert game.legal_move_texts() == ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    assert new_game("checkers").key() == game.key()
    game.play_text("11-15")
    assert game.legal_move_texts() == ["21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"]


def test_square_numbering() -> None:
    assert [square_name(s) for s in (1, 4, 5, 8, 29, 32)] == ["b8", "h8", "a7", "g7", "a1", "g1"]
    assert square_coords(1) == (0, 1) and square_coords(29) == (7, 0) and square_coords(32) == (7, 6)


def test_capture_is_compulsory() -> None:
    game = Checkers.from_text("B:W18:B9,14")
    assert game.legal_move_texts() == ["14x23"]  # 9-13 and 14-17 are steps: not allowed now
    assert game.count_moves() == 1
    with pytest.raises(IllegalMoveError, match="compulsory"):
        game.parse_move("9-13")
    # any capture will do, not necessarily the longest
    game = Checkers.from_text("B:W10,17,19:B6,13")
    assert game.legal_move_texts() == ["6x15x24", "13x22"]


def test_a_multi_jump_is_one_move_and_takes_everything() -> None:
    game = Checkers.from_text("B:W10,19,32:B6")
    (move,) = game.legal_moves()
    path, taken = move
    assert path == (6, 15, 24) and squares_of(taken) == {10, 19}
    assert game.is_capture(move) and game.format_move(move) == "6x15x24"
    game.play(move)
    assert game.to_text() == "W:W32:B24" and game.turn == 1 and game.ply == 1
    assert game.undo() == move and game.to_text() == "B:W10,19,32:B6"


def test_a_jump_sequence_must_be_completed() -> None:
    game = Checkers.from_text("B:W10,19:B6")
    assert game.legal_move_texts() == ["6x15x24"]
    with pytest.raises(IllegalMoveError):
        game.parse_move("6x15")  # stops half-way


def test_crowning_ends_the_move() -> None:
    # 15x24x31 crowns on 31; as a king it could jump 26 on to 22, but the move ends.
    game = Checkers.from_text("B:W19,26,27:B15")
    assert game.legal_move_texts() == ["15x24x31"]
    assert game.count_moves() == 1
    game.play_text("15x31")
    assert game.to_text() == "W:W26:BK31" and game.piece_at(31) == "B"
    # a white man crowning on 1-4
    game = Checkers.from_text("W:W10:B6,K32")
    assert game.legal_move_texts() == ["10x1"]
    game.play_text("10x1")
    assert game.piece_at(1) == "W"


def test_men_move_forward_only() -> None:
    assert Checkers.from_text("B:WK1:B18").legal_move_texts() == ["18-22", "18-23"]
    assert Checkers.from_text("W:W18:BK32").legal_move_texts() == ["18-14", "18-15"]
    # a man does not capture backwards
    assert Checkers.from_text("W:W14:B18,K32").legal_move_texts() == ["14-9", "14-10"]
    assert Checkers.from_text("B:W14:B18,K1").legal_move_texts() == ["1-5", "1-6", "18-22", "18-23"]


def test_kings_move_and_capture_both_ways() -> None:
    assert Checkers.from_text("B:WK32:BK18").legal_move_texts() == ["18-14", "18-15", "18-22", "18-23"]
    assert Checkers.from_text("B:W14:BK18").legal_move_texts() == ["18x9"]
    assert Checkers.from_text("W:WK14:B18").legal_move_texts() == ["14x23"]
    # a king goes down and back up in one move
    game = Checkers.from_text("B:W15,16:BK10")
    assert game.legal_move_texts() == ["10x19x12"]


def test_a_king_ring_is_one_move_and_pieces_are_not_jumped_twice() -> None:
    # K10 can take 14, 22, 23, 15 round the ring either way and come back to 10
    # (its own start square is empty); both ways take the same pieces: one move.
    # Back on 10 it could jump 15 or 14 again if taken pieces could be jumped twice.
    game = Checkers.from_text("B:W14,15,22,23:BK10")
    assert game.legal_move_texts() == ["10x17x26x19x10"]
    assert game.count_moves() == 1
    assert summary(game) == {(10, 10, frozenset({14, 15, 22, 23}))}
    # the other way round names the same move
    assert game.parse_move("10x19x26x17x10") == game.legal_moves()[0]
    game.play_text("10x17x26x19x10")
    assert game.to_text() == "W:W:BK10"


def test_sequences_with_different_captures_are_different_moves() -> None:
    game = Checkers.from_text("B:W9,10,17,18:B6")
    assert game.legal_move_texts() == ["6x13x22", "6x15x22"]
    with pytest.raises(IllegalMoveError, match="ambiguous.*6x13x22.*6x15x22"):
        game.parse_move("6x22")
    assert game.parse_move("6x13x22") == game.legal_moves()[0]
    assert game.parse_move("6 x 15 x 22") == game.legal_moves()[1]


@PROPERTY
@given(text=positions())
def test_move_generation_matches_a_reference(text: str) -> None:
    game = Checkers.from_text(text)
    moves = game.legal_moves()
    assert len(set(moves)) == len(moves) == game.count_moves()
    assert summary(game) == reference_moves(game)
    assert len(summary(game)) == len(moves)


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 150))
def test_count_moves_agrees_with_legal_moves_in_playouts(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    game = Checkers()
    for _ in range(plies):
        moves = game.legal_moves()
        assert game.count_moves() == len(moves)
        assert summary(game) == reference_moves(game)
        if not moves:
            assert game.outcome() is not None and game.outcome().winner == 1 - game.turn
            break
        game.play(rng.choice(moves))


@PROPERTY
@given(text=positions(), seed=st.integers(0, 2**32 - 1))
def test_play_undo_round_trip_from_random_positions(text: str, seed: int) -> None:
    game = Checkers.from_text(text)
    rng = random.Random(seed)
    trail = []
    for _ in range(30):
        moves = game.legal_moves()
        if not moves or game.outcome():
            break
        trail.append((game.to_text(), game.key(), game.quiet_plies, game.repetitions()))
        game.play(rng.choice(moves))
    while trail:
        game.undo()
        assert (game.to_text(), game.key(), game.quiet_plies, game.repetitions()) == trail.pop()
    assert game.to_text() == Checkers.from_text(text).to_text()


# ------------------------------------------------------------------- outcomes
def test_no_moves_loses() -> None:
    game = Checkers.from_text("B:W9,14:B5")
    assert game.legal_moves() == [] and game.count_moves() == 0
    assert game.outcome() == Outcome(1, "no moves")
    game = Checkers.from_text("W:W29:B25,K22")  # the white man is boxed in
    assert game.outcome() == Outcome(0, "no moves")


def test_no_pieces_loses() -> None:
    assert Checkers.from_text("B:W9:B").outcome() == Outcome(1, "no pieces")
    game = Checkers.from_text("B:W10,19:B6")
    assert game.outcome() is None
    game.play_text("6x24")
    assert game.outcome() == Outcome(0, "no pieces") and game.legal_moves() == []


def test_threefold_repetition() -> None:
    game = Checkers.from_text("B:WK32:BK1")
    shuffle = ["1-6", "32-27", "6-1", "27-32"]
    game.play_all(shuffle)
    assert game.repetitions() == 2 and game.outcome() is None
    game.play_all(shuffle[:3])
    assert game.outcome() is None
    game.play_text("27-32")
    assert game.repetitions() == 3
    assert game.outcome() == Outcome(None, "threefold repetition")
    game.undo()
    assert game.outcome() is None


def _quiet_step(game: Checkers):
    """A king step that gives the opponent no capture, to the least repeated position."""
    best = None
    for i, move in enumerate(game.legal_moves()):
        game.play(move)
        gives = any(game.is_capture(m) for m in game.legal_moves())
        rank = (gives, game.repetitions(), i)
        game.undo()
        if best is None or rank < best[0]:
            best = (rank, move)
    assert not best[0][0]
    return best[1]


def test_forty_move_rule() -> None:
    game = Checkers.from_text("B:WK29,K30:BK3,K4")
    for _ in range(80):
        assert game.outcome() is None
        game.play(_quiet_step(game))
    assert game.quiet_plies == 80
    assert game.outcome() == Outcome(None, "40-move rule")
    game.undo()
    assert game.outcome() is None and game.quiet_plies == 79


def test_man_moves_and_captures_reset_the_forty_move_count() -> None:
    game = Checkers.from_text("B:WK29:BK3,8")
    game.play_all(["3-7", "29-25", "7-3", "25-29"])
    assert game.quiet_plies == 4
    game.play_text("8-12")  # a man move
    assert game.quiet_plies == 0
    game = Checkers.from_text("W:WK30:BK3,K18")
    game.play_all(["30-26", "3-7", "26-22"])
    assert game.quiet_plies == 3
    assert game.legal_move_texts() == ["18x25"]
    game.play_text("18x25")  # a capture
    assert game.quiet_plies == 0
    game.undo()
    assert game.quiet_plies == 3


def test_board_results_come_before_draws() -> None:
    # the side to move is blocked: a loss, whatever the repetition count
    game = Checkers.from_text("B:W9,14:B5")
    assert game.outcome() == Outcome(1, "no moves")


# ------------------------------------------------------------------ positions
@pytest.mark.parametrize(
    "text,canonical",
    [
        ("B:W21-32:B1-12", START),
        ("B:B1-12:W21-32", START),
        ("  b:w21-32:b1-12.  ", START),
        ("B : W21 - 24, 25-32 : B 1-12", START),
        ("W:WK10,24:B5,K14", "W:WK10,24:B5,K14"),
        ("w:wk10,24:bk14,5", "W:WK10,24:B5,K14"),
        ("W:W24,K10:BK14,5.", "W:WK10,24:B5,K14"),
        ("B:WK1-4:B", "B:WK1,K2,K3,K4:B"),
        ("B:W,21,:B1", "B:W21:B1"),
    ],
)
def test_position_text_is_read_leniently_and_written_canonically(text: str, canonical: str) -> None:
    game = Checkers.from_text(text)
    assert game.to_text() == canonical
    assert Checkers.from_text(canonical).key() == game.key()


@pytest.mark.parametrize(
    "text,needle",
    [
        ("", "expected a PDN FEN"),
        ("start", "expected a PDN FEN"),
        ("B:W21-32", "expected a PDN FEN"),
        ("X:W21:B1", "expected a PDN FEN"),
        ("B:W21:B1:W22", "expected a PDN FEN"),
        ("B:W21:X1", "colour B or W"),
        ("B:W21:W22", "listed twice"),
        ("B:W33:B1", "off the board"),
        ("B:W0:B1", "off the board"),
        ("B:W21:B1-40", "off the board"),
        ("B:W21:B12-1", "backwards"),
        ("B:W21,21:B1", "square 21 is listed twice"),
        ("B:W5:B5", "both a black and a white piece"),
        ("B:W21:B1-3,2", "listed twice"),
        ("W:W:B", "the board is empty"),
        ("B:W21:B30", "black man cannot stand on square 30"),
        ("W:W3:B10", "white man cannot stand on square 3"),
        ("B:Wfoo:B1", "expected squares like"),
        ("B:WK:B1", "expected squares like"),
        ("B:W1234567890123:B1", "expected squares like"),
    ],
)
def test_bad_positions_are_refused_with_one_line_reasons(text: str, needle: str) -> None:
    with pytest.raises(PositionError, match=needle) as error:
        Checkers.from_text(text)
    assert "\n" not in str(error.value)


@PROPERTY
@given(text=positions())
def test_generated_positions_round_trip(text: str) -> None:
    game = Checkers.from_text(text)
    again = Checkers.from_text(game.to_text())
    assert again.to_text() == game.to_text() and again.key() == game.key()


def test_render_shows_pieces_numbers_coordinates_and_turn() -> None:
    picture = Checkers.from_text("W:WK10,24:B5,K14").render()
    lines = picture.splitlines()
    assert lines[0].split() == list("abcdefgh") == lines[-2].split()
    assert "White to move" in lines[-1]
    row8 = lines[1]
    assert row8.split() == ["8", "1", "2", "3", "4", "8"]
    assert lines[2].split() == ["7", "b", "6", "7", "8", "7"]
    assert lines[3].split() == ["6", "9", "W", "11", "12", "6"]
    assert "B" in lines[4] and "w" in lines[6]
    assert str(Checkers()) == Checkers().render()


# ------------------------------------------------------------------- notation
def test_move_parsing_is_lenient_where_unambiguous() -> None:
    game = Checkers()
    step = ((11, 15), 0)
    for text in ("11-15", " 11 - 15 ", "11x15", "11X15"):
        assert game.parse_move(text) == step
    game = Checkers.from_text("B:W19,27:B15")
    (move,) = game.legal_moves()
    for text in ("15x24x31", "15x31", "15X31", "15 x 31", "15-24-31", "15-31"):
        assert game.parse_move(text) == move
    assert game.format_move(move) == "15x24x31"
    assert Checkers.from_text("B:W18:B14").parse_move("14-23") == ((14, 23), 1 << 17)


@pytest.mark.parametrize("text", ["", "foo", "11", "11-", "-15", "11--15", "11 15", "e3-d4", "1115", "11-15!", "１１-15"])
def test_move_syntax_errors(text: str) -> None:
    with pytest.raises(MoveSyntaxError, match="expected a move like '11-15'") as error:
        Checkers().parse_move(text)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("text", ["0-4", "33-29", "11-150"])
def test_squares_off_the_board_are_syntax_errors(text: str) -> None:
    with pytest.raises(MoveSyntaxError, match="numbered 1-32"):
        Checkers().parse_move(text)


@pytest.mark.parametrize("text", ["21-17", "11-14", "11-18", "9x18", "12-16-20"])
def test_illegal_moves_list_the_legal_ones(text: str) -> None:
    with pytest.raises(IllegalMoveError, match="not legal here; legal moves: 9-13, 9-14") as error:
        Checkers().parse_move(text)
    assert "\n" not in str(error.value)


def test_no_legal_move_message() -> None:
    with pytest.raises(IllegalMoveError, match="Black has no legal move"):
        Checkers.from_text("B:W9,14:B5").parse_move("5-9")


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="0123456789-xX :", max_size=14))
def test_near_notation_garbage_raises_only_move_errors(text: str) -> None:
    game = Checkers.from_text("B:W9,10,17,18,27:B6,K19")
    try:
        move = game.parse_move(text)
    except (MoveSyntaxError, IllegalMoveError) as error:
        assert str(error) and "\n" not in str(error)
    else:
        assert move in game.legal_moves()


# ----------------------------------------------------------------- heuristics
def test_material() -> None:
    assert material(Checkers(), 0) == material(Checkers(), 1) == 0
    game = Checkers.from_text("B:W21:BK1,5")
    assert material(game, 0) == 150 and material(game, 1) == -150
    assert Checkers.CUT_HEURISTIC == "material" and Checkers.DEFAULT_HEURISTIC == "positional"
    assert game.evaluate(0) == positional(game, 0)


def test_positional_prefers_sound_positions() -> None:
    assert positional(Checkers(), 0) == 0
    # a king is worth more than a man
    assert positional(Checkers.from_text("B:W21,K30:B9,K2"), 0) > positional(
        Checkers.from_text("B:W21,K30:B9,6"), 0
    )
    # keeping the bridge (1 and 3) beats leaving the back row
    guarded = Checkers.from_text("W:W22,23,24:B1,3,14")
    loose = Checkers.from_text("W:W22,23,24:B6,7,14")
    assert positional(guarded, 0) > positional(loose, 0)
    # in a won ending, kings close to the enemy score better
    near = Checkers.from_text("W:WK28:BK16,K20")
    far = Checkers.from_text("W:WK28:BK1,K2")
    assert positional(near, 0) > positional(far, 0)


@PROPERTY
@given(text=positions())
def test_heuristics_are_antisymmetric_bounded_and_colour_blind(text: str) -> None:
    game = Checkers.from_text(text)
    mirror = Checkers.from_text(rotated(text))
    for name, heuristic in Checkers.HEURISTICS.items():
        value = heuristic(game, 0)
        assert isinstance(value, int) and math.isfinite(value)
        assert -HEURISTIC_BOUND < value < HEURISTIC_BOUND
        assert value == -heuristic(game, 1), name
        assert value == heuristic(mirror, 1), name  # the same position from the other side
    assert game.features(0) == mirror.features(1)


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 200))
def test_heuristics_on_random_playouts(seed: int, plies: int) -> None:
    game = random_walk(seed, plies)
    for heuristic in Checkers.HEURISTICS.values():
        assert heuristic(game, 0) == -heuristic(game, 1)
        assert abs(heuristic(game, 0)) < HEURISTIC_BOUND


def test_features() -> None:
    names = Checkers.FEATURE_NAMES
    assert 10 <= len(names) <= 20 and len(set(names)) == len(names)
    start = dict(zip(names, Checkers().features(0)))
    assert start == {
        "men": 12, "kings": 0, "opp_men": 12, "opp_kings": 0,
        "back_rank": 4, "opp_back_rank": 4, "centre": 0, "opp_centre": 0,
        "advancement": 12, "opp_advancement": 12, "mobility": 7, "opp_mobility": 7,
        "captures": 0, "opp_captures": 0, "edge": 3, "opp_edge": 3, "to_move": 1,
    }
    game = Checkers.from_text("W:WK10,24:B5,K14")
    seen_by_white = dict(zip(names, game.features(1)))
    assert seen_by_white["men"] == 1 and seen_by_white["kings"] == 1
    assert seen_by_white["opp_men"] == 1 and seen_by_white["opp_kings"] == 1
    assert seen_by_white["to_move"] == 1 and dict(zip(names, game.features(0)))["to_move"] == 0
    assert seen_by_white["advancement"] == 2  # the man on 24 has gone up two rows
    assert seen_by_white["captures"] == 1 and seen_by_white["opp_captures"] == 1  # 10x17, 14x7
    assert game.legal_move_texts() == ["10x17"]


# ----------------------------------------------------------------- the rest
def test_copy_keeps_history_and_is_independent() -> None:
    game = Checkers.from_text("B:WK32:BK1")
    game.play_all(["1-6", "32-27", "6-1", "27-32"])
    twin = game.copy()
    assert twin.repetitions() == 2 and list(twin.move_stack) == list(game.move_stack)
    twin.play_all(["1-6", "32-27", "6-1", "27-32"])
    assert twin.outcome() == Outcome(None, "threefold repetition") and game.outcome() is None
    assert game.ply == 4 and twin.ply == 8


def test_key_is_exact() -> None:
    a, b = Checkers(), Checkers()
    a.play_all(["9-13", "22-18", "10-14"])
    b.play_all(["10-14", "22-18", "9-13"])
    assert a.key() == b.key() and a.to_text() == b.to_text()
    assert Checkers.from_text("B:WK30:B1").key() != Checkers.from_text("B:W30:B1").key()
    assert Checkers.from_text("B:W30:B1").key() != Checkers.from_text("W:W30:B1").key()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 100))
def test_quiescence_looks_at_the_jumps_and_stands_pat_without_one(seed: int, plies: int) -> None:
    """Checkers' search hooks (the conformance kit checks what every game shares)."""
    game = play_randomly(new_game("checkers"), seed, plies)
    if game.outcome() is not None:
        return
    jumps = [m for m in game.legal_moves() if game.is_capture(m)]
    assert game.can_stand_pat() == (not jumps)
    assert game.tactical_moves() == jumps


@pytest.mark.slow
def test_bench_perft_quick_smoke() -> None:
    """The perft benchmark runs and its reference counts the same leaves as our perft."""
    from tui.bench.perft import perft_rows

    rows = perft_rows(['checkers'], quick=True, repeat=1)
    by = {r.what: r for r in rows}
    assert by["start"].leaves == 7361
    if by["start"].ref_leaves is not None:  # OpenSpiel installed
        assert by["start"].ref_leaves == 7361
    assert all(r.rate > 0 for r in rows)
