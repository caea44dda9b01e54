"""The one-slot autosave of earlier versions: read so that no game kept in it is lost.

Before every unfinished game was kept (:mod:`tui.unfinished`), the app wrote
the newest unfinished game of each game to ``autosave/GAME.toml`` in the
settings directory (:func:`tui.settings.config_dir`), one slot per game.  The
store reads these slots the first time it is read and moves each into a file
of its own; a slot that cannot be read is moved aside to ``GAME.toml.bad``.
:class:`Fields` checks the values of such a table, for the store's files too.
A slot is TOML::

    # tui-games autosave: the game chess left unfinished (the app writes this file)
    version = 1
    game = "chess"
    players = ["human", "pvs:nodes=3000"]
    position = ""
    moves = ["e4", "e5", "Nf3"]
    clock = "5+3"
    left = [[300.0, 300.0], [300.0, 300.0], [298.5, 300.0], [301.5, 297.2]]
    analysis = ""
    saved = "2026-11-27 22:14:05"

``left`` is each side's time left after each move (the clock's history), so a
continued game's clocks read as they stood.  :func:`write_autosave` makes such
a slot (the tests of the move into the store write one).
"""

from __future__ import annotations

import datetime
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games import GAME_NAMES
from games.files import read_toml

from .settings import MAX_BYTES, config_dir, keep_aside, quoted, write_whole

__all__ = ["Autosave", "AutosaveError", "Fields", "VERSION", "autosave_path", "clear_autosave", "latest_autosave",
           "load_autosave", "write_autosave"]

#: The autosave file's format.
VERSION = 1


class AutosaveError(ValueError):
    """An autosave that cannot be read (one line)."""


@dataclass(frozen=True)
class Autosave:
    """A game left unfinished: enough to set it up again where it stood."""

    game: str
    #: The players' specs as the game had them, first mover first.
    players: tuple[str, str]
    #: The start position's text (``""``: the standard start).
    position: str
    moves: tuple[str, ...]
    #: The time control as typed (``""``: no clocks), and each side's time left after each move.
    clock: str = ""
    left: tuple[tuple[float, float], ...] = ()
    #: The analysis engine's spec (``""``: off).
    analysis: str = ""
    #: When it was written (``YYYY-MM-DD HH:MM:SS``, local time).
    saved: str = ""


def autosave_path(game: str) -> Path:
    """The slot of ``game``: ``autosave/GAME.toml`` in the settings directory."""
    return config_dir() / "autosave" / f"{game}.toml"


def autosave_text(saved: Autosave) -> str:
    """The TOML file of ``saved``."""
    def texts(values: tuple[str, ...]) -> str:
        return "[" + ", ".join(quoted(value) for value in values) + "]"

    left = ", ".join(f"[{first!r}, {second!r}]" for first, second in saved.left)
    return "\n".join([
        f"# tui-games autosave: the game {saved.game} left unfinished (the app writes this file)",
        f"version = {VERSION}", f"game = {quoted(saved.game)}", f"players = {texts(saved.players)}",
        f"position = {quoted(saved.position)}", f"moves = {texts(saved.moves)}", f"clock = {quoted(saved.clock)}",
        f"left = [{left}]", f"analysis = {quoted(saved.analysis)}", f"saved = {quoted(saved.saved)}",
    ]) + "\n"


def write_autosave(saved: Autosave) -> Path:
    """Write ``saved`` into its game's slot (stamped now) and return the path; a file in the
    slot that cannot be read is kept aside first.  Raises :class:`OSError`."""
    path = autosave_path(saved.game)
    path.parent.mkdir(parents=True, exist_ok=True)
    if os.path.lexists(path):
        try:
            load_autosave(path)
        except AutosaveError:
            keep_aside(path)
    stamp = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    write_whole(path, autosave_text(Autosave(**{**saved.__dict__, "saved": stamp})))
    return path


def clear_autosave(game: str) -> None:
    """Empty ``game``'s slot (its game was finished); a file there that is not ours is kept aside."""
    path = autosave_path(game)
    if not os.path.lexists(path):
        return
    try:
        load_autosave(path)
    except AutosaveError:
        keep_aside(path)
        return
    path.unlink()


class Fields:
    """The values of a TOML table read from ``path``, each checked for its type; a wrong one is
    an ``error`` naming the file and the key (one line)."""

    def __init__(self, table: dict[str, Any], path: Path, error: type[ValueError]) -> None:
        self.table, self.path, self.error = table, path, error

    def texts(self, key: str) -> tuple[str, ...]:
        value = self.table.get(key)
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self.error(f"{self.path}: {key} is not a list of texts")
        return tuple(value)

    def text(self, key: str) -> str:
        value = self.table.get(key, "")
        if not isinstance(value, str):
            raise self.error(f"{self.path}: {key} is not a text")
        return value

    def flag(self, key: str, default: bool) -> bool:
        value = self.table.get(key, default)
        if not isinstance(value, bool):
            raise self.error(f"{self.path}: {key} is not true or false")
        return value

    def game(self) -> str:
        """The ``game`` key: a game's name."""
        game = self.text("game")
        if game not in GAME_NAMES:
            raise self.error(f"{self.path}: {game[:20]!r} is not a game")
        return game

    def players(self, key: str) -> tuple[str, str]:
        players = self.texts(key)
        if len(players) != 2:
            raise self.error(f"{self.path}: {key} is not two players")
        return players[0], players[1]

    def times(self, key: str) -> tuple[tuple[float, float], ...]:
        """A list of pairs of times (each side's time left after each move)."""
        left = self.table.get(key, [])
        if not isinstance(left, list) or not all(
                isinstance(pair, list) and len(pair) == 2 and all(isinstance(t, (int, float)) for t in pair)
                for pair in left):
            raise self.error(f"{self.path}: {key} is not a list of two times")
        return tuple((float(a), float(b)) for a, b in left)


def load_autosave(path: Path) -> Autosave:
    """The autosave in ``path``; :class:`AutosaveError` in one line if it cannot be read."""
    table = read_toml(path, "an autosave", MAX_BYTES, AutosaveError)
    if table.get("version") != VERSION:
        raise AutosaveError(f"{path}: an autosave of version {table.get('version')!r}, not {VERSION}")
    fields = Fields(table, path, AutosaveError)
    return Autosave(fields.game(), fields.players("players"), fields.text("position"), fields.texts("moves"),
                    fields.text("clock"), fields.times("left"), fields.text("analysis"), fields.text("saved"))


def latest_autosave() -> tuple[Autosave | None, str]:
    """The newest game left unfinished (``None``: none) and, if a slot could not be read, why (one line)."""
    found: list[Autosave] = []
    problem = ""
    for game in GAME_NAMES:
        path = autosave_path(game)
        if not os.path.lexists(path):
            continue
        try:
            found.append(load_autosave(path))
        except AutosaveError as error:
            problem = str(error)
    return (max(found, key=lambda saved: saved.saved) if found else None), problem
