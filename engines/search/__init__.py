"""Search: the minimax family on one alpha-beta core.

- :mod:`~engines.search.core` -- :class:`Searcher` (negamax alpha-beta over
  play/undo, transposition table, PVS, quiescence, killers) and
  :class:`Control` (counters, limits, stop flag, live reports);
- :mod:`~engines.search.selectors` -- child selection: full width with staged
  ordering, the branching limit, the H0, Hl and Hr cutoffs;
- :mod:`~engines.search.alphabeta` -- :class:`AlphaBetaEngine`, the driver
  (iterative deepening, aspiration windows), configured by a :class:`SearchConfig`;
- :mod:`~engines.search.parallel` -- ``workers=N``: helper processes on a shared
  table, with ABDADA's deferred moves;
- :mod:`~engines.search.table` -- :class:`SharedTable`, the lock-free
  transposition table in shared memory;
- :mod:`~engines.search.baseline` -- ``random``.

May import :mod:`games`, :mod:`engines.base` and :mod:`engines.spec`; nothing
here knows an engine by its name (the registry configures them).
"""

from .alphabeta import MAX_DEPTH, AlphaBetaEngine, SearchConfig
from .baseline import RandomEngine
from .core import INF, Control, Searcher, Stopped
from .selectors import BranchingLimit, FullWidth, H0Cutoff, HlCutoff, HrCutoff, Selector

__all__ = ["AlphaBetaEngine", "SearchConfig", "RandomEngine", "MAX_DEPTH", "INF", "Control", "Searcher",
           "Stopped", "Selector", "FullWidth", "BranchingLimit", "H0Cutoff", "HlCutoff", "HrCutoff"]
