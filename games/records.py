"""Game records: a game written as text, and read back -- the model every format shares.

Each game has one record format, a :class:`RecordFormat` its package defines
(chess PGN, checkers PDN, Quixo and Othello move lists): it writes a game
with its header and notes (:meth:`RecordFormat.text`) and reads a file's text
into the games it holds (:class:`LoadedGame`: the start position, the moves
as the game writes them, the tags, what the record says beyond the moves).
:mod:`games.reading` replays what a format read and checks it; this module
knows no game in particular.

Shared by every format: the result token (``1-0`` the first player won,
``0-1`` the second, ``1/2-1/2``, ``*`` unfinished: :func:`result_token`),
how an ending reads (``"White wins (checkmate)"``: :func:`describe_outcome`)
and back (:func:`outcome_from_record`), the notes a game adds to its record
(:class:`RecordNotes`), tag lines and wrapping, and :func:`save_record`,
which never overwrites a file.  The start position of a game is found by
undoing every move of a copy (:func:`start_position`).
"""

from __future__ import annotations

import datetime
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, ClassVar, Iterator, Mapping, Sequence

from .base import Game, Outcome, Termination
from .variations import MAX_NODES, MoveTree, start_move_number

__all__ = [
    "MAX_GAMES",
    "MAX_NODES",
    "LoadedGame",
    "RecordError",
    "RecordFormat",
    "RecordHeader",
    "RecordNotes",
    "RecordSummary",
    "SITE",
    "WRAP",
    "braced",
    "describe_outcome",
    "games_over_cap",
    "numbered_moves",
    "notes_tree",
    "outcome_from_record",
    "read_text_file",
    "result_token",
    "save_record",
    "start_position",
    "tag_line",
    "wrap_tokens",
]

#: Site tag of every record.
SITE = "tui-games"

#: Records are wrapped at this many columns.
WRAP = 79

#: The most games read from one record file or book: a larger one is refused in one line
#: (a database of real games the size a record file may be holds fewer; a book such as
#: 8moves_v3.pgn holds 34,000).
MAX_GAMES = 50_000


class RecordError(ValueError):
    """A record text could not be read; the message says where and why."""


def games_over_cap() -> RecordError:
    """The refusal of a text of more than :data:`MAX_GAMES` games."""
    return RecordError(f"more than {MAX_GAMES:,} games; a record file or book of more is refused")


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
        return f"draw ({outcome.text})"
    return f"{game.PLAYERS[outcome.winner]} wins ({outcome.text})"


_DESCRIBED_RE = re.compile(r"\(([^()]*)\)\s*$")


def outcome_from_record(token: str, described: str) -> Outcome | None:
    """The outcome a record states: its result token (``1-0`` ...) and the reason in
    its termination text (``"White wins (resignation)"``); ``None`` for ``*``."""
    winner = {"1-0": 0, "0-1": 1, "1/2-1/2": None}.get(token.strip(), -1)
    if winner == -1:
        return None
    match = _DESCRIBED_RE.search(described or "")
    words = match.group(1).strip() if match else None  # none given: not ours to invent
    if words in _SHARED:
        return Outcome(winner, _SHARED[words])
    return Outcome(winner, Termination.RECORDED, words)


#: The shared reasons by their words: a record's ``(resignation)`` is :attr:`Termination.RESIGNATION`.
_SHARED = {reason.value: reason for reason in Termination}


@dataclass(frozen=True)
class RecordNotes:
    """What a record holds beyond the moves.

    ``outcome`` decides the result when the game ended off the board
    (resignation, agreed draw, time); ``comments`` has one text per move
    (``""`` for none): evals (``[%eval 0.35]``), clocks (``[%clk 0:04:58]``),
    the report's verdicts; ``tags`` are added to the header (``TimeControl``);
    ``comment`` is a note on the whole game (hints used).  A ``Round`` tag
    replaces the round (``-``) of PGN and PDN.  ``tree`` is the game with its
    variations, comments and NAGs (:mod:`games.variations`): when given, the
    record writes it (``comments`` are then not used: they are the tree's), and
    the game written is its main line's end.
    """

    outcome: Outcome | None = None
    comments: Sequence[str] = ()
    tags: Mapping[str, str] = field(default_factory=dict)
    comment: str = ""
    tree: MoveTree | None = field(default=None, compare=False)

    def move_comment(self, ply: int) -> str:
        return self.comments[ply] if ply < len(self.comments) else ""


