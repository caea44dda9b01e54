"""What players look at beside the board: material, the eval bar, one score unit."""

from __future__ import annotations

import pytest

from games import GAME_NAMES, game_kind, new_game
from tui.app.widgets.eval_bar import bar_cells
from tui.app.widgets.material import material_text

from app_pilot import make_app, ready, type_move, wait_for


@pytest.mark.parametrize("game,score,mate,text", [
    (name, score, mate, text) for name in GAME_NAMES for score, mate, text in game_kind(name).samples.signed_scores])
def test_one_unit_per_game(game, score, mate, text):
    """Each game writes its evals in its own unit (its samples' ``signed_scores``)."""
    assert game_kind(game).scores.signed(score, mate) == text


def test_winning_chance_is_the_reports_curve():
    scores = game_kind("chess").scores
    assert scores.chance(0) == 0.5 and scores.chance(0, 3) == 1.0 and scores.chance(0, -1) == 0.0
    assert abs(scores.chance(272) - 0.7311) < 1e-3 and scores.chance(-272) < 0.27


def _material(game, moves, start=None, ascii=False):
    kind = game_kind(game)
    position = new_game(game, start)
    position.play_all(moves)
    sides = ("White", "Black") if game == "chess" else ("A", "B")
    return material_text(kind.board, kind.board.material(position), sides, ascii=ascii).plain


def test_material_per_game():
    assert _material("chess", ()) == "White · Black"
    assert _material("chess", ("e4", "d5", "exd5")) == "White ♟ +1 · Black"
    assert _material("chess", ("e4", "d5", "exd5", "Qxd5")) == "White · Black"  # even again
    assert _material("chess", ("e4", "d5", "exd5", "Nf6", "d4", "c6"), ascii=True) == "White p +1 · Black"
    # a promotion: a queen more, a pawn less, as lichess counts; a start position's own imbalance shows
    assert _material("chess", ("a8=Q",), start="4k3/P7/8/8/8/8/8/4K3 w - - 0 1") == "White ♛ +9 · Black"
    assert _material("chess", (), start="4k3/P7/8/8/8/8/8/4K3 w - - 0 1") == "White ♟ +1 · Black"
    assert _material("checkers", ("11-15", "24-19", "15x24", "28x19")) == "A · B"
    assert _material("checkers", ("11-15", "24-19", "15x24")) == "A ● +1 · B"
    assert _material("quixo", ("0 0 bottom",)) == "A 1 +1 · B 0"
    assert _material("othello", ("f5",)) == "A 4 +3 · B 1"


def test_the_bar_fills_the_first_players_share_in_eighths():
    cells = bar_cells(0.5, 4)
    assert [char for char, _ in cells] == ["█", "█", " ", " "]
    assert [char for char, _ in bar_cells(0.6, 4)][2] == "▃"  # 19.2 eighths: 3 into the third cell
    assert all(char == "█" for char, _ in bar_cells(1.0, 3)) and all(c == " " for c, _ in bar_cells(0.0, 3))
    assert [char for char, _ in bar_cells(0.7, 4, ascii=True)] == ["#", "#", "#", "."]  # letters: no colour needed
    assert [char for char, _ in bar_cells(0.5, 3, ascii=True)] == ["#", ":", "."]  # a level game reads level


def test_with_letters_the_bar_reads_without_colour_and_turns_with_the_board():
    from games import game_kind
    from tui.app.widgets.eval_bar import EvalBar

    kind = game_kind("chess")
    bar = EvalBar(kind.scores, kind.board.layout.colours.pieces, ascii=True)
    bar.show(10_000, None)  # White winning: all "#"
    assert set(bar.render().plain.replace("\n", "")) == {"#"}
    bar.turned = True
    assert set(bar.render().plain.replace("\n", "")) == {"#"}
    bar.clear()  # no eval: half each, the same either way round
    turned = bar.render().plain
    bar.turned = False
    assert bar.render().plain.count("#") == turned.count("#")


async def test_an_engines_eval_reaches_the_bar_and_the_material_line_and_undo_clears_the_trend() -> None:
    app = make_app("chess", "human", "alphabeta:depth=2")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        bar = screen.query_one("#eval-bar")
        assert bar.score is None and bar.text == "-"
        await type_move(pilot, "e4")
        await wait_for(pilot, lambda: len(screen.moves) == 2, "the engine's reply")
        panel = screen.panel(1)
        assert bar.score is not None
        assert bar.score == panel.first_view(panel.stats.score, panel.stats.mate)  # White's view
        assert f"eval {bar.text}" in str(screen.query_one("#material").render())
        assert len(panel.points) == 1 and panel.points[0][0] == 1  # Black's move, ply 1
        await pilot.press("ctrl+t")  # flip: the bar turns with the board
        assert bar.turned == screen.board.flipped
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: not screen.moves, "the take-back")
        assert panel.points == []  # the move taken back left the trend
        assert panel.stats is None and panel.eval_text == "-"  # and its figures, of a later position


