"""The app's screens: the start screen; the game screen (its flow in ``game_flow``,
what the player does in ``game``, the game as data in ``played``, the coach in
``coach``, the table of commands in ``commands``); its dialogs, the report, help,
files; and the lab."""
