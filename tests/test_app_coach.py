"""The coach and the clock in the app (Pilot): hints, analysis, the report,
clocks, resign and draw offers."""

from __future__ import annotations

import random
import time
from dataclasses import replace
from pathlib import Path

import pytest
from textual.widgets import Input

from games import GAME_NAMES, game_kind
from games import Outcome, Termination, new_game
from games.reading import read_records
from tui.app.app import TuiGamesApp
from tui.app.screens.dialogs import ConfirmDialog, ResultDialog
from tui.app.screens.files import SaveDialog
from tui.app.screens.report import ReportDialog
from tui.app.session import GameSetup
from tui.app.widgets.clock_view import ClockView

from app_pilot import clock_ticks, game_screen, ready, type_move, wait_for
from test_app import process_gone

#: A hint or report must finish well within this (a hint thinks 1 s).
SLOW = 60.0


def coach_app(game: str, first: str = "human", second: str = "human", **options) -> TuiGamesApp:
    app = TuiGamesApp(GameSetup.checked(game, first, second, **options))
    app.animation_level = "none"
    return app


async def close_result(pilot, app: TuiGamesApp) -> None:
    await wait_for(pilot, lambda: isinstance(app.screen, ResultDialog), "the result dialog")
    app.screen.dismiss("review")  # not a key: the dialog's grace time does not apply
    await pilot.pause()


async def save_to(pilot, app: TuiGamesApp, path: Path) -> None:
    screen = game_screen(app)
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: isinstance(app.screen, SaveDialog), "the save dialog")
    app.screen.query_one(Input).value = str(path)
    await pilot.press("enter")
    await wait_for(pilot, lambda: app.screen is screen, "the save")


# -- hint ----------------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAME_NAMES)
async def test_a_hint_marks_a_move_and_does_not_play_it(game: str, tmp_path: Path) -> None:
    app = coach_app(game, "human", "random")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        key = screen.game.key()
        await pilot.press("ctrl+f")
        await wait_for(pilot, lambda: screen.coach.hints[0] == 1, "the hint", SLOW)
        assert screen.game.key() == key and screen.moves == []
        assert screen.board.selected is not None and len(screen.board.targets) == 1
        assert screen.message_text.startswith("hint: ") and "not played" in screen.message_text
        move = screen.coach.hint_move
        assert move in screen.game.legal_move_texts() and f"hint: {move} (" in screen.message_text
        await type_move(pilot, move)
        await wait_for(pilot, lambda: len(screen.moves) >= 2 or screen.outcome() is not None, "the reply")
        if isinstance(app.screen, ResultDialog):
            await close_result(pilot, app)
        await save_to(pilot, app, tmp_path / "hinted.rec")
    text = (tmp_path / "hinted.rec").read_text()
    assert "hints used" in text and "hint used" in text
    assert read_records(game, text)[0].moves[0] == move


async def test_hint_is_refused_when_it_is_not_your_move() -> None:
    # In the game itself a hint is for the player's turn (in review it is for the position shown:
    # tests/test_app_analysis.py); here the game is over.
    app = coach_app("chess", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        for move in ("f3", "e5", "g4", "Qh4"):
            await type_move(pilot, move)
        await close_result(pilot, app)
        await pilot.press("ctrl+f")
        assert "your turn" in screen.message_text and screen.coach.job is None


# -- analysis -------------------------------------------------------------------------------

async def test_analysis_follows_moves_undo_and_review_and_stops_on_quit() -> None:
    app = coach_app("chess", "human", "human", analysis="pvs")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        panel = screen.coach.panel
        assert panel is not None
        await wait_for(pilot, lambda: panel.stats is not None and panel.stats.depth >= 2, "the analysis")
        first = screen.coach.job
        assert first is not None and first.kind == "analysis" and first.moves == ()
        await type_move(pilot, "e4")
        await wait_for(pilot, lambda: screen.coach.job is not None and screen.coach.job.moves == ("e4",),
                       "the analysis of the new position")
        # one view whoever is to move: the first player's (it used to flip with the side to move)
        assert panel.score_label == "eval (White)" and panel.mover == 1
        assert panel.first_view(35, None) == (-35, None) and panel.first_view(0, 2) == (0, -2)
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: screen.coach.job is not None and screen.coach.job.moves == (),
                       "the analysis after undo")
        await type_move(pilot, "d4")
        await type_move(pilot, "d5")
        await pilot.press("up")                        # review: the position after 1. d4
        await wait_for(pilot, lambda: screen.review == 1 and screen.coach.job is not None
                       and screen.coach.job.moves == ("d4",), "the analysis of the reviewed position")
        await pilot.press("left")
        await wait_for(pilot, lambda: screen.coach.job is not None and screen.coach.job.moves == (),
                       "the analysis one step back")
        pid = app.search_service.pid
        assert pid is not None
        await pilot.press("ctrl+q")
    assert process_gone(pid)


