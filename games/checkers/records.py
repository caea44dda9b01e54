"""Checkers records: PDN (Portable Draughts Notation).

Written: tags ``Event``, ``Site``, ``Date``, ``Round``, ``Black`` = the first
player (Black moves first), ``White`` = the second, ``Result``, ``GameType
"21"`` (English draughts), ``SetUp "1"`` and ``FEN`` (the PDN FEN of
:meth:`games.checkers.Checkers.to_text`) when the game did not start from the
standard position, and ``Termination``.  Then the moves, numbered, ``1. 11-15
23-19 2. 8-11 ...`` (``1... 23-19`` when White moved first from a set-up
position), multi-jumps with every landing square, comments in braces, and the
result token, wrapped at 79 columns.

*Result convention*: PDN files of English checkers disagree (``2-0`` /
``0-2`` / ``1-1`` in some, chess-style in others); we write the chess-style
tokens seen in most English checkers databases, scored for the *first*
player: ``1-0`` means Black won, ``0-1`` White won, ``1/2-1/2`` a draw, ``*``
an unfinished game.

Read: PDN as programs write it -- move numbers (``1.``, ``1...``), the result
token, NAGs (``$1``) and move marks (``23-19!``, ``11-15?!``) are read past,
variations in parentheses (nested too) are skipped, comments in braces are
kept; a file holds one game per ``[Event`` tag.
"""

from __future__ import annotations

import re
from typing import ClassVar

from ..base import Game
from ..records import (
    SITE,
    LoadedGame,
    RecordError,
    RecordFormat,
    RecordHeader,
    RecordNotes,
    braced,
    numbered_moves,
    result_token,
    tag_line,
    wrap_tokens,
)

__all__ = ["PDN", "pdn_tags", "read_checkers_record", "read_pdn_game"]

_TAG_RE = re.compile(r'^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_PDN_RESULTS = frozenset({"1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1", "0-0"})
_PDN_MAIN_TOKEN_RE = re.compile(r"\{[^}]*\}|[()]|[^\s(){}]+")
_MOVE_NUMBER_RE = re.compile(r"^\s*[0-9]+\.(?:\.\.)?\s*")
_MOVE_MARKS_RE = re.compile(r"[!?]+$")
_PDN_GAME_START = re.compile(r"^\s*\[Event\s", re.MULTILINE)


def pdn_tags(text: str) -> dict[str, str]:
    """The tag pairs (``[Name "value"]`` lines) of a PDN game, values unescaped."""
    tags = {}
    for line in text.splitlines():
        match = _TAG_RE.match(line)
        if match:
            tags[match.group(1)] = match.group(2).replace('\\"', '"').replace("\\\\", "\\")
    return tags


def read_pdn_game(text: str) -> tuple[str | None, list[str], list[str]]:
    """The ``FEN`` tag (``None`` if absent), the main line's move texts and the
    comment after each of them (``""`` for none) of one PDN game."""
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


def read_checkers_record(text: str) -> tuple[str | None, list[str]]:
    """The ``FEN`` tag (``None`` if absent) and the move texts of one PDN game."""
    start, moves, _ = read_pdn_game(text)
    return start, moves


def _pdn_chunks(text: str) -> list[str]:
    starts = [match.start() for match in _PDN_GAME_START.finditer(text)] or [0]
    if starts[0] != 0 and text[:starts[0]].strip():
        starts.insert(0, 0)
    return [chunk for chunk in (text[a:b] for a, b in zip(starts, starts[1:] + [len(text)])) if chunk.strip()]


class PDN(RecordFormat):
    """Portable Draughts Notation for English checkers (``GameType "21"``)."""

    game_name: ClassVar[str] = "checkers"
    name: ClassVar[str] = "PDN"
    extension: ClassVar[str] = "pdn"
    player_tags: ClassVar[tuple[str, str]] = ("Black", "White")
    game_start: ClassVar[str] = r"^\[Event "
    date_line: ClassVar[str] = r'^\[Date "[^"\n]*"\]$'

    def write(self, game: Game, header: RecordHeader, notes: RecordNotes) -> str:
        start, moves = numbered_moves(game)
        result = result_token(game, notes.outcome)
        tags = {"Event": header.event, "Site": SITE, "Date": header.date.strftime("%Y.%m.%d"), "Round": "-",
                "Black": header.first, "White": header.second, "Result": result, "GameType": "21"}
        start_text = start.to_text()
        if start_text != type(game)().to_text():
            tags.update(SetUp="1", FEN=start_text)
        tags["Termination"] = header.termination(game, notes)
        tags.update(notes.tags)  # a tag given replaces the default in its place (a loaded record's Date ...)
        lines = [tag_line(name, value) for name, value in tags.items()]
        tokens = [braced(notes.comment)] if notes.comment else []
        for index, (number, player, text) in enumerate(moves):
            if player == 0:
                tokens.append(f"{number}. {text}")
            elif index == 0 or notes.move_comment(index - 1):
                tokens.append(f"{number}... {text}")
            else:
                tokens.append(text)
            if notes.move_comment(index):
                tokens.append(braced(notes.move_comment(index)))
        tokens.append(result)
        return "\n".join(lines) + "\n\n" + wrap_tokens(tokens) + "\n"

    def read(self, text: str) -> list[LoadedGame | RecordError]:
        games: list[LoadedGame | RecordError] = []
        for index, chunk in enumerate(_pdn_chunks(text)):
            try:
                start, moves, comments = read_pdn_game(chunk)
            except RecordError as error:
                games.append(RecordError(f"game {index + 1}: {error}"))
                continue
            games.append(LoadedGame(self.game_name, start, tuple(moves), pdn_tags(chunk), comments=tuple(comments),
                                    player_tags=self.player_tags))
        return games
