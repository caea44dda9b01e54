"""The Textual app: a start screen, then a game screen per game played.

``TuiGamesApp()`` opens the start screen; ``TuiGamesApp(setup)`` opens that
game directly (``tui-games play``).  The app owns the one
:class:`~tui.app.search_service.SearchService` process every game screen's
engines search in, and closes it when the app ends, so no search process
outlives the app.
"""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding

from .screens.game import GameScreen
from .screens.start import StartScreen
from .search_service import SearchService
from .session import GameSetup

__all__ = ["TuiGamesApp"]


class TuiGamesApp(App):
    """tui-games: chess, checkers and Quixo against engines you can watch think."""

    CSS_PATH = "app.tcss"
    TITLE = "tui-games"
    #: Every key is on the footer; the palette would only repeat them.
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def __init__(self, setup: GameSetup | None = None, *, ascii: bool = False) -> None:
        super().__init__()
        self.initial_setup = setup
        self.ascii = ascii
        self.search_service = SearchService()

    def on_mount(self) -> None:
        if self.initial_setup is None:
            self.push_screen(StartScreen())
        else:
            self.push_screen(self._game_screen(self.initial_setup))
        if self.initial_setup is not None and self.initial_setup.engine_sides:
            self.search_service.start()

    def _game_screen(self, setup: GameSetup) -> GameScreen:
        return GameScreen(setup, self.search_service, ascii=self.ascii)

    def open_game(self, setup: GameSetup) -> None:
        """Replace the current screen by a new game of ``setup``."""
        self.search_service.reset()
        self.switch_screen(self._game_screen(setup))

    def open_start(self, setup: GameSetup | None = None) -> None:
        """Back to the start screen, filled in with ``setup``."""
        self.search_service.cancel()
        self.switch_screen(StartScreen(setup))

    def on_unmount(self) -> None:
        self.search_service.close()
