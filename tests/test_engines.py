"""The engines (docs/engines.md) on every registered game.

The yardstick is :func:`negamax_value`, a plain fixed-depth negamax written
here over the game protocol only, scoring wins and losses as the engines do
(``WIN - plies`` for the side that wins).  Every full-width engine must return
its value; the selective ones (``bl``, ``h0``, ``hl``) must too when they keep
every child.  Then the tactics each game is known for, the limits (time, node
budget, stop flag), the live statistics and the result's contract.

Searches use cheap heuristics (:data:`CHEAP`) and small depths to keep the
module fast; nothing here asserts a speed.
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from typing import Any, Callable

import chess
import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from engines import (
    ENGINE_NAMES,
    MATE_BOUND,
    STAT_NAMES,
    GameOverError,
    Limits,
    SearchResult,
    create_engine,
    mate_in,
)
from engines.learning.learned import EngineModelError
from games import GAME_NAMES, WIN, Game, GameError, game_class, game_kind, new_game
from games.perft import perft
from games.samples import Decided
from playouts import play_randomly

#: A cheap heuristic per game, for searches whose values are compared (each game's samples).
CHEAP: dict[str, str] = {name: game_kind(name).samples.cheap_heuristic or game_class(name).DEFAULT_HEURISTIC
                         for name in GAME_NAMES}

#: The games whose samples search random positions deeper than 2 plies, and how deep.
DEEPER: dict[str, int] = {name: depth for name in GAME_NAMES
                          if (depth := game_kind(name).samples.search_depth or 2) > 2}

#: Engines that must all return minimax's root value at equal depth and heuristic.
FULL_WIDTH = ("minimax", "alphabeta", "alphabeta-hard", "alphabeta:tt=off", "alphabeta:order=off",
              "alphabeta-hard:tt=off", "minimax:tt=on")

#: The selective engines with a width no position here reaches: they must be exact.
#: (``cut=other``: a cut heuristic other than the game's default one.)
SELECTIVE_AT_FULL_WIDTH = ("bl:bf=200,l=0", "bl:bf=200,l=1", "bl:bf=200,l=2", "h0:k=200",
                           "h0:k=200,cut=other", "hl:k=200,l=1", "hl:k=200,l=2,cut=other")

#: The counters that must repeat exactly from one search to the next with the same seed.
COUNTERS = ("nodes", "evals", "prunes", "tt_hits", "first_cutoffs", "seldepth",
            "h0_evals", "h0_pruned", "hl_evals", "hl_pruned", "hr_evals", "hr_pruned")

#: Hypothesis settings for searches of random positions: few examples, no
#: deadline, and no shrinking (each example costs whole searches; the failing
#: seed and ply count are reported as found).
RANDOM_POSITIONS = settings(max_examples=12, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
                            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


# ------------------------------------------------------------------- helpers
def with_options(base: str, **options: Any) -> str:
    """``base`` (a spec, maybe with options already) with more ``key=value`` options."""
    extra = ",".join(f"{key}={value}" for key, value in options.items())
    if not extra:
        return base
    return f"{base}{',' if ':' in base else ':'}{extra}"


def search(spec: str, game: Game, limits: Limits | None = None, **keywords: Any) -> SearchResult:
    """One search by a fresh engine built from ``spec`` for ``game``'s class."""
    return create_engine(spec, type(game)).search(game, limits, **keywords)


def live_position(name: str, seed: int, plies: int) -> Game:
    """A game after up to ``plies`` seeded random moves (maybe over: callers check)."""
    return play_randomly(new_game(name), seed, plies)


def busy_position(name: str, seed: int, plies: int, moves: int = 4) -> Game:
    """The first of :func:`live_position`'s games from ``seed`` on that is not over and has at least
    ``moves`` legal moves (where a game's first seed reaches a quiet or finished position)."""
    while True:
        game = live_position(name, seed, plies)
        if game.outcome() is None and len(game.legal_moves()) >= moves:
            return game
        seed += 1


def negamax_value(game: Game, depth: int, evaluate: Callable[[Game, int], float], ply: int = 0) -> float:
    """The minimax value of ``game`` for the side to move, searched ``depth`` plies.

    Finished positions below the root score ``WIN - ply`` for the winner
    (quicker wins score higher) and 0 for a draw; leaves score the heuristic
    from the side to move's point of view.
    """
    if ply:
        outcome = game.outcome()
        if outcome is not None:
            if outcome.winner is None:
                return 0
            return WIN - ply if outcome.winner == game.turn else ply - WIN
    if depth == 0:
        return evaluate(game, game.turn)
    best = -float("inf")
    mover = game.turn
    for move in game.legal_moves():
        game.play(move)
        value = negamax_value(game, depth - 1, evaluate, ply + 1)
        best = max(best, value if game.turn == mover else -value)  # a side may move again (turn)
        game.undo()
    return best


