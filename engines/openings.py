"""Making opening books: random short lines, kept when a deep search finds them balanced.

:func:`make_book` draws lines of ``plies`` uniformly random legal moves from
the start (attempt ``i`` from its own seeded generator, so the book is the
same on any number of processes), drops those that end the game or reach a
position an earlier line reached, searches the last position of each with
the plan's engine (Stockfish at a fixed depth for chess, where it is
installed; else ours), and keeps the line when the score, for the first
player, is within the band -- a balanced opening, where neither side is
known to be better -- until it has the lines asked for.

A :class:`BookFile` saves the book as it is made: its head (how the book is
made, the plan as JSON) first, then each kept line as it is found, in
attempt order (the same on any number of processes), in one write flushed
and synced; a write the disk refuses is cut back to the last whole line.
The last line, a comment with the counts, says the book is done.  A stopped
book is resumed from the file: its lines, and the random lines before the
last of them (drawn again, not searched), give back everything the run knew,
so the resumed book is the uninterrupted one.  :func:`lasting` draws a few of
the plan's random lines first: a plan none of whose lines lasts its plies is
refused before the run.
"""

from __future__ import annotations

import datetime
import errno
import fcntl
import json
import os
import random
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from games import Game, game_kind, new_game
from games.books import MADE_BOOK_MARK, MAX_BOOK_BYTES
from games.files import read_bytes
from games.lines import MAX_LINE

from .registry import create_engine
from .remedy import Remedy, RunError, write_failure
from .tournament.match import derived_seed, parallel_games

__all__ = ["BookFile", "BookPlan", "Candidate", "MadeBook", "book_head", "book_row", "engine_name", "lasting",
           "make_book", "random_line", "try_line", "unfinished"]

#: The comment that ends a finished book (the counts follow it).
DONE_MARK = "# done: "
_PLAN_MARK = "# plan: "
#: A kept line: its moves, then its score and its attempt's number.
_NEWLINE = b"\n"
_ROW = re.compile(r"^(?P<moves>[^#]*?)\s*#\s*(?P<score>[+-]?[0-9.]+(?:e[+-]?[0-9]+)?), try (?P<attempt>[0-9]+)\s*$")


@dataclass(frozen=True)
class BookPlan:
    """What to make: ``lines`` openings of ``plies`` random plies of ``game``, scored by
    ``engine`` (a spec) and kept when within ``band`` of zero (raw score units; ``None``:
    every line is kept, scored), from ``seed``, in at most ``tries`` random lines."""

    game: str
    lines: int
    plies: int
    engine: str
    band: float | None
    seed: int = 0
    tries: int = 100_000

    def difference(self, other: BookPlan) -> str:
        """How ``other`` differs from this plan, in words (``""``: it does not)."""
        return ", ".join(f"its {name} {value!r}, asked {getattr(other, name)!r}" for name, value in asdict(self).items()
                         if getattr(other, name) != value)


@dataclass(frozen=True)
class Candidate:
    """Random line number ``attempt``: its moves, the position it reaches (``None``: the
    game ended in it), and the search's score for the first player there (``mate``:
    moves to a mate found, for the side to move)."""

    attempt: int
    moves: tuple[str, ...]
    position: str | None
    score: int | float = 0
    mate: int | None = None


@dataclass
class MadeBook:
    """The lines kept, and what became of the others (``seen``: the positions reached)."""

    kept: list[Candidate]
    tried: int = 0
    ended: int = 0
    repeated: int = 0
    outside: int = 0
    seen: set[str] = field(default_factory=set, repr=False)

    def counts(self, seed: int) -> str:
        """``tried 1,081 random lines (seed 0): ...``: what became of the lines tried."""
        return (f"tried {self.tried:,} random lines (seed {seed}): {self.ended:,} ended the game, "
                f"{self.repeated:,} reached a position an earlier line had, {self.outside:,} were outside "
                f"the band, {len(self.kept):,} kept")

    def sort(self, candidate: Candidate, plan: BookPlan) -> bool:
        """Count ``candidate`` (the next line tried); whether it is kept (the caller keeps it)."""
        self.tried += 1
        if candidate.position is None:
            self.ended += 1
            return False
        if candidate.position in self.seen:
            self.repeated += 1
            return False
        self.seen.add(candidate.position)
        if candidate.mate is None and (plan.band is None or abs(candidate.score) <= plan.band):
            return True
        self.outside += 1
        return False


