"""The app's screens: the start screen, the game screen and its dialogs."""
