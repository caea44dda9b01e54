"""Othello rules, notation, perft and heuristics (games/othello/)."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playouts import play_randomly
from games.base import (
    HEURISTIC_BOUND,
    GameError,
    IllegalMoveError,
    MoveError,
    MoveSyntaxError,
    PositionError,
)
from games.othello import PASS, TABLE, Othello, discs, mobility, positional, stable_counts, standard
from games.othello.evaluation import STANDARD_CLAMP
from games.othello.reference import (
    DIRECTIONS,
    grid_of,
    grid_perft,
    on_board,
    other,
    reference_flips,
    reference_moves,
    reference_perft,
    reference_count,
    reference_play,
    reference_placements,
    reference_winner,
    text_of,
)
from games.perft import divide, perft

START = "......../......../......../...WB.../...BW.../......../......../........ B"
#: White has no placement (its b1 disc cannot be bracketed from off the board), Black has c1.
WHITE_MUST_PASS = "BW....../......../......../......../......../......../......../........ W"


def position(text: str) -> Othello:
    return Othello.from_text(text)


def after(moves: str, start: str = START) -> Othello:
    game = position(start)
    game.play_all(moves.split())
    return game


def random_game(seed: int, plies: int = 100) -> Othello:
    """A random playout of up to ``plies`` moves (stops when the game is over)."""
    return play_randomly(Othello(), seed, plies)


def colour_flipped(text: str) -> str:
    """The same position with every disc's colour and the side to move swapped."""
    return text.translate(str.maketrans("BW", "WB"))


# --------------------------------------------------------------- a reference
# A deliberately plain model of the rules on a list-of-lists grid (row 0 is
# row 1, the top), with no bitboards, to check the bitboard code against.

def reference_potential(grid: list[list[str]], me: str) -> int:
    """Empty cells next to a disc of the opponent of ``me``."""
    them = other(me)
    return sum(
        1
        for r in range(8)
        for c in range(8)
        if grid[r][c] == "."
        and any(on_board(r + dr, c + dc) and grid[r + dr][c + dc] == them for dr, dc in DIRECTIONS)
    )


EDGE_LINES = [
    [(0, c) for c in range(8)],
    [(7, c) for c in range(8)],
    [(r, 0) for r in range(8)],
    [(r, 7) for r in range(8)],
]


def reference_stable(grid: list[list[str]]) -> tuple[int, int]:
    """Edge discs of each colour in a full edge or in a one-colour run from a corner."""
    stable: set[tuple[int, int]] = set()
    for line in EDGE_LINES:
        if all(grid[r][c] != "." for r, c in line):
            stable.update(line)
            continue
        for run in (line, line[::-1]):
            colour = grid[run[0][0]][run[0][1]]
            if colour == ".":
                continue
            for r, c in run:
                if grid[r][c] != colour:
                    break
                stable.add((r, c))
    return (
        sum(1 for r, c in stable if grid[r][c] == "B"),
        sum(1 for r, c in stable if grid[r][c] == "W"),
    )


# --------------------------------------------------------------------- perft
@pytest.mark.parametrize(
    "depth, leaves",
    [(1, 4), (2, 12), (3, 56), (4, 244), (5, 1396), (6, 8200), (7, 55092), (8, 390216)],
)
def test_perft_from_the_start(depth, leaves):
    game = Othello()
    assert perft(game, depth) == leaves
    assert game.to_text() == START and game.ply == 0


@pytest.mark.slow
def test_perft_9_counts_passes_and_finished_games():
    # The first depth where games end (9-move wipe-outs) and passes happen.
    assert perft(Othello(), 9) == 3005288


def test_perft_without_bulk_counting_and_divide():
    game = Othello()
    assert perft(game, 4, bulk=False) == 244
    rows = divide(game, 3)
    assert [text for text, _ in rows] == ["d3", "c4", "f5", "e6"]
    assert sum(n for _, n in rows) == 56 and len({n for _, n in rows}) == 1  # the four are symmetric


def test_the_reference_agrees_on_small_perfts():
    grid, side = grid_of(START)
    assert [grid_perft(grid, side, d) for d in range(1, 5)] == [4, 12, 56, 244]
    assert reference_perft(None, 4) == 244


