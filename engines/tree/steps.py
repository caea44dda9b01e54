"""A recorded search replayed one node at a time: the step mode.

:func:`steps` turns a tree into the search's own sequence of events -- entering
a node with its window, leaving it with its value -- which a viewer walks
forward and back.  Each :class:`Step` knows the line from the root to its node
(to show that position) and says in words what happened (:func:`step_text`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..search.recorder import ENDS, TreeNode
from .export import value_text

__all__ = ["Step", "steps", "step_text", "window_text"]


@dataclass(frozen=True)
class Step:
    """Entering (``leave=False``) or leaving a node; ``line`` runs from the root's first child to it."""

    node: TreeNode
    line: tuple[TreeNode, ...]
    leave: bool
    #: The number of this step, from 0.
    index: int

    @property
    def cut(self) -> bool:
        """Whether this is a node leaving on a cutoff (the step the viewer marks)."""
        return self.leave and self.node.end in ("cutoff", "null-move")


def steps(root: TreeNode) -> list[Step]:
    """Every node entered and left, in the order the search did it."""
    events: list[Step] = []
    stack: list[tuple[TreeNode, tuple[TreeNode, ...], bool]] = [(root, (), False)]
    while stack:
        node, line, leaving = stack.pop()
        events.append(Step(node, line, leaving, len(events)))
        if not leaving:
            stack.append((node, line, True))
            for child in reversed(node.children):
                stack.append((child, line + (child,), False))
    return events


def window_text(node: TreeNode) -> str:
    """``α -25  β 40`` (``-inf``/``inf`` when unbounded)."""
    return f"α {value_text(node.alpha, node.ply)}  β {value_text(node.beta, node.ply)}"


def step_text(step: Step, moves: list[str]) -> str:
    """What the step does, in a line; ``moves`` are the texts of ``step.line``."""
    node = step.node
    where = " ".join(moves) if moves else "the root"
    kind = "quiescence " if node.quiescence else ""
    if not step.leave:
        return f"enter {where} ({kind}ply {node.ply}, depth {node.depth}) with {window_text(node)}"
    value = f"{value_text(node.value, node.ply)} ({node.bound})" if node.value is not None else "no value"
    text = f"leave {where}: {value}, {node.end}"
    if node.end == "cutoff":
        rest = node.unsearched
        text += f" by move {node.cut_at}" + (f", {rest} not searched" if rest else "")
    elif node.dropped:
        text += f", {node.dropped} dropped by the selector"
    elif node.end not in ("all",):
        text += f" — {ENDS[node.end]}"
    return text
