"""A recorded tree as lines of text: what the course's lessons and exercises show.

Each node is one line under its parent (``├─``/``└─``): the move into it, ``MAX`` or ``MIN`` in
the minimax view, its value (``=`` exact, ``≥`` at least, ``≤`` at most, read from the root
player's side in that view, the side to move's in the negamax view) and how it ended (``✂ 2``:
a cutoff by the second move searched; ``TT``: the table answered; ``q``: quiescence), then a faint
``… N not searched`` where moves were cut or dropped.
"""

from __future__ import annotations

from typing import Collection

from games import Game

from ..search.recorder import TreeNode
from ..tree.export import NULL_MOVE, value_text
from . import view

__all__ = ["VIEWS", "node_text", "tree_lines", "value_of"]

#: The two ways to read values: the root player's (MAX/MIN) and each side to move's.
VIEWS = ("minimax", "negamax")

_SIGN = {"exact": "=", "lower": "≥", "upper": "≤", None: ""}


def value_of(node: TreeNode, how: str = "minimax") -> float | None:
    """The node's value in the view ``how``."""
    return view.root_value(node) if how == "minimax" else node.value


def node_text(node: TreeNode, move: str | None, how: str = "minimax", *, value: bool = True) -> str:
    """One node: ``e4 MIN =12 ✂ 2`` (``value=False`` hides the value: the student works it out)."""
    parts = [move or "root"]
    if how == "minimax":
        parts.append(view.role(node))
    if value:
        bound = node.bound if how == "negamax" else view.root_bound(node)
        parts.append(f"{_SIGN[bound]}{value_text(value_of(node, how), node.ply)}")
    else:
        parts.append("?")
    if node.end == "cutoff":
        parts.append(f"✂ {node.cut_at}")
    elif node.end == "tt":
        parts.append("TT")
    if node.research:
        parts.append("again")
    if node.quiescence:
        parts.append("q")
    return " ".join(parts)


def tree_lines(game: Game, root: TreeNode, how: str = "minimax", *, depth: int | None = None,
               hidden: Collection[int] = (), numbered: bool = False, label: str | None = None) -> list[str]:
    """``root`` (``game`` at its position) and the nodes below it, ``depth`` plies deep at most;
    the values of the nodes whose ``id`` is in ``hidden`` are shown as ``?``; ``numbered`` puts
    each child's number (the order searched) before it; ``label`` names the top node (``root``)."""
    lines = [node_text(root, label, how, value=id(root) not in hidden)]

    def down(node: TreeNode, position: Game, prefix: str, left: int | None) -> None:
        if left == 0:
            return
        kids = node.children
        rest = node.unsearched
        for number, child in enumerate(kids, 1):
            last = number == len(kids) and not rest
            if child.null:
                text = NULL_MOVE
                position.play_null()
            else:
                text = position.format_move(child.move)
                position.play(child.move)
            label = f"{number}. {text}" if numbered else text
            lines.append(prefix + ("└─ " if last else "├─ ") + node_text(child, label, how, value=id(child) not in hidden))
            down(child, position, prefix + ("   " if last else "│  "), None if left is None else left - 1)
            if child.null:
                position.undo_null()
            else:
                position.undo()
        if rest:
            lines.append(prefix + f"└─ … {rest} not searched")

    down(root, game.copy(), "", depth)
    return lines
