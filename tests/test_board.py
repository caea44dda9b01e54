"""The board painters and the BoardView widget (tui/widgets/board.py)."""

from __future__ import annotations

import asyncio
import re

import chess
import pytest
from rich.style import Style
from rich.text import Text
from textual.geometry import Region

from games import GAME_NAMES, UnknownGameError, new_game
from games.checkers import SQUARES
from games.quixo import MOVES
from tui.app.widgets.board import BoardView
from games import game_kind
from games.board import Tint
from games.checkers.board import CELLS as CHECKERS_CELLS
from games.chess.board import cell_of
from tui.app.widgets.painting import BoardPainter, painter_for

#: Each game's own colours.
CHESS = game_kind("chess").board.layout.colours
CHECKERS = game_kind("checkers").board.layout.colours
QUIXO = game_kind("quixo").board.layout.colours

#: Board regions of an 80x24 and a 120x40 terminal once the move list and panels take their share.
SMALL = (40, 18)
LARGE = (60, 34)

# ------------------------------------------------------------------ helpers


def cells_of(text: Text) -> list[list[tuple[str, Style]]]:
    """The painted text as lines of (character, style)."""
    rows = []
    for line in text.split("\n", allow_blank=True):
        plain = line.plain
        styles = [Style()] * len(plain)
        for span in line.spans:
            style = span.style if isinstance(span.style, Style) else Style.parse(span.style)
            for i in range(span.start, min(span.end, len(plain))):
                styles[i] = styles[i] + style
        rows.append(list(zip(plain, styles)))
    return rows


def box_chars(rows, box: tuple[int, int, int, int]) -> str:
    x, y, w, h = box
    return "".join(char for line in rows[y:y + h] for char, _ in line[x:x + w])


def box_backgrounds(rows, box: tuple[int, int, int, int]) -> set[str]:
    x, y, w, h = box
    return {style.bgcolor.name for line in rows[y:y + h] for _, style in line[x:x + w] if style.bgcolor}


