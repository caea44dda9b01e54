"""Quixo rules, notation, perft and heuristics (games/quixo.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playouts import play_randomly
from games import HEURISTIC_BOUND, new_game
from games.base import GameError, IllegalMoveError, MoveSyntaxError, PositionError
from games.perft import divide, perft
from games.quixo import EDGES, MOVES, Quixo, line_potential, longest_line

EMPTY = "...../...../...../...../..... X"


def position(text: str, **kwargs) -> Quixo:
    return Quixo.from_text(text, **kwargs)


def after(text: str, move: str) -> str:
    game = position(text)
    game.play_text(move)
    return game.to_text()


def random_game(seed: int, plies: int, move_cap: int | None = None) -> Quixo:
    """A random playout of up to ``plies`` moves (stops when the game is won)."""
    return play_randomly(Quixo(move_cap=move_cap), seed, plies, stop_at_outcome=False)


# --------------------------------------------------------------- a reference
# A deliberately naive model of the rules on a list-of-lists grid, to check the
# bitboard arithmetic against.


def grid_of(game: Quixo) -> list[list[str]]:
    return [list(row) for row in game.to_text().split()[0].split("/")]


def reference_push(grid: list[list[str]], col: int, row: int, edge: str, symbol: str) -> list[list[str]]:
    grid = [r[:] for r in grid]
    if edge in ("left", "right"):
        line = grid[row]
        del line[col]
        line.insert(0 if edge == "left" else 4, symbol)
    else:
        column = [grid[r][col] for r in range(5)]
        del column[row]
        column.insert(0 if edge == "top" else 4, symbol)
        for r in range(5):
            grid[r][col] = column[r]
    return grid


def reference_moves(grid: list[list[str]], symbol: str) -> list[tuple[int, int, str]]:
    other = "O" if symbol == "X" else "X"
    moves = []
    for row in range(5):
        for col in range(5):
            if not (col in (0, 4) or row in (0, 4)) or grid[row][col] == other:
                continue
            for edge in EDGES:
                came_from = (
                    (edge == "top" and row == 0)
                    or (edge == "bottom" and row == 4)
                    or (edge == "left" and col == 0)
                    or (edge == "right" and col == 4)
                )
                if not came_from:
                    moves.append((col, row, edge))
    return moves


def reference_fives(grid: list[list[str]], symbol: str) -> bool:
    lines = [[(c, r) for c in range(5)] for r in range(5)]
    lines += [[(c, r) for r in range(5)] for c in range(5)]
    lines += [[(i, i) for i in range(5)], [(4 - i, i) for i in range(5)]]
    return any(all(grid[r][c] == symbol for c, r in line) for line in lines)


# --------------------------------------------------------------------- perft
@pytest.mark.parametrize("depth, leaves", [(1, 44), (2, 1836), (3, 76596), (4, 3018100)])
def test_perft_from_the_empty_board(depth, leaves):
    game = Quixo()
    assert perft(game, depth) == leaves
    assert game.to_text() == EMPTY and game.ply == 0


def test_divide_sums_to_perft():
    game = Quixo()
    rows = divide(game, 2)
    assert len(rows) == 44
    assert sum(n for _, n in rows) == 1836
    # After X's first move O has the 44 moves but those of the X cube, here on corner (0, 4).
    assert dict(rows)["0 0 bottom"] == 44 - 2
    assert dict(rows)["2 0 bottom"] == 44 - 3


def test_registry_and_class_attributes():
    game = new_game("quixo")
    assert isinstance(game, Quixo)
    assert Quixo.NAME == "quixo" and Quixo.PLAYERS == ("X", "O")
    assert set(Quixo.HEURISTICS) == {"longest-line", "line-potential", "learned"}
    assert Quixo.DEFAULT_HEURISTIC == Quixo.HAND_MADE_HEURISTIC == "line-potential"
    assert Quixo.CUT_HEURISTIC == "longest-line"
    assert Quixo.STRONG_HEURISTIC == "learned"  # pvs's: the pattern tables that beat line-potential
    Quixo.from_text(Quixo.EXAMPLE_POSITION).parse_move(Quixo.EXAMPLE_MOVE)
    assert game.turn == 0 and game.outcome() is None and game.move_cap == 100


# ------------------------------------------------------------ move generation
def test_move_table_has_44_moves_two_per_corner_three_per_side_cube():
    per_cell: dict[tuple[int, int], list[str]] = {}
    for move in MOVES:
        per_cell.setdefault((move.col, move.row), []).append(move.edge)
    assert len(MOVES) == 44 and len(per_cell) == 16
    for (col, row), edges in per_cell.items():
        corner = col in (0, 4) and row in (0, 4)
        assert len(edges) == (2 if corner else 3), (col, row, edges)
    assert sorted(per_cell[(0, 0)]) == ["bottom", "right"]
    assert sorted(per_cell[(4, 4)]) == ["left", "top"]
    assert sorted(per_cell[(2, 0)]) == ["bottom", "left", "right"]
    assert sorted(per_cell[(0, 3)]) == ["bottom", "right", "top"]


def test_a_cube_never_goes_back_where_it_came_from():
    for move in MOVES:
        assert not (move.edge == "top" and move.row == 0)
        assert not (move.edge == "bottom" and move.row == 4)
        assert not (move.edge == "left" and move.col == 0)
        assert not (move.edge == "right" and move.col == 4)


def test_inner_cubes_cannot_be_taken():
    game = position("...../.XXX./.XOX./.OOO./..... X")
    sources = {(MOVES[m].col, MOVES[m].row) for m in game.legal_moves()}
    assert all(col in (0, 4) or row in (0, 4) for col, row in sources)
    assert len(sources) == 16
    for text in ("1 1 top", "2 2 left", "3 3 bottom", "2 1 right"):
        with pytest.raises(IllegalMoveError, match="not on the border"):
            Quixo().parse_move(text)


def test_opponents_cubes_cannot_be_taken():
    game = position("O...O/...../O...X/...../O...O X")
    taken = {(MOVES[m].col, MOVES[m].row) for m in game.legal_moves()}
    assert not taken & {(0, 0), (4, 0), (0, 2), (0, 4), (4, 4)}
    assert (4, 2) in taken
    # Corners are worth 2 moves, side cubes 3: 16 cells minus 4 corners and a side cube of O.
    assert game.count_moves() == len(game.legal_moves()) == 44 - 4 * 2 - 3
    with pytest.raises(IllegalMoveError, match="is O's: X may take only a blank cube or one of its own"):
        game.parse_move("0 0 bottom")
    # O may take its own cubes but not X's.
    game = position("O...O/...../O...X/...../O...O O")
    with pytest.raises(IllegalMoveError, match="is X's: O may take"):
        game.parse_move("4 2 left")
    assert game.format_move(game.parse_move("0 0 right")) == "0 0 right"
    assert game.count_moves() == 44 - 3


def test_legal_moves_are_fixed_order_and_fresh_lists():
    game = position("OX..O/X...X/...../O...O/.X... X")
    first = game.legal_moves()
    assert first == sorted(first)
    first.clear()
    assert len(game.legal_moves()) == game.count_moves() > 0


# -------------------------------------------------------------------- pushes
@pytest.mark.parametrize(
    "before, move, expected",
    [
        # pushed in at the left: the cubes left of the source shift right
        ("OX.../...../...../...../..... X", "2 0 left", "XOX../...../...../...../..... O"),
        # pushed in at the right: the cubes right of the source shift left
        ("X.O.X/...../...../...../..... X", "0 0 right", ".O.XX/...../...../...../..... O"),
        ("XO..X/...../...../...../..... X", "2 0 right", "XO.XX/...../...../...../..... O"),
        # pushed in at the top: the cubes above the source shift down
        ("....O/...../....X/...../....X X", "4 4 top", "....X/....O/...../....X/..... O"),
        ("O..../X..../...../...../..... X", "0 2 top", "X..../O..../X..../...../..... O"),
        # pushed in at the bottom: the cubes below the source shift up
        ("...../O..../X..../O..../..... X", "0 0 bottom", "O..../X..../O..../...../X.... O"),
        # O moves too; a blank cube taken becomes the mover's
        ("...../...../X...O/...../..X.. O", "4 2 left", "...../...../OX.../...../..X.. X"),
        ("...../...../X...O/...../..... O", "2 4 top", "..O../...../X...O/...../..... X"),
        ("...../...../X...O/...../..X.. O", "4 4 left", "...../...../X...O/...../O..X. X"),
    ],
)
def test_pushes_shift_the_row_or_column(before, move, expected):
    assert after(before, move) == expected


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 80))
def test_play_agrees_with_a_naive_reference(seed, plies):
    rng = random.Random(seed)
    game = Quixo(move_cap=None)
    for _ in range(plies):
        grid, symbol = grid_of(game), Quixo.PLAYERS[game.turn]
        moves = game.legal_moves()
        if reference_fives(grid, "X") or reference_fives(grid, "O"):
            assert moves == [] and game.count_moves() == 0
            assert game.outcome().reason == "five in a row"
            break
        expected = reference_moves(grid, symbol)
        assert [(MOVES[m].col, MOVES[m].row, MOVES[m].edge) for m in moves] == expected
        assert game.count_moves() == len(moves)
        move = rng.choice(moves)
        m = MOVES[move]
        new_grid = reference_push(grid, m.col, m.row, m.edge, symbol)
        game.play(move)
        assert grid_of(game) == new_grid
        mover_five, other_five = reference_fives(new_grid, symbol), reference_fives(
            new_grid, "O" if symbol == "X" else "X"
        )
        if other_five:
            assert game.winner == game.turn  # the mover completed the opponent's line: lost
        elif mover_five:
            assert game.winner == 1 - game.turn
        else:
            assert game.winner is None


# ------------------------------------------------------------------- outcomes
@pytest.mark.parametrize(
    "before, move",
    [
        ("XXXX./...../...../...../..... X", "4 1 top"),  # row
        ("...../X..../X..../X..../X.... X", "1 0 left"),  # column
        ("...../.X.../..X../...X./....X X", "1 0 left"),  # diagonal
        ("...../...X./..X../.X.../X.... X", "3 0 right"),  # anti-diagonal
    ],
)
def test_five_in_a_row_wins(before, move):
    game = position(before)
    assert game.outcome() is None
    game.play_text(move)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.reason == "five in a row"
    assert game.legal_moves() == [] and game.count_moves() == 0
    assert perft(game, 2) == 0
    with pytest.raises(IllegalMoveError, match="game is over, X has five in a row"):
        game.parse_move("0 0 bottom")
    assert "X wins (five in a row)" in game.render()
    game.undo()
    assert game.outcome() is None and game.to_text() == position(before).to_text()


def test_five_in_a_row_for_o():
    game = position("OOOO./...../...../...../..... O")
    game.play_text("4 1 top")
    assert game.outcome().winner == 1


def test_completing_the_opponents_line_loses_even_with_your_own():
    game = position(".....|OOOO.|....O|.....|XXXX. X".replace("|", "/"))
    game.play_text("4 0 bottom")
    assert game.to_text() == "...../OOOOO/...../...../XXXXX O"
    outcome = game.outcome()
    assert outcome.winner == 1 and outcome.reason == "five in a row"
    assert game.legal_moves() == []


def test_completing_only_the_opponents_line_loses():
    # X pushes (4, 0) in at the bottom: the O at (4, 2) rises to (4, 1), completing O's row.
    game = position("...../OOOO./....O/...../..... X")
    game.play_text("4 0 bottom")
    assert game.to_text() == "...../OOOOO/...../...../....X O"
    assert game.outcome().winner == 1 and game.winner == 1


def test_positions_read_with_a_line_are_won():
    assert position("XXXXX/...../...../...../..... O").outcome().winner == 0
    assert position("XXXXX/...../...../...../..... X").outcome().winner == 0
    # A line of each: the last mover made both and lost, so the side to move won.
    assert position("XXXXX/OOOOO/...../...../..... O").outcome().winner == 1
    assert position("XXXXX/OOOOO/...../...../..... X").outcome().winner == 0


CYCLE = ["0 0 right", "0 4 right", "4 0 left", "4 4 left"]


def test_threefold_repetition_draws():
    game = position("X..../...../...../...../O.... X")
    start = game.key()
    game.play_all(CYCLE)
    assert game.key() == start and game.repetitions() == 2 and game.outcome() is None
    game.play_all(CYCLE[:3])
    assert game.outcome() is None
    game.play_text(CYCLE[3])
    assert game.repetitions() == 3
    assert game.outcome().is_draw and game.outcome().reason == "threefold repetition"
    assert game.legal_moves()  # draws by rule do not empty the move list
    assert "draw (threefold repetition)" in game.render()
    game.undo()
    assert game.outcome() is None
    game.play_text(CYCLE[3])
    assert game.outcome().reason == "threefold repetition"
    for _ in range(8):
        game.undo()
    assert game.ply == 0 and game.repetitions() == 1


def test_move_cap_draws():
    game = position("X..../...../...../...../O.... X", move_cap=2)
    game.play_all(CYCLE[:3])
    assert game.outcome() is None
    game.play_text(CYCLE[3])
    assert game.ply == 4 and game.outcome().reason == "move cap" and game.outcome().winner is None
    game = Quixo(move_cap=1)
    game.play_all(["0 0 bottom", "4 4 top"])
    assert game.outcome().reason == "move cap"
    game.undo()
    assert game.outcome() is None


def test_a_win_on_the_last_capped_move_is_a_win():
    game = position("XXXX./...../...../...../..... X", move_cap=1)
    game.play_text("0 4 top")
    game.play_text("4 4 top")  # O's move: ply 2 reaches the cap
    assert game.outcome().reason == "move cap"
    game = position("XXXX./...../...../...../..... O", move_cap=1)
    game.play_text("4 4 left")  # O
    game.play_text("4 1 top")  # X completes row 0 on the capped move
    assert game.outcome().winner == 0 and game.outcome().reason == "five in a row"


def quiet_moves(seed: int, plies: int) -> list[int]:
    """A random game of ``plies`` moves that neither wins nor repeats a position."""
    rng = random.Random(seed)
    game = Quixo(move_cap=None)
    while game.ply < plies:
        moves = game.legal_moves()
        rng.shuffle(moves)
        for move in moves:
            game.play(move)
            if game.outcome() is None and game.repetitions() == 1:
                break
            game.undo()
        else:
            raise AssertionError("no quiet move")
    return list(game.move_stack)


def test_default_move_cap_is_100_moves_each():
    moves = quiet_moves(5, 201)
    game = Quixo()
    for move in moves[:199]:
        game.play(move)
    assert game.outcome() is None
    game.play(moves[199])
    assert game.ply == 200 and game.outcome().reason == "move cap"
    game.play(moves[200])
    assert game.outcome().reason == "move cap"
    uncapped = Quixo(move_cap=None)
    for move in moves:
        uncapped.play(move)
    assert uncapped.outcome() is None


@pytest.mark.parametrize("cap", [0, -1, 1.5, "10", True])
def test_bad_move_cap(cap):
    with pytest.raises(GameError, match="move cap"):
        Quixo(move_cap=cap)


# ----------------------------------------------------------- play/undo/keys
def test_undo_restores_everything_and_returns_the_move():
    game = random_game(7, 30)
    texts, keys, outcomes = [], [], []
    game2 = Quixo(move_cap=None)
    for move in game.move_stack:
        texts.append(game2.to_text())
        keys.append(game2.key())
        outcomes.append(game2.outcome())
        game2.play(move)
    assert game2.to_text() == game.to_text() and game2.key() == game.key()
    for move in reversed(game.move_stack):
        assert game2.undo() == move
        assert game2.to_text() == texts.pop() and game2.key() == keys.pop()
        assert game2.outcome() == outcomes.pop()
    with pytest.raises(IndexError):
        game2.undo()


def test_keys_equal_for_equal_positions_and_differ_otherwise():
    a = Quixo()
    a.play_all(["0 0 bottom", "4 0 bottom", "2 0 bottom"])
    b = Quixo()
    b.play_all(["2 0 bottom", "4 0 bottom", "0 0 bottom"])
    assert a.to_text() == b.to_text() and a.key() == b.key()
    assert position("X..../...../...../...../..... O").key() != position("X..../...../...../...../..... X").key()
    assert position("X..../...../...../...../..... O").key() != position("O..../...../...../...../..... O").key()
    assert hash(a.key()) == hash(b.key())


def test_copy_is_independent():
    game = random_game(3, 12)
    clone = game.copy()
    assert clone.to_text() == game.to_text() and clone.move_stack == game.move_stack
    assert clone.move_cap == game.move_cap and clone.outcome() == game.outcome()
    text = game.to_text()
    clone.undo()
    clone.undo()
    assert game.to_text() == text and game.ply == 12 and clone.ply == 10


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 120))
def test_legal_moves_agree_with_count_moves(seed, plies):
    rng = random.Random(seed)
    game = Quixo(move_cap=None)
    for _ in range(plies):
        moves = game.legal_moves()
        assert game.count_moves() == len(moves) == len(set(moves))
        if not moves:
            assert game.outcome().reason == "five in a row"
            break
        game.play(rng.choice(moves))


# ------------------------------------------------------------ position text
def test_position_text_round_trip_and_leniency():
    text = "X...O/.X.../..O../...../O...X O"
    assert position(text).to_text() == text
    assert position("  x...o/.x.../..o../...../o...x   o \n").to_text() == text
    assert Quixo().to_text() == EMPTY
    game = position(text, move_cap=7)
    assert game.move_cap == 7 and game.turn == 1 and game.ply == 0
    assert game.piece_at(0, 0) == 0 and game.piece_at(4, 0) == 1 and game.piece_at(1, 0) is None


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "expected five rows"),
        ("...../...../...../...../.....", "expected five rows"),
        ("...../...../...../...../..... X extra", "expected five rows"),
        ("...../...../...../..... X", "expected 5 rows"),
        ("...../...../...../...../...../..... X", "expected 5 rows"),
        ("...../...../...../...../.... X", "row 5 to be 5 cells"),
        ("...../...Z./...../...../..... X", "row 2 to be 5 cells"),
        ("...../...../...../...../...... X", "row 5 to be 5 cells"),
        ("...../...../...../...../..... Z", "side to move, X or O"),
        ("...../...../...../...../..... XO", "side to move, X or O"),
        ("...../...../...../...../.....\u00a0X", "expected five rows"),
        ("...../...../...../...../..... \u0425", "expected five rows"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "expected five rows"),
    ],
)
def test_position_text_errors(text, message):
    with pytest.raises(PositionError, match=message) as info:
        Quixo.from_text(text)
    assert "\n" not in str(info.value) and ("e.g." in str(info.value) or "like" in str(info.value))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60) | st.from_regex(r"[XO.x/ ]{20,40}", fullmatch=True))
def test_garbage_positions_raise_position_error_only(text):
    try:
        game = Quixo.from_text(text)
    except PositionError as error:
        assert "\n" not in str(error)
    else:
        assert Quixo.from_text(game.to_text()).to_text() == game.to_text()


# ---------------------------------------------------------------- move text
@pytest.mark.parametrize(
    "text",
    [
        "0 0 bottom", "0 0 b", "0 0 B", "0 0 BOTTOM", "0 0 Bot", "0,0 bottom", "0,0,b", "0, 0, b",
        "  0   0   bottom  ", "(0, 0) bottom", "(0,0)b", "0\t0\tb",
    ],
)
def test_move_parsing_accepts_abbreviations_case_and_separators(text):
    game = Quixo()
    move = game.parse_move(text)
    assert game.format_move(move) == "0 0 bottom"


def test_move_formats():
    game = Quixo()
    assert game.legal_move_texts()[:3] == ["0 0 bottom", "0 0 right", "1 0 bottom"]
    for move in game.legal_moves():
        text = game.format_move(move)
        col, row, edge = text.split()
        assert edge in EDGES and game.parse_move(text) == move
        assert game.parse_move(f"{col},{row} {edge[0].upper()}") == move
        assert Quixo.move_for(int(col), int(row), edge) == move
        assert Quixo.move_parts(move)[1:4] == (int(col), int(row), edge)


@pytest.mark.parametrize(
    "text, message",
    [
        ("foo", "expected 'COL ROW EDGE' like '0 0 bottom'"),
        ("", "expected 'COL ROW EDGE'"),
        ("0 0", "expected 'COL ROW EDGE'"),
        ("0 0 bottom now", "expected 'COL ROW EDGE'"),
        ("0 0bottom", "expected 'COL ROW EDGE'"),
        ("00 bottom", "expected 'COL ROW EDGE'"),
        ("0 -1 top", "expected 'COL ROW EDGE'"),
        ("a1 top", "expected 'COL ROW EDGE'"),
        ("e2e4", "expected 'COL ROW EDGE'"),
        ("0 0 up", "expected the edge top, bottom, left or right"),
        ("0 0 bottomx", "expected the edge"),
        ("5 0 top", "COL and ROW from 0 to 4"),
        ("0 12 top", "COL and ROW from 0 to 4"),
        ("0 99999999999999999999999 top", "COL and ROW from 0 to 4"),
        ("\u0660 0 top", "expected 'COL ROW EDGE'"),
    ],
)
def test_move_syntax_errors(text, message):
    with pytest.raises(MoveSyntaxError, match=message) as info:
        Quixo().parse_move(text)
    assert "\n" not in str(info.value) and "0 0 bottom" in str(info.value)


@pytest.mark.parametrize(
    "text, message",
    [
        ("2 2 top", "the cube at 2 2 is not on the border"),
        ("1 3 left", "not on the border: take one from the outer ring"),
        ("0 0 top", "comes from the top edge and cannot be pushed back in there; push it in at bottom or right"),
        ("0 0 left", "comes from the left edge"),
        ("2 0 top", "push it in at bottom, left or right, e.g. '2 0 bottom'"),
        ("4 3 right", "comes from the right edge"),
        ("3 4 b", "comes from the bottom edge"),
    ],
)
def test_illegal_moves_say_why(text, message):
    with pytest.raises(IllegalMoveError, match=message) as info:
        Quixo().parse_move(text)
    assert "\n" not in str(info.value) and "e.g. '" in str(info.value)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30) | st.from_regex(r"[0-9 ,()a-zA-Z]{1,14}", fullmatch=True))
def test_garbage_moves_raise_move_errors_only(text):
    game = random_game(11, 6)
    try:
        move = game.parse_move(text)
    except (MoveSyntaxError, IllegalMoveError) as error:
        assert "\n" not in str(error)
    else:
        assert move in game.legal_moves()


# ------------------------------------------------------------------- render
def test_render_has_coordinates():
    lines = position("X...O/.X.../..O../...../O...X O").render().splitlines()
    assert lines[0].split() == ["0", "1", "2", "3", "4"]
    assert lines[1].split() == ["0", "X", ".", ".", ".", "O"]
    assert lines[5].split() == ["4", "O", ".", ".", ".", "X"]
    assert lines[6] == "O to move"
    assert str(Quixo()) == Quixo().render()


# --------------------------------------------------------------- heuristics
def test_longest_line_is_the_seeds_find_max_sequence():
    # X: 3 in row 0 (not adjacent), O: 2 on the anti-diagonal.
    game = position("X.X.X/...O./..O../...../..... X")
    assert longest_line(game, 0) == 3 - 2 and longest_line(game, 1) == -1
    assert game.evaluate(0, "longest-line") == 1
    assert longest_line(Quixo(), 0) == 0
    won = position("XXXXX/OOOO./...../...../..... O")
    assert longest_line(won, 0) == 5 and longest_line(won, 1) == -5


def test_line_potential_prefers_lines_and_threats():
    h = line_potential
    assert h(Quixo(), 0) == h(Quixo(), 1) == 0
    # Spread over one line beats scattered over several.
    assert h(position("XXX../...../...../...../..... O"), 0) > h(position("X..../...../..X../...../...X. O"), 0)
    # Four in a line is worth most to the side to move.
    four = "XXXX./...../...../...../..... "
    assert h(position(four + "X"), 0) > h(position(four + "O"), 0) > 0
    # A line contested by the opponent is worth less.
    assert h(position("XXX../...../...../...../..... O"), 0) > h(position("XXXO./...../...../...../..... O"), 0)
    won = position("XXXXX/OOOO./...../...../..... O")
    assert h(won, 0) == 50_000 and h(won, 1) == -50_000
    assert Quixo.heuristic() is line_potential and Quixo.heuristic("longest-line") is longest_line


def test_unknown_heuristic():
    with pytest.raises(KeyError, match="longest-line"):
        Quixo().evaluate(0, "material")


@pytest.mark.parametrize("seed", range(12))
def test_heuristics_antisymmetric_and_bounded_on_random_playouts(seed):
    rng = random.Random(seed)
    game = Quixo(move_cap=None)
    while True:
        for name, h in Quixo.HEURISTICS.items():
            a, b = h(game, 0), h(game, 1)
            assert a == -b, (name, game.to_text())
            assert abs(a) < HEURISTIC_BOUND
            assert isinstance(a, int)
        assert -5 <= longest_line(game, 0) <= 5
        if game.outcome() is None:
            assert abs(line_potential(game, 0)) < 6000
        moves = game.legal_moves()
        if not moves or game.ply > 150:
            break
        game.play(rng.choice(moves))


@pytest.mark.parametrize("seed", range(6))
def test_features(seed):
    game = random_game(seed, 4 + 7 * seed)
    mine, theirs = game.features(0), game.features(1)
    names = Quixo.FEATURE_NAMES
    assert len(mine) == len(names) == len(set(names)) and 10 <= len(names) <= 20
    assert all(isinstance(v, float) for v in mine)
    f = dict(zip(names, mine))
    g = dict(zip(names, theirs))
    for name in names:
        if name.startswith("own_"):
            assert f[name] == g["opp_" + name[4:]]
    assert f["to_move"] + g["to_move"] == 1.0 and f["result"] == -g["result"]
    assert f["own_cubes"] == game.x.bit_count() and f["opp_cubes"] == game.o.bit_count()
    assert f["own_longest"] - f["opp_longest"] == longest_line(game, 0) or game.winner is not None
    if game.turn == 0 and game.winner is None:
        assert f["own_mobility"] == game.count_moves()


def test_features_by_hand():
    game = position("XX.../XXX../XXXX./O...O/OO... O")
    f = dict(zip(Quixo.FEATURE_NAMES, game.features(0)))
    assert f["own_cubes"] == 9 and f["opp_cubes"] == 4
    assert f["own_open_2"] == 2  # row 0, column 2
    assert f["own_open_3"] == 2  # row 1, the diagonal
    assert f["own_open_4"] == 1  # row 2
    assert f["opp_open_2"] == 2  # rows 3 and 4
    assert f["own_longest"] == 4 and f["opp_longest"] == 2
    assert f["own_centre"] == 1 and f["opp_centre"] == 0
    assert f["own_corners"] == 1 and f["opp_corners"] == 1
    assert f["own_mobility"] == 44 - 2 * 1 - 3 * 3  # O holds corner (0,4) and sides (0,3), (4,3), (1,4)
    assert f["to_move"] == 0 and f["result"] == 0


def test_search_leaves_no_trace_in_the_repetition_counts():
    game = random_game(2, 6)
    seen = dict(game._seen)
    perft(game, 3)
    assert game._seen == seen  # entries are removed on undo, the table stays small


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 100))
def test_quiescence_has_nothing_to_look_at(seed: int, plies: int) -> None:
    """No captures in Quixo: a search always stands pat (the conformance kit checks the rest)."""
    game = play_randomly(new_game("quixo"), seed, plies)
    if game.outcome() is None:
        assert game.can_stand_pat() and game.tactical_moves() == []


@pytest.mark.slow
def test_bench_perft_quick_smoke() -> None:
    """The perft benchmark runs and its reference counts the same leaves as our perft."""
    from tui.bench.perft import perft_rows

    rows = perft_rows(['quixo'], quick=True, repeat=1)
    by = {r.what: r for r in rows}
    assert by["start"].leaves == 76596 and by["start"].ref_leaves == 1836
    assert all(r.rate > 0 for r in rows)


@pytest.mark.parametrize("spec,nodes,value", [
    ("minimax:depth=3", 78_477, 20),
    ("alphabeta:depth=3,tt=off", 3_017, 20),
    ("alphabeta:depth=3", 1_057, 20),
    ("h0:depth=3,k=5,tt=off", 64, 24),
])
def test_the_search_trees_walkthrough_figures(spec, nodes, value):
    """docs/search-trees.md's Quixo table, as the engines give it today."""
    from engines.tree import record_tree

    _, tree = record_tree(spec, new_game("quixo"), budget=200_000)
    assert (tree.size(), tree.root.value) == (nodes, value)
