"""A recorded search as a tree widget, expanded lazily: the tree explorer's (and its comparison's) view.

:class:`SearchTreeView` shows one or more root searches of one position, under
each node its children in the order searched -- those its :class:`StepFilter`
keeps -- each labelled by :func:`~tui.views.tree_text.node_label` in the
current view (negamax or minimax), the principal variation bold, the nodes in
:attr:`SearchTreeView.marked` flagged ``◆`` (the comparison's "only this engine
visited"), and a faint line for the moves a node never searched.  The screen
reads the cursor's :class:`Entry`; it sets the attributes and calls
:meth:`SearchTreeView.relabel` or :meth:`SearchTreeView.load` again.

:class:`ComparedTree` is a second engine's tree of the same position under a
title, shown beside the first (the explorer's side by side).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static, Tree
from textual.widgets.tree import TreeNode as WidgetNode

from engines.tree import TreeNode
from engines.tree.compare import Comparison
from engines.tree.export import NULL_MOVE, line_position, pv_nodes
from engines.tree.steps import ALL_STEPS, StepFilter, find_line, shown_children
from engines.tree.views import NEGAMAX, View
from games import Game

from ...views.tree_text import node_label, unsearched_label

__all__ = ["Entry", "SearchTreeView", "ComparedTree", "MARK"]

#: What flags a node only one of two compared engines visited.
MARK = "◆"


@dataclass
class Entry:
    """What a line of the tree widget stands for: a search node and the line to it
    (``None`` for the faint line of moves never searched)."""

    node: TreeNode | None
    line: tuple[TreeNode, ...]
    root: int
    filled: bool = False


class SearchTreeView(Tree[Entry]):
    """The root searches of one position as a lazily expanded tree (see the module doc)."""

    def __init__(self, label: str, *, id: str | None = None) -> None:
        super().__init__(label, id=id)
        self.show_root = False
        self.game: Game | None = None
        self.roots: list[TreeNode] = []
        self.view: View = NEGAMAX
        self.shown_filter: StepFilter = ALL_STEPS
        #: Search nodes drawn bold (the principal variations) and flagged with :data:`MARK`.
        self.bold: set[int] = set()
        self.marked: set[int] = set()
        #: Widget nodes by the search node they show (those expanded so far).
        self.shown: dict[int, WidgetNode[Entry]] = {}
        #: Called with the search node the cursor is being moved to by the program (not the player).
        self.on_select: Callable[[TreeNode], None] | None = None

    def load(self, game: Game, roots: Sequence[TreeNode], chosen: int) -> WidgetNode[Entry]:
        """Show ``roots`` (searches of ``game``'s position), root search ``chosen`` open; its item."""
        self.game = game
        self.roots = list(roots)
        self.bold = {id(node) for root in roots for node in pv_nodes(root)}
        self.clear()
        self.shown.clear()
        for index, root in enumerate(roots):
            item = self.root.add(self._label(root, None), data=Entry(root, (), index),
                                 allow_expand=bool(root.children))
            self.shown[id(root)] = item
        item = self.shown[id(roots[chosen])]
        self.fill(item)
        item.expand()
        return item

    def reload(self) -> WidgetNode[Entry] | None:
        """Show the same roots again (after the filter changed), the cursor's line opened as far as
        the filter keeps it; the item it lands on."""
        if self.game is None or not self.roots:
            return None
        entry = self.cursor_node.data if self.cursor_node is not None else None
        item = self.load(self.game, self.roots, entry.root if entry is not None else 0)
        if entry is not None:
            item = self.reveal(entry.root, entry.line, partial=True) or item
        return item

    def _label(self, node: TreeNode, move: str | None) -> Text:
        text = Text(node_label(node, move, self.view), style="bold" if id(node) in self.bold else "")
        text.highlight_regex(r"✂ \S+( [αβ]-cut)?", "red")
        if id(node) in self.marked:
            text = Text.assemble((f"{MARK} ", "bold yellow"), text)
        return text

    def relabel(self) -> None:
        """Write every shown node's label again (the view or the marks changed)."""
        if self.game is None:
            return
        for item in self.shown.values():
            entry = item.data
            if entry is None or entry.node is None:
                continue
            move = None
            if entry.line:
                last = entry.line[-1]
                before = line_position(self.game, entry.line[:-1])[0]
                move = NULL_MOVE if last.null else before.format_move(last.move)
            item.set_label(self._label(entry.node, move))

    def fill(self, item: WidgetNode[Entry]) -> None:
        """Add the children of ``item``'s search node that the filter keeps (once)."""
        entry = item.data
        if entry is None or entry.node is None or entry.filled or self.game is None:
            return
        entry.filled = True
        game = line_position(self.game, entry.line)[0]
        for child in shown_children(entry.node, self.shown_filter, self.bold):
            move = NULL_MOVE if child.null else game.format_move(child.move)
            added = item.add(self._label(child, move), data=Entry(child, entry.line + (child,), entry.root),
                             allow_expand=bool(shown_children(child, self.shown_filter, self.bold)))
            self.shown[id(child)] = added
        rest = unsearched_label(entry.node)
        if rest is not None:
            item.add_leaf(Text(rest, style="dim italic"), data=Entry(None, entry.line, entry.root))

    def _on_tree_node_expanded(self, event: Tree.NodeExpanded[Entry]) -> None:
        self.fill(event.node)

    def reveal(self, root: int, line: Sequence[TreeNode], *, partial: bool = False) -> WidgetNode[Entry] | None:
        """Open the tree down to the end of ``line`` in root search ``root`` and put the cursor there;
        ``partial``: as far down as the filter shows it (else ``None`` where it hides a node)."""
        item = self.shown[id(self.roots[root])]
        for node in line:
            self.fill(item)
            item.expand()
            below = self.shown.get(id(node))
            if below is None:
                if not partial:
                    return None
                break
            item = below
        self.select(item)
        return item

    def select(self, item: WidgetNode[Entry]) -> None:
        """Put the cursor on ``item`` once the tree has laid out the lines it just opened."""
        if item.data is not None and item.data.node is not None and self.on_select is not None:
            self.on_select(item.data.node)

        def select() -> None:
            self.move_cursor(item)
            self.scroll_to_node(item)

        self.call_after_refresh(select)

    @property
    def entry(self) -> Entry | None:
        """The cursor's entry."""
        node = self.cursor_node
        return node.data if node is not None else None


class ComparedTree(Vertical):
    """A second engine's search of the same position, its own nodes flagged (see the module doc)."""

    def compose(self) -> ComposeResult:
        yield Static("", id="compare-title")
        yield SearchTreeView("compared", id="compare-tree")

    def show(self, game: Game, spec: str, root: TreeNode, comparison: Comparison, view: View,
             shown: StepFilter) -> None:
        """Show ``root`` (``comparison``'s ``b``) in ``view`` through ``shown``, flagging the lines only it visited."""
        widget = self.query_one(SearchTreeView)
        widget.view = view
        widget.shown_filter = shown
        widget.marked = {id(comparison.b[line]) for line in comparison.only_b}
        widget.select(widget.load(game, [root], 0))
        self.query_one("#compare-title", Static).update(
            f"{spec}: {root.size():,} nodes, {MARK} {len(comparison.only_b):,} it alone visited")

    def follow(self, texts: Sequence[str]) -> None:
        """Put the cursor on the line of moves ``texts`` (as far down as this tree has it)."""
        widget = self.query_one(SearchTreeView)
        if widget.game is None or not widget.roots:
            return
        try:
            line = find_line(widget.game, widget.roots[0], " , ".join(texts))
        except ValueError:
            return
        widget.reveal(0, line, partial=True)
