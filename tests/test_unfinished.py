"""Every unfinished game kept (tui/unfinished.py): the store, Continue's list, ``tui-games continue``,
and the start screen's focus order (docs/app.md, docs/cli.md)."""

from __future__ import annotations

import io
import multiprocessing
import os
from pathlib import Path
from typing import Any

import chess.pgn
import pytest
from textual.widgets import Button, DataTable

from app_pilot import dialog_takes_keys, game_screen, make_app, ready, type_move, wait_for
from games import GAME_NAMES, Outcome, Termination, game_kind, new_game
from games.reading import read_records
from tui.app.app import TuiGamesApp
from tui.app.controller import EngineWaits
from tui.app.screens.dialogs import ConfirmDialog
from tui.app.screens.game import GameScreen
from tui.app.screens.start import StartScreen
from tui.app.screens.unfinished import UnfinishedScreen
from tui.app.session import GameSetup
from tui.autosave import Autosave, autosave_path, write_autosave
from tui.cli.main import main
from tui.net.link import Link
from tui.unfinished import KeptGame, kept_games, kept_path, load_kept, new_id, store_dir, write_kept

#: An annotated game: a comment on the game, comments, marks and variations, one inside the other.
ANNOTATED_PGN = """[Event "Analysis"]
[White "Anna"]
[Black "Ben"]
[Result "*"]

{A Queen's Gambit} 1. d4 d5 2. c4 e6 $1 {the solid
way} (2... dxc4 $5 3. e4 (3. Nf3 Nf6) 3... e5) 3. Nc3 Nf6 $6 *
"""


async def play_two_plies(pilot: Any, game: str) -> GameScreen:
    """Type the game's first sample move and wait for the level's answer."""
    screen = await ready(pilot)
    await type_move(pilot, game_kind(game).samples.line[0])
    await wait_for(pilot, lambda: len(screen.moves) == 2, "the level's answer")
    return screen


async def quit_unfinished(game: str, level: str = "beginner") -> tuple[str, ...]:
    """Play one move each against ``level`` and quit (as ctrl+q's "Don't save" does); the moves."""
    app = make_app(game, "human", level)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await play_two_plies(pilot, game)
        moves = tuple(screen.moves)
        app.exit()
    return moves


def listed(capsys: pytest.CaptureFixture[str]) -> list[str]:
    assert main(["continue", "--list"]) == 0
    out = capsys.readouterr()
    assert out.err == ""
    return out.out.splitlines()


async def test_two_unfinished_games_are_both_kept_and_listed(capsys: pytest.CaptureFixture[str]) -> None:
    chess_moves = await quit_unfinished("chess")
    checkers_moves = await quit_unfinished("checkers", "casual")
    kept, problems = kept_games()
    assert problems == [] and {(k.game, k.moves) for k in kept} == {("chess", chess_moves),
                                                                      ("checkers", checkers_moves)}
    assert {k.players for k in kept} == {("human", "beginner"), ("human", "casual")}  # levels by name
    lines = listed(capsys)
    assert lines[0].split() == ["id", "game", "players", "moves", "last", "played"]
    assert len(lines) == 3 and {line.split()[1] for line in lines[1:]} == {"chess", "checkers"}
    assert any("human vs beginner" in line and " 1 " in line for line in lines[1:])  # 1 move: 2 plies


async def test_a_new_game_of_the_same_game_never_replaces_a_kept_one() -> None:
    first = await quit_unfinished("chess")
    await quit_unfinished("chess")
    kept, _ = kept_games()
    assert len(kept) == 2 and len({k.id for k in kept}) == 2 and all(k.moves == first for k in kept)


async def test_a_continued_game_updates_its_own_entry_and_a_finished_one_removes_it() -> None:
    await quit_unfinished("chess")
    (kept,), _ = kept_games()
    app = TuiGamesApp(unfinished=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, UnfinishedScreen), "the list")
        await pilot.press("enter")
        screen = await ready(pilot)
        assert screen.kept_id == kept.id and screen.moves == list(kept.moves)
        assert not screen.controller.paused  # a game being played: the player plays on
        await type_move(pilot, "d4" if "d4" not in screen.moves else "c4")
        await wait_for(pilot, lambda: len(screen.moves) == 4, "the level's answer")
        app.exit()
    (again,), _ = kept_games()
    assert again.id == kept.id and len(again.moves) == 4
    app = TuiGamesApp(unfinished=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, UnfinishedScreen), "the list")
        await pilot.press("enter")
        screen = await ready(pilot)
        screen.played.verdict = Outcome(1, Termination.RESIGNATION)  # the player resigned: the game is over
        app.exit()
    assert kept_games() == ([], [])


