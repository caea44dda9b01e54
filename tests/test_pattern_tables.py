"""Learned tables over patterns (games.learned): the layouts, the evaluation, the files, the fit."""

from __future__ import annotations

import functools
import importlib
import importlib.util
import io
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import GAME_NAMES, game_class, game_kind, new_game
from games.learned import (
    PatternLayout,
    Tables,
    TablesError,
    load_tables,
    save_tables,
    tables_heuristic,
)

from cli_run import assert_usage_error, run
from learning_data import positions, write_dataset

def _patterns(name: str) -> str:
    """The name of ``name``'s ``patterns`` module, in the game's own package."""
    return game_class(name).__module__.rpartition(".")[0] + ".patterns"


def form(name: str):
    """The pattern form of ``name``: its package's ``patterns`` module's ``FORM``."""
    return importlib.import_module(_patterns(name)).FORM


#: The games evaluated by pattern tables (a ``patterns`` module in their package).
GAMES = tuple(name for name in GAME_NAMES if importlib.util.find_spec(_patterns(name)) is not None)


def random_games(name: str, count: int, seed: int, max_plies: int = 70) -> list:
    """Positions of seeded random games, none of them over."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        game = new_game(name)
        for _ in range(rng.randrange(0, max_plies)):
            if game.outcome() is not None:
                break
            game.play(rng.choice(game.legal_moves()))
        if game.outcome() is None:
            found.append(game)
    return found


def random_tables(name: str, seed: int, spread: int = 300) -> Tables:
    rng = np.random.default_rng(seed)
    weights = form(name).weights
    return Tables(tuple(rng.integers(-spread, spread, weights).tolist()), tuple(rng.integers(-spread, spread, weights).tolist()),
                  int(rng.integers(-20, 20)))


# ------------------------------------------------------------------ layouts
@given(st.integers(0, 2 ** 64 - 1), st.integers(0, 2 ** 64 - 1))
def test_a_layouts_indices_are_each_instances_state_in_base_3(a: int, b: int) -> None:
    for name in GAMES:
        layouts = [value for value in vars(importlib.import_module(f"games.{name}.patterns")).values()
                   if isinstance(value, PatternLayout)]
        for layout in layouts:
            full = (1 << layout.cells) - 1
            own, other = a & full, b & full & ~a
            expected = [first + sum(3 ** digit * (1 if own >> cell & 1 else 2 if other >> cell & 1 else 0)
                                    for digit, cell in enumerate(cells))
                        for first, cells in layout.instances]
            assert layout.indices(own, other) == expected


def test_othello_lines_are_every_row_and_column_once_and_corners_every_corner() -> None:
    from games.othello.patterns import LAYOUT, PATTERNS

    names = [name for name, _, turns in PATTERNS for _ in turns]
    lines = [set(cells) for (_, cells), name in zip(LAYOUT.instances, names) if name in ("edge", "row2", "row3", "row4")]
    rows = [set(range(8 * r, 8 * r + 8)) for r in range(8)]
    columns = [set(range(c, 64, 8)) for c in range(8)]
    assert sorted(map(sorted, lines)) == sorted(map(sorted, rows + columns))
    corners = [set(cells) for (_, cells), name in zip(LAYOUT.instances, names) if name == "corner3x3"]
    assert {0, 7, 56, 63} == {cell for region in corners for cell in region} & {0, 7, 56, 63}
    assert all(len(region & {0, 7, 56, 63}) == 1 for region in corners)
    diagonals = [set(cells) for (_, cells), name in zip(LAYOUT.instances, names) if name == "diag8"]
    assert sorted(map(sorted, diagonals)) == [[0, 9, 18, 27, 36, 45, 54, 63], [7, 14, 21, 28, 35, 42, 49, 56]]


def test_quixo_reads_every_line_five_in_a_row_is_made_on() -> None:
    from games.quixo.moves import LINES
    from games.quixo.patterns import LAYOUT, PATTERNS

    names = [name for name, _, turns in PATTERNS for _ in turns]
    read = sorted(sum(1 << cell for cell in cells) for (_, cells), name in zip(LAYOUT.instances, names)
                  if name != "corner")
    assert read == sorted(LINES)


def test_checkers_turns_the_board_for_white() -> None:
    from games.checkers.patterns import terms, turned

    assert turned(1) == 1 << 31 and turned(turned(0xDEADBEEF)) == 0xDEADBEEF
    # the same position with the colours and the board turned: the same terms for the side to move
    black = new_game("checkers", "B:W21,22,K30:B1,2,K9")
    white = new_game("checkers", "W:W31,32,K24:B11,12,K3")
    assert terms(black) == terms(white)


# --------------------------------------------------------------- evaluation
@pytest.mark.parametrize("name", GAMES)
def test_the_evaluation_is_the_tapered_sum_of_the_terms(name: str) -> None:
    layout = form(name)
    tables = random_tables(name, seed=3)
    evaluate = tables_heuristic(layout, tables)
    for game in random_games(name, 80, seed=4):
        indices, scalars, phase = layout.terms(game)
        mg = sum(tables.mg[i] for i in indices) + sum(v * tables.mg[w] for w, v in enumerate(scalars))
        eg = sum(tables.eg[i] for i in indices) + sum(v * tables.eg[w] for w, v in enumerate(scalars))
        total = mg * phase + eg * (layout.phases - phase)
        expected = int(total / (layout.phases * layout.scale)) + tables.tempo  # toward zero
        expected = max(-layout.clamp, min(layout.clamp, expected))
        assert evaluate(game, game.turn) == expected
        assert evaluate(game, game.turn ^ 1) == -expected


def test_othello_scores_a_finished_game_as_standard_does() -> None:
    evaluate = tables_heuristic(form("othello"), random_tables("othello", seed=1))
    standard = game_class("othello").heuristic("standard")
    done = new_game("othello", "BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWWB W")
    assert done.outcome() is not None
    assert evaluate(done, 0) == standard(done, 0)


def colours_swapped(name: str, text: str) -> str:
    """The same position with the two sides' pieces (and the side to move) exchanged: the two
    characters of the game's samples' ``colour_swap`` exchanged throughout the text."""
    one, other = game_kind(name).samples.colour_swap
    return text.translate(str.maketrans(one + other, other + one))


@pytest.mark.parametrize("name", [name for name in GAMES if game_kind(name).samples.colour_swap is not None])
def test_the_evaluation_is_colour_blind(name: str) -> None:
    evaluate = tables_heuristic(form(name), random_tables(name, seed=5))
    for game in random_games(name, 40, seed=6):
        swapped = new_game(name, colours_swapped(name, game.to_text()))
        assert evaluate(swapped, swapped.turn) == evaluate(game, game.turn)


#: The games whose form has a fast evaluation of its own (it must equal the generic one).
FAST = tuple(name for name in GAMES if form(name).fast is not None)


@functools.lru_cache(maxsize=None)
def fast_and_generic(name: str, seed: int, spread: int):
    """The fast and the generic evaluations of the same random tables (made once: the fast one
    builds its lookup tables)."""
    tables = random_tables(name, seed=seed, spread=spread)
    return tables_heuristic(form(name), tables), tables_heuristic(form(name), tables, generic=True)


def test_the_games_with_a_fast_evaluation_are_those_their_samples_say() -> None:
    assert FAST == tuple(name for name in GAMES if game_kind(name).samples.fast_tables)


@pytest.mark.parametrize("name", FAST)
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), tables=st.integers(0, 2), spread=st.sampled_from([300, 30_000]))
def test_the_fast_evaluation_is_the_generic_one_to_the_unit(name: str, seed: int, tables: int, spread: int) -> None:
    """Along a random game (to its end: kings, endings, won positions), every position's value is the
    generic sum's, for both players."""
    fast, generic = fast_and_generic(name, tables, spread)
    assert fast is not generic
    rng = random.Random(seed)
    game = new_game(name)
    for _ in range(200):
        for player in (0, 1):
            assert fast(game, player) == generic(game, player)
        if game.outcome() is not None:
            break
        game.play(rng.choice(game.legal_moves()))


