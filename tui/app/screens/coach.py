"""The coach on the game screen: hints, analysis, the game report, resign and draw offers.

:class:`Coach` is mixed into :class:`~tui.app.screens.game.GameScreen`.  The
coach's engine searches in the same search process as the players' engines,
as its own side (:data:`~tui.app.search_service.COACH`), and never beside a
player's search, so the two never share the CPU:

* a **hint** searches the human's position for :data:`HINT_TIME` seconds with
  :data:`HINT_SPEC` and marks the move on the board, without playing it;
* **analysis** searches the position shown -- the game's, or the one reviewed
  -- without end, its figures live in a panel of its own, and starts again
  whenever that position changes; against an engine it runs only while that
  engine does not search (the human's turn, pause, review);
* the **report** searches every position of the game at a fixed depth, one
  after the other (engines wait meanwhile), then opens
  :class:`~tui.app.screens.report.ReportDialog`;
* **resign** and **draw offers** end the game off the board
  (``GameScreen.verdict``); an engine takes a draw by
  :func:`engines.review.accepts_draw`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator

from engines import Limits
from engines.review import (
    REPORT_ENGINE,
    GameReport,
    PositionScore,
    accepts_draw,
    game_positions,
)
from engines.timing import FOREVER
from games import Game, Outcome, game_kind

from ...views.format import line_text, score_text
from ..search_service import COACH, SearchDone, SearchEvent, SearchFailed, SearchInfo
from ..widgets.engine_panel import EnginePanel
from .dialogs import ConfirmDialog
from .report import ReportDialog

if TYPE_CHECKING:
    from .game import GameScreen

__all__ = ["Coach", "CoachJob", "HINT_SPEC", "HINT_TIME"]

#: The engine and the time a hint searches with.
HINT_SPEC = "pvs"
HINT_TIME = 1.0


@dataclass
class CoachJob:
    """What the coach's engine is doing: ``analysis``, ``hint`` or ``report``."""

    kind: str
    request: int
    #: The moves of the position searched (a prefix of the game's).
    moves: tuple[str, ...]
    #: A report's scores so far, one per position, and the positions still to score.
    scores: list[PositionScore] = field(default_factory=list)
    positions: Iterator[Game] = field(default_factory=lambda: iter(()))


