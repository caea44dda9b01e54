"""The exact Othello endgame solver (games/othello/solver.py), its FFO test positions
(games/othello/ffo.py) and ``pvs``'s use of it at the root (engines/search/alphabeta.py).

The oracle is a plain negamax over the game's own ``legal_moves``/``play``/``undo``
on random endgames; the FFO positions' published values anchor the rest: the
positions derived from them by playing a best line forward (tests/data/ffo-derived.txt)
keep the published value, negated at each turn.  Node budgets only, no clock.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli_run import assert_usage_error, run
from engines import Limits, create_engine
from engines.search.alphabeta import solved_score
from games import WIN
from games.base import Solution
from games.othello import PASS, Othello, flips
from games.othello.bitboards import CELL_NAMES, legal_mask
from games.othello.ffo import FFO_SOURCE, ffo_cases
from games.othello.solver import SWITCHES, SolveStopped, Solver, final_value, flips_of, parity_of

DERIVED = Path(__file__).parent / "data" / "ffo-derived.txt"


def plain_value(game: Othello) -> int:
    """The final disc difference for the side to move, by plain negamax over the game's moves."""
    moves = game.legal_moves()
    if not moves:
        black, white = game.disc_counts()
        own, opp = (black, white) if game.turn == 0 else (white, black)
        empties = 64 - own - opp
        return own - opp + (empties if own > opp else -empties if own < opp else 0)
    best = -65
    for move in moves:
        game.play(move)
        best = max(best, -plain_value(game))
        game.undo()
    return best


def endgame(seed: int, empties: int) -> Othello | None:
    """A random playout down to ``empties`` empty cells, or ``None`` if it ended before."""
    rng = random.Random(seed)
    game = Othello()
    while game.empties > empties:
        moves = game.legal_moves()
        if not moves:
            return None
        game.play(rng.choice(moves))
    return None if game.outcome() is not None else game


def passing_endgame() -> Othello:
    """The first position of seeded random playouts, at 10 empties or fewer, whose side must pass."""
    for seed in range(1000):
        rng = random.Random(seed)
        game = Othello()
        while game.legal_moves():
            if game.empties <= 10 and game.must_pass():
                return game
            game.play(rng.choice(game.legal_moves()))
    raise AssertionError("no seed gave a pass")  # pragma: no cover


def reaches(game: Othello, move: int, value: int) -> bool:
    """Whether ``move`` leads to a position worth ``value`` for the side to move here."""
    game.play(move)
    try:
        return -plain_value(game) == value
    finally:
        game.undo()


def own_opp(game: Othello) -> tuple[int, int]:
    return game.discs(game.turn), game.discs(game.turn ^ 1)


class stop_after:  # noqa: N801 -- read as a function: ``tick=stop_after(3000)``
    """A solve's ``tick`` that abandons it (raising :class:`KeyboardInterrupt`, as any
    exception does) once more than ``nodes`` positions were searched; ``seen`` counts them."""

    def __init__(self, nodes: int) -> None:
        self.nodes, self.seen = nodes, 0

    def __call__(self, count: int) -> None:
        self.seen += count
        if self.seen > self.nodes:
            raise KeyboardInterrupt


# ------------------------------------------------------------------- pieces
@settings(max_examples=300)
@given(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1), st.integers(0, 63))
def test_flips_by_masks_are_the_games_flips(own: int, opp: int, cell: int) -> None:
    opp &= ~own
    own &= ~(1 << cell)
    opp &= ~(1 << cell)
    assert flips_of(own, opp, cell) == flips(own, opp, cell)


def test_final_value_gives_the_empties_to_the_winner() -> None:
    assert final_value(0b111, 1 << 10) == 2 + 60
    assert final_value(1 << 10, 0b111) == -2 - 60
    assert final_value(0b1, 0b10) == 0


def test_parity_counts_the_empty_cells_per_quadrant() -> None:
    assert parity_of(0) == 0
    assert parity_of(1 << 0) == 1  # a1: top left
    assert parity_of(1 << 7) == 2  # h1: top right
    assert parity_of(1 << 56 | 1 << 63) == 4 | 8  # a8, h8: bottom
    assert parity_of(1 << 0 | 1 << 9) == 0  # two in one quadrant


# ------------------------------------------------------------ the oracle
@settings(max_examples=30)
@given(st.integers(0, 10**9), st.integers(1, 8))  # plain negamax grows as empties!: 8 keeps it to seconds
def test_the_solver_agrees_with_plain_negamax(seed: int, empties: int) -> None:
    game = endgame(seed, empties)
    if game is None:
        return
    expected = plain_value(game)
    solution = Solver().solve(*own_opp(game))
    assert solution.value == expected
    assert solution.depth == game.empties
    assert solution.move in game.legal_moves()
    assert reaches(game, solution.move, expected)


