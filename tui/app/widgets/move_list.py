"""The move list: the game so far, one row per move number, one column per side."""

from __future__ import annotations

from typing import Sequence

from textual.widgets import DataTable

__all__ = ["MoveList", "move_rows"]


def move_rows(moves: Sequence[str], first_mover: int) -> list[tuple[str, str, str]]:
    """Rows ``(number, first side's move, second side's move)``.

    ``first_mover`` is the side that made the first move in ``moves``; when it
    is the second side (a position with that side to move) the first row
    starts with ``...``, as in PGN's ``1... e5``.
    """
    cells = (["..."] if first_mover == 1 and moves else []) + list(moves)
    rows = []
    for i in range(0, len(cells), 2):
        pair = cells[i:i + 2] + [""] * (2 - len(cells[i:i + 2]))
        rows.append((f"{i // 2 + 1}.", pair[0], pair[1]))
    return rows


class MoveList(DataTable):
    """The moves played, the last one under the cursor, scrolled to the end."""

    DEFAULT_CSS = """
    MoveList {
        height: 1fr;
        min-height: 3;
        border: round $primary-darken-2;
        border-title-color: $text-muted;
    }
    """

    def __init__(self, players: tuple[str, str], *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, cursor_type="cell", zebra_stripes=True,
                         show_cursor=True)
        self.players = players
        self.can_focus = False
        self.border_title = "moves"

    def on_mount(self) -> None:
        self.add_column("#", key="number", width=4)
        self.add_column(self.players[0], key="first", width=14)
        self.add_column(self.players[1], key="second", width=14)

    def show_moves(self, moves: Sequence[str], first_mover: int) -> None:
        """Replace the list by ``moves`` (texts, in order)."""
        self.clear()
        rows = move_rows(moves, first_mover)
        for row in rows:
            self.add_row(*row)
        if rows:
            last_column = 1 if rows[-1][2] == "" else 2
            self.move_cursor(row=len(rows) - 1, column=last_column, scroll=True)
            self.scroll_end(animate=False)
