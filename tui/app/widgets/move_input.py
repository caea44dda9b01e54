"""The move box: an Input that suggests legal moves as you type."""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from textual.binding import Binding, BindingType
from textual.suggester import Suggester
from textual.widgets import Input

__all__ = ["LegalMoveSuggester", "MoveInput"]


class LegalMoveSuggester(Suggester):
    """Completes what is typed to the first legal move that starts with it.

    Matching ignores case, so ``nf`` suggests ``Nf3`` and ``0 0 b`` suggests
    ``0 0 bottom``.  The right arrow (or End) takes the suggestion.
    """

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.moves: list[str] = []

    async def get_suggestion(self, value: str) -> str | None:
        return self.suggest(value)

    def suggest(self, value: str) -> str | None:
        typed = " ".join(value.split()).lower()
        if not typed:
            return None
        for move in self.moves:
            if move.lower().startswith(typed):
                return move
        return None


#: Input's editing keys the game screen takes for its commands (Delete, Home, End,
#: ctrl+u and the mouse still do what they did: delete right, go to either end,
#: delete all to the left, cut/kill; moves are short words).
GAME_KEYS = frozenset({"ctrl+a", "ctrl+d", "ctrl+e", "ctrl+k", "ctrl+w", "ctrl+x"})


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


class MoveInput(Input, inherit_bindings=False):
    """Where a human types moves; ``set_moves`` tells it the legal ones.

    It keeps Input's editing keys except :data:`GAME_KEYS`, which reach the
    game screen's commands even while the box has the focus."""

    BINDINGS = _without_game_keys(Input.BINDINGS)

    DEFAULT_CSS = """
    MoveInput {
        width: 1fr;
    }
    """

    def __init__(self, *, placeholder: str = "", id: str | None = None) -> None:
        self._suggester = LegalMoveSuggester()
        super().__init__(placeholder=placeholder, suggester=self._suggester, id=id, compact=True,
                         select_on_focus=False)

    def set_moves(self, moves: Sequence[str]) -> None:
        """The legal moves of the position (texts), for suggestions.

        What is already typed gets the suggestion of the new position at once
        (Input only asks its suggester when the value changes).
        """
        self._suggester.moves = list(moves)
        self._suggestion = self._suggester.suggest(self.value) or ""
