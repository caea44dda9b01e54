"""Game records: a finished or unfinished game written to a text file.

One format per game:

chess -- PGN
    Written by python-chess (:meth:`chess.pgn.Game.from_board`), which also
    writes the ``SetUp``/``FEN`` tags when the game did not start from the
    standard position.  Tags: the seven-tag roster (``Event``, ``Site``
    "tui-games", ``Date``, ``Round`` "-", ``White`` = the first player,
    ``Black`` = the second, ``Result`` ``1-0``/``0-1``/``1/2-1/2``/``*``) and
    ``Termination``: how the game ended (``"White wins (checkmate)"``, ``"draw
    (threefold repetition)"``, or the caller's ``result_reason``), or
    ``"unterminated"`` for a game still going on.
checkers -- PDN (Portable Draughts Notation)
    Tags ``Event``, ``Site``, ``Date``, ``Round``, ``Black`` = the first player
    (Black moves first), ``White`` = the second, ``Result``, ``GameType "21"``
    (English draughts), ``SetUp "1"`` and ``FEN`` (the PDN FEN of
    :meth:`games.checkers.Checkers.to_text`) when the game did not start from
    the standard position, and ``Termination`` as for chess.  Then the moves,
    numbered, ``1. 11-15 23-19 2. 8-11 ...`` (``1... 23-19`` when White moved
    first from a set-up position), multi-jumps with every landing square, and
    the result token, wrapped at 79 columns.

    *Result convention*: PDN files of English checkers disagree (``2-0`` /
    ``0-2`` / ``1-1`` in some, chess-style in others); we write the chess-style
    tokens seen in most English checkers databases, scored for the *first*
    player: ``1-0`` means Black won, ``0-1`` White won, ``1/2-1/2`` a draw,
    ``*`` an unfinished game.
Quixo -- a plain text move list
    ``#`` comment lines: ``# tui-games Quixo``, ``# Event:``, ``# Date:``,
    ``# X:`` the first player, ``# O:`` the second, ``# Result:`` (``1-0 X wins
    (five in a row)``, ``1/2-1/2 draw (move cap)``, ``* unfinished``) and
    ``# Start:`` with the position text when the game did not start from the
    empty board.  Then one line per move pair, two spaces between the moves:
    ``1. 2 0 bottom  4 4 left`` (``1. ...  4 4 left`` when O moved first).
    :func:`read_quixo_record` reads it back.

The start position of a game is found by undoing every move of a copy.
:func:`save_record` never overwrites a file.
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

import chess
import chess.pgn

from . import new_game
from .base import Game, Outcome

__all__ = [
    "EXTENSIONS",
    "RecordError",
    "RecordNotes",
    "default_filename",
    "describe_outcome",
    "outcome_from_record",
    "pdn_tags",
    "read_checkers_record",
    "read_pdn_game",
    "read_quixo_record",
    "record_text",
    "result_token",
    "save_record",
    "start_position",
]

#: File extension of each game's records.
EXTENSIONS: dict[str, str] = {"chess": "pgn", "checkers": "pdn", "quixo": "txt"}

#: Site tag of every record.
SITE = "tui-games"

#: Records are wrapped at this many columns.
WRAP = 79


class RecordError(ValueError):
    """A record text could not be read; the message says where and why."""


# ---------------------------------------------------------------------------
# What every format needs
# ---------------------------------------------------------------------------


def start_position(game: Game) -> Game:
    """A copy of ``game`` taken back to the position it started from."""
    start = game.copy()
    for _ in range(len(start.move_stack)):
        start.undo()
    return start


def result_token(game: Game, outcome: Outcome | None = None) -> str:
    """``1-0`` (the first player won), ``0-1`` (the second), ``1/2-1/2`` or ``*`` (not over).

    ``outcome`` is a result decided off the board (resignation, agreement,
    time) that replaces the board's."""
    outcome = outcome or game.outcome()
    if outcome is None:
        return "*"
    if outcome.winner is None:
        return "1/2-1/2"
    return "1-0" if outcome.winner == 0 else "0-1"


