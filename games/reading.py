"""Reading game records back: PGN (chess), PDN (checkers), the Quixo move list.

:func:`read_records` turns the text of a record file into the games it holds
(:class:`LoadedGame`: the start position, the moves, the tags), each checked by
replaying it: a move that is not legal where it stands is a
:class:`~games.records.RecordError` naming the game, the move number and the
move.  Every file :func:`games.records.save_record` writes reads back to the
same game.  :func:`load_record_file` reads a file with the size and encoding
checks a file from elsewhere needs.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.pgn

from . import game_class
from .base import GameError, Outcome
from .records import RecordError, outcome_from_record, pdn_tags, read_checkers_record, read_quixo_record

__all__ = ["LoadedGame", "MAX_RECORD_BYTES", "load_record_file", "read_records"]

#: Record files larger than this are refused (a long PGN database is far smaller).
MAX_RECORD_BYTES = 20_000_000


@dataclass(frozen=True)
class LoadedGame:
    """One game of a record: where it started, its moves (as the game writes
    them) and its tags (``White``, ``Result``, ...)."""

    game_name: str
    start: str | None
    moves: tuple[str, ...]
    tags: dict[str, str] = field(default_factory=dict)
    #: A result the record states that the moves do not reach on the board
    #: (a resignation, an agreed draw, a flag fall); ``None`` otherwise.
    outcome: Outcome | None = None

    @property
    def player_names(self) -> tuple[str, str]:
        """The players the record names, first mover first (``""`` where it
        names none: PGN's ``?``)."""
        keys = _PLAYER_TAGS[self.game_name]
        names = [self.tags.get(key, "").strip() for key in keys]
        return (names[0] if names[0] != "?" else "", names[1] if names[1] != "?" else "")


#: The tags of the first and the second player, per game (checkers: Black moves first).
_PLAYER_TAGS = {"chess": ("White", "Black"), "checkers": ("Black", "White"), "quixo": ("X", "O")}


def _checked(loaded: LoadedGame, index: int) -> LoadedGame:
    """``loaded`` if every move is legal in turn; RecordError otherwise."""
    cls = game_class(loaded.game_name)
    try:
        game = cls.from_text(loaded.start) if loaded.start else cls()
    except GameError as error:
        raise RecordError(f"game {index + 1}: bad start position: {error}") from None
    moves = []
    for ply, text in enumerate(loaded.moves):
        try:
            move = game.parse_move(text)
        except GameError as error:
            raise RecordError(f"game {index + 1}, move {ply // 2 + 1}: {error}") from None
        moves.append(game.format_move(move))
        game.play(move)
    declared = None
    if game.outcome() is None:
        declared = outcome_from_record(loaded.tags.get("Result", "*"), loaded.tags.get("Termination", ""))
    return LoadedGame(loaded.game_name, loaded.start, tuple(moves), loaded.tags, declared)


def _chess_games(text: str) -> list[LoadedGame]:
    games = []
    stream = io.StringIO(text)
    while True:
        pgn = chess.pgn.read_game(stream)
        if pgn is None:
            break
        if pgn.errors:
            raise RecordError(f"game {len(games) + 1}: {pgn.errors[0]}")
        board = pgn.board()
        start = None if board.fen() == chess.STARTING_FEN else board.fen()
        moves = []
        for move in pgn.mainline_moves():
            moves.append(board.san(move))
            board.push(move)
        games.append(LoadedGame("chess", start, tuple(moves), dict(pgn.headers)))
    return games


_PDN_GAME_START = re.compile(r"^\s*\[Event\s", re.MULTILINE)


def _checkers_games(text: str) -> list[LoadedGame]:
    starts = [match.start() for match in _PDN_GAME_START.finditer(text)] or [0]
    if starts[0] != 0 and text[:starts[0]].strip():
        starts.insert(0, 0)
    chunks = [text[a:b] for a, b in zip(starts, starts[1:] + [len(text)])]
    games = []
    for chunk in chunks:
        if not chunk.strip():
            continue
        start, moves = read_checkers_record(chunk)
        games.append(LoadedGame("checkers", start, tuple(moves), pdn_tags(chunk)))
    return games


_QUIXO_HEADER_RE = re.compile(r"^#\s*tui-games Quixo\s*$", re.MULTILINE)


def _quixo_games(text: str) -> list[LoadedGame]:
    """One game per ``# tui-games Quixo`` header (a file of a match holds
    many); a text without one is a single game."""
    starts = [match.start() for match in _QUIXO_HEADER_RE.finditer(text)]
    if len(starts) <= 1:
        return [_quixo_game(text)]
    return [_quixo_game(text[start:end]) for start, end in zip(starts, starts[1:] + [len(text)])]


def _quixo_game(text: str) -> LoadedGame:
    start, moves = read_quixo_record(text)
    tags = {}
    for line in text.splitlines():
        key, colon, value = line.strip().lstrip("#").partition(":")
        if line.strip().startswith("#") and colon and key.strip() and " " not in key.strip():
            tags[key.strip()] = value.strip()
    if "Result" in tags:
        token, _, described = tags["Result"].partition(" ")
        tags["Result"] = token
        tags["Termination"] = described.strip()
    return LoadedGame("quixo", start, tuple(moves), tags)


_READERS = {"chess": _chess_games, "checkers": _checkers_games, "quixo": _quixo_games}


def read_records(game_name: str, text: str) -> list[LoadedGame]:
    """Every game in a record text of ``game_name``, each replayed and checked.

    Raises :class:`RecordError` (one line) for a text with no game, a syntax
    error or an illegal move."""
    name = game_name.strip().lower()
    games = _READERS[name](text)
    if not games:
        raise RecordError(f"no {name} game found in the record")
    return [_checked(loaded, index) for index, loaded in enumerate(games)]


def load_record_file(path: str | Path, game_name: str, number: int = 1) -> tuple[LoadedGame, int]:
    """Game ``number`` (1-based) of the record file at ``path`` and how many
    games the file holds.  Every problem -- a missing or unreadable file, one
    too large, not UTF-8, no such game, a bad record -- is a one-line
    :class:`RecordError`."""
    file = Path(path).expanduser()
    try:
        size = file.stat().st_size
        if size > MAX_RECORD_BYTES:
            raise RecordError(f"{file} is {size:,} bytes; records over {MAX_RECORD_BYTES:,} are refused")
        text = file.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise RecordError(f"{file} is not UTF-8 text (byte {error.start})") from None
    except IsADirectoryError:
        raise RecordError(f"{file} is a directory, not a record file") from None
    except FileNotFoundError:
        raise RecordError(f"{file} does not exist") from None
    except OSError as error:
        raise RecordError(f"cannot read {file}: {error.strerror or error}") from None
    games = read_records(game_name, text)
    if not 1 <= number <= len(games):
        raise RecordError(f"{file} holds {len(games)} game{'s' if len(games) != 1 else ''}; "
                          f"there is no game {number}")
    return games[number - 1], len(games)
