"""A recorded search replayed one node at a time: the step mode.

:func:`steps` turns a tree into the search's own sequence of events -- entering
a node with its window, leaving it with its value -- which a viewer walks
forward and back.  Each :class:`Step` knows the line from the root to its node
(to show that position) and says in words what happened (:func:`step_text`, in
either view of :mod:`.views`).

A student steers it: a :class:`StepFilter` hides the quiescence search below
the horizon, folds re-searches (a move searched twice shows only its last
search, the one whose value counts) or keeps the principal line only;
:func:`next_step` jumps to the next cutoff, table answer or re-search; and
:func:`find_line` finds the node a path of moves leads to.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from games import Game, GameError

from ..search.recorder import ENDS, TreeNode
from .export import NULL_MOVE, pv_nodes
from .views import NEGAMAX, View, node_view

__all__ = ["Step", "StepFilter", "ALL_STEPS", "JUMPS", "steps", "step_text", "window_text", "next_step",
           "find_line", "folded", "shown_children"]


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


@dataclass(frozen=True)
class StepFilter:
    """Which nodes the steps go through: all of them by default."""

    #: Whether the quiescence search's nodes below the horizon are shown (the horizon node itself always is).
    quiescence: bool = True
    #: Whether a move's first search is shown when the move was searched again (off: only its last search).
    researches: bool = True
    #: Only the principal variation: the root and, at each node, the child its value came from.
    principal: bool = False

    def describe(self) -> str:
        """``all nodes``, or what is left out: ``no quiescence, re-searches folded``."""
        parts = []
        if self.principal:
            parts.append("the principal line only")
        if not self.quiescence:
            parts.append("no quiescence")
        if not self.researches:
            parts.append("re-searches folded")
        return ", ".join(parts) or "all nodes"


#: Every node.
ALL_STEPS = StepFilter()


def folded(node: TreeNode) -> list[TreeNode]:
    """``node``'s children without the searches that were searched again (the one after a
    child is its re-search: that last search is the one whose value counts)."""
    children = node.children
    return [child for i, child in enumerate(children)
            if not (i + 1 < len(children) and children[i + 1].research)]


def shown_children(node: TreeNode, shown: StepFilter, principal: set[int]) -> list[TreeNode]:
    """The children of ``node`` that ``shown`` keeps, in the order searched; ``principal`` holds the
    ``id`` of each node of the principal variations (:func:`~engines.tree.export.pv_nodes`)."""
    if node.quiescence and not shown.quiescence:
        return []  # the horizon node stays, the quiescence search below it goes
    children = node.children if shown.researches else folded(node)
    if shown.principal:
        children = [child for child in children if id(child) in principal]
    return children


def steps(root: TreeNode, shown: StepFilter = ALL_STEPS) -> list[Step]:
    """Every node entered and left (of those ``shown`` keeps), in the order the search did it."""
    principal = {id(node) for node in pv_nodes(root)} if shown.principal else set()
    events: list[Step] = []
    stack: list[tuple[TreeNode, tuple[TreeNode, ...], bool]] = [(root, (), False)]
    while stack:
        node, line, leaving = stack.pop()
        events.append(Step(node, line, leaving, len(events)))
        if not leaving:
            stack.append((node, line, True))
            for child in reversed(shown_children(node, shown, principal)):
                stack.append((child, line + (child,), False))
    return events


#: The jumps :func:`next_step` makes, by name: which step each stops at.
JUMPS: dict[str, Callable[[Step], bool]] = {
    "cutoff": lambda step: step.cut,
    "table answer": lambda step: step.leave and step.node.end == "tt",
    "re-search": lambda step: not step.leave and step.node.research,
}


def next_step(trail: Sequence[Step], index: int, jump: str) -> int | None:
    """The index of the first step after ``index`` that ``jump`` (one of :data:`JUMPS`) stops at, if any."""
    stops = JUMPS[jump]
    return next((later for later in range(index + 1, len(trail)) if stops(trail[later])), None)


def find_line(game: Game, root: TreeNode, path: str) -> tuple[TreeNode, ...]:
    """The nodes a path of moves (``"e4 e5 Nf3"``, in any of the game's notations, moves
    apart by spaces or commas; ``--`` a null move) leads to from ``root``, ``game`` at
    ``root``'s position: where a move was searched more than once, its last search that
    goes on along the path.  A move written in words (Quixo's ``0 0 bottom``) is read as
    the fewest words that make a legal move.  :class:`ValueError` in one line: a move that
    is not legal, or a line the search never played."""
    words = path.replace(",", " ").split()
    position = game.copy()
    moves: list[object] = []  # None: a null move
    texts: list[str] = []
    start = 0
    while start < len(words):
        where = " ".join(texts) or "the root"
        if words[start] == NULL_MOVE:
            text, move = NULL_MOVE, None
            position.play_null()
        else:
            text, move = _read_move(position, words, start, where)
            position.play(move)
        moves.append(move)
        texts.append(text)
        start += len(text.split())

    def follow(node: TreeNode, at: int) -> list[TreeNode] | None:
        if at == len(moves):
            return []
        move = moves[at]
        for child in reversed(node.children):
            if child.null if move is None else not child.null and child.move == move:
                rest = follow(child, at + 1)
                if rest is not None:
                    return [child, *rest]
        return None

    line = follow(root, 0)
    if line is None:
        longest = 0
        node = root
        while longest < len(moves):  # how far the search went along the path, for the message
            found = [child for child in node.children
                     if (child.null if moves[longest] is None else child.move == moves[longest])]
            if not found:
                break
            node = found[-1]
            longest += 1
        after = " ".join(texts[:longest]) or "the root"
        raise ValueError(f"the search never played {texts[longest] if longest < len(texts) else texts[-1]} "
                         f"after {after}")
    return tuple(line)


def _read_move(position: Game, words: list[str], start: int, where: str) -> tuple[str, object]:
    """The fewest words from ``start`` that make a legal move here, and the move."""
    error: GameError | None = None
    for end in range(start + 1, len(words) + 1):
        text = " ".join(words[start:end])
        try:
            return text, position.parse_move(text)
        except GameError as failed:
            error = error or failed
    raise ValueError(f"{words[start]!r} after {where}: {error}")


def window_text(node: TreeNode, view: View = NEGAMAX, root_ply: int = 0) -> str:
    """``α -25  β 40`` (negamax) or ``α -40 ≤ v ≤ β 25`` (minimax; ``-inf``/``inf`` when unbounded)."""
    return node_view(node, view, root_ply).window_text


def step_text(step: Step, moves: list[str], view: View = NEGAMAX) -> str:
    """What the step does, in a line; ``moves`` are the texts of ``step.line``."""
    node = step.node
    seen = node_view(node, view, node.ply - len(step.line))
    where = " ".join(moves) if moves else "the root"
    kind = "quiescence " if node.quiescence else ""
    role = f"{seen.role} " if view != NEGAMAX else ""
    if not step.leave:
        return f"enter {role}{where} ({kind}ply {node.ply}, depth {node.depth}) with {seen.window_text}"
    value = f"{seen.value_text} ({seen.bound})" if seen.value is not None else "no value"
    text = f"leave {role}{where}: {value}, {node.end}"
    if node.end == "cutoff":
        rest = node.unsearched
        text += f" by move {node.cut_at}" + (f", {rest} not searched" if rest else "")
        if view != NEGAMAX and seen.cut is not None:
            text += f" ({seen.cut})"
    elif node.end == "null-move" and view != NEGAMAX and seen.cut is not None:
        text += f" ({seen.cut}) — {ENDS[node.end]}"
    elif node.dropped:
        text += f", {node.dropped} dropped by the selector"
    elif node.end not in ("all",):
        text += f" — {ENDS[node.end]}"
    return text
