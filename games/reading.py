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

import copy
import io
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Mapping

import chess
import chess.pgn

from . import game_class
from .base import Game, GameError, Outcome
from .records import (
    WRAP,
    RecordError,
    RecordNotes,
    describe_outcome,
    outcome_from_record,
    pdn_tags,
    read_pdn_game,
    read_quixo_record,
    record_text,
    result_token,
)

__all__ = ["LoadedGame", "MAX_RECORD_BYTES", "RecordSummary", "index_records", "load_record_file", "read_record_text", "read_records", "resaved_record", "scan_records"]

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
    #: The comment after each move of the main line (``""`` for none): PDN and Quixo.
    comments: tuple[str, ...] = ()
    #: Chess: the whole game as python-chess read it (headers, comments, NAGs,
    #: variations, ``%clk``/``%eval``), which a re-save writes back.
    pgn: chess.pgn.Game | None = field(default=None, compare=False, repr=False)

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
    return replace(loaded, moves=tuple(moves), outcome=declared)


#: The seven-tag roster's values when a PGN game does not give them.
_UNSET = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?",
          "Result": "*"}


def _chess_game(pgn: chess.pgn.Game | None, index: int) -> LoadedGame:
    """A game python-chess read, or RecordError: its errors, or nothing of a game in it."""
    if pgn is None:
        raise RecordError(f"game {index + 1}: no chess game found")
    if pgn.errors:
        raise RecordError(f"game {index + 1}: {' '.join(str(pgn.errors[0]).split())[:160]}")
    if not pgn.variations and all(pgn.headers.get(key) == value for key, value in _UNSET.items()) \
            and len(pgn.headers) == len(_UNSET):
        raise RecordError(f"game {index + 1}: neither tags nor moves: not a PGN game")
    board = pgn.board()
    start = None if board.fen() == chess.STARTING_FEN else board.fen()
    moves = []
    for move in pgn.mainline_moves():
        moves.append(board.san(move))
        board.push(move)
    return LoadedGame("chess", start, tuple(moves), dict(pgn.headers), pgn=pgn)


class _QuietBuilder(chess.pgn.GameBuilder):
    """python-chess's game builder without its log line per error: the errors
    stay on the game (``errors``) and are reported as one line each."""

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)


def _read_pgn(stream: io.StringIO) -> chess.pgn.Game | None:
    return chess.pgn.read_game(stream, Visitor=_QuietBuilder)


def _chess_games(text: str) -> list[LoadedGame | RecordError]:
    games: list[LoadedGame | RecordError] = []
    stream = io.StringIO(text)
    while True:
        try:
            pgn = _read_pgn(stream)
        except (ValueError, RecursionError) as error:  # python-chess is lenient; be safe with garbage
            games.append(RecordError(f"game {len(games) + 1}: {error}"))
            break
        if pgn is None:
            break
        try:
            games.append(_chess_game(pgn, len(games)))
        except RecordError as error:
            games.append(error)
    return games


_PDN_GAME_START = re.compile(r"^\s*\[Event\s", re.MULTILINE)


def _pdn_chunks(text: str) -> list[str]:
    starts = [match.start() for match in _PDN_GAME_START.finditer(text)] or [0]
    if starts[0] != 0 and text[:starts[0]].strip():
        starts.insert(0, 0)
    return [chunk for chunk in (text[a:b] for a, b in zip(starts, starts[1:] + [len(text)])) if chunk.strip()]


def _checkers_games(text: str) -> list[LoadedGame | RecordError]:
    games: list[LoadedGame | RecordError] = []
    for index, chunk in enumerate(_pdn_chunks(text)):
        try:
            start, moves, comments = read_pdn_game(chunk)
        except RecordError as error:
            games.append(RecordError(f"game {index + 1}: {error}"))
            continue
        games.append(LoadedGame("checkers", start, tuple(moves), pdn_tags(chunk), comments=tuple(comments)))
    return games


_QUIXO_HEADER_RE = re.compile(r"^#\s*tui-games Quixo\s*$", re.MULTILINE)


def _quixo_games(text: str) -> list[LoadedGame | RecordError]:
    """One game per ``# tui-games Quixo`` header (a file of a match holds
    many); a text without one is a single game."""
    starts = [match.start() for match in _QUIXO_HEADER_RE.finditer(text)]
    chunks = [text] if len(starts) <= 1 else [text[a:b] for a, b in zip(starts, starts[1:] + [len(text)])]
    games: list[LoadedGame | RecordError] = []
    for index, chunk in enumerate(chunks):
        try:
            games.append(_quixo_game(chunk))
        except RecordError as error:
            games.append(RecordError(f"game {index + 1}: {error}"))
    return games


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


