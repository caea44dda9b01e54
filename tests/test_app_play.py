"""The player's app: click and keyboard moves, review, open and save, orientation,
keys and palette, dialogs that never lose a game (Pilot)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from rich.style import Style
from textual import events
from textual.command import CommandPalette
from textual.widgets import Input, Label, Select

from games import GAME_NAMES, game_kind, new_game
from games.reading import read_records
from tui.app.app import TuiGamesApp
from tui.app.screens.commands import COMMANDS, TYPED_COMMANDS
from tui.app.screens.dialogs import ChoiceDialog, ConfirmDialog, ResultDialog
from tui.app.screens.files import OpenDialog, SaveDialog
from tui.app.screens.help import HelpDialog, MovesDialog
from tui.app.screens.start import StartScreen
from tui.app.session import GameSetup
from tui.app.widgets.board import BoardView
from tui.app.widgets.engine_panel import EnginePanel, trend_scale, trend_text
from tui.app.widgets.move_list import MoveList

from app_pilot import dialog_takes_keys, game_screen, make_app, ready, type_move, wait_for

async def click_square(pilot, board: BoardView, square: tuple[int, int]) -> None:
    offset = board.square_offset(square)
    await pilot.click(BoardView, offset=offset)
    await pilot.pause()


@pytest.mark.parametrize("game", GAME_NAMES)
async def test_a_move_by_two_clicks_and_an_illegal_click_explained(game: str) -> None:
    app = make_app(game, "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        board = screen.board
        picker_moves = screen.game.legal_moves()
        start, end = board.painter.move_squares(screen.game, picker_moves[0])
        if start == end:
            pytest.skip(f"{game}'s moves take one click (a cell to fill): nothing is picked up")
        # an empty or foreign square first: explained, nothing selected
        sources = {board.painter.move_squares(screen.game, m)[0] for m in picker_moves}
        empty = next((c, r) for r in range(board.painter.rows) for c in range(board.painter.columns)
                     if (c, r) not in sources)
        await click_square(pilot, board, empty)
        assert screen.message_text.startswith("no legal move starts on") and board.selected is None
        await click_square(pilot, board, start)
        assert board.selected == start and end in board.targets
        assert "target" in screen.message_text
        # a square the piece cannot reach: explained like a typed move, the piece stays picked up
        wrong = next((c, r) for r in range(board.painter.rows) for c in range(board.painter.columns)
                     if (c, r) not in board.targets and (c, r) not in sources)
        await click_square(pilot, board, wrong)
        assert screen.message_text.startswith("illegal") and board.selected == start
        await click_square(pilot, board, end)
        assert screen.moves == [new_game(game).format_move(picker_moves[0])]
        assert board.selected is None and not board.targets


async def test_promotion_by_clicks_asks_for_the_piece() -> None:
    app = make_app("chess", "human", "human", "k7/4P3/8/8/8/8/8/7K w - - 0 1")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await click_square(pilot, screen.board, (4, 1))
        await click_square(pilot, screen.board, (4, 0))
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceDialog), "the promotion choice")
        assert set(app.screen.labels) == {"e8=Q+", "e8=R+", "e8=B", "e8=N"}
        index = app.screen.labels.index("e8=N")
        await pilot.click(f"#choice-{index}")
        await wait_for(pilot, lambda: screen.moves == ["e8=N"], "the knight promotion")


@pytest.mark.parametrize("piece", ["Q", "R", "B", "N"])
async def test_each_promotion_by_clicks_keeps_the_game_screen(piece: str) -> None:
    # The choice dialog was dismissed twice (its own handler and its base class's both ran),
    # and the second dismissal popped the game screen: a blank screen, then a quit without asking.
    app = make_app("chess", "human", "human", "4k3/1P6/8/4Pp2/8/8/8/R3K2R w KQ f6 0 1")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        stack = list(app.screen_stack)
        await click_square(pilot, screen.board, (1, 1))
        await click_square(pilot, screen.board, (1, 0))
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceDialog), "the promotion choice")
        index = next(i for i, label in enumerate(app.screen.labels) if f"={piece}" in label)
        await pilot.click(f"#choice-{index}")
        await wait_for(pilot, lambda: len(screen.moves) == 1, "the promotion")
        await pilot.pause()
        assert screen.moves[0].startswith(f"b8={piece}")
        assert list(app.screen_stack) == stack and app.screen is screen


async def test_every_two_path_checkers_capture_by_clicks_keeps_the_game_screen() -> None:
    position = "B:W6,14,15,22,23:BK17"
    labels = None
    index = 0
    while labels is None or index < len(labels):
        app = make_app("checkers", "human", "human", position)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await ready(pilot)
            stack = list(app.screen_stack)
            painter = screen.board.painter
            paths = [m for m in screen.game.legal_moves() if screen.game.format_move(m).startswith("17x")
                     and screen.game.format_move(m).endswith("x1")]
            assert len(paths) >= 2
            start, end = painter.move_squares(screen.game, paths[0])
            await click_square(pilot, screen.board, start)
            await click_square(pilot, screen.board, end)
            await wait_for(pilot, lambda: isinstance(app.screen, ChoiceDialog), "the path choice")
            labels = list(app.screen.labels)
            await pilot.click(f"#choice-{index}")
            await wait_for(pilot, lambda: len(screen.moves) == 1, "the capture")
            await pilot.pause()
            assert screen.moves == [labels[index]]
            assert list(app.screen_stack) == stack and app.screen is screen
        index += 1


async def test_choosing_the_piece_again_where_a_ring_of_captures_ends_asks_first() -> None:
    """The king on 17 can take round back to 17: choosing it again asks (play the
    ring, or put the piece back, as the line under the board promised) instead of
    playing the ring."""
    app = make_app("checkers", "human", "human", "B:W6,14,15,22,23:BK17")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        stack = list(app.screen_stack)
        ring = [m for m in screen.game.legal_moves() if screen.game.format_move(m).endswith("x17")]
        assert ring
        start, _ = screen.board.painter.move_squares(screen.game, ring[0])
        await click_square(pilot, screen.board, start)
        await click_square(pilot, screen.board, start)
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceDialog), "the question")
        assert app.screen.labels[-1] == "put it back" and screen.moves == []
        await pilot.click(f"#choice-{len(app.screen.labels) - 1}")
        await wait_for(pilot, lambda: app.screen is screen, "the game screen")
        assert screen.moves == [] and screen.board.selected is None
        assert list(app.screen_stack) == stack


async def test_a_click_on_a_cell_no_disc_may_take_says_why() -> None:
    app = make_app("othello", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await click_square(pilot, screen.board, (0, 0))  # a1: turns over nothing
        assert "a1 turns over no disc" in screen.message_text and screen.moves == []
        await click_square(pilot, screen.board, (3, 3))  # d4: taken
        assert "d4 is occupied" in screen.message_text
        await click_square(pilot, screen.board, (3, 2))  # d3: a move
        await wait_for(pilot, lambda: screen.moves == ["d3"], "the disc placed")


async def test_a_forced_pass_is_said_and_made_by_a_click_anywhere() -> None:
    # The status said "type or click a move" with no move on the board to click.
    app = make_app("othello", "human", "human", "......B./.....W../......../B..BB.../...BB.../......../...W..../........ W")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        status = str(screen.query_one("#status").render())
        assert "you must play pass: type it or click the board" in status, status
        await click_square(pilot, screen.board, (5, 5))
        await wait_for(pilot, lambda: screen.moves == ["pass"], "the pass")
        assert "you must" not in str(screen.query_one("#status").render())


async def test_keyboard_selection_on_the_board() -> None:
    app = make_app("quixo", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        screen.board.focus()
        await pilot.pause()
        screen.board.cursor = (0, 0)
        await pilot.press("enter")
        assert screen.board.selected == (0, 0)
        await pilot.press(*["down"] * 4, "enter")
        assert screen.moves == ["0 0 bottom"]
        assert screen.board.has_focus  # the keyboard player keeps the board


async def test_review_and_play_from_here() -> None:
    app = make_app("chess", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        for move in ("e4", "e5", "Nf3", "Nc6"):
            await type_move(pilot, move)
        live = screen.game.key()
        await pilot.press("up")  # from the move box: the move before the last
        await wait_for(pilot, lambda: screen.review == 3, "the review")
        assert screen.move_list.has_focus
        assert screen.board.game.key() != live and len(screen.board.game.move_stack) == 3
        assert "reviewing after 2. Nf3" in str(screen.query_one("#status").render())
        await pilot.press("home")
        assert screen.review == 0 and not screen.board.game.move_stack
        await pilot.press("right", "right")
        assert screen.review == 2
        await type_move(pilot, "d4")  # a move made in review starts a variation: nothing is cut
        assert screen.moves == ["e4", "e5", "d4"] and screen.review is None
        assert screen.message_text == "a new variation: 2. d4"
        assert [node.move for node in screen.played.tree.mainline()[1].variations] == ["Nf3", "d4"]
        screen.move_list.focus()
        await pilot.press("up")  # the other alternative to 2. d4: the main line again, shown at 2. Nf3
        await wait_for(pilot, lambda: screen.moves == ["e4", "e5", "Nf3", "Nc6"], "the main line followed")
        assert screen.review == 3
        await pilot.press("end")
        assert screen.review is None and screen.board.game.key() == live
        # play from a reviewed position: the later moves stay in the tree
        await pilot.press("up")
        await pilot.press("left", "left")
        assert screen.review == 1
        await pilot.press("enter")  # both sides human: here, or a new game against a level
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question")
        assert app.screen.query_one("#here").has_focus
        await pilot.click("#here")
        await wait_for(pilot, lambda: screen.moves == ["e4"], "the game back at 1. e4")
        assert screen.review is None and screen.game.turn == 1 and "stay in the list" in screen.message_text
        await type_move(pilot, "e5")  # the line's own move is followed, not added again
        assert screen.moves == ["e4", "e5"] and len(screen.played.tree.mainline()) == 4


async def test_the_move_list_is_clickable() -> None:
    app = make_app("checkers", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        for move in ("11-15", "23-19", "8-11"):
            await type_move(pilot, move)
        table = screen.query_one(MoveList)
        await pilot.click(MoveList, offset=(8, 2))  # row 1, the first side's column: after 11-15
        await wait_for(pilot, lambda: screen.review == 1, "the clicked move")
        assert table.has_focus


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("played_to", ["line", "ended"])
async def test_save_then_open_gives_back_the_same_game(game: str, played_to: str, tmp_path: Path) -> None:
    """A game in progress (its samples' ``line``) and a game played to its end from its samples'
    start (``ended``) come back from the game's own record file as they were."""
    samples = game_kind(game).samples
    position, moves = (None, samples.line) if played_to == "line" else (samples.ended or (None, ()))
    if not moves:
        pytest.skip(f"{game}'s samples give no {played_to}")
    app = make_app(game, "human", "human", position)
    path = tmp_path / f"saved.{game_kind(game).records.extension}"
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        for move in moves:
            await type_move(pilot, move)
        if isinstance(app.screen, ResultDialog):
            app.screen.dismiss("review")
            await pilot.pause()
        key, played = screen.game.key(), list(screen.moves)
        assert screen.played.unsaved
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, SaveDialog), "the save dialog")
        app.screen.query_one(Input).value = str(path)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is screen, "the save")
        assert not screen.played.unsaved and path.exists()
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, OpenDialog), "the open dialog")
        app.screen.query_one("#open-path", Input).value = str(path)
        await pilot.press("enter")
        if played_to == "line":  # an unfinished game: continue, review or analyse it
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question")
            await pilot.click("#review")
        await wait_for(pilot, lambda: game_screen(app) is not screen, "the opened game")
        opened = game_screen(app)
        assert opened.game.key() == key and opened.moves == played and not opened.played.unsaved
    [loaded] = read_records(game, path.read_text())
    assert list(loaded.moves) == played


