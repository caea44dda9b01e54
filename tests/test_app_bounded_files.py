"""The app's open dialog past the caps of a record file: one line in the dialog, and the app goes on."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Static

from games.records import MAX_GAMES, MAX_NODES
from tui.app.screens.files import OpenDialog

from app_pilot import game_screen, make_app, ready, wait_for


async def test_the_open_dialog_says_a_file_past_a_cap_in_one_line_and_the_game_goes_on(tmp_path: Path) -> None:
    many = tmp_path / "many.pgn"
    many.write_text('[Event "x"]\n\n1. e4 e5 *\n\n' * (MAX_GAMES + 1))
    wide = tmp_path / "wide.pgn"
    wide.write_text('[Event "v"]\n\n1. e4 ' + "(1. d4 d5)\n" * (MAX_NODES // 3 + 1) + "*\n")
    app = make_app("chess", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        for path, said in ((many, f"more than {MAX_GAMES:,} games"), (wide, f"more than {MAX_NODES:,} moves")):
            await pilot.press("ctrl+o")
            await wait_for(pilot, lambda: isinstance(app.screen, OpenDialog), "the open dialog")
            dialog = app.screen
            dialog.query_one("#open-path", Input).value = str(path)
            await pilot.press("enter")
            error = dialog.query_one("#open-error", Static)
            await wait_for(pilot, lambda: said in str(error.render()), f"the dialog saying {said}")
            assert "\n" not in str(error.render()).strip()
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is screen, "the game screen again")
        assert game_screen(app) is screen and app.is_running