def test_class_attributes():
    game = Othello()
    assert Othello.NAME == "othello" and Othello.PLAYERS == ("Black", "White")
    assert set(Othello.HEURISTICS) == {"discs", "mobility", "positional", "standard", "learned"}
    assert Othello.DEFAULT_HEURISTIC == Othello.HAND_MADE_HEURISTIC == "standard"
    assert Othello.STRONG_HEURISTIC == "learned"  # pvs's: the pattern tables that beat standard
    assert Othello.CUT_HEURISTIC == "discs"
    assert Othello.heuristic() is standard and Othello.heuristic("discs") is discs
    example = Othello.from_text(Othello.EXAMPLE_POSITION)
    assert example.parse_move(Othello.EXAMPLE_MOVE) in example.legal_moves()
    assert game.parse_move(Othello.EXAMPLE_MOVE) in game.legal_moves()
    assert game.turn == 0 and game.outcome() is None and game.ply == 0 and game.move_stack == ()
    assert type(Othello.DECISIVE_SCORE) is int and 0 < Othello.DECISIVE_SCORE < HEURISTIC_BOUND
    assert len(set(Othello.FEATURE_NAMES)) == len(Othello.FEATURE_NAMES)


# ------------------------------------------------------------------ the rules
def test_start_and_first_moves():
    game = Othello()
    assert game.to_text() == START
    assert game.legal_move_texts() == ["d3", "c4", "f5", "e6"]
    assert game.legal_moves() == [19, 26, 37, 44] and game.count_moves() == 4
    assert game.disc_counts() == (2, 2) and game.empties == 60
    game.play_text("d3")
    assert game.to_text() == "......../......../...B..../...BB.../...BW.../......../......../........ W"
    assert game.legal_move_texts() == ["c3", "e3", "c5"]


@pytest.mark.parametrize(
    "start, move, expected",
    [
        # one direction, several discs in a row
        ("BWWWW.../......../......../......../......../......../......../........ B", "f1",
         "BBBBBB../......../......../......../......../......../......../........ W"),
        # a run reaching the edge with no own disc beyond it does not flip
        (".WWWWWWB/......../......../......../......../......../......../........ B", "a1",
         "BBBBBBBB/......../......../......../......../......../......../........ W"),
        # seven directions at once; down (c4, c5, then an empty c6) is not bracketed
        ("B.B.B.../.WWW..../BW.WB.../.WWW..../B.W.B.../......../......../........ B", "c3",
         "B.B.B.../.BBB..../BBBBB.../.BWB..../B.W.B.../......../......../........ W"),
        # White moves too
        ("......../......../......../...WB.../...BW.../......../......../........ W", "e3",
         "......../......../....W.../...WW.../...BW.../......../......../........ B"),
    ],
)
def test_placements_turn_over_what_they_bracket(start, move, expected):
    game = position(start)
    game.play_text(move)
    assert game.to_text() == expected
    grid, side = grid_of(start)
    cell = game.move_stack[-1]
    assert text_of(reference_play(grid, cell, side), other(side)) == expected


@pytest.mark.parametrize(
    "text, candidate",
    [
        # In bit order h1 is followed by a2: g1 must not bracket h1 with a2 (shift +1).
        (".......W/B......./......../......../......../......../......../........ B", "g1"),
        # Steps of 9 go from g1 to h2 to a4 (shift +9).
        ("......../.......W/......../B......./......../......../......../........ B", "g1"),
        # Steps of 7 go from b1 to a2 to h2 (shift +7).
        ("......../W......B/......../......../......../......../......../........ B", "b1"),
        # And backwards: a3 to h2 to g2 (shift -1), a4 to h2 to g1 (-9), h3 to a3 to b2 (-7).
        ("......../......WB/......../......../......../......../......../........ W", "a3"),
        ("......B./.......W/......../......../......../......../......../........ B", "a4"),
        ("......../.B....../W......./......../......../......../......../........ B", "h3"),
    ],
)
def test_no_wrap_around_the_board_edges(text, candidate):
    game = position(text)
    grid, side = grid_of(text)
    assert game.legal_moves() == reference_moves(grid, side)
    assert candidate not in game.legal_move_texts()
    with pytest.raises(IllegalMoveError):
        game.parse_move(candidate)


