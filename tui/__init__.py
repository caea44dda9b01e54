"""The front ends: the command line, the Textual app, the UCI engine, benchmarks.

- :mod:`tui.cli` -- the ``tui-games`` command (one module per command group);
- :mod:`tui.app` -- the Textual app (the only package that imports Textual);
- :mod:`tui.uci` -- the chess engine over the UCI protocol (``tui-games uci``);
- :mod:`tui.bench` -- the benchmarks (``tui-games bench ...``);
- :mod:`tui.format` -- how scores, counts and lines read, for all of them.

May import :mod:`games` and :mod:`engines`.  Importing this package does not
import Textual; the command line loads the app only when it is opened.
"""