def random_line(plan: BookPlan, attempt: int) -> tuple[tuple[str, ...], Game | None]:
    """Random line ``attempt`` of ``plan`` (not searched): its moves, and the game at
    its end (``None``: the game ended in it)."""
    rng = random.Random(derived_seed("book line", plan.seed, attempt))
    game: Game = new_game(plan.game)
    texts = []
    for _ in range(plan.plies):
        move = rng.choice(game.legal_moves())
        texts.append(game.format_move(move))
        game.play(move)
        if game.outcome() is not None:
            return tuple(texts), None
    return tuple(texts), game


def try_line(plan: BookPlan, attempt: int) -> Candidate:
    """Random line ``attempt`` of ``plan``, searched (a game ended in it is not)."""
    texts, game = random_line(plan, attempt)
    if game is None:
        return Candidate(attempt, texts, None)
    with create_engine(plan.engine, type(game)) as engine:  # a fresh one: the score owes nothing to other lines
        found = engine.search(game)
    sign = 1 if game.turn == 0 else -1
    return Candidate(attempt, texts, game.to_text(), sign * found.score, found.stats.mate)


def lasting(plan: BookPlan, count: int) -> tuple[int, int]:
    """Of the plan's first ``count`` random lines (drawn, not searched): how many leave
    the game going after its plies, and the most plies any of them lasted."""
    going = longest = 0
    for attempt in range(min(count, plan.tries)):
        texts, game = random_line(plan, attempt)
        going += game is not None
        longest = max(longest, len(texts))
    return going, longest


def make_book(plan: BookPlan, *, jobs: int = 1, made: MadeBook | None = None,
              keep: Callable[[Candidate], None] | None = None,
              progress: Callable[[MadeBook], None] | None = None) -> MadeBook:
    """The lines ``plan`` keeps, tried in order on ``jobs`` processes (the same book on
    any number), going on from ``made`` (a resumed book: its next attempt is ``made.tried``);
    ``keep(candidate)`` before a line is kept (a book file writes it), ``progress(made)``
    after every line tried."""
    made = made if made is not None else MadeBook([])
    if len(made.kept) >= plan.lines:
        return made
    tried: Iterator[Candidate] = parallel_games(try_line, plan, range(made.tried, plan.tries), jobs=jobs,
                                                ordered=True)
    try:
        for candidate in tried:
            if made.sort(candidate, plan):
                if keep is not None:
                    keep(candidate)
                made.kept.append(candidate)
            if progress is not None:
                progress(made)
            if len(made.kept) >= plan.lines:
                break
    finally:
        close = getattr(tried, "close", None)
        if close is not None:
            close()  # the lines still being tried are dropped, their workers stopped
    return made


def _shown(plan: BookPlan, score: float) -> str:
    scale = game_kind(plan.game).scores
    value = score / scale.unit
    return f"{value:+.2f}" if scale.unit != 1.0 else f"{value:+g}"


def _separator(plan: BookPlan) -> str:
    """What parts a line's moves: a comma where a move holds spaces (Quixo's ``2 0 bottom``)."""
    texts, _ = random_line(plan, 0)
    return ", " if any(" " in move for move in texts) else " "


