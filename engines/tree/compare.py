"""Two engines' trees of one position told apart (``tui-games tree --compare``).

Nodes are matched by their line from the root (the moves in the game's
notation); a line searched more than once (re-searches, iterative deepening's
roots are not mixed: only the last root of each tree is compared) keeps its
last visit.  The comparison says which lines only one engine visited, and with
what value, and which lines both visited with different values -- alpha-beta's
bounds where minimax has exact values, for instance.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games import Game

from ..search.recorder import TreeNode
from .export import walk_positions

__all__ = ["Comparison", "compare_trees", "line_index"]

Line = tuple[str, ...]


def line_index(game: Game, root: TreeNode) -> dict[Line, TreeNode]:
    """Every node below ``root`` by its line of move texts (``game`` at ``root``'s position)."""
    index: dict[Line, TreeNode] = {}
    path: list[str] = []

    def visit(_: Game, node: TreeNode, text: str | None) -> None:
        level = node.ply - root.ply
        del path[level - 1 if level else 0:]
        if text is not None:
            path.append(text)
        index[tuple(path)] = node

    walk_positions(game, root, visit)
    return index


@dataclass
class Comparison:
    """The result of :func:`compare_trees`."""

    a: dict[Line, TreeNode]
    b: dict[Line, TreeNode]
    only_a: list[Line] = field(default_factory=list)
    only_b: list[Line] = field(default_factory=list)
    #: Lines both visited whose values differ.
    differ: list[Line] = field(default_factory=list)

    @property
    def shared(self) -> int:
        return len(self.a) - len(self.only_a)

    def by_ply(self) -> list[tuple[int, int, int, int]]:
        """Per ply: ``(ply, lines of a, lines of b, lines of both)``."""
        plies = sorted({len(line) for line in self.a} | {len(line) for line in self.b})
        rows = []
        for ply in plies:
            a = {line for line in self.a if len(line) == ply}
            b = {line for line in self.b if len(line) == ply}
            rows.append((ply, len(a), len(b), len(a & b)))
        return rows


def compare_trees(game: Game, a: TreeNode, b: TreeNode) -> Comparison:
    """Tell apart the trees below ``a`` and ``b``, two searches of ``game``'s position."""
    index_a, index_b = line_index(game, a), line_index(game, b)
    result = Comparison(index_a, index_b)
    for line, node in index_a.items():
        other = index_b.get(line)
        if other is None:
            result.only_a.append(line)
        elif node.value != other.value:
            result.differ.append(line)
    result.only_b = [line for line in index_b if line not in index_a]
    return result
