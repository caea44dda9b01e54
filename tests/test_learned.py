"""Learned engines: the fast predictor, ``hr``, ``pred``, ``mi-pred``, bundled models and the fallback."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.compose import TransformedTargetRegressor
from sklearn.ensemble import ExtraTreesRegressor, RandomForestRegressor
from sklearn.linear_model import Ridge
from sklearn.neural_network import MLPRegressor
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeRegressor

from engines import SpecError, create_engine
from engines import fallback_spec
from engines.learning.learned import ChildScorer, EngineModelError
from engines.tournament import MatchConfig, play_games
from engines.learning.models import BUNDLED_NAMES, load_model, resolve_model
from engines.learning.predictor import compile_predictor
from games import GAME_NAMES, game_class, new_game
from cli_run import assert_usage_error

# ---------------------------------------------------------------- predictor
REGRESSORS = {
    "forest": RandomForestRegressor(n_estimators=12, max_depth=7, random_state=0),
    "extra trees": ExtraTreesRegressor(n_estimators=5, random_state=0),
    "tree": DecisionTreeRegressor(random_state=0),
    "scaled mlp, scaled target": TransformedTargetRegressor(
        regressor=Pipeline([("scale", StandardScaler()),
                            ("mlp", MLPRegressor(hidden_layer_sizes=(16, 8), max_iter=200, random_state=0))]),
        transformer=StandardScaler()),
    "tanh mlp": Pipeline([("none", "passthrough"), ("mlp", MLPRegressor(
        hidden_layer_sizes=(8,), activation="tanh", max_iter=100, random_state=0))]),
    "ridge (not compiled: its own predict)": Ridge(),
}


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("name", REGRESSORS)
def test_the_compiled_predictor_gives_scikit_learns_numbers(name: str) -> None:
    rng = np.random.default_rng(1)
    X = rng.normal(size=(400, 6)) * [1, 10, 100, 1, 1, 0.1]
    y = 3 * X[:, 0] - X[:, 1] ** 2 / 10 + np.sin(X[:, 2] / 30) * 50 + rng.normal(size=400)
    estimator = REGRESSORS[name].fit(X, y)
    predict = compile_predictor(estimator)
    for rows in (1, 3, 57):
        batch = rng.normal(size=(rows, 6)) * [1, 10, 100, 1, 1, 0.1]
        got = predict(batch)
        assert got.shape == (rows,)
        np.testing.assert_allclose(got, estimator.predict(batch), rtol=1e-9, atol=1e-9)


# ------------------------------------------------------------- tiny models
def tiny_models(tmp_path: Path) -> dict[str, dict[str, Path]]:
    """A tiny self-play dataset and both kinds of model for every game, trained here."""
    from engines.learning.dataset import DatasetConfig, write_dataset
    from engines.learning.models import save_model
    from engines.learning.train import read_dataset, train_model

    paths: dict[str, dict[str, Path]] = {}
    for game in GAME_NAMES:
        cls = game_class(game)
        data = tmp_path / f"{game}.csv"
        write_dataset(DatasetConfig(game=game, games=3, depth=1, max_plies=30, seed=5), data)
        dataset = read_dataset(data, cls)
        paths[game] = {}
        for kind, model, inputs in (("pred", "rf", "h0"), ("mi", "mlp", "features")):
            fit = train_model(cls, dataset, model=model, inputs=inputs, seed=0)
            estimator, meta = fit.estimator, fit.meta()
            path = tmp_path / f"{game}-{kind}.npz"
            save_model(estimator, path, meta)
            paths[game][kind] = path
    return paths


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Path]]:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return tiny_models(tmp_path_factory.mktemp("models"))


def positions(game: str, count: int, seed: int) -> list:
    """``count`` positions of random play (none over)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        board = new_game(game)
        for _ in range(rng.randrange(0, 30)):
            if board.outcome() is not None:
                break
            board.play(rng.choice(board.legal_moves()))
        if board.outcome() is None:
            found.append(board)
    return found


# ----------------------------------------------------------------- engines
@pytest.mark.parametrize("game", GAME_NAMES)
def test_hr_keeping_every_child_finds_alphabetas_value(game: str, models) -> None:
    mi = models[game]["mi"]
    for board in positions(game, 4, seed=11):
        text = board.to_text()
        full = create_engine("alphabeta:depth=3", type(board)).search(board)
        hr = create_engine(f"hr:depth=3,k=1000,model={mi}", type(board)).search(board)
        assert hr.score == full.score, text
        assert hr.stats["hr_evals"] > 0 and hr.stats["hr_pruned"] == 0
        assert board.to_text() == text


@pytest.mark.parametrize("game", GAME_NAMES)
def test_hr_with_a_small_k_drops_children_and_counts_them(game: str, models) -> None:
    board = positions(game, 1, seed=3)[0]
    result = create_engine(f"hr:depth=3,k=2,model={models[game]['mi']}", type(board)).search(board)
    assert result.move in board.legal_moves()
    stats = result.stats
    assert stats["hr_pruned"] > 0 and stats["hr_evals"] > stats["hr_pruned"]
    assert stats["h0_evals"] == 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(GAME_NAMES), seed=st.integers(0, 10_000), plies=st.integers(0, 60))