class Coach:
    """Hint, analysis, report, resign and draw for the game screen."""

    # -- the coach's searches ----------------------------------------------------------------

    def coach_search(self: GameScreen, kind: str, moves: tuple[str, ...], spec: str, limits: Limits) -> None:
        self.coach_job = CoachJob(kind, self.service.search(
            self.setup.game, COACH, spec, self.setup.position, moves, limits), moves)

    def cancel_coach(self: GameScreen, *kinds: str) -> None:
        """Stop the coach's search if it is one of ``kinds`` (default: any)."""
        job = self.coach_job
        if job is not None and (not kinds or job.kind in kinds):
            self.service.cancel(job.request)
            self.coach_job = None
            if job.kind == "report":
                self.say("report stopped")

    def coach_event(self: GameScreen, event: SearchEvent) -> None:
        """An event of the coach's search (the timer's poll routes them here)."""
        job = self.coach_job
        if job is None:
            return
        panel = self.analysis_panel
        if isinstance(event, SearchFailed):
            self.coach_job = None
            self.say(f"the coach's engine failed: {event.message}", error=True)
            return
        if job.kind == "analysis" and panel is not None:
            panel.show_stats(event.stats)
            if isinstance(event, SearchDone):
                self.coach_job = None
                panel.set_status("done: the search reached its end")
        elif job.kind == "hint" and isinstance(event, SearchDone):
            self.coach_job = None
            self._show_hint(job, event)
        elif job.kind == "report" and isinstance(event, SearchDone):
            job.scores.append(PositionScore.from_stats(self.setup.game, event.stats))
            self._report_step(job)
        elif isinstance(event, SearchInfo) and job.kind == "hint":
            self.say(f"hint: thinking… depth {event.stats.depth}, best so far {event.stats.best or '-'}")

    # -- analysis ------------------------------------------------------------------------------

    @property
    def analysis_panel(self: GameScreen) -> EnginePanel | None:
        panels = self.query("#panel-analysis")
        return panels.first(EnginePanel) if panels else None

    def analysis_target(self: GameScreen) -> tuple[str, ...] | None:
        """The moves of the position to analyse now, or ``None`` (analysis off or must wait)."""
        if self.analysis_spec is None or not self.is_active or self.report_running:
            return None
        if self.review is not None:
            moves = tuple(self.moves[:self.review])
        elif self.outcome() is not None:
            return None
        elif self.setup.is_human(self.game.turn) or (self.paused and not self.stepping):
            moves = tuple(self.moves)
        else:
            return None  # the engine's turn: it has the CPU
        shown = self.shown_game()
        return None if shown.outcome() is not None else moves

    def update_analysis(self: GameScreen) -> None:
        """Start, restart or stop the analysis for the position now shown."""
        self._update_analysis()
        self._fit_panels()

    def _update_analysis(self: GameScreen) -> None:
        panel = self.analysis_panel
        if panel is None:
            return
        job = self.coach_job
        if job is not None and job.kind != "analysis":
            return  # a hint or the report first; analysis resumes after it
        target = self.analysis_target()
        if job is not None and job.moves == target:
            return
        self.cancel_coach("analysis")
        if target is None:
            if not self.is_active:
                why = "waits for the dialog"
            elif self.report_running:
                why = "waits for the report"
            elif self.review is not None or self.outcome() is not None:
                why = "game over"
            else:
                why = "waits: the engine's turn"
            panel.set_status(why)
            return
        side = (self.first_mover + len(target)) % 2
        panel.side_name = self.sides[side]
        self.coach_search("analysis", target, self.analysis_spec or HINT_SPEC, Limits(time=FOREVER))
        panel.set_status(f"analysing {self.sides[side]}'s move", thinking=True)

    def action_analyse(self: GameScreen) -> None:
        """Analysis on or off."""
        panel = self.analysis_panel
        if panel is None:
            self.analysis_spec = self.analysis_spec or HINT_SPEC
            panel = EnginePanel(self.game.turn, self.sides[self.game.turn], self.analysis_spec,
                                id="panel-analysis", title="analysis", trend=False)
            self.query_one("#side-column").mount(panel, before=self.move_list)
            self.say(f"analysis on ({self.analysis_spec}): it follows every move, undo and review step — "
                     "ctrl+e stops it")
            self.call_after_refresh(self.update_analysis)
            return
        self.cancel_coach("analysis")
        panel.remove()
        self.say("analysis off")
        self.call_after_refresh(self._fit_panels)

    # -- hint ------------------------------------------------------------------------------------

    def action_hint(self: GameScreen) -> None:
        if self.review is not None or self.outcome() is not None or not self.human_to_move:
            self.say("a hint is for your move: on your turn, in the game (not while reviewing)", error=True)
            return
        if self.coach_job is not None and self.coach_job.kind in ("hint", "report"):
            self.say(f"the coach is busy with the {self.coach_job.kind}; wait a moment", error=True)
            return
        self.cancel_coach("analysis")
        self.coach_search("hint", tuple(self.moves), HINT_SPEC, Limits(time=HINT_TIME))
        self.say(f"hint: {HINT_SPEC} looks at the position for {HINT_TIME:g} s…")

    def _show_hint(self: GameScreen, job: CoachJob, event: SearchDone) -> None:
        if job.moves != tuple(self.moves) or self.review is not None or not self.human_to_move:
            self.update_analysis()
            return  # the position changed meanwhile: the hint is stale
        ply = len(self.moves)
        side = self.game.turn
        if ply not in self.hinted:
            self.hints[side] += 1
            self.hinted.add(ply)
        self.hint_move = event.move
        move = self.game.parse_move(event.move)
        start, end = self.board.painter.move_squares(self.game, move)
        self.board.mark(start, (end,))
        self._picker = None
        stats = event.stats
        used = self.hints[side]
        self.say(f"hint: {event.move} (score for {self.sides[side]} {score_text(stats.score, stats.mate)}, "
                 f"line {line_text(stats.pv) or event.move}) — not played · {used} hint{'s' if used != 1 else ''} used")
        self.update_analysis()

    # -- the report -----------------------------------------------------------------------------

    @property
    def report_running(self: GameScreen) -> bool:
        return self.coach_job is not None and self.coach_job.kind == "report"

    @property
    def report_is_current(self: GameScreen) -> bool:
        """A report exists for exactly the moves of the game."""
        return self.report is not None and self.report_moves == tuple(self.moves)

    def action_report(self: GameScreen) -> None:
        if not self.moves:
            self.say("no moves to report on yet", error=True)
            return
        if self.report_is_current:
            self._open_report()
            return
        if self.report_running:
            self.cancel_coach("report")
            self.next_turn()
            return
        self.cancel_coach()
        self.cancel_search()
        job = CoachJob("report", 0, tuple(self.moves))
        job.positions = game_positions(self.setup.game, self.setup.position, job.moves)
        self.coach_job = job
        self._report_step(job)

    def _report_step(self: GameScreen, job: CoachJob) -> None:
        """Search the next position of the report, or finish it."""
        total = len(job.moves) + 1
        game_name = self.setup.game
        depth = game_kind(game_name).scores.report_depth
        for position in job.positions:
            ply = len(job.scores)
            if position.outcome() is None:
                job.request = self.service.search(game_name, COACH, REPORT_ENGINE, self.setup.position,
                                                  job.moves[:ply], Limits(depth=depth))
                self.say(f"report: {REPORT_ENGINE} at depth {depth}, position "
                         f"{ply + 1} of {total} {progress_bar(ply / total)} — ctrl+k stops it")
                return
            job.scores.append(PositionScore.final(position))
        self.coach_job = None
        self.report = GameReport.build(game_name, self.first_mover, job.moves, job.scores, depth)
        self.report_moves = job.moves
        self.say("report ready: ctrl+k opens it again; saving writes it into the record")
        self._open_report()

    def _open_report(self: GameScreen) -> None:
        assert self.report is not None
        self.app.push_screen(
            ReportDialog(self.report, self.sides, self.first_number, self.first_mover),
            self._after_report,
        )

    def _after_report(self: GameScreen, ply: Any) -> None:
        if isinstance(ply, int) and 0 <= ply <= len(self.moves):
            self.move_list.focus()
            self.move_list.select_ply(ply)

    # -- resign and draw -------------------------------------------------------------------------

    def _human_side(self: GameScreen) -> int | None:
        """The side a resignation or offer is made for: the human (the one to move when both are)."""
        humans = [side for side in (0, 1) if self.setup.is_human(side)]
        if not humans:
            return None
        return humans[0] if len(humans) == 1 else self.game.turn

    def action_resign(self: GameScreen) -> None:
        side = self._human_side()
        if side is None or self.outcome() is not None:
            self.say("only a human player can resign, in a game still going on", error=True)
            return

        def answered(choice: str | None) -> None:
            if choice == "resign" and self.outcome() is None:
                self.end_game(Outcome(1 - side, "resignation"))

        self.app.push_screen(ConfirmDialog(
            f"Resign the game as {self.sides[side]}?", [("cancel", "Play on"), ("resign", "Resign")],
            detail=f"{self.sides[1 - side]} wins.",
        ), answered)

    def action_offer_draw(self: GameScreen) -> None:
        side = self._human_side()
        if side is None or self.outcome() is not None:
            self.say("only a human player can offer a draw, in a game still going on", error=True)
            return
        other = 1 - side
        if self.setup.is_human(other):
            def answered(choice: str | None) -> None:
                if choice == "accept" and self.outcome() is None:
                    self.end_game(Outcome(None, "agreement"))
                else:
                    self.say(f"{self.sides[other]} declines the draw")

            self.app.push_screen(ConfirmDialog(
                f"{self.sides[side]} offers a draw. {self.sides[other]}, do you accept?",
                [("decline", "Decline"), ("accept", "Accept the draw")],
            ), answered)
            return
        stats = self.last_scores[other]
        plies = len(self.moves)
        if accepts_draw(self.setup.game, plies, None if stats is None else stats[0],
                        None if stats is None else stats[1]):
            self.end_game(Outcome(None, "agreement"),
                          f"{self.sides[other]} ({self.setup.players[other]}) accepts the draw")
            return
        needed = game_kind(self.setup.game).scores.draw_min_plies
        if plies < needed:
            why = f"too early: it plays on until {needed} moves have been made ({plies} so far)"
        elif stats is None:
            why = "it has not judged the position yet"
        else:
            why = f"it thinks it stands better ({score_text(int(stats[0]), stats[1])})"
        self.say(f"{self.sides[other]} ({self.setup.players[other]}) declines the draw: {why}")


def progress_bar(share: float, width: int = 20) -> str:
    """``[██████······]`` for a share between 0 and 1."""
    filled = round(max(0.0, min(1.0, share)) * width)
    return "[" + "█" * filled + "·" * (width - filled) + "]"
