"""The course's screen (tui.app.screens.learn): a lesson shown with its tree, an exercise answered
wrong (the deciding tree shown) and right (the score kept in the settings directory, a broken
progress file said and kept aside, never written over)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from app_pilot import wait_for
from cli_run import assert_usage_error
from tui.app.app import TuiGamesApp
from tui.app.screens.learn import LearnScreen


async def test_learn_lesson_then_an_exercise_wrong_then_right() -> None:
    folder = Path(os.environ["TUI_GAMES_CONFIG_DIR"])
    (folder / "course.json").write_text('{"done": [')  # broken: said, ignored, kept aside
    app = TuiGamesApp(learn=True)
    app.animation_level = "none"
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LearnScreen), "the course")
        screen = app.screen
        assert isinstance(screen, LearnScreen)
        await wait_for(pilot, lambda: screen.setup is not None, "the first lesson's tree")
        assert "MAX" in str(screen.query_one("#learn-tree").render())
        screen.seed = 0  # the exercise's position, for a known kind (lesson 1 asks values)
        await pilot.press("g")
        await wait_for(pilot, lambda: screen.exercise is not None, "an exercise")
        exercise = screen.exercise
        assert exercise is not None and exercise.kind == "value"
        await pilot.press(*"99999", "enter")
        await wait_for(pilot, lambda: screen.exercise is None, "the answer graded")
        assert "what decides it" in str(screen.query_one("#learn-tree").render())
        await pilot.press("g")
        await wait_for(pilot, lambda: screen.exercise is not None, "another exercise")
        second = screen.exercise
        assert second is not None
        right = next(str(v) for v in range(-2000, 2000) if second.grade(str(v)).right)
        await pilot.press(*right, "enter")
        await wait_for(pilot, lambda: screen.exercise is None, "the answer graded")
        saved = json.loads((folder / "course.json").read_text())
        assert saved["scores"]["minimax"] == [1, 2] and "minimax" in saved["done"]
        assert (folder / "course.json.bad").read_text() == '{"done": ['
        assert any("course.json is broken" in note.message for note in app._notifications)


def test_learn_is_a_command_and_needs_a_terminal(capsys) -> None:
    """``tui-games learn`` opens the app (under pytest stdin is no terminal: refused in one line)."""
    assert_usage_error(capsys, ["learn"], "the app needs a terminal")
    assert_usage_error(capsys, ["learn", "--no-such-flag"], "--no-such-flag")


async def test_progress_goes_to_a_settings_directory_not_made_yet(monkeypatch, tmp_path) -> None:
    folder = tmp_path / "not" / "yet"
    monkeypatch.setenv("TUI_GAMES_CONFIG_DIR", str(folder))
    app = TuiGamesApp(learn=True)
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LearnScreen), "the course")
        await pilot.press("d")  # the first lesson marked done
        await wait_for(pilot, lambda: (folder / "course.json").exists(), "the progress saved")
    assert json.loads((folder / "course.json").read_text())["done"] == ["minimax"]
