"""Fuzzing every input front end: whatever comes in, one clear error or a result, never a crash.

Each front end gets arbitrary text (and text near its own syntax) from
hypothesis: the move and position parsers of the three games, engine specs
(parsed and built), the command line's argument sets, UCI command streams,
model metadata, match results files and dataset files.  Kept to seconds.
"""

from __future__ import annotations

import io
import json
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import SpecError, create_engine, parse_engine_spec
from engines.learning.models import ModelError, read_metadata
from engines.learning.train import DatasetError, read_dataset
from engines.tournament import ResultsFileError, read_results
from games import GAME_NAMES, GameError, game_class, game_kind, new_game
from tui.cli import main
from tui.uci import UciServer

#: The suite's profile sets the number of examples (100; HYPOTHESIS_PROFILE=thorough: 1,000).
FUZZ = settings(deadline=None, suppress_health_check=list(HealthCheck))

def move_alphabet(name: str) -> str:
    """Text near the game's move notation, so the fuzzer reaches past the first syntax check (its samples')."""
    return game_kind(name).samples.move_alphabet or string.printable


def position_alphabet(name: str) -> str:
    """Text near the game's position notation (its samples')."""
    return game_kind(name).samples.position_alphabet or string.printable


def one_line(error: BaseException) -> None:
    text = str(error)
    assert text and "\n" not in text and len(text) < 600, text[:300]


@pytest.mark.parametrize("name", GAME_NAMES)
@FUZZ
@given(data=st.data())
def test_move_parsers(name: str, data: st.DataObject) -> None:
    text = data.draw(st.one_of(st.text(max_size=60), st.text(move_alphabet(name), max_size=30)))
    game = new_game(name)
    try:
        move = game.parse_move(text)
    except GameError as error:
        one_line(error)
    else:
        assert move in game.legal_moves()


@pytest.mark.parametrize("name", GAME_NAMES)
@FUZZ
@given(data=st.data())
def test_position_parsers(name: str, data: st.DataObject) -> None:
    text = data.draw(st.one_of(st.text(max_size=100), st.text(position_alphabet(name), max_size=90)))
    try:
        game = new_game(name, text)
    except GameError as error:
        one_line(error)
    else:
        assert new_game(name, game.to_text()).to_text() == game.to_text()


SPEC_PARTS = st.sampled_from(["pvs", "alphabeta", "minimax", "bl", "h0", "hl", "hr", "pred", "mi-pred",
                              "random", "alphabeta-hard", "stockfish", ":", ",", "=", "depth", "time", "k",
                              "l", "bf", "seed", "tt", "heuristic", "cut", "model", "workers", "nodes", "order",
                              "0", "1", "-1", "1e308", "nan", "inf", "on", "off", "sef", "material", " ", "x"])


@FUZZ
@given(text=st.one_of(st.text(max_size=40), st.lists(SPEC_PARTS, max_size=8).map("".join)),
       name=st.sampled_from(GAME_NAMES))
def test_engine_specs(text: str, name: str) -> None:
    try:
        spec = parse_engine_spec(text)
        engine = create_engine(spec, game_class(name))
    except SpecError as error:
        one_line(error)
    else:
        engine.close()


#: Moves of every game, as written and as typed (each game's samples).
MOVES = [text for name in GAME_NAMES for samples in [game_kind(name).samples]
         for text in [*samples.line[:1], *(example.typed for example in samples.notation[:1])]]

#: Commands that neither open the app nor write files nor run for long.
COMMANDS = st.sampled_from(["perft", "moves", "show", "search", "tree", "engines", "report", "models", "bogus",
                            "--ascii"])
ARGS = st.sampled_from([*GAME_NAMES, "--position", "--engine", "--moves", "--json", "--game",
                        "--check", "1", "0", "-3", "x", *MOVES, "alphabeta:depth=1", "random",
                        "h0:k=0", "pvs:depth=1", "--divide", "2", "", "\x00", "~nosuchuser/x", "/nonexistent",
                        "--budget", "--compare", "minimax:depth=1"])


@FUZZ
@given(command=COMMANDS, rest=st.lists(ARGS, max_size=6))
def test_command_line_argument_sets(command: str, rest: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    argv = [command, *rest]
    if command == "--ascii" and not rest:
        return  # that opens the app
    if command == "search" and "--engine" not in rest:
        argv += ["--engine", "alphabeta:depth=1"]  # not the default one-second pvs
    try:
        code = main(argv)
    except SystemExit as exit:  # --help and the like
        code = exit.code
    out, err = capsys.readouterr()
    if code == 2:
        assert err.count("\n") == 1 and "Traceback" not in err, err
    else:
        assert code in (0, None), (argv, err)


UCI_LINES = st.sampled_from([
    "uci", "isready", "ucinewgame", "position startpos", "position startpos moves e2e4 e7e5",
    "position moves e2e4", "position fen 8/8/8/8/8/8/8/8 w - - 0 1", "position fen", "position",
    "go depth 1", "go nodes 50", "go movetime 10", "go wtime 100 btime 100", "go depth x", "go searchmoves e2e4",
    "go searchmoves z9z9", "stop", "setoption name Engine value alphabeta:depth=1", "setoption name Engine value",
    "setoption name Hash value 16", "setoption name Engine value hr:model=~nosuchuser/x", "debug on", "\xff",
])


@FUZZ
@given(lines=st.lists(st.one_of(UCI_LINES, st.text(max_size=30)), max_size=10))
def test_uci_command_streams(lines: list[str]) -> None:
    out = io.StringIO()
    server = UciServer("alphabeta:depth=1", out)
    assert server.run([*lines, "isready", "quit"]) == 0
    assert "readyok" in out.getvalue()


@FUZZ
@given(content=st.one_of(st.text(max_size=200), st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20).map(json.dumps)))
def test_model_metadata_files(content: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    folder = tmp_path_factory.mktemp("model")
    (folder / "m.joblib").write_bytes(b"not a model")
    (folder / "m.json").write_text(content, encoding="utf-8")
    try:
        read_metadata(folder / "m.joblib")
    except ModelError as error:
        one_line(error)


@FUZZ
@given(content=st.binary(max_size=300))
def test_results_files(content: bytes, tmp_path_factory: pytest.TempPathFactory) -> None:
    path = tmp_path_factory.mktemp("results") / "r.jsonl"
    path.write_bytes(content)
    try:
        read_results(path)
    except ResultsFileError as error:
        one_line(error)


@FUZZ
@given(content=st.binary(max_size=300), name=st.sampled_from(GAME_NAMES))
def test_dataset_files(content: bytes, name: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    path: Path = tmp_path_factory.mktemp("data") / "d.csv"
    path.write_bytes(content)
    try:
        read_dataset(path, game_class(name))
    except DatasetError as error:
        one_line(error)


def test_a_deeply_nested_metadata_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "m.joblib").write_bytes(b"x")
    (tmp_path / "m.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(ModelError) as error:
        read_metadata(tmp_path / "m.joblib")
    one_line(error.value)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_an_over_long_move_or_position_is_refused_at_once(name: str) -> None:
    with pytest.raises(GameError) as error:
        new_game(name).parse_move("1" * 1_000_000)
    one_line(error.value)
    with pytest.raises(GameError) as error:
        new_game(name, "x" * 1_000_000)
    one_line(error.value)
