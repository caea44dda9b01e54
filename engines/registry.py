"""The engines by name, their options, and :func:`create_engine`.

=================  ==========================================================
``random``         a uniformly random legal move (baseline)
``minimax``        plain minimax, no pruning
``alphabeta``      fail-soft alpha-beta: returns the true value even outside the window
``alphabeta-hard`` fail-hard alpha-beta: values clamped to the window
``bl``             branching limit: children ranked by H^l, only the best ``bf`` searched
``h0``             H0 cutoff: children ranked by the cheap ``cut`` heuristic, top ``k`` kept
``hl``             Hl cutoff: root children ranked by an ``l``-ply search, then H0 cutoff
``hr``             Hr cutoff: children ranked by a trained regressor, top ``k`` kept
``pred``           one ply: each child's H0 mapped to its predicted depth-L value
``mi-pred``        one ply: each child's feature vector mapped to its predicted depth-L value
``pvs``            the strongest: iterative deepening, PVS, aspiration windows,
                   TT move, killers and history, quiescence (``workers`` processes)
``mcts``           Monte Carlo tree search (UCT) with MCTS-Solver, any turn order
``uci``            any UCI chess engine (``path=PROGRAM``, ``option.NAME=VALUE``)
``stockfish``      Stockfish over UCI, chess only (needs a ``stockfish`` binary)
=================  ==========================================================

Each entry carries everything that makes its engine what it is: the option
table, and the constructor with its configuration (for the alpha-beta family a
:class:`~engines.search.SearchConfig`), so no code elsewhere tells engines
apart by their names.  This module sits above :mod:`engines.search`,
:mod:`engines.learning.learned` and :mod:`engines.stockfish`; the tournament
and the dataset writer build their engines through it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable

from games import Game, UnknownHeuristicError

from .base import Engine
from .learning.learned import PredictEngine, hr_cutoff
from .search import MAX_DEPTH, AlphaBetaEngine, RandomEngine, SearchConfig
from .notices import say
from .search.mcts import DEFAULT_C, MctsEngine
from .search.parallel import ParallelEngine
from .search.selectors import branching_limit, h0_cutoff, hl_cutoff
from .search.table import hash_cap
from .spec import EngineSpec, Option, SpecError, format_spec, parse_spec
from .stockfish import OPTIONS as STOCKFISH_OPTIONS
from .stockfish import UCI_OPTIONS, StockfishEngine, UciEngine

__all__ = ["EngineInfo", "ENGINES", "ENGINE_NAMES", "FALLBACK_ENGINE", "create_engine", "fallback_spec",
           "parse_engine_spec", "register", "spec_notices", "with_tables"]

#: The most processes one parallel search may start.
MAX_WORKERS = 64

#: The engine the app plays instead of a learned one whose model cannot be used.
FALLBACK_ENGINE = "h0"


@dataclass(frozen=True)
class EngineInfo:
    """An engine's name, one-line summary, options and constructor."""

    name: str
    summary: str
    options: dict[str, Option]
    factory: Callable[[EngineSpec, type[Game]], Engine]


def _options(*options: Option) -> dict[str, Option]:
    return {option.name: option for option in options}


def _depth(default: int | None) -> Option:
    return Option("depth", int, default, "plies to search (L)", minimum=1)


TIME = Option("time", float, None, "seconds per move (iterative deepening)", minimum=0.001)
NODES = Option("nodes", int, None, "node budget per move (iterative deepening)", minimum=1)
HEURISTIC = Option("heuristic", str, None, "leaf evaluation, by name (the game's default if unset)")
SEED = Option("seed", int, 0, "seed for tie-breaks among equally good moves")
CUT = Option("cut", str, None, "the cheap heuristic that ranks children (the game's cut heuristic if unset)")


def _model(default: str, what: str, learned: bool = False) -> Option:
    also = (", or heuristic:NAME, a learned evaluation (heuristic:learned, heuristic:network, "
            "heuristic:tables:FILE) as the model of the features" if learned else "")
    return Option("model", str, default,
                  f"{what}: a bundled model ({default}) or the path of an .npz model you trained{also}")


