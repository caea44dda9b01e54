"""The registry of the games: every game is an entry point of the group ``tui_games.games``.

A distribution registers a game in its ``pyproject.toml``, the name the user types
to the game's :class:`~games.base.Game` subclass::

    [project.entry-points."tui_games.games"]
    connect-four = "connect_four.game:ConnectFour"

Ours registers its own games the same way.  The game's kind -- everything about
it beyond the rules, a :class:`~games.kind.GameKind` -- is the ``KIND`` of the
class's module or, failing that, of the nearest package above it that has one
(ours: ``games.othello.KIND``); its ``game`` must be the class.

The games are listed the first time anyone asks (:func:`registered`): ours first,
in our menu order, then the other distributions' by name.  Our games are imported
when first used; another distribution's game is imported and checked at once, and a
game that cannot be used -- it does not import, its class is missing or is no
:class:`~games.base.Game`, its name clashes with another game's, it breaks a rule
the registry can check cheaply (its ``NAME`` is not the entry point's, ``PLAYERS``
are not two names, a heuristic it names is not among its ``HEURISTICS``, it has
no ``KIND``, its kind has no board description or record format) -- is left out
with one warning line on stderr naming its distribution and what is wrong.  The
warnings are said once: the processes a run starts (match workers, the search
process) inherit :data:`WARNED_VARIABLE` and stay quiet.

Imports the shared modules of :mod:`games` only (not a game's package).
"""

from __future__ import annotations

import inspect
import os
import re
import sys
from dataclasses import dataclass, field
from importlib import import_module
from importlib.metadata import EntryPoint, entry_points
from typing import Callable, Container

from .base import Game
from .board import BoardDescription, BoardLayout
from .kind import GameKind
from .records import RecordFormat

__all__ = ["GROUP", "OWN_DISTRIBUTION", "WARNED_VARIABLE", "PluginProblem", "Registered", "find_kind",
           "registered", "reset"]

#: The entry-point group a game is registered in.
GROUP = "tui_games.games"
#: The distribution whose games are ours (listed first, imported when first used).
OWN_DISTRIBUTION = "tui-games"
#: Set in the environment once the warnings about broken games were said, so that the
#: processes a run starts do not say them again.
WARNED_VARIABLE = "TUI_GAMES_PLUGINS_WARNED"
#: Our games' menu order (entry points come back sorted by name): a game of ours not
#: named here follows them, by name.
_MENU_ORDER = ("chess", "checkers", "quixo", "othello")
#: What a game's name may be: it is typed on the command line and is a file-name part.
_NAME = re.compile(r"[a-z][a-z0-9-]{0,29}\Z")
#: The class attributes every game sets (games/base.py), beyond those checked one by one.
_REQUIRED = ("FEATURE_NAMES", "DECISIVE_SCORE", "EXAMPLE_POSITION", "EXAMPLE_MOVE", "MOVE_NOTATION",
             "POSITION_NOTATION")


@dataclass(frozen=True)
class PluginProblem:
    """A registered game that is left out, and why (one line)."""

    name: str
    distribution: str
    value: str
    reason: str

    def __str__(self) -> str:
        return (f"tui-games: the game {self.name!r} of {self.distribution} ({self.value}) is left out: "
                f"{self.reason}")


@dataclass
class Registered:
    """The games, by name in menu order: how to load each one's kind, the kinds loaded, and the
    games left out."""

    loaders: dict[str, Callable[[], tuple[GameKind[Game], str]]] = field(default_factory=dict)
    kinds: dict[str, GameKind[Game]] = field(default_factory=dict)
    #: The package each loaded game's kind was found in (where its files are).
    packages: dict[str, str] = field(default_factory=dict)
    problems: list[PluginProblem] = field(default_factory=list)

    def kind(self, name: str) -> GameKind[Game]:
        """The kind of the game ``name`` (a registered name), imported on first use."""
        if name not in self.kinds:
            self.kinds[name], self.packages[name] = self.loaders[name]()
        return self.kinds[name]

    def package(self, name: str) -> str:
        """The package that holds the game ``name``'s kind, and so its files (books, models...)."""
        self.kind(name)
        return self.packages[name]


_registered: list[Registered] = []


def registered() -> Registered:
    """The registry, made on first use (and its warnings said then)."""
    if not _registered:
        _registered.append(_discover())
        _warn(_registered[0].problems)
    return _registered[0]


def reset() -> None:
    """Forget the registry: the next :func:`registered` reads the entry points again."""
    _registered.clear()


def find_kind(cls: type[Game]) -> tuple[object, str]:
    """The ``KIND`` of ``cls``'s module or of the nearest package above it that has one, and
    the package it belongs to (the module itself if a package, else the one holding it);
    ``(None, '')`` if there is none."""
    name = cls.__module__
    while name:
        module = sys.modules.get(name) or import_module(name)
        kind = getattr(module, "KIND", None)
        if kind is not None:
            return kind, name if hasattr(module, "__path__") else name.rpartition(".")[0] or name
        name = name.rpartition(".")[0]
    return None, ""


def _distribution(point: EntryPoint) -> str:
    dist = getattr(point, "dist", None)
    return f"{dist.name} {dist.version}" if dist is not None else "an unknown distribution"


def _is_ours(point: EntryPoint) -> bool:
    dist = getattr(point, "dist", None)
    return dist is not None and re.sub(r"[-_.]+", "-", dist.name).lower() == OWN_DISTRIBUTION


