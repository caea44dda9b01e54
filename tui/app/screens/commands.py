"""The game screen's commands, in one table: their keys, the footer, the help, the palette.

Every command has a ctrl-key (shown in the footer; terminals and macOS laptops
that take the F-keys still reach it), most also an F-key, and all are in
Textual's command palette (ctrl+p) by name.  The keys are the app's keymap's
(:mod:`tui.app.keymap`): a command's row there has its name.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding

from ..keymap import Key, key_named

__all__ = ["COMMANDS", "Command", "DELAYS", "TYPED_COMMANDS", "bindings"]

#: The spectating delays the delay command cycles through (seconds between engine moves).
DELAYS = (0.0, 0.5, 1.0, 2.0, 5.0)


@dataclass(frozen=True)
class Command:
    """One thing the player can do on the game screen; its keys are the keymap's row of the same name."""

    #: Its method of :class:`~tui.app.screens.game_commands.GameCommands` (the key's action: ``command('<name>')``)
    #: and the name of its row in :data:`tui.app.keymap.KEYS` (none: the palette alone).
    action: str
    #: Its name in the palette and the help.
    title: str
    #: Its word in the footer.
    label: str
    #: What it does, one line.
    help: str

    @property
    def key(self) -> Key | None:
        """Its row of the keymap (``None``: no key, the palette alone)."""
        try:
            return key_named(self.action)
        except KeyError:
            return None

    @property
    def ctrl(self) -> str:
        """The key the footer shows (a ctrl-key, or ↑; '' for none)."""
        return self.key.keys.split(",")[0] if self.key is not None else ""

    @property
    def footer(self) -> bool:
        """Whether the footer shows it: the commands of every game, few enough to fit 80 columns
        (the others, rare or grave, are in the help and the palette)."""
        return self.key is not None and self.key.footer

    @property
    def keys(self) -> str:
        """``ctrl+z / F4``, as the help shows them."""
        return self.key.shown if self.key is not None else "palette"


COMMANDS: tuple[Command, ...] = (
    Command("help", "Help", "Help", "keys, notation and what the engine panel shows"),
    Command("list_moves", "Legal moves", "Moves", "every legal move of the position"),
    Command("flip", "Flip board", "Flip", "turn the board around"),
    Command("undo", "Undo", "Undo", "take back a move (and the engine's reply); in review, a step back"),
    Command("redo", "Redo", "Redo", "bring back what undo took back; in review, a step on"),
    Command("pause", "Pause or resume engines", "Pause", "stop or restart the engines' play"),
    Command("step", "Step", "Step", "while paused, the engine to move plays one move"),
    Command("delay", "Delay between engine moves", "Delay",
            "cycle the pause between two engines' moves"),
    Command("review", "Review moves", "Review",
            "step through the game in the move list: ←/→ a move, Home/End, Enter plays from there"),
    Command("play_from_here", "Play from here", "Here",
            "continue from the position reviewed (the later moves stay in the list)"),
    Command("save", "Save game", "Save", "write the game's record (PGN, PDN, a move list)"),
    Command("open", "Open game", "Open", "read a game's record (PGN, PDN, a move list) to review or go on with"),
    Command("new_game", "New game", "New", "back to the start screen"),
    Command("hint", "Hint", "Hint", "the engine's move for your position, shown on the board, not played"),
    Command("analyse", "Analysis on/off", "Analyse",
            "an engine searches the position shown without end, its panel live"),
    Command("advanced", "Advanced: the search's numbers", "Advanced",
            "the engine panel shows the search's numbers (nodes, prunes, cutoffs, tt hits) or a player's words"),
    Command("report", "Game report", "Report",
            "judge every move (inaccuracy, mistake, blunder) with a chart of the score"),
    Command("tree", "Search tree", "Tree",
            "record the search behind the last engine move (or of the position shown) and explore it "
            "node by node, or step through it"),
    Command("best_line", "Best line", "Line",
            "search the position shown a moment and mark its best line on the board, square by square"),
    Command("threat", "Threat", "Threat",
            "what the opponent would play if it were its move (chess: a pass), marked on the board"),
    Command("offer_draw", "Offer a draw", "Draw",
            "an engine accepts when its score is level or worse after enough moves"),
    Command("resign", "Resign", "Resign", "give up the game (asks first)"),
)

#: Words typed in the move box that run a command instead of a move.
TYPED_COMMANDS = {"hint": "hint", "analyse": "analyse", "analyze": "analyse", "report": "report", "tree": "tree",
                  "line": "best_line", "threat": "threat", "step": "step",
                  "draw": "offer_draw", "resign": "resign"}


def bindings() -> list[Binding]:
    """The screen's key bindings, from the keymap's rows of the commands (the footer shows its rows')."""
    return [Binding(command.key.keys, f"command('{command.action}')", command.label, show=command.footer)
            for command in COMMANDS if command.key is not None]