async def test_open_explains_a_bad_file_and_stays(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pgn"
    bad.write_text("1. e4 e5 2. Ke3 *\n")
    app = make_app("chess", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, OpenDialog), "the open dialog")
        for path, words in ((tmp_path / "none.pgn", "no such file"), (bad, "illegal"), (tmp_path, "directory")):
            app.screen.query_one("#open-path", Input).value = str(path)
            await pilot.press("enter")
            # the file is read in a worker: the answer comes when it is done (the app's
            # reader of engine events is a worker too, one that runs as long as the app)
            await wait_for(pilot, lambda: words in str(app.screen.query_one("#open-error").render()),
                           "the answer")
            text = str(app.screen.query_one("#open-error").render())
            assert words in text and "\n" not in text, text
        await pilot.press("escape")
        assert app.screen is screen


async def test_enter_after_the_last_move_does_not_throw_the_game_away() -> None:
    app = make_app("chess", "human", "alphabeta:depth=2", "kr5B/8/8/8/8/8/5PPP/6K1 w - - 0 1")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await type_move(pilot, "Bg7")
        await wait_for(pilot, lambda: isinstance(app.screen, ResultDialog), "the engine's mate")
        dialog = app.screen
        dialog.opened_at = time.monotonic()  # the Enter comes as the dialog opens (as on a busy machine it may not)
        await pilot.press("enter")  # typed with the move: ignored
        assert app.screen is dialog
        await wait_for(pilot, lambda: dialog.query_one("#review").has_focus, "the harmless button focused")
        dialog.opened_at -= 1  # later on
        await pilot.press("right")
        assert dialog.query_one("#save").has_focus
        await pilot.press("left", "enter")
        await wait_for(pilot, lambda: app.screen is screen, "the board")
        assert screen.moves == ["Bg7", "Rb1#"] and game_screen(app) is screen
        # a new game over the unsaved one asks first; Cancel keeps it
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question")
        app.screen.opened_at -= 1
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is screen, "the kept game")
        assert screen.moves == ["Bg7", "Rb1#"]
        # quitting asks too
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the quit question")
        assert app.screen.topic == "quitting"


