"""Chess on top of python-chess (its public API only).

- :mod:`games.chess.game` -- :class:`ChessGame`, the adapter: positions (FEN),
  play/undo (``board.push``/``pop``), outcomes, transposition keys;
- :mod:`games.chess.notation` -- reading moves in SAN or UCI, with a reason for
  every refusal;
- :mod:`games.chess.evaluation` -- the heuristics (``material``, ``sef``,
  ``soft``, ``hard``, ``pesto``) and the feature vector;
- :mod:`games.chess.tables` -- their piece-square tables;
- :mod:`games.chess.bitboards` -- bitboard tables and perft's bulk move count;
- :mod:`games.chess.records` -- PGN, written and read by python-chess;
- :mod:`games.chess.board` -- the board as front ends draw it;
- :mod:`games.chess.reference` -- plain python-chess perft, the benchmark's reference;
- :mod:`games.chess.kind` -- :data:`KIND`: all of the above and the score scale,
  levels, help and benchmark settings, for the rest of the project.

Imports python-chess and the shared modules of :mod:`games` only.
"""

from .evaluation import hard, material, pesto, sef, soft
from .game import START_FEN, TERMINATION_REASONS, ChessGame, ChessTermination
from .kind import KIND

__all__ = ["KIND", "ChessGame", "ChessTermination", "START_FEN", "TERMINATION_REASONS", "material", "sef", "soft", "hard", "pesto"]
