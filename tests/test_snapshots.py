"""Snapshots (pytest-textual-snapshot) of every game's screens at 80x24 and 120x40:
the start screen, a game in progress, a review, the result dialog, the board's side
(material, the eval bar); and the lab screen.

Human players only, so nothing depends on a search's timing.  After a
deliberate change of the look, ``pytest tests/test_snapshots.py
--snapshot-update`` rewrites them (look at the report first).
"""

from __future__ import annotations

import pytest
from textual.widgets import Input

from tui.app.app import TuiGamesApp
from tui.app.screens.dialogs import ResultDialog
from tui.app.session import GameSetup

from app_pilot import wait_for

SIZES = [(80, 24), (120, 40)]
#: Moves to a game in progress, and to an ending, per game.
MIDDLE = {
    "chess": ("e4", "e5", "Nf3", "Nc6", "Bb5", "a6"),
    "checkers": ("11-15", "23-19", "8-11", "22-17", "9-13"),
    "quixo": ("0 0 bottom", "4 4 top", "2 0 bottom", "0 4 right"),
    "othello": ("f5", "d6", "c3", "d3", "c4"),
}
#: A start and the moves that end the game from it, per game.
ENDED = {
    "chess": (None, ("f3", "e5", "g4", "Qh4#")),
    "checkers": ("W:W18:B14", ("18x9",)),
    "quixo": ("XXXX./...../...../...../OOOO. X", ("4 4 top",)),
    "othello": ("BBBBBB../WBBBBBBB/BWBBBWBW/BBWBBBW./BBWWBWWW/BWBWBWWW/BBBBBWWW/B.BBBBBB B",
                ("h4", "g1", "h1", "b8")),
}


def app_for(game: str, moves: tuple[str, ...] = (), position: str | None = None) -> TuiGamesApp:
    setup = GameSetup.checked(game, "human", "human", position)
    setup = GameSetup(setup.game, setup.players, setup.position, moves=moves)
    app = TuiGamesApp(setup)
    app.animation_level = "none"
    return app


async def steady(pilot) -> None:
    for box in pilot.app.query(Input):
        box.cursor_blink = False
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("game", ["chess", "checkers", "quixo", "othello"])
def test_start_screen(snap_compare, game: str, size: tuple[int, int]) -> None:
    app = TuiGamesApp()
    app.animation_level = "none"

    async def choose(pilot) -> None:
        from textual.widgets import Select

        pilot.app.screen.query_one("#game", Select).value = game
        await steady(pilot)

    assert snap_compare(app, terminal_size=size, run_before=choose)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("game", ["chess", "checkers", "quixo", "othello"])
def test_game_in_progress(snap_compare, game: str, size: tuple[int, int]) -> None:
    assert snap_compare(app_for(game, MIDDLE[game]), terminal_size=size, run_before=steady)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("game", ["chess", "checkers", "quixo", "othello"])
def test_review(snap_compare, game: str, size: tuple[int, int]) -> None:
    async def review(pilot) -> None:
        await steady(pilot)
        await pilot.press("up", "left")

    assert snap_compare(app_for(game, MIDDLE[game]), terminal_size=size, run_before=review)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("game", ["chess", "checkers", "quixo", "othello"])
def test_result_dialog(snap_compare, game: str, size: tuple[int, int]) -> None:
    position, moves = ENDED[game]
    app = app_for(game, moves, position)

    async def ended(pilot) -> None:
        await steady(pilot)
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ResultDialog), "the result dialog")
        pilot.app.screen.opened_at = 0.0
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=ended)


#: Positions with material off balance, and the eval an engine would have given (first player's view).
BOARD_SIDE = {
    "chess": (("e4", "d5", "exd5", "Nf6", "d4", "c6"), 135, None),
    "checkers": (("11-15", "24-19", "15x24"), -90, None),
    "othello": (("f5", "d6", "c3"), 0, 3),
}


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("game", sorted(BOARD_SIDE))
def test_board_side(snap_compare, game: str, size: tuple[int, int]) -> None:
    """The material beside the board and the eval bar (its number in the material line)."""
    moves, score, mate = BOARD_SIDE[game]

    async def evaluated(pilot) -> None:
        await steady(pilot)
        pilot.app.screen.engines.show_eval(score, mate)
        await pilot.pause()

    assert snap_compare(app_for(game, moves), terminal_size=size, run_before=evaluated)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_lab_screen(snap_compare, size: tuple[int, int]) -> None:
    app = TuiGamesApp(lab=True)
    app.animation_level = "none"
    assert snap_compare(app, terminal_size=size, run_before=steady)
