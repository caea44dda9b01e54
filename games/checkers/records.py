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

Variations, comments and NAGs are written and read as in PGN: ``5. 9-14
(5. 1-6 {quieter} 24-20) 22-17 {a trade} 14x21!?`` -- a move's first mark
(``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!``) after it, other NAGs as
``$n``, variations in parentheses (nested too) after the move they replace.

Read: PDN as programs write it -- move numbers (``1.``, ``1...``) and the
result token are read past, move marks and NAGs (``$1``) are the move's,
variations in parentheses (nested too) and comments in braces are kept (see
:mod:`games.variations`); a file holds one game per ``[Event`` tag.
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
    notes_tree,
    result_token,
    start_position,
    tag_line,
    wrap_tokens,
)
from ..variations import MoveTree, TreeError, movetext_tokens, pgn_style_tokens, read_movetext

__all__ = ["PDN", "pdn_tags", "pdn_tree", "read_checkers_record", "read_pdn_game"]

_TAG_RE = re.compile(r'^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_PDN_GAME_START = re.compile(r"^\s*\[Event\s", re.MULTILINE)


def pdn_tags(text: str) -> dict[str, str]:
    """The tag pairs (``[Name "value"]`` lines) of a PDN game, values unescaped."""
    tags = {}
    for line in text.splitlines():
        match = _TAG_RE.match(line)
        if match:
            tags[match.group(1)] = match.group(2).replace('\\"', '"').replace("\\\\", "\\")
    return tags


def pdn_tree(text: str) -> MoveTree:
    """Every move of one PDN game, variations, comments and NAGs with them (not yet
    checked: see :mod:`games.reading`); the ``FEN`` tag is its start.  Raises
    :class:`~games.records.RecordError` for parentheses that do not pair up."""
    body = "\n".join(line for line in text.splitlines() if not _TAG_RE.match(line))
    try:
        return read_movetext(pgn_style_tokens(body), MoveTree(pdn_tags(text).get("FEN")))
    except TreeError as error:
        raise RecordError(str(error)) from None


def read_pdn_game(text: str) -> tuple[str | None, list[str], list[str]]:
    """The ``FEN`` tag (``None`` if absent), the main line's move texts and the
    comment after each of them (``""`` for none) of one PDN game."""
    tree = pdn_tree(text)
    main = tree.mainline()
    return tree.start, [node.move or "" for node in main], [node.comment for node in main]


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
        start = start_position(game)
        result = result_token(game, notes.outcome)
        tags = {"Event": header.event, "Site": SITE, "Date": header.date.strftime("%Y.%m.%d"), "Round": "-",
                "Black": header.first, "White": header.second, "Result": result, "GameType": "21"}
        start_text = start.to_text()
        if start_text != type(game)().to_text():
            tags.update(SetUp="1", FEN=start_text)
        tags["Termination"] = header.termination(game, notes)
        tags.update(notes.tags)  # a tag given replaces the default in its place (a loaded record's Date ...)
        lines = [tag_line(name, value) for name, value in tags.items()]
        tokens = movetext_tokens(notes_tree(game, notes)) + [result]
        return "\n".join(lines) + "\n\n" + wrap_tokens(tokens) + "\n"

    def read(self, text: str) -> list[LoadedGame | RecordError]:
        games: list[LoadedGame | RecordError] = []
        for index, chunk in enumerate(_pdn_chunks(text)):
            try:
                tree = pdn_tree(chunk)
            except RecordError as error:
                games.append(RecordError(f"game {index + 1}: {error}"))
                continue
            main = tree.mainline()
            games.append(LoadedGame(self.game_name, tree.start, tuple(node.move or "" for node in main),
                                    pdn_tags(chunk), comments=tuple(node.comment for node in main),
                                    player_tags=self.player_tags, tree=tree))
        return games
