"""Model files: saving, loading, and every way a model file is refused -- without a traceback,
and without ever unpickling anything: a forged pickle with forged metadata never runs."""

from __future__ import annotations

import hashlib
import json
import pickle
import shutil
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
    PICKLE_FORMAT,
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
from games import GAME_NAMES, game_class
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
            fit = train_model(Quixo, dataset, model=kind, inputs=inputs, seed=1)
            estimator, meta = fit.estimator, fit.meta()
            paths[kind, inputs] = folder / f"{kind}-{inputs}.npz"
            save_model(estimator, paths[kind, inputs], meta)
    return paths


def copy_model(source: Path, folder: Path, stem: str = "model") -> Path:
    """A copy of a model's two files in ``folder``; returns the new .npz path."""
    target = folder / f"{stem}.npz"
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
    fit = train_model(Quixo, dataset, model=kind, inputs=inputs, seed=2)
    estimator, meta = fit.estimator, fit.meta()
    path = tmp_path / "m.npz"
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
    assert set(on_disk["versions"]) == {"python", "sklearn", "numpy", "tui_games"}
    assert on_disk["predictor"]["kind"] == ("forest" if kind == "rf" else "mlp")
    with np.load(path, allow_pickle=False) as arrays:  # plain numbers only
        assert all(arrays[name].dtype.kind in "fi" for name in arrays.files)


def test_the_stored_predictors_have_the_contract_shapes(saved: dict) -> None:
    forest = read_metadata(saved["rf", "features"])["predictor"]
    assert forest["kind"] == "forest" and forest["trees"] == 100 and not forest["x_scaled"]
    network = read_metadata(saved["mlp", "h0"])["predictor"]
    assert network["kind"] == "mlp" and network["x_scaled"] and network["layers"] == 3
    assert network["y_scale"] != 1.0  # the target was standardised


def test_resolve_model_maps_bundled_names_and_expands_paths() -> None:
    for name in BUNDLED_NAMES:
        assert resolve_model("chess", name) == models.bundled_folder("chess") / f"{name}.npz"
    assert resolve_model("chess", "~/m.npz") == Path.home() / "m.npz"
    assert resolve_model("chess", "dir/m.json") == Path("dir/m.npz")
    assert resolve_model("chess", "pred.npz") == Path("pred.npz")


