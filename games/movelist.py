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
braces follows its move.  A file of a match holds many games, each from its
``# tui-games NAME`` line.  A game's package subclasses :class:`MoveList`
with its title and the pattern of one move.
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
    braced,
    describe_outcome,
    numbered_moves,
    result_token,
)

__all__ = ["MoveList"]

_MOVE_NUMBER_RE = re.compile(r"^\s*[0-9]+\.(?:\.\.)?\s*")
_COMMENT_RE = re.compile(r"\{[^}]*\}")


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
        start, moves = numbered_moves(game)
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
        if notes.comment:
            lines.append(f"# Note: {notes.comment}")
        pairs: dict[int, list[str]] = {}
        for ply, (number, player, text) in enumerate(moves):
            pair = pairs.setdefault(number, [])
            if player == 1 and not pair:
                pair.append("...")
            comment = notes.move_comment(ply)
            pair.append(f"{text} {braced(comment)}" if comment else text)
        lines += [f"{number}. " + "  ".join(pair) for number, pair in pairs.items()]
        return "\n".join(lines) + "\n"

    def moves_of(self, text: str) -> tuple[str | None, list[str]]:
        """The start position text (``None`` for the standard start) and the move
        texts of one record.

        Raises :class:`~games.records.RecordError` for a line that is neither a
        comment nor a numbered line of moves.
        """
        move_re = re.compile(self.move_pattern)
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
                raise RecordError(f"line {number}: expected a numbered move line like '1. {self.example}', "
                                  f"got {stripped!r}")
            rest = _COMMENT_RE.sub(" ", stripped[match.end():])
            found = move_re.findall(rest)
            leftover = move_re.sub("", rest).replace("...", "").strip()
            if leftover or not found:
                raise RecordError(f"line {number}: expected moves like '{self.example.split('  ')[0]}', "
                                  f"got {rest!r}")
            moves.extend(" ".join(parts) if isinstance(parts, tuple) else parts for parts in found)
        return start, moves

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
        start, moves = self.moves_of(text)
        tags = {}
        for line in text.splitlines():
            key, colon, value = line.strip().lstrip("#").partition(":")
            if line.strip().startswith("#") and colon and key.strip() and " " not in key.strip():
                tags[key.strip()] = value.strip()
        if "Result" in tags:
            token, _, described = tags["Result"].partition(" ")
            tags["Result"] = token
            tags["Termination"] = described.strip()
        return LoadedGame(self.game_name, start, tuple(moves), tags, player_tags=self.player_tags)
