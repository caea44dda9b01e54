"""Everything above the rules: search, and what is built on it -- matches and tournaments,
the lab's experiments, learning, levels, game review (no drawing, no Textual).

Engines see games only through the :class:`games.Game` protocol.  Build one
from a spec string and search::

    from engines import create_engine
    engine = create_engine("alphabeta:depth=4", game_class)
    result = engine.search(game)          # result.move, .score, .pv, .stats (a SearchStats)

What lives where:

- :mod:`engines.base` -- the engine contract: :class:`Engine`, :class:`Limits`
  (with the :class:`~engines.base.Clocks` an engine may be told),
  :class:`SearchResult`, :class:`SearchStats`;
- :mod:`engines.spec` -- engine spec strings and their options;
- :mod:`engines.registry` -- every engine by name, with its options and
  configuration; :func:`create_engine`;
- :mod:`engines.search` -- the minimax family on one alpha-beta core, and the
  parallel search on a transposition table in shared memory;
- :mod:`engines.stockfish` -- any UCI program as an engine (``uci``), Stockfish over it;
- :mod:`engines.timing` -- the time budget of a move from a clock;
- :mod:`engines.openings` -- making opening books: random lines a search finds balanced;
- :mod:`engines.lifetime` -- worker processes that end with their parent;
- :mod:`engines.tournament` -- matches (reproducible, parallel, resumable) and
  their conditions (opening books, adjudication, clocks), each game's typed
  result and the results files, game records, summaries, the SPRT,
  crosstables and ratings;
- :mod:`engines.lab` -- declarative experiments, the seeds' claims and verdicts;
- :mod:`engines.learning` -- datasets, training, model files, learned engines;
- :mod:`engines.levels` -- the named levels per game and their measured ratings;
- :mod:`engines.review` -- winning chances, the game report, taking draws;
- :mod:`engines.remedy` -- what the user can do about a refused run, as data
  (:class:`Remedy` on a :class:`RunError`), for the front ends to word.

May import :mod:`games` (and third-party libraries), never :mod:`tui` or Textual.
"""

from .base import (
    MATE_BOUND,
    STAT_NAMES,
    Engine,
    GameOverError,
    Limits,
    PvLine,
    SearchResult,
    SearchStats,
    mate_in,
)
from .registry import ENGINE_NAMES, ENGINES, EngineInfo, create_engine, fallback_spec, parse_engine_spec
from .remedy import Remedy, RunError
from .spec import EngineSpec, Option, SpecError
from .stockfish import StockfishEngine, UciEngine
from .uci_client import EngineFailure

__all__ = [
    "ENGINES",
    "ENGINE_NAMES",
    "MATE_BOUND",
    "STAT_NAMES",
    "Engine",
    "EngineFailure",
    "EngineInfo",
    "EngineSpec",
    "GameOverError",
    "Limits",
    "Option",
    "PvLine",
    "Remedy",
    "RunError",
    "SearchResult",
    "SearchStats",
    "SpecError",
    "StockfishEngine",
    "UciEngine",
    "create_engine",
    "fallback_spec",
    "mate_in",
    "parse_engine_spec",
]
