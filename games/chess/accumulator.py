"""Incremental evaluations over the 768 piece-square features: the accumulator contract.

A *feature* is one piece of one colour on one square::

    feature(colour, piece_type, square) = colour * 384 + (piece_type - 1) * 64 + square

in python-chess's numbering: ``chess.BLACK`` is 0 and ``chess.WHITE`` 1 (so Black's features are
0-383 and White's 384-767), piece types pawn 1 ... king 6, squares a1 = 0 ... h8 = 63.  (The chess
network's inputs, :mod:`games.chess.network`, are ordered White first and seen by the side to move:
another numbering, for another purpose.)

An :class:`Accumulator` is a linear map from the features on the board to a few integer *lanes*:
its ``columns[f]`` holds the lanes feature ``f`` adds, and ``bias`` those of the empty board.  The
lanes are packed into ONE Python int, lane ``i`` at bit ``i * bits`` in two's complement, so that
adding two packed values adds every lane at once: an update is one big-int add however many lanes
there are (the trick of sunfish's NNUE build).  The sum stays exact as long as every lane's true
total stays within ``±(2 ** (bits - 1) - 1)`` on every board; :func:`unpack` reads the lanes back
with their signs.

How a board keeps them (:class:`games.chess.fastboard.FastBoard`, the board of every
:class:`~games.chess.game.ChessGame`):

* ``board.accumulated(acc)`` is the packed sum of ``acc`` for the position on the board: ``bias``
  plus the columns of every piece on it.  The first call for an accumulator *attaches* it to the
  board (computed from scratch, :meth:`Accumulator.value_of`); from then on every ``push`` adds the
  columns of the features the move adds and subtracts those it removes (a quiet move: one of each;
  a capture: one more removed; castling: two of each; a promotion removes the pawn and adds the new
  piece), and every ``pop`` restores the sums saved by the push it undoes.  A null move changes no
  sum.
* Any other change of the pieces (``set_piece_at``, ``set_fen``, ``copy``, ...) drops the sums;
  the next ``accumulated`` recomputes them from scratch.  Copies of a board keep its attached
  accumulators.
* An accumulator is immutable once made (its columns are a tuple); two are the same accumulator
  only if they are the same object, so make each once (at import, or once per loaded model) and
  keep it.  Each attached accumulator costs every push about one big-int add per changed feature,
  so attach only what an evaluation reads.
* Boards that are not :class:`~games.chess.fastboard.FastBoard` (a plain ``chess.Board``, the
  reference path) have no ``accumulated``: evaluations fall back to :meth:`Accumulator.value_of`.

``pesto`` and ``tables:FILE`` are accumulators of three lanes (midgame sum, endgame sum, phase):
see :mod:`games.chess.tapered`.  A network's first layer is one of N lanes (its weights per
feature, quantised to integers that fit the lanes).
"""

from __future__ import annotations

from typing import Iterable, Sequence

import chess

__all__ = ["FEATURES", "LANE_BITS", "Accumulator", "feature", "board_features", "pack", "unpack"]

#: The number of piece-square features.
FEATURES = 768
#: The default width of a lane: totals within ±8,388,607.
LANE_BITS = 24


def feature(colour: chess.Color, piece_type: chess.PieceType, square: chess.Square) -> int:
    """The feature of a ``colour`` ``piece_type`` on ``square`` (python-chess numbering)."""
    return int(colour) * 384 + (piece_type - 1) * 64 + square


def board_features(board: chess.BaseBoard) -> list[int]:
    """The features of every piece on ``board``, by piece type, Black's before White's, squares upwards."""
    found: list[int] = []
    white = board.occupied_co[chess.WHITE]
    for base, bb in ((0, board.pawns), (64, board.knights), (128, board.bishops), (192, board.rooks),
                     (256, board.queens), (320, board.kings)):
        for colour_base, own in ((0, bb & ~white), (384, bb & white)):
            while own:
                low = own & -own
                found.append(colour_base + base + low.bit_length() - 1)
                own ^= low
    return found


def pack(lanes: Sequence[int], bits: int = LANE_BITS) -> int:
    """The lanes as one int, lane ``i`` at bit ``i * bits`` (two's complement across lanes)."""
    value = 0
    for i, lane in enumerate(lanes):
        value += lane << (i * bits)
    return value


def unpack(value: int, lanes: int, bits: int = LANE_BITS) -> list[int]:
    """The ``lanes`` signed lanes of a packed ``value`` (the inverse of :func:`pack`)."""
    half = 1 << (bits - 1)
    mask = (1 << bits) - 1
    found = []
    for _ in range(lanes - 1):
        lane = ((value + half) & mask) - half
        found.append(lane)
        value = (value - lane) >> bits
    found.append(value)
    return found


class Accumulator:
    """A linear map from the 768 features to ``lanes`` integer lanes of ``bits`` bits, packed.

    ``columns`` are the unpacked per-feature lanes (768 rows of ``lanes`` ints) and ``bias`` the
    empty board's lanes; both are packed once here.  ``name`` is for messages only.
    """

    __slots__ = ("name", "lanes", "bits", "columns", "bias")

    def __init__(self, name: str, columns: Iterable[Sequence[int]], bias: Sequence[int] | None = None,
                 bits: int = LANE_BITS) -> None:
        rows = [list(row) for row in columns]
        if len(rows) != FEATURES:
            raise ValueError(f"accumulator {name!r}: {len(rows)} columns, not {FEATURES}")
        lanes = len(rows[0]) if rows else 0
        if not lanes or any(len(row) != lanes for row in rows):
            raise ValueError(f"accumulator {name!r}: every column needs the same number (>= 1) of lanes")
        self.name = name
        self.lanes = lanes
        self.bits = bits
        #: The packed column of each feature.
        self.columns: tuple[int, ...] = tuple(pack(row, bits) for row in rows)
        #: The packed lanes of the empty board.
        self.bias = pack(bias if bias is not None else [0] * lanes, bits)

    def value_of(self, board: chess.BaseBoard) -> int:
        """The packed sum for ``board``, from scratch: ``bias`` plus each piece's column."""
        columns = self.columns
        return self.bias + sum(columns[f] for f in board_features(board))

    def lanes_of(self, board: chess.BaseBoard) -> list[int]:
        """The unpacked lanes for ``board`` (from scratch)."""
        return unpack(self.value_of(board), self.lanes, self.bits)

    def __repr__(self) -> str:
        return f"Accumulator({self.name!r}, lanes={self.lanes}, bits={self.bits})"
