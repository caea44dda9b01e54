"""The game screen's commands: what each key, palette entry and typed word does.

:class:`GameCommands` is a plain object the game screen
(:class:`~tui.app.screens.game.GameScreen`) makes; the screen's bindings run
its methods by name (the action ``command('undo')`` runs :meth:`GameCommands.undo`;
the table of :mod:`.commands` names them), and so do the palette, the typed
words and the result dialog's buttons.  Each acts through the screen it is
given and asks the component that does the work (the controller, the coach,
the clocks, the board aids, the engines' turns) with explicit arguments: help, the legal moves,
flip, undo, pause, step, delay, review, play from here, save, open, new game,
rematch, swap, hint, analysis, the report, the search tree, the best line,
the threat, resignation and a draw offer.  The analysis board's part (moves in
review, lines followed, the tree edited, an opened game's question) is its
:class:`~tui.app.screens.analysis.AnalysisBoard`.  The result dialog (shown once per
game end, its buttons run commands), the position shown while reviewing, and
why a move cannot be made now are its too.  It types the screen by what it
uses (:class:`~tui.app.screens.host.GameHost`) and is given the board aids and
the engines' turns it asks.  Nothing here discards an unsaved
game without asking: :meth:`GameCommands.guard_unsaved` puts the question
(save, discard, cancel) before a new game, a rematch, opening a file or
quitting.
"""

from __future__ import annotations

import datetime
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable

from games import Game, GameError, Outcome, Termination, game_kind
from games.clock import clk_text
from games.reading import resaved_record
from games.records import RecordNotes, describe_outcome, result_token

from ...views.format import counted
from ..keymap import key_named
from ..messages import OpenGame, OpenStart
from ..session import GameSetup
from ..widgets.eval_bar import EvalBar
from .analysis import AnalysisBoard
from .commands import DELAYS
from .dialogs import ConfirmDialog, ResultDialog
from .files import OpenDialog, SaveDialog
from .help import HelpDialog, MovesDialog
from .tree import DEFAULT_TREE_ENGINE, TreeScreen, tree_spec

if TYPE_CHECKING:
    from .aids import BoardAids
    from .engine_turns import EngineTurns
    from .host import GameHost

__all__ = ["GameCommands", "RESULT_CHOICES"]

#: What the result dialog's buttons ask for, beside looking at the board.
RESULT_CHOICES = {"rematch": "rematch", "swap": "swap", "new": "new_game", "save": "save", "report": "report"}


