"""Tournaments: many games between engines, reproducible, parallel, resumable.

- :mod:`~engines.tournament.match` -- a match's config, playing one game
  (:func:`play_game`) and many over joblib or dask (:func:`play_games`,
  :func:`parallel_games`);
- :mod:`~engines.tournament.results` -- the JSON-lines results file, written
  game by game and read back for ``--resume`` and ``report``;
- :mod:`~engines.tournament.summary` -- W/D/L, the score's Wilson interval, Elo;
- :mod:`~engines.tournament.gamefiles` -- every game as PGN / PDN / a Quixo
  record, with each engine move's eval, depth, nodes and time;
- :mod:`~engines.tournament.run` -- a run's files (results and records) for
  one match or several;
- :mod:`~engines.tournament.sprt` -- the sequential test on paired games
  (pentanomial LLR, LOS);
- :mod:`~engines.tournament.crosstable` -- round-robin and gauntlet
  tournaments: crosstable and ratings;
- :mod:`~engines.tournament.ratings` -- maximum-likelihood Elo ratings of many
  players from their pairings, with anchors and intervals.

May import :mod:`games` and :mod:`engines` (engines are built through
:mod:`engines.registry`); draws nothing.
"""

from .match import AGENTS, TOTALS, MatchConfig, MatchError, missing_games, play_game, play_games, play_tasks
from .results import ResultsFile, ResultsFileError, read_results, read_results_files
from .summary import AgentSummary, MatchSummary, elo_difference, running_score, summarize, wilson_interval

__all__ = ["AGENTS", "TOTALS", "MatchConfig", "MatchError", "missing_games", "play_game", "play_games", "play_tasks",
           "ResultsFile", "ResultsFileError", "read_results", "read_results_files", "AgentSummary",
           "MatchSummary", "elo_difference", "running_score", "summarize", "wilson_interval"]