def test_a_forced_pass():
    game = position(WHITE_MUST_PASS)
    assert game.legal_moves() == [PASS] and game.count_moves() == 1
    assert game.must_pass() and game.outcome() is None and game.mobility() == 0
    assert game.legal_move_texts() == ["pass"]
    assert game.parse_move("pass") == game.parse_move(" PASS ") == PASS
    with pytest.raises(IllegalMoveError, match="White has no legal placement and must pass: type 'pass'"):
        game.parse_move("c1")
    assert "White must pass (Black 1, White 1)" in game.render()
    game.play(PASS)
    assert game.turn == 0 and game.legal_move_texts() == ["c1"] and game.move_stack == (PASS,)
    with pytest.raises(IllegalMoveError, match="Black may not pass while a placement is legal, e.g. 'c1'"):
        game.parse_move("pass")
    game.play_text("c1")
    # A wipe-out: nobody can move, Black wins by 3 discs to 0.
    assert game.to_text() == "BBB...../......../......../......../......../......../......../........ W"
    assert game.legal_moves() == [] and game.count_moves() == 0
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.reason == "disc count"
    assert "Black wins (disc count) (Black 3, White 0)" in game.render()
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.parse_move("d1")
    assert game.undo() == 2 and game.undo() == PASS
    assert game.to_text() == WHITE_MUST_PASS and game.key() == position(WHITE_MUST_PASS).key()
    assert game.legal_moves() == [PASS]


def test_random_games_pass_somewhere():
    for seed in range(200):
        game = random_game(seed)
        if PASS in game.move_stack:
            break
    else:
        raise AssertionError("no random game passed")
    # After a pass the passer's opponent moves, and two passes never follow each other.
    stack = game.move_stack
    assert all(not (a == PASS and b == PASS) for a, b in zip(stack, stack[1:]))


SHORTEST_GAME = "d3 c3 b3 d2 e1 d6 d7 e3 f4"  # 9 moves, White wiped out


def test_shortest_game_is_a_wipe_out():
    game = after(SHORTEST_GAME)
    assert game.outcome() is not None and game.outcome().winner == 0
    assert game.disc_counts() == (13, 0) and game.legal_moves() == []
    assert perft(game, 3) == 0
    grid, side = grid_of(game.to_text())
    assert reference_winner(grid, side) == 0


@pytest.mark.parametrize(
    "text, winner",
    [
        ("BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/WWWWWWWW/WWWWWWWW/WWWWWWWW B", 0),
        ("BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWWW W", None),
        ("WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWWW/WBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB B", 1),
        # not full, but nobody can move: the disc count decides
        ("......../......../......../...BB.../...BB.../......../......../........ W", 0),
        ("WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWW./WWWWWWW./......../......../........ B", 1),
        ("......../......../......../......../......../......../......../........ B", None),
    ],
)
def test_finished_games(text, winner):
    game = position(text)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == winner and outcome.reason == "disc count"
    assert game.legal_moves() == [] and game.count_moves() == 0 and not game.must_pass()
    assert game.can_stand_pat() == (winner is None)
    assert perft(game, 2) == 0
    expected = "draw (disc count)" if winner is None else f"{Othello.PLAYERS[winner]} wins (disc count)"
    assert expected in game.render()


# ------------------------------------------------------------ the reference
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_random_games_agree_with_the_reference(seed):
    rng = random.Random(seed)
    game = Othello()
    grid, side = grid_of(START)
    trail = []
    while True:
        text = game.to_text()
        assert text == text_of(grid, side)
        moves = game.legal_moves()
        expected = reference_moves(grid, side)
        assert moves == expected
        assert game.count_moves() == len(moves)
        winner = reference_winner(grid, side)
        outcome = game.outcome()
        if winner == "playing":
            assert outcome is None
        else:
            assert outcome is not None and outcome.winner == winner and outcome.reason == "disc count"
        # notation and position text round trips
        for move in moves:
            assert game.parse_move(game.format_move(move)) == move
            assert game.parse_move(f" {game.format_move(move).upper()} ") == move
            assert game.move_from_code(game.move_code(move)) == move
        again = Othello.from_text(text)
        assert again.to_text() == text and again.key() == game.key() and again.legal_moves() == moves
        if not moves:
            break
        trail.append((text, game.key(), moves, outcome))
        move = rng.choice(moves)
        game.play(move)
        grid, side = reference_play(grid, move, side), other(side)
    assert game.ply == len(trail) <= 120
    # Undo restores everything, the cached move lists included.
    while trail:
        text, key, moves, outcome = trail.pop()
        game.undo()
        assert game.to_text() == text and game.key() == key
        assert game.legal_moves() == moves and game.outcome() == outcome
    assert game.ply == 0
    with pytest.raises(IndexError):
        game.undo()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 64))
