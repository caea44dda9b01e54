"""Kalah for tui-games, written against the game protocol alone (docs/protocol.md): a game where
a side may move again (the last seed sown into its own store).

- :mod:`kalah.game` -- :class:`Kalah`: the rules, the notation and the heuristics;
- :mod:`kalah.solver` -- a plain recursive minimax over the rules written again, independently,
  for small boards: what the tests check the engines against;
- :mod:`kalah.board` -- the board as the app draws it;
- :mod:`kalah.records` -- its records, the move list tui-games writes for games without a format;
- :mod:`kalah.kind` -- :data:`KIND`: all of the above with the score scale, levels, benchmarks
  and help, which the registry finds beside the class (its package's ``KIND``).
"""

from .game import Kalah
from .kind import KIND

__all__ = ["KIND", "Kalah"]