def test_the_footer_fits_80_columns_and_the_palette_offers_only_ours():
    from tui.app.screens.commands import COMMANDS

    shown = [command for command in COMMANDS if command.footer and command.ctrl]
    # each key as the footer draws it ("^g Help "), then Quit and the palette's "^p palette"
    width = sum(len(command.ctrl.replace("ctrl+", "^")) + len(command.label) + 2 for command in shown)
    assert width + len("^q Quit ") + len("▏^p palette") <= 80, width
    assert {"help", "undo", "save", "hint", "new_game", "pause"} <= {command.action for command in shown}


async def test_palette_commands_are_ours() -> None:
    app = make_app("chess", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        titles = [command.title for command in app.get_system_commands(screen)]
        assert "Search tree" in titles and "Quit" in titles
        assert not {"Maximize", "Screenshot", "Theme", "Keys"} & set(titles)


async def test_a_refused_move_is_selected_so_the_next_replaces_it() -> None:
    app = make_app("chess", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await type_move(pilot, "exd5")
        assert "illegal" in screen.message_text and screen.move_input.value == "exd5"
        await pilot.press(*"e4", "enter")
        await pilot.pause()
        assert screen.moves == ["e4"]


async def test_the_status_line_names_the_opening() -> None:
    app = make_app("chess", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        for move in ("e4", "e5", "Nf3", "Nc6", "Bb5"):
            await type_move(pilot, move)
        assert str(screen.query_one("#status").render()).endswith("· C60 Ruy Lopez")


async def test_a_premove_typed_while_the_engine_is_to_move_is_played_after_its_reply() -> None:
    app = make_app("chess", "human", "alphabeta:depth=1")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await pilot.press("ctrl+b")
        await type_move(pilot, "e4")
        await wait_for(pilot, lambda: screen.moves == ["e4"], "the first move")
        await type_move(pilot, "Nf3")  # the engine's turn: queued, not refused
        assert screen.controller.premove.text == "Nf3" and "premove Nf3" in screen.message_text
        await pilot.press("ctrl+b")  # resume: the engine replies, the premove follows at once
        await wait_for(pilot, lambda: len(screen.moves) >= 3, "the premove played")
        assert screen.moves[2] == "Nf3" and screen.controller.premove is None


async def test_a_premove_is_cancelled_by_escape_or_a_right_click_and_dropped_when_illegal() -> None:
    app = make_app("chess", "human", "alphabeta:depth=1")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await pilot.press("ctrl+b")
        await type_move(pilot, "e4")
        await type_move(pilot, "Nf3")
        await pilot.press("escape")
        assert screen.controller.premove is None and "cancelled" in screen.message_text
        board = screen.board
        from_square, to_square = (6, 7), (5, 5)  # g1, then f3: Nf3 by clicks
        await pilot.click(board, offset=board.square_offset(from_square))
        await pilot.click(board, offset=board.square_offset(to_square))
        assert screen.controller.premove.text == "g1 to f3" and board.selected == from_square
        await pilot.click(board, offset=board.square_offset(to_square), button=3)
        assert screen.controller.premove is None and board.selected is None
        await type_move(pilot, "Ke7")  # not legal whatever the reply
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: len(screen.moves) == 2, "the engine's reply")
        await wait_for(pilot, lambda: "premove Ke7 dropped" in screen.message_text, "the refusal")
        assert len(screen.moves) == 2 and screen.controller.human_to_move


async def test_the_best_line_and_the_threat_are_marked_on_the_board() -> None:
    app = make_app("chess", "human", "human", "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await type_move(pilot, "Nf3")  # Black to move, and White threatens Qxf7#
        await pilot.press("ctrl+backslash")
        await wait_for(pilot, lambda: screen.message_text.startswith("threat: "), "the threat")
        assert "Qxf7#" in screen.message_text and screen.board.selected is not None
        assert len(screen.board.targets) >= 1
        await type_move(pilot, "line")
        await wait_for(pilot, lambda: screen.message_text.startswith("best line: "), "the best line")
        await pilot.click(screen.board, offset=screen.board.square_offset((0, 0)), button=3)
        assert screen.board.selected is None  # a right click puts it away


def test_a_path_completes_as_a_shell_completes_it(tmp_path):
    from tui.app.widgets.path_input import complete_path

    (tmp_path / "games").mkdir()
    (tmp_path / "game-1.pgn").write_text("")
    (tmp_path / "game-2.pgn").write_text("")
    (tmp_path / ".hidden.pgn").write_text("")
    assert complete_path(f"{tmp_path}/gam") == (f"{tmp_path}/game", ["game-1.pgn", "game-2.pgn", "games/"])
    assert complete_path(f"{tmp_path}/game-1") == (f"{tmp_path}/game-1.pgn", ["game-1.pgn"])
    assert complete_path(f"{tmp_path}/gamesx") == (f"{tmp_path}/gamesx", [])
    assert complete_path(f"{tmp_path}/games") == (f"{tmp_path}/games/", ["games/"])  # a directory gets its /
    assert complete_path(f"{tmp_path}/.h")[0] == f"{tmp_path}/.hidden.pgn"
    assert complete_path("/nonexistent/x") == ("/nonexistent/x", [])


async def test_tab_in_the_save_dialog_completes_the_path(tmp_path) -> None:
    from textual.widgets import Input

    from tui.app.screens.files import SaveDialog

    (tmp_path / "records").mkdir()
    app = make_app("chess", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await type_move(pilot, "e4")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, SaveDialog), "the save dialog")
        box = app.screen.query_one("#save-path", Input)
        box.value = f"{tmp_path}/rec"
        box.cursor_position = len(box.value)
        await pilot.press("tab")
        assert box.value == f"{tmp_path}/records/" and app.screen.focused is box


async def test_a_clicked_promotion_premove_asks_for_the_piece() -> None:
    from tui.app.screens.dialogs import ChoiceDialog

    app = make_app("chess", "human", "alphabeta:depth=1", "8/P7/8/8/8/8/k7/4K3 w - - 0 1")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await pilot.press("ctrl+b")
        await type_move(pilot, "Kd2")
        board = screen.board
        await pilot.click(board, offset=board.square_offset((0, 1)))  # a7, then a8
        await pilot.click(board, offset=board.square_offset((0, 0)))
        assert screen.controller.premove.squares == ((0, 1), (0, 0)) and "a7 to a8" in screen.message_text
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceDialog), "the piece asked for")
        assert len(screen.moves) == 2


