"""The shared transposition table, moves as integers, Lazy SMP, and the easy
levels' noise (``jitter``, ``blunder``)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import create_engine
from engines.base import Limits, SearchStats
from engines.search.core import EXACT, LOWER, UPPER
from engines.search.parallel import _combined
from engines.search.table import SharedTable
from games import GAME_NAMES, WIN, game_class, game_kind, new_game

from playouts import play_randomly


# ------------------------------------------------------------ moves as ints
@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(GAME_NAMES), seed=st.integers(0, 10_000), plies=st.integers(0, 40))
def test_every_legal_move_survives_its_code(name: str, seed: int, plies: int) -> None:
    game = play_randomly(new_game(name), seed, plies)
    moves = game.legal_moves()
    codes = [game.move_code(move) for move in moves]
    assert len(set(codes)) == len(codes)  # one code per move of a position
    for move, code in zip(moves, codes):
        assert 0 <= code < 2 ** 53
        assert game.move_from_code(code) == move


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_code_not_legal_here_decodes_to_nothing(name: str) -> None:
    game = play_randomly(new_game(name), 5, 9)
    start = new_game(name)
    legal = {game.move_code(move) for move in game.legal_moves()}
    foreign = [code for code in (start.move_code(m) for m in start.legal_moves()) if code not in legal]
    assert foreign, "the start has moves the later position has not"
    for code in foreign:
        assert game.move_from_code(code) is None


def test_a_chess_promotion_keeps_its_piece() -> None:
    game = new_game("chess", "8/P6k/8/8/8/8/8/K7 w - - 0 1")
    promotions = [move for move in game.legal_moves() if move.promotion]
    assert len(promotions) == 4
    assert {game.move_from_code(game.move_code(m)) for m in promotions} == set(promotions)


def test_a_chess_key_hashes_alike_in_every_process() -> None:
    game = new_game("chess", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
    code = ("from games import new_game; g = new_game('chess', "
            "'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3'); print(hash(g.key()))")
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert int(other.stdout) == hash(game.key())


# ------------------------------------------------------------ the shared table
@pytest.fixture
def table():
    with SharedTable(1 << 10) as made:
        yield made


@pytest.mark.parametrize("name", GAME_NAMES)
def test_an_entry_comes_back_as_stored(table: SharedTable, name: str) -> None:
    game = play_randomly(new_game(name), 2, 6)
    table.bind(game)
    move = game.legal_moves()[-1]
    key = game.key()
    assert table.get(key) is None
    table[key] = (7, LOWER, -WIN + 12, move)
    assert table.get(key) == (7, LOWER, -WIN + 12, move)
    table[key] = (3, UPPER, 41, None)  # always replaced
    assert table.get(key) == (3, UPPER, 41, None)


def test_a_fractional_value_keeps_its_fraction(table: SharedTable) -> None:
    game = new_game("quixo")
    table.bind(game)
    table[1] = (2, EXACT, 0.37109375, None)  # a multiple of 2**-16: exact
    assert table.get(1) == (2, EXACT, 0.37109375, None)
    table[1] = (2, EXACT, -1 / 3, None)
    assert table.get(1)[2] == pytest.approx(-1 / 3, abs=2 ** -16)


def test_a_torn_or_foreign_entry_is_a_miss(table: SharedTable) -> None:
    table.bind(new_game("quixo"))
    table[12345] = (4, EXACT, 10, 3)
    slot = table.slot(12345)[1]
    table.words[slot + 1] += 1 << 16  # another writer's value, the old check
    assert table.get(12345) is None
    table[12345] = (4, EXACT, 10, 3)
    assert table.get(12345) is not None
    # Another key landing on the same entry does not see it.
    other = next(k for k in range(1, 1 << 16) if k != 12345 and table.slot(k)[1] == slot)
    assert table.get(other) is None
    table.clear()
    assert table.get(12345) is None and table.used() == 0


def test_a_move_that_is_not_legal_here_is_not_given_back(table: SharedTable) -> None:
    later = play_randomly(new_game("chess"), 3, 12)
    start = new_game("chess")
    foreign = next(m for m in later.legal_moves() if m not in start.legal_moves())
    table.bind(later)
    table[start.key()] = (5, EXACT, 0, foreign)  # as if a collision stored it
    table.bind(start)
    assert table.get(start.key()) == (5, EXACT, 0, None)


def test_another_process_sees_what_one_writes(table: SharedTable) -> None:
    code = (f"from engines.search.table import SharedTable\n"
            f"from games import new_game\n"
            f"t = SharedTable({table.entries}, name={table.name!r}); t.bind(new_game('quixo'))\n"
            f"print(t.get(77)); t[78] = (9, 2, -5, 11); t.close()\n")
    table.bind(new_game("quixo"))
    table[77] = (6, EXACT, 123, 4)
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert other.stdout.strip() == "(6, 0, 123, 4)"
    assert table.get(78) == (9, 2, -5, 11)


def test_the_entries_must_be_a_power_of_two() -> None:
    with pytest.raises(ValueError, match="power of two"):
        SharedTable(1000)


# ------------------------------------------------------------ Lazy SMP
def test_the_counters_add_up_over_the_processes() -> None:
    main = SearchStats(nodes=100, evals=60, prunes=5, seldepth=7, time_s=0.5, depth=4)
    helper = SearchStats(nodes=300, evals=200, prunes=9, seldepth=11, time_s=0.5, depth=5)
    total = _combined(main, [helper, {"nodes": 1, "evals": 0, "prunes": 0, "tt_hits": 0, "first_cutoffs": 0,
                                      "h0_evals": 0, "h0_pruned": 0, "hl_evals": 0, "hl_pruned": 0,
                                      "hr_evals": 0, "hr_pruned": 0}])
    assert (total.nodes, total.evals, total.prunes, total.seldepth) == (401, 260, 14, 11)
    assert total.nps == 802 and total.depth == 4


@pytest.mark.slow
@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_parallel_search_answers_like_a_search(name: str) -> None:
    depth = game_kind(name).samples.deep_search_depth
    if depth is None:
        pytest.skip(f"{name}'s samples give no deep_search_depth")
    game = play_randomly(new_game(name), 11, 10)
    infos: list[SearchStats] = []
    with create_engine(f"pvs:depth={depth},workers=2", game_class(name)) as engine:
        result = engine.search(game, on_info=infos.append)
        again = engine.search(game)  # the helper is kept, and the table
        serial = create_engine(f"pvs:depth={depth}", game_class(name)).search(game)
    for found in (result, again):
        assert found.move in game.legal_moves()
        assert found.stats["depth"] == depth
        assert found.pv[0] == found.move
        assert found.stats["best"] == game.format_move(found.move)
    assert infos and infos[-1]["nodes"] == result.stats["nodes"]
    # The helper searched too: more nodes than one process needs alone.
    assert result.stats["nodes"] > serial.stats["nodes"] // 2


@pytest.mark.slow
@pytest.mark.skipif(not os.path.isdir("/dev/shm"), reason="POSIX shared memory in /dev/shm")
def test_the_table_leaves_no_name_behind_once_the_helpers_have_it() -> None:
    """However the processes end later (SIGKILL included), nothing is left in /dev/shm."""
    game = play_randomly(new_game("quixo"), 3, 8)
    with create_engine("pvs:depth=3,workers=2", game_class("quixo")) as engine:
        engine.search(game)
        name = engine.table.name.lstrip("/")
        assert not os.path.exists(f"/dev/shm/{name}")
        assert engine.search(game).move in game.legal_moves()  # the mapping lives on


@pytest.mark.slow
def test_a_parallel_search_finds_the_mate() -> None:
    game = new_game("chess", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")  # Rd8 mates
    with create_engine("pvs:time=5,workers=2", game_class("chess")) as engine:
        result = engine.search(game)
    assert game.format_move(result.move) == "Rd8#" and result.stats["mate"] == 1


@pytest.mark.slow
def test_a_parallel_node_budget_is_shared() -> None:
    game = new_game("quixo")
    with create_engine("pvs:nodes=4000,workers=2", game_class("quixo")) as engine:
        result = engine.search(game)
    assert result.stats["nodes"] <= 4000 + 2 * 300  # each process stops at its half (polled)


# ------------------------------------------------------------ noise for the easy levels
def test_blunder_one_plays_unsearched_random_moves() -> None:
    game = play_randomly(new_game("chess"), 4, 8)
    moves = set()
    for seed in range(12):
        result = create_engine(f"pvs:depth=3,blunder=1,seed={seed}", game_class("chess")).search(game)
        assert result.move in game.legal_moves()
        assert result.stats["depth"] == 0 and result.stats["nodes"] == 0
        moves.add(result.move)
    assert len(moves) > 3


def test_no_blunder_no_jitter_is_the_plain_search() -> None:
    game = play_randomly(new_game("checkers"), 4, 8)
    plain = create_engine("pvs:depth=4", game_class("checkers")).search(game, Limits(4, None, None))
    quiet = create_engine("pvs:depth=4,jitter=0,blunder=0", game_class("checkers")).search(game)
    assert (plain.move, plain.score, plain.stats["nodes"]) == (quiet.move, quiet.score, quiet.stats["nodes"])


def test_jitter_moves_the_scores_by_at_most_itself() -> None:
    game = play_randomly(new_game("chess"), 6, 10)
    plain = create_engine("pvs:depth=1", game_class("chess")).search(game)
    scores = {create_engine(f"pvs:depth=1,jitter=30,seed={seed}", game_class("chess")).search(game).score
              for seed in range(8)}
    assert len(scores) > 1
    assert all(abs(score - plain.score) <= 60 for score in scores)  # the root's line and its rivals'
