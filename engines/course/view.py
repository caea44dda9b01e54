"""A recorded node seen from the root player's side, for the course: :mod:`engines.tree.views`
read per node (the course's trees are whole searches, so a node's ply counts from the root; its
role follows the game's ``turn`` as recorded).

The recorder keeps negamax values (each node's value is its side to move's).  A student taught
minimax reads the root player's: MAX nodes where the root player moves, MIN nodes where the
opponent does, a MIN node's value and window negated (``(α, β)`` reads ``(-β, -α)``), a cutoff
at a MAX node a β-cut and at a MIN node an α-cut.
"""

from __future__ import annotations

from ..search.recorder import TreeNode
from ..tree import views

__all__ = ["is_max", "root_value", "root_window", "root_bound", "cut_name", "role"]


def is_max(node: TreeNode) -> bool:
    """Whether the root player moves at ``node``."""
    return views.role(views.turn_parity(node, node.ply)) == views.MAX


def role(node: TreeNode) -> str:
    """``MAX`` or ``MIN``."""
    return views.role(views.turn_parity(node, node.ply))


def root_value(node: TreeNode) -> float | None:
    """The node's value from the root player's side (``None`` for a node stopped before it returned)."""
    return views.root_value(node.value, views.turn_parity(node, node.ply))


def root_window(node: TreeNode) -> tuple[float, float]:
    """The window on entry, ``(α, β)`` from the root player's side."""
    return views.root_window(node.alpha, node.beta, views.turn_parity(node, node.ply))


def root_bound(node: TreeNode) -> str | None:
    """The node's bound (``exact``, ``lower``, ``upper``) from the root player's side."""
    return views.root_bound(node.bound, views.turn_parity(node, node.ply))


def cut_name(node: TreeNode) -> str:
    """What a cutoff at ``node`` is called in the minimax view: ``β-cut`` (MAX) or ``α-cut`` (MIN)."""
    return views.BETA_CUT if is_max(node) else views.ALPHA_CUT
