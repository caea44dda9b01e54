"""Chess opening names from lichess's data set: by position, in the status line and in saved records."""

from __future__ import annotations

import io
import random

import chess
import chess.pgn
from games import game_kind, new_game
from games.chess.openings import index, opening_of
from games.reading import read_records, resaved_record
from games.records import RecordNotes


def _played(*moves: str):
    game = new_game("chess")
    game.play_all(moves)
    return game


def test_positions_are_named_as_lichess_names_them():
    assert new_game("chess").opening() is None
    assert _played("e4", "e5", "Nf3", "Nc6", "Bb5").opening() == "C60 Ruy Lopez"
    assert _played("d4").opening() == "A40 Queen's Pawn Game"
    # a transposition finds the name of the position, not of the move order
    assert _played("Nf3", "Nc6", "e4", "e5", "Bb5").opening() == "C60 Ruy Lopez"
    # past the book, the last named position on the way keeps its name
    assert _played("e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "h3", "h6").opening().startswith("C")


def test_the_data_set_is_whole_and_each_line_reaches_its_position():
    from importlib import resources

    named = index()
    assert len(named) > 3000
    files = resources.files("games.chess")  # the package ships the data and its licence
    assert "CC0" in files.joinpath("LICENSE-chess-openings").read_text(encoding="utf-8")
    rows = files.joinpath("openings.tsv").read_text(encoding="utf-8").splitlines()
    assert rows[0] == "eco\tname\tpgn\tepd"
    for row in random.Random(5).sample(rows[1:], 150):
        eco, name, pgn, epd = row.split("\t")
        board = chess.Board()
        for move in chess.pgn.read_game(io.StringIO(pgn)).mainline_moves():
            board.push(move)
        assert board.epd() == epd
        assert opening_of(board) is not None


def test_a_saved_game_carries_its_opening_and_a_record_keeps_its_own():
    game = _played("e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6")
    text = game_kind("chess").records.text(game, first_player="A", second_player="B")
    assert '[ECO "B90"]' in text and '[Opening "Sicilian Defense: Najdorf Variation"]' in text
    record = '[Event "x"]\n[ECO "B00"]\n[Opening "Mine"]\n\n1. e4 c5 *\n'
    loaded = read_records("chess", record)[0]
    game = _played("e4", "c5", "Nf3")
    again = resaved_record(loaded, game, RecordNotes())
    assert '[Opening "Mine"]' in again and "Sicilian" not in again
