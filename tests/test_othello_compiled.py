"""The compiled Othello endgame solver (games/othello/compiled.py, numba): the same value and
best move as the pure-Python solver, a stop honoured between chunks of nodes, and the dispatch
of the game's ``solve`` hook (games/othello/solving.py: compiled when ready, pure otherwise).

The suite keeps the compiled path off (tests/conftest.py); these tests turn it on.  The first
of them compiles it once per process (or loads numba's cache): a few seconds.
"""

from __future__ import annotations

import random
import sys
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli_run import assert_usage_error
from engines import create_engine
from games.othello import Othello
from games.othello import solving as solver_module
from games.othello.solver import SolveStopped, Solver
from games.othello.solving import COMPILED_SWITCH, CompiledPath
from test_othello_solver import derived as derived_rows
from test_othello_solver import endgame, own_opp, stop_after

pytest.importorskip("numba")

@pytest.fixture(scope="module")
def compiled() -> ModuleType:
    """The compiled module (compiled, or loaded from numba's cache, once)."""
    from games.othello import compiled as module

    return module


@pytest.fixture
def compiled_on(monkeypatch: pytest.MonkeyPatch, compiled: ModuleType) -> None:
    """The game's hook with the compiled path allowed and ready."""
    monkeypatch.setenv(COMPILED_SWITCH, "on")
    assert solver_module.COMPILED.ready(wait=True) is not None


def derived() -> list[Othello]:
    """The positions of tests/data/ffo-derived.txt (12 and 14 empties)."""
    return [Othello.from_text(position) for _, position, _, _ in derived_rows()]


def test_the_ffo_derived_positions_get_the_pure_solvers_value_and_move(compiled: ModuleType) -> None:
    games = derived()
    assert games and {game.empties for game in games} >= {12, 14}
    for game in games:
        pure, fast = Solver().solve(*own_opp(game)), compiled.solve(*own_opp(game))
        assert (fast.value, fast.move, fast.depth) == (pure.value, pure.move, pure.depth), game.to_text()
        assert fast.nodes > 0


@settings(max_examples=12)
@given(st.integers(0, 10_000), st.integers(8, 12))
def test_random_endgames_get_the_pure_solvers_value_and_move(compiled: ModuleType, seed: int, empties: int) -> None:
    game = endgame(seed, empties)
    if game is None:
        return
    own, opp = own_opp(game)
    pure, fast = Solver().solve(own, opp), compiled.solve(own, opp)
    assert (fast.value, fast.move) == (pure.value, pure.move)


