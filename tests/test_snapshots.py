"""Snapshots (pytest-textual-snapshot) of every game's screens at 80x24 and 120x40:
the start screen (plain and Advanced), a game in progress, a review, the result dialog, the board's side
(material, the eval bar); and the lab screen.

Human players only, so nothing depends on a search's timing.  After a
deliberate change of the look, ``pytest tests/test_snapshots.py
--snapshot-update`` rewrites them (look at the report first).
"""

from __future__ import annotations

import pytest
from textual.widgets import Input

from games import GAME_NAMES, game_kind, game_package
from tui.app.app import TuiGamesApp
from tui.app.screens.dialogs import ResultDialog
from tui.app.session import GameSetup

from app_pilot import wait_for

SIZES = [(80, 24), (120, 40)]
#: The games drawn: ours (a plug-in installed beside the project has no stored snapshots: they are
#: optional) whose samples give the screens' moves (:attr:`games.samples.Samples.middle`, ``ended``
#: and ``off_balance``), so a game added with its samples gets its snapshots.
SHOWN = [name for name in GAME_NAMES if game_kind(name).samples.middle and game_package(name).startswith("games.")]


def app_for(game: str, moves: tuple[str, ...] = (), position: str | None = None) -> TuiGamesApp:
    setup = GameSetup.checked(game, "human", "human", position)
    setup = GameSetup(setup.game, setup.players, setup.position, moves=moves)
    app = TuiGamesApp(setup)
    app.animation_level = "none"
    return app


async def steady(pilot) -> None:
    """Stop the move boxes' cursors blinking, once the first screen has them: on a loaded machine
    the screen may not be composed when this runs, and a blinking cursor is drawn or not by chance."""
    def boxes() -> list[Input]:
        return [box for screen in pilot.app.screen_stack for box in screen.query(Input)]

    for _ in range(200):
        if boxes():
            break
        await pilot.pause()
    for box in boxes():
        box.cursor_blink = False
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("game", SHOWN)
def test_start_screen(snap_compare, game: str, size: tuple[int, int]) -> None:
    app = TuiGamesApp()
    app.animation_level = "none"

    async def choose(pilot) -> None:
        from textual.widgets import Select

        pilot.app.screen.query_one("#game", Select).value = game
        await steady(pilot)

    assert snap_compare(app, terminal_size=size, run_before=choose)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_start_screen_advanced(snap_compare, size: tuple[int, int]) -> None:
    """The Advanced part open: each side's engine and its words, the position, clock and analysis."""
    app = TuiGamesApp()
    app.animation_level = "none"

    async def advanced(pilot) -> None:
        from textual.widgets import Checkbox

        pilot.app.screen.query_one("#advanced", Checkbox).value = True
        await wait_for(pilot, lambda: bool(pilot.app.screen.query_one("#start-form").display), "the Advanced part")
        await steady(pilot)

    assert snap_compare(app, terminal_size=size, run_before=advanced)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("game", SHOWN)
def test_game_in_progress(snap_compare, game: str, size: tuple[int, int]) -> None:
    assert snap_compare(app_for(game, game_kind(game).samples.middle), terminal_size=size, run_before=steady)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("game", SHOWN)
def test_review(snap_compare, game: str, size: tuple[int, int]) -> None:
    async def review(pilot) -> None:
        await steady(pilot)
        await pilot.press("up", "left")

    assert snap_compare(app_for(game, game_kind(game).samples.middle), terminal_size=size, run_before=review)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("game", [name for name in SHOWN if game_kind(name).samples.ended])
def test_result_dialog(snap_compare, game: str, size: tuple[int, int]) -> None:
    position, moves = game_kind(game).samples.ended
    app = app_for(game, moves, position)

    async def ended(pilot) -> None:
        await steady(pilot)
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ResultDialog), "the result dialog")
        pilot.app.screen.opened_at = 0.0
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=ended)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("game", [name for name in SHOWN if game_kind(name).samples.off_balance])
def test_board_side(snap_compare, game: str, size: tuple[int, int]) -> None:
    """The material beside the board and the eval bar (its number in the material line), where a
    game's samples give moves to material off balance."""
    moves, score, mate = game_kind(game).samples.off_balance

    async def evaluated(pilot) -> None:
        await steady(pilot)
        pilot.app.screen.engines.show_eval(score, mate)
        await pilot.pause()

    assert snap_compare(app_for(game, moves), terminal_size=size, run_before=evaluated)


@pytest.mark.parametrize("game", SHOWN)
def test_eval_in_units(snap_compare, game: str) -> None:
    """The score in the game's unit in the engine panel, its trend and the line beside the eval bar:
    an engine's figures given to its panel (the engine is not to move, so nothing searches)."""
    kind = game_kind(game)
    moves = kind.samples.line  # pieces of both sides moved
    engine = 1 - len(moves) % 2  # the side that has just moved
    players = ("pvs:depth=1", "human") if engine == 0 else ("human", "pvs:depth=1")
    setup = GameSetup.checked(game, *players)
    app = TuiGamesApp(GameSetup(setup.game, setup.players, setup.position, moves=moves))
    app.animation_level = "none"
    first = kind.scores.win_scale / 2  # the first player's view: better by about 62%
    own = first if engine == 0 else -first

    async def evaluated(pilot) -> None:
        from engines import SearchStats

        await steady(pilot)
        screen = pilot.app.screen
        panel = screen.panel(engine)
        panel.show_stats(SearchStats(nodes=48213, evals=30117, prunes=9120, tt_hits=4210, depth=7, time_s=0.8,
                                     nps=60266, score=round(own), best=moves[-1], pv=list(moves[-1:]),
                                     first_cutoffs=8000), mover=engine)
        panel.record_score(own / 3, None, len(moves) - 1)
        panel.record_score(own, None, len(moves) - 1)
        screen.engines.show_eval(first, None)
        screen.set_focus(None)  # no cursor, which may be caught half-way through its blink
        await wait_for(pilot, lambda: screen.focused is None, "no focus")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(120, 40), run_before=evaluated)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_lab_screen(snap_compare, size: tuple[int, int]) -> None:
    app = TuiGamesApp(lab=True)
    app.animation_level = "none"
    assert snap_compare(app, terminal_size=size, run_before=steady)


async def _lesson_shown(pilot) -> None:
    from tui.app.screens.learn import LearnScreen

    await wait_for(pilot, lambda: isinstance(pilot.app.screen, LearnScreen) and pilot.app.screen.setup is not None,
                   "the course's first lesson")
    await steady(pilot)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_learn_lesson(snap_compare, size: tuple[int, int]) -> None:
    app = TuiGamesApp(learn=True)
    app.animation_level = "none"
    assert snap_compare(app, terminal_size=size, run_before=_lesson_shown)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_learn_exercise(snap_compare, size: tuple[int, int]) -> None:
    app = TuiGamesApp(learn=True)
    app.animation_level = "none"

    async def asked(pilot) -> None:
        await _lesson_shown(pilot)
        screen = pilot.app.screen
        screen.seed = 0  # a known position for the exercise
        await pilot.press("g")
        await wait_for(pilot, lambda: screen.exercise is not None, "an exercise")
        await steady(pilot)

    assert snap_compare(app, terminal_size=size, run_before=asked)
