"""``mcts`` as an opponent in the app: chosen on the start screen, it plays a move and its panel
holds its figures (playouts, the root's visits)."""

from __future__ import annotations

from textual.widgets import Checkbox, Input

from games import GAME_NAMES, new_game
from tui.app.app import TuiGamesApp
from tui.app.screens.start import StartScreen
from tui.app.widgets.engine_panel import EnginePanel

from app_pilot import ready, wait_for


async def test_mcts_chosen_on_the_start_screen_plays_a_move() -> None:
    app = TuiGamesApp()
    app.animation_level = "none"
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        start = app.screen
        assert isinstance(start, StartScreen)
        start.query_one("#advanced", Checkbox).value = True
        await wait_for(pilot, lambda: bool(start.query_one("#start-form").display), "the Advanced part")
        start.query_one("#spec-0", Input).value = "mcts:nodes=40,seed=2"
        start.query_one("#spec-1", Input).value = "human"
        await pilot.pause()
        start.query_one("#start-button").focus()
        await pilot.press("enter")
        screen = await ready(pilot)
        assert screen.controller.setup.players[0] == "mcts:nodes=40,seed=2"
        await wait_for(pilot, lambda: len(screen.controller.moves) == 1, "the engine's move")
        game = new_game(GAME_NAMES[0])
        assert screen.controller.moves[0] in game.legal_move_texts()
        panel = next(panel for panel in screen.query(EnginePanel) if panel.side == 0)
        await wait_for(pilot, lambda: panel.stats is not None and panel.stats.playouts == 40, "its figures")
        assert panel.stats is not None and panel.stats.best == screen.controller.moves[0]
        assert sum(visit.visits for visit in panel.stats.visits) == 40
