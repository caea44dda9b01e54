"""The game screen's small dialogs: the result, a question, a choice between moves.

Every dialog here is a :class:`GuardedDialog`: keys typed before it opened (or
in its first :attr:`GuardedDialog.GRACE` seconds, the tail of a burst typed at
the board) never land in it -- the app drops them -- and the arrow keys move
between its buttons.  A dialog opens on its harmless choice.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar, Sequence, TypeVar

from textual import events, on
from textual.await_complete import AwaitComplete
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label

__all__ = ["ChoiceDialog", "ConfirmDialog", "Dialog", "GuardedDialog", "ResultDialog"]

ResultType = TypeVar("ResultType")


async def _nothing() -> None:
    return None


class Dialog(ModalScreen[ResultType]):
    """A modal screen that is dismissed at most once, and only while it is on top.

    Textual's :meth:`~textual.screen.Screen.dismiss` pops whatever screen is on
    top, so a dialog dismissed twice (two handlers of one click, a key and a
    click in the same frame) would pop the game screen below it.  Every modal
    screen of the app derives from this class.
    """

    dismissed: bool = False

    def dismiss(self, result: Any = None) -> AwaitComplete:
        if self.dismissed or self.app.screen is not self:
            return AwaitComplete(_nothing())
        self.dismissed = True
        return super().dismiss(result)


class GuardedDialog(Dialog[str]):
    """A modal dialog of buttons that ignores keys typed before it was ready.

    It is dismissed with the id of the button pressed, or :attr:`ESCAPE_CHOICE`
    on Escape.
    """

    DEFAULT_CSS = """
    GuardedDialog { align: center middle; }
    GuardedDialog > Vertical {
        width: auto; max-width: 76; height: auto;
        border: thick $accent; background: $surface; padding: 1 2;
    }
    GuardedDialog .question { text-style: bold; width: auto; max-width: 70; margin-bottom: 1; }
    GuardedDialog .detail { width: auto; max-width: 70; margin-bottom: 1; }
    GuardedDialog Horizontal { height: auto; width: auto; }
    GuardedDialog Button { margin: 0 1 0 0; min-width: 10; }
    """
    BINDINGS = [
        Binding("escape", "escape", "Close"),
        Binding("left,up", "app.focus_previous", "Previous", show=False),
        Binding("right,down", "app.focus_next", "Next", show=False),
    ]
    #: Keys this many seconds after the dialog was made are still taken as typed before it.
    GRACE: ClassVar[float] = 0.3
    #: What Escape answers.
    ESCAPE_CHOICE: ClassVar[str] = "cancel"

    def __init__(self) -> None:
        super().__init__()
        #: When the dialog was made, on the clock Textual stamps events with
        #: (monotonic on POSIX; the app runs on POSIX terminals).
        self.opened_at = time.monotonic()

    def ignores(self, event: events.Key) -> bool:
        """Whether a key event was typed before the dialog was ready for it."""
        return event.time < self.opened_at + self.GRACE

    def answer(self, button: Button) -> str:
        """What pressing ``button`` answers: its id (subclasses may say otherwise)."""
        return button.id or self.ESCAPE_CHOICE

    def action_escape(self) -> None:
        self.dismiss(self.ESCAPE_CHOICE)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        # The one handler of every dialog's buttons: subclasses override answer(),
        # never this (Textual calls a handler of each class in the MRO, so a
        # subclass's own on_button_pressed would dismiss a second time).
        event.stop()
        self.dismiss(self.answer(event.button))


class ResultDialog(GuardedDialog):
    """The game is over: who won and why; look at the board, save, the report, rematch, swap, new game."""

    AUTO_FOCUS = "#review"
    ESCAPE_CHOICE = "review"

    def __init__(self, result: str, detail: str) -> None:
        super().__init__()
        self.result = result
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical():
            # plain text: a result's words may come from a record file or a network peer
            yield Label(self.result, id="result", classes="question", markup=False)
            yield Label(self.detail, id="detail", classes="detail", markup=False)
            with Horizontal():
                yield Button("Board", id="review", variant="primary")
                yield Button("Save", id="save")
                yield Button("Report", id="report")
                yield Button("Rematch", id="rematch")
                yield Button("Swap", id="swap")
                yield Button("New", id="new")


class ConfirmDialog(GuardedDialog):
    """A question with a few answers (``(id, label)``); the first one is focused
    and should be the harmless one."""

    def __init__(self, question: str, answers: Sequence[tuple[str, str]], detail: str = "",
                 topic: str = "") -> None:
        super().__init__()
        #: What the question is about ("quitting", "a new game"), for whoever asks again.
        self.topic = topic
        self.question = question
        self.answers = tuple(answers)
        self.detail = detail
        self.AUTO_FOCUS = f"#{self.answers[0][0]}"

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.question, classes="question", markup=False)
            if self.detail:
                yield Label(self.detail, classes="detail", markup=False)
            with Horizontal():
                for index, (answer, label) in enumerate(self.answers):
                    yield Button(label, id=answer, variant="primary" if index == 0 else "default")


class ChoiceDialog(GuardedDialog):
    """Pick one of several moves between the same two squares (a promotion piece,
    a checkers path); dismissed with the chosen move's index as text."""

    def __init__(self, question: str, labels: Sequence[str]) -> None:
        super().__init__()
        self.question = question
        self.labels = tuple(labels)
        self.AUTO_FOCUS = "#choice-0"

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.question, classes="question")
            with Horizontal():
                for index, label in enumerate(self.labels):
                    yield Button(label, id=f"choice-{index}")

    def answer(self, button: Button) -> str:
        return (button.id or "").removeprefix("choice-")
