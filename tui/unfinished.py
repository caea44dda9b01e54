"""Every game left unfinished, kept so that Continue can list it and play it on.

When the player leaves an unfinished game with a human player and a move in it
(quits the app, starts another game, opens the lab), the game is written to a
file of its own in ``unfinished/`` in the settings directory
(:func:`tui.settings.config_dir`), named by its id (``chess-20261203-191502-5f3a.toml``).
A game is never replaced by another: each new game gets a new id, and a game
continued from the list and left again updates its own file.  A game finished
(continued or not) removes its file.

Each file is TOML, written whole and renamed into place
(:func:`tui.settings.write_whole`) while holding the store's lock (an advisory
``flock`` on ``unfinished/.lock``), so two apps writing at once lose nothing.
The whole tree of moves is the game's own record text (PGN, PDN, a move list,
written by its :class:`~games.records.RecordFormat`): the main line, the
variations, the comments and the marks::

    # tui-games: a game left unfinished (the app writes this file; Continue lists it)
    version = 2
    id = "chess-20261203-191502-5f3a"
    game = "chess"
    players = ["human", "beginner"]         # by level name where a player is a level
    specs = ["human", "pvs:depth=1,..."]    # the engines as they played
    position = ""
    moves = ["e4", "e5", "Nf3"]             # the line to the position it was left at
    clock = "5+3"
    left = [[300.0, 300.0], ...]
    analysis = ""
    paused = false                          # the engines waited for the player
    source = ""                             # the record file it was opened from
    unsaved = true                          # moves no file holds
    saved = "2026-12-03 19:15:02"           # last played
    record = \"\"\"[Event "tui-games"] ... 1. e4 e5 (1... c5) 2. Nf3 *\"\"\"

A file that cannot be read is moved aside (``NAME.toml.bad``), never deleted,
and said in one line.  The one-slot files of earlier versions
(``autosave/GAME.toml``, :mod:`tui.autosave`) are moved into the store the
first time it is read.
"""

from __future__ import annotations

import contextlib
import datetime
import fcntl
import os
import secrets
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterator

from engines.levels import levels_for
from games import GAME_NAMES
from games.files import read_toml

from .autosave import AutosaveError, Fields, autosave_path, load_autosave
from .settings import config_dir, keep_aside, quoted, write_whole

__all__ = ["KeptGame", "KeptError", "VERSION", "kept_games", "kept_path", "load_kept", "new_id",
           "player_name", "remove_kept", "store_dir", "store_lock", "write_kept"]

#: The format of a kept game's file.
VERSION = 2

#: The largest file read (a game with thousands of annotated variations stays well under).
MAX_BYTES = 8 * 1024 * 1024


class KeptError(ValueError):
    """A kept game's file that cannot be read (one line)."""


@dataclass(frozen=True)
class KeptGame:
    """A game left unfinished: enough to set it up again as it stood."""

    id: str
    game: str
    #: The players' engine specs as they played, first mover first (``human`` for a person).
    specs: tuple[str, str]
    #: The start position's text (``""``: the standard start).
    position: str
    #: The moves to the position the game was left at (a line of the tree).
    moves: tuple[str, ...]
    #: The game's record text: every move with its variations, comments and marks (``""``: only ``moves``).
    record: str = ""
    #: The time control as typed (``""``: no clocks), and each side's time left after each move.
    clock: str = ""
    left: tuple[tuple[float, float], ...] = ()
    #: The analysis engine's spec (``""``: off).
    analysis: str = ""
    #: The engines waited for the player (a game reviewed or analysed): they wait again.
    paused: bool = False
    #: The record file the game was opened from (``""``: none).
    source: str = ""
    #: Moves (or notes) were made that no file holds.
    unsaved: bool = True
    #: When it was last played (``YYYY-MM-DD HH:MM:SS``, local time).
    saved: str = ""

    @property
    def players(self) -> tuple[str, str]:
        """The players as a person names them: a level by its name (``beginner``), else the spec."""
        return (player_name(self.game, self.specs[0]), player_name(self.game, self.specs[1]))


def player_name(game: str, spec: str) -> str:
    """``beginner`` for a level's spec (or name), else the spec itself."""
    text = spec.strip().lower()
    for level in levels_for(game):
        if text in (level.name, level.spec):
            return level.name
    return spec


def store_dir() -> Path:
    """The folder of the kept games: ``unfinished/`` in the settings directory."""
    return config_dir() / "unfinished"


def kept_path(id_: str) -> Path:
    return store_dir() / f"{id_}.toml"


def new_id(game: str) -> str:
    """A new game's id: its game, the time and a random part (two apps never make the same)."""
    return f"{game}-{datetime.datetime.now():%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"


@contextlib.contextmanager
def store_lock() -> Iterator[None]:
    """Hold the store's lock (waiting for another app's): one writer, mover or reader at a time."""
    folder = store_dir()
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _long_text(text: str) -> str:
    """``text`` as a TOML multi-line basic string, line by line as it reads."""
    escaped = []
    for char in text:
        if char in "\\\"":
            escaped.append("\\" + char)
        elif char == "\n" or char == "\t" or not (ord(char) < 0x20 or ord(char) == 0x7F):
            escaped.append(char)
        else:
            escaped.append(f"\\u{ord(char):04x}")
    return '"""\n' + "".join(escaped) + '"""'


