"""How the app is built: screens ask the app by message, no class of the app is a god class."""

from __future__ import annotations

import ast
from pathlib import Path

from app_pilot import wait_for
from tui.app.app import TuiGamesApp
from tui.app.screens.lab import LabScreen
from tui.app.screens.start import StartScreen

APP = Path(__file__).resolve().parent.parent / "tui" / "app"


def _modules() -> list[tuple[Path, ast.Module]]:
    return [(path, ast.parse(path.read_text(encoding="utf-8"))) for path in sorted(APP.rglob("*.py"))]


def test_screens_ask_the_app_to_change_screens_by_message() -> None:
    calls = []
    for path, tree in _modules():
        if path.name == "app.py":
            continue
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr.startswith(("open_", "review_from"))
                    and isinstance(node.value, ast.Attribute) and node.value.attr == "app"):
                calls.append(f"{path.relative_to(APP)}:{node.lineno} app.{node.attr}")
    assert calls == []


async def test_the_start_screen_opens_the_lab_by_message() -> None:
    app = TuiGamesApp()
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        app.screen.action_lab()
        await wait_for(pilot, lambda: isinstance(app.screen, LabScreen) and app.screen.is_mounted, "the lab")
        await pilot.pause()  # its Selects settle before the app ends


def test_no_class_of_the_app_is_above_40_methods() -> None:
    counts = {}
    for path, tree in _modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                methods = [item for item in node.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))]
                counts[f"{path.name}:{node.name}"] = len(methods)
    assert counts["game.py:GameScreen"] > 0  # the screen is among the classes counted
    over = {name: count for name, count in counts.items() if count > 40}
    assert over == {}, over
