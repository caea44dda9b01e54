"""A run's files: the results file (one JSON line per game) and the game records
beside it, for one match or the several of a tournament or an experiment.

:meth:`Run.open` checks both files before any game is played (nothing is
played whose results could not be kept); :meth:`Run.add` writes a finished
game to both; :meth:`Run.missing` lists the games still to play.  Without an
output path the games' results are only kept in memory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator, Sequence

from ..remedy import Remedy
from .config import MatchConfig, MatchError
from .gamefiles import GameRecordsFile, records_path
from .match import Task, missing_games
from .result import GameResult
from .results import ResultsFile

__all__ = ["Run"]


class Run:
    """The games of ``configs``: the results of those finished, and where new ones go."""

    def __init__(self, configs: Sequence[MatchConfig], results_file: ResultsFile | None,
                 records_file: GameRecordsFile | None, results: list[GameResult],
                 sprt: tuple[float, ...] | None = None) -> None:
        self.configs = list(configs)
        #: The sequential test kept in every new game's result (``match --sprt``, for ``report``).
        self.sprt = sprt
        self.results_file = results_file
        self.records_file = records_file
        #: The finished games (those of the results file, then those added).
        self.results = results

    @classmethod
    def open(cls, configs: Sequence[MatchConfig], out: str | Path | None, *, resume: bool,
             event: str, records_file: str | Path | None = None,
             sprt: tuple[float, ...] | None = None) -> tuple[Run, list[str]]:
        """The run writing to ``out`` (a results file; ``None``: nothing
        written) and the game records to ``records_file`` (default: beside
        ``out``, the game's extension), with notes for the user.  Raises
        :class:`~engines.tournament.MatchError` for files that cannot be used."""
        if out is None:
            return cls(configs, None, None, [], sprt), []
        target = Path(records_file) if records_file is not None else records_path(out, configs[0].game)
        if _same_file(Path(out), target):
            raise MatchError(f"{out}: would hold both the results and the game records",
                             remedy=Remedy.SEPARATE_FILES)
        made = not Path(out).exists()
        results, note = ResultsFile.open(out, configs, resume=resume)
        try:
            records = GameRecordsFile.open(target, event, game=configs[0].game, resume=resume,
                                           results=results.results)
        except BaseException:
            if made and Path(out).is_file() and Path(out).stat().st_size == 0:
                Path(out).unlink()  # refused before any game: leave nothing behind
            if results.lock is not None:
                results.lock.close()
            raise
        notes = [note] if note else []
        kept = next((result.sprt for result in reversed(results.results) if result.sprt is not None), None)
        if kept is not None and sprt is None:  # a resumed test goes on with the parameters it started with
            sprt = kept
            notes.append(f"{out}: continuing its SPRT {_test_text(kept)}")
        elif kept is not None and tuple(kept) != tuple(sprt):  # type: ignore[arg-type]
            results.close()
            records.close()
            raise MatchError(f"{out}: its games were played for the SPRT {_test_text(kept)}, not "
                             f"{_test_text(sprt)}; a test cannot change its hypotheses half-way",
                             remedy=Remedy.OTHER_OUTPUT)
        return cls(configs, results, records, results.results, sprt), notes

    def missing(self) -> Iterator[Task]:
        """The games not played yet, pairing by pairing, listed lazily."""
        return ((config, index) for config in self.configs for index in missing_games(config, self.results))

    @property
    def planned(self) -> int:
        return sum(config.games for config in self.configs)

    def close(self) -> None:
        """Let other runs have the files: release their locks (the run's end)."""
        for file in (self.results_file, self.records_file):
            if file is not None:
                file.close()

    def add(self, result: GameResult) -> None:
        """Keep a finished game: its JSON line, then its game record."""
        if self.sprt is not None:
            result = result.with_sprt(self.sprt)
        if self.results_file is not None:
            self.results_file.append(result)
        else:
            self.results.append(result)
        if self.records_file is not None:
            self.records_file.append(result)


def _test_text(sprt: Sequence[float] | None) -> str:
    """A kept test as the command line writes it: ``ELO0,ELO1,ALPHA,BETA``."""
    return ",".join(f"{number:g}" for number in sprt or ())


def _same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file (the same path, through links or ``..``, or hard links)."""
    try:
        if a.exists() and b.exists():
            return a.samefile(b)
        return a.resolve() == b.resolve()
    except (OSError, RuntimeError):  # RuntimeError: a loop of symbolic links (Python before 3.13)
        return False
