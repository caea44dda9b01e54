"""The Textual app: the start screen, the game screen, their widgets and TCSS.

- :mod:`~tui.app.app` -- :class:`TuiGamesApp` and ``app.tcss`` beside it;
- :mod:`~tui.app.screens` -- the start screen, the game screen, dialogs;
- :mod:`~tui.app.widgets` -- the board, the engine panel, the move input and list;
- :mod:`~tui.app.session` -- a checked :class:`GameSetup` (game, players, start);
- :mod:`~tui.app.search_service` -- engine searches in a spawned process, talked
  to with typed messages.

May import :mod:`games`, :mod:`engines`, :mod:`tui.views` and Textual, never
:mod:`tui.cli`.  Nothing here is imported by
the command line unless the app is opened.
"""
