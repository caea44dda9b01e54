"""Puzzles in the lichess format: imported a row at a time (plain or .zst), bad rows told by line and
skipped, filtered, listed, exported back; sets of the user's opened by name."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from engines.puzzle_import import HEADER_LINE, lichess_row, read_lichess
from engines.puzzles import Puzzle, scan_puzzle_file, shipped_puzzles
from games import GAME_NAMES

from cli_run import assert_usage_error, run

#: A mate in 2 and a mate in 3, each set up by Black's move, then a bad FEN and an illegal move.
ROWS = [
    HEADER_LINE,
    "m2aaa,6k1/5ppp/8/Q7/8/8/2rR1PPP/3R2K1 b - - 0 1,c2c8 d2d8 c8d8 d1d8,1400,80,90,100,mateIn2 backRank,"
    "https://lichess.org/x,",
    "m3bbb,2r3k1/5ppp/8/Q7/8/8/1r1R1PPP/3R2K1 b - - 0 1,b2b8 d2d8 c8d8 d1d8 b8d8 a5d8,1700,80,90,100,"
    "mateIn3 backRank,https://lichess.org/y,",
    "badfn,not a fen,e2e4 e7e5,1500,80,90,100,opening,,",
    "badmv,6k1/5ppp/8/Q7/8/8/2rR1PPP/3R2K1 b - - 0 1,c2c8 e2e4,1500,80,90,100,x,,",
]


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TUI_GAMES_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


def test_a_lichess_file_imports_with_bad_rows_told_by_line_and_lists_filters_and_exports(data: Path, capsys):
    source = data / "two.csv"
    source.write_text("\n".join(ROWS) + "\n")
    code, out, err = run(capsys, "puzzles", "chess", "--import", str(source))
    assert code == 0 and "imported 2 puzzles into the set two" in out and "2 bad rows skipped" in out
    assert "line 4: bad FEN 'not a fen'" in err and "line 5: move 2: illegal move 'e2e4'" in err
    code, out, _ = run(capsys, "puzzles", "chess", "--set", "two", "--list")
    assert out.splitlines() == ["lichess:m2aaa\t1400\tmateIn2 backRank\t3", "lichess:m3bbb\t1700\tmateIn3 backRank\t5"]
    code, out, _ = run(capsys, "puzzles", "chess", "--set", "two", "--list", "--theme", "MATEIN3", "--rating", "1600-1800")
    assert [line.split("\t")[0] for line in out.splitlines()] == ["lichess:m3bbb"]
    mate2 = next(iter(scan_puzzle_file(data / "data/puzzles/chess/two.txt", "chess")))
    assert mate2.setup == "c2c8" and mate2.solution == ("d2d8", "c8d8", "d1d8") and mate2.source == "https://lichess.org/x"
    code, out, _ = run(capsys, "puzzles", "chess", "--set", "two", "--export", str(data / "back.csv"))
    assert code == 0 and (data / "back.csv").read_text().splitlines()[1].startswith(
        "m2aaa,6k1/5ppp/8/Q7/8/8/2rR1PPP/3R2K1 b - - 0 1,c2c8 d2d8 c8d8 d1d8,1400,")
    assert_usage_error(capsys, ["puzzles", "chess", "--import", str(source)], "never written over")
    assert_usage_error(capsys, ["puzzles", "chess", "--set", "two", "--export", str(data / "back.csv")],
                       "never written over")
    assert_usage_error(capsys, ["puzzles", "chess", "--set", "../etc"], "bad set name")
    assert_usage_error(capsys, ["puzzles", "chess", "--set", "none"], "no such file")
    assert_usage_error(capsys, ["puzzles", "chess", "--rating", "1800-1200"], "expected LO-HI")
    assert_usage_error(capsys, ["puzzles", "chess", "--set", "two", "--theme", "fork"], "matching --theme/--rating")


def test_a_zst_file_imports_as_a_stream(data: Path, capsys):
    zstandard = pytest.importorskip("zstandard")
    packed = data / "db.csv.zst"
    packed.write_bytes(zstandard.ZstdCompressor().compress(("\n".join(ROWS) + "\n").encode()))
    code, out, _ = run(capsys, "puzzles", "chess", "--import", str(packed), "--name", "db", "--theme", "mateIn2")
    assert code == 0 and "imported 1 puzzle into the set db" in out


def test_rows_are_read_one_at_a_time() -> None:
    """A file of any size: the rows are read as the puzzles are asked for, never all first."""
    read = []

    def lines():
        for line in itertools.cycle(ROWS[1:3]):
            read.append(line)
            yield line + "\n"

    first = list(itertools.islice(read_lichess(lines(), "chess"), 5))
    assert [p.id for p in first] == ["lichess:m2aaa", "lichess:m3bbb"] * 2 + ["lichess:m2aaa"] and len(read) == 5


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_shipped_set_round_trips_through_the_lichess_format(game: str) -> None:
    """Rows made from the shipped puzzles (as the big import was measured with) read back the same,
    whatever the game's move text."""
    puzzles = shipped_puzzles(game)[:5]
    text = [HEADER_LINE] + [lichess_row(puzzle, game) for puzzle in puzzles]
    again = list(read_lichess(text, game))
    assert [(p.position, p.rating, p.plies) for p in again] == [(p.position, p.rating, p.plies) for p in puzzles]
    assert all(isinstance(p, Puzzle) for p in again)