async def test_analysis_waits_for_the_engine_it_plays_beside() -> None:
    app = coach_app("chess", "human", "pvs:depth=4", analysis="pvs")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await wait_for(pilot, lambda: screen.coach.job is not None, "the analysis")
        searched: list[bool] = []

        def alone() -> bool:
            # the engine's turn: the analysis stopped, the engine alone searches
            assert screen.engines.request is None or screen.coach.job is None, "analysis beside the engine"
            searched.append(screen.engines.request is not None)
            return len(screen.moves) == 2

        await type_move(pilot, "e4")
        await wait_for(pilot, alone, "the engine's reply")
        await wait_for(pilot, lambda: screen.coach.job is not None and len(screen.coach.job.moves) == 2,
                       "the analysis of the human's turn")


async def test_analysis_toggles_in_the_app_and_analyses_a_loaded_game_under_review() -> None:
    setup = GameSetup.checked("checkers", "human", "pvs:depth=2")
    app = TuiGamesApp(setup.__class__(**{**setup.__dict__, "moves": ("11-15", "23-19", "8-11"),
                                         "source": "test"}))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        assert screen.coach.panel is None
        await pilot.press("ctrl+e")
        await wait_for(pilot, lambda: screen.coach.panel is not None and screen.coach.job is not None,
                       "the analysis panel")
        await pilot.press("up", "left")
        await wait_for(pilot, lambda: screen.review == 1 and screen.coach.job is not None
                       and screen.coach.job.moves == ("11-15",), "the analysis of the reviewed position")
        panel = screen.coach.panel
        await wait_for(pilot, lambda: panel.stats is not None and panel.stats.nodes > 0, "live figures")
        screen.move_input.focus()
        await pilot.press("ctrl+e")
        await wait_for(pilot, lambda: screen.coach.panel is None, "analysis off")
        assert screen.coach.job is None


# -- report -----------------------------------------------------------------------------------

async def test_the_report_marks_a_planted_blunder_and_jumps_to_it(tmp_path: Path) -> None:
    app = coach_app("chess", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        for move in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]:
            await type_move(pilot, move)
        await wait_for(pilot, lambda: isinstance(app.screen, ResultDialog), "the result dialog")
        app.screen.query_one("#report").press()
        await wait_for(pilot, lambda: isinstance(app.screen, ReportDialog) and bool(app.screen.query("#report-moves")),
                       "the report, composed", SLOW)
        report = app.screen.report
        assert [move.move for move in report.moves if move.label == "blunder"] == ["Nf6"]
        assert "blunder" in app.screen.query_one("#report-moves").get_option_at_index(5).prompt
        chart = app.screen.query_one("#report-chart")
        await wait_for(pilot, lambda: chart.size.width > 20, "the chart's layout")
        assert "⁇" in str(chart.render())
        await pilot.press("enter")                     # the worst move is highlighted: go there
        await wait_for(pilot, lambda: app.screen is screen and screen.review == 6, "the blunder's position")
        await pilot.press("escape")
        await save_to(pilot, app, tmp_path / "reported.pgn")
    text = (tmp_path / "reported.pgn").read_text()
    assert "[%eval" in text and "blunder" in text
    assert read_records("chess", text)[0].moves[5] == "Nf6"


# -- clocks -------------------------------------------------------------------------------------

async def test_a_short_clock_flag_falls(tmp_path: Path) -> None:
    app = coach_app("quixo", "human", "human", clock="0.05+0")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        top, bottom = app.screen.query_one("#clock-top", ClockView), app.screen.query_one("#clock-bottom", ClockView)
        assert {top.side, bottom.side} == {0, 1}
        await type_move(pilot, "0 0 bottom")
        await type_move(pilot, "4 4 left")
        await type_move(pilot, "4 0 bottom")  # both sides have moved: O's clock runs
        await wait_for(pilot, lambda: screen.outcome() is not None, "the flag", 15)
        assert screen.outcome() == Outcome(0, "time")   # O ran out: X wins
        await close_result(pilot, app)
        assert "time" in str(app.screen.query_one("#status").render())
        await save_to(pilot, app, tmp_path / "flag.txt")
    loaded = read_records("quixo", (tmp_path / "flag.txt").read_text())[0]
    assert loaded.outcome == Outcome(0, "time") and loaded.tags["TimeControl"] == "3+0"


