"""One writer per results file, records that never keep half a game, game
lists that cost nothing before they are played (engines.tournament)."""

from __future__ import annotations

import errno
import itertools
import os
from pathlib import Path

import pytest

from engines.tournament import MatchConfig, MatchError
from engines.tournament.gamefiles import GameRecordsFile, game_record
from engines.tournament.config import MAX_GAMES
from engines.tournament.match import parallel_games
from engines.tournament.run import Run
from games.reading import read_records

from cli_run import assert_usage_error, run

MATCH = ["match", "quixo", "--a", "random", "--b", "random", "--openings", "0"]


def test_a_second_run_on_a_results_file_in_use_is_refused(tmp_path: Path, capsys) -> None:
    # Two runs appending to one file wrote every game twice; then report and --resume refused it.
    out = tmp_path / "r.jsonl"
    config = MatchConfig.create("quixo", "random", "random", 2)
    first, _ = Run.open([config], out, resume=False, event="tui-games match")
    try:
        for argv in ([*MATCH, "--games", "2", "--out", str(out)],
                     [*MATCH, "--games", "2", "--out", str(out), "--resume"]):
            assert_usage_error(capsys, argv, f"{out}: another run is writing it")
        # the records file beside it is claimed by the first run too
        other = tmp_path / "other.jsonl"
        assert_usage_error(capsys, [*MATCH, "--games", "2", "--out", str(other), "--records",
                                    str(tmp_path / "r.txt")], "another run is writing it")
        assert not other.exists()  # refused before anything was written: nothing left behind
    finally:
        first.close()
    code, _, _ = run(capsys, *MATCH, "--games", "2", "--out", str(out), "--resume")
    assert code == 0
    assert len(out.read_text().splitlines()) == 2


def test_results_and_records_in_one_file_are_refused(tmp_path: Path, capsys) -> None:
    # --out r.pgn put the game records beside it in r.pgn itself: JSON lines and PGN interleaved.
    assert_usage_error(capsys, ["match", "chess", "--a", "random", "--b", "random", "--games", "1", "--out",
                                str(tmp_path / "r.pgn")], "would hold both the results and the game records")
    out = tmp_path / "r.jsonl"
    assert_usage_error(capsys, [*MATCH, "--games", "1", "--out", str(out), "--records", str(out)],
                       "would hold both")
    (tmp_path / "sub").mkdir()
    assert_usage_error(capsys, [*MATCH, "--games", "1", "--out", str(out), "--records",
                                str(tmp_path / "sub" / ".." / "r.jsonl")], "would hold both")
    out.write_text("")
    (tmp_path / "link.txt").symlink_to(out)
    assert_usage_error(capsys, [*MATCH, "--games", "1", "--out", str(out), "--records",
                                str(tmp_path / "link.txt")], "would hold both")
    assert out.read_text() == ""


def test_a_full_disk_names_the_file_and_resume_goes_on(tmp_path: Path, capsys, monkeypatch) -> None:
    # "tui-games: error: No space left on device": which file, and what now?
    out = tmp_path / "r.jsonl"
    real_fsync, synced = os.fsync, []

    def fills_up(fd: int) -> None:
        synced.append(fd)
        if len(synced) == 3:  # the second game's result
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fills_up)
    code, _, err = run(capsys, *MATCH, "--games", "3", "--out", str(out))
    error = err.splitlines()[-1]  # after the progress bar
    assert code == 2 and error.startswith("tui-games: error: No space left on device")
    assert "resume the run" in error and str(out) in error, error
    monkeypatch.setattr(os, "fsync", real_fsync)
    code, _, _ = run(capsys, *MATCH, "--games", "3", "--out", str(out), "--resume")
    assert code == 0 and len(out.read_text().splitlines()) == 3
    assert len(read_records("quixo", (tmp_path / "r.txt").read_text())) == 3


def test_resume_cuts_a_half_written_game_from_the_records(tmp_path: Path, capsys) -> None:
    # A full disk (or a kill) while writing a game left half of it; --resume appended after it.
    out = tmp_path / "r.jsonl"
    code, _, _ = run(capsys, *MATCH, "--games", "3", "--out", str(out))
    assert code == 0
    records_file = tmp_path / "r.txt"
    whole = records_file.read_text()
    games = read_records("quixo", whole)
    assert len(games) == 3
    cut = whole[: whole.rindex("# tui-games Quixo") + 90]  # the last game's header and a few moves
    records_file.write_text(cut)
    code, _, _ = run(capsys, *MATCH, "--games", "3", "--out", str(out), "--resume")
    assert code == 0
    assert records_file.read_text() == whole
    assert len(read_records("quixo", records_file.read_text())) == 3
    # A complete file is left as it is.
    code, _, _ = run(capsys, *MATCH, "--games", "3", "--out", str(out), "--resume")
    assert records_file.read_text() == whole


def test_a_whole_game_of_records_is_kept_on_resume(tmp_path: Path) -> None:
    config = MatchConfig.create("quixo", "random", "random", 1, openings=0)
    from engines.tournament.match import play_game

    result = play_game(config, 0)
    text = game_record(result, "tui-games match")
    path = tmp_path / "g.txt"
    path.write_text(text)
    GameRecordsFile.open(path, "tui-games match", game="quixo", resume=True, results=[result]).close()
    assert path.read_text() == text
    path.write_text(text[:-5])
    GameRecordsFile.open(path, "tui-games match", game="quixo", resume=True, results=[result]).close()
    assert path.read_text() == text


def test_absurd_game_counts_are_refused_before_anything(tmp_path: Path, capsys) -> None:
    # --games 100000000 took 3.9 GB listing its games before the first one was played.
    assert_usage_error(capsys, [*MATCH, "--games", "100000000", "--out", str(tmp_path / "r.jsonl")],
                       f"at most {MAX_GAMES:,}")
    assert not (tmp_path / "r.jsonl").exists()
    with pytest.raises(MatchError):
        MatchConfig.create("quixo", "random", "random", MAX_GAMES + 1)


def _square(_: object, index: int) -> int:
    return index * index


@pytest.mark.parametrize("jobs", [1, 2])
def test_games_are_listed_lazily(jobs: int) -> None:
    # An endless list of games: only those handed out are ever made.
    handed = itertools.count()
    games = parallel_games(_square, None, (next(handed) for _ in itertools.count()), jobs=jobs, ordered=True)
    assert list(itertools.islice(games, 5)) == [0, 1, 4, 9, 16]
    games.close()
    assert next(handed) <= 5 + 2 * jobs + 2


def test_a_long_match_lists_its_missing_games_lazily() -> None:
    config = MatchConfig.create("quixo", "random", "random", MAX_GAMES)
    run_ = Run([config], None, None, [])
    assert list(itertools.islice(run_.missing(), 3)) == [(config, 0), (config, 1), (config, 2)]
