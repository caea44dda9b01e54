"""Puzzles: find the move that wins, by typing it or by two clicks; a streak and a rating that persist.

:class:`PuzzleScreen` shows one puzzle (:mod:`engines.puzzles`) at a time: the
board, whose move it is, and a move box.  A move is judged at once: the
winning move keeps the streak going and raises the rating, any other ends the
streak, lowers it and shows the winning move.  ``h`` marks the piece to move (a
hint: the puzzle then counts as failed), ``n`` goes on to the next puzzle, Esc
back.  The rating is an Elo rating against the puzzles' own (from how clearly
the move wins: a smaller margin is a harder puzzle), kept per game with the
streak in ``puzzles.toml`` beside the settings (:mod:`tui.settings`).
"""

from __future__ import annotations

import math
import os
import random
from dataclasses import dataclass
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from engines.puzzles import Puzzle
from games import GAME_NAMES
from games.files import read_toml

from ...settings import Settings, config_dir, keep_aside, write_whole
from ..picking import MovePicker
from ..widgets.board import BoardView
from ..widgets.move_entry import MoveEntry

__all__ = ["PuzzleScreen", "PuzzleRecord", "puzzle_rating", "load_record", "save_record", "K_FACTOR"]

#: How fast the rating moves (Elo's K), and where it starts.
K_FACTOR = 32
START_RATING = 1500.0
#: The largest puzzles progress file read (one table of five numbers a game: a few hundred bytes).
MAX_RECORDS_BYTES = 64 * 1024


def puzzle_rating(puzzle: Puzzle) -> float:
    """A puzzle's own rating (its set's)."""
    return float(puzzle.rating)


@dataclass
class PuzzleRecord:
    """A player's puzzles in one game: the rating, the streak and the best streak, the count solved and tried."""

    rating: float = START_RATING
    streak: int = 0
    best_streak: int = 0
    solved: int = 0
    tried: int = 0

    def scored(self, puzzle: Puzzle, solved: bool) -> float:
        """Count an attempt; the rating's change."""
        difference = max(-4000.0, min(4000.0, puzzle_rating(puzzle) - self.rating))
        expected = 1.0 / (1.0 + 10 ** (difference / 400.0))
        change = K_FACTOR * ((1.0 if solved else 0.0) - expected)
        self.rating += change
        self.tried += 1
        if solved:
            self.solved += 1
            self.streak += 1
            self.best_streak = max(self.best_streak, self.streak)
        else:
            self.streak = 0
        return change


def _path():  # type: ignore[no-untyped-def]
    return config_dir() / "puzzles.toml"


#: The bounds a kept rating is read within (anything else is a damaged file).
RATING_BOUNDS = (0.0, 4000.0)


def _record_of(entry: object) -> PuzzleRecord | None:
    """A game's record from its table, or ``None`` if any value is missing, of the wrong type or out of range."""
    if not isinstance(entry, dict):
        return None
    rating = entry.get("rating", START_RATING)
    counts = [entry.get(key, 0) for key in ("streak", "best_streak", "solved", "tried")]
    if (not isinstance(rating, (int, float)) or isinstance(rating, bool) or not math.isfinite(rating)
            or not RATING_BOUNDS[0] <= rating <= RATING_BOUNDS[1]):
        return None
    if not all(isinstance(count, int) and not isinstance(count, bool) and 0 <= count < 10**9 for count in counts):
        return None
    return PuzzleRecord(float(rating), *counts)


def read_records() -> tuple[dict[str, PuzzleRecord], str | None]:
    """Every game's sound record kept, and what is wrong with the file in one line (``None``: nothing;
    a missing file is a first visit).  A file that cannot be read -- a device, a FIFO, too large,
    nested too deeply, not TOML -- keeps no record."""
    path = _path()
    if not os.path.lexists(path):
        return {}, None
    try:
        table = read_toml(path, "a puzzles progress file", MAX_RECORDS_BYTES, ValueError)
    except ValueError as error:
        return {}, f"{error}; ratings start afresh"
    records: dict[str, PuzzleRecord] = {}
    damaged = []
    for game, entry in table.items():
        record = _record_of(entry) if game in GAME_NAMES else None
        if record is None:
            damaged.append(str(game)[:20])
        else:
            records[game] = record
    return records, f"{path}: damaged entries ({', '.join(damaged)}) start afresh" if damaged else None