async def test_a_flag_against_a_bare_king_is_a_draw_in_chess() -> None:
    app = coach_app("chess", "human", "human", position="k7/8/8/8/8/8/8/KQ6 w - - 0 1", clock="0.02+0")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await type_move(pilot, "Qb2")
        await type_move(pilot, "Ka7")  # both sides have moved: White's clock runs
        await wait_for(pilot, lambda: screen.outcome() is not None, "White's flag", 15)
        outcome = screen.outcome()
        assert outcome == Outcome(None, Termination.TIME, "time, but Black cannot mate")
        assert outcome.text == "time, but Black cannot mate"


async def test_clocks_stop_for_dialogs_and_pause_and_go_back_on_undo(tmp_path: Path) -> None:
    app = coach_app("chess", "human", "human", clock="1+2")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        clock = screen.clocks.clock
        await clock_ticks(pilot, screen.clocks)
        assert clock.running is None and clock.left(0, 0) == 60.0  # no clock runs before the first moves
        await type_move(pilot, "e4")
        assert clock.history[1][0] > 60.0  # the increment came on
        await clock_ticks(pilot, screen.clocks)
        assert clock.running is None       # nor before Black's first move (as on lichess)
        await type_move(pilot, "e5")
        await wait_for(pilot, lambda: clock.running == 0, "White's clock")
        await type_move(pilot, "Nf3")
        await wait_for(pilot, lambda: clock.running == 1, "Black's clock")
        await pilot.press("ctrl+g")        # help: a dialog stops the clock
        await wait_for(pilot, lambda: clock.running is None, "the clock stopping behind a dialog")
        await pilot.press("escape")
        await wait_for(pilot, lambda: clock.running == 1, "the clock again")
        await pilot.press("ctrl+b")        # pause
        await wait_for(pilot, lambda: clock.running is None, "the paused clock")
        await pilot.press("ctrl+b")
        await type_move(pilot, "Nc6")
        await pilot.press("ctrl+z")
        assert len(clock.history) == 4 and screen.moves == ["e4", "e5", "Nf3"]
        await pilot.press("up")
        await wait_for(pilot, lambda: clock.running is None, "the clock stopped in review")
        view = app.screen.query_one("#clock-bottom", ClockView)
        assert view.seconds == 62.0 or view.side == 1  # after e4 e5: the increment, no time used yet
        await pilot.press("escape")
        await type_move(pilot, "Nc6")
        await save_to(pilot, app, tmp_path / "clocked.pgn")
    text = (tmp_path / "clocked.pgn").read_text()
    assert '[TimeControl "60+2"]' in text and text.count("[%clk") == 4


async def test_an_engine_budgets_from_its_clock() -> None:
    app = coach_app("checkers", "human", "pvs", clock="0.2+0")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        limits = screen.engines.clock_limits(1)
        assert limits is not None and limits.time is not None and 0.01 <= limits.time <= 12 / 30
        screen.controller.setup = replace(screen.controller.setup, players=("human", "pvs:time=0.05,depth=3"))
        capped = screen.engines.clock_limits(1)
        assert capped is not None and capped.time == 0.05 and capped.depth == 3
        await type_move(pilot, "11-15")
        await wait_for(pilot, lambda: len(screen.moves) == 2, "the engine's move")
        assert screen.clocks.clock.history[2][1] == 12.0  # its first move is not timed (as on lichess)
        await type_move(pilot, screen.game.format_move(screen.game.legal_moves()[0]))
        await wait_for(pilot, lambda: len(screen.moves) == 4, "the engine's second move")
        assert screen.clocks.clock.history[4][1] < 12.0


# -- resign and draw -----------------------------------------------------------------------------

async def test_resign_is_recorded_and_loads_back(tmp_path: Path) -> None:
    app = coach_app("checkers", "human", "random")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await type_move(pilot, "11-15")
        await wait_for(pilot, lambda: len(screen.moves) == 2, "the reply")
        await pilot.press("ctrl+x")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the resign question")
        app.screen.query_one("#resign").press()
        await close_result(pilot, app)
        assert screen.outcome() == Outcome(1, "resignation")
        await save_to(pilot, app, tmp_path / "resigned.pdn")
    path = tmp_path / "resigned.pdn"
    text = path.read_text()
    assert '[Result "0-1"]' in text and "resignation" in text
    reopened = TuiGamesApp(GameSetup("checkers", ("human", "human"), moves=read_records("checkers", text)[0].moves,
                                     source=str(path), outcome=read_records("checkers", text)[0].outcome))
    async with reopened.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        assert screen.outcome() == Outcome(1, "resignation")
        await wait_for(pilot, lambda: isinstance(reopened.screen, ResultDialog), "the result of the loaded game")


def quiet_quixo_game(plies: int) -> tuple[str, ...]:
    """``plies`` random Quixo moves that end nothing (a fixed seed, retried until one does)."""
    for seed in range(100):
        rng = random.Random(seed)
        game = new_game("quixo")
        moves = []
        while len(moves) < plies and game.outcome() is None:
            move = rng.choice(game.legal_moves())
            moves.append(game.format_move(move))
            game.play(move)
        if game.outcome() is None:
            return tuple(moves)
    raise AssertionError("no quiet game found")


