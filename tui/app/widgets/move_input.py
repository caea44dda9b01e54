"""The game screen's move box: a :class:`~tui.app.widgets.move_entry.MoveEntry` that leaves
some editing keys to the game's commands."""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from textual.binding import Binding, BindingType
from textual.widgets import Input

from .move_entry import LegalMoveSuggester, MoveEntry

__all__ = ["GAME_KEYS", "LegalMoveSuggester", "MoveInput"]

#: Input's editing keys the game screen takes for its commands (Delete, Home, End,
#: ctrl+u and the mouse still do what they did: delete right, go to either end,
#: delete all to the left, cut/kill, paste; moves are short words).
GAME_KEYS = frozenset({"ctrl+a", "ctrl+d", "ctrl+e", "ctrl+k", "ctrl+v", "ctrl+w", "ctrl+x"})


def _without_game_keys(bindings: Sequence[BindingType]) -> list[BindingType]:
    kept: list[BindingType] = []
    for binding in bindings:
        if not isinstance(binding, Binding):
            kept.append(binding)
            continue
        keys = [key for key in binding.key.split(",") if key.strip() not in GAME_KEYS]
        if keys:
            kept.append(replace(binding, key=",".join(keys)))
    return kept


class MoveInput(MoveEntry, inherit_bindings=False):
    """Where a human types (or clicks) moves in a game; ``set_moves`` tells it the legal ones.

    It keeps Input's editing keys except :data:`GAME_KEYS`, which reach the
    game screen's commands even while the box has the focus."""

    BINDINGS = _without_game_keys(Input.BINDINGS)

    DEFAULT_CSS = """
    MoveInput {
        width: 1fr;
    }
    """

    def __init__(self, *, placeholder: str = "", id: str | None = None) -> None:
        super().__init__(placeholder=placeholder, id=id, select_on_focus=False,
                         picked="{square}: {targets} — click one, or the piece again to put it back",
                         cancelled="no move made")