def value_of_move(game: Game, move: Any, depth: int, evaluate: Callable[[Game, int], float]) -> float:
    """The ``depth``-ply negamax value of playing ``move`` in ``game`` (for the mover)."""
    mover = game.turn
    game.play(move)
    try:
        value = negamax_value(game, depth - 1, evaluate, 1)
        return value if game.turn == mover else -value
    finally:
        game.undo()


def assert_legal_line(game: Game, line: list[Any], texts: list[str]) -> Game:
    """Play ``line`` on a copy of ``game``, checking each move is legal and formats as ``texts``."""
    assert len(line) == len(texts)
    work = game.copy()
    for move, text in zip(line, texts):
        assert move in work.legal_moves(), (text, work.to_text())
        assert work.format_move(move) == text
        work.play(move)
    return work


def assert_one_line(message: str) -> None:
    assert message and "\n" not in message and "\r" not in message, repr(message)


# ------------------------------------------ one root value for the full-width engines
@pytest.mark.parametrize("depth", [1, 2])
@pytest.mark.parametrize("name", GAME_NAMES)
@RANDOM_POSITIONS
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(4, 20))
def test_full_width_engines_return_the_minimax_value(name: str, depth: int, seed: int, plies: int) -> None:
    game = live_position(name, seed, plies)
    assume(game.outcome() is None)
    check_full_width_value(game, depth)


@pytest.mark.parametrize("name", DEEPER)
@settings(RANDOM_POSITIONS, max_examples=4)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(4, 20))
def test_full_width_engines_return_the_minimax_value_at_the_games_search_depth(
        name: str, seed: int, plies: int) -> None:
    game = live_position(name, seed, plies)
    assume(game.outcome() is None)
    check_full_width_value(game, DEEPER[name])


@pytest.mark.parametrize(("seed", "plies"), [(3, 6), (1, 6)])
def test_full_width_engines_return_the_minimax_value_in_chess_at_depth_3(seed: int, plies: int) -> None:
    game = live_position("chess", seed, plies)
    assert game.outcome() is None
    check_full_width_value(game, 3)


def check_full_width_value(game: Game, depth: int) -> None:
    """Every :data:`FULL_WIDTH` engine returns the negamax value and a move that achieves it.

    So does ``pvs`` in Quixo, which has no tactical moves: its quiescence
    search is the static value, and aspiration and null windows must not
    change the root value.
    """
    heuristic = CHEAP[game.NAME]
    evaluate = type(game).heuristic(heuristic)
    expected = negamax_value(game, depth, evaluate)
    for base in FULL_WIDTH + (("pvs",) if game.NAME == "quixo" else ()):
        spec = with_options(base, depth=depth, heuristic=heuristic)
        result = search(spec, game)
        assert result.score == expected, (spec, game.to_text())
        assert value_of_move(game, result.move, depth, evaluate) == expected, (spec, game.to_text())


#: Positions where a game ends inside the search (each game's samples).
DECIDED = [(name, decided) for name in GAME_NAMES for decided in game_kind(name).samples.decided]


@pytest.mark.parametrize(("name", "decided"), DECIDED)
def test_full_width_engines_agree_where_the_game_ends_inside_the_search(name: str, decided: Decided) -> None:
    position, depth, moves_to_end = decided.position, decided.depth, decided.moves_to_end
    game = new_game(name, position)
    heuristic = type(game).DEFAULT_HEURISTIC
    engines = FULL_WIDTH + SELECTIVE_AT_FULL_WIDTH[:1] + ("h0:k=200", "pvs")
    if not decided.minimax:
        engines = tuple(e for e in engines if not e.startswith(("minimax", "bl")))  # too slow
        expected = None
    else:
        expected = negamax_value(game, depth, type(game).heuristic(heuristic))
    scores = {}
    for base in engines:
        result = search(with_options(base, depth=depth, heuristic=heuristic), game)
        scores[base] = result.score
        assert mate_in(result.score, plies=game.MOVES_AGAIN) == moves_to_end, (base, result.stats["pv"])
        if expected is not None:
            assert result.score == expected, base
    assert len(set(scores.values())) == 1, scores


# ------------------------------------------------------------------ counts
@pytest.mark.parametrize(("name", "depth"), [
    (name, min(count.depth for count in game_kind(name).samples.perft if count.position is None))
    for name in GAME_NAMES if any(count.position is None for count in game_kind(name).samples.perft)])
def test_minimax_counts_every_node_of_the_tree(name: str, depth: int) -> None:
    """No game ends this close to the start (the depth of its smallest published perft count), so
    minimax's tree is perft's."""
    game = new_game(name)
    stats = search(f"minimax:depth={depth}", game).stats
    assert stats["nodes"] == sum(perft(game, d) for d in range(depth + 1))
    assert stats["evals"] == perft(game, depth)
    assert stats["prunes"] == 0
    assert stats["tt_hits"] == 0


