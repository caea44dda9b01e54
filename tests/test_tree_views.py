"""The minimax view of a recorded tree (:mod:`engines.tree.views`), against a plain minimax written
here with MAX and MIN nodes told apart by whose turn it is (nothing shared with the negamax core)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import create_engine
from engines.tree import record_tree
from engines.tree.views import (ALPHA_CUT, BETA_CUT, MAX, MIN, MINIMAX, NEGAMAX, check_view, node_view,
                                root_bound, root_window)
from games import GAME_NAMES, WIN, Game, new_game

Line = tuple[Any, ...]


def plain_minimax(game: Game, depth: int, ply: int, root_turn: Any, evaluate, values: dict[Line, float],
                  line: Line = ()) -> float:
    """The root player's value of ``game`` searched ``depth`` plies: MAX where the root player moves,
    MIN elsewhere; every node's value is kept in ``values`` by its line of moves."""
    outcome = game.outcome() if ply else None
    if outcome is not None:
        value: float = 0 if outcome.winner is None else WIN - ply if outcome.winner == root_turn else ply - WIN
    elif depth <= 0:
        mine = evaluate(game, game.turn)
        value = mine if game.turn == root_turn else -mine
    else:
        results = []
        for move in game.legal_moves():
            game.play(move)
            results.append(plain_minimax(game, depth - 1, ply + 1, root_turn, evaluate, values, line + (move,)))
            game.undo()
        value = max(results) if game.turn == root_turn else min(results)
    values[line] = value
    return value


def _random_position(name: str, seed: int) -> Game | None:
    game = new_game(name)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 10)):
        if game.outcome() is not None:
            return None
        game.play(rng.choice(game.legal_moves()))
    return None if game.outcome() is not None else game


def _recorded_and_plain(spec: str, game: Game) -> tuple[Any, dict[Line, float]]:
    """The tree ``spec`` records to depth 2 on ``game``, and plain minimax's value of every line."""
    _, tree = record_tree(spec, game)
    evaluate = game.heuristic(create_engine(spec, type(game)).heuristic_name)
    values: dict[Line, float] = {}
    plain_minimax(game.copy(), 2, 0, game.turn, evaluate, values)
    return tree, values


def _nodes(root):
    stack: list[tuple[Any, Line]] = [(root, ())]
    while stack:
        node, line = stack.pop()
        yield node, line
        for child in node.children:
            stack.append((child, line + (child.move,)))


@given(st.integers(0, 2**32 - 1), st.sampled_from(GAME_NAMES))
@settings(max_examples=12, deadline=None)
def test_the_minimax_view_is_plain_minimax(seed, name):
    """Every node of a minimax search read in the minimax view has the plain minimax value, from the
    root player's side; MAX nodes are where the root player moves, and each inner MAX node's value is
    its children's largest, each MIN node's their smallest."""
    game = _random_position(name, seed)
    if game is None:
        return
    tree, values = _recorded_and_plain("minimax:depth=2", game)
    for node, line in _nodes(tree.root):
        seen = node_view(node, MINIMAX)
        assert seen.value == values[line], line
        assert seen.bound == "exact"
        here = game.copy()
        for move in line:
            here.play(move)
        assert seen.role == (MAX if here.turn == game.turn else MIN)
        if node.children:
            children = [node_view(child, MINIMAX).value for child in node.children]
            assert seen.value == (max(children) if seen.role == MAX else min(children))


@given(st.integers(0, 2**32 - 1), st.sampled_from(GAME_NAMES), st.sampled_from(["alphabeta", "alphabeta-hard"]))
@settings(max_examples=12, deadline=None)
def test_alpha_beta_cuts_agree_with_the_window_in_the_minimax_view(seed, name, engine):
    """A β-cut is at a MAX node whose value reached β, a lower bound; an α-cut at a MIN node whose
    value fell to α, an upper bound; an exact value lies inside its window; and every bound holds
    against plain minimax."""
    game = _random_position(name, seed)
    if game is None:
        return
    tree, values = _recorded_and_plain(f"{engine}:depth=2,tt=off", game)
    for node, line in _nodes(tree.root):
        seen = node_view(node, MINIMAX)
        assert seen.alpha <= seen.beta
        true = values[line]
        if seen.cut == BETA_CUT:
            assert seen.role == MAX and seen.value >= seen.beta and seen.bound == "lower"
        elif seen.cut == ALPHA_CUT:
            assert seen.role == MIN and seen.value <= seen.alpha and seen.bound == "upper"
        if seen.bound == "exact":
            assert seen.alpha < seen.value < seen.beta or not node.children
            assert seen.value == true
        elif seen.bound == "lower":
            assert true >= seen.value
        elif seen.bound == "upper":
            assert true <= seen.value


def test_the_negamax_view_is_the_recorders_and_the_window_turns_at_min_nodes():
    game = new_game(GAME_NAMES[0])
    _, tree = record_tree("alphabeta:depth=2,tt=off", game)
    child = tree.root.children[0]
    negamax = node_view(child, NEGAMAX)
    assert (negamax.value, negamax.alpha, negamax.beta, negamax.bound) == (child.value, child.alpha,
                                                                          child.beta, child.bound)
    assert node_view(child, MINIMAX).value == -child.value and node_view(child).role == MIN
    assert root_window(-3, 5, 1) == (-5, 3) and root_window(-3, 5, 2) == (-3, 5)
    assert root_bound("lower", 1) == "upper" and root_bound("lower", 0) == "lower"
    assert "≤ v ≤" in node_view(child, MINIMAX).window_text and "≤" not in negamax.window_text
    with pytest.raises(ValueError, match="negamax or minimax"):
        check_view("maximin")