async def test_an_opened_annotated_game_left_in_review_is_kept_whole_and_waits(tmp_path: Path) -> None:
    source = tmp_path / "annotated.pgn"
    source.write_text(ANNOTATED_PGN)
    loaded = read_records("chess", ANNOTATED_PGN)[0]
    app = TuiGamesApp(GameSetup.checked("chess", "human", "beginner").with_record(loaded, str(source)))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        screen.commands.back_to(3)  # back three plies: the game stands at 2. c4, the rest a line of the tree
        await wait_for(pilot, lambda: len(screen.moves) == 3, "the game three plies back")
        app.exit()
    (kept,), problems = kept_games()
    assert problems == [] and kept.moves == ("d4", "d5", "c4") and kept.paused and kept.source == str(source)
    read = chess.pgn.read_game(io.StringIO(kept.record))
    assert read is not None and not read.errors
    assert [node.san() for node in read.mainline()] == ["d4", "d5", "c4", "e6", "Nc3", "Nf6"]
    assert read.comment == "A Queen's Gambit"
    answers = read.next().next().next().variations  # the answers to 2. c4
    assert [v.san() for v in answers] == ["e6", "dxc4"] and answers[0].comment.split() == ["the", "solid", "way"]
    assert answers[0].nags == {1} and answers[1].nags == {5}
    assert [v.san() for v in answers[1].variations] == ["e4", "Nf3"]  # the variation in the variation
    app = TuiGamesApp(unfinished=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, UnfinishedScreen), "the list")
        await pilot.press("enter")
        screen = await ready(pilot)
        assert screen.moves == ["d4", "d5", "c4"] and screen.kept_id == kept.id
        assert len(list(screen.played.tree.walk())) == len(list(loaded.tree.walk()))
        await wait_for(pilot, lambda: "ctrl+b" in screen.message_text, "the line saying the engines wait")
        assert screen.controller.paused and isinstance(screen.controller.turn(), EngineWaits)
        assert screen.moves == ["d4", "d5", "c4"]  # the engine did not answer at once
        app.exit()


async def test_a_file_opened_and_left_untouched_is_not_kept_twice(tmp_path: Path) -> None:
    """Its file holds it: opening it (``play --load``), then choosing how to go on, keeps nothing more."""
    source = tmp_path / "annotated.pgn"
    source.write_text(ANNOTATED_PGN)
    loaded = read_records("chess", ANNOTATED_PGN)[0]
    app = TuiGamesApp(GameSetup.checked("chess", "human", "beginner").with_record(loaded, str(source)), ask_how=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        first = game_screen(app)
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), "how to open it")
        dialog = app.screen
        await dialog_takes_keys(pilot, dialog)
        await pilot.press("right")  # from Continue to Review
        await wait_for(pilot, lambda: dialog.focused is not None and dialog.focused.id == "review", "Review chosen")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen is not first,
                       "the game opened for review")
        app.exit()
    assert kept_games() == ([], [])


class Watching(Link):
    """A spectator's end of a network game: it cannot play."""

    plays = False
    where = ("watching",)

    def state(self) -> dict[str, Any]:
        return {"game": "chess", "start": None, "moves": ["e4", "e5"], "you": None, "number": 1}

    def act(self, kind: str, **fields: Any) -> None:
        pass

    def close(self) -> None:
        pass


async def test_a_spectators_game_is_never_kept() -> None:
    app = TuiGamesApp(friend=Watching())
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await wait_for(pilot, lambda: screen.moves == ["e4", "e5"], "the host's moves")
        app.exit()
    assert kept_games() == ([], [])


def kept_game(game: str = "chess", moves: tuple[str, ...] = ("e4", "e5")) -> KeptGame:
    return KeptGame(new_id(game), game, ("human", "pvs:depth=1"), "", moves)


async def test_delete_asks_then_removes_the_game() -> None:
    keep, gone = write_kept(kept_game()), write_kept(kept_game(moves=("d4",)))
    app = TuiGamesApp()
    app.animation_level = "none"
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        assert "2 unfinished games" in str(app.screen.query_one("#continue-button", Button).label)
        await pilot.click("#continue-button")
        await wait_for(pilot, lambda: isinstance(app.screen, UnfinishedScreen), "the list")
        listing = app.screen
        assert isinstance(listing, UnfinishedScreen) and listing.query_one(DataTable).row_count == 2
        while listing.chosen is not None and listing.chosen.id != gone.stem:
            await pilot.press("down")
        await pilot.press("delete")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question")
        await dialog_takes_keys(pilot, app.screen)
        await pilot.press("enter")  # its harmless answer has the focus: Keep it
        await wait_for(pilot, lambda: app.screen is listing, "the list again")
        assert gone.exists()
        await pilot.click("#delete-button")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question")
        dialog = app.screen
        await dialog_takes_keys(pilot, dialog)
        await pilot.press("right")
        await wait_for(pilot, lambda: dialog.focused is not None and dialog.focused.id == "delete", "Delete chosen")
        await pilot.press("enter")
        await wait_for(pilot, lambda: listing.query_one(DataTable).row_count == 1, "the list without it")
        assert not gone.exists() and keep.exists()
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        assert "1 unfinished game" in str(app.screen.query_one("#continue-button", Button).label)