@pytest.mark.parametrize(("seed", "plies", "depth"), [(1, 6, 3), (5, 12, 2)])
@pytest.mark.parametrize("name", GAME_NAMES)
def test_alphabeta_prunes_and_visits_fewer_nodes_than_minimax(name: str, seed: int, plies: int, depth: int) -> None:
    game = busy_position(name, seed, plies)
    assert game.outcome() is None and len(game.legal_moves()) >= 4
    heuristic = CHEAP[name]
    minimax = search(f"minimax:depth={depth},heuristic={heuristic}", game)
    assert minimax.stats["prunes"] == 0
    for base in ("alphabeta", "alphabeta-hard", "alphabeta:tt=off", "alphabeta:order=off"):
        result = search(with_options(base, depth=depth, heuristic=heuristic), game)
        assert result.score == minimax.score
        assert result.stats["prunes"] > 0, base
        assert result.stats["nodes"] < minimax.stats["nodes"], base
        assert result.stats["evals"] < minimax.stats["evals"], base


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_one_ply_search_visits_each_child_once(name: str) -> None:
    game = live_position(name, 9, 7)
    moves = game.legal_moves()
    for base in ("minimax", "alphabeta", "alphabeta-hard", "alphabeta:tt=off"):
        stats = search(with_options(base, depth=1), game).stats
        assert (stats["nodes"], stats["evals"], stats["prunes"]) == (1 + len(moves), len(moves), 0), base


# -------------------------------------------------------- bl, h0 and hl
@pytest.mark.parametrize("depth", [1, 2])
@pytest.mark.parametrize("name", GAME_NAMES)
@settings(RANDOM_POSITIONS, max_examples=4)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(4, 20))
def test_selective_engines_keeping_every_child_return_alphabetas_value(
        name: str, depth: int, seed: int, plies: int) -> None:
    game = live_position(name, seed, plies)
    assume(game.outcome() is None)
    check_selective_value(game, depth, SELECTIVE_AT_FULL_WIDTH)


@pytest.mark.parametrize("name", DEEPER)
@settings(RANDOM_POSITIONS, max_examples=2)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(4, 20))
def test_selective_engines_keeping_every_child_return_alphabetas_value_at_the_games_search_depth(
        name: str, seed: int, plies: int) -> None:
    game = live_position(name, seed, plies)
    assume(game.outcome() is None)
    check_selective_value(game, DEEPER[name], SELECTIVE_AT_FULL_WIDTH)


def test_selective_engines_keeping_every_child_return_alphabetas_value_in_chess_at_depth_3() -> None:
    game = live_position("chess", 3, 6)
    assert game.outcome() is None
    check_selective_value(game, 3, ("bl:bf=200,l=0", "h0:k=200", "hl:k=200,l=1"))


def check_selective_value(game: Game, depth: int, specs: tuple[str, ...]) -> None:
    """Each spec, keeping every child, returns alphabeta's value and counts no dropped child."""
    cls = type(game)
    heuristic = CHEAP[game.NAME]
    other_cut = next(name for name in cls.HEURISTICS if name != cls.CUT_HEURISTIC)
    expected = search(f"alphabeta:depth={depth},heuristic={heuristic}", game).score
    n = len(game.legal_moves())
    for base in specs:
        base = base.replace("cut=other", f"cut={other_cut}")
        result = search(with_options(base, depth=depth, heuristic=heuristic), game)
        stats = result.stats
        assert result.score == expected, (base, game.to_text())
        if base.startswith("h0"):
            assert stats["h0_evals"] >= n and stats["h0_pruned"] == 0
        if base.startswith("hl"):
            assert (stats["hl_evals"], stats["hl_pruned"]) == (n, 0)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_one_ply_cutoff_ranking_by_the_evaluation_itself_keeps_the_best_child(name: str) -> None:
    """At depth 1 the child ranked first by the search's own heuristic is the best
    one, so even a width of 1 gives the exact value (this fails if the ranking is
    seen from the wrong side)."""
    heuristic = CHEAP[name]
    for seed in range(6):
        game = live_position(name, seed, 10)
        if game.outcome() is not None:
            continue
        expected = search(f"alphabeta:depth=1,heuristic={heuristic}", game).score
        for spec in (f"h0:k=1,cut={heuristic}", "bl:bf=1,l=0", "bl:bf=1,l=3"):
            result = search(with_options(spec, depth=1, heuristic=heuristic), game)
            assert result.score == expected, (spec, game.to_text())


