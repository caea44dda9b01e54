"""The course's syllabus: its lessons, in order, as data (:class:`Lesson`, :data:`LESSONS`).

Each lesson is a short text, what it needs of its game (a key of
:data:`engines.course.lessons.PICKS`), the engine spec whose recorded tree it shows, and the
exercises that test it (keys of :data:`engines.course.exercises.EXERCISE_KINDS`).  The figures
the last lesson quotes are the lab's (docs/lab.md, the seeds' experiments).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Lesson", "LESSONS", "lesson_by_key"]


@dataclass(frozen=True)
class Lesson:
    """One lesson: a short text, the game it needs (:data:`PICKS`), the spec whose tree it shows."""

    key: str
    title: str
    #: What the lesson needs of its game (a key of :data:`PICKS`).
    pick: str
    #: The engine whose recorded tree the lesson shows.
    spec: str
    #: The text, a few short paragraphs; ``{game}`` is the game's title.
    text: str
    #: Plies of the seeded random playout that makes the position.
    plies: int = 4
    #: An engine recorded on the same position for its node count only (the lesson compares).
    contrast: str | None = None
    #: How the tree's values read at first: ``minimax`` (MAX/MIN) or ``negamax``.
    view: str = "minimax"
    #: The exercises of the lesson (keys of :data:`engines.course.exercises.EXERCISE_KINDS`).
    exercises: tuple[str, ...] = ()
    seed: int = 1



LESSONS: tuple[Lesson, ...] = (
    Lesson("minimax", "1. The game tree and minimax", "fewest", "minimax:depth=2,tt=off,order=off", (
        "A position is the root of a tree: each legal move leads to a child, each of its replies to a "
        "grandchild, and so on.  A search looks a fixed number of plies deep (here 2) and scores the "
        "positions there, the leaves, with an evaluation.\n\n"
        "Minimax backs the scores up.  At a MAX node the root player moves and takes the largest child; "
        "at a MIN node the opponent moves and takes the smallest.  The root's value is what the root "
        "player can count on against best defence, and its best move the child that gives it.\n\n"
        "Read the tree: every leaf has its score, every MIN node the smallest of its leaves, the root the "
        "largest of those."), exercises=("value",)),
    Lesson("negamax", "2. Negamax: one rule for both sides", "fewest", "minimax:depth=2,tt=off,order=off", (
        "Programs do not write MAX and MIN apart.  They score every node for the side to move there, and "
        "then one rule serves both: a node's value is the largest of its children's values negated.  "
        "That is negamax; it computes exactly minimax's numbers, with the sign of every MIN node "
        "turned round.\n\n"
        "The tree here is shown in the negamax view, as the engine records it: a root at =v sits over "
        "its best child at =-v.  Press v to switch to the minimax view and back: the same values, "
        "every MIN node's sign flipped."), view="negamax", exercises=("value",)),
    Lesson("depth", "3. Depth and the evaluation", "fewest", "minimax:depth=3,tt=off,order=off", (
        "Depth is the number of plies the search looks ahead; below it the evaluation guesses.  One ply "
        "more multiplies the tree by the branching factor (about the number of legal moves): here "
        "depth 3 against the lesson before's 2.\n\n"
        "The values change with depth, because the evaluation at the leaves sees a different side to "
        "move and a different stage of every line; an odd depth ends on the opponent's reply, an even "
        "one on ours.  A deeper search is usually better, never certain: the leaves are still guesses."),
        plies=6, contrast="minimax:depth=2,tt=off,order=off", exercises=("value",)),
    Lesson("alphabeta", "4. Alpha-beta: the window", "fewest", "alphabeta:depth=3,tt=off,order=off", (
        "Alpha-beta gets minimax's root value while skipping branches that cannot change it.  Each node "
        "is searched with a window α ≤ v ≤ β: α is what MAX is already sure of on the way down, β what "
        "MIN is already sure of.  A MAX node whose value reaches β stops at once (a β-cut): MIN above "
        "will never let the game come here.  A MIN node that falls to α stops too (an α-cut).\n\n"
        "The window shrinks as the search goes: every better move found raises α at a MAX node (or "
        "lowers β at a MIN node), so later siblings are searched with a narrower window and cut sooner.\n\n"
        "Fail-hard alpha-beta clamps what a node returns into the window; fail-soft (the engine here) "
        "returns the best value it saw even outside it, a tighter bound the table can keep.  A value "
        "shown ≥ is a lower bound, ≤ an upper bound, = exact.  The root's value is minimax's, with far "
        "fewer nodes: compare the count with plain minimax on the same position."),
        contrast="minimax:depth=3,tt=off,order=off", exercises=("cut", "leaves")),
    Lesson("ordering", "5. Move ordering: why the first move cuts", "fewest", "alphabeta:depth=3,tt=off", (
        "How much alpha-beta saves depends on the order of the moves.  If the best move comes first, "
        "its value sets α (or β) at once, and every later sibling is refuted by its first reply that "
        "is good enough: one move searched, a cut.  With perfect order alpha-beta visits about the "
        "square root of minimax's leaves; with the worst order, all of them.\n\n"
        "The engine orders cheaply: the table's move first, then captures, killers and history.  The "
        "tree here is ordered; the count beside it is the same search in the given move order.  Look "
        "at the ✂ marks: most cuts are by move 1."),
        contrast="alphabeta:depth=3,tt=off,order=off", exercises=("order", "leaves")),
    Lesson("deepening", "6. Iterative deepening and the transposition table", "fewest", "pvs:depth=3", (
        "A transposition table remembers each position searched: its depth, its value and whether it is "
        "exact, a lower or an upper bound, and its best move.  When a position comes again by another "
        "order of moves, a deep enough entry answers at once (TT in the tree); a shallower one still "
        "gives its best move to search first.\n\n"
        "Iterative deepening searches depth 1, then 2, then 3...  It looks wasteful, but each depth "
        "fills the table with best moves that order the next one, and a search on a clock always has a "
        "finished depth to play from.  The tree here is the strongest engine's search to depth 3: one "
        "root per depth, with the table; the count beside it the same search without the table."),
        plies=6, contrast="pvs:depth=3,tt=off", exercises=("leaves",)),
    Lesson("quiescence", "7. Quiescence and the horizon effect", "captures", "pvs:depth=1,null=off,lmr=off", (
        "A search that stops at a fixed depth evaluates positions in the middle of an exchange: it "
        "counts the capture it made and not the recapture one ply past its horizon.  Worse, it plays "
        "moves that push a loss it cannot avoid past the horizon, where it does not see it: the "
        "horizon effect.\n\n"
        "Quiescence search goes on below the horizon with captures only (q in the tree), until the "
        "position is quiet; at each such node the side to move may also stand pat, take the "
        "evaluation, when no capture improves on it.  The tree here is a one-ply search with "
        "quiescence; the count beside it the same depth without."),
        plies=8, contrast="alphabeta:depth=1,tt=off", exercises=("value",)),
    Lesson("nullmove", "8. Null move and late-move reductions", "pass", "pvs:depth=2", (
        "Null-move pruning lets the side to move pass and searches the reply shallower: if the position "
        "is still at least β after giving the opponent a free move, a real move will be too, and the "
        "node is cut (null-move in the tree).  It is unsound in zugzwang, where passing would be best, "
        "so games where zugzwang is common do not use it.\n\n"
        "Late-move reductions search the moves late in the order, the quiet ones unlikely to be best, a "
        "ply shallower first; only a move that surprises is searched again at full depth (again in the "
        "tree).\n\n"
        "Both need depth to spare (three plies or more left below the node), so a tree small enough to "
        "read has none: here you see the strongest engine at depth 2, its null-window searches and their "
        "re-searches.  `tui-games tree` with pvs:depth=4 or more shows them, in trees of thousands of "
        "nodes: null where a pass was tried (null-move where it cut), again where a reduced move was "
        "searched anew."), plies=6, exercises=("cut",)),
    Lesson("pvs", "9. Principal variation search", "fewest", "pvs:depth=3", (
        "Once the first move has a value v, principal variation search asks of every other move only "
        "whether it beats v, with a null window (v, v+1): a search that cannot return an exact value, "
        "but cuts very fast.  Good ordering makes the answer almost always no.  When a move does beat v, "
        "it is searched again with the full window (again in the tree) to learn its value.\n\n"
        "Aspiration windows do the same at the root: each depth of iterative deepening starts with a "
        "narrow window around the last depth's value and widens it only if the value falls outside.  "
        "The count beside the tree is plain alpha-beta at the same depth."),
        plies=6, contrast="alphabeta:depth=3,tt=off", exercises=("leaves",)),
    Lesson("seeds", "10. The branching limit, H0, Hl and Hr cutoffs, learned evaluations", "widest",
           "h0:depth=2,k=3", (
        "The seeds this project grew from cut the tree by width instead: at every node keep only the "
        "best k children by a cheap score and never search the rest.  The branching limit (bl) ranks "
        "children by a short search, H0 by the cheap cut heuristic of each child, Hl by an l-ply search "
        "at the root (H0 below), Hr by a regressor trained to predict a child's deep value.  Learned "
        "evaluations go further: a model scores the leaves themselves.\n\n"
        "The tree here is H0 with k=3: '… N not searched' under every node is what it dropped unseen.  "
        "What our experiments found (the lab's seed003-cutoffs, 32 chess games against plain "
        "alpha-beta of the same depth): H0 scored 12.5% at depth 2 and 10.9% at depth 3, Hr 17.2% and "
        "12.5%, each a few times faster; Hl scored 71.9% and 59.4% but searched many times more nodes.  "
        "A forward cut drops the good move as readily as the bad: alpha-beta's cuts are safe, these are "
        "not.  The learned evaluations did better as leaf scores (the pattern tables are the strongest "
        "engine's evaluation in two games) than as cut rankers."),
        plies=2, contrast="alphabeta:depth=2,tt=off", exercises=("h0",)),
)


def lesson_by_key(key: str) -> Lesson | None:
    """The lesson called ``key``, if any."""
    return next((lesson for lesson in LESSONS if lesson.key == key), None)
