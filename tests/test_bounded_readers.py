"""Bounded readers: every line reader has a length cap and names the line that broke it, and no
file makes quadratic or amplified work (header checks, games of a record file or book, variations).

The caps are real where a file just over them is a few megabytes at most; the others are lowered.
Memory is measured by what a reader holds (the bytes it is handed, tracemalloc's peak), never by time.
"""

from __future__ import annotations

import io
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
import zstandard
from hypothesis import given, settings
from hypothesis import strategies as st

import engines.learning.train as train_module
import games.chess.records as chess_records
import games.records as records_module
from cli_run import assert_usage_error
import engines.course.progress as progress_module
from engines.course.progress import load_progress
from engines.learning.train import DatasetError, read_dataset
from engines.puzzle_import import MAX_ROW, LichessFileError, lichess_lines, read_lichess
from engines.puzzles import PuzzleError, scan_puzzle_file
from engines.tournament import ResultsFileError, read_results
from games import game_class, game_kind
from games.books import MADE_BOOK_MARK, BookError, read_book
from games.files import read_text
from games.lines import MAX_LINE, capped_lines, first_long_line
from games.reading import index_records, load_record_file, read_records
from games.records import MAX_GAMES, MAX_NODES, RecordError
from learning_data import columns
from tui.uci import UciServer


class Endless:
    """A stream of one line that never ends, counting the bytes it hands out."""

    def __init__(self, head: bytes = b"") -> None:
        self.head, self.given = head, 0

    def readline(self, size: int = -1) -> bytes:
        assert size > 0, "an unbounded readline"
        if self.head:
            line, self.head = self.head, b""
            return line
        self.given += size
        return b"a" * size


# ------------------------------------------------------------------ the shared reader
def test_lines_up_to_the_cap_are_read_with_their_newlines() -> None:
    source = io.BytesIO(b"one\r\n" + b"x" * 10 + b"\nlast")
    assert list(capped_lines(source, "f", ValueError, cap=10)) == [b"one\r\n", b"x" * 10 + b"\n", b"last"]


def test_a_line_over_the_cap_is_refused_naming_the_file_line_and_cap() -> None:
    source = io.BytesIO(b"ok\n" + b"x" * 11 + b"\nnever read\n")
    with pytest.raises(ValueError, match=r"^f:2: a line over 10 bytes; refused$"):
        list(capped_lines(source, "f", ValueError, cap=10))


def test_an_endless_line_is_refused_having_read_no_more_than_the_cap() -> None:
    source = Endless()
    with pytest.raises(ValueError, match="f:1: a line over 1,000 bytes"):
        list(capped_lines(source, "f", ValueError, cap=1000))
    assert source.given <= 1000 + 2


def test_a_reader_that_goes_on_is_told_the_long_line_and_gets_the_next() -> None:
    told: list[int] = []
    source = io.BytesIO(b"a\n" + b"x" * 100_000 + b"\nb\n")
    assert list(capped_lines(source, "f", ValueError, cap=10, overlong=told.append)) == [b"a\n", b"b\n"]
    assert told == [2]


def test_the_first_long_line_of_a_text_read_whole_is_found_in_one_pass() -> None:
    assert first_long_line(b"") is None
    assert first_long_line(b"ab\n" * 1000, cap=2) is None
    assert first_long_line(b"ab\n" * 1000 + b"abc", cap=2) == 1001
    assert first_long_line(b"x\n" * 5 + b"y" * 50 + b"\nz\n", cap=10) == 6


def test_every_text_file_read_whole_has_a_line_cap(tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    path.write_bytes(b"fine\n" + b"x" * 101 + b"\n")
    with pytest.raises(ValueError, match=rf"^{path}:2: a line over 100 bytes; refused$"):
        read_text(path, "a text", 10_000, ValueError, max_line=100)
    path.write_bytes(b"fine\n" + b"x" * (MAX_LINE + 1))
    with pytest.raises(PuzzleError, match=rf"{path}:2: a line over {MAX_LINE:,} bytes"):
        read_text(path, "a puzzle file", 4 * MAX_LINE, PuzzleError)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"a", b"bc", b"\r", b"\n", b"\n\n"]), max_size=120).map(b"".join),
       st.integers(min_value=1, max_value=12))
