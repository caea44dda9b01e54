"""Quixo (5x5) on Python-int bitboards.

- :mod:`games.quixo.game` -- :class:`Quixo`: positions, play/undo, outcomes, notation;
- :mod:`games.quixo.moves` -- the board geometry and the 44-move table;
- :mod:`games.quixo.evaluation` -- the heuristics ``longest-line`` and ``line-potential``.

Imports :mod:`games.base` only.
"""

from .evaluation import line_potential, longest_line
from .game import Quixo
from .moves import EDGES, LINES, MOVES, SIZE, QuixoMove

__all__ = ["Quixo", "QuixoMove", "MOVES", "EDGES", "SIZE", "LINES", "longest_line", "line_potential"]