async def test_engines_wait_while_a_dialog_is_open() -> None:
    app = make_app("quixo", "pvs:time=60", "pvs:time=60")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await wait_for(pilot, lambda: screen.engines.request is not None, "the first search")
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpDialog), "the help")
        assert screen.engines.request is None and screen.moves == []
        assert "eval (X)" in str(app.screen.query_one("Static").render())
        await pilot.press("escape")
        await wait_for(pilot, lambda: screen.engines.request is not None, "the search again")


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("players", [("human", "random"), ("random", "human"), ("random", "random")])
async def test_the_board_turns_to_the_human(game: str, players: tuple[str, str]) -> None:
    """The human's side is drawn at the bottom (the first side's with no human or two), turned
    as the game's board description says (Quixo and Othello never turn; checkers' first side is drawn
    at the top)."""
    human = players.index("human") if players.count("human") == 1 else 0
    flipped = game_kind(game).board.turned_for(human)
    app = make_app(game, *players)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        assert screen.board.flipped is flipped
        await pilot.press("ctrl+t")
        assert screen.board.flipped is not flipped


async def test_every_command_is_in_the_palette_and_has_a_key() -> None:
    app = make_app("chess", "human", "random")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        titles = {command.title for command in app.get_system_commands(screen)}
        assert {command.title for command in COMMANDS} <= titles
        assert all(command.ctrl or command.action == "play_from_here" for command in COMMANDS)
        # step gave ctrl+y to redo: it is F6, the palette and the word "step" typed in the move box
        assert all(not command.ctrl.startswith("f") for command in COMMANDS if command.action != "step")
        assert TYPED_COMMANDS["step"] == "step"
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
        await pilot.press(*"legal moves", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, MovesDialog), "the moves from the palette")


