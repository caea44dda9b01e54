"""Files are data, never trusted: a fixed corpus of crafted files against every loader.

Each loader must refuse each crafted file with one line of its own error type naming the file, at
once: devices and FIFOs are refused on the open descriptor (a FIFO is never waited on), and no
more than a loader's limit is ever read.  Then the opener's own pieces (nesting, ``~user``), the
array checks (declared shapes, the int64 minimum, the network's scalars), the command line and the
app with a hostile settings or puzzles file.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import threading
import zipfile
from pathlib import Path
from typing import Callable

import numpy as np
import pytest

from engines.learning.models import bundled_folder
from hypothesis import given
from hypothesis import strategies as st
from textual.widgets import Static

from engines.lab.experiment import ExperimentError, load_experiment
from engines.learning.models import ModelError, load_model
from engines.learning.train import DatasetError, read_dataset
from engines.puzzles import Puzzle, PuzzleError, load_puzzle_file
from engines.tournament.results import ResultsFileError, read_results
from games.chess.network import Network, NetworkError
from games.chess.tapered import TablesError as ChessTablesError
from games.chess.tapered import load_tables as load_chess_tables
from games.arrays import read_arrays
from games.files import MAX_DEPTH, nesting_depth, parse_json, parse_toml, read_bytes, user_path
from games.learned import MAX_VALUE, TablesError, load_tables
from games.quixo import Quixo
from games.quixo.patterns import FORM as QUIXO_FORM
from games.reading import RecordError, load_record_file
from tui.app.app import TuiGamesApp
from tui.app.screens import puzzles as puzzle_screen
from tui.app.screens.puzzles import PuzzleScreen, read_records
from tui.app.screens.start import StartScreen
from tui.settings import load_settings, settings_path

from app_pilot import wait_for
from cli_run import assert_usage_error

DEEP = 3_000
#: Every array name any .npz loader asks for, so that a crafted archive reaches each one's checks.
NAMES = ("format", "form", "mg", "eg", "tempo", "w1", "b1", "w2", "b2", "scale", "x_mean", "x_scale", "child",
         "feature", "threshold", "value", "root")
BUNDLED = Path(__file__).resolve().parent.parent / "games"


def npz(**arrays: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def declaring(shape: tuple[int, ...], names: tuple[str, ...] = NAMES) -> bytes:
    """An archive whose .npy headers declare ``shape`` of float64 but hold 8 bytes each."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in names:
            entry = io.BytesIO()
            np.lib.format.write_array_header_1_0(entry, {"descr": "<f8", "fortran_order": False, "shape": shape})
            archive.writestr(f"{name}.npy", entry.getvalue() + bytes(8))
    return buffer.getvalue()


#: The crafted files: name -> bytes (the devices, FIFO, directory and ~user are added by the fixture).
CRAFTED: dict[str, bytes] = {
    "empty.npz": b"",
    "nan.npz": npz(**{name: np.array([np.nan]) for name in NAMES}),
    "inf.npz": npz(**{name: np.array([np.inf]) for name in NAMES}),
    "complex.npz": npz(**{name: np.array([1 + 2j]) for name in NAMES}),
    "truncated.npz": npz(**{name: np.arange(4000) for name in NAMES})[:5000],
    "huge-shape.npz": declaring((2**40,)),
    "nested.toml": b"a = " + b"[" * DEEP + b"]" * DEEP + b"\n",
    "nested-table.toml": b"a = " + b"{b = " * DEEP + b"1" + b"}" * DEEP + b"\n",
    "nested.json": b"[" * DEEP + b"]" * DEEP,
    "not-utf8.txt": b"\xff\xfe\xfa\x80 not text\n",
    "nul.txt": b"version = 1\x00\n",
}


def object_archive() -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **{name: np.array([object()], dtype=object) for name in NAMES})
    return buffer.getvalue()


