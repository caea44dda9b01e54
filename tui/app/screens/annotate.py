"""The analysis board's two small dialogs: a move's comment, and its mark (a NAG).

:class:`CommentDialog` edits the comment after a move (an empty one removes
it) and is dismissed with the text, or ``None`` when cancelled;
:class:`MarkDialog` offers the six move marks every reader knows (``!``,
``?``, ``!!``, ``??``, ``!?``, ``?!``) and "none", and is dismissed with the
NAG's number as text (``"0"``: none), or ``cancel``.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label

from games.variations import NAG_GLYPHS

from .dialogs import Dialog, GuardedDialog

__all__ = ["CommentDialog", "MarkDialog"]


class CommentDialog(Dialog["str | None"]):
    """The comment after ``move``: Enter keeps what is typed, Escape leaves it as it was."""

    DEFAULT_CSS = """
    CommentDialog { align: center middle; }
    CommentDialog > Vertical {
        width: 70; max-width: 95%; height: auto;
        border: thick $accent; background: $surface; padding: 1 2;
    }
    CommentDialog Label { text-style: bold; margin-bottom: 1; }
    CommentDialog Horizontal { height: auto; width: auto; margin-top: 1; }
    CommentDialog Button { margin: 0 1 0 0; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    AUTO_FOCUS = "#comment"

    def __init__(self, move: str, comment: str) -> None:
        super().__init__()
        self.move = move
        self.comment = comment

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"Comment on {self.move} (empty: none)")
            yield Input(self.comment, id="comment", placeholder="a few words on the move")
            with Horizontal():
                yield Button("Keep", id="keep", variant="primary")
                yield Button("Cancel", id="cancel")

    @on(Input.Submitted)
    def submitted(self) -> None:
        self.dismiss(self.query_one("#comment", Input).value.strip())

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "keep":
            self.submitted()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class MarkDialog(GuardedDialog):
    """The mark of ``move``: one of the six, or none."""

    DEFAULT_CSS = """
    MarkDialog .marks Button { min-width: 6; width: 6; }
    """
    AUTO_FOCUS = "#cancel"

    def __init__(self, move: str) -> None:
        super().__init__()
        self.move = move

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"Mark {self.move} as", classes="question")
            with Horizontal(classes="marks"):
                for nag, glyph in NAG_GLYPHS.items():
                    yield Button(glyph, id=f"nag-{nag}")
                yield Button("none", id="nag-0")
            with Horizontal():
                yield Button("Cancel", id="cancel", variant="primary")

    def answer(self, button: Button) -> str:
        return (button.id or "cancel").removeprefix("nag-")