def test_a_bundled_name_loads_from_the_bundled_directory(saved: dict, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(models, "bundled_folder", lambda game: tmp_path)
    refused(Quixo, "mi", "the bundled quixo model")
    copy_model(saved["rf", "features"], tmp_path, "mi")
    copy_model(saved["rf", "h0"], tmp_path, "pred")
    assert load_model(Quixo, "mi", inputs="features").kind == "features"
    assert load_model(Quixo, "pred", inputs="h0").kind == "h0"
    refused(Quixo, "pred", "this model takes the static heuristic h0 alone", inputs="features")


# ------------------------------------------------------------------ saving
def test_save_model_never_overwrites(dataset, saved: dict, tmp_path: Path) -> None:
    path = copy_model(saved["rf", "h0"], tmp_path)
    fit = train_model(Quixo, dataset, model="rf", inputs="h0", seed=1)
    estimator, meta = fit.estimator, fit.meta()
    before = path.read_bytes(), metadata_path(path).read_text()
    with pytest.raises(ModelError, match="already exists"):
        save_model(estimator, path, meta)
    assert (path.read_bytes(), metadata_path(path).read_text()) == before
    # only the metadata file is in the way: nothing is written either
    lone = tmp_path / "lone.npz"
    metadata_path(lone).write_text("{}")
    with pytest.raises(ModelError, match="lone.json already exists"):
        save_model(estimator, lone, meta)
    assert not lone.exists() and metadata_path(lone).read_text() == "{}"
    with pytest.raises(ModelError, match="must end in .npz"):
        save_model(estimator, tmp_path / "model.pkl", meta)


def test_training_is_reproducible_from_its_seed(dataset) -> None:
    metas = [train_model(Quixo, dataset, model="rf", seed=seed).meta() for seed in (5, 5, 6)]
    for meta in metas:
        meta.pop("fit_s")
    assert metas[0]["check"] == metas[1]["check"] and metas[0]["metrics"] == metas[1]["metrics"]
    assert metas[0]["check"]["X"] != metas[2]["check"]["X"]  # another split


# ---------------------------------------------------------------- refusals
def test_missing_files_are_refused(saved: dict, tmp_path: Path) -> None:
    refused(Quixo, tmp_path / "nothing.npz", "no such file")
    path = copy_model(saved["rf", "h0"], tmp_path)
    metadata_path(path).unlink()
    refused(Quixo, path, "its metadata file")
    refused(Quixo, tmp_path, "is not a file")


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('{"format": "tui-games-model/2", "game": ', "is not valid JSON (line 1"),
        ("[1, 2]", "is not a model metadata object"),
        ("\xff\xfe", "is not valid JSON"),
        ('{"format": "tui-games-model/0"}', "format is 'tui-games-model/0'"),
        ('{"format": "tui-games-dataset/1", "game": "quixo"}', "expected 'tui-games-model/2'"),
        ('{"format": "tui-games-model/2", "game": "quixo"}', "missing keys model, inputs"),
        ('{"format": "tui-games-model/1", "game": "quixo"}', "pickles are never loaded"),
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


def test_a_forged_pickle_with_forged_metadata_never_runs(saved: dict, tmp_path: Path) -> None:
    """An attacker controls both files: the hash matches, the metadata is well formed.
    Whatever the file is called and whatever the metadata says, nothing is unpickled."""
    marker = tmp_path / "pwned"
    payload = pickle.dumps(Payload(marker))
    arrays_with_a_pickle = tmp_path / "objects.npz"
    np.savez(arrays_with_a_pickle, child=np.array([Payload(marker)], dtype=object))  # an object array
    meta = json.loads(metadata_path(saved["rf", "features"]).read_text())
    for name, data in (("forged.npz", payload), ("forged.joblib", payload),
                       ("objects.npz", arrays_with_a_pickle.read_bytes())):
        path = tmp_path / name
        path.write_bytes(data)
        metadata_path(path).write_text(json.dumps(dict(meta, sha256=hashlib.sha256(data).hexdigest())))
        refused(Quixo, path, "pickle" if name != "forged.npz" else "cannot be read")
        for fmt in (FORMAT, PICKLE_FORMAT):
            edit_meta(path, format=fmt)
            with pytest.raises(ModelError):
                load_model(Quixo, str(path))
    assert not marker.exists()


def test_a_joblib_file_is_refused_with_the_reason(saved: dict, tmp_path: Path) -> None:
    path = tmp_path / "old.joblib"
    joblib.dump({"not": "loaded"}, path)
    message = refused(Quixo, path, "pickles are never loaded")
    assert "retrain" in message


def test_arrays_that_do_not_make_the_described_model_are_refused(saved: dict, tmp_path: Path) -> None:
    source = saved["rf", "features"]
    with np.load(source, allow_pickle=False) as archive:
        arrays = {name: archive[name] for name in archive.files}
    broken = {
        "child": dict(arrays, child=arrays["child"] + 10**9),           # points outside the nodes
        "feature": dict(arrays, feature=arrays["feature"] + 100),       # tests inputs it has not
        "dtype": dict(arrays, value=arrays["value"].astype(np.float32)),
        "missing": {k: v for k, v in arrays.items() if k != "threshold"},
    }
    for stem, bad in broken.items():
        path = copy_model(source, tmp_path, stem)
        np.savez(path, **bad)
        edit_meta(path, sha256=file_sha256(path))
        refused(Quixo, path, "its arrays do not make the model its metadata describes")
    path = copy_model(source, tmp_path, "spec")
    edit_meta(path, predictor=dict(read_metadata(path)["predictor"], trees=3))
    refused(Quixo, path, "the forest's arrays do not fit together")


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


def test_metadata_that_does_not_describe_the_arrays_is_refused(saved: dict, tmp_path: Path) -> None:
    path = copy_model(saved["rf", "h0"], tmp_path)
    edit_meta(path, inputs=list(Quixo.FEATURE_NAMES))
    refused(Quixo, path, "its predictor takes 1 inputs, its metadata names 18")
    path = copy_model(saved["rf", "h0"], tmp_path, "kind")
    edit_meta(path, model="mlp")
    refused(Quixo, path, "'predictor' does not describe an mlp model")


def test_check_rows_that_no_longer_agree_are_refused(saved: dict, tmp_path: Path) -> None:
    path = copy_model(saved["mlp", "features"], tmp_path)
    meta = read_metadata(path)
    check = meta["check"]
    check["y"][3] += 1e-3 * max(1.0, abs(check["y"][3]))
    edit_meta(path, check=check)
    refused(Quixo, path, "predicts differently from when it was saved")
    edit_meta(path, check={"X": check["X"][:2], "y": check["y"]})
    refused(Quixo, path, "check rows are malformed")


def test_check_rows_within_tolerance_pass(saved: dict, tmp_path: Path) -> None:
    path = copy_model(saved["rf", "features"], tmp_path)
    check = read_metadata(path)["check"]
    check["y"] = [y * (1 + 1e-9) for y in check["y"]]
    edit_meta(path, check=check)
    assert isinstance(load_model(Quixo, str(path)), LoadedModel)


def test_the_bundled_models_are_arrays_that_load_without_scikit_learn_objects() -> None:
    shipped = [(game, name) for game in GAME_NAMES for name in BUNDLED_NAMES if resolve_model(game, name).exists()]
    assert shipped
    for game, name in shipped:
        path = resolve_model(game, name)
        assert path.suffix == ".npz" and not path.with_suffix(".joblib").exists()
        model = load_model(game_class(game), name)
        assert model.meta["format"] == FORMAT
        if "converted" in model.meta:  # converted from a pickle: its predictions were checked
            assert model.meta["converted"]["check"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=300))
def test_any_bytes_with_a_matching_hash_give_a_model_error(saved: dict, tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "fuzz.npz"
    if not path.exists():
        copy_model(saved["rf", "h0"], tmp_path, "fuzz")
    path.write_bytes(data)
    edit_meta(path, sha256=hashlib.sha256(data).hexdigest())
    with pytest.raises(ModelError) as info:
        load_model(Quixo, str(path))
    assert str(info.value).startswith(f"model {path}:") and "\n" not in str(info.value)
