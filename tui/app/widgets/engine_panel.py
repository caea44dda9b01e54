"""The engine panel: one AI side's search, live.

By default the panel shows what a player reads: the position in words and in the game's unit
(``White is slightly better (+0.6 pawns)``, ``equal``, ``Black mates in 3``:
:meth:`games.kind.ScoreScale.verdict`), the best move and line, and how deep the engine looked;
the engine is named in its title by its level (``Club ~1450``).  Its :attr:`EnginePanel.advanced`
figures, one key away (on by default when two engines play), are the search's own:

While the engine thinks the panel shows the search statistics (:class:`engines.SearchStats`) as the
search process reports them (about ten times a second): nodes, evaluations,
alpha-beta prunes (and the share cut by the first move), the cutoff engines'
counters, transposition-table hits, depth, elapsed time, nodes/s, the best move
so far, the eval (the position for the first player, in the game's one unit,
:meth:`games.kind.ScoreScale.signed`: ``+0.9 pawns`` and ``#3`` in chess, ``+6 discs``
in Othello, ``64%`` in Quixo; said so: "eval (White)") and the
principal variation.  Every line fits the panel: the best move and the score
have lines of their own, so a long move (``15x24x31x22``) never pushes the score
out at 80 columns.  When the search ends the figures stay until the next one
(on a short terminal the idle side's panel shrinks to one line of them).
Underneath, :class:`ScoreTrend` charts the eval after each of the engine's
moves (for the first player too) on a symmetric scale with 0 in the middle and
its range labelled in the game's unit (``±2 pawns``; ``30-70%`` where scores read
as a winning chance), so a drop from +7 to -2 looks like what it is; a forced win
is drawn at the edge of the scale the other scores set, which never goes beyond
a winning chance of about 99%.  A move taken back takes its point with it, and
the figures, which were of a later position, go until the next search.
"""

from __future__ import annotations

import math

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.geometry import Size
from textual.widget import Widget

from engines import SearchStats
from games.kind import ScoreScale, by_tables

from ...views.format import ENGINE_COUNTS, count_text, first_player_view, line_text, visits_text

__all__ = ["EnginePanel", "Figures", "ScoreTrend", "TREND_MOST", "looked_text", "trend_axis", "trend_scale",
           "trend_text", "why_figures_differ"]

#: Scores worth more than this many times the game's ``win_scale`` (a winning chance
#: over 99%) are drawn at the trend's edge, which never goes beyond them.
TREND_MOST = 5


#: A row of figures: two label and value pairs (a value may be styled), or one
#: pair across the whole width.
Row = tuple[str, "str | Text", str, "str | Text"] | tuple[str, "str | Text"]
#: The bars of the score trend, lowest first: the middle one (▄) is 0.
TREND_BARS = "_▁▂▃▄▅▆▇█"


def trend_scale(values: list[float], most: float = math.inf, least: float = 0.0) -> float:
    """The trend's half range: the largest finite value's size rounded up to 1, 2 or 5 times a
    power of ten, no less than ``least`` and no more than ``most`` rounded so (a forced win,
    ``±inf``, counts for none)."""
    largest = min(max([least] + [abs(value) for value in values if math.isfinite(value)]), most)
    step = 1.0
    while True:
        for factor in (1, 2, 5):
            if largest <= factor * step:
                return factor * step
        step *= 10


def trend_axis(scale: float, units: ScoreScale) -> str:
    """The trend's range as a player reads it: ``±2 pawns``, ``±1 pawn``, or ``30-70%`` for a winning chance."""
    if units.reading is None:
        return f"{50 - scale:g}-{50 + scale:g}%"
    return f"±{scale:g} {units.reading.one if scale == 1 else units.reading.many}"


def trend_text(values: list[float], width: int, units: ScoreScale) -> Text:
    """The last values that fit ``width`` as bars (:meth:`games.kind.ScoreScale.plotted`, a forced
    win ``±inf``) on their scale, the range written first in the game's unit; what goes beyond the
    scale (a forced win) is drawn at its edge."""
    # a winning chance's scale is 40-60% at the least: a point either side of 50% is noise
    scale = trend_scale(values, units.plotted(TREND_MOST * units.win_scale), 10.0 if units.reading is None else 0.0)
    label = f"trend {trend_axis(scale, units)} "
    shown = values[-max(width - len(label), 1):]
    bars = "".join(TREND_BARS[round((max(-scale, min(scale, value)) / scale + 1) / 2 * 8)]
                   for value in shown)
    text = Text(no_wrap=True, overflow="crop", end="")
    text.append(label, "dim")
    text.append(bars, "bold")
    return text


