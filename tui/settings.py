"""The player's settings, kept between runs in a TOML file in the user's config directory.

What is kept: the board's theme (its square colours), the piece set (solid
glyphs, outlined glyphs for the light side as printed diagrams draw them, or
letters: ASCII), the coordinates around the board, the games whose board the
player keeps turned (the flip), the clock of a new game, and per game the two
players last chosen (a level or an engine spec), and the folder of Syzygy
endgame tables the app's engines read (see :func:`tables_problem`).  The file is
``settings.toml`` in :func:`config_dir` (platformdirs' user config directory,
``~/.config/tui-games`` on Linux; ``TUI_GAMES_CONFIG_DIR`` overrides it)::

    # tui-games settings
    version = 1

    [board]
    theme = "green"
    pieces = "outlined"
    ascii = false
    coordinates = true
    turned = ["checkers"]

    [new_game]
    clock = "5+3"
    advanced = false

    [engines]
    syzygy = "~/syzygy"

    [players.chess]
    first = "human"
    second = "club"

A file that cannot be read, from another version, or with a bad value is
reported in one line per problem and ignored where it is wrong (the rest is
used); saving over a file that could not be read keeps it beside as
``settings.toml.bad``.  Saving writes a new file and renames it over the old
one, so a crash or a full disk never leaves half a file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from games import GAME_NAMES, GameError, game_class
from games.clock import TimeControl
from games.files import read_toml

__all__ = ["Settings", "THEMES", "PIECE_SETS", "VERSION", "config_dir", "settings_path", "load_settings", "save_settings",
           "settings_text", "write_whole", "problems_text", "quoted", "keep_aside", "tables_games", "tables_problem"]

#: The settings file's format.
VERSION = 1
#: The largest settings file read (a settings file is a few hundred bytes), and the longest text in it.
MAX_BYTES = 64 * 1024
MAX_TEXT = 2_000


class _Refused(ValueError):
    """A settings file that cannot be read (the app says it and uses the defaults)."""


#: Board themes: the light and dark square colours (``None``: each game's own).
THEMES: dict[str, tuple[str, str] | None] = {
    "game": None,
    "brown": ("#f0d9b5", "#b58863"),
    "green": ("#eeeed2", "#769656"),
    "blue": ("#dee3e6", "#8ca2ad"),
    "grey": ("#c8c8c8", "#8a8a8a"),
}

#: Piece sets drawn with glyphs: solid in each side's colour, or the light side's hollow.
PIECE_SETS = ("solid", "outlined")


@dataclass(frozen=True)
class Settings:
    """What the player chose, with the defaults of a first run."""

    theme: str = "game"
    ascii: bool = False
    coordinates: bool = True
    #: The clock of a new game (``MIN+INC``; ``""``: none).
    clock: str = ""
    #: Per game, the players last chosen, first mover first.
    players: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: The piece set (one of :data:`PIECE_SETS`) when glyphs are drawn.
    pieces: str = "solid"
    #: The games whose board the player turned (flip) from where the game would put it.
    turned: frozenset[str] = frozenset()
    #: Whether the start screen opens with its Advanced part shown (engine specs, position, analysis).
    advanced: bool = False
    #: The folder of Syzygy endgame tables the app's engines read (``""``: none).
    syzygy: str = ""

    def with_players(self, game: str, first: str, second: str) -> Settings:
        return replace(self, players={**self.players, game: (first, second)})

    def with_turned(self, game: str, turned: bool) -> Settings:
        return replace(self, turned=self.turned | {game} if turned else self.turned - {game})

    def board_options(self) -> dict[str, object]:
        """What a board view takes from the settings: its squares' colours, the piece set, coordinates."""
        return {"squares": THEMES.get(self.theme), "outlined": self.pieces == "outlined",
                "coordinates": self.coordinates}


def tables_games(folder: str) -> tuple[tuple[str, ...], str | None]:
    """The games whose endgame tables are in ``folder`` (their engines then take
    ``tables=FOLDER``) and, when there is none, why, in one line."""
    from engines import SpecError
    from engines.registry import has_tables, with_tables

    found: list[str] = []
    problems: list[str] = []
    for name in GAME_NAMES:
        kind = game_class(name)
        if has_tables(kind):
            try:
                kind.open_tables(folder)
                with_tables("pvs", kind, folder)
            except (GameError, SpecError) as error:
                problems.append(str(error))
            else:
                found.append(name)
    if found:
        return tuple(found), None
    return (), problems[0] if problems else "no game here reads endgame tables"


def tables_problem(folder: str) -> str | None:
    """Why no game reads endgame tables in ``folder`` (one line), or ``None``."""
    return tables_games(folder)[1]


def config_dir() -> Path:
    """Where the settings live: ``TUI_GAMES_CONFIG_DIR``, else the user config directory."""
    override = os.environ.get("TUI_GAMES_CONFIG_DIR")
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_config_dir("tui-games", appauthor=False))


def settings_path() -> Path:
    return config_dir() / "settings.toml"


