"""English checkers (8x8 American draughts) on Python-int bitboards.

- :mod:`games.checkers.game` -- :class:`Checkers`: positions (PDN FEN), move
  generation, play/undo, outcomes, notation (``11-15``, ``15x24x31``);
- :mod:`games.checkers.bitboards` -- squares, masks and the step/jump tables;
- :mod:`games.checkers.evaluation` -- the heuristics ``material`` and ``positional``;
- :mod:`games.checkers.records` -- PDN, written and read;
- :mod:`games.checkers.board` -- the board as front ends draw it;
- :mod:`games.checkers.reference` -- OpenSpiel's perft, the benchmark's reference;
- :mod:`games.checkers.kind` -- :data:`KIND`: all of the above and the score
  scale, levels, help and benchmark settings, for the rest of the project.

Imports the shared modules of :mod:`games` only (python-chess's square names
for the board's labels).
"""

from .bitboards import BLACK, SQUARES, WHITE, Move, square_coords, square_name
from .evaluation import material, positional
from .game import Checkers
from .kind import KIND

__all__ = ["KIND", "Checkers", "Move", "BLACK", "WHITE", "SQUARES", "square_coords", "square_name",
           "material", "positional"]
