"""Tournament output with rich: the progress bar of a running match and its summary tables.

``tui-games match`` and ``tui-games report`` share :func:`print_summaries`,
so a summary printed from files is the one printed at the end of the run.
The progress bar goes to stderr, the tables to stdout.
"""

from __future__ import annotations

import errno
import math
import sys
from typing import Any, Callable, Iterable, Sequence, TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from engines import STAT_NAMES
from engines.tournament import GameResult, MatchSummary, running_score

__all__ = ["DatasetProgress", "MatchProgress", "play_run", "print_summaries", "summary_tables", "crosstable",
           "print_tournament"]

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


def play_run(run: Any, *, jobs: int, dask: str | None, score: bool = True,
             after: Callable[[list[GameResult]], tuple[str | None, bool]] | None = None) -> bool:
    """Play the missing games of ``run`` (an :class:`engines.tournament.run.Run`:
    pairing by pairing, each in index order), keeping each as it ends, with a progress bar (``score``: a
    match's running score).  ``after(results)`` is called after each game and
    gives the text to show beside the score and whether to stop now (the games
    still being played are then stopped).  True when Ctrl-C stopped the run."""
    from engines.tournament import play_tasks

    games = None
    try:
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


def _percent(rate: float) -> str:
    return f"{100 * rate:.1f}%"


def _elo(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"


def _number(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:,.1f}"


def _seconds(value: float) -> str:
    return f"{value:.3f} s" if value < 10 else f"{value:,.1f} s"


#: The cutoff counters (h0/hl/hr evals and pruned), shown per move when a side has any.
_CUTOFFS = tuple(name for name in STAT_NAMES if name.startswith(("h0_", "hl_", "hr_")))


def summary_tables(summary: MatchSummary) -> list[Any]:
    """The renderables of one summary: results, cost per move, colours and reasons."""
    a, b = summary.a, summary.b
    title = (f"{summary.game}: A {a.spec} vs B {b.spec} -- {summary.games} game"
             f"{'s' if summary.games != 1 else ''}"
             + (f" of {summary.planned}" if summary.planned > summary.games else ""))
    results = Table(title=title, title_justify="left")
    for column in ("agent", "spec"):
        results.add_column(column)
    for column in ("W", "D", "L", "score", "score % [95% CI]", "Elo [95% CI]"):
        results.add_column(column, justify="right")
    low, high = summary.interval
    elo_low, elo_high = summary.elo_interval
    rates = {
        "a": (summary.score, low, high, summary.elo, elo_low, elo_high),
        "b": (1 - summary.score, 1 - high, 1 - low, -summary.elo, -elo_high, -elo_low),
    }
    for side in (a, b):
        rate, lo, hi, elo, elo_lo, elo_hi = rates[side.agent]
        results.add_row(
            side.agent.upper(), side.spec, str(side.wins), str(side.draws), str(side.losses),
            f"{side.points:g}", f"{_percent(rate)} [{_percent(lo)}, {_percent(hi)}]",
            f"{_elo(elo)} [{_elo(elo_lo)}, {_elo(elo_hi)}]",
        )

    cost = Table(title="per move (averages)", title_justify="left")
    cost.add_column("agent")
    columns = ["moves", "time", "nodes", "evals", "prunes", "tt hits", "depth"]
    cutoffs = [name for name in _CUTOFFS if a.totals[name] or b.totals[name]]
    columns += [name.replace("_", " ") for name in cutoffs]
    for column in columns:
        cost.add_column(column, justify="right")
    for side in (a, b):
        cost.add_row(
            side.agent.upper(), str(side.totals["moves"]), _seconds(side.per_move("time_s")),
            *(_number(side.per_move(name)) for name in ("nodes", "evals", "prunes", "tt_hits")),
            f"{side.per_move('depth'):.1f}",
            *(_number(side.per_move(name)) for name in cutoffs),
        )

    colours = Table(title="by colour (W-D-L)", title_justify="left")
    colours.add_column("agent")
    colours.add_column("moving first", justify="right")
    colours.add_column("moving second", justify="right")
    for side in (a, b):
        colours.add_row(side.agent.upper(), _wdl(side.first), _wdl(side.second))

    reasons = Table(title="how the games ended", title_justify="left")
    reasons.add_column("reason")
    for column in ("A wins", "B wins", "draws", "total"):
        reasons.add_column(column, justify="right")
    for reason, counts in sorted(summary.reasons.items(), key=lambda item: -sum(item[1].values())):
        reasons.add_row(reason, str(counts["a"]), str(counts["b"]), str(counts["draw"]),
                        str(sum(counts.values())))
    average = summary.plies / summary.games if summary.games else 0
    footer = (f"{average:.1f} plies a game after the opening; {summary.wall_s:,.1f} s of game time "
              f"in all (summed over games, not elapsed)")
    return [results, cost, colours, reasons, footer]


def _wdl(counts: Sequence[int]) -> str:
    return "-".join(str(count) for count in counts)


def print_summaries(summaries: Iterable[MatchSummary], *, file: TextIO | None = None) -> None:
    """Print the summary tables of each pairing on ``file`` (stdout)."""
    console = _console(file if file is not None else sys.stdout)
    for number, summary in enumerate(summaries):
        if number:
            console.print()
        for renderable in summary_tables(summary):
            console.print(renderable)


def crosstable(standings: Any) -> Table:
    """A tournament's crosstable: engines by rating, their Elo, points, and the
    points of each row against each column (``·`` where they do not meet)."""
    order = standings.order()
    table = Table(title=f"crosstable -- {standings.played} of {standings.planned} games", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("engine")
    table.add_column("Elo [95%]", justify="right")
    table.add_column("points", justify="right")
    table.add_column("score", justify="right")
    table.add_column("draws", justify="right")
    for number in range(1, len(order) + 1):
        table.add_column(str(number), justify="right")
    for rank, engine in enumerate(order, 1):
        rating = standings.rating(engine)
        if rating is None:
            elo = "-"
        elif rating.anchor:
            elo = f"{rating.elo:.0f} (anchor)"
        else:
            elo = f"{rating.elo:.0f} ± {rating.margin:.0f}"
        cells = []
        for other in order:
            cell = standings.cells.get((engine, other))
            cells.append("" if other == engine else "·" if cell is None else f"{cell[0]:g}/{cell[1]}")
        games = standings.games(engine)
        score = f"{100 * standings.points(engine) / games:.1f}%" if games else "-"
        table.add_row(str(rank), engine, elo, f"{standings.points(engine):g}/{games}", score,
                      f"{100 * standings.draw_rate(engine):.0f}%", *cells)
    return table


def print_tournament(standings: Any, *, file: TextIO | None = None) -> None:
    """Print a tournament's crosstable on ``file`` (stdout)."""
    console = _console(file if file is not None else sys.stdout)
    console.print(crosstable(standings))
    console.print("Elo: maximum likelihood over all games (one virtual draw per pairing), the first engine "
                  "at the anchor; cells: points of the row's engine against the column's")