@dataclass(frozen=True)
class RecordHeader:
    """Who played, where and when: ``first`` is the side that moved first from
    the standard start (chess White, checkers Black, Quixo X); ``reason``
    replaces the outcome's description as the termination text (a game stopped
    before its end)."""

    first: str
    second: str
    event: str = "tui-games"
    date: datetime.date = field(default_factory=datetime.date.today)
    reason: str | None = None

    def termination(self, game: Game, notes: RecordNotes) -> str:
        """The Termination tag: the reason given, else the outcome, else ``unterminated``."""
        if self.reason:
            return self.reason
        return describe_outcome(game, notes.outcome) or "unterminated"


def braced(comment: str) -> str:
    """A comment as a ``{...}`` token (braces inside are dropped: they would end it)."""
    return "{" + comment.replace("{", "(").replace("}", ")") + "}"


def tag_line(name: str, value: str) -> str:
    """A PGN/PDN tag pair line, the value escaped."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def wrap_tokens(tokens: list[str], width: int = WRAP) -> str:
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


def numbered_moves(game: Game) -> tuple[Game, list[tuple[int, int, str]]]:
    """The start position and ``(number, player, text)`` for every move played: ``player`` the side
    to move before it (``turn``), the number one more each time the first player moves after the second."""
    moves = list(game.move_stack)
    start = start_position(game)
    position = start.copy()
    numbered = []
    number, last = 1, None
    for move in moves:
        player = position.turn  # the game's word on who moves: a side may move again
        number += player == 0 and last == 1
        numbered.append((number, player, position.format_move(move)))
        position.play(move)
        last = player
    return start, numbered


def notes_tree(game: Game, notes: RecordNotes) -> MoveTree:
    """The tree a record writes: ``notes.tree``, else the game's moves with the
    notes' comments; the notes' comment on the whole game joins the tree's."""
    if notes.tree is not None:
        tree = notes.tree.copy()
    else:
        start, numbered = numbered_moves(game)
        text = start.to_text()
        tree = MoveTree.of_moves([text for _, _, text in numbered], None if text == type(game)().to_text() else text,
                                 start.turn, start_move_number(start), [player for _, player, _ in numbered])
        for ply, node in enumerate(tree.mainline()):
            node.comment = notes.move_comment(ply)
    if notes.comment and notes.comment not in tree.comment:
        tree.comment = " ".join(part for part in (tree.comment, notes.comment) if part)
    return tree


# ---------------------------------------------------------------------------
# What a format reads
# ---------------------------------------------------------------------------


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
    #: The comment after each move of the main line (``""`` for none), where
    #: the format keeps them apart from its model.
    comments: tuple[str, ...] = ()
    #: The format's own model of the whole game where it has one (chess: the
    #: game as python-chess read it, with its headers, comments, NAGs,
    #: variations, ``%clk``/``%eval``), which a re-save writes back.
    model: Any = field(default=None, compare=False, repr=False)
    #: The tags naming the first and the second player.
    player_tags: tuple[str, str] = field(default=("", ""), compare=False, repr=False)
    #: Every move the record holds, variations, comments and NAGs with them (see
    #: :mod:`games.variations`); its main line is ``moves``.  Checked and
    #: numbered when the game is replayed (:mod:`games.reading`).
    tree: MoveTree | None = field(default=None, compare=False, repr=False)

    @property
    def player_names(self) -> tuple[str, str]:
        """The players the record names, first mover first (``""`` where it
        names none: PGN's ``?``)."""
        names = [self.tags.get(key, "").strip() if key else "" for key in self.player_tags]
        return (names[0] if names[0] != "?" else "", names[1] if names[1] != "?" else "")


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


#: Called now and then while a long text is read: ``progress(done, total)`` in characters.
Progress = Callable[[int, int], None]


