"""The move list: the game with its variations, comments and NAGs -- an analysis board's list.

The main line reads one row per move number, one column per side; a move's
marks follow it (``e5!?``), and its comment and the variations that replace
it (``(2... dxc4 3. e4)``, nested ones inside) come on their own indented
lines under its row, as lichess shows them.  The line the board follows (the
game's moves, :attr:`MoveList.line`) is bright, the other variations dim; the
cursor is on the move whose position the board shows.

It is also how a game is reviewed and analysed: with the list focused ← →
walk the line (a move), Home and End go to its start and its end, ↑ ↓ choose
among the alternatives to the move shown, a click picks any move.  The list
posts :class:`MoveList.PlySelected` (a position of its line) or
:class:`MoveList.NodeSelected` (a move of another line, which becomes the line
followed); Enter asks to play on from the position shown, Escape goes back to
the game.  ``u`` promotes the move's variation (up, toward the main line),
Delete deletes it, ``n`` writes a note (the comment) on the move and ``!``
gives it a mark
(:class:`MoveList.Edit`: the game screen asks and changes the tree).
"""

from __future__ import annotations

from typing import Sequence

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Static

from games.variations import NAG_GLYPHS, MoveNode, MoveTree, variation_parts

from .typed import TypingTarget, bound_keys, forward_typing

__all__ = ["MoveList", "cell_width", "move_rows", "tree_rows"]

#: The width of a move's cell in a main-line row (at the least: a wider move widens every cell,
#: :func:`cell_width`), and of the row's number.
CELL = 10
NUMBER = 5


def cell_width(moves: Sequence[str]) -> int:
    """The width of the main line's cells: :data:`CELL`, or the widest move written (marks
    included) and a space, so that a long move (Quixo's ``0 0 bottom!?``) keeps its column."""
    return max([CELL] + [len(move) + 1 for move in moves])


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


def tree_rows(tree: MoveTree) -> list[tuple[str, str, str]]:
    """The main line of ``tree`` as rows ``(number, first side's move, second side's move)``, each
    move in its side's column (the side that made it: the game's ``turn``); where the sides
    alternate these are :func:`move_rows`, and a side that moves again starts a row of its own."""
    rows: list[list[str]] = []
    open_row = False
    for node in tree.mainline():
        mover = tree.mover(node)
        if mover == 0 or not open_row:
            rows.append([f"{tree.number(node)}.", "", ""] if mover == 0 else [f"{tree.number(node)}.", "...", ""])
        rows[-1][1 + mover] = marked(node)
        open_row = mover == 0
    return [(number, first, second) for number, first, second in rows]


def marked(node: MoveNode) -> str:
    """A move with its first mark: ``e5!?``."""
    marks = [NAG_GLYPHS[nag] for nag in node.nags if nag in NAG_GLYPHS][:1]
    return f"{node.move}{''.join(marks)}"


class _Lines:
    """Lines of text being laid out, and which node each stretch of them shows."""

    def __init__(self, width: int) -> None:
        self.width = max(width, 12)
        self.text = Text(no_wrap=True, overflow="crop")
        self.places: list[list[tuple[int, int, MoveNode]]] = []
        self.x = 0
        self.lines = 0

    def newline(self) -> None:
        if self.lines:
            self.text.append("\n")
        self.places.append([])
        self.lines += 1
        self.x = 0

    def add(self, text: str, style: str = "", node: MoveNode | None = None) -> None:
        if not self.lines:
            self.newline()
        if node is not None:
            self.places[-1].append((self.x, self.x + len(text), node))
        self.text.append(text, style=style)
        self.x += len(text)

    def flow(self, parts: list[tuple[str, MoveNode | None]], indent: int, style_of) -> None:
        """Words wrapped at the width, each line indented by ``indent``."""
        self.newline()
        self.add(" " * indent)
        for index, (word, node) in enumerate(parts):
            words = [word] if node is not None else word.split()  # a comment wraps inside, its line breaks too
            for piece_index, piece in enumerate(words):
                gap = 0 if (index == 0 and piece_index == 0) else 1
                if self.x + gap + len(piece) > self.width and self.x > indent:
                    self.newline()
                    self.add(" " * indent)
                    gap = 0
                self.add(" " * gap)
                self.add(piece, style_of(node), node)


