"""The analysis board: a record's variations, comments and marks on screen, moves made in
review as variations, the tree edited and saved, and opened games that continue."""

from __future__ import annotations

import io
from pathlib import Path

import chess.pgn
import pytest
from textual.widgets import Input, Static

from app_pilot import game_screen, make_app, ready, type_move, wait_for
from games.reading import read_records
from tui.app.app import TuiGamesApp
from tui.app.screens.annotate import CommentDialog, MarkDialog
from tui.app.screens.dialogs import ConfirmDialog, ResultDialog
from tui.app.screens.files import OpenDialog, SaveDialog
from tui.app.session import GameSetup

#: A PGN with a comment on the game, comments, NAGs and two variations, one inside the other.
ANNOTATED_PGN = """[Event "Analysis"]
[Site "?"]
[Date "2026.11.27"]
[Round "-"]
[White "Anna"]
[Black "Ben"]
[Result "*"]

{A Queen's Gambit} 1. d4 d5 2. c4 e6 $1 {the solid
way} (2... dxc4 $5 3. e4 (3. Nf3 Nf6) 3... e5) 3. Nc3 Nf6 $6 *
"""

#: A PDN with a variation (and a mark in it).
VARIED_PDN = """[Event "Analysis"]
[Black "Ann"]
[White "Bo"]
[Result "*"]
[GameType "21"]

1. 11-15 {the Old Fourteenth} 23-19 (1... 24-20! 15-19) 2. 8-11 22-17 *
"""


def _shown(screen) -> str:
    return str(screen.move_list.query_one("#move-text", Static).render())


def _pgn_shape(pgn: chess.pgn.GameNode) -> list[tuple]:
    """Every node of a python-chess game: its moves from the start, comment, starting comment, NAGs."""
    shape, stack = [], [(pgn, ())]
    while stack:
        node, path = stack.pop()
        for child in node.variations:
            moves = path + (child.san(),)
            shape.append((moves, child.comment, child.starting_comment, sorted(child.nags)))
            stack.append((child, moves))
    return sorted(shape)


async def _open(pilot, path: Path, choice: str | None = None):
    """Open ``path`` with ctrl+o; answer the unfinished game's question with ``choice``."""
    app = pilot.app
    before = game_screen(app)
    await pilot.press("ctrl+o")
    await wait_for(pilot, lambda: isinstance(app.screen, OpenDialog), "the open dialog")
    app.screen.query_one("#open-path", Input).value = str(path)
    await pilot.press("enter")
    if choice is not None:
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question")
        await pilot.click(f"#{choice}")
    await wait_for(pilot, lambda: game_screen(app) is not before, "the opened game")
    screen = await ready(pilot)
    await wait_for(pilot, lambda: screen.is_mounted and "read " in screen.message_text, "the game read")
    return screen


async def _save(pilot, path: Path) -> None:
    app = pilot.app
    screen = game_screen(app)
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: isinstance(app.screen, SaveDialog), "the save dialog")
    app.screen.query_one(Input).value = str(path)
    await pilot.press("enter")
    await wait_for(pilot, lambda: app.screen is screen and path.exists(), "the save")


async def _reviewing_after_e4(pilot):
    """1. e4 e5 2. Nf3 played, then the position after 1. e4 shown from the move list."""
    screen = await ready(pilot)
    for move in ("e4", "e5", "Nf3"):
        await type_move(pilot, move)
    screen.move_list.focus()
    await pilot.press("left", "left")
    assert screen.review == 1
    return screen


def _annotated(tmp_path: Path) -> tuple[TuiGamesApp, Path]:
    """An app where both sides are the player's, and ANNOTATED_PGN in a file to open in it."""
    source = tmp_path / "annotated.pgn"
    source.write_text(ANNOTATED_PGN)
    return make_app("chess", "human", "human"), source


