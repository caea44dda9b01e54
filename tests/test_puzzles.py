"""Puzzles: found by search and checked, read from files (good and bad), solved in the app."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from textual.widgets import Input, Static

from engines.puzzles import (
    depth_of,
    Puzzle,
    PuzzleError,
    confirm,
    judge,
    load_puzzle_file,
    puzzle_text,
    rating_from_gap,
    read_puzzles,
    same_move,
    shipped_puzzles,
)
from games import GAME_NAMES, game_kind, new_game
from tui.app.app import TuiGamesApp
from tui.app.screens.puzzles import PuzzleRecord, PuzzleScreen, load_record

from app_pilot import wait_for
from cli_run import assert_usage_error

MATE = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"  # Qxf7#; the rest is level


def mate_in_one(position: str = MATE, rating: int = 1500, id: str = "t-1") -> Puzzle:
    """A one-move puzzle: Qxf7# in ``position``."""
    return Puzzle(id, position, None, ("Qxf7#",), rating)


def test_a_position_where_one_move_wins_is_a_puzzle_and_a_level_one_is_not():
    puzzle = judge(new_game("chess", MATE), 2)
    assert puzzle is not None and puzzle.move == "Qxf7#" and puzzle.rating < 1900
    assert confirm(puzzle, "chess", 2)
    assert judge(new_game("chess"), 2) is None


def test_puzzle_files_round_trip_and_bad_ones_are_one_line(tmp_path: Path):
    puzzles = [mate_in_one()]
    text = puzzle_text(puzzles, "chess", "made by hand\nfor a test")
    assert read_puzzles(text, "chess") == puzzles and "# made by hand" in text
    for bad, message in [("hello\n", "not a puzzle file"),
                         ("# tui-games puzzles: quixo\n", "puzzles of 'quixo', not chess"),
                         (f"# tui-games puzzles: chess\n{MATE}\tQxf7#\n", "line 2"),
                         (f"# tui-games puzzles: chess\n{MATE}\tRa9\t0.5\n", "line 2"),
                         ("# tui-games puzzles: chess\nnot a fen\tQxf7#\t0.5\n", "line 2")]:
        with pytest.raises(PuzzleError, match=message) as caught:
            read_puzzles(bad, "chess")
        assert "\n" not in str(caught.value)
    binary = tmp_path / "p.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(PuzzleError, match="not a text file"):
        load_puzzle_file(binary, "chess")


