"""A run's files: the results file (one JSON line per game) and the game records
beside it, for one match or the several of a tournament or an experiment.

:meth:`Run.open` checks both files before any game is played (nothing is
played whose results could not be kept); :meth:`Run.add` writes a finished
game to both; :meth:`Run.missing` lists the games still to play.  Without an
output path the games are only kept in memory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator, Sequence

from .gamefiles import GameRecordsFile, records_path
from .match import MatchConfig, MatchError, Task, missing_games
from .results import ResultsFile

__all__ = ["Run"]


class Run:
    """The games of ``configs``: those finished, and where new ones go."""

    def __init__(self, configs: Sequence[MatchConfig], results: ResultsFile | None,
                 games: GameRecordsFile | None, records: list[dict[str, Any]],
                 tag: dict[str, Any] | None = None) -> None:
        self.configs = list(configs)
        #: Keys added to every new record (``match --sprt`` keeps its test there for ``report``).
        self.tag = dict(tag or {})
        self.results = results
        self.games = games
        self.records = records

    @classmethod
    def open(cls, configs: Sequence[MatchConfig], out: str | Path | None, *, resume: bool,
             event: str, records_file: str | Path | None = None,
             tag: dict[str, Any] | None = None) -> tuple[Run, list[str]]:
        """The run writing to ``out`` (a results file; ``None``: nothing
        written) and the game records to ``records_file`` (default: beside
        ``out``, the game's extension), with notes for the user.  Raises
        :class:`~engines.tournament.MatchError` for files that cannot be used."""
        if out is None:
            return cls(configs, None, None, [], tag), []
        target = Path(records_file) if records_file is not None else records_path(out, configs[0].game)
        if _same_file(Path(out), target):
            raise MatchError(f"{out}: would hold both the results and the game records; give the results "
                             f"a .jsonl name, or the records (--records) a file of their own")
        made = not Path(out).exists()
        results, note = ResultsFile.open(out, configs, resume=resume)
        try:
            games = GameRecordsFile.open(target, event, resume=resume, records=results.records)
        except BaseException:
            if made and Path(out).is_file() and Path(out).stat().st_size == 0:
                Path(out).unlink()  # refused before any game: leave nothing behind
            if results.lock is not None:
                results.lock.close()
            raise
        return cls(configs, results, games, results.records, tag), [note] if note else []

    def missing(self) -> Iterator[Task]:
        """The games not played yet, pairing by pairing, listed lazily."""
        return ((config, index) for config in self.configs for index in missing_games(config, self.records))

    @property
    def planned(self) -> int:
        return sum(config.games for config in self.configs)

    def close(self) -> None:
        """Let other runs have the files: release their locks (the run's end)."""
        for file in (self.results, self.games):
            if file is not None:
                file.close()

    def add(self, record: dict[str, Any]) -> None:
        """Keep a finished game: its JSON line, then its game record."""
        if self.tag:
            record = {**record, **self.tag}
        if self.results is not None:
            self.results.append(record)
        else:
            self.records.append(record)
        if self.games is not None:
            self.games.append(record)


def _same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file (the same path, through links or ``..``, or hard links)."""
    try:
        if a.exists() and b.exists():
            return a.samefile(b)
        return a.resolve() == b.resolve()
    except OSError:
        return False
