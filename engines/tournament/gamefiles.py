"""Every game of a match, tournament or experiment as a game record: PGN
(chess), PDN (checkers) or the Quixo move list, one file holding them all.

Each game is written from its result (:func:`game_record` of a
:class:`~engines.tournament.result.GameResult`): from the
standard start (or the book line's position), the opening's plies first (the
last one commented ``random opening``, or ``book``), then every engine move
with its comment -- the evaluation for the first player as ``[%eval 0.35]``
(``#3`` for a mate; the tag lichess and most GUIs read), the mover's clock
after the move as ``[%clk 0:00:09.8]`` in a match on clocks, then ``depth 5,
12,345 nodes, 0.120 s``.  The tags name the engines (``White``/``Black``,
Quixo ``X``/``O``), the event (the match, the tournament or the experiment),
and the ``Round``: the game's number in its match (index + 1), with the
pairing in ``Event``; a game from a book has a ``Book`` tag (the book, the
line's number and label), a game on clocks a ``TimeControl`` tag, and a game
decided off the board (on time, by adjudication) says so in its result and
``Termination`` (``White wins (adjudication: resign)``).

:class:`GameRecordsFile` appends the games as they finish (the parent process
only), flushed and synced; when a run resumes it first adds the games of the
results file that it lacks (a run killed between the two writes), found by
their ``Event`` and ``Round``.  Nothing in it is ever rewritten.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, BinaryIO, Iterable, Sequence

from games import Outcome, Termination, game_kind, new_game
from games.clock import clk_text
from games.files import read_bytes
from games.records import RecordFormat, RecordNotes

from ..remedy import Remedy
from .config import MatchError
from .result import GameResult, LogEntry
from .results import append_synced, claim_output

__all__ = ["GameRecordsFile", "complete_length", "game_record", "move_comment", "records_path"]

#: The largest game records file read back to resume a run (a game's record is a few kB).
MAX_BYTES = 512 * 1024 * 1024


def records_path(results: str | Path, game_name: str) -> Path:
    """The records file beside a results file: ``ab.jsonl`` -> ``ab.pgn``."""
    return Path(results).with_suffix("." + game_kind(game_name).records.extension)


def move_comment(game_name: str, entry: LogEntry | Sequence[Any], first_to_move: bool,
                 clock: float | None = None) -> str:
    """``[%eval 0.35] depth 5, 12,345 nodes, 0.120 s`` for one engine move's
    log entry (a :class:`~engines.tournament.result.LogEntry`: score and mate
    for the mover, depth, nodes, seconds), with ``[%clk 0:00:09.8]`` after the
    eval when the mover's ``clock`` is known; for a move chosen without a
    search, only the clock (``""`` without one)."""
    entry = entry if isinstance(entry, LogEntry) else LogEntry(*entry)
    clk = f"[%clk {clk_text(clock)}]" if clock is not None else ""
    if not entry.searched:
        return clk  # a move chosen without a search (random)
    score, mate, depth, nodes, seconds = entry
    sign = 1 if first_to_move else -1
    if mate is not None:
        value = f"#{sign * mate}" if mate else ""
    else:
        value = game_kind(game_name).scores.in_units(sign * score)
    head = "".join(f"{tag} " for tag in (f"[%eval {value}]" if value else "", clk) if tag)
    return f"{head}depth {depth}, {nodes:,} nodes, {seconds:.3f} s"


def _event(result: GameResult, event: str) -> str:
    return f"{event}: {result.match.a} vs {result.match.b}"


def game_record(result: GameResult, event: str = "tui-games match") -> str:
    """The game record (PGN, PDN or Quixo text) of one game's result (see the module doc)."""
    name = result.match.game
    place = result.book
    game = new_game(name, place.origin if place else None)
    comments: list[str] = []
    for ply, text in enumerate(result.opening):
        game.play(game.parse_move(text))
        last = ply == len(result.opening) - 1
        comments.append(("book" if place else "random opening") if last else "")
    log = result.log
    clocks = result.clocks or ()
    for ply, text in enumerate(result.moves):
        first_to_move = game.turn == 0
        game.play(game.parse_move(text))
        clock = clocks[ply] if ply < len(clocks) else None
        comments.append(move_comment(name, log[ply], first_to_move, clock) if ply < len(log) else "")
    cls = type(game)
    by_colour = {result.colours[agent]: result.engines[agent] for agent in ("a", "b")}
    first, second = (by_colour[colour] for colour in cls.PLAYERS)
    tags = {"Round": str(result.index + 1)}
    conditions = result.match.conditions
    if place is not None and conditions.book is not None:
        label = f" ({place.label})" if place.label else ""
        tags["Book"] = f"{Path(conditions.book.name).name} line {place.line}{label}"
    controls = [result.match.clock(agent) for agent in ("a", "b")]
    if any(controls):
        texts = {colour: control.seconds_text if control else "-"
                 for colour, control in zip((result.colours.a, result.colours.b), controls)}
        shown = set(texts.values())
        tags["TimeControl"] = shown.pop() if len(shown) == 1 else ", ".join(
            f"{colour} {texts[colour]}" for colour in cls.PLAYERS)
    outcome = None
    on_board = game.outcome()
    if on_board is None or on_board.text != result.reason:  # decided off the board
        winner = None if result.winner_colour is None else cls.PLAYERS.index(result.winner_colour)
        outcome = Outcome(winner, Termination.RECORDED, result.reason)
    return game_kind(name).records.text(game, first_player=first, second_player=second,
                                        event=_event(result, event),
                                        notes=RecordNotes(outcome=outcome, comments=comments, tags=tags))