def test_undo_after_undo_and_replay_keeps_caches_right(seed, plies):
    """Play, ask, undo, ask again in a random order: the cached mobility never goes stale."""
    rng = random.Random(seed)
    game = Othello()
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves:
            break
        if game.ply and rng.random() < 0.3:
            game.undo()
        else:
            game.play(rng.choice(moves))
        if rng.random() < 0.5:
            game.opponent_mobility()
        fresh = Othello.from_text(game.to_text())
        assert game.legal_moves() == fresh.legal_moves()
        assert game.opponent_mobility() == fresh.opponent_mobility()
        assert game.outcome() == fresh.outcome()


def test_bitboard_helpers_agree_with_the_reference_on_random_positions():
    rng = random.Random(5)
    for _ in range(300):
        cells = [rng.choice("BW..") if rng.random() < 0.8 else rng.choice("BW") for _ in range(64)]
        text = "/".join("".join(cells[8 * r : 8 * r + 8]) for r in range(8)) + " " + rng.choice("BW")
        game = position(text)
        grid, side = grid_of(text)
        assert game.legal_moves() == reference_moves(grid, side)
        assert [c for c in range(64) if game.mobility_of(1) >> c & 1] == reference_placements(grid, "W")
        assert stable_counts(game.black, game.white) == reference_stable(grid)
        for move in reference_placements(grid, side):
            game.play(move)
            assert game.to_text() == text_of(reference_play(grid, move, side), other(side))
            game.undo()
        assert game.to_text() == text


# ------------------------------------------------------------ keys and copies
def test_keys_equal_for_equal_positions_and_differ_otherwise():
    a, b = after("d3 c3 c4 e3"), after("c4 c3 d3 e3")
    assert a.to_text() == b.to_text() and a.key() == b.key() and hash(a.key()) == hash(b.key())
    assert a.key() != Othello().key()
    text = a.to_text()
    flipped_side = text[:-1] + ("W" if text[-1] == "B" else "B")
    assert position(flipped_side).key() != a.key()
    assert position(colour_flipped(text)).key() != a.key()


def test_copy_is_independent():
    game = random_game(3, 12)
    clone = game.copy()
    assert clone.to_text() == game.to_text() and clone.move_stack == game.move_stack
    assert clone.key() == game.key() and clone.outcome() == game.outcome()
    text = game.to_text()
    clone.undo()
    clone.undo()
    clone.play(clone.legal_moves()[-1])
    assert game.to_text() == text and game.ply == 12 and clone.ply == 11


def test_move_codes():
    game = Othello()
    assert [game.move_code(m) for m in game.legal_moves()] == [19, 26, 37, 44]
    assert game.move_from_code(19) == 19
    assert game.move_from_code(0) is None and game.move_from_code(PASS) is None
    assert game.move_from_code(27) is None  # occupied
    assert game.move_from_code(-1) is None and game.move_from_code(99) is None
    passing = position(WHITE_MUST_PASS)
    assert passing.move_code(PASS) == 64 and passing.move_from_code(64) == PASS
    assert passing.move_from_code(2) is None


def test_search_hooks():
    game = random_game(9, 20)
    assert game.tactical_moves() == [] and not game.null_move_ok() and not game.in_check()
    assert all(not game.is_capture(m) and game.capture_score(m) == 0 for m in game.legal_moves())
    assert game.can_stand_pat()