def scan_records(game_name: str, text: str) -> list[LoadedGame | RecordError]:
    """Every game in a record text of ``game_name``, each replayed and checked
    on its own: a game that cannot be read is its :class:`RecordError` (which
    names it by number) in its place, and the others still load."""
    name = game_name.strip().lower()
    if "\x00" in text:
        raise RecordError("not a text file (it holds NUL bytes)")
    scanned: list[LoadedGame | RecordError] = []
    for index, item in enumerate(_READERS[name](text)):
        if isinstance(item, LoadedGame):
            try:
                item = _checked(item, index)
            except RecordError as error:
                item = error
        scanned.append(item)
    return scanned


def read_records(game_name: str, text: str) -> list[LoadedGame]:
    """Every game in a record text of ``game_name``, each replayed and checked.

    Raises :class:`RecordError` (one line) for a text with no game, a syntax
    error or an illegal move in any game (see :func:`scan_records` to read the
    good games of a file that holds bad ones)."""
    name = game_name.strip().lower()
    games = scan_records(name, text)
    if not games:
        raise RecordError(f"no {name} game found in the record")
    for item in games:
        if isinstance(item, RecordError):
            raise item
    return games  # type: ignore[return-value]


def read_record_text(path: str | Path) -> str:
    """The text of a record file, with the checks a file from elsewhere needs:
    it exists, is a regular file, is at most :data:`MAX_RECORD_BYTES`, is
    UTF-8 text and not binary.  Every problem is a one-line :class:`RecordError`."""
    file = Path(path).expanduser()
    try:
        if file.is_dir():
            raise RecordError(f"{file} is a directory, not a record file")
        if file.exists() and not file.is_file():
            raise RecordError(f"{file} is not a regular file")
        size = file.stat().st_size
        if size > MAX_RECORD_BYTES:
            raise RecordError(f"{file} is {size:,} bytes; records over {MAX_RECORD_BYTES:,} are refused")
        data = file.read_bytes()
    except FileNotFoundError:
        raise RecordError(f"{file} does not exist") from None
    except OSError as error:
        raise RecordError(f"cannot read {file}: {error.strerror or error}") from None
    if b"\x00" in data:
        raise RecordError(f"{file} is not a text file (it holds NUL bytes)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise RecordError(f"{file} is not UTF-8 text (byte {error.start})") from None


def load_record_file(path: str | Path, game_name: str, number: int = 1) -> tuple[LoadedGame, int]:
    """Game ``number`` (1-based) of the record file at ``path`` and how many
    games the file holds.  Every problem -- a missing or unreadable file, one
    too large, binary or not UTF-8, no such game, that game's bad record -- is
    a one-line :class:`RecordError`; bad games other than ``number`` do not
    matter.  Chess files are streamed: the games before ``number`` are skipped
    unread (python-chess's ``skip_game``), so game 60,000 of a 10 MB file
    opens in a fraction of a second."""
    file = Path(path).expanduser()
    text = read_record_text(file)
    name = game_name.strip().lower()
    if name == "chess":
        try:
            loaded, count = _chess_game_at(text, number)
        except RecordError as problem:
            raise RecordError(f"{file}: {problem}") from None
    else:
        games = scan_records(name, text)
        count = len(games)
        item = games[number - 1] if 1 <= number <= count else None
        loaded = None
        if isinstance(item, RecordError):
            raise RecordError(f"{file}: {item}")
        if item is not None:
            loaded = item
    if count == 0:
        raise RecordError(f"{file}: no {name} game found in it")
    if loaded is None:
        raise RecordError(f"{file} holds {count} game{'s' if count != 1 else ''}; there is no game {number}")
    return loaded, count


def _chess_game_at(text: str, number: int) -> tuple[LoadedGame | None, int]:
    """Game ``number`` of a PGN text, checked (``None`` if there is no such
    game), and how many games the text holds; the others are skipped unread."""
    stream = io.StringIO(text)
    count = 0
    loaded = None
    while True:
        count += 1
        if count == number:
            pgn = _read_pgn(stream)
            if pgn is None:
                return None, count - 1
            loaded = _checked(_chess_game(pgn, count - 1), count - 1)
        elif not chess.pgn.skip_game(stream):
            return loaded, count - 1


#: Tags a record writer sets from the game itself; a re-save computes them again.
_COMPUTED_TAGS = frozenset({"Result", "Termination", "SetUp", "FEN", "GameType"})


def resaved_record(loaded: LoadedGame, game: Game, notes: RecordNotes) -> str:
    """The record of ``game``, which started as ``loaded`` (read from a file)
    and may have gone on since, written so that nothing read is lost.

    Chess: the PGN model python-chess read -- every header, comment, NAG,
    variation, ``%clk`` and ``%eval`` -- with the moves played since added
    (a move off the record's main line becomes the main line, the record's
    own continuation a variation), ``notes``' comments on those new moves, and
    the ``Result`` (with a ``Termination``) only when the game reached a result
    the record did not state.  Unchanged, it writes the record back as read
    (the move text may be re-wrapped).  Checkers and Quixo: the tags and the
    comments read, the app's comments on the moves after them."""
    outcome = notes.outcome or game.outcome()
    if loaded.pgn is not None:
        pgn = copy.deepcopy(loaded.pgn)
        node: chess.pgn.GameNode = pgn
        board: chess.Board = game.board  # type: ignore[attr-defined]
        changed = False
        for ply, move in enumerate(board.move_stack):
            following = next((variation for variation in node.variations if variation.move == move), None)
            if following is None:
                following = node.add_main_variation(move, comment=notes.move_comment(ply))
                changed = True
            elif not following.is_main_variation():
                node.promote_to_main(following)
                changed = True
            node = following
        token = result_token(game, notes.outcome)
        if outcome is not None and node.is_end() and (changed or pgn.headers.get("Result", "*") == "*"):
            pgn.headers["Result"] = token
            pgn.headers["Termination"] = describe_outcome(game, notes.outcome) or ""
        elif changed:
            pgn.headers["Result"] = "*"  # the game goes on past the record's result
        return pgn.accept(chess.pgn.StringExporter(columns=WRAP)) + "\n"
    kept = {name: value for name, value in loaded.tags.items() if name not in _COMPUTED_TAGS}
    comments = list(loaded.comments[:len(loaded.moves)])
    comments += [notes.move_comment(ply) for ply in range(len(comments), len(game.move_stack))]
    first, second = loaded.player_names
    reason = loaded.tags.get("Termination") or None
    if outcome is not None and len(game.move_stack) != len(loaded.moves):
        reason = None  # the game ended elsewhere than the record: say how
    return record_text(loaded.game_name, game, first_player=first or "?", second_player=second or "?",
                       event=loaded.tags.get("Event", "?"), result_reason=reason,
                       notes=RecordNotes(outcome=notes.outcome, comments=comments, tags=kept,
                                         comment=notes.comment))


@dataclass(frozen=True)
class RecordSummary:
    """One game of a record file as a list of games shows it (read from its tags only)."""

    number: int
    players: tuple[str, str]
    result: str
    date: str
    event: str
    #: Moves (a move is both sides' plies), when the record says or they are cheap to count.
    moves: int | None

    def text(self) -> str:
        """Everything shown of the game, for filtering by text."""
        return " ".join((str(self.number), *self.players, self.result, self.date, self.event)).lower()


def index_records(path: str | Path, game_name: str, *,
                  progress: Callable[[int, int], None] | None = None) -> list[RecordSummary]:
    """A summary of every game in the record file at ``path``, read from the
    tags alone: PGN games are streamed with python-chess's ``read_headers``
    (which skips the moves), so a 10 MB database is listed in about a second.
    ``progress(done, total)`` (characters) is called now and then.  The file's
    problems are one-line :class:`RecordError` s; a bad game shows up when it
    is opened."""
    text = read_record_text(path)
    name = game_name.strip().lower()
    first_tag, second_tag = _PLAYER_TAGS[name]
    summaries: list[RecordSummary] = []

    def add(tags: Mapping[str, str], moves: int | None) -> None:
        names = tuple("" if tags.get(key, "?") == "?" else tags.get(key, "") for key in (first_tag, second_tag))
        summaries.append(RecordSummary(len(summaries) + 1, names, tags.get("Result", "*").split(" ")[0],
                                       tags.get("Date", ""), tags.get("Event", ""), moves))  # type: ignore[arg-type]
        if progress is not None and len(summaries) % 500 == 0:
            progress(position(), len(text))

    if name == "chess":
        stream = io.StringIO(text)
        position = stream.tell
        while (headers := chess.pgn.read_headers(stream)) is not None:
            plies = headers.get("PlyCount", "")
            add(headers, (int(plies) + 1) // 2 if plies.isdigit() else None)
    else:
        position = (lambda: len(text))
        for item in _READERS[name](text):
            if isinstance(item, LoadedGame):
                add(item.tags, (len(item.moves) + 1) // 2)
            else:
                add({}, None)
    if progress is not None:
        progress(len(text), len(text))
    if not summaries:
        raise RecordError(f"{Path(path).expanduser()}: no {name} game found in it")
    return summaries