def _tt(default: bool) -> Option:
    return Option("tt", bool, default, "transposition table with exact/lower/upper bounds")


ORDER = Option("order", bool, True,
               "move ordering: the TT move, captures (MVV-LVA), killer moves, history; off: legal-move order")


#: The most megabytes a ``hash`` option may ask for, and the most lines a ``multipv`` one.
MAX_HASH = 1 << 16
MAX_MULTIPV = 256
HASH = Option("hash", int, None, "transposition table size in MB (default: 1,000,000 entries, "
                                 "about 380 MB in chess; 24 MB shared with workers)",
              minimum=1, maximum=MAX_HASH)
MULTIPV = Option("multipv", int, 1, "the best N root moves, each with its score and line (one "
                                    "process searches them)", minimum=1, maximum=MAX_MULTIPV)


def _family(depth: int, tt: bool, *extra: Option) -> dict[str, Option]:
    return _options(_depth(depth), TIME, NODES, HEURISTIC, SEED, _tt(tt), HASH, MULTIPV, *extra)


def _alphabeta(engine: type[AlphaBetaEngine] = AlphaBetaEngine,
               **config: object) -> Callable[[EngineSpec, type[Game]], Engine]:
    """The constructor of an alpha-beta family engine with this :class:`SearchConfig`."""
    return functools.partial(engine, config=SearchConfig(**config))  # type: ignore[arg-type]


def _overrides(game_class: type, method: str) -> bool:
    """Whether the game answers ``method`` itself (a refinement that asks it means something there).

    Used as ``functools.partial(_overrides, method=...)``, not a lambda: an engine's
    options travel to its parallel workers, and a lambda cannot be pickled."""
    return getattr(game_class, method, None) is not getattr(Game, method)


#: The ``pvs`` refinements, each an option so that a match can measure it (``pvs:null=off``).
REFINEMENTS = (
    Option("null", bool, True, "null-move pruning: a pass searched shallower proves a position good (where the "
                               "game allows a pass: chess, not in zugzwang danger)", applies=functools.partial(_overrides, method="null_move_ok")),
    Option("lmr", bool, True, "late-move reductions: late quiet moves first searched a ply shallower"),
    Option("checks", bool, True, "check extension: a side in check is searched a ply deeper",
           applies=functools.partial(_overrides, method="in_check")),
    Option("delta", bool, True, "delta pruning: quiescence skips captures that cannot reach alpha",
           applies=functools.partial(_overrides, method="capture_gain")),
    Option("predict", bool, True, "time: start another depth while its first move is predicted to fit, "
                                  "and keep a better move an unfinished depth proved (off: no depth "
                                  "after half the time)"),
)

def has_solver(game_class: type) -> bool:
    """Whether the game has an exact endgame solver of its own (it overrides :meth:`Game.solve`)."""
    return getattr(game_class, "solve", None) is not Game.solve


#: The game's exact endgame solver at the root (games that have one: Othello).
SOLVE = Option("solve", int, 14, "solve the root exactly when at most this many moves are left "
                                 "(Othello: empty cells; 0: never); a fixed depth searches instead "
                                 "unless solve is given", minimum=0, maximum=64,
               applies=has_solver)

def has_tables(game_class: type) -> bool:
    """Whether the game can open endgame tables (it overrides :meth:`Game.open_tables`)."""
    method = getattr(game_class, "open_tables", None)
    return getattr(method, "__func__", None) is not getattr(Game.open_tables, "__func__")


#: The game's endgame tables, probed at the root and in the tree (games that have them: chess's
#: Syzygy files, checkers' database).
TABLES = Option("tables", str, None, "the folder of the game's endgame tables (chess: Syzygy .rtbw/.rtbz "
                                     "files; checkers: the database 'endgame build' makes, used from the data "
                                     "folder when not set), probed at the root and in the tree; off: none",
                applies=has_tables)

#: Deliberate weakness for the easy levels (see :mod:`engines.levels`).
NOISE = (
    Option("jitter", int, 0, "noise added to every leaf evaluation: uniform in ±jitter heuristic units",
           minimum=0),
    Option("blunder", float, 0.0, "share of moves played at random instead of searched", minimum=0,
           maximum=1),
)