def test_a_line_with_a_setting_up_move_round_trips_and_old_one_move_files_still_read():
    line = Puzzle("l-1", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1", "g8f8", ("d1d8",), 1234, ("mateIn1", "backRank"))
    assert line.game("chess").to_text().startswith("5k2/") and line.plies == 1
    assert read_puzzles(puzzle_text([line], "chess", ""), "chess") == [line]
    old = f"# tui-games puzzles: chess\n# made long ago\n{MATE}\tQxf7#\t0.900\n"
    assert read_puzzles(old, "chess") == [Puzzle("chess-0003", MATE, None, ("Qxf7#",), rating_from_gap(0.9))]
    for bad, message in [(f"a\t{MATE}\t-\tQxf7# Ke7\t1500\t", "2 plies"),
                         (f"a\t{MATE}\tQxf7#\tKe7\t1500\t", "move 1"),
                         (f"a\t{MATE}\t-\tQxf7#\thigh\t", "rating 'high'"),
                         (f"a\t{MATE}\t-\tQxf7#\t1500\t\na\t{MATE}\t-\tQxf7#\t1500\t", "line 3: the id 'a' is used twice")]:
        with pytest.raises(PuzzleError, match=message):
            read_puzzles(f"# tui-games puzzles: chess\n{bad}\n", "chess")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_games_lines_round_trip_whatever_its_move_text(name: str):
    """A move's own spaces (Quixo's ``0 0 bottom``) do not split it in a set file."""
    game = new_game(name)
    setup = game.legal_move_texts()[0]
    game.play_text(setup)
    puzzle = Puzzle("p-1", new_game(name).to_text(), setup, (game.legal_move_texts()[-1],))
    assert read_puzzles(puzzle_text([puzzle], name, ""), name) == [puzzle]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_each_shipped_set_reads_and_its_first_puzzles_still_stand(game: str):
    """The set holds at least the game's samples' ``shipped_puzzles`` (docs/learning.md says how each set was made)."""
    puzzles = shipped_puzzles(game)
    assert len(puzzles) >= game_kind(game).samples.shipped_puzzles, f"{game} ships {len(puzzles)} puzzles"
    for puzzle in puzzles[:2]:
        again = judge(puzzle.game(game), depth_of(game))
        assert again is not None and same_move(puzzle.game(game), again.move, puzzle.move)


def test_the_command_refuses_bad_input_in_one_line(tmp_path: Path, capsys):
    assert_usage_error(capsys, ["puzzles", "chess", "--make", "3"], "--make needs --out")
    assert_usage_error(capsys, ["puzzles", "quixo", "--make", "3", "--out", "x.txt", "--stockfish"], "games Stockfish plays")
    bad = tmp_path / "bad.txt"
    bad.write_text("nothing\n")
    assert_usage_error(capsys, ["puzzles", "chess", "--file", str(bad)], "not a puzzle file")
    assert_usage_error(capsys, ["puzzles", "chess", "--from", str(tmp_path / "none.pgn")], "none.pgn")
    assert_usage_error(capsys, ["puzzles", "chess", "--from", str(bad), "--file", str(bad)], "exclude each other")
    (tmp_path / "there.txt").write_text("")
    assert_usage_error(capsys, ["puzzles", "chess", "--make", "1", "--out", str(tmp_path / "there.txt")],
                       "never written over")


def test_a_run_stopped_by_ctrl_c_writes_the_puzzles_found_and_how_to_make_them_again(tmp_path: Path, capsys,
                                                                                      monkeypatch):
    import tui.cli.puzzles as command
    from cli_run import run

    def found_one_then_ctrl_c(*args, progress, found, **kwargs):
        found.append(mate_in_one())
        progress(1, 57)
        raise KeyboardInterrupt

    monkeypatch.setattr(command, "make_lines", found_one_then_ctrl_c)
    out = tmp_path / "kept.txt"
    code, stdout, _ = run(capsys, "puzzles", "chess", "--make", "30", "--seed", "4", "--out", str(out))
    assert code == 130 and "wrote" in stdout  # stopped by Ctrl-C: what was found is kept, and the status says it
    text = out.read_text()
    assert read_puzzles(text, "chess") == [replace(mate_in_one(), themes=("oneMove", "mateIn1"))]  # tagged
    assert "--make 1 --seed 4" in text and "57 candidate positions" in text and "stopped: the same as --make 1" in text

    def nothing_then_ctrl_c(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(command, "make_lines", nothing_then_ctrl_c)
    code, _, stderr = run(capsys, "puzzles", "chess", "--make", "3", "--out", str(tmp_path / "none.txt"))
    assert code == 130 and "nothing written" in stderr and not (tmp_path / "none.txt").exists()


async def test_solving_by_typing_and_by_clicks_keeps_a_streak_and_a_rating() -> None:
    puzzles = [mate_in_one(MATE.replace(" 4 4", f" {clock} 4"), id=f"t-{clock}") for clock in (4, 5, 6)]  # three, alike
    app = TuiGamesApp(puzzles=("chess", puzzles, "a test set", 1))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PuzzleScreen), "the puzzles")
        screen = app.screen
        await pilot.pause()
        box = screen.query_one("#puzzle-input", Input)
        message = screen.query_one("#puzzle-message", Static)
        box.value = "Qh6"
        await pilot.press("enter")
        await wait_for(pilot, lambda: "refutes it" in str(message.render()), "the refutation")  # the queen taken
        assert "xh6 refutes it" in str(message.render()) and "Q" not in screen.position.to_text().split()[0]  # on the board
        assert screen.record.streak == 0 and screen.record.tried == 1
        assert "White to play" in str(screen.query_one("#puzzle-task", Static).render())
        await pilot.press("enter")  # retry
        box.value = "Qxf7#"
        await pilot.press("enter")
        assert screen.done and screen.record.tried == 1  # solved after a wrong move: rated once, as failed
        assert "Qxf7# — right — counted as not solved (a move missed)" in str(message.render())
        await pilot.press("enter")  # next
        box.value = "Qxf7#"
        await pilot.press("enter")
        assert screen.record.streak == 1 and screen.record.solved == 1
        assert box.value == "" and "next" in box.placeholder  # the answer does not linger in the box
        await pilot.press("ctrl+n")
        board = screen.query_one("#puzzle-board")
        await pilot.click(board, offset=board.square_offset((7, 3)))  # h5, then f7
        await pilot.click(board, offset=board.square_offset((5, 1)))
        assert screen.record.streak == 2
        await pilot.press("ctrl+n", "ctrl+f")  # a hint: first what it costs (nothing, for one seen before)
        assert screen.hinted == screen.seen_before
        if not screen.seen_before:
            assert "counts this puzzle as not solved" in str(message.render())
            await pilot.press("ctrl+f")  # then the hint: solving now does not count
        assert screen.hinted and board.selected == (7, 3) and (5, 1) in board.targets  # h5 picked up, f7 shown
        assert "White to play" in str(screen.query_one("#puzzle-task", Static).render())  # the task stays
        await pilot.click(board, offset=board.square_offset((5, 1)))  # one click on the target plays it
        assert screen.done
    kept = load_record("chess")
    assert kept.best_streak == 2 and kept.solved == 2 and kept.tried == 3
    assert list(kept.reviews.values()) == [(1 + 3, 3)]  # the missed one comes back three puzzles later


