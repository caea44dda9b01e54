"""Opening books (games.books): every game's formats, good files and bad ones, the shipped books."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games import GAME_NAMES, game_kind
from games.books import BookError, load_book, read_book
from games.clock import ClockError, TimeControl
from games.othello import KIND as OTHELLO


def book_of(game: str, text: str, tmp_path: Path, name: str = "book.txt"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_book(game_kind(game) if isinstance(game, str) else game, str(path))


def refused_in_one_line(game: str, text: str, tmp_path: Path, needle: str) -> None:
    """The book ``text`` of ``game`` is refused with one line that matches ``needle``."""
    with pytest.raises(BookError, match=needle) as caught:
        book_of(game, text, tmp_path)
    assert "\n" not in str(caught.value)


def test_chess_epd_positions_with_their_ids(tmp_path: Path) -> None:
    book = book_of("chess", "# two positions\n"
                            'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id "e4";\n'
                            "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\n", tmp_path, "b.epd")
    assert [line.label for line in book.lines] == ["e4", ""]
    assert all(line.moves == () for line in book.lines)
    assert book.lines[0].start.startswith("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -")


def test_a_bad_epd_line_is_named(tmp_path: Path) -> None:
    with pytest.raises(BookError, match=r"b\.epd: line 2: not an EPD position"):
        book_of("chess", "8/8/8/8/8/8/8/K6k w - -\nrnbqkbnr/pppppppp/8/8 w KQkq -\n", tmp_path, "b.epd")


def test_an_illegal_epd_position_is_refused(tmp_path: Path) -> None:
    with pytest.raises(BookError, match="line 1"):  # two white kings: python-chess reads it, the game refuses it
        book_of("chess", "8/8/8/8/8/8/8/KK5k w - -\n", tmp_path, "b.epd")


def test_chess_pgn_games_are_lines(tmp_path: Path) -> None:
    pgn = ('[Event "a"]\n\n1. e4 c5 2. Nf3 *\n\n[Event "b"]\n[SetUp "1"]\n'
           '[FEN "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"]\n\n1... d5 *\n')
    book = book_of("chess", pgn, tmp_path, "b.pgn")
    assert [line.moves for line in book.lines] == [("e4", "c5", "Nf3"), ("d5",)]
    assert book.lines[1].start is not None and book.lines[0].start is None


def test_an_illegal_move_in_a_pgn_book_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(BookError) as caught:
        book_of("chess", '[Event "a"]\n\n1. e4 e5 2. Ke3 *\n', tmp_path, "b.pgn")
    assert "\n" not in str(caught.value) and "b.pgn" in str(caught.value)


def test_chess_lines_of_moves_with_numbers_and_comments(tmp_path: Path) -> None:
    book = book_of("chess", "1. e4 e5 2. Nf3   # king's pawn\n\n1.d4 d5\n", tmp_path)
    assert [line.moves for line in book.lines] == [("e4", "e5", "Nf3"), ("d4", "d5")]
    assert [line.row for line in book.lines] == [1, 3]


def test_checkers_pdn_and_move_lines(tmp_path: Path) -> None:
    pdn = '[Event "x"]\n[GameType "21"]\n\n1. 11-15 23-19 2. 8-11 *\n'
    assert book_of("checkers", pdn, tmp_path, "b.pdn").lines[0].moves == ("11-15", "23-19", "8-11")
    assert book_of("checkers", "11-15 23-19 8-11\n9-13 22-18\n", tmp_path).lines[1].moves == ("9-13", "22-18")
    refused_in_one_line("checkers", '[Event "x"]\n\n*\n', tmp_path,
                        r"book.txt: game 1 holds no checkers move \(read as PDN\)")


def test_quixo_lines_with_commas_or_words(tmp_path: Path) -> None:
    book = book_of("quixo", "2 0 bottom, 4 4 left\n2 0 bottom 4 4 left 0 0 r\n", tmp_path)
    assert book.lines[0].moves == ("2 0 bottom", "4 4 left")
    assert book.lines[1].moves == ("2 0 bottom", "4 4 left", "0 0 right")


def test_quixo_record_file_is_a_book(tmp_path: Path) -> None:
    text = "# tui-games Quixo\n1. 2 0 bottom  4 4 left\n# tui-games Quixo\n1. 0 0 r\n"
    assert [line.moves for line in book_of("quixo", text, tmp_path).lines] == [
        ("2 0 bottom", "4 4 left"), ("0 0 right",)]


def test_othello_transcripts_and_move_lines(tmp_path: Path) -> None:
    assert book_of(OTHELLO, "f5d6c3\nf5f6e6\n", tmp_path).lines[0].moves == ("f5", "d6", "c3")
    assert book_of(OTHELLO, "f5 d6 c3 d3  # tiger\n", tmp_path, "o.txt").lines[0].moves == ("f5", "d6", "c3", "d3")


@pytest.mark.parametrize("game", GAME_NAMES)
def test_each_games_bad_book_line_is_named_in_one_line(tmp_path: Path, game: str) -> None:
    """The book of the game's samples (``bad_book``) is refused in one line naming the bad move."""
    if game_kind(game).samples.bad_book is None:
        pytest.skip(f"{game}'s samples give no bad book")
    text, words = game_kind(game).samples.bad_book
    refused_in_one_line(game, text, tmp_path, re.escape(words))


