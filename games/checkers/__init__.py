"""English checkers (8x8 American draughts) on Python-int bitboards.

- :mod:`games.checkers.game` -- :class:`Checkers`: positions (PDN FEN), move
  generation, play/undo, outcomes, notation (``11-15``, ``15x24x31``);
- :mod:`games.checkers.bitboards` -- squares, masks and the step/jump tables;
- :mod:`games.checkers.evaluation` -- the heuristics ``material`` and ``positional``.

Imports :mod:`games.base` only.
"""

from .bitboards import BLACK, SQUARES, WHITE, Move, square_coords, square_name
from .evaluation import material, positional
from .game import Checkers

__all__ = ["Checkers", "Move", "BLACK", "WHITE", "SQUARES", "square_coords", "square_name",
           "material", "positional"]
