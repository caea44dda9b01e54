"""``tree``: record the tree an alpha-beta family engine searches, count it, write it, compare two."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import TextIO

from engines import SearchResult
from engines.tree import DEFAULT_BUDGET, ENDS, MAX_BUDGET, SearchTree, TreeNode, check_recordable, record_tree
from engines.tree.compare import Comparison, compare_trees
from engines.tree.export import tree_document, tree_dot, value_text
from engines.tree.stats import CUT_BINS, cutoff_counts, effective_branching, ply_stats
from engines.tree.views import NEGAMAX, VIEWS, View, node_view
from games import Game

from ..views.format import bar, counted, line_text, score_text
from .common import PROG, UsageError, add_position, game_name, path_arg, play_moves, position_of, stop_on_interrupt, whole

#: The engine ``tree`` records when none is given.
DEFAULT_ENGINE = "alphabeta:depth=3"
#: Lines only one engine visited that ``--compare`` lists (the file has them all).
SHOWN_LINES = 8


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Add ``tree`` to the ``tui-games`` parser."""
    p = sub.add_parser(
        "tree",
        help="record the tree an engine searches: counts per ply, cutoffs, a JSON or Graphviz file",
        description="Search one position with an engine of the alpha-beta family (minimax, alphabeta, "
                    "alphabeta-hard, bl, h0, hl, hr, pvs), recording every node: the move, the window "
                    "on entry, the value and bound returned, the children in the order searched and why "
                    "the node ended; or with mcts, every node its playouts visited, with its visits and "
                    "value.  Prints the tree's counts per ply; --out writes the whole tree as "
                    "JSON (.json) or Graphviz (.dot); --compare records a second engine on the same "
                    "position and tells the two trees apart; --view minimax gives every value from the "
                    "root player's side, with MAX and MIN nodes and alpha- and beta-cuts named.",
    )
    p.add_argument("game", type=game_name, metavar="GAME")
    p.add_argument("--engine", default=DEFAULT_ENGINE, metavar="SPEC",
                   help=f"engine spec (default {DEFAULT_ENGINE!r})")
    add_position(p)
    p.add_argument("--moves", nargs="+", default=[], metavar="MOVE", help="play these moves first (game notation)")
    p.add_argument("--budget", type=whole(1), default=DEFAULT_BUDGET, metavar="N",
                   help=f"record at most N nodes; the node past them stops the search (default {DEFAULT_BUDGET:,}, "
                        f"at most {MAX_BUDGET:,})")
    p.add_argument("--out", type=path_arg, metavar="FILE",
                   help="write the tree: FILE.json (every node) or FILE.dot (Graphviz: the PV bold, moves "
                        "never searched faint); an existing file is never written over")
    p.add_argument("--compare", metavar="SPEC2",
                   help="also record SPEC2 on the position and compare: the lines only one engine visited "
                        "(with their values) and those both visited with different values")
    p.add_argument("--view", choices=VIEWS, default=NEGAMAX,
                   help="how values read: negamax (the default: each for the side to move there, as the "
                        "search computes them) or minimax (each for the root player, nodes labelled MAX "
                        "or MIN, the window as alpha <= value <= beta, cutoffs named alpha-cut or beta-cut)")
    p.set_defaults(run=_cmd_tree)


def _out_path(out: str | None) -> Path | None:
    if out is None:
        return None
    path = Path(out).expanduser()
    if path.suffix.lower() not in (".json", ".dot"):
        raise UsageError(f"{PROG} tree", f"--out {out!r}: name a .json or a .dot file")
    if path.exists() or path.is_symlink():
        raise UsageError(f"{PROG} tree", f"{path} already exists; a tree is never written over, choose another --out")
    if path.parent.exists() and not path.parent.is_dir():
        raise UsageError(f"{PROG} tree", f"cannot write {path}: {path.parent} is not a directory")
    if not path.parent.is_dir():
        raise UsageError(f"{PROG} tree", f"cannot write {path}: the directory {path.parent} does not exist")
    return path


def _reserve(path: Path) -> TextIO:
    """Create ``path`` before the search, so that a file that cannot be written is said at once."""
    try:
        return open(path, "x", encoding="utf-8")
    except FileExistsError:
        raise UsageError(f"{PROG} tree", f"{path} already exists; a tree is never written over") from None
    except OSError as error:
        raise UsageError(f"{PROG} tree", f"cannot write {path}: {error.strerror or error}") from None