@pytest.mark.parametrize("game, text, needle", [
    ("chess", "# nothing but a comment\n\n", "no chess opening in it"),
    ("chess", "f3 e5 g4 Qh4#\n", r"line 1: the game is over"),
    # Lines that read as no move at all were each taken as a line from the start position.
    ("chess", "e4 e5\n1.\n", r"book.txt: line 2 holds no chess move \(read as lines of moves\)"),
    ("chess", '[Event "x"]\n\n1. zz yy *\n', r"book.txt: game 1 holds no chess move \(read as PGN\)"),
    ("chess", '[Event "a"]\n\n1. e4 e5 *\n\n[Event "b"]\n\n*\n', r"book.txt: game 2 holds no chess move"),
])
def test_a_bad_line_is_named_in_one_line(tmp_path: Path, game: str, text: str, needle: str) -> None:
    refused_in_one_line(game, text, tmp_path, needle)


@pytest.mark.parametrize("make, needle", [
    (lambda path: None, "no such book file"),
    (lambda path: path.mkdir(), "is a directory"),
    (lambda path: path.write_bytes(b"e4\x00e5"), "NUL"),
    (lambda path: path.write_bytes(b"\xff\xfe e4"), "not UTF-8"),
])
def test_a_file_that_cannot_be_read_is_one_line(tmp_path: Path, make, needle: str) -> None:
    path = tmp_path / "book.txt"
    make(path)
    with pytest.raises(BookError, match=needle):
        load_book(game_kind("chess"), str(path))


def test_the_ballots_all_174_with_the_17_lost_marked() -> None:
    book = load_book(game_kind("checkers"), "ballots")
    assert len(book.lines) == 174 and book.lost == 17 and len(book.usable()) == 157
    assert len(book.usable(include_lost=True)) == 174
    labels = {line.label: line for line in book.lines}
    assert labels["ballot 001"].moves == ("9-13", "21-17", "5-9") and not labels["ballot 001"].lost
    assert labels["ballot 013"].lost and labels["ballot 174"].moves == ("12-16", "24-20", "10-15")
    assert len({line.moves for line in book.lines}) == 174


def test_the_ballots_licence_and_source_ship_beside_them() -> None:
    folder = Path(game_kind("checkers").game.__module__.replace(".", "/")).parent
    books = Path(__file__).resolve().parent.parent / folder / "books"
    assert "MIT License" in (books / "LICENSE-pydraughts").read_text()
    assert "pydraughts" in (books / "ballots.txt").read_text().split("\n\n")[0]


def test_a_bad_ballot_line_is_named(tmp_path: Path) -> None:
    with pytest.raises(BookError, match=r"line 2: expected a ballot"):
        book_of("checkers", "# tui-games ballots\n001 9-13 21-17 5-9 won\n", tmp_path)


