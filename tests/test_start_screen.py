"""The start screen for players (docs/app.md): levels with their ratings in words, colour, clock
presets, the Advanced part, Continue; and the old one-slot autosave (tui/autosave.py) it reads."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual.containers import VerticalScroll
from textual.widgets import Button, Checkbox, Input, Select

from engines.levels import levels_for
from games import GAME_NAMES, Game, game_class, game_kind
from tui.app.app import TuiGamesApp
from tui.app.screens.dialogs import ConfirmDialog
from tui.app.screens.start import StartScreen, engine_words, level_choices, middle_level
from tui.app.screens.unfinished import UnfinishedScreen
from tui.autosave import (Autosave, AutosaveError, autosave_path, clear_autosave, latest_autosave, load_autosave,
                          write_autosave)
from tui.settings import Settings, load_settings, save_settings
from tui.unfinished import kept_games

from app_pilot import ready, wait_for


def start_app() -> TuiGamesApp:
    app = TuiGamesApp()
    app.animation_level = "none"
    return app


async def start_screen(pilot) -> StartScreen:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, StartScreen), "the start screen")
    return pilot.app.screen


# -- the plain choices -----------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_opponents_are_the_levels_with_ratings_to_the_ten_then_human(game: str) -> None:
    choices = level_choices(game)
    levels = levels_for(game)
    assert [value for _label, value in choices] == [level.name for level in levels] + ["human"]
    for (label, _value), level in zip(choices, levels):
        assert label.startswith(level.name.capitalize())
        if level.elo is not None:
            assert f"~{round(level.elo, -1):.0f}" in label and "±" not in label
    assert "type or click moves" in choices[-1][0]
    assert middle_level(game) == levels[len(levels) // 2].name


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_engine_words_name_only_what_the_game_has(game: str) -> None:
    """pvs's words for a game name the check extension (and null move) only where the game
    answers in_check (null_move_ok) itself: checkers, Quixo and Othello were told of a check extension."""
    words = engine_words("pvs:time=1", game)
    cls = game_class(game)
    assert ("check extension" in words) == (cls.in_check is not Game.in_check)
    assert ("checks=on" in words) == (cls.in_check is not Game.in_check)
    assert ("null-move" in words) == (cls.null_move_ok is not Game.null_move_ok)


async def test_the_plain_start_fits_80x24_and_enter_plays_the_middle_level() -> None:
    app = start_app()
    async with app.run_test(size=(80, 24)) as pilot:
        start = await start_screen(pilot)
        await pilot.pause()
        for button in start.query(Button):  # every button on screen, Quit included
            region = button.region
            assert region.width > 0 and region.right <= 80 and region.bottom <= 23, button.id
        assert not start.query_one("#start-form").display  # the engine specs are Advanced
        plain = "\n".join(str(widget.render()) for widget in start.query("#start-plain Select, #opponent-about"))
        for jargon in ("pvs", "nodes", "extension", "spec"):
            assert jargon not in plain
        level = middle_level(start.game)
        assert start.query_one("#opponent", Select).value == level
        assert start.query_one("#colour", Select).value == "first"
        start.query_one("#colour", Select).value = "second"
        await wait_for(pilot, lambda: start.query_one("#spec-1", Input).value == "human", "Black for the human")
        assert start.query_one("#spec-0", Input).value == level
        start.query_one("#clock-preset", Select).value = "5+3"
        await wait_for(pilot, lambda: start.query_one("#clock", Input).value == "5+3", "the clock preset")
        assert start.focused is start.query_one("#start-button")
        await pilot.press("enter")  # one key from the start screen to the game
        screen = await ready(pilot)
        setup = screen.controller.setup
        assert setup.players[1] == "human" and setup.players[0] == levels_for(setup.game)[len(levels_for(setup.game)) // 2].spec
        assert str(setup.clock) == "5+3"


async def test_advanced_is_remembered_and_ctrl_n_opens_the_form_at_its_top() -> None:
    app = start_app()
    async with app.run_test(size=(80, 24)) as pilot:
        start = await start_screen(pilot)
        start.query_one("#advanced", Checkbox).value = True
        await wait_for(pilot, lambda: bool(start.query_one("#start-form").display), "the Advanced part")
        assert load_settings()[0].advanced
        # A spec that is no level leaves the opponent custom.
        start.query_one("#spec-1", Input).value = "alphabeta:depth=1"
        await wait_for(pilot, lambda: start.query_one("#opponent", Select).value is Select.NULL, "custom")
        start.query_one("#spec-1", Input).value = "human"
        await wait_for(pilot, lambda: start.query_one("#opponent", Select).value == "human", "two humans")
        await pilot.press("ctrl+n")
        screen = await ready(pilot)
        await pilot.press("ctrl+n")  # no move yet: back to the start screen at once
        start = await start_screen(pilot)
        await pilot.pause()
        assert start.query_one("#start-form").display  # still Advanced
        assert start.query_one("#start", VerticalScroll).scroll_y == 0
        assert start.query_one("#game", Select).region.y >= 0 and start.query_one("#game", Select).region.height
        assert screen is not start


# -- the autosave and Continue --------------------------------------------------------------------

def test_a_bad_settings_flag_for_advanced_is_one_line(own_settings: Path) -> None:
    (own_settings / "settings.toml").write_text("version = 1\n[new_game]\nadvanced = 'yes'\n")
    settings, problems = load_settings()
    assert settings == Settings() and len(problems) == 1 and "new_game.advanced" in problems[0]
    save_settings(Settings(advanced=True))
    assert load_settings() == (Settings(advanced=True), [])


@given(st.lists(st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12), max_size=6))
def test_an_autosave_reads_back_what_was_written(moves: list[str]) -> None:
    saved = Autosave(GAME_NAMES[0], ("human", 'pvs:time=1'), "", tuple(moves), "5+3",
                     tuple((300.0 - ply, 299.5) for ply in range(len(moves) + 1)), "pvs")
    path = write_autosave(saved)
    loaded = load_autosave(path)
    assert loaded.moves == saved.moves and loaded.left == saved.left and loaded.players == saved.players
    assert loaded.saved  # stamped


def test_a_file_in_the_slot_that_is_not_an_autosave_is_kept_aside() -> None:
    game = GAME_NAMES[-1]
    path = autosave_path(game)
    path.parent.mkdir(parents=True)
    path.write_text("my notes, not an autosave")
    with pytest.raises(AutosaveError):
        load_autosave(path)
    assert latest_autosave()[0] is None and str(path) in latest_autosave()[1]
    write_autosave(Autosave(game, ("human", "human"), "", ("a",)))
    assert path.with_name(path.name + ".bad").read_text() == "my notes, not an autosave"
    assert load_autosave(path).moves == ("a",)
    clear_autosave(game)
    assert not os.path.lexists(path) and latest_autosave() == (None, "")


async def test_an_old_slot_is_continued_from_the_list_and_plays_on_at_once() -> None:
    game = GAME_NAMES[0]
    sample = game_kind(game).samples.middle
    assert sample, "the game's samples give a middle game"
    first = sample[:1]  # one move played: the second side, an engine, is to move
    left = ((300.0, 300.0), (297.5, 300.0))  # the clocks as they stood: the first player had used 2.5 s
    write_autosave(Autosave(game, ("human", "pvs:depth=1"), "", first, "5+3", left))  # an earlier version's slot
    app = start_app()
    async with app.run_test(size=(80, 24)) as pilot:
        start = await start_screen(pilot)
        assert [kept.moves for kept in start.kept] == [first]  # moved into the store
        await pilot.click("#continue-button")
        await wait_for(pilot, lambda: isinstance(app.screen, UnfinishedScreen), "the list of unfinished games")
        await pilot.press("enter")
        screen = await ready(pilot)
        assert screen.controller.setup.players == ("human", "pvs:depth=1") and str(screen.controller.setup.clock) == "5+3"
        assert screen.controller.clock is not None and screen.controller.clock.history[1] == left[1]
        await wait_for(pilot, lambda: len(screen.controller.moves) == 2, "the engine's answer, unpaused")
        played = tuple(screen.controller.moves)
        await pilot.press("ctrl+q")  # the question says the game is kept, not discarded
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the quit question")
        assert "Continue keeps it" in str(app.screen.query_one("#discard", Button).label)
        app.exit()
    (kept,), _ = kept_games()
    assert kept.moves == played and kept.id == start.kept[0].id  # its own entry, updated


async def test_another_game_shows_its_own_colours_and_levels_in_the_lists() -> None:
    """Chess to checkers: "You play" read "White (moves first)" still, the value ("first") being
    the same and its label not redrawn; now the lists show the new game's words."""
    app = start_app()
    async with app.run_test(size=(120, 40)) as pilot:
        start = await start_screen(pilot)
        colour = start.query_one("#colour", Select)

        def shown(select: Select) -> str:
            return str(select.query_one("SelectCurrent #label").render())

        first = game_class(start.game).PLAYERS[0]
        assert first in shown(colour)
        other = next(name for name in GAME_NAMES if game_class(name).PLAYERS[0] != first)
        start.query_one("#game", Select).value = other
        await wait_for(pilot, lambda: game_class(other).PLAYERS[0] in shown(colour), "the new game's first player")
        assert colour.value == "first" and first not in shown(colour)
        opponent = start.query_one("#opponent", Select)
        level = levels_for(other)[len(levels_for(other)) // 2]
        assert shown(opponent).startswith(level.name.capitalize())


async def test_back_from_the_puzzles_enter_starts_a_game_and_a_clicked_pick_hands_enter_to_start() -> None:
    from tui.app.screens.puzzles import PuzzleScreen

    app = start_app()
    async with app.run_test(size=(120, 40)) as pilot:
        start = await start_screen(pilot)
        start.query_one("#puzzles-button", Button).focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, PuzzleScreen), "the puzzles")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is start, "the start screen again")
        assert start.focused is start.query_one("#start-button")  # not the Puzzles button: Enter starts
        opponent = start.query_one("#opponent", Select)
        await pilot.click(opponent)  # the list opens; a click on a choice picks it
        await wait_for(pilot, lambda: opponent.expanded, "the list open")
        await pilot.click(opponent.query_one("SelectOverlay"), offset=(3, 1))  # under "custom": the beginner
        await wait_for(pilot, lambda: opponent.value == levels_for(start.game)[0].name, "the pick")
        await wait_for(pilot, lambda: start.focused is start.query_one("#start-button"), "Enter handed to Start")


async def test_the_start_screens_palette_starts_a_game_and_opens_the_puzzles() -> None:
    app = start_app()
    async with app.run_test(size=(120, 40)) as pilot:
        start = await start_screen(pilot)
        commands = {command.title: command for command in app.get_system_commands(start)}
        assert {"Start a new game", "Puzzles", "Learn", "Lab", "Settings", "Quit"} <= set(commands)
        commands["Start a new game"].callback()
        await ready(pilot)
