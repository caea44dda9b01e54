"""The layout holds: layers point one way, no import cycles, no private names
across modules, every package says what lives there, files stay readable.

Every ``import`` of the three packages counts, at module level, inside a
function or under ``if TYPE_CHECKING:``: an import made lazily is still a
dependency, and so is one made for annotations only -- a type-only import
circle (two modules typed by each other) is a circle all the same.
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "engines", "tui")
#: What each top-level package may import of ours (besides itself).
ALLOWED = {"games": set(), "engines": {"games"}, "tui": {"games", "engines"}}
#: Lines a module may have (about 600: a file a reader can hold in mind).
MAX_LINES = 600


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {
    _module_name(path): path
    for package in PACKAGES
    for path in sorted((ROOT / package).rglob("*.py"))
}


def _resolve(module: str, is_package: bool, level: int, target: str | None) -> str:
    """The absolute name of a (relative) import in ``module``."""
    if not level:
        return target or ""
    base = module.split(".")
    if not is_package:
        base.pop()
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def _imports(module: str) -> list[tuple[str, list[str], int]]:
    """``(imported module, names taken from it, line)`` for every import in ``module``."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, [], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, path.name == "__init__.py", node.level, node.module)
            found.append((target, [alias.name for alias in node.names], node.lineno))
    return found


def _ours(name: str) -> bool:
    return name.split(".")[0] in PACKAGES


def _edges() -> dict[str, set[str]]:
    """Module -> the modules of ours it imports (a name imported from a
    package that is itself a module counts as that module)."""
    graph: dict[str, set[str]] = defaultdict(set)
    for module in MODULES:
        for target, names, _ in _imports(module):
            if not _ours(target):
                continue
            submodules = {f"{target}.{name}" for name in names} & set(MODULES)
            graph[module] |= submodules
            if len(submodules) < len(names) or not names:  # names defined by the package itself
                graph[module].add(target)
    return graph


def test_every_module_is_found() -> None:
    assert {"games", "engines", "tui", "engines.search.core", "tui.app.app", "tui.cli.main"} <= set(MODULES)


@pytest.mark.parametrize("package", PACKAGES)
def test_layers_point_one_way(package: str) -> None:
    """games imports nothing of ours, engines only games, tui both."""
    wrong = [
        f"{module}:{line} imports {target}"
        for module in MODULES if module.split(".")[0] == package
        for target, _, line in _imports(module)
        if _ours(target) and target.split(".")[0] not in ALLOWED[package] | {package}
    ]
    assert wrong == []


def test_only_the_app_imports_textual() -> None:
    wrong = [
        f"{module}:{line}"
        for module in MODULES
        for target, _, line in _imports(module)
        if target.split(".")[0] == "textual" and not module.startswith("tui.app")
    ]
    assert wrong == []


def test_no_import_cycles() -> None:
    """Tarjan's strongly connected components over every import (``TYPE_CHECKING``
    ones included): none has two modules."""
    graph = _edges()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in MODULES:
                continue
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(MODULES):
        if module not in index:
            visit(module)
    assert cycles == []


def test_no_module_imports_a_private_name_of_another() -> None:
    wrong = [
        f"{module}:{line} takes {name} from {target}"
        for module in MODULES
        for target, names, line in _imports(module)
        if _ours(target) and target != module
        for name in names
        if name.startswith("_") and not name.startswith("__")
    ]
    assert wrong == []


@pytest.mark.parametrize("package", sorted(m for m, p in MODULES.items() if p.name == "__init__.py"))
def test_every_package_says_what_lives_there(package: str) -> None:
    doc = ast.get_docstring(ast.parse(MODULES[package].read_text(encoding="utf-8")))
    assert doc and len(doc.split()) >= 12, f"{package}/__init__.py needs a docstring saying what lives there"
    if package in PACKAGES:
        assert "import" in doc, f"{package}: say what it may import"