def load_settings(path: Path | None = None) -> tuple[Settings, list[str]]:
    """The settings in ``path`` (default :func:`settings_path`) and the problems found,
    one line each; no file is a first run (the defaults, no problem)."""
    path = path or settings_path()
    if not os.path.lexists(path):
        return Settings(), []
    try:
        table = read_toml(path, "a settings file", MAX_BYTES, _Refused)
    except _Refused as error:
        return Settings(), [f"{error}; defaults used"]
    version = table.get("version")
    if version != VERSION:
        return Settings(), [f"{path}: settings of version {version!r}, not {VERSION}; defaults used"]
    problems: list[str] = []

    def section(name: str) -> dict[str, object]:
        value = table.get(name, {})
        if not isinstance(value, dict):
            problems.append(f"{path}: [{name}] is not a table; ignored")
            return {}
        return value

    def typed(where: dict[str, object], key: str, kind: type, default: object, label: str) -> object:
        if key not in where:
            return default
        value = where[key]
        if not isinstance(value, kind):
            wanted = {bool: "true or false", str: "text in quotes", list: "a list in brackets"}.get(kind, kind.__name__)
            problems.append(f"{path}: {label} = {str(value)[:40]!r} is not {wanted}; ignored")
            return default
        if kind is str and len(str(value)) > MAX_TEXT:
            problems.append(f"{path}: {label} is longer than {MAX_TEXT:,} characters; ignored")
            return default
        return value

    board = section("board")
    theme = typed(board, "theme", str, "game", "board.theme")
    if theme not in THEMES:
        problems.append(f"{path}: board.theme = {str(theme)[:40]!r} is not one of {', '.join(THEMES)}; ignored")
        theme = "game"
    pieces = typed(board, "pieces", str, "solid", "board.pieces")
    if pieces not in PIECE_SETS:
        problems.append(f"{path}: board.pieces = {str(pieces)[:40]!r} is not one of {', '.join(PIECE_SETS)}; ignored")
        pieces = "solid"
    ascii = typed(board, "ascii", bool, False, "board.ascii")
    turned_games = typed(board, "turned", list, [], "board.turned")
    turned = frozenset(name for name in turned_games if isinstance(name, str) and name in GAME_NAMES)
    strangers = [str(name)[:20] for name in turned_games if not (isinstance(name, str) and name in GAME_NAMES)]
    if strangers:
        problems.append(f"{path}: board.turned: {', '.join(map(repr, strangers[:3]))} "
                        f"{'is not a game' if len(strangers) == 1 else 'are not games'}; ignored")
    coordinates = typed(board, "coordinates", bool, True, "board.coordinates")
    new_game = section("new_game")
    clock = typed(new_game, "clock", str, "", "new_game.clock")
    advanced = typed(new_game, "advanced", bool, False, "new_game.advanced")
    if clock:
        try:
            TimeControl.parse(str(clock))
        except ValueError as error:
            problems.append(f"{path}: new_game.clock: {error}; ignored")
            clock = ""
    syzygy = str(typed(section("engines"), "syzygy", str, "", "engines.syzygy"))
    if syzygy:
        problem = tables_problem(syzygy)
        if problem is not None:
            problems.append(f"{path}: engines.syzygy: {problem}; ignored")
            syzygy = ""
    players: dict[str, tuple[str, str]] = {}
    for game, chosen in section("players").items():
        if game not in GAME_NAMES or not isinstance(chosen, dict):
            problems.append(f"{path}: [players.{str(game)[:20]}] is not a game's players; ignored")
            continue
        first = typed(chosen, "first", str, None, f"players.{game}.first")
        second = typed(chosen, "second", str, None, f"players.{game}.second")
        if isinstance(first, str) and isinstance(second, str):
            players[game] = (first, second)
    return (Settings(str(theme), bool(ascii), bool(coordinates), str(clock), players, str(pieces), turned,
                     bool(advanced), syzygy), problems)


def problems_text(problems: list[str]) -> str:
    """The settings' problems in one line: the first, and how many more."""
    if not problems:
        return ""
    return f"settings: {problems[0]}" + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else "")


def quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def settings_text(settings: Settings) -> str:
    """The TOML file of ``settings``."""
    lines = ["# tui-games settings (the app writes this file; see docs/app.md)", f"version = {VERSION}", "",
             "[board]", f"theme = {quoted(settings.theme)}", f"pieces = {quoted(settings.pieces)}",
             f"ascii = {str(settings.ascii).lower()}", f"coordinates = {str(settings.coordinates).lower()}",
             "turned = [" + ", ".join(quoted(game) for game in sorted(settings.turned)) + "]", "", "[new_game]",
             f"clock = {quoted(settings.clock)}", f"advanced = {str(settings.advanced).lower()}", "",
             "[engines]", f"syzygy = {quoted(settings.syzygy)}"]
    for game in sorted(settings.players):
        first, second = settings.players[game]
        lines += ["", f"[players.{game}]", f"first = {quoted(first)}", f"second = {quoted(second)}"]
    return "\n".join(lines) + "\n"


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write ``settings`` (a new file renamed over the old; an unreadable old file kept as
    ``.bad``).  Raises :class:`OSError` (the caller says it in one line)."""
    path = path or settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    if (path.exists() or path.is_symlink()) and load_settings(path)[1]:
        keep_aside(path)
    write_whole(path, settings_text(settings))


def keep_aside(path: Path) -> Path:
    """Move a file we could not read out of the way, to ``NAME.bad`` or, when that is taken (an
    earlier bad file), ``NAME.bad.2``, ``.bad.3`` ...: nothing the user had is ever written over."""
    for number in range(1, 10_000):
        aside = path.with_name(path.name + (".bad" if number == 1 else f".bad.{number}"))
        if not aside.exists() and not aside.is_symlink():
            os.replace(path, aside)
            return aside
    raise OSError(f"cannot keep {path} aside: {path.name}.bad to .bad.9999 all exist")


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` to a new file beside ``path`` and rename it over ``path``: a crash or a full
    disk never leaves half a file (nor the new one).  Raises :class:`OSError`."""
    temporary = path.with_name(path.name + ".new")
    try:
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except OSError:
        try:
            temporary.unlink()
        except OSError:
            pass
        raise