# ------------------------------------------------------------ position text
def test_position_text_round_trip_and_leniency():
    text = "......../......../...B..../...BB.../..WWW.../......../......../........ B"
    assert position(text).to_text() == text
    assert position("  " + text.lower() + "  \n").to_text() == text
    game = position(text)
    assert game.turn == 0 and game.ply == 0
    assert game.piece_at(19) == 0 and game.piece_at(34) == 1 and game.piece_at(0) is None
    assert position(colour_flipped(text)).to_text() == colour_flipped(text)
    assert Othello.from_text(Othello.EXAMPLE_POSITION).to_text() == Othello.EXAMPLE_POSITION


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "expected eight rows"),
        ("......../......../......../...WB.../...BW.../......../......../........", "expected eight rows"),
        (START + " extra", "expected eight rows"),
        ("......../......../...WB.../...BW.../......../......../........ B", "expected 8 rows"),
        (START.replace(" ", "/........ "), "expected 8 rows"),
        ("......./......../......../...WB.../...BW.../......../......../........ B", "row 1 to be 8 cells"),
        ("......../......../......../...WX.../...BW.../......../......../........ B", "row 4 to be 8 cells"),
        ("......../......../......../...WB.../...BW.../......../......../......... B", "row 8 to be 8 cells"),
        ("......../......../......../...WB.../...BW.../......../......../........ X", "side to move, B or W"),
        ("......../......../......../...WB.../...BW.../......../......../........ BW", "side to move, B or W"),
        (START.replace(" ", "\u00a0"), "expected eight rows"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "expected eight rows"),
        ("...../...../...../...../..... X", "expected 8 rows"),
        ("x" * 2000, "at most 1000 characters"),
    ],
)
def test_position_text_errors(text, message):
    with pytest.raises(PositionError, match=message) as info:
        Othello.from_text(text)
    assert "\n" not in str(info.value)


def test_position_text_of_the_wrong_type():
    with pytest.raises(PositionError, match="got int"):
        Othello.from_text(42)  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80) | st.from_regex(r"[BWbw./ ]{60,80}", fullmatch=True))
def test_garbage_positions_raise_position_error_only(text):
    try:
        game = Othello.from_text(text)
    except PositionError as error:
        assert str(error) and "\n" not in str(error)
    else:
        assert Othello.from_text(game.to_text()).key() == game.key()


# ---------------------------------------------------------------- move text
@pytest.mark.parametrize(
    "text, message",
    [
        ("foo", "expected a cell a1 to h8 like 'd3'"),
        ("", "expected a cell"),
        ("i1", "expected a cell"),
        ("a9", "expected a cell"),
        ("a0", "expected a cell"),
        ("d 3", "expected a cell"),
        ("3d", "expected a cell"),
        ("d3d4", "expected a cell"),
        ("passs", "expected a cell"),
        ("pass now", "expected a cell"),
        ("d\u0663", "expected a cell"),  # an Arabic-Indic three
        ("x" * 500, "at most 100 characters"),
    ],
)
def test_move_syntax_errors(text, message):
    with pytest.raises(MoveSyntaxError, match=message) as info:
        Othello().parse_move(text)
    assert "\n" not in str(info.value) and ("d3" in str(info.value) or "at most" in str(info.value))


@pytest.mark.parametrize(
    "text, message",
    [
        ("d4", "d4 is occupied: place a disc on an empty cell, e.g. 'd3'"),
        ("E5", "e5 is occupied"),
        ("a1", "a1 turns over no disc: a placement must bracket a line of White's discs with one of Black's, e.g. 'd3'"),
        ("c3", "c3 turns over no disc"),
        ("pass", "Black may not pass while a placement is legal, e.g. 'd3'"),
    ],
)
def test_illegal_moves_say_why(text, message):
    with pytest.raises(IllegalMoveError, match=message) as info:
        Othello().parse_move(text)
    assert "\n" not in str(info.value)


def test_moves_of_the_wrong_type():
    with pytest.raises(MoveSyntaxError, match="got int"):
        Othello().parse_move(19)  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 60), st.text(max_size=20) | st.from_regex(r"[a-jA-J0-9 ]{1,4}|[pasPAS]{3,5}", fullmatch=True))
def test_garbage_moves_raise_move_errors_only(plies, text):
    game = random_game(11, plies)
    try:
        move = game.parse_move(text)
    except (MoveSyntaxError, IllegalMoveError) as error:
        assert str(error) and "\n" not in str(error)
    else:
        assert move in game.legal_moves()


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_mangled_legal_moves_raise_only_move_errors(data):
    game = random_game(data.draw(st.integers(0, 1000)), data.draw(st.integers(0, 50)))
    if not game.legal_moves():
        return
    chars = list(data.draw(st.sampled_from(game.legal_move_texts())))
    chars[data.draw(st.integers(0, len(chars) - 1))] = data.draw(st.characters())
    try:
        move = game.parse_move("".join(chars))
    except MoveError as error:
        assert isinstance(error, GameError) and "\n" not in str(error)
    else:
        assert move in game.legal_moves()


