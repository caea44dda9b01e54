"""The start screen: the game, whom to play against, your colour and the clock.

A player sees four choices: the game; the opponent -- the game's levels by
name with their rating rounded (``Club · ~1500``), or Human, a friend at the
same keyboard; the colour (the game's first or second side, or random); and a
clock preset (``5+3``: five minutes, three seconds a move).  The middle level is
the first run's opponent, and Start has the focus: Enter plays.

The **Advanced** part, shown or hidden by its checkbox (remembered in the
settings), holds what the lab user wants: each side's engine from a list of
presets copied into a spec box that can be edited freely
(``alphabeta:depth=5,heuristic=material``) with the engine's words and options
for this game under it, a start position, any clock (``MIN+INC``) and an
analysis engine.  The two parts are one form: the choices above write the spec
and clock boxes, and what is typed there shows above (a spec that is no level
leaves the opponent "custom").

**Continue** (shown when games were left unfinished, :mod:`tui.unfinished`)
asks the app for their list, to open or delete one.  Learn, Play a friend,
Puzzles, Lab, Settings and Quit sit in the button row under the form, which
stays on screen whatever the terminal's height.  Start (or Enter in any box)
checks everything and opens the game, or says in one line what is wrong.  The
focus goes in the form's order: Start first (Enter plays), Tab to the game,
down the form, then Continue and the other buttons.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Sequence

from textual import on
from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select, Static

from engines import ENGINES
from engines.registry import REFINEMENTS
from engines.levels import levels_for, rating_words
from games import GAME_NAMES, game_class, game_kind, game_titles

from ...unfinished import KeptGame
from ...views.format import default_text, plies_text
from ...settings import Settings, problems_text
from ..keymap import screen_bindings
from ..messages import OpenFriend, OpenGame, OpenLab, OpenLearn, OpenPuzzles, OpenUnfinished
from ..session import HUMAN, GameSetup, SetupError, level_of, level_summary, presets_for, rounded, side_names
from .unfinished import game_title

__all__ = ["CLOCK_PRESETS", "StartScreen", "engine_words", "level_choices"]

#: The clock presets (the value is the time control as typed; ``none``: no clock).
CLOCK_PRESETS: tuple[tuple[str, str], ...] = (
    ("no clock", "none"), ("1+0 bullet", "1+0"), ("3+2 blitz", "3+2"), ("5+3 blitz", "5+3"),
    ("10+5 rapid", "10+5"), ("15+10 rapid", "15+10"),
)

#: The colour choices: the game's first side, its second, or either by chance.
COLOURS = ("first", "second", "random")

#: The ``pvs`` refinements' options, named in the words under a spec when they apply to the game.
REFINEMENT_NAMES = frozenset(option.name for option in REFINEMENTS if option.name != "predict")

#: What a human player does, in the opponent list and under a side's spec.
HUMAN_WORDS = "type or click moves"


def level_choices(game: str) -> list[tuple[str, str]]:
    """The opponents offered for ``game``: its levels, weakest first (``Club · ~1500``), then Human."""
    choices = [(f"{level.name.capitalize()} · {rounded(level)}", level.name) for level in levels_for(game)]
    return choices + [(f"Human · a friend here, both {HUMAN_WORDS}", HUMAN)]


def middle_level(game: str) -> str:
    """The first run's opponent: ``game``'s middle level."""
    levels = levels_for(game)
    return levels[len(levels) // 2].name


def engine_words(spec: str, game: str) -> str:
    """What the engine ``spec`` names is, in ``game``'s words: its summary, the refinements that mean
    something in this game (no check extension where nothing is ever in check), and its options."""
    name = spec.split(":", 1)[0].strip().lower()
    info = ENGINES.get(name)
    if info is None:
        return ""
    options = [option for option in info.options.values() if option.applies_to(game_class(game))]
    refinements = [option.help.split(":")[0] for option in options if option.name in REFINEMENT_NAMES]
    summary = info.summary + (f" ({', '.join(refinements)})" if refinements else "")
    listed = ", ".join(option.name if option.default is None else f"{option.name}={default_text(option)}"
                       for option in options)
    return f"{summary}\noptions: {listed}"


class StartScreen(Screen):
    """Choose a game and its players; Start opens the game screen (see the module doc)."""

    CSS_PATH = "start.tcss"
    BINDINGS = screen_bindings("StartScreen", new_game="start")

    def __init__(self, setup: GameSetup | None = None, kept: Sequence[KeptGame] = ()) -> None:
        super().__init__()
        #: The form's first contents: a game's own (a rematch, New), else the settings' (on mount).
        self.given = setup is not None
        self.setup = setup or GameSetup(GAME_NAMES[0], (HUMAN, middle_level(GAME_NAMES[0])))
        #: The game the form is filled in for (a change of game refills it).
        self._game_shown = self.setup.game
        #: The games left unfinished, last played first, that Continue lists (none: no Continue).
        self.kept = list(kept)

    def compose(self) -> ComposeResult:
        clock = "" if self.setup.clock is None else str(self.setup.clock)
        settings: Settings | None = getattr(self.app, "settings", None)
        if not self.given and settings is not None:  # a first screen: the players and clock last chosen
            self.setup = replace(self.setup, players=settings.players.get(self.setup.game, self.setup.players))
            clock = settings.clock
        advanced = settings is not None and settings.advanced
        game = self.setup.game
        with VerticalScroll(id="start", can_focus=False):
            yield Static(f"[b]tui-games[/b] — {game_titles()}.  [dim]Tab moves between the fields; "
                         "Enter starts.[/dim]", id="title")
            with Grid(id="start-plain"):
                yield Label("Game")
                yield Select([(name.capitalize(), name) for name in GAME_NAMES],
                             value=game, allow_blank=False, id="game", compact=True)
                yield Label("Play against")
                yield Select(level_choices(game), allow_blank=True, prompt="custom (Advanced)",
                             id="opponent", compact=True)
                yield Label("You play")
                yield Select(self._colour_choices(game), value="first", allow_blank=False, id="colour",
                             compact=True)
                yield Label("Clock")
                yield Select(CLOCK_PRESETS, allow_blank=True, prompt="custom (Advanced)", id="clock-preset",
                             compact=True)
            yield Static("", id="opponent-about", classes="about")
            yield Checkbox("Advanced: engines and their options, a start position, analysis", advanced,
                           id="advanced", compact=True)
            with Grid(id="start-form", classes="" if advanced else "-hidden"):
                for side in (0, 1):
                    yield Label("", id=f"side-label-{side}")
                    with Vertical(classes="player"):
                        with Horizontal(classes="player-row"):
                            yield Select(
                                presets_for(game), value=self._preset_for(game, self.setup.players[side]),
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
                    yield Input(clock, id="clock", placeholder="clock: none, or MIN+INC: 5+3", compact=True)
                    yield Input(self.setup.analysis or "", id="analysis",
                                placeholder="analysis: off, or an engine (pvs)", compact=True)
        with Vertical(id="start-bottom"):
            yield Static("", id="start-error", markup=False)
            yield Static("", id="start-notice", markup=False, classes="about")
            if self.kept:
                yield Button(self._continue_label(self.kept), id="continue-button", compact=True)
            with Horizontal(id="start-buttons"):
                yield Button("Start", id="start-button", variant="primary", compact=True)
                yield Button("Learn", id="learn-button", compact=True)
                yield Button("Play a friend", id="friend-button", compact=True)
                yield Button("Puzzles", id="puzzles-button", compact=True)
                yield Button("Lab", id="lab-button", compact=True)
                yield Button("Settings", id="settings-button", compact=True)
                yield Button("Quit", id="quit-button", compact=True)
        yield Footer(compact=True)

    @staticmethod
    def _colour_choices(game: str) -> list[tuple[str, str]]:
        first, second = side_names(game)
        return [(f"{first} (moves first)", "first"), (second, "second"), ("random", "random")]

    @staticmethod
    def _continue_label(kept: Sequence[KeptGame]) -> str:
        """``Continue: 2 unfinished games (last: Chess against Beginner, 14 moves)``."""
        last = kept[0]
        humans = [side for side in (0, 1) if last.specs[side] == HUMAN]
        if len(humans) == 2:
            against = "a friend"
        elif humans:
            other = last.players[1 - humans[0]]
            level = level_of(last.game, other)
            against = level.name.capitalize() if level is not None else other
        else:
            against = " and ".join(last.players)
        games = "1 unfinished game" if len(kept) == 1 else f"{len(kept)} unfinished games"
        return (f"Continue: {games} (last: {game_title(last.game)} against {against}, "
                f"{plies_text(len(last.moves))})")

    @staticmethod
    def _preset_for(game: str, spec: str) -> str | object:
        level = level_of(game, spec)  # a level by name is its preset
        if level is not None:
            spec = level.spec
        for _label, preset in presets_for(game):
            if preset == spec:
                return preset
        return Select.NULL

    def on_mount(self) -> None:
        self.title = "tui-games"
        self.sub_title = "new game"
        problems = getattr(self.app, "settings_problems", [])
        self._describe()
        self._plain_from_specs()
        self._plain_clock()
        self._notice(problems_text(problems))
        self.query_one("#start", VerticalScroll).scroll_home(animate=False)
        self.query_one("#start-button", Button).focus()

    def on_screen_resume(self) -> None:
        """Back from the puzzles, the course, the lab, a friend's game or the unfinished games: Enter
        starts a game again (the button that opened them kept the focus, and Enter opened them again);
        Continue says what is left of the unfinished games."""
        for button in self.query("#continue-button").results(Button):
            button.display = bool(self.kept)
            if self.kept:
                button.label = self._continue_label(self.kept)
        if isinstance(self.focused, Button) and self.focused.id != "start-button" or self.focused is None:
            self.query_one("#start-button", Button).focus()

    @property
    def focus_chain(self) -> list[Widget]:
        """The form's order: Start (which has the focus at first), then the fields top to bottom, then
        Continue and the other buttons -- Tab from Start goes to the game, never to Learn."""
        chain = super().focus_chain
        return [widget for widget in chain if widget.id == "start-button"] + [
            widget for widget in chain if widget.id != "start-button"]

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

    def _specs(self) -> tuple[str, str]:
        return (self.query_one("#spec-0", Input).value.strip(), self.query_one("#spec-1", Input).value.strip())

    def _describe(self) -> None:
        names = side_names(self.game)
        first = ("first", "second")
        for side in (0, 1):
            self.query_one(f"#side-label-{side}", Label).update(f"{names[side]} ({first[side]})")
            spec = self._specs()[side]
            level = level_of(self.game, spec)
            if spec.lower() == HUMAN:
                about = HUMAN_WORDS
            elif level is not None:
                about = f"{level_summary(self.game, level.spec)}\n{engine_words(level.spec, self.game)}"
            else:
                about = engine_words(spec, self.game)
            self.query_one(f"#about-{side}", Static).update(about)
        self.query_one("#position-hint", Static).update(game_kind(self.game).position_hint)
        self.query_one("#opponent-about", Static).update(self._opponent_words())

    def _opponent_words(self) -> str:
        """One line under the opponent: the level's rating and its scale, or what a human does."""
        opponent = self.query_one("#opponent", Select).value
        if opponent == HUMAN:
            return f"two players at this keyboard: each {HUMAN_WORDS} in turn"
        if opponent is Select.NULL:
            return "an engine of your own: see Advanced"
        level = level_of(self.game, str(opponent))
        if level is None or level.elo is None:
            return ""
        return f"{level.name.capitalize()}: {rating_words(self.game, level)}"

    @on(Select.Changed, "#game")
    def _game_changed(self, event: Select.Changed) -> None:
        if event.select.has_focus_within:  # picked (the mouse leaves the focus in its list): Enter now starts
            self.query_one("#start-button", Button).focus()
        if event.value != self._game_shown:
            # Another game: the old position means nothing to it, nor the old players.
            self._game_shown = str(event.value)
            self.query_one("#position", Input).value = ""
            self._fill_from_settings(clock=False)
        with self.prevent(Select.Changed):
            for select, choices in ((self.query_one("#opponent", Select), level_choices(self.game)),
                                    (self.query_one("#colour", Select), self._colour_choices(self.game))):
                select.set_options(choices)
                # set_options picks the first choice, often of the same value as before ("first"): its
                # watcher would not run and the old game's words ("White (moves first)") would stay.
                select.mutate_reactive(Select.value)  # type: ignore[misc]  # the reactive, not a value
        self._offer_presets()
        self._plain_from_specs()
        self._form_changed()

    @on(Select.Changed, "#preset-0, #preset-1")
    def _preset_changed(self, event: Select.Changed) -> None:
        if event.select.has_focus_within:  # picked: Enter now starts, not reopens the list
            self.query_one("#start-button", Button).focus()
        if event.value is not Select.NULL:
            side = (event.select.id or "").removeprefix("preset-")
            spec_box = self.query_one(f"#spec-{side}", Input)
            if spec_box.value != event.value and self._preset_for(self.game, spec_box.value) != event.value:
                spec_box.value = str(event.value)
        self._form_changed()

    @on(Select.Changed, "#opponent, #colour")
    def _plain_changed(self, event: Select.Changed) -> None:
        """The opponent or colour picked: the spec boxes say the same."""
        if event.select.has_focus_within:  # picked (by the mouse too): Enter now starts
            self.query_one("#start-button", Button).focus()
        opponent = self.query_one("#opponent", Select).value
        if opponent is Select.NULL:
            return  # custom: the spec boxes are the Advanced part's
        human = 1 if self.query_one("#colour", Select).value == "second" else 0
        specs = [HUMAN, HUMAN]
        specs[1 - human] = str(opponent)
        for side in (0, 1):
            box = self.query_one(f"#spec-{side}", Input)
            if level_of(self.game, box.value) != level_of(self.game, specs[side]) or (
                    box.value.strip().lower() == HUMAN) != (specs[side] == HUMAN):
                box.value = specs[side]
        self._form_changed()

    def _plain_from_specs(self) -> None:
        """The opponent and colour the spec boxes amount to (a spec that is no level: custom)."""
        specs = self._specs()
        humans = [side for side in (0, 1) if specs[side].lower() == HUMAN]
        opponent_box, colour_box = self.query_one("#opponent", Select), self.query_one("#colour", Select)
        opponent: object = Select.NULL
        colour = colour_box.value
        if len(humans) == 2:
            opponent = HUMAN
        elif len(humans) == 1:
            level = level_of(self.game, specs[1 - humans[0]])
            if level is not None:
                opponent = level.name
                if not (colour == "random" and humans[0] == 0):
                    colour = COLOURS[humans[0]]
        with self.prevent(Select.Changed):
            if opponent_box.value != opponent:
                opponent_box.value = opponent
            if colour_box.value != colour:
                colour_box.value = colour

    def _plain_clock(self) -> None:
        """The clock preset the clock box is (none: custom)."""
        text = self.query_one("#clock", Input).value.strip() or "none"
        preset: object = text if any(value == text for _label, value in CLOCK_PRESETS) else Select.NULL
        box = self.query_one("#clock-preset", Select)
        if box.value != preset:
            with self.prevent(Select.Changed):
                box.value = preset

    @on(Select.Changed, "#clock-preset")
    def _clock_preset_changed(self, event: Select.Changed) -> None:
        if event.select.has_focus_within:  # picked (by the mouse too): Enter now starts
            self.query_one("#start-button", Button).focus()
        if event.value is not Select.NULL:
            text = "" if event.value == "none" else str(event.value)
            clock = self.query_one("#clock", Input)
            if clock.value.strip() != text:
                clock.value = text

    @on(Checkbox.Changed, "#advanced")
    def _advanced_changed(self, event: Checkbox.Changed) -> None:
        """Show or hide the Advanced part, and remember which for the next time."""
        self.query_one("#start-form", Grid).set_class(not event.value, "-hidden")
        keep = getattr(self.app, "keep", None)
        settings = getattr(self.app, "settings", None)
        if keep is not None and settings is not None:
            problem = keep(replace(settings, advanced=event.value))
            if problem:
                self._notice(problem)

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
        self._plain_from_specs()

    @on(Input.Changed, "#clock")
    def _clock_changed(self) -> None:
        self._plain_clock()

    @on(Input.Changed)
    def _text_changed(self) -> None:
        self._form_changed()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_start()

    # -- the buttons -------------------------------------------------------------

    @on(Button.Pressed, "#start-button")
    def _start_pressed(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#continue-button")
    def action_continue(self) -> None:
        """The list of the games left unfinished, to open or delete one."""
        self.post_message(OpenUnfinished())

    @on(Button.Pressed, "#learn-button")
    def action_learn(self) -> None:
        """The course in game search."""
        self.post_message(OpenLearn())

    @on(Button.Pressed, "#friend-button")
    def action_friend(self) -> None:
        """A game with a friend over the network."""
        self.post_message(OpenFriend())

    @on(Button.Pressed, "#lab-button")
    def action_lab(self) -> None:
        """The lab: experiments and tournaments."""
        self.post_message(OpenLab())

    @on(Button.Pressed, "#puzzles-button")
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

    # -- start -------------------------------------------------------------------

    def action_start(self) -> None:
        typed = self._specs()
        played = typed
        if self.query_one("#colour", Select).value == "random" and typed[0].lower() == HUMAN \
                and random.random() < 0.5:
            played = (typed[1], typed[0])  # the human plays the second side this time
        try:
            setup = GameSetup.checked(
                self.game, played[0], played[1], self.query_one("#position", Input).value,
                clock=self.query_one("#clock", Input).value,
                analysis=self.query_one("#analysis", Input).value.strip() or None,
            )
        except SetupError as error:
            self.query_one("#start-error", Static).update(str(error))
            return
        self.app.remember_game(setup.game, typed, self.query_one("#clock", Input).value.strip())  # type: ignore[attr-defined]
        self.post_message(OpenGame(setup))
