"""The game report: every move judged, the score over the game, a jump to any move.

:class:`ReportDialog` shows a :class:`engines.review.GameReport`: per side the
inaccuracies, mistakes and blunders and the average loss; the chart of the
first player's winning chance (:class:`~tui.app.widgets.score_chart.ScoreChart`);
and the moves, each with its class, what it cost and the engine's choice.
Enter (or a click) on a move closes the dialog on the position after it;
Escape closes it where the game was.  ``p`` (given the game's start) turns the
mistakes and blunders into puzzles, in a worker: those where the move missed wins
clearly, with the line our search prefers, are added to your set ``mine``
(:mod:`tui.puzzle_sets`) and opened.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from engines.review import CLASSES, MARKS, GameReport, MoveReport
from games import game_kind
from games.kind import ScoreScale

from ..keymap import screen_bindings
from ..widgets.score_chart import ScoreChart
from .dialogs import Dialog

__all__ = ["ReportDialog", "eval_reading", "marks_text", "move_line", "side_summary"]


def side_summary(report: GameReport, side: int, name: str) -> str:
    """``White: 1 inaccuracy, 0 mistakes, 1 blunder · average loss 4%``."""
    counts = report.counts(side)
    plural = {"inaccuracy": "inaccuracies"}
    parts = [f"{count} {label if count == 1 else plural.get(label, label + 's')}" for label, count in counts.items()]
    return f"{name}: {', '.join(parts)} · average loss {report.average_loss(side):.0%}"


def eval_reading(text: str, scores: ScoreScale) -> str:
    """A record's ``[%eval]`` (``0.35``, ``-1.20``, ``#3``: the first player's, in the record's
    unit) as every view writes scores, in the game's unit: ``+0.3 pawns``, ``64%``."""
    if text.startswith("#"):
        return scores.signed(0.0, int(text[1:]))
    return scores.signed(float(text) * scores.unit)


def marks_text() -> str:
    """What the marks mean: ``marks: ?! a move losing 5% of the winning chance or more, ? 10%, ?? 15%``."""
    (first, least), *others = reversed(CLASSES)
    rest = "".join(f", {MARKS[name]} {threshold:.0%}" for name, threshold in others)
    return f"marks: {MARKS[first]} a move losing {least:.0%} of the winning chance or more{rest}"


def move_line(move: MoveReport, number: int, first_of_pair: bool, scores: ScoreScale) -> str:
    """``12... Nf6??  blunder, loses 53% (best g6)``; a move of no class: ``eval +0.3 pawns``."""
    dots = "." if first_of_pair else "..."
    text = f"{number}{dots} {move.move}{move.mark}".ljust(22)
    if move.label:
        text += f"{move.label}, loses {move.loss:.0%}"
        if move.best:
            text += f" (best {move.best})"
    else:
        text += f"eval {eval_reading(move.eval, scores)}" if move.eval else ""
    return text


class ReportDialog(Dialog[int | None]):
    """The report of a game; dismissed with the ply to show (the position after a move) or ``None``."""

    DEFAULT_CSS = """
    ReportDialog { align: center middle; }
    ReportDialog > Vertical {
        width: 96; max-width: 100%; height: 90%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    ReportDialog .summary { width: 1fr; }
    ReportDialog #report-title { text-style: bold; width: 1fr; }
    ReportDialog ScoreChart { height: 10; margin: 1 0 0 0; }
    ReportDialog OptionList { height: 1fr; }
    """
    #: The keymap's rows: Esc, q and the report's own key close it; b makes puzzles of the mistakes.
    BINDINGS = screen_bindings("ReportDialog", back="close", close="close", report="close", mistakes="puzzles")

    def __init__(self, report: GameReport, sides: tuple[str, str], first_number: int, first_mover: int,
                 start: str | None = None) -> None:
        super().__init__()
        #: The game's start position (``None``: the game's usual start), for the puzzles of its mistakes.
        self.start = start
        self.report = report
        self.sides = sides
        self.first_number = first_number
        self.first_mover = first_mover

    def compose(self) -> ComposeResult:
        report = self.report
        scores = game_kind(report.game_name).scores
        with Vertical():
            yield Label(f"Game report · every position searched {report.depth} plies deep", id="report-title")
            yield Label(marks_text(), classes="summary")
            for side in (0, 1):
                yield Label(side_summary(report, side, self.sides[side]), classes="summary")
            yield ScoreChart(report.chances, [move.mark for move in report.moves],
                             labels=(f"{self.sides[0]} ▲", f"{self.sides[1]} ▼"), id="report-chart")
            options = []
            number, last = self.first_number, None
            for move in report.moves:  # numbered by the sides that moved: a side may move again
                number += move.side == 0 and last == 1
                first_of_pair, last = move.side == 0, move.side
                options.append(Option(move_line(move, number, first_of_pair, scores), id=f"ply-{move.ply}"))
            yield OptionList(*options, id="report-moves")
            yield Label("Enter: the position after the move · b: puzzles of the mistakes · Esc: close",
                        classes="summary")

    def on_mount(self) -> None:
        moves = self.query_one(OptionList)
        worst = max(self.report.moves, key=lambda move: move.loss, default=None)
        if worst is not None:
            moves.highlighted = worst.ply
        moves.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option_index + 1)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_puzzles(self) -> None:
        """The mistakes and blunders as puzzles (a worker: a few searches each)."""
        from engines.puzzles import MISTAKE_WORDS

        report = self.report
        labels = [move.label for move in report.moves]
        if not any(label in MISTAKE_WORDS for label in labels):
            self.notify("no mistake or blunder in this game to make a puzzle of")
            return
        self.notify("puzzles of the mistakes: searching…")
        self.run_worker(lambda: self._make_puzzles(labels), thread=True, exclusive=True, group="report-puzzles")

    def _make_puzzles(self, labels: list[str]) -> None:
        from engines.puzzles import PuzzleError, puzzles_from_positions, report_positions

        from ...puzzle_sets import MINE, add_to_mine

        game_name = self.report.game_name
        moves = [move.move for move in self.report.moves]
        puzzles = puzzles_from_positions(game_name, report_positions(game_name, self.start, moves, labels),
                                         source="your game (its report)")
        problem = ""
        try:
            add_to_mine(game_name, puzzles)
        except (OSError, PuzzleError) as error:
            problem = f" (not kept in your set {MINE}: {getattr(error, 'strerror', None) or error})"
        self.app.call_from_thread(self._puzzles_made, puzzles, problem)

    def _puzzles_made(self, puzzles: list, problem: str) -> None:
        from ..messages import OpenPuzzles

        if not puzzles:
            self.notify(f"none of the mistakes leaves a move that wins clearly: no puzzle{problem}")
            return
        self.dismiss(None)
        self.app.post_message(OpenPuzzles(self.report.game_name, puzzles, f"your mistakes{problem}"))