# ------------------------------------------------------------------- render
def test_render_has_coordinates():
    lines = Othello().render().splitlines()
    assert lines[0].split() == list("abcdefgh")
    assert lines[4].split() == ["4", ".", ".", ".", "W", "B", ".", ".", "."]
    assert lines[5].split() == ["5", ".", ".", ".", "B", "W", ".", ".", "."]
    assert lines[8].split()[0] == "8" and len(lines) == 10
    assert lines[9] == "Black to move (Black 2, White 2)"
    assert str(Othello()) == Othello().render()


# --------------------------------------------------------------- heuristics
def playout_positions(seed: int) -> list[Othello]:
    """Every position of a random game, the finished one included."""
    game = random_game(seed)
    positions = []
    replay = Othello()
    positions.append(replay.copy())
    for move in game.move_stack:
        replay.play(move)
        positions.append(replay.copy())
    return positions


@pytest.mark.parametrize("seed", range(6))
def test_heuristics_are_zero_sum_colour_blind_and_bounded(seed):
    for game in playout_positions(seed):
        flipped = position(colour_flipped(game.to_text()))
        finished = game.outcome() is not None
        for name, h in Othello.HEURISTICS.items():
            mine, theirs = h(game, 0), h(game, 1)
            assert isinstance(mine, int) and mine == -theirs, name
            assert abs(mine) < HEURISTIC_BOUND and math.isfinite(mine)
            # the same position with the colours swapped scores the same for the side to move
            assert h(flipped, flipped.turn) == h(game, game.turn), (name, game.to_text())
            if not finished:
                assert abs(mine) <= {"discs": 62, "mobility": 840, "positional": 540, "standard": STANDARD_CLAMP,
                                     "learned": STANDARD_CLAMP}[name]
        if not finished:
            assert abs(standard(game, 0)) < Othello.DECISIVE_SCORE


@pytest.mark.parametrize(
    "text, winner, margin",
    [
        ("BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/WWWWWWWW/WWWWWWWW/WWWWWWWW B", 0, 16),
        ("BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWWW W", None, 0),
        ("......../......../......../...BB.../...BB.../......../......../........ W", 0, 4),
        ("WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWW./WWWWWWW./......../......../........ B", 1, 38),
    ],
)
def test_finished_games_score_beyond_every_unfinished_one(text, winner, margin):
    game = position(text)
    sign = 0 if winner is None else 1 if winner == 0 else -1
    assert discs(game, 0) == sign * (64 + margin)
    assert mobility(game, 0) == sign * (1000 + margin)
    assert positional(game, 0) == sign * (1000 + margin)
    assert standard(game, 0) == sign * (4000 + 16 * margin)
    if winner is not None:
        assert standard(game, winner) >= Othello.DECISIVE_SCORE


def test_start_is_even_on_every_hand_made_heuristic():
    for name, h in Othello.HEURISTICS.items():
        if name == "learned":  # learned from games: the side to move may be worth something
            assert h(Othello(), 0) == -h(Othello(), 1)
        else:
            assert h(Othello(), 0) == h(Othello(), 1) == 0


@pytest.mark.parametrize("seed", range(4))
def test_simple_heuristics_match_their_definitions(seed):
    for game in playout_positions(seed):
        if game.outcome() is not None:
            continue
        grid, side = grid_of(game.to_text())
        me, them = side, other(side)
        sign = 1 if game.turn == 0 else -1  # heuristics for Black = sign * (side to move's)
        assert discs(game, 0) == sign * (reference_count(grid, me) - reference_count(grid, them))
        moves = len(reference_placements(grid, me)) - len(reference_placements(grid, them))
        potential = reference_potential(grid, me) - reference_potential(grid, them)
        assert mobility(game, 0) == sign * (10 * moves + 4 * potential)
        table = sum(
            TABLE[8 * r + c] * (1 if grid[r][c] == me else -1 if grid[r][c] == them else 0)
            for r in range(8)
            for c in range(8)
        )
        assert positional(game, 0) == sign * table