async def test_a_pgn_opens_with_its_annotations_and_a_move_in_review_saves_as_a_variation(tmp_path: Path) -> None:
    app, source = _annotated(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        screen = await _open(pilot, source, "analyse")
        shown = _shown(screen)
        for seen in ("A Queen's Gambit", "e6!", "the solid way", "(2... dxc4!? 3. e4 (3. Nf3 Nf6) 3... e5)", "Nf6?!"):
            assert seen in shown, seen
        assert "2 variations" in screen.message_text
        screen.move_list.focus()
        await pilot.press("home", "right", "right", "right")  # after 2. c4
        assert screen.review == 3
        await type_move(pilot, "c6")  # a move in review: a third answer to 2. c4
        assert screen.moves == ["d4", "d5", "c4", "c6"] and screen.review is None
        assert "(2... c6)" in _shown(screen)
        saved = tmp_path / "saved.pgn"
        await _save(pilot, saved)
        assert not screen.played.unsaved
        reopened = await _open(pilot, saved, "analyse")
        assert "(2... c6)" in _shown(reopened) and "(3. Nf3 Nf6)" in _shown(reopened)
        assert reopened.moves == ["d4", "d5", "c4", "e6", "Nc3", "Nf6"]  # the main line stays the main line
    read = chess.pgn.read_game(io.StringIO(saved.read_text()))
    before = chess.pgn.read_game(io.StringIO(ANNOTATED_PGN))
    assert read is not None and before is not None and not read.errors
    assert [node.san() for node in read.mainline()] == [node.san() for node in before.mainline()]
    added = ((("d4", "d5", "c4", "c6"), "", "", []))
    assert _pgn_shape(read) == sorted(_pgn_shape(before) + [added])
    assert read.comment == before.comment


async def test_a_move_typed_while_the_list_or_the_board_has_the_focus_reaches_the_move_box(tmp_path: Path) -> None:
    app, source = _annotated(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        screen = await _open(pilot, source, "analyse")
        screen.move_list.focus()
        await pilot.press("home", "right", "right", "right")  # after 2. c4, in the list
        assert screen.review == 3 and screen.move_list.has_focus
        await pilot.press("N", "c", "6")  # no key of the list's: the letters go to the move box
        assert screen.move_input.has_focus and screen.move_input.value == "Nc6" and screen.review == 3
        await pilot.press("enter")
        await pilot.pause()
        assert screen.moves == ["d4", "d5", "c4", "Nc6"] and "(2... Nc6)" in _shown(screen)
        screen.board.focus()
        await pilot.press("e", "6")  # the board's keys are the arrows, Enter and space
        assert screen.move_input.has_focus and screen.move_input.value == "e6"
        screen.move_list.focus()
        await pilot.press("n")  # the list's own key (a note) stays the list's
        await pilot.pause()
        assert isinstance(app.screen, CommentDialog)


async def test_a_pdn_variation_opens_and_a_new_one_saves(tmp_path: Path) -> None:
    source = tmp_path / "varied.pdn"
    source.write_text(VARIED_PDN)
    app = make_app("checkers", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        screen = await _open(pilot, source, "analyse")
        assert "(1... 24-20! 2. 15-19)" in _shown(screen) and "the Old Fourteenth" in _shown(screen)
        screen.move_list.focus()
        await pilot.press("home", "right")  # after 1. 11-15: a third answer
        await type_move(pilot, "22-18")
        assert screen.moves == ["11-15", "22-18"]
        saved = tmp_path / "saved.pdn"
        await _save(pilot, saved)
    (loaded,) = read_records("checkers", saved.read_text())
    assert loaded.moves == ("11-15", "23-19", "8-11", "22-17")
    assert loaded.tree is not None
    first = loaded.tree.mainline()[0]
    assert [node.move for node in first.variations] == ["23-19", "24-20", "22-18"]
    assert first.comment == "the Old Fourteenth" and first.variations[1].nags == [1]


async def test_the_move_list_keys_mark_comment_promote_and_delete() -> None:
    app = make_app("chess", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _reviewing_after_e4(pilot)
        await type_move(pilot, "c5")  # a variation, followed
        tree = screen.played.tree
        e4 = tree.mainline()[0]
        screen.move_list.focus()
        await pilot.press("exclamation_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, MarkDialog), "the mark dialog")
        await pilot.click("#nag-5")
        await wait_for(pilot, lambda: e4.variations[1].nags == [5], "the mark")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, CommentDialog), "the comment dialog")
        await pilot.press(*"Sicilian", "enter")
        await wait_for(pilot, lambda: e4.variations[1].comment == "Sicilian", "the comment")
        assert "c5!? {Sicilian}" in _shown(screen) or "c5!?" in _shown(screen) and "Sicilian" in _shown(screen)
        await pilot.press("u")  # the variation becomes the main line
        assert [node.move for node in e4.variations] == ["c5", "e5"] and screen.played.unsaved
        await pilot.press("down")  # the other answer to 1. e4: the old main line, followed to its end
        await wait_for(pilot, lambda: screen.moves == ["e4", "e5", "Nf3"], "the other line")
        await pilot.press("delete")  # it goes; the game goes back to where it branched off
        await wait_for(pilot, lambda: [node.move for node in e4.variations] == ["c5"], "the deletion")
        assert screen.moves == ["e4"] and "e5" not in _shown(screen)


async def test_an_unfinished_game_opened_continues_against_the_engine_at_once(tmp_path: Path) -> None:
    # An opened game was paused ("ctrl+b resumes"): the player's typed move got no answer.
    path = tmp_path / "unfinished.pdn"
    path.write_text('[Event "x"]\n[Result "*"]\n[GameType "21"]\n\n1. 11-15 *\n')
    app = TuiGamesApp(GameSetup.checked("checkers", "human", "random"))
    app.animation_level = "none"
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        screen = await _open(pilot, path, "continue")
        assert screen.controller.setup.players == ("random", "human")  # White to move: the player's side
        assert not screen.controller.paused
        await type_move(pilot, "23-19")
        await wait_for(pilot, lambda: len(screen.moves) == 3, "the engine's answer")


async def test_play_load_of_an_unfinished_game_asks_and_continues_at_once() -> None:
    # ``tui-games play --load`` opened an unfinished game paused ("ctrl+b resumes"), asking nothing.
    (loaded,) = read_records("checkers", '[Event "x"]\n[Result "*"]\n[GameType "21"]\n\n1. 11-15 *\n')
    app = TuiGamesApp(GameSetup.checked("checkers", "human", "random").with_record(loaded, "x.pdn"), ask_how=True)
    app.animation_level = "none"
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question")
        assert app.screen.topic == "opening a game"
        app.screen.dismiss("continue")
        await wait_for(pilot, lambda: game_screen(app).controller.setup.continued, "the continued game")
        screen = game_screen(app)
        assert screen.controller.setup.players == ("random", "human") and not screen.controller.paused


async def test_a_finished_game_opens_for_review_without_a_question(tmp_path: Path) -> None:
    path = tmp_path / "mate.pgn"
    path.write_text('[Event "x"]\n[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n')
    app = make_app("chess", "human", "pvs:time=1")
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        screen = await _open(pilot, path)  # no question: straight to its result, then the board
        await wait_for(pilot, lambda: isinstance(app.screen, ResultDialog), "the result")
        app.screen.dismiss("review")
        await wait_for(pilot, lambda: app.screen is screen, "the board")
        await pilot.press("up")
        await wait_for(pilot, lambda: screen.review == 3, "the review")


@pytest.mark.parametrize("choice, players", [("review", ("human", "pvs:time=1")), ("analyse", ("human", "human"))])
def test_the_choices_for_an_unfinished_game(choice: str, players: tuple[str, str]) -> None:
    from tui.app.screens.analysis import opened_game_choices

    (loaded,) = read_records("chess", '[Event "x"]\n\n1. e4 *\n')
    setup = GameSetup.checked("chess", "human", "pvs:time=1").with_record(loaded, "x.pgn")
    choices = opened_game_choices(setup, 1)
    assert choices[choice].players == players
    assert choices["continue"].players == ("pvs:time=1", "human") and choices["continue"].continued
    assert choices["analyse"].analysis


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda size: f"{size[0]}x{size[1]}")
def test_analysis_board_snapshot(snap_compare, size: tuple[int, int]) -> None:
    """The annotated PGN on an analysis board, its variation 2... dxc4 shown."""
    (loaded,) = read_records("chess", ANNOTATED_PGN)
    app = TuiGamesApp(GameSetup.checked("chess", "human", "human").with_record(loaded, "annotated.pgn"))
    app.animation_level = "none"

    async def into_the_variation(pilot) -> None:
        screen = await ready(pilot)
        screen.move_list.focus()
        await pilot.press("home", "right", "right", "right", "down")
        await wait_for(pilot, lambda: screen.review == 4 and screen.moves[3] == "dxc4", "the variation")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=into_the_variation)


async def test_the_hint_follows_the_position_shown() -> None:
    # A hint was refused while reviewing ("not while reviewing").
    app = make_app("chess", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _reviewing_after_e4(pilot)  # Black to move
        await pilot.press("ctrl+f")
        await wait_for(pilot, lambda: screen.message_text.startswith("hint: ") and "not played" in screen.message_text,
                       "the hint")
        shown = screen.played.shown_game()
        assert screen.coach.hint_move in shown.legal_move_texts() and shown.turn == 1
        assert screen.board.selected is not None


def test_the_played_game_keeps_every_line_it_went_back_from() -> None:
    """No Textual: playing on from an earlier position keeps the later moves, following a line
    replays it, and only a move taken back leaves the tree."""
    from tui.app.screens.played import PlayedGame

    played = PlayedGame(GameSetup.checked("chess", "human", "human"))
    for text in ("e4", "e5", "Nf3"):
        played.play(played.game.parse_move(text))
    nf3 = played.node
    for _ in range(2):
        played.undo(forget=False)  # back to after 1. e4 (play from here)
    played.play(played.game.parse_move("c5"))
    assert played.moves == ["e4", "c5"] and [node.move for node in played.tree.mainline()] == ["e4", "e5", "Nf3"]
    assert played.follow_line(nf3) == 3 and played.moves == ["e4", "e5", "Nf3"] and played.node is nf3
    assert played.game.key() == type(played.game).replay(None, ["e4", "e5", "Nf3"])[0].key()
    played.undo()  # taken back: 2. Nf3 leaves the tree
    assert played.moves == ["e4", "e5"] and not played.node.variations
    assert [node.move for node in played.tree.variations[0].variations] == ["e5", "c5"]
