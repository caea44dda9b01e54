"""Per-ply figures of a recorded tree: nodes, effective branching factor, cutoffs by the move that cut.

The number of the move that cut is alpha-beta's report card: with perfect move
ordering every cutoff is by the first move searched, and the tree shrinks to
about twice the square root of minimax's.

:func:`minimax_nodes` counts the nodes plain minimax visits on the same
position to the same depth (every legal move, no pruning, no table), up to a
cap, and :func:`main_nodes` the nodes of a recorded search without its
quiescence: their difference is what alpha-beta saved.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from games import Game

from ..search.recorder import TreeNode

__all__ = ["PlyStats", "ply_stats", "cutoff_counts", "effective_branching", "CUT_BINS", "minimax_nodes",
           "main_nodes", "visit_order", "MINIMAX_CAP"]

#: The most nodes :func:`minimax_nodes` counts before it gives up (about a second in Python).
MINIMAX_CAP = 100_000

#: Cutoffs are counted by the move that cut, 1 to ``CUT_BINS``; the last bin takes the later ones.
CUT_BINS = 6


@dataclass
class PlyStats:
    """What a tree holds at one ply."""

    ply: int
    nodes: int = 0
    #: Nodes that searched children, and the children they searched (re-searches included).
    expanded: int = 0
    children: int = 0
    cutoffs: int = 0
    tt: int = 0
    #: Legal moves never searched at this ply's nodes: dropped by a selector, or left by a cutoff.
    unsearched: int = 0
    #: Cutoffs by the number of the move that cut (``CUT_BINS``: that one or later).
    cut_at: Counter[int] = field(default_factory=Counter)

    @property
    def branching(self) -> float | None:
        """Children searched per expanded node."""
        return self.children / self.expanded if self.expanded else None


def ply_stats(root: TreeNode) -> list[PlyStats]:
    """One :class:`PlyStats` per ply, from the root's (plies counted from ``root``)."""
    rows: dict[int, PlyStats] = {}
    for node in root.walk():
        ply = node.ply - root.ply
        row = rows.get(ply)
        if row is None:
            row = rows[ply] = PlyStats(ply)
        row.nodes += 1
        if node.children:
            row.expanded += 1
            row.children += len(node.children)
        if node.end == "cutoff" and node.cut_at is not None:
            row.cutoffs += 1
            row.cut_at[min(node.cut_at, CUT_BINS)] += 1
        elif node.end == "tt":
            row.tt += 1
        row.unsearched += node.unsearched
    return [rows[ply] for ply in sorted(rows)]


def cutoff_counts(root: TreeNode) -> Counter[int]:
    """Every cutoff of the tree by the number of the move that cut (see :data:`CUT_BINS`)."""
    total: Counter[int] = Counter()
    for row in ply_stats(root):
        total.update(row.cut_at)
    return total


def effective_branching(root: TreeNode) -> float | None:
    """The effective branching factor of the main search: its nodes' ``depth``-th root,
    ``depth`` the root's nominal depth (quiescence nodes left out)."""
    depth = root.depth
    nodes = sum(1 for node in root.walk() if not node.quiescence or node is root)
    if depth <= 0 or nodes <= 1:
        return None
    return float(nodes ** (1.0 / depth))


def minimax_nodes(game: Game, depth: int, cap: int = MINIMAX_CAP) -> int | None:
    """The nodes plain minimax visits searching ``game`` to ``depth`` (the root included; a
    finished game below the root is a leaf), or ``None`` past ``cap`` nodes."""
    count = 0

    def down(left: int, ply: int) -> None:
        nonlocal count
        count += 1
        if count > cap:
            raise OverflowError
        if left <= 0 or (ply and game.outcome() is not None):
            return
        for move in game.legal_moves():
            game.play(move)
            try:
                down(left - 1, ply + 1)
            finally:
                game.undo()

    try:
        down(depth, 0)
    except OverflowError:
        return None
    return count


def main_nodes(root: TreeNode) -> int:
    """The nodes of the search below ``root`` without the quiescence search past the horizon
    (the horizon nodes themselves counted), re-searches and null moves included."""
    count = 0
    stack = [root]
    while stack:
        node = stack.pop()
        count += 1
        if not node.quiescence:
            stack.extend(node.children)
    return count


def visit_order(root: TreeNode) -> dict[int, int]:
    """Per node (by ``id``), how many nodes of the main search (those :func:`main_nodes` counts)
    the search had entered when it entered that node: 1 for ``root``."""
    order: dict[int, int] = {}
    count = 0
    stack: list[tuple[TreeNode, bool]] = [(root, True)]
    while stack:
        node, main = stack.pop()
        count += main
        order[id(node)] = count
        stack.extend((child, main and not node.quiescence) for child in reversed(node.children))
    return order
