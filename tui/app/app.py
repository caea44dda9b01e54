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
from games.records import RecordError

from ..unfinished import KeptError, kept_games, kept_path, load_kept, remove_kept, write_kept
from ..settings import Settings, load_settings, problems_text, save_settings
from .engine_link import EngineLink
from .keeping import continued_setup, keeps, kept_of, restore
from .screens.dialogs import ConfirmDialog, GuardedDialog
from .screens.game import GameScreen
from .screens.lab import LabScreen
from .screens.puzzles import PuzzleScreen
from .screens.start import StartScreen
from .messages import (ContinueGame, ForgetGame, NetworkFailed, OpenFriend, OpenGame, OpenLab, OpenLearn,
                       OpenNetworkGame, OpenPuzzles, OpenStart, OpenUnfinished, ReviewGame)
from .screens.unfinished import UnfinishedScreen
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
                 ask_how: bool = False, syzygy: str | None = None, unfinished: bool = False) -> None:
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
        #: ``tui-games continue``: the list of the unfinished games over the start screen.
        self.initial_unfinished = unfinished
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
            if self.initial_unfinished:
                self.open_unfinished()
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
        """The start screen, with Continue when games were left unfinished (a file that cannot be
        read is said in its notice line)."""
        kept, problems = kept_games()
        if problems:
            self.settings_problems = [*self.settings_problems, *problems]
        return StartScreen(setup, kept)

    def autosave(self) -> None:
        """Keep the game being left, if it is unfinished and a person plays in it, among the unfinished
        games (:mod:`tui.unfinished`): a new game in an entry of its own, a continued one in its own
        entry again; a finished game removes its entry.  A spectator's game is never kept.  A file
        that cannot be written is said, and the app goes on."""
        screen = self._game_screen_below()
        if screen is None or not keeps(screen):
            return
        try:
            if screen.controller.outcome() is not None or not screen.played.tree.variations:
                if screen.kept_id is not None:
                    remove_kept(screen.kept_id)
                    screen.kept_id = None
                return
            kept = kept_of(screen, screen.kept_id)
            write_kept(kept)
            screen.kept_id = kept.id
        except (OSError, ValueError) as error:  # ValueError: a record the format refuses to write
            self.notify(f"the game could not be kept for Continue: {getattr(error, 'strerror', None) or error}",
                        severity="warning")

    @on(OpenUnfinished)
    def open_unfinished(self, message: OpenUnfinished | None = None) -> None:
        """The list of the unfinished games over the current screen (a file that cannot be read is
        moved aside and said in the list's line)."""
        self.push_screen(UnfinishedScreen(*kept_games()))

    @on(ForgetGame)
    def forget_game(self, message: ForgetGame) -> None:
        """Delete an unfinished game; the list shows what is left."""
        try:
            remove_kept(message.id)
        except OSError as error:
            self.notify(f"cannot delete it: {error.strerror or error}", severity="error")
        games, problems = kept_games()
        for screen in self.screen_stack:
            if isinstance(screen, UnfinishedScreen):
                screen.show(games, problems)
            elif isinstance(screen, StartScreen):
                screen.kept = games

    @on(ContinueGame)
    def continue_game(self, message: ContinueGame) -> None:
        """The unfinished game ``message.id``, as it stood, in place of the list and the screen below
        it: its players, whole tree, position, clocks and analysis.  Engines that waited for the
        player (a game reviewed or analysed) wait again: ctrl+b lets them play on.  A game that
        cannot be read or set up is said in one line."""
        try:
            kept = load_kept(kept_path(message.id))
            screen = self._game_screen(continued_setup(kept))
        except (KeptError, RecordError, SetupError, GameError, OSError) as error:
            self.notify(f"cannot continue: {str(error).splitlines()[0] if str(error) else error}", severity="error")
            return
        restore(screen, kept)
        self.engine_link.reset()
        if isinstance(self.screen, UnfinishedScreen):
            self.pop_screen()
        if isinstance(self.screen, (StartScreen, GameScreen)):
            self.autosave()
            self.switch_screen(screen)
        else:
            self.push_screen(screen)
        if screen.controller.paused and screen.controller.outcome() is None:
            self.call_after_refresh(screen.say, "continued where it stood — the engines wait: ctrl+b lets them play on")

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
            if screen.kept:
                yield SystemCommand("Continue", "the unfinished games: open one, or delete one", screen.action_continue)
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