def _written(text: str, records: RecordFormat) -> set[tuple[str, str]]:
    """The (event, round) of every game in a records file's text."""
    found: set[tuple[str, str]] = set()
    event = None
    for match in re.finditer(records.tag_pattern, text, re.MULTILINE):
        name, value = match.group(1), match.group(2).replace('\\"', '"').replace("\\\\", "\\").strip()
        if name == "Event":
            event = value
        elif name == "Round" and event is not None:
            found.add((event, value))
    return found


def _of_run(data: bytes, event: str, records: RecordFormat) -> bool:
    """Whether every game in a records file's ``data`` is one a run of ``event`` wrote (its
    ``Event`` tag ``EVENT: A vs B``), and there is one.  The last game may have been cut before
    its ``Event`` (a run stopped by a full disk or a kill while writing it: ``--resume`` cuts it)."""
    text = data.decode("utf-8", "replace")
    starts = [match.start() for match in re.finditer(records.game_start, text, re.MULTILINE)]
    for number, start in enumerate(starts):
        end = starts[number + 1] if number + 1 < len(starts) else len(text)
        events = [match.group(2).strip() for match in re.finditer(records.tag_pattern, text[start:end], re.MULTILINE)
                  if match.group(1) == "Event"]
        if not events:
            if number == len(starts) - 1:
                continue
            return False
        if not events[0].replace('\\"', '"').replace("\\\\", "\\").startswith(f"{event}: "):
            return False
    return bool(starts)


def complete_length(data: bytes, results: Iterable[GameResult], event: str, records: RecordFormat) -> int:
    """How many bytes of a records file's ``data`` hold complete games: all of
    it, unless its last game is one of ``results`` written only in part (a
    run stopped by a full disk or a kill while writing it), which is then cut
    off with the blank line before it.  A game is complete when it reads as
    :func:`game_record` writes it (its date aside)."""
    starts = [match.start() for match in re.finditer(records.game_start.encode(), data, re.MULTILINE)]
    if not starts:
        return len(data)
    last = starts[-1]
    tail = data[last:].decode("utf-8", "replace")
    by_key = {(_event(result, event), str(result.index + 1)): result for result in results}
    keys = _written(tail, records)
    if len(keys) == 1 and next(iter(keys)) in by_key:
        expected = game_record(by_key[next(iter(keys))], event)
        def undated(text: str) -> str:
            return re.sub(records.date_line, "", text, flags=re.MULTILINE).strip()

        if undated(tail) == undated(expected):
            return len(data)
    elif keys or tail.endswith("\n"):
        return len(data)  # a whole game of another run, or not one of ours: not ours to cut
    return last - 1 if last > 0 and data[last - 1:last] == b"\n" else last


class GameRecordsFile:
    """The records file of a run: appended game by game, never rewritten
    (except that a resumed run cuts off a game written only in part)."""

    def __init__(self, path: Path, event: str, lock: BinaryIO | None = None) -> None:
        self.path = path
        self.event = event
        #: The open handle holding the file's lock (see :func:`claim_output`), while the run lasts.
        self.lock = lock

    @classmethod
    def open(cls, path: str | Path, event: str, *, game: str, resume: bool,
             results: Iterable[GameResult] = ()) -> GameRecordsFile:
        """The file of ``game``'s records at ``path``; without ``resume`` it must
        not hold anything yet.  With it, the games of ``results`` it lacks are
        added first."""
        path = Path(path)
        records = game_kind(game).records
        results = list(results)
        def ours(path: Path) -> bool:
            return _of_run(read_bytes(path, "a game records file", MAX_BYTES, MatchError), event, records)

        exists, lock = claim_output(path, resume=resume, what="a game records file", holds="games", ours=ours)
        try:
            data = read_bytes(path, "a game records file", MAX_BYTES, MatchError) if exists else b""
            if exists and not _of_run(data, event, records):  # somebody's own records: never appended to
                raise MatchError(f"{path}: holds games that are not of this run ({event!r}); it is never "
                                 f"written to", remedy=Remedy.OTHER_OUTPUT)
            keep = complete_length(data, results, event, records)
            if keep < len(data):
                with open(path, "r+b") as handle:
                    handle.truncate(keep)
                data = data[:keep]
        except MatchError:
            lock.close()
            raise
        except OSError as error:
            lock.close()
            raise MatchError(f"{path}: cannot read it ({error.strerror or error})") from None
        file = cls(path, event, lock)
        written = _written(data.decode("utf-8", "replace"), records)
        for result in sorted(results, key=lambda r: (r.match.a, r.match.b, r.index)):
            if (_event(result, event), str(result.index + 1)) not in written:
                file.append(result)
        return file

    def close(self) -> None:
        """Release the file's lock: the run writes no more."""
        if self.lock is not None:
            self.lock.close()
            self.lock = None

    def append(self, result: GameResult) -> None:
        """Write one game's record, flushed and synced; a blank line separates games."""
        append_synced(self.path, game_record(result, self.event), separated=True)
