"""docs/protocol.md, the guide for game authors, kept true to the code.

Every ``python`` block of the guide runs as written (with the Connect Four example on the path),
every name it tells authors to import imports, its table of :class:`games.Game`'s members names
every public member with the kind the code gives it, and every field of the dataclasses a game's
kind is built from is named.  So the guide cannot drift from the code it describes.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
import sys
from pathlib import Path

import pytest

from games import Game, registry
from games import board as board_module
from games import kind as kind_module
from games import samples as samples_module

ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
EXAMPLE = ROOT / "examples" / "connect-four"

PYTHON_BLOCKS = re.findall(r"^```python\n(.*?)^```", GUIDE, re.MULTILINE | re.DOTALL)


@pytest.fixture
def example_on_path(monkeypatch: pytest.MonkeyPatch):
    """The example's package importable (not registered), and forgotten afterwards."""
    monkeypatch.syspath_prepend(str(EXAMPLE))
    yield
    for name in [name for name in sys.modules if name == "connect_four" or name.startswith("connect_four.")]:
        del sys.modules[name]


def test_the_guide_has_python_blocks() -> None:
    assert len(PYTHON_BLOCKS) >= 5


@pytest.mark.parametrize("index", range(len(PYTHON_BLOCKS)))
def test_each_python_block_runs_as_written(index: int, example_on_path: None) -> None:
    exec(compile(PYTHON_BLOCKS[index], f"docs/protocol.md python block {index + 1}", "exec"), {})


def test_every_name_the_guide_imports_exists() -> None:
    """``from X import a, b`` anywhere in the guide, and the names it lists after 'Import ... from `games`'."""
    imports = re.findall(r"^from (games[\w.]*|tui[\w.]*) import ([\w, ]+)$", GUIDE, re.MULTILINE)
    assert imports
    for module, names in imports:
        loaded = importlib.import_module(module)
        for name in names.split(","):
            assert hasattr(loaded, name.strip()), f"{module}.{name.strip()}"
    games_module = importlib.import_module("games")
    paragraph = GUIDE[GUIDE.index("Import what a game needs from `games`"):]
    paragraph = paragraph[:paragraph.index("The constructor")]
    for name in re.findall(r"`(\w+)`", paragraph):
        if name != "games":
            assert hasattr(games_module, name), f"games.{name}"
    board_paragraph = GUIDE[GUIDE.index("Import what it needs from `games.board`"):]
    board_paragraph = board_paragraph[:board_paragraph.index("The subclass")]
    for name in re.findall(r"`(\w+)`", board_paragraph):
        if name not in ("games", "board"):
            assert hasattr(board_module, name), f"games.board.{name}"


def _member_rows() -> dict[str, str]:
    """The guide's table of Game's members: each member's name -> its kind as the table says."""
    table = GUIDE[GUIDE.index("| member | kind | signature |"):]
    rows: dict[str, str] = {}
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split(" | ")]
        for name in re.findall(r"`(\w+)`", cells[0]):
            rows[name] = cells[1]
    return rows


def _public_members() -> list[str]:
    names = {name for name in vars(Game) if not name.startswith("_")}
    names |= {name for name in Game.__annotations__ if not name.startswith("_")}
    return sorted(names)


def test_the_member_table_names_every_public_member_of_game() -> None:
    rows = _member_rows()
    missing = [name for name in _public_members() if name not in rows]
    assert not missing, f"docs/protocol.md's table of Game's members lacks {missing}"


def test_the_member_table_gives_each_member_its_kind() -> None:
    rows = _member_rows()
    abstract = Game.__abstractmethods__
    for name in _public_members():
        kind = rows[name]
        static = inspect.getattr_static(Game, name, None)
        assert ("abstract" in kind) == (name in abstract), (name, kind)
        if "class attribute" in kind:
            assert name in Game.__annotations__ and not callable(static), (name, kind)
            required = name in registry._REQUIRED or name in ("NAME", "PLAYERS", "HEURISTICS", "DEFAULT_HEURISTIC",
                                                               "CUT_HEURISTIC", "STRONG_HEURISTIC")
            assert kind.startswith("required") == required, (name, kind)
            assert required == (name not in vars(Game)), (name, "a required attribute has no default")
        elif "property" in kind:
            assert isinstance(static, property), (name, kind)
        elif "classmethod" in kind:
            assert isinstance(static, classmethod), (name, kind)
        else:
            assert inspect.isfunction(static), (name, kind)


def test_every_required_member_the_registry_checks_is_required_in_the_table() -> None:
    rows = _member_rows()
    for name in list(registry._REQUIRED) + sorted(Game.__abstractmethods__):
        assert rows[name].startswith(("required", "abstract")), name


@pytest.mark.parametrize("cls", [
    kind_module.ScoreScale, kind_module.LevelPlan, kind_module.BenchPlan, kind_module.BenchPosition,
    kind_module.PerftCase, kind_module.PerftReference, kind_module.GameKind,
    board_module.BoardLayout, board_module.BoardColours, board_module.Piece, board_module.Square,
    samples_module.Samples, samples_module.PerftCount, samples_module.NotationExample, samples_module.Decided,
], ids=lambda cls: cls.__name__)
def test_every_field_of_a_kinds_parts_is_named(cls: type) -> None:
    missing = [f.name for f in dataclasses.fields(cls) if f"`{f.name}`" not in GUIDE and f"{f.name}=" not in GUIDE
               and not re.search(rf"[(,] ?{f.name}[,)=]", GUIDE)]
    assert not missing, f"docs/protocol.md does not name {cls.__name__}'s {missing}"


def test_the_scores_it_quotes_are_the_codes() -> None:
    from games import HEURISTIC_BOUND, WIN

    assert f"`HEURISTIC_BOUND` is {HEURISTIC_BOUND:,}" in GUIDE
    assert f"`WIN` is {WIN:,}" in GUIDE


def test_the_samples_it_gives_for_connect_four_hold(example_on_path: None) -> None:
    """The guide's Samples block holds Connect Four's true facts (perft, transposition, finished, notation)."""
    from games.perft import perft

    block = next(block for block in PYTHON_BLOCKS if "Samples(" in block)
    namespace: dict[str, object] = {}
    exec(block, namespace)
    samples = namespace["samples"]
    from connect_four import ConnectFour

    for count in samples.perft:
        assert perft(ConnectFour(), count.depth) == count.leaves
    first, second = (ConnectFour.replay(None, line)[0] for line in samples.transposition)
    assert first.key() == second.key()
    if samples.other_side is not None:
        one, other = (ConnectFour.from_text(text) for text in samples.other_side)
        assert one.key() != other.key() and one.turn != other.turn
    assert all(ConnectFour.from_text(text).outcome() is not None for text in samples.finished)
    for example in samples.notation:
        game = ConnectFour()
        assert game.format_move(game.parse_move(example.typed)) == example.written
    ConnectFour.replay(None, samples.line)