def test_a_books_digest_is_its_lines_not_its_layout(tmp_path: Path) -> None:
    kind = game_kind("chess")
    one = read_book(kind, "e4 e5\nd4 d5\n", "one")
    two = read_book(kind, "# the same\n1. e4 e5   # open\n\n1. d4 d5\n", "two")
    assert one.digest() == two.digest()
    assert read_book(kind, "d4 d5\ne4 e5\n", "three").digest() != one.digest()


def test_time_controls_in_seconds() -> None:
    assert TimeControl.parse_seconds("10+0.1") == TimeControl(10.0, 0.1)
    assert TimeControl.parse_seconds("40/60+0.6") == TimeControl(60.0, 0.6, 40)
    assert TimeControl.parse_seconds("40/60+0.6").seconds_text == "40/60+0.6"
    assert TimeControl.parse_seconds("5").pgn_tag == "5+0"
    for bad in ("0+1", "10+x", "0/10", "-1"):
        with pytest.raises(ClockError):
            TimeControl.parse_seconds(bad)


# ------------------------------------------------------------ making books
def test_a_balanced_book_is_reproducible_on_any_jobs_and_reads_back(tmp_path: Path, capsys) -> None:
    from cli_run import run

    texts = []
    for jobs in ("1", "2"):
        out = tmp_path / f"q{jobs}.txt"
        code, _, err = run(capsys, "book", "quixo", "--balanced", "--lines", "4", "--plies", "4", "--engine",
                           "alphabeta:depth=2", "--band", "20", "--jobs", jobs, "--out", str(out))
        assert code == 0 and "4 lines" in err
        texts.append([line.replace(f"q{jobs}.txt", "q.txt") for line in out.read_text().splitlines()
                      if not line.startswith("# on ")])
    assert texts[0] == texts[1]
    head = [line for line in texts[0] if line.startswith("#")]
    assert "tui-games book quixo --balanced --lines 4 --plies 4 --engine alphabeta:depth=2 --band 20" in head[1]
    book = load_book(game_kind("quixo"), str(tmp_path / "q1.txt"))
    assert len(book.lines) == 4 and all(len(line.moves) == 4 for line in book.lines)
    scores = [int(line.rsplit("#", 1)[1].split(",")[0]) for line in texts[0] if not line.startswith("#")]
    assert all(abs(score) <= 20 for score in scores)


def test_book_making_refuses_bad_requests_in_one_line(tmp_path: Path, capsys) -> None:
    from cli_run import assert_usage_error

    (tmp_path / "there.txt").write_text("x")
    for argv, needle in ((["--out", str(tmp_path / "there.txt")], "never written over"),
                         (["--band", "1", "--out", str(tmp_path / "b.txt")], "--band goes with --balanced"),
                         (["--balanced"], "--balanced goes with --out"),
                         (["--out", str(tmp_path / "no" / "b.txt")], "does not exist"),
                         (["--engine", "nope", "--out", str(tmp_path / "b.txt")], "unknown engine")):
        assert_usage_error(capsys, ["book", "quixo", *argv], needle)


def test_book_lists_what_a_game_ships(capsys) -> None:
    from cli_run import run

    code, out, _ = run(capsys, "book", "checkers")
    assert code == 0 and out.startswith("ballots    174 lines, 17 marked lost")


@pytest.mark.parametrize("kind", [game_kind("chess"), game_kind("quixo"), OTHELLO], ids=lambda kind: kind.name)
def test_the_balanced_suites_hold_300_lines_within_their_band(kind) -> None:
    book = load_book(kind, "balanced")
    assert len(book.lines) == 300 and len({line.moves for line in book.lines}) == 300
    text = next(shipped for shipped in kind.books if shipped.name == "balanced").text()
    scores = [float(row.rsplit("#", 1)[1]) * kind.scores.unit for row in text.splitlines() if not row.startswith("#")]
    assert len(scores) == 300 and max(abs(score) for score in scores) <= kind.scores.balanced
    assert "made by:" in text.splitlines()[1] and "--balanced" in text.splitlines()[1]
