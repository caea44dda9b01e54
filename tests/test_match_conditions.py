"""Matches under conditions: books (both colours per line, order, plies, records), resumes refused
under other conditions, adjudication in real games, clocks (a loss on time recorded, %clk)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from engines.tournament import MatchConfig, play_game, read_results
from engines.tournament.conditions import conditions_from
from engines.tournament.gamefiles import game_record
from games.reading import read_records
from cli_run import assert_usage_error, run

QUICK = ["--a", "alphabeta:depth=1", "--b", "alphabeta:depth=2"]


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def write_book(tmp_path: Path, text: str, name: str = "book.txt") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_each_book_line_is_played_by_both_engines_with_both_colours(tmp_path: Path, capsys) -> None:
    book = write_book(tmp_path, "11-15 23-19\n9-13 22-17 13x22\n10-14\n")
    out = tmp_path / "r.jsonl"
    code, _, _ = run(capsys, "match", "checkers", *QUICK, "--games", "6", "--book", str(book), "--out", str(out))
    assert code == 0
    games = sorted(lines_of(out), key=lambda line: line["index"])
    assert [tuple(game["opening"]) for game in games] == [
        ("11-15", "23-19"), ("11-15", "23-19"), ("9-13", "22-17", "13x22"), ("9-13", "22-17", "13x22"),
        ("10-14",), ("10-14",)]
    assert [game["book"]["line"] for game in games] == [1, 1, 2, 2, 3, 3]
    for even, odd in zip(games[::2], games[1::2]):
        assert even["colours"] == {"a": odd["colours"]["b"], "b": odd["colours"]["a"]}
    assert all(game["match"]["book"]["order"] == "sequential" for game in games)
    records = read_records("checkers", out.with_suffix(".pdn").read_text())
    assert records[2].comments[2] == "book" and records[2].tags["Book"] == "book.txt line 2"
    assert records[2].moves[:3] == ("9-13", "22-17", "13x22")


def test_a_random_order_and_cut_lines(tmp_path: Path, capsys) -> None:
    book = write_book(tmp_path, "".join(f"{first} {reply} Nc3\n" for first, reply in
                                        (("e4", "e5"), ("d4", "d5"), ("c4", "c5"), ("Nf3", "Nf6"))))
    out = tmp_path / "r.jsonl"
    argv = ["match", "chess", "--a", "alphabeta:depth=1", "--b", "random", "--games", "8", "--book", str(book),
            "--book-order", "random", "--book-plies", "2", "--seed", "3", "--maxmoves", "6", "--out", str(out)]
    assert run(capsys, *argv)[0] == 0
    games = sorted(lines_of(out), key=lambda line: line["index"])
    assert all(len(game["opening"]) == 2 for game in games)
    lines = [game["book"]["line"] for game in games[::2]]
    assert sorted(lines) == [1, 2, 3, 4] and lines != [1, 2, 3, 4]


def test_an_epd_book_starts_games_at_its_positions(tmp_path: Path, capsys) -> None:
    book = write_book(tmp_path, '4k3/8/8/8/8/8/4P3/4K3 b - - id "pawn";\n', "b.epd")
    out = tmp_path / "r.jsonl"
    argv = ["match", "chess", "--a", "alphabeta:depth=1", "--b", "alphabeta:depth=1", "--games", "2", "--book",
            str(book), "--maxmoves", "5", "--out", str(out)]
    assert run(capsys, *argv)[0] == 0
    games = sorted(lines_of(out), key=lambda line: line["index"])
    assert games[0]["opening"] == [] and games[0]["book"] == {"line": 1, "label": "pawn", "from": games[0]["start"]}
    assert games[0]["colours"] == {"a": "White", "b": "Black"}  # A plays White, though Black moves first
    pgn = out.with_suffix(".pgn").read_text()
    assert '[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"]' in pgn and '[Book "b.epd line 1 (pawn)"]' in pgn
    results, _ = read_results(out)
    assert all(entry.depth == 1 for result in results for agent in "ab" for entry in result.log_of(agent))
    assert len(results[0].log_of("b")) == (results[0].plies + 1) // 2  # Black (B) moved first


def test_the_ballots_by_name_leave_the_lost_ones_out_unless_asked(tmp_path: Path, capsys) -> None:
    out = tmp_path / "r.jsonl"
    argv = ["match", "checkers", *QUICK, "--games", "2", "--book", "ballots", "--maxmoves", "5"]
    assert run(capsys, *argv, "--out", str(out))[0] == 0
    assert lines_of(out)[0]["match"]["book"]["lines"] == 157
    assert lines_of(out)[0]["book"]["label"] == "ballot 001"
    assert run(capsys, *argv, "--book-include-lost", "--out", str(tmp_path / "lost.jsonl"))[0] == 0
    assert lines_of(tmp_path / "lost.jsonl")[0]["match"]["book"]["lines"] == 174


def test_a_resume_under_other_conditions_is_refused_in_one_line(tmp_path: Path, capsys) -> None:
    book = write_book(tmp_path, "11-15\n9-13\n")
    other = write_book(tmp_path, "10-14\n", "other.txt")
    out = tmp_path / "r.jsonl"
    base = ["match", "checkers", *QUICK, "--games", "4", "--out", str(out), "--resume"]
    with_book = [*base, "--book", str(book), "--maxmoves", "20", "--tc", "60+1"]
    assert run(capsys, *with_book)[0] == 0
    before = out.read_bytes()
    assert_usage_error(capsys, [*base, "--book", str(other), "--maxmoves", "20", "--tc", "60+1"],
                       f"{out}:1: a game of another match (its book book.txt")
    assert_usage_error(capsys, [*base, "--maxmoves", "20", "--tc", "60+1"], "its book")
    assert_usage_error(capsys, [*base, "--book", str(book), "--maxmoves", "21", "--tc", "60+1"], "its move limit")
    assert_usage_error(capsys, [*base, "--book", str(book), "--maxmoves", "20", "--tc", "60+1",
                                "--resign", "movecount=3,score=3"], "its resign rule")
    assert_usage_error(capsys, [*base, "--book", str(book), "--maxmoves", "20", "--tc", "30+1"],
                       "its time control 60+1")
    assert_usage_error(capsys, [*base, "--book", str(book), "--maxmoves", "20", "--tc", "60+1",
                                "--book-order", "random"], "its book")
    assert out.read_bytes() == before
    # the same lines in another file are the same book: the resume goes on (nothing left to play)
    shutil.copy(book, tmp_path / "copy.txt")
    assert run(capsys, *base, "--book", str(tmp_path / "copy.txt"), "--maxmoves", "20", "--tc", "60+1")[0] == 0


@pytest.mark.parametrize("argv, needle", [
    (["--book", "/no/such/book.epd"], "no such book file"),
    (["--book", "ballots"], "no such book file (the chess books shipped are balanced)"),
    (["--book-order", "random"], "--book-order goes with --book"),
    (["--book-plies", "-1"], "--book-plies"),
    (["--openings", "2", "--book", "x"], "--openings (random plies) and --book"),
    (["--resign", "movecount=2"], "give movecount"),
    (["--draw", "score=1,movecount=0"], "1 or more"),
    (["--maxmoves", "0"], "--maxmoves"),
    (["--tc", "ten"], "bad time control"),
    (["--timemargin", "-5"], "--timemargin"),
    (["--timemargin", "100000000000000"], "the time margin is 0 to 3,600,000 ms (an hour), got 100,000,000,000,000"),
    (["--timemargin", "3600001"], "the time margin is 0 to 3,600,000 ms"),
])
def test_bad_conditions_are_one_line_and_exit_2(capsys, argv: list[str], needle: str) -> None:
    assert_usage_error(capsys, ["match", "chess", "--a", "random", "--b", "random", "--games", "2", *argv], needle)


def test_a_bad_book_file_is_one_line(tmp_path: Path, capsys) -> None:
    book = write_book(tmp_path, "e4 e5\nNf3 Nf6 Qh5 Kf7\n")
    assert_usage_error(capsys, ["match", "chess", "--a", "random", "--b", "random", "--games", "2", "--book",
                                str(book)], "book.txt: line 2: move 3 'Qh5'")
    assert_usage_error(capsys, ["tournament", "chess", "--engine", "random", "--engine", "random:seed=1",
                                "--games", "2", "--book", str(book)], "line 2")


def test_adjudicated_games_say_which_rule_in_results_and_records(tmp_path: Path, capsys) -> None:
    out = tmp_path / "r.jsonl"
    argv = ["match", "chess", "--a", "pvs:nodes=300", "--b", "alphabeta:depth=1", "--games", "4",
            "--resign", "movecount=2,score=2", "--maxmoves", "12", "--out", str(out)]
    assert run(capsys, *argv)[0] == 0
    reasons = {line["reason"] for line in lines_of(out)}
    assert reasons <= {"adjudication: resign", "adjudication: max moves", "checkmate"}
    assert reasons & {"adjudication: resign", "adjudication: max moves"}
    pgn = read_records("chess", out.with_suffix(".pgn").read_text())
    for line, record in zip(sorted(lines_of(out), key=lambda line: line["index"]), pgn):
        if line["reason"].startswith("adjudication"):
            assert record.tags["Termination"].endswith(f"({line['reason']})")
            result = {"a": "1-0" if line["colours"]["a"] == "White" else "0-1",
                      "b": "0-1" if line["colours"]["a"] == "White" else "1-0", "draw": "1/2-1/2"}[line["result"]]
            assert record.tags["Result"] == result
        if line["reason"] == "adjudication: max moves":
            assert len(line["opening"]) + line["plies"] == 24


@pytest.mark.slow
def test_an_engine_past_its_clock_loses_on_time_and_it_is_recorded(tmp_path: Path, capsys) -> None:
    """A spec whose own time (0.6 s) is more than its clock (0.3 s): it loses on its first move."""
    out = tmp_path / "r.jsonl"
    argv = ["match", "quixo", "--a", "pvs:time=0.6", "--b", "alphabeta:depth=1,tc=30+0.5", "--games", "2",
            "--tc", "0.3+0", "--out", str(out)]
    assert run(capsys, *argv)[0] == 0
    games = sorted(lines_of(out), key=lambda line: line["index"])
    assert [game["reason"] for game in games] == ["time", "time"] and {g["result"] for g in games} == {"b"}
    assert games[0]["plies"] == 0 and games[1]["plies"] == 1  # A moved first in game 0, second in game 1
    assert games[1]["clocks"][0] > 30  # B's own clock: 30 s, and the increment
    assert games[0]["match"]["tc"] == "0.3+0" and games[0]["match"]["b"] == "alphabeta:depth=1,tc=30+0.5"
    records = out.with_suffix(".txt").read_text()
    assert records.count("wins (time)") == 2 and "[%clk 0:00:30" in records
    assert "# TimeControl: X 0.3+0, O 30+0.5" in records or "# TimeControl: X 30+0.5, O 0.3+0" in records


def test_a_match_on_clocks_keeps_every_clock_and_clk(tmp_path: Path, capsys) -> None:
    out = tmp_path / "r.jsonl"
    argv = ["match", "checkers", *QUICK, "--games", "2", "--tc", "40/20+0.1", "--timemargin", "200",
            "--maxmoves", "30", "--out", str(out)]
    assert run(capsys, *argv)[0] == 0
    for line in lines_of(out):
        assert len(line["clocks"]) == line["plies"] and line["reason"] != "time"
        assert all(0 < seconds <= 20.1 + 20 for seconds in line["clocks"])
    pdn = out.with_suffix(".pdn").read_text()
    assert len(re.findall(r"\[%clk 0:00:\d\d(\.\d)?\]", pdn)) == sum(line["plies"] for line in lines_of(out))
    assert '[TimeControl "40/20+0.1"]' in pdn


def test_a_game_played_anywhere_under_a_book_is_the_same(tmp_path: Path) -> None:
    """A worker that gets no opening reads the book itself and plays the same game."""
    book = write_book(tmp_path, "2 0 bottom, 4 4 left\n0 0 right\n")
    conditions = conditions_from("quixo", {"book": str(book), "book_order": "random"})
    config = MatchConfig.create("quixo", "alphabeta:depth=1", "random", 4, seed=5, conditions=conditions)
    from engines.tournament.match import opening_for

    for index in range(4):
        given = play_game(config, index, opening_for(config, index))
        alone = play_game(config, index)
        assert (given.opening, given.moves, given.book) == (alone.opening, alone.moves, alone.book)
        assert "book" in game_record(given)


def test_an_experiment_plays_its_book(tmp_path: Path, capsys) -> None:
    (tmp_path / "lines.txt").write_text("2 0 bottom, 4 4 left\n0 0 right\n")
    (tmp_path / "exp.toml").write_text('name = "b"\ngame = "quixo"\ngames = 4\nopponent = "random"\n'
                                       'book = "lines.txt"\nbook_plies = 1\nmaxmoves = 20\n'
                                       '[[arm]]\nengine = "alphabeta:depth=1"\n')
    out = tmp_path / "run"
    assert run(capsys, "experiment", str(tmp_path / "exp.toml"), "--out", str(out))[0] == 0
    games = lines_of(out / "games.jsonl")
    assert {tuple(game["opening"]) for game in games} == {("2 0 bottom",), ("0 0 right",)}
    assert all(game["match"]["maxmoves"] == 20 for game in games)
    # a flag replaces the file's setting, and the folder's copy says so: another run, refused on resume
    code, _, err = run(capsys, "experiment", str(tmp_path / "exp.toml"), "--out", str(out), "--resume",
                       "--maxmoves", "30")
    assert code == 2 and "another experiment" in err


@pytest.mark.parametrize("toml, needle", [
    ('book = "none.txt"\n', "no such book file"),
    ('book = "x"\nopenings = 2\n', "two ways to open"),
    ('book_order = "sorted"\n', "'book_order' must be one of"),
    ('resign = "movecount=1"\n', "give movecount"),
    ('tc = "fast"\n', "bad time control"),
    ('maxmoves = 0\n', "'maxmoves' 1 or more"),
])
def test_bad_conditions_in_an_experiment_file_are_one_line(tmp_path: Path, capsys, toml: str, needle: str) -> None:
    (tmp_path / "exp.toml").write_text(f'name = "b"\ngame = "quixo"\ngames = 2\nopponent = "random"\n{toml}'
                                       '[[arm]]\nengine = "alphabeta:depth=1"\n')
    assert_usage_error(capsys, ["experiment", str(tmp_path / "exp.toml"), "--out", str(tmp_path / "run")], needle)


def test_a_tournament_plays_every_pairing_from_the_book(tmp_path: Path, capsys) -> None:
    book = write_book(tmp_path, "11-15 23-19\n")
    out = tmp_path / "t.jsonl"
    argv = ["tournament", "checkers", "--engine", "alphabeta:depth=1", "--engine", "alphabeta:depth=2",
            "--engine", "random", "--games", "2", "--book", str(book), "--maxmoves", "30", "--out", str(out)]
    assert run(capsys, *argv)[0] == 0
    games = lines_of(out)
    assert len(games) == 6 and all(game["opening"] == ["11-15", "23-19"] for game in games)