ENGINES: dict[str, EngineInfo] = {}

#: ``mcts``'s playout and longest playout by default (see docs/benchmarks.md for the measurements).
MCTS_PLAYOUT = "heuristic"
MCTS_PLIES = 0


def register(info: EngineInfo) -> None:
    """Add an engine to the registry."""
    ENGINES[info.name] = info


for _info in (
    EngineInfo("random", "a uniformly random legal move (baseline)", _options(SEED), RandomEngine),
    EngineInfo("minimax", "plain minimax, no pruning", _family(3, False, ORDER), _alphabeta(prune=False)),
    EngineInfo("alphabeta", "fail-soft alpha-beta", _family(4, True, ORDER), _alphabeta()),
    EngineInfo("alphabeta-hard", "fail-hard alpha-beta (values clamped to the window)",
               _family(4, True, ORDER), _alphabeta(fail_hard=True)),
    EngineInfo("bl", "branching limit: search the best bf children ranked by H^l",
               _family(4, True,
                       Option("bf", int, 5, "children searched at each node", minimum=1),
                       Option("l", int, 1, "lookahead plies ranking the children (0: static)", minimum=0,
                              maximum=MAX_DEPTH)),
               _alphabeta(selector=branching_limit)),
    EngineInfo("h0", "alpha-beta with the H0 cutoff: keep the top k children by the cut heuristic",
               _family(4, True, Option("k", int, 5, "children kept at each node", minimum=1), CUT),
               _alphabeta(selector=h0_cutoff)),
    EngineInfo("hl", "alpha-beta with the Hl cutoff at the root and the H0 cutoff below",
               _family(4, True,
                       Option("k", int, 5, "children kept at each node", minimum=1),
                       Option("l", int, 3, "plies of the root ranking search, counted from the root",
                              minimum=1, maximum=MAX_DEPTH),
                       CUT),
               _alphabeta(selector=hl_cutoff)),
    EngineInfo("hr", "alpha-beta with the Hr cutoff: keep the top k children by a trained regressor",
               _family(4, True, Option("k", int, 5, "children kept at each node", minimum=1),
                       _model("mi", "the regressor ranking the children (input: the feature vector)", True)),
               _alphabeta(selector=hr_cutoff)),
    EngineInfo("pred", "one ply: each child's H0 mapped by a trained model to its predicted depth-L value",
               _options(_model("pred", "the model (input: H0)"), SEED),
               functools.partial(PredictEngine, inputs="h0")),
    EngineInfo("mi-pred", "one ply: each child's feature vector mapped by a trained model to its depth-L value",
               _options(_model("mi", "the model (input: the feature vector)", True), SEED),
               functools.partial(PredictEngine, inputs="features")),
    EngineInfo("pvs", "the strongest: iterative deepening, PVS, aspiration, killers, quiescence, "
                      "and the refinements the game allows",
               _options(_depth(None), Option("time", float, 1.0, TIME.help, minimum=0.001), NODES,
                        HEURISTIC, SEED, _tt(True), HASH, MULTIPV,
                        Option("workers", int, 1, "processes searching in parallel", minimum=1,
                               maximum=MAX_WORKERS),
                        SOLVE, TABLES, *REFINEMENTS, *NOISE),
               _alphabeta(ParallelEngine, strongest=True)),
    EngineInfo("mcts", "Monte Carlo tree search: UCT, seeded playouts, MCTS-Solver; any turn order",
               _options(Option("time", float, 1.0, "seconds per move (unless nodes is given alone)",
                               minimum=0.001),
                        Option("nodes", int, None, "playouts per move (iterations of the search)", minimum=1),
                        Option("c", float, DEFAULT_C, "UCB1's exploration constant", minimum=0),
                        Option("seed", int, 0, "seed of the playouts and of the order moves are tried in"),
                        Option("playout", str, MCTS_PLAYOUT, "how playouts choose moves: random, or "
                               "heuristic (the game's cheap move ordering, captures first, most of the time)",
                               choices=("random", "heuristic")),
                        Option("max-plies", int, MCTS_PLIES, "the longest playout; one cut there is scored "
                               "by the heuristic's winning chance (0: the leaf's evaluation alone)", minimum=0),
                        Option("heuristic", str, None, "the evaluation of a cut playout (the game's "
                               "strongest if unset)")),
               MctsEngine),
):
    register(_info)