def _write_many(config: str, prefix: int, count: int) -> None:
    os.environ["TUI_GAMES_CONFIG_DIR"] = config
    for number in range(count):
        write_kept(KeptGame(f"chess-{prefix}-{number}", "chess", ("human", "human"), "", ("e4",) * (number % 3)))
        kept_games()  # a reader (and mover of old files) at the same time


def test_two_apps_writing_at_once_lose_nothing(own_settings: Path) -> None:
    write_autosave(Autosave("quixo", ("human", "human"), "", ("a1>a5",)))  # migrated by whichever reads first
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_write_many, args=(str(own_settings), prefix, 25)) for prefix in (1, 2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    kept, problems = kept_games()
    assert problems == [] and len(kept) == 51 and sum(k.game == "quixo" for k in kept) == 1
    assert not list(store_dir().glob("*.new")) and not list(store_dir().glob("*.bad*"))


def test_a_file_that_cannot_be_read_is_moved_aside_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    good = write_kept(kept_game())
    bad = store_dir() / "chess-broken.toml"
    bad.write_text("version = 2\ngame = 'chess'\nmy notes")
    assert main(["continue", "--list"]) == 0
    out = capsys.readouterr()
    assert len(out.out.splitlines()) == 2 and good.stem in out.out.splitlines()[1]
    assert len(out.err.splitlines()) == 1 and "chess-broken.toml" in out.err and "moved aside" in out.err
    assert not bad.exists() and (store_dir() / "chess-broken.toml.bad").read_text().endswith("my notes")
    assert len(listed(capsys)) == 2  # said once: the file is aside now


def test_the_old_one_slot_files_move_into_the_store() -> None:
    write_autosave(Autosave("chess", ("human", "pvs:depth=1"), "", ("e4", "e5"), "5+3",
                            ((300.0, 300.0), (299.0, 300.0), (299.0, 298.5))))
    write_autosave(Autosave("checkers", ("human", "human"), "", ("11-15",)))
    kept, problems = kept_games()
    assert problems == [] and {(k.game, k.moves) for k in kept} == {("chess", ("e4", "e5")), ("checkers", ("11-15",))}
    chess_kept = next(k for k in kept if k.game == "chess")
    assert chess_kept.clock == "5+3" and chess_kept.left[2] == (299.0, 298.5) and chess_kept.saved
    assert not autosave_path("chess").exists() and not autosave_path("checkers").exists()
    assert load_kept(kept_path(chess_kept.id)) == chess_kept


@pytest.mark.parametrize("argv", [["continue", "--bogus"], ["continue", "extra"]])
def test_continue_refuses_bad_arguments_in_one_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "error" in err


def test_continue_opens_the_list_in_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    import tui.cli.play as play

    opened: dict[str, Any] = {}
    monkeypatch.setattr(play, "run_app", lambda **kwargs: opened.update(kwargs) or 0)
    assert main(["continue"]) == 0 and opened["unfinished"] is True


async def test_tab_on_the_start_screen_follows_the_form_never_straight_to_learn() -> None:
    write_kept(kept_game())
    app = TuiGamesApp()
    app.animation_level = "none"
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        start = app.screen
        assert start.focused is start.query_one("#start-button")
        order = []
        for _ in range(8):
            await pilot.press("tab")
            order.append(start.focused.id if start.focused is not None else None)
        assert order == ["game", "opponent", "colour", "clock-preset", "advanced", "continue-button",
                         "learn-button", "friend-button"]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_games_tree_is_set_up_again_from_its_record(game: str) -> None:
    """The record text a kept game holds brings back its variations and comments, at the position kept."""
    from games.records import RecordNotes
    from games.variations import MoveTree, start_move_number
    from tui.app.keeping import continued_setup
    from tui.app.screens.played import PlayedGame

    kind = game_kind(game)
    line = list(kind.samples.line[:4])
    position = new_game(game)
    tree = MoveTree(None, position.turn, start_move_number(position))
    node: Any = tree
    for text in line:
        node = node.follow(text)
    position.play(position.parse_move(line[0]))
    other = next(text for text in position.legal_move_texts() if text != line[1])
    tree.variations[0].add_variation(other, comment="try this")
    end, _ = type(position).replay(None, line)
    record = kind.records.text(end, first_player="human", second_player="Club", notes=RecordNotes(tree=tree))
    kept = KeptGame(new_id(game), game, ("human", "pvs:depth=1"), "", (line[0], other), record, paused=True)
    played = PlayedGame(continued_setup(kept))
    assert played.moves == [line[0], other] and played.node.comment == "try this"
    assert [n.move for n in played.tree.mainline()] == line


async def test_the_palettes_continue_opens_the_list() -> None:
    write_kept(kept_game())
    app = TuiGamesApp()
    app.animation_level = "none"
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        commands = {command.title: command for command in app.get_system_commands(app.screen)}
        commands["Continue"].callback()
        await wait_for(pilot, lambda: isinstance(app.screen, UnfinishedScreen) and bool(app.screen.games), "the list")
        await wait_for(pilot, lambda: app.screen.query_one(DataTable).row_count == 1, "its one game listed")
