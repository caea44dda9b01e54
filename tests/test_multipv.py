"""``multipv``: the best N root moves, each with its exact score and line, checked against an
independent negamax over every root move (tests/test_engines.py's oracle)."""

from __future__ import annotations

import pytest

from engines import create_engine
from games import GAME_NAMES, new_game
from playouts import play_randomly
from test_engines import negamax_value


def _root_values(game, depth: int, evaluate) -> dict:
    """Each legal move's minimax value for the side to move, ``depth`` plies deep in all."""
    values = {}
    mover = game.turn
    for move in game.legal_moves():
        game.play(move)
        value = negamax_value(game, depth - 1, evaluate, 1)
        values[move] = value if game.turn == mover else -value  # a side may move again (turn)
        game.undo()
    return values


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_n_best_lines_are_the_n_best_moves_with_their_values(name: str, seed: int) -> None:
    game = play_randomly(new_game(name), seed, 10)
    if game.outcome() is not None or len(game.legal_moves()) < 4:
        pytest.skip("a finished or narrow position")
    depth = 3
    engine = create_engine(f"alphabeta:depth={depth},multipv=3", type(game))
    result = engine.search(game)
    values = _root_values(game.copy(), depth, engine.evaluate)
    lines = result.stats.lines
    assert len(lines) == 3
    assert [line.score for line in lines] == sorted(values.values(), reverse=True)[:3]
    moves = [game.parse_move(line.pv[0]) for line in lines]
    assert len(set(moves)) == 3
    assert all(values[move] == line.score for move, line in zip(moves, lines))
    assert lines[0].pv == result.stats.pv and lines[0].score == result.score and moves[0] == result.move
    for line in lines:  # each line is legal from the root
        work = game.copy()
        for text in line.pv:
            work.play(work.parse_move(text))


def test_pvs_reports_its_lines_every_depth_and_one_line_is_the_default() -> None:
    game = new_game("chess")
    game.play_all(["e4", "e5", "Nf3"])
    reports = []
    result = create_engine("pvs:depth=4,multipv=4", type(game)).search(game, on_info=reports.append)
    lines = result.stats.lines
    assert len(lines) == 4 and len({line.pv[0] for line in lines}) == 4
    assert [line.score for line in lines] == sorted((line.score for line in lines), reverse=True)
    assert lines[0].pv[0] == result.stats.best
    assert {len(report.lines) for report in reports if report.depth} == {4}
    single = create_engine("pvs:depth=4", type(game)).search(game)
    assert single.stats.lines == []


def test_more_lines_than_moves_gives_every_move() -> None:
    game = new_game("chess", "7k/8/8/8/8/8/P7/K7 w - - 0 1")  # two king moves, two pawn moves
    result = create_engine("pvs:depth=2,multipv=10", type(game)).search(game)
    assert sorted(line.pv[0] for line in result.stats.lines) == ["Kb1", "Kb2", "a3", "a4"]
