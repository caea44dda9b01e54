"""Helpers for driving the app with Textual's Pilot."""

from __future__ import annotations

import time
from typing import Callable

from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input

from tui.app.app import TuiGamesApp
from tui.app.screens.dialogs import GuardedDialog
from tui.app.screens.game import GameScreen
from tui.app.screens.settings import SettingsScreen
from tui.app.screens.start import StartScreen
from tui.app.widgets.game_clocks import GameClocks
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


async def open_settings(pilot: Pilot, app: TuiGamesApp) -> SettingsScreen:
    """From the start screen, F2: the settings screen, once it is up."""
    await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
    await pilot.press("f2")
    await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), "the settings")
    assert isinstance(app.screen, SettingsScreen)
    return app.screen


async def dialog_takes_keys(pilot: Pilot, dialog: Screen) -> None:
    """Wait until ``dialog`` takes keys: a guarded dialog's grace time for keys typed before it
    opened is over (the condition the app checks on every key, :meth:`GuardedDialog.ignores`);
    any other dialog takes them at once."""
    if isinstance(dialog, GuardedDialog):
        await wait_for(pilot, lambda: time.monotonic() > dialog.opened_at + dialog.GRACE,
                       f"{type(dialog).__name__} to take keys")


async def clock_ticks(pilot: Pilot, clocks: GameClocks, count: int = 2) -> None:
    """Wait until the clocks' timer has run ``count`` more times (a running clock would have moved)."""
    start = clocks.ticks
    await wait_for(pilot, lambda: clocks.ticks >= start + count, f"{count} ticks of the clocks")


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