def _write(handle: TextIO, path: Path, text: str) -> None:
    """Write ``text`` to the reserved file; a failure (a full disk) leaves no part of it."""
    try:
        with handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as error:
        _discard(path)
        raise UsageError(f"{PROG} tree", f"cannot write {path}: {error.strerror or error}") from None


def _discard(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def tree_summary(game: Game, tree: SearchTree, engine: str, result: SearchResult | None = None,
                 view: View = NEGAMAX) -> list[str]:
    """The counts ``tree`` prints: the engine's answer, the tree's size, how nodes ended,
    per ply, cutoffs by move (the root's value read in ``view``)."""
    root = tree.root
    lines = [f"engine     {engine}", f"position   {game.to_text()}"]
    if result is not None:
        stats = result.stats
        lines.append(f"answer     {stats.best or '-'}, score {score_text(stats.score, stats.mate)} at depth "
                     f"{stats.depth}, pv {line_text(stats.pv) or '-'}")
    if root is None:
        return lines + ["nothing recorded (the search stopped at once)"]
    size = root.size()
    if tree.stopped_by == "budget":
        state = f"stopped at the budget of {tree.budget:,} nodes"
    elif tree.stopped_by == "search":
        state = "stopped short by the engine's own limit or Ctrl-C"
    else:
        state = "complete"
    extra = sum(1 for other in tree.roots if other.pv_line > 1)
    lines.append(f"recorded   {tree.size():,} nodes in {counted(len(tree.roots), 'root search')}"
                 .replace("searchs", "searches")
                 + f" ({state}); the answer's, depth {root.depth}: {size:,}"
                 + (f" ({extra} more for multipv's other lines)" if extra else ""))
    if tree.unrecorded:
        lines.append(f"unrecorded {tree.unrecorded:,} nodes of lookahead searches and root probes")
    if root.value is None:
        lines.append("value      none: the search was stopped inside this root search")
    else:
        whose = "for the side to move" if view == NEGAMAX else "for the root player (MAX)"
        lines.append(f"value      {value_text(root.value)} ({root.bound}) {whose}")
    ebf = effective_branching(root)
    if ebf is not None:
        lines.append(f"branching  {ebf:.2f} effective ({size:,} nodes ^ 1/{root.depth})")
    ends = Counter(node.end for node in root.walk())
    lines.append("ends       " + ", ".join(f"{name} {ends[name]:,}" for name in ENDS if ends[name]))
    lines.append("")
    lines.append(f"{'ply':>3} {'nodes':>8} {'expanded':>8} {'children':>8} {'/node':>6} "
                 f"{'cutoffs':>7} {'tt':>6} {'not searched':>12}")
    for row in ply_stats(root):
        per = f"{row.branching:.2f}" if row.branching is not None else "-"
        lines.append(f"{row.ply:>3} {row.nodes:>8,} {row.expanded:>8,} {row.children:>8,} {per:>6} "
                     f"{row.cutoffs:>7,} {row.tt:>6,} {row.unsearched:>12,}")
    cuts = cutoff_counts(root)
    total = sum(cuts.values())
    if total:
        lines.append("")
        lines.append(f"cutoffs by the move that cut ({total:,}):")
        top = max(cuts.values())
        for k in range(1, CUT_BINS + 1):
            label = f"move {k}" + ("+" if k == CUT_BINS else "")
            lines.append(f"  {label:<8} {bar(cuts[k] / top, 30):<30} {cuts[k]:>6,} ({cuts[k] / total:.0%})")
    return lines


def comparison_lines(result: Comparison, name_a: str, name_b: str, view: View = NEGAMAX) -> list[str]:
    """What ``--compare`` prints: per ply the lines each engine visited, then examples."""
    lines = ["", f"compare    A = {name_a}, B = {name_b}",
             f"{'ply':>3} {'A':>8} {'B':>8} {'both':>8} {'only A':>8} {'only B':>8}"]
    for ply, a, b, both in result.by_ply():
        lines.append(f"{ply:>3} {a:>8,} {b:>8,} {both:>8,} {a - both:>8,} {b - both:>8,}")

    def show(title: str, chosen: list[tuple[str, ...]], describe) -> None:
        if not chosen:
            return
        lines.append(f"{title} ({len(chosen):,}; the shallowest first):")
        for line in sorted(chosen, key=len)[:SHOWN_LINES]:
            lines.append(f"  {' '.join(line) or '(the root)':<32} {describe(line)}")

    def one(index: dict[tuple[str, ...], TreeNode]):
        return lambda line: f"{_valued(index[line], view)}, {index[line].end}"

    show("only A visited", result.only_a, one(result.a))
    show("only B visited", result.only_b, one(result.b))
    show("both, with other values", result.differ,
         lambda line: f"A {_valued(result.a[line], view)} · B {_valued(result.b[line], view)}")
    if not result.only_a and not result.only_b and not result.differ:
        lines.append("the two trees visit the same lines with the same values")
    return lines


def _valued(node: TreeNode, view: View = NEGAMAX) -> str:
    """``-20 (lower)`` (minimax view: ``MIN 20 (upper)``), or ``stopped`` for a node without a value."""
    if node.value is None:
        return "stopped"
    seen = node_view(node, view)
    return f"{seen.role + ' ' if view != NEGAMAX else ''}{seen.value_text} ({seen.bound})"


def _print_trees(args: argparse.Namespace, game: Game, result: SearchResult, tree: SearchTree,
                 other: tuple[SearchResult, SearchTree] | None) -> Comparison | None:
    """Print the tree's summary (and the compared one's, and the comparison); the comparison."""
    print("\n".join(tree_summary(game, tree, args.engine, result, args.view)))
    if other is None:
        return None
    print()
    print("\n".join(tree_summary(game, other[1], args.compare, other[0], args.view)))
    if tree.root is None or other[1].root is None:
        return None
    comparison = compare_trees(game, tree.root, other[1].root)
    print("\n".join(comparison_lines(comparison, args.engine, args.compare, args.view)))
    return comparison


def _tree_text(args: argparse.Namespace, game: Game, result: SearchResult, tree: SearchTree,
               other: tuple[SearchResult, SearchTree] | None, comparison: Comparison | None) -> str:
    """What ``--out`` holds: the tree as JSON (``.json``) or for Graphviz (``.dot``)."""
    if Path(args.out).suffix.lower() == ".json":
        document = tree_document(game, tree, result, args.engine, args.view)
        if other is not None:
            document["compare"] = tree_document(game, other[1], other[0], args.compare, args.view)
            if comparison is not None:
                document["only_a"] = [list(line) for line in comparison.only_a]
                document["only_b"] = [list(line) for line in comparison.only_b]
                document["differ"] = [list(line) for line in comparison.differ]
        return json.dumps(document, ensure_ascii=False) + "\n"
    marked = None
    label = ""
    if comparison is not None:
        marked = {id(comparison.a[line]) for line in comparison.only_a}
        label = f"filled: lines {args.compare} never visited"
    return tree_dot(game, tree, args.engine, marked=marked, mark_label=label, view=args.view)


def _cmd_tree(args: argparse.Namespace) -> int:
    if args.budget > MAX_BUDGET:
        raise UsageError(f"{PROG} tree", f"--budget is at most {MAX_BUDGET:,}, got {args.budget:,}")
    out = _out_path(args.out)
    game = position_of(args)
    play_moves(game, args.moves)
    if game.outcome() is not None:
        raise UsageError(f"{PROG} tree", "the game is over in this position: there is no tree to search")
    for spec in (args.engine, args.compare):
        if spec is not None:
            check_recordable(spec, type(game))  # before a file is made or anything searched
    handle = _reserve(out) if out is not None else None
    try:
        with stop_on_interrupt() as stop:
            result, tree = record_tree(args.engine, game, budget=args.budget, stop=stop)
            other = None
            if args.compare is not None and not stop.is_set():
                other = record_tree(args.compare, game, budget=args.budget, stop=stop)
        comparison = _print_trees(args, game, result, tree, other)
        if handle is not None and out is not None and not stop.is_set():
            _write(handle, out, _tree_text(args, game, result, tree, other, comparison))
            handle = None  # written whole
            print(f"wrote {out} ({tree.size():,} nodes)")
    finally:
        if handle is not None and out is not None:  # failed or interrupted: no part of a tree is left
            handle.close()
            _discard(out)
    if stop.is_set():
        unwritten = f"; {out} is not written" if out is not None else ""
        print(f"{PROG}: interrupted; the tree is what was searched until then{unwritten}", file=sys.stderr)
        return 130
    return 0
