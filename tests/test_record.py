"""Game records: PGN, PDN and Quixo move lists, file names and saving (tui/record.py)."""

from __future__ import annotations

import datetime
import io
import re
from pathlib import Path

import chess
import chess.pgn
import pytest

from playouts import play_randomly
from games import GAME_NAMES, game_kind, new_game
from games.checkers.records import read_checkers_record
from games.quixo.records import read_quixo_record
from games.records import (
    RecordError,
    describe_outcome,
    result_token,
    save_record,
    start_position,
)

DAY = datetime.date(2026, 11, 22)


def record_text(name: str, game, **kwargs) -> str:
    """The record of ``game`` in the format of the game called ``name``."""
    return game_kind(name).records.text(game, **kwargs)


def default_filename(name: str, when) -> str:
    return game_kind(name).records.filename(when)


def record(name: str, game, **kwargs) -> str:
    kwargs.setdefault("first_player", "Ann")
    kwargs.setdefault("second_player", "alphabeta:depth=3")
    kwargs.setdefault("date", DAY)
    return record_text(name, game, **kwargs)


def tags(text: str) -> dict[str, str]:
    return dict(re.findall(r'^\[(\w+) "(.*)"\]$', text, re.MULTILINE))


# ------------------------------------------------------------------ common


@pytest.mark.parametrize("name", GAME_NAMES)
def test_start_position_undoes_every_move_of_a_copy(name):
    game = play_randomly(new_game(name), seed=3, plies=12)
    before = game.to_text()
    start = start_position(game)
    assert start.to_text() == new_game(name).to_text()
    assert len(start.move_stack) == 0
    assert game.to_text() == before and len(game.move_stack) == 12


