"""No shared test holds a hand-made list of the games: adding a game adds no line to one.

A shared test iterates ``games.GAME_NAMES`` and asks each game's kind (its samples,
:mod:`games.samples`) for what differs; a list, tuple, set or dict written out with two or more
games' names in it (``["chess", "checkers"]``, ``{"chess": 20, "quixo": 44}``,
``[("chess", 3), ("quixo", 2)]``) is a table that forgets the next game.  Per-game test files
(``tests/test_chess.py``, ``tests/test_chess_network.py`` ...) and data files (``tests/data/``,
the snapshots) may name their game as they like.
"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

from games import GAME_NAMES

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent

#: Shared test modules whose tables are not yet turned into iterations over the registry, and the
#: number of tables each still holds (the test fails when a file holds more than its count here, and
#: when it holds fewer).  Both name formats, not games: a book of its own format (chess's EPD,
#: checkers' ballots), PDN and the move lists' caps; and the unfinished games a player quits (chess
#: and checkers against levels, as the issue's check does).  They belong in per-game files.
NOT_YET: dict[str, int] = {"tests/test_bounded_readers.py": 2, "tests/test_unfinished.py": 3}


def _per_game(path: str) -> bool:
    """A test file of one game's own: ``tests/test_<game>.py`` or ``tests/test_<game>_<topic>.py``."""
    stem = Path(path).stem
    return any(stem == f"test_{name}" or stem.startswith(f"test_{name}_") for name in GAME_NAMES)


def _candidates() -> list[str]:
    """The Python files under tests/ (tracked or not) that name some game in quotes: ``git grep``."""
    pattern = "[\"'](" + "|".join(map(re.escape, GAME_NAMES)) + ")[\"']"
    found = subprocess.run(
        ["git", "grep", "-l", "-i", "--untracked", "-E", pattern, "--", "tests/*.py"],
        cwd=ROOT, capture_output=True, text=True, check=False)
    assert found.returncode in (0, 1), found.stderr  # 1: nothing found
    return sorted(path for path in found.stdout.split() if not _per_game(path))


def _named(node: ast.AST) -> set[str]:
    """The games named by ``node`` as a table entry: a string, or the strings of a tuple or list
    (a row such as ``("chess", 3)``)."""
    names = {name.lower() for name in GAME_NAMES}
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.lower() in names:
        return {node.value.lower()}
    if isinstance(node, (ast.Tuple, ast.List)):
        return {elt.value.lower() for elt in node.elts
                if isinstance(elt, ast.Constant) and isinstance(elt.value, str) and elt.value.lower() in names}
    return set()


def game_lists(source: str) -> list[int]:
    """The lines of the collection literals in ``source`` whose entries (or dict keys) name two
    or more games."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            entries: list[ast.AST] = [key for key in node.keys if key is not None]
        elif isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            entries = list(node.elts)
        else:
            continue
        named: set[str] = set()
        for entry in entries:
            named |= _named(entry)
        if len(named) >= 2:
            lines.append(node.lineno)
    return lines


def test_the_detector_finds_tables_and_rows_and_leaves_single_names_alone() -> None:
    first, second = GAME_NAMES[:2]
    assert game_lists(f"X = ({first!r}, {second!r})") == [1]
    assert game_lists(f"X = {{{first!r}: 1,\n {second!r}: 2}}") == [1]
    assert game_lists(f"X = [({first!r}, 3), ({second.upper()!r}, 2)]") == [1]
    assert game_lists(f"f({first!r}, g({second!r}))\nX = [{first!r}]\nY = ({first!r}, 'x')") == []


def test_no_shared_test_lists_the_games() -> None:
    found = {path: lines for path in _candidates()
             if (lines := game_lists((ROOT / path).read_text(encoding="utf-8")))}
    listed = {path: f"{len(lines)} table(s), lines {', '.join(map(str, lines))}" for path, lines in found.items()
              if len(lines) != NOT_YET.get(path, 0)}
    gone = sorted(set(NOT_YET) - set(found))
    assert listed == {} and gone == [], (
        "iterate GAME_NAMES and read per-game facts from game_kind(name).samples "
        f"(or update NOT_YET where a table went): {listed} {gone}")
