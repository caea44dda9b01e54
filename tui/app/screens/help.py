"""Help for the game screen: the keys, the notation, the engine panel's figures; and the legal moves."""

from __future__ import annotations

from typing import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from engines.levels import about, levels_for
from games import game_kind

from .commands import COMMANDS
from .dialogs import Dialog

__all__ = ["HelpDialog", "MovesDialog", "PANEL_LEGEND", "move_columns"]

#: What the engine panel's figures mean.
PANEL_LEGEND = (
    ("nodes", "positions the search visited (nps: nodes per second)"),
    ("evals", "positions scored by the evaluation function"),
    ("prunes", "alpha-beta cutoffs; 1st cut: the share made by the first move tried"),
    ("depth", "plies searched in full (/n: the deepest line, quiescence included)"),
    ("tt hits", "positions found in the transposition table"),
    ("h0/hl/hr", "the cutoff engines' evaluations and the children they dropped"),
    ("best", "the move the engine plays if stopped now; pv: the line it expects"),
    ("eval (X)", "the position for the first player, in the game's one unit everywhere (the panel, the "
                 "line beside the board, the trend, the hint, the report); the bar beside the board is its "
                 "winning chance"),
    ("trend", "the eval after each of its moves, on a ± scale with 0 in the middle, its range in the "
              "game's unit; a forced win at the edge"),
)


def move_columns(moves: Sequence[str], width: int) -> str:
    """The moves in columns that fit ``width`` cells, never splitting a move."""
    if not moves:
        return ""
    cell = max(len(move) for move in moves) + 2
    per_line = max(width // cell, 1)
    lines = []
    for start in range(0, len(moves), per_line):
        lines.append("".join(move.ljust(cell) for move in moves[start:start + per_line]).rstrip())
    return "\n".join(lines)


class _ScrollDialog(Dialog[None]):
    DEFAULT_CSS = """
    _ScrollDialog { align: center middle; }
    _ScrollDialog > VerticalScroll {
        width: 90; max-width: 100%; height: auto; max-height: 90%;
        border: thick $accent; background: $surface; padding: 1 2;
    }
    """
    BINDINGS = [Binding("escape,q,enter", "dismiss", "Close")]


class HelpDialog(_ScrollDialog):
    """Keys, notation and the panel's legend."""

    BINDINGS = [Binding("escape,f1,q,ctrl+g", "dismiss", "Close")]

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        # The paragraphs flow: the dialog wraps them to its width (hard line ends left ragged lines).
        title = game_kind(self.game).title  # the game's name in a sentence: 'chess', 'Dots and Boxes'
        lines = [f"[b]{title[:1].upper() + title[1:]}: making moves[/b]", " ".join(game_kind(self.game).help.split("\n")),
                 "", "With the mouse, click what moves (where it may go lights up) and then where it goes, "
                 "or the one cell a move needs; with the board focused (Tab), the arrows and Enter do the same. "
                 "Suggestions appear as you type; → takes one. A wrong move is explained under the board and "
                 "play goes on.", "",
                 "[b]Keys[/b]  (every command is also in the palette, ctrl+p)"]
        lines += [f"  [b]{command.keys:<16}[/b] {command.help}" for command in COMMANDS]
        lines += [f"  [b]{'ctrl+p':<16}[/b] the command palette", f"  [b]{'ctrl+q':<16}[/b] quit",
                  "", "[b]The engine panel[/b]"]
        lines += [f"  [b]{name:<12}[/b] {meaning}" for name, meaning in PANEL_LEGEND]
        lines += [f"  [b]{'scores':<12}[/b] {game_kind(self.game).scores.legend()}"]
        plan = game_kind(self.game).levels
        lines += ["", f"[b]The levels[/b]  ({plan.scale_words}; measured in games, ± the 95% interval: "
                  "docs/levels.md)"]
        lines += [f"  [b]{level.name.capitalize():<12}[/b] {about(level)}"
                  + (f" (measured {level.elo} ± {level.margin})" if level.elo is not None else "")
                  for level in levels_for(self.game)]
        lines += ["", "Escape closes this help."]
        with VerticalScroll():
            yield Static("\n".join(lines))


class MovesDialog(_ScrollDialog):
    """Every legal move of the position, in columns, scrollable."""

    def __init__(self, title: str, moves: Sequence[str]) -> None:
        super().__init__()
        self.title_text = title
        self.moves = tuple(moves)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="moves-scroll"):
            yield Static(self.title_text, markup=False, classes="moves-title")
            yield Static(move_columns(self.moves, 70), markup=False, id="moves-text")
            yield Static("Escape closes.", classes="moves-title")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()
