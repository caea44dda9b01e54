"""An experiment's report: its tables, claims and charts, for the command line, the app's
lab screen and the results folder's ``summary.txt``/``summary.json``."""

from __future__ import annotations

import io
import json
import math
import os
from pathlib import Path
from typing import Any, Sequence

from rich.console import Console
from rich.table import Table

from engines.lab import ArmResult, Experiment, Verdict, arm_results, judge
from engines.tournament import GameResult, MatchConfig

from .charts import cost_chart, save_images, score_chart
from .format import CUTOFF_STATS, elo_text, number_text, percent_text

__all__ = ["ExperimentReport", "arm_table", "arms_table", "cost_table", "claims_table", "render_text", "write_outputs"]

class ExperimentReport:
    """An experiment's results so far: arms, verdicts, and their renderings."""

    def __init__(self, experiment: Experiment, game_results: Sequence[GameResult], games: int | None = None,
                 configs: Sequence[MatchConfig] | None = None):
        self.experiment = experiment
        #: Each arm's figures, from the games' results.
        self.results: list[ArmResult] = arm_results(experiment, game_results, games, configs)
        self.verdicts: list[Verdict] = [judge(claim, self.results) for claim in experiment.claims]
        self._charts: dict[int, dict[str, str]] = {}

    def charts(self, width: int = 76) -> dict[str, str]:
        """The text charts by file stem (drawn once per width: the summary,
        the chart files and the printout share them)."""
        if width not in self._charts:
            self._charts[width] = self._draw(width)
        return self._charts[width]

    def _draw(self, width: int) -> dict[str, str]:
        x = self.experiment.x
        return {
            "chart-score": score_chart(self.results, x, width=width, title=f"{self.experiment.name}: score % "
                                       f"(95% interval) against {self._opponents()}"),
            "chart-time": cost_chart(self.results, x, stat="time_s", width=width,
                                     title=f"{self.experiment.name}: ms per move (log scale)"),
            "chart-nodes": cost_chart(self.results, x, stat="nodes", width=width,
                                      title=f"{self.experiment.name}: nodes per move (log scale)"),
        }

    def _opponents(self) -> str:
        opponents = sorted({arm.opponent for arm in self.experiment.arms})
        return opponents[0] if len(opponents) == 1 else "their opponents"

    def to_dict(self) -> dict[str, Any]:
        def finite(value: float) -> float | None:
            return round(value, 1) if math.isfinite(value) else None

        arms = []
        for result in self.results:
            low, high = result.interval()
            elo, elo_low, elo_high = result.elo
            arms.append({
                "label": result.arm.label, "engine": result.arm.engine, "opponent": result.arm.opponent,
                "x": result.arm.x, "series": result.arm.series, "games": result.games,
                "wdl": list(result.wdl), "score": round(result.rate(), 4),
                "score_interval": [round(low, 4), round(high, 4)],
                "elo": finite(elo), "elo_interval": [finite(elo_low), finite(elo_high)],
                "per_move": {name: round(result.per_move(name), 6)
                             for name in ("time_s", "nodes", "evals", "prunes", "depth", *CUTOFF_STATS)},
            })
        claims = [{"text": v.claim.text, "kind": v.claim.kind, "arms": list(v.claim.arms),
                   "measure": v.claim.measure, "value": v.claim.value, "figure": v.figure,
                   "verdict": v.verdict} for v in self.verdicts]
        return {"experiment": self.experiment.name, "title": self.experiment.title,
                "source": self.experiment.source, "game": self.experiment.game, "arms": arms, "claims": claims}


def arm_table(report: ExperimentReport) -> Table:
    """One row per arm: games, W-D-L, score and Elo with their 95% intervals."""
    table = Table(title=f"{report.experiment.name}: results of each arm's engine", title_justify="left")
    table.add_column("arm", no_wrap=True, min_width=max(len(arm.label) for arm in report.experiment.arms))
    for column in ("games", "W-D-L", "score % [95% CI]", "Elo [95% CI]"):
        table.add_column(column, justify="right", no_wrap=True)
    for result in report.results:
        low, high = result.interval()
        elo, elo_low, elo_high = result.elo
        played = result.games > 0
        table.add_row(
            result.arm.label, str(result.games), "-".join(map(str, result.wdl)),
            f"{percent_text(result.rate())} [{percent_text(low)}, {percent_text(high)}]" if played else "-",
            f"{elo_text(elo)} [{elo_text(elo_low)}, {elo_text(elo_high)}]" if played else "-",
        )
    return table


