"""The stepper a student steers (:mod:`engines.tree.steps`): filters, jumps, finding a node by its path;
plain minimax's node count against alpha-beta's (:mod:`engines.tree.stats`); and their words."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.tree import record_tree
from engines.tree.export import line_position, pv_nodes
from engines.tree.stats import main_nodes, minimax_nodes, visit_order
from engines.tree.steps import JUMPS, StepFilter, find_line, next_step, steps
from games import GAME_NAMES, Game, game_kind, new_game
from tui.views.tree_text import played_reason, saving_text

#: Every game's small tree (its samples' ``small_tree``): the position and the moves to it.
SMALL = [(name, small[0], small[1]) for name in GAME_NAMES if (small := game_kind(name).samples.small_tree)]


def _position(name: str, position: str | None, moves: tuple[str, ...]) -> Game:
    game = new_game(name, position)
    game.play_all(moves)
    return game


def _parent_of(root):
    parents = {}
    for node in root.walk():
        for child in node.children:
            parents[id(child)] = node
    return parents


def test_filters_jumps_and_paths_over_every_games_small_tree() -> None:
    """Hiding quiescence keeps the horizon nodes and drops the search below them; folding keeps each
    move's last search; the principal line is the root and its PV; each jump stops at the first step of
    its kind; each node's path of moves finds it (its last search)."""
    seen: Counter[str] = Counter()
    for name, position, moves in SMALL:
        game = _position(name, position, moves)
        _, tree = record_tree("pvs:depth=2,seed=0", game)
        root = tree.root
        parents = _parent_of(root)
        everything = steps(root)
        no_q = steps(root, StepFilter(quiescence=False))
        assert all(not parents[id(step.node)].quiescence for step in no_q if step.line)
        assert {id(step.node) for step in no_q} >= {id(node) for node in root.walk() if not node.quiescence}
        seen["quiescence hidden"] += len(everything) - len(no_q)
        folded = steps(root, StepFilter(researches=False))
        for step in folded:
            if step.line:
                brothers = parents[id(step.node)].children
                at = next(i for i, child in enumerate(brothers) if child is step.node)
                assert at + 1 == len(brothers) or not brothers[at + 1].research
        seen["re-searches folded"] += len(everything) - len(folded)
        principal = steps(root, StepFilter(principal=True))
        assert [step.node for step in principal if not step.leave] == [root, *pv_nodes(root)]
        for jump, stops in JUMPS.items():
            index = next_step(everything, 0, jump)
            expected = next((step.index for step in everything[1:] if stops(step)), None)
            assert index == expected
            seen[jump] += index is not None
        for step in everything[1::7]:
            line = step.line
            texts = line_position(game, line)[1]
            found = find_line(game, root, ", ".join(texts))
            assert [(node.null, node.move) for node in found] == [(node.null, node.move) for node in line]
            for parent, node in zip((root, *found), found):
                assert node in parent.children
        for node in root.walk():  # a move searched again is found as its last search
            for first, again in zip(node.children, node.children[1:]):
                if again.research:
                    line = next(step.line for step in everything if step.node is again)
                    assert find_line(game, root, ", ".join(line_position(game, line)[1]))[-1] is again
    assert seen["quiescence hidden"] and seen["re-searches folded"]
    assert seen["cutoff"] and seen["table answer"] and seen["re-search"]


def test_find_line_reads_moves_of_several_words_and_refuses_in_one_line() -> None:
    for name in GAME_NAMES:
        game = new_game(name)
        _, tree = record_tree("alphabeta:depth=2,seed=0", game)
        first = tree.root.children[0]
        text = game.format_move(first.move)
        assert find_line(game, tree.root, text) == (first,)
        principal = tuple(pv_nodes(tree.root)[:2])  # two moves apart by a space only, words and all
        assert find_line(game, tree.root, " ".join(line_position(game, principal)[1])) == principal
        with pytest.raises(ValueError) as refused:
            find_line(game, tree.root, f"{text} {text} {text}")
        assert "\n" not in str(refused.value) and str(refused.value)


def test_minimax_nodes_counts_plain_minimax_and_stops_at_its_cap() -> None:
    """The count is the recorded plain minimax search's size (the same depth, no pruning), and
    alpha-beta's main search is smaller; the order of visits counts the main nodes entered."""
    for name, position, moves in SMALL:
        game = _position(name, position, moves)
        _, plain = record_tree("minimax:depth=2", game)
        assert minimax_nodes(game, 2) == plain.root.size() == main_nodes(plain.root)
        assert minimax_nodes(game, 2, cap=plain.root.size() - 1) is None
        _, pruned = record_tree("alphabeta:depth=2,tt=off", game)
        assert main_nodes(pruned.root) <= plain.root.size()
        order = visit_order(pruned.root)
        entered = [order[id(step.node)] for step in steps(pruned.root) if not step.leave]
        assert entered == list(range(1, pruned.root.size() + 1))


def test_saving_and_the_reasons_for_another_move_in_words() -> None:
    assert saving_text(296, 12, 2, 1_881) == ("node 12 of 296 · plain minimax to depth 2: 1,881 nodes · "
                                              "saved 1,585 (84%)")
    assert "more than" in saving_text(296, None, 5, None) and "counting" in saving_text(3, 1, 2, None, counted=False)
    jittery = played_reason("pvs:time=1,jitter=30", "pvs:time=1,jitter=30")
    assert "jitter=30" in jittery and "table" not in jittery
    changed = played_reason("pvs:time=1,jitter=30", "minimax:depth=2")
    assert "minimax:depth=2's" in changed and "jitter=30" in changed and "table" not in changed
    assert "table warm" in played_reason("pvs:time=1", "pvs:time=1")
    assert "table" not in played_reason("pvs:time=1", "alphabeta:depth=2")