def test_standard_prefers_corners_and_shuns_x_squares_next_to_empty_corners():
    base = "......../......../..BWB.../...WB.../...BW.../......../......../........ W"
    corner = "B......./......../..BWB.../...WB.../...BW.../......../......../........ W"
    x_square = "......../.B....../..BWB.../...WB.../...BW.../......../......../........ W"
    assert standard(position(corner), 0) > standard(position(base), 0) > standard(position(x_square), 0)
    # Once the corner is taken the X-square costs nothing more than the table says elsewhere.
    both = "B......./.B....../..BWB.../...WB.../...BW.../......../......../........ W"
    assert standard(position(both), 0) > standard(position(x_square), 0)


def test_parity_favours_the_side_that_moves_last():
    # Same board late in the game; only who moves differs, and with an odd count the mover plays last.
    game = random_game(1, 200)
    while game.empties < 9 or game.empties % 2 == 0 or game.outcome() is not None:
        game.undo()
    f = dict(zip(Othello.FEATURE_NAMES, game.features(game.turn)))
    assert f["parity"] == 1.0 and f["empties"] % 2 == 1


# ------------------------------------------------------------------ features
@pytest.mark.parametrize("seed", range(5))
def test_features(seed):
    for game in playout_positions(seed)[:: 7]:
        names = Othello.FEATURE_NAMES
        mine, theirs = game.features(0), game.features(1)
        assert len(mine) == len(names) and all(isinstance(v, float) for v in mine)
        f, g = dict(zip(names, mine)), dict(zip(names, theirs))
        for name in names:
            if name.startswith("own_"):
                assert f[name] == g["opp_" + name[4:]]
        assert f["to_move"] + g["to_move"] == 1.0 and f["result"] == -g["result"]
        assert f["parity"] == -g["parity"] and f["empties"] == g["empties"] == game.empties
        grid, _ = grid_of(game.to_text())
        assert f["own_discs"] == reference_count(grid, "B") and f["opp_discs"] == reference_count(grid, "W")
        assert f["own_mobility"] == len(reference_placements(grid, "B"))
        assert f["opp_mobility"] == len(reference_placements(grid, "W"))
        assert f["own_potential_mobility"] == reference_potential(grid, "B")
        assert (f["own_stable"], f["opp_stable"]) == reference_stable(grid)
        outcome = game.outcome()
        assert f["result"] == (0.0 if outcome is None or outcome.winner is None else 1.0 - 2 * outcome.winner)


def test_features_by_hand():
    game = position("BB.....W/B.W...../......../...WB.../...BW.../......../......B./W......B B")
    f = dict(zip(Othello.FEATURE_NAMES, game.features(0)))
    assert f["own_discs"] == 7 and f["opp_discs"] == 5
    assert f["own_corners"] == 2 and f["opp_corners"] == 2  # a1, h8 / h1, a8
    assert f["own_x_squares"] == 1 and f["opp_x_squares"] == 0  # g7
    assert f["own_stable"] == 4 and f["opp_stable"] == 2  # a1 b1 a2 h8 / h1 a8
    assert f["own_edges"] == 4 and f["opp_edges"] == 2
    assert f["empties"] == 52 and f["parity"] == -1.0 and f["to_move"] == 1.0 and f["result"] == 0.0


# ----------------------------------------------------------------- engines
@pytest.mark.parametrize("spec", ["alphabeta:depth=3", "pvs:depth=3"])
def test_engines_search_othello_through_the_protocol(spec):
    from engines import create_engine

    engine = create_engine(spec, Othello)
    game = position(WHITE_MUST_PASS)
    assert engine.search(game).move == PASS
    game = random_game(4, 30)
    before = game.to_text()
    result = engine.search(game)
    assert result.move in game.legal_moves() and game.to_text() == before


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 100))
def test_quiescence_has_nothing_to_look_at(seed: int, plies: int) -> None:
    """No captures in Othello: a search always stands pat (the conformance kit checks the rest)."""
    game = play_randomly(Othello(), seed, plies)
    if game.outcome() is None:
        assert game.can_stand_pat() and game.tactical_moves() == []