@pytest.mark.parametrize("depth", [3])
@pytest.mark.parametrize("name", GAME_NAMES)
def test_small_widths_drop_children_and_count_them(name: str, depth: int) -> None:
    game = busy_position(name, 2, 8)
    n = len(game.legal_moves())
    assert n > 3
    h0 = search(f"h0:k=2,depth={depth}", game)
    assert h0.stats["h0_evals"] > 0 and h0.stats["h0_pruned"] > 0
    assert h0.stats["h0_pruned"] < h0.stats["h0_evals"]
    assert h0.stats["hl_evals"] == h0.stats["hl_pruned"] == 0
    hl = search(f"hl:k=2,l=2,depth={depth}", game)
    assert (hl.stats["hl_evals"], hl.stats["hl_pruned"]) == (n, n - 2)
    assert hl.stats["h0_evals"] > 0 and hl.stats["h0_pruned"] > 0  # the H0 cutoff below the root
    for result in (h0, hl):
        assert result.move in game.legal_moves()
    kept = search(f"h0:k=200,depth={depth}", game)
    assert kept.stats["h0_pruned"] == 0
    assert h0.stats["nodes"] < kept.stats["nodes"]


# ----------------------------------------------------------- reproducibility
@pytest.mark.parametrize("spec", [
    "minimax:depth=2", "alphabeta:depth=3", "alphabeta-hard:depth=3", "bl:depth=3", "h0:depth=3",
    "hl:depth=3,l=2", "pvs:depth=4", "pvs:nodes=3000", "alphabeta:nodes=1500",
])
@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_same_seed_gives_the_same_move_and_counters(name: str, spec: str) -> None:
    game = live_position(name, 21, 9)
    first, second = (search(with_options(spec, seed=7), game) for _ in range(2))
    assert first.move == second.move
    assert first.score == second.score
    assert first.pv == second.pv
    assert {k: first.stats[k] for k in COUNTERS} == {k: second.stats[k] for k in COUNTERS}


def test_different_seeds_may_choose_different_moves_among_equal_ones() -> None:
    """From the empty Quixo board every move makes a line of one cube, so at
    depth 1 with ``longest-line`` all 44 moves tie: the seed picks one."""
    game = new_game("quixo")
    evaluate = type(game).heuristic("longest-line")
    chosen = {}
    for seed in range(8):
        result = search(f"alphabeta:depth=1,heuristic=longest-line,seed={seed}", game)
        assert result.score == 1 == value_of_move(game, result.move, 1, evaluate)
        assert search(f"alphabeta:depth=1,heuristic=longest-line,seed={seed}", game).move == result.move
        chosen[seed] = result.move
    assert len(set(chosen.values())) > 1, chosen


# ------------------------------------------------------------------ tactics
def mates_in_one(board: chess.Board) -> list[chess.Move]:
    """The moves that checkmate at once (python-chess alone, no engine)."""
    mates = []
    for move in list(board.legal_moves):
        board.push(move)
        if board.is_checkmate():
            mates.append(move)
        board.pop()
    return mates


def forces_mate_next_move(board: chess.Board, move: chess.Move) -> bool:
    """Whether ``move`` leaves the opponent only replies that allow a mate in one."""
    board.push(move)
    try:
        if board.is_game_over():
            return False
        for reply in list(board.legal_moves):
            board.push(reply)
            mated = bool(mates_in_one(board))
            board.pop()
            if not mated:
                return False
        return True
    finally:
        board.pop()


#: White mates in 2: 1. Qd8+ Bxd8 2. Re8# (and there is no mate in 1).
MATE_IN_TWO = "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1"
#: White mates in 1 with Qb8#, and also in 2 with quiet moves such as Qb7.
MATE_IN_ONE_OR_TWO = "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1"
#: Black to move is mated next move whatever it plays (Kg8, a6, a5: then Qb8#).
MATED_IN_ONE = "7k/p7/6K1/8/8/8/8/1Q6 b - - 0 1"
#: The back-rank mate Ra8#.
BACK_RANK = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"


def test_the_chess_tactics_positions_are_what_they_claim() -> None:
    back_rank = chess.Board(BACK_RANK)
    assert [back_rank.san(m) for m in mates_in_one(back_rank)] == ["Ra8#"]
    two = chess.Board(MATE_IN_TWO)
    assert not mates_in_one(two)
    assert forces_mate_next_move(two, two.parse_san("Qd8+"))
    both = chess.Board(MATE_IN_ONE_OR_TWO)
    assert [both.san(m) for m in mates_in_one(both)] == ["Qb8#"]
    assert forces_mate_next_move(both, both.parse_san("Qb7"))
    assert forces_mate_next_move(both, both.parse_san("Qb2+"))
    mated = chess.Board(MATED_IN_ONE)
    assert mated.legal_moves.count() == 3
    for reply in list(mated.legal_moves):
        mated.push(reply)
        assert mates_in_one(mated)
        mated.pop()


@pytest.mark.parametrize("spec", ["alphabeta:depth=1", "alphabeta:depth=3", "minimax:depth=2", "pvs:depth=4",
                                  "pvs:nodes=5000", "alphabeta-hard:depth=3"])