async def test_quixo_moves_dialog_lists_all_44_unsplit() -> None:
    app = make_app("quixo", "human", "human")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await ready(pilot)
        await pilot.press("ctrl+l")
        await wait_for(pilot, lambda: isinstance(app.screen, MovesDialog), "the list")
        lines = str(app.screen.query_one("#moves-text").render()).splitlines()
        found = [move for move in screen.game.legal_move_texts() if any(move in line for line in lines)]
        assert len(found) == 44 == len(app.screen.moves)
        assert app.screen.title_text == "44 legal moves for X"


async def test_moves_are_numbered_from_the_position() -> None:
    fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7"
    app = make_app("chess", "human", "human", fen)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        assert str(screen.query_one("#status").render()).startswith("move 7 ·")
        await type_move(pilot, "e5")
        table = screen.query_one(MoveList)
        assert [str(cell) for cell in table.get_row_at(0)] == ["7.", "...", "e5"]
        assert str(screen.query_one("#status").render()).startswith("move 8 ·")


def test_panel_lines_fit_and_say_whose_score() -> None:
    from engines import SearchStats

    panel = EnginePanel(1, "Black", "pvs", scores=game_kind("chess").scores, first_name="White", advanced=True)
    panel.stats = SearchStats(nodes=123456, evals=1000, prunes=500, depth=9, best="15x24x31x22",
                              score=-125, pv=["15x24x31x22", "9x18"])
    rows, _pv = panel._figures()
    assert ("best" in [row[0] for row in rows]) and ("eval (White)", "+1.2 pawns") in rows  # Black's -125
    # the rows of two pairs are short; the long ones (best, score) have a line each
    assert all(len(row) == 2 or len(f"{row[0]} {row[1]} {row[2]} {row[3]}") < 36 for row in rows)
    assert trend_scale([7, -2]) == 10 and trend_scale([]) == 1 and trend_scale([130]) == 200
    bars = trend_text([7, -2, 0], 40, game_kind("chess").scores).plain
    assert bars.startswith("trend ±10 pawns ") and bars[-1] == "▄"  # 0 is the middle bar


