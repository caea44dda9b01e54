"""Move-list records: a plain text list of moves, for games no other program writes.

A record is ``#`` comment lines, then one numbered line per move pair::

    # tui-games Quixo
    # Event: tui-games
    # Date: 2026-11-22
    # X: human
    # O: pvs:time=1
    # Result: 1-0 X wins (five in a row)
    1. 2 0 bottom  4 4 left
    2. 0 0 right {a comment}  1 4 r

``# Event:``, ``# Date:``, the two players under their names, ``# Result:``
(the token, then how the game ended: ``1/2-1/2 draw (move cap)``, ``*
unfinished``) and ``# Start:`` with the position text when the game did not
start from the standard position.  Two spaces part the moves of a line
(``1. ...  4 4 left`` when the second player moved first), a comment in
braces follows its move.  In a game where a side may move again (its ``turn``
says so) each of that side's moves in a row starts a line of its own, with the
row's number (``1. c``, ``1. f  a``, ``1. ...  b``): the columns stay the
sides'.  A file of a match holds many games, each from its
``# tui-games NAME`` line.  A game's package subclasses :class:`MoveList`
with its title and the pattern of one move.

Variations, move marks and NAGs follow the move they concern on its line,
as in PGN (:mod:`games.variations`)::

    1. 2 0 bottom!? {sharp} (1. 0 0 right 4 4 left)  4 4 left $14
    2. 0 0 right (2. 1 0 bottom {or} 2... 0 4 top)  1 4 r

A move's first mark (``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!``) is written
after it, other NAGs as ``$n``; a variation, in parentheses (nested ones
inside), follows the move it replaces; its moves are numbered ``1.``,
``1...``.  Files written before variations existed read as before.
"""

from __future__ import annotations

import re
from typing import ClassVar

from .base import Game
from .records import (
    LoadedGame,
    RecordError,
    RecordFormat,
    RecordHeader,
    RecordNotes,
    describe_outcome,
    notes_tree,
    result_token,
    start_position,
)
from .variations import GLYPH_NAGS, MoveTree, Token, TreeError, annotated, read_movetext, variation_tokens

__all__ = ["MoveList"]

_MOVE_NUMBER_RE = re.compile(r"^\s*[0-9]+\.(?:\.\.)?\s*")
#: The tokens of a line besides moves: (kind, pattern), tried in order.
_TOKENS = (("space", re.compile(r"\s+")), ("comment", re.compile(r"\{[^}]*\}")), ("open", re.compile(r"\(")),
           ("close", re.compile(r"\)")), ("nag", re.compile(r"\$([0-9]+)")),
           ("number", re.compile(r"[0-9]+\.(?:\.\.)?(?![0-9])")), ("dots", re.compile(r"\.\.\.")))
_MARK_RE = re.compile(r"!!|\?\?|!\?|\?!|!|\?")


