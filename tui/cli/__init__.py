"""The ``tui-games`` command line, one module per command group.

- :mod:`~tui.cli.main` -- :func:`main` (the console script) and the parser;
- :mod:`~tui.cli.common` -- usage errors, argument types, Ctrl-C handling, and
  the words (flags) for what the user can do about a refused run;
- :mod:`~tui.cli.play` (``play``, ``lab`` and the app), :mod:`~tui.cli.rules`
  (``perft``, ``moves``, ``show``), :mod:`~tui.cli.search` (``search``,
  ``engines``), :mod:`~tui.cli.network` (``host``, ``join``), :mod:`~tui.cli.serve`,
  :mod:`~tui.cli.bench`, :mod:`~tui.cli.match` (``match``,
  ``report``, ``levels``), :mod:`~tui.cli.lab` (``experiment``, ``tournament``),
  :mod:`~tui.cli.learning` (``dataset``, ``train``, ``models``), :mod:`~tui.cli.uci`;
- :mod:`~tui.cli.report` and :mod:`~tui.cli.training` -- the progress bars of
  runs, and printing what ``match``, ``report``, ``tournament``, ``dataset``,
  ``train`` and ``models`` show (the tables themselves are :mod:`tui.views`').

May import :mod:`games`, :mod:`engines`, :mod:`tui.views` and the rest of
:mod:`tui`; only :mod:`~tui.cli.play` (the bare command, ``play`` and ``lab``)
imports :mod:`tui.app`, and with it Textual, when it runs.
"""

from .common import UsageError
from .main import build_parser, main

__all__ = ["main", "build_parser", "UsageError"]