def cost_table(report: ExperimentReport) -> Table:
    """One row per arm: its engine's averages per move (time, nodes, evaluations,
    prunes, depth, and the cutoff counters when an arm has any: ``h0 ev`` the
    children H0 evaluated, ``h0 cut`` those it cut, and so for Hl and Hr)."""
    table = Table(title=f"{report.experiment.name}: per move of each arm's engine (averages)",
                  title_justify="left")
    table.add_column("arm", no_wrap=True, min_width=max(len(arm.label) for arm in report.experiment.arms))
    cutoffs = [name for name in CUTOFF_STATS if any(r.per_move(name) for r in report.results)]
    short = {"evals": "ev", "pruned": "cut"}
    for column in ("moves", "ms", "nodes", "evals", "prunes", "depth",
                   *(c.split("_")[0] + " " + short[c.split("_")[1]] for c in cutoffs)):
        table.add_column(column, justify="right", no_wrap=True)
    for result in report.results:
        moves = int(result.summary.a.totals["moves"]) if result.summary else 0
        table.add_row(
            result.arm.label, str(moves), f"{1000 * result.per_move('time_s'):,.1f}",
            *(number_text(result.per_move(name)) for name in ("nodes", "evals", "prunes")),
            f"{result.per_move('depth'):.1f}", *(number_text(result.per_move(name)) for name in cutoffs),
        )
    return table


def arms_table(report: ExperimentReport) -> Table:
    """Each arm's engine and opponent."""
    experiment = report.experiment
    table = Table(title=f"{experiment.name}: {experiment.title} ({experiment.game})", title_justify="left")
    for column in ("arm", "engine", "opponent"):
        table.add_column(column)
    for arm in experiment.arms:
        table.add_row(arm.label, arm.engine, arm.opponent)
    return table


def claims_table(report: ExperimentReport) -> Table:
    """The seed's claims, our figures, the verdicts."""
    source = report.experiment.source or "the claim"
    table = Table(title=f"claims ({source}) and verdicts at 95%", title_justify="left")
    table.add_column("the seed says")
    table.add_column("we measure")
    table.add_column("verdict")
    colour = {"agrees": "green", "disagrees": "red", "inconclusive": "yellow"}
    for verdict in report.verdicts:
        style = colour.get(verdict.verdict, "dim")
        table.add_row(verdict.claim.text, verdict.figure, f"[{style}]{verdict.verdict}[/]")
    return table


def render_text(report: ExperimentReport, *, width: int = 120, charts: bool = True) -> str:
    """The whole report as plain text (``summary.txt``)."""
    console = Console(width=width, record=True, file=io.StringIO(), highlight=False,
                      color_system=None)
    if report.experiment.about:
        console.print(" ".join(report.experiment.about.split()))
        console.print()
    for table in (arms_table(report), arm_table(report), cost_table(report)):
        console.print(table)
    if report.experiment.claims:
        console.print()
        console.print(claims_table(report))
    text = console.export_text()
    if charts:
        text += "\n" + "\n\n".join(report.charts().values()) + "\n"
    return text


def _replace(path: Path, text: str) -> None:
    """Write a derived file whole (a temporary file renamed over it)."""
    temporary = path.with_name(path.name + ".part")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def write_outputs(report: ExperimentReport, folder: Path) -> list[Path]:
    """``summary.txt``, ``summary.json`` and the charts (text, and PNG/SVG with
    matplotlib) in ``folder``; returns the files written."""
    written = []
    _replace(folder / "summary.txt", render_text(report))
    _replace(folder / "summary.json", json.dumps(report.to_dict(), indent=1) + "\n")
    written += [folder / "summary.txt", folder / "summary.json"]
    for stem, text in report.charts().items():
        _replace(folder / f"{stem}.txt", text + "\n")
        written.append(folder / f"{stem}.txt")
    written += save_images(report.results, report.experiment.x, folder, report.experiment.name)
    return written
