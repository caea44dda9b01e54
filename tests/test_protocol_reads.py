"""Nothing outside a game's package reads a game attribute the protocol does not declare.

A name read by ``getattr``/``hasattr`` with a string escapes the type checker, which holds every
plain ``game.name`` to :class:`games.Game`: so every such read in ``engines/`` and ``tui/`` of an
object named as a game (``game``, ``work``, ``position``, ``game_class``...) must name a member of
:class:`games.Game` (or a field of :class:`games.kind.GameKind`).  A game of another author may
have a method of any other name -- an outside Connect Four's ``empties`` once made ``search``
compare a method with an int.
"""

from __future__ import annotations

import ast
import dataclasses
import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from games import Game, registry
from games.kind import GameKind


ROOT = Path(__file__).resolve().parent.parent
#: The names a game object goes by outside its package.
GAME_NAMES = {"game", "work", "position", "game_class", "cls", "board_game", "played"}
#: What the protocol declares: Game's members and class attributes, and the kind's fields.
DECLARED = (set(dir(Game)) | {name for klass in Game.__mro__ for name in getattr(klass, "__annotations__", {})}
            | {field.name for field in dataclasses.fields(GameKind)})


def _reads(tree: ast.AST) -> Iterator[tuple[int, str, str]]:
    """``(line, object, name)`` of each ``getattr``/``hasattr`` of a constant name on a named object."""
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)):
            target = node.args[0]
            if isinstance(target, ast.Call) and isinstance(target.func, ast.Name) and target.func.id == "type":
                target = target.args[0] if target.args else target
            if isinstance(target, ast.Name):
                yield node.lineno, target.id, node.args[1].value


def test_no_read_of_an_undeclared_game_attribute_outside_the_games() -> None:
    found = []
    for package in ("engines", "tui"):
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for line, target, name in _reads(tree):
                if target in GAME_NAMES and name not in DECLARED:
                    found.append(f"{path.relative_to(ROOT)}:{line}: getattr({target}, {name!r})")
    assert not found, "reads of names the game protocol does not declare:\n" + "\n".join(found)


def test_the_scan_sees_such_a_read() -> None:
    tree = ast.parse("def f(game):\n    return getattr(game, 'empties', 0) + hasattr(type(game), 'NAME')\n")
    assert [(target, name) for _, target, name in _reads(tree)] == [("game", "empties"), ("game", "NAME")]
    assert "NAME" in DECLARED and "turn" in DECLARED and "samples" in DECLARED and "empties" not in DECLARED


PLUGIN = '''
import dataclasses

from extra_moves import KIND as TAKE_TWO, TakeTwo


class Empties(TakeTwo):
    """Take-two with a method of a name another game uses for a number."""

    NAME = "empties-game"

    def empties(self) -> int:
        return 0


KIND = dataclasses.replace(TAKE_TWO, game=Empties, title="Empties")
'''


@pytest.fixture
def empties_site(tmp_path: Path) -> Path:
    """A folder holding a game with a method named ``empties``, installed as a plug-in is."""
    site = tmp_path / "site"
    info = site / "empties_game-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: empties-game\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{registry.GROUP}]\nempties-game = plugin_empties:Empties\n")
    (site / "plugin_empties.py").write_text(PLUGIN)
    return site


@pytest.mark.parametrize("engine", ["pvs:depth=3", "pvs:nodes=2000", "alphabeta:depth=3"])
def test_search_runs_on_a_game_with_a_method_named_empties(empties_site: Path, engine: str) -> None:
    env = {key: value for key, value in os.environ.items() if key != registry.WARNED_VARIABLE}
    env["PYTHONPATH"] = os.pathsep.join([str(empties_site), str(ROOT / "tests")])
    done = subprocess.run([sys.executable, "-m", "tui.cli", "search", "empties-game", "--engine", engine],
                          capture_output=True, text=True, env=env, cwd=empties_site, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "best move" in done.stdout
    assert "left out" not in done.stderr, done.stderr


def test_a_game_whose_sides_are_named_first_and_second_runs(empties_site: Path) -> None:
    """Side names become ``play`` options (``--white``); a side named as an option already is
    (``--first``) is left out, not a crash of every command."""
    (empties_site / "plugin_empties.py").write_text(PLUGIN.replace(
        'NAME = "empties-game"', 'NAME = "empties-game"\n    PLAYERS = ("First", "Second Player")'))
    env = {key: value for key, value in os.environ.items() if key != registry.WARNED_VARIABLE}
    env["PYTHONPATH"] = os.pathsep.join([str(empties_site), str(ROOT / "tests")])
    for argv in (("search", "empties-game", "--engine", "alphabeta:depth=2"), ("play", "--help")):
        done = subprocess.run([sys.executable, "-m", "tui.cli", *argv], capture_output=True, text=True, env=env,
                              cwd=empties_site, timeout=600)
        assert done.returncode == 0 and "Traceback" not in done.stderr, (argv, done.stderr[-600:])
