"""Letters typed where they mean nothing go to the move box.

The move list (in review) and the board (after a move made with its keyboard
cursor) hold the focus but take only a few keys; a move typed there was lost
without a word.  A screen with a move box hands the widget the box's
:meth:`take_typing <tui.app.widgets.move_entry.MoveEntry.take_typing>` as its
``typing_goes_to`` (attributes down; elsewhere it stays ``None``, a letter
there being the screen's own key), and :func:`forward_typing` gives it every
printable key the widget does not bind: the box takes the focus with the
letter in it, so the move is made in the position shown -- in review, a
variation from there.
"""

from __future__ import annotations

from typing import Callable, Iterable

from textual import events
from textual.binding import Binding, BindingType

__all__ = ["TypingTarget", "bound_keys", "forward_typing"]

#: Where a widget sends the letters it does not bind (a move box's ``take_typing``).
TypingTarget = Callable[[str], None]


def bound_keys(bindings: Iterable[BindingType]) -> frozenset[str]:
    """The keys ``bindings`` bind (``"enter,space"`` is two)."""
    keys: set[str] = set()
    for binding in bindings:
        key = binding.key if isinstance(binding, Binding) else binding[0]
        keys.update(part.strip() for part in key.split(","))
    return frozenset(keys)


def forward_typing(target: TypingTarget | None, event: events.Key, bound: frozenset[str]) -> None:
    """Give ``event``'s character to ``target`` when there is one, the key is printable and
    not in ``bound`` (the event then goes no further: neither the screen's nor the app's keys
    see it)."""
    if target is not None and event.is_printable and event.character and event.key not in bound:
        event.stop()
        event.prevent_default()
        target(event.character)