def test_the_readers_agree_with_a_naive_split(data: bytes, cap: int) -> None:
    lines = data.split(b"\n")
    naive = next((number for number, line in enumerate(lines, 1) if len(line) > cap), None)
    assert first_long_line(data, cap) == naive
    told: list[int] = []
    kept = list(capped_lines(io.BytesIO(data), "f", ValueError, cap, told.append))
    expected = [line + b"\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    assert told == [number for number, line in enumerate(lines, 1) if len(line) > cap]
    assert kept == [line for line in expected if len(line.rstrip(b"\n")) <= cap]


# ------------------------------------------------------------------ lichess imports
def _zst(data: bytes) -> bytes:
    return zstandard.ZstdCompressor().compress(data)


@pytest.mark.parametrize("name, data", [
    ("long.csv.zst", _zst(b"PuzzleId,FEN,Moves,Rating\n" + b"a" * (MAX_ROW + 1) + b"\n")),
    ("flat.csv", b"b" * (MAX_ROW + 100)),  # no newline at all
], ids=["zst", "no-newline"])
def test_an_import_with_a_line_over_the_cap_exits_2_and_leaves_no_set(capsys, tmp_path: Path, name: str,
                                                                      data: bytes) -> None:
    source = tmp_path / name
    source.write_bytes(data)
    line = 2 if name.endswith(".zst") else 1
    assert_usage_error(capsys, ["puzzles", "chess", "--import", str(source), "--name", "hostile"],
                       f"{source}:{line}: a line over {MAX_ROW:,} bytes; refused")
    assert not list(tmp_path.parent.rglob("hostile.txt*"))


def test_a_compressed_line_is_decompressed_no_further_than_the_cap() -> None:
    writer = zstandard.ZstdCompressor()
    packed = writer.compress(b"PuzzleId\n" + b"a" * (64 << 20))  # 64 MB in a few kilobytes
    tracemalloc.start()
    try:
        with pytest.raises(LichessFileError, match="x.zst:2: a line over"):
            list(lichess_lines(io.BytesIO(packed), "x.zst", "x.zst"))
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * 1024 * 1024


def test_a_row_of_short_lines_in_quoted_fields_is_capped_as_a_whole() -> None:
    lines = ["PuzzleId,FEN,Moves,Rating\n", '"a\n'] + ['b","c\n'] * MAX_ROW  # each line closes a field, opens one
    with pytest.raises(LichessFileError, match=rf"^in.csv:2: a record over {MAX_ROW:,} characters"):
        list(read_lichess(iter(lines), "chess", where="in.csv"))


def test_a_dataset_row_over_many_lines_is_refused_naming_its_first(tmp_path: Path) -> None:
    data = tmp_path / "d.csv"
    header = ",".join(columns(game_class("quixo")))
    data.write_text(header + '\n"a\n' + 'b","c\n' * (train_module.MAX_LINE_BYTES // 2))
    with pytest.raises(DatasetError, match=rf"d.csv:2: a record over {train_module.MAX_LINE_BYTES:,} characters"):
        read_dataset(data, game_class("quixo"))


def test_a_puzzle_set_read_a_line_at_a_time_has_the_cap(tmp_path: Path) -> None:
    path = tmp_path / "set.txt"
    path.write_bytes(b"# tui-games puzzles: chess\n" + b"x" * (MAX_LINE + 1) + b"\n")
    with pytest.raises(PuzzleError, match=rf"{path}:2: a line over {MAX_LINE:,} bytes"):
        list(scan_puzzle_file(path, "chess"))


# ------------------------------------------------------------------ datasets
def test_a_dataset_line_over_the_cap_exits_2_naming_it(capsys, tmp_path: Path) -> None:
    data = tmp_path / "d.csv"
    header = ",".join(columns(game_class("quixo"))).encode()
    data.write_bytes(header + b"\n" + b"1," * (train_module.MAX_LINE_BYTES // 2 + 1) + b"\n")
    assert_usage_error(capsys, ["train", "quixo", "--data", str(data), "--model", "rf", "--out",
                                str(tmp_path / "m.npz")],
                       f"{data}:2: a line over {train_module.MAX_LINE_BYTES:,} bytes; refused")


def test_a_header_of_100000_columns_is_refused_by_a_linear_check(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(train_module, "MAX_LINE_BYTES", 4 << 20)  # let the header through to its check
    data = tmp_path / "wide.csv"
    data.write_text(",".join(f"column_{index:07d}" for index in range(100_000)) + "\n1\n")
    with pytest.raises(DatasetError, match=r"wide.csv:1: not a quixo dataset: unknown columns column_0000000,.* "
                                           r"and 99995 more"):
        read_dataset(data, game_class("quixo"))
    names = columns(game_class("quixo"))
    data.write_text(",".join(names + names[:3] * 30_000) + "\n")
    with pytest.raises(DatasetError, match="appears twice"):
        read_dataset(data, game_class("quixo"))


# ------------------------------------------------------------------ UCI
def test_uci_answers_a_line_over_the_cap_with_one_info_string_and_goes_on() -> None:
    feed = b"uci\n" + b"a" * (MAX_LINE + 1000) + b"\nisready\nquit\n"
    process = subprocess.run([sys.executable, "-m", "tui.cli", "uci", "--engine", "random"],
                             input=feed, capture_output=True, timeout=120)
    assert process.returncode == 0, process.stderr
    said = [line for line in process.stdout.decode().splitlines() if line.startswith("info string")]
    assert said == [f"info string error: standard input:2: a line over {MAX_LINE:,} bytes; refused"]
    assert process.stdout.endswith(b"readyok\n")


# ------------------------------------------------------------------ games and variations
def _tiny_games(count: int, tagged: bool = True) -> str:
    return ('[Event "x"]\n\n1. e4 e5 *\n\n' if tagged else "1. e4 e5 *\n\n") * count


def test_a_book_of_more_games_than_the_cap_exits_2_before_reading_them(capsys, tmp_path: Path) -> None:
    book = tmp_path / "many.pgn"
    book.write_text(_tiny_games(MAX_GAMES + 1))
    assert_usage_error(capsys, ["match", "chess", "--a", "random", "--b", "random", "--games", "2", "--book",
                                str(book), "--out", str(tmp_path / "r.jsonl")],
                       f"more than {MAX_GAMES:,} games")


def test_a_record_file_of_more_games_than_the_cap_is_refused_listed_or_opened(capsys, tmp_path: Path) -> None:
    path = tmp_path / "many.pgn"
    path.write_text(_tiny_games(MAX_GAMES + 1))
    for read in (lambda: index_records(path, "chess"), lambda: load_record_file(path, "chess", 2)):
        with pytest.raises(RecordError, match=rf"^{path}: more than {MAX_GAMES:,} games; .* refused$"):
            read()
    assert_usage_error(capsys, ["play", "chess", "--load", str(path)], f"more than {MAX_GAMES:,} games")


def test_games_without_the_tag_that_counts_them_are_capped_as_read(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(chess_records, "MAX_GAMES", 10)
    monkeypatch.setattr(records_module, "MAX_GAMES", 10)
    path = tmp_path / "untagged.pgn"
    path.write_text(_tiny_games(11, tagged=False))
    pgn = game_kind("chess").records
    for read in (lambda: pgn.read(path.read_text()), lambda: pgn.summaries(path.read_text()),
                 lambda: pgn.game_at(path.read_text(), 11)):
        with pytest.raises(RecordError, match="more than 10 games"):
            read()
    path.write_text(_tiny_games(10, tagged=False))
    assert len(pgn.read(path.read_text())) == 10


def test_a_book_of_more_lines_than_the_cap_is_refused_before_any_is_replayed() -> None:
    with pytest.raises(BookError, match=rf"^many: more than {MAX_GAMES:,} lines; a book of more is refused"):
        read_book(game_kind("chess"), "e4 e5\n" * (MAX_GAMES + 1), "many")


def test_a_game_of_more_variations_than_the_cap_is_refused_as_it_is_read(capsys, tmp_path: Path) -> None:
    path = tmp_path / "variations.pgn"
    path.write_text('[Event "v"]\n\n1. e4 ' + "(1. d4 d5)\n" * (MAX_NODES // 3 + 1) + "*\n")
    with pytest.raises(RecordError, match=rf"game 1: more than {MAX_NODES:,} moves and variations"):
        load_record_file(path, "chess")
    assert_usage_error(capsys, ["play", "chess", "--load", str(path)], f"more than {MAX_NODES:,} moves")


def test_a_long_game_with_a_variation_at_every_ply_reads_whole() -> None:
    cycle = ["Nf3", "Nf6", "Ng1", "Ng8"]
    words = []
    for ply in range(400):  # a variation copies the board: the copies keep a short stack, not the game's
        number = f"{ply // 2 + 1}{'.' if ply % 2 == 0 else '...'}"
        words.append(f"{number} {cycle[ply % 4]} ({number} {'e4' if ply % 2 == 0 else 'e5'})")
    (loaded,) = game_kind("chess").records.read('[Event "d"]\n\n' + "\n".join(words) + " *\n")
    assert not isinstance(loaded, RecordError)
    assert len(loaded.moves) == 400
    node, alternatives = loaded.tree, 0
    while node.variations:
        alternatives += len(node.variations) - 1
        node = node.variations[0]
    assert alternatives == 400


def test_deeply_nested_variations_are_left_out_of_a_listing_in_one_pass() -> None:
    text = '[Event "n"]\n\n1. e4 ' + "(1. d4 " * 5000 + ")" * 5000 + " e5 2. Nf3 *\n"
    (summary,) = game_kind("chess").records.summaries(text)
    assert summary.moves == 2


# ------------------------------------------------------------------ files of our own, read back
def test_a_results_file_line_over_the_cap_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_bytes(b"{" + b" " * MAX_LINE + b"}\n")
    with pytest.raises(ResultsFileError, match=rf"^{path}:1: a line over {MAX_LINE:,} bytes; refused$"):
        read_results(path)


def test_a_stopped_book_with_a_line_over_the_cap_is_not_resumed(capsys, tmp_path: Path) -> None:
    out = tmp_path / "book.txt"
    out.write_bytes(f"{MADE_BOOK_MARK} quixo\n".encode() + b"x" * (MAX_LINE + 1) + b"\n")
    assert_usage_error(capsys, ["book", "quixo", "--lines", "1", "--plies", "1", "--engine", "random", "--resume",
                                "--out", str(out)], f"{out}:2: a line over {MAX_LINE:,} bytes; refused")


def test_a_course_progress_file_over_its_caps_starts_afresh(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "course.json"
    path.write_bytes(b'{"done": ["' + b"x" * (MAX_LINE + 1) + b'"], "scores": {}}')
    for size, said in ((MAX_LINE, "is refused"), (4 * MAX_LINE, f"{path}:1: a line over {MAX_LINE:,} bytes")):
        monkeypatch.setattr(progress_module, "MAX_BYTES", size)
        progress, problem = load_progress(path)
        assert progress.done == set() and problem is not None
        assert said in problem and "\n" not in problem


@pytest.mark.parametrize("game, line", [("chess", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -"),
                                        ("checkers", "001 9-13 21-17 5-9")], ids=["epd", "ballots"])
def test_a_book_of_its_own_format_is_counted_before_it_is_read(game: str, line: str) -> None:
    text = ("# tui-games ballots\n" if game == "checkers" else "") + f"{line}\n" * (MAX_GAMES + 1)
    with pytest.raises(BookError, match=f"more than {MAX_GAMES:,} lines"):
        read_book(game_kind(game), text, "many")


@pytest.mark.parametrize("game, text", [
    ("checkers", '[Event "x"]\n[GameType "21"]\n\n1. 11-15 ' + "(1. 9-13 22-18)\n" * (MAX_NODES // 3 + 1) + "*\n"),
    ("quixo", "# tui-games Quixo\n" + "1. 0 0 top (1. 0 4 top)\n" * (MAX_NODES // 2 + 1)),
], ids=["pdn", "move-list"])
def test_every_record_format_caps_the_moves_and_variations_of_a_game(game: str, text: str) -> None:
    with pytest.raises(RecordError, match=f"game 1: more than {MAX_NODES:,} moves and variations"):
        read_records(game, text)


def test_uci_refuses_a_position_of_more_moves_than_a_game_has_and_goes_on() -> None:
    out = io.StringIO()
    server = UciServer("random", out)
    server.run(["position startpos moves " + "g1f3 g8f6 f3g1 f6g8 " * (MAX_NODES // 4 + 1), "go depth 1",
                "position startpos moves e2e4", "go depth 1", "isready", "quit"])
    lines = out.getvalue().splitlines()
    assert f"info string error: {MAX_NODES + 4:,} moves; a position of more than {MAX_NODES:,} is refused" in lines
    answers = [line.split()[1] for line in lines if line.startswith("bestmove")]
    assert answers[-1] != "0000" and "readyok" in lines  # the next position is searched


def test_othello_transcripts_a_game_a_line_are_counted_before_they_are_played() -> None:
    with pytest.raises(RecordError, match=f"more than {MAX_GAMES:,} games"):
        read_records("othello", "f5d6c3d3c4\n" * (MAX_GAMES + 1))
