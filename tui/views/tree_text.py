"""A recorded search tree in words: node labels, a node's details, per-ply figures, a step.

Shared by the app's tree explorer; no Textual here.  Values are the side to
move's at each node (negamax) or, in the minimax view
(:mod:`engines.tree.views`), the root player's with each node's role (MAX or
MIN) and its cutoff named α-cut or β-cut.  Bounds read as ``=31`` (exact),
``≥31`` (at least) and ``≤31`` (at most).
"""

from __future__ import annotations

from engines import SpecError, parse_engine_spec
from engines.tree import ENDS, TreeNode
from engines.tree.export import value_text
from engines.tree.stats import CUT_BINS, MINIMAX_CAP, PlyStats, cutoff_counts, effective_branching, ply_stats
from engines.tree.views import NEGAMAX, View, node_view

from .format import bar, count_text

__all__ = ["BOUND_MARKS", "node_label", "node_details", "stats_lines", "unsearched_label", "saving_text", "played_reason"]

#: How a value's bound is marked before it.
BOUND_MARKS = {"exact": "=", "lower": "≥", "upper": "≤", None: ""}


def node_label(node: TreeNode, move: str | None, view: View = NEGAMAX, root_ply: int = 0) -> str:
    """``e4  ≥31  ✂ 2`` -- a node as one line of the tree (minimax view: ``e4  MIN ≤-31  ✂ 2 α-cut``)."""
    seen = node_view(node, view, root_ply)
    if move is not None:
        name = move
    else:
        name = f"root, depth {node.depth}" + (f", line {node.pv_line}" if node.pv_line > 1 else "")
    value = f"{BOUND_MARKS[seen.bound]}{seen.value_text}"
    parts = [name, f"{seen.role} {value}" if view != NEGAMAX else value]
    cut = f" {seen.cut}" if view != NEGAMAX and seen.cut else ""
    if node.end == "cutoff":
        parts.append(f"✂ {node.cut_at}{cut}")
    elif node.end == "tt":
        parts.append("TT")
    elif node.end == "null-move":
        parts.append(f"✂ null{cut}")
    elif node.end == "stopped":
        parts.append("stopped")
    if node.quiescence and (node.move is not None or node.null):
        parts.append("q")
    if node.research:
        parts.append("again")
    if node.visits is not None:  # a Monte Carlo tree (mcts)
        parts.append(f"n {count_text(node.visits)}")
    return "  ".join(parts)


def unsearched_label(node: TreeNode) -> str | None:
    """``… 18 moves not searched (cut by move 2)`` for a node that left moves unsearched."""
    rest = node.unsearched
    if not rest:
        return None
    why = f"cut by move {node.cut_at}" if node.end == "cutoff" else (
        "dropped by the selector" if node.dropped else node.end)
    return f"… {rest} move{'s' if rest != 1 else ''} not searched ({why})"


def node_details(node: TreeNode, line: list[str], view: View = NEGAMAX, root_ply: int = 0) -> list[str]:
    """What the details panel says of ``node``, reached by the moves ``line``, in ``view``."""
    seen = node_view(node, view, root_ply)
    role = f" · {seen.role} ({'the root player' if seen.role == 'MAX' else 'the opponent'} moves)" \
        if view != NEGAMAX else ""
    lines = [f"line   {' '.join(line) if line else '(the root)'}",
             f"ply {node.ply} · depth left {node.depth}" + (" · quiescence" if node.quiescence else "") + role,
             f"window on entry  {seen.window_text}"]
    if seen.value is None:
        lines.append("value  none: the search was stopped here")
    else:
        meaning = {"exact": "exact", "lower": "at least (beta reached)", "upper": "at most (alpha not reached)"}
        if view != NEGAMAX:
            meaning = {"exact": "exact", "lower": "at least", "upper": "at most"}
        whose = "for the root player" if view != NEGAMAX else "for the side to move"
        lines.append(f"value  {seen.value_text}, {meaning[seen.bound or 'exact']}, {whose}")
    end = f"end    {node.end}: {ENDS[node.end]}"
    if node.end == "cutoff":
        end = f"end    cutoff by move {node.cut_at}: {ENDS['cutoff']}"
    if seen.cut is not None and view != NEGAMAX:
        reached = "reached β: MIN above will not allow it" if seen.cut == "β-cut" else \
            "fell to α: MAX above has better already"
        end = (f"end    {seen.cut} by move {node.cut_at}: the value {reached}; the remaining children "
               "were not searched" if node.end == "cutoff" else f"end    {seen.cut}: {ENDS[node.end]}")
    lines.append(end)
    if node.visits is not None:
        lines.append(f"visits {node.visits:,}: the playouts through this node (a Monte Carlo tree)")
    counts = []
    if node.legal is not None:
        counts.append(f"{node.legal} legal")
    if node.kept is not None and node.dropped:
        counts.append(f"{node.kept} kept, {node.dropped} dropped by the selector")
    searched = node.searched
    if node.children:
        counts.append(f"{searched} searched" + (f" ({len(node.children) - searched} again or null)"
                                               if len(node.children) != searched else ""))
    if node.lookahead:
        counts.append(f"{node.lookahead:,} lookahead nodes")
    if counts:
        lines.append("moves  " + ", ".join(counts))
    return lines


