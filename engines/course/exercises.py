"""Exercises on fresh small positions, graded from the real search.

:func:`make_exercise` plays a seeded random playout of the game with the fewest moves (the
lessons' :func:`~engines.course.lessons.pick_game`), records the searches the question is
about (:func:`engines.tree.record_tree`) and keeps the trees; :meth:`Exercise.grade` computes
the answer from them when asked -- nothing is stored -- and a wrong answer comes back with the
part of the tree that decides it.  Seeds never run out: every seed is a new position.

The kinds (:data:`EXERCISE_KINDS`): the value that backs up to a node (plain minimax); the child
that causes a cut and whether it is an α-cut or a β-cut (alpha-beta, against the exact values of
minimax); the leaves alpha-beta visits in the order given; the order of the root moves that cuts
most; the moves H0 with k=3 drops.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from games import Game

from ..registry import parse_engine_spec
from ..search.recorder import TreeNode
from ..search.selectors import cut_heuristic
from ..tree import record_tree
from ..tree.export import line_position, unsearched_moves, value_text
from . import view
from .lessons import pick_game, playout
from .text import tree_lines

__all__ = ["EXERCISE_KINDS", "Exercise", "Verdict", "make_exercise", "replay_alphabeta", "MINIMAX", "ALPHABETA"]

#: The exercises, by key: the question each asks.
EXERCISE_KINDS: dict[str, str] = {
    "value": "what value backs up to this node?",
    "cut": "which child causes the cut here, and is it an α-cut or a β-cut?",
    "leaves": "how many leaves will alpha-beta visit with this order?",
    "order": "order these moves to get the most cutoffs",
    "h0": "what does H0 with k=3 drop here?",
}

#: The searches the exercises record (no table, the moves in their given order: the trees a
#: student can redo by hand), and the H0 cutoff the last kind asks about.
MINIMAX = "minimax:depth={depth},tt=off,order=off"
ALPHABETA = "alphabeta:depth={depth},tt=off,order=off"
H0 = "h0:depth=1,k=3,tt=off"
#: The plies of the playouts: late in the game, where few moves are left and a whole tree is small.
PLIES = (30, 56)
#: Positions tried per exercise before giving up on a seed's conditions (each try is a new playout).
TRIES = 200
#: The most leaves a depth-2 exercise tree has, the most children a node asked about.
MAX_LEAVES = 20
MAX_CHILDREN = 6


@dataclass(frozen=True)
class Verdict:
    """A graded answer: right or not, one line saying so, and the lines of the tree that decide it."""

    right: bool
    said: str
    lines: tuple[str, ...] = ()


@dataclass
class Exercise:
    """One exercise: the question, the tree as the student sees it, and what grades it."""

    kind: str
    seed: int
    game: Game
    question: str
    #: How to type the answer.
    answer_hint: str
    shown: list[str]
    _grade: Callable[[str], Verdict] = field(repr=False)
    #: The line of :attr:`shown` the question is about (a viewer scrolls to it).
    focus: int = 0

    def grade(self, answer: str) -> Verdict:
        """Grade ``answer`` (text as typed); an answer that cannot be read is a wrong one, said why."""
        return self._grade(answer.strip())


class _Unfit(Exception):
    """This position does not make the exercise asked (the next playout is tried)."""


def make_exercise(kind: str, seed: int) -> Exercise:
    """A ``kind`` exercise (:data:`EXERCISE_KINDS`) on the position of ``seed``: the first of its
    playouts that fits the question."""
    if kind not in EXERCISE_KINDS:
        raise ValueError(f"no exercise {kind!r}; there are: {', '.join(EXERCISE_KINDS)}")
    name, _ = pick_game("fewest")
    rng = random.Random(seed)
    for _ in range(TRIES):
        game = playout(name, rng.randrange(PLIES[0], PLIES[1]), rng.randrange(1 << 30))
        if game.outcome() is not None:
            continue
        try:
            return _MAKERS[kind](game, rng, seed)
        except _Unfit:
            continue
    raise RuntimeError(f"no position fit the {kind!r} exercise in {TRIES} playouts of seed {seed}")


# ------------------------------------------------------------------ helpers

def _record(spec: str, game: Game) -> TreeNode:
    _, tree = record_tree(spec, game.copy(), budget=5_000)
    root = tree.root
    if root is None or not tree.complete:
        raise _Unfit
    if any(node.end in ("terminal", "max-ply") for node in root.walk()):
        raise _Unfit  # a won or lost leaf reads as a mate, not a number a student adds up
    return root


def _small(root: TreeNode) -> None:
    leaves = [node for node in root.walk() if not node.children]
    if len(leaves) > MAX_LEAVES or not 2 <= len(root.children) <= MAX_CHILDREN:
        raise _Unfit
    if any(len(node.children) > MAX_CHILDREN for node in root.walk()):
        raise _Unfit


def _where(game: Game, line: tuple[TreeNode, ...]) -> str:
    return " ".join(line_position(game, line)[1]) or "the root"


def _line_to(root: TreeNode, target: TreeNode) -> tuple[TreeNode, ...]:
    def find(node: TreeNode, line: tuple[TreeNode, ...]) -> tuple[TreeNode, ...] | None:
        if node is target:
            return line
        for child in node.children:
            found = find(child, line + (child,))
            if found is not None:
                return found
        return None
    found = find(root, ())
    assert found is not None
    return found


def _number(text: str) -> float | None:
    try:
        return float(text.replace("−", "-"))
    except ValueError:
        return None


def _numbers(text: str) -> list[int] | None:
    parts = re.split(r"[\s,]+", text.strip())
    if not parts or not all(part.isdigit() for part in parts):
        return None
    return [int(part) for part in parts]


def _shown(value: float | None) -> str:
    return value_text(value)


def _inner(root: TreeNode) -> set[int]:
    return {id(node) for node in root.walk() if node.children}


def replay_alphabeta(root: TreeNode, order: list[int] | None = None) -> tuple[float, int, int]:
    """Fail-soft alpha-beta over a recorded full-width tree's leaf values (negamax), the root's
    children in ``order`` (indexes; ``None``: as recorded): the root's value, the cutoffs and
    the leaves visited."""
    counts = [0, 0]

    def search(node: TreeNode, alpha: float, beta: float, children: list[TreeNode]) -> float:
        if not node.children:
            counts[1] += 1
            assert node.value is not None
            return node.value
        best = -float("inf")
        for child in children:
            value = -search(child, -beta, -alpha, child.children)
            best = max(best, value)
            alpha = max(alpha, value)
            if alpha >= beta:
                counts[0] += 1
                break
        return best

    kids = root.children if order is None else [root.children[i] for i in order]
    value = search(root, -float("inf"), float("inf"), kids)
    return value, counts[0], counts[1]


# ------------------------------------------------------------------ the kinds

def _value(game: Game, rng: random.Random, seed: int) -> Exercise:
    root = _record(MINIMAX.format(depth=2), game)
    _small(root)
    inner = [node for node in root.walk() if node.children and len(node.children) >= 2]
    target = rng.choice(inner)
    line = _line_to(root, target)
    where = _where(game, line)
    shown = tree_lines(game, root, hidden=_inner(root))

    def grade(answer: str) -> Verdict:
        given = _number(answer)
        right = view.root_value(target)
        position, _ = line_position(game, line)
        lines = tuple(tree_lines(position, target, label=where))
        pick = "the largest" if view.is_max(target) else "the smallest"
        said = (f"{where} is a {view.role(target)} node: it takes {pick} of its children's values, "
                f"{_shown(right)}")
        if given is None:
            return Verdict(False, f"'{answer}' is not a number; {said}", lines)
        ok = right is not None and abs(given - right) < 1e-6
        return Verdict(ok, ("right: " if ok else f"not {answer}: ") + said, () if ok else lines)

    focus = next(i for i, node in enumerate(root.walk()) if node is target)  # one line per node, in order
    return Exercise("value", seed, game, f"What value backs up to {where} ({view.role(target)})? "
                    "Leaves show their evaluation from the root player's side; ? is yours to work out.",
                    "a number", shown, grade, focus)


def _matching(node: TreeNode, move: Any) -> TreeNode:
    return next(child for child in node.children if not child.null and child.move == move)


def _cut(game: Game, rng: random.Random, seed: int) -> Exercise:
    pruned = _record(ALPHABETA.format(depth=3), game)
    full = _record(MINIMAX.format(depth=3), game)
    cuts = [node for node in pruned.walk() if node.end == "cutoff" and node.ply >= 1
            and node.unsearched and 2 <= (node.legal or 0) <= MAX_CHILDREN]
    if not cuts:
        raise _Unfit
    target = rng.choice(cuts)
    line = _line_to(pruned, target)
    same = full
    for node in line:
        same = _matching(same, node.move)
    where = _where(game, line)
    position, _ = line_position(game, line)
    low, high = view.root_window(target)
    shown = [f"{where}: a {view.role(target)} node searched with α {_shown(low)} ≤ v ≤ β {_shown(high)}",
             "its children, in the order searched, with their exact minimax values:"]
    shown += tree_lines(position, same, depth=1, hidden={id(same)}, numbered=True)[1:]

    def grade(answer: str) -> Verdict:
        match = re.fullmatch(r"(\d+)\s*[,;]?\s*(α|a|alpha|β|b|beta)?(?:[-\s]?cut)?", answer.lower())
        kind = view.cut_name(target)
        bound = "β" if view.is_max(target) else "α"
        test = "reaches β or more" if view.is_max(target) else "falls to α or less"
        article = "an" if kind.startswith("α") else "a"
        said = (f"child {target.cut_at} is the first whose value {test}: {article} {kind} "
                f"({'MIN above' if view.is_max(target) else 'MAX above'} already has better than this node can give)")
        lines = (f"window α {_shown(low)} ≤ v ≤ β {_shown(high)}; what alpha-beta searched:",
                 *tree_lines(position, target, depth=1, numbered=True, label=where))
        if match is None or match.group(2) is None:
            return Verdict(False, f"'{answer}' is not a child's number and α or β (like '2 {bound}'); {said}", lines)
        number = int(match.group(1))
        letter = "α" if match.group(2) in ("α", "a", "alpha") else "β"
        ok = number == target.cut_at and letter == bound
        return Verdict(ok, ("right: " if ok else f"not {answer}: ") + said, () if ok else lines)

    return Exercise("cut", seed, game, f"Alpha-beta searches {where}. Which child causes the cut, and is it "
                    "an α-cut or a β-cut?", "the child's number and α or β, like '2 β'", shown, grade)


def _leaves(game: Game, rng: random.Random, seed: int) -> Exercise:
    full = _record(MINIMAX.format(depth=2), game)
    _small(full)
    pruned = _record(ALPHABETA.format(depth=2), game)
    if not any(node.end == "cutoff" for node in pruned.walk()):
        raise _Unfit
    shown = tree_lines(game, full, hidden=_inner(full), numbered=True)

    def grade(answer: str) -> Verdict:
        given = _numbers(answer)
        visited = sum(1 for node in pruned.walk() if not node.children)
        total = sum(1 for node in full.walk() if not node.children)
        said = (f"alpha-beta visits {visited} of the {total} leaves: each ✂ is a node that stopped when a "
                "reply reached the window, '… not searched' what it skipped")
        lines = tuple(tree_lines(game, pruned, numbered=True))
        if given is None or len(given) != 1:
            return Verdict(False, f"'{answer}' is not a count; {said}", lines)
        ok = given[0] == visited
        return Verdict(ok, ("right: " if ok else f"not {answer}: ") + said, () if ok else lines)

    return Exercise("leaves", seed, game, "How many leaves will alpha-beta visit, searching in this order "
                    "(the tree is plain minimax's, every leaf with its value)?", "a number", shown, grade)


def _order(game: Game, rng: random.Random, seed: int) -> Exercise:
    full = _record(MINIMAX.format(depth=2), game)
    _small(full)
    if len(full.children) < 3:
        raise _Unfit
    count = len(full.children)
    shown = tree_lines(game, full, hidden=_inner(full), numbered=True)

    def grade(answer: str) -> Verdict:
        given = _numbers(answer)
        values = [view.root_value(child) for child in full.children]
        best_first = sorted(range(count), key=lambda i: -(values[i] or 0))
        _, most, _ = replay_alphabeta(full, best_first)
        lines = tuple(f"{i + 1}. {line}" for i, line in enumerate(
            f"{text} (MIN: the smallest reply, {_shown(values[j])})"
            for j, text in enumerate(line_position(game, (child,))[1][0] for child in full.children)))
        best = max(range(count), key=lambda i: values[i] or 0) + 1
        said = (f"the most cutoffs is {most}: search a best move first ({best}, worth {_shown(values[best - 1])}); "
                "then every other move is cut at its first reply at or below that")
        if given is None or sorted(given) != list(range(1, count + 1)):
            return Verdict(False, f"'{answer}' is not an order of the moves 1 to {count}; {said}", lines)
        _, cutoffs, _ = replay_alphabeta(full, [i - 1 for i in given])
        ok = cutoffs == most
        return Verdict(ok, ("right: " if ok else f"not {answer} ({cutoffs} cutoffs): ") + said,
                       () if ok else lines)

    return Exercise("order", seed, game, "In what order should alpha-beta search the root moves to get the most "
                    "cutoffs?", f"the moves' numbers, like '{' '.join(str(i) for i in range(count, 0, -1))}'",
                    shown, grade)


def _h0(game: Game, rng: random.Random, seed: int) -> Exercise:
    moves = game.legal_moves()
    if not 5 <= len(moves) <= 8:
        raise _Unfit
    cut = cut_heuristic(parse_engine_spec(H0), type(game))
    me = game.turn
    scores = []
    for move in moves:
        game.play(move)
        scores.append(cut(game, me))
        game.undo()
    ranked = sorted(scores, reverse=True)
    if ranked[2] == ranked[3]:
        raise _Unfit  # a tie at the edge: which one stays is the engine's tie-break, not a lesson
    root = _record(H0, game)
    texts = [game.format_move(move) for move in moves]
    shown = [f"{i}. {text}  H0 {_shown(score)}" for i, (text, score) in enumerate(zip(texts, scores), 1)]

    def grade(answer: str) -> Verdict:
        given = _numbers(answer.replace("none", ""))
        dropped = {moves.index(move) + 1 for move in unsearched_moves(game, root)}
        kept = [i + 1 for i in sorted(range(len(moves)), key=lambda i: -scores[i]) if i + 1 not in dropped]
        said = (f"H0 keeps the 3 children its cheap heuristic scores best ({', '.join(map(str, kept))}) and "
                f"drops {', '.join(str(i) for i in sorted(dropped))} unsearched, however good they are")
        lines = tuple(tree_lines(game, root, numbered=True))
        if given is None:
            return Verdict(False, f"'{answer}' is not a list of the moves' numbers; {said}", lines)
        ok = set(given) == dropped
        return Verdict(ok, ("right: " if ok else f"not {answer}: ") + said, () if ok else lines)

    return Exercise("h0", seed, game, "H0 with k=3 scores each child with the cheap cut heuristic (from the "
                    "mover's side) and keeps the best 3. Which moves does it drop here?",
                    "the numbers of the moves dropped, like '1 4'", shown, grade)


_MAKERS: dict[str, Callable[[Game, random.Random, int], Exercise]] = {
    "value": _value, "cut": _cut, "leaves": _leaves, "order": _order, "h0": _h0,
}
