"""The lab screen: run an experiment or a tournament and watch it fill in.

Pick a shipped experiment (its claims are listed) or type an experiment
file's path, or lay out a tournament
(engines separated by ``;``), then Run: the games are played in worker
processes (a thread of this screen waits for them), each finished game is
kept in the results folder or file at once, and the progress bar, the table
(or crosstable) and the chart (ctrl+j: score, time, nodes) follow.  Stop kills the workers (the games at
hand are lost; every finished one is kept); Run again resumes from the
files.  A finished game can be opened for review by its number.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Group
from rich.markup import escape
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import (
    Button, Checkbox, Footer, Input, Label, ProgressBar, Select, Static, TabbedContent, TabPane,
)
from textual.worker import get_current_worker

from games import GAME_NAMES

from ...served import OutsideError, confined
from ..keymap import screen_bindings
from ..messages import OpenStart, ReviewGame

__all__ = ["LabScreen"]


def _start_trackers() -> None:
    """Start the resource trackers of multiprocessing and loky now, with
    ``/dev/null`` as their stderr.  Each starts once per process, handing its
    process ``sys.stderr``'s descriptor; inside the app ``sys.stderr`` is
    Textual's capture, which has none, and the workers could not start."""
    import os
    import sys
    from multiprocessing import resource_tracker

    from joblib.externals.loky.backend import resource_tracker as loky_tracker

    saved = sys.stderr
    with open(os.devnull, "w") as devnull:
        sys.stderr = devnull
        try:
            resource_tracker.ensure_running()
            loky_tracker.ensure_running()
        finally:
            sys.stderr = saved


