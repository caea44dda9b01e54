"""The puzzle screen's timing: a reply or a search that answers a puzzle left meanwhile is dropped."""

from __future__ import annotations

from engines.puzzles import Puzzle
from tui.app.app import TuiGamesApp
from tui.app.screens.puzzles import PuzzleScreen

from app_pilot import wait_for

#: Two mates in 2, each set up by Black's rook move (1. Rd8+ Rxd8 2. Rxd8#).
LINES = [Puzzle(f"b-{n}", f"6k1/5ppp/8/Q7/8/{third}/2rR1PPP/3R2K1 b - - 0 1", "c2c8", ("d2d8", "c8d8", "d1d8"), 1600)
         for n, third in enumerate(("8", "P7"))]


async def test_a_reply_on_its_way_is_dropped_when_the_player_goes_on(monkeypatch) -> None:
    from tui.app.screens import puzzles as screen_module

    monkeypatch.setattr(screen_module, "REPLY_PAUSE", 60.0)  # the reply waits while the test looks
    app = TuiGamesApp(puzzles=("chess", LINES, "two lines", 1))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PuzzleScreen), "the puzzles")
        screen = app.screen
        first = screen.puzzle.id
        await wait_for(pilot, lambda: screen.entry.game is not None, "the puzzle's position")
        screen.entry.enter("Rd8+")
        await wait_for(pilot, lambda: screen.busy and screen.step == 1, "the move played")  # the reply waits
        screen.action_next()
        assert screen.puzzle.id != first and not screen.busy
        start = screen.position.to_text()
        serial = screen.serial
        screen.play_reply(serial - 1)  # the timer of the puzzle left, as it fires
        assert screen.position.to_text() == start and screen.step == 0