#: The names of this project's engines, in the registry's order (``stockfish``
#: and ``uci``, outside engines that need a program, are registered after them).
ENGINE_NAMES: tuple[str, ...] = tuple(ENGINES)

register(EngineInfo("stockfish", "Stockfish over UCI, chess only (needs a stockfish binary)",
                    _options(*STOCKFISH_OPTIONS), StockfishEngine))
register(EngineInfo("uci", "any UCI chess engine: uci:path=PROGRAM,option.NAME=VALUE,... (chess only)",
                    _options(*UCI_OPTIONS), UciEngine))


def parse_engine_spec(text: str) -> EngineSpec:
    """Parse an engine spec string (see :mod:`engines.spec`); what the engine will do
    differently from what it asks is said once (:mod:`engines.notices`)."""
    spec = parse_spec(text, {name: info.options for name, info in ENGINES.items()})
    for notice in spec_notices(spec):
        say(notice)
    return spec


def spec_notices(spec: EngineSpec) -> list[str]:
    """What an engine of ``spec`` will do differently from what it asks, on this machine:
    an alpha-beta search deeper than :data:`MAX_DEPTH` plies searches that many, and a
    ``hash`` over what the machine can hold gets what it can (see :func:`hash_cap`)."""
    if "hash" not in spec.table:  # the alpha-beta family's options
        return []
    notices = []
    depth = spec.options.get("depth")
    if depth is not None and depth > MAX_DEPTH:
        notices.append(f"{spec.name}: depth={depth:,} is beyond the search's {MAX_DEPTH} plies: "
                       f"it searches {MAX_DEPTH} at most")
    megabytes = spec.options.get("hash")
    if megabytes is not None:
        shared = "workers" in spec.table and spec.get("workers") >= 2
        why = hash_cap(megabytes, shared=shared)[1]
        if why is not None:
            notices.append(f"{spec.name}: {why}")
    return notices


def create_engine(spec: str | EngineSpec, game_class: type[Game]) -> Engine:
    """An engine for ``game_class`` from a spec; :class:`SpecError` if it is bad
    (including a heuristic the game does not have)."""
    if isinstance(spec, str):
        spec = parse_engine_spec(spec)
    info = ENGINES[spec.name]
    try:
        return info.factory(spec, game_class)
    except UnknownHeuristicError as error:
        raise SpecError(f"{spec.name}: {error}") from None


def with_tables(spec: str, game_class: type[Game], folder: str | None) -> str:
    """``spec`` reading the endgame tables in ``folder`` (its ``tables`` option), when
    the engine takes tables, ``game_class`` has them and the spec names none of its
    own; else ``spec`` as it is.  :class:`SpecError` for a bad spec, or a folder an
    engine spec cannot hold (a comma would end the option)."""
    if not folder:
        return spec
    parsed = parse_engine_spec(spec)
    if "tables" not in parsed.table or "tables" in parsed.options or not has_tables(game_class):
        return spec
    if "," in folder or folder != folder.strip():
        raise SpecError(f"{folder[:60]!r}: a tables folder with a comma or spaces at its ends "
                        f"cannot go into an engine spec; rename it")
    return format_spec(parsed.name, {**parsed.options, "tables": folder})


def fallback_spec(spec: EngineSpec | str) -> str:
    """The ``h0`` spec the app plays instead of a learned engine whose model
    failed: the options ``h0`` shares with it (depth, k, time, seed ...) kept."""
    if isinstance(spec, str):
        spec = parse_engine_spec(spec)
    fallback = parse_engine_spec(FALLBACK_ENGINE)
    kept = {key: value for key, value in spec.options.items() if key in fallback.table and key != "model"}
    return format_spec(FALLBACK_ENGINE, kept)
