"""Turn order is the game's: the searches on a game where a side may move again.

The game is :class:`extra_moves.TakeTwo` (taking exactly two stones moves again), written in the
tests.  The yardstick is :func:`brute_force`, a plain fixed-depth minimax that reads ``turn``
after every move; every full-width engine, with every refinement on or off, must return its value
at the root and play a move worth it, and the recorded tree must label a node MAX exactly where
the root's side moves.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import Limits, create_engine, mate_in
from engines.base import MATE_BOUND
from engines.tree import record_tree
from engines.tree.export import pv_nodes
from engines.tree.views import MAX, MIN, MINIMAX, node_view
from games import WIN, Game

from extra_moves import TakeTwo, points

#: The full-width engines, and ``pvs`` with its refinements on and off: all exact at a fixed depth
#: on a game without captures (``pvs``'s quiescence is the static value there).
EXACT = ("minimax", "minimax:tt=on", "alphabeta", "alphabeta-hard", "alphabeta:tt=off", "alphabeta:order=off",
         "alphabeta-hard:tt=off", "pvs", "pvs:null=off,lmr=off,checks=off,delta=off,predict=off",
         "bl:bf=200,l=1", "h0:k=200", "hl:k=200,l=2")

ROWS = st.text("0123456789", min_size=1, max_size=9)
SEARCHES = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def brute_force(game: Game, depth: int, ply: int = 0) -> float:
    """The ``depth``-ply minimax value for the side to move: a child's value negated only where
    the other side moves there (finished games ``WIN`` less the plies, leaves :func:`points`)."""
    outcome = game.outcome() if ply else None
    if outcome is not None:
        return 0 if outcome.winner is None else WIN - ply if outcome.winner == game.turn else ply - WIN
    if depth <= 0 or not game.legal_moves():
        return points(game, game.turn)  # type: ignore[arg-type]
    best = -float("inf")
    mover = game.turn
    for move in game.legal_moves():
        game.play(move)
        value = brute_force(game, depth - 1, ply + 1)
        best = max(best, value if game.turn == mover else -value)
        game.undo()
    return best


def value_after(game: Game, move: Any, depth: int) -> float:
    """What ``move`` is worth to the side that plays it, ``depth`` plies deep in all."""
    mover = game.turn
    game.play(move)
    try:
        value = brute_force(game, depth - 1, 1)
        return value if game.turn == mover else -value
    finally:
        game.undo()


def spec(base: str, **options: Any) -> str:
    extra = ",".join(f"{key}={value}" for key, value in options.items())
    return f"{base}{',' if ':' in base else ':'}{extra}"


@SEARCHES
@given(row=ROWS, depth=st.integers(1, 6), side=st.sampled_from("AB"))
def test_every_exact_engine_returns_the_value_that_reads_turn(row: str, depth: int, side: str) -> None:
    game = TakeTwo.from_text(f"{row} 0 0 {side}")
    expected = brute_force(game, depth)
    for base in EXACT:
        result = create_engine(spec(base, depth=depth), TakeTwo).search(game, Limits(depth=depth))
        assert result.score == expected, (base, game.to_text(), depth)
        assert value_after(game, result.move, depth) == expected, (base, game.to_text(), depth)


def test_a_search_that_negated_every_child_would_miss_the_free_move() -> None:
    """Taking two (the 0 and the 0) moves again, and the two 9s then win: the only win, made by
    the same side's next move.  A search that assumed the sides alternate would score that child
    as the opponent's move (B taking both 9s) and take three for a draw."""
    game = TakeTwo.from_text("0099 0 0 A")
    for base in ("alphabeta", "pvs", "minimax", "alphabeta-hard"):
        result = create_engine(spec(base, depth=2), TakeTwo).search(game, Limits(depth=2))
        assert game.format_move(result.move) == "2" and result.score == WIN - 2, base


def test_a_forced_win_counts_plies_where_a_side_moves_again() -> None:
    assert TakeTwo.MOVES_AGAIN
    game = TakeTwo.from_text("5500 0 0 A")  # 2 then 2: A takes everything in two plies of its own
    result = create_engine("alphabeta:depth=4", TakeTwo).search(game, Limits(depth=4))
    assert result.score == WIN - 2 and result.stats.mate == 2
    assert mate_in(WIN - 3) == 2 and mate_in(WIN - 3, plies=True) == 3
    assert mate_in(3 - WIN, plies=True) == -3 and mate_in(MATE_BOUND - 1, plies=True) is None


def test_null_move_is_not_tried_where_a_pass_keeps_the_side_to_move() -> None:
    class Passing(TakeTwo):
        """TakeTwo that allows a pass -- one that, wrongly, hands nothing over."""

        def null_move_ok(self) -> bool:
            return True

        def play_null(self) -> None:
            self.passes = getattr(self, "passes", 0) + 1

        def undo_null(self) -> None:
            pass

    game = Passing.from_text("31415926 0 0 A")
    expected = brute_force(game, 5)
    result = create_engine("pvs:depth=5", Passing).search(game, Limits(depth=5))
    assert result.score == expected


@pytest.mark.parametrize("view", [MINIMAX])
def test_the_trees_max_and_min_follow_turn(view: str) -> None:
    game = TakeTwo.from_text("3141592 0 0 A")
    result, tree = record_tree("minimax:depth=4", game)
    root = tree.root
    assert root is not None
    checked = again = 0
    stack: list[tuple[Any, tuple[Any, ...]]] = [(root, ())]
    while stack:
        node, line = stack.pop()
        position = game.copy()
        for move in line:
            position.play(move)
        seen = node_view(node, view)
        assert seen.role == (MAX if position.turn == game.turn else MIN), line
        if line and position.turn == game.turn and len(line) % 2:
            again += 1
        assert node.value == brute_force(position, node.depth, node.ply), line  # minimax: exact
        checked += 1
        stack.extend((child, line + (child.move,)) for child in node.children)
    assert checked > 50 and again > 0
    assert [node.move for node in pv_nodes(root)] == list(result.pv)


def test_the_report_reads_a_move_again_as_the_same_sides_chance() -> None:
    """A's move leaves A to move again at 90%: no loss, whatever 90% would be for the other side."""
    from engines.review import GameReport, PositionScore

    scores = [PositionScore(0, 0.9, best="2"), PositionScore(0, 0.9), PositionScore(0, 0.1)]
    report = GameReport.build("chess", 0, ["2", "1"], scores, turns=[0, 0, 1])
    first, second = report.moves
    assert (first.side, first.after, first.label) == (0, 0.9, "")
    assert second.side == 0 and second.after == 0.9
    assert report.chances == (0.9, 0.9, 0.9)
    parity = GameReport.build("chess", 0, ["2", "1"], scores)  # without turns: the sides alternate
    assert parity.moves[0].label == "blunder"
