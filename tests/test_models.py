"""Model files: saving, loading, and every way a model file is refused -- without a traceback,
and without unpickling a file whose bytes are not the ones its metadata describes."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import shutil
import warnings
from pathlib import Path
from typing import Any

import joblib
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.learning import models
from engines.learning.models import (
    BUNDLED_NAMES,
    FORMAT,
    LoadedModel,
    ModelError,
    file_sha256,
    load_model,
    metadata_path,
    read_metadata,
    resolve_model,
    save_model,
)
from engines.learning.train import read_dataset, train_model
from games import game_class
from learning_data import positions, write_dataset

Quixo = game_class("quixo")
Checkers = game_class("checkers")


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("data")
    path = write_dataset(folder / "quixo.csv", "quixo", positions("quixo", 200, seed=3))
    return read_dataset(path, Quixo)


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory, dataset) -> dict[str, Path]:
    """One saved model per (kind, inputs), trained once for the module."""
    folder = tmp_path_factory.mktemp("models")
    paths = {}
    for kind in ("rf", "mlp"):
        for inputs in ("features", "h0"):
            estimator, meta = train_model(Quixo, dataset, model=kind, inputs=inputs, seed=1)
            paths[kind, inputs] = folder / f"{kind}-{inputs}.joblib"
            save_model(estimator, paths[kind, inputs], meta)
    return paths


def copy_model(source: Path, folder: Path, stem: str = "model") -> Path:
    """A copy of a model's two files in ``folder``; returns the new .joblib path."""
    target = folder / f"{stem}.joblib"
    shutil.copy(source, target)
    shutil.copy(metadata_path(source), metadata_path(target))
    return target


def edit_meta(path: Path, **changes: Any) -> None:
    meta = json.loads(metadata_path(path).read_text())
    meta.update(changes)
    metadata_path(path).write_text(json.dumps(meta))


def refused(game_cls: type, name: str | Path, needle: str, **kwargs: Any) -> str:
    """Loading fails with one ModelError line that starts 'model NAME:' and contains ``needle``."""
    with pytest.raises(ModelError) as info:
        load_model(game_cls, str(name), **kwargs)
    message = str(info.value)
    assert message.startswith(f"model {name}:")
    assert "\n" not in message and "Traceback" not in message
    assert needle in message, message
    return message


# ------------------------------------------------------------- round trips
@pytest.mark.parametrize("kind", ["rf", "mlp"])
@pytest.mark.parametrize("inputs", ["features", "h0"])
def test_a_saved_model_loads_and_predicts_as_the_fitted_one(dataset, tmp_path: Path, kind: str,
                                                             inputs: str) -> None:
    estimator, meta = train_model(Quixo, dataset, model=kind, inputs=inputs, seed=2)
    path = tmp_path / "m.joblib"
    written = save_model(estimator, path, meta)
    assert written["sha256"] == file_sha256(path) == read_metadata(path)["sha256"]
    model = load_model(Quixo, str(path), inputs=inputs)
    names, X = dataset.inputs(inputs)
    assert np.array_equal(model.predict(X), estimator.predict(X))
    assert model.predict(X[0]).shape == (1,)  # one row as a vector
    assert model.inputs == tuple(names) and model.kind == inputs
    assert model.game == "quixo" and model.heuristic == Quixo.DEFAULT_HEURISTIC
    assert model.path == path and model.name == str(path)
    assert model.notes == ()
    on_disk = json.loads(path.with_suffix(".json").read_text())
    assert on_disk["format"] == FORMAT and on_disk["model"] == kind and on_disk["target"] == "h_l"
    assert on_disk["inputs"] == (["h0"] if inputs == "h0" else list(Quixo.FEATURE_NAMES))
    assert len(on_disk["check"]["X"]) == len(on_disk["check"]["y"]) == 8
    assert set(on_disk["versions"]) == {"python", "sklearn", "numpy", "joblib", "tui_games"}


def test_the_estimators_have_the_contract_shapes(saved: dict) -> None:
    from sklearn.compose import TransformedTargetRegressor
    from sklearn.ensemble import RandomForestRegressor
    from sklearn.neural_network import MLPRegressor
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler

    forest = load_model(Quixo, str(saved["rf", "features"])).estimator
    assert type(forest) is RandomForestRegressor and forest.n_jobs is None
    network = load_model(Quixo, str(saved["mlp", "h0"])).estimator
    assert type(network) is TransformedTargetRegressor
    assert isinstance(network.transformer, StandardScaler)
    assert isinstance(network.regressor, Pipeline)
    steps = dict(network.regressor.steps)
    assert list(steps) == ["scale", "mlp"]
    assert isinstance(steps["scale"], StandardScaler) and isinstance(steps["mlp"], MLPRegressor)


def test_resolve_model_maps_bundled_names_and_expands_paths() -> None:
    for name in BUNDLED_NAMES:
        assert resolve_model("chess", name) == models.BUNDLED_DIR / f"chess-{name}.joblib"
    assert resolve_model("chess", "~/m.joblib") == Path.home() / "m.joblib"
    assert resolve_model("chess", "dir/m.json") == Path("dir/m.joblib")
    assert resolve_model("chess", "pred.joblib") == Path("pred.joblib")