def kept_text(kept: KeptGame) -> str:
    """The TOML file of ``kept``."""
    def texts(values: tuple[str, ...]) -> str:
        return "[" + ", ".join(quoted(_one_line(value)) for value in values) + "]"

    left = ", ".join(f"[{first!r}, {second!r}]" for first, second in kept.left)
    return "\n".join([
        "# tui-games: a game left unfinished (the app writes this file; Continue lists it)",
        f"version = {VERSION}", f"id = {quoted(kept.id)}", f"game = {quoted(kept.game)}",
        f"players = {texts(kept.players)}", f"specs = {texts(kept.specs)}",
        f"position = {quoted(_one_line(kept.position))}", f"moves = {texts(kept.moves)}",
        f"clock = {quoted(kept.clock)}", f"left = [{left}]", f"analysis = {quoted(_one_line(kept.analysis))}",
        f"paused = {str(kept.paused).lower()}", f"source = {quoted(_one_line(kept.source))}",
        f"unsaved = {str(kept.unsaved).lower()}", f"saved = {quoted(kept.saved)}",
        f"record = {_long_text(kept.record)}",
    ]) + "\n"


def _one_line(text: str) -> str:
    """A short value on one line (TOML's basic strings hold no raw control characters)."""
    return "".join(char if char >= " " and char != "\x7f" else " " for char in text)


def write_kept(kept: KeptGame) -> Path:
    """Write ``kept`` to its own file (stamped now) and return the path; a file of that name that
    cannot be read is kept aside first.  Raises :class:`OSError`."""
    with store_lock():
        return _write(replace(kept, saved=datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")))


def _write(kept: KeptGame) -> Path:
    path = kept_path(kept.id)
    if os.path.lexists(path):
        try:
            load_kept(path)
        except KeptError:
            keep_aside(path)
    write_whole(path, kept_text(kept))  # its ``.new`` beside it is ours alone: the lock is held
    return path


def remove_kept(id_: str) -> bool:
    """Remove the game ``id_`` from the store (finished, or deleted from the list); whether it was
    there.  A file of that name that is not a kept game is kept aside, not removed."""
    path = kept_path(id_)
    with store_lock():
        if not os.path.lexists(path):
            return False
        try:
            load_kept(path)
        except KeptError:
            keep_aside(path)
            return False
        path.unlink()
        return True


def load_kept(path: Path) -> KeptGame:
    """The kept game in ``path``; :class:`KeptError` in one line if it cannot be read."""
    table = read_toml(path, "a kept game", MAX_BYTES, KeptError)
    if table.get("version") != VERSION:
        raise KeptError(f"{path}: a kept game of version {str(table.get('version'))[:20]!r}, not {VERSION}")

    fields = Fields(table, path, KeptError)
    if fields.text("id") != path.stem:
        raise KeptError(f"{path}: its id {fields.text('id')[:40]!r} is not its file's name")
    return KeptGame(path.stem, fields.game(), fields.players("specs"), fields.text("position"),
                    fields.texts("moves"), fields.text("record"), fields.text("clock"), fields.times("left"),
                    fields.text("analysis"), fields.flag("paused", False), fields.text("source"),
                    fields.flag("unsaved", True), fields.text("saved"))


def _migrate() -> list[str]:
    """Move the one-slot files of earlier versions into the store (the lock held); what could not be
    read, one line each (such a file is kept aside)."""
    problems = []
    for game in GAME_NAMES:
        path = autosave_path(game)
        if not os.path.lexists(path):
            continue
        try:
            old = load_autosave(path)
        except AutosaveError as error:
            keep_aside(path)
            problems.append(f"{error} (kept aside)")
            continue
        stamp = old.saved.replace("-", "").replace(":", "").replace(" ", "-") or "old"
        _write(KeptGame(f"{game}-{stamp}-{secrets.token_hex(3)}", game, old.players, old.position, old.moves,
                        clock=old.clock, left=old.left, analysis=old.analysis, saved=old.saved))
        path.unlink()
    return problems


def kept_games() -> tuple[list[KeptGame], list[str]]:
    """Every kept game, last played first, and what could not be read (one line each: such a
    file is moved aside).  The old one-slot files are moved into the store first."""
    found: list[KeptGame] = []
    try:
        with store_lock():
            problems = _migrate()
            for path in sorted(store_dir().glob("*.toml")):
                try:
                    found.append(load_kept(path))
                except KeptError as error:
                    aside = keep_aside(path)
                    problems.append(f"{error}; moved aside to {aside.name}")
    except OSError as error:
        return found, [f"the unfinished games cannot be read: {error.strerror or error}"]
    found.sort(key=lambda kept: kept.saved, reverse=True)
    return found, problems
