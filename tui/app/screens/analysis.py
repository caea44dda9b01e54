"""The game screen as an analysis board: moves made in review, lines followed, the tree edited,
games opened to continue, review or analyse.

:class:`AnalysisBoard` is a plain object the commands
(:class:`~tui.app.screens.game_commands.GameCommands`) make for their screen.
The game's tree of moves is the :class:`~tui.app.screens.played.PlayedGame`'s
(variations, comments, NAGs; :mod:`games.variations`); the move list shows it
and asks, by messages, for a move of another line (:meth:`AnalysisBoard.follow_line`)
or an edit of the move shown (:meth:`AnalysisBoard.edit_move`: promote, delete,
a note, a mark).  A move made while an earlier position is shown plays on from
there (:meth:`AnalysisBoard.play_in_review`): it follows the variation that plays
it or starts one, nothing is cut.  "Play from here" on a board where both sides
are the player's asks: here, or a new game against the start screen's default
level from that position.  An unfinished game read from a file asks whether to
continue it against a level, review it or analyse it (:meth:`AnalysisBoard.open_record`).
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Protocol

from games import game_class
from games.reading import LoadedGame
from games.variations import NAG_GLYPHS, MoveNode

from ...views.format import counted, plies_text
from ..messages import OpenGame
from ..session import HUMAN, GameSetup, level_of, resolve_player, side_names
from .annotate import CommentDialog, MarkDialog
from .coach import HINT_SPEC
from .dialogs import ConfirmDialog
from .start import middle_level

if TYPE_CHECKING:
    from .engine_turns import EngineTurns
    from .host import GameHost

__all__ = ["AnalysisBoard", "default_level", "level_name", "opened_game_choices"]


class Commands(Protocol):
    """What the analysis board asks of the game's commands (:class:`~tui.app.screens.game_commands.GameCommands`),
    typed here so that the commands, which make the board, are not imported by it."""

    engines: EngineTurns
    result_shown: bool

    def guard_unsaved(self, what: str, then: Callable[[], Any]) -> None: ...
    def back_to(self, ply: int) -> None: ...
    def show_ply(self, ply: int) -> None: ...
    def forget_taken_back(self) -> None: ...


def level_name(game: str, spec: str) -> str:
    """A level's name for an engine spec (``Club``), else the spec itself."""
    level = level_of(game, spec)
    return spec if level is None else level.name.capitalize()


def default_level(game: str) -> str:
    """The engine spec of the start screen's default opponent for ``game`` (its middle level)."""
    return resolve_player(middle_level(game), game)[0]


def opened_game_choices(setup: GameSetup, to_move: int) -> dict[str, GameSetup]:
    """What an unfinished game read into ``setup`` can be opened as: ``continue`` (the
    player takes the side ``to_move``, the setup's engine -- or the start screen's default
    level -- the other, playing on at once), ``review`` (as read: the engines wait) and
    ``analyse`` (both sides the player's, the analysis engine on)."""
    engine = next((spec for spec in setup.players if spec != HUMAN), None) or default_level(setup.game)
    players = [engine, engine]
    players[to_move] = HUMAN
    return {
        "continue": replace(setup, players=(players[0], players[1]), notices=("", ""), continued=True),
        "review": setup,
        "analyse": replace(setup, players=(HUMAN, HUMAN), notices=("", ""), analysis=setup.analysis or HINT_SPEC),
    }


