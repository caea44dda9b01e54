"""The game screen's dialogs: the result, saving the game, help."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from games.records import save_record

__all__ = ["ResultDialog", "SaveDialog", "HelpDialog", "NOTATION_HELP"]

#: How to type a move, per game (the help dialog and the start screen).
NOTATION_HELP = {
    "chess": (
        "Type moves in SAN — e4, Nf3, exd5, O-O, e8=Q — or UCI — g1f3, e7e8q.\n"
        "Case matters for pieces (N is a knight, b a file); SAN check marks are optional."
    ),
    "checkers": (
        "Type moves with the PDN square numbers 1-32 shown on the board: 11-15 for a step,\n"
        "15x24 for a jump and 15x24x31 for a multiple jump (or just its start and end, 15x31,\n"
        "when that is unambiguous). Jumping is compulsory. Black (first) moves down the board."
    ),
    "quixo": (
        "Type COL ROW EDGE: take the border cube at that column and row (0-4, as labelled)\n"
        "— blank or yours — and push it back in at the top, bottom, left or right edge of its\n"
        "line (t, b, l, r work too): 0 0 bottom, 4 2 left. Five in a line wins; completing a\n"
        "line of the opponent's symbol loses."
    ),
}


class ResultDialog(ModalScreen[str]):
    """The game is over: who won and why; rematch, swap sides, new game or look at the board."""

    DEFAULT_CSS = """
    ResultDialog { align: center middle; }
    ResultDialog > Vertical {
        width: auto; max-width: 70; height: auto;
        border: thick $accent; background: $surface; padding: 1 2;
    }
    ResultDialog #result { text-style: bold; width: auto; margin-bottom: 1; }
    ResultDialog Horizontal { height: auto; width: auto; }
    ResultDialog Button { margin: 0 1 0 0; min-width: 12; }
    """
    BINDINGS = [Binding("escape", "dismiss('close')", "Close")]
    #: Focused when the dialog is shown (declared, not queried in ``on_mount``:
    #: a dialog pushed as the app shuts down may never get its children).
    AUTO_FOCUS = "#rematch"

    def __init__(self, result: str, detail: str) -> None:
        super().__init__()
        self.result = result
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.result, id="result")
            yield Label(self.detail, id="detail")
            with Horizontal():
                yield Button("Rematch", id="rematch", variant="primary")
                yield Button("Swap sides", id="swap")
                yield Button("New game", id="new")
                yield Button("Close", id="close")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id or "close")


class SaveDialog(ModalScreen["Path | None"]):
    """Ask where to save the game; never overwrites a file."""

    DEFAULT_CSS = """
    SaveDialog { align: center middle; }
    SaveDialog > Vertical {
        width: 70; height: auto; border: thick $accent; background: $surface; padding: 1 2;
    }
    SaveDialog #save-error { color: $error; height: auto; }
    SaveDialog Input { margin: 1 0; }
    """
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
            yield Static("", id="save-error", markup=False)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

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


class HelpDialog(ModalScreen[None]):
    """Keys and notation."""

    DEFAULT_CSS = """
    HelpDialog { align: center middle; }
    HelpDialog > VerticalScroll {
        width: 90; max-width: 100%; height: auto; max-height: 90%;
        border: thick $accent; background: $surface; padding: 1 2;
    }
    """
    BINDINGS = [Binding("escape,f1,q", "dismiss", "Close")]

    def __init__(self, game: str, keys: list[tuple[str, str]]) -> None:
        super().__init__()
        self.game = game
        self.keys = keys

    def compose(self) -> ComposeResult:
        lines = [f"[b]{self.game.capitalize()}: typing moves[/b]", NOTATION_HELP[self.game], "",
                 "Suggestions appear as you type; → (or End) takes one. '?' + Enter or F2 lists",
                 "every legal move. A wrong move is explained under the board and play goes on.", "",
                 "[b]Keys[/b]"]
        lines += [f"  [b]{key:<8}[/b] {what}" for key, what in self.keys]
        lines += ["", "Escape closes this help."]
        with VerticalScroll():
            yield Static("\n".join(lines))