def test_result_tokens_and_descriptions():
    game = new_game("chess")
    assert result_token(game) == "*" and describe_outcome(game) is None
    game.play_all(["f3", "e5", "g4", "Qh4#"])
    assert result_token(game) == "0-1"
    assert describe_outcome(game) == "Black wins (checkmate)"
    checkers = new_game("checkers", "B:W18:B14")
    checkers.play_text("14x23")
    assert result_token(checkers) == "1-0"  # Black, the first player, won
    assert describe_outcome(checkers) == "Black wins (no pieces)"
    stalemate = new_game("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert result_token(stalemate) == "1/2-1/2"
    assert describe_outcome(stalemate) == "draw (stalemate)"


def test_unknown_or_mismatched_game_is_refused():
    with pytest.raises(ValueError, match="unknown game 'go'"):
        record("go", new_game("chess"))
    with pytest.raises(ValueError, match="checkers game as a chess record"):
        record("chess", new_game("checkers"))


# ------------------------------------------------------------------ chess


def test_chess_pgn_reads_back_to_the_same_game():
    game = play_randomly(new_game("chess"), seed=11, plies=61)
    text = record("chess", game)
    parsed = chess.pgn.read_game(io.StringIO(text))
    assert parsed is not None and not parsed.errors
    assert parsed.end().board().fen() == game.to_text()
    assert list(parsed.mainline_moves()) == list(game.board.move_stack)
    headers = parsed.headers
    assert headers["White"] == "Ann" and headers["Black"] == "alphabeta:depth=3"
    assert headers["Event"] == "tui-games" and headers["Site"] == "tui-games"
    assert headers["Date"] == "2026.11.22"
    assert headers["Result"] == "*" and headers["Termination"] == "unterminated"
    assert "FEN" not in headers and "SetUp" not in headers
    assert text.rstrip().endswith("*")
    assert max(len(line) for line in text.splitlines()) <= 80


def test_chess_finished_game_has_result_and_termination():
    game = new_game("chess")
    game.play_all(["f3", "e5", "g4", "Qh4#"])
    text = record("chess", game, event="Club night")
    headers = tags(text)
    assert headers["Result"] == "0-1"
    assert headers["Termination"] == "Black wins (checkmate)"
    assert headers["Event"] == "Club night"
    assert text.rstrip().endswith("Qh4# 0-1")


def test_chess_draw_by_repetition_is_a_draw_in_the_pgn():
    game = new_game("chess")
    game.play_all(["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"])
    assert game.outcome() is not None
    text = record("chess", game)
    assert tags(text)["Result"] == "1/2-1/2"
    assert tags(text)["Termination"] == "draw (threefold repetition)"
    assert chess.pgn.read_game(io.StringIO(text)).headers["Result"] == "1/2-1/2"


def test_chess_from_a_set_up_position():
    fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"
    game = new_game("chess", fen)
    game.play_all(["Kd7", "e4", "Kc6"])
    text = record("chess", game, result_reason="adjourned")
    headers = tags(text)
    assert headers["FEN"] == fen and headers["SetUp"] == "1"
    assert headers["Termination"] == "adjourned" and headers["Result"] == "*"
    assert "40... Kd7 41. e4 Kc6" in text
    parsed = chess.pgn.read_game(io.StringIO(text))
    assert parsed.end().board().fen() == game.to_text()


def test_player_names_are_escaped():
    text = record("chess", new_game("chess"), first_player='Ann "the rook"')
    assert chess.pgn.read_game(io.StringIO(text)).headers["White"] == 'Ann "the rook"'


# ------------------------------------------------------------------ checkers


def replay_checkers(text: str):
    start, moves = read_checkers_record(text)
    game = new_game("checkers", start)
    game.play_all(moves)
    return game


def test_checkers_pdn_replays_to_the_same_game():
    game = play_randomly(new_game("checkers"), seed=5, plies=70)
    text = record("checkers", game)
    headers = tags(text)
    assert headers["Black"] == "Ann" and headers["White"] == "alphabeta:depth=3"
    assert headers["GameType"] == "21" and headers["Date"] == "2026.11.22"
    assert "FEN" not in headers
    assert text.index("[Black ") < text.index("[White ")
    body = text.split("\n\n", 1)[1]
    assert body.startswith("1. ")
    assert max(len(line) for line in text.splitlines()) <= 80
    replayed = replay_checkers(text)
    assert replayed.to_text() == game.to_text()
    assert list(replayed.move_stack) == list(game.move_stack)
    assert body.split()[-1] == result_token(game) == headers["Result"]


def test_checkers_pdn_writes_every_landing_square_of_a_multi_jump():
    game = new_game("checkers")
    shot = ["9-14", "23-19", "6-9", "22-18", "14x23", "27x18", "11-16", "26-23", "10-14", "24-20", "1-6",
            "20x11", "7x16", "31-26", "8-11", "26-22", "2-7", "30-26", "16-20", "19-16", "12x19", "23x16",
            "14x23x30"]
    game.play_all(shot)
    text = record("checkers", game)
    assert re.search(r"\b12\. 14x23x30 \*$", text.rstrip())
    assert "1. 9-14 23-19 2. 6-9 22-18 3. 14x23 27x18" in text
    assert read_checkers_record(text) == (None, shot)


def test_checkers_from_a_set_up_position_with_white_to_move():
    start = "W:WK10,24:B5,K14"
    game = new_game("checkers", start)
    game.play_all(["10x17", "5-9"])
    text = record("checkers", game)
    headers = tags(text)
    assert headers["FEN"] == start and headers["SetUp"] == "1"
    assert "1... 10x17 2. 5-9 *" in text
    assert replay_checkers(text).to_text() == game.to_text()


def test_checkers_finished_game_result_is_scored_for_black():
    game = new_game("checkers", "B:W18:B14")
    game.play_text("14x23")
    headers = tags(record("checkers", game))
    assert headers["Result"] == "1-0"
    assert headers["Termination"] == "Black wins (no pieces)"
    game = new_game("checkers", "W:W23:B18")
    game.play_text("23x14")
    assert tags(record("checkers", game))["Result"] == "0-1"


def test_read_checkers_record_skips_comments_and_numbers():
    text = '[Event "x"]\n[FEN "B:W21-32:B1-12"]\n\n1. 11-15 {a classic} 23-19 2. 8-11 1/2-1/2\n'
    assert read_checkers_record(text) == ("B:W21-32:B1-12", ["11-15", "23-19", "8-11"])


# ------------------------------------------------------------------ quixo


def replay_quixo(text: str):
    start, moves = read_quixo_record(text)
    game = new_game("quixo", start)
    game.play_all(moves)
    return game


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_quixo_record_round_trips(seed):
    game = play_randomly(new_game("quixo"), seed=seed, plies=41)
    text = record("quixo", game)
    lines = text.splitlines()
    assert lines[0] == "# tui-games Quixo"
    assert "# X: Ann" in lines and "# O: alphabeta:depth=3" in lines and "# Date: 2026-11-22" in lines
    assert not any(line.startswith("# Start:") for line in lines)
    moves = [line for line in lines if not line.startswith("#")]
    assert moves[0].startswith("1. ") and "  " in moves[0]
    assert len(moves) == (len(game.move_stack) + 1) // 2
    replayed = replay_quixo(text)
    assert replayed.to_text() == game.to_text()
    assert list(replayed.move_stack) == list(game.move_stack)


def test_quixo_record_lines_and_result():
    game = new_game("quixo", "XXXX./...../...../...../OOOO. X")
    game.play_all(["4 1 top"])
    text = record("quixo", game)
    assert "# Result: 1-0 X wins (five in a row)" in text.splitlines()
    assert "# Start: XXXX./...../...../...../OOOO. X" in text.splitlines()
    assert text.splitlines()[-1] == "1. 4 1 top"
    assert replay_quixo(text).to_text() == game.to_text()


def test_quixo_record_when_o_moved_first():
    start = "X...O/.X.../..O../...../O...X O"
    game = new_game("quixo", start)
    game.play_all(["0 4 top", "4 4 top", "0 0 right"])
    text = record("quixo", game, result_reason="stopped by the user")
    assert text.splitlines()[-2:] == ["1. ...  0 4 top", "2. 4 4 top  0 0 right"]
    assert "# Result: * stopped by the user" in text
    assert read_quixo_record(text) == (start, ["0 4 top", "4 4 top", "0 0 right"])
    assert replay_quixo(text).to_text() == game.to_text()


def test_read_quixo_record_is_lenient_with_spacing_but_refuses_garbage():
    assert read_quixo_record("1. 0,0 b   4 4 LEFT\n\n") == (None, ["0 0 b", "4 4 LEFT"])
    with pytest.raises(RecordError, match="line 2"):
        read_quixo_record("# ok\n1. 0 0 bottom  banana\n")
    with pytest.raises(RecordError, match="line 1"):
        read_quixo_record("0 0 bottom\n")


# ------------------------------------------------------------------ files


def test_default_filenames():
    when = datetime.datetime(2026, 11, 22, 15, 30, 12)
    assert default_filename("chess", when) == "chess-20261122-153012.pgn"
    assert default_filename("checkers", when) == "checkers-20261122-153012.pdn"
    assert default_filename("Quixo", when) == "quixo-20261122-153012.txt"


def test_save_record_never_overwrites(tmp_path):
    path = tmp_path / "chess-20261122-153012.pgn"
    saved = save_record(path, "first")
    assert saved == path and path.read_text(encoding="utf-8") == "first\n"
    with pytest.raises(FileExistsError, match="already exists"):
        save_record(str(path), "second\n")
    assert path.read_text(encoding="utf-8") == "first\n"


def test_save_record_into_a_missing_directory_says_so(tmp_path):
    missing = tmp_path / "nowhere"
    with pytest.raises(FileNotFoundError, match="directory .*nowhere does not exist"):
        save_record(missing / "game.pgn", "x")
    assert not missing.exists()


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_save_record_where_no_file_can_be_made_says_so_not_that_the_directory_is_missing():
    with pytest.raises(FileNotFoundError, match="no file can be created in /proc$"):
        save_record("/proc/game.pgn", "x")


def test_date_defaults_to_today():
    before = datetime.date.today()
    text = record_text("chess", new_game("chess"), first_player="a", second_player="b")
    after = datetime.date.today()
    assert tags(text)["Date"] in {before.strftime("%Y.%m.%d"), after.strftime("%Y.%m.%d")}


@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_a_loaded_record_keeps_its_player_names_for_a_resave(game_name: str) -> None:
    from games import new_game
    from games.reading import read_records
    from tui.app.session import GameSetup

    game = new_game(game_name)
    game.play(game.legal_moves()[0])
    text = record_text(game_name, game, first_player="pvs:time=1,seed=7", second_player="Ada")
    loaded = read_records(game_name, text)[0]
    assert loaded.player_names == ("pvs:time=1,seed=7", "Ada")
    setup = GameSetup.checked(game_name, "human", "pvs:time=1").with_record(loaded, "x")
    assert setup.record_name(0) == "pvs:time=1,seed=7"  # the human seat replays the record's player
    assert setup.record_name(1) == "pvs:time=1"  # an engine seat is that engine
    assert setup.swapped().names == ("Ada", "pvs:time=1,seed=7")
    assert setup.fresh().record_name(0) == "human"


@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_a_finished_record_played_on_from_earlier_is_saved_unfinished(game_name: str) -> None:
    """"Drop them and play" two plies before the end: the re-save kept the record's result."""
    import random

    from games import new_game
    from games.reading import read_records, resaved_record
    from games.records import RecordNotes

    game, chooser = new_game(game_name), random.Random(3)
    while game.outcome() is None:
        game.play(chooser.choice(game.legal_moves()))
    loaded = read_records(game_name, record_text(game_name, game, first_player="A", second_player="B"))[0]
    assert loaded.tags["Result"] != "*"
    game.undo()
    game.undo()
    again = read_records(game_name, resaved_record(loaded, game, RecordNotes()))[0]
    assert len(again.moves) == len(loaded.moves) - 2
    assert again.tags["Result"] == "*" and again.player_names == ("A", "B")
    assert again.tags["Termination"] in {"unfinished", "unterminated"}  # not the record's win
