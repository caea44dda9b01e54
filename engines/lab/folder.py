"""An experiment's results folder.

``experiment.toml``
    the experiment as run (a copy of its file; ``--resume`` refuses a folder
    holding another experiment);
``games.jsonl``
    every game, one JSON line each (the format of ``tui-games match``);
``games.pgn`` / ``games.pdn`` / ``games.txt``
    every game as a game record, loadable in the app;
``summary.txt``, ``summary.json``, ``chart-*.txt`` (and ``chart-*.png``/``.svg``)
    the tables, claims and charts, rebuilt from ``games.jsonl`` at the end of
    each run (they are derived: nothing else in the folder is ever rewritten).
"""

from __future__ import annotations

from pathlib import Path

from games import GAME_NAMES, game_kind
from games.files import parse_json, read_head, read_text

from ..remedy import Remedy
from ..tournament.result import GameResult
from ..tournament.run import Run
from .experiment import MAX_BYTES, Experiment, ExperimentError

__all__ = ["LabFolder", "EXPERIMENT_FILE", "RESULTS_FILE"]

EXPERIMENT_FILE = "experiment.toml"
RESULTS_FILE = "games.jsonl"


class LabFolder:
    """A run of an experiment in its folder: the experiment, the games so far."""

    def __init__(self, experiment: Experiment, path: Path, run: Run, games: int | None) -> None:
        self.experiment = experiment
        self.path = path
        self.run = run
        self.games = games

    @classmethod
    def open(cls, experiment: Experiment, path: str | Path, *, games: int | None = None,
             resume: bool = False) -> tuple[LabFolder, list[str]]:
        """The folder at ``path`` for ``experiment`` (``games`` per arm
        overrides the file's).  Without ``resume`` the folder must be new or
        empty; with it, a folder of the same experiment is continued."""
        path = Path(path).expanduser()
        configs = experiment.configs(games)
        if path.exists() and not path.is_dir():
            raise ExperimentError(f"{path}: not a folder; results go to a folder of their own")
        if path.is_dir() and _unplayed(path):  # a run that failed before its first game: start afresh
            (path / EXPERIMENT_FILE).unlink(missing_ok=True)
        elif path.is_dir() and any(path.iterdir()) and not resume:
            raise ExperimentError(f"{path}: already holds a run", remedy=Remedy.RESUME)
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ExperimentError(f"{path}: cannot make it ({error.strerror or error})") from None
        copy = path / EXPERIMENT_FILE
        if copy.exists():
            try:
                held = read_text(copy, "an experiment file", MAX_BYTES, ExperimentError)
            except ExperimentError:
                held = None
            if held != experiment.text:
                raise ExperimentError(f"{path}: holds a run of another experiment (its {EXPERIMENT_FILE} "
                                      f"differs)", remedy=Remedy.OTHER_OUTPUT)
        else:
            try:
                with open(copy, "x", encoding="utf-8") as handle:
                    handle.write(experiment.text)
            except OSError as error:
                raise ExperimentError(f"{copy}: cannot write it ({error.strerror or error})") from None
        played = _games_per_arm(path / RESULTS_FILE)
        if played is not None and played != configs[0].games:
            raise ExperimentError(f"{path}: its run plays {played} games an arm, not {configs[0].games}",
                                  remedy=Remedy.GAMES, games=played)
        run, notes = Run.open(configs, path / RESULTS_FILE, resume=True,
                              event=f"tui-games experiment {experiment.name}")
        return cls(experiment, path, run, games), notes


def _games_per_arm(results: Path) -> int | None:
    """The games per arm of the run in a results file (its first game's), if any."""
    try:
        if not results.is_file():  # absent, or not a file (a FIFO would block): Run.open says
            return None
        first = read_head(results, 1 << 20).split(b"\n", 1)[0].decode("utf-8")
        return GameResult.from_json(parse_json(first, f"{results}:1", ValueError), f"{results}:1").match.games
    except (OSError, ValueError, RecursionError):  # ResultsFileError and JSON errors are ValueErrors
        return None  # no file, or a bad one: Run.open says what is wrong with it


def _unplayed(path: Path) -> bool:
    """Whether the folder ``path`` holds a run that ended before its first
    game (it failed at its start): only the files a run makes, its results
    and records empty.  A new run takes it over, even of an edited experiment."""
    made = {EXPERIMENT_FILE, RESULTS_FILE} | {f"games.{game_kind(name).records.extension}" for name in GAME_NAMES}
    try:
        files = list(path.iterdir())
        return (any(file.name == EXPERIMENT_FILE for file in files)
                and all(file.name in made and file.is_file() and not file.is_symlink()
                        and (file.name == EXPERIMENT_FILE or file.stat().st_size == 0) for file in files))
    except OSError:
        return False
