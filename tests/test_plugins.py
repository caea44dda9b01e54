"""Games as plug-ins: the registry reads the entry points, leaves a broken game out in one line,
a game that ships nothing still plays, the example game installs and runs, and no list of our
games is written by hand outside the registry."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Iterator

import pytest

import games
from games import registry

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "connect-four"
#: Our games, in the order pyproject.toml registers them (the menu order).
OURS = tuple(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
             ["project"]["entry-points"][registry.GROUP])


def write_dist(site: Path, name: str, entries: dict[str, str], modules: dict[str, str] | None = None) -> None:
    """An installed distribution as pip leaves it: its metadata, its entry points, its modules."""
    info = site / f"{name.replace('-', '_')}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    lines = "".join(f"{entry} = {value}\n" for entry, value in entries.items())
    (info / "entry_points.txt").write_text(f"[{registry.GROUP}]\n{lines}")
    for module, text in (modules or {}).items():
        (site / f"{module}.py").write_text(text)


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on sys.path for made-up distributions; the registry read again before and after."""
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.delenv(registry.WARNED_VARIABLE, raising=False)
    before = set(sys.modules)
    registry.reset()
    yield folder
    registry.reset()
    for module in set(sys.modules) - before:
        if module.startswith(("connect_four", "plugin_")):
            del sys.modules[module]


def with_example(site: Path) -> None:
    """The example game, registered as pip would register it (its package read from the source)."""
    shutil.copytree(EXAMPLE / "connect_four", site / "connect_four")
    write_dist(site, "tui-games-connect-four", {"connect-four": "connect_four.game:ConnectFour"})


# ---------------------------------------------------------------------- the registry
def test_our_games_come_from_the_entry_points_in_menu_order() -> None:
    assert games.GAME_NAMES[:len(OURS)] == OURS
    for name in OURS:
        assert games.game_package(name) == games.game_class(name).__module__.rpartition(".")[0]


