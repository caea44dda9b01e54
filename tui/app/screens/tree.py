"""The search tree explorer and the alpha-beta stepper: what a search did, node by node.

:class:`TreeScreen` records the search of one position by an engine of the
alpha-beta family (:func:`engines.tree.record_tree`, in a worker thread, at
most :data:`BUDGET` nodes) and shows it:

- the **tree**, expanded lazily: one top node per root search (iterative
  deepening's depths), under each node its children in the order searched,
  each labelled with its move, its value and bound (``=`` exact, ``≥`` at
  least, ``≤`` at most) and how it ended (``✂ 2``: a cutoff by the second
  move; ``TT``: the transposition table answered), then a faint line for the
  moves never searched;
- the **board** at the selected node's position, the move into it marked;
- the node's **details** (its line, the window on entry, the value, why it
  ended, the moves searched, kept and dropped) and the root search's
  **per-ply figures** with the cutoffs by the move that cut as a chart;
- **step mode** (``s``): the search replayed one node at a time, → forward and
  ← back, each step entering a node with its window or leaving it with its
  value, a cutoff marked ``✂``.

The engine box at the top takes any spec of the family; Enter records again.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, Static, Tree
from textual.widgets.tree import TreeNode as WidgetNode

from engines import SpecError, parse_engine_spec
from engines.spec import format_spec
from engines.search.recorder import SearchTree
from engines.tree import TreeNode, record_tree
from engines.tree.export import NULL_MOVE, line_position, pv_nodes, unsearched_moves
from engines.tree.steps import Step, step_text, steps
from games import Game, GameError

from ...settings import Settings
from ...views.tree_text import node_details, node_label, stats_lines, unsearched_label
from ..widgets.board import BoardView

__all__ = ["TreeScreen", "BUDGET", "DEFAULT_TREE_ENGINE", "tree_spec"]

#: The most nodes the explorer records.
BUDGET = 20_000
#: The engine recorded when the game gives none (small enough to step through).
DEFAULT_TREE_ENGINE = "alphabeta:depth=3"


#: Options of a player's spec the tree leaves out: a move played at random is not
#: searched, and helper processes' work is not in the tree.
UNRECORDED_OPTIONS = ("blunder", "workers")


def tree_spec(player: str) -> str:
    """The spec to record for a player's engine: its own, without :data:`UNRECORDED_OPTIONS`
    (a spec that does not parse is returned as it is, for the screen to report)."""
    try:
        spec = parse_engine_spec(player)
    except SpecError:
        return player
    options = {key: value for key, value in spec.options.items() if key not in UNRECORDED_OPTIONS}
    return format_spec(spec.name, options)


@dataclass
class Entry:
    """What a line of the tree widget stands for: a search node and the line to it
    (``None`` for the faint line of moves never searched)."""

    node: TreeNode | None
    line: tuple[TreeNode, ...]
    root: int
    filled: bool = False


class TreeScreen(Screen[None]):
    """The recorded search of one position (see the module doc)."""

    CSS_PATH = "tree.tcss"
    BINDINGS = [
        Binding("escape", "close", "Game"),
        Binding("p", "follow_pv", "PV"),
        Binding("c", "next_cut", "Next cut"),
        Binding("minus", "collapse", "Collapse"),
        Binding("s", "step_mode", "Steps"),
        # Priority: the tree would scroll sideways with them.
        Binding("right", "step(1)", "Next", priority=True),
        Binding("left", "step(-1)", "Prev", priority=True),
        Binding("e", "edit_engine", "Engine"),
        Binding("f", "flip", "Flip", show=False),
    ]

    def __init__(self, game: Game, spec: str, *, about: str = "", played: str | None = None,
                 ascii: bool = False, flipped: bool = False) -> None:
        super().__init__()
        self.game = game.copy()
        self.spec = spec
        self.about = about
        #: The move the game's engine played here (the tree is a new search of the position).
        self.played = played
        self.ascii = ascii
        self.flipped = flipped
        self.recorded: SearchTree | None = None
        self.halt = threading.Event()
        #: Widget nodes by the search node they show (those expanded so far).
        self.shown: dict[int, WidgetNode[Entry]] = {}
        self.bold: set[int] = set()
        self.current_root = 0
        self.trail: list[Step] | None = None
        #: Search nodes the screen itself is moving the cursor to (their highlights are not the player's).
        self._selecting: set[int] = set()
        self.step_index = 0

    def compose(self) -> ComposeResult:
        with Horizontal(id="tree-top"):
            yield Static("engine", id="tree-engine-label")
            yield Input(self.spec, id="tree-engine", compact=True)
        yield Static("", id="tree-status")
        with Horizontal(id="tree-body"):
            with Vertical(id="tree-left"):
                settings = getattr(self.app, "settings", None) or Settings()
                yield BoardView(self.game.NAME, ascii=self.ascii, flipped=self.flipped, id="tree-board",
                                **settings.board_options())
                yield Static("", id="tree-step")
                with VerticalScroll(id="tree-details-box"):
                    yield Static("", id="tree-details")
            with Vertical(id="tree-right"):
                yield Tree[Entry]("search", id="search-tree")
                with VerticalScroll(id="tree-stats-box"):
                    yield Static("", id="tree-stats")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#tree-step").display = False
        self.query_one("#tree-board", BoardView).show(self.game)
        widget = self.query_one("#search-tree", Tree)
        widget.show_root = False
        widget.focus()
        self.record()

    # -- recording -------------------------------------------------------------------

    def record(self, spec: str | None = None) -> None:
        """Record ``spec`` (default: the tree's own) on the position; it becomes the tree's when done."""
        spec = spec or self.spec
        self.halt.set()  # a recording still running is not wanted any more
        self.halt = threading.Event()
        self.say(f"recording {spec} on this position ({self.about or 'the position shown'}), "
                 f"at most {BUDGET:,} nodes…")
        self._record(spec, self.game.copy(), self.halt)

    @work(thread=True, exclusive=True, group="tree")
    def _record(self, spec: str, game: Game, stop: threading.Event) -> None:
        try:
            result, tree = record_tree(spec, game, budget=BUDGET, stop=stop)
        except (SpecError, GameError, ValueError) as error:
            if not stop.is_set():
                self.app.call_from_thread(self._refused, spec, str(error))
            return
        if not stop.is_set():
            self.app.call_from_thread(self._recorded, spec, tree, result.stats.best)

    def _recorded(self, spec: str, tree: SearchTree, best: str | None) -> None:
        self.spec = spec
        self.query_one("#tree-engine", Input).value = spec
        self.query_one("#search-tree", Tree).focus()
        self.recorded = tree
        self.trail = None
        self.refresh_bindings()
        self.query_one("#tree-step").display = False
        self.query_one("#tree-board", BoardView).show(self.game)
        widget = self.query_one("#search-tree", Tree)
        widget.clear()
        self.shown.clear()
        if not tree.roots:
            self.say("nothing was recorded: the search stopped at once", True)
            return
        self.bold = {id(node) for root in tree.roots for node in pv_nodes(root)}
        chosen = next(i for i, root in enumerate(tree.roots) if root is tree.root)
        for index, root in enumerate(tree.roots):
            item = widget.root.add(self._label(root, None), data=Entry(root, (), index),
                                   allow_expand=bool(root.children))
            self.shown[id(root)] = item
        state = {"budget": f"; stopped at {BUDGET:,} nodes", "search": "; its last depth stopped short by "
                 "its own limit", None: ""}[tree.stopped_by]
        played = ""
        if self.played is not None and best != self.played:
            played = (f" (the game's engine played {self.played}: a table warm from its earlier moves, "
                      "or its clock, led it elsewhere; this is a new search of the position)")
        self.say(f"{spec}: {tree.size():,} nodes in {len(tree.roots)} root search"
                 f"{'es' if len(tree.roots) != 1 else ''}{state} · best {best or '-'}{played} · "
                 "↑↓ move, space opens, p follows the PV, c the next cutoff, s steps")
        chosen_item = self.shown[id(tree.roots[chosen])]
        self._fill(chosen_item)
        chosen_item.expand()
        self._show_root(chosen)
        self._show_node(tree.roots[chosen], ())  # the cursor may stay on the line it was on
        self._select(chosen_item)

    def _refused(self, spec: str, error: str) -> None:
        """A spec that cannot be recorded: said, and the box keeps it to be mended (Esc: the tree's)."""
        self.say(f"cannot record {spec!r}: {error} — mend it and Enter, or Esc keeps {self.spec!r}", True)
        self.query_one("#tree-engine", Input).focus()

    def say(self, text: str, error: bool = False) -> None:
        status = self.query_one("#tree-status", Static)
        status.update(Text(text, style="bold red" if error else ""))

    # -- the tree widget ---------------------------------------------------------------

    def _position(self, line: tuple[TreeNode, ...]) -> Game:
        return line_position(self.game, line)[0]

    def _label(self, node: TreeNode, move: str | None) -> Text:
        text = Text(node_label(node, move), style="bold" if id(node) in self.bold else "")
        text.highlight_regex(r"✂ \S+", "red")
        return text

    def _fill(self, item: WidgetNode[Entry]) -> None:
        """Add the children of ``item``'s search node (once)."""
        entry = item.data
        if entry is None or entry.node is None or entry.filled:
            return
        entry.filled = True
        game = self._position(entry.line)
        for child in entry.node.children:
            move = NULL_MOVE if child.null else game.format_move(child.move)
            added = item.add(self._label(child, move), data=Entry(child, entry.line + (child,), entry.root),
                             allow_expand=bool(child.children))
            self.shown[id(child)] = added
        rest = unsearched_label(entry.node)
        if rest is not None:
            item.add_leaf(Text(rest, style="dim italic"), data=Entry(None, entry.line, entry.root))

    @on(Tree.NodeExpanded, "#search-tree")
    def expanded(self, event: Tree.NodeExpanded[Entry]) -> None:
        self._fill(event.node)

    @on(Tree.NodeHighlighted, "#search-tree")
    def highlighted(self, event: Tree.NodeHighlighted[Entry]) -> None:
        entry = event.node.data
        if entry is None:
            return
        ours = entry.node is not None and id(entry.node) in self._selecting
        if ours:
            self._selecting.discard(id(entry.node))
        elif self.trail is not None and entry.node is not self.trail[self.step_index].node:
            self._leave_steps("step mode off: you moved in the tree (s starts it again)")
        if entry.root != self.current_root:
            self._show_root(entry.root)
        if entry.node is not None:
            self._show_node(entry.node, entry.line)
        else:
            self._show_unsearched(entry.line)

    def _show_unsearched(self, line: tuple[TreeNode, ...]) -> None:
        """The details of a node's moves never searched: their names."""
        assert self.recorded is not None
        node = line[-1] if line else self.recorded.roots[self.current_root]
        game, texts = line_position(self.game, line)
        names = [game.format_move(move) for move in unsearched_moves(game, node)]
        self.query_one("#tree-details", Static).update(
            f"never searched below {' '.join(texts) or 'the root'}:\n{unsearched_label(node)}\n"
            + "  ".join(names))

    def _show_root(self, index: int) -> None:
        assert self.recorded is not None
        self.current_root = index
        root = self.recorded.roots[index]
        self.query_one("#tree-stats", Static).update("\n".join(stats_lines(root)))

    def _show_node(self, node: TreeNode, line: tuple[TreeNode, ...]) -> None:
        board = self.query_one("#tree-board", BoardView)
        game, texts = line_position(self.game, line[:-1])
        if line:
            texts.append(NULL_MOVE if line[-1].null else game.format_move(line[-1].move))
        if line and not line[-1].null:
            start, end = board.painter.move_squares(game, line[-1].move)
            game.play(line[-1].move)
            board.show(game)
            board.mark(start, (end,))
        else:
            if line:
                game.play_null()
            board.show(game)
            board.mark(None, ())
        self.query_one("#tree-details", Static).update("\n".join(node_details(node, texts)))

    def _reveal(self, root: int, line: tuple[TreeNode, ...]) -> None:
        """Expand the widget down to the end of ``line`` in root search ``root`` and select it."""
        assert self.recorded is not None
        item = self.shown[id(self.recorded.roots[root])]
        for node in line:
            self._fill(item)
            item.expand()
            item = self.shown[id(node)]
        self._select(item)

    def _select(self, item: WidgetNode[Entry]) -> None:
        """Put the cursor on ``item`` once the tree has laid out the lines it just opened."""
        widget = self.query_one("#search-tree", Tree)
        if item.data is not None and item.data.node is not None:
            self._selecting.add(id(item.data.node))  # its highlight is ours, not the player's

        def select() -> None:
            widget.move_cursor(item)
            widget.scroll_to_node(item)

        self.call_after_refresh(select)

    def _selected(self) -> Entry | None:
        widget = self.query_one("#search-tree", Tree)
        node = widget.cursor_node
        return node.data if node is not None else None

    # -- commands ------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "step" and (self.trail is None or isinstance(self.focused, Input)):
            return False
        if action in ("follow_pv", "next_cut", "collapse", "step_mode") and self.recorded is None:
            return False
        if action in ("follow_pv", "collapse") and self.trail is not None:
            return False  # step mode walks the search's own order
        return True

    def action_close(self) -> None:
        if isinstance(self.focused, Input):
            self.focused.value = self.spec  # what the tree shows
            self.query_one("#search-tree", Tree).focus()
            return
        self.halt.set()
        self.dismiss(None)

    def action_edit_engine(self) -> None:
        self.query_one("#tree-engine", Input).focus()

    def action_flip(self) -> None:
        board = self.query_one("#tree-board", BoardView)
        board.flipped = not board.flipped

    @on(Input.Submitted, "#tree-engine")
    def engine_given(self, event: Input.Submitted) -> None:
        spec = event.value.strip()
        if not spec:
            self.say("give an engine spec, e.g. alphabeta:depth=3 or minimax:depth=2", True)
            return
        self.record(spec)

    def action_follow_pv(self) -> None:
        entry = self._selected()
        if entry is None or entry.node is None:
            return
        line = pv_nodes(entry.node)
        if not line:
            self.say("no principal variation below this node (its value is a bound, or it is a leaf)")
            return
        self._reveal(entry.root, entry.line + (line[0],))

    def action_next_cut(self) -> None:
        if self.trail is not None:
            for index in range(self.step_index + 1, len(self.trail)):
                if self.trail[index].cut:
                    self._go_step(index)
                    return
            self.say("no cutoff after this step")
            return
        entry = self._selected()
        if entry is None or self.recorded is None:
            return
        root = self.recorded.roots[entry.root]
        found = False
        stack: list[tuple[TreeNode, tuple[TreeNode, ...]]] = [(root, ())]
        while stack:  # pre-order from the selected node on
            node, line = stack.pop()
            if found and node.end == "cutoff":
                self._reveal(entry.root, line)
                return
            if entry.node is not None and node is entry.node:
                found = True
            if entry.node is None and line == entry.line:
                found = True
            stack.extend((child, line + (child,)) for child in reversed(node.children))
        self.say("no cutoff after this node in this root search")

    def action_collapse(self) -> None:
        widget = self.query_one("#search-tree", Tree)
        for item in widget.root.children:
            item.collapse_all()
        entry = self._selected()
        if entry is not None and self.recorded is not None:
            self._select(self.shown[id(self.recorded.roots[entry.root])])

    def action_step_mode(self) -> None:
        if self.trail is not None:
            self._leave_steps("step mode off")
            return
        if self.recorded is None:
            return
        root = self.recorded.roots[self.current_root]
        self.trail = steps(root)
        self.query_one("#tree-step", Static).display = True
        self.refresh_bindings()
        self._go_step(0)

    def _leave_steps(self, why: str) -> None:
        self.trail = None
        self.query_one("#tree-step", Static).display = False
        self.refresh_bindings()
        self.say(why)

    def action_step(self, delta: int) -> None:
        if self.trail is None:
            return
        self._go_step(max(0, min(len(self.trail) - 1, self.step_index + delta)))

    def _go_step(self, index: int) -> None:
        assert self.trail is not None
        self.step_index = index
        event = self.trail[index]
        self._reveal(self.current_root, event.line)
        texts = line_position(self.game, event.line)[1]
        mark = "  ✂ CUT" if event.cut else ""
        text = Text(f"step {index + 1:,}/{len(self.trail):,}{mark}\n{step_text(event, texts)}")
        if event.cut:
            text.stylize("bold red", 0, text.plain.index("\n"))
        self.query_one("#tree-step", Static).update(text)
        root = self.recorded.roots[self.current_root] if self.recorded is not None else None
        self.say(f"step mode: {len(self.trail):,} steps of the depth {root.depth if root else '?'} search · "
                 "→ next, ← previous, c the next cutoff, s leaves")