@settings(max_examples=25)
@given(st.integers(0, 10**9), st.integers(6, 10), st.sampled_from(SWITCHES + ("guess",)))
def test_every_refinement_leaves_the_value_unchanged(seed: int, empties: int, switch: str) -> None:
    game = endgame(seed, empties)
    if game is None:
        return
    own, opp = own_opp(game)
    value = Solver().solve(own, opp).value
    if switch == "guess":  # null-window tests from a guess, right or wrong
        solution = Solver().solve(own, opp, guess=value + random.Random(seed).choice((-10, -2, 0, 4, 12)))
    else:
        solution = Solver(off=[switch]).solve(own, opp)
    assert solution.value == value
    assert reaches(game, solution.move, value)


def test_a_position_whose_side_must_pass_is_solved_through_the_pass() -> None:
    game = passing_endgame()
    solution = game.solve(10)
    assert solution is not None
    assert solution.move == PASS
    assert solution.value == plain_value(game)


def test_a_finished_game_is_its_final_value() -> None:
    game = Othello.from_text("BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBB. W")
    assert game.outcome() is not None
    assert Solver().solve(*own_opp(game)) == Solution(-64, None, 1, 1)


def test_an_unknown_switch_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="no such switch of the solver: tabel"):
        Solver(off=["tabel"])


def test_the_table_and_ordering_save_nodes() -> None:
    game = endgame(5, 12)
    assert game is not None
    own, opp = own_opp(game)
    full = Solver().solve(own, opp)
    assert Solver(table=False).solve(own, opp).nodes > full.nodes
    assert Solver(fastest_first=False).solve(own, opp).nodes > full.nodes


# ------------------------------------------------------------- the game's hook
def test_the_game_solves_within_its_reach_only() -> None:
    game = endgame(3, 10)
    assert game is not None
    assert game.solve(9) is None
    before = game.to_text()
    solution = game.solve(10)
    assert solution is not None and solution.depth == 10
    assert game.to_text() == before


def test_the_tick_counts_every_node_and_can_stop_the_solve() -> None:
    game = endgame(8, 12)
    assert game is not None
    counted: list[int] = []
    solution = game.solve(12, counted.append)
    assert solution is not None and sum(counted) == solution.nodes
    with pytest.raises(SolveStopped):
        Solver(tick=lambda nodes: True).solve(*own_opp(game))
    budget = stop_after(3000)
    with pytest.raises(KeyboardInterrupt):
        game.solve(12, budget)
    assert game.to_text() == endgame(8, 12).to_text()  # type: ignore[union-attr]


def test_other_games_have_no_solver() -> None:
    from games import game_class

    for name in ("chess", "checkers", "quixo"):
        game = game_class(name)()
        assert game.solve(64) is None
        assert game.SOLVER_SWITCHES == ()


# -------------------------------------------------------------- FFO positions
def test_the_ffo_positions_are_all_there_and_readable() -> None:
    cases = ffo_cases()
    assert [case.number for case in cases] == list(range(40, 50))
    assert "FFO" in FFO_SOURCE
    empties = [Othello.from_text(case.position).empties for case in cases]
    assert empties == [20, 22, 22, 23, 23, 24, 24, 25, 25, 26]
    for case in cases:
        game = Othello.from_text(case.position)
        assert case.value % 2 == 0
        legal = set(game.legal_move_texts())
        assert set(case.best) <= legal
    first = cases[0]
    assert (first.value, first.best) == (38, ("a2",))
    assert first.position == "W..WWWWB/.WWWWWWB/WWBBWWWB/WWBWWWBB/WWWWWWBB/...WWWWB/....W..B/........ B"


def derived() -> list[tuple[int, str, int, list[str]]]:
    rows = []
    for line in DERIVED.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        number, rows_text, side, value, *moves = line.split()
        rows.append((int(number), f"{rows_text} {side}", int(value), moves))
    return rows


def test_the_derived_positions_follow_their_ffo_line() -> None:
    cases = {case.number: case for case in ffo_cases()}
    assert derived()
    for number, position, value, moves in derived():
        game = Othello.from_text(cases[number].position)
        assert moves[0] in cases[number].best
        game.play_all(moves)
        assert game.to_text() == position
        assert value == cases[number].value * (-1) ** len(moves)  # each ply, pass or not, turns the value


@pytest.mark.parametrize("row", [row for row in derived() if Othello.from_text(row[1]).empties <= 12],
                         ids=lambda row: f"ffo{row[0]}")
def test_the_solver_keeps_the_published_value_along_the_line(row: tuple[int, str, int, list[str]]) -> None:
    number, position, value, _ = row
    game = Othello.from_text(position)
    solution = game.solve(12)
    assert solution is not None and solution.value == value
    assert reaches(game, solution.move, value) if game.empties <= 10 else True


#: The nodes the solver searches on the derived positions at 12 empties, from an empty table.
#: A change meant only to make the solver faster (the flips shared by ordering, ETC and the
#: moves; the last two cells unrolled) keeps them; a change of the algorithm changes them,
#: and says what it bought in docs/benchmarks.md.
NODES_AT_12 = {40: 29_131, 41: 10_666}