async def test_start_screen_forgets_an_old_error_and_an_old_position() -> None:
    app = TuiGamesApp(None)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        start = app.screen
        start.query_one("#position", Input).value = "not a fen"
        await pilot.click("#start-button")
        assert str(start.query_one("#start-error").render())
        start.query_one("#position", Input).value = "not a fen either"
        await pilot.pause()
        assert not str(start.query_one("#start-error").render())
        start.query_one("#game", Select).value = "quixo"
        await pilot.pause()
        assert start.query_one("#position", Input).value == ""


async def test_play_load_opens_the_game_paused_for_review(tmp_path: Path) -> None:
    setup = GameSetup.checked("checkers", "human", "pvs:time=1")
    game = new_game("checkers")
    game.play_all(["11-15", "23-19"])
    from dataclasses import replace

    app = TuiGamesApp(replace(setup, moves=("11-15", "23-19"), source="x.pdn"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        assert screen.game.key() == game.key() and not screen.played.unsaved
        assert "read 1 move (2 plies) from x.pdn" in screen.message_text


def _every_dialog(game: str) -> dict[str, object]:
    from engines.review import GameReport
    from tui.app.screens.report import ReportDialog

    return {
        "result": ResultDialog("White wins", "checkmate"),
        "confirm": ConfirmDialog("Quit?", [("stay", "Stay"), ("quit", "Quit")]),
        "choice": ChoiceDialog("Which move?", ["a", "b"]),
        "save": SaveDialog("/tmp/none.pgn", "text", "PGN"),
        "open": OpenDialog(game),
        "help": HelpDialog(game),
        "moves": MovesDialog("Legal moves", ["e4", "d4"]),
        "report": ReportDialog(GameReport(game, (), (0.5,), 1), ("White", "Black"), 1, 0),
    }


@pytest.mark.parametrize("name", ["result", "confirm", "choice", "save", "open", "help", "moves", "report"])
async def test_every_dialog_closes_once_and_leaves_the_game_screen(name: str) -> None:
    app = make_app("chess", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        stack = list(app.screen_stack)
        answers = []
        dialog = _every_dialog("chess")[name]
        app.push_screen(dialog, answers.append)
        await wait_for(pilot, lambda: app.screen is dialog and dialog.is_mounted, f"the {name} dialog")
        await pilot.pause()
        # Two dismissals in one frame (a click's handlers, a key and a click): the second does nothing.
        dialog.dismiss(None)
        dialog.dismiss(None)
        await wait_for(pilot, lambda: app.screen is screen, "the game screen")
        await pilot.pause()
        assert list(app.screen_stack) == stack and len(answers) == 1
        # and by Escape, the way a player leaves it
        dialog = _every_dialog("chess")[name]
        app.push_screen(dialog)
        await wait_for(pilot, lambda: app.screen is dialog and dialog.is_mounted, f"the {name} dialog")
        await dialog_takes_keys(pilot, dialog)  # past its grace for keys typed before it opened
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen, "the game screen after escape")
        assert list(app.screen_stack) == stack



def _database(path: Path, games: int) -> None:
    path.write_text("\n".join(
        f'[Event "Club {n % 7}"]\n[Date "2024.01.{n % 28 + 1:02d}"]\n[White "Player{n}"]\n[Black "Rival"]\n'
        f'[Result "1-0"]\n[PlyCount "3"]\n\n1. e4 e5 2. Qh5 1-0\n' for n in range(1, games + 1)))


async def _listing(pilot, path: Path) -> tuple[Any, OpenDialog]:
    """The game screen, and the open dialog (ctrl+o) listing the games of ``path``."""
    screen = await ready(pilot)
    await pilot.press("ctrl+o")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, OpenDialog), "the open dialog")
    dialog = pilot.app.screen
    dialog.query_one("#open-path", Input).value = str(path)
    await pilot.press("enter")
    await wait_for(pilot, lambda: dialog.listed is not None, "the list of games")
    return screen, dialog