async def test_an_engine_declines_an_early_draw_and_accepts_a_level_one() -> None:
    app = coach_app("quixo", "human", "random")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await pilot.press("ctrl+d")
        assert "declines the draw" in screen.message_text and "too early" in screen.message_text
        assert screen.outcome() is None
    moves = quiet_quixo_game(game_kind("quixo").scores.draw_min_plies)
    app = TuiGamesApp(replace(GameSetup.checked("quixo", "human", "random"), moves=moves, source="test"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await pilot.press("ctrl+d")                   # enough moves, but it has not searched yet
        assert "not judged" in screen.message_text and screen.outcome() is None
        await type_move(pilot, screen.game.legal_move_texts()[0])
        await pilot.press("ctrl+b")                   # the loaded game was paused
        await wait_for(pilot, lambda: len(screen.moves) == len(moves) + 2 or screen.outcome() is not None,
                       "the engine's reply")
        if screen.outcome() is not None:
            return  # the game ended on the board first: nothing to offer
        await pilot.press("ctrl+d")
        assert "accepts the draw" in screen.message_text
        await close_result(pilot, app)
        assert screen.outcome() == Outcome(None, "agreement")


async def test_humans_agree_a_draw_and_it_is_recorded(tmp_path: Path) -> None:
    app = coach_app("chess", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await type_move(pilot, "e4")
        await pilot.press("ctrl+d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the draw offer")
        app.screen.query_one("#accept").press()
        await close_result(pilot, app)
        assert screen.outcome() == Outcome(None, "agreement")
        await save_to(pilot, app, tmp_path / "drawn.pgn")
    loaded = read_records("chess", (tmp_path / "drawn.pgn").read_text())[0]
    assert loaded.outcome == Outcome(None, "agreement")


async def test_the_start_screen_sets_a_clock_and_the_analysis() -> None:
    from tui.app.screens.start import StartScreen

    app = TuiGamesApp(None)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        start = app.screen
        start.query_one("#spec-1", Input).value = "human"
        start.query_one("#clock", Input).value = "five"
        await pilot.pause()
        await pilot.click("#start-button")
        assert "bad clock 'five'" in str(start.query_one("#start-error").render())
        start.query_one("#clock", Input).value = "2+1"
        start.query_one("#analysis", Input).value = "pvs:depth=3"
        start.query_one("#analysis", Input).focus()
        await pilot.press("enter")                    # Enter in any box starts
        screen = await ready(pilot)
        assert screen.clocks.clock is not None and screen.clocks.clock.control.base == 120.0
        assert screen.coach.panel is not None and screen.coach.analysis_spec == "pvs:depth=3"
        await wait_for(pilot, lambda: screen.coach.panel.stats is not None, "the analysis")


async def test_the_delay_between_engines_moves_runs_no_clock() -> None:
    """Two engines on a clock with the spectating delay: the delay is for watching,
    so it comes off neither clock (a 6 s game was lost on time within 7 moves)."""
    app = coach_app("chess", "alphabeta:depth=1", "alphabeta:depth=1", clock="0.1+0")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        screen.engines.delay = 0.5
        clock = screen.clocks.clock
        await wait_for(pilot, lambda: len(screen.moves) >= 3 and screen.engines.delay_timer is not None,
                       "a delay between two engine moves")
        assert clock.running is None
        await wait_for(pilot, lambda: len(screen.moves) >= 8, "eight moves")
        assert min(clock.left(0, time.monotonic()), clock.left(1, time.monotonic())) > 5.0
        assert screen.outcome() is None


async def test_undo_says_how_many_moves_it_took_back() -> None:
    # Against an engine, undo takes back the engine's reply too and said "took back a move".
    app = coach_app("chess", "human", "alphabeta:depth=1")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await type_move(pilot, "e4")
        await wait_for(pilot, lambda: len(screen.moves) == 2, "the engine's reply")
        await wait_for(pilot, lambda: screen.controller.human_to_move, "the player's turn")
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: not screen.moves, "the take-back")
        assert screen.message_text.startswith("took back 2 moves"), screen.message_text


async def test_a_finished_game_read_from_a_file_does_not_offer_to_play_on() -> None:
    moves = ("f3", "e5", "g4", "Qh4#")
    setup = replace(GameSetup.checked("chess", "alphabeta:depth=1", "alphabeta:depth=1"), moves=moves, source="mate.pgn")
    app = TuiGamesApp(setup)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        assert screen.message_text.startswith("read 2 moves (4 plies) from mate.pgn")
        assert "play on" not in screen.message_text, screen.message_text