def _discover() -> Registered:
    """Read the entry points: ours in menu order (loaded later), the others checked now, by name."""
    points = list(entry_points(group=GROUP))
    ours = sorted((p for p in points if _is_ours(p)),
                  key=lambda p: (_MENU_ORDER.index(p.name) if p.name in _MENU_ORDER else len(_MENU_ORDER), p.name))
    theirs = sorted((p for p in points if not _is_ours(p)), key=lambda p: (p.name, _distribution(p)))
    registry = Registered()
    for point in ours:
        registry.loaders[point.name] = _strict_loader(point)
    for point in theirs:
        kind, package, reason = _load(point, taken=registry.loaders)
        if kind is None:
            registry.problems.append(PluginProblem(point.name, _distribution(point), point.value, reason))
        else:
            registry.loaders[point.name] = _loaded(kind, package)
    if not ours:
        registry.problems.insert(0, PluginProblem(
            "*", OWN_DISTRIBUTION, GROUP,
            f"no game of {OWN_DISTRIBUTION} is registered: install the project again (pip install -e .)"))
    return registry


def _strict_loader(point: EntryPoint) -> Callable[[], tuple[GameKind[Game], str]]:
    """Our game's kind and package, loaded and checked when first asked for; a broken one is our
    bug and raises."""
    def load() -> tuple[GameKind[Game], str]:
        kind, package, reason = _load(point, taken={})
        if kind is None:
            raise ImportError(f"{GROUP} {point.name} = {point.value}: {reason}")
        return kind, package
    return load


def _loaded(kind: GameKind[Game], package: str) -> Callable[[], tuple[GameKind[Game], str]]:
    """The loader of a game already loaded (a plug-in, checked when listed)."""
    return lambda: (kind, package)


def _load(point: EntryPoint, taken: Container[str]) -> tuple[GameKind[Game] | None, str, str]:
    """The game's kind and its package, or ``None`` and why it cannot be used (one line)."""
    name = point.name
    if not _NAME.match(name):
        return None, "", f"its name {name!r} is not 1-30 lower-case letters, digits and '-' starting with a letter"
    if name in taken:
        return None, "", f"another game is registered as {name!r}"
    try:
        cls = point.load()
    except Exception as error:  # noqa: BLE001 -- whatever a plug-in raises, it is left out
        return None, "", f"cannot load {point.value}: {type(error).__name__}: {_line(error)}"
    reason = _class_problem(cls, name)
    if reason:
        return None, "", reason
    try:
        kind, package = find_kind(cls)
    except Exception as error:  # noqa: BLE001
        return None, "", f"its KIND cannot be imported: {type(error).__name__}: {_line(error)}"
    reason = _kind_problem(kind, cls)
    return (kind, package, "") if not reason else (None, "", reason)  # type: ignore[return-value]


def _class_problem(cls: object, name: str) -> str:
    """What is wrong with a registered class, '' if nothing the registry checks."""
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        return f"{_line(cls)} is not a subclass of games.Game"
    if inspect.isabstract(cls):
        return f"{cls.__name__} leaves abstract methods undefined: {', '.join(sorted(cls.__abstractmethods__))}"
    if getattr(cls, "NAME", None) != name:
        return f"{cls.__name__}.NAME is {getattr(cls, 'NAME', None)!r}, not the entry point's name {name!r}"
    players = getattr(cls, "PLAYERS", None)
    if not (isinstance(players, tuple) and len(players) == 2 and all(isinstance(p, str) and p for p in players)):
        return f"{cls.__name__}.PLAYERS is {_line(players)}, not a tuple of two names"
    heuristics = getattr(cls, "HEURISTICS", None)
    if not (isinstance(heuristics, dict) and heuristics):
        return f"{cls.__name__}.HEURISTICS is not a dict of at least one heuristic"
    for attribute in ("DEFAULT_HEURISTIC", "CUT_HEURISTIC", "STRONG_HEURISTIC"):
        if getattr(cls, attribute, None) not in heuristics:
            return f"{cls.__name__}.{attribute} {getattr(cls, attribute, None)!r} is not one of its HEURISTICS"
    missing = [attribute for attribute in _REQUIRED if not hasattr(cls, attribute)]
    if missing:
        return f"{cls.__name__} does not set {', '.join(missing)}"
    return ""


def _kind_problem(kind: object, cls: type[Game]) -> str:
    """What is wrong with the kind found for ``cls``, '' if nothing the registry checks."""
    if kind is None:
        return f"no KIND (a games.GameKind) in {cls.__module__} or a package above it"
    if not isinstance(kind, GameKind):
        return f"the KIND of {cls.__module__} is a {type(kind).__name__}, not a games.GameKind"
    if kind.game is not cls:
        return f"its KIND is the kind of {_line(kind.game)}, not of {cls.__name__}"
    if not (isinstance(kind.board, BoardDescription) and isinstance(getattr(kind.board, "layout", None), BoardLayout)):
        return "its KIND's board is not a games.board.BoardDescription with a BoardLayout"
    if not isinstance(kind.records, RecordFormat):
        return "its KIND's records are not a games.records.RecordFormat"
    return ""


def _line(value: object) -> str:
    """``value`` as one short line."""
    text = " ".join(str(value).split())
    return text if len(text) <= 160 else text[:157] + "..."


def _warn(problems: list[PluginProblem]) -> None:
    """Say each problem on one line of stderr, unless a parent process said them already."""
    if not problems or os.environ.get(WARNED_VARIABLE):
        return
    os.environ[WARNED_VARIABLE] = "1"
    for problem in problems:
        print(str(problem), file=sys.stderr, flush=True)