def test_a_plugin_game_is_listed_after_ours(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with_example(site)
    assert games.GAME_NAMES == (*OURS, "connect-four")
    assert games.game_titles().endswith("and Connect Four")
    assert games.game_package("connect-four") == "connect_four"
    assert games.new_game("connect-four").legal_move_texts() == list("abcdefg")
    assert capsys.readouterr().err == ""


BROKEN = {
    "plugin-missing": ({"missing-game": "plugin_nosuch.game:Game"}, {},
                       "cannot load plugin_nosuch.game:Game: ModuleNotFoundError"),
    "plugin-notagame": ({"notagame": "plugin_notagame:Thing"}, {"plugin_notagame": "class Thing:\n    pass\n"},
                        "is not a subclass of games.Game"),
    "plugin-noclass": ({"noclass": "plugin_noclass:Gone"}, {"plugin_noclass": "X = 1\n"},
                       "AttributeError"),
    "plugin-clash": ({"chess": "connect_four.game:ConnectFour"}, {}, "another game is registered as 'chess'"),
    "plugin-misnamed": ({"four": "connect_four.game:ConnectFour"}, {},
                        "ConnectFour.NAME is 'connect-four', not the entry point's name 'four'"),
    "plugin-nokind": ({"nokind": "plugin_nokind:NoKind"},
                      {"plugin_nokind": "from connect_four.game import ConnectFour\n\n"
                                        "class NoKind(ConnectFour):\n    NAME = 'nokind'\n"},
                      "no KIND (a games.GameKind) in plugin_nokind"),
    "plugin-players": ({"three": "plugin_players:Three"},
                       {"plugin_players": "from connect_four.game import ConnectFour\n\n"
                                          "class Three(ConnectFour):\n    NAME = 'three'\n"
                                          "    PLAYERS = ('a', 'b', 'c')\n"},
                       "Three.PLAYERS is ('a', 'b', 'c'), not a tuple of two names"),
}


def test_each_broken_plugin_is_one_warning_line_and_the_rest_runs(site: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    with_example(site)
    for dist, (entries, modules, _) in BROKEN.items():
        write_dist(site, dist, entries, modules)
    assert games.GAME_NAMES == (*OURS, "connect-four")
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == len(BROKEN)
    for dist, (_, _, reason) in BROKEN.items():
        said = [line for line in lines if f" of {dist} 0.1 " in line]
        assert len(said) == 1 and reason in said[0] and said[0].startswith("tui-games: the game ")
    assert len(games.plugin_problems()) == len(BROKEN)
    assert games.game_kind("chess").title == "chess"  # the clash left ours alone
    # said once: asked again, or in a process this one starts (it inherits the variable), nothing more
    registry.reset()
    assert games.GAME_NAMES == (*OURS, "connect-four")
    assert capsys.readouterr().err == ""


# ------------------------------------------------------ a game that ships nothing
def test_a_game_that_ships_nothing_gets_the_defaults(site: Path) -> None:
    from engines.learning.models import ModelError, load_model
    from engines.levels import levels_for
    from engines.puzzles import shipped_puzzles
    from engines.registry import create_engine
    from games.books import BookError, book_names, load_book
    from engines.base import Limits

    with_example(site)
    kind = games.game_kind("connect-four")
    assert [level.elo for level in levels_for("connect-four")] == [None] * 5
    assert shipped_puzzles("connect-four") == []
    assert book_names(kind) == []
    with pytest.raises(BookError, match="no Connect Four book is shipped"):
        load_book(kind, "balanced")
    for name in ("mi", "pred"):
        with pytest.raises(ModelError, match=f"the bundled connect-four model .* is missing"):
            load_model(kind.game, name)
    assert games.new_game("connect-four").opening() is None
    with pytest.raises(games.UnknownHeuristicError, match="expected one of: center, threats"):
        kind.game.heuristic("learned")
    assert kind.network is None and kind.tables is None and kind.recipe == ()
    engine = create_engine("pvs", kind.game)
    result = engine.search(games.new_game("connect-four"), Limits(depth=4))
    assert kind.game().format_move(result.move) in "abcdefg"


# ------------------------------------------------------------ the example, installed
def _tui(site: Path, *argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != registry.WARNED_VARIABLE}
    env["PYTHONPATH"] = str(site)
    return subprocess.run([sys.executable, "-m", "tui.cli", *argv], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=600)


@pytest.mark.slow
def test_the_example_installs_and_plays_beside_a_broken_plugin(tmp_path: Path) -> None:
    source = tmp_path / "connect-four"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    site = tmp_path / "site"
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
         "--target", str(site), str(source)], capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stderr
    write_dist(site, "broken-game", {"broken": "plugin_nowhere.game:Broken"})
    work = tmp_path / "work"
    work.mkdir()
    runs = {
        "engines": (("engines",), r"connect-four\s+center \(cut\), threats \(default, pvs\)"),
        "perft": (("perft", "connect-four", "4"), r"d4 2401"),
        "search": (("search", "connect-four", "--engine", "pvs:depth=5"), r"pv\s+[a-g]"),
        "match": (("match", "connect-four", "--a", "pvs:depth=2", "--b", "random", "--games", "2"),
                  r"Games: 2,"),
        "tree": (("tree", "connect-four", "--engine", "alphabeta:depth=3"), r"move"),
    }
    for what, (argv, expected) in runs.items():
        done = _tui(site, *argv, cwd=work)
        assert done.returncode == 0, f"{what}: {done.stderr}"
        assert re.search(expected, done.stdout), f"{what}: {done.stdout[-800:]}"
        warnings = [line for line in done.stderr.splitlines() if line.startswith("tui-games: the game ")]
        assert len(warnings) == 1 and "'broken' of broken-game 0.1" in warnings[0], f"{what}: {done.stderr}"
        assert "plugin_nowhere" in warnings[0] and "ModuleNotFoundError" in warnings[0]


# --------------------------------------------------------------- no list by hand
def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring constants in ``tree`` (prose, which may name games as examples)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def hand_made_lists(paths: list[Path], names: set[str]) -> list[str]:
    """Where ``paths`` list the games by hand: in Python, a list, tuple, set or dict of two or more
    of their names, or a string (a help text; not a docstring) naming three; in other text files
    (pyproject.toml, CSS, CI scripts), a line naming two."""
    word = re.compile(r"\b(" + "|".join(re.escape(name) for name in sorted(names)) + r")\b", re.IGNORECASE)

    def named(text: str) -> set[str]:
        return {match.lower() for match in word.findall(text)}

    found = []
    for path in paths:
        text = path.read_text(encoding="utf-8", errors="replace")
        if path.suffix != ".py":
            found += [f"{path}:{number}: {line.strip()[:80]}" for number, line in enumerate(text.splitlines(), 1)
                      if len(named(line)) >= 2]
            continue
        tree = ast.parse(text)
        prose = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict)):
                items = node.keys if isinstance(node, ast.Dict) else node.elts
                listed = {item.value.lower() for item in items
                          if isinstance(item, ast.Constant) and isinstance(item.value, str)} & names
                if len(listed) >= 2:
                    found.append(f"{path}:{node.lineno}: {sorted(listed)}")
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose \
                    and len(named(node.value)) >= 3:
                found.append(f"{path}:{node.lineno}: {node.value.strip()[:80]}")
    return found


#: Where our games may be listed: the registry (their menu order).
LISTS_ALLOWED = {"games/registry.py"}


def test_no_list_of_the_games_outside_the_registry() -> None:
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    paths = [ROOT / name for name in tracked.splitlines()
             if not name.startswith(("tests/", "examples/", "docs/")) and not name.endswith(".md")
             and name not in LISTS_ALLOWED and Path(name).suffix in (".py", ".toml", ".tcss", ".cfg", "")
             and (ROOT / name).is_file()]
    assert len(paths) > 100
    assert hand_made_lists(paths, set(OURS)) == []


def test_a_hand_made_list_is_found(tmp_path: Path) -> None:
    names = set(OURS)
    code = tmp_path / "menu.py"
    code.write_text(f"MENU = {list(OURS)[:2]!r}\nONE = {OURS[0]!r}\n")
    config = tmp_path / "setup.toml"
    config.write_text(f"keywords = [{OURS[0]!r}, {OURS[1]!r}]\n")
    helped = tmp_path / "help.py"
    helped.write_text(f'"""Our games: {", ".join(OURS)} (prose)."""\nHELP = "games: {", ".join(OURS)}"\n')
    assert [line.split(":")[1] for line in hand_made_lists([code, config, helped], names)] == ["1", "1", "2"]
    code.write_text(f"ONE = {OURS[0]!r}\nTWO = {OURS[1]!r}\n")
    assert hand_made_lists([code], names) == []
