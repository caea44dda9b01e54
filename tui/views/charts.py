"""The lab's charts: drawn as text with plotext (the terminal, the app, the
results folder) and, when matplotlib is installed, saved as PNG and SVG too.

Two kinds, from an experiment's :class:`~engines.lab.ArmResult` list:

- :func:`score_chart` -- each arm's score (or wins, draws) with its Wilson 95%
  interval as a bar, against the swept parameter (or the arms in order);
- :func:`cost_chart` -- seconds or nodes per move against the same axis, on a
  log scale.

Arms with the same ``series`` are one line.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Sequence

from engines.lab import ArmResult

__all__ = ["CHARTS", "score_chart", "cost_chart", "save_images", "has_matplotlib"]

_ANSI_RE = re.compile(r"\x1b\[[0-9;]*m")

#: Each series' marker in text (colours do not survive a text file).
MARKERS = ("●", "x", "+", "◆", "▲", "■")

#: The charts of an experiment: file stem -> (what, title).
CHARTS = {
    "chart-score": ("score", "score with 95% interval"),
    "chart-time": ("time_s", "seconds per move (log)"),
    "chart-nodes": ("nodes", "nodes per move (log)"),
}


def _series(results: Sequence[ArmResult]) -> dict[str, list[ArmResult]]:
    groups: dict[str, list[ArmResult]] = {}
    for result in results:
        groups.setdefault(result.arm.series, []).append(result)
    return {name: sorted(group, key=lambda r: r.arm.x) for name, group in groups.items()}


def _ticks(results: Sequence[ArmResult], x_name: str) -> tuple[list[float], list[str]]:
    xs = sorted({r.arm.x for r in results})
    if x_name == "arm":
        labels = {r.arm.x: r.arm.label for r in results}
        return xs, [labels[x] for x in xs]
    return xs, [f"{x:g}" for x in xs]


def _figure(width: int, height: int):  # type: ignore[no-untyped-def]
    import plotext as plt

    plt.clear_figure()
    plt.theme("clear")
    plt.plot_size(width, height)
    return plt


def score_chart(results: Sequence[ArmResult], x_name: str, *, measure: str = "score", width: int = 76,
                height: int = 18, title: str = "") -> str:
    """The arms' ``measure`` rate with interval bars, as text."""
    played = [r for r in results if r.games]
    if not played:
        return f"{title or measure}\n(no games yet)"
    plt = _figure(width, height)
    colours = ["blue", "red", "green", "magenta", "cyan", "orange"]
    for number, (name, group) in enumerate(_series(played).items()):
        colour = colours[number % len(colours)]
        offset = 0.06 * (number - (len(_series(played)) - 1) / 2)  # series side by side
        for result in group:  # the interval: a vertical bar (plotext's own bars are symmetric)
            low, high = result.interval(measure)
            plt.plot([result.arm.x + offset] * 2, [100 * low, 100 * high], marker="│", color=colour)
        plt.scatter([r.arm.x + offset for r in group], [100 * r.rate(measure) for r in group],
                    marker=MARKERS[number % len(MARKERS)], color=colour, label=name or None)
    xs, labels = _ticks(results, x_name)
    if xs:
        plt.xticks(xs, labels)
        plt.xlim(min(xs) - 0.5, max(xs) + 0.5)
    plt.ylim(0, 100)
    plt.yticks([0, 25, 50, 75, 100])
    plt.title(_fit(title or f"{measure} %", width))
    plt.xlabel(x_name)
    return _ANSI_RE.sub("", plt.build())


def cost_chart(results: Sequence[ArmResult], x_name: str, *, stat: str = "time_s", width: int = 76,
               height: int = 16, title: str = "") -> str:
    """The arms' average ``stat`` per move (``time_s`` or ``nodes``) on a log scale, as text."""
    scale = 1000.0 if stat == "time_s" else 1.0
    title = title or ("milliseconds per move (log scale)" if stat == "time_s" else "nodes per move (log scale)")
    lines = {name: [(r.arm.x, r.per_move(stat) * scale) for r in group if r.per_move(stat) > 0]
             for name, group in _series([r for r in results if r.games]).items()}
    if not any(lines.values()):
        return f"{title}\n(no figures yet)"
    plt = _figure(width, height)
    for number, (name, points) in enumerate(lines.items()):
        marker = MARKERS[number % len(MARKERS)]
        xs, ys = [x for x, _ in points], [y for _, y in points]
        if points and x_name != "arm":  # a line only along a real axis, not between unrelated arms
            plt.plot(xs, ys)
        if points:  # the points in the series' marker, which its legend shows
            plt.scatter(xs, ys, marker=marker, label=name or None)
    xs, labels = _ticks(results, x_name)
    if xs:
        plt.xticks(xs, labels)
        plt.xlim(min(xs) - 0.5, max(xs) + 0.5)
    plt.yscale("log")
    plt.title(_fit(title, width))
    plt.xlabel(x_name)
    return _ANSI_RE.sub("", plt.build())


def _fit(title: str, width: int) -> str:
    """A title plotext shows (it drops one wider than the chart)."""
    return title if len(title) <= width - 4 else title[: width - 5] + "…"


def has_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def save_images(results: Sequence[ArmResult], x_name: str, folder: Path, title: str) -> list[Path]:
    """The three charts as PNG and SVG in ``folder`` (nothing without matplotlib)."""
    if not has_matplotlib():
        return []
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as pyplot

    written = []
    xs, labels = _ticks(results, x_name)
    for stem, (what, caption) in CHARTS.items():
        figure, axes = pyplot.subplots(figsize=(7, 4.2))
        for name, group in _series([r for r in results if r.games]).items():
            x = [r.arm.x for r in group]
            if what == "score":
                y = [100 * r.rate() for r in group]
                low = [100 * (r.rate() - r.interval()[0]) for r in group]
                high = [100 * (r.interval()[1] - r.rate()) for r in group]
                axes.errorbar(x, y, yerr=[low, high], marker="o", capsize=4, label=name or None)
            else:
                scale = 1000.0 if what == "time_s" else 1.0
                y = [max(r.per_move(what) * scale, math.ulp(1.0)) for r in group]
                axes.plot(x, y, marker="o", linestyle="-" if x_name != "arm" else "none", label=name or None)
        if what == "score":
            axes.set_ylim(0, 100)
            axes.set_ylabel("score %")
        else:
            axes.set_yscale("log")
            axes.set_ylabel("ms per move" if what == "time_s" else "nodes per move")
        axes.set_xticks(xs, labels)
        axes.set_xlabel(x_name)
        axes.set_title(f"{title}: {caption}", fontsize=9)
        if any(r.arm.series for r in results):
            axes.legend(fontsize=8)
        axes.grid(alpha=0.3)
        figure.tight_layout()
        for suffix in (".png", ".svg"):
            path = folder / (stem + suffix)
            figure.savefig(path)
            written.append(path)
        pyplot.close(figure)
    return written
