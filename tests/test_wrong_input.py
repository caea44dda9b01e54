"""Input of the wrong kind, refused in one line rather than taken for something else: another
game's record as a chess book or game, a position the rules cannot reach."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_run import assert_usage_error, run

from games import GameError, game_kind, new_game
from games.books import BookError, load_book
from games.othello import Othello

DATA = Path(__file__).parent / "data"
#: An empty Othello board: no game reaches it (the centre's four discs are never taken off).
EMPTY = "/".join(["........"] * 8) + " B"


def test_a_checkers_pdn_is_no_chess_book_nor_chess_game(tmp_path: Path, capsys, monkeypatch) -> None:
    pdn = DATA / "elsewhere.pdn"
    with pytest.raises(BookError, match=r"elsewhere.pdn: game 1: a record of another game \(GameType '21'"):
        load_book(game_kind("chess"), str(pdn))
    from tui.cli import play

    def opened(*args, **kwargs) -> int:
        raise AssertionError("the app opened")

    monkeypatch.setattr(play, "run_app", opened)
    assert_usage_error(capsys, ["play", "chess", "--load", str(pdn)], f"{pdn}: game 1: a record of another game")
    two = tmp_path / "two.pdn"  # a file of several games goes to the app's list of them: refused before too
    two.write_text(pdn.read_text() + "\n" + pdn.read_text())
    assert_usage_error(capsys, ["play", "chess", "--load", str(two)], f"{two}: game 1: a record of another game")
    assert_usage_error(capsys, ["match", "chess", "--a", "random", "--b", "random", "--games", "2", "--book",
                                str(pdn), "--out", str(tmp_path / "r.jsonl")], "a record of another game")


@pytest.mark.parametrize("text, empty", [
    (EMPTY, "d4, d5, e4, e5"),
    ("......../......../......../...W..../...BW.../......../......../........ B", "e4"),
    ("BW....../......../......../......../......../......../......../........ W", "d4, d5, e4, e5"),
])
def test_an_othello_board_no_game_reaches_is_refused(text: str, empty: str, capsys) -> None:
    with pytest.raises(GameError, match=f"not an Othello position: {empty} empty"):
        new_game("othello", text)
    assert_usage_error(capsys, ["show", "othello", "--position", text], "not an Othello position")
    from tui.app.session import GameSetup, SetupError

    with pytest.raises(SetupError, match="not an Othello position"):
        GameSetup.checked("othello", "human", "human", text)
    assert Othello.from_text(text).to_text() == text  # made-up boards still read, for tests and analysis


def test_a_reachable_othello_board_is_taken() -> None:
    text = "......../......../...B..../...BB.../...BW.../......../......../........ W"
    assert new_game("othello", text).to_text() == text


# ------------------------------------------------- somebody's own file as a run's output
MINE = '[Event "my club"]\n[White "me"]\n[Black "you"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n'
MATCH = ["match", "chess", "--a", "random", "--b", "random", "--games", "2"]


@pytest.mark.parametrize("resume", [[], ["--resume"]])
def test_a_users_own_pgn_as_the_records_is_refused_without_resume_advice(tmp_path: Path, capsys,
                                                                         resume: list[str]) -> None:
    mine = tmp_path / "mine.pgn"
    mine.write_text(MINE)
    # Following "add --resume" appended the match after the user's games.
    assert_usage_error(capsys, [*MATCH, "--out", str(tmp_path / "r.jsonl"), "--records", str(mine), *resume],
                       "it is never written to; choose another --out")
    assert mine.read_text() == MINE and not (tmp_path / "r.jsonl").exists()
    data = tmp_path / "mine.jsonl"
    data.write_text('{"my": "data"}\n')
    argv = [*MATCH, "--out", str(data), *resume]
    assert_usage_error(capsys, argv, "not a game record" if resume else "is not a results file of a run")
    assert data.read_text() == '{"my": "data"}\n'


def test_a_runs_own_files_still_get_the_resume_advice(tmp_path: Path, capsys) -> None:
    out = tmp_path / "r.jsonl"
    code, _, err = run(capsys, *MATCH, "--out", str(out))
    assert code == 0, err
    assert_usage_error(capsys, [*MATCH, "--out", str(out)], "r.jsonl: already holds results; add --resume")
    out.unlink()  # the records beside it are the run's: resuming is the way on
    assert_usage_error(capsys, [*MATCH, "--out", str(out)], "r.pgn: already holds games; add --resume")


def test_a_dataset_to_a_device_is_refused_before_any_work_and_leaves_no_sidecar(tmp_path: Path, capsys) -> None:
    # It played the games, said "Invalid argument" and left the sidecar beside the device.
    out = tmp_path / "d.csv"
    out.symlink_to("/dev/null")
    assert_usage_error(capsys, ["dataset", "quixo", "--games", "2", "--depth", "1", "--out", str(out)],
                       f"{out}: not a regular file; a dataset goes to a file of its own; choose another --out")
    assert not (tmp_path / "d.csv.meta.json").exists()
