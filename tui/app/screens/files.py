"""Saving and opening games: the dialogs that ask for a file."""

from __future__ import annotations

from pathlib import Path

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Input, Label, Static
from textual.worker import get_current_worker

from games import GAME_NAMES, game_kind
from games.reading import LoadedGame, RecordSummary, game_for_path, index_records, load_record_file
from games.records import RecordError, save_record

from ...served import OutsideError, confined
from ..session import side_names
from ..widgets.path_input import PathInput
from .dialogs import Dialog

__all__ = ["OpenDialog", "SaveDialog", "record_kinds"]

_FILE_DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 76; max-width: 100%; height: auto; border: thick $accent; background: $surface; padding: 1 2;
}}
{name} Label {{ width: 100%; }}
{name} .file-error {{ color: $error; height: auto; }}
{name} Input {{ margin: 1 0 0 0; }}
"""


def choices_text(names: list[str], shown: int = 8) -> str:
    """``7 match: a.pgn b.pgn games/ …``: the entries a path could still be completed to."""
    more = " …" if len(names) > shown else ""
    return f"{len(names)} match: {' '.join(names[:shown])}{more}"


def record_kinds() -> str:
    """The record files the games read: ``a PGN (.pgn), a PDN (.pdn) or a Quixo move list (.txt)``."""
    kinds = []
    for name in GAME_NAMES:
        records = game_kind(name).records
        article = "" if records.name.startswith(("a ", "an ")) else "a "
        kinds.append(f"{article}{records.name} (.{records.extension})")
    return ", ".join(kinds[:-1]) + " or " + kinds[-1] if len(kinds) > 1 else kinds[0]


class SaveDialog(Dialog["Path | None"]):
    """Ask where to save the game; never overwrites a file."""

    DEFAULT_CSS = _FILE_DIALOG_CSS.format(name="SaveDialog")
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, default_path: str, text: str, what: str) -> None:
        super().__init__()
        self.default_path = default_path
        self.text = text
        self.what = what

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"Save the game as {self.what} — Tab completes a path, Enter saves, Escape cancels")
            yield PathInput(self.default_path, id="save-path")
            yield Static("", id="save-error", classes="file-error", markup=False)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_one("#save-error", Static).update("")

    def on_path_input_choices(self, event: PathInput.Choices) -> None:
        self.query_one("#save-error", Static).update(choices_text(event.names))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        path = event.value.strip()
        if not path:
            self.query_one("#save-error", Static).update("type a file name")
            return
        try:
            saved = save_record(confined(path), self.text)  # a served app: only inside its folder
        except (OSError, ValueError) as error:
            message = str(error).splitlines()[0] if str(error) else type(error).__name__
            self.query_one("#save-error", Static).update(message)
            return
        self.dismiss(saved.resolve())


class OpenDialog(Dialog[tuple[LoadedGame, Path] | None]):
    """Ask for a record file, list its games, and read the one chosen.

    The game is told by the file's extension (``.pgn``, ``.pdn``, ``.txt``),
    else it is the game being played.  A file of one game opens at once; a
    file of several is listed (number, players, result, date, event, moves),
    filtered by the text typed above the list, and the game chosen (Enter or
    one click) opens; a number typed beside the path opens that game directly.
    Files are read in a worker thread with the progress shown, so a large
    database never blocks the app.  Dismissed with the game read and its path,
    or ``None``; a file or game that cannot be read is explained in one line
    and the dialog stays.
    """

    DEFAULT_CSS = _FILE_DIALOG_CSS.format(name="OpenDialog") + """
    OpenDialog > Vertical { width: 110; }
    OpenDialog Horizontal { height: auto; }
    OpenDialog #open-path { width: 1fr; }
    OpenDialog #open-number { width: 12; margin-left: 2; }
    OpenDialog #open-games { height: 14; display: none; }
    OpenDialog #open-filter { display: none; }
    OpenDialog.listing #open-games, OpenDialog.listing #open-filter { display: block; }
    """
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, game_name: str, path: str = "") -> None:
        super().__init__()
        self.game_name = game_name
        self.initial_path = path
        #: The games of the file listed (its path, game and summaries), once read.
        self.listed: tuple[Path, str, list[RecordSummary]] | None = None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"Open a game: {record_kinds()} — Enter opens, Escape cancels")
            with Horizontal():
                yield PathInput(self.initial_path, id="open-path", placeholder="path of the file (Tab completes)")
                yield Input("", id="open-number", placeholder="game #", type="integer")
            yield Input("", id="open-filter", placeholder="filter the games: players, event, date, result")
            yield DataTable(id="open-games", cursor_type="row", zebra_stripes=True)
            yield Static("", id="open-error", classes="file-error", markup=False)

    def on_mount(self) -> None:
        self.query_one("#open-path", Input).focus()
        if self.initial_path:
            self.read(self.initial_path, None)

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "open-filter":
            self.show_games(event.value)
        elif event.input.id == "open-path":
            self.query_one("#open-error", Static).update("")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "open-filter":
            self.query_one("#open-games", DataTable).focus()
            return
        path = self.query_one("#open-path", Input).value.strip()
        number = self.query_one("#open-number", Input).value.strip()
        if not path:
            self.query_one("#open-error", Static).update("type the path of a record file")
            return
        self.read(path, int(number) if number.isdigit() and int(number) > 0 else None)

    def on_path_input_choices(self, event: PathInput.Choices) -> None:
        self.say(choices_text(event.names))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.open_row(event.row_key.value)

    def on_mouse_up(self, event: events.MouseUp) -> None:
        """One click on a game opens it (the table itself opens only a row clicked a second
        time, and stops the click: its mouse-up still comes here, with the row under it)."""
        table = self.query_one("#open-games", DataTable)
        row = event.style.meta.get("row", -1)
        over = table.region.contains(event.screen_x, event.screen_y)  # (a terminal's mouse-up has no widget)
        if over and isinstance(row, int) and 0 <= row < table.row_count:
            self.open_row(table.ordered_rows[row].key.value)

    def open_row(self, key: str | None) -> None:
        """Open the listed game whose row has ``key`` (its number in the file)."""
        if self.listed is not None and key is not None:
            path, _, _ = self.listed
            self.read(str(path), int(key))

    def say(self, text: str) -> None:
        self.query_one("#open-error", Static).update(text)

    def read(self, path: str, number: int | None) -> None:
        """Read ``path`` in a worker: game ``number``, or the list of its games."""
        try:
            path = str(confined(path))  # a served app: only inside its folder
        except OutsideError as error:
            self.say(str(error))
            return
        self.say("reading…")
        self._read(path, game_for_path(path, self.game_name), number)

    @work(thread=True, exclusive=True, group="open")
    def _read(self, path: str, game: str, number: int | None) -> None:
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if not worker.is_cancelled:
                self.app.call_from_thread(self.say, f"reading… {100 * done // max(total, 1)}%")

        try:
            if number is None:
                games = index_records(path, game, progress=progress)
                if len(games) > 1:
                    self.app.call_from_thread(self.list_games, Path(path).expanduser(), game, games)
                    return
                number = 1
            loaded, _count = load_record_file(path, game, number)
        except RecordError as problem:
            self.app.call_from_thread(self.say, str(problem).splitlines()[0])
            return
        if not worker.is_cancelled:
            self.app.call_from_thread(self.dismiss, (loaded, Path(path).expanduser().resolve()))

    def list_games(self, path: Path, game: str, games: list[RecordSummary]) -> None:
        self.listed = (path, game, games)
        self.add_class("listing")
        table = self.query_one("#open-games", DataTable)
        if not table.columns:
            first, second = side_names(game)
            table.add_columns("#", first, second, "result", "date", "event", "moves")
        self.show_games(self.query_one("#open-filter", Input).value)
        self.query_one("#open-filter", Input).focus()

    def show_games(self, text: str) -> None:
        """Fill the list with the games whose text holds every word of ``text``."""
        if self.listed is None:
            return
        path, _, games = self.listed
        words = text.lower().split()
        shown = [game for game in games if all(word in game.text() for word in words)]
        table = self.query_one("#open-games", DataTable)
        table.clear()
        for game in shown[:MAX_LISTED]:
            table.add_row(str(game.number), *game.players, game.result, game.date, game.event[:30],
                          "" if game.moves is None else str(game.moves), key=str(game.number))
        more = f" (the first {MAX_LISTED:,} shown: filter to find the others)" if len(shown) > MAX_LISTED else ""
        self.say(f"{path.name}: {len(games):,} games, {len(shown):,} shown{more} — Enter or a click opens one")


#: Rows the game list shows at most (a filter finds the others).
MAX_LISTED = 2_000