def glyph_style(rows, box: tuple[int, int, int, int]) -> Style:
    """The style of the piece drawn in the middle of a square."""
    x, y, w, h = box
    return rows[y + h // 2][x + w // 2][1]


def chess_box(painter: BoardPainter, square: chess.Square, size=SMALL, flipped=False):
    return painter.cell_box(*cell_of(square), width=size[0], height=size[1], flipped=flipped)


def checkers_box(painter: BoardPainter, square: int, size=SMALL, flipped=False):
    return painter.cell_box(*CHECKERS_CELLS[square], width=size[0], height=size[1], flipped=flipped)


def lines_of(text: Text) -> list[str]:
    return text.plain.split("\n")


def sample_game(name: str):
    """The game after its samples' line (:attr:`games.samples.Samples.line`): pieces of both sides moved."""
    game = new_game(name)
    game.play_all(game_kind(name).samples.line)
    return game


# ------------------------------------------------------------------ sizes


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("size", [SMALL, LARGE, (80, 24), (33, 40), (200, 60), (29, 11)])
def test_the_drawing_fits_and_is_the_largest_that_does(name, size):
    painter = painter_for(name)
    width, height = size
    text = painter.paint(sample_game(name), width=width, height=height)
    lines = lines_of(text)
    if (width, height) >= painter.min_size() and height >= painter.min_size()[1]:
        assert len(lines) <= height
        assert max(Text(line).cell_len for line in lines) <= width
    else:
        assert (max(map(len, lines)), len(lines)) == painter.min_size()
    geometry = painter.geometry(width, height)
    assert (geometry.width, geometry.height) == (max(map(len, lines)), len(lines))
    assert painter.size_for(width, height) == (geometry.width, geometry.height)
    sizes = painter.cell_sizes()
    ladder = [next(sizes) for _ in range(40)]
    index = ladder.index((geometry.cell_width, geometry.cell_height))
    bigger = painter._geometry_for(*ladder[index + 1], False)
    assert bigger.width > width or bigger.height > height
    assert index == 0 or (geometry.width <= width and geometry.height <= height)


@pytest.mark.parametrize(
    "name, size, cell",
    [(name, size, cell) for name in GAME_NAMES for size, cell in game_kind(name).samples.cells],
)
def test_cell_sizes_for_the_usual_regions(name, size, cell):
    geometry = painter_for(name).geometry(*size)
    assert (geometry.cell_width, geometry.cell_height) == cell


@pytest.mark.parametrize("name", GAME_NAMES)
def test_too_small_an_area_gets_the_smallest_drawing(name):
    painter = painter_for(name)
    text = painter.paint(sample_game(name), width=10, height=4)
    lines = lines_of(text)
    assert (max(map(len, lines)), len(lines)) == painter.min_size()
    assert painter.min_size() == painter.size_for(0, 0)


def test_painter_for_names_and_unknown_games():
    for name in GAME_NAMES:
        assert painter_for(f" {name.capitalize()} ").description is game_kind(name).board
        assert painter_for(name.upper()).description is game_kind(name).board
    with pytest.raises(UnknownGameError, match=f"expected one of: {', '.join(GAME_NAMES)}"):
        painter_for("go")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_painting_leaves_the_game_alone(name):
    game = sample_game(name)
    before = (game.to_text(), list(game.move_stack))
    painter_for(name).paint(game, width=60, height=34, flipped=True, ascii=True)
    assert (game.to_text(), list(game.move_stack)) == before


# ------------------------------------------------------------------ chess


@pytest.mark.parametrize("size", [SMALL, LARGE, (28, 10)])
def test_chess_coordinates(size):
    lines = lines_of(painter_for("chess").paint(new_game("chess"), width=size[0], height=size[1]))
    assert lines[0].split() == list("abcdefgh")
    assert lines[-1].split() == list("abcdefgh")
    ranks = [line.split()[0] for line in lines[1:-1] if line.strip() and line.split()[0].isdigit()]
    assert ranks == list("87654321")
    right = [line.split()[-1] for line in lines[1:-1] if line.strip()]
    assert [r for r in right if r.isdigit()] == list("87654321")


def test_chess_flipped_has_rank_1_on_top_and_file_h_on_the_left():
    painter = painter_for("chess")
    text = painter.paint(new_game("chess"), width=40, height=18, flipped=True)
    lines = lines_of(text)
    assert lines[0].split() == list("hgfedcba")
    board_lines = [line for line in lines[1:-1] if line.strip()]
    assert board_lines[0].split()[0] == "1"
    assert board_lines[-1].split()[0] == "8"
    rows = cells_of(text)
    # a1's rook is at the top right, h8's at the bottom left
    a1 = chess_box(painter, chess.A1, flipped=True)
    h8 = chess_box(painter, chess.H8, flipped=True)
    assert a1[0] > h8[0] and a1[1] < h8[1]
    assert "♜" in box_chars(rows, a1) and glyph_style(rows, a1).color.name == "#ffffff"
    assert "♜" in box_chars(rows, h8) and glyph_style(rows, h8).color.name == "#000000"
    # where the unflipped board has a1, the flipped one has h8
    assert glyph_style(rows, chess_box(painter, chess.A1, flipped=False)).color.name == "#000000"


def test_chess_pieces_and_squares():
    painter = painter_for("chess")
    rows = cells_of(painter.paint(new_game("chess"), width=60, height=34))
    expected = {chess.E1: "♚", chess.D8: "♛", chess.B1: "♞", chess.C8: "♝", chess.E2: "♟", chess.H7: "♟"}
    for square, glyph in expected.items():
        box = chess_box(painter, square, LARGE)
        assert box_chars(rows, box).strip() == glyph
        colour = "#ffffff" if chess.square_rank(square) < 2 else "#000000"
        assert glyph_style(rows, box).color.name == colour
    assert box_backgrounds(rows, chess_box(painter, chess.A1, LARGE)) == {CHESS.dark}
    assert box_backgrounds(rows, chess_box(painter, chess.H1, LARGE)) == {CHESS.light}
    assert box_chars(rows, chess_box(painter, chess.E4, LARGE)).strip() == ""


def test_chess_last_move_squares_are_highlighted():
    painter = painter_for("chess")
    game = new_game("chess")
    game.play_all(["Nf3"])
    rows = cells_of(painter.paint(game, width=40, height=18))
    assert box_backgrounds(rows, chess_box(painter, chess.G1)) == {CHESS.tints[Tint.TO][1]}
    assert box_backgrounds(rows, chess_box(painter, chess.F3)) == {CHESS.tints[Tint.TO][0]}
    for square in (chess.E4, chess.F1, chess.G2, chess.E2, chess.F2):
        assert box_backgrounds(rows, chess_box(painter, square)) <= {CHESS.light, CHESS.dark}
    game.play_all(["e5"])
    rows = cells_of(painter.paint(game, width=40, height=18))
    assert box_backgrounds(rows, chess_box(painter, chess.E7)) == {CHESS.tints[Tint.TO][1]}
    assert box_backgrounds(rows, chess_box(painter, chess.E5)) == {CHESS.tints[Tint.TO][1]}
    assert box_backgrounds(rows, chess_box(painter, chess.F3)) == {CHESS.light}


def test_chess_king_in_check_is_red_and_marked_in_ascii():
    painter = painter_for("chess")
    game = new_game("chess")
    game.play_all(["f3", "e5", "g4", "Qh4#"])
    for ascii in (False, True):
        rows = cells_of(painter.paint(game, width=40, height=18, ascii=ascii))
        assert box_backgrounds(rows, chess_box(painter, chess.E1)) == {CHESS.tints[Tint.ALERT][0]}
        assert box_backgrounds(rows, chess_box(painter, chess.E8)) != {CHESS.tints[Tint.ALERT][0]}
        if ascii:
            assert box_chars(rows, chess_box(painter, chess.E1)).strip() == "!K!"
            assert box_chars(rows, chess_box(painter, chess.H4)).strip() == "[q]"
            assert box_chars(rows, chess_box(painter, chess.D8)).strip() == "[.]"
    game.undo()
    rows = cells_of(painter.paint(game, width=40, height=18))
    assert CHESS.tints[Tint.ALERT][0] not in box_backgrounds(rows, chess_box(painter, chess.E1))


def test_chess_ascii_uses_fen_letters_only():
    painter = painter_for("chess")
    game = sample_game("chess")
    for size in (SMALL, LARGE):
        text = painter.paint(game, width=size[0], height=size[1], ascii=True)
        assert text.plain.isascii()
        rows = cells_of(text)
        assert box_chars(rows, chess_box(painter, chess.E1, size)).strip() == "K"
        assert box_chars(rows, chess_box(painter, chess.F7, size)).strip() == "!k!"
        assert box_chars(rows, chess_box(painter, chess.F3, size)).strip() == "[Q]"
        assert box_chars(rows, chess_box(painter, chess.E4, size)).strip() == "."
    unicode = painter.paint(game, width=40, height=18).plain
    assert not unicode.isascii() and "K" not in unicode


def test_chess_position_drawn_matches_the_board():
    """Every square shows the piece python-chess has there (a random middlegame)."""
    import random

    painter = painter_for("chess")
    game = new_game("chess")
    rng = random.Random(7)
    for _ in range(30):
        game.play(rng.choice(game.legal_moves()))
    rows = cells_of(painter.paint(game, width=60, height=34, ascii=True, flipped=True))
    for square in chess.SQUARES:
        piece = game.board.piece_at(square)
        shown = box_chars(rows, chess_box(painter, square, LARGE, flipped=True)).strip("[]! ")
        assert shown == (piece.symbol() if piece else ".")


# ------------------------------------------------------------------ checkers


def numbers_in(rows, painter, size, squares=SQUARES):
    return {s for s in squares if str(s) in re.findall(r"\d+", box_chars(rows, checkers_box(painter, s, size)))}


@pytest.mark.parametrize("size", [SMALL, LARGE])
def test_checkers_numbers_on_every_dark_square(size):
    painter = painter_for("checkers")
    rows = cells_of(painter.paint(new_game("checkers"), width=size[0], height=size[1]))
    assert numbers_in(rows, painter, size) == set(SQUARES)
    # the number sits on its piece's line, left of it (on a line of its own it read as the square's
    # above and to the left), and that line is the square's: the rows' label stands beside it
    x, y, w, h = checkers_box(painter, 12, size)
    line = "".join(char for char, _ in rows[y + h // 2][x:x + w])
    assert line.startswith("12") and line.strip().endswith("●")
    assert "".join(char for char, _ in rows[y + h // 2]).split()[0] == "6"


def test_checkers_smallest_size_numbers_only_the_empty_squares():
    painter = painter_for("checkers")
    size = painter.min_size()
    rows = cells_of(painter.paint(new_game("checkers"), width=size[0], height=size[1]))
    assert numbers_in(rows, painter, size) == set(range(13, 21))
    assert box_chars(rows, checkers_box(painter, 1, size)).strip() == "●"
    assert box_chars(rows, checkers_box(painter, 17, size)).strip() == "17"


def test_checkers_square_1_is_top_left_dark_and_flipped_turns_it_round():
    painter = painter_for("checkers")
    x1, y1, _, _ = checkers_box(painter, 1)
    x32, y32, _, _ = checkers_box(painter, 32)
    assert y1 < y32 and x1 < x32
    fx1, fy1, _, _ = checkers_box(painter, 1, flipped=True)
    fx32, fy32, _, _ = checkers_box(painter, 32, flipped=True)
    assert (fx1, fy1) == (x32 + 0, y32) and fy1 > fy32
    lines = lines_of(painter.paint(new_game("checkers"), width=40, height=18, flipped=True))
    assert lines[0].split() == list("hgfedcba")
    assert "32" in lines[2] and lines[2].split()[0] == "1"  # the number on its row's line


def test_checkers_pieces_and_colours():
    painter = painter_for("checkers")
    game = new_game("checkers", "B:WK10,24:B5,K14")
    rows = cells_of(painter.paint(game, width=40, height=18))
    expected = {10: ("◉", "#ffffff"), 24: ("●", "#ffffff"), 5: ("●", "#000000"), 14: ("◉", "#000000")}
    for square, (glyph, colour) in expected.items():
        box = checkers_box(painter, square)
        assert glyph in box_chars(rows, box)
        assert glyph_style(rows, box).color.name == colour
    ascii = cells_of(painter.paint(game, width=40, height=18, ascii=True))
    for square, letter in {10: "W", 24: "w", 5: "b", 14: "B"}.items():
        assert letter in box_chars(ascii, checkers_box(painter, square))


def test_checkers_last_move_path_and_captures_are_highlighted():
    painter = painter_for("checkers")
    game = sample_game("checkers")
    path, _ = game.move_stack[-1]
    assert path == (14, 23, 30)
    for size in (SMALL, LARGE, painter.min_size()):
        rows = cells_of(painter.paint(game, width=size[0], height=size[1]))
        for square in SQUARES:
            backgrounds = box_backgrounds(rows, checkers_box(painter, square, size))
            if square in (14, 23, 30):
                assert backgrounds == {CHECKERS.tints[Tint.TO][0]}, square
            elif square in (18, 26):
                assert backgrounds == {CHECKERS.tints[Tint.TAKEN][0]}, square
            else:
                assert backgrounds == {CHECKERS.dark}, square
    assert "◉" in box_chars(cells_of(painter.paint(game, width=40, height=18)), checkers_box(painter, 30))


def test_checkers_ascii_marks_the_path_and_the_captures():
    painter = painter_for("checkers")
    game = sample_game("checkers")
    for size in (SMALL, LARGE):
        text = painter.paint(game, width=size[0], height=size[1], ascii=True)
        assert text.plain.isascii()
        rows = cells_of(text)
        assert "[B]" in box_chars(rows, checkers_box(painter, 30, size))
        assert "[ ]" in box_chars(rows, checkers_box(painter, 14, size))
        assert "x" in box_chars(rows, checkers_box(painter, 18, size)).replace("18", "")
        assert numbers_in(rows, painter, size) == set(SQUARES)
    size = painter.min_size()
    rows = cells_of(painter.paint(game, width=size[0], height=size[1], ascii=True))
    assert box_chars(rows, checkers_box(painter, 14, size)) == "14*"
    assert box_chars(rows, checkers_box(painter, 26, size)).strip() == "x"
    assert box_chars(rows, checkers_box(painter, 22, size)).strip() == "w"


# ------------------------------------------------------------------ quixo


def quixo_box(painter: BoardPainter, col: int, row: int, size=SMALL, flipped=False):
    return painter.cell_box(col, row, width=size[0], height=size[1], flipped=flipped)


@pytest.mark.parametrize("size", [SMALL, LARGE])
def test_quixo_indices_and_edge_names(size):
    painter = painter_for("quixo")
    lines = lines_of(painter.paint(new_game("quixo"), width=size[0], height=size[1]))
    assert lines[0].strip() == "top"
    assert lines[-1].strip() == "bottom"
    assert lines[1].split() == list("01234")
    assert lines[-2].split() == list("01234")
    middle = [line for line in lines if "left" in line]
    assert len(middle) == 1 and middle[0].split() == ["left", "2", "·", "·", "·", "·", "·", "2", "right"]
    rows = [line.replace("right", "").split()[-1] for line in lines[2:-2] if line.strip()]
    assert [r for r in rows if r.isdigit()] == list("01234")


def test_quixo_flipped_turns_indices_and_edges_round():
    painter = painter_for("quixo")
    game = new_game("quixo")
    game.play_text("0 0 bottom")  # X at (0, 4)
    text = painter.paint(game, width=40, height=18, flipped=True)
    lines = lines_of(text)
    assert lines[0].strip() == "bottom" and lines[-1].strip() == "top"
    assert lines[1].split() == list("43210")
    middle = [line for line in lines if "right" in line][0]
    assert middle.split()[0] == "right" and middle.split()[-1] == "left"
    rows = cells_of(text)
    box = quixo_box(painter, 0, 4, flipped=True)
    assert box[0] > quixo_box(painter, 4, 4, flipped=True)[0] and box[1] < quixo_box(painter, 0, 0, flipped=True)[1]
    assert box_chars(rows, box).strip() == "X"


def test_quixo_cubes_and_last_move_highlights():
    painter = painter_for("quixo")
    game = sample_game("quixo")  # the last move: O takes 3 4 and pushes it in at the top
    move = MOVES[game.move_stack[-1]]
    assert (move.col, move.row, move.edge) == (3, 4, "top")
    for ascii in (False, True):
        rows = cells_of(painter.paint(game, width=60, height=34, ascii=ascii))
        for row in range(5):
            for col in range(5):
                box = quixo_box(painter, col, row, LARGE)
                owner = game.piece_at(col, row)
                shown = box_chars(rows, box).strip("[] ")
                assert shown == ("X" if owner == 0 else "O" if owner == 1 else "." if ascii else "·")
                if owner is not None:
                    assert glyph_style(rows, box).color == Style(color=QUIXO.pieces[1 if owner else 0]).color
                backgrounds = box_backgrounds(rows, box)
                if (col, row) == (3, 0):
                    assert backgrounds == {QUIXO.tints[Tint.TO][0]}
                    assert not ascii or box_chars(rows, box).strip() == "[O]"
                elif (col, row) == (3, 4):
                    assert backgrounds == {QUIXO.tints[Tint.FROM][0]}
                    assert not ascii or box_chars(rows, box).strip() == "[.]"
                elif col == 3:
                    assert backgrounds <= set(QUIXO.tints[Tint.ALONG])
                else:
                    assert backgrounds <= {QUIXO.light, QUIXO.dark}
        if ascii:
            assert "".join(char for line in rows for char, _ in line).isascii()


def test_no_move_no_highlight():
    for name in GAME_NAMES:
        painter = painter_for(name)
        rows = cells_of(painter.paint(new_game(name), width=60, height=34))
        backgrounds = {style.bgcolor.name for line in rows for _, style in line if style.bgcolor}
        assert backgrounds == {painter.layout.colours.light, painter.layout.colours.dark}, name


# ------------------------------------------------------------------ the widget


def screen_lines(view: BoardView) -> list[str]:
    """The lines the widget puts on the screen."""
    strips = view.render_lines(Region(0, 0, view.size.width, view.size.height))
    return ["".join(segment.text for segment in strip) for strip in strips]


def drawn_lines(view: BoardView) -> list[str]:
    """The view's drawing without the margins that centre it."""
    left, top = view.drawing_origin()
    return [line[left:] for line in view.render().plain.split("\n")[top:]]


def test_board_view_shows_a_copy_flips_and_follows_resizes():
    from textual.app import App, ComposeResult

    class BoardApp(App):
        def compose(self) -> ComposeResult:
            yield BoardView("chess", id="board")

    async def scenario() -> None:
        app = BoardApp()
        async with app.run_test(size=(80, 24)) as pilot:
            view = app.query_one(BoardView)
            assert view.render().plain == ""
            game = new_game("chess")
            game.play_all(["e4", "e5"])
            view.show(game)
            await pilot.pause()
            first = view.render()
            assert first is view.render()  # drawn once per change
            assert drawn_lines(view)[0].split() == list("abcdefgh")
            assert (view.size.width, view.size.height) == (80, 24)
            assert painter_for("chess").paint(game, width=80, height=24).plain.split("\n") == drawn_lines(view)
            # the view keeps its own copy
            game.play_all(["Nf3"])
            assert view.game is not game and view.game.to_text() != game.to_text()
            assert view.render().plain == first.plain
            view.flipped = True
            await pilot.pause()
            flipped = view.render().plain
            assert flipped != first.plain and drawn_lines(view)[0].split() == list("hgfedcba")
            view.ascii = True
            await pilot.pause()
            assert view.render().plain.isascii()
            view.show(game)
            await pilot.pause()
            assert "[N]" in view.render().plain
            # the screen shows the board, centred
            shown = screen_lines(view)
            board_lines = view.render().plain.split("\n")
            top = (24 - len(board_lines)) // 2
            left = (80 - len(board_lines[0])) // 2
            assert shown[top][left:left + len(board_lines[0])] == board_lines[0]
            assert shown[top - 1].strip() == "" and shown[top + len(board_lines)].strip() == ""
            backgrounds = {
                segment.style.bgcolor.name
                for strip in view.render_lines(Region(0, 0, 80, 24))
                for segment in strip
                if segment.style is not None and segment.style.bgcolor is not None
            }
            assert {CHESS.light, CHESS.dark, CHESS.tints[Tint.TO][0]} <= backgrounds
            await pilot.resize_terminal(120, 40)
            await pilot.pause()
            assert (view.size.width, view.size.height) == (120, 40)
            bigger = view.render()
            assert len(bigger.plain.split("\n")) > len(first.plain.split("\n"))
            # another game switches the painter
            view.show(new_game("quixo"))
            await pilot.pause()
            assert drawn_lines(view)[0].strip() == "bottom"

    asyncio.run(scenario())