class GameCommands:
    """The commands of ``screen``'s game (see the module doc)."""

    def __init__(self, screen: GameHost, aids: BoardAids, engines: EngineTurns) -> None:
        #: The game screen they act on, and the components they ask.
        self.screen = screen
        self.aids = aids
        self.engines = engines
        #: The result dialog was shown for the game's end (once; undo and play from here let it show again).
        self.result_shown = False
        #: The analysis board: moves in review, lines followed, the tree edited, games opened.
        self.analysis = AnalysisBoard(screen, self)

    def run(self, name: str) -> None:
        """Do the command ``name`` (a :class:`~tui.app.screens.commands.Command`'s action)."""
        getattr(self, name)()

    def allows(self, name: str) -> bool:
        """Whether the command ``name`` does anything in this game (the footer hides it if not)."""
        setup = self.screen.controller.setup
        if name == "pause" and not setup.engine_sides and self.screen.clocks.clock is None:
            return False
        if name == "step" and (not setup.engine_sides or not self.screen.controller.paused):
            return False
        if name == "delay" and len(setup.engine_sides) < 2:
            return False
        return not (name in ("hint", "offer_draw", "resign") and not any(map(setup.is_human, (0, 1))))

    def refuse_move(self) -> bool:
        """Say why no move can be made now (game over, an engine's turn); in a reviewed
        position a move is made: it plays on from there (:meth:`play_in_review`)."""
        screen = self.screen
        if screen.review is not None:
            if screen.played.shown_game().outcome() is not None:
                screen.say("the game is over in the position shown: ← or ↑ picks another one", error=True)
                return True
            return False
        if screen.outcome() is not None:
            screen.say("the game is over — ctrl+z takes a move back, ctrl+n starts a new game", error=True)
        elif not screen.controller.human_to_move:
            screen.say(f"it is {screen.sides[screen.game.turn]}'s turn and an engine plays it; wait, "
                       "or ctrl+b pauses (then you may move for either side)", error=True)
        else:
            return False
        return True

    def show_result(self) -> None:
        """The result dialog, once per game end, while the screen is on top."""
        screen = self.screen
        if self.result_shown or not screen.is_active:
            return
        self.result_shown = True
        for side in screen.controller.setup.engine_sides:
            self.engines.set_panel_status(side, "game over")
        screen.app.push_screen(
            ResultDialog(result_token(screen.game, screen.played.verdict),
                         describe_outcome(screen.game, screen.played.verdict) or ""),
            self.result_chosen,
        )

    def result_chosen(self, choice: str | None) -> None:
        """What the player chose in the result dialog: a command, or looking at the board."""
        action = RESULT_CHOICES.get(choice or "")
        if action is None:
            self.screen.say("game over — ↑ reviews the game, ctrl+s saves, ctrl+n starts a new one")
        else:
            self.run(action)

    def show_ply(self, ply: int) -> None:
        """Show the position after ``ply`` moves; the last one ends the review."""
        screen = self.screen
        if ply >= len(screen.moves):
            if screen.review is not None:
                screen.played.review = None
                screen.say("back to the game")
                screen.next_turn()
            return
        if screen.review is None:
            self.engines.cancel()
        screen.played.review = ply
        shown = screen.played.shown_game()
        screen.board.mark(None)
        screen.board.show(shown)
        screen.move_input.game = shown  # a move made here plays on from here, as a variation
        screen.move_input.set_moves(shown.legal_move_texts() if shown.outcome() is None else [])
        screen.update_status()
        screen.update_analysis()

    def cancel_premove(self) -> None:
        self.aids.cancel_premove()

    def best_line(self) -> None:
        self.aids.best_line()

    def threat(self) -> None:
        self.aids.threat()

    def guard_unsaved(self, what: str, then: Callable[[], Any]) -> None:
        """Run ``then`` — after asking, if the game is not saved (save first, discard, cancel).

        ``then`` runs once the dialogs are gone (it may switch screens)."""
        def later() -> None:
            self.screen.app.call_later(then)

        if not self.screen.played.unsaved:
            later()
            return

        def answered(choice: str | None) -> None:
            if choice == "save":
                self.save(later)
            elif choice == "discard":
                later()
            else:
                self.screen.say("kept the game")

        # An unfinished game a person plays is kept for the start screen's Continue when left
        # unsaved (the app's autosave): the answer says so instead of "discard".
        setup = self.screen.controller.setup
        kept = (self.screen.outcome() is None and not self.screen.back_to_lab
                and any(setup.is_human(side) for side in (0, 1)))
        self.screen.app.push_screen(ConfirmDialog(
            f"The game is not saved. Save it before {what}?",
            [("cancel", "Cancel"), ("save", "Save first"),
             ("discard", "Don't save (Continue keeps it)" if kept else "Discard the game")],
            detail=self.screen.played.size_text(), topic=what,
        ), answered)

    # -- the commands ------------------------------------------------------------------

    def help(self) -> None:
        self.screen.app.push_screen(HelpDialog(self.screen.controller.setup.game))

    def list_moves(self) -> None:
        if self.screen.outcome() is not None:
            self.screen.say("the game is over: no legal moves")
            return
        moves = self.screen.game.legal_move_texts()
        title = f"{counted(len(moves), 'legal move')} for {self.screen.sides[self.screen.game.turn]}"
        self.screen.app.push_screen(MovesDialog(title, moves))

    def flip(self) -> None:
        """Turn the board; its orientation is kept for this game's next games (the settings)."""
        self.screen.board.flipped = not self.screen.board.flipped
        self.screen.query_one("#eval-bar", EvalBar).turned = self.screen.board.flipped != self.screen.board.painter.flipped_for(0)
        self.screen.clocks.bottom = self.screen.board.side_at_bottom(self.screen.controller.setup.bottom_side)
        keep = getattr(self.screen.app, "keep_turned", None)
        if keep is not None:
            turned = self.screen.board.flipped != self.screen.board.painter.flipped_for(self.screen.controller.setup.bottom_side)
            problem = keep(self.screen.board.painter.game_name, turned)
            if problem:
                self.screen.say(problem, error=True)

    def undo(self) -> None:
        """Restore the variation just deleted; in review, a step back (undo never deletes there);
        else take back the last move (and the engine's reply), which redo can bring back."""
        screen = self.screen
        if screen.played.deleted:
            self.analysis.restore()
            return
        if screen.review is not None:
            if screen.review == 0:
                screen.say("the start position: nothing before it (in review, undo steps back and never deletes)",
                           error=True)
            else:
                self.show_ply(screen.review - 1)
                screen.say("a step back — in review undo never deletes (Delete on a move in the list does, "
                           "and can be undone); End returns to the game")
            return
        if not screen.moves:
            screen.say("nothing to undo", error=True)
            return
        self.engines.cancel()
        screen.coach.cancel("hint")
        # Back to a human's turn (the engine's reply goes too); engines playing each other pause.
        taken = screen.controller.undo()
        self.forget_taken_back()
        self.result_shown = False
        screen.say(f"took back {'a move' if taken == 1 else counted(taken, 'move')} — ctrl+y brings "
                   f"{'it' if taken == 1 else 'them'} back"
                   + (" — paused, ctrl+b resumes" if screen.controller.paused else ""))
        screen.next_turn()

    def redo(self) -> None:
        """Bring back what undo took back: the moves, or the deletion undo restored; in review, a step on."""
        screen = self.screen
        played = screen.played
        if played.redo and not isinstance(played.redo[-1], list):
            self.analysis.delete_again()
            return
        if screen.review is not None:
            self.show_ply(screen.review + 1)
            return
        if not played.redo:
            screen.say("nothing to redo: ctrl+y brings back what ctrl+z took back", error=True)
            return
        moves = played.redo.pop()
        assert isinstance(moves, list)
        self.engines.cancel()
        try:
            screen.controller.redo(moves, time.monotonic())
        except GameError as error:
            screen.say(f"cannot bring the moves back: {error}", error=True)
        else:
            screen.say(f"brought back {', '.join(moves)}")
        self.result_shown = screen.outcome() is not None
        screen.next_turn()

    def forget_taken_back(self) -> None:
        """The engines' panels forget the scores of the moves taken back."""
        for side in self.screen.controller.setup.engine_sides:
            panel = self.screen.panel(side)
            if panel is not None:
                panel.forget_from(len(self.screen.moves))

    def pause(self) -> None:
        if not self.screen.controller.setup.engine_sides and self.screen.clocks.clock is None:
            self.screen.say("no engine or clock is running: nothing to pause")
            return
        if self.screen.controller.toggle_pause():
            self.engines.cancel()
            self.screen.say("paused — ctrl+b resumes, F6 plays one engine move")
            side = self.screen.game.turn
            if not self.screen.controller.setup.is_human(side):
                self.engines.set_panel_status(side, "paused")
            self.screen.update_status()
        else:
            self.screen.say("resumed")
            self.screen.next_turn()
        self.screen.refresh_bindings()

    def step(self) -> None:
        refusal = self.screen.controller.step_refusal()
        if refusal:
            self.screen.say(refusal, error=True)
            return
        if self.engines.request is not None:
            self.screen.say("the engine is already thinking")
            return
        self.screen.controller.step()
        self.screen.next_turn()

    def delay(self) -> None:
        index = (DELAYS.index(self.engines.delay) + 1) % len(DELAYS) if self.engines.delay in DELAYS else 0
        self.engines.delay = DELAYS[index]
        self.screen.say(f"delay between engine moves: {self.engines.delay:g} s")
        self.screen.update_status()

    def review(self) -> None:
        if not self.screen.moves:
            self.screen.say("no moves to review yet", error=True)
            return
        self.screen.move_list.focus()
        self.screen.move_list.select_ply(len(self.screen.moves) - 1 if self.screen.review is None else self.screen.review)

    def play_from_here(self) -> None:
        self.analysis.play_from_here()

    def back_to(self, ply: int) -> None:
        """The game goes back to the position after ``ply`` moves, keeping the later ones in the tree."""
        self.engines.cancel()
        self.screen.controller.back_to(ply)
        self.forget_taken_back()
        self.result_shown = False

    # -- files -----------------------------------------------------------------------------

    def save(self, then: Callable[[], Any] | None = None) -> None:
        now = datetime.datetime.now()
        setup = self.screen.controller.setup
        records = game_kind(setup.game).records
        notes, main = self.tree_notes()
        if setup.record is not None:  # a game read from a file: keep all it held
            text = resaved_record(setup.record, main, notes)
        else:
            text = records.text(main, first_player=setup.record_name(0), second_player=setup.record_name(1),
                                date=now.date(), notes=notes)
        what = f"{records.name} (.{records.extension})"
        key = self.screen.played.tree.key()

        def saved(path: Any) -> None:
            if path is None:
                self.screen.say("not saved")
                return
            self.screen.played.mark_saved(key)
            self.screen.say(f"saved to {path}")
            if then is not None:
                then()

        self.screen.app.push_screen(SaveDialog(records.filename(now), text, what), saved)

    def tree_notes(self) -> tuple[RecordNotes, Game]:
        """What a save writes: the tree of moves (the app's comments of :meth:`record_notes`
        added to the game's moves in it), and the game at the end of its main line, which
        the result is of (the result off the board only when that is the game itself)."""
        played = self.screen.played
        notes = self.record_notes()
        tree = played.tree.copy()
        for ply, node in enumerate(tree.find(played.node.path()).path()):
            comment = notes.move_comment(ply)
            if comment and comment not in node.comment:
                node.comment = " ".join(part for part in (node.comment, comment) if part)
        main = [node.move or "" for node in tree.mainline()]
        if main == played.moves:
            return replace(notes, comments=(), tree=tree), played.game
        game, _ = type(played.game).replay(tree.start, main)
        return replace(notes, comments=(), tree=tree, outcome=None), game

    def record_notes(self) -> RecordNotes:
        """What the record holds beyond the moves: the result off the board, the
        report's evals and verdicts, the clocks, the hints."""
        comments = []
        report = self.screen.coach.report_for(tuple(self.screen.moves))
        judged = report.moves if report is not None else ()
        clock = self.screen.clocks.clock
        played = self.screen.played
        path = played.node.path()
        for ply in range(len(self.screen.moves)):
            parts = [judged[ply].comment] if ply < len(judged) and judged[ply].comment else []
            if clock is not None and ply + 1 < len(clock.history):
                mover = played.tree.mover(path[ply]) if ply < len(path) else (played.first_mover + ply) % 2
                parts.append(f"[%clk {clk_text(clock.history[ply + 1][mover])}]")
            if ply in self.screen.coach.hinted:
                parts.append("hint used")
            comments.append(" ".join(parts))
        setup = self.screen.controller.setup
        tags = setup.record_tags(game_kind(setup.game).records.player_tags)  # the engines' specs
        tags.update({"TimeControl": clock.control.pgn_tag} if clock is not None else {})
        used = [f"{self.screen.sides[side]} {count}" for side, count in enumerate(self.screen.coach.hints) if count]
        comment = f"hints used: {', '.join(used)}" if used else ""
        return RecordNotes(outcome=self.screen.played.verdict, comments=comments, tags=tags, comment=comment)

    def open(self, path: str = "") -> None:
        """Open a record file's game: a finished one is reviewed; for an unfinished one the
        player chooses to continue it against a level, review it, or analyse it."""
        def opened(result: Any) -> None:
            if result is None:
                return
            loaded, path = result
            # Another game's file keeps that game's default players.
            setup = self.screen.controller.setup if loaded.game_name == self.screen.controller.setup.game else GameSetup(loaded.game_name)
            new = setup.with_record(loaded, str(path))
            self.analysis.open_record(loaded, str(path), new)

        self.screen.app.push_screen(OpenDialog(self.screen.controller.setup.game, path), opened)

    def new_game(self) -> None:
        if self.screen.back_to_lab:
            self.guard_unsaved("going back to the lab", self.screen.app.pop_screen)
            return
        self.guard_unsaved("a new game", lambda: self.screen.post_message(OpenStart(self.screen.controller.setup.fresh())))

    def rematch(self) -> None:
        self.guard_unsaved("a rematch", lambda: self.screen.post_message(OpenGame(self.screen.controller.setup.fresh())))

    def swap(self) -> None:
        self.guard_unsaved("a new game", lambda: self.screen.post_message(OpenGame(self.screen.controller.setup.fresh().swapped())))

    # -- the coach ---------------------------------------------------------------------------

    def hint(self) -> None:
        """The coach's move for the position shown: the game's on your turn, or one reviewed."""
        screen = self.screen
        if screen.review is None and (screen.outcome() is not None or not screen.controller.human_to_move):
            screen.say("a hint is for your move: on your turn, or in a position you review", error=True)
            return
        if screen.played.shown_game().outcome() is not None:
            screen.say("the game is over in the position shown: no move to hint", error=True)
            return
        if screen.coach.busy is not None:
            screen.say(f"the coach is busy with the {screen.coach.busy}; wait a moment", error=True)
            return
        screen.say(screen.coach.hint(tuple(screen.moves[:screen.review])))

    def analyse(self) -> None:
        """Analysis on or off."""
        if self.screen.coach.toggle_analysis(self.screen.game.turn):
            self.screen.say(f"analysis on ({self.screen.coach.analysis_spec}): it follows every move, undo and review step — "
                     "ctrl+e stops it")
            self.screen.call_after_refresh(self.screen.update_analysis)
        else:
            self.screen.say("analysis off")
            self.screen.call_after_refresh(self.engines.fit_panels)

    def advanced(self) -> None:
        """The engine panels switch between the search's numbers and a player's words, and the line
        under the board says what they show now."""
        screen = self.screen
        screen.advanced = screen.coach.advanced = not screen.advanced
        for panel in (screen.panel(0), screen.panel(1), screen.coach.panel):
            if panel is not None:
                panel.advanced = screen.advanced
        key = key_named("advanced").shown
        screen.say(f"engine panel: the search's numbers — {key} shows a player's words" if screen.advanced
                   else f"engine panel: a player's words — {key} shows the search's numbers")

    def tree(self) -> None:
        """Open the search tree explorer (see :mod:`.tree`) on the search behind the last
        engine move shown, or with the analysis engine (or a small alpha-beta) on the
        position shown."""
        if self.screen.clocks.clock is not None and self.screen.clocks.running is not None and self.screen.outcome() is None:
            self.screen.say("the clocks run: pause them first (ctrl+b), or look at the tree after the game", error=True)
            return
        if self.engines.request is not None:
            self.screen.say("an engine is thinking: pause first (ctrl+b), then open the tree", error=True)
            return
        shown = self.screen.played.shown_game()
        ply = len(self.screen.moves) if self.screen.review is None else self.screen.review
        played = None
        before = shown.copy()
        if ply:
            before.undo()
        if self.screen.coach.analysis_spec is not None and shown.outcome() is None:
            game, spec, about = shown, self.screen.coach.analysis_spec, "the analysis of the position shown"
        elif ply and not self.screen.controller.setup.is_human(before.turn):
            game, spec = before, tree_spec(self.screen.controller.setup.players[before.turn])
            played = self.screen.moves[ply - 1]
            about = f"{self.screen.sides[before.turn]}'s search before {played}, searched again"
        elif shown.outcome() is None:
            game, spec, about = shown, DEFAULT_TREE_ENGINE, "the position shown"
        else:
            self.screen.say("the game is over here, and no engine made the last move: nothing to search", error=True)
            return
        self.screen.app.push_screen(TreeScreen(game, spec, about=about, ascii=self.screen.board.ascii,
                                        flipped=self.screen.board.flipped,
                                        played=played if game is before else None))

    def report(self) -> None:
        if not self.screen.moves:
            self.screen.say("no moves to report on yet", error=True)
            return
        if self.screen.coach.report_for(tuple(self.screen.moves)) is not None:
            self.screen.coach.open_report()
            return
        if self.screen.coach.report_running:
            self.screen.coach.cancel("report")
            self.screen.say("report stopped")
            self.screen.next_turn()
            return
        self.engines.cancel()
        self.screen.coach.start_report(tuple(self.screen.moves))
        self.screen.update_status()  # the clocks stop while it runs

    def _human_side(self) -> int | None:
        """The side a resignation or offer is made for: the human (the one to move when both are)."""
        humans = [side for side in (0, 1) if self.screen.controller.setup.is_human(side)]
        if not humans:
            return None
        return humans[0] if len(humans) == 1 else self.screen.game.turn

    def resign(self) -> None:
        side = self._human_side()
        if side is None or self.screen.outcome() is not None:
            self.screen.say("only a human player can resign, in a game still going on", error=True)
            return
        self.screen.coach.resign(side)

    def offer_draw(self) -> None:
        side = self._human_side()
        if side is None or self.screen.outcome() is not None:
            self.screen.say("only a human player can offer a draw, in a game still going on", error=True)
            return
        other = 1 - side
        if self.screen.controller.setup.is_human(other):
            self.screen.coach.ask_draw(side)
            return
        accepted, said = self.screen.coach.engine_answers_draw(side, self.screen.controller.setup.players[other], len(self.screen.moves),
                                                        self.engines.last_scores[other])
        if accepted:
            self.screen.end_game(Outcome(None, Termination.AGREEMENT), said)
        else:
            self.screen.say(said)