def test_a_bundled_name_loads_from_the_bundled_directory(saved: dict, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(models, "BUNDLED_DIR", tmp_path)
    refused(Quixo, "mi", "the bundled quixo model")
    copy_model(saved["rf", "features"], tmp_path, "quixo-mi")
    copy_model(saved["rf", "h0"], tmp_path, "quixo-pred")
    assert load_model(Quixo, "mi", inputs="features").kind == "features"
    assert load_model(Quixo, "pred", inputs="h0").kind == "h0"
    refused(Quixo, "pred", "this model takes the static heuristic h0 alone", inputs="features")


# ------------------------------------------------------------------ saving
def test_save_model_never_overwrites(saved: dict, tmp_path: Path) -> None:
    path = copy_model(saved["rf", "h0"], tmp_path)
    estimator = load_model(Quixo, str(path)).estimator
    meta = read_metadata(path)
    before = path.read_bytes(), metadata_path(path).read_text()
    with pytest.raises(ModelError, match="already exists"):
        save_model(estimator, path, meta)
    assert (path.read_bytes(), metadata_path(path).read_text()) == before
    # only the metadata file is in the way: nothing is written either
    lone = tmp_path / "lone.joblib"
    metadata_path(lone).write_text("{}")
    with pytest.raises(ModelError, match="lone.json already exists"):
        save_model(estimator, lone, meta)
    assert not lone.exists() and metadata_path(lone).read_text() == "{}"
    with pytest.raises(ModelError, match="must end in .joblib"):
        save_model(estimator, tmp_path / "model.pkl", meta)


def test_training_is_reproducible_from_its_seed(dataset) -> None:
    metas = [train_model(Quixo, dataset, model="rf", seed=seed)[1] for seed in (5, 5, 6)]
    for meta in metas:
        meta.pop("fit_s")
    assert metas[0]["check"] == metas[1]["check"] and metas[0]["metrics"] == metas[1]["metrics"]
    assert metas[0]["check"]["X"] != metas[2]["check"]["X"]  # another split


# ---------------------------------------------------------------- refusals
def test_missing_files_are_refused(saved: dict, tmp_path: Path) -> None:
    refused(Quixo, tmp_path / "nothing.joblib", "no such file")
    path = copy_model(saved["rf", "h0"], tmp_path)
    metadata_path(path).unlink()
    refused(Quixo, path, "its metadata file")
    refused(Quixo, tmp_path, "is not a file")


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('{"format": "tui-games-model/1", "game": ', "is not valid JSON (line 1"),
        ("[1, 2]", "is not a model metadata object"),
        ("\xff\xfe", "is not valid JSON"),
        ('{"format": "tui-games-model/0"}', "format is 'tui-games-model/0'"),
        ('{"format": "tui-games-dataset/1", "game": "quixo"}', "expected 'tui-games-model/1'"),
        ('{"format": "tui-games-model/1", "game": "quixo"}', "missing keys model, inputs"),
    ],
)
def test_bad_metadata_is_refused(saved: dict, tmp_path: Path, text: str, needle: str) -> None:
    path = copy_model(saved["rf", "h0"], tmp_path)
    metadata_path(path).write_text(text, encoding="utf-8")
    refused(Quixo, path, needle)


@pytest.mark.parametrize(
    ("changes", "needle"),
    [
        ({"inputs": "h0"}, "'inputs' has the wrong type"),
        ({"model": "svm"}, "unknown model kind 'svm'"),
        ({"sha256": "abc"}, "'sha256' is not a hex sha256 digest"),
        ({"check": {"X": 1}}, "'check' must hold the lists"),
        ({"heuristic": "vibes"}, "trained with a heuristic quixo does not have"),
    ],
)
def test_malformed_metadata_values_are_refused(saved: dict, tmp_path: Path, changes: dict,
                                               needle: str) -> None:
    path = copy_model(saved["rf", "h0"], tmp_path)
    edit_meta(path, **changes)
    refused(Quixo, path, needle)


def test_a_model_of_another_game_is_refused(saved: dict) -> None:
    refused(Checkers, saved["rf", "features"], "this model was trained for quixo, not checkers")


def test_a_tampered_model_file_is_refused(saved: dict, tmp_path: Path) -> None:
    path = copy_model(saved["rf", "features"], tmp_path)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    refused(Quixo, path, "does not match its metadata (sha256 differs): the file was changed or corrupted")


