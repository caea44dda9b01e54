"""Letters typed where they mean nothing go to the move box.

The move list (in review) and the board (after a move made with its keyboard
cursor) hold the focus but take only a few keys; a move typed there was lost
without a word.  On a screen with a move box (the widget's ``forward_typing``
set: elsewhere a letter may be the screen's own key), :func:`forward_typing`
posts a printable key that the focused widget does not bind as
:class:`TypedAway`; the screen hands it to its move box
(:meth:`MoveEntry.take_typing <tui.app.widgets.move_entry.MoveEntry.take_typing>`),
which takes the focus with the letter in it, so the move is made in the position
shown -- in review, a variation from there.
"""

from __future__ import annotations

from typing import Iterable

from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widget import Widget

__all__ = ["TypedAway", "bound_keys", "forward_typing"]


class TypedAway(Message):
    """A printable ``character`` typed in a widget that has no use for it."""

    def __init__(self, character: str) -> None:
        super().__init__()
        self.character = character


def bound_keys(bindings: Iterable[BindingType]) -> frozenset[str]:
    """The keys ``bindings`` bind (``"enter,space"`` is two)."""
    keys: set[str] = set()
    for binding in bindings:
        key = binding.key if isinstance(binding, Binding) else binding[0]
        keys.update(part.strip() for part in key.split(","))
    return frozenset(keys)


def forward_typing(widget: Widget, event: events.Key, bound: frozenset[str]) -> None:
    """Post ``event``'s character from ``widget`` as :class:`TypedAway` when the widget's
    ``forward_typing`` is set, the key is printable and ``widget`` does not bind it (the
    event then goes no further: neither the screen's nor the app's keys see it)."""
    if not getattr(widget, "forward_typing", False):
        return
    if event.is_printable and event.character and event.key not in bound:
        event.stop()
        event.prevent_default()
        widget.post_message(TypedAway(event.character))