def load_records() -> tuple[dict[str, PuzzleRecord], bool]:
    """Every game's record kept, and whether the file was sound (missing counts as sound)."""
    records, problem = read_records()
    return records, problem is None


def load_record(game: str) -> PuzzleRecord:
    """The player's record in ``game`` (a fresh one if there is none, or it is damaged)."""
    return load_records()[0].get(game, PuzzleRecord())


def save_record(game: str, record: PuzzleRecord) -> None:
    """Keep ``record`` with the other games' sound records; a damaged file is kept beside as
    ``puzzles.toml.bad``.  Raises :class:`OSError` if it cannot be written."""
    path = _path()
    records, sound = load_records()
    records[game] = record
    path.parent.mkdir(parents=True, exist_ok=True)
    if not sound and (path.exists() or path.is_symlink()):
        keep_aside(path)
    lines = ["# tui-games puzzles: your rating and streak per game"]
    for name in sorted(records):
        kept = records[name]
        lines += [f"\n[{name}]", f"rating = {kept.rating:.1f}", f"streak = {kept.streak}",
                  f"best_streak = {kept.best_streak}", f"solved = {kept.solved}", f"tried = {kept.tried}"]
    write_whole(path, "\n".join(lines) + "\n")


class PuzzleScreen(Screen[None]):
    """Puzzles of one game (see the module doc)."""

    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("ctrl+h", "hint", "Hint", show=False),
        Binding("ctrl+n", "next", "Next"),
        Binding("ctrl+f", "hint", "Hint"),
    ]

    DEFAULT_CSS = """
    PuzzleScreen #puzzle-board { height: 1fr; }
    PuzzleScreen #puzzle-side { width: 44; padding: 1 2; }
    PuzzleScreen #puzzle-status { height: auto; }
    PuzzleScreen #puzzle-message { height: auto; color: $text-muted; }
    PuzzleScreen #puzzle-message.-error { color: $error; }
    PuzzleScreen #puzzle-input { margin-top: 1; }
    """

    def __init__(self, game: str, puzzles: list[Puzzle], source: str, *, seed: int | None = None,
                 ascii: bool = False) -> None:
        super().__init__()
        self.game_name = game
        self.puzzles = list(puzzles)
        random.Random(seed).shuffle(self.puzzles)
        self.source = source
        self.ascii = ascii
        self.index = 0
        records, self.records_problem = read_records()
        self.record = records.get(game, PuzzleRecord())
        #: Whether the puzzle shown was answered (or given up with a hint).
        self.done = False
        self.hinted = False
        #: The puzzles answered in this sitting: seen again (the set wraps round), they are not rated again.
        self.rated: set[str] = set()

    def compose(self) -> ComposeResult:
        with Horizontal():
            settings = getattr(self.app, "settings", None) or Settings()
            yield BoardView(self.game_name, ascii=self.ascii, id="puzzle-board", **settings.board_options())
            with Vertical(id="puzzle-side"):
                yield Static("", id="puzzle-status")
                yield Static("", id="puzzle-message")
                yield MoveEntry(placeholder="your move", id="puzzle-input")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.title = f"tui-games · {self.game_name} puzzles"
        if self.records_problem:
            self.notify(self.records_problem, severity="warning", timeout=10)
        if not self.puzzles:
            self.say(f"no puzzles for {self.game_name} in {self.source}", error=True)
            return
        self.entry.board = self.query_one("#puzzle-board", BoardView)
        self.show_puzzle()
        self.entry.focus()

    @property
    def entry(self) -> MoveEntry:
        """The move box, which also takes the board's clicks."""
        return self.query_one("#puzzle-input", MoveEntry)

    @property
    def picker(self) -> MovePicker | None:
        """The puzzle position's legal moves by square (the move box's)."""
        return self.entry.picker

    @property
    def puzzle(self) -> Puzzle:
        return self.puzzles[self.index % len(self.puzzles)]

    def show_puzzle(self) -> None:
        game = self.puzzle.game(self.game_name)
        board = self.query_one("#puzzle-board", BoardView)
        board.flipped = board.painter.flipped_for(game.turn)
        board.show(game)
        board.mark(None)
        self.done = self.hinted = False
        box = self.entry
        box.game = game
        box.value, box.placeholder = "", "your move"
        self.update_status()
        side = game.PLAYERS[game.turn]
        self.say(f"{side} to play: find the move that wins — type it or click it")

    def update_status(self) -> None:
        record = self.record
        self.query_one("#puzzle-status", Static).update(
            f"[b]puzzle {self.index % len(self.puzzles) + 1} of {len(self.puzzles)}[/b] ({self.source})\n"
            f"rating {record.rating:.0f} · streak {record.streak} (best {record.best_streak})\n"
            f"solved {record.solved} of {record.tried}")

    def say(self, text: str, error: bool = False) -> None:
        message = self.query_one("#puzzle-message", Static)
        message.update(text)
        message.set_class(error, "-error")

    # -- answers ---------------------------------------------------------------------------------

    @on(Input.Submitted, "#puzzle-input")
    def typed(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if self.done:
            self.action_next()
            return
        if not text or not self.puzzles:
            return
        self.entry.enter(text)

    def on_board_view_square_chosen(self, event: BoardView.SquareChosen) -> None:
        if self.done:
            self.action_next()  # Enter on the board goes on, as in the move box
            return
        if self.puzzles:
            self.entry.square_chosen(event.square)

    @on(MoveEntry.MoveEntered, "#puzzle-input")
    def move_entered(self, event: MoveEntry.MoveEntered) -> None:
        if not self.done:  # else answered meanwhile
            self.answer(event.move)

    def on_move_entry_said(self, event: MoveEntry.Said) -> None:
        self.say(event.text, error=event.error)

    def answer(self, move: Any) -> None:
        """Judge ``move``, count it, and show the winning move played."""
        puzzle = self.puzzle
        game = puzzle.game(self.game_name)
        winning = game.parse_move(puzzle.move)
        text = game.format_move(move)
        best = game.format_move(winning)
        solved = move == winning and not self.hinted
        key = puzzle.id
        again = key in self.rated
        self.rated.add(key)
        change = 0.0 if again else self.record.scored(puzzle, solved)
        self.done = True
        box = self.entry
        box.value, box.placeholder = "", "Enter: the next puzzle"
        try:
            save_record(self.game_name, self.record)
            kept = ""
        except OSError as error:
            kept = f" (not kept: {error.strerror or error})"
        board = self.query_one("#puzzle-board", BoardView)
        start_end = board.painter.move_squares(game, winning)
        game.play(winning)
        board.show(game)
        if start_end is not None:
            board.mark(start_end[0], (start_end[1],))
        if again:
            self.say(f"{text} {'wins' if move == winning else 'is not it: ' + best + ' wins'} — seen "
                     "before in this sitting, not rated again · Enter or ctrl+n: next")
        elif solved:
            self.say(f"{text} wins — rating {change:+.0f}, streak {self.record.streak}{kept} · Enter or ctrl+n: next")
        elif move == winning:
            self.say(f"{text} wins, after the hint: counted as not solved — rating {change:+.0f}, the streak "
                     f"ends{kept} · Enter or ctrl+n: next")
        else:
            self.say(f"{text} is not it: {best} wins — rating {change:+.0f}, the streak ends{kept} · "
                     "Enter or ctrl+n: next", error=True)
        self.update_status()

    def action_hint(self) -> None:
        if self.done or not self.puzzles:
            return
        game = self.puzzle.game(self.game_name)
        board = self.query_one("#puzzle-board", BoardView)
        squares = board.painter.move_squares(game, game.parse_move(self.puzzle.move))
        self.hinted = True
        if squares is not None:  # picked up, as a click would: its targets shown, a click on one plays it
            board.mark(squares[0], self.picker.targets(squares[0]) if self.picker is not None else ())
            self.say(f"hint: the move starts on {board.painter.square_name(squares[0])} (the puzzle counts as "
                     "not solved)")

    def action_next(self) -> None:
        if not self.puzzles:
            return
        key = self.puzzle.id
        if not self.done and key not in self.rated:  # skipped: counted as not solved
            self.rated.add(key)
            self.record.scored(self.puzzle, False)
            try:
                save_record(self.game_name, self.record)
            except OSError:
                pass
        self.index += 1
        self.show_puzzle()

    def action_close(self) -> None:
        """Back to the start screen it was opened from; opened by the command line, quit."""
        below = self.app.screen_stack[:-1]
        if any(type(screen).__name__ == "StartScreen" for screen in below):
            self.app.pop_screen()
        else:
            self.app.exit()
