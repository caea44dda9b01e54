"""The move list: the game so far, one row per move number, one column per side.

It is also how a game is reviewed: click a move, or with the list focused use
← → (a move), ↑ ↓ (a move number), Home (the start) and End (the last move);
the list posts :class:`MoveList.PlySelected` and the game screen shows that
position.  Enter asks to play on from it, Escape goes back to the game.
"""

from __future__ import annotations

from typing import Sequence

from textual.binding import Binding
from textual.message import Message
from textual.widgets import DataTable

__all__ = ["MoveList", "move_rows"]


def move_rows(moves: Sequence[str], first_mover: int, first_number: int = 1) -> list[tuple[str, str, str]]:
    """Rows ``(number, first side's move, second side's move)``.

    ``first_mover`` is the side that made the first move in ``moves``; when it
    is the second side (a position with that side to move) the first row
    starts with ``...``, as in PGN's ``7... e5``.  Rows are numbered from
    ``first_number`` (a chess position's full-move number).
    """
    cells = (["..."] if first_mover == 1 and moves else []) + list(moves)
    rows = []
    for i in range(0, len(cells), 2):
        pair = cells[i:i + 2] + [""] * (2 - len(cells[i:i + 2]))
        rows.append((f"{first_number + i // 2}.", pair[0], pair[1]))
    return rows


class MoveList(DataTable):
    """The moves played; the cursor is on the move whose position the board shows."""

    DEFAULT_CSS = """
    MoveList {
        height: 1fr;
        min-height: 3;
        border: round $primary-darken-2;
        border-title-color: $text-muted;
    }
    MoveList:focus {
        border: round $accent;
    }
    """

    BINDINGS = [
        Binding("left", "step(-1)", "Back", show=False),
        Binding("right", "step(1)", "Forward", show=False),
        Binding("up", "step(-2)", "Back a move number", show=False),
        Binding("down", "step(2)", "Forward a move number", show=False),
        Binding("home", "to_start", "Start", show=False),
        Binding("end", "to_end", "Last move", show=False),
        Binding("enter", "play_here", "Play from here", show=False),
        Binding("escape", "leave", "Back to the game", show=False),
    ]

    class PlySelected(Message):
        """The player picked the position after ``ply`` moves (0: the start)."""

        def __init__(self, ply: int) -> None:
            super().__init__()
            self.ply = ply

    class PlayHere(Message):
        """Enter: play on from the position shown."""

    class Leave(Message):
        """Escape: back to the game."""

    def __init__(self, players: tuple[str, str], *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, cursor_type="cell", zebra_stripes=True,
                         show_cursor=True)
        self.players = players
        self.border_title = "moves"
        self.moves: list[str] = []
        self.first_mover = 0
        #: The position shown: after this many moves.
        self.ply = 0

    def on_mount(self) -> None:
        self.add_column("#", key="number", width=5)
        self.add_column(self.players[0], key="first", width=14)
        self.add_column(self.players[1], key="second", width=14)

    # -- plies and cells ---------------------------------------------------------------

    def _cell_of(self, ply: int) -> tuple[int, int]:
        """Table row and column of the move that leads to ``ply`` (the number for 0)."""
        if ply == 0:
            return 0, 0
        index = ply - 1 + self.first_mover
        return index // 2, 1 + index % 2

    def _ply_of(self, row: int, column: int) -> int:
        if column == 0:
            return max(2 * row - self.first_mover, 0)
        return min(max(2 * row + column - self.first_mover, 0), len(self.moves))

    def show_moves(self, moves: Sequence[str], first_mover: int, first_number: int = 1) -> None:
        """Replace the list by ``moves`` (texts, in order), the last one selected."""
        self.moves = list(moves)
        self.first_mover = first_mover if moves else 0
        with self.prevent(DataTable.CellHighlighted):
            self.clear()
            for row in move_rows(moves, first_mover, first_number):
                self.add_row(*row)
            self._put_cursor(len(self.moves))
        self.scroll_end(animate=False)

    def _put_cursor(self, ply: int) -> None:
        self.ply = ply
        if self.row_count:
            row, column = self._cell_of(ply)
            self.move_cursor(row=row, column=column, scroll=True)

    def select_ply(self, ply: int) -> None:
        """Show the position after ``ply`` moves and tell the screen."""
        ply = min(max(ply, 0), len(self.moves))
        with self.prevent(DataTable.CellHighlighted):
            self._put_cursor(ply)
        self.post_message(self.PlySelected(ply))

    # -- input ---------------------------------------------------------------------------

    def on_data_table_cell_highlighted(self, event: DataTable.CellHighlighted) -> None:
        event.stop()
        ply = self._ply_of(event.coordinate.row, event.coordinate.column)
        if ply != self.ply:
            self.select_ply(ply)

    def action_step(self, plies: int) -> None:
        self.select_ply(self.ply + plies)

    def action_to_start(self) -> None:
        self.select_ply(0)

    def action_to_end(self) -> None:
        self.select_ply(len(self.moves))

    def action_play_here(self) -> None:
        self.post_message(self.PlayHere())

    def action_leave(self) -> None:
        self.post_message(self.Leave())