def test_chess_mate_in_one(spec: str) -> None:
    game = new_game("chess", BACK_RANK)
    result = search(spec, game)
    assert game.format_move(result.move) == "Ra8#"
    assert result.score >= MATE_BOUND and mate_in(result.score) == 1 == result.stats["mate"]
    assert result.stats["pv"] == ["Ra8#"]


@pytest.mark.parametrize("spec", ["alphabeta:depth=3", "alphabeta:depth=3,heuristic=material",
                                  "alphabeta-hard:depth=3", "pvs:depth=4", "pvs:nodes=50000"])
def test_chess_mate_in_two(spec: str) -> None:
    game = new_game("chess", MATE_IN_TWO)
    result = search(spec, game)
    assert mate_in(result.score) == 2 == result.stats["mate"]
    assert result.stats["pv"][0] == "Qd8+"
    end = assert_legal_line(game, result.pv, result.stats["pv"])
    assert end.outcome() is not None and end.outcome().reason == "checkmate"  # type: ignore[union-attr]
    assert result.stats["pv"] == ["Qd8+", "Bxd8", "Re8#"]


@pytest.mark.parametrize("spec", ["alphabeta:depth=3", "alphabeta:depth=4,heuristic=material",
                                  "alphabeta-hard:depth=3", "minimax:depth=3,heuristic=material",
                                  "pvs:depth=4", "pvs:nodes=20000"])
def test_the_quickest_mate_is_preferred(spec: str) -> None:
    game = new_game("chess", MATE_IN_ONE_OR_TWO)
    result = search(spec, game)
    assert game.format_move(result.move) == "Qb8#"
    assert mate_in(result.score) == 1


@pytest.mark.parametrize("spec", ["alphabeta:depth=2", "alphabeta:depth=4", "minimax:depth=2", "pvs:depth=3",
                                  "pvs:nodes=5000"])
def test_being_mated_still_gives_a_legal_move_with_a_losing_score(spec: str) -> None:
    game = new_game("chess", MATED_IN_ONE)
    result = search(spec, game)
    assert result.move in game.legal_moves()
    assert result.score <= -MATE_BOUND
    assert mate_in(result.score) == -1 == result.stats["mate"]


#: Black to move gives a man with 3-8 (after 20x11 forced) to take two with 8x15x22.
CHECKERS_SHOT = "B:W18,20,23,24,30,32:B2,3,4,5,10,16"


def test_the_checkers_shot_wins_a_man_by_hand() -> None:
    game = new_game("checkers", CHECKERS_SHOT)
    assert game.legal_move_texts() == ["2-6", "2-7", "3-7", "3-8", "4-8", "5-9", "10-14", "10-15", "16-19"]
    game.play_text("3-8")
    assert game.legal_move_texts() == ["20x11"]  # the capture is compulsory and the only one
    game.play_text("20x11")
    assert "8x15x22" in game.legal_move_texts()
    game.play_text("8x15x22")
    assert checkers_pieces(game) == {"B": 5, "W": 4}  # one man given, two taken
    assert not any("x" in text for text in game.legal_move_texts())  # and no recapture


def checkers_pieces(game: Game) -> dict[str, int]:
    """Pieces per colour, read from the PDN FEN (``W:W18,K30:B1,2``)."""
    _, *fields = game.to_text().split(":")
    return {field[0]: len(field[1:].split(",")) if field[1:] else 0 for field in fields}


@pytest.mark.parametrize("spec", ["alphabeta:depth=3", "alphabeta:depth=4", "alphabeta:depth=5",
                                  "alphabeta:depth=6", "alphabeta:depth=4,heuristic=material",
                                  "alphabeta-hard:depth=5", "minimax:depth=4", "pvs:depth=4",
                                  "pvs:depth=6", "pvs:nodes=20000"])
def test_the_checkers_shot_is_found(spec: str) -> None:
    game = new_game("checkers", CHECKERS_SHOT)
    result = search(spec, game)
    assert game.format_move(result.move) == "3-8"
    assert result.stats["pv"][:3] == ["3-8", "20x11", "8x15x22"]
    assert result.score >= 50  # up a man (100 in material) give or take position


def test_two_plies_are_too_few_to_see_the_checkers_shot() -> None:
    game = new_game("checkers", CHECKERS_SHOT)
    result = search("alphabeta:depth=2,heuristic=material", game)
    assert game.format_move(result.move) != "3-8"


@pytest.mark.parametrize("spec", ["random", "minimax:depth=3", "alphabeta:depth=3", "alphabeta-hard:depth=3",
                                  "bl:depth=3", "h0:depth=3", "hl:depth=3,l=2", "pvs:depth=3"])
