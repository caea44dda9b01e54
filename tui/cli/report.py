"""The command line's output of runs, with rich: the progress bars of a running match (and of
a dataset), and the printing of the summary tables and crosstables (:mod:`tui.views.tournament`
builds them, for the lab screen too).

``tui-games match`` and ``tui-games report`` share :func:`print_summaries`,
so a summary printed from files is the one printed at the end of the run.
The progress bar goes to stderr, the tables to stdout.
"""

from __future__ import annotations

import errno
import sys
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence, TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from engines.tournament import GameResult, MatchSummary, running_score

from ..views.tournament import CROSSTABLE_NOTE, crosstable, summary_tables
from .common import capped_jobs

if TYPE_CHECKING:  # numpy comes with the ratings: only for the commands that rate
    from engines.tournament.crosstable import Standings

__all__ = ["DatasetProgress", "MatchProgress", "PipeConsole", "play_run", "print_summaries", "print_tournament"]

#: Width used when the output is not a terminal (files, pipes, tests).
PLAIN_WIDTH = 120


class PipeConsole(Console):
    """A rich Console that lets a closed pipe (``… | head -1``) reach the
    command's entry point, which ends quietly with status 0 as every other
    command does (rich itself would exit with status 1)."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")


def _console(file: TextIO) -> Console:
    console = PipeConsole(file=file, highlight=False)
    if not console.is_terminal:
        console = PipeConsole(file=file, highlight=False, width=PLAIN_WIDTH)
    return console


def _score_text(a: float, b: float) -> str:
    return f"A {a:g} – B {b:g}"


def _games_progress(field: str, file: TextIO | None) -> Progress:
    """Games done of the total, one more figure (``field``), elapsed time and ETA, on stderr."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(field),
        TextColumn("elapsed"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=_console(file if file is not None else sys.stderr),
    )


class MatchProgress:
    """A progress bar on stderr: games done of the total, elapsed time, ETA and
    the running score.  Use as a context manager; :meth:`advance` per game."""

    def __init__(self, total: int, done: Sequence[GameResult], *, file: TextIO | None = None,
                 score: bool = True) -> None:
        self.show_score = score
        self.extra = ""
        self.points = list(running_score(done))
        self.progress = _games_progress("{task.fields[score]}", file)
        self.task = self.progress.add_task("games", total=total, completed=len(done),
                                           score=self._score())

    def __enter__(self) -> MatchProgress:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def advance(self, result: GameResult, extra: str | None = None) -> None:
        """One more game; ``extra`` replaces the text after the score (a test's LLR)."""
        a, b = running_score([result])
        self.points[0] += a
        self.points[1] += b
        if extra is not None:
            self.extra = extra
        self.progress.update(self.task, advance=1, score=self._score())

    def _score(self) -> str:
        """The running score (of a match; a run of several pairings shows none)."""
        score = _score_text(*self.points) if self.show_score else ""
        return f"{score}  {self.extra}" if self.extra else score


def play_run(run: Any, *, prog: str, jobs: int, dask: str | None, score: bool = True,
             after: Callable[[list[GameResult]], tuple[str | None, bool]] | None = None) -> bool:
    """Play the missing games of ``run`` (an :class:`engines.tournament.run.Run`:
    pairing by pairing, each in index order), keeping each as it ends, with a progress bar (``score``: a
    match's running score).  ``jobs`` is capped at the games left and the cores (said on stderr as
    ``prog``'s).  ``after(results)`` is called after each game and
    gives the text to show beside the score and whether to stop now (the games
    still being played are then stopped).  True when Ctrl-C stopped the run."""
    from engines.tournament import play_tasks

    games = None
    try:
        jobs = capped_jobs(prog, jobs, run.planned - len(run.results))
        games = play_tasks(run.missing(), jobs=jobs, dask=dask)
        with MatchProgress(run.planned, run.results, score=score) as progress:
            for result in games:
                run.add(result)
                extra, stop = after(run.results) if after is not None else (None, False)
                progress.advance(result, extra)
                if stop:
                    games.close()
                    break
    except KeyboardInterrupt:
        if games is not None:
            games.close()
        return True
    finally:
        run.close()
    return False


class DatasetProgress:
    """``tui-games dataset``'s bar on stderr: games written of the total,
    positions so far, elapsed time and ETA.  Pass :meth:`start` and
    :meth:`advance` as ``write_dataset``'s ``on_start`` and ``on_game`` (the
    bar appears only once the arguments passed every check); use as a
    context manager, which stops it."""

    def __init__(self, total: int, *, file: TextIO | None = None) -> None:
        self.positions = 0
        self.started = False
        self.progress = _games_progress("{task.fields[positions]:,} positions", file)
        self.task = self.progress.add_task("games", total=total, positions=0)

    def __enter__(self) -> DatasetProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.started:
            self.progress.stop()

    def start(self) -> None:
        self.started = True
        self.progress.start()

    def advance(self, played: Any) -> None:
        self.positions += len(played.rows)
        self.progress.update(self.task, advance=1, positions=self.positions)


def print_summaries(summaries: Iterable[MatchSummary], *, file: TextIO | None = None) -> None:
    """Print the summary tables of each pairing on ``file`` (stdout)."""
    console = _console(file if file is not None else sys.stdout)
    for number, summary in enumerate(summaries):
        if number:
            console.print()
        for renderable in summary_tables(summary):
            console.print(renderable)


def print_tournament(standings: Standings, *, file: TextIO | None = None) -> None:
    """Print a tournament's crosstable on ``file`` (stdout)."""
    console = _console(file if file is not None else sys.stdout)
    console.print(crosstable(standings))
    console.print(CROSSTABLE_NOTE)
