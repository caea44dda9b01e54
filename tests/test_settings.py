"""Settings that persist: the TOML file, its bad and old versions, the settings screen, the start screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Checkbox, Input, Select, Static

from games import GAME_NAMES
from tui.app.app import TuiGamesApp
from tui.app.screens.game import GameScreen
from tui.app.screens.settings import SettingsScreen
from tui.app.screens.start import StartScreen
from tui.app.widgets.board import BoardView
from tui.settings import THEMES, Settings, load_settings, save_settings, settings_path, settings_text

from app_pilot import open_settings, wait_for


def test_settings_round_trip_and_first_run(own_settings: Path):
    assert settings_path().parent == own_settings
    assert load_settings() == (Settings(), [])  # no file: a first run
    first, *middle, last = GAME_NAMES  # any games: the settings name them as the registry does
    chosen = Settings("green", True, False, "5+3", {first: ("human", "club"), last: ('a "b"', "c\\d")},
                      "outlined", frozenset(middle))
    save_settings(chosen)
    assert load_settings() == (chosen, [])
    assert f"[players.{first}]" in settings_path().read_text()


@pytest.mark.parametrize("text,problem", [
    ("version = 1\n[board]\ntheme = 'purple'\n", "is not one of"),
    ("version = 1\n[board]\nascii = 'yes'\n", "is not true or false"),
    ("version = 1\n[board]\npieces = 'staunton'\n", "is not one of solid, outlined"),
    ("version = 1\n[board]\nturned = ['chess', 'go', 3]\n", "'go', '3' are not games"),
    ("version = 1\n[board]\nturned = 'chess'\n", "is not a list in brackets"),
    ("version = 1\nboard = 3\n", "[board] is not a table"),
    ("version = 1\n[players.go]\nfirst = 'human'\nsecond = 'human'\n", "[players.go] is not a game's players"),
    ("version = 7\n", "version 7, not 1"),
    ("not = [toml\n", "not valid TOML"),
])
def test_a_bad_or_old_settings_file_is_reported_in_one_line_and_the_rest_used(text: str, problem: str):
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + ("[new_game]\nclock = '1+0'\n" if text.startswith("version = 1") else ""))
    settings, problems = load_settings()
    assert len(problems) == 1 and problem in problems[0] and "\n" not in problems[0]
    assert settings.theme == "game" and settings.ascii is False
    if text.startswith("version = 1"):
        assert settings.clock == "1+0"  # what was right is used


def test_saving_over_a_bad_file_keeps_it_beside_and_a_binary_file_is_refused():
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\xff\xfe\x00garbage")
    settings, problems = load_settings()
    assert settings == Settings() and "not a text file" in problems[0]
    save_settings(Settings(theme="blue"))
    assert path.with_name("settings.toml.bad").read_bytes() == b"\xff\xfe\x00garbage"
    assert load_settings() == (Settings(theme="blue"), [])
    path.write_text("theme = [[[")  # broken again: the first bad file is not written over
    save_settings(Settings(theme="green"))
    assert path.with_name("settings.toml.bad").read_bytes() == b"\xff\xfe\x00garbage"
    assert path.with_name("settings.toml.bad.2").read_text() == "theme = [[["
    assert settings_text(Settings()).startswith("# tui-games settings")


async def test_the_start_screen_remembers_the_players_and_clock_of_the_last_game() -> None:
    save_settings(Settings(clock="3+2", players={"chess": ("human", "casual")}))
    app = TuiGamesApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        start = app.screen
        await wait_for(pilot, lambda: start.query_one("#spec-1", Input).value == "casual", "the remembered player")
        assert start.query_one("#clock", Input).value == "3+2"
        start.query_one("#spec-1", Input).value = "club"
        start.query_one("#clock", Input).value = ""
        start.action_start()
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen) and len(app.screen.query("#board")) == 1,
                       "the game")
        await pilot.pause()
    settings, problems = load_settings()
    assert not problems and settings.players["chess"] == ("human", "club") and settings.clock == ""


async def test_the_settings_screen_saves_checks_and_the_board_follows() -> None:
    app = TuiGamesApp()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_settings(pilot, app)
        screen.query_one("#settings-theme", Select).value = "green"
        screen.query_one("#settings-coordinates", Checkbox).value = False
        screen.query_one("#settings-clock", Input).value = "five minutes"
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SettingsScreen)
        assert "clock" in str(screen.query_one("#settings-error", Static).render())
        assert not settings_path().exists()  # nothing written while a field is wrong
        screen.query_one("#settings-clock", Input).value = "10+5"
        screen.query_one("#settings-chess-1", Input).value = "nosuchengine:x"
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SettingsScreen) and not settings_path().exists()
        screen.query_one("#settings-chess-1", Input).value = "master"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen again")
        assert app.screen.query_one("#clock", Input).value == "10+5"
        assert app.screen.query_one("#spec-1", Input).value == "master"
        app.screen.query_one("#spec-1", Input).value = "human"
        app.screen.action_start()
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen) and len(app.screen.query("#board")) == 1, "the game")
        board = app.screen.query_one("#board", BoardView)
        assert (board.painter.colours.light, board.painter.colours.dark) == THEMES["green"]
        assert not board.coordinates and "a" not in board.render().plain.replace("·", "")
    assert load_settings()[0].theme == "green"


async def test_a_bad_settings_file_is_said_on_the_start_screen_and_the_app_goes_on() -> None:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("version = 1\n[board]\ntheme = 'purple'\nascii = 3\n")
    app = TuiGamesApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        await wait_for(pilot, lambda: "is not one of" in str(app.screen.query_one("#start-notice", Static).render()),
                       "the problem said")
        assert "(and 1 more)" in str(app.screen.query_one("#start-notice", Static).render())


async def test_a_pick_in_a_start_screen_list_leaves_enter_to_start() -> None:
    app = TuiGamesApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        start = app.screen
        opponent = start.query_one("#opponent", Select)
        opponent.focus()
        await pilot.pause()
        opponent.value = "expert"  # a level, as a click in its list sets it
        await wait_for(pilot, lambda: start.focused is not opponent, "the focus moved on")
        assert start.focused.id == "start-button"  # Enter now starts the game, not reopens the list
        start.query_one("#advanced", Checkbox).value = True  # and the same in the Advanced part's lists
        preset = start.query_one("#preset-1", Select)
        await wait_for(pilot, lambda: preset.display and preset.region.height > 0, "the Advanced part")
        preset.focus()
        await pilot.pause()
        preset.value = "pvs:nodes=3000"  # the club level
        await wait_for(pilot, lambda: start.focused is not preset, "the focus moved on again")
        assert start.focused.id == "start-button"


def test_a_clock_that_is_no_clock_is_reported_and_ignored():
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("version = 1\n[new_game]\nclock = 'abc'\n[players.chess]\nfirst = 'human'\nsecond = '" +
                    "x" * 3000 + "'\n")
    settings, problems = load_settings()
    assert settings.clock == "" and "chess" not in settings.players
    assert any("new_game.clock" in problem for problem in problems)
    assert any("longer than" in problem for problem in problems)


async def test_letters_saved_in_the_settings_apply_to_the_next_game_at_once() -> None:
    save_settings(Settings(ascii=True))
    app = TuiGamesApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        assert app.ascii
        app.settings = Settings(ascii=False)  # as the settings screen leaves them
        assert not app.ascii


def test_the_outlined_piece_set_draws_the_light_side_hollow_where_a_game_has_such_glyphs():
    from games import new_game
    from tui.app.widgets.painting import painter_for

    def glyphs(name: str, outlined: bool) -> str:
        cells = painter_for(name, outlined=outlined).cells(new_game(name))
        return "".join(cell.glyph for row in cells for cell in row)

    assert "♔" in glyphs("chess", True) and "♚" in glyphs("chess", True)  # White hollow, Black solid
    assert "♔" not in glyphs("chess", False)
    assert "○" in glyphs("checkers", True) and "●" in glyphs("checkers", True)
    assert glyphs("quixo", True) == glyphs("quixo", False)  # cubes have no hollow glyphs
    assert Settings(pieces="outlined").board_options()["outlined"] is True


async def two_humans_game(app: TuiGamesApp, pilot) -> BoardView:
    """A chess game between two humans started from the start screen; its board."""
    await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
    app.screen.query_one("#spec-1", Input).value = "human"
    app.screen.action_start()
    await wait_for(pilot, lambda: isinstance(app.screen, GameScreen) and len(app.screen.query("#board")) == 1,
                   "the game")
    return app.screen.query_one("#board", BoardView)


async def test_a_flipped_board_stays_flipped_for_the_next_game_of_that_game_only() -> None:
    app = TuiGamesApp()
    async with app.run_test(size=(120, 40)) as pilot:
        board = await two_humans_game(app, pilot)
        assert not board.flipped
        await pilot.press("ctrl+t")
        assert app.screen.query_one("#board", BoardView).flipped
    assert load_settings()[0].turned == frozenset({"chess"})
    app = TuiGamesApp()
    async with app.run_test(size=(120, 40)) as pilot:
        board = await two_humans_game(app, pilot)
        assert board.flipped  # White at the top, as the player left it
        await pilot.press("ctrl+t")
        assert not board.flipped
    assert load_settings()[0].turned == frozenset()


async def test_a_game_opened_turned_has_its_clocks_turned_and_a_bad_setting_is_said_outside_the_start_screen():
    from tui.app.session import GameSetup
    from tui.app.widgets.clock_view import ClockView

    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("version = 1\n[board]\nturned = ['chess']\npieces = 'staunton'\n")
    app = TuiGamesApp(GameSetup.checked("chess", "human", "human", clock="1+0"))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen) and len(app.screen.query("#board")) == 1,
                       "the game")
        await pilot.pause()
        assert app.screen.query_one("#board", BoardView).flipped  # White at the top
        assert app.screen.query_one("#clock-top", ClockView).side == 0  # and White's clock beside it
        assert app.screen.query_one("#clock-bottom", ClockView).side == 1
        assert any("staunton" in str(note.message) for note in app._notifications)