async def test_the_eval_beside_the_board_is_only_of_the_position_shown() -> None:
    app = make_app("chess", "human", "alphabeta:depth=2")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await type_move(pilot, "e4")
        await wait_for(pilot, lambda: len(screen.moves) == 2, "the engine's reply")
        bar = screen.query_one("#eval-bar")
        assert bar.score is not None
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: not screen.moves, "the take-back")
        assert bar.score is None and "eval" not in str(screen.query_one("#material").render())


async def test_the_checkers_bar_starts_from_the_first_players_edge() -> None:
    # Black moves first; with Black at the bottom the bar fills from the bottom, turned it hangs from the top
    app = make_app("checkers", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        bar = screen.query_one("#eval-bar")
        assert screen.board.flipped == screen.board.painter.flipped_for(0) and bar.turned is False
        await pilot.press("ctrl+t")
        assert bar.turned is True


async def test_review_steps_on_after_a_jump_from_the_report() -> None:
    from engines.review import GameReport, PositionScore
    from tui.app.screens.report import ReportDialog

    app = make_app("quixo", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        for move in ("0 0 bottom", "4 4 top", "2 0 bottom", "0 4 right"):
            await type_move(pilot, move)
        scores = [PositionScore(0, 0.5)] * (len(screen.moves) + 1)
        screen.coach.report = GameReport.build("quixo", 0, screen.moves, scores, depth=1)
        screen.coach.report_moves = tuple(screen.moves)
        screen.coach.open_report()
        await wait_for(pilot, lambda: isinstance(app.screen, ReportDialog) and len(app.screen.query("OptionList")),
                       "the report")
        await pilot.pause()
        app.screen.query_one("OptionList").highlighted = 1
        await pilot.press("enter")  # the second move chosen in the report: the position after it
        await wait_for(pilot, lambda: screen.review == 2, "the jump")
        await wait_for(pilot, lambda: screen.focused is screen.move_list, "the move list's focus")
        await pilot.press("left")
        assert screen.review == 1  # the review steps on from there
        await pilot.press("right")
        assert screen.review == 2


async def test_letters_reach_the_material_line_and_an_engines_ticks_do_not_redraw_it() -> None:
    from tui.app.app import TuiGamesApp
    from tui.app.session import GameSetup

    app = TuiGamesApp(GameSetup.checked("chess", "human", "human"), ascii=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        for move in ("e4", "d5", "exd5", "Nf6", "d4", "c6"):
            await type_move(pilot, move)
        line = screen.query_one("#material")
        assert str(line.render()).startswith("White p +1")
        shown = line._shown
        screen.engines.show_eval(35, None)
        screen.engines.show_eval(35, None)  # the same figures again: nothing to draw
        assert line._shown != shown and str(line.render()).endswith("eval +0.3 pawns")
