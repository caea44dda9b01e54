"""The coach of the game screen: hints, analysis, the game report, resign and draw offers.

:class:`Coach` is a container the game screen places in its side column; the
analysis panel, when analysis is on, is its child.  It owns its state -- the
search it runs (:class:`CoachJob`), the hints used, the report -- and searches
through the app's :class:`~tui.app.engine_link.EngineLink` as its own side
(:data:`~tui.app.search_service.COACH`): the link posts the search's messages
to the coach itself.  The screen tells it what to do with explicit arguments
(the moves of the position, the side, ...); it answers with messages that
bubble up to the screen: :class:`Coach.Say` (a line under the board),
:class:`Coach.HintFound`, :class:`Coach.GameEnds` (a resignation, an agreed
draw), :class:`Coach.ShowPly` (a move chosen in the report) and
:class:`Coach.Freed` (a hint or the report no longer holds the engines).

* a **hint** searches the human's position for :data:`HINT_TIME` seconds with
  :data:`HINT_SPEC`; the screen marks the move on the board, without playing it;
* **analysis** searches the position the screen names (the game's, or the one
  reviewed) without end, its figures live in a panel of its own, and starts
  again whenever that position changes; the screen names none while an engine
  of the game searches, so the two never share the CPU;
* the **report** searches every position of the game at a fixed depth, one
  after the other (engines wait meanwhile), then opens
  :class:`~tui.app.screens.report.ReportDialog`;
* **resign** and **draw offers** end the game off the board; an engine takes a
  draw by :func:`engines.review.accepts_draw`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence

from textual.containers import Vertical
from textual.message import Message

from engines import Limits, SearchStats
from engines.review import REPORT_ENGINE, GameReport, PositionScore, accepts_draw, game_positions, turns_of
from engines.timing import FOREVER
from games import Game, Outcome, Termination, game_kind

from ..engine_link import EngineDone, EngineFailed, EngineInfo, EngineLink
from ..search_service import COACH
from ..session import engine_label
from ..widgets.engine_panel import EnginePanel
from .dialogs import ConfirmDialog
from .report import ReportDialog

__all__ = ["Coach", "CoachJob", "HINT_SPEC", "HINT_TIME", "progress_bar"]

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


class Coach(Vertical):
    """Hint, analysis, report, resign and draw for one game (see the module doc)."""

    DEFAULT_CSS = """
    Coach {
        height: auto;
    }
    """

    class Say(Message):
        """A line for under the board."""

        def __init__(self, text: str, error: bool = False) -> None:
            super().__init__()
            self.text = text
            self.error = error

    class HintFound(Message):
        """The hint's search for the position after ``moves`` chose ``move``."""

        def __init__(self, moves: tuple[str, ...], move: str, stats: SearchStats) -> None:
            super().__init__()
            self.moves = moves
            self.move = move
            self.stats = stats

    class GameEnds(Message):
        """The game ends off the board (``why`` comes first in the line under it)."""

        def __init__(self, outcome: Outcome, why: str = "") -> None:
            super().__init__()
            self.outcome = outcome
            self.why = why

    class ShowPly(Message):
        """The player chose the position after ``ply`` moves in the report."""

        def __init__(self, ply: int) -> None:
            super().__init__()
            self.ply = ply

    class Evaluated(Message):
        """The analysis's latest score for the first player (for the eval bar)."""

        def __init__(self, score: float, mate: int | None, ply: int) -> None:
            super().__init__()
            self.score = score
            self.mate = mate
            #: The position analysed: after this many moves of the game.
            self.ply = ply

    class Freed(Message):
        """A hint or the report ended without a result to show: the engines may go on."""

    def __init__(self, link: EngineLink, game: str, start: str | None, sides: tuple[str, str],
                 first_mover: int, first_number: int, analysis: str | None) -> None:
        super().__init__()
        self.link = link
        self.game_name = game
        self.start = start
        self._last_turn: tuple[tuple[str, ...], int] | None = None
        self.sides = sides
        self.first_mover = first_mover
        self.first_number = first_number
        #: The analysis engine's spec (``None``: analysis off).
        self.analysis_spec = analysis
        #: The coach's running search, if any.
        self.job: CoachJob | None = None
        #: The last report, and the moves it judged.
        self.report: GameReport | None = None
        self.report_moves: tuple[str, ...] = ()
        #: Hints used per side, the plies they were used at, and the last hint's move.
        self.hints = [0, 0]
        self.hinted: set[int] = set()
        self.hint_move: str | None = None
        #: The analysis panel shows the search's figures, not a player's words (the screen's choice).
        self.advanced = False

    def compose(self) -> Iterator[EnginePanel]:
        if self.analysis_spec is not None:
            yield self._new_panel(self.first_mover)

    def on_unmount(self) -> None:
        self.cancel()

    # -- the coach's searches ----------------------------------------------------------------

    def _search(self, kind: str, moves: tuple[str, ...], spec: str, limits: Limits) -> None:
        request = self.link.search(self, COACH, self.game_name, spec, self.start, moves, limits)
        self.job = CoachJob(kind, request, moves)

    def cancel(self, *kinds: str) -> None:
        """Stop the coach's search if it is one of ``kinds`` (default: any)."""
        job = self.job
        if job is not None and (not kinds or job.kind in kinds):
            self.link.cancel(job.request)
            self.job = None

    def _current(self, message: EngineInfo | EngineDone | EngineFailed) -> CoachJob | None:
        """The job ``message`` is about (``None``: an earlier search's, stopped since)."""
        job = self.job
        return job if job is not None and job.request == message.request_id else None

    def on_engine_info(self, message: EngineInfo) -> None:
        job = self._current(message)
        if job is None:
            return
        if job.kind == "analysis" and self.panel is not None:
            self._analysed(job, message.stats)
        elif job.kind == "hint":
            self.post_message(self.Say(f"hint: thinking… depth {message.stats.depth}, "
                                       f"best so far {message.stats.best or '-'}"))

    def on_engine_done(self, message: EngineDone) -> None:
        job = self._current(message)
        if job is None:
            return
        if job.kind == "analysis":
            self.job = None
            if self.panel is not None:
                self._analysed(job, message.stats)
                self.panel.set_status("done: the search reached its end")
        elif job.kind == "hint":
            self.job = None
            self.post_message(self.HintFound(job.moves, message.move, message.stats))
        else:
            job.scores.append(PositionScore.from_stats(self.game_name, message.stats))
            self._report_step(job)

    def _turn(self, moves: Sequence[str]) -> int:
        """The side to move after ``moves`` (the game's ``turn``: a side may move again; the
        last answer is kept, as the live analysis asks it again and again)."""
        key = tuple(moves)
        if self._last_turn is None or self._last_turn[0] != key:
            self._last_turn = key, turns_of(self.game_name, self.start, key)[-1]
        return self._last_turn[1]

    def _analysed(self, job: CoachJob, stats: SearchStats) -> None:
        """The analysis panel shows ``stats``, and the eval goes up to the board's bar."""
        panel = self.panel
        assert panel is not None
        panel.show_stats(stats, mover=self._turn(job.moves))
        self.post_message(self.Evaluated(*panel.first_view(stats.score, stats.mate), len(job.moves)))

    def on_engine_failed(self, message: EngineFailed) -> None:
        job = self._current(message)
        if job is None:
            return
        self.job = None
        self.post_message(self.Say(f"the coach's engine failed: {message.message}", error=True))
        if job.kind != "analysis":
            self.post_message(self.Freed())

    # -- analysis ------------------------------------------------------------------------------

    @property
    def panel(self) -> EnginePanel | None:
        """The analysis panel (``None``: analysis off)."""
        panels = self.query(EnginePanel)
        return panels.first() if panels else None

    @property
    def analysing(self) -> bool:
        return self.job is not None and self.job.kind == "analysis"

    @property
    def busy(self) -> str | None:
        """``hint`` or ``report`` while one runs (analysis gives way to them)."""
        return self.job.kind if self.job is not None and self.job.kind != "analysis" else None

    def _new_panel(self, side: int) -> EnginePanel:
        return EnginePanel(side, self.sides[side], self.analysis_spec or HINT_SPEC,
                           id="panel-analysis", title="analysis", trend=False, advanced=self.advanced,
                           scores=game_kind(self.game_name).scores, first_name=self.sides[0],
                           second_name=self.sides[1])

    def analyse(self, moves: tuple[str, ...] | None, waits: str = "") -> None:
        """Analyse the position after ``moves``; ``None``: none now (``waits`` says why).

        A running analysis of the same position goes on; a hint or the report
        goes first (the analysis starts again when the screen next asks)."""
        panel = self.panel
        job = self.job
        if panel is None or (job is not None and job.kind != "analysis"):
            return
        if job is not None and job.moves == moves:
            return
        self.cancel("analysis")
        if moves is None:
            panel.set_status(waits)
            return
        side = self._turn(moves)
        panel.side_name = self.sides[side]
        self._search("analysis", moves, self.analysis_spec or HINT_SPEC, Limits(time=FOREVER))
        panel.set_status(f"analysing {self.sides[side]}'s move", thinking=True)

    def toggle_analysis(self, side: int) -> bool:
        """Analysis on (its panel shows ``side``'s search until it starts) or off; whether it is on now."""
        panel = self.panel
        if panel is None:
            self.analysis_spec = self.analysis_spec or HINT_SPEC
            self.mount(self._new_panel(side))
            return True
        self.cancel("analysis")
        panel.remove()
        return False

    # -- hint ------------------------------------------------------------------------------------

    def hint(self, moves: tuple[str, ...]) -> str:
        """Search the position after ``moves`` for the move to suggest (it comes as
        :class:`Coach.HintFound`; the coach must not be :attr:`busy`); what to say meanwhile."""
        self.cancel("analysis")
        self._search("hint", moves, HINT_SPEC, Limits(time=HINT_TIME))
        return f"hint: the coach looks at the position for {HINT_TIME:g} s…"

    def use_hint(self, ply: int, side: int, move: str) -> int:
        """The hint ``move`` was shown to ``side`` at ``ply``: count it once; the side's hints so far."""
        self.hint_move = move
        if ply not in self.hinted:
            self.hints[side] += 1
            self.hinted.add(ply)
        return self.hints[side]

    # -- the report -----------------------------------------------------------------------------

    @property
    def report_running(self) -> bool:
        return self.busy == "report"

    def report_for(self, moves: tuple[str, ...]) -> GameReport | None:
        """The report of exactly these moves, if one was made."""
        return self.report if self.report is not None and self.report_moves == moves else None

    def start_report(self, moves: tuple[str, ...]) -> None:
        """Judge every move of ``moves`` (the engines must wait meanwhile)."""
        self.cancel()
        job = CoachJob("report", 0, moves)
        job.positions = game_positions(self.game_name, self.start, moves)
        self.job = job
        self._report_step(job)

    def _report_step(self, job: CoachJob) -> None:
        """Search the next position of the report, or finish it."""
        total = len(job.moves) + 1
        depth = game_kind(self.game_name).scores.report_depth
        for position in job.positions:
            ply = len(job.scores)
            if position.outcome() is None:
                job.request = self.link.search(self, COACH, self.game_name, REPORT_ENGINE, self.start,
                                               job.moves[:ply], Limits(depth=depth))
                self.post_message(self.Say(f"report: {REPORT_ENGINE} at depth {depth}, position "
                                           f"{ply + 1} of {total} {progress_bar(ply / total)} — ctrl+k stops it"))
                return
            job.scores.append(PositionScore.final(position))
        self.job = None
        self.report = GameReport.build(self.game_name, self.first_mover, job.moves, job.scores, depth,
                                       turns=turns_of(self.game_name, self.start, job.moves))
        self.report_moves = job.moves
        self.post_message(self.Say("report ready: ctrl+k opens it again; saving writes it into the record"))
        self.open_report()

    def open_report(self) -> None:
        """The report dialog; a move chosen there comes back as :class:`Coach.ShowPly`."""
        assert self.report is not None
        moves = len(self.report_moves)

        def chosen(ply: Any) -> None:
            if isinstance(ply, int) and 0 <= ply <= moves:
                self.post_message(self.ShowPly(ply))

        self.app.push_screen(ReportDialog(self.report, self.sides, self.first_number, self.first_mover,
                                          start=self.start), chosen)

    # -- resign and draw -------------------------------------------------------------------------

    def resign(self, side: int) -> None:
        """Ask ``side`` (a human) whether it resigns."""
        def answered(choice: str | None) -> None:
            if choice == "resign":
                self.post_message(self.GameEnds(Outcome(1 - side, Termination.RESIGNATION)))

        self.app.push_screen(ConfirmDialog(
            f"Resign the game as {self.sides[side]}?", [("cancel", "Play on"), ("resign", "Resign")],
            detail=f"{self.sides[1 - side]} wins.",
        ), answered)

    def ask_draw(self, side: int) -> None:
        """``side`` offers a draw to the other, a human: ask that player."""
        other = 1 - side

        def answered(choice: str | None) -> None:
            if choice == "accept":
                self.post_message(self.GameEnds(Outcome(None, Termination.AGREEMENT)))
            else:
                self.post_message(self.Say(f"{self.sides[other]} declines the draw"))

        self.app.push_screen(ConfirmDialog(
            f"{self.sides[side]} offers a draw. {self.sides[other]}, do you accept?",
            [("decline", "Decline"), ("accept", "Accept the draw")],
        ), answered)

    def engine_answers_draw(self, side: int, engine: str, plies: int,
                            judged: tuple[float, int | None] | None) -> tuple[bool, str]:
        """Whether the other side's engine (its spec ``engine``) takes ``side``'s
        offer after ``plies`` moves, its last score and mate being ``judged``
        (``None``: it has not searched yet); and the line that says so."""
        other = f"{self.sides[1 - side]} ({engine_label(self.game_name, engine)})"
        score, mate = judged if judged is not None else (None, None)
        if accepts_draw(self.game_name, plies, score, mate):
            return True, f"{other} accepts the draw"
        units = game_kind(self.game_name).scores
        needed = units.draw_min_plies
        if plies < needed:
            why = (f"too early: it plays on until {needed} plies (moves of either side) have been "
                   f"played ({plies} so far)")
        elif score is None:
            why = "it has not judged the position yet"
        else:
            why = f"it thinks it stands better ({units.signed(score, mate)} for itself)"
        return False, f"{other} declines the draw: {why}"


def progress_bar(share: float, width: int = 20) -> str:
    """``[██████······]`` for a share between 0 and 1."""
    filled = round(max(0.0, min(1.0, share)) * width)
    return "[" + "█" * filled + "·" * (width - filled) + "]"