def _ply_row(row: PlyStats) -> str:
    per = f"{row.branching:5.2f}" if row.branching is not None else "    -"
    return f"{row.ply:>3} {row.nodes:>7,} {per} {row.cutoffs:>6,} {row.tt:>5,}"


def stats_lines(root: TreeNode, width: int = 20) -> list[str]:
    """Per-ply figures of the root search ``root`` and its cutoffs by the move that cut, as a chart."""
    size = root.size()
    ebf = effective_branching(root)
    lines = [f"{size:,} nodes" + (f" · effective branching {ebf:.2f}" if ebf is not None else ""),
             "ply   nodes  /node  cuts    tt"]
    lines += [_ply_row(row) for row in ply_stats(root)]
    cuts = cutoff_counts(root)
    total = sum(cuts.values())
    if total:
        top = max(cuts.values())
        lines.append(f"cutoffs by the move that cut ({total:,})")
        for k in range(1, CUT_BINS + 1):
            label = f"{k}{'+' if k == CUT_BINS else ' '}"
            lines.append(f" {label} {bar(cuts[k] / top, width)} {cuts[k] / total:4.0%}")
    return lines


def saving_text(total: int, entered: int | None, depth: int, minimax: int | None, *, counted: bool = True) -> str:
    """What alpha-beta saved against plain minimax on the same position to the same ``depth``:
    ``node 12 of 296 · minimax to depth 2: 1,881 nodes · saved 1,585 (84%)``.  ``total`` are the
    search's nodes without quiescence, ``entered`` those entered so far (``None``: the whole
    search), ``minimax`` plain minimax's count (``None``: past what is counted); ``counted``
    false while it is being counted."""
    head = f"node {entered:,} of {total:,}" if entered is not None else f"{total:,} nodes without quiescence"
    if not counted:
        return f"{head} · plain minimax to depth {depth}: counting…"
    if minimax is None:
        return f"{head} · plain minimax to depth {depth}: more than {MINIMAX_CAP:,} nodes"
    saved = minimax - total
    share = f" ({saved / minimax:.0%})" if minimax else ""
    return f"{head} · plain minimax to depth {depth}: {minimax:,} nodes · saved {saved:,}{share}"


def played_reason(engine: str, spec: str) -> str:
    """Why the game's engine (``engine``) may have played another move than the best of the tree
    ``spec`` recorded: another engine, its noise (``jitter``), or a warm table and its clock."""
    try:
        jitter = parse_engine_spec(engine).options.get("jitter") or 0
    except SpecError:
        jitter = 0
    reasons = []
    if spec != engine:
        reasons.append(f"this tree is {spec}'s, not the game's engine's ({engine})")
    if jitter:
        reasons.append(f"the game's engine adds random noise to every evaluation (jitter={jitter}), "
                       "new in each search")
    elif spec == engine:
        reasons.append("a table warm from its earlier moves, or its clock, led it elsewhere")
    return "; ".join(reasons)