class LabScreen(Screen):
    """Experiments and tournaments, run and watched (see the module doc)."""

    CSS_PATH = "lab.tcss"
    BINDINGS = screen_bindings("LabScreen", pause="run_or_stop", chart="next_chart")

    def __init__(self) -> None:
        super().__init__()
        self.running = False
        #: The current or last run: its games and files; with its experiment's
        #: folder or its tournament (the other is ``None``).
        self.run: Any = None
        self.folder: Any = None
        self.tournament: Any = None
        self.kind = "experiment"
        #: The chart shown: the score, or the time or nodes per move.
        self.chart = "chart-score"

    # ------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        from engines.lab import shipped

        names = list(shipped())
        with Horizontal(id="lab"):
            with Vertical(id="lab-form"):
                # Run and Stop first: always on screen, whatever the terminal's height.
                with Horizontal(id="lab-buttons"):
                    yield Button("Run", id="run", variant="primary", compact=True)
                    yield Button("Stop", id="stop", compact=True, disabled=True)
                yield Static("", id="lab-message", markup=False)
                with VerticalScroll(id="lab-fields"):
                    with TabbedContent(id="lab-tabs"):
                        with TabPane("Experiment", id="tab-experiment"):
                            yield Select([(name, name) for name in names], value=names[0],
                                         allow_blank=False, id="experiment", compact=True)
                            yield Input("", id="experiment-file", placeholder="or an experiment FILE.toml",
                                        compact=True)
                            yield Static("", id="experiment-about")
                            yield Label("games per arm (empty: the experiment's)")
                            yield Input("", id="experiment-games", placeholder="e.g. 4", compact=True)
                            yield Label("results folder")
                            yield Input("", id="experiment-out", compact=True)
                        with TabPane("Tournament", id="tab-tournament"):
                            yield Select([(name.capitalize(), name) for name in GAME_NAMES],
                                         value=GAME_NAMES[0], allow_blank=False, id="tournament-game",
                                         compact=True)
                            yield Label("engines, separated by ';'")
                            yield Input("random; alphabeta:depth=1; alphabeta:depth=2",
                                        id="tournament-engines", compact=True)
                            yield Label("games per pairing")
                            yield Input("4", id="tournament-games", compact=True)
                            yield Checkbox("gauntlet (first vs the rest)", id="gauntlet",
                                           compact=True)
                            yield Label("results file")
                            yield Input("lab/tournament.jsonl", id="tournament-out", compact=True)
                    yield Label("worker processes")
                    yield Input("1", id="jobs", compact=True)
                    with Horizontal(id="review-row"):
                        yield Input("", id="review-number", placeholder="game no.", compact=True)
                        yield Button("Review", id="review", compact=True)
            with Vertical(id="lab-output"):
                yield ProgressBar(total=1, id="lab-progress", show_eta=True)  # total 1: no animation while idle
                with VerticalScroll(id="lab-results"):
                    yield Static("", id="lab-table")
                    yield Static("", id="lab-chart", markup=False)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.title = "tui-games"
        self.sub_title = "lab"
        self._describe_experiment()

    # ------------------------------------------------------------ the form
    def _experiment(self) -> Any:
        """The experiment picked: the file typed, else the shipped one selected
        (an :class:`~engines.lab.ExperimentError` for a bad file)."""
        from engines.lab import ExperimentError, load_experiment

        path = self.query_one("#experiment-file", Input).value.strip()
        if path:
            try:
                path = str(confined(path))  # a served app: only inside its folder
            except OutsideError as error:
                raise ExperimentError(str(error)) from None
        return load_experiment(path or str(self.query_one("#experiment", Select).value))

    def _describe_experiment(self) -> None:
        from engines.lab import ExperimentError

        about = self.query_one("#experiment-about", Static)
        try:
            experiment = self._experiment()
        except ExperimentError as error:
            about.update(f"[red]{escape(str(error))}[/red]")
            return
        claims = "\n".join(f"• {escape(claim.text)}" for claim in experiment.claims)
        about.update(f"[b]{escape(experiment.title)}[/b]\n{escape(experiment.source)}, {len(experiment.arms)} "
                     f"arms × {experiment.games} games\n[dim]{claims}[/dim]")
        self.query_one("#experiment-out", Input).value = f"lab/{experiment.name}"

    @on(Input.Changed, "#experiment-file")
    @on(Select.Changed, "#experiment")
    def _experiment_changed(self) -> None:
        self._describe_experiment()

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self.kind = "tournament" if event.pane.id == "tab-tournament" else "experiment"

    @on(Button.Pressed, "#run")
    def _run_pressed(self) -> None:
        self.action_run()

    @on(Button.Pressed, "#stop")
    def _stop_pressed(self) -> None:
        self.action_stop()

    @on(Button.Pressed, "#review")
    def _review_pressed(self) -> None:
        self.action_review()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "review-number":
            self.action_review()
        else:
            self.action_run()

    def _say(self, text: str, error: bool = False) -> None:
        found = self.query("#lab-message")
        if not found:  # the screen is going (quit during a run): nobody to tell
            return
        message = found.first(Static)
        message.update(text)
        message.set_class(error, "-error")

    def _whole(self, widget_id: str, default: int | None, what: str) -> int | None:
        text = self.query_one(widget_id, Input).value.strip()
        if not text:
            return default
        if not text.isdigit() or int(text) < 1:
            raise ValueError(f"{what} must be a whole number of 1 or more, not {text!r}")
        return int(text)

    # ------------------------------------------------------------ running
    def action_run(self) -> None:
        """Start the run (or resume it from its files)."""
        if self.running:
            self._say("a run is going on; stop it first")
            return
        from engines import SpecError
        from engines.tournament import MatchError

        try:
            jobs = self._whole("#jobs", 1, "worker processes") or 1
            planned_text = self._open()
        except (ValueError, SpecError, MatchError, OSError) as error:
            self._say(self._error_text(error), error=True)
            return
        _start_trackers()
        run = self.run
        self.running = True
        self.query_one("#stop", Button).disabled = False
        self.query_one("#run", Button).disabled = True
        self.query_one("#lab-progress", ProgressBar).update(total=run.planned, progress=len(run.results))
        self._say(f"{planned_text}: {len(run.results)} of {run.planned} games already played")
        self._refresh()
        self._play(run, jobs)

    def _error_text(self, error: Exception) -> str:
        """An error's line; for a refused run, followed by what to do in this screen's words."""
        from engines.remedy import Remedy

        remedy = getattr(error, "remedy", None)
        if not isinstance(remedy, Remedy):
            return str(error)
        out = "results folder" if self.kind == "experiment" else "results file"
        words = {
            Remedy.RESUME: f"Run resumes it, or choose another {out}",
            Remedy.OTHER_OUTPUT: f"choose another {out}",
            Remedy.WAIT: f"wait until it ends (then Run resumes it) or choose another {out}",
            Remedy.GAMES: f"set the games per arm to {getattr(error, 'games', None)}, or choose another {out}",
            Remedy.SEPARATE_FILES: "give the results file a .jsonl name",
            Remedy.FEWER_OPENING_PLIES: "give the experiment fewer opening plies",
            Remedy.INCLUDE_LOST: "set book_include_lost = true in the experiment, or give it another book",
        }
        return f"{error}; {words[remedy]}"

    def _open(self) -> str:
        """Open the run to play (an experiment's folder or a tournament's files)
        and say what it is."""
        if self.kind == "experiment":
            from engines.lab.folder import LabFolder

            experiment = self._experiment()
            games = self._whole("#experiment-games", None, "games per arm")
            out = self.query_one("#experiment-out", Input).value.strip() or f"lab/{experiment.name}"
            out = str(confined(out))  # a served app: only inside its folder (OutsideError: one line)
            self.folder, _notes = LabFolder.open(experiment, Path(out), games=games, resume=True)
            self.run, self.tournament = self.folder.run, None
            return f"{experiment.name} in {out}"
        from engines.tournament.crosstable import Tournament
        from engines.tournament.run import Run

        game = str(self.query_one("#tournament-game", Select).value)
        engines = [spec.strip() for spec in self.query_one("#tournament-engines", Input).value.split(";")
                   if spec.strip()]
        games = self._whole("#tournament-games", 4, "games per pairing") or 4
        tournament = Tournament.create(game, engines, games, gauntlet=self.query_one("#gauntlet", Checkbox).value)
        out = self.query_one("#tournament-out", Input).value.strip() or None
        if out:
            out = str(confined(out))  # a served app: only inside its folder (OutsideError: one line)
            Path(out).expanduser().parent.mkdir(parents=True, exist_ok=True)
        self.run, _notes = Run.open(tournament.configs, out, resume=True, event="tui-games tournament")
        self.folder, self.tournament = None, tournament
        return f"{game} tournament of {len(engines)} engines"

    @work(thread=True, exclusive=True, group="lab")
    def _play(self, run: Any, jobs: int) -> None:
        from engines.tournament.match import play_tasks

        worker = get_current_worker()
        error = ""
        try:
            for result in play_tasks(run.missing(), jobs=jobs, workers_only=True):
                if worker.is_cancelled:
                    break
                run.add(result)
                self.app.call_from_thread(self._game_finished)
        except Exception as exc:  # the workers were killed (Stop) or a game failed: say so, keep what is done
            error = "" if not self.running else f"{type(exc).__name__}: {' '.join(str(exc).split())[:120]}"
        finally:
            run.close()
        self.app.call_from_thread(self._run_ended, error)

    def _game_finished(self) -> None:
        self.query_one("#lab-progress", ProgressBar).advance(1)
        self._refresh()

    def _run_ended(self, error: str) -> None:
        run = self.run
        stopped = not self.running
        self.running = False
        self.query_one("#stop", Button).disabled = True
        self.query_one("#run", Button).disabled = False
        self._refresh(final=True)
        done = f"{len(run.results)} of {run.planned} games"
        if error:
            self._say(f"the run failed after {done}: {error}", error=True)
        elif stopped or len(run.results) < run.planned:
            self._say(f"stopped after {done}; Run resumes")
        else:
            self._say(f"finished: {done}" + (f"; results in {self.folder.path}" if self.folder else ""))

    def action_run_or_stop(self) -> None:
        """The keymap's pause key: stop the run going on, or run (resume) when none is."""
        if self.running:
            self.action_stop()
        else:
            self.action_run()

    def action_stop(self) -> None:
        """Stop the run: its worker processes are killed; finished games are kept."""
        if not self.running:
            return
        from engines.tournament.match import stop_workers

        self.running = False
        stop_workers()
        self._say("stopping ...")

    def on_unmount(self) -> None:
        if self.running:
            self.action_stop()

    def action_back(self) -> None:
        if self.running:
            self._say("a run is going on; stop it first (ctrl+b)")
            return
        self.post_message(OpenStart())

    # ------------------------------------------------------------ output
    def _refresh(self, final: bool = False) -> None:
        if self.run is None:
            return
        table = self.query_one("#lab-table", Static)
        chart = self.query_one("#lab-chart", Static)
        folder = self.folder
        if folder is not None:
            from ...views.lab_report import ExperimentReport, arm_table, claims_table, cost_table, write_outputs

            report = ExperimentReport(folder.experiment, self.run.results, folder.games, self.run.configs)
            table.update(Group(arm_table(report), cost_table(report), claims_table(report)))
            width = max(40, self.query_one("#lab-results").size.width - 4)
            chart.update(report.charts(width=width)[self.chart])
            if final:
                write_outputs(report, folder.path)
        else:
            from ...views.tournament import crosstable

            table.update(crosstable(self.tournament.standings(self.run.results)))
            chart.update("")

    def action_next_chart(self) -> None:
        """Show the next chart: score, then time per move, then nodes per move."""
        order = ["chart-score", "chart-time", "chart-nodes"]
        self.chart = order[(order.index(self.chart) + 1) % len(order)]
        self._refresh()

    def action_review(self) -> None:
        """Open finished game N of the run in the game screen."""
        if self.running:
            self._say("a run is going on; stop it first")
            return
        run = self.run
        if run is None or run.records_file is None:
            self._say("run or resume something first: its games are then numbered 1, 2, ...")
            return
        from games.reading import load_record_file
        from games.records import RecordError

        from ..session import GameSetup

        try:
            number = self._whole("#review-number", 1, "the game number") or 1
            loaded, _count = load_record_file(run.records_file.path, run.configs[0].game, number)
        except (ValueError, RecordError) as error:
            self._say(str(error), error=True)
            return
        setup = GameSetup.checked(run.configs[0].game, "human", "human").with_record(loaded, str(run.records_file.path))
        self.post_message(ReviewGame(setup))
