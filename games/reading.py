"""Reading record files back: any game's records, replayed and checked.

:func:`read_records` turns the text of a record file into the games it holds
(:class:`~games.records.LoadedGame`: the start position, the moves, the
tags), read by the game's record format (its kind's ``records``) and each
checked by replaying it: a move that is not legal where it stands is a
:class:`~games.records.RecordError` naming the game, the move number and the
move.  Every file :func:`games.records.save_record` writes reads back to the
same game.  :func:`load_record_file` reads a file with the size and encoding
checks a file from elsewhere needs, :func:`index_records` lists a file's
games, :func:`resaved_record` writes a loaded game back with nothing lost.
A file where more than :data:`~games.records.MAX_GAMES` games start is
refused in one line before any game is read.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from . import GAME_NAMES, game_class, game_kind
from .base import Game, GameError, ReplayError
from .files import read_head, user_path
from .records import (
    LoadedGame,
    Progress,
    RecordError,
    RecordNotes,
    RecordSummary,
    outcome_from_record,
    read_text_file,
)
from .variations import MoveNode, MoveTree, start_move_number

__all__ = ["LoadedGame", "MAX_RECORD_BYTES", "RecordSummary", "game_for_path", "index_records",
           "load_record_file", "read_record_text", "read_records", "resaved_record", "scan_records"]

#: Record files larger than this are refused (a long PGN database is far smaller).
MAX_RECORD_BYTES = 20_000_000


def _checked(loaded: LoadedGame, index: int) -> LoadedGame:
    """``loaded`` if every move is legal in turn; RecordError otherwise."""
    try:
        game, moves = game_class(loaded.game_name).replay(loaded.start, loaded.moves)
    except ReplayError as error:
        if error.ply == 0:
            raise RecordError(f"game {index + 1}: bad start position: {error.cause}") from None
        raise RecordError(f"game {index + 1}, move {(error.ply - 1) // 2 + 1}: {error.cause}") from None
    declared = None
    if game.outcome() is None:
        declared = outcome_from_record(loaded.tags.get("Result", "*"), loaded.tags.get("Termination", ""))
    return replace(loaded, moves=tuple(moves), outcome=declared, tree=_checked_tree(loaded, game))


def _checked_tree(loaded: LoadedGame, end: Game) -> MoveTree:
    """The record's tree (one of its main line where the format keeps none), its
    moves as the game writes them and numbered from its start.  A variation is
    cut at a move that is not legal where it stands (records from elsewhere
    annotate loosely; the main line, replayed before, is checked strictly)."""
    tree = loaded.tree
    if tree is None:
        tree = MoveTree.of_moves(loaded.moves, loaded.start)
        for node, comment in zip(tree.mainline(), loaded.comments):
            node.comment = comment
    game = end.copy()
    for _ in range(len(game.move_stack)):
        game.undo()
    tree.first_mover, tree.first_number = game.turn, start_move_number(game)
    work: list[tuple[MoveNode, bool]] = [(child, False) for child in reversed(tree.variations)]
    while work:  # depth first, without recursion: a move is played going in and taken back coming out
        node, leaving = work.pop()
        if leaving:
            game.undo()
            continue
        try:
            move = game.parse_move(node.move or "")
        except GameError:
            node.remove()
            continue
        node.move = game.format_move(move)
        game.play(move)
        work.append((node, True))
        work.extend((child, False) for child in reversed(node.variations))
    return tree


def scan_records(game_name: str, text: str) -> list[LoadedGame | RecordError]:
    """Every game in a record text of ``game_name``, each replayed and checked
    on its own: a game that cannot be read is its :class:`RecordError` (which
    names it by number) in its place, and the others still load."""
    records = game_kind(game_name).records
    if "\x00" in text:
        raise RecordError("not a text file (it holds NUL bytes)")
    records.check_count(text)
    scanned: list[LoadedGame | RecordError] = []
    for index, item in enumerate(records.read(text)):
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
    name = game_kind(game_name).name
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
    return read_text_file(path, "a record file", MAX_RECORD_BYTES, RecordError)


def load_record_file(path: str | Path, game_name: str, number: int = 1) -> tuple[LoadedGame, int]:
    """Game ``number`` (1-based) of the record file at ``path`` and how many
    games the file holds.  Every problem -- a missing or unreadable file, one
    too large, binary or not UTF-8, no such game, that game's bad record -- is
    a one-line :class:`RecordError`; bad games other than ``number`` do not
    matter.  A format that can streams the file: the games before ``number``
    are skipped unread (chess: game 60,000 of a 10 MB file opens in a fraction
    of a second)."""
    file = user_path(path)
    text = read_record_text(file)
    kind = game_kind(game_name)
    try:
        kind.records.check_count(text)
        item, count = kind.records.game_at(text, number)
    except RecordError as error:
        raise RecordError(f"{file}: {error}") from None
    if isinstance(item, LoadedGame):
        try:
            item = _checked(item, number - 1)
        except RecordError as error:
            item = error
    if isinstance(item, RecordError):
        raise RecordError(f"{file}: {item}")
    if count == 0:
        raise RecordError(f"{file}: no {kind.name} game found in it")
    if item is None:
        raise RecordError(f"{file} holds {count} game{'s' if count != 1 else ''}; there is no game {number}")
    return item, count


#: Tags a record writer sets from the game itself; a re-save computes them again.
_COMPUTED_TAGS = frozenset({"Result", "Termination", "SetUp", "FEN", "GameType"})


def resaved_record(loaded: LoadedGame, game: Game, notes: RecordNotes) -> str:
    """The record of ``game``, which started as ``loaded`` (read from a file)
    and may have gone on since, written so that nothing read is lost.

    A format with a model of what it read writes that back (chess: every
    header, comment, NAG, variation, ``%clk`` and ``%eval``, see
    :meth:`games.chess.records.PGN.resave`).  Otherwise the tags and the
    comments read are written around the moves, with the app's comments on the
    moves after them."""
    records = game_kind(loaded.game_name).records
    text = records.resave(loaded, game, notes)
    if text is not None:
        return text
    kept = {name: value for name, value in loaded.tags.items() if name not in _COMPUTED_TAGS}
    played = len(game.move_stack)
    comments = list(loaded.comments[:min(len(loaded.moves), played)])
    comments += [notes.move_comment(ply) for ply in range(len(comments), played)]
    first, second = loaded.player_names
    reason = loaded.tags.get("Termination") or None
    if played != len(loaded.moves):
        reason = None  # the game went on past, or stopped short of, the record's end: say how it stands
    return records.text(game, first_player=first or "?", second_player=second or "?",
                        event=loaded.tags.get("Event", "?"), result_reason=reason,
                        notes=RecordNotes(outcome=notes.outcome, comments=comments, tags=kept,
                                          comment=notes.comment, tree=notes.tree))


def index_records(path: str | Path, game_name: str, *, progress: Progress | None = None) -> list[RecordSummary]:
    """A summary of every game in the record file at ``path``, read from the
    tags alone where the format can (chess streams the headers: a 10 MB
    database is listed in about a second).  ``progress(done, total)``
    (characters) is called now and then.  The file's problems are one-line
    :class:`RecordError` s; a bad game shows up when it is opened."""
    text = read_record_text(path)
    kind = game_kind(game_name)
    try:
        kind.records.check_count(text)
        summaries = kind.records.summaries(text, progress)
    except RecordError as error:
        raise RecordError(f"{user_path(path)}: {error}") from None
    if not summaries:
        raise RecordError(f"{user_path(path)}: no {kind.name} game found in it")
    return summaries


def game_for_path(path: str | Path, default: str) -> str:
    """The game whose records have the extension of ``path`` (``.pgn`` chess,
    ``.pdn`` checkers ...), else ``default``.  Where several games write files
    of that extension (Quixo's and Othello's ``.txt``), the file's beginning
    decides, then ``default`` if it is one of them."""
    suffix = Path(path).suffix.lower().lstrip(".")
    named = [name for name in GAME_NAMES if game_kind(name).records.extension == suffix]
    if len(named) > 1:
        try:
            head = read_head(path, 65536).decode("utf-8", "replace")
        except OSError:
            head = ""
        for name in named:
            if game_kind(name).records.recognises(head):
                return name
    if not named or default in named:
        return default
    return named[0]
