"""Quixo (5x5) on Python-int bitboards.

- :mod:`games.quixo.game` -- :class:`Quixo`: positions, play/undo, outcomes, notation;
- :mod:`games.quixo.moves` -- the board geometry and the 44-move table;
- :mod:`games.quixo.evaluation` -- the heuristics ``longest-line`` and ``line-potential``;
- :mod:`games.quixo.records` -- the Quixo move list;
- :mod:`games.quixo.board` -- the board as front ends draw it;
- :mod:`games.quixo.reference` -- the seeds' deep-copying perft, the benchmark's reference;
- :mod:`games.quixo.kind` -- :data:`KIND`: all of the above and the score scale,
  levels, help and benchmark settings, for the rest of the project.

Imports the shared modules of :mod:`games` only.
"""

from .evaluation import line_potential, longest_line
from .game import Quixo
from .kind import KIND
from .moves import EDGES, LINES, MOVES, SIZE, QuixoMove

__all__ = ["KIND", "Quixo", "QuixoMove", "MOVES", "EDGES", "SIZE", "LINES", "longest_line", "line_potential"]
