"""Saving and opening games: the dialogs that ask for a file."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, Static

from games.reading import LoadedGame, load_record_file
from games.records import EXTENSIONS, RecordError, save_record

from .dialogs import Dialog

__all__ = ["OpenDialog", "SaveDialog", "game_for_path"]

_FILE_DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 76; max-width: 100%; height: auto; border: thick $accent; background: $surface; padding: 1 2;
}}
{name} .file-error {{ color: $error; height: auto; }}
{name} Input {{ margin: 1 0 0 0; }}
"""


def game_for_path(path: str, default: str) -> str:
    """The game a record file holds, by its extension (``.pgn`` chess, ``.pdn``
    checkers, ``.txt`` Quixo), else ``default``."""
    suffix = Path(path).suffix.lower().lstrip(".")
    for game, extension in EXTENSIONS.items():
        if suffix == extension:
            return game
    return default


class SaveDialog(Dialog["Path | None"]):
    """Ask where to save the game; never overwrites a file."""

    DEFAULT_CSS = _FILE_DIALOG_CSS.format(name="SaveDialog")
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, default_path: str, text: str, what: str) -> None:
        super().__init__()
        self.default_path = default_path
        self.text = text
        self.what = what

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"Save the game as {self.what} — Enter saves, Escape cancels")
            yield Input(self.default_path, id="save-path")
            yield Static("", id="save-error", classes="file-error", markup=False)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_one("#save-error", Static).update("")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        path = event.value.strip()
        if not path:
            self.query_one("#save-error", Static).update("type a file name")
            return
        try:
            saved = save_record(Path(path).expanduser(), self.text)
        except (OSError, ValueError) as error:
            message = str(error).splitlines()[0] if str(error) else type(error).__name__
            self.query_one("#save-error", Static).update(message)
            return
        self.dismiss(saved.resolve())


class OpenDialog(Dialog[tuple[LoadedGame, Path] | None]):
    """Ask for a record file (and which of its games) and read it.

    The game is told by the file's extension (``.pgn``, ``.pdn``, ``.txt``),
    else it is the game being played.  Dismissed with the game read and its
    path, or ``None``; a file that cannot be read is explained in one line and
    the dialog stays.
    """

    DEFAULT_CSS = _FILE_DIALOG_CSS.format(name="OpenDialog") + """
    OpenDialog Horizontal { height: auto; }
    OpenDialog #open-number { width: 12; margin-left: 2; }
    """
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, game_name: str) -> None:
        super().__init__()
        self.game_name = game_name

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Open a game: a PGN (.pgn), PDN (.pdn) or Quixo record (.txt) — "
                        "Enter opens, Escape cancels")
            with Horizontal():
                yield Input("", id="open-path", placeholder="path of the file")
                yield Input("1", id="open-number", placeholder="game", type="integer")
            yield Static("", id="open-error", classes="file-error", markup=False)

    def on_mount(self) -> None:
        self.query_one("#open-path", Input).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_one("#open-error", Static).update("")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        error = self.query_one("#open-error", Static)
        path = self.query_one("#open-path", Input).value.strip()
        number = self.query_one("#open-number", Input).value.strip() or "1"
        if not path:
            error.update("type the path of a record file")
            return
        try:
            loaded, _count = load_record_file(path, game_for_path(path, self.game_name), int(number))
        except (RecordError, ValueError) as problem:
            error.update(str(problem).splitlines()[0])
            return
        self.dismiss((loaded, Path(path).expanduser().resolve()))
