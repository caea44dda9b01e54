"""The Textual app: the start screen, the game screen, the lab, their widgets and TCSS.

- :mod:`~tui.app.app` -- :class:`TuiGamesApp` and ``app.tcss`` beside it;
- :mod:`~tui.app.screens` -- the start screen, the game screen and its coach, dialogs, the lab;
- :mod:`~tui.app.widgets` -- the board, the engine panel, the clocks, the move input and list;
- :mod:`~tui.app.session` -- a checked :class:`GameSetup` (game, players, start);
- :mod:`~tui.app.search_service` -- engine searches in a spawned process, talked
  to with typed messages;
- :mod:`~tui.app.engine_link` -- the searches asked for by the screens and the
  coach, their events posted back to them as Textual messages by a reader thread.

Screens own their components and talk to them with messages (up) and
attributes or method calls (down); no module here imports one that imports it
back, not even for annotations only.  May import :mod:`games`, :mod:`engines`,
:mod:`tui.views` and Textual, never :mod:`tui.cli`.  Nothing here is imported
by the command line unless the app is opened.
"""
