"""Files other programs wrote: comments, NAGs, variations, a bad game among
good ones, binary junk, a large database; and re-saving a loaded game keeps
all it held (games.reading)."""

from __future__ import annotations

import io
from pathlib import Path

import chess.pgn
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import GAME_NAMES, game_kind, new_game
from games.reading import LoadedGame, load_record_file, read_records, resaved_record, scan_records
from games.records import RecordError, RecordNotes

DATA = Path(__file__).parent / "data"


def replay(loaded: LoadedGame):
    game = new_game(loaded.game_name) if loaded.start is None else type(new_game(loaded.game_name)).from_text(
        loaded.start)
    for text in loaded.moves:
        game.play(game.parse_move(text))
    return game


def test_one_bad_game_is_reported_by_number_and_the_others_load(tmp_path: Path) -> None:
    # One illegal game made every game of the file unloadable.
    path = DATA / "annotated.pgn"
    scanned = scan_records("chess", path.read_text())
    assert [type(item).__name__ for item in scanned] == ["LoadedGame", "RecordError", "LoadedGame"]
    assert str(scanned[1]).startswith("game 2, move 2 (White): illegal san: 'Ke3'")
    first, count = load_record_file(path, "chess", 1)
    assert count == 3 and first.tags["White"] == "Adolf Anderssen" and first.moves[-1] == "Bxe7#"
    third, _ = load_record_file(path, "chess", 3)
    assert third.moves == ("d4", "d5", "c4", "c6")
    with pytest.raises(RecordError, match=r"game 2, move 2 \(White\): illegal san"):
        load_record_file(path, "chess", 2)
    with pytest.raises(RecordError, match="game 2"):
        read_records("chess", path.read_text())  # the strict reader still refuses the file as a whole


def test_a_pdn_from_elsewhere_reads_past_variations_marks_and_nags() -> None:
    # Variations ( ... ) and move marks (23-19!) were refused.
    (loaded,) = read_records("checkers", (DATA / "elsewhere.pdn").read_text())
    assert loaded.moves == ("11-15", "23-19", "8-11", "22-17", "4-8", "17-13", "15-18")
    assert loaded.comments[0] == "the Old Fourteenth?" and loaded.comments[5] == "a quiet move"
    assert loaded.tags["Annotator"] == "Someone" and loaded.player_names == ("Tinsley, M.", "Chinook")


@pytest.mark.parametrize("junk", [b"\x00\x01\x02\x89PNG\r\n\x1a\n" * 20, b"hello world, no game here\n"])
def test_binary_or_junk_files_are_refused_with_one_line(tmp_path: Path, junk: bytes) -> None:
    # Binary junk loaded as an empty game.
    path = tmp_path / "junk.pgn"
    path.write_bytes(junk)
    with pytest.raises(RecordError) as error:
        load_record_file(path, "chess")
    message = str(error.value)
    assert "\n" not in message and ("not a text file" in message or "not a PGN game" in message
                                    or "not UTF-8" in message)


def test_a_loaded_game_resaved_unchanged_keeps_every_header_and_annotation() -> None:
    # Re-saving replaced Event, Date, Round and the players, dropped comments, NAGs and
    # variations, and invented a Termination.
    loaded, _ = load_record_file(DATA / "annotated.pgn", "chess", 1)
    text = resaved_record(loaded, replay(loaded), RecordNotes())
    again = chess.pgn.read_game(io.StringIO(text))
    original = chess.pgn.read_game(io.StringIO((DATA / "annotated.pgn").read_text()))
    assert dict(again.headers) == dict(original.headers) and "Termination" not in again.headers
    assert str(again.mainline_moves()) == str(original.mainline_moves())
    assert again.comment == "The Evergreen game."
    nodes = list(again.mainline())
    assert nodes[0].clock() == 300 and nodes[2].nags == {1} and nodes[6].comment == "Evans Gambit"
    assert nodes[14].eval().white().score() == 42
    assert [v.san() for v in nodes[8].variations] == ["Ba5", "Be7"]
    assert [v.san() for v in nodes[8].variations[1].variations] == ["d4", "Qb3"]
    assert " ".join(text.split()) == " ".join(str(original).split())


def test_a_loaded_game_played_on_keeps_the_record_and_adds_the_new_moves() -> None:
    loaded, _ = load_record_file(DATA / "annotated.pgn", "chess", 3)
    game = replay(loaded)
    for san in ("Nf3", "Nf6"):
        game.play(game.parse_move(san))
    text = resaved_record(loaded, game, RecordNotes(comments=[""] * 4 + ["[%clk 0:04:58]", ""]))
    again = chess.pgn.read_game(io.StringIO(text))
    assert again.headers["Event"] == "Third" and again.headers["White"] == "C"
    assert again.headers["Result"] == "*"  # it goes on past the record's draw
    assert [node.san() for node in again.mainline()] == ["d4", "d5", "c4", "c6", "Nf3", "Nf6"]
    nodes = list(again.mainline())
    assert nodes[2].comment == "Queen's Gambit" and nodes[4].clock() == 298


def test_later_moves_the_player_dropped_are_not_saved_as_the_game() -> None:
    # "Drop them and play" at move 3, then the record's own next move: the re-save kept the
    # dropped moves as the main line and the record's 1-0 for a game still going on.
    loaded, _ = load_record_file(DATA / "annotated.pgn", "chess", 1)
    game = new_game("chess")
    for san in loaded.moves[:5]:
        game.play(game.parse_move(san))
    again = chess.pgn.read_game(io.StringIO(resaved_record(loaded, game, RecordNotes())))
    assert [node.san() for node in again.mainline()] == list(loaded.moves[:5])
    assert again.headers["Result"] == "*" and again.headers["Event"] == loaded.tags["Event"]


