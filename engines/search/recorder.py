"""Recording a search tree: every node an alpha-beta family search visits, and why it ended.

:class:`RecordingSearcher` is the core's :class:`~engines.search.core.Searcher`
with :meth:`~engines.search.core.Searcher.negamax`, ``qsearch`` and the child
selection wrapped: the search itself is the core's, move for move (the same
order, the same cutoffs, the same counters), and each node it enters becomes a
:class:`TreeNode` -- the move into it, the depth left and the ply, the window
on entry, the value returned, the children in the order searched and how the
node ended (:data:`ENDS`).  A search that is not recording runs the plain
:class:`Searcher`, so recording costs nothing when off.

A recording is bounded by a node budget: the node past it stops the search
(:class:`~engines.search.core.Stopped`, as a node limit does), and the nodes
it interrupted end as ``stopped``.

What the recorder sees of a node, and from what:

- the move into a node is the last of the game's ``move_stack`` (a null move
  is told by the searcher's ``passed`` flags);
- the children a selector dropped are the node's legal moves less those it
  kept (the H0, Hl and Hr cutoffs and the branching limit return lists; full
  width with move ordering drops nothing); the nodes of a selector's own
  lookahead searches (``bl``, ``hl``) are counted in :attr:`TreeNode.lookahead`,
  not recorded;
- a cutoff is a prune the node counted after its last child returned: at a
  real move it is a beta cutoff at that child, after a null move it is
  null-move pruning;
- a node without children ended on a transposition-table answer (the table's
  hits went up), a finished game, the maximum ply, or the horizon (the
  evaluation, or quiescence where the engine has it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from games import Game

from ..base import MAX_PLY
from .core import INF, Control, Searcher, Selector, Stopped

__all__ = ["ENDS", "DEFAULT_BUDGET", "MAX_BUDGET", "TreeNode", "SearchTree", "TreeRecorder",
           "RecordingSearcher", "bound_of"]

#: Why a node ended, by name:
ENDS: dict[str, str] = {
    "cutoff": "a child reached beta: the remaining children were not searched",
    "all": "every child selected was searched, none reached beta",
    "tt": "the transposition table answered (a stored bound or exact value deep enough)",
    "null-move": "null-move pruning: passing already reached beta",
    "terminal": "the game is over here",
    "horizon": "depth 0: the evaluation",
    "quiescence": "depth 0: the quiescence search (stand pat, then captures or jumps)",
    "stand-pat": "quiescence: the evaluation stood (reached beta, or no capture to try)",
    "max-ply": "the deepest ply a search goes to: the evaluation",
    "stopped": "the search was stopped inside this node (time, node limit or the recording's budget)",
    "playout": "a Monte Carlo leaf (mcts): played out from here, to the end or the longest playout",
}

#: Nodes a recording keeps unless told otherwise, and the most it may keep.
DEFAULT_BUDGET = 20_000
MAX_BUDGET = 1_000_000


#: The ends whose value is the position's own (an evaluation or a finished game), whatever the window.
EXACT_ENDS = frozenset({"horizon", "terminal", "max-ply"})


def bound_of(value: float | None, alpha: float, beta: float) -> str | None:
    """What a value an alpha-beta search returned through the window ``(alpha, beta)``
    is: ``exact`` inside it, ``upper`` (at most) at or below alpha, ``lower`` (at least)
    at or above beta.  (A search without pruning, and an evaluation, are always exact.)"""
    if value is None:
        return None
    if value <= alpha:
        return "upper"
    if value >= beta:
        return "lower"
    return "exact"


@dataclass(eq=False)
class TreeNode:
    """One node of a recorded search (see the module doc).

    Values are the side to move's (negamax): a child's value is the negation of
    what it is worth to its parent where the other side moves there, the same
    value where the same side moves again (:attr:`root_side` tells).  Windows of
    ±``INF`` are unbounded.
    """

    #: The move into this node (``None`` at a root and for a null move).
    move: Any
    depth: int
    ply: int
    alpha: float
    beta: float
    #: Whether the move into it was a null move (a pass tried by null-move pruning).
    null: bool = False
    #: A node of the quiescence search (below the horizon).
    quiescence: bool = False
    value: float | None = None
    end: str = "stopped"
    children: list[TreeNode] = field(default_factory=list)
    #: The node's legal moves and how many its selector kept (``None``: all, in order).
    legal: int | None = None
    kept: int | None = None
    #: Nodes the selector's own lookahead searches visited (``bl``, ``hl``).
    lookahead: int = 0
    #: For a cutoff, the number of the move that cut (1 for the first move searched).
    cut_at: int | None = None
    #: Whether this child is a second search of the move before it (a null window
    #: that failed high, or a reduced search, searched again).
    research: bool = False
    #: At a root: which of the engine's best lines it searched for (``multipv``: 2 and on
    #: search the root again without the moves already found).
    pv_line: int = 1
    #: The playouts through the node, in a Monte Carlo search's tree (``mcts``); ``None`` in the others.
    visits: int | None = None
    #: Whether the root's side is to move here (the game's ``turn``: a side may move
    #: again); ``None`` for a node made elsewhere, where the plies alternate.
    root_side: bool | None = None

    #: What :attr:`value` is: ``exact``, ``lower`` (at least) or ``upper`` (at most);
    #: ``None`` for a node stopped before it returned.
    bound: str | None = None

    @property
    def searched(self) -> int:
        """The moves searched here, each once (a null move and a move's second search left out)."""
        return sum(1 for child in self.children if not child.null and not child.research)

    @property
    def unsearched(self) -> int:
        """The legal moves never searched here: dropped by a selector, or left by a cutoff
        (0 where the legal moves are not known: a quiescence node, a node without a selection)."""
        return 0 if self.legal is None else max(0, self.legal - self.searched)

    @property
    def dropped(self) -> int:
        """Children the selector dropped (never searched)."""
        if self.legal is None or self.kept is None:
            return 0
        return self.legal - self.kept

    def walk(self) -> Iterator[TreeNode]:
        """This node and every node below it, in the order searched (pre-order)."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def size(self) -> int:
        return sum(1 for _ in self.walk())


@dataclass
class SearchTree:
    """A recorded search: one root per root search the engine made (iterative
    deepening, aspiration re-searches and extra ``multipv`` lines each search
    the root again), the last one the search's answer."""

    roots: list[TreeNode]
    #: The node budget, and whether the recording reached it (the search was stopped there).
    budget: int
    exhausted: bool
    #: Nodes the search counted that are not in the tree: the selectors'
    #: lookaheads and the win-in-one look of ``pvs`` at the root.
    unrecorded: int = 0

    @property
    def complete(self) -> bool:
        """Whether every root search ran to its end (no budget, time, node limit or Ctrl-C stopped one)."""
        return not self.exhausted and all(root.end != "stopped" for root in self.roots)

    @property
    def stopped_by(self) -> str | None:
        """Why the last root search stopped short: ``budget`` (the recording's), ``search``
        (the engine's own time or node limit, or a stop), or ``None`` if it did not."""
        if not self.roots or self.roots[-1].end != "stopped":
            return None
        return "budget" if self.exhausted else "search"

    @property
    def root(self) -> TreeNode | None:
        """The root search the engine's answer comes from: the last one for its best line
        that ran to its end (``multipv``'s other lines are searches of their own, and a
        depth stopped short gives way to the one before), else the last for its best
        line; ``None`` if nothing was recorded."""
        mains = [root for root in self.roots if root.pv_line == 1]
        finished = [root for root in mains if root.end != "stopped"]
        return finished[-1] if finished else mains[-1] if mains else None

    def size(self) -> int:
        return sum(root.size() for root in self.roots)


class TreeRecorder:
    """Collects the nodes of one search (see :class:`RecordingSearcher`)."""

    def __init__(self, budget: int = DEFAULT_BUDGET) -> None:
        self.budget = budget
        self.count = 0
        self.roots: list[TreeNode] = []
        self.stack: list[TreeNode] = []
        self.exhausted = False
        #: The best line the root searches are for now (set by the engine for ``multipv``).
        self.pv_line = 1
        #: Per open node: the prunes counted when its last child returned.
        self.prunes_after: list[int] = []

    def tree(self, nodes: int) -> SearchTree:
        """The tree recorded, given the nodes the search counted in all."""
        return SearchTree(self.roots, self.budget, self.exhausted, unrecorded=max(0, nodes - self.count))

    def enter(self, node: TreeNode) -> None:
        if self.count >= self.budget:
            self.exhausted = True
            raise Stopped
        self.count += 1
        if self.stack:
            parent = self.stack[-1]
            siblings = parent.children
            if siblings and not node.null and siblings[-1].move == node.move and not siblings[-1].null:
                node.research = True
            siblings.append(node)
        else:
            node.pv_line = self.pv_line
            self.roots.append(node)
        self.stack.append(node)
        self.prunes_after.append(-1)

    def leave(self, control: Control) -> TreeNode:
        node = self.stack.pop()
        self.prunes_after.pop()
        if self.prunes_after:
            self.prunes_after[-1] = control.prunes
        return node


class _RecordingSelector(Selector):
    """The searcher's selector, watched: how many moves it kept of how many, and
    the nodes of its lookahead searches."""

    def __init__(self, inner: Selector, recorder: TreeRecorder) -> None:
        self.inner = inner
        self.recorder = recorder

    def select(self, search: Searcher, depth: int, ply: int, tt_move: Any) -> Iterable[Any]:
        control = search.control
        before = control.nodes
        moves = self.inner.select(search, depth, ply, tt_move)
        node = self.recorder.stack[-1]
        node.lookahead += control.nodes - before
        node.legal = len(search.node_moves(ply))
        if isinstance(moves, list):
            node.kept = len(moves)
        return moves


class RecordingSearcher(Searcher):
    """The core's search, recording every node into ``recorder`` (see the module doc)."""

    def __init__(self, recorder: TreeRecorder, game: Game, evaluate: Callable[[Game, int], float],
                 control: Control, *, select: Selector, **options: Any) -> None:
        super().__init__(game, evaluate, control, select=_RecordingSelector(select, recorder), **options)
        self.recorder = recorder
        #: The side to move at the root (the nodes' :attr:`TreeNode.root_side`).
        self.root_turn = game.turn

    def _new_node(self, depth: int, alpha: float, beta: float, ply: int, quiescence: bool) -> TreeNode:
        null = bool(ply) and self.passed[ply]
        game = self.game
        move = game.move_stack[-1] if ply and not null else None
        if not ply:
            self.root_turn = game.turn
        return TreeNode(move, depth, ply, alpha, beta, null=null, quiescence=quiescence,
                        root_side=game.turn == self.root_turn)

    def negamax(self, depth: int, alpha: float, beta: float, ply: int) -> float:
        recorder = self.recorder
        control = self.control
        node = self._new_node(depth, alpha, beta, ply, False)
        recorder.enter(node)
        hits = control.tt_hits
        try:
            value = super().negamax(depth, alpha, beta, ply)
        except Stopped:
            recorder.leave(control)
            raise
        after = recorder.prunes_after[-1]
        recorder.leave(control)
        node.value = value
        if node.quiescence:
            return value  # its end was set by the quiescence search
        children = node.children
        if children:
            if self.prune and control.prunes > after:
                if children[-1].null:
                    node.end = "null-move"
                else:
                    node.end = "cutoff"
                    node.cut_at = node.searched
            else:
                node.end = "all"
        elif control.tt_hits > hits:
            node.end = "tt"
        elif ply and self.game.outcome() is not None:
            node.end = "terminal"
        elif ply >= MAX_PLY:
            node.end = "max-ply"
        else:
            node.end = "horizon"
        node.bound = "exact" if not self.prune or node.end in EXACT_ENDS else bound_of(value, alpha, beta)
        return value

    def qsearch(self, alpha: float, beta: float, ply: int) -> float:
        recorder = self.recorder
        control = self.control
        stack = recorder.stack
        if stack and stack[-1].ply == ply and not stack[-1].children and not stack[-1].quiescence:
            node = stack[-1]  # the horizon node of the main search goes on in quiescence
            node.quiescence = True
            own = False
        else:
            node = self._new_node(0, alpha, beta, ply, True)
            recorder.enter(node)
            own = True
        try:
            value = super().qsearch(alpha, beta, ply)
        except Stopped:
            if own:
                recorder.leave(control)
            raise
        after = recorder.prunes_after[-1]
        if own:
            recorder.leave(control)
            node.value = value
        children = node.children
        if children and self.prune and control.prunes > after:
            node.end = "cutoff"
            node.cut_at = len(children)
        elif children:
            node.end = "all"
        elif ply >= MAX_PLY:
            node.end = "max-ply"
        elif not self.game.can_stand_pat() and not self.game.tactical_moves():
            node.end = "terminal"
        else:
            node.end = "stand-pat"
        node.bound = "exact" if node.end in EXACT_ENDS else bound_of(value, alpha, beta)
        return value
