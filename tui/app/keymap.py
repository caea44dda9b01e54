"""The app's keys, in one table: a key means one thing on every screen.

Each :class:`Key` row is a key (or a ctrl-key and its F-key), what it means,
its word in the footer, and the screens that bind it.  A screen's ``BINDINGS``
are made here (:func:`screen_bindings`): the screen names the rows it uses and
the action each runs, so a key cannot mean two things on two screens.  Keys
that mean the same everywhere -- help, new game, save, open, flip, hint,
pause, back, quit -- keep their meaning wherever they are bound; a screen's own
action takes a key no other screen uses.  The game screen's commands
(:mod:`tui.app.screens.commands`) take their keys from here too.  The table is
``docs/app.md``'s and the README's, and ``tests/test_keymap.py`` reads every
screen's bindings against it.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding

__all__ = ["KEYS", "Key", "key_named", "screen_bindings"]


@dataclass(frozen=True)
class Key:
    """One key of the app and its one meaning."""

    #: The key(s), as Textual names them, comma-separated (``ctrl+g,f1``).
    keys: str
    #: The meaning's name, by which a screen binds it.
    name: str
    #: Its word in the footer.
    label: str
    #: What it does, one line (the docs' table).
    does: str
    #: The screens (their class names) that bind it.
    screens: tuple[str, ...]
    #: Whether the footer shows it.
    footer: bool = True

    @property
    def shown(self) -> str:
        """``ctrl+g / F1``, as the help and the docs write keys."""
        return " / ".join(key.upper() if key.startswith("f") and key[1:].isdigit() else key
                          for key in self.keys.split(","))


KEYS: tuple[Key, ...] = (
    Key("ctrl+q", "quit", "Quit", "quit (an unfinished game is kept for Continue; unsaved moves are asked about)",
        ("TuiGamesApp",)),
    Key("ctrl+n,f9", "new", "New game",
        "a new game: start the one the start screen shows; in a game, back to the start screen; "
        "in puzzles, the next puzzle", ("StartScreen",)),
    Key("f2", "settings", "Settings", "the settings: board, pieces, coordinates, a new game's clock and players",
        ("StartScreen",)),
    Key("ctrl+s", "save", "Save", "save: the game's record, or the settings", ("SettingsScreen",)),
    Key("escape", "back", "Back", "back: close this screen or dialog without doing anything more",
        ("SettingsScreen",)),
)


def key_named(name: str) -> Key:
    """The row called ``name`` (``KeyError`` if none)."""
    for key in KEYS:
        if key.name == name:
            return key
    raise KeyError(name)


def screen_bindings(screen: str, **actions: str) -> list[Binding]:
    """The bindings of ``screen`` (a class name): for each row that names it, its keys running the
    action given by the row's name (default: the row's name), its label in the footer."""
    result = []
    for key in KEYS:
        if screen in key.screens:
            result.append(Binding(key.keys, actions.get(key.name, key.name), key.label, show=key.footer))
    return result
