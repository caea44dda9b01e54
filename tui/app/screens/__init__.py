"""The app's screens: the start screen; the game screen (``game``: its layout and handlers, composing the
engines' turns in ``engine_turns``, the commands in ``game_commands``, the board
aids in ``aids``, typed by what they use of it in ``host``; the game as data in
``played``, the coach in ``coach``, the table of commands in ``commands``); its dialogs, the report, help,
files; and the lab."""
