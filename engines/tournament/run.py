"""A run's files: the results file (one JSON line per game) and the game records
beside it, for one match or the several of a tournament or an experiment.

:meth:`Run.open` checks both files before any game is played (nothing is
played whose results could not be kept); :meth:`Run.add` writes a finished
game to both; :meth:`Run.missing` lists the games still to play.  Without an
output path the games are only kept in memory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from .gamefiles import GameRecordsFile, records_path
from .match import MatchConfig, Task, missing_games
from .results import ResultsFile

__all__ = ["Run"]


class Run:
    """The games of ``configs``: those finished, and where new ones go."""

    def __init__(self, configs: Sequence[MatchConfig], results: ResultsFile | None,
                 games: GameRecordsFile | None, records: list[dict[str, Any]]) -> None:
        self.configs = list(configs)
        self.results = results
        self.games = games
        self.records = records

    @classmethod
    def open(cls, configs: Sequence[MatchConfig], out: str | Path | None, *, resume: bool,
             event: str, records_file: str | Path | None = None) -> tuple[Run, list[str]]:
        """The run writing to ``out`` (a results file; ``None``: nothing
        written) and the game records to ``records_file`` (default: beside
        ``out``, the game's extension), with notes for the user.  Raises
        :class:`~engines.tournament.MatchError` for files that cannot be used."""
        if out is None:
            return cls(configs, None, None, []), []
        results, note = ResultsFile.open(out, configs, resume=resume)
        target = records_file if records_file is not None else records_path(out, configs[0].game)
        games = GameRecordsFile.open(target, event, resume=resume, records=results.records)
        return cls(configs, results, games, results.records), [note] if note else []

    def missing(self) -> list[Task]:
        """The games not played yet, pairing by pairing."""
        return [(config, index) for config in self.configs for index in missing_games(config, self.records)]

    @property
    def planned(self) -> int:
        return sum(config.games for config in self.configs)

    def add(self, record: dict[str, Any]) -> None:
        """Keep a finished game: its JSON line, then its game record."""
        if self.results is not None:
            self.results.append(record)
        else:
            self.records.append(record)
        if self.games is not None:
            self.games.append(record)
