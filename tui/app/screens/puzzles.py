"""Puzzles: find the line that wins, move by move, by typing or by clicks; a trainer that remembers.

:class:`PuzzleScreen` shows one puzzle (:mod:`engines.puzzles`) at a time.  The
opponent's setting-up move is played first and marked on the board (that is why a
puzzle may start in check); the "to play" line stays above the messages.  The
player's moves are checked one by one: a right one is played and the opponent's
reply follows by itself after :data:`REPLY_PAUSE` seconds (a timer); on the last
move any move that wins as clearly is accepted (:func:`engines.puzzles.wins_as_clearly`,
any mate in chess).  A wrong move stays on the board with the reply our search
finds against it (:func:`engines.puzzles.refutation`, in a worker), then ctrl+z
retries from before it and ctrl+w shows the solution a move at a time.  ctrl+f
marks the piece to move (a hint; the first press says what it costs, and a move on
one cell, Othello's, is marked, never played), ctrl+n goes on, Esc leaves with a
summary of the sitting.  A wrong move, a hint, the solution or a skip counts the
puzzle as failed.

The trainer (:mod:`engines.puzzle_training`): a Glicko-2 rating per game and per
theme, the streak, and failed puzzles coming back a few puzzles later, kept per
game in ``puzzles.toml`` beside the settings (:mod:`tui.settings`).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from engines.puzzle_training import Session, Training
from engines.puzzles import Puzzle, refutation, wins_as_clearly
from games import GAME_NAMES, Game
from games.files import read_toml

from ...settings import Settings, config_dir, keep_aside, write_whole
from ..keymap import screen_bindings
from ..picking import MovePicker
from ..widgets.board import BoardView
from ..widgets.move_entry import MoveEntry

__all__ = ["PuzzleScreen", "PuzzleRecord", "load_record", "save_record", "read_records", "REPLY_PAUSE"]

#: A player's record in one game (the trainer's model).
PuzzleRecord = Training
#: The pause before the opponent's reply is played, in seconds.
REPLY_PAUSE = 0.6
#: The largest puzzles progress file read (per game: a few numbers, a rating per theme, the reviews).
MAX_RECORDS_BYTES = 256 * 1024


def _path() -> Path:
    return config_dir() / "puzzles.toml"


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
        record = Training.from_table(entry) if game in GAME_NAMES else None
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
    lines = ["# tui-games puzzles: your rating, streak and reviews per game"]
    for name in sorted(records):
        lines += _table_lines(name, records[name].to_table())
    write_whole(path, "\n".join(lines) + "\n")


def _table_lines(name: str, table: dict[str, Any]) -> list[str]:
    """A game's record as TOML: its table, then its themes' and its reviews' (keys quoted)."""
    lines = [f"\n[{name}]"] + [f"{key} = {value}" for key, value in table.items() if not isinstance(value, dict)]
    for key, value in table.items():
        if isinstance(value, dict) and value:
            lines += [f"\n[{name}.{key}]"] + [f"{json.dumps(sub)} = {json.dumps(item)}" for sub, item in value.items()]
    return lines


