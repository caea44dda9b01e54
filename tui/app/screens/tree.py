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
  value, a cutoff marked ``✂``, and how many nodes alpha-beta has entered so far
  against plain minimax's count on the same position to the same depth;
- **the view** (``v``): negamax (the search's own values, the default) or
  minimax (every value the root player's, MAX and MIN nodes, the window as
  ``α ≤ v ≤ β``, α-cuts and β-cuts) -- :mod:`engines.tree.views`;
- **filters** for the tree and the steps (``1`` hides the quiescence search,
  ``2`` folds re-searches, ``3`` keeps the principal line only), jumps to the
  next cutoff (``c``), table answer (``t``) or re-search (``a``), and ``/`` to
  find a node by its path of moves;
- **side by side** (``x``): a second engine's tree of the same position beside
  the first, the nodes only one of them visited flagged ``◆``.

The engine box at the top takes any spec of the family (Enter records again),
and ``m`` opens a short list of engines worth stepping through
(:data:`PRESETS`).
"""

from __future__ import annotations

import threading

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, Select, Static
from textual.widgets.tree import TreeNode as WidgetNode

from engines import SpecError, parse_engine_spec
from engines.spec import format_spec
from engines.search.recorder import SearchTree
from engines.tree import TreeNode, record_tree
from engines.tree.compare import compare_trees
from engines.tree.export import NULL_MOVE, line_position, unsearched_moves
from engines.tree.stats import main_nodes, minimax_nodes, visit_order
from engines.tree.steps import JUMPS, Step, StepFilter, find_line, next_step, step_text, steps
from engines.tree.views import MINIMAX, NEGAMAX
from games import Game, GameError

from ...settings import Settings
from ...views.tree_text import node_details, played_reason, saving_text, stats_lines, unsearched_label
from ..keymap import screen_bindings
from ..widgets.board import BoardView
from ..widgets.search_tree import MARK, ComparedTree, Entry, SearchTreeView

__all__ = ["TreeScreen", "BUDGET", "DEFAULT_TREE_ENGINE", "PRESETS", "tree_spec"]

#: The most nodes the explorer records.
BUDGET = 20_000
#: The engine recorded when the game gives none (small enough to step through).
DEFAULT_TREE_ENGINE = "alphabeta:depth=3"
#: Engines worth stepping through, in words (``m``): the learnable route first.
PRESETS: tuple[tuple[str, str], ...] = (
    ("alpha-beta, depth 2", "alphabeta:depth=2"),
    ("minimax, depth 2", "minimax:depth=2"),
    ("alpha-beta, depth 3", "alphabeta:depth=3"),
    ("minimax, depth 3", "minimax:depth=3"),
    ("fail-hard alpha-beta, depth 3", "alphabeta-hard:depth=3"),
    ("alpha-beta, no table, depth 3", "alphabeta:depth=3,tt=off"),
    ("PVS, depth 3", "pvs:depth=3"),
)


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


class TreeScreen(Screen[None]):
    """The recorded search of one position (see the module doc)."""

    CSS_PATH = "tree.tcss"
    #: The keymap's rows of the search tree (letters: it has no text box), each running its action here;
    #: the arrows come first, or the tree would scroll sideways with them.
    BINDINGS = screen_bindings(
        "TreeScreen", ("left", "right"), back="close", next_cut="jump('cutoff')", next_tt="jump('table answer')",
        next_again="jump('re-search')", right="step(1)", left="step(-1)", switch_view="toggle_view",
        hide_quiescence="toggle_filter('quiescence')", fold_researches="toggle_filter('researches')",
        principal_only="toggle_filter('principal')", find_path="ask('path')",
    )

    def __init__(self, game: Game, spec: str, *, about: str = "", played: str | None = None,
                 ascii: bool = False, flipped: bool = False) -> None:
        super().__init__()
        self.game = game.copy()
        self.spec = spec
        #: The spec the screen opened with: the game's engine's when ``played`` is given.
        self.game_spec = spec
        self.about = about
        #: The move the game's engine played here (the tree is a new search of the position).
        self.played = played
        self.ascii = ascii
        self.flipped = flipped
        self.recorded: SearchTree | None = None
        self.halt = threading.Event()
        self.current_root = 0
        self.trail: list[Step] | None = None
        #: Search nodes the screen itself is moving the cursor to (their highlights are not the player's).
        self._selecting: set[int] = set()
        #: Whether the tree widget is being refilled (a filter changed): its highlights until ours are not the player's.
        self._settling = False
        self.step_index = 0
        self.view = NEGAMAX
        self.filter = StepFilter()
        #: Plain minimax's nodes on the position by depth (``None``: more than it counts), once counted.
        self.minimax: dict[int, int | None] = {}
        self.order: dict[int, int] = {}
        #: What the ask box is asking for: ``path`` or ``compare``.
        self.asking = "path"
        #: The compared engine's spec and recording, when side by side.
        self.other: tuple[str, SearchTree] | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(id="tree-top"):
            yield Static("engine", id="tree-engine-label")
            yield Input(self.spec, id="tree-engine", compact=True)
            yield Select([(label, spec) for label, spec in PRESETS], prompt="engines (m)", id="tree-presets",
                         compact=True)
        yield Static("", id="tree-status")
        yield Input("", id="tree-ask", compact=True)
        with Horizontal(id="tree-body"):
            with Vertical(id="tree-left"):
                settings = getattr(self.app, "settings", None) or Settings()
                yield BoardView(self.game.NAME, ascii=self.ascii, flipped=self.flipped, id="tree-board",
                                **settings.board_options())
                yield Static("", id="tree-step")
                with VerticalScroll(id="tree-details-box"):
                    yield Static("", id="tree-details")
            with Vertical(id="tree-right"):
                with Horizontal(id="tree-trees"):
                    yield SearchTreeView("search", id="search-tree")
                    yield ComparedTree(id="compare-box")
                with VerticalScroll(id="tree-stats-box"):
                    yield Static("", id="tree-stats")
        yield Footer()

    @property
    def tree_view(self) -> SearchTreeView:
        return self.query_one("#search-tree", SearchTreeView)

    def on_mount(self) -> None:
        for hidden in ("#tree-step", "#tree-ask", "#compare-box"):
            self.query_one(hidden).display = False
        self.query_one("#tree-board", BoardView).show(self.game)
        self.tree_view.on_select = lambda node: self._selecting.add(id(node))
        self.tree_view.focus()
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
    def _record(self, spec: str, game: Game, stop: threading.Event, compared: bool = False) -> None:
        try:
            result, tree = record_tree(spec, game, budget=BUDGET, stop=stop)
        except (SpecError, GameError, ValueError) as error:
            if not stop.is_set():
                self.app.call_from_thread(self._refused, spec, str(error), compared)
            return
        if stop.is_set():
            return
        if compared:
            self.app.call_from_thread(self._compared, spec, tree)
            return
        self.app.call_from_thread(self._recorded, spec, tree, result.stats.best)
        depths = sorted({root.depth for root in tree.roots})
        counts: dict[int, int | None] = {}
        for depth in depths:  # the shallow first: past the cap, deeper ones are too
            counts[depth] = None if counts and None in counts.values() else minimax_nodes(game, depth)
            if stop.is_set():
                return
        self.app.call_from_thread(self._counted, tree, counts)

    def _counted(self, tree: SearchTree, counts: dict[int, int | None]) -> None:
        if tree is self.recorded:
            self.minimax = counts
            self._show_root(self.current_root)
            if self.trail is not None:
                self._go_step(self.step_index)

    def _recorded(self, spec: str, tree: SearchTree, best: str | None) -> None:
        self.spec = spec
        self.query_one("#tree-engine", Input).value = spec
        self.tree_view.focus()
        self.recorded = tree
        self.minimax = {}
        self.trail = None
        self.refresh_bindings()
        self.query_one("#tree-step").display = False
        self.query_one("#tree-board", BoardView).show(self.game)
        widget = self.tree_view
        if not tree.roots:
            widget.clear()
            self.say("nothing was recorded: the search stopped at once", True)
            return
        chosen = next(i for i, root in enumerate(tree.roots) if root is tree.root)
        chosen_item = widget.load(self.game, tree.roots, chosen)
        state = {"budget": f"; stopped at {BUDGET:,} nodes", "search": "; its last depth stopped short by "
                 "its own limit", None: ""}[tree.stopped_by]
        played = ""
        if self.played is not None and best != self.played:
            played = (f" (the game's engine played {self.played}: {played_reason(self.game_spec, spec)}; "
                      "this is a new search of the position)")
        self.say(f"{spec}: {tree.size():,} nodes in {len(tree.roots)} root search"
                 f"{'es' if len(tree.roots) != 1 else ''}{state} · best {best or '-'}{played} · "
                 "↑↓ move, space opens, p follows the PV, c the next cutoff, s steps, v minimax view")
        self._show_root(chosen)
        self._show_node(tree.roots[chosen], ())  # the cursor may stay on the line it was on
        widget.select(chosen_item)
        if self.other is not None:
            self._compared(*self.other)

    def _refused(self, spec: str, error: str, compared: bool = False) -> None:
        """A spec that cannot be recorded: said, and the box keeps it to be mended (Esc: the tree's)."""
        if compared:
            self.say(f"cannot record {spec!r} to compare: {error} — mend it and Enter, or Esc", True)
            self.query_one("#tree-ask", Input).focus()
            return
        self.say(f"cannot record {spec!r}: {error} — mend it and Enter, or Esc keeps {self.spec!r}", True)
        self.query_one("#tree-engine", Input).focus()

    def say(self, text: str, error: bool = False) -> None:
        status = self.query_one("#tree-status", Static)
        status.update(Text(text, style="bold red" if error else ""))

    # -- the tree widget ---------------------------------------------------------------

    @on(SearchTreeView.NodeHighlighted, "#search-tree")
    def highlighted(self, event: SearchTreeView.NodeHighlighted[Entry]) -> None:
        entry = event.node.data
        if entry is None:
            return
        ours = entry.node is not None and id(entry.node) in self._selecting
        if ours:
            self._selecting.discard(id(entry.node))
            self._settling = False
        elif self._settling:
            pass  # the tree is being built again under the cursor: not the player's move
        elif self.trail is not None and entry.node is not self.trail[self.step_index].node:
            self._leave_steps("step mode off: you moved in the tree (s starts it again)")
        if entry.root != self.current_root:
            self._show_root(entry.root)
        if entry.node is not None:
            self._show_node(entry.node, entry.line)
            self._follow_in_compared(entry)
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
        self.order = visit_order(root)
        lines = stats_lines(root)
        if root.depth in self.minimax:
            lines.append(saving_text(main_nodes(root), None, root.depth, self.minimax[root.depth]))
        self.query_one("#tree-stats", Static).update("\n".join(lines))

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
        self.query_one("#tree-details", Static).update("\n".join(node_details(node, texts, self.view)))

    def _reveal(self, root: int, line: tuple[TreeNode, ...]) -> bool:
        """Open the tree down to the end of ``line`` in root search ``root`` and select it
        (``False``: the filter hides it)."""
        return self.tree_view.reveal(root, line) is not None

    def _selected(self) -> Entry | None:
        return self.tree_view.entry

    # -- commands ------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "step" and (self.trail is None or isinstance(self.focused, Input)):
            return False
        if action in ("follow_pv", "jump", "collapse", "step_mode", "ask", "compare") and self.recorded is None:
            return False
        if action in ("follow_pv", "collapse") and self.trail is not None:
            return False  # step mode walks the search's own order
        return True

    def action_close(self) -> None:
        if isinstance(self.focused, Input):
            if self.focused.id == "tree-engine":
                self.focused.value = self.spec  # what the tree shows
            else:
                self.focused.display = False
            self.tree_view.focus()
            return
        self.halt.set()
        self.dismiss(None)

    def action_edit_engine(self) -> None:
        self.query_one("#tree-engine", Input).focus()

    def action_presets(self) -> None:
        select = self.query_one("#tree-presets", Select)
        select.focus()
        select.expanded = True

    @on(Select.Changed, "#tree-presets")
    def preset_chosen(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self.record(event.value)

    def action_flip(self) -> None:
        board = self.query_one("#tree-board", BoardView)
        board.flipped = not board.flipped

    @on(Input.Submitted, "#tree-engine")
    def engine_given(self, event: Input.Submitted) -> None:
        spec = event.value.strip()
        if not spec:
            self.say("give an engine spec, e.g. alphabeta:depth=3 or minimax:depth=2 (m lists a few)", True)
            return
        self.record(spec)

    def action_follow_pv(self) -> None:
        entry = self._selected()
        if entry is None or entry.node is None:
            return
        line = [node for node in entry.node.children if id(node) in self.tree_view.bold][:1]
        if not line:
            self.say("no principal variation below this node (its value is a bound, or it is a leaf)")
            return
        self._reveal(entry.root, entry.line + (line[0],))

    def action_jump(self, jump: str) -> None:
        """The next cutoff, table answer or re-search (:data:`~engines.tree.steps.JUMPS`): in step mode
        the next such step, else the next such node after the selected one (in the order searched)."""
        if self.trail is not None:
            index = next_step(self.trail, self.step_index, jump)
            if index is None:
                self.say(f"no {jump} after this step ({self.filter.describe()})")
            else:
                self._go_step(index)
            return
        entry = self._selected()
        if entry is None or self.recorded is None:
            return
        trail = steps(self.recorded.roots[entry.root], self.filter)
        here = next((step.index for step in trail if not step.leave
                     and (step.node is entry.node or (entry.node is None and step.line == entry.line))), 0)
        index = next_step(trail, here, jump)
        if index is None:
            self.say(f"no {jump} after this node in this root search ({self.filter.describe()})")
            return
        self._reveal(entry.root, trail[index].line)

    def action_collapse(self) -> None:
        widget = self.tree_view
        for item in widget.root.children:
            item.collapse_all()
        entry = self._selected()
        if entry is not None and self.recorded is not None:
            widget.select(widget.shown[id(self.recorded.roots[entry.root])])

    def action_toggle_view(self) -> None:
        self.view = MINIMAX if self.view == NEGAMAX else NEGAMAX
        for widget in self.query(SearchTreeView):
            widget.view = self.view
            widget.relabel()
        entry = self._selected()
        if entry is not None and entry.node is not None:
            self._show_node(entry.node, entry.line)
        if self.trail is not None:
            self._go_step(self.step_index)
        self.say("minimax view: every value the root player's, MAX and MIN nodes, α ≤ v ≤ β, α- and β-cuts"
                 if self.view == MINIMAX else "negamax view: every value for the side to move there")

    def action_toggle_filter(self, name: str) -> None:
        on_now = not getattr(self.filter, name) if name != "principal" else not self.filter.principal
        if name == "principal":
            self.filter = StepFilter(self.filter.quiescence, self.filter.researches, on_now)
        elif name == "quiescence":
            self.filter = StepFilter(on_now, self.filter.researches, self.filter.principal)
        else:
            self.filter = StepFilter(self.filter.quiescence, on_now, self.filter.principal)
        step = self.trail[self.step_index] if self.trail is not None else None
        self._settling = True
        for widget in reversed(self.query(SearchTreeView)):  # the compared tree's, then the tree's cursor
            widget.shown_filter = self.filter
            item = widget.reload()
        if step is not None and self.recorded is not None:
            self.trail = steps(self.recorded.roots[self.current_root], self.filter)
            self._go_step(self._nearest_step(step))
        elif item is not None and item.data is not None and item.data.node is not None:
            self._show_node(item.data.node, item.data.line)
        self.say(f"showing {self.filter.describe()} (1 quiescence, 2 re-searches, 3 the principal line)")

    def _nearest_step(self, step: Step) -> int:
        """The step of the new trail at ``step``'s node (or, filtered out, its nearest shown ancestor's)."""
        assert self.trail is not None
        where = {(id(event.node), event.leave): event.index for event in self.trail}
        if (id(step.node), step.leave) in where:
            return where[(id(step.node), step.leave)]
        for node in reversed(step.line[:-1]):
            if (id(node), False) in where:
                return where[(id(node), False)]
        return 0

    def action_ask(self, what: str) -> None:
        """Open the ask box: a path of moves to find (``path``) or an engine to compare (``compare``)."""
        self.asking = what
        box = self.query_one("#tree-ask", Input)
        box.display = True
        if what == "path":
            box.value = ""
            self.say("find a node: type its path of moves from the root (e.g. the PV's first two), Enter; Esc closes")
        else:
            root = self.recorded.root if self.recorded is not None else None
            depth = root.depth if root is not None else 2
            small = (self.minimax.get(depth) or BUDGET + 1) <= BUDGET
            box.value = f"minimax:depth={depth}" if small else f"alphabeta:depth={depth},tt=off"
            self.say("side by side: the engine to record beside this one (any spec, e.g. minimax:depth=2), "
                     "Enter; Esc closes")
        box.focus()

    @on(Input.Submitted, "#tree-ask")
    def asked(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if self.asking == "compare":
            if text:
                self.say(f"recording {text} to compare, at most {BUDGET:,} nodes…")
                self._record(text, self.game.copy(), self.halt, compared=True)
            return
        if self.recorded is None:
            return
        root = self.recorded.roots[self.current_root]
        try:
            line = find_line(self.game, root, text)
        except ValueError as error:
            self.say(f"cannot find {text!r}: {error}", True)
            return
        event.input.display = False
        self.tree_view.focus()
        if self.trail is not None:
            found = next((step.index for step in self.trail if not step.leave and step.line == line), None)
            if found is None:
                self.say(f"{text} is hidden by the filter ({self.filter.describe()})", True)
                return
            self._go_step(found)
        elif not self._reveal(self.current_root, line):
            self.say(f"{text} is hidden by the filter ({self.filter.describe()})", True)

    def action_compare(self) -> None:
        pane = self.query_one(ComparedTree)
        if self.other is not None or pane.display:
            self.other = None
            pane.display = False
            self.tree_view.marked = set()
            self.tree_view.relabel()
            self.tree_view.focus()
            self.say("side by side off")
            return
        self.action_ask("compare")

    def _compared(self, spec: str, tree: SearchTree) -> None:
        """Show ``tree`` beside the tree, each flagging the nodes the other never visited."""
        self.query_one("#tree-ask").display = False
        if self.recorded is None or self.recorded.root is None or tree.root is None:
            self.say(f"{spec} recorded nothing to compare", True)
            return
        self.other = (spec, tree)
        pane = self.query_one(ComparedTree)
        pane.display = True
        comparison = compare_trees(self.game, self.recorded.root, tree.root)
        self.tree_view.marked = {id(comparison.a[line]) for line in comparison.only_a}
        self.tree_view.relabel()
        pane.show(self.game, spec, tree.root, comparison, self.view, self.filter)
        self.say(f"side by side: {self.spec} ({self.recorded.root.size():,} nodes, {MARK} "
                 f"{len(comparison.only_a):,} it alone visited) and {spec} ({MARK} {len(comparison.only_b):,}) "
                 "· x closes")
        self.tree_view.focus()
        entry = self._selected()
        if entry is not None:
            self._follow_in_compared(entry)

    def _follow_in_compared(self, entry: Entry) -> None:
        """Put the compared tree's cursor on the same line, where it has one."""
        if self.other is not None and entry.node is not None:
            self.query_one(ComparedTree).follow(line_position(self.game, entry.line)[1])

    # -- step mode -------------------------------------------------------------------

    def action_step_mode(self) -> None:
        if self.trail is not None:
            self._leave_steps("step mode off")
            return
        if self.recorded is None:
            return
        root = self.recorded.roots[self.current_root]
        self.trail = steps(root, self.filter)
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
        assert self.trail is not None and self.recorded is not None
        self.step_index = index
        event = self.trail[index]
        self._reveal(self.current_root, event.line)
        texts = line_position(self.game, event.line)[1]
        mark = "  ✂ CUT" if event.cut else ""
        root = self.recorded.roots[self.current_root]
        saved = saving_text(main_nodes(root), self.order.get(id(event.node)), root.depth,
                            self.minimax.get(root.depth), counted=root.depth in self.minimax)
        text = Text(f"step {index + 1:,}/{len(self.trail):,}{mark}\n{step_text(event, texts, self.view)}\n{saved}")
        if event.cut:
            text.stylize("bold red", 0, text.plain.index("\n"))
        self.query_one("#tree-step", Static).update(text)
        self.say(f"step mode: {len(self.trail):,} steps of the depth {root.depth} search "
                 f"({self.filter.describe()}) · → next, ← previous, c/t/a the next cutoff/table answer/"
                 "re-search, / a path, s leaves")