def describe_outcome(game: Game, outcome: Outcome | None = None) -> str | None:
    """How the game ended, e.g. ``"White wins (checkmate)"`` or ``"draw (move cap)"``;
    ``None`` while it goes on.  ``outcome`` as for :func:`result_token`."""
    outcome = outcome or game.outcome()
    if outcome is None:
        return None
    if outcome.winner is None:
        return f"draw ({outcome.reason})"
    return f"{game.PLAYERS[outcome.winner]} wins ({outcome.reason})"


_DESCRIBED_RE = re.compile(r"\(([^()]*)\)\s*$")


def outcome_from_record(token: str, described: str) -> Outcome | None:
    """The outcome a record states: its result token (``1-0`` ...) and the reason in
    its termination text (``"White wins (resignation)"``); ``None`` for ``*``."""
    winner = {"1-0": 0, "0-1": 1, "1/2-1/2": None}.get(token.strip(), -1)
    if winner == -1:
        return None
    match = _DESCRIBED_RE.search(described or "")
    return Outcome(winner, match.group(1).strip() if match else "adjudication")


@dataclass(frozen=True)
class RecordNotes:
    """What a record holds beyond the moves.

    ``outcome`` decides the result when the game ended off the board
    (resignation, agreed draw, time); ``comments`` has one text per move
    (``""`` for none): evals (``[%eval 0.35]``), clocks (``[%clk 0:04:58]``),
    the report's verdicts; ``tags`` are added to the header (``TimeControl``);
    ``comment`` is a note on the whole game (hints used).  A ``Round`` tag
    replaces the round (``-``) of PGN and PDN.
    """

    outcome: Outcome | None = None
    comments: Sequence[str] = ()
    tags: Mapping[str, str] = field(default_factory=dict)
    comment: str = ""

    def move_comment(self, ply: int) -> str:
        return self.comments[ply] if ply < len(self.comments) else ""


def _termination(game: Game, result_reason: str | None, notes: RecordNotes) -> str:
    """The Termination tag: the caller's reason, else the outcome, else ``unterminated``."""
    if result_reason:
        return result_reason
    return describe_outcome(game, notes.outcome) or "unterminated"


def _braced(comment: str) -> str:
    """A comment as a ``{...}`` token (braces inside are dropped: they would end it)."""
    return "{" + comment.replace("{", "(").replace("}", ")") + "}"


def _day(date: datetime.date | None) -> datetime.date:
    return datetime.date.today() if date is None else date


