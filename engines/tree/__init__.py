"""Search trees: recorded (:mod:`engines.search.recorder`), written, compared, counted and stepped through.

:func:`record_tree` searches a position with any engine of the alpha-beta
family (``minimax``, ``alphabeta``, ``alphabeta-hard``, ``bl``, ``h0``, ``hl``,
``hr``, ``pvs``) or with ``mcts`` (its tree: each visited node with its visits and
value), in this process, and returns its result with the tree it searched.  Then:

- :mod:`.export`: the tree as a JSON document or a Graphviz drawing;
- :mod:`.compare`: two engines' trees of one position told apart;
- :mod:`.stats`: per-ply figures (nodes, effective branching factor, cutoffs
  by the number of the move that cut);
- :mod:`.steps`: the search replayed one node at a time, forward and back.
"""

from __future__ import annotations

from games import Game

from ..base import Limits, SearchResult, StopFlag
from ..registry import ENGINES, create_engine, parse_engine_spec
from ..search.alphabeta import AlphaBetaEngine
from ..search.mcts import MctsEngine
from ..search.recorder import DEFAULT_BUDGET, ENDS, MAX_BUDGET, SearchTree, TreeNode, bound_of
from ..spec import EngineSpec, SpecError

__all__ = ["record_tree", "check_recordable", "RecordError", "SearchTree", "TreeNode", "ENDS", "DEFAULT_BUDGET", "MAX_BUDGET",
           "bound_of"]


class RecordError(SpecError):
    """An engine that cannot record its tree, or a budget out of range."""


def record_tree(spec: str | EngineSpec, game: Game, *, budget: int = DEFAULT_BUDGET,
                limits: Limits | None = None, stop: StopFlag | None = None) -> tuple[SearchResult, SearchTree]:
    """Search ``game`` with a fresh engine of ``spec``, recording at most ``budget`` nodes.

    A parallel ``pvs`` (``workers``) is recorded as the one process it starts from:
    helpers would fill its table with work the tree cannot show.
    """
    if not 1 <= budget <= MAX_BUDGET:
        raise RecordError(f"a tree's node budget is 1 to {MAX_BUDGET:,}, not {budget:,}")
    check_recordable(spec, type(game))
    engine = create_engine(spec, type(game))
    try:
        assert isinstance(engine, (AlphaBetaEngine, MctsEngine))
        return engine.record(game, limits, budget=budget, stop=stop)
    finally:
        engine.close()


def check_recordable(spec: str | EngineSpec, game_class: type[Game]) -> None:
    """Refuse (:class:`RecordError`, one line) an engine that does not search an alpha-beta
    family tree or a Monte Carlo one, whatever the game; a bad spec raises its own :class:`SpecError`."""
    parsed = parse_engine_spec(spec) if isinstance(spec, str) else spec
    info = ENGINES[parsed.name]
    family = getattr(info.factory, "func", info.factory)
    if not (isinstance(family, type) and issubclass(family, (AlphaBetaEngine, MctsEngine))):
        raise RecordError(f"{parsed.name!r} does not search a tree of the alpha-beta family or a Monte Carlo one; "
                          "these do: minimax, alphabeta, alphabeta-hard, bl, h0, hl, hr, pvs, mcts")