def test_the_table_grows_with_the_empties_and_a_crowded_one_keeps_the_values(
        compiled: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    assert compiled.table_bits(12) == compiled.table_bits(compiled.LARGER_FROM) == compiled.TABLE_BITS
    assert compiled.table_bits(compiled.LARGER_FROM + 2) == compiled.TABLE_BITS + 2
    assert compiled.table_bits(60) == compiled.MAX_TABLE_BITS
    monkeypatch.setattr(compiled, "TABLE_BITS", 4)  # 16 slots: nearly every store replaces another
    for game in derived():
        pure, fast = Solver().solve(*own_opp(game)), compiled.solve(*own_opp(game))
        assert (fast.value, fast.move) == (pure.value, pure.move), game.to_text()


def test_a_pass_at_the_root_and_a_finished_game(compiled: ModuleType) -> None:
    for seed in range(2000):
        rng = random.Random(seed)
        game = Othello()
        while game.legal_moves() and not (game.empties <= 12 and game.must_pass()):
            game.play(rng.choice(game.legal_moves()))
        if game.legal_moves():
            break
    assert game.must_pass()
    for position in (own_opp(game), (0xFFFFFFFF, 0xFFFFFFFF << 32)):
        pure, fast = Solver().solve(*position), compiled.solve(*position)
        assert (fast.value, fast.move) == (pure.value, pure.move)


def test_the_ticks_count_every_node_and_a_stop_ends_the_solve_at_once(compiled: ModuleType) -> None:
    game = derived()[0]  # 14 empties: far more nodes than the first chunks
    counted: list[int] = []
    solution = compiled.solve(*own_opp(game), counted.append)
    assert sum(counted) == solution.nodes and len(counted) > 3
    with pytest.raises(SolveStopped):
        compiled.solve(*own_opp(game), lambda nodes: True)
    budget = stop_after(3000)
    with pytest.raises(KeyboardInterrupt):
        compiled.solve(*own_opp(game), budget)
    # The chunks grow with the nodes searched: a stop comes within twice the budget.
    assert 3000 < budget.seen <= 2 * 3000 + compiled.CHUNK // 256


def test_an_unfinished_compiled_solve_falls_back_to_the_search(compiled_on: None) -> None:
    game = endgame(5, 14)
    assert game is not None
    result = create_engine("pvs:nodes=4000,solve=14", Othello).search(game)
    assert result.stats.solved is None
    assert result.move in game.legal_moves()
    assert result.stats.nodes <= 4000 + 2048  # the first chunks are small


def test_the_game_hook_serves_the_compiled_solver_once_ready(compiled_on: None, compiled: ModuleType) -> None:
    game = derived()[1]
    fast = compiled.solve(*own_opp(game))
    pure = Solver().solve(*own_opp(game))
    assert fast.nodes != pure.nodes  # the hook's answer says which solver gave it
    assert game.solve(64) == fast
    switched = game.solve(64, off=["etc"])  # the switches are the pure solver's
    assert switched is not None and switched.nodes == Solver(etc=False).solve(*own_opp(game)).nodes
    assert solver_module.solve(*own_opp(game), compiled=False) == pure
    assert "compiled" in solver_module.COMPILED.status()


def test_the_environment_switch_keeps_the_pure_solver(monkeypatch: pytest.MonkeyPatch, compiled: ModuleType) -> None:
    monkeypatch.setenv(COMPILED_SWITCH, "off")
    game = derived()[1]
    assert game.solve(64) == Solver().solve(*own_opp(game))
    assert solver_module.COMPILED.ready(wait=True) is None
    assert f"{COMPILED_SWITCH}=off" in solver_module.COMPILED.status()


def test_without_numba_the_pure_solver_serves(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(COMPILED_SWITCH, "on")
    monkeypatch.setitem(sys.modules, "numba", None)  # import numba now fails
    path = CompiledPath()
    monkeypatch.setattr(solver_module, "COMPILED", path)
    game = derived()[1]
    assert game.solve(64) == Solver().solve(*own_opp(game))
    assert path.ready(wait=True) is None and not path.compiling()
    assert path.failure is not None and "numba is not installed" in path.failure
    assert "\n" not in path.status()


# ---------------------------------------------------------------- bench endgame
def test_bench_endgame_says_which_solver_serves(capsys: pytest.CaptureFixture[str],
                                                compiled: ModuleType) -> None:
    from tui.bench.endgame import run_endgame_bench

    for solver, said in (("compiled", "the compiled solver (numba)"), ("python", "the pure-Python solver;")):
        assert run_endgame_bench(["othello"], numbers=lambda number: False, solver=solver) == []
        out = capsys.readouterr().out
        assert said in out.splitlines()[0], solver
    assert solver_module.COMPILED.enabled is None  # for that run only
    run_endgame_bench(["othello"], numbers=lambda number: False, solver="compiled", off=["etc"])
    assert "the pure-Python solver;" in capsys.readouterr().out  # the switches are the pure solver's


def test_bench_endgame_refuses_the_compiled_solver_it_cannot_have(capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    assert_usage_error(capsys, ["bench", "endgame", "--solver", "compiled", "--without", "etc"],
                       "--without measures the pure-Python solver's refinements: not with --solver compiled")
    monkeypatch.setitem(sys.modules, "numba", None)
    monkeypatch.setattr(solver_module, "COMPILED", CompiledPath())
    assert_usage_error(capsys, ["bench", "endgame", "--solver", "compiled"],
                       "the compiled solver cannot serve: numba is not installed (pip install 'tui-games[fast]')")


def test_search_waits_for_the_compiled_solver_when_it_will_solve_the_root(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, compiled: ModuleType) -> None:
    import json

    from cli_run import run

    game = derived()[0]  # 14 empties
    monkeypatch.setenv(COMPILED_SWITCH, "on")
    monkeypatch.setattr(solver_module, "COMPILED", CompiledPath())  # not ready yet in this process
    code, out, err = run(capsys, "search", "othello", "--position", game.to_text(), "--engine",
                         "pvs:solve=14,depth=1", "--json")
    stats = json.loads(out)
    fast = compiled.solve(*own_opp(game))
    assert code == 0 and stats["solved"] == fast.value
    assert stats["nodes"] - fast.nodes in (0, 1)  # the compiled solver's nodes (and the root's), not the pure one's
    assert err in ("", "tui-games search: compiling the endgame solver once (numba; later runs load it "
                       "from numba's cache)...\n")
