"""The settings screen: the board's theme, piece set (glyphs or letters), coordinates, a new game's clock and players,
and the folder of Syzygy endgame tables the engines read.

What it edits is :class:`tui.settings.Settings`, kept in a TOML file between
runs (:func:`tui.settings.save_settings`).  Save (ctrl+s) checks every field --
a clock that is not ``MIN+INC``, a player that is neither ``human``, a level nor
an engine spec, a tables folder no game reads tables from, is said in one line
and nothing is written -- then writes the file; Esc leaves without saving.  The
tables apply to the searches asked after (see :mod:`tui.app.engine_link`).  The board settings apply to the games opened
after; the players and the clock fill the start screen.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select, Static

from games import GAME_NAMES
from games.clock import TimeControl

from ...served import OutsideError, confined
from ...settings import THEMES, Settings, save_settings, settings_path, tables_problem
from ..keymap import screen_bindings
from ..session import DEFAULT_PLAYERS, SetupError, resolve_player

__all__ = ["SettingsScreen"]

#: The piece sets offered: the glyph sets, and letters.
PIECE_CHOICES = [("solid glyphs", "solid"), ("outlined glyphs (hollow white)", "outlined"),
                 ("letters (ASCII)", "letters")]


class SettingsScreen(Screen[Settings | None]):
    """Edit the settings; dismissed with the saved settings, or ``None`` (see the module doc)."""

    BINDINGS = screen_bindings("SettingsScreen", back="cancel")

    DEFAULT_CSS = """
    SettingsScreen #settings { padding: 1 2 0 2; }
    SettingsScreen #settings-form {
        grid-size: 2; grid-columns: 24 1fr; grid-rows: auto; grid-gutter: 1 1; height: auto;
    }
    SettingsScreen #settings-form > Label { color: $accent; }
    SettingsScreen .players { height: auto; }
    SettingsScreen .players Input { width: 1fr; margin-right: 1; background: $boost; }
    SettingsScreen #settings-clock { width: 30; background: $boost; }
    SettingsScreen #settings-syzygy { width: 1fr; background: $boost; }
    SettingsScreen #settings-error { color: $error; height: auto; margin: 1 0; }
    SettingsScreen #settings-buttons { height: auto; }
    SettingsScreen #settings-buttons Button { margin-right: 2; }
    """

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings

    def compose(self) -> ComposeResult:
        settings = self.settings
        with VerticalScroll(id="settings"):
            yield Static(f"[b]Settings[/b] — kept in {settings_path()}; the board's apply to the next game.",
                         id="settings-title")
            with Grid(id="settings-form"):
                yield Label("Board theme")
                yield Select([(name, name) for name in THEMES], value=settings.theme, allow_blank=False,
                             id="settings-theme", compact=True)
                yield Label("Pieces")
                yield Select(PIECE_CHOICES, value="letters" if settings.ascii else settings.pieces,
                             allow_blank=False, id="settings-pieces", compact=True)
                yield Label("Coordinates")
                yield Checkbox("around the board", settings.coordinates, id="settings-coordinates",
                               compact=True)
                yield Label("Clock of a new game")
                yield Input(settings.clock, placeholder="none, or MIN+INC: 5+3", id="settings-clock",
                            compact=True)
                for game in GAME_NAMES:
                    first, second = settings.players.get(game, DEFAULT_PLAYERS)
                    yield Label(f"Players, {game}")
                    with Horizontal(classes="players"):
                        yield Input(first, id=f"settings-{game}-0", compact=True,
                                    placeholder="first: human, a level or an engine spec")
                        yield Input(second, id=f"settings-{game}-1", compact=True,
                                    placeholder="second: human, a level or an engine spec")
                yield Label("Syzygy tables")
                yield Input(settings.syzygy, id="settings-syzygy", compact=True,
                            placeholder="none, or the folder of .rtbw/.rtbz files: pvs plays those endings perfectly")
            yield Static("", id="settings-error", markup=False)
            with Horizontal(id="settings-buttons"):
                yield Button("Save", id="settings-save", variant="primary", compact=True)
                yield Button("Cancel", id="settings-cancel", compact=True)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#settings-theme", Select).focus()

    def _value(self, selector: str) -> str:
        return self.query_one(selector, Input).value.strip()

    def gathered(self) -> Settings:
        """The settings the form holds; :class:`SetupError` names the first bad field."""
        clock = self._value("#settings-clock")
        if clock and clock.lower() != "none":
            try:
                TimeControl.parse(clock)
            except ValueError as error:
                raise SetupError(f"clock: {error}") from None
        else:
            clock = ""
        players = {}
        for game in GAME_NAMES:
            chosen = []
            for side in (0, 1):
                text = self._value(f"#settings-{game}-{side}") or "human"
                try:
                    resolve_player(text, game)  # a bad spec or level: SetupError in one line
                except SetupError as error:
                    raise SetupError(f"players, {game}, {('first', 'second')[side]}: "
                                     f"{str(error).splitlines()[0][:160]}") from None
                chosen.append(text)
            players[game] = (chosen[0], chosen[1])
        syzygy = self._value("#settings-syzygy")
        if syzygy:
            try:
                confined(syzygy)  # a served app: only inside its folder
            except OutsideError as outside:
                raise SetupError(f"Syzygy tables: {outside}") from None
            problem = tables_problem(syzygy)
            if problem is not None:
                raise SetupError(f"Syzygy tables: {problem}")
        theme = self.query_one("#settings-theme", Select).value
        pieces = str(self.query_one("#settings-pieces", Select).value)
        ascii = pieces == "letters"
        return Settings(str(theme), ascii, self.query_one("#settings-coordinates", Checkbox).value, clock, players,
                        self.settings.pieces if ascii else pieces, self.settings.turned, self.settings.advanced,
                        syzygy)

    def action_save(self) -> None:
        error = self.query_one("#settings-error", Static)
        try:
            settings = self.gathered()
        except SetupError as problem:
            error.update(str(problem))
            return
        try:
            save_settings(settings)
        except OSError as problem:
            error.update(f"cannot write {settings_path()}: {problem.strerror or problem}")
            return
        self.dismiss(settings)

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#settings-save")
    def _save_pressed(self) -> None:
        self.action_save()

    @on(Button.Pressed, "#settings-cancel")
    def _cancel_pressed(self) -> None:
        self.action_cancel()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_save()
