"""The game left unfinished, kept so that the start screen can continue it.

When the player quits the app, or leaves a game for another (a new game, the
lab, a file opened), an unfinished game with a human player and at least one
move is written to ``autosave/GAME.toml`` in the settings directory
(:func:`tui.settings.config_dir`): one slot per game, the newest game of that
game in it.  A game finished after it was continued clears its slot.  The
file is ours alone (nothing the user names is ever written), written whole and
renamed into place (:func:`tui.settings.write_whole`); a file in the slot that
cannot be read is moved aside to ``GAME.toml.bad`` before a new one is written,
so nothing is lost.  It is TOML, read with the same checks as the settings::

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
continued game's clocks read as they stood.  What the slot holds is checked
again when it is continued (the app rebuilds a checked setup from it).
"""

from __future__ import annotations

import datetime
import os
from dataclasses import dataclass
from pathlib import Path

from games import GAME_NAMES
from games.files import read_toml

from .settings import MAX_BYTES, config_dir, keep_aside, quoted, write_whole

__all__ = ["Autosave", "AutosaveError", "VERSION", "autosave_path", "clear_autosave", "latest_autosave",
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


def load_autosave(path: Path) -> Autosave:
    """The autosave in ``path``; :class:`AutosaveError` in one line if it cannot be read."""
    table = read_toml(path, "an autosave", MAX_BYTES, AutosaveError)
    if table.get("version") != VERSION:
        raise AutosaveError(f"{path}: an autosave of version {table.get('version')!r}, not {VERSION}")

    def texts(key: str) -> tuple[str, ...]:
        value = table.get(key)
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise AutosaveError(f"{path}: {key} is not a list of texts")
        return tuple(value)

    def text(key: str) -> str:
        value = table.get(key, "")
        if not isinstance(value, str):
            raise AutosaveError(f"{path}: {key} is not a text")
        return value

    game = text("game")
    if game not in GAME_NAMES:
        raise AutosaveError(f"{path}: {game[:20]!r} is not a game")
    players = texts("players")
    if len(players) != 2:
        raise AutosaveError(f"{path}: players is not two players")
    left = table.get("left", [])
    if not isinstance(left, list) or not all(
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(t, (int, float)) for t in pair)
            for pair in left):
        raise AutosaveError(f"{path}: left is not a list of two times")
    return Autosave(game, (players[0], players[1]), text("position"), texts("moves"), text("clock"),
                    tuple((float(a), float(b)) for a, b in left), text("analysis"), text("saved"))


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