class AnalysisBoard:
    """The analysis board of ``screen``, whose ``commands`` it goes back and shows positions through."""

    def __init__(self, screen: GameHost, commands: Commands) -> None:
        self.screen = screen
        self.commands = commands

    # -- playing on from a position shown ----------------------------------------------------

    def play_from_here(self) -> None:
        """Play on from the position reviewed: the later moves stay, as the line a different
        move makes a variation of; where both sides are the player's, a level may take one."""
        screen = self.screen
        if screen.review is None:
            screen.say("review first (↑, or click a move in the list), then play from that position", error=True)
            return
        setup = screen.controller.setup
        if setup.engine_sides:
            self.play_on_here()
            return
        shown = screen.played.shown_game()
        engine = default_level(setup.game)
        players = [engine, engine]
        players[shown.turn] = HUMAN
        level = replace(setup.fresh(), players=(players[0], players[1]), position=shown.to_text(), notices=("", ""))
        ply = screen.review

        def chosen(choice: str | None) -> None:
            if choice == "level":
                self.commands.guard_unsaved("a new game", lambda: screen.post_message(OpenGame(level)))
            elif choice == "here" and screen.review == ply:
                self.play_on_here()

        name = level_name(setup.game, engine)
        screen.app.push_screen(ConfirmDialog(
            "Play from this position?",
            [("here", "Here, both sides yours"), ("level", f"New game against {name}"), ("cancel", "Cancel")],
            detail=f"against {name} you play {screen.sides[shown.turn]}", topic="playing from here"), chosen)

    def play_on_here(self) -> None:
        """The game goes on from the position reviewed, its later moves kept in the tree."""
        screen = self.screen
        later = len(screen.moves) - (screen.review or 0)
        self.commands.back_to(screen.review or 0)
        screen.controller.paused = False  # asked to play on: the engine to move answers from here
        screen.say(f"playing from here: the {counted(later, 'later move')} stay in the list; "
                   "a different move starts a variation")
        screen.move_input.focus()
        screen.next_turn()

    def play_in_review(self, text: str) -> None:
        """A move made in the position reviewed: the game plays on from there, following the
        variation that plays it or starting a new one."""
        screen = self.screen
        if screen.review is None:
            return
        self.commands.back_to(screen.review)
        known = any(node.move == text for node in screen.played.node.variations)
        controller = screen.controller
        if controller.setup.engine_sides and not controller.paused:
            controller.paused = True  # exploring: the engine plays on from here only when asked
        controller.play(screen.game.parse_move(text), time.monotonic())
        node = screen.played.node
        where = "the line's" if known else "a new variation:"
        waits = " — the engine waits: type the next move for either side, or ctrl+b lets it play on from here" \
            if controller.setup.engine_sides and controller.outcome() is None else ""
        screen.say(f"{where} {screen.played.tree.label(node, numbered=True)} {text}{waits}")
        screen.move_input.focus()
        screen.next_turn()

    def follow_line(self, node: MoveNode) -> None:
        """Show ``node``, in its own line: that line becomes the game's (to its end)."""
        screen = self.screen
        self.commands.engines.cancel()
        review = screen.controller.follow_line(node)
        self.commands.forget_taken_back()
        self.commands.result_shown = screen.outcome() is not None  # a line that ends does not ask again
        screen.refresh_position()
        if review is None:
            screen.next_turn()
        else:
            self.commands.show_ply(review)
        screen.move_list.focus()

    # -- editing the tree --------------------------------------------------------------------

    def edit_move(self, node: MoveNode, what: str) -> None:
        """Change the tree at ``node``: ``promote`` or ``delete`` its variation, a ``comment``
        or a mark (``nag``) on it."""
        screen = self.screen
        label = f"{screen.played.tree.label(node, numbered=True)} {node.move}"
        if what == "promote":
            self._promote(node, label)
        elif what == "delete":
            self._delete(node, label)
        elif what == "comment":
            def commented(text: str | None) -> None:
                if text is not None:
                    node.comment = text
                    screen.say(f"note on {label} {'kept' if text else 'removed'}")
                    self._tree_changed()

            screen.app.push_screen(CommentDialog(label, node.comment), commented)
        elif what == "nag":
            def marked(choice: str | None) -> None:
                if choice and choice.isdigit():
                    nag = int(choice)
                    node.nags = ([nag] if nag else []) + [old for old in node.nags if old not in NAG_GLYPHS]
                    screen.say(f"{label} marked {NAG_GLYPHS[nag]}" if nag else f"{label}: mark removed")
                    self._tree_changed()

            screen.app.push_screen(MarkDialog(label), marked)

    @staticmethod
    def _variation_of(node: MoveNode) -> MoveNode | None:
        """The first move of the innermost variation ``node`` is in (``None``: the main line)."""
        return next((step for step in reversed(node.path())
                     if step.parent is not None and step.parent.variations[0] is not step), None)

    def _promote(self, node: MoveNode, label: str) -> None:
        """The variation ``node`` is in goes up a level (first among its alternatives)."""
        target = self._variation_of(node)
        if target is None:
            self.screen.say(f"{label} is on the main line already")
            return
        target.promote()
        self.screen.say(f"promoted the variation of {label}" + (" — the main line now" if node.is_main_line() else ""))
        self._tree_changed()

    def _delete(self, node: MoveNode, label: str) -> None:
        """Delete the variation ``node`` is in (on the main line: ``node`` and what follows);
        undo puts it back."""
        screen = self.screen
        target = self._variation_of(node) or node
        if target in screen.played.node.path():  # the game is in it: back to where it branched off
            self.commands.back_to(target.ply - 1)
        gone = sum(1 for _ in target.walk())
        screen.played.delete(target)
        screen.say((f"deleted {counted(gone, 'move')} from {label}" if target is node
                    else f"deleted the variation of {label} ({counted(gone, 'move')})") + " — ctrl+z puts it back")
        self._tree_changed()

    def restore(self) -> None:
        """Undo the last deletion: the variation goes back where it was (redo deletes it again)."""
        screen = self.screen
        entry = screen.played.restore()
        if entry is None:
            return
        screen.played.redo.append(entry)
        screen.say(f"put back {screen.played.tree.label(entry.node, numbered=True)} {entry.node.move} "
                   f"({counted(sum(1 for _ in entry.node.walk()), 'move')}) — ctrl+y deletes it again")
        self._tree_changed()

    def delete_again(self) -> None:
        """Redo a deletion undo restored."""
        screen = self.screen
        entry = screen.played.redo.pop()
        assert not isinstance(entry, list)
        if entry.node in screen.played.node.path():
            self.commands.back_to(entry.node.ply - 1)
        screen.played.delete(entry.node)
        screen.say(f"deleted {screen.played.tree.label(entry.node, numbered=True)} {entry.node.move} again "
                   "— ctrl+z puts it back")
        self._tree_changed()

    def _tree_changed(self) -> None:
        """The tree was edited: the list shows it again, the position stays."""
        screen = self.screen
        review = screen.review
        screen.refresh_position()
        if review is not None:
            self.commands.show_ply(review)
        screen.move_list.focus()

    # -- games opened ------------------------------------------------------------------------

    def open_record(self, loaded: LoadedGame, path: str, setup: GameSetup) -> None:
        """Open ``loaded`` (read from ``path`` into ``setup``): a finished game as it is, for
        review; for an unfinished one the player chooses to continue it against a level, review
        it or analyse it."""
        if not self.ask_how(loaded, path, setup):
            self.commands.guard_unsaved("opening another game", lambda: self.screen.post_message(OpenGame(setup)))

    def ask_how(self, loaded: LoadedGame, path: str, setup: GameSetup, *, shown: bool = False) -> bool:
        """Ask how to open ``loaded``, when it is unfinished: continue it against a level,
        review it or analyse it (False, and nothing asked, for a finished game).  ``shown``:
        the game is already on this screen, as read (``tui-games play --load``), so Cancel
        leaves it there for review."""
        screen = self.screen
        end = game_class(loaded.game_name).replay(loaded.start, loaded.moves)[0]
        if loaded.outcome is not None or end.outcome() is not None:
            return False
        choices = opened_game_choices(setup, end.turn)

        def chosen(choice: str | None) -> None:
            if choice in choices:
                self.commands.guard_unsaved("opening another game",
                                            lambda: screen.post_message(OpenGame(choices[choice])))
            else:
                screen.say("reviewing it as read" if shown else "not opened")

        engine = choices["continue"].players[1 - end.turn]
        screen.app.push_screen(ConfirmDialog(
            f"{path} holds an unfinished game: continue it, review it or analyse it?",
            [("continue", f"Continue against {level_name(loaded.game_name, engine)}"),
             ("review", "Review"), ("analyse", "Analyse"), ("cancel", "Cancel")],
            detail=f"{plies_text(len(loaded.moves))}; {side_names(loaded.game_name)[end.turn]} to move: "
                   "continuing, you play that side",
            topic="opening a game"), chosen)
        return True