def test_pred_and_mi_pred_always_play_a_legal_move(models, game: str, seed: int, plies: int) -> None:
    rng = random.Random(seed)
    board = new_game(game)
    for _ in range(plies):
        if board.outcome() is not None:
            break
        board.play(rng.choice(board.legal_moves()))
    if board.outcome() is not None:
        return
    text = board.to_text()
    for name, kind in (("pred", "pred"), ("mi-pred", "mi")):
        result = create_engine(f"{name}:model={models[game][kind]},seed={seed}", type(board)).search(board)
        assert result.move in board.legal_moves()
        assert result.stats["best"] == board.format_move(result.move)
        assert result.stats["depth"] == 1 and result.stats["nodes"] == len(board.legal_moves()) + 1
        assert board.to_text() == text


def test_pred_predicts_all_children_in_one_call_and_takes_a_win(models) -> None:
    # X wins by pushing (0, 4) in at the top of column 0 ... any move completing a line.
    board = new_game("quixo", "X..../X..../X..../X..../..... X")
    engine = create_engine(f"pred:model={models['quixo']['pred']}", type(board))
    calls = []
    predict = engine.scorer.predict
    engine.scorer.predict = lambda X: calls.append(len(X)) or predict(X)
    result = engine.search(board)
    after = board.copy()
    after.play(result.move)
    assert after.outcome() is not None and after.outcome().winner == 0
    assert result.stats["mate"] == 1
    assert len(calls) == 1 and calls[0] == result.stats["evals"] > 1


def test_the_same_seed_gives_the_same_choice(models) -> None:
    board = positions("checkers", 1, seed=8)[0]
    spec = f"mi-pred:model={models['checkers']['mi']},seed=4"
    moves = {create_engine(spec, type(board)).search(board).move for _ in range(3)}
    assert len(moves) == 1


def test_a_short_hr_match_against_h0_runs(models) -> None:
    config = MatchConfig.create("quixo", f"hr:depth=2,k=3,model={models['quixo']['mi']}", "h0:depth=2,k=3",
                                games=2, openings=2, seed=1)
    records = list(play_games(config, [0, 1]))
    assert len(records) == 2
    for record in (result.to_json() for result in records):
        assert record["result"] in ("a", "b", "draw")
        assert record["stats"]["a"]["hr_evals"] > 0 and record["stats"]["b"]["h0_evals"] > 0