def book_head(plan: BookPlan, command: str, engine_name: str = "") -> str:
    """A book's head comments: what it is, how it is made, its plan."""
    kind = game_kind(plan.game)
    scale = kind.scores
    unit = f" {scale.unit_name}s" if scale.unit_name else ""
    band = (f"kept when the search scores the last position within +-{_shown(plan, plan.band).lstrip('+')}{unit} "
            f"for {kind.game.PLAYERS[0]} (and finds no mate)" if plan.band is not None else
            "every line kept, whatever its score")
    head = [
        f"{MADE_BOOK_MARK} {plan.lines} {'balanced ' if plan.band is not None else ''}{kind.title} openings "
        f"of {plan.plies} random plies asked",
        f"# made by: {command}",
        f"# engine: {plan.engine}{f' ({engine_name})' if engine_name else ''}; {band}",
        f"{_PLAN_MARK}{json.dumps(asdict(plan), sort_keys=True)}",
        f"# on {datetime.date.today().isoformat()}; each line: its moves, then the score for "
        f"{kind.game.PLAYERS[0]} after them and the number of the random line",
    ]
    return "\n".join(head) + "\n"


def book_row(plan: BookPlan, candidate: Candidate, separator: str = " ") -> str:
    """A kept line as the book writes it."""
    return f"{separator.join(candidate.moves)}  # {_shown(plan, candidate.score)}, try {candidate.attempt}\n"