def test_a_move_off_the_main_line_becomes_it_and_the_record_line_stays_a_variation() -> None:
    loaded, _ = load_record_file(DATA / "annotated.pgn", "chess", 3)
    game = new_game("chess")
    for san in ("d4", "d5", "c4", "e6"):
        game.play(game.parse_move(san))
    again = chess.pgn.read_game(io.StringIO(resaved_record(loaded, game, RecordNotes())))
    assert [node.san() for node in again.mainline()] == ["d4", "d5", "c4", "e6"]
    third = list(again.mainline())[2]
    assert [variation.san() for variation in third.variations] == ["e6", "c6"]


def test_a_pdn_resaved_keeps_its_tags_and_comments() -> None:
    (loaded,) = read_records("checkers", (DATA / "elsewhere.pdn").read_text())
    text = resaved_record(loaded, replay(loaded), RecordNotes())
    for kept in ('[Event "Club championship"]', '[Date "1999.05.01"]', '[Black "Tinsley, M."]',
                 '[Annotator "Someone"]', "{the Old Fourteenth?}", "{a quiet move}"):
        assert kept in text
    (again,) = read_records("checkers", text)
    assert again.moves == loaded.moves and again.comments == loaded.comments


def test_game_n_of_a_large_database_is_reached_by_streaming(tmp_path: Path) -> None:
    game = "\n".join(f'[Event "E{n}"]\n[White "W{n}"]\n[Black "B"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 *\n'
                     for n in range(1, 3001))
    path = tmp_path / "big.pgn"
    path.write_text(game)
    loaded, count = load_record_file(path, "chess", 2999)
    assert count == 3000 and loaded.tags["Event"] == "E2999" and loaded.moves == ("e4", "e5", "Nf3")
    with pytest.raises(RecordError, match="holds 3000 games; there is no game 3001"):
        load_record_file(path, "chess", 3001)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=300) | st.text(max_size=300).map(str.encode), name=st.sampled_from(GAME_NAMES))
def test_any_bytes_are_read_or_refused_in_one_line(tmp_path_factory, data: bytes, name: str) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "f.rec"
    path.write_bytes(data)
    try:
        load_record_file(path, name)
    except RecordError as error:
        assert "\n" not in str(error)


def test_a_file_s_games_are_listed_from_their_tags() -> None:
    from games.reading import index_records

    chess_games = index_records(DATA / "annotated.pgn", "chess")
    assert [(g.number, g.players, g.result, g.event) for g in chess_games] == [
        (1, ("Adolf Anderssen", "Jean Dufresne"), "1-0", "Casual Game"), (2, ("A", "B"), "*", "Bad game"),
        (3, ("C", "D"), "1/2-1/2", "Third")]
    # no PlyCount tag: the main line's moves are counted (comments, NAGs and variations left out)
    assert chess_games[0].moves == 24 and chess_games[2].moves == 2
    (pdn,) = index_records(DATA / "elsewhere.pdn", "checkers")
    assert pdn.players == ("Tinsley, M.", "Chinook") and pdn.moves == 4 and "chinook" in pdn.text()
    seen: list[tuple[int, int]] = []
    index_records(DATA / "annotated.pgn", "chess", progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1][0] == seen[-1][1]


def _empty_record(game: str) -> str:
    """The record of ``game`` with no move played."""
    return game_kind(game).records.text(new_game(game), first_player="A", second_player="B")


#: The headers of the record formats whose header is comment lines (the move lists of :mod:`games.movelist`).
HEADERS = [text for name in GAME_NAMES if (text := _empty_record(name)).startswith("#")
           and all(line.startswith("#") for line in text.splitlines())]


#: Every game with an empty file and blank lines; a move list's with any move list's header alone too.
NO_GAME = [(name, text) for name in GAME_NAMES
           for text in ["", "\n\n", *(h.splitlines()[0] + "\n" for h in HEADERS if _empty_record(name) in HEADERS)]]


@pytest.mark.parametrize(("game", "text"), NO_GAME)
def test_a_file_with_no_game_is_refused(tmp_path: Path, game: str, text: str) -> None:
    """An empty file, blank lines or a move list's header alone opened as a game of no moves."""
    path = tmp_path / "nothing.txt"
    path.write_text(text)
    with pytest.raises(RecordError, match=f"no {game} game found"):
        load_record_file(path, game)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 60))
def test_counted_moves_equal_the_main_line_python_chess_reads(seed: int, plies: int) -> None:
    import random

    from games.chess.records import _main_line_plies

    chooser, game = random.Random(seed), chess.pgn.Game()
    node = game
    for ply in range(plies):
        moves = list(node.board().legal_moves)
        if not moves:
            break
        if ply % 7 == 3 and len(moves) > 1:  # a side line, with a comment holding parentheses
            node.add_variation(moves[1], comment="a (side) line; see e4")
        node = node.add_main_variation(chooser.choice(moves), comment="Nf3 was better" if ply % 5 == 0 else "")
        if ply % 3 == 0:
            node.nags.add(1)
    text = str(game)
    assert _main_line_plies(text) == len(list(chess.pgn.read_game(io.StringIO(text)).mainline_moves()))
