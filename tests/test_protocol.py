"""Properties every game must have, checked over random playouts of all three games."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playouts import play_randomly
from games import (
    GAME_NAMES,
    HEURISTIC_BOUND,
    Game,
    IllegalMoveError,
    MoveError,
    MoveSyntaxError,
    PositionError,
    UnknownGameError,
    UnknownHeuristicError,
    game_class,
    new_game,
)
from games.perft import divide, perft

PLAYOUT = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

games_st = st.sampled_from(GAME_NAMES)


def random_walk(name: str, seed: int, plies: int) -> Game:
    """A game after up to ``plies`` uniformly random legal moves."""
    return play_randomly(new_game(name), seed, plies)


@PLAYOUT
@given(name=games_st, seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 80))
def test_play_then_undo_restores_position_and_key(name: str, seed: int, plies: int) -> None:
    rng = random.Random(seed)
    game = new_game(name)
    trail = []
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves or game.outcome() is not None:
            break
        trail.append((game.to_text(), game.key(), game.turn, game.count_moves(), game.outcome()))
        move = rng.choice(moves)
        game.play(move)
        assert game.move_stack[-1] == move
    assert game.ply == len(trail)
    while trail:
        text, key, turn, count, outcome = trail.pop()
        game.undo()
        assert game.to_text() == text
        assert game.key() == key
        assert game.turn == turn
        assert game.count_moves() == count
        assert game.outcome() == outcome
    assert game.ply == 0
    with pytest.raises(IndexError):
        game.undo()


@PLAYOUT
@given(name=games_st, seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 60))
def test_every_legal_move_round_trips_through_its_text(name: str, seed: int, plies: int) -> None:
    game = random_walk(name, seed, plies)
    moves = game.legal_moves()
    assert len(moves) == game.count_moves()
    assert len(set(moves)) == len(moves), "legal moves must be distinct"
    texts = [game.format_move(m) for m in moves]
    assert len(set(texts)) == len(texts), "two moves share a text"
    for move, text in zip(moves, texts):
        assert game.parse_move(text) == move
        assert game.parse_move(f"  {text} ") == move


@PLAYOUT
@given(name=games_st, seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 80))
def test_position_text_round_trips(name: str, seed: int, plies: int) -> None:
    game = random_walk(name, seed, plies)
    text = game.to_text()
    again = type(game).from_text(text)
    assert again.to_text() == text
    assert again.key() == game.key()
    assert again.turn == game.turn
    assert sorted(map(again.format_move, again.legal_moves())) == sorted(game.legal_move_texts())


@PLAYOUT
@given(name=games_st, seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 80))
def test_copy_is_independent(name: str, seed: int, plies: int) -> None:
    game = random_walk(name, seed, plies)
    twin = game.copy()
    assert twin.key() == game.key() and twin.to_text() == game.to_text()
    assert list(twin.move_stack) == list(game.move_stack)
    moves = twin.legal_moves()
    if moves:
        before = game.to_text()
        twin.play(moves[0])
        assert game.to_text() == before


@PLAYOUT
@given(name=games_st, seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 120))
def test_heuristics_and_features_are_finite_bounded_and_antisymmetric(
    name: str, seed: int, plies: int
) -> None:
    game = random_walk(name, seed, plies)
    for heuristic in game.HEURISTICS:
        mine, theirs = game.evaluate(0, heuristic), game.evaluate(1, heuristic)
        assert math.isfinite(mine)
        assert -HEURISTIC_BOUND < mine < HEURISTIC_BOUND
        assert mine == -theirs, heuristic
    for player in (0, 1):
        features = game.features(player)
        assert len(features) == len(game.FEATURE_NAMES)
        assert all(math.isfinite(float(v)) for v in features)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_decisive_score_is_a_positive_int_beyond_the_start_evaluation(name: str) -> None:
    """Learning targets put forced wins at DECISIVE_SCORE: it must read as more than any quiet position."""
    cls = game_class(name)
    assert type(cls.DECISIVE_SCORE) is int and cls.DECISIVE_SCORE > 0
    game = new_game(name)
    for heuristic in (cls.DEFAULT_HEURISTIC, cls.CUT_HEURISTIC, cls.STRONG_HEURISTIC):
        assert abs(game.evaluate(game.turn, heuristic)) < cls.DECISIVE_SCORE
    assert cls.DECISIVE_SCORE < HEURISTIC_BOUND


@pytest.mark.parametrize("name", GAME_NAMES)
def test_random_games_end_with_an_outcome(name: str) -> None:
    """Random play reaches an end by the rules (wins, draws or caps), never a dead end without one."""
    for seed in range(3):
        rng = random.Random(seed)
        game = new_game(name)
        for _ in range(2000):
            if game.outcome() is not None:
                break
            moves = game.legal_moves()
            assert moves, "no legal move but no outcome either"
            game.play(rng.choice(moves))
        outcome = game.outcome()
        assert outcome is not None, f"{name}: random game did not end in 2000 plies"
        assert outcome.winner in (None, 0, 1) and outcome.reason
        if not game.legal_moves():
            assert outcome is not None


TRANSPOSITIONS = {
    "chess": (["Nf3", "Nf6", "Nc3"], ["Nc3", "Nf6", "Nf3"]),
    "checkers": (["9-13", "22-18", "10-14"], ["10-14", "22-18", "9-13"]),
    "quixo": (["0 0 bottom", "4 4 top", "2 0 bottom"], ["2 0 bottom", "4 4 top", "0 0 bottom"]),
    "othello": (["d3", "c3", "c4", "e3"], ["c4", "c3", "d3", "e3"]),
}


@pytest.mark.parametrize("name", GAME_NAMES)
def test_equal_positions_have_equal_keys(name: str) -> None:
    first, second = new_game(name), new_game(name)
    a, b = TRANSPOSITIONS[name]
    first.play_all(a)
    second.play_all(b)
    assert first.to_text() == second.to_text()
    assert first.key() == second.key()
    assert hash(first.key()) == hash(second.key())
    assert first.key() != new_game(name).key()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_keys_differ_by_side_to_move(name: str) -> None:
    game = new_game(name)
    game.play(game.legal_moves()[0])
    keys = {game.key()}
    # the same board with the other side to move is another position
    parts = game.to_text()
    flipped = {
        "chess": lambda t: t.replace(" b ", " w ", 1),
        "checkers": lambda t: ("B" if t[0] == "W" else "W") + t[1:],
        "quixo": lambda t: t[:-1] + ("X" if t[-1] == "O" else "O"),
        "othello": lambda t: t[:-1] + ("W" if t[-1] == "B" else "B"),
    }[name](parts)
    other = type(game).from_text(flipped)
    assert other.key() not in keys


@settings(max_examples=300, deadline=None)
@given(name=games_st, text=st.text(max_size=40))
def test_garbage_move_text_raises_only_move_errors(name: str, text: str) -> None:
    game = new_game(name)
    try:
        move = game.parse_move(text)
    except MoveError as exc:
        assert str(exc) and "\n" not in str(exc)
    else:
        assert move in game.legal_moves()


@settings(max_examples=300, deadline=None)
@given(name=games_st, text=st.text(max_size=120))
def test_garbage_position_text_raises_only_position_errors(name: str, text: str) -> None:
    try:
        game = game_class(name).from_text(text)
    except PositionError as exc:
        assert str(exc) and "\n" not in str(exc)
    else:
        assert type(game).from_text(game.to_text()).key() == game.key()


@settings(max_examples=200, deadline=None)
@given(name=games_st, data=st.data())
def test_mangled_legal_moves_raise_only_move_errors(name: str, data: st.DataObject) -> None:
    """Near misses (a legal move with characters changed) are the typical typo."""
    game = new_game(name)
    text = data.draw(st.sampled_from(game.legal_move_texts()))
    chars = list(text)
    i = data.draw(st.integers(0, len(chars) - 1))
    chars[i] = data.draw(st.characters())
    try:
        game.parse_move("".join(chars))
    except MoveError as exc:
        assert str(exc) and "\n" not in str(exc)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_error_messages_explain_and_give_an_example(name: str) -> None:
    cls = game_class(name)
    game = cls()
    with pytest.raises(MoveSyntaxError) as syntax:
        game.parse_move("what?")
    assert cls.EXAMPLE_MOVE in str(syntax.value) or "like" in str(syntax.value)
    with pytest.raises(PositionError) as position:
        cls.from_text("not a position")
    assert str(position.value)
    assert cls.from_text(cls.EXAMPLE_POSITION).to_text()
    assert game.parse_move(cls.EXAMPLE_MOVE) in game.legal_moves()


ILLEGAL = {"chess": "e5", "checkers": "21-17", "quixo": "2 2 top", "othello": "d4"}


@pytest.mark.parametrize("name", GAME_NAMES)
def test_well_formed_but_illegal_moves_are_illegal_not_syntax_errors(name: str) -> None:
    with pytest.raises(IllegalMoveError):
        new_game(name).parse_move(ILLEGAL[name])


def test_registry() -> None:
    assert GAME_NAMES == ("chess", "checkers", "quixo", "othello")
    assert new_game("Chess").NAME == "chess"
    with pytest.raises(UnknownGameError, match="expected one of: chess, checkers, quixo, othello"):
        new_game("go")
    for name in GAME_NAMES:
        cls = game_class(name)
        assert cls.NAME == name
        assert cls.DEFAULT_HEURISTIC in cls.HEURISTICS
        assert cls.CUT_HEURISTIC in cls.HEURISTICS
        assert len(set(cls.FEATURE_NAMES)) == len(cls.FEATURE_NAMES)
        with pytest.raises(UnknownHeuristicError, match="expected one of"):
            cls.heuristic("nope")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_perft_leaves_position_unchanged_and_divide_sums(name: str) -> None:
    game = new_game(name)
    before = game.to_text()
    total = perft(game, 3)
    assert perft(game, 3, bulk=False) == total
    assert sum(count for _, count in divide(game, 3)) == total
    assert game.to_text() == before and game.ply == 0


@PLAYOUT
@given(name=games_st, seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 100))
def test_search_hooks_agree_with_the_rules(name: str, seed: int, plies: int) -> None:
    """capture_score, can_stand_pat and tactical_moves, which engines order and
    quiesce with, are consistent with the legal moves and the outcome."""
    game = random_walk(name, seed, plies)
    if game.outcome() is not None:
        return
    legal = game.legal_moves()
    text = game.to_text()
    for move in legal:
        score = game.capture_score(move)
        assert isinstance(score, int) and score >= 0
        if game.is_capture(move):
            assert score > 0
    tactical = game.tactical_moves()
    assert set(tactical) <= set(legal)
    assert all(game.is_capture(m) or game.capture_score(m) > 0 for m in tactical) or not game.can_stand_pat()
    if name == "checkers":
        jumps = [m for m in legal if game.is_capture(m)]
        assert game.can_stand_pat() == (not jumps)
        assert tactical == jumps
    elif name == "chess":
        board = game.board  # type: ignore[attr-defined]
        assert game.can_stand_pat() == (not board.is_check())
        if board.is_check():
            assert tactical == legal
        else:
            assert set(tactical) == {m for m in legal if board.is_capture(m)
                                     or m.promotion == 5 and not board.is_capture(m)}
    else:
        assert game.can_stand_pat() and tactical == []
    assert game.to_text() == text
