"""The Kalah example (examples/kalah): a game where a side moves again, proved on the engines.

Its rules are checked against :mod:`kalah.solver` (the rules written again, apart from the
game's class), and every full-width engine -- minimax, alpha-beta and its variants, ``pvs`` with
its refinements on and off -- against the solver's exact values on small boards: the sign of the
root value and the value of the move played.  Then it plays: in the app against an engine (a
move again by a click and by the engine), in a match between two engines, through the kit.
The game is registered as tests/test_plugins.py registers the Connect Four example.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from engines import Limits, create_engine
import games
from games import registry

from games.records import RecordHeader, RecordNotes
from textual.widgets import Static
from tui.app.widgets.move_list import MoveList

from app_pilot import make_app, ready, type_move, wait_for
from test_plugins import write_dist

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "kalah"
sys.path.insert(0, str(EXAMPLE))  # the package importable, unregistered, for the rules' tests

from kalah import Kalah  # noqa: E402
from kalah.solver import from_text, move_values, solve, sow  # noqa: E402

#: Every full-width engine; ``minimax`` (no pruning, no table) only on the smallest boards.
PRUNING = ("alphabeta", "alphabeta-hard", "alphabeta:tt=off", "alphabeta:order=off", "alphabeta-hard:tt=off",
           "pvs", "pvs:null=off,lmr=off,checks=off,delta=off,predict=off", "pvs:tt=off")
#: Deep enough that every line of the small boards ends inside the search.
DEPTH = 40
#: The most nodes one search of a small board may take (a bound, not a speed).
NODE_BUDGET = 200_000
SEARCHES = settings(max_examples=8, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow])


def small_board(pits: int, seeds: int, plies: list[int]) -> Kalah:
    """A board of ``pits`` pits a side and ``seeds`` a pit, after the moves picked by ``plies``
    (each an index into the legal moves), stopped before the game ends."""
    row = ",".join([str(seeds)] * pits)
    game = Kalah.from_text(f"{row}:0 {row}:0 S")
    for pick in plies:
        moves = game.legal_moves()
        game.play(moves[pick % len(moves)])
        if game.outcome() is not None:
            game.undo()
            break
    return game


def sign(value: float) -> int:
    return (value > 0) - (value < 0)


BOARDS = st.sampled_from([(3, 1), (3, 2), (4, 1), (4, 2), (5, 1)])
PLIES = st.lists(st.integers(0, 5), max_size=6)


@settings(max_examples=40, deadline=None)
@given(board=st.sampled_from([(3, 1), (4, 2), (6, 1), (6, 4)]), plies=st.lists(st.integers(0, 5), max_size=12))
def test_the_rules_sow_as_the_solver_does(board: tuple[int, int], plies: list[int]) -> None:
    game = small_board(*board, plies)
    here = from_text(game.to_text())
    for move in game.legal_moves():
        game.play(move)
        assert from_text(game.to_text()) == sow(here, move), (game.to_text(), move)
        game.undo()
    assert from_text(game.to_text()) == here


def test_the_standard_start_and_a_move_again() -> None:
    game = Kalah()
    assert game.to_text() == "4,4,4,4,4,4:0 4,4,4,4,4,4:0 S"
    game.play_text("c")  # four seeds from the third pit: the last in South's store
    assert game.to_text() == "4,4,0,5,5,5:1 4,4,4,4,4,4:0 S" and game.turn == 0
    game.play_text("f")
    assert game.turn == 1


def test_a_capture_takes_the_opposite_pit_only_when_it_has_seeds() -> None:
    game = Kalah.from_text("1,0,0,0,0,1:0 2,2,2,2,2,2:0 S")
    game.play_text("a")  # into the empty b, opposite North's e (2 seeds): 3 to the store
    assert game.to_text() == "0,0,0,0,0,1:3 2,2,2,2,0,2:0 N"
    game = Kalah.from_text("1,0,0,0,0,1:0 2,2,2,2,0,2:0 S")
    game.play_text("a")  # opposite pit empty: no capture, the seed stays
    assert game.to_text() == "0,1,0,0,0,1:0 2,2,2,2,0,2:0 N"


def test_the_game_ends_when_a_sides_pits_are_empty_and_the_rest_goes_home() -> None:
    game = Kalah.from_text("1,0,0,0,0,0:0 2,2,2,2,2,2:0 S")
    game.play_text("a")  # South captures 3 and has no seed left: North's 10 go to North's store
    assert game.to_text() == "0,0,0,0,0,0:3 0,0,0,0,0,0:10 S"
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == 1 and game.legal_moves() == []


@SEARCHES
@given(board=BOARDS, plies=PLIES)
def test_every_full_width_engine_agrees_with_the_solver(board: tuple[int, int], plies: list[int]) -> None:
    game = small_board(*board, plies)
    value, values = solve(from_text(game.to_text())), move_values(from_text(game.to_text()))
    engines = PRUNING + (("minimax", "minimax:tt=on") if board in ((3, 1), (3, 2), (4, 1)) else ())
    for base in engines:
        spec = f"{base}{',' if ':' in base else ':'}depth={DEPTH}"
        result = create_engine(spec, Kalah).search(game, Limits(depth=DEPTH))
        assert result.stats.nodes <= NODE_BUDGET, (spec, game.to_text())
        assert sign(result.score) == sign(value), (spec, game.to_text(), result.score, value)
        assert sign(values[result.move]) == sign(value), (spec, game.to_text(), values, result.move)


@pytest.mark.parametrize("text", ["1,1,1,1,1,1:0 1,1,1,1,1,1:0 S", "2,2,2,2:0 2,2,2,2:0 S",
                                  "0,0,1,0,1,1:21 1,0,0,1,0,1:19 S"])
def test_the_parallel_search_agrees_with_the_solver(text: str, kalah_site: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # the helper processes start afresh and look the game up by name: it is installed where they look
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(kalah_site), os.environ.get("PYTHONPATH")])))
    game = Kalah.from_text(text)
    value, values = solve(from_text(text)), move_values(from_text(text))
    engine = create_engine(f"pvs:depth={DEPTH},workers=2", Kalah)
    try:
        result = engine.search(game, Limits(depth=DEPTH))
    finally:
        engine.close()
    assert sign(result.score) == sign(value) and sign(values[result.move]) == sign(value)


# ------------------------------------------------------------ registered
@pytest.fixture
def kalah_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The example installed as pip would install it (its package read from the source)."""
    site = tmp_path / "site"
    site.mkdir()
    shutil.copytree(EXAMPLE / "kalah", site / "kalah")
    write_dist(site, "tui-games-kalah", {"kalah": "kalah.game:Kalah"})
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delenv(registry.WARNED_VARIABLE, raising=False)
    registry.reset()
    yield site
    registry.reset()