@pytest.fixture
def corpus(tmp_path: Path) -> dict[str, str]:
    """Every crafted file, by name, as a path string a loader is given."""
    folder = tmp_path / "crafted"
    folder.mkdir()
    files = {}
    for name, data in {**CRAFTED, "object.npz": object_archive()}.items():
        (folder / name).write_bytes(data)
        files[name] = str(folder / name)
    # a model of another game: othello's tables where quixo's are read, othello's model for quixo
    shutil.copy(BUNDLED / "othello" / "learned.npz", folder / "wrong-game.npz")
    bundled = bundled_folder("othello")
    shutil.copy(bundled / "mi.npz", folder / "wrong-game-model.npz")
    shutil.copy(bundled / "mi.json", folder / "wrong-game-model.json")
    files["wrong-game.npz"] = str(folder / "wrong-game.npz")
    files["wrong-game-model.npz"] = str(folder / "wrong-game-model.npz")
    os.mkfifo(folder / "fifo.npz")
    files["fifo"] = str(folder / "fifo.npz")
    (folder / "directory.npz").mkdir()
    files["directory"] = str(folder / "directory.npz")
    files["/dev/zero"] = "/dev/zero"
    files["/dev/urandom"] = "/dev/urandom"
    files["~nosuchuser"] = "~nosuchuser-of-tui-games/x.npz"
    return files


def _settings(path: str) -> str:
    settings, problems = load_settings(user_path(path))
    assert settings == type(settings)() and len(problems) == 1
    return problems[0]


def _progress(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], str]:
    def read(path: str) -> str:
        monkeypatch.setattr(puzzle_screen, "_path", lambda: user_path(path))
        records, problem = read_records()
        assert records == {} and problem is not None
        return problem
    return read


#: loader name -> (what it is given the path to, the error it raises)
LOADERS: dict[str, tuple[Callable[[str], object], type[Exception]]] = {
    "tables": (lambda path: load_tables(QUIXO_FORM, path), TablesError),
    "chess tables": (load_chess_tables, ChessTablesError),
    "network": (Network.load, NetworkError),
    "model": (lambda path: load_model(Quixo, path), ModelError),
    "dataset": (lambda path: read_dataset(path, Quixo), DatasetError),
    "experiment": (load_experiment, ExperimentError),
    "puzzle file": (lambda path: load_puzzle_file(user_path(path), "chess"), PuzzleError),
    "results": (read_results, ResultsFileError),
    "records": (lambda path: load_record_file(path, "chess"), RecordError),
}


