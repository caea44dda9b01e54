"""The start screen: pick the game, who plays each side, and where to start.

Each side is a preset (Human, or an engine with its usual options) copied into
a spec box that can be edited freely (``alphabeta:depth=5,heuristic=material``);
the line under it lists the engine's options and their defaults.  A clock
(``5+3``) and an analysis engine are optional.  Start (or
Enter in any box) checks everything and opens the game, or says in one line
what is wrong.
"""

from __future__ import annotations

from dataclasses import replace

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from games import GAME_NAMES, game_kind, game_titles

from ...settings import Settings, problems_text
from ..messages import OpenGame, OpenLab, OpenPuzzles
from ..session import HUMAN, GameSetup, SetupError, engine_summary, level_summary, presets_for, side_names

__all__ = ["StartScreen"]

class StartScreen(Screen):
    """Choose a game and its players; Start opens the game screen."""

    BINDINGS = [
        Binding("f10", "start", "Start"),
        Binding("ctrl+s", "start", "Start", show=False),
        Binding("ctrl+l", "lab", "Lab"),
        Binding("f2", "settings", "Settings"),
    ]

    def __init__(self, setup: GameSetup | None = None) -> None:
        super().__init__()
        #: The form's first contents: a game's own (a rematch, New), else the settings' (on mount).
        self.given = setup is not None
        self.setup = setup or GameSetup(GAME_NAMES[0])
        #: The game the form is filled in for (a change of game refills it).
        self._game_shown = self.setup.game

    def compose(self) -> ComposeResult:
        clock = "" if self.setup.clock is None else str(self.setup.clock)
        settings: Settings | None = getattr(self.app, "settings", None)
        if not self.given and settings is not None:  # a first screen: the players and clock last chosen
            self.setup = replace(self.setup, players=settings.players.get(self.setup.game, self.setup.players))
            clock = settings.clock
        with VerticalScroll(id="start", can_focus=False):
            yield Static(f"[b]tui-games[/b] — {game_titles()} against minimax engines "
                         "whose search you can watch.  [dim]Tab moves between the fields; Enter "
                         "starts.[/dim]", id="title")
            with Grid(id="start-form"):
                yield Label("Game")
                yield Select([(name.capitalize(), name) for name in GAME_NAMES],
                             value=self.setup.game, allow_blank=False, id="game", compact=True)
                for side in (0, 1):
                    yield Label("", id=f"side-label-{side}")
                    with Vertical(classes="player"):
                        with Horizontal(classes="player-row"):
                            yield Select(
                                presets_for(self.setup.game),
                                value=self._preset_for(self.setup.game, self.setup.players[side]),
                                allow_blank=True, prompt="custom", id=f"preset-{side}", compact=True,
                            )
                            yield Input(self.setup.players[side], id=f"spec-{side}",
                                        placeholder="human, or an engine spec like pvs:time=2", compact=True)
                        yield Static("", id=f"about-{side}", classes="about")
                yield Label("Position")
                with Vertical(classes="player"):
                    yield Input(self.setup.position or "", id="position",
                                placeholder="empty: the standard start", compact=True)
                    yield Static("", id="position-hint", classes="about")
                yield Label("Clock, analysis")
                with Horizontal(classes="player-row"):
                    yield Input(clock, id="clock",
                                placeholder="clock: none, or MIN+INC: 5+3", compact=True)
                    yield Input(self.setup.analysis or "", id="analysis",
                                placeholder="analysis: off, or an engine (pvs)", compact=True)
            yield Static("", id="start-error", markup=False)
            yield Static("", id="start-notice", markup=False, classes="about")
            with Horizontal(id="start-buttons"):
                yield Button("Start", id="start-button", variant="primary", compact=True)
                yield Button("Puzzles", id="puzzles-button", compact=True)
                yield Button("Settings", id="settings-button", compact=True)
                yield Button("Lab", id="lab-button", compact=True)
                yield Button("Quit", id="quit-button", compact=True)
        yield Footer(compact=True)

    @staticmethod
    def _preset_for(game: str, spec: str) -> str | object:
        for _label, preset in presets_for(game):
            if preset == spec:
                return preset
        return Select.NULL

    def on_mount(self) -> None:
        self.title = "tui-games"
        self.sub_title = "new game"
        problems = getattr(self.app, "settings_problems", [])
        self._describe()
        self._notice(problems_text(problems))
        self.query_one("#start-button", Button).focus()

    def _notice(self, text: str) -> None:
        """A line about the settings that stays while the form is edited (none: no line at all)."""
        notice = self.query_one("#start-notice", Static)
        notice.update(text)
        notice.display = bool(text)

    def _fill_from_settings(self, clock: bool = True) -> None:
        """The players last chosen for the game picked, and the settings' clock."""
        settings = getattr(self.app, "settings", None)
        if settings is None:
            return
        chosen = settings.players.get(self.game)  # none remembered: what is typed stays
        if chosen is not None:
            for side in (0, 1):
                self.query_one(f"#spec-{side}", Input).value = chosen[side]
            self._offer_presets()
        if clock:
            self.query_one("#clock", Input).value = settings.clock

    # -- keeping the form consistent -------------------------------------------

    @property
    def game(self) -> str:
        return str(self.query_one("#game", Select).value)

    def _describe(self) -> None:
        names = side_names(self.game)
        first = ("first", "second")
        for side in (0, 1):
            self.query_one(f"#side-label-{side}", Label).update(f"{names[side]} ({first[side]})")
            spec = self.query_one(f"#spec-{side}", Input).value.strip()
            if spec.lower() == HUMAN:
                about = "types moves on the keyboard"
            else:
                level = level_summary(self.game, spec)
                summary = engine_summary(spec, self.game)
                about = summary if level is None else f"{level}\n{summary}"
            self.query_one(f"#about-{side}", Static).update(about)
        self.query_one("#position-hint", Static).update(game_kind(self.game).position_hint)

    @on(Select.Changed, "#game")
    def _game_changed(self, event: Select.Changed) -> None:
        if event.select.has_focus:  # picked (by the mouse too): Enter now starts, not reopens the list
            self.query_one("#start-button", Button).focus()
        if event.value != self._game_shown:
            # Another game: the old position means nothing to it, nor the old players.
            self._game_shown = str(event.value)
            self.query_one("#position", Input).value = ""
            self._fill_from_settings(clock=False)
        self._offer_presets()
        self._form_changed()

    @on(Select.Changed, "#preset-0, #preset-1")
    def _preset_changed(self, event: Select.Changed) -> None:
        if event.select.has_focus:  # picked: Enter now starts, not reopens the list
            self.query_one("#start-button", Button).focus()
        if event.value is not Select.NULL:
            side = (event.select.id or "").removeprefix("preset-")
            spec_box = self.query_one(f"#spec-{side}", Input)
            if spec_box.value != event.value:
                spec_box.value = str(event.value)
        self._form_changed()

    def _form_changed(self) -> None:
        self.query_one("#start-error", Static).update("")  # the error was about the old form
        self._describe()

    def _offer_presets(self) -> None:
        """The choices of the game now picked (its levels and their ratings)."""
        for side in (0, 1):
            preset = self.query_one(f"#preset-{side}", Select)
            spec = self.query_one(f"#spec-{side}", Input).value.strip()
            with self.prevent(Select.Changed):
                preset.set_options(presets_for(self.game))
                preset.value = self._preset_for(self.game, spec)

    @on(Input.Changed, "#spec-0, #spec-1")
    def _spec_changed(self, event: Input.Changed) -> None:
        side = (event.input.id or "").removeprefix("spec-")
        preset = self.query_one(f"#preset-{side}", Select)
        value = self._preset_for(self.game, event.value.strip())
        if preset.value != value:
            preset.value = value

    @on(Input.Changed)
    def _text_changed(self) -> None:
        self._form_changed()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_start()

    @on(Button.Pressed, "#start-button")
    def _start_pressed(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#lab-button")
    def _lab_pressed(self) -> None:
        self.action_lab()

    @on(Button.Pressed, "#puzzles-button")
    def _puzzles_pressed(self) -> None:
        self.action_puzzles()

    def action_puzzles(self) -> None:
        """The puzzles of the game picked (its shipped set)."""
        from engines.puzzles import PuzzleError, shipped_puzzles

        try:
            puzzles = shipped_puzzles(self.game)
        except PuzzleError as error:
            self.query_one("#start-error", Static).update(str(error))
            return
        if not puzzles:
            self.query_one("#start-error", Static).update(f"{self.game} ships no puzzles yet")
            return
        self.post_message(OpenPuzzles(self.game, puzzles, "the shipped set"))

    @on(Button.Pressed, "#settings-button")
    def _settings_pressed(self) -> None:
        self.action_settings()

    def action_settings(self) -> None:
        """The settings screen; what it saves fills this form."""
        from .settings import SettingsScreen

        def saved(settings: Settings | None) -> None:
            if settings is None:
                return
            self.app.settings = settings  # type: ignore[attr-defined]
            self.app.settings_problems = []  # type: ignore[attr-defined]
            self._fill_from_settings()
            self._form_changed()
            self._notice("settings saved")

        self.app.push_screen(SettingsScreen(self.app.settings), saved)  # type: ignore[attr-defined]

    @on(Button.Pressed, "#quit-button")
    def _quit_pressed(self) -> None:
        self.app.exit()

    def action_lab(self) -> None:
        """The lab: experiments and tournaments."""
        self.post_message(OpenLab())

    # -- start -------------------------------------------------------------------

    def action_start(self) -> None:
        try:
            setup = GameSetup.checked(
                self.game,
                self.query_one("#spec-0", Input).value,
                self.query_one("#spec-1", Input).value,
                self.query_one("#position", Input).value,
                clock=self.query_one("#clock", Input).value,
                analysis=self.query_one("#analysis", Input).value.strip() or None,
            )
        except SetupError as error:
            self.query_one("#start-error", Static).update(str(error))
            return
        typed = (self.query_one("#spec-0", Input).value.strip(), self.query_one("#spec-1", Input).value.strip())
        self.app.remember_game(setup.game, typed, self.query_one("#clock", Input).value.strip())  # type: ignore[attr-defined]
        self.post_message(OpenGame(setup))
