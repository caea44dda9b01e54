"""The ``tui-games`` command line, one module per command group.

- :mod:`~tui.cli.main` -- :func:`main` (the console script) and the parser;
- :mod:`~tui.cli.common` -- usage errors, argument types, Ctrl-C handling;
- :mod:`~tui.cli.play` (``play`` and the app), :mod:`~tui.cli.rules` (``perft``,
  ``moves``, ``show``), :mod:`~tui.cli.search` (``search``, ``engines``),
  :mod:`~tui.cli.bench`, :mod:`~tui.cli.match` (``match``, ``report``),
  :mod:`~tui.cli.learning` (``dataset``, ``train``, ``models``), :mod:`~tui.cli.uci`;
- :mod:`~tui.cli.report` and :mod:`~tui.cli.training` -- what ``match``,
  ``dataset``, ``train`` and ``models`` print (rich tables and progress bars).

May import :mod:`games`, :mod:`engines` and the rest of :mod:`tui`; only
``play`` (and the bare command) imports Textual, when it runs.
"""

from .common import UsageError
from .main import build_parser, main

__all__ = ["main", "build_parser", "UsageError"]