# -------------------------------------------------------------------- files
@pytest.mark.parametrize("name", GAMES)
def test_tables_files_round_trip_and_play_as_a_heuristic(name: str, tmp_path: Path) -> None:
    tables = random_tables(name, seed=7)
    scale = form(name).scale  # the file keeps 1/scale units; save_tables takes the game's
    mg, eg = np.asarray(tables.mg) / scale, np.asarray(tables.eg) / scale
    path = save_tables(form(name), mg, eg, tables.tempo, tmp_path / "t.npz")
    assert load_tables(form(name), path) == tables
    with pytest.raises(FileExistsError):
        save_tables(form(name), mg, eg, tables.tempo, path)
    heuristic = game_class(name).heuristic(f"tables:{path}")
    game = random_games(name, 1, seed=8)[0]
    assert heuristic(game, 0) == tables_heuristic(form(name), tables)(game, 0)


def npz(**arrays: object) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


@pytest.mark.parametrize("arrays, says", [
    ({"format": "x"}, "no array"),
    ({"format": "nope", "form": "quixo-patterns/2", "mg": [0], "eg": [0], "tempo": 0}, "format"),
    ({"format": "tui-games-tables/1", "form": "othello-patterns/1", "mg": [0], "eg": [0], "tempo": 0},
     "trained for another game"),
    ({"format": "tui-games-tables/1", "form": "quixo-patterns/2", "mg": [0, 1], "eg": [0, 1], "tempo": 0},
     "wrong shapes"),
])
def test_bad_tables_files_are_refused_in_one_line(arrays: dict, says: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.npz"
    path.write_bytes(npz(**{key: np.asarray(value) for key, value in arrays.items()}))
    with pytest.raises(TablesError, match=says) as refused:
        load_tables(form("quixo"), path)
    assert "\n" not in str(refused.value)


def test_tables_of_floats_huge_values_pickles_and_text_are_refused(tmp_path: Path) -> None:
    layout = form("quixo")
    zeros = np.zeros(layout.weights)
    for arrays, says in (({"mg": zeros, "eg": zeros}, "wrong types"),
                         ({"mg": np.full(layout.weights, 10 ** 6, np.int32), "eg": zeros.astype(np.int32)}, "beyond")):
        path = tmp_path / f"{says.replace(' ', '-')}.npz"
        path.write_bytes(npz(format=np.asarray("tui-games-tables/1"), form=np.asarray(layout.name),
                             tempo=np.asarray(0, np.int32), **arrays))
        with pytest.raises(TablesError, match=says):
            load_tables(layout, path)
    pickled = tmp_path / "pickled.npz"
    pickled.write_bytes(npz(format=np.asarray([{"a": 1}], dtype=object)))
    with pytest.raises(TablesError, match="not a tables file"):
        load_tables(layout, pickled)
    text = tmp_path / "text.npz"
    text.write_text("hello")
    with pytest.raises(TablesError, match="not a NumPy"):
        load_tables(layout, text)



def test_a_bad_tables_file_stops_a_search_in_one_line(tmp_path: Path, capsys) -> None:
    text = tmp_path / "text.npz"
    text.write_text("hello")
    assert_usage_error(capsys, ["search", "quixo", "--engine", f"pvs:depth=1,heuristic=tables:{text}"], "not a NumPy")


# ---------------------------------------------------------------------- fit
@pytest.mark.parametrize("name", GAMES)
def test_training_recovers_tables_that_made_the_labels(name: str, tmp_path: Path) -> None:
    """Labels made by known tables (small ones, not saturating the loss) are fitted back."""
    from engines.learning.tables_training import train_tables
    from engines.learning.train import read_dataset

    rows = positions(name, 1500, depth=1, seed=9, max_plies=60)
    truth = tables_heuristic(form(name), random_tables(name, seed=10, spread=4))
    for row in rows:
        row[-2] = truth(new_game(name, row[3]), int(row[2]))  # h_l: the true tables' value
    data = write_dataset(tmp_path / "d.csv", name, rows)
    dataset = read_dataset(data, game_class(name))
    fit = train_tables(game_kind(name).tables, dataset, max_iter=40, unit=game_kind(name).tables.unit, rate=2e-2)
    assert fit.metrics["train"]["r2"] > 0.7
    assert fit.metrics["test"]["r2"] > 0.3  # unseen pattern states are 0 in the fit


def test_train_tables_from_the_command_line_with_outcomes(tmp_path: Path, capsys) -> None:
    from engines.learning.dataset import DatasetConfig, write_dataset as write_self_play

    data = tmp_path / "q.csv"
    write_self_play(DatasetConfig("quixo", 12, 1, seed=2, explore=0.3), data)
    out = tmp_path / "q.npz"
    code, printed, _ = run(capsys, "train", "quixo", "--data", str(data), "--model", "tables", "--outcome", "0.5",
                           "--max-iter", "5", "--out", str(out))
    assert code == 0, printed
    assert "heuristic=tables:" in printed and out.exists() and out.with_suffix(".json").exists()
    meta = out.with_suffix(".json").read_text()
    assert "--outcome 0.5" in meta
    evaluate = game_class("quixo").heuristic(f"tables:{out}")
    assert isinstance(evaluate(new_game("quixo"), 0), int)


def test_outcome_goes_with_networks_and_tables_only(tmp_path: Path, capsys) -> None:
    rows = positions("quixo", 40, seed=1)
    data = write_dataset(tmp_path / "d.csv", "quixo", rows)
    assert_usage_error(capsys, ["train", "quixo", "--data", str(data), "--model", "rf", "--outcome", "0.5",
                                "--out", str(tmp_path / "m.npz")], "--outcome goes with")
    assert_usage_error(capsys, ["train", "quixo", "--data", str(data), "--model", "tables", "--outcome", "2",
                                "--out", str(tmp_path / "m.npz")], "--outcome")


# ------------------------------------------------------------------ rebuild
def test_rebuild_runs_a_recipe_step_by_step_and_goes_on_where_it_stopped(tmp_path: Path, capsys) -> None:
    from games.learned import DatasetStep, TrainStep
    from tui.cli.learning import run_step as main
    from tui.cli.rebuild import run_rebuild

    steps = (DatasetStep("d1.csv", games=6, depth=1, seed=1, explore=0.3),
             TrainStep("g1.npz", ("d1.csv",), max_iter=3),
             DatasetStep("d2.csv", games=6, depth=1, seed=2, explore=0.3, heuristic="tables:{folder}/g1.npz"),
             TrainStep("last.npz", ("d1.csv", "d2.csv"), max_iter=3))
    folder = tmp_path / "rb"
    assert run_rebuild("quixo", folder, 1, main, steps=steps) == 0
    said = capsys.readouterr().out
    assert "step 3 of 4: tui-games dataset quixo --jobs 1" in said and f"tables:{folder}/g1.npz" in said
    first = (folder / "last.npz").read_bytes()
    # a second run skips every step; a run from a fresh folder writes the same bytes
    assert run_rebuild("quixo", folder, 1, main, bundled=folder / "last.npz", steps=steps) == 0
    said = capsys.readouterr().out
    assert said.count("done before") == 4 and "the same bytes as the bundled" in said
    again = tmp_path / "again"
    assert run_rebuild("quixo", again, 2, main, steps=steps) == 0
    assert (again / "last.npz").read_bytes() == first


def test_rebuild_of_a_step_that_fails_leaves_nothing_and_a_game_without_a_recipe_is_refused(tmp_path: Path,
                                                                                          capsys) -> None:
    from games.learned import DatasetStep, TrainStep
    from tui.cli.learning import run_step as main
    from tui.cli.rebuild import run_rebuild

    steps = (DatasetStep("d1.csv", games=2, depth=1, seed=1), TrainStep("t.npz", ("d1.csv",), test_size=0.99))
    assert run_rebuild("quixo", tmp_path, 1, main, steps=steps) == 2  # a test share that leaves nothing to train
    assert (tmp_path / "d1.csv").exists() and not (tmp_path / "t.npz").exists()
    assert not (tmp_path / "t.json").exists()
    capsys.readouterr()
    assert_usage_error(capsys, ["rebuild", "chess", "--out", str(tmp_path / "x")], "bundles no learned tables")
    (tmp_path / "file").write_text("x")
    assert_usage_error(capsys, ["rebuild", "othello", "--out", str(tmp_path / "file")], "is a file")
    # A missing parent was made, where every other command's --out refuses it.
    assert_usage_error(capsys, ["rebuild", "othello", "--out", str(tmp_path / "no" / "such")],
                       f"cannot make {tmp_path / 'no' / 'such'}: the directory {tmp_path / 'no'} does not exist")
    assert not (tmp_path / "no").exists()


# --------------------------------------------------------- learned engines
def test_a_learned_evaluation_is_the_model_of_mi_pred_and_hr() -> None:
    from engines import create_engine
    from engines.spec import SpecError

    cls = game_class("othello")
    game = new_game("othello")
    one_ply = create_engine("mi-pred:model=heuristic:learned", cls)
    result = one_ply.search(game)
    learned = cls.heuristic("learned")
    values = {}
    for move in game.legal_moves():
        game.play(move)
        values[move] = learned(game, 0)
        game.undo()
    assert values[result.move] == max(values.values()) == result.score
    assert create_engine("hr:depth=2,model=heuristic:learned", cls).search(game).move in values
    with pytest.raises(SpecError, match="pred maps H0"):
        create_engine("pred:model=heuristic:learned", cls)
    with pytest.raises(SpecError, match="unknown othello heuristic"):
        create_engine("mi-pred:model=heuristic:nope", cls)


def test_bench_learned_measures_the_hand_made_and_the_learned_evaluations(tmp_path: Path, capsys) -> None:
    from tui.bench.learned import eval_rows, hand_made, search_rows

    # every game without a network (a network's bench is slow): those with bundled tables give
    # their hand-made heuristic and ``learned``, the others no row
    benched = [name for name in GAME_NAMES if game_kind(name).network is None]
    rows = eval_rows(benched, quick=True)
    learned = [name for name in benched if "learned" in game_class(name).HEURISTICS]
    assert learned and len(learned) < len(benched)
    assert [(row.game, row.heuristic) for row in rows] == [
        (name, heuristic) for name in learned for heuristic in (hand_made(game_class(name)), "learned")]
    assert all(row.evaluations > 10 and row.micros > 0 for row in rows)
    tables = random_tables("quixo", seed=2)
    path = save_tables(form("quixo"), np.asarray(tables.mg) / 16, np.asarray(tables.eg) / 16, 0, tmp_path / "q.npz")
    searched = search_rows(["quixo"], quick=True, tables=str(path))
    assert [row.spec for row in searched] == ["pvs:depth=3,heuristic=line-potential", f"pvs:depth=3,heuristic=tables:{path}"]
    (tmp_path / "bad.npz").write_text("no")
    assert_usage_error(capsys, ["bench", "learned", "--game", "quixo", "--tables", str(tmp_path / "bad.npz")],
                       "not a NumPy")


@pytest.mark.parametrize("name, hand_made", [(name, form(name).scalar_names[0]) for name in GAMES
                                             if form(name).start == ((1.0, 1.0),)])
def test_the_fit_starts_from_the_hand_made_evaluation(name: str, hand_made: str, tmp_path: Path) -> None:
    """Tables that start with a hand-made value at weight 1 and every other entry 0 (checkers',
    Quixo's): saved as they are, they evaluate exactly as the hand-made heuristic does."""
    plan = game_kind(name).tables
    mg, eg, tempo = plan.start()
    path = plan.save(mg, eg, tempo, tmp_path / "start.npz")
    start = game_class(name).heuristic(f"tables:{path}")
    reference = game_class(name).heuristic(hand_made)
    for game in random_games(name, 60, seed=12):
        assert start(game, 0) == reference(game, 0)