def refusal(loader: str, path: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The one line ``loader`` refuses ``path`` with."""
    if loader == "settings":
        return _settings(path)
    if loader == "puzzles progress":
        return _progress(monkeypatch)(path)
    load, error = LOADERS[loader]
    with pytest.raises(error) as refused:
        load(path)
    return str(refused.value)


def within_deadline(action: Callable[[], str], fifo: str | None, seconds: float = 20.0) -> str:
    """``action()`` in a thread; if it is still running after ``seconds`` (waiting on a FIFO), a
    writer is opened and closed so that it ends, and the test fails."""
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(action())
        except BaseException as problem:  # noqa: BLE001 -- handed to the test
            outcome.append(problem)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        if fifo is not None:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(seconds)
        pytest.fail(f"the loader waited on {fifo or 'its file'} for over {seconds:g} s")
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return str(outcome[0])


#: What is not a problem: an empty results or progress file holds no games (no records); the settings
#: and progress files are found, never named, so a "~user" there is a file that is not there: a first run.
ACCEPTED = {("results", "empty.npz"), ("puzzles progress", "empty.npz"), ("settings", "~nosuchuser"),
            ("puzzles progress", "~nosuchuser")}
ALL_LOADERS = [*LOADERS, "settings", "puzzles progress"]
ALL_FILES = [*CRAFTED, "object.npz", "wrong-game.npz", "wrong-game-model.npz", "fifo", "directory", "/dev/zero",
             "/dev/urandom", "~nosuchuser"]


@pytest.mark.parametrize(("loader", "crafted"), [(loader, crafted) for loader in ALL_LOADERS for crafted in ALL_FILES
                                                 if (loader, crafted) not in ACCEPTED])
def test_every_loader_refuses_every_crafted_file_in_one_line_at_once(
        loader: str, crafted: str, corpus: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    if crafted == "wrong-game-model.npz" and loader != "model":
        crafted = "wrong-game.npz"
    path = corpus[crafted]
    message = within_deadline(lambda: refusal(loader, path, monkeypatch), path if crafted == "fifo" else None)
    assert message and "\n" not in message
    named = Path(path).name if not crafted.startswith("~") else path
    assert named in message
    if crafted in ("fifo", "/dev/zero", "/dev/urandom"):
        assert "not a regular file" in message or "is not a file" in message
    if crafted == "~nosuchuser":
        assert "no user" in message


@pytest.mark.parametrize(("crafted", "words"), [
    ("huge-shape.npz", "declares 8,796,093,022,208 bytes of data (1099511627776) in an entry of 136"),
    ("object.npz", "holds Python objects"), ("complex.npz", "wrong types (complex128, not booleans"),
    ("nan.npz", "non-finite"), ("inf.npz", "non-finite"), ("truncated.npz", "not a test file"),
])
def test_arrays_are_checked_before_their_data_is_read(crafted: str, words: str, corpus: dict[str, str]) -> None:
    """A header declaring 8 TB refuses the archive before anything is allocated; object and
    complex arrays are refused by type; NaN and infinities by value."""
    with pytest.raises(ValueError, match=re.escape(words)):
        read_arrays(corpus[crafted], None, 10**6, ValueError, "test")
    if crafted == "inf.npz":  # where a loader allows infinities (a forest's leaves), NaN is still refused
        assert read_arrays(corpus[crafted], ("w1",), 10**6, ValueError, "test", infinite=("w1",))
        with pytest.raises(ValueError, match="non-finite"):
            read_arrays(corpus["nan.npz"], ("w1",), 10**6, ValueError, "test", infinite=("w1",))


def tables_archive(form_name: str, weights: int, mg: np.ndarray, tempo: np.ndarray) -> bytes:
    return npz(format=np.asarray("tui-games-tables/1"), form=np.asarray(form_name), mg=mg,
               eg=np.zeros(weights, np.int32), tempo=tempo)


def test_the_most_negative_entry_is_out_of_range(tmp_path: Path) -> None:
    """np.abs of the int64 minimum is itself: it passed a check of the absolute maximum."""
    form = QUIXO_FORM
    for mg, tempo in ((np.full(form.weights, np.iinfo(np.int64).min, np.int64), np.asarray(0, np.int64)),
                      (np.zeros(form.weights, np.int64), np.asarray(np.iinfo(np.int64).min, np.int64))):
        path = tmp_path / "minimum.npz"
        path.write_bytes(tables_archive(form.name, form.weights, mg, tempo))
        with pytest.raises(TablesError, match="beyond"):
            load_tables(form, path)
        path.unlink()
    path = tmp_path / "edge.npz"
    path.write_bytes(tables_archive(form.name, form.weights, np.full(form.weights, -MAX_VALUE, np.int32),
                                    np.asarray(-MAX_VALUE, np.int32)))
    assert load_tables(form, path).tempo == -MAX_VALUE


def network_archive(**changes: np.ndarray) -> bytes:
    arrays = {"format": np.asarray("tui-games-chess-network/2"), "w1": np.zeros((768, 4), np.int32),
              "b1": np.zeros(4, np.int32), "w2": np.zeros(8, np.float32), "b2": np.float32(0),
              "scale": np.int32(1024)}
    return npz(**{**arrays, **changes})


@pytest.mark.parametrize(("changes", "words"), [
    ({"scale": np.float64(np.inf)}, "array 'scale': of the wrong types"),
    ({"scale": np.complex128(1024 + 1j)}, "array 'scale': of the wrong types"),
    ({"scale": np.float64(1024.0)}, "array 'scale': of the wrong types"),
    ({"scale": np.arange(2, dtype=np.int32)}, "arrays of the wrong shapes"),
    ({"b2": np.float32(np.inf)}, "non-finite"),
    ({"scale": np.int64(2**40)}, "'scale' is 1099511627776, beyond"),
    ({"scale": np.int32(0)}, "'scale' is 0, not 1 or more"),
    ({"b2": np.asarray("zero")}, "array 'b2': of the wrong types"),
    ({"b2": np.complex64(1j)}, "array 'b2': of the wrong types"),
    ({"w1": np.full((768, 4), np.iinfo(np.int32).min, np.int32)}, "would overflow"),
    ({"w2": np.full(8, 1e30, np.float32)}, "output weights beyond"),
])
def test_a_network_of_bad_scalars_is_one_line(tmp_path: Path, changes: dict, words: str) -> None:
    path = tmp_path / "net.npz"
    path.write_bytes(network_archive(**changes))
    with pytest.raises(NetworkError, match=words):
        Network.load(path)
    ok = tmp_path / "ok.npz"
    ok.write_bytes(network_archive())
    assert Network.load(ok).scale == 1024


def test_the_opener_reads_no_more_than_its_limit(tmp_path: Path) -> None:
    """A file that grows past its size (or lies about it) is read to ``limit + 1`` bytes and refused."""
    path = tmp_path / "big.bin"
    path.write_bytes(bytes(1000))
    assert read_bytes(path, "a file", 1000, ValueError) == bytes(1000)
    with pytest.raises(ValueError, match="1,000 bytes; a file over 999 bytes is refused"):
        read_bytes(path, "a file", 999, ValueError)


def test_nesting_is_counted_outside_strings_and_comments() -> None:
    assert nesting_depth('a = "[[[[" # [[[[\nb = [[1], {c = \'{{\'}]\n') == 2
    assert nesting_depth('a = """\n[[[\n"""\nb = [1]') == 1
    assert nesting_depth('["\\"[[", [["x"]]]') == 3
    assert nesting_depth("[" * DEEP) == MAX_DEPTH + 1  # counting stops past the limit
    assert parse_toml("a = [[1]]\n[b.c]\nd = {e = 1}\n", "x.toml", ValueError)["a"] == [[1]]
    deep = ".".join(["k"] * (MAX_DEPTH + 2)) + " = 1\n"  # dotted keys nest without brackets
    for text in ("a = " + "[" * DEEP + "]" * DEEP, deep):
        with pytest.raises(ValueError, match="nested more than 32 levels deep"):
            parse_toml(text, "x.toml", ValueError)
    with pytest.raises(ValueError, match=r"x.json: nested more than"):
        parse_json("[" * DEEP + "]" * DEEP, "x.json", ValueError)
    assert parse_json('{"a": ["]]]]"]}', "x.json", ValueError) == {"a": ["]]]]"]}


@pytest.mark.parametrize(("argv", "needle"), [
    (["search", "chess", "--engine", "pvs:depth=1,heuristic=tables:/dev/zero"], "/dev/zero: not a regular file"),
    (["search", "quixo", "--engine", "pvs:depth=1,heuristic=tables:/dev/urandom"], "/dev/urandom: not a regular"),
    (["search", "chess", "--engine", "pvs:depth=1,heuristic=network:/dev/zero"], "/dev/zero: not a regular file"),
    (["experiment", "/dev/zero"], "/dev/zero: not a regular file"),
    (["bench", "network", "--network", "/dev/zero"], "/dev/zero: not a regular file"),
])
def test_the_command_line_refuses_a_device_in_one_line(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                       needle: str) -> None:
    assert_usage_error(capsys, argv, needle)


def test_the_command_line_refuses_a_fifo_at_once(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    within_deadline(lambda: assert_usage_error(capsys, ["experiment", str(fifo)], "not a regular file") or "",
                    str(fifo))


@pytest.mark.parametrize("hostile", ["nested", "device"])
async def test_the_app_starts_with_a_hostile_settings_file(hostile: str) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    if hostile == "nested":
        path.write_text("version = 1\n[board]\nturned = " + "[" * DEEP + "]" * DEEP + "\n")
    else:
        path.symlink_to("/dev/zero")
    app = TuiGamesApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        words = "nested more than" if hostile == "nested" else "not a regular file"
        await wait_for(pilot, lambda: words in str(app.screen.query_one("#start-notice", Static).render()),
                       "the problem said")
    assert app.settings == type(app.settings)()


@pytest.mark.parametrize("hostile", ["nested", "device"])
async def test_the_puzzles_start_afresh_with_a_hostile_progress_file(hostile: str) -> None:
    path = puzzle_screen._path()
    path.parent.mkdir(parents=True, exist_ok=True)
    if hostile == "nested":
        path.write_text("[chess]\nrating = " + "[" * DEEP + "]" * DEEP + "\n")
    else:
        path.symlink_to("/dev/zero")
    puzzle = Puzzle("t-1", "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", None, ("Qxf7#",))
    app = TuiGamesApp(puzzles=("chess", [puzzle], "one puzzle", 1))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PuzzleScreen), "the puzzles")
        words = "nested more than" if hostile == "nested" else "not a regular file"
        await wait_for(pilot, lambda: any(words in str(note.message) for note in app._notifications),
                       "the problem said")
        assert app.screen.record == puzzle_screen.PuzzleRecord()


def _depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.text(alphabet="[]{}\"'#\\ ab\n"),
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                                   max_size=3), max_leaves=20)


@given(VALUES)
def test_nesting_depth_of_json_is_its_values_depth(value: object) -> None:
    """Brackets, quotes, '#' and backslashes inside strings never count."""
    assert nesting_depth(json.dumps(value)) == _depth(value)
    assert parse_json(json.dumps(value), "x.json", ValueError) == value
