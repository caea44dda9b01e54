"""Helpers for driving the app with Textual's Pilot."""

from __future__ import annotations

import time
from typing import Callable

from textual.pilot import Pilot
from textual.widgets import Input

from tui.app.app import TuiGamesApp
from tui.app.screens.game import GameScreen
from tui.app.session import GameSetup

#: How long a test waits for the app (or its search process) before failing.
TIMEOUT = 30.0


def make_app(game: str, first: str, second: str, position: str | None = None) -> TuiGamesApp:
    app = TuiGamesApp(GameSetup.checked(game, first, second, position))
    app.animation_level = "none"
    return app


async def wait_for(pilot: Pilot, condition: Callable[[], bool], what: str,
                   timeout: float = TIMEOUT) -> None:
    """Let the app run until ``condition()`` holds; fail with ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.02)


def game_screen(app: TuiGamesApp) -> GameScreen:
    """The game screen, even when a dialog is on top of it."""
    for screen in reversed(app.screen_stack):
        if isinstance(screen, GameScreen):
            return screen
    raise AssertionError(f"no game screen in {app.screen_stack}")


async def ready(pilot: Pilot) -> GameScreen:
    """Wait for the game screen; stop the cursor blinking (steady screens in tests)."""
    await wait_for(pilot, lambda: any(isinstance(s, GameScreen) for s in pilot.app.screen_stack),
                   "the game screen")
    for box in pilot.app.query(Input):
        box.cursor_blink = False
    return game_screen(pilot.app)


async def type_move(pilot: Pilot, text: str) -> None:
    """Type ``text`` in the move box (replacing what is there) and press Enter."""
    screen = game_screen(pilot.app)
    screen.move_input.focus()
    screen.move_input.value = ""
    await pilot.press(*text, "enter")
    await pilot.pause()