class BookFile:
    """A book being made, saved as it goes (see the module doc).  :meth:`create` starts
    one, :meth:`resume` opens a stopped one; :meth:`add` appends a kept line,
    :meth:`finish` the last comment.  The file stays locked (``flock``) while open, so
    two runs never write one book."""

    def __init__(self, path: Path, fd: int, plan: BookPlan, made: MadeBook, done: bool = False,
                 note: str | None = None) -> None:
        self.path = path
        self.plan = plan
        self.made = made
        #: Whether the book was finished already (a resume of a done book).
        self.done = done
        #: What the resume did that the user should hear of (a cut-off last line dropped).
        self.note = note
        self._fd = fd
        self._separator = _separator(plan)

    @classmethod
    def create(cls, path: Path, plan: BookPlan, command: str, engine_name: str = "") -> BookFile:
        """A new book at ``path`` with its head written; never over a file."""
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o644)
        book = cls(path, fd, plan, MadeBook([]))
        try:
            cls._lock(path, fd)
            book._write(book_head(plan, command, engine_name))
        except BaseException:
            os.close(fd)
            path.unlink()  # it holds no line
            raise
        return book

    @classmethod
    def resume(cls, path: Path, plan: BookPlan) -> BookFile:
        """The stopped book at ``path``, read back; a book of another plan, a file
        that is not a book made here, or a line that is not the plan's is a
        :class:`~engines.remedy.RunError`."""
        fd = os.open(path, os.O_RDWR | os.O_APPEND)
        try:
            cls._lock(path, fd)
            data = read_bytes(path, "a book", MAX_BOOK_BYTES, RunError, MAX_LINE)
            note = None
            if data and not data.endswith(b"\n"):  # a write that did not finish: not a line of the book
                whole = data.rfind(b"\n") + 1
                os.ftruncate(fd, whole)
                note = f"{path}: dropped its cut-off last line (line {data.count(_NEWLINE) + 1}); it is tried again"
                data = data[:whole]
            made, done = _read_back(path, data.decode("utf-8", errors="replace"), plan)
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd, plan, made, done, note)

    @staticmethod
    def _lock(path: Path, fd: int) -> None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise RunError(f"{path}: another run is writing it", remedy=Remedy.WAIT) from None

    def _write(self, text: str) -> None:
        """``text`` at the end of the file, flushed and synced; on failure (a full disk, the file size
        limit) the file is cut back to what it held, and an :class:`OSError` names the file and why."""
        data = text.encode("utf-8")
        size = os.fstat(self._fd).st_size
        try:
            written = 0
            while written < len(data):  # a write cut short is tried again: the next one says why
                done = os.write(self._fd, data[written:])
                if not done:
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                written += done
            os.fsync(self._fd)
        except OSError as error:
            os.ftruncate(self._fd, size)  # only whole lines stay
            raise OSError(error.errno, f"{write_failure(error)}; the lines written before are kept: resume "
                                       f"once there is room", str(self.path)) from None

    def held(self) -> int:
        """How many kept lines the file holds (read from it: what an interrupt leaves is what it says)."""
        rows = read_bytes(self.path, "a book", MAX_BOOK_BYTES, RunError, MAX_LINE).splitlines()
        return sum(1 for row in rows if row.strip() and not row.startswith(b"#"))

    def add(self, candidate: Candidate) -> None:
        """Save a kept line."""
        self._write(book_row(self.plan, candidate, self._separator))

    def finish(self, made: MadeBook) -> None:
        """Save the last comment, the counts: the book is done."""
        self._write(f"{DONE_MARK}{made.counts(self.plan.seed)}\n")
        self.done = True

    def close(self) -> None:
        """Release the file (and its lock)."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def remove(self) -> None:
        """Close and delete the book: it holds no line."""
        self.close()
        self.path.unlink(missing_ok=True)

    def __enter__(self) -> BookFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def unfinished(path: Path) -> bool:
    """Whether ``path`` is a book made here that is not done (a resume finishes it)."""
    try:
        with open(path, "rb") as handle:
            if not handle.read(len(MADE_BOOK_MARK)) == MADE_BOOK_MARK.encode():
                return False
            return DONE_MARK.encode() not in handle.read(MAX_BOOK_BYTES)
    except OSError:
        return False


def _read_back(path: Path, text: str, plan: BookPlan) -> tuple[MadeBook, bool]:
    """What the run that wrote ``text`` knew (see the module doc), and whether it was done."""
    rows = text.splitlines()
    if not rows or not rows[0].startswith(MADE_BOOK_MARK):
        raise RunError(f"{path}: not a book made here (its first line is not '{MADE_BOOK_MARK} ...'); it is "
                       f"never written over", remedy=Remedy.OTHER_OUTPUT)
    recorded = next((row[len(_PLAN_MARK):] for row in rows if row.startswith(_PLAN_MARK)), None)
    try:
        fields = json.loads(recorded) if recorded is not None else None
        written = BookPlan(**fields) if isinstance(fields, dict) else None
    except (ValueError, TypeError, RecursionError):
        written = None
    if written is None:
        raise RunError(f"{path}: its plan is missing or unreadable: it cannot be resumed",
                       remedy=Remedy.OTHER_OUTPUT)
    if written != plan:
        raise RunError(f"{path}: a book of another plan ({written.difference(plan)})", remedy=Remedy.OTHER_OUTPUT)
    kept: dict[int, tuple[int, tuple[str, ...], float]] = {}
    separator = _separator(plan).strip() or None
    for number, row in enumerate(rows, 1):
        if row.startswith("#") or not row.strip():
            continue
        match = _ROW.match(row)
        if match is None:
            raise RunError(f"{path}:{number}: not a line this book writes", remedy=Remedy.OTHER_OUTPUT)
        moves = tuple(move.strip() for move in match["moves"].split(separator))
        kept[int(match["attempt"])] = (number, moves, float(match["score"]))
    made = MadeBook([])
    last = max(kept, default=-1)
    scale = game_kind(plan.game).scores
    for attempt in range(last + 1):
        texts, game = random_line(plan, attempt)
        candidate = Candidate(attempt, texts, None if game is None else game.to_text())
        if attempt in kept:
            number, moves, score = kept[attempt]
            candidate = Candidate(attempt, texts, candidate.position, score * scale.unit)
            if not made.sort(candidate, plan) or moves != texts:
                raise RunError(f"{path}:{number}: not random line {attempt} of this plan", remedy=Remedy.OTHER_OUTPUT)
            made.kept.append(candidate)
        elif made.sort(candidate, plan):  # not searched again: the run found it outside the band
            made.outside += 1
    done = any(row.startswith(DONE_MARK) for row in rows)
    return made, done


def engine_name(spec: str, game: str) -> str:
    """What the engine of ``spec`` calls itself, for a book's head (a UCI engine's ``id name``)."""
    engine: Any = create_engine(spec, type(new_game(game)))
    try:
        return str(getattr(engine, "program_name", ""))
    finally:
        engine.close()
