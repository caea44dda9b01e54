"""The front ends: the command line, the Textual app, the UCI engine, benchmarks,
and the display code the command line and the app share.

- :mod:`tui.cli` -- the ``tui-games`` command (one module per command group);
- :mod:`tui.app` -- the Textual app (the only package that imports Textual);
- :mod:`tui.views` -- what both the command line and the app show: how figures
  read, the match and tournament tables, the lab's report and charts;
- :mod:`tui.uci` -- the chess engine over the UCI protocol (``tui-games uci``);
- :mod:`tui.bench` -- the benchmarks (``tui-games bench ...``).

May import :mod:`games` and :mod:`engines`.  The app never imports the command
line; the command line imports the app only to open it (:mod:`tui.cli.play`).
Importing this package does not import Textual; the command line loads the app
only when it is opened.
"""