def test_a_search_restricted_to_some_root_moves_chooses_among_them(spec: str) -> None:
    game = new_game("checkers", CHECKERS_SHOT)
    allowed = [move for move in game.legal_moves() if game.format_move(move) in ("2-6", "10-14", "16-19")]
    result = search(spec, game, moves=allowed)
    assert result.move in allowed and result.pv[0] == result.move
    if spec.startswith(("minimax", "alphabeta")):
        evaluate = type(game).heuristic(type(game).DEFAULT_HEURISTIC)
        assert result.score == max(value_of_move(game, move, 3, evaluate) for move in allowed)
    illegal = [move for move in new_game("checkers").legal_moves() if move not in game.legal_moves()]
    assert len(illegal) >= 3
    with pytest.raises(GameError) as error:
        search(spec, game, moves=illegal)
    assert_one_line(str(error.value))


#: X has four on the top row and wins by pushing the blank corner in at the left.
QUIXO_WIN_IN_ONE = "XXXX./OOO../...../...../..... X"


@pytest.mark.parametrize("spec", ["alphabeta:depth=1", "alphabeta:depth=3", "minimax:depth=2", "pvs:depth=1",
                                  "pvs:depth=4", "pvs:nodes=2000", "bl:depth=3", "h0:depth=3", "hl:depth=3"])
def test_quixo_win_in_one(spec: str) -> None:
    game = new_game("quixo", QUIXO_WIN_IN_ONE)
    result = search(spec, game)
    assert mate_in(result.score) == 1
    after = game.copy()
    after.play(result.move)
    outcome = after.outcome()
    assert outcome is not None and outcome.winner == game.turn == 0


# ------------------------------------------------------------------- limits
# (Tactics above use depths and node budgets; the tests below are about the
# clock itself, so they use time limits with margins for a loaded machine.)
@pytest.mark.parametrize("spec", ["pvs:time=0.3", "alphabeta:time=0.3", "h0:time=0.3"])
@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_time_limit_is_kept(name: str, spec: str) -> None:
    game = live_position(name, 5, 6)
    start = time.perf_counter()
    result = search(spec, game)
    elapsed = time.perf_counter() - start
    assert elapsed < 1.0  # 0.3 s and a generous margin: a bound, not a speed test
    assert result.stats["depth"] >= 1
    assert result.move in game.legal_moves()


@pytest.mark.parametrize("spec", ["alphabeta:nodes=1000", "pvs:nodes=1000", "minimax:nodes=1000",
                                  "h0:nodes=1000", "bl:nodes=1000"])
@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_node_budget_stops_the_search_near_it(name: str, spec: str) -> None:
    game = new_game(name)
    result = search(spec, game)
    assert 900 <= result.stats["nodes"] <= 1100
    assert result.stats["depth"] >= 1
    assert result.move in game.legal_moves()


@pytest.mark.parametrize("spec", ["alphabeta:nodes=1", "pvs:nodes=1", "hl:nodes=1"])
def test_a_tiny_node_budget_still_gives_a_legal_move(spec: str) -> None:
    game = new_game("chess")
    result = search(spec, game)
    assert result.move in game.legal_moves()
    assert result.stats["best"] == game.format_move(result.move) == result.stats["pv"][0]


@pytest.mark.parametrize("spec", ["pvs:time=30", "alphabeta:depth=40", "minimax:depth=40", "hl:depth=40"])
@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_stop_event_set_from_another_thread_ends_the_search(name: str, spec: str) -> None:
    game = new_game(name)
    stop = threading.Event()
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    try:
        start = time.perf_counter()
        result = search(spec, game, stop=stop)
        elapsed = time.perf_counter() - start
    finally:
        timer.cancel()
    assert stop.is_set()
    assert elapsed < 2.0
    assert result.move in game.legal_moves()


@pytest.mark.parametrize("spec", ["pvs:time=30", "alphabeta:depth=40", "bl:depth=40", "h0:depth=40",
                                  "hl:depth=40", "random"])
@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_stop_event_set_before_the_search_still_gives_a_legal_move(name: str, spec: str) -> None:
    game = live_position(name, 8, 5)
    stop = threading.Event()
    stop.set()
    start = time.perf_counter()
    result = search(spec, game, stop=stop)
    assert time.perf_counter() - start < 2.0
    assert result.move in game.legal_moves()
    assert result.stats["best"] == game.format_move(result.move)


def test_a_multiprocessing_event_stops_the_search() -> None:
    context = multiprocessing.get_context("spawn")
    game = new_game("chess")
    stop = context.Event()
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    try:
        start = time.perf_counter()
        result = search("pvs:time=30", game, stop=stop)
        assert time.perf_counter() - start < 2.0
    finally:
        timer.cancel()
    assert result.move in game.legal_moves()


