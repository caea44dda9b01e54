"""One game tree in every mode: undo in review never deletes, redo brings back what undo took, a
deleted variation comes back with undo, and moves typed in review are a variation for either side,
the engine waiting until asked to play on."""

from __future__ import annotations

import io
from pathlib import Path

import chess.pgn

from app_pilot import make_app, ready, type_move, wait_for
from test_app_analysis import _open, _save

#: The game a player met losing moves to undo: comments, a NAG and a variation.
REVIEWED_PGN = """[Event "?"]
[White "Anna"]
[Black "Ben"]
[Result "*"]

1. e4 e5 2. Nf3 $1 {the natural move} Nc6 (2... d6 3. d4 exd4) 3. Bb5 a6 *
"""
MAIN = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]


def _mainline(path: Path) -> list[str]:
    game = chess.pgn.read_game(io.StringIO(path.read_text()))
    assert game is not None and not game.errors
    return [node.san() for node in game.mainline()]


async def test_undo_in_review_steps_back_and_never_deletes_the_main_line(tmp_path: Path) -> None:
    source = tmp_path / "reviewed.pgn"
    source.write_text(REVIEWED_PGN)
    app = make_app("chess", "human", "pvs:depth=1")
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        screen = await _open(pilot, source, "review")
        screen.move_list.focus()
        await pilot.press("left", "left")
        await wait_for(pilot, lambda: screen.review == 4, "two steps back")
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: screen.review == 3, "undo: a step back")
        assert "never deletes" in screen.message_text and screen.moves == MAIN
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: screen.review == 4, "redo: a step on")
        await pilot.press("end")
        await wait_for(pilot, lambda: screen.review is None, "back to the game")
        await pilot.press("ctrl+z")  # at the end of a file's game: a step back, the file's move stays
        await wait_for(pilot, lambda: len(screen.moves) == 5, "the last move taken back")
        assert [node.move for node in screen.played.tree.mainline()] == MAIN
        saved = tmp_path / "saved.pgn"
        await _save(pilot, saved)
    assert _mainline(saved) == MAIN
    read = chess.pgn.read_game(io.StringIO(saved.read_text()))
    assert read is not None and read.next().next().next().comment == "the natural move"


async def test_moves_typed_in_review_are_a_variation_for_either_side_and_the_engine_waits(tmp_path: Path) -> None:
    source = tmp_path / "reviewed.pgn"
    source.write_text(REVIEWED_PGN)
    app = make_app("chess", "human", "pvs:depth=1")
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        screen = await _open(pilot, source, "review")
        screen.move_list.focus()
        await pilot.press("home", "right", "right")  # after 1... e5: White (the player) to move
        await wait_for(pilot, lambda: screen.review == 2, "the position after 1... e5")
        for move in ("Bc4", "Nf6", "d3"):  # White's, then Black's (the engine's side), then White's again
            await type_move(pilot, move)
        await wait_for(pilot, lambda: screen.moves == ["e4", "e5", "Bc4", "Nf6", "d3"], "both sides' moves")
        assert "premove" not in screen.message_text and screen.engines.request is None
        assert screen.controller.paused  # the engine plays on only when asked (ctrl+b)
        saved = tmp_path / "saved.pgn"
        await _save(pilot, saved)
    read = chess.pgn.read_game(io.StringIO(saved.read_text()))
    assert read is not None and [node.san() for node in read.mainline()] == MAIN
    second = read.next().next()  # after 1. e4 e5
    assert [child.san() for child in second.variations] == ["Nf3", "Bc4"]
    line = second.variations[1]
    assert [line.san(), *(n.san() for n in line.mainline())] == ["Bc4", "Nf6", "d3"]


async def test_redo_brings_back_what_undo_took_and_a_new_move_ends_it() -> None:
    app = make_app("chess", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        for move in ("e4", "e5", "Nf3"):
            await type_move(pilot, move)
        await pilot.press("ctrl+z", "ctrl+z")
        await wait_for(pilot, lambda: screen.moves == ["e4"], "two moves taken back")
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: screen.moves == ["e4", "e5"], "one brought back")
        assert "brought back e5" in screen.message_text
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: screen.moves == ["e4"], "taken back again")
        await type_move(pilot, "c5")
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: "nothing to redo" in screen.message_text, "no redo after a new move")
        assert screen.moves == ["e4", "c5"]


async def test_a_deleted_variation_comes_back_with_undo_and_goes_again_with_redo(tmp_path: Path) -> None:
    source = tmp_path / "reviewed.pgn"
    source.write_text(REVIEWED_PGN)
    app = make_app("chess", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        screen = await _open(pilot, source, "analyse")
        screen.move_list.focus()
        await pilot.press("home", "right", "right", "right", "right", "down")  # into 2... d6
        await wait_for(pilot, lambda: screen.moves[3] == "d6", "the variation")
        await pilot.press("delete")
        await wait_for(pilot, lambda: "deleted" in screen.message_text, "the deletion")
        fourth = lambda: [n.move for n in screen.played.tree.mainline()[2].variations]  # noqa: E731
        assert fourth() == ["Nc6"]
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: fourth() == ["Nc6", "d6"], "the variation put back")
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: fourth() == ["Nc6"], "deleted again")
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: fourth() == ["Nc6", "d6"], "put back again")
        assert [n.move for n in screen.played.tree.mainline()] == MAIN


def test_the_save_question_counts_the_whole_tree() -> None:
    from games.reading import read_records
    from tui.app.screens.played import PlayedGame
    from tui.app.session import GameSetup

    (loaded,) = read_records("chess", REVIEWED_PGN)
    played = PlayedGame(GameSetup.checked("chess", "human", "human").with_record(loaded, "x.pgn"))
    assert played.size_text() == "3 moves (6 plies) on the main line, 3 more moves in variations"
