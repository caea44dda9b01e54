"""The course's lessons as data, and the live position and recorded tree each one shows.

A lesson does not name its game: it says what it needs of one (:data:`PICKS`), and
:func:`pick_game` finds the registered game that fits best, with the reason in words (the
fewest moves at the start, so a whole tree fits on a screen; captures, for quiescence; a
pass, for null-move pruning; the most moves, for the seeds' cutoffs).  Its position is a
seeded random playout of that game, and its tree the recording of its engine spec there
(:func:`lesson_setup`), tried on the next seeds until the tree is small enough to read.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

from games import GAME_NAMES, Game, game_kind, new_game

from ..base import SearchResult
from ..search.recorder import SearchTree
from ..tree import record_tree
from .syllabus import LESSONS, Lesson

__all__ = ["PICKS", "Lesson", "LessonSetup", "LESSONS", "MAX_LESSON_NODES", "lesson_setup", "pick_game",
           "playout"]

#: The most nodes a lesson's tree has (a few hundred: a student reads it all).
MAX_LESSON_NODES = 400
#: Seeds a lesson tries for a small enough tree before it takes the smallest.
SEED_TRIES = 8

#: What a lesson can need of its game, and how it is judged among the registered games.
PICKS = {
    "fewest": "the fewest moves at its start",
    "widest": "the most moves at its start",
    "captures": "captures that a quiescence search follows, and the fewest moves among such games",
    "pass": "a null move (a pass) that the search may try",
}


@dataclass
class LessonSetup:
    """A lesson made live: its game and why, its position, its recorded tree."""

    lesson: Lesson
    game_name: str
    game_title: str
    why: str
    game: Game
    tree: SearchTree
    result: SearchResult
    #: The contrast engine's node count on the same position (``None``: no contrast), and
    #: whether its recording ran to its end (else the count is a lower bound).
    contrast_nodes: int | None = None
    contrast_complete: bool = True


def _start_moves(name: str) -> int:
    return len(new_game(name).legal_moves())


def playout(name: str, plies: int, seed: int) -> Game:
    """The game ``name`` after ``plies`` random legal moves (a seeded ``random.Random``), stopped
    one move before any that would end it."""
    rng = random.Random(seed)
    game = new_game(name)
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves or game.outcome() is not None:
            break
        game.play(rng.choice(moves))
        if game.outcome() is not None:
            game.undo()
            break
    return game


def _has_captures(name: str) -> bool:
    """Whether a few seeded playouts of the game meet a position with a tactical move to follow."""
    for seed in range(3):
        rng = random.Random(seed)
        game = new_game(name)
        for _ in range(30):
            if game.outcome() is not None:
                break
            if game.tactical_moves():
                return True
            game.play(rng.choice(game.legal_moves()))
    return False


@functools.cache
def pick_game(pick: str) -> tuple[str, str]:
    """The registered game that shows a lesson's need best, and why in words."""
    names = list(GAME_NAMES)
    counts = {name: _start_moves(name) for name in names}
    if pick == "widest":
        name = max(names, key=counts.__getitem__)
        return name, (f"it has the most moves at its start ({counts[name]}): keeping the best k of them "
                      "is where a cutoff saves most")
    if pick == "captures":
        names = [name for name in names if _has_captures(name)] or names
        name = min(names, key=counts.__getitem__)
        return name, (f"it has captures, which a quiescence search follows past the horizon, and the "
                      f"fewest moves of such games ({counts[name]} at the start)")
    if pick == "pass":
        names = [name for name in names if new_game(name).null_move_ok()] or names
        name = min(names, key=counts.__getitem__)
        return name, "its search may try a pass (a null move): zugzwang is rare in it"
    name = min(names, key=counts.__getitem__)
    return name, f"it has the fewest moves at its start ({counts[name]}), so a whole tree fits on a screen"


def lesson_setup(lesson: Lesson) -> LessonSetup:
    """The lesson's game, position and recorded tree (the first seed from ``lesson.seed`` on whose
    tree has at most :data:`MAX_LESSON_NODES` nodes, else the smallest tried)."""
    name, why = pick_game(lesson.pick)
    best: tuple[int, Game, SearchResult, SearchTree] | None = None
    for seed in range(lesson.seed, lesson.seed + SEED_TRIES):
        game = playout(name, lesson.plies, seed)
        result, tree = record_tree(lesson.spec, game.copy(), budget=MAX_LESSON_NODES * 4)
        if best is None or tree.size() < best[0]:
            best = (tree.size(), game, result, tree)
        if tree.complete and tree.size() <= MAX_LESSON_NODES:
            break
    assert best is not None
    _, game, result, tree = best
    setup = LessonSetup(lesson, name, game_kind(name).title, why, game, tree, result)
    if lesson.contrast is not None:
        _, other = record_tree(lesson.contrast, game.copy(), budget=MAX_LESSON_NODES * 10)
        setup.contrast_nodes = other.size()
        setup.contrast_complete = other.complete
    return setup


