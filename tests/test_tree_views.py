"""The minimax view of a recorded tree (:mod:`engines.tree.views`), against a plain minimax written
here with MAX and MIN nodes told apart by whose turn it is (nothing shared with the negamax core)."""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import create_engine
from engines.tree import record_tree
from engines.tree.stats import minimax_nodes
from engines.tree.views import (ALPHA_CUT, BETA_CUT, MAX, MIN, MINIMAX, NEGAMAX, check_view, node_view,
                                root_bound, root_window)
from games import GAME_NAMES, WIN, Game, new_game

from cli_run import run

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


def _recorded_and_plain(spec: str, game: Game, depth: int = 2) -> tuple[Any, dict[Line, float]]:
    """The tree ``spec`` records to ``depth`` on ``game``, and plain minimax's value of every line."""
    _, tree = record_tree(f"{spec},depth={depth}", game)
    evaluate = game.heuristic(create_engine(spec, type(game)).heuristic_name)
    values: dict[Line, float] = {}
    plain_minimax(game.copy(), depth, 0, game.turn, evaluate, values)
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
    tree, values = _recorded_and_plain("minimax:tt=off", game)
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
    # three plies where plain minimax stays small (β-cuts need a MAX node below the root), else two
    depth = 3 if minimax_nodes(game, 3, cap=12_000) is not None else 2
    tree, values = _recorded_and_plain(f"{engine}:tt=off", game, depth)
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


def _walk(item: dict[str, Any]):
    yield item
    for child in item["children"]:
        yield from _walk(child)


@given(st.integers(0, 2**32 - 1), st.sampled_from(GAME_NAMES))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_tree_command_writes_the_minimax_view(capsys, seed, name):
    """``tree GAME --engine minimax:depth=2 --view minimax --out t.json``: each inner MAX node's value
    is its children's largest, each MIN node's their smallest; with alpha-beta, each cut node's value
    and bound agree with its window in that view (β-cuts at MAX nodes, α-cuts at MIN nodes)."""
    game = _random_position(name, seed)
    if game is None:
        return
    moves: list[str] = []
    replay = new_game(name)
    for move in game.move_stack:
        moves.append(replay.format_move(move))
        replay.play(move)
    with tempfile.TemporaryDirectory() as folder:
        for engine, depth in (("minimax", 2), ("alphabeta", 3)):
            out = Path(folder) / f"{engine}.json"
            code, text, err = run(capsys, "tree", name, "--engine", f"{engine}:depth={depth}", "--view", "minimax",
                                  "--out", str(out), *(["--moves", *moves] if moves else []))
            assert code == 0, err
            assert "for the root player (MAX)" in text
            document = json.loads(out.read_text(encoding="utf-8"))
            assert document["view"] == "minimax" and document["root"]["role"] == MAX
            for item in _walk(document["root"]):
                children = item["children"]
                assert all(child["role"] != item["role"] for child in children)
                if engine == "minimax":
                    assert item["bound"] == "exact" and "cut" not in item
                    if children:
                        values = [child["value"] for child in children]
                        assert item["value"] == (max(values) if item["role"] == MAX else min(values))
                elif item.get("cut") == BETA_CUT:
                    assert item["role"] == MAX and item["bound"] == "lower" and item["value"] >= item["beta"]
                elif item.get("cut") == ALPHA_CUT:
                    assert item["role"] == MIN and item["bound"] == "upper" and item["value"] <= item["alpha"]
                else:
                    assert item["end"] not in ("cutoff", "null-move")