class MoveList(RecordFormat):
    """A move list headed ``# tui-games TITLE``; subclasses set the class attributes."""

    extension: ClassVar[str] = "txt"
    #: The game's name in the header line (``Quixo``).
    title: ClassVar[str]
    #: A regular expression matching one move; its groups, joined by spaces, are the move text.
    move_pattern: ClassVar[str]
    #: Two moves as a line shows them, for error messages.
    example: ClassVar[str]

    #: The first line of each record: ``# tui-games TITLE``.
    header: ClassVar[str]
    date_line: ClassVar[str] = r"^# Date: .*$"
    tag_pattern: ClassVar[str] = r"^# (\w+): (.*)$"

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "title" in cls.__dict__:
            cls.header = f"# tui-games {cls.title}"
            cls.game_start = "^" + re.escape(cls.header)

    def write(self, game: Game, header: RecordHeader, notes: RecordNotes) -> str:
        start = start_position(game)
        result = result_token(game, notes.outcome)
        described = header.reason or describe_outcome(game, notes.outcome) or "unfinished"
        first, second = self.player_tags
        tags = {"Event": header.event, "Date": header.date.isoformat(), first: header.first, second: header.second,
                "Result": f"{result} {described}"}
        start_text = start.to_text()
        if start_text != type(game)().to_text():
            tags["Start"] = start_text
        tags.update(notes.tags)  # a tag given replaces the default in its place
        lines = [self.header] + [f"# {name}: {value}" for name, value in tags.items()]
        tree = notes_tree(game, notes)
        if tree.comment:
            lines.append(f"# Note: {tree.comment}")
        rows: list[tuple[int, list[str]]] = []
        open_row = False  # the last row has the first player's move and room for the second's
        for node in tree.mainline():
            mover = tree.mover(node)
            if mover == 0 or not open_row:  # a side moving again starts a row of its own
                rows.append((tree.number(node), ["..."] if mover == 1 else []))
            assert node.parent is not None
            tokens = annotated(node)
            for alternative in node.parent.variations[1:]:
                tokens += variation_tokens(tree, alternative)
            rows[-1][1].append(" ".join(tokens))
            open_row = mover == 0
        lines += [f"{number}. " + "  ".join(pair) for number, pair in rows]
        return "\n".join(lines) + "\n"

    def line_tokens(self, line: str, number: int) -> list[Token]:
        """The tokens of one numbered line: moves (with their marks), comments,
        NAGs, parentheses; a RecordError names the line for anything else."""
        move_re = re.compile(self.move_pattern)
        tokens: list[Token] = []
        position = 0
        while position < len(line):
            for kind, pattern in _TOKENS:
                match = pattern.match(line, position)
                if match:
                    if kind == "comment":
                        tokens.append((kind, match.group()[1:-1].strip()))
                    elif kind in ("open", "close"):
                        tokens.append((kind, match.group()))
                    elif kind == "nag":
                        tokens.append((kind, match.group(1)))
                    break
            else:
                match = move_re.match(line, position)
                if match is None or match.end() == position:
                    rest = line[position:]
                    raise RecordError(f"line {number}: expected moves like '{self.example.split('  ')[0]}', "
                                      f"got {rest!r}")
                groups = [group for group in match.groups() if group is not None] or [match.group()]
                tokens.append(("move", " ".join(groups)))
                mark = _MARK_RE.match(line, match.end())
                if mark:
                    tokens.append(("nag", str(GLYPH_NAGS[mark.group()])))
                    match = mark
            position = match.end()
        return tokens

    def tree_of(self, text: str) -> MoveTree:
        """Every move of one record, variations, comments and NAGs with them (not
        yet checked: see :mod:`games.reading`); its start is the ``# Start:`` text.

        Raises :class:`~games.records.RecordError` for a line that is neither a
        comment nor a numbered line of moves, or parentheses that do not pair up.
        """
        start: str | None = None
        tokens: list[Token] = []
        places: list[int] = []
        for number, line in enumerate(text.splitlines(), 1):
            stripped = line.strip()
            if not stripped:
                continue
            if stripped.startswith("#"):
                key, _, value = stripped[1:].partition(":")
                if key.strip().lower() == "start" and value.strip():
                    start = value.strip()
                continue
            if _MOVE_NUMBER_RE.match(stripped) is None:
                raise RecordError(f"line {number}: expected a numbered move line like '1. {self.example}', "
                                  f"got {stripped!r}")
            found = self.line_tokens(stripped, number)
            if not any(kind == "move" for kind, _ in found):
                raise RecordError(f"line {number}: expected moves like '{self.example.split('  ')[0]}', "
                                  f"got {stripped!r}")
            tokens += found
            places += [number] * len(found)
        try:
            return read_movetext(tokens, MoveTree(start), lambda index: f"line {places[index]}")
        except TreeError as error:
            raise RecordError(str(error)) from None

    def moves_of(self, text: str) -> tuple[str | None, list[str]]:
        """The start position text (``None`` for the standard start) and the main
        line's move texts of one record (see :meth:`tree_of`)."""
        tree = self.tree_of(text)
        return tree.start, [node.move or "" for node in tree.mainline()]

    def read(self, text: str) -> list[LoadedGame | RecordError]:
        """One game per header line; a text without one is a single game."""
        header_re = re.compile(r"^#\s*tui-games " + re.escape(self.title) + r"\s*$", re.MULTILINE)
        starts = [match.start() for match in header_re.finditer(text)]
        chunks = [text] if len(starts) <= 1 else [text[a:b] for a, b in zip(starts, starts[1:] + [len(text)])]
        games: list[LoadedGame | RecordError] = []
        for index, chunk in enumerate(chunks):
            try:
                game = self._game(chunk)
            except RecordError as error:
                games.append(RecordError(f"game {index + 1}: {error}"))
                continue
            if game.moves or game.tags or game.start is not None:
                games.append(game)  # a chunk of blank lines or a bare header is no game
        return games

    def _game(self, text: str) -> LoadedGame:
        tree = self.tree_of(text)
        main = tree.mainline()
        tags = {}
        for line in text.splitlines():
            key, colon, value = line.strip().lstrip("#").partition(":")
            if line.strip().startswith("#") and colon and key.strip() and " " not in key.strip():
                tags[key.strip()] = value.strip()
        if "Result" in tags:
            token, _, described = tags["Result"].partition(" ")
            tags["Result"] = token
            tags["Termination"] = described.strip()
        return LoadedGame(self.game_name, tree.start, tuple(node.move or "" for node in main), tags,
                          comments=tuple(node.comment for node in main), player_tags=self.player_tags, tree=tree)
