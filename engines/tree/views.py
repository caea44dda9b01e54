"""A recorded tree read two ways: negamax (the search's own values) or minimax (the root player's).

The search is negamax: every node's value, window and bound are for the side
to move there, and a parent's value is the largest of its children's values
negated.  A student taught max and min reads the same tree in the *minimax
view*: every value is the root player's, the nodes where the root player moves
are **MAX** nodes (they take the largest child value) and the others **MIN**
nodes (the smallest).  A node's role follows the game's ``turn``: the
recorder notes at each node whether the root's side moves there
(:attr:`~engines.search.recorder.TreeNode.root_side`), so a side that moves
again keeps its role (a capture in Dots and Boxes, Kalah's last seed in its
store).  For a node made elsewhere it is the parity of its ply counted from
the root (a null move is a pass: it hands the move over too).

At a MIN node the negamax window ``(alpha, beta)`` reads ``-beta ≤ value ≤
-alpha`` from the root player's side, and its bounds swap (a negamax lower
bound is a minimax upper bound).  In the minimax view both kinds of node share
one window ``α ≤ value ≤ β``: α is what MAX is already sure of, β what MIN is.
A cutoff at a MAX node (the value reached β: MIN above will not allow it) is a
**β-cut**; at a MIN node (the value fell to α) an **α-cut**.

In the negamax view (:data:`NEGAMAX`, the lab's default) nothing is changed:
the values, windows and bounds are the recorder's; roles and cut kinds are
still named, as facts of the node.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..base import MATE_BOUND, mate_in
from ..search.core import INF
from ..search.recorder import TreeNode

__all__ = ["VIEWS", "NEGAMAX", "MINIMAX", "MAX", "MIN", "ALPHA_CUT", "BETA_CUT", "View", "NodeView",
           "role", "side", "turn_parity", "root_value", "root_window", "root_bound", "cut_kind", "node_view",
           "view_window_text", "check_view", "value_text"]

View = Literal["negamax", "minimax"]
NEGAMAX: View = "negamax"
MINIMAX: View = "minimax"
#: The views, the default first.
VIEWS: tuple[View, ...] = (NEGAMAX, MINIMAX)

MAX = "MAX"
MIN = "MIN"
ALPHA_CUT = "α-cut"
BETA_CUT = "β-cut"

#: The ends that are cutoffs (a child's value reached beta; a pass did).
CUT_ENDS = frozenset({"cutoff", "null-move"})


def value_text(value: float | None, ply: int = 0) -> str:
    """``31``, ``-inf``, ``inf``, ``?`` (a node stopped before it returned), or a forced
    result from the point of view of the side to move at a node ``ply`` plies from the
    root: ``#3`` mates in 3 moves, ``#-2`` is mated in 2, ``won``/``lost`` on the spot."""
    if value is None:
        return "?"
    if value >= INF:
        return "inf"
    if value <= -INF:
        return "-inf"
    if abs(value) >= MATE_BOUND:  # a win or loss counted from the root: shift it to this node
        moves = mate_in(value + ply if value > 0 else value - ply)
        if not moves:
            return "won" if value > 0 else "lost"
        return f"#{moves}"
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


def check_view(view: str) -> View:
    """``view`` if it is one of :data:`VIEWS`, else :class:`ValueError` in one line."""
    if view not in VIEWS:
        raise ValueError(f"the view is {' or '.join(VIEWS)}, not {view!r}")
    return NEGAMAX if view == NEGAMAX else MINIMAX


def turn_parity(node: TreeNode, ply: int) -> int:
    """What the functions below read a node's role from: 0 where the root's side moves at
    ``node``, 1 where the other side does (its recorded ``turn``), else ``ply``'s parity."""
    if node.root_side is None:
        return ply
    return 0 if node.root_side else 1


def side(ply: int) -> int:
    """``1`` where the root player moves (an even ``ply`` counted from the root), else ``-1``:
    the factor that turns a negamax value there into the root player's."""
    return -1 if ply % 2 else 1


def role(ply: int) -> str:
    """:data:`MAX` where the root player moves (an even ``ply`` counted from the root), else :data:`MIN`."""
    return MIN if ply % 2 else MAX


def root_value(value: float | None, ply: int) -> float | None:
    """A negamax ``value`` at ``ply`` (counted from the root) from the root player's side
    (``None`` stays ``None``: a node stopped before it returned)."""
    return None if value is None else side(ply) * value


def root_window(alpha: float, beta: float, ply: int) -> tuple[float, float]:
    """The negamax window ``(alpha, beta)`` at ``ply`` as ``(α, β)`` from the root player's side,
    with ``α ≤ β``: unchanged at a MAX node, ``(-beta, -alpha)`` at a MIN node."""
    return (alpha, beta) if side(ply) > 0 else (-beta, -alpha)


def root_bound(bound: str | None, ply: int) -> str | None:
    """A negamax bound (``exact``, ``lower``, ``upper``) at ``ply`` from the root player's side:
    at a MIN node at least for the side to move is at most for the root player."""
    if bound is None or bound == "exact" or side(ply) > 0:
        return bound
    return "upper" if bound == "lower" else "lower"


def cut_kind(node: TreeNode, ply: int) -> str | None:
    """:data:`BETA_CUT` for a cutoff at a MAX node (``ply`` counted from the root), :data:`ALPHA_CUT`
    at a MIN node, ``None`` for a node that did not cut off."""
    if node.end not in CUT_ENDS:
        return None
    return BETA_CUT if side(ply) > 0 else ALPHA_CUT


@dataclass(frozen=True)
class NodeView:
    """What a viewer shows of one node in one view (see the module doc)."""

    view: View
    #: The node's ply counted from the root, and its role there (``MAX`` or ``MIN``).
    ply: int
    role: str
    #: The value, the window on entry and the bound, in this view.
    value: float | None
    alpha: float
    beta: float
    bound: str | None
    #: ``α-cut``, ``β-cut``, or ``None``.
    cut: str | None

    @property
    def value_text(self) -> str:
        """The value as :func:`~engines.tree.export.value_text` writes it (forced results for
        whoever this view counts from)."""
        return value_text(self.value, self.ply)

    @property
    def window_text(self) -> str:
        """``α -25  β 40`` (negamax) or ``-25 ≤ v ≤ 40`` (minimax; ``-inf``/``inf`` unbounded)."""
        low, high = value_text(self.alpha, self.ply), value_text(self.beta, self.ply)
        if self.view == MINIMAX:
            return f"α {low} ≤ v ≤ β {high}"
        return f"α {low}  β {high}"


def node_view(node: TreeNode, view: View = MINIMAX, root_ply: int = 0) -> NodeView:
    """``node`` read in ``view``; ``root_ply`` is the ply of the root the roles count from
    (the recorder's roots are at ply 0)."""
    ply = node.ply - root_ply
    at = turn_parity(node, ply) if not root_ply else ply
    if view == MINIMAX:
        alpha, beta = root_window(node.alpha, node.beta, at)
        return NodeView(view, ply, role(at), root_value(node.value, at), alpha, beta,
                        root_bound(node.bound, at), cut_kind(node, at))
    return NodeView(view, ply, role(at), node.value, node.alpha, node.beta, node.bound, cut_kind(node, at))


def view_window_text(node: TreeNode, view: View = NEGAMAX, root_ply: int = 0) -> str:
    """The window of ``node`` on entry as ``view`` writes it (see :attr:`NodeView.window_text`)."""
    return node_view(node, view, root_ply).window_text