class Payload:
    """Unpickling this creates a file: a stand-in for a malicious model file."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple:
        return (Path.touch, (self.marker,))


def test_a_file_whose_hash_does_not_match_is_never_unpickled(saved: dict, tmp_path: Path) -> None:
    path = copy_model(saved["rf", "features"], tmp_path)
    marker = tmp_path / "pwned"
    joblib.dump(Payload(marker), path)  # the metadata keeps the old hash
    refused(Quixo, path, "does not match its metadata")
    assert not marker.exists()
    # control: the same file with its hash in the metadata is unpickled -- the payload runs,
    # and the object it gives is refused for what it is
    edit_meta(path, sha256=file_sha256(path))
    refused(Quixo, path, "the file holds a NoneType, not the RandomForestRegressor")
    assert marker.exists()


def test_a_corrupt_pickle_with_a_matching_hash_is_refused_cleanly(saved: dict, tmp_path: Path) -> None:
    path = copy_model(saved["rf", "features"], tmp_path)
    uncompressed = tmp_path / "plain.joblib"
    joblib.dump(load_model(Quixo, str(path)).estimator, uncompressed)  # a raw pickle stream
    for data in (path.read_bytes()[:200], uncompressed.read_bytes()[:5000], b"not a pickle at all"):
        path.write_bytes(data)
        edit_meta(path, sha256=hashlib.sha256(data).hexdigest())
        refused(Quixo, path, "the file cannot be unpickled")


def test_a_pickle_naming_a_missing_module_is_refused_cleanly(saved: dict, tmp_path: Path) -> None:
    path = copy_model(saved["rf", "h0"], tmp_path)
    data = b"cno_such_module_xyz\nThing\n(tR."  # GLOBAL no_such_module_xyz.Thing, call it
    path.write_bytes(data)
    edit_meta(path, sha256=hashlib.sha256(data).hexdigest())
    refused(Quixo, path, "ModuleNotFoundError")


def test_inputs_that_are_not_the_games_are_refused(saved: dict, tmp_path: Path) -> None:
    path = copy_model(saved["rf", "features"], tmp_path)
    edit_meta(path, inputs=list(Checkers.FEATURE_NAMES))
    refused(Quixo, path, "its inputs are not the quixo features (unknown men, opp_men")
    edit_meta(path, inputs=list(reversed(Quixo.FEATURE_NAMES)))
    refused(Quixo, path, "in another order")
    edit_meta(path, inputs=["h0", "h1"])
    refused(Quixo, path, "are neither ['h0'] nor the quixo features")


def test_the_wrong_kind_of_inputs_is_refused(saved: dict) -> None:
    refused(Quixo, saved["rf", "features"], "takes the 18 quixo features, but it is needed with h0 alone",
            inputs="h0")
    refused(Quixo, saved["mlp", "h0"], "use a model trained with --inputs features", inputs="features")


def test_metadata_that_does_not_describe_the_estimator_is_refused(saved: dict, tmp_path: Path) -> None:
    path = copy_model(saved["rf", "h0"], tmp_path)
    edit_meta(path, inputs=list(Quixo.FEATURE_NAMES))
    refused(Quixo, path, "the estimator takes 1 inputs, its metadata names 18")
    path = copy_model(saved["rf", "h0"], tmp_path, "kind")
    edit_meta(path, model="mlp")
    refused(Quixo, path, "holds a RandomForestRegressor, not the TransformedTargetRegressor")


def test_check_rows_that_no_longer_agree_are_refused(saved: dict, tmp_path: Path) -> None:
    path = copy_model(saved["mlp", "features"], tmp_path)
    meta = read_metadata(path)
    check = meta["check"]
    check["y"][3] += 1e-3 * max(1.0, abs(check["y"][3]))
    edit_meta(path, check=check)
    refused(Quixo, path, "predicts differently from when it was saved, under the same scikit-learn")
    versions = dict(meta["versions"], sklearn="0.24.2")
    edit_meta(path, versions=versions)
    import sklearn

    refused(Quixo, path, f"predicts differently under scikit-learn {sklearn.__version__} than under 0.24.2")
    edit_meta(path, check={"X": check["X"][:2], "y": check["y"]})
    refused(Quixo, path, "check rows are malformed")


def test_check_rows_within_tolerance_pass(saved: dict, tmp_path: Path) -> None:
    path = copy_model(saved["rf", "features"], tmp_path)
    check = read_metadata(path)["check"]
    check["y"] = [y * (1 + 1e-9) for y in check["y"]]
    edit_meta(path, check=check)
    assert isinstance(load_model(Quixo, str(path)), LoadedModel)


def test_another_scikit_learn_version_is_a_note_when_predictions_agree(
    dataset, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sklearn
    import sklearn.base

    estimator, meta = train_model(Quixo, dataset, model="rf", inputs="h0")
    path = tmp_path / "old.joblib"
    with monkeypatch.context() as patch:
        patch.setattr(sklearn.base, "__version__", "1.3.0")  # what the pickle says it was made with
        save_model(estimator, path, meta)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing escapes as a printed warning
        model = load_model(Quixo, str(path))
    assert model.notes == (
        f"saved with scikit-learn 1.3.0, loaded with {sklearn.__version__}: its check rows still predict the same",
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=300))
def test_any_bytes_with_a_matching_hash_give_a_model_error(saved: dict, tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "fuzz.joblib"
    if not path.exists():
        copy_model(saved["rf", "h0"], tmp_path, "fuzz")
    path.write_bytes(data)
    edit_meta(path, sha256=hashlib.sha256(data).hexdigest())
    with pytest.raises(ModelError) as info:
        load_model(Quixo, str(path))
    assert str(info.value).startswith(f"model {path}:") and "\n" not in str(info.value)
