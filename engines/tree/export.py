"""A recorded tree written down: a JSON document, or a Graphviz drawing.

The JSON document (:func:`tree_document`) is one object: the game, the
position, the engine and what it answered, the counters of the search, and
``root``, the root search the answer came from (see
:attr:`~engines.search.recorder.SearchTree.root`); ``other_roots`` holds the
other root searches -- iterative deepening's other depths, aspiration
re-searches, ``multipv``'s other lines -- each with its ``order`` among all of
them and its ``pv_line``.  Each node is an object::

    {"move": "e4", "depth": 3, "ply": 1, "alpha": -25, "beta": null,
     "value": 31, "bound": "exact", "end": "cutoff", "cut_at": 2,
     "legal": 20, "children": [...]}

``move`` is written in the game's notation (``null`` at the root, ``"--"`` for a
null move); ``alpha``/``beta`` are the window on entry (``null``: unbounded);
``value`` is for the side to move there and ``bound`` says what it is through
that window (``exact``, ``lower``: at least, ``upper``: at most); ``end`` says
why the node ended (:data:`~engines.search.recorder.ENDS`).  Optional keys:
``cut_at`` (the number of the move that cut), ``legal`` and ``kept`` (the node's
legal moves and those its selector kept), ``lookahead`` (nodes of the
selector's own searches), ``null``, ``quiescence`` and ``research`` (true).

The document's ``view`` says how its values read (:mod:`.views`): ``negamax``
(the default, as above) or ``minimax``, where every ``value``, window and
``bound`` is the root player's, each node has a ``role`` (``MAX`` where the
root player moves, ``MIN`` elsewhere) and a cut node its ``cut`` (``β-cut`` at a
MAX node, ``α-cut`` at a MIN node); ``alpha ≤ beta`` in both views.

The drawing (:func:`tree_dot`) shows each node with its move, value and bound
(in the minimax view, its role and the kind of its cutoff too);
the principal variation is bold, and the moves a node never searched -- those
after a cutoff and those a selector dropped -- are one faint box per node.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from games import Game

from ..base import COUNTERS, SearchResult
from ..search.core import INF
from ..search.recorder import SearchTree, TreeNode
from .views import NEGAMAX, View, node_view, value_text

__all__ = ["FORMAT", "NULL_MOVE", "tree_document", "node_document", "tree_dot", "walk_positions",
           "value_text", "pv_nodes", "unsearched_moves", "line_position"]

#: The document's ``format`` field.
FORMAT = "tui-games tree 1"
#: How a null move is written.
NULL_MOVE = "--"


def _number(value: float | None) -> float | int | None:
    """A value for JSON: ``None`` for an unbounded window, ints kept as ints."""
    if value is None or abs(value) >= INF:
        return None
    return int(value) if float(value).is_integer() else round(float(value), 4)


def walk_positions(game: Game, node: TreeNode,
                   visit: Callable[[Game, TreeNode, str | None], Any]) -> None:
    """Call ``visit(game, node, move_text)`` on ``node`` and every node below it, with
    ``game`` at that node's position; ``game`` is at ``node``'s position on entry and
    is left there."""

    def down(current: TreeNode, text: str | None) -> None:
        visit(game, current, text)
        for child in current.children:
            if child.null:
                game.play_null()
                down(child, NULL_MOVE)
                game.undo_null()
            else:
                label = game.format_move(child.move)
                game.play(child.move)
                down(child, label)
                game.undo()

    down(node, None)


def node_document(game: Game, root: TreeNode, view: View = NEGAMAX) -> dict[str, Any]:
    """``root`` and the nodes below it as JSON-ready objects (``game`` at ``root``'s position),
    their values, windows and bounds in ``view``."""
    made: dict[int, dict[str, Any]] = {}

    def visit(_: Game, node: TreeNode, text: str | None) -> None:
        seen = node_view(node, view, root.ply)
        item: dict[str, Any] = {
            "move": text, "depth": node.depth, "ply": node.ply,
            "alpha": _number(seen.alpha), "beta": _number(seen.beta),
            "value": _number(seen.value) if seen.value is not None else None,
            "bound": seen.bound, "end": node.end,
        }
        if view != NEGAMAX:
            item["role"] = seen.role
            if seen.cut is not None:
                item["cut"] = seen.cut
        if node.cut_at is not None:
            item["cut_at"] = node.cut_at
        if node.legal is not None:
            item["legal"] = node.legal
        if node.kept is not None:
            item["kept"] = node.kept
        if node.lookahead:
            item["lookahead"] = node.lookahead
        if node.visits is not None:
            item["visits"] = node.visits
        for flag in ("null", "quiescence", "research"):
            if getattr(node, flag):
                item[flag] = True
        item["children"] = []
        made[id(node)] = item

    walk_positions(game, root, visit)
    for node in root.walk():
        made[id(node)]["children"] = [made[id(child)] for child in node.children]
    return made[id(root)]


def tree_document(game: Game, tree: SearchTree, result: SearchResult, engine: str,
                  view: View = NEGAMAX) -> dict[str, Any]:
    """The whole recording as one JSON-ready object (see the module doc); ``game`` is
    the position searched, the nodes' values are in ``view``."""
    stats = result.stats
    counters = {name: stats[name] for name in COUNTERS}
    return {
        "format": FORMAT,
        "view": view,
        "game": game.NAME,
        "position": game.to_text(),
        "engine": engine,
        "best": stats.best,
        "score": result.score,
        "depth": stats.depth,
        "pv": list(stats.pv),
        "budget": tree.budget,
        "complete": tree.complete,
        "recorded": tree.size(),
        "unrecorded": tree.unrecorded,
        "counters": counters,
        "root": node_document(game, tree.root, view) if tree.root is not None else None,
        "other_roots": [dict(node_document(game, root, view), pv_line=root.pv_line, order=order)
                        for order, root in enumerate(tree.roots) if root is not tree.root],
    }


def child_value(node: TreeNode, child: TreeNode) -> float | None:
    """What ``child``'s value is worth to ``node``: negated where the other side moves at the
    child, the same where the same side moves again (the game's ``turn``, as recorded)."""
    if child.value is None:
        return None
    same = child.root_side is not None and child.root_side == node.root_side
    return child.value if same else -child.value


def pv_nodes(root: TreeNode) -> list[TreeNode]:
    """The nodes of the principal variation below ``root``: from each node, the child its
    value came from -- the first move whose last search (a move searched again keeps only
    its re-search) returned that value (negated where the other side moves there) -- while the
    values are exact."""
    line: list[TreeNode] = []
    node = root
    while node.children and node.value is not None and node.bound == "exact":
        children = node.children
        best = None
        for i, child in enumerate(children):
            searched_again = i + 1 < len(children) and children[i + 1].research
            if (not child.null and not searched_again and child.value is not None
                    and child_value(node, child) == node.value):
                best = child
                break
        if best is None:
            break
        line.append(best)
        node = best
    return line


def _dot_label(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def tree_dot(game: Game, tree: SearchTree, engine: str, *, marked: set[int] | None = None,
             mark_label: str = "", view: View = NEGAMAX) -> str:
    """The last root search as a Graphviz digraph (see the module doc), its values in
    ``view`` (minimax: each node labelled MAX or MIN, its cutoff α-cut or β-cut).  Nodes
    whose ``id`` is in ``marked`` are filled (``--compare``: the nodes the other engine
    never visited), and the legend says ``mark_label``."""
    root = tree.root
    lines = ["digraph search {", "  rankdir=TB;", '  node [shape=box, fontname="monospace", fontsize=10];',
             f'  label="{_dot_label(engine)} on {_dot_label(game.to_text())}'
             f'{" · " + _dot_label(mark_label) if mark_label else ""}"; labelloc=t;']
    if root is None:
        lines.append("}")
        return "\n".join(lines) + "\n"
    bold = {id(node) for node in pv_nodes(root)} | {id(root)}
    names: dict[int, str] = {}
    unseen: dict[int, str] = {}  # per node, its moves never searched

    def visit(_: Game, node: TreeNode, text: str | None) -> None:
        name = f"n{len(names)}"
        names[id(node)] = name
        seen = node_view(node, view, root.ply)
        role = f"{seen.role} " if view != NEGAMAX else ""
        cut = f" ({seen.cut})" if seen.cut and view != NEGAMAX else ""
        parts = (role + (text or "root"), f"{seen.value_text} {seen.bound or ''}"
                 + (" again" if node.research else ""), node.end + cut)
        label = "\\n".join(_dot_label(part) for part in parts)
        style = ["bold"] if id(node) in bold else []
        if marked is not None and id(node) in marked:
            style.append("filled")
        attributes = f'label="{label}"'
        if style:
            attributes += f', style="{",".join(style)}"' + (', fillcolor="#ffd8a8"' if "filled" in style else "")
        if node.quiescence:
            attributes += ", shape=ellipse"
        lines.append(f"  {name} [{attributes}];")
        if node.unsearched:
            rest = [game.format_move(move) for move in unsearched_moves(game, node)]
            shown = " ".join(rest[:6]) + (" …" if len(rest) > 6 else "")
            unseen[id(node)] = f"{len(rest)} not searched: {shown}"

    walk_positions(game, root, visit)
    for node in root.walk():
        for child in node.children:
            edge = ' [style=bold, penwidth=2]' if id(child) in bold and id(node) in bold else ""
            lines.append(f"  {names[id(node)]} -> {names[id(child)]}{edge};")
        if id(node) in unseen:
            faint = f"{names[id(node)]}_rest"
            lines.append(f'  {faint} [label="{_dot_label(unseen[id(node)])}\\n({_dot_label(_why(node))})", '
                         'style=dashed, color=gray70, fontcolor=gray60];')
            lines.append(f"  {names[id(node)]} -> {faint} [style=dashed, color=gray70];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def unsearched_moves(game: Game, node: TreeNode) -> list[Any]:
    """The legal moves of ``node`` (``game`` at its position) that it never searched."""
    searched = {child.move for child in node.children if not child.null}
    return [move for move in game.legal_moves() if move not in searched]


def line_position(game: Game, line: Sequence[TreeNode]) -> tuple[Game, list[str]]:
    """A copy of ``game`` with the moves of ``line`` (root's children down) played, and their
    texts (a null move played as a pass, written :data:`NULL_MOVE`)."""
    position = game.copy()
    texts: list[str] = []
    for node in line:
        if node.null:
            texts.append(NULL_MOVE)
            position.play_null()
        else:
            texts.append(position.format_move(node.move))
            position.play(node.move)
    return position, texts


def _why(node: TreeNode) -> str:
    if node.end == "cutoff":
        return f"cut by move {node.cut_at}"
    if node.dropped:
        return "dropped by the selector"
    return node.end