def test_puzzles_from_the_blunders_of_saved_games(tmp_path: Path):
    from engines.puzzles import puzzles_from_blunders

    record = ('[Event "x"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Nc3 { [%eval -0.5] blunder (loses 60%); '
              'best Qxf7# } Nxh5 *\n\n[Event "y"]\n\n1. e4 e5 *\n\n[Event "bad"]\n\n1. e4 e4 *\n')
    puzzles = puzzles_from_blunders("chess", record)
    assert [puzzle.move for puzzle in puzzles] == ["Qxf7#"]
    assert puzzles[0].position.startswith("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w")


@pytest.mark.parametrize("text", [
    "[quixo]\nrating = 1600\nstreak = inf\n", "[quixo]\nrating = -1e9\n", "[quixo]\nrating = nan\n",
    "[quixo]\nrating = 1600\nnote = true\n[chess]\nrating = 1700.0\nsolved = 3\ntried = 4\n",
])
def test_a_damaged_record_file_is_set_aside_and_nothing_sound_is_lost(text: str):
    from tui.app.screens.puzzles import _path, load_records, save_record

    path = _path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    assert load_record("quixo") == PuzzleRecord() or "note" in text
    record = load_record("quixo")
    record.scored("t-1", 1700, ("mateIn1",), True)  # no overflow, whatever was read
    save_record("quixo", record)
    records, sound = load_records()
    assert sound and records["quixo"].solved == 1
    if "note" not in text:  # a damaged file is set aside whole (an unknown key alone is just not kept)
        assert path.with_name("puzzles.toml.bad").read_text() == text
    if "[chess]" in text:
        assert records["chess"].solved == 3  # the sound game's record is kept
    assert records["quixo"].themes["mateIn1"].deviation < 350  # the themes are kept too


async def test_escape_leaves_puzzles_opened_by_the_command_line_and_a_puzzle_is_rated_once(capsys) -> None:
    app = TuiGamesApp(puzzles=("chess", [mate_in_one()], "one puzzle", 1))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PuzzleScreen), "the puzzles")
        screen = app.screen
        box = screen.query_one("#puzzle-input", Input)
        await wait_for(pilot, lambda: screen.focused is box, "the move box")
        for _ in range(3):  # one puzzle: it comes round again, and is rated once
            box.value = "Qxf7#"
            await pilot.press("enter")
            await pilot.press("enter")
        assert screen.record.solved == 1 and screen.record.tried == 1
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.is_running, "the app to quit")
    assert "this session: 1 of 1 solved" in capsys.readouterr().err  # the summary, printed on leaving


def test_make_refuses_from_and_file_it_would_not_read(capsys, tmp_path: Path) -> None:
    from cli_run import assert_usage_error

    for flag in ("--from", "--file"):
        assert_usage_error(capsys, ["puzzles", "chess", "--make", "1", "--out", str(tmp_path / "p.txt"), flag,
                                    "/dev/zero"], "--from and --file go without it")


#: A mate in 2 set up by Black's Rc8: 1. Rd8+ Rxd8 2. Rxd8# (2. Qxd8# mates too).
BACK_RANK = Puzzle("b-1", "6k1/5ppp/8/Q7/8/8/2rR1PPP/3R2K1 b - - 0 1", "c2c8", ("d2d8", "c8d8", "d1d8"), 1600,
                   ("mateIn2", "backRank"))


async def test_a_line_shows_its_setting_up_move_plays_the_reply_and_takes_any_mate_last() -> None:
    from tui.app.screens import puzzles as screen_module

    app = TuiGamesApp(puzzles=("chess", [BACK_RANK], "a line", 1))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PuzzleScreen), "the puzzles")
        screen = app.screen
        task = str(screen.query_one("#puzzle-task", Static).render())
        assert "Black played Rc8" in task and "White to play" in task and "2 moves of yours" in task
        assert screen.board.selected == (2, 6) and screen.board.targets == {(2, 0)}  # c2 -> c8 marked
        box = screen.query_one("#puzzle-input", Input)
        box.value = "Rd8+"
        await pilot.press("enter")
        assert screen.step >= 1  # played; the reply follows on a timer (a loaded machine may have played it already)
        await wait_for(pilot, lambda: screen.step == 2 and not screen.busy, "the reply played by itself")
        assert "they answer Rxd8" in str(screen.query_one("#puzzle-message", Static).render())
        box.value = "Qxd8#"  # not the solution's Rxd8#, but a mate as well
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.done, "the last move judged")
        assert screen.record.solved == 1 and screen.record.themes["backRank"].rating > 1500
    assert screen_module.REPLY_PAUSE > 0


async def test_the_solution_is_shown_a_move_at_a_time_after_a_wrong_move() -> None:
    app = TuiGamesApp(puzzles=("chess", [BACK_RANK], "a line", 1))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PuzzleScreen), "the puzzles")
        screen = app.screen
        screen.query_one("#puzzle-input", Input).value = "h3"
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.retry_from is not None and not screen.busy, "the refutation")
        for step in (1, 2, 3):
            await pilot.press("ctrl+w")
            assert screen.step == step
        assert screen.done and screen.record.tried == 1 and screen.record.solved == 0
        assert screen.position.outcome() is not None  # the line played to its mate