# ------------------------------------------------------------ bad models
def tampered(path: Path, tmp_path: Path) -> Path:
    copy = tmp_path / path.name
    shutil.copy(path, copy)
    shutil.copy(path.with_suffix(".json"), copy.with_suffix(".json"))
    data = bytearray(copy.read_bytes())
    data[len(data) // 2] ^= 0xFF
    copy.write_bytes(bytes(data))
    return copy


@pytest.mark.parametrize("name", ["hr", "pred", "mi-pred"])
def test_a_tampered_or_missing_model_is_one_line_spec_error(name: str, models, tmp_path: Path) -> None:
    kind = "pred" if name == "pred" else "mi"
    bad = tampered(models["chess"][kind], tmp_path)
    for model in (bad, tmp_path / "missing.npz"):
        with pytest.raises(EngineModelError) as caught:
            create_engine(f"{name}:model={model}", game_class("chess"))
        message = str(caught.value)
        assert "\n" not in message and message.startswith(f"{name}: ")


def test_a_model_of_another_game_or_input_is_refused(models) -> None:
    with pytest.raises(SpecError, match="quixo"):
        create_engine(f"hr:model={models['quixo']['mi']}", game_class("checkers"))
    with pytest.raises(SpecError):
        create_engine(f"pred:model={models['checkers']['mi']}", game_class("checkers"))
    with pytest.raises(SpecError):
        create_engine(f"hr:model={models['checkers']['pred']}", game_class("checkers"))


def test_the_command_line_refuses_a_bad_model_with_exit_2(models, tmp_path: Path, capsys) -> None:
    bad = tampered(models["quixo"]["mi"], tmp_path)
    assert_usage_error(capsys, ["search", "quixo", "--engine", f"mi-pred:model={bad}"], "mi-pred: model")
    assert_usage_error(capsys, ["match", "quixo", "--a", f"hr:model={bad}", "--b", "h0", "--games", "2",
                        "--out", str(tmp_path / "m.jsonl")], "hr: model")
    assert not (tmp_path / "m.jsonl").exists()


def test_fallback_keeps_the_options_h0_shares() -> None:
    assert fallback_spec("hr:depth=3,k=4,model=x.joblib,seed=2") == "h0:depth=3,k=4,seed=2"
    assert fallback_spec("pred:model=nowhere.joblib") == "h0"
    assert fallback_spec("mi-pred:seed=9") == "h0:seed=9"


def test_the_app_setup_falls_back_to_h0_with_a_notice(tmp_path: Path) -> None:
    from tui.app.session import GameSetup

    setup = GameSetup.checked("checkers", "human", f"hr:depth=3,k=4,model={tmp_path / 'gone.npz'}")
    assert setup.players == ("human", "h0:depth=3,k=4")
    assert setup.notices[0] == "" and "gone.npz" in setup.notices[1]
    assert setup.notices[1].endswith("h0:depth=3,k=4 plays instead") and "\n" not in setup.notices[1]
    assert setup.swapped().notices == (setup.notices[1], "")


async def test_the_app_plays_h0_when_the_model_fails(tmp_path: Path) -> None:
    from app_pilot import make_app, ready, wait_for

    app = make_app("quixo", f"pred:model={tmp_path / 'gone.npz'}", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        panel = screen.panel(0)
        assert panel is not None and panel.spec == "h0" and panel.border_title == "X · h0 · fallback"
        assert "gone.npz" in screen.controller.setup.notices[0]
        await wait_for(pilot, lambda: len(screen.moves) == 1, "h0's move")
        assert screen.message_text.startswith(f"X played {screen.moves[0]} · ")
        assert screen.message_text.endswith("h0 plays instead")


async def test_a_model_that_breaks_mid_game_falls_back_in_the_app(models, tmp_path: Path) -> None:
    from app_pilot import make_app, ready, wait_for

    model = tmp_path / "quixo-mi.npz"
    shutil.copy(models["quixo"]["mi"], model)
    shutil.copy(models["quixo"]["mi"].with_suffix(".json"), model.with_suffix(".json"))
    app = make_app("quixo", "human", f"mi-pred:model={model}")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        assert not any(screen.controller.setup.notices)
        model.write_bytes(b"not a model any more")  # between the setup's check and the search
        screen.move_input.focus()
        screen.move_input.value = "0 0 b"
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(screen.moves) == 2, "the fallback engine's move")
        assert screen.controller.setup.players[1] == "h0" and "h0 plays instead" in screen.controller.setup.notices[1]
        assert screen.message_text.endswith("h0 plays instead")
        assert screen.panel(1).border_title == "O · h0 · fallback"
        assert not screen.controller.paused


# ------------------------------------------------------------ bundled models
@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_bundled_models_load_and_the_engines_play(game: str) -> None:
    cls = game_class(game)
    if not any(resolve_model(game, name).is_file() for name in BUNDLED_NAMES):
        pytest.skip(f"{game} bundles no model (models are optional: docs/protocol.md)")
    for name in BUNDLED_NAMES:
        assert resolve_model(game, name).is_file()
        model = load_model(cls, name)
        assert model.game == game
    board = positions(game, 1, seed=2)[0]
    for spec in ("hr:depth=2", "pred", "mi-pred"):
        result = create_engine(spec, cls).search(board)
        assert result.move in board.legal_moves()


def test_child_scorer_scores_finished_children_by_their_result(models) -> None:
    board = new_game("quixo", "X..../X..../X..../X..../..... X")
    model = load_model(game_class("quixo"), str(models["quixo"]["mi"]), inputs="features")
    scorer = ChildScorer(model, game_class("quixo"))
    moves = board.legal_moves()
    values = scorer(board, moves)
    for move, value in zip(moves, values):
        board.play(move)
        outcome = board.outcome()
        board.undo()
        if outcome is not None and outcome.winner == 0:
            assert value > 900_000


@pytest.mark.slow
def test_bench_models_measures_the_two_ways_and_hr_against_h0(capsys) -> None:
    from tui.bench.models import model_rows, search_cost_rows
    from tui.cli import main

    rows = model_rows(["checkers"], quick=True)
    assert [row.name for row in rows] == list(BUNDLED_NAMES)
    for row in rows:
        assert row.nodes > 0 and row.children >= row.nodes
        assert min(row.inputs_s, row.per_child_s, row.batched_s) > 0
    searches = search_cost_rows(["checkers"], quick=True)
    assert [row.spec.split(":")[0] for row in searches] == ["h0", "hr"]
    assert all(row.nodes > 0 for row in searches)
    assert main(["bench", "models", "--game", "quixo", "--quick"]) == 0
    out = capsys.readouterr().out
    assert "batched" in out and "hr:depth=3,k=5" in out


def test_the_scorer_predicts_with_the_arrays_of_the_model_file(models) -> None:
    """What a search uses is the predictor the model file's arrays make, which
    loading checked against the check rows the fitted estimator gave."""
    model = load_model(game_class("quixo"), str(models["quixo"]["mi"]), inputs="features")
    X = np.asarray(model.meta["check"]["X"])
    scorer = ChildScorer(model, game_class("quixo"))
    assert scorer.predict is model.predictor
    np.testing.assert_allclose(scorer.predict(X), model.meta["check"]["y"], rtol=1e-9, atol=1e-9)