class MoveList(VerticalScroll, can_focus=True):
    """The game's tree of moves; the cursor is on the move whose position the board shows."""

    DEFAULT_CSS = """
    MoveList {
        height: 1fr;
        min-height: 3;
        border: round $primary-darken-2;
        border-title-color: $text-muted;
        scrollbar-size-vertical: 1;
    }
    MoveList:focus {
        border: round $accent;
    }
    MoveList > #move-text {
        width: 1fr;
    }
    """

    BINDINGS = [
        Binding("left", "step(-1)", "Back", show=False),
        Binding("right", "step(1)", "Forward", show=False),
        Binding("up", "alternative(-1)", "Previous variation", show=False),
        Binding("down", "alternative(1)", "Next variation", show=False),
        Binding("home", "to_start", "Start", show=False),
        Binding("end", "to_end", "End of the line", show=False),
        Binding("enter", "play_here", "Play from here", show=False),
        Binding("escape", "leave", "Back to the game", show=False),
        Binding("u", "edit('promote')", "Promote", show=False),
        Binding("delete", "edit('delete')", "Delete", show=False),
        Binding("n", "edit('comment')", "Note"),
        Binding("exclamation_mark", "edit('nag')", "Mark"),
    ]

    #: Where a letter this widget does not bind goes: the screen's move box (:mod:`.typed`).
    typing_goes_to: TypingTarget | None = None

    def on_key(self, event: events.Key) -> None:
        """A letter the list does not bind goes to the move box (a move typed in review)."""
        forward_typing(self.typing_goes_to, event, _LIST_KEYS)

    class PlySelected(Message):
        """The player picked the position after ``ply`` moves of the line (0: the start)."""

        def __init__(self, ply: int) -> None:
            super().__init__()
            self.ply = ply

    class NodeSelected(Message):
        """The player picked a move off the line: its line becomes the one followed."""

        def __init__(self, node: MoveNode) -> None:
            super().__init__()
            self.node = node

    class Edit(Message):
        """Change the move shown: ``what`` is ``promote``, ``delete``, ``comment`` or ``nag``."""

        def __init__(self, node: MoveNode, what: str) -> None:
            super().__init__()
            self.node = node
            self.what = what

    class PlayHere(Message):
        """Enter: play on from the position shown."""

    class Leave(Message):
        """Escape: back to the game."""

    def __init__(self, players: tuple[str, str], *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.players = players
        self.border_title = "moves"
        self.game_tree = MoveTree()
        #: The line followed: the game's moves, as nodes of the tree.
        self.line: list[MoveNode] = []
        self.first_mover = 0
        #: The position shown: after this many moves of the line.
        self.ply = 0
        self._places: list[list[tuple[int, int, MoveNode]]] = []
        self._cursor_line = 0
        self._on_line: set[MoveNode] = set()

    def compose(self):
        yield Static(id="move-text", markup=False)

    @property
    def moves(self) -> list[str]:
        """The texts of the line's moves."""
        return [node.move or "" for node in self.line]

    # -- what is shown ---------------------------------------------------------------

    def show_tree(self, tree: MoveTree, line: Sequence[MoveNode], ply: int | None = None) -> None:
        """Show ``tree`` with ``line`` followed, the cursor after ``ply`` moves (``None``: its last)."""
        self.game_tree = tree
        self.line = list(line)
        self.first_mover = tree.first_mover
        self.ply = len(self.line) if ply is None else min(max(ply, 0), len(self.line))
        self._lay_out()
        self._scroll_to_cursor()

    def show_moves(self, moves: Sequence[str], first_mover: int, first_number: int = 1) -> None:
        """Show one line of ``moves`` (texts, in order), the last one selected."""
        tree = MoveTree.of_moves(moves, None, first_mover, first_number)
        self.show_tree(tree, tree.mainline())

    def get_row_at(self, row: int) -> tuple[str, str, str]:
        """The number and the two moves of the main line's row ``row``, as the list lays them out:
        a row per round of the sides, a side that moves again on a row of its own."""
        return tree_rows(self.game_tree)[row]

    def _shown(self) -> MoveNode | None:
        return self.line[self.ply - 1] if self.ply else None

    def _style(self, node: MoveNode | None) -> str:
        if node is None:
            return "italic green"
        if node is self._shown():
            return "reverse bold"
        return "bold" if node in self._on_line else "dim"

    def _lay_out(self) -> None:
        width = self.scrollable_content_region.width or 30
        lines = _Lines(width)
        tree = self.game_tree
        self._on_line = set(self.line)
        cell = cell_width([marked(node) for node in tree.mainline()])
        lines.add(" " * NUMBER + f"{self.players[0][:cell - 1]:<{cell}}{self.players[1][:cell - 1]}", "underline")
        if tree.comment:
            lines.flow([(tree.comment, None)], 1, self._style)
        cursor_line = 0
        row_open = False
        for node in tree.mainline():
            assert node.parent is not None
            mover = tree.mover(node)
            if mover == 0 or not row_open:
                lines.newline()
                lines.add(f"{tree.number(node)}.".rjust(NUMBER - 1) + " ")
                if mover == 1:
                    lines.add("…".ljust(cell))
            text = marked(node)
            lines.add(text, self._style(node), node)
            if node is self._shown():
                cursor_line = lines.lines - 1
            lines.add(" " * max(cell - len(text), 1))
            row_open = mover == 0
            alternatives = node.parent.variations[1:]
            if node.comment or alternatives:
                if node.comment:
                    lines.flow([(node.comment, None)], 2, self._style)
                for alternative in alternatives:
                    lines.flow(variation_parts(tree, alternative), 2, self._style)
                    if any(shown is self._shown() for shown in alternative.walk()):
                        cursor_line = next(index for index, places in enumerate(lines.places)
                                           if any(place[2] is self._shown() for place in places))
                row_open = False
        self._places = lines.places
        self._cursor_line = cursor_line
        self.query_one("#move-text", Static).update(lines.text)

    def _scroll_to_cursor(self) -> None:
        self.call_after_refresh(self._scroll_now)

    def _scroll_now(self) -> None:
        if self.ply == len(self.line):
            self.scroll_end(animate=False)
        else:
            self.scroll_to(y=max(self._cursor_line - 2, 0), animate=False)

    def on_resize(self) -> None:
        self._lay_out()

    # -- the cursor ---------------------------------------------------------------------

    def select_ply(self, ply: int) -> None:
        """Show the position after ``ply`` moves of the line and tell the screen."""
        self.ply = min(max(ply, 0), len(self.line))
        self._lay_out()
        self._scroll_to_cursor()
        self.post_message(self.PlySelected(self.ply))

    def select_node(self, node: MoveNode) -> None:
        """Show ``node``: a position of the line, or the line through it."""
        if node in self.line:
            self.select_ply(self.line.index(node) + 1)
        else:
            self.post_message(self.NodeSelected(node))

    # -- input ---------------------------------------------------------------------------

    def on_click(self, event: events.Click) -> None:
        text = self.query_one("#move-text", Static)
        offset = event.get_content_offset(text)
        if offset is None or not 0 <= offset.y < len(self._places):
            return
        event.stop()
        self.focus()
        for start, end, node in self._places[offset.y]:
            if start <= offset.x < end:
                self.select_node(node)
                return

    def action_step(self, plies: int) -> None:
        ply = self.ply + plies
        if ply > len(self.line) and self.line and self.line[-1].variations:
            self.select_node(self.line[-1].variations[0])  # the line goes on past the game's last move
        elif ply > len(self.line) and not self.line and self.game_tree.variations:
            self.select_node(self.game_tree.variations[0])
        else:
            self.select_ply(ply)

    def action_alternative(self, step: int) -> None:
        """The previous or next alternative to the move shown, else to the move after it."""
        shown = self._shown()
        following = self.line[self.ply] if self.ply < len(self.line) else None
        for move in (shown, following):
            if move is not None and len(move.siblings()) > 1:
                siblings = move.siblings()
                self.select_node(siblings[(siblings.index(move) + step) % len(siblings)])
                return
        self.app.bell()

    def action_to_start(self) -> None:
        self.select_ply(0)

    def action_to_end(self) -> None:
        end = self.line[-1].end() if self.line else self.game_tree.end()
        if end is not (self.line[-1] if self.line else self.game_tree):
            self.select_node(end)
        else:
            self.select_ply(len(self.line))

    def action_play_here(self) -> None:
        self.post_message(self.PlayHere())

    def action_leave(self) -> None:
        self.post_message(self.Leave())

    def action_edit(self, what: str) -> None:
        shown = self._shown()
        if shown is None:
            self.app.bell()
            return
        self.post_message(self.Edit(shown, what))


#: The keys the move list binds: every other printable key goes to the move box.
_LIST_KEYS = bound_keys(MoveList.BINDINGS)
