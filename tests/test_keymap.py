"""One keymap (tui/app/keymap.py): a key means one thing on every screen, the screens' (and their
widgets') bindings are the table's, and docs/app.md and the README list exactly its keys."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections import Counter
from pathlib import Path

from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.widget import Widget

import tui.app.screens
import tui.app.widgets
from tui.app.app import TuiGamesApp
from tui.app.keymap import KEYS, table_rows

ROOT = Path(__file__).resolve().parent.parent


def screen_classes() -> list[type]:
    """Every Screen class defined under tui.app.screens and every widget class under tui.app.widgets
    that binds keys (found by import, not listed), and the app."""
    found: list[type] = [TuiGamesApp]
    for package, kind in ((tui.app.screens, Screen), (tui.app.widgets, Widget)):
        for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            module = importlib.import_module(info.name)
            found += [value for value in vars(module).values()
                      if isinstance(value, type) and issubclass(value, kind) and value.__module__ == module.__name__
                      and (kind is Screen or "BINDINGS" in value.__dict__)]
    return found


def own_bindings(cls: type) -> list[Binding]:
    """The bindings a class declares itself (Textual adds its bases' to them)."""
    bindings = [item if isinstance(item, Binding) else Binding(*item) for item in cls.__dict__.get("BINDINGS", [])]
    if cls.__name__ == "MoveInput":  # Input's editing keys, less those it leaves to the game's commands
        return []
    if cls is TuiGamesApp:
        bindings.append(Binding(TuiGamesApp.COMMAND_PALETTE_BINDING, "command_palette", "palette"))
    return bindings


def row_of(key: str):
    rows = [row for row in KEYS if key in row.keys.split(",")]
    assert len(rows) == 1, f"{key} is in {len(rows)} rows of the keymap"
    return rows[0]


def test_a_key_means_one_thing() -> None:
    keys = Counter(key for row in KEYS for key in row.keys.split(","))
    assert [key for key, count in keys.items() if count > 1] == []
    assert len({row.name for row in KEYS}) == len(KEYS)


def test_every_screens_bindings_are_the_keymaps() -> None:
    classes = {cls.__name__: cls for cls in screen_classes()}
    bound: set[tuple[str, str]] = set()
    for name, cls in classes.items():
        for binding in own_bindings(cls):
            action = binding.action.split("(")[0]
            assert "." in action or callable(getattr(cls, f"action_{action}", None)), f"{name}: no action {action}"
            for key in binding.key.split(","):
                row = row_of(key)
                assert name in row.screens, f"{name} binds {key}, which the keymap gives to {row.screens} ({row.name})"
                bound.add((name, key))
                if binding.show and issubclass(cls, Screen) and not issubclass(cls, ModalScreen):  # the footer's
                    assert binding.description == row.label, (name, key, binding.description, row.label)
    for row in KEYS:  # and no row names a screen that does not bind its keys
        for screen in row.screens:
            assert screen in classes, f"{row.name}: no screen class {screen}"
            assert any((screen, key) in bound for key in row.keys.split(",")), f"{screen} binds no key of {row.name}"


def key_table(text: str) -> list[str]:
    """The rows of the first markdown table headed ``| key | does |`` in ``text``."""
    lines = text.splitlines()
    start = lines.index("| key | does |")
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


def test_the_docs_and_the_readme_list_exactly_the_keys() -> None:
    assert key_table((ROOT / "docs" / "app.md").read_text(encoding="utf-8")) == table_rows()
    # The README leaves the search tree's and the course's letters to docs/app.md.
    shown = tuple(row for row in KEYS if not set(row.screens) <= {"TreeScreen", "LearnScreen"})
    assert key_table((ROOT / "README.md").read_text(encoding="utf-8")) == table_rows(shown)
    assert re.search(r"docs/app\.md", (ROOT / "README.md").read_text(encoding="utf-8"))
