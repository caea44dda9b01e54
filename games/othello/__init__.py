"""Othello (Reversi, 8x8) on Python-int bitboards.

- :mod:`games.othello.game` -- :class:`Othello`: positions, play/undo (passes
  included), outcomes by disc count, notation (``d3``, ``pass``);
- :mod:`games.othello.bitboards` -- cells and masks, move generation and flips
  by shifts, potential mobility, edge stability;
- :mod:`games.othello.evaluation` -- the heuristics ``discs``, ``mobility``,
  ``positional`` and ``standard``, and the learning features;
- :mod:`games.othello.records` -- the Othello move list, and transcripts;
- :mod:`games.othello.board` -- the board as front ends draw it;
- :mod:`games.othello.reference` -- the rules the plain way, for tests and the benchmark;
- :mod:`games.othello.kind` -- :data:`KIND`: all of the above and the score
  scale, levels, help and benchmark settings, for the rest of the project.

Imports the shared modules of :mod:`games` only.
"""

from .bitboards import PASS, CELL_NAMES, cell_index, cell_name, flips, legal_mask, stable_counts
from .evaluation import TABLE, discs, mobility, positional, standard
from .game import Othello
from .kind import KIND

__all__ = [
    "KIND",
    "Othello",
    "PASS",
    "CELL_NAMES",
    "cell_index",
    "cell_name",
    "legal_mask",
    "flips",
    "stable_counts",
    "TABLE",
    "discs",
    "mobility",
    "positional",
    "standard",
]
