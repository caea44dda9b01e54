"""Connect Four for tui-games, written against the game protocol alone (docs/protocol.md).

- :mod:`connect_four.game` -- :class:`ConnectFour`: the rules, the notation and the heuristics;
- :mod:`connect_four.board` -- the board as the app draws it;
- :mod:`connect_four.records` -- its records, the move list tui-games writes for games without a format;
- :mod:`connect_four.kind` -- :data:`KIND`: all of the above with the score scale, levels, benchmarks
  and help, which the registry finds beside the class (its package's ``KIND``).
"""

from .game import ConnectFour
from .kind import KIND

__all__ = ["KIND", "ConnectFour"]
