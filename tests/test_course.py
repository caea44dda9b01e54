"""The course (engines.course): lessons small enough to read, exercises whose answers agree with an
independent plain minimax (and alpha-beta) written here over the same recorded trees, progress kept safely."""

from __future__ import annotations

import json

import pytest

from engines.course import LESSONS, Progress, lesson_setup, load_progress, make_exercise
from engines.course.exercises import ALPHABETA, MINIMAX, EXERCISE_KINDS
from engines.course.lessons import MAX_LESSON_NODES, PICKS
from engines.search.recorder import TreeNode
from engines.tree import record_tree
from engines.tree.export import line_position, unsearched_moves


def plain_minimax(node: TreeNode, maximizing: bool) -> float:
    """MAX/MIN minimax over a recorded full-width tree, leaves turned to the root player's side."""
    if not node.children:
        assert node.value is not None
        return node.value if maximizing else -node.value
    values = [plain_minimax(child, not maximizing) for child in node.children]
    return max(values) if maximizing else min(values)


def leaves_of_alphabeta(node: TreeNode, alpha: float, beta: float, maximizing: bool) -> tuple[float, int]:
    """Plain MAX/MIN alpha-beta over a recorded tree: its value and the leaves it visits."""
    if not node.children:
        assert node.value is not None
        return (node.value if maximizing else -node.value), 1
    count = 0
    best = -float("inf") if maximizing else float("inf")
    for child in node.children:
        value, leaves = leaves_of_alphabeta(child, alpha, beta, not maximizing)
        count += leaves
        if maximizing:
            best = max(best, value)
            alpha = max(alpha, value)
        else:
            best = min(best, value)
            beta = min(beta, value)
        if alpha >= beta:
            break
    return best, count


def test_there_are_at_least_ten_lessons_each_with_a_game_picked_and_a_small_tree() -> None:
    assert len(LESSONS) >= 10
    for lesson in LESSONS:
        assert lesson.pick in PICKS
        setup = lesson_setup(lesson)
        assert setup.why and setup.game_title
        assert setup.tree.complete and 0 < setup.tree.size() <= MAX_LESSON_NODES, lesson.key


@pytest.mark.parametrize("seed", range(4))
def test_the_value_exercise_agrees_with_plain_minimax(seed: int) -> None:
    exercise = make_exercise("value", seed)
    _, tree = record_tree(MINIMAX.format(depth=2), exercise.game.copy())
    assert tree.root is not None
    # The node asked about is named in the question by its line; find it and its value independently.
    for node in tree.root.walk():
        if not node.children:
            continue
        line = _line(tree.root, node)
        where = " ".join(line_position(exercise.game, line)[1]) or "the root"
        if f"backs up to {where} (" in exercise.question:
            value = plain_minimax(node, node.ply % 2 == 0)  # the root player's side, MAX or MIN here
            assert exercise.grade(str(value)).right
            assert not exercise.grade(str(value + 1)).right
            assert exercise.grade(str(value + 1)).lines  # a wrong answer shows the tree that decides it
            return
    raise AssertionError(exercise.question)


def _line(root: TreeNode, target: TreeNode) -> tuple[TreeNode, ...]:
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


@pytest.mark.parametrize("seed", range(4))
def test_the_leaves_exercise_agrees_with_an_independent_alphabeta(seed: int) -> None:
    exercise = make_exercise("leaves", seed)
    _, tree = record_tree(MINIMAX.format(depth=2), exercise.game.copy())
    assert tree.root is not None
    value, leaves = leaves_of_alphabeta(tree.root, -float("inf"), float("inf"), True)
    assert value == plain_minimax(tree.root, True)
    assert exercise.grade(str(leaves)).right
    assert not exercise.grade(str(leaves + 1)).right


