"""Tournaments: many games between engines, reproducible, parallel, resumable.

- :mod:`~engines.tournament.config` -- what fixes a match (:class:`MatchConfig`)
  and how a run is refused (:class:`MatchError`, what to do about it as a
  :class:`Remedy` that each front end words);
- :mod:`~engines.tournament.conditions` -- what a match adds to the game's
  rules: its opening book, adjudication rules and clocks (:class:`Conditions`);
- :mod:`~engines.tournament.adjudication` -- fastchess's resign, draw and
  move-limit rules on the engines' scores;
- :mod:`~engines.tournament.clocks` -- a game's clocks: what the engines are
  told, who loses on time;
- :mod:`~engines.tournament.result` -- a finished game's result
  (:class:`GameResult`: its JSON line, typed, checked when read);
- :mod:`~engines.tournament.match` -- playing one game (:func:`play_game`) and
  many over joblib or dask (:func:`play_games`, :func:`parallel_games`);
- :mod:`~engines.tournament.results` -- the results file of JSON lines, written
  game by game and read back to resume a run or report on it;
- :mod:`~engines.tournament.summary` -- W/D/L, the score's Wilson interval, Elo;
- :mod:`~engines.tournament.stats` -- fastchess's figures for every match
  (:class:`MatchStats`: Elo from the pairs, nElo, LOS, draw and pairs ratios,
  the pentanomial counts);
- :mod:`~engines.tournament.gamefiles` -- every game as a game record: PGN /
  PDN / the Quixo move list, with each engine move's eval, clock, depth, nodes
  and time;
- :mod:`~engines.tournament.run` -- a run's files (results and game records)
  for one match or several;
- :mod:`~engines.tournament.sprt` -- the sequential test on paired games
  (pentanomial LLR, LOS);
- :mod:`~engines.tournament.crosstable` -- round-robin and gauntlet
  tournaments: crosstable and ratings;
- :mod:`~engines.tournament.ratings` -- maximum-likelihood Elo ratings of many
  players from their pairings, with anchors and intervals.

"Results" are the JSON lines (and :class:`GameResult`); "records" are the
game records (PGN, PDN, Quixo move lists) of :mod:`games.records`.

May import :mod:`games` and :mod:`engines` (engines are built through
:mod:`engines.registry`); draws nothing.
"""

from ..remedy import Remedy
from .config import MatchConfig, MatchError
from .match import missing_games, play_game, play_games, play_tasks
from .result import AGENTS, TOTALS, AgentTotals, GameResult, LogEntry, Sides
from .results import ResultsFile, ResultsFileError, read_results, read_results_files
from .stats import MatchStats, Pairs
from .summary import AgentSummary, MatchSummary, elo_difference, running_score, summarize, wilson_interval

__all__ = ["AGENTS", "TOTALS", "AgentTotals", "GameResult", "LogEntry", "Sides", "MatchConfig", "MatchError",
           "Remedy", "missing_games", "play_game", "play_games", "play_tasks", "ResultsFile", "ResultsFileError",
           "read_results", "read_results_files", "MatchStats", "Pairs", "AgentSummary", "MatchSummary", "elo_difference",
           "running_score", "summarize", "wilson_interval"]
