"""What the command line and the app both show: one place for the display code they share.

- :mod:`~tui.views.format` -- how figures read: scores, lines, counts, rates,
  Elo differences, averages, seconds;
- :mod:`~tui.views.tournament` -- a match's summary tables and a tournament's
  crosstable (rich tables);
- :mod:`~tui.views.lab_report` -- an experiment's report: arms, costs, claims and
  verdicts, its text and the results folder's summary files;
- :mod:`~tui.views.charts` -- the lab's charts: plotext text, matplotlib PNG/SVG.

May import :mod:`games`, :mod:`engines`, rich, plotext and matplotlib; never
:mod:`tui.cli`, :mod:`tui.app` or Textual: both front ends import it.
"""