async def test_ctrl_o_lists_the_games_of_a_file_filters_them_and_opens_the_one_chosen(tmp_path: Path) -> None:
    # ctrl+o on a multi-game file silently opened game 1.
    path = tmp_path / "db.pgn"
    _database(path, 300)
    app = make_app("chess", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen, dialog = await _listing(pilot, path)
        table = dialog.query_one("#open-games")
        assert table.row_count == 300 and "300 games" in str(dialog.query_one("#open-error").render())
        dialog.query_one("#open-filter", Input).value = "player123"
        await wait_for(pilot, lambda: table.row_count == 1, "the filtered list")
        table.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: game_screen(app) is not screen, "the game chosen")
        opened = game_screen(app)
        assert opened.controller.setup.names == ("Player123", "Rival") and opened.moves == ["e4", "e5", "Qh5"]


async def test_one_click_on_a_listed_game_opens_it(tmp_path: Path) -> None:
    # The list needed two clicks on a game (the first only moved the highlight to it).
    path = tmp_path / "db.pgn"
    _database(path, 20)
    app = make_app("chess", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen, dialog = await _listing(pilot, path)
        # A terminal's mouse-up reaches the dialog with no widget (Pilot's names the table): only
        # where it happened and the row's mark under it.
        table = dialog.query_one("#open-games")
        where = table.region.offset + (4, 3)  # the header, then games 1, 2, 3: game 3
        dialog.post_message(events.MouseUp(None, where.x, where.y, 0, 0, 1, False, False, False,
                                           screen_x=where.x, screen_y=where.y, style=Style(meta={"row": 2})))
        await wait_for(pilot, lambda: game_screen(app) is not screen, "the game clicked")
        assert game_screen(app).controller.setup.names[0] == "Player3"


async def test_a_game_number_opens_that_game_directly(tmp_path: Path) -> None:
    path = tmp_path / "db.pgn"
    _database(path, 50)
    app = make_app("chess", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, OpenDialog), "the open dialog")
        app.screen.query_one("#open-path", Input).value = str(path)
        app.screen.query_one("#open-number", Input).value = "42"
        await pilot.press("enter")
        await wait_for(pilot, lambda: game_screen(app) is not screen, "game 42")
        assert game_screen(app).controller.setup.names[0] == "Player42"