async def test_the_app_plays_a_move_again_against_an_engine(kalah_site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tui.app.session.GAME_NAMES", games.GAME_NAMES)  # read when the app was imported
    app = make_app("kalah", "human", "alphabeta:depth=2")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await type_move(pilot, "c")  # the last seed in South's store: South moves again
        await wait_for(pilot, lambda: screen.game.ply == 1, "South's first move")
        assert screen.game.turn == 0
        await type_move(pilot, "f")  # now North: the engine answers, as often as it moves again
        await wait_for(pilot, lambda: screen.game.turn == 0 and screen.game.ply >= 3,
                       "the engine's answer")
        moves = screen.game.move_stack
        assert moves[:2] == (2, 5)
        shown = str(screen.query_one(MoveList).query_one("#move-text", Static).render())
        rows = [line.split() for line in shown.splitlines()[1:]]
        assert rows[0] == ["1.", "c"] and rows[1][:2] == ["1.", "f"], shown  # South's two moves, a row each
        table = screen.query_one(MoveList)
        assert table.get_row_at(0) == ("1.", "c", "") and table.get_row_at(1)[:2] == ("1.", "f")
        written = games.game_kind("kalah").records.write(screen.game, RecordHeader("human", "alphabeta"), RecordNotes())
        assert "\n1. c\n1. f  " in written, written


def test_a_match_between_two_engines_finishes(kalah_site: Path, tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key != registry.WARNED_VARIABLE}
    env["PYTHONPATH"] = str(kalah_site)
    done = subprocess.run([sys.executable, "-m", "tui.cli", "match", "kalah", "--a", "alphabeta:depth=3",
                           "--b", "pvs:depth=2", "--games", "2"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "Games: 2," in done.stdout, done.stdout[-800:]