def test_an_event_set_in_another_process_stops_the_search() -> None:
    context = multiprocessing.get_context("spawn")
    game = new_game("checkers")
    stop = context.Event()
    setter = context.Process(target=stop.set)
    start = time.perf_counter()
    setter.start()
    try:
        result = search("pvs:time=30", game, stop=stop)
        elapsed = time.perf_counter() - start
    finally:
        setter.join(10)
    assert stop.is_set()
    assert elapsed < 15.0  # starting a Python process may be slow; not stopping takes 30 s
    assert result.move in game.legal_moves()


def test_limits_given_to_search_replace_the_specs() -> None:
    game = new_game("checkers")
    engine = create_engine("alphabeta:depth=6", type(game))
    assert engine.search(game, Limits(depth=2)).stats["depth"] == 2
    assert engine.search(game).stats["depth"] == 6


# --------------------------------------------------------- live statistics
@pytest.mark.parametrize("name", GAME_NAMES)
def test_live_statistics_come_a_few_times_a_second_not_per_node(name: str) -> None:
    game = new_game(name)
    snapshots: list[dict[str, Any]] = []
    result = search("pvs:time=1.0", game, on_info=snapshots.append)
    assert len(snapshots) >= 3
    assert len(snapshots) * 50 < result.stats["nodes"]
    for snapshot in snapshots:
        assert set(STAT_NAMES) <= set(snapshot)
        assert snapshot["best"] is None or snapshot["best"] in game.legal_move_texts()
    nodes = [snapshot["nodes"] for snapshot in snapshots]
    assert nodes == sorted(nodes)
    depths = [snapshot["depth"] for snapshot in snapshots]
    assert depths == sorted(depths)
    assert nodes[-1] <= result.stats["nodes"]


def test_a_fixed_depth_search_reports_its_completed_depth() -> None:
    game = new_game("checkers")
    snapshots: list[dict[str, Any]] = []
    result = search("alphabeta:depth=3", game, on_info=snapshots.append)
    assert snapshots and snapshots[-1]["depth"] == 3
    assert snapshots[-1]["best"] == result.stats["best"]


# ------------------------------------------------------------ the result
RESULT_SPECS = ("random:seed=3", "minimax:depth=2", "alphabeta:depth=3", "alphabeta-hard:depth=3",
                "alphabeta:depth=3,tt=off", "bl:depth=3", "h0:depth=3", "hl:depth=3,l=2", "pvs:depth=3",
                "pvs:depth=3,workers=2")


@pytest.mark.parametrize("spec", RESULT_SPECS)
@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_result_is_complete_and_consistent(name: str, spec: str) -> None:
    game = live_position(name, 13, 8)
    assert game.outcome() is None
    before = (game.to_text(), game.key(), game.ply, list(game.move_stack))
    engine = create_engine(spec, type(game))
    try:
        result = engine.search(game)
    finally:
        engine.close()  # a parallel engine's worker processes
    assert (game.to_text(), game.key(), game.ply, list(game.move_stack)) == before
    stats = result.stats
    assert set(STAT_NAMES) <= set(stats)
    assert {"mate", "seldepth", "first_cutoffs", "engine"} <= set(stats)
    assert stats["engine"] == str(engine.spec) == spec
    assert result.move in game.legal_moves()
    assert stats["best"] == game.format_move(result.move)
    assert result.pv and result.pv[0] == result.move
    assert stats["pv"][0] == stats["best"]
    assert_legal_line(game, result.pv, stats["pv"])
    assert stats["score"] == result.score
    assert stats["mate"] == mate_in(result.score)
    for counter in COUNTERS + ("depth",):
        assert isinstance(stats[counter], int) and stats[counter] >= 0, counter
    assert stats["nodes"] >= 1
    assert stats["time_s"] >= 0 and stats["nps"] >= 0
    if not spec.startswith("random"):
        assert stats["depth"] == result.depth == engine.limits().depth


@pytest.mark.parametrize("depth", [1, 2, 3])
@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_principal_variation_leads_to_the_score(name: str, depth: int) -> None:
    """A fixed-depth PV is at most ``depth`` moves and ends where the root score
    was found: a finished game scored as the engines score it, or after exactly
    ``depth`` moves a leaf whose heuristic value (for the root's side to move)
    is the score."""
    heuristic = CHEAP[name]
    for seed in range(1 if depth == 3 and name == "chess" else 2 if depth == 3 else 4):
        game = live_position(name, 40 + seed, 6 + 3 * seed)
        if game.outcome() is not None:
            continue
        for base in ("minimax", "alphabeta", "alphabeta-hard", "alphabeta:tt=off", "bl:bf=200,l=0", "h0:k=200"):
            check_principal_variation(game, with_options(base, depth=depth, heuristic=heuristic), depth, heuristic)


def test_a_principal_variation_stops_at_the_depth_searched() -> None:
    """Here the transposition table once extended the PV past the depth, into a repetition."""
    game = new_game("quixo", "X.X.X/....O/....O/X...X/.OOXO X")
    check_principal_variation(game, "alphabeta:depth=3,heuristic=line-potential", 3, "line-potential")