async def test_load_of_a_multi_game_file_opens_the_list(tmp_path: Path) -> None:
    path = tmp_path / "db.pgn"
    _database(path, 20)
    app = TuiGamesApp(GameSetup.checked("chess", "human", "human"), pick_from=str(path))
    app.animation_level = "none"
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, OpenDialog) and app.screen.listed is not None,
                       "the list of the file's games")
        assert app.screen.query_one("#open-games").row_count == 20


async def test_the_file_dialogs_say_their_whole_line_at_80_columns() -> None:
    # The open dialog's line was cut at the dialog's edge ("... or a an Othello move list"),
    # the save dialog's after "Escape can".
    app = make_app("chess", "human", "human")
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        for key, kind in (("ctrl+o", OpenDialog), ("ctrl+s", SaveDialog)):
            await pilot.press(key)
            await wait_for(pilot, lambda: isinstance(app.screen, kind), "the dialog")
            label = app.screen.query(Label).first()
            said = " ".join(str(label.render()).split())
            assert label.region.right <= label.parent.content_region.right, label.region  # wrapped, not cut
            assert " a an " not in said and said.endswith("Escape cancels"), said
            await pilot.press("escape")
            await wait_for(pilot, lambda: not isinstance(app.screen, kind), "the dialog closed")


async def test_one_move_entry_serves_the_game_and_the_puzzles() -> None:
    """The game screen's move box and the puzzle screen's are one widget: typed text and
    clicked squares come out of it as one message, MoveEntered(move, text)."""
    from engines.puzzles import Puzzle
    from textual.widgets import Static

    from tui.app.screens.puzzles import PuzzleScreen
    from tui.app.widgets.move_entry import MoveEntry

    app = make_app("chess", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        assert isinstance(screen.move_input, MoveEntry)
        screen.move_input.enter("e4")
        await wait_for(pilot, lambda: screen.moves == ["e4"], "the typed move")
        screen.move_input.square_chosen((4, 1))  # e7, then e5: two clicks on the board's squares
        screen.move_input.square_chosen((4, 3))
        await wait_for(pilot, lambda: screen.moves == ["e4", "e5"], "the clicked move")
        screen.move_input.enter("Ke3")
        await wait_for(pilot, lambda: "illegal" in screen.message_text, "the refusal")
        assert screen.moves == ["e4", "e5"]
    mate = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"  # Qxf7#
    app = TuiGamesApp(puzzles=("chess", [Puzzle("t-1", mate, None, ("Qxf7#",))], "a test set", 1))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PuzzleScreen), "the puzzles")
        puzzles = app.screen
        await wait_for(pilot, lambda: puzzles.entry.game is not None, "the puzzle's position")
        assert type(puzzles.entry) is MoveEntry  # the game's box (MoveInput) is one with fewer editing keys
        puzzles.entry.square_chosen((7, 3))  # h5: picked up
        await wait_for(pilot, lambda: "h5: click where it goes" in str(
            puzzles.query_one("#puzzle-message", Static).render()), "the piece picked up")
        puzzles.entry.square_chosen((5, 1))  # f7
        await wait_for(pilot, lambda: puzzles.done, "the answer")
        assert puzzles.record.solved == 1