async def test_an_imported_set_opens_in_the_app(data: Path) -> None:
    from tui.app.app import TuiGamesApp
    from tui.app.screens.puzzles import PuzzleScreen
    from tui.cli.puzzles import _filtered

    from app_pilot import wait_for

    puzzles = list(_filtered(read_lichess(ROWS, "chess"), "mateIn3", None))
    app = TuiGamesApp(puzzles=("chess", puzzles, "two", 1))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PuzzleScreen), "the puzzles")
        assert "Black played Rbb8" in str(app.screen.query_one("#puzzle-task").render())


def test_your_mistakes_become_lines_kept_once_in_your_set(data: Path, capsys) -> None:
    record = data / "mine.pgn"
    record.write_text('[Event "x"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Nc3 { [%eval -0.5] mistake (loses 12%); '
                      'best Qxf7# } Nxh5 *\n')
    code, out, err = run(capsys, "puzzles", "chess", "--from", str(record), "--list")
    assert code == 0 and [line.split("\t")[::2] for line in out.splitlines()] == [["mine-0001", "-"]]
    assert "1 new puzzle kept in the set mine" in err
    code, out, err = run(capsys, "puzzles", "chess", "--from", str(record), "--list")
    assert "new puzzle" not in err  # already there: not added twice
    kept = list(scan_puzzle_file(data / "data/puzzles/chess/mine.txt", "chess"))
    assert [(p.id, p.solution, p.source) for p in kept] == [("mine-0001", ("Qxf7#",), "your game mine.pgn")]


def test_a_line_takes_the_first_plies_of_the_search_line_ending_on_the_players_move() -> None:
    from engines.puzzles import with_line

    puzzle = Puzzle("p", "6k1/5ppp/8/Q7/8/8/2rR1PPP/3R2K1 b - - 0 1", "c2c8", ("d2d8",))
    line = with_line(puzzle, "chess", ["d2d8", "c8d8", "d1d8", "g8h8"])
    assert line.solution == ("d2d8", "c8d8", "d1d8")
    assert with_line(puzzle, "chess", ["a5a6", "h7h6", "d2d8"]) == puzzle  # another first move: kept as it was
    assert with_line(puzzle, "chess", ["d2d8", "c8d8"]).solution == ("d2d8",)


async def test_the_game_reports_mistakes_become_puzzles_in_the_app(data: Path) -> None:
    from engines.review import GameReport, PositionScore
    from tui.app.app import TuiGamesApp
    from tui.app.screens.puzzles import PuzzleScreen
    from tui.app.screens.report import ReportDialog

    from app_pilot import wait_for

    moves = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Nc3", "Nxh5"]  # 4. Nc3?? missed Qxf7#
    scores = [PositionScore(0, 0.5)] * 6 + [PositionScore(0, 1.0), PositionScore(0, 0.9), PositionScore(0, 0.1)]
    report = GameReport.build("chess", 0, moves, scores, 4)
    assert [move.label for move in report.moves][6] == "blunder"
    app = TuiGamesApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.push_screen(ReportDialog(report, ("White", "Black"), 1, 0))
        await wait_for(pilot, lambda: isinstance(app.screen, ReportDialog), "the report")
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, PuzzleScreen), "the puzzles of the mistakes", timeout=30)
        assert [puzzle.move for puzzle in app.screen.puzzles] == ["Qxf7#"]
    kept = list(scan_puzzle_file(data / "data/puzzles/chess/mine.txt", "chess"))
    assert [(p.id, p.source) for p in kept] == [("mine-0001", "your game (its report)")]


def test_an_import_not_on_a_terminal_counts_as_it_goes(data: Path, capsys, monkeypatch) -> None:
    import tui.cli.puzzles as command

    monkeypatch.setattr(command._Progress, "EVERY", 1)
    source = data / "two.csv"
    source.write_text("\n".join(ROWS) + "\n")
    code, _, err = run(capsys, "puzzles", "chess", "--import", str(source), "--name", "counted")
    assert code == 0 and "1 puzzles read\n" in err and "2 puzzles read\n" in err and "[#" not in err


def test_a_fifo_or_a_missing_file_to_import_is_refused_without_waiting(tmp_path, capsys) -> None:
    import os

    fifo = tmp_path / "puzzles.csv"
    os.mkfifo(fifo)  # nobody writes it: opened plainly, the import waited for ever
    assert_usage_error(capsys, ["puzzles", "chess", "--import", str(fifo)], "not a regular file")
    assert_usage_error(capsys, ["puzzles", "chess", "--import", str(tmp_path / "none.csv")], "no such file")