@pytest.mark.parametrize("seed", range(4))
def test_the_cut_exercise_names_the_first_child_past_the_window(seed: int) -> None:
    exercise = make_exercise("cut", seed)
    _, pruned = record_tree(ALPHABETA.format(depth=3), exercise.game.copy())
    _, full = record_tree(MINIMAX.format(depth=3), exercise.game.copy())
    assert pruned.root is not None and full.root is not None
    for node in pruned.root.walk():
        line = _line(pruned.root, node)
        where = " ".join(line_position(exercise.game, line)[1])
        if node.end != "cutoff" or node.ply < 1 or f"searches {where}." not in exercise.question:
            continue
        same = full.root
        for step in line:
            same = next(child for child in same.children if child.move == step.move)
        maximizing = node.ply % 2 == 0
        # The window from the root player's side; the cut child is the first whose minimax value crosses it.
        low, high = (node.alpha, node.beta) if maximizing else (-node.beta, -node.alpha)
        values = [plain_minimax(child, not maximizing) for child in same.children]
        first = next(i for i, v in enumerate(values, 1) if (v >= high if maximizing else v <= low))
        right, wrong = ("β", "α") if maximizing else ("α", "β")
        assert exercise.grade(f"{first} {right}").right
        assert not exercise.grade(f"{first} {wrong}").right
        assert not exercise.grade(f"{first % len(values) + 1} {right}").right or len(values) == 1
        return
    raise AssertionError(exercise.question)


@pytest.mark.parametrize("seed", range(4))
def test_the_order_exercise_takes_a_best_move_first(seed: int) -> None:
    exercise = make_exercise("order", seed)
    _, tree = record_tree(MINIMAX.format(depth=2), exercise.game.copy())
    assert tree.root is not None
    values = [plain_minimax(child, False) for child in tree.root.children]
    best_first = sorted(range(len(values)), key=lambda i: -values[i])
    assert exercise.grade(" ".join(str(i + 1) for i in best_first)).right
    worst_first = sorted(range(len(values)), key=lambda i: values[i])
    if values[worst_first[0]] < max(values) and all(values.count(v) == 1 for v in values):
        # the worst first, the rest worst to best: no later move is refuted by a known better one
        assert not exercise.grade(" ".join(str(i + 1) for i in worst_first)).right
    assert not exercise.grade("1 1").right


@pytest.mark.parametrize("seed", range(3))
def test_the_h0_exercise_names_the_moves_never_searched(seed: int) -> None:
    exercise = make_exercise("h0", seed)
    _, tree = record_tree("h0:depth=1,k=3,tt=off", exercise.game.copy())
    assert tree.root is not None
    moves = exercise.game.legal_moves()
    dropped = sorted(moves.index(move) + 1 for move in unsearched_moves(exercise.game, tree.root))
    assert len(dropped) == len(moves) - 3
    assert exercise.grade(" ".join(map(str, dropped))).right
    assert not exercise.grade(" ".join(map(str, dropped[1:]))).right


def test_every_kind_makes_an_exercise_and_a_bad_answer_is_one_wrong_line() -> None:
    for kind in EXERCISE_KINDS:
        verdict = make_exercise(kind, 7).grade("nonsense")
        assert not verdict.right and "\n" not in verdict.said


def test_progress_is_kept_and_a_broken_file_is_said_and_ignored(tmp_path) -> None:
    path = tmp_path / "course.json"
    progress = Progress()
    progress.answered("minimax", True)
    progress.answered("minimax", False)
    progress.done.add("minimax")
    assert load_progress(path) == (Progress(), None)  # no file yet: nothing done
    path.write_text(progress.to_json())
    again, problem = load_progress(path)
    assert problem is None and again.done == {"minimax"} and again.score_text("minimax") == "1/2"
    path.write_text(json.dumps({"done": [], "scores": {"x": [3, 1]}}))
    broken, problem = load_progress(path)
    assert broken.scores == {} and problem is not None and "\n" not in problem
    path.write_text("{not json")
    assert load_progress(path)[1] is not None