def check_principal_variation(game: Game, spec: str, depth: int, heuristic: str) -> None:
    result = search(spec, game)
    assert 1 <= len(result.pv) <= depth, (spec, result.stats["pv"])
    end = assert_legal_line(game, result.pv, result.stats["pv"])
    outcome = end.outcome()
    if outcome is not None:
        plies = len(result.pv)
        expected = 0 if outcome.winner is None else WIN - plies if outcome.winner == game.turn else plies - WIN
    else:
        assert len(result.pv) == depth, (spec, result.stats["pv"])
        expected = end.evaluate(game.turn, heuristic)
    assert result.score == expected, (spec, game.to_text(), result.stats["pv"])


# ---------------------------------------------------------- finished games
#: Positions where the game is over (each game's samples).
FINISHED = {name: game_kind(name).samples.finished for name in GAME_NAMES}


@pytest.mark.parametrize("spec", ENGINE_NAMES)
@pytest.mark.parametrize(("name", "position"), [(n, p) for n, ps in FINISHED.items() for p in ps])
def test_searching_a_finished_game_raises_game_over(name: str, position: str, spec: str) -> None:
    game = new_game(name, position)
    assert game.outcome() is not None
    try:
        engine = create_engine(spec, type(game))
    except EngineModelError:  # a plug-in that ships no model (optional: docs/protocol.md)
        pytest.skip(f"{name} ships no model for {spec}")
    with pytest.raises(GameOverError) as error:
        engine.search(game)
    assert_one_line(str(error.value))
    assert "over" in str(error.value)


# ------------------------------------------------------------------ random
@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_random_engine_plays_legal_moves_reproducibly(name: str) -> None:
    game = live_position(name, 1, 8)
    moves = game.legal_moves()
    assert len(moves) >= 5
    chosen = []
    for seed in range(10):
        result = search(f"random:seed={seed}", game)
        assert result.move in moves
        assert result.pv == [result.move]
        assert result.stats["best"] == game.format_move(result.move)
        assert search(f"random:seed={seed}", game).move == result.move
        chosen.append(result.move)
    assert len(set(chosen)) > 1


def test_a_random_engine_plays_a_whole_game() -> None:
    game = new_game("quixo")
    engines = [create_engine("random:seed=1", type(game)), create_engine("random:seed=2", type(game))]
    while game.outcome() is None:
        game.play(engines[game.turn].search(game).move)
    assert game.outcome() is not None


@pytest.mark.parametrize("spec", ["pvs:depth=6", "alphabeta:depth=6"])
def test_a_restricted_root_never_plays_a_move_outside_it(spec: str) -> None:
    """The root position can come back deeper in the tree (Quixo repeats easily)
    and leave a best move in the transposition table that the restricted root
    (UCI's searchmoves) does not have."""
    game = play_randomly(new_game("quixo"), 3, 12)
    legal = game.legal_moves()
    for share in (legal[0::2], legal[1::2]):
        result = create_engine(spec, type(game)).search(game, moves=share)
        assert result.move in share
        assert result.stats["best"] == game.format_move(result.move)


@pytest.mark.slow
def test_parallel_searches_in_a_row_play_legal_moves_at_the_depth_asked() -> None:
    """Five searches in a row on one shared table (a regression of the root-split
    engine this replaced: a table entry of the root from another search's share)."""
    positions = [play_randomly(new_game("quixo"), seed, 6 + 2 * seed) for seed in range(5)]
    serial = create_engine("pvs:depth=6", game_class("quixo"))
    with create_engine("pvs:depth=6,workers=2", game_class("quixo")) as parallel:
        for game in positions:
            result = parallel.search(game)
            assert result.move in game.legal_moves()
            assert result.stats["best"] == game.format_move(result.move)
            # Depth 6, or less where a forced result ends the search (as it does serially).
            assert result.stats["depth"] == serial.search(game).stats["depth"]


def test_a_move_an_unfinished_depth_proved_comes_with_its_line() -> None:
    """Stopped inside a depth that proved a better move than the last completed
    depth's, the search plays it and reports the line that proved it (it said
    the move alone)."""
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    game = new_game("chess", fen)
    stopped = create_engine("pvs", type(game)).search(game, Limits(nodes=59_000))
    completed = create_engine("pvs", type(game)).search(game, Limits(depth=stopped.stats.depth))
    assert stopped.stats.best != completed.stats.best, "the budget no longer stops inside a changed depth"
    assert stopped.stats.pv[0] == stopped.stats.best and len(stopped.stats.pv) > 1
    line = new_game("chess", fen)
    line.play_all(stopped.stats.pv)  # every move of it is legal in turn
    assert game.to_text() == fen  # the search left the game as it was