class RecordFormat(ABC):
    """How one game's records are written and read.

    Subclasses name the format and implement :meth:`write` and :meth:`read`;
    a format that can do better than reading every game (chess streams its
    files) overrides :meth:`game_at` and :meth:`summaries`, and one that keeps
    a model of what it read overrides :meth:`resave`.
    """

    #: The registry name of the game whose records these are.
    game_name: ClassVar[str]
    #: What the format is called: ``PGN``, ``PDN``, ``a Quixo move list``.
    name: ClassVar[str]
    #: The file extension of its records, without the dot.
    extension: ClassVar[str]
    #: The tags that name the first and the second player.
    player_tags: ClassVar[tuple[str, str]]
    #: A regular expression matching the first line of each game in a file of several.
    game_start: ClassVar[str]
    #: A regular expression matching the line that gives a record's date.
    date_line: ClassVar[str]
    #: A regular expression matching a tag's line, its groups the tag's name and its value.
    tag_pattern: ClassVar[str] = r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]\s*$'

    # -- writing ---------------------------------------------------------------
    @abstractmethod
    def write(self, game: Game, header: RecordHeader, notes: RecordNotes) -> str:
        """The record of ``game`` (ending with a newline)."""

    def text(
        self,
        game: Game,
        *,
        first_player: str,
        second_player: str,
        event: str = "tui-games",
        date: datetime.date | None = None,
        result_reason: str | None = None,
        notes: RecordNotes | None = None,
    ) -> str:
        """The record of ``game``: ``first_player`` moved first from the standard
        start, ``date`` defaults to today, ``result_reason`` replaces the
        outcome's description as the termination text (a game stopped before
        its end), ``notes`` adds a result decided off the board, comments and
        tags (:class:`RecordNotes`)."""
        if game.NAME != self.game_name:
            raise ValueError(f"cannot write a {game.NAME} game as a {self.game_name} record")
        header = RecordHeader(first_player, second_player, event,
                              datetime.date.today() if date is None else date, result_reason)
        return self.write(game, header, notes or RecordNotes())

    def recognises(self, text: str) -> bool:
        """Whether ``text`` (the start of a file) looks like this format's records:
        a game starts in it as :attr:`game_start` says."""
        return re.search(self.game_start, text, re.MULTILINE) is not None

    def check_count(self, text: str) -> None:
        """A :class:`RecordError` for a text where more than :data:`MAX_GAMES` games start (as
        :attr:`game_start` says), counted in one pass before any is read."""
        for count, _match in enumerate(re.finditer(self.game_start, text, re.MULTILINE), 1):
            if count > MAX_GAMES:
                raise games_over_cap()

    def filename(self, when: datetime.datetime) -> str:
        """``chess-20261122-153012.pgn``: a new record's default file name."""
        return f"{self.game_name}-{when:%Y%m%d-%H%M%S}.{self.extension}"

    # -- reading ---------------------------------------------------------------
    @abstractmethod
    def read(self, text: str) -> list[LoadedGame | RecordError]:
        """Every game of a file's text, in order, as written (not yet replayed):
        a game that cannot be read is its :class:`RecordError` (naming it by
        number) in its place."""

    def each(self, text: str) -> Iterator[LoadedGame | RecordError]:
        """The games of :meth:`read` one at a time (a format that can streams them: a
        reader that keeps little of each holds little)."""
        return iter(self.read(text))

    def game_at(self, text: str, number: int) -> tuple[LoadedGame | RecordError | None, int]:
        """Game ``number`` (1-based) of ``text`` (``None`` if there is none) and how
        many games the text holds."""
        games = self.read(text)
        return (games[number - 1] if 1 <= number <= len(games) else None), len(games)

    def summaries(self, text: str, progress: Progress | None = None) -> list[RecordSummary]:
        """A summary of every game of ``text`` from its tags (a bad game is listed
        with what little is known of it: it shows up when it is opened)."""
        summaries: list[RecordSummary] = []
        for item in self.read(text):
            if isinstance(item, LoadedGame):
                summaries.append(self.summary(len(summaries) + 1, item.tags, (len(item.moves) + 1) // 2))
            else:
                summaries.append(self.summary(len(summaries) + 1, {}, None))
        if progress is not None:
            progress(len(text), len(text))
        return summaries

    def summary(self, number: int, tags: Mapping[str, str], moves: int | None) -> RecordSummary:
        """Game ``number`` as a list shows it, from its ``tags``."""
        names = tuple("" if tags.get(key, "?") == "?" else tags.get(key, "") for key in self.player_tags)
        return RecordSummary(number, names, tags.get("Result", "*").split(" ")[0],  # type: ignore[arg-type]
                             tags.get("Date", ""), tags.get("Event", ""), moves)

    def resave(self, loaded: LoadedGame, game: Game, notes: RecordNotes) -> str | None:
        """The record of ``game`` that started as ``loaded``, written from the
        format's own model of it; ``None`` when the format keeps none (the
        tags and comments read are then written back around the moves)."""
        return None


# ---------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------


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
        if path.parent.is_dir():  # /proc, /sys: a directory where no file may be made
            raise FileNotFoundError(f"cannot save {path}: no file can be created in {path.parent}") from None
        raise FileNotFoundError(f"cannot save {path}: the directory {path.parent} does not exist") from None
    return path


def read_text_file(path: str | Path, what: str, limit: int, error: type[ValueError] = RecordError) -> str:
    """The text of a file from elsewhere (``what`` it should be: ``a record file``,
    ``an opening book``), checked by :func:`games.files.read_text`: a regular file of at
    most ``limit`` bytes, UTF-8 text and not binary.  Every problem is one line, an ``error``."""
    from .files import read_text

    return read_text(path, what, limit, error)