def test_the_speed_ups_keep_the_solvers_tree() -> None:
    rows = [row for row in derived() if Othello.from_text(row[1]).empties == 12]
    assert {row[0] for row in rows} == set(NODES_AT_12)
    for number, position, value, _ in rows:
        solution = Solver().solve(*own_opp(Othello.from_text(position)))
        assert (solution.value, solution.nodes) == (value, NODES_AT_12[number])


@pytest.mark.slow
@pytest.mark.parametrize("row", [row for row in derived() if Othello.from_text(row[1]).empties > 12],
                         ids=lambda row: f"ffo{row[0]}")
def test_the_solver_keeps_the_published_value_at_14_empties(row: tuple[int, str, int, list[str]]) -> None:
    number, position, value, _ = row
    solution = Othello.from_text(position).solve(14)
    assert solution is not None and solution.value == value


# ------------------------------------------------------------------ pvs uses it
def test_pvs_solves_the_root_and_reports_it() -> None:
    row = next(row for row in derived() if Othello.from_text(row[1]).empties <= 12)
    number, position, value, _ = row
    game = Othello.from_text(position)
    result = create_engine("pvs:nodes=2000000", Othello).search(game)
    stats = result.stats
    assert stats.solved == value
    assert stats.depth == game.empties
    assert stats.pv == [game.format_move(result.move)]
    assert result.score == solved_score(Solution(value, result.move, 0, game.empties))
    assert stats.nodes > 0
    if value > 0:
        assert result.score == WIN - game.empties and stats.mate is not None and stats.mate > 0


def test_solved_scores_are_wins_losses_and_draws() -> None:
    assert solved_score(Solution(38, 8, 1, 20)) == WIN - 20
    assert solved_score(Solution(-2, 8, 1, 9)) == 9 - WIN
    assert solved_score(Solution(0, 8, 1, 9)) == 0


def test_pvs_searches_instead_when_solve_is_off_or_out_of_reach_or_a_depth_is_fixed() -> None:
    game = endgame(5, 12)
    assert game is not None
    for spec in ("pvs:solve=0,nodes=3000", "pvs:solve=11,nodes=3000", "pvs:depth=2"):
        stats = create_engine(spec, Othello).search(game).stats
        assert stats.solved is None, spec
    stats = create_engine("pvs:depth=2,solve=12", Othello).search(game).stats
    assert stats.solved == Solver().solve(*own_opp(game)).value


def test_an_unfinished_solve_falls_back_to_the_search() -> None:
    game = endgame(5, 14)
    assert game is not None
    # The solve may take half of the budget: far too little for 14 empties.
    result = create_engine("pvs:nodes=4000,solve=14", Othello).search(game)
    assert result.stats.solved is None
    assert result.stats.depth >= 1
    assert result.move in game.legal_moves()
    assert result.stats.nodes <= 4000 + 2048  # the solver reports its nodes every 1,024


def test_a_stop_flag_ends_the_solve() -> None:
    import threading

    game = endgame(5, 14)
    assert game is not None
    stop = threading.Event()
    stop.set()
    result = create_engine("pvs:solve=14", Othello).search(game, Limits(nodes=10**9), stop=stop)
    assert result.stats.solved is None
    assert result.move in game.legal_moves()
    assert result.stats.nodes < 5000


# ---------------------------------------------------------------- bench endgame
@pytest.mark.parametrize(("argv", "needle"), [
    (["bench", "endgame", "--positions", "44-40"], "--positions takes numbers and ranges like 40-44"),
    (["bench", "endgame", "--positions", "x"], "--positions takes numbers and ranges like 40-44"),
    (["bench", "endgame", "--without", "tabel"], "--without takes one of etc, fastest_first"),
    (["bench", "endgame", "--timeout", "0"], "--timeout must be positive, got 0"),
    (["bench", "endgame", "--game", "chess"], "chess: no endgame solver test positions for this game"),
])
def test_bench_endgame_refuses_bad_arguments_in_one_line(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                          needle: str) -> None:
    assert_usage_error(capsys, argv, needle)


def test_bench_endgame_says_which_positions_ran_out_of_time(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "bench", "endgame", "--positions", "40", "--timeout", "0.05",
                         "--without", "etc")
    assert code == 0 and err == ""
    assert "without etc" in out
    line = out.splitlines()[-1]
    assert line.split()[0] == "40" and "+38 a2  timed out after 0.05 s" in line


def test_a_solved_case_is_right_only_with_the_published_value_and_move() -> None:
    from tui.bench.endgame import EndgameRow

    assert EndgameRow(40, 20, 38, "a2", 1, 1.0, 38, ("a2",)).right
    assert not EndgameRow(40, 20, 38, "b2", 1, 1.0, 38, ("a2",)).right
    assert not EndgameRow(40, 20, 36, "a2", 1, 1.0, 38, ("a2",)).right
