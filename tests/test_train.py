"""Training: reading datasets (errors name FILE:LINE), fitting, grid search, and the
``tui-games train`` / ``tui-games models`` commands."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from engines.learning import models, train
from engines.learning.models import file_sha256, load_model, metadata_path
from engines.learning.train import (
    Dataset,
    DatasetError,
    TrainedModel,
    TrainError,
    dataset_columns,
    read_dataset,
    train_model,
)
from games import GAME_NAMES, game_class
from cli_run import assert_usage_error, run
from learning_data import columns, positions, write_dataset

Quixo = game_class("quixo")
Checkers = game_class("checkers")


@pytest.fixture(scope="module")
def rows() -> list[list]:
    return positions("quixo", 160, seed=11)


@pytest.fixture
def data(tmp_path: Path, rows: list[list]) -> Path:
    return write_dataset(tmp_path / "quixo.csv", "quixo", rows, depth=1)


def dataset_error(path: Path, needle: str, cls: type = Quixo) -> str:
    with pytest.raises(DatasetError) as info:
        read_dataset(path, cls)
    message = str(info.value)
    assert "\n" not in message and needle in message, message
    return message


def rewrite(path: Path, edit) -> None:
    """Apply ``edit`` to the list of CSV rows of ``path`` (header included)."""
    with open(path, newline="", encoding="utf-8") as handle:
        table = list(csv.reader(handle))
    edit(table)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(table)


# ------------------------------------------------------------- reading data
def test_read_dataset_reads_every_column(data: Path, rows: list[list]) -> None:
    dataset = read_dataset(data, Quixo)
    assert len(dataset) == len(rows) and dataset.game == "quixo"
    assert dataset.positions == [row[3] for row in rows]
    assert dataset.features.shape == (len(rows), len(Quixo.FEATURE_NAMES))
    assert np.array_equal(dataset.features[7], np.asarray(rows[7][4:-3], dtype=float))
    assert dataset.h0.tolist() == [float(row[-3]) for row in rows]
    assert dataset.h_l.tolist() == [float(row[-2]) for row in rows]
    assert dataset.side.tolist() == [row[2] for row in rows]
    assert dataset.heuristic == "line-potential" and dataset.depth == 1 and dataset.notes == []
    assert dataset.meta["format"] == "tui-games-dataset/1"
    assert dataset.sha256 == file_sha256(data)
    assert dataset_columns(Quixo) == [*columns(Quixo), "outcome"]  # these rows were written without it
    assert np.isnan(dataset.outcome).all() and len(dataset.outcome) == len(rows)


def test_the_outcome_column_is_read_and_checked(tmp_path: Path, rows: list[list]) -> None:
    header = [*columns(Quixo), "outcome"]
    results = ["1", "0", "0.5", ""]
    path = write_dataset(tmp_path / "o.csv", "quixo", [[*row, results[i % 4]] for i, row in enumerate(rows)],
                         header=header)
    outcome = read_dataset(path, Quixo).outcome
    assert outcome[:3].tolist() == [1.0, 0.0, 0.5] and np.isnan(outcome[3])
    bad = write_dataset(tmp_path / "b.csv", "quixo", [[*row, "2"] for row in rows], header=header)
    with pytest.raises(DatasetError, match=r"b.csv:2: column 'outcome': '2' is not 1, 0.5, 0 or empty"):
        read_dataset(bad, Quixo)


def test_columns_may_come_in_any_order(data: Path) -> None:
    before = read_dataset(data, Quixo)
    rewrite(data, lambda table: [row.reverse() for row in table])
    after = read_dataset(data, Quixo)
    assert np.array_equal(before.features, after.features) and before.positions == after.positions


def test_without_a_sidecar_the_default_heuristic_is_assumed_and_said(data: Path) -> None:
    Path(f"{data}.meta.json").unlink()
    dataset = read_dataset(data, Quixo)
    assert dataset.heuristic == Quixo.DEFAULT_HEURISTIC and dataset.depth is None
    assert dataset.notes and "assuming quixo's default heuristic 'line-potential'" in dataset.notes[0]


def test_duplicates_are_counted_and_the_first_kept(data: Path, rows: list[list]) -> None:
    # the first 10 rows again, with other labels: the first occurrence must win
    rewrite(data, lambda table: table.extend([*row[:-2], "12345", "0"] for row in table[1:11]))
    dataset = read_dataset(data, Quixo)
    distinct = len({row[3] for row in rows})
    assert dataset.duplicates == len(rows) + 10 - distinct
    keep = dataset.first_occurrences()
    assert len(keep) == distinct and list(keep) == sorted(keep)
    assert 12345.0 not in dataset.h_l[keep]
    counted = train_model(Quixo, dataset, model="rf", inputs="h0").rows
    assert counted.duplicates_dropped == dataset.duplicates
    assert counted.train + counted.test == distinct


def test_a_missing_or_empty_file_is_an_error(tmp_path: Path) -> None:
    assert dataset_error(tmp_path / "none.csv", "no such file") == f"{tmp_path / 'none.csv'}: no such file"
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    dataset_error(empty, f"{empty}: empty file")
    header_only = tmp_path / "header.csv"
    header_only.write_text(",".join(columns(Quixo)) + "\n")
    dataset_error(header_only, f"{header_only}: no data rows")
    binary = tmp_path / "binary.csv"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    dataset_error(binary, "not UTF-8 text")


def test_missing_and_unknown_columns_are_named_on_line_1(data: Path, tmp_path: Path) -> None:
    rewrite(data, lambda table: [row.pop(-2) for row in table])
    dataset_error(data, f"{data}:1: missing columns h_l")
    other = write_dataset(tmp_path / "checkers.csv", "checkers", positions("checkers", 20), sidecar=False)
    message = dataset_error(other, f"{other}:1: not a quixo dataset: unknown columns men, opp_men")
    assert "features of another game?" in message
    extra = write_dataset(tmp_path / "extra.csv", "quixo", positions("quixo", 5), sidecar=False,
                          header=[*columns(Quixo)[:-1], "bogus"])
    dataset_error(extra, f"{extra}:1: not a quixo dataset: unknown columns bogus; missing mate")


@pytest.mark.parametrize(
    ("column", "text", "needle"),
    [
        ("h0", "abc", "column 'h0': 'abc' is not a number"),
        ("own_cubes", "", "column 'own_cubes': '' is not a number"),
        ("h_l", "nan", "column 'h_l': 'nan' is not finite"),
        ("ply", "2.5", "column 'ply': '2.5' is not a whole number"),
        ("side", "2", "column 'side': 2 is not 0 or 1"),
    ],
)
def test_bad_cells_are_named_by_file_and_line(data: Path, column: str, text: str, needle: str) -> None:
    index = columns(Quixo).index(column)

    def spoil(table: list[list[str]]) -> None:
        table[5][index] = text  # data row 5 is line 6

    rewrite(data, spoil)
    dataset_error(data, f"{data}:6: {needle}")


def test_a_row_of_the_wrong_length_is_named(data: Path) -> None:
    rewrite(data, lambda table: table[9].pop())
    dataset_error(data, f"{data}:10: {len(columns(Quixo)) - 1} cells, the header has {len(columns(Quixo))}")


def test_a_bad_sidecar_is_an_error(data: Path) -> None:
    sidecar = Path(f"{data}.meta.json")
    meta = json.loads(sidecar.read_text())
    sidecar.write_text(json.dumps({**meta, "game": "checkers"}))
    dataset_error(data, f"{sidecar}: a dataset of checkers, not quixo")
    sidecar.write_text(json.dumps({**meta, "format": "something/2"}))
    dataset_error(data, "not dataset metadata: format is 'something/2'")
    sidecar.write_text(json.dumps({**meta, "heuristic": "vibes"}))
    dataset_error(data, "unknown quixo heuristic 'vibes'")
    sidecar.write_text("{nope")
    dataset_error(data, f"{sidecar}:1: not valid JSON")


# ----------------------------------------------------------------- training
def test_train_model_fills_the_metadata(data: Path) -> None:
    dataset = read_dataset(data, Quixo)
    fit = train_model(Quixo, dataset, model="mlp", inputs="features", test_size=0.25, seed=4)
    assert isinstance(fit, TrainedModel)
    assert (fit.game, fit.model, fit.split, fit.cv, fit.grid) == ("quixo", "mlp", "by game", None, None)
    assert fit.rows.train + fit.rows.test == len(dataset) - dataset.duplicates
    assert fit.test_metrics.keys() == {"mse", "mae", "r2"} and fit.train_metrics["mse"] >= 0
    estimator, meta = fit.estimator, fit.meta()
    assert list(meta) == ["format", "game", "model", "inputs", "target", "depth", "heuristic", "label",
                          "decisive_score", "params", "grid", "cv", "metrics", "rows", "dataset", "seed",
                          "test_size", "split", "fit_s", "notes", "versions", "sha256", "created", "command",
                          "check"]  # the metadata file's keys, in their order
    assert meta["command"] is None and fit.meta("tui-games train quixo")["command"] == "tui-games train quixo"
    json.dumps(meta, allow_nan=False)  # plain JSON: no dataclass left in it
    assert meta["game"] == "quixo" and meta["model"] == "mlp" and meta["target"] == "h_l"
    assert meta["inputs"] == list(Quixo.FEATURE_NAMES)
    assert meta["depth"] == 1 and meta["heuristic"] == "line-potential" and meta["label"] == "search"
    assert meta["decisive_score"] == dataset.meta["decisive_score"]
    assert meta["grid"] is None and meta["cv"] is None
    assert meta["params"] == train.MLP_DEFAULTS
    distinct = len(dataset) - dataset.duplicates
    assert meta["rows"]["test"] + meta["rows"]["train"] == distinct
    assert meta["split"] == "by game"
    assert 0.1 * distinct < meta["rows"]["test"] < 0.5 * distinct
    assert meta["dataset"] == {"file": "quixo.csv", "sha256": file_sha256(data), "meta": dataset.meta}
    for part in ("train", "test"):
        assert set(meta["metrics"][part]) == {"mse", "mae", "r2"}
    # the metrics are those of this estimator on the check rows' split
    X = np.asarray(meta["check"]["X"])
    assert np.allclose(estimator.predict(X), meta["check"]["y"])
    assert meta["metrics"]["train"]["mse"] >= 0 and meta["metrics"]["test"]["mae"] >= 0


def test_whole_games_are_held_out_for_testing() -> None:
    games = np.repeat(np.arange(30), np.arange(1, 31) % 7 + 2)
    train_rows, test_rows = train.split_by_game(games, 0.2, seed=3)
    assert sorted([*train_rows, *test_rows]) == list(range(len(games)))
    assert not set(games[train_rows]) & set(games[test_rows])
    assert 0.1 * len(games) < len(test_rows) < 0.35 * len(games)
    again = train.split_by_game(games, 0.2, seed=3)
    assert list(again[1]) == list(test_rows)
    assert list(train.split_by_game(games, 0.2, seed=4)[1]) != list(test_rows)


def test_training_refuses_what_cannot_work(data: Path, rows: list[list], tmp_path: Path) -> None:
    dataset = read_dataset(data, Quixo)
    with pytest.raises(TrainError, match="test-size must be between 0 and 1"):
        train_model(Quixo, dataset, test_size=1.0)
    with pytest.raises(TrainError, match="cv must be at least 2"):
        train_model(Quixo, dataset, grid=True, cv=1)
    with pytest.raises(TrainError, match="a dataset of quixo, not checkers"):
        train_model(Checkers, dataset)
    few = read_dataset(write_dataset(tmp_path / "few.csv", "quixo", rows[:4]), Quixo)
    with pytest.raises(TrainError, match="too few"):
        train_model(Quixo, few, grid=True, cv=5)


@pytest.mark.parametrize("kind", ["rf", "mlp"])
def test_grid_search_picks_from_the_grid_with_cv_folds(data: Path, kind: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    tiny = ({"n_estimators": [4, 8], "max_depth": [2, None]} if kind == "rf"
            else {"hidden_layer_sizes": [(32,)], "alpha": [1e-4, 1e-2]})
    monkeypatch.setattr(train, "RF_GRID" if kind == "rf" else "MLP_GRID", tiny)
    dataset = read_dataset(data, Quixo)
    fit = train_model(Quixo, dataset, model=kind, inputs="h0", grid=True, cv=3)
    assert fit.cv is not None and fit.cv.folds == 3
    estimator, meta = fit.estimator, fit.meta()
    assert meta["grid"] == tiny and meta["cv"]["folds"] == 3
    assert meta["cv"]["candidates"] == (4 if kind == "rf" else 2) and meta["cv"]["best_mse"] > 0
    assert set(meta["params"]) == set(tiny)
    for key, value in meta["params"].items():
        assert value in tiny[key]
    if kind == "rf":
        assert estimator.get_params()["n_estimators"] == meta["params"]["n_estimators"]
    else:
        assert estimator.regressor.named_steps["mlp"].alpha == meta["params"]["alpha"]
        assert estimator.regressor.named_steps["mlp"].max_iter == 500


def test_the_documented_grids_are_small() -> None:
    assert train.grid_candidates("rf") == 12 and train.grid_candidates("mlp") == 8
    assert max(train.RF_GRID["max_depth"]) <= 14  # depth-limited forests stay small on disk


# ---------------------------------------------------------------------- CLI
def train_argv(data: Path, out: Path, *extra: str) -> list[str]:
    return ["train", "quixo", "--data", str(data), "--model", "rf", "--inputs", "h0", "--out", str(out),
            *extra]


def test_cli_train_fits_saves_and_reports(capsys: pytest.CaptureFixture[str], data: Path,
                                          tmp_path: Path) -> None:
    out = tmp_path / "quixo-pred.npz"
    code, printed, err = run(capsys, *train_argv(data, out, "--seed", "3"))
    assert code == 0, err
    meta = json.loads(metadata_path(out).read_text())
    dataset = read_dataset(data, Quixo)
    assert f"{len(dataset):,} rows" in printed and f"{dataset.duplicates:,} repeat" in printed
    assert "heuristic line-potential" in printed and "depth 1" in printed
    assert "with the default parameters" in printed
    r2 = meta["metrics"]["test"]["r2"]
    assert f"{r2:.4g}" in printed and "R²" in printed and "MSE" in printed and "MAE" in printed
    assert f"wrote {out}" in printed and "kB" in printed
    assert meta["command"].startswith("tui-games train quixo --data ") and "--seed 3" in meta["command"]
    assert load_model(Quixo, str(out), inputs="h0").meta["sha256"] == file_sha256(out)


def test_cli_train_grid_says_what_it_fits(capsys: pytest.CaptureFixture[str], data: Path, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(train, "RF_GRID", {"n_estimators": [3, 6], "max_depth": [3]})
    out = tmp_path / "g.npz"
    code, printed, err = run(capsys, *train_argv(data, out, "--grid", "--cv", "3"))
    assert code == 0, err
    assert "2 candidates x 3 folds = 6 fits" in printed and "best params: max_depth=3" in printed
    assert "cross-validation: 3 folds" in printed


def test_cli_train_never_overwrites(capsys: pytest.CaptureFixture[str], data: Path, tmp_path: Path) -> None:
    out = tmp_path / "m.npz"
    assert run(capsys, *train_argv(data, out))[0] == 0
    before = out.read_bytes(), metadata_path(out).read_bytes()
    assert_usage_error(capsys, train_argv(data, out), "m.npz already exists")
    assert (out.read_bytes(), metadata_path(out).read_bytes()) == before
    lone = tmp_path / "lone.npz"
    metadata_path(lone).write_text("mine")
    assert_usage_error(capsys, train_argv(data, lone), "lone.json already exists")
    assert not lone.exists() and metadata_path(lone).read_text() == "mine"


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"--out": "model.pkl"}, "--out must name a file ending in .npz"),
        ({"--out": "no/such/dir/m.npz"}, "--out: no directory"),
        ({"--test-size": "0"}, "argument --test-size: expected a fraction between 0 and 1"),
        ({"--test-size": "half"}, "argument --test-size"),
        ({"--jobs": "0"}, "argument --jobs: expected a whole number >= 1"),
        ({"--cv": "1"}, "argument --cv: expected a whole number >= 2"),
        ({"--seed": "x"}, "argument --seed: expected a whole number"),
        ({"--model": "svm"}, "argument --model: invalid choice: 'svm'"),
        ({"--inputs": "both"}, "argument --inputs: invalid choice"),
        ({"--data": "missing.csv"}, "missing.csv: no such file"),
    ],
)
def test_cli_train_bad_arguments(capsys: pytest.CaptureFixture[str], data: Path, tmp_path: Path,
                                 monkeypatch: pytest.MonkeyPatch, change: dict, needle: str) -> None:
    monkeypatch.chdir(tmp_path)
    argv = train_argv(data, tmp_path / "out.npz")
    for option, value in change.items():
        if option in argv:
            argv[argv.index(option) + 1] = value
        else:
            argv += [option, value]
    assert_usage_error(capsys, argv, needle)
    assert list(tmp_path.glob("*.npz")) == []


def test_cli_train_bad_game_and_bad_data(capsys: pytest.CaptureFixture[str], data: Path,
                                         tmp_path: Path) -> None:
    out = tmp_path / "m.npz"
    argv = train_argv(data, out)
    argv[1] = "go"
    assert_usage_error(capsys, argv, "unknown game 'go'")
    argv[1] = "checkers"
    assert_usage_error(capsys, argv, "a dataset of quixo, not checkers")
    rewrite(data, lambda table: table[3].__setitem__(5, "x"))
    assert_usage_error(capsys, train_argv(data, out), f"{data}:4: column")
    assert not out.exists()


# ------------------------------------------------------------------- models
@pytest.fixture
def bundled(tmp_path: Path, data: Path, monkeypatch: pytest.MonkeyPatch,
            capsys: pytest.CaptureFixture[str]) -> Path:
    """A bundled-models directory with pred (rf on h0) and mi (rf on the features), quixo's."""
    folder = tmp_path / "bundled"
    folder.mkdir()
    for name, inputs in (("pred", "h0"), ("mi", "features")):
        argv = train_argv(data, folder / f"{name}.npz")
        argv[argv.index("--inputs") + 1] = inputs
        assert run(capsys, *argv)[0] == 0
    monkeypatch.setattr(models, "bundled_folder", lambda game: folder if game == "quixo" else tmp_path / "none")
    return folder


