"""The app's lab screen: run an experiment or a tournament, stop and resume it, review its games."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import Checkbox, Input, Select, Static, TabbedContent

from app_pilot import wait_for
from tui.app.app import TuiGamesApp
from tui.app.screens.game import GameScreen
from tui.app.screens.lab import LabScreen

TIMEOUT = 120.0


def lab_app() -> TuiGamesApp:
    app = TuiGamesApp(lab=True)
    app.animation_level = "none"
    return app


def _text(app: TuiGamesApp, selector: str) -> str:
    static = app.screen.query_one(selector, Static)
    return str(static.render())


async def _ready(pilot) -> LabScreen:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, LabScreen), "the lab screen")
    for box in pilot.app.query(Input):
        box.cursor_blink = False
    return pilot.app.screen


async def _set(pilot, selector: str, value: str) -> None:
    pilot.app.screen.query_one(selector, Input).value = value
    await pilot.pause()


async def _shown(pilot, selector: str, words: str) -> None:
    """Wait until ``selector`` shows ``words``: the screen answers a change in its
    handler of the Changed message, after the change (one pause is not always enough)."""
    await wait_for(pilot, lambda: words in _text(pilot.app, selector), f"{words!r} in {selector}")


async def test_an_experiment_runs_stops_resumes_and_opens_a_game(tmp_path: Path) -> None:
    out = tmp_path / "quixo"
    async with lab_app().run_test(size=(120, 40)) as pilot:
        screen = await _ready(pilot)
        screen.query_one("#experiment", Select).value = "seed004-quixo"
        await _shown(pilot, "#experiment-about", "Quixo minimax")
        await _set(pilot, "#experiment-games", "3")
        await _set(pilot, "#experiment-out", str(out))
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: screen.running, "the run to start")
        await wait_for(pilot, lambda: len(screen.run.results) >= 1, "a first game", TIMEOUT)
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: not screen.query_one("#run").disabled, "the run to stop", TIMEOUT)
        kept = len((out / "games.jsonl").read_text().splitlines())
        assert 1 <= kept <= 12
        if kept < 12:
            assert "stopped after" in _text(pilot.app, "#lab-message")
        # Run again: it resumes, and plays only the games still missing.
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: "finished: 12 of 12" in _text(pilot.app, "#lab-message"), "the end",
                       TIMEOUT)
        records = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
        assert len(records) == 12
        assert len({(r["match"]["a"], r["index"]) for r in records}) == 12
        summary = json.loads((out / "summary.json").read_text())
        assert [arm["games"] for arm in summary["arms"]] == [3, 3, 3, 3]
        assert (out / "chart-score.txt").exists()
        assert "depth 4" in _text(pilot.app, "#lab-table") or screen.query_one("#lab-table").render()
        # A game number the run does not have is one line; game 2 opens in the game screen.
        await _set(pilot, "#review-number", "99")
        await pilot.click("#review")
        assert "there is no game 99" in _text(pilot.app, "#lab-message")
        await _set(pilot, "#review-number", "2")
        screen.query_one("#review-number", Input).focus()
        await pilot.press("enter")  # Enter in the number box reviews too
        await wait_for(pilot, lambda: any(isinstance(s, GameScreen) for s in pilot.app.screen_stack),
                       "the reviewed game")
        # ... over the lab: New goes back to it, as it was
        reviewed = next(s for s in pilot.app.screen_stack if isinstance(s, GameScreen))
        while pilot.app.screen is not reviewed:  # a finished game opens on its result
            pilot.app.pop_screen()
            await pilot.pause()
        reviewed.commands.new_game()
        await wait_for(pilot, lambda: pilot.app.screen is screen, "the lab again")
        assert "there is no game 99" in _text(pilot.app, "#lab-message")  # as it was left


async def test_a_tournament_runs_and_bad_input_is_one_line(tmp_path: Path) -> None:
    async with lab_app().run_test(size=(120, 40)) as pilot:
        screen = await _ready(pilot)
        screen.query_one("#lab-tabs", TabbedContent).active = "tab-tournament"
        screen.query_one("#tournament-game", Select).value = "quixo"
        await pilot.pause()
        await _set(pilot, "#tournament-engines", "random; alphabeta:depth=1; nonsense")
        await _set(pilot, "#tournament-out", str(tmp_path / "t.jsonl"))
        await pilot.press("ctrl+b")
        assert "nonsense" in _text(pilot.app, "#lab-message") and not screen.running
        await _set(pilot, "#tournament-engines", "random; alphabeta:depth=1")
        await _set(pilot, "#jobs", "x")
        await pilot.press("ctrl+b")
        assert "worker processes must be a whole number" in _text(pilot.app, "#lab-message")
        await _set(pilot, "#jobs", "2")
        await _set(pilot, "#tournament-games", "2")
        screen.query_one("#gauntlet", Checkbox).value = True
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: "finished: 2 of 2" in _text(pilot.app, "#lab-message"), "the tournament",
                       TIMEOUT)
        assert len((tmp_path / "t.jsonl").read_text().splitlines()) == 2
        assert (tmp_path / "t.txt").exists()


async def test_an_experiment_file_runs_and_the_charts_cycle(tmp_path: Path) -> None:
    source = tmp_path / "tiny.toml"
    source.write_text('name = "tiny"\ngame = "quixo"\ngames = 2\nopenings = 0\nopponent = "random"\n'
                      'x = "depth"\n[sweep]\nengine = "alphabeta:depth={depth}"\nvalues = [1, 2]\n')
    async with lab_app().run_test(size=(120, 40)) as pilot:
        screen = await _ready(pilot)
        await _set(pilot, "#experiment-file", str(tmp_path / "missing.toml"))
        await _shown(pilot, "#experiment-about", "no such file")
        await _set(pilot, "#experiment-file", str(source))
        await _shown(pilot, "#experiment-about", "tiny")
        await _set(pilot, "#experiment-out", str(tmp_path / "out"))
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: "finished: 4 of 4" in _text(pilot.app, "#lab-message"), "the run",
                       TIMEOUT)
        assert "score %" in _text(pilot.app, "#lab-chart")
        await pilot.press("ctrl+j")
        assert "ms per move" in _text(pilot.app, "#lab-chart")
        await pilot.press("ctrl+j")
        assert "nodes per move" in _text(pilot.app, "#lab-chart")
        assert (tmp_path / "out" / "summary.json").exists()


async def test_a_refused_run_says_what_to_do_in_the_screens_words(tmp_path: Path) -> None:
    # The engines say what the user can do as data; the screen words it (the command line says --out).
    other = tmp_path / "other.jsonl"
    other.write_bytes((Path(__file__).parent / "data" / "results.jsonl").read_bytes())
    async with lab_app().run_test(size=(120, 40)) as pilot:
        screen = await _ready(pilot)
        screen.query_one("#lab-tabs", TabbedContent).active = "tab-tournament"
        screen.query_one("#tournament-game", Select).value = "quixo"
        await pilot.pause()
        await _set(pilot, "#tournament-out", str(other))
        await pilot.press("ctrl+b")
        message = _text(pilot.app, "#lab-message")
        assert "a game of another match" in message and "choose another results file" in message
        assert "--out" not in message and not screen.running
        await _set(pilot, "#tournament-out", str(tmp_path / "t.txt"))  # Quixo's records would go there too
        await pilot.press("ctrl+b")
        message = _text(pilot.app, "#lab-message")
        assert "would hold both" in message and "give the results file a .jsonl name" in message
        assert "--records" not in message


async def test_quitting_during_a_run_stops_it_and_ends_cleanly(tmp_path: Path) -> None:
    """ctrl+q while a tournament runs: the workers are stopped and the app ends
    without an error (it raised NoMatches for the message line of a screen going away)."""
    app = lab_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _ready(pilot)
        screen.query_one("#lab-tabs", TabbedContent).active = "tab-tournament"
        screen.query_one("#tournament-game", Select).value = "quixo"
        await pilot.pause()
        await _set(pilot, "#tournament-engines", "pvs:time=0.3; pvs:time=0.2")
        await _set(pilot, "#tournament-games", "8")
        await _set(pilot, "#tournament-out", str(tmp_path / "t.jsonl"))
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: screen.running, "the run to start")
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running, "the app to end")
    assert app.return_code in (0, None)


async def test_run_and_stop_stay_on_screen_in_a_small_terminal() -> None:
    # At 80x24 the Run button was below the form's fold.
    app = lab_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _ready(pilot)
        for button in ("#run", "#stop"):
            region = screen.query_one(button).region
            assert region.height and region.bottom <= 24 - 1, (button, region)  # above the footer


async def test_a_crosstable_keeps_its_width_in_a_narrow_pane_and_scrolls() -> None:
    # At 80x24 the crosstable was squeezed into the pane: one letter a line, numbers as "…".
    from engines.tournament.crosstable import Tournament
    from tui.views.tournament import crosstable

    app = lab_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _ready(pilot)
        table = crosstable(Tournament.create("quixo", ["random", "alphabeta:depth=1"], 2).standings([]))
        screen.query_one("#lab-table", Static).update(table)
        await pilot.pause()
        shown = screen.query_one("#lab-table", Static)
        pane = screen.query_one("#lab-results")
        assert shown.size.width > pane.size.width  # its own width: the pane scrolls sideways
        assert "alphabeta:depth=1" in "".join(strip.text for strip in shown.render_lines(shown.region.reset_offset))
