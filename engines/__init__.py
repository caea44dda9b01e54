"""Game-independent search: the minimax family on one alpha-beta core.

Engines see games only through the :class:`games.Game` protocol and never
import Textual.  Build one from a spec string and search::

    from engines import create_engine
    engine = create_engine("alphabeta:depth=4", game_class)
    result = engine.search(game)          # result.move, .score, .pv, .stats

See :mod:`engines.registry` for the engines and their options and
:mod:`engines.search` for the core.
"""

from .base import (
    MATE_BOUND,
    STAT_NAMES,
    Engine,
    GameOverError,
    Limits,
    SearchResult,
    mate_in,
)
from .registry import ENGINE_NAMES, ENGINES, EngineInfo, create_engine, parse_engine_spec
from .spec import EngineSpec, Option, SpecError
from .stockfish import StockfishEngine  # importing it registers the 'stockfish' engine

__all__ = [
    "ENGINES",
    "ENGINE_NAMES",
    "MATE_BOUND",
    "STAT_NAMES",
    "Engine",
    "EngineInfo",
    "EngineSpec",
    "GameOverError",
    "Limits",
    "Option",
    "SearchResult",
    "SpecError",
    "StockfishEngine",
    "create_engine",
    "mate_in",
    "parse_engine_spec",
]