def _tag(name: str, value: str) -> str:
    """A PGN/PDN tag pair line, the value escaped."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def _wrap(tokens: list[str], width: int = WRAP) -> str:
    """Tokens joined by spaces in lines of at most ``width`` columns."""
    lines: list[str] = []
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    if line:
        lines.append(line)
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# The formats
# ---------------------------------------------------------------------------


def _chess_record(
    game: Game, first: str, second: str, event: str, date: datetime.date, reason: str | None,
    notes: RecordNotes,
) -> str:
    board: chess.Board = game.board  # type: ignore[attr-defined]
    pgn = chess.pgn.Game.from_board(board)
    for ply, node in enumerate(pgn.mainline()):
        node.comment = notes.move_comment(ply)
    pgn.comment = notes.comment
    headers = pgn.headers
    headers["Event"] = event
    headers["Site"] = SITE
    headers["Date"] = date.strftime("%Y.%m.%d")
    headers["Round"] = "-"
    headers["White"] = first
    headers["Black"] = second
    headers["Result"] = result_token(game, notes.outcome)
    headers["Termination"] = _termination(game, reason, notes)
    for name, value in notes.tags.items():
        headers[name] = value
    return pgn.accept(chess.pgn.StringExporter(columns=WRAP)) + "\n"


def _numbered_moves(game: Game) -> tuple[Game, list[tuple[int, int, str]]]:
    """The start position and ``(number, player, text)`` for every move played."""
    moves = list(game.move_stack)
    start = start_position(game)
    position = start.copy()
    numbered = []
    number = 1
    for move in moves:
        player = position.turn
        numbered.append((number, player, position.format_move(move)))
        position.play(move)
        if player == 1:
            number += 1
    return start, numbered


def _checkers_record(
    game: Game, first: str, second: str, event: str, date: datetime.date, reason: str | None,
    notes: RecordNotes,
) -> str:
    start, moves = _numbered_moves(game)
    result = result_token(game, notes.outcome)
    header = {"Event": event, "Site": SITE, "Date": date.strftime("%Y.%m.%d"), "Round": "-", "Black": first,
              "White": second, "Result": result, "GameType": "21"}
    start_text = start.to_text()
    if start_text != new_game("checkers").to_text():
        header.update(SetUp="1", FEN=start_text)
    header["Termination"] = _termination(game, reason, notes)
    header.update(notes.tags)  # a tag given replaces the default in its place (a loaded record's Date ...)
    lines = [_tag(name, value) for name, value in header.items()]
    tokens = [_braced(notes.comment)] if notes.comment else []
    for index, (number, player, text) in enumerate(moves):
        if player == 0:
            tokens.append(f"{number}. {text}")
        elif index == 0 or notes.move_comment(index - 1):
            tokens.append(f"{number}... {text}")
        else:
            tokens.append(text)
        if notes.move_comment(index):
            tokens.append(_braced(notes.move_comment(index)))
    tokens.append(result)
    return "\n".join(lines) + "\n\n" + _wrap(tokens) + "\n"


def _quixo_record(
    game: Game, first: str, second: str, event: str, date: datetime.date, reason: str | None,
    notes: RecordNotes,
) -> str:
    start, moves = _numbered_moves(game)
    result = result_token(game, notes.outcome)
    described = reason or describe_outcome(game, notes.outcome) or "unfinished"
    header = {"Event": event, "Date": date.isoformat(), "X": first, "O": second, "Result": f"{result} {described}"}
    start_text = start.to_text()
    if start_text != new_game("quixo").to_text():
        header["Start"] = start_text
    header.update(notes.tags)  # a tag given replaces the default in its place
    lines = ["# tui-games Quixo"] + [f"# {name}: {value}" for name, value in header.items()]
    if notes.comment:
        lines.append(f"# Note: {notes.comment}")
    pairs: dict[int, list[str]] = {}
    for ply, (number, player, text) in enumerate(moves):
        pair = pairs.setdefault(number, [])
        if player == 1 and not pair:
            pair.append("...")
        comment = notes.move_comment(ply)
        pair.append(f"{text} {_braced(comment)}" if comment else text)
    lines += [f"{number}. " + "  ".join(pair) for number, pair in pairs.items()]
    return "\n".join(lines) + "\n"


_WRITERS: dict[str, Callable[[Game, str, str, str, datetime.date, str | None, RecordNotes], str]] = {
    "chess": _chess_record,
    "checkers": _checkers_record,
    "quixo": _quixo_record,
}


def record_text(
    game_name: str,
    game: Game,
    *,
    first_player: str,
    second_player: str,
    event: str = "tui-games",
    date: datetime.date | None = None,
    result_reason: str | None = None,
    notes: RecordNotes | None = None,
) -> str:
    """The record of ``game`` in its game's format (PGN, PDN or a Quixo move list).

    ``first_player`` is the side that moved first from the standard start
    (chess White, checkers Black, Quixo X).  ``date`` defaults to today.
    ``result_reason`` replaces the outcome's description as the termination
    text, e.g. for a game stopped before its end.  ``notes`` adds a result
    decided off the board, comments and tags (:class:`RecordNotes`).
    """
    key = game_name.strip().lower()
    try:
        writer = _WRITERS[key]
    except KeyError:
        raise ValueError(f"unknown game {game_name!r}; expected one of: {', '.join(_WRITERS)}") from None
    if game.NAME != key:
        raise ValueError(f"cannot write a {game.NAME} game as a {key} record")
    return writer(game, first_player, second_player, event, _day(date), result_reason,
                  notes or RecordNotes())


# ---------------------------------------------------------------------------
# Reading records back
# ---------------------------------------------------------------------------

_QUIXO_MOVE_RE = re.compile(r"([0-9]+)[ ,]+([0-9]+)[ ,]+([A-Za-z]+)")
_MOVE_NUMBER_RE = re.compile(r"^\s*[0-9]+\.(?:\.\.)?\s*")
_COMMENT_RE = re.compile(r"\{[^}]*\}")


def read_quixo_record(text: str) -> tuple[str | None, list[str]]:
    """The start position text (``None`` for the empty board) and the move texts
    of a Quixo record written by :func:`record_text`.

    Raises :class:`RecordError` for a line that is neither a comment nor a
    numbered line of moves.
    """
    start: str | None = None
    moves: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            key, _, value = stripped[1:].partition(":")
            if key.strip().lower() == "start" and value.strip():
                start = value.strip()
            continue
        match = _MOVE_NUMBER_RE.match(stripped)
        if match is None:
            raise RecordError(f"line {number}: expected a numbered move line like '1. 2 0 bottom  4 4 left', got {stripped!r}")
        rest = _COMMENT_RE.sub(" ", stripped[match.end():])
        found = _QUIXO_MOVE_RE.findall(rest)
        leftover = _QUIXO_MOVE_RE.sub("", rest).replace("...", "").strip()
        if leftover or not found:
            raise RecordError(f"line {number}: expected moves like '2 0 bottom', got {rest!r}")
        moves.extend(" ".join(parts) for parts in found)
    return start, moves


_TAG_RE = re.compile(r'^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_PDN_TOKEN_RE = re.compile(r"\{[^}]*\}|\S+")
_PDN_RESULTS = frozenset({"1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1", "0-0"})


def pdn_tags(text: str) -> dict[str, str]:
    """The tag pairs (``[Name "value"]`` lines) of a PDN game, values unescaped."""
    tags = {}
    for line in text.splitlines():
        match = _TAG_RE.match(line)
        if match:
            tags[match.group(1)] = match.group(2).replace('\\"', '"').replace("\\\\", "\\")
    return tags


def read_checkers_record(text: str) -> tuple[str | None, list[str]]:
    """The ``FEN`` tag (``None`` if absent) and the move texts of one PDN game,
    such as those :func:`record_text` writes (see :func:`read_pdn_game`)."""
    start, moves, _ = read_pdn_game(text)
    return start, moves


_PDN_MAIN_TOKEN_RE = re.compile(r"\{[^}]*\}|[()]|[^\s(){}]+")
_MOVE_MARKS_RE = re.compile(r"[!?]+$")


def read_pdn_game(text: str) -> tuple[str | None, list[str], list[str]]:
    """The ``FEN`` tag (``None`` if absent), the main line's move texts and the
    comment after each of them (``""`` for none) of one PDN game as programs
    write them: move numbers (``1.``, ``1...``), the result token, NAGs
    (``$1``) and move marks (``23-19!``, ``11-15?!``) are read past, variations
    in parentheses (nested too) are skipped, comments in braces are kept."""
    start = pdn_tags(text).get("FEN")
    body = "\n".join(line for line in text.splitlines() if not _TAG_RE.match(line))
    moves: list[str] = []
    comments: list[str] = []
    depth = 0
    for token in _PDN_MAIN_TOKEN_RE.findall(body):
        if token == "(":
            depth += 1
        elif token == ")":
            depth = max(0, depth - 1)
        elif depth:
            continue
        elif token.startswith("{"):
            if comments:
                comments[-1] = " ".join(part for part in (comments[-1], token[1:-1].strip()) if part)
        elif token in _PDN_RESULTS or token.startswith("$"):
            continue
        else:
            token = _MOVE_MARKS_RE.sub("", _MOVE_NUMBER_RE.sub("", token))
            if token and token.strip(".") and token != "...":
                moves.append(token)
                comments.append("")
    return start, moves, comments


# ---------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------


def default_filename(game_name: str, when: datetime.datetime) -> str:
    """``chess-20261122-153012.pgn``, ``checkers-....pdn``, ``quixo-....txt``."""
    key = game_name.strip().lower()
    return f"{key}-{when:%Y%m%d-%H%M%S}.{EXTENSIONS[key]}"


def save_record(path: str | Path, text: str) -> Path:
    """Write ``text`` to a new file at ``path`` and return the path.

    Never overwrites: raises :class:`FileExistsError` if the file exists (pick
    another name) and :class:`FileNotFoundError` if its directory does not.
    """
    path = Path(path).expanduser()
    try:
        with path.open("x", encoding="utf-8", newline="\n") as file:
            file.write(text if text.endswith("\n") else text + "\n")
    except FileExistsError:
        raise FileExistsError(f"{path} already exists; records are never overwritten, choose another name") from None
    except FileNotFoundError:
        raise FileNotFoundError(f"cannot save {path}: the directory {path.parent} does not exist") from None
    return path
