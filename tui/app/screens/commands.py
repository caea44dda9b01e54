"""The game screen's commands, in one table: their keys, the footer, the help, the palette.

Every command has a ctrl-key (shown in the footer; terminals and macOS laptops
that take the F-keys still reach it), most also the F-key of earlier versions,
and all are in Textual's command palette (ctrl+p) by name.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding

__all__ = ["COMMANDS", "Command", "DELAYS", "TYPED_COMMANDS", "bindings"]

#: The spectating delays the delay command cycles through (seconds between engine moves).
DELAYS = (0.0, 0.5, 1.0, 2.0, 5.0)


@dataclass(frozen=True)
class Command:
    """One thing the player can do on the game screen."""

    #: Its method of :class:`~tui.app.screens.game_commands.GameCommands` (the key's action: ``command('<name>')``).
    action: str
    #: Its name in the palette and the help.
    title: str
    #: Its word in the footer.
    label: str
    #: What it does, one line.
    help: str
    #: The key shown in the footer (a ctrl-key, or ↑) and the F-key ('' for none).
    ctrl: str
    fkey: str = ""
    #: Whether the footer shows it: the commands of every game, few enough to fit 80 columns
    #: (the others, rare or grave, are in the help and the palette).
    footer: bool = True

    @property
    def keys(self) -> str:
        """``ctrl+z / F4``, as the help shows them."""
        return " / ".join(key for key in (self.ctrl, self.fkey.upper()) if key) or "palette"


COMMANDS: tuple[Command, ...] = (
    Command("help", "Help", "Help", "keys, notation and what the engine panel shows", "ctrl+g", "f1"),
    Command("list_moves", "Legal moves", "Moves", "every legal move of the position", "ctrl+l", "f2",
            footer=False),
    Command("flip", "Flip board", "Flip", "turn the board around", "ctrl+t", "f3", footer=False),
    Command("undo", "Undo", "Undo", "take back a move (and the engine's reply)", "ctrl+z", "f4"),
    Command("pause", "Pause or resume engines", "Pause", "stop or restart the engines' play",
            "ctrl+b", "f5"),
    Command("step", "Step", "Step", "while paused, the engine to move plays one move", "ctrl+y", "f6"),
    Command("delay", "Delay between engine moves", "Delay",
            "cycle the pause between two engines' moves", "ctrl+r", "f7", footer=False),
    Command("review", "Review moves", "Review",
            "step through the game in the move list: ←/→ a move, Home/End, Enter plays from there", "up",
            footer=False),
    Command("play_from_here", "Play from here", "Here",
            "continue from the position reviewed (later moves are dropped)", ""),
    Command("save", "Save game", "Save", "write the game's record (PGN, PDN, a move list)", "ctrl+s", "f8"),
    Command("open", "Open game", "Open", "read a game's record (PGN, PDN, a move list) to review or go on with",
            "ctrl+o", footer=False),
    Command("new_game", "New game", "New", "back to the start screen", "ctrl+n", "f9"),
    Command("hint", "Hint", "Hint", "the engine's move for your position, shown on the board, not played",
            "ctrl+f", "f10"),
    Command("analyse", "Analysis on/off", "Analyse",
            "an engine searches the position shown without end, its panel live", "ctrl+e", "f11", footer=False),
    Command("report", "Game report", "Report",
            "judge every move (inaccuracy, mistake, blunder) with a chart of the score", "ctrl+k", "f12",
            footer=False),
    Command("tree", "Search tree", "Tree",
            "record the search behind the last engine move (or of the position shown) and explore it "
            "node by node, or step through it", "ctrl+a", footer=False),
    Command("best_line", "Best line", "Line",
            "search the position shown a moment and mark its best line on the board, square by square", "ctrl+w",
            footer=False),
    Command("threat", "Threat", "Threat",
            "what the opponent would play if it were its move (chess: a pass), marked on the board", "ctrl+backslash",
            footer=False),
    Command("offer_draw", "Offer a draw", "Draw",
            "an engine accepts when its score is level or worse after enough moves", "ctrl+d", footer=False),
    Command("resign", "Resign", "Resign", "give up the game (asks first)", "ctrl+x", footer=False),
)

#: Words typed in the move box that run a command instead of a move.
TYPED_COMMANDS = {"hint": "hint", "analyse": "analyse", "analyze": "analyse", "report": "report", "tree": "tree",
                  "line": "best_line", "threat": "threat",
                  "draw": "offer_draw", "resign": "resign"}


def bindings() -> list[Binding]:
    """The screen's key bindings: ctrl-keys in the footer, F-keys beside them."""
    result = []
    for command in COMMANDS:
        if command.ctrl:
            result.append(Binding(command.ctrl, f"command('{command.action}')", command.label, show=command.footer))
        if command.fkey:
            result.append(Binding(command.fkey, f"command('{command.action}')", command.label, show=False))
    return result