def test_cli_models_lists_the_bundled_models(capsys: pytest.CaptureFixture[str], bundled: Path) -> None:
    code, printed, err = run(capsys, "models")
    assert code == 0 and err == ""
    lines = [line for line in printed.splitlines() if "quixo" in line and "│" in line]
    assert len(lines) == 2 and "pred" in lines[0] and "mi" in lines[1]
    assert "18 features" in lines[1] and "line-potential" in lines[1] and " ok " in lines[1]
    code, printed, _ = run(capsys, "models", "quixo", "--json")
    listed = json.loads(printed)
    assert [(row["game"], row["name"], row["kind"], row["inputs"]) for row in listed] == [
        ("quixo", "pred", "h0", 1), ("quixo", "mi", "features", 18)]
    meta = json.loads((bundled / "mi.json").read_text())
    assert listed[1]["test_r2"] == meta["metrics"]["test"]["r2"]
    assert listed[1]["size"] == (bundled / "mi.npz").stat().st_size and listed[1]["sha256_ok"]
    assert json.loads(run(capsys, "models", "chess", "--json")[1]) == []
    assert "no bundled models for chess" in run(capsys, "models", "chess")[1]
    # a changed file shows in the listing
    with open(bundled / "mi.npz", "ab") as handle:
        handle.write(b"\0")
    assert json.loads(run(capsys, "models", "--json")[1])[1]["sha256_ok"] is False


def test_cli_models_check(capsys: pytest.CaptureFixture[str], bundled: Path, tmp_path: Path) -> None:
    path = bundled / "mi.npz"
    code, printed, err = run(capsys, "models", "--check", str(path), "--game", "quixo")
    assert code == 0 and err == ""
    assert "loads and predicts its check rows" in printed and "the 18 quixo features" in printed
    assert file_sha256(path) in printed
    code, printed, _ = run(capsys, "models", "--check", "pred", "--game", "quixo", "--json")
    assert json.loads(printed)["kind"] == "h0"
    other = next(name for name in GAME_NAMES if name != "quixo")
    assert_usage_error(capsys, ["models", "--check", str(path), "--game", other],
                       f"this model was trained for quixo, not {other}")
    assert_usage_error(capsys, ["models", "--check", str(path)], "--check needs --game GAME")
    assert_usage_error(capsys, ["models", "quixo", "--game", other], "two games named")
    shutil.copy(path, tmp_path / "lost.npz")
    assert_usage_error(capsys, ["models", "--check", str(tmp_path / "lost.npz"), "--game", "quixo"],
                       "its metadata file")