class PuzzleScreen(Screen[None]):
    """Puzzles of one game (see the module doc)."""

    CSS_PATH = "puzzles.tcss"

    #: The keymap's meanings here: new is the next puzzle, undo retries, the best line is the solution
    #: (before the move box's own ctrl+w).
    BINDINGS = screen_bindings("PuzzleScreen", ("best_line",), back="close", new_game="next", undo="retry",
                               best_line="solution")

    def __init__(self, game: str, puzzles: list[Puzzle], source: str, *, seed: int | None = None,
                 ascii: bool = False) -> None:
        super().__init__()
        self.game_name = game
        self.puzzles = list(puzzles)
        random.Random(seed).shuffle(self.puzzles)
        self.by_id = {puzzle.id: puzzle for puzzle in self.puzzles}
        self.source = source
        self.ascii = ascii
        self.index = 0
        #: The puzzle shown (the set's next, or one come back for review).
        self.current: Puzzle | None = self.puzzles[0] if self.puzzles else None
        records, self.records_problem = read_records()
        self.record = records.get(game, PuzzleRecord())
        self.session = Session(self.record.rating.rating)
        #: The position on the board, the index of the player's next move in the solution.
        self.position: Game | None = None
        self.step = 0
        #: Whether the puzzle is over (solved, failed to the end, or the solution shown), counted as
        #: failed (a wrong move, a hint, the solution), hinted; busy while a reply or a search is on its way.
        self.done = False
        self.failed = False
        self.hinted = False
        #: The hint's cost was said (the next ctrl+f shows it).
        self.hint_asked = False
        self.busy = False
        #: Bumped by every puzzle shown: a reply or a search answering an earlier one is dropped.
        self.serial = 0
        #: Whether the puzzle shown was rated before in this sitting (it is not rated again).
        self.seen_before = False
        #: After a wrong move: the position before it (ctrl+z goes back to it).
        self.retry_from: Game | None = None
        #: The puzzles answered in this sitting: seen again (the set wraps round), they are not rated
        #: again unless they come back for review.
        self.rated: set[str] = set()
        #: The rating's change of the last puzzle rated.
        self.change = 0.0

    def compose(self) -> ComposeResult:
        with Horizontal():
            settings = getattr(self.app, "settings", None) or Settings()
            yield BoardView(self.game_name, ascii=self.ascii, id="puzzle-board", **settings.board_options())
            with Vertical(id="puzzle-side"):
                yield Static("", id="puzzle-status")
                yield Static("", id="puzzle-task")
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
        self.entry.board = self.board
        self.board.typing_goes_to = self.entry.take_typing  # a letter typed on the board: the answer
        self.show_puzzle()
        self.entry.focus()

    @property
    def entry(self) -> MoveEntry:
        """The move box, which also takes the board's clicks."""
        return self.query_one("#puzzle-input", MoveEntry)

    @property
    def board(self) -> BoardView:
        return self.query_one("#puzzle-board", BoardView)

    @property
    def picker(self) -> MovePicker | None:
        """The position's legal moves by square (the move box's)."""
        return self.entry.picker

    @property
    def puzzle(self) -> Puzzle:
        assert self.current is not None
        return self.current

    # -- showing -----------------------------------------------------------------------------------

    def show_puzzle(self) -> None:
        """The puzzle from its start: the setting-up move played and marked."""
        puzzle = self.puzzle
        start = puzzle.start(self.game_name)
        game = puzzle.game(self.game_name)
        board = self.board
        board.flipped = board.painter.flipped_for(game.turn)
        self.done = self.failed = self.hinted = self.busy = self.hint_asked = False
        self.serial += 1
        self.seen_before = puzzle.id in self.rated
        self.retry_from = None
        self.step = 0
        self.set_position(game)
        setup = ""
        if puzzle.setup is not None:
            move = start.parse_move(puzzle.setup)
            self.mark_move(start, move)
            setup = f"{start.PLAYERS[start.turn]} played {start.format_move(move)}. "
        side = game.PLAYERS[game.turn]
        plies = len(puzzle.solution)
        length = "the move that wins" if plies == 1 else f"the line that wins ({plies // 2 + 1} moves of yours)"
        self.query_one("#puzzle-task", Static).update(f"{setup}[b]{side} to play[/b]: find {length}")
        self.say("type the move or click it")
        self.update_status()

    def set_position(self, game: Game) -> None:
        """Show ``game`` and take moves in it."""
        self.position = game
        self.board.show(game)
        self.board.mark(None)
        box = self.entry
        box.game = game.copy()
        box.value = ""
        box.placeholder = "your move"

    def mark_move(self, before: Game, move: Any) -> None:
        """Mark ``move`` (played from ``before``) on the board: where it came from and went."""
        squares = self.board.painter.move_squares(before, move)
        if squares is not None:
            self.board.mark(squares[0], (squares[1],))

    def play_on_board(self, move: Any) -> str:
        """Play ``move`` in the position shown, mark it; its text."""
        assert self.position is not None
        before = self.position.copy()
        text = before.format_move(move)
        self.position.play(move)
        self.set_position(self.position)
        self.mark_move(before, move)
        return text

    def update_status(self) -> None:
        record = self.record
        themes = f" · {', '.join(self.puzzle.themes[:4])}" if self.current and self.puzzle.themes else ""
        rated = f"puzzle rated {self.puzzle.rating}{themes}\n" if self.current else ""
        self.query_one("#puzzle-status", Static).update(
            f"[b]puzzle {self.index % max(1, len(self.puzzles)) + 1} of {len(self.puzzles)}[/b] ({self.source})\n"
            f"{rated}rating {record.rating.rating:.0f} ±{record.rating.deviation:.0f} · streak {record.streak} "
            f"(best {record.best_streak})\nsolved {record.solved} of {record.tried}")

    def say(self, text: str, error: bool = False) -> None:
        message = self.query_one("#puzzle-message", Static)
        message.update(text)
        message.set_class(error, "-error")

    # -- answers ---------------------------------------------------------------------------------

    @on(Input.Submitted, "#puzzle-input")
    def typed(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if self.busy or not self.puzzles:
            return
        if self.done:
            self.action_next()
            return
        if self.retry_from is not None and not text:
            self.action_retry()  # Enter after a wrong move tries again
            return
        if text:
            self.entry.enter(text)

    def on_board_view_square_chosen(self, event: BoardView.SquareChosen) -> None:
        if self.busy or not self.puzzles:
            return
        if self.done:
            self.action_next()  # Enter on the board goes on, as in the move box
            return
        if self.retry_from is not None:
            self.action_retry()
        self.entry.square_chosen(event.square)

    @on(MoveEntry.MoveEntered, "#puzzle-input")
    def move_entered(self, event: MoveEntry.MoveEntered) -> None:
        if not (self.done or self.busy) and self.retry_from is None:  # else answered meanwhile
            self.answer(event.move)

    def on_move_entry_said(self, event: MoveEntry.Said) -> None:
        self.say(event.text, error=event.error)

    def answer(self, move: Any) -> None:
        """Judge the player's ``move`` at the current step: right, wrong, or (the last move) as good."""
        assert self.position is not None
        expected = self.position.parse_move(self.puzzle.solution[self.step])
        last = self.step == len(self.puzzle.solution) - 1
        if move == expected:
            self.right(move)
        elif last:
            self.busy = True
            self.say(f"{self.position.format_move(move)}: looking at it…")
            game, serial = self.position.copy(), self.serial
            self.run_worker(lambda: self._judge_last(game, move, expected, serial), thread=True,
                            exclusive=True, group="puzzle")
        else:
            self.wrong(move)

    def _judge_last(self, game: Game, move: Any, expected: Any, serial: int) -> None:
        accepted = wins_as_clearly(game, move, expected)
        self.app.call_from_thread(self._judged_last, move, accepted, serial)

    def _judged_last(self, move: Any, accepted: bool, serial: int) -> None:
        if serial != self.serial or self.done:  # another puzzle meanwhile
            return
        self.busy = False
        if accepted:
            self.right(move)
        else:
            self.wrong(move)

    def right(self, move: Any) -> None:
        """A right move: played; the reply follows after a pause, or the puzzle is solved."""
        text = self.play_on_board(move)
        self.step += 1
        if self.step >= len(self.puzzle.solution):
            self.finish(not self.failed, f"{text} — solved" if not self.failed else f"{text} — right")
            return
        self.busy = True
        self.say(f"{text} — right; the reply comes…")
        serial = self.serial
        self.set_timer(REPLY_PAUSE, lambda: self.play_reply(serial))

    def play_reply(self, serial: int) -> None:
        """The opponent's reply of the solution, played for the player (unless another puzzle came meanwhile)."""
        if serial != self.serial or self.done or self.position is None:
            return
        reply = self.position.parse_move(self.puzzle.solution[self.step])
        text = self.play_on_board(reply)
        self.step += 1
        self.busy = False
        side = self.position.PLAYERS[self.position.turn]
        self.say(f"they answer {text} — {side} to play: the next move")

    def wrong(self, move: Any) -> None:
        """A wrong move: counted, played, and answered by the refutation our search finds."""
        assert self.position is not None
        self.count(False)
        self.retry_from = self.position.copy()
        text = self.play_on_board(move)
        self.busy = True
        self.say(f"{text} is not it — looking for the reply…", error=True)
        game = self.position.copy()
        serial = self.serial
        self.run_worker(lambda: self._refute(game, text, serial), thread=True, exclusive=True, group="puzzle")

    def _refute(self, game: Game, text: str, serial: int) -> None:
        reply = refutation(game)
        self.app.call_from_thread(self._refuted, reply, text, serial)

    def _refuted(self, reply: Any, text: str, serial: int) -> None:
        if serial != self.serial or self.retry_from is None or self.position is None:
            return
        self.busy = False
        answer = f": {self.play_on_board(reply)} refutes it" if reply is not None else ""
        self.say(f"{text} is not it{answer} · ctrl+z (or Enter): retry · ctrl+w: the solution", error=True)
        self.entry.placeholder = "Enter: retry"

    def action_retry(self) -> None:
        """Back to the position before the wrong move."""
        if self.retry_from is None or self.busy:
            return
        game, self.retry_from = self.retry_from, None
        before_text = "try again: " + game.PLAYERS[game.turn] + " to play"
        self.set_position(game)
        self.say(before_text)

    def action_solution(self) -> None:
        """The solution's next move played (from before a wrong move); the puzzle counts as failed."""
        if self.done or self.busy or not self.puzzles:
            return
        if self.retry_from is not None:
            self.set_position(self.retry_from)
            self.retry_from = None
        self.count(False)
        assert self.position is not None
        move = self.position.parse_move(self.puzzle.solution[self.step])
        text = self.play_on_board(move)
        self.step += 1
        if self.step >= len(self.puzzle.solution):
            self.finish(False, f"the solution: {text} — the end")
            return
        self.say(f"the solution: {text} · ctrl+w: the next move")

    def count(self, solved: bool) -> None:
        """Rate the puzzle once (the first failure, or the solve), keep the record, count the sitting."""
        if solved is False:
            if self.failed:
                return
            self.failed = True
        puzzle = self.puzzle
        if puzzle.id in self.rated:
            return
        self.rated.add(puzzle.id)
        self.change = self.record.scored(puzzle.id, puzzle.rating, puzzle.themes, solved)
        self.session.count(puzzle.id, solved, self.record.streak)
        try:
            save_record(self.game_name, self.record)
        except OSError as error:
            self.notify(f"puzzles progress not kept: {error.strerror or error}", severity="warning")
        self.update_status()

    def finish(self, solved: bool, text: str) -> None:
        """The puzzle over: rated (solved, unless failed already), the box ready for the next."""
        self.change = 0.0
        if solved:
            self.count(True)
        self.done = True
        self.busy = False
        box = self.entry
        box.value, box.placeholder = "", "Enter: the next puzzle"
        if self.seen_before:
            said = f"{text} — seen before in this sitting, not rated again"
        elif solved:
            said = f"{text} — rating {self.change:+.0f}, streak {self.record.streak}"
        else:
            why = "the hint" if self.hinted else "a move missed" if self.failed else "the solution"
            said = f"{text} — counted as not solved ({why}), the streak ends"
        self.say(f"{said} · Enter or ctrl+n: next", error=not solved)
        self.update_status()

    def action_hint(self) -> None:
        if self.done or self.busy or not self.puzzles:
            return
        if self.retry_from is not None:
            self.action_retry()
        assert self.position is not None
        if not self.hint_asked and not self.failed and not self.seen_before:  # what it costs, before it costs it
            self.hint_asked = True
            self.say("a hint counts this puzzle as not solved and ends the streak — ctrl+f again shows it")
            return
        game = self.position
        squares = self.board.painter.move_squares(game, game.parse_move(self.puzzle.solution[self.step]))
        self.hinted = True
        self.count(False)
        if squares is not None:
            start, end = squares
            if start == end:  # a move on one cell (Othello): picked up, it would be played -- marked only
                self.board.mark(start)
                said = f"hint: the move is on {self.board.painter.square_name(start)}"
            else:  # picked up, as a click would: its targets shown, a click on one plays it
                self.entry.offer(start)
                said = f"hint: the move starts on {self.board.painter.square_name(start)}"
            self.say(f"{said} (the puzzle counts as not solved)")

    def action_next(self) -> None:
        if not self.puzzles:
            return
        if not self.done:  # skipped: counted as not solved
            self.count(False)
        due = [id_ for id_ in self.record.due(self.by_id) if id_ != self.puzzle.id]
        self.index += 1
        if due:
            self.rated.discard(due[0])  # come back for review: rated again
            self.current = self.by_id[due[0]]
        else:
            self.current = self.puzzles[self.index % len(self.puzzles)]
        self.show_puzzle()
        if due:
            self.say("a puzzle you missed, back for review · type the move or click it")

    def action_close(self) -> None:
        """Back to the start screen it was opened from, with the sitting's summary; opened by the
        command line, quit and print it."""
        summary = self.session.summary(self.record)
        below = self.app.screen_stack[:-1]
        if any(type(screen).__name__ == "StartScreen" for screen in below):
            self.app.pop_screen()
            self.app.notify(summary, timeout=10)
        else:
            self.app.exit(message=summary)