class ScoreTrend(Widget):
    """The engine's score after each of its moves: bars on a labelled symmetric scale."""

    DEFAULT_CSS = """
    ScoreTrend {
        height: 1;
    }
    """

    def __init__(self, units: ScoreScale) -> None:
        super().__init__()
        self.units = units
        self.scores: list[float] = []

    def show(self, scores: list[float]) -> None:
        self.scores = list(scores)
        self.refresh()

    def render(self) -> Text:
        if not self.scores:
            return Text("trend: after the engine's first move", style="dim", end="")
        return trend_text(self.scores, self.size.width or 40, self.units)
#: What the figures show: rows and the principal variation, or one line (compact).
FigureContent = tuple[list[Row], str] | Text


class Figures(Widget):
    """The panel's figures, laid out by hand as lines of text.

    They are redrawn about ten times a second while an engine thinks, and every
    redraw delays the keys typed meanwhile: a Rich table costs some 6 ms to
    render, and ``Static.update`` (``layout=True``) makes Textual lay out and
    repaint the whole screen, 15 ms on average and up to 60.  These lines cost
    about 0.5 ms, and new figures with as many lines repaint only this widget.
    """

    DEFAULT_CSS = """
    Figures {
        height: auto;
    }
    """

    def __init__(self, content: FigureContent, *, classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.content = content
        #: The principal variation's label: ``pv`` (the search's figures), ``line`` (a player's words).
        self.pv_label = "pv"

    def show(self, content: FigureContent) -> None:
        """New figures; the screen is laid out again only when the number of lines changes."""
        relayout = _height(content) != _height(self.content)
        self.content = content
        self.refresh(layout=relayout)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return _height(self.content)

    def render(self) -> Text:
        if isinstance(self.content, Text):
            return self.content
        rows, pv = self.content
        width = self.size.width or 40
        pairs = [row for row in rows if len(row) == 4]
        left = max((len(row[0]) for row in pairs), default=0)
        right = max((len(row[2]) for row in pairs), default=0)
        values = max(width - left - right - 3, 2)  # the two value columns share the rest
        first = values // 2
        lines = []
        for row in rows:
            line = Text(no_wrap=True, overflow="ellipsis", end="")
            if len(row) == 2:
                if row[0]:  # a row without a label: its value alone (a player's words)
                    line.append(row[0] + " ", "dim")
                line.append_text(row[1] if isinstance(row[1], Text) else Text(row[1]))
                lines.append(line)
                continue
            label, value, label2, value2 = row
            line.append(label.ljust(left) + " ", "dim")
            line.append_text(_right(value, first))
            line.append(" " + label2.ljust(right) + " ", "dim")
            line.append_text(_right(value2, values - first))
            lines.append(line)
        line = Text(no_wrap=True, overflow="ellipsis", end="")
        line.append(self.pv_label + " ", "dim")
        line.append(pv)
        lines.append(line)
        for line in lines:
            line.truncate(width, overflow="ellipsis")
        return Text("\n", no_wrap=True, end="").join(lines)


def looked_text(depth: int, seconds: float) -> str:
    """How deep a search looked, in a player's words: ``7 plies ahead (1.0 s)``."""
    return f"{depth} pl{'y' if depth == 1 else 'ies'} ahead ({seconds:.1f} s)"


def why_figures_differ(panel_depth: int, hint_depth: int, earlier: str = "") -> str:
    """Why a hint's figure is not the panel's: the hint looked deeper (or less deep), and the
    panel's search was of an ``earlier`` position when one is named (``before Nf6``)."""
    where = f"the panel's search was {earlier}; " if earlier else ""
    if hint_depth > panel_depth:
        return f"{where}the hint looked deeper (depth {hint_depth} vs {panel_depth})"
    if hint_depth < panel_depth:
        return f"{where}the hint looked less deep (depth {hint_depth} vs {panel_depth})"
    return f"{where}both looked {hint_depth} plies deep, along other lines"


def _height(content: FigureContent) -> int:
    return 1 if isinstance(content, Text) else len(content[0]) + 1


def _right(value: str | Text, width: int) -> Text:
    text = value.copy() if isinstance(value, Text) else Text(value)
    text.pad_left(max(width - len(text), 0))
    return text


class EnginePanel(Vertical):
    """The search figures of the engine playing ``side``."""

    DEFAULT_CSS = """
    EnginePanel {
        height: auto;
        border: round $primary-darken-1;
        border-title-color: $text;
        border-subtitle-color: $text-muted;
        padding: 0 1;
    }
    EnginePanel.-thinking {
        border: round $success;
        border-subtitle-color: $success;
    }
    EnginePanel .figures {
        height: auto;
    }
    """

    def __init__(self, side: int, side_name: str, spec: str, *, scores: ScoreScale, first_name: str,
                 title: str | None = None, label: str | None = None, trend: bool = True,
                 advanced: bool = False, second_name: str = "", id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.side = side
        self.side_name = side_name
        self.spec = spec
        #: The game's unit, and the name of the first player, whose view the eval takes.
        self.units = scores
        self.first_name = first_name
        #: The other player's name (the words of a position the first player is behind in).
        self.second_name = second_name or (side_name if side != 0 else "the other side")
        #: The side to move in the position the figures are of (a player's panel: its side).
        self.mover = side
        #: The last statistics shown (``None`` before the first search).
        self.stats: SearchStats | None = None
        #: How many times the figures were redrawn (tests check the panel ticks).
        self.updates = 0
        #: The trend's points: the ply of the move and the eval after it (first player, on the
        #: game's charted scale, :meth:`games.kind.ScoreScale.plotted`; a forced win ``±inf``).
        self.points: list[tuple[int, float]] = []
        self._compact = False
        self._advanced = advanced
        #: ``title``: what the panel is for when it is not a player's (``analysis``); ``label``: how
        #: the engine is named when not by its spec (a level: ``Club ~1500``).
        self.border_title = f"{title or side_name} · {label or spec}"
        #: Whether the score trend is drawn (a player's panel; the analysis has no moves of its own).
        self.trend = trend
        self.border_subtitle = "waiting"

    def compose(self) -> ComposeResult:
        figures = Figures(self._figures(), classes="figures")
        figures.pv_label = "pv" if self._advanced else "line"
        yield figures
        if self.trend:
            yield ScoreTrend(self.units)

    @property
    def nodes(self) -> int:
        """Nodes of the current (or last) search."""
        return self.stats.nodes if self.stats is not None else 0

    @property
    def compact(self) -> bool:
        """One line of figures instead of the full table (a short terminal, the idle side)."""
        return self._compact

    @compact.setter
    def compact(self, value: bool) -> None:
        if value != self._compact:
            self._compact = value
            if self.is_mounted:
                self.query_one(Figures).show(self._figures())

    @property
    def advanced(self) -> bool:
        """The search's own figures (nodes, prunes, cutoffs, tt hits, nodes/s) instead of a
        player's words: the position, the best line, how deep the engine looked."""
        return self._advanced

    @advanced.setter
    def advanced(self, value: bool) -> None:
        if value != self._advanced:
            self._advanced = value
            if self.is_mounted:
                figures = self.query_one(Figures)
                figures.pv_label = "pv" if value else "line"
                figures.show(self._figures())

    @property
    def verdict(self) -> str:
        """The last figures' position in words (``White is better``; '' before any)."""
        if self.stats is None:
            return ""
        score, mate = self.first_view(self.stats.score, self.stats.mate)
        return self.units.verdict(score, mate, self.first_name, self.second_name)

    @property
    def status(self) -> str:
        """The word under the panel."""
        return str(self.border_subtitle)

    # -- what the game screen calls ----------------------------------------

    def set_status(self, text: str, *, thinking: bool = False) -> None:
        """The word under the panel: thinking, waiting, paused..."""
        self.border_subtitle = text
        self.set_class(thinking, "-thinking")

    def show_stats(self, stats: SearchStats, mover: int | None = None) -> None:
        """Draw a snapshot of the running search (or its final figures); ``mover`` is the
        side to move in the position searched (default: the panel's side)."""
        self.stats = stats
        self.mover = self.side if mover is None else mover
        self.updates += 1
        self.query_one(Figures).show(self._figures())

    def first_view(self, score: float, mate: int | None) -> tuple[float, int | None]:
        """A score for the side to move in the figures' position as the first player's."""
        return first_player_view(score, mate, self.mover)

    @property
    def eval_text(self) -> str:
        """The last figures' eval (``-`` before any)."""
        if self.stats is None:
            return "-"
        return self.units.signed(*self.first_view(self.stats.score, self.stats.mate))

    @property
    def scores(self) -> list[float]:
        """The trend's evals, oldest first."""
        return [value for _, value in self.points]

    def record_score(self, score: float, mate: int | None, ply: int) -> None:
        """Add to the trend the eval of the move the engine played at ``ply`` (its score for itself)."""
        score, mate = self.first_view(score, mate)
        forced = mate if mate is not None else score if by_tables(score) else None  # tables: won
        value = math.copysign(math.inf, forced) if forced is not None else self.units.plotted(score)
        self.points.append((ply, value))
        self._draw_trend()

    def forget_from(self, ply: int) -> None:
        """Take out of the trend the moves from ``ply`` on (they were taken back) and forget the
        last figures: they are of a position no longer on the board."""
        self.points = [point for point in self.points if point[0] < ply]
        self._draw_trend()
        self.stats = None
        self.query_one(Figures).show(self._figures())

    def _draw_trend(self) -> None:
        for trend in self.query(ScoreTrend):
            trend.show(self.scores)

    def clear_history(self) -> None:
        """Forget the figures and the sparkline (a new game)."""
        self.stats = None
        self.points = []
        self._draw_trend()
        self.query_one(Figures).show(self._figures())
        self.set_status("waiting")

    # -- drawing -------------------------------------------------------------

    def _figures(self) -> FigureContent:
        if not self._advanced:
            return self._words()
        s = self.stats
        if self._compact:
            if s is None:
                return Text("no search yet", style="dim")
            score = self.eval_text
            return Text.assemble(
                ("best ", "dim"), (s.best or "-", "bold"), (f"  {self.score_label} ", "dim"), score,
                ("  depth ", "dim"), str(s.depth), no_wrap=True, overflow="ellipsis",
            )
        if s is None:
            return [("nodes", "-", "nps", "-"), ("evals", "-", "prunes", "-"), ("depth", "-", "time", "-"),
                    ("tt hits", "-", "1st cut", "-"), ("best", "-"), (self.score_label, "-")], ""
        prunes = s.prunes
        depth = str(s.depth)
        if s.seldepth > s.depth:
            depth += f"/{s.seldepth}"
        rows: list[Row] = [
            ("nodes", count_text(s.nodes), "nps", count_text(s.nps)),
            ("evals", count_text(s.evals), "prunes", count_text(prunes)),
            ("depth", depth, "time", f"{s.time_s:.1f}s"),
        ]
        extra = [("tt hits", count_text(s.tt_hits)),
                 ("1st cut", f"{s.first_cutoffs / prunes:.0%}" if prunes else "-")]
        extra += [(name.replace("_", " "), count_text(s[name])) for name in ENGINE_COUNTS if s[name]]
        for i in range(0, len(extra), 2):
            pair = extra[i:i + 2] + [("", "")] * (2 - len(extra[i:i + 2]))
            rows.append((pair[0][0], pair[0][1], pair[1][0], pair[1][1]))
        if s.visits:  # a Monte Carlo search: its most visited root moves
            rows.append(("visits", visits_text(s.visits)))
        rows.append(("best", Text(s.best or "-", style="bold")))
        rows.append((self.score_label, self.eval_text))
        return rows, line_text(s.pv) or "-"

    def _words(self) -> FigureContent:
        """What a player reads: the position in words and the game's unit, the best move and
        line, how deep the engine looked (one line when compact)."""
        s = self.stats
        if s is None:
            if self._compact:
                return Text("no search yet", style="dim")
            return [("", Text("no search yet", style="dim")), ("eval", "-"), ("best", "-"), ("looked", "-")], ""
        if self._compact:
            return Text.assemble(("best ", "dim"), (s.best or "-", "bold"), "  ", self.verdict,
                                 (f" ({self.eval_text})", "dim"), no_wrap=True, overflow="ellipsis")
        rows: list[Row] = [("", Text(self.verdict, style="bold")), ("eval", self.eval_text),
                           ("best", Text(s.best or "-", style="bold")), ("looked", looked_text(s.depth, s.time_s))]
        return rows, line_text(s.pv) or "-"

    @property
    def score_label(self) -> str:
        """``eval (White)``: evals are the first player's, whoever is to move."""
        return f"eval ({self.first_name})"
