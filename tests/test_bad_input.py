"""Bad input found by trying the project as a hostile user would: one clear line each,
nothing saved lost or overwritten, no partial file left to block a retry."""

from __future__ import annotations

import errno
import io
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import engines.tournament.results as results_module
from cli_run import assert_usage_error, run
from engines.learning import models
from engines.learning.models import ModelError, save_model
from engines.tournament import MatchConfig, ResultsFile, ResultsFileError, play_game
from learning_data import positions, write_dataset
from tui.uci import UciServer


def test_dataset_never_overwrites_a_stray_sidecar(tmp_path: Path, capsys) -> None:
    out = tmp_path / "d.csv"
    sidecar = tmp_path / "d.csv.meta.json"
    sidecar.write_text("mine", encoding="utf-8")
    assert_usage_error(capsys, ["dataset", "quixo", "--games", "1", "--depth", "1", "--out", str(out)],
                       "never overwrites its metadata")
    assert sidecar.read_text(encoding="utf-8") == "mine" and not out.exists()


def test_a_model_file_that_cannot_be_written_leaves_nothing_behind(tmp_path: Path, monkeypatch) -> None:
    from sklearn.tree import DecisionTreeRegressor

    def full_disk(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    estimator = DecisionTreeRegressor(max_depth=2).fit([[0.0], [1.0], [2.0]], [0.0, 1.0, 2.0])
    path = tmp_path / "m.npz"
    monkeypatch.setattr(np, "savez_compressed", full_disk)
    with pytest.raises(ModelError) as error:
        save_model(estimator, path, {"game": "quixo"})
    assert "No space left" in str(error.value) and "\n" not in str(error.value)
    assert not path.exists() and not models.metadata_path(path).exists()  # the retry is not blocked


def test_an_mlp_on_a_handful_of_positions_is_refused_in_one_line(tmp_path: Path, capsys) -> None:
    data = write_dataset(tmp_path / "tiny.csv", "quixo", positions("quixo", 8))
    code, _, err = run(capsys, "train", "quixo", "--data", str(data), "--model", "mlp",
                       "--out", str(tmp_path / "m.npz"))  # what it read is on stdout first
    assert code == 2 and err.count("\n") == 1 and "too few for an mlp" in err and "Traceback" not in err
    assert not (tmp_path / "m.npz").exists()


def test_values_near_the_float_limit_are_refused_in_one_line(tmp_path: Path, capsys) -> None:
    rows = positions("quixo", 40)
    rows[3][-2] = 1.7e308  # h_l
    data = write_dataset(tmp_path / "big.csv", "quixo", rows)
    assert_usage_error(capsys, ["train", "quixo", "--data", str(data), "--model", "rf",
                                "--out", str(tmp_path / "m.npz")], "out of range")


def test_a_results_file_that_cannot_be_appended_to_is_refused_before_any_game(tmp_path: Path,
                                                                             monkeypatch) -> None:
    config = MatchConfig.create("quixo", "random", "random", 2, 0, 0)
    path = tmp_path / "r.jsonl"
    results, _ = ResultsFile.open(path, config, resume=False)
    results.append(play_game(config, 0))  # any content: the append check comes first
    real_open = open

    def read_only(file, mode="r", *args, **kwargs):
        if Path(file) == path and "a" in mode:
            raise PermissionError(errno.EACCES, "Permission denied", str(file))
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(results_module, "open", read_only, raising=False)
    with pytest.raises(ResultsFileError) as error:
        ResultsFile.open(path, config, resume=True)
    assert "cannot write it" in str(error.value)


@pytest.mark.parametrize("argv, needle", [
    (["report", "a\0b"], "NUL"),
    (["report", "~nosuchuser/results.jsonl"], "no user"),
    (["report", "x" * 5000], "too long"),
    (["models", "--check", "~nosuchuser/m.joblib", "--game", "chess"], "no user"),
    (["train", "chess", "--data", "a\0b", "--model", "rf", "--out", "m.joblib"], "NUL"),
    (["dataset", "chess", "--games", "1", "--depth", "1", "--out", "y" * 300], "too long"),
    (["search", "chess", "--engine", "hr:model=~nosuchuser/x"], "model"),
    (["search", "chess", "--engine", "pred:model=" + "z" * 5000], "not a usable path"),
    (["search", "chess", "--engine", "pvs:workers=1000"], "<= 64"),
])
def test_bad_paths_and_sizes_are_one_line(argv: list[str], needle: str, capsys) -> None:
    assert_usage_error(capsys, argv, needle)


HUGE_MOVE = "Zz9" * 13_000  # 39 kB


@pytest.mark.parametrize("argv, needle", [
    (["show", "chess", "--moves", "e4", HUGE_MOVE], "move 2 ('Zz9"),
    (["show", "quixo", "--moves", HUGE_MOVE], "move 1 ('Zz9"),
    (["moves", "chess", "--moves", HUGE_MOVE], "unrecognized arguments"),
])
def test_a_huge_bad_argument_is_quoted_in_part(argv: list[str], needle: str, capsys) -> None:
    assert_usage_error(capsys, argv, needle)
    _, _, err = run(capsys, *argv)
    assert len(err) < 400


def test_uci_answers_bad_commands_in_one_line_and_carries_on() -> None:
    out = io.StringIO()
    server = UciServer("alphabeta:depth=1", out)
    server.run(["position moves e2e4", "setoption name Engine value hr:model=~nosuchuser/x",
                "setoption name Engine value hr:model=a\0b", "position startpos moves e2e4", "go depth 1",
                "isready", "quit"])
    lines = out.getvalue().splitlines()
    errors = [line for line in lines if line.startswith("info string error")]
    assert len(errors) == 3, lines
    # isready is answered at once, even while the search thinks: readyok and the search's bestmove end the
    # output, in either order
    assert sorted(line.split()[0] for line in lines[-2:]) == ["bestmove", "readyok"], lines


def test_uci_reads_bytes_that_are_not_utf8() -> None:
    process = subprocess.run([sys.executable, "-m", "tui.cli", "uci", "--engine", "random"],
                             input=b"uci\n\xff\xfe garbage\nisready\nquit\n", capture_output=True, timeout=60)
    assert process.returncode == 0, process.stderr
    assert b"readyok" in process.stdout and b"Traceback" not in process.stderr
