"""A match's summary tables, its figures in fastchess's words, and a tournament's
crosstable: what ``tui-games match``, ``report`` and ``tournament`` print and the
lab screen shows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from rich.table import Table

from engines.tournament import MatchSummary

if TYPE_CHECKING:  # numpy comes with the ratings: only for the commands that rate
    from engines.tournament.crosstable import Standings
    from engines.tournament.sprt import SprtState

from .format import CUTOFF_STATS, elo_text, number_text, percent_text, seconds_text

__all__ = ["CROSSTABLE_NOTE", "summary_tables", "crosstable", "fastchess_lines"]

#: What the crosstable's figures are, printed below it.
CROSSTABLE_NOTE = ("Elo: maximum likelihood over all games (one virtual draw per pairing), the first engine "
                   "at the anchor; cells: points of the row's engine against the column's")


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
            f"{side.points:g}", f"{percent_text(rate)} [{percent_text(lo)}, {percent_text(hi)}]",
            f"{elo_text(elo)} [{elo_text(elo_lo)}, {elo_text(elo_hi)}]",
        )

    cost = Table(title="per move (averages)", title_justify="left")
    cost.add_column("agent")
    columns = ["moves", "time", "nodes", "evals", "prunes", "tt hits", "depth"]
    cutoffs = [name for name in CUTOFF_STATS if a.totals[name] or b.totals[name]]
    columns += [name.replace("_", " ") for name in cutoffs]
    for column in columns:
        cost.add_column(column, justify="right")
    for side in (a, b):
        cost.add_row(
            side.agent.upper(), str(side.totals.moves), seconds_text(side.per_move("time_s")),
            *(number_text(side.per_move(name)) for name in ("nodes", "evals", "prunes", "tt_hits")),
            f"{side.per_move('depth'):.1f}",
            *(number_text(side.per_move(name)) for name in cutoffs),
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
    if a.forfeits or b.forfeits:
        footer += f"\nforfeits (games lost by breaking the rules): A {a.forfeits}, B {b.forfeits}"
    return [results, cost, colours, reasons, footer]


def fastchess_lines(summary: MatchSummary, state: SprtState | None = None, *,
                    verdict: bool = True) -> list[str]:
    """fastchess's summary of a pairing for A: ``Results of A vs B``, Elo and
    nElo with their margins, LOS, draw and pairs ratios, games, ``Ptnml(0-2)``,
    then the sequential test's ``LLR`` line when there is one -- after a line
    saying where the test stands (``verdict``: our text format; fastchess
    prints the LLR alone)."""
    detail = f"{summary.game}, {summary.games} of {summary.planned} games"
    lines = summary.stats.fastchess_lines(summary.a.spec, summary.b.spec)
    lines[0] = lines[0].removesuffix(":") + f" ({detail}):"
    if state is not None:
        if verdict:
            lines.append(state.verdict_line())
        lines.append(state.llr_line())
    return lines


def _wdl(counts: Sequence[int]) -> str:
    return "-".join(str(count) for count in counts)


def crosstable(standings: Standings) -> Table:
    """A tournament's crosstable: engines by rating, their Elo, points, and the
    points of each row against each column (``·`` where they do not meet)."""
    order = standings.order()
    table = Table(title=f"crosstable -- {standings.played} of {standings.planned} games", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("engine", overflow="fold")  # a long spec folds onto a second line rather than being cut
    table.add_column("Elo [95%]", justify="right")
    table.add_column("points", justify="right")
    table.add_column("score", justify="right")
    table.add_column("draws", justify="right")
    forfeits = any(standings.forfeits.values())
    if forfeits:
        table.add_column("forfeits", justify="right")
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
                      f"{100 * standings.draw_rate(engine):.0f}%",
                      *([str(standings.forfeits.get(engine, 0))] if forfeits else []), *cells)
    return table
