"""Chess on top of python-chess (its public API only).

- :mod:`games.chess.game` -- :class:`ChessGame`, the adapter: positions (FEN),
  play/undo (``board.push``/``pop``), outcomes, transposition keys;
- :mod:`games.chess.notation` -- reading moves in SAN or UCI, with a reason for
  every refusal;
- :mod:`games.chess.evaluation` -- the heuristics (``material``, ``sef``,
  ``soft``, ``hard``, ``pesto``) and the feature vector;
- :mod:`games.chess.tables` -- their piece-square tables;
- :mod:`games.chess.bitboards` -- bitboard tables and perft's bulk move count.

Imports python-chess and :mod:`games.base` only.
"""

from .evaluation import hard, material, pesto, sef, soft
from .game import START_FEN, TERMINATION_REASONS, ChessGame

__all__ = ["ChessGame", "START_FEN", "TERMINATION_REASONS", "material", "sef", "soft", "hard", "pesto"]
