"""The Textual app: a start screen, then a game screen per game played.

``TuiGamesApp()`` opens the start screen; ``TuiGamesApp(setup)`` opens that
game directly (``tui-games play``).  The app owns the one
:class:`~tui.app.search_service.SearchService` process every game screen's
engines search in, and the :class:`~tui.app.engine_link.EngineLink` to it: a
thread worker of the app (:meth:`TuiGamesApp.read_engine_events`) waits for
the process's events and posts them to the screen or component that asked.
When the app ends it stops the reader and closes the process, so neither
outlives the app.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, Iterable

from rich.text import Text
from textual import events, on, work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.worker import get_current_worker

from engines import notices
from games import GameError

from ..autosave import Autosave, AutosaveError, autosave_path, clear_autosave, latest_autosave, load_autosave, write_autosave
from ..settings import Settings, load_settings, problems_text, save_settings
from .engine_link import EngineLink
from .screens.dialogs import ConfirmDialog, GuardedDialog
from .screens.game import GameScreen
from .screens.lab import LabScreen
from .screens.puzzles import PuzzleScreen
from .screens.start import StartScreen
from .messages import (ContinueGame, NetworkFailed, OpenFriend, OpenGame, OpenLab, OpenLearn, OpenNetworkGame, OpenPuzzles,
                       OpenStart, ReviewGame)
from .search_service import SearchService
from .keymap import key_named
from .session import GameSetup, SetupError

__all__ = ["TuiGamesApp"]


class TuiGamesApp(App):
    """tui-games: chess, checkers and Quixo against engines you can watch think."""

    CSS_PATH = "app.tcss"
    TITLE = "tui-games"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def __init__(self, setup: GameSetup | None = None, *, ascii: bool = False, lab: bool = False,
                 pick_from: str | None = None, puzzles: Any = None, learn: bool = False, friend: Any = None,
                 ask_how: bool = False, syzygy: str | None = None) -> None:
        super().__init__()
        #: Puzzles to solve at once: the game, the puzzles, where they come from, the order's seed.
        self.initial_puzzles = puzzles
        self.initial_setup = setup
        #: A record file whose games are listed, to open one, once the game screen is up.
        self.pick_from = pick_from
        #: ``play --load``: an unfinished game read asks to be continued, reviewed or analysed.
        self.ask_how = ask_how
        self.initial_lab = lab
        #: A network game to open at once (``tui-games host`` / ``join``): its link.
        self.initial_friend = friend
        #: ``tui-games learn``: the course first.
        self.initial_learn = learn
        #: The player's settings (:mod:`tui.settings`) and what was wrong in their file, if anything.
        self.settings, self.settings_problems = load_settings()
        #: ``--ascii``: letters whatever the settings say.
        self.ascii_flag = ascii
        #: ``play --syzygy DIR``: these endgame tables whatever the settings say.
        self.syzygy_flag = syzygy
        self.search_service = SearchService()
        self.engine_link = EngineLink(self.search_service, self.tables_folder)

    def on_mount(self) -> None:
        self.read_engine_events()
        # What an engine does differently from its spec (a clamp), once, under the board.
        self._stop_notices = notices.listen(lambda text: self.notify(text, severity="warning", timeout=10))
        if self.initial_friend is not None:
            self.open_network_game(OpenNetworkGame(self.initial_friend))
        elif self.initial_puzzles is not None:
            game, puzzles, source, seed = self.initial_puzzles
            self.push_screen(PuzzleScreen(game, puzzles, source, seed=seed, ascii=self.ascii))
        elif self.initial_lab:
            self.push_screen(LabScreen())
        elif self.initial_learn:
            self.open_learn()
        elif self.initial_setup is None:
            self.push_screen(self._start_screen())
        else:
            screen = self._game_screen(self.initial_setup)
            self.push_screen(screen)
            if self.pick_from:
                self.call_after_refresh(screen.commands.open, self.pick_from)
            elif self.ask_how and self.initial_setup.record is not None:
                setup = self.initial_setup
                self.call_after_refresh(screen.commands.analysis.ask_how, setup.record, setup.source, setup, shown=True)
        if self.initial_setup is not None and self.initial_setup.engine_sides:
            self.search_service.start()
        problems = self.settings_problems
        if problems and not isinstance(self.screen, StartScreen):  # the start screen says them in its own line
            self.notify(problems_text(problems), severity="warning", timeout=10)

    @work(thread=True, name="engine events", group="engines", exclusive=True)
    def read_engine_events(self) -> None:
        """Post the search process's events to whoever asked, as messages (until the app ends)."""
        worker = get_current_worker()
        self.engine_link.read(lambda: worker.is_cancelled)

    def _game_screen(self, setup: GameSetup) -> GameScreen:
        return GameScreen(setup, self.engine_link, ascii=self.ascii)

    # -- what the screens ask for (messages up) -------------------------------------------

    def _start_screen(self, setup: GameSetup | None = None) -> StartScreen:
        """The start screen, with Continue when a game was left unfinished (a slot that cannot be
        read is said in its notice line)."""
        saved, problem = latest_autosave()
        if problem:
            self.settings_problems = [*self.settings_problems, problem]
        return StartScreen(setup, saved)

    def autosave(self) -> None:
        """Keep the game being left, if it is unfinished and a human plays in it, in its game's slot
        (:mod:`tui.autosave`); a continued game that has ended empties its slot.  A slot that cannot
        be written is said, and the app goes on."""
        screen = self._game_screen_below()
        if screen is None or screen.back_to_lab or not any(screen.controller.setup.is_human(side) for side in (0, 1)):
            return
        controller = screen.controller
        setup = controller.setup
        try:
            if controller.outcome() is not None:
                if getattr(screen, "continued", False):
                    clear_autosave(setup.game)
                return
            if not controller.moves:
                return
            clock = controller.clock
            write_autosave(Autosave(
                setup.game, setup.players, setup.position or "", tuple(controller.moves),
                "" if setup.clock is None else str(setup.clock),
                tuple(clock.standing(time.monotonic())) if clock is not None else (), setup.analysis or ""))
        except OSError as error:
            self.notify(f"the game could not be kept for Continue: {error.strerror or error}", severity="warning")

    @on(ContinueGame)
    def continue_game(self, message: ContinueGame) -> None:
        """The game left unfinished in ``message.game``'s slot, played on at once: its players, clocks
        as they stood and analysis (a slot that cannot be read or set up is said in one line)."""
        try:
            saved = load_autosave(autosave_path(message.game))
            setup = GameSetup.checked(saved.game, *saved.players, saved.position or None,
                                      clock=saved.clock or None, analysis=saved.analysis or None)
            setup = replace(setup, moves=saved.moves)
            screen = self._game_screen(setup)
        except (AutosaveError, SetupError, GameError) as error:
            self.notify(f"cannot continue: {str(error).splitlines()[0]}", severity="error")
            return
        screen.controller.paused = False  # the engine to move answers at once
        clock = screen.controller.clock
        if clock is not None and len(saved.left) == len(saved.moves) + 1:
            clock.history = [tuple(pair) for pair in saved.left]  # type: ignore[misc]
            clock.back_to(len(saved.moves))
        screen.continued = True  # type: ignore[attr-defined]
        self.engine_link.reset()
        self.switch_screen(screen)

    @on(OpenGame)
    def open_game(self, message: OpenGame) -> None:
        """Replace the current screen by a new game of the message's setup."""
        self.autosave()
        self.engine_link.reset()
        self.switch_screen(self._game_screen(message.setup))

    @on(ReviewGame)
    def review_game(self, message: ReviewGame) -> None:
        """A game of a lab run, over the lab: ctrl+n (New) goes back to the lab as it was."""
        screen = self._game_screen(message.setup)
        screen.back_to_lab = True
        self.push_screen(screen)

    @on(OpenStart)
    def open_start(self, message: OpenStart) -> None:
        """Back to the start screen, filled in with the message's setup."""
        self.autosave()
        self.engine_link.cancel()
        self.switch_screen(self._start_screen(message.setup))

    @on(OpenLab)
    def open_lab(self, message: OpenLab | None = None) -> None:
        """The lab screen (experiments and tournaments) in place of this one (the palette calls it bare)."""
        self.autosave()
        self.engine_link.cancel()
        self.switch_screen(LabScreen())

    @on(OpenPuzzles)
    def open_puzzles(self, message: OpenPuzzles) -> None:
        """Puzzles over the current screen (Esc comes back to it)."""
        self.push_screen(PuzzleScreen(message.game, message.puzzles, message.source, ascii=self.ascii))

    @on(OpenLearn)
    def open_learn(self, message: OpenLearn | None = None) -> None:
        """The course in game search over the current screen (Esc comes back to it)."""
        from .screens.learn import LearnScreen  # the course's screen, loaded when first asked for

        self.push_screen(LearnScreen())

    @on(OpenFriend)
    def open_friend(self, message: OpenFriend | None = None) -> None:
        """Host or join a game with a friend over the network, over the current screen."""
        from .screens.friend import FriendScreen  # the network's screen, loaded when first asked for

        self.push_screen(FriendScreen())

    @on(OpenNetworkGame)
    def open_network_game(self, message: OpenNetworkGame) -> None:
        """A network game (hosted or joined) in place of the current screen (pushed when there is none)."""
        from .screens.network_game import NetworkGameScreen  # loaded when first asked for

        screen = NetworkGameScreen(message.link, self.engine_link, ascii=self.ascii)
        if len(self.screen_stack) > 1:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    @on(NetworkFailed)
    def network_failed(self, message: NetworkFailed) -> None:
        """A host broke the protocol.  Opened by ``tui-games join``, the app ends with the line and exit
        status 2 (the command prints it); from the friend screen, the game screen has said it and stays."""
        if self.initial_friend is not None:
            self.exit(return_code=2, message=Text(f"tui-games join: error: {message.reason}"))

    @property
    def ascii(self) -> bool:
        """Letters instead of glyphs: ``--ascii``, or the settings (as they are now)."""
        return self.ascii_flag or self.settings.ascii

    def remember_game(self, game: str, players: tuple[str, str], clock: str) -> None:
        """Keep the players (as typed: a level stays a level) and the clock of a game started
        from the start screen for the next run (a file that cannot be written is said on the
        start screen, and the game goes on)."""
        problem = self.keep(replace(self.settings.with_players(game, *players), clock=clock))
        if problem:
            self.settings_problems = [problem]

    def keep_turned(self, game: str, turned: bool) -> str | None:
        """Keep whether the player turned ``game``'s board from where the game puts it (the flip)
        for its next games; the one-line problem if the file cannot be written."""
        return self.keep(self.settings.with_turned(game, turned))

    def tables_folder(self) -> str | None:
        """The endgame tables the engines read: ``--syzygy``, or the settings (as they are now)."""
        return self.syzygy_flag or self.settings.syzygy or None

    def keep(self, settings: Settings) -> str | None:
        """Make ``settings`` the app's and write them; the one-line problem if they cannot be written."""
        if settings == self.settings:
            return None
        self.settings = settings
        try:
            save_settings(settings)
        except OSError as error:
            return f"settings not kept: {error.strerror or error}"
        return None

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The palette (ctrl+p): the game's commands by name, the lab, quit -- only ours
        (Textual's theme changes the frame and not the board, and its maximize and
        screenshot commands are for developers)."""
        if isinstance(screen, GameScreen):
            yield from screen.palette_commands()
        if isinstance(screen, StartScreen):
            yield SystemCommand("Start a new game", "the game, level, colour and clock chosen "
                                f"({key_named('new_game').shown})", screen.action_start)
            if screen.autosave is not None:
                yield SystemCommand("Continue", "play on the game left unfinished", screen.action_continue)
            yield SystemCommand("Puzzles", "the puzzle trainer of the game chosen", screen.action_puzzles)
            yield SystemCommand("Learn", "the course in game search", screen.action_learn)
            yield SystemCommand("Play a friend", "host or join a game over the network", screen.action_friend)
            yield SystemCommand("Lab", "experiments and tournaments: run, watch, stop, resume", self.open_lab)
            yield SystemCommand("Settings", "the board's theme, letters, coordinates, a new game's clock and "
                                f"players, kept between runs ({key_named('settings').shown})", screen.action_settings)
        yield SystemCommand("Quit", "leave tui-games; an unsaved game is offered to be saved first (ctrl+q)",
                            self.action_quit)

    async def on_event(self, event: events.Event) -> None:
        # Keys typed before a dialog was ready (the Enter after a last move) never land in it.
        if (isinstance(event, events.Key) and not event.is_forwarded
                and isinstance(self.screen, GuardedDialog) and self.screen.ignores(event)):
            return
        await super().on_event(event)

    def _game_screen_below(self) -> GameScreen | None:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen):
                return screen
        return None

    async def action_quit(self) -> None:
        """Quit — after asking, when a game has moves no file holds."""
        game = self._game_screen_below()
        asked = isinstance(self.screen, ConfirmDialog) and self.screen.topic == "quitting"
        if game is None or not game.played.unsaved or asked:  # ctrl+q on the question: quit anyway
            self.exit()
            return
        game.commands.guard_unsaved("quitting", self.exit)

    def exit(self, *args: Any, **kwargs: Any) -> None:
        """End the app, keeping an unfinished game for Continue first."""
        self.autosave()
        super().exit(*args, **kwargs)

    def on_unmount(self) -> None:
        self._stop_notices()
        self.engine_link.close()