def test_no_module_is_over_about_600_lines() -> None:
    long = {module: n for module, path in MODULES.items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


#: A command-line flag inside a string.
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]*")
#: The engines' strings that may name a flag, and why: the command a dataset's metadata keeps
#: (the one that writes it again), and a model's hint at the option it was trained with.
FLAGS_ALLOWED = {
    "engines.learning.dataset": {"--games", "--depth", "--openings", "--seed", "--explore", "--max-plies",
                                 "--heuristic", "--label", "--out"},
    "engines.learning.models": {"--inputs"},
}


def _strings(module: str) -> list[tuple[int, str]]:
    """``(line, text)`` of every string constant of ``module`` but its docstrings."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value) for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body
        and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def test_the_engines_messages_name_no_command_line_flag() -> None:
    """What the user can do is data (engines.remedy.Remedy); each front end words it with its own
    flags or fields."""
    wrong = [
        f"{module}:{line} says {flag}"
        for module in MODULES if module.split(".")[0] == "engines"
        for line, text in _strings(module)
        for flag in FLAG.findall(text) if flag not in FLAGS_ALLOWED.get(module, set())
    ]
    assert wrong == []


def test_the_app_never_imports_the_command_line() -> None:
    """tui.app draws with tui.views, never tui.cli; of the command line, only tui.cli.play (the
    commands that open the app: no command, play and lab) imports tui.app."""
    def forbidden(module: str) -> tuple[str, ...]:
        if _within(module, "tui.app") or _within(module, "tui.views"):
            return ("tui.cli",) if _within(module, "tui.app") else ("tui.cli", "tui.app")
        if _within(module, "tui.cli") and module != "tui.cli.play":
            return ("tui.app",)
        return ()

    wrong = [
        f"{module}:{line} imports {target}"
        for module in MODULES
        for target, names, line in _imports(module)
        if any(_within(imported, package) for package in forbidden(module)
               for imported in [target, *(f"{target}.{name}" for name in names)])
    ]
    assert wrong == []


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


#: How a citation of the product specification (not shipped here) reads.
CITATION = re.compile(r"\bSPEC(?:\s*§|\s+sections?\b|\.md|'s\b)|\bthe SPEC\b")


def test_nothing_cites_a_document_outside_the_repository() -> None:
    """The design is written down in docs/; no file points at a spec we do not ship.
    (``SPEC`` alone is the command line's name for an engine spec.)"""
    cited = [
        f"{path.relative_to(ROOT)}: {match.group()}"
        for path in [*ROOT.glob("*.md"), *ROOT.glob("docs/*.md"), *MODULES.values(),
                     *(ROOT / "tests").glob("*.py")]
        if path.name != "test_layout.py"
        for match in CITATION.finditer(path.read_text(encoding="utf-8"))
    ]
    assert cited == []


#: Where a game may be named in code: its own package, the registry that lists
#: the games (and orders ours), and the chess-only front ends (the UCI protocol and the adapter
#: for UCI engines such as Stockfish).
NAMED_GAMES_ALLOWED = ("games", "games.registry", "tui.uci", "engines.stockfish")


def _game_names() -> set[str]:
    """Our games' names, read from the entry points of pyproject.toml (importing them is not needed)."""
    entries = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["entry-points"]
    return set(entries["tui_games.games"])


def test_no_game_is_named_outside_its_package() -> None:
    """Nothing above ``games/<name>/`` asks which game it is: it asks the game's kind.
    A string equal to a game's name is a test of that name (or a table keyed by it)."""
    names = _game_names()
    assert names >= {path.parent.name for path in (ROOT / "games").glob("*/kind.py")}  # every bundled game
    packages = {f"games.{name}" for name in names}
    wrong = []
    for module, path in MODULES.items():
        if module in NAMED_GAMES_ALLOWED or any(module == p or module.startswith(p + ".") for p in packages):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.lower() in names:
                wrong.append(f"{module}:{node.lineno} {node.value!r}")
    assert wrong == []
