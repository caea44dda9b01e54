"""A residual network over ``pesto``: a small learned correction added to the
tapered piece-square score, cheap enough to pay for itself in a search.

The value of a position, for White, is ``pesto`` plus ``G(White's view) -
G(Black's view)``, where a view is the 768 piece-square bits seen from one
side (its own pieces first, its board turned so that it plays up the board:
the inputs of :mod:`games.chess.network`) and ``G`` is one layer of ``N``
clipped-ReLU units with one output weight each::

    G(view) = sum_k w2[k] * clip(b1[k] + sum_{i on} w1[i, k], 0, 1)

The same weights read both views, so the correction is colour-antisymmetric
by construction (and has no constant).

**One Python integer for the whole layer.** Each unit's output weight is
folded into its first layer: ``|w2[k]| * clip(x, 0, 1) == clip(|w2[k]| * x,
0, |w2[k]|)``, so unit ``k`` becomes a *lane* whose rows are ``w1[:, k]``
times ``|w2[k]|`` (and ``2**shift`` centipawns a unit, rounded to integers)
and whose ceiling is ``|w2[k]|``'s.  The output is then a plain sum of
clipped lanes: the *plus* block (White's view of the units with a positive
weight, Black's view of the negative ones) minus the *minus* block (the
rest).  The ``2N`` lanes of :data:`LANE_BITS` bits each are packed into one
integer, the *accumulator*: lane ``j`` holds its value plus ``2**28`` (offset
binary, so the integer is never negative and no lane borrows from the next).
Each of the 768 features (``colour * 384 + (piece_type - 1) * 64 + square``,
python-chess's numbering) has one packed *column*: what the piece adds to
every lane of both views.  A move updates the accumulator by adding the
columns of the pieces it puts on squares and subtracting those it takes off:
one big-integer addition a piece.  Reading the output is a dozen big-integer
operations whatever ``N`` is: the ReLU and the ceilings by bit masks (a
lane's sign bit and a guard bit above it), and each block's sum of lanes as
its remainder modulo ``2**LANE_BITS - 1`` (``2**LANE_BITS`` is 1 modulo that,
so the remainder of a block is the sum of its lanes, which stays below the
modulus).  Lanes of 30 bits, the width of a Python int's digit, keep that
modulus one digit, which CPython divides by fastest: the read costs about
1 us for 16 units, 2 us for 32.  This is the layout of sunfish's packed NNUE
build, written anew.

Integer sums make an updated accumulator exactly the one computed from
scratch, whatever moves and take-backs led to it (a test checks it).

A residual file is a NumPy ``.npz`` of plain arrays, read with
``allow_pickle=False``: ``format``, ``rows`` (768 x N int32: lane ``k``'s
integer row of each side-to-move input, already times ``|w2[k]|``),
``bias`` (N int32), ``ceiling`` (N int32, each >= 1), ``sign`` (N int8, +1 or
-1) and ``shift`` (centipawns are the output ``>> shift``, rounded toward
zero).  ``python -m engines.learning.residual_training`` writes one.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Sequence

import chess

from ..arrays import read_arrays, scalar, within, write_arrays
from ..files import user_path
from .accumulator import Accumulator, feature, pack
from .views import OTHER_VIEW

__all__ = ["FORMAT", "LANE_BITS", "ResidualError", "Residual", "ResidualAccumulators", "feature", "white_view",
           "black_view", "quantise", "residual_file", "residual_heuristic", "RESIDUAL_FILE"]

FORMAT = "tui-games-chess-residual/1"
#: Bits a lane (a Python int digit): a sign (offset) bit at 28, a guard bit at 29.
LANE_BITS = 30
_OFFSET_BIT = LANE_BITS - 2
_VALUE_BITS = LANE_BITS - 1
#: A lane's value (before the clip) must stay within +/- this (checked when a file is read).
LANE_LIMIT = 1 << _OFFSET_BIT
#: At most this many units; the largest file read.
MAX_HIDDEN = 512
MAX_BYTES = 8 * 1024 * 1024
#: Beyond this many changed pieces the accumulator is recomputed rather than updated.
_REFRESH = 12
_KINDS = {"format": "U", "rows": "i", "bias": "i", "ceiling": "i", "sign": "i", "shift": "iu"}


class ResidualError(ValueError):
    """A residual file that cannot be used; the message is one line."""


def white_view(index: int) -> int:
    """The side-to-move input White sees for ``feature`` ``index`` (its own pieces first)."""
    return (index + 384) % 768


def black_view(index: int) -> int:
    """The side-to-move input Black sees for feature ``index`` (its own pieces first, ranks mirrored)."""
    return index ^ 56


def quantise(w1: Any, b1: Any, w2: Any, shift: int = 6) -> dict[str, Any]:
    """The integer arrays of a residual file from a float model (``w1`` 768 x N and ``b1`` in the
    clip's unit, ``w2`` in pawns a unit): the rows, biases and ceilings times ``|w2|``."""
    import numpy as np

    w2 = np.asarray(w2, dtype=np.float64).reshape(-1)
    unit = 100.0 * (1 << shift) * np.abs(w2)  # a lane's integers a unit of the clip
    return {"rows": np.rint(np.asarray(w1, dtype=np.float64) * unit).astype(np.int32),
            "bias": np.rint(np.asarray(b1, dtype=np.float64) * unit).astype(np.int32),
            "ceiling": np.maximum(1, np.rint(unit)).astype(np.int32),
            "sign": np.where(w2 >= 0, 1, -1).astype(np.int8), "shift": np.int32(shift)}


class Residual:
    """A residual network (see the module's docstring), packed for evaluation."""

    def __init__(self, rows: Any, bias: Any, ceiling: Any, sign: Any, shift: int) -> None:
        rows = [[int(x) for x in row] for row in rows]
        bias = [int(x) for x in bias]
        self.hidden = n = len(bias)
        self.shift = int(shift)
        self.ceilings = [int(x) for x in ceiling]
        self.signs = [1 if int(x) > 0 else -1 for x in sign]
        self._arrays = (rows, bias)
        # Unit k's lanes: White's view in the plus block (lane k) when its weight is positive, else in
        # the minus block (lane n + k); Black's view in the other one.
        white_lane = [k if self.signs[k] > 0 else n + k for k in range(n)]
        black_lane = [n + k if self.signs[k] > 0 else k for k in range(n)]
        bits = LANE_BITS

        def lanes_of(values_white: Sequence[int], values_black: Sequence[int], offset: int = 0) -> list[int]:
            lanes = [offset] * (2 * n)
            for k in range(n):
                lanes[white_lane[k]] += values_white[k]
                lanes[black_lane[k]] += values_black[k]
            return lanes

        #: The layer as an accumulator of the board's (:mod:`games.chess.accumulator`): every lane
        #: offset by ``2**28`` through the bias, so the packed sum never goes negative.
        self.accumulator = Accumulator("residual", (lanes_of(rows[white_view(f)], rows[black_view(f)])
                                                    for f in range(768)),
                                       lanes_of(bias, bias, 1 << _OFFSET_BIT), bits)
        #: The packed column of each feature (see :func:`feature`), and the empty board's accumulator.
        self.columns: tuple[int, ...] = self.accumulator.columns
        self.base = self.accumulator.bias
        lanes = range(2 * n)
        self._low = sum(1 << (_OFFSET_BIT + bits * j) for j in lanes)  # each lane's offset bit (its zero)
        self._guard = sum(1 << (_VALUE_BITS + bits * j) for j in lanes)
        self._values = sum(((1 << _VALUE_BITS) - 1) << bits * j for j in lanes)
        self._ceiling = pack(lanes_of(self.ceilings, self.ceilings), bits)
        self._ceiling_guarded = self._ceiling | self._guard
        self._ones = (1 << _VALUE_BITS) - 1
        self._block = bits * n
        self._block_mask = (1 << self._block) - 1
        self._modulus = (1 << bits) - 1
        # Piece-board order (White's pawns ... king, then Black's) to features.
        self._kind_columns = tuple(
            self.columns[feature(colour, piece_type, 0):feature(colour, piece_type, 0) + 64]
            for colour in (chess.WHITE, chess.BLACK) for piece_type in range(1, 7))

    # -- files ------------------------------------------------------------------
    @classmethod
    def from_arrays(cls, arrays: dict[str, Any]) -> Residual:
        """A residual network from :func:`quantise`'s arrays."""
        return cls(arrays["rows"], arrays["bias"], arrays["ceiling"], arrays["sign"], int(arrays["shift"]))

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the network to a new file at ``path`` (never overwriting)."""
        import numpy as np

        rows, bias = self._arrays
        return write_arrays(path, format=np.array(FORMAT), rows=np.asarray(rows, dtype=np.int32),
                            bias=np.asarray(bias, dtype=np.int32), ceiling=np.asarray(self.ceilings, dtype=np.int32),
                            sign=np.asarray(self.signs, dtype=np.int8), shift=np.int32(self.shift))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Residual:
        """Read a residual file, checking every array; any problem is one :class:`ResidualError` line."""
        import numpy as np

        target = user_path(path)
        arrays = read_arrays(target, ("format", "rows", "bias", "ceiling", "sign", "shift"), MAX_BYTES,
                             ResidualError, "residual network", _KINDS)
        found = str(arrays["format"])
        if found != FORMAT:
            raise ResidualError(f"{target}: format {found[:40]!r}, not {FORMAT!r}")
        rows, bias, ceiling, sign = arrays["rows"], arrays["bias"], arrays["ceiling"], arrays["sign"]
        hidden = rows.shape[1] if rows.ndim == 2 else -1
        if (rows.ndim != 2 or rows.shape[0] != 768 or not 0 < hidden <= MAX_HIDDEN
                or any(array.shape != (hidden,) for array in (bias, ceiling, sign))):
            raise ResidualError(f"{target}: arrays of the wrong shapes for a residual network of 768 inputs")
        shift = scalar(arrays, "shift", "iu", str(target), ResidualError, 30)
        if shift < 0 or not np.all(ceiling >= 1) or not np.all(np.abs(sign) == 1):
            raise ResidualError(f"{target}: a negative shift, a ceiling below 1 or a sign other than +/-1")
        # The largest a lane can reach: its bias and its 32 largest rows (a board holds 32 pieces at most).
        reach = np.abs(bias.astype(np.int64)) + np.sort(np.abs(rows.astype(np.int64)), axis=0)[-32:].sum(axis=0)
        if not (within(reach, LANE_LIMIT - 1) and int(ceiling.astype(np.int64).sum()) < (1 << (LANE_BITS - 1))):
            raise ResidualError(f"{target}: weights too large for {LANE_BITS}-bit lanes")
        return cls(rows, bias, ceiling, sign, int(shift))

    # -- evaluation -------------------------------------------------------------
    def accumulate(self, boards: tuple[int, ...]) -> int:
        """The accumulator of the piece boards ``boards`` (:func:`games.chess.network.piece_boards`'s
        order) computed from scratch."""
        accumulator = self.base
        for columns, bb in zip(self._kind_columns, boards):
            while bb:
                low = bb & -bb
                accumulator += columns[low.bit_length() - 1]
                bb ^= low
        return accumulator

    def update(self, accumulator: int, before: tuple[int, ...], after: tuple[int, ...]) -> int | None:
        """``accumulator`` (of piece boards ``before``) moved to ``after``; ``None`` when so many pieces
        differ that a recomputation is cheaper."""
        changed = 0
        for columns, old, new in zip(self._kind_columns, before, after):
            if old != new:
                added = new & ~old
                while added:
                    low = added & -added
                    accumulator += columns[low.bit_length() - 1]
                    added ^= low
                    changed += 1
                removed = old & ~new
                while removed:
                    low = removed & -removed
                    accumulator -= columns[low.bit_length() - 1]
                    removed ^= low
                    changed += 1
                if changed > _REFRESH:
                    return None
        return accumulator

    def output(self, accumulator: int) -> int:
        """The correction in centipawns for White read from ``accumulator`` (rounded toward zero)."""
        low = self._low
        ones = self._ones
        mask = ((accumulator & low) >> _OFFSET_BIT) * ones  # all ones in the lanes >= 0
        y = ((accumulator & mask) | low) - low  # ReLU
        mask = (((self._ceiling_guarded - y) & self._guard) >> _VALUE_BITS) * ones  # the lanes within their ceiling
        y = (y & mask) | (self._ceiling & (mask ^ self._values))
        modulus = self._modulus
        value = (y & self._block_mask) % modulus - (y >> self._block) % modulus
        shift = self.shift
        return value >> shift if value >= 0 else -((-value) >> shift)

    def lanes(self, accumulator: int) -> list[int]:
        """The accumulator's lane values (offsets removed): the plus block, then the minus block."""
        mask = (1 << LANE_BITS) - 1
        return [((accumulator >> LANE_BITS * j) & mask) - (1 << _OFFSET_BIT) for j in range(2 * self.hidden)]

    def reference(self, board: chess.Board) -> int:
        """The correction for White computed lane by lane in plain integers (what the tests compare with)."""
        rows, bias = self._arrays
        total = 0
        for view, sign in ((_white_inputs(board), 1), (_black_inputs(board), -1)):
            for k in range(self.hidden):
                x = bias[k] + sum(rows[i][k] for i in view)
                total += sign * self.signs[k] * min(max(x, 0), self.ceilings[k])
        return total >> self.shift if total >= 0 else -((-total) >> self.shift)

    def correction(self, board: chess.Board) -> int:
        """``board``'s correction for White, from scratch."""
        from .network import piece_boards

        return self.output(self.accumulate(piece_boards(board)))


def _white_inputs(board: chess.Board) -> list[int]:
    return [white_view(feature(colour, piece.piece_type, square))
            for square, piece in board.piece_map().items() for colour in (piece.color,)]


def _black_inputs(board: chess.Board) -> list[int]:
    return [OTHER_VIEW[i] for i in _white_inputs(board)]


class ResidualAccumulators:
    """The accumulators of the positions last evaluated, one per ply, from which the next evaluation
    starts (a sibling's, else the parent's: a move changes two to four pieces).  Any cached position
    serves; the value never depends on what is cached, only its cost does."""

    def __init__(self, residual: Residual) -> None:
        from .network import piece_boards

        self.residual = residual
        self._piece_boards = piece_boards
        self._by_ply: dict[int, tuple[tuple[int, ...], int]] = {}
        self.updates = 0
        self.refreshes = 0

    def correction(self, board: chess.Board) -> int:
        """``board``'s correction for White."""
        boards = self._piece_boards(board)
        ply = len(board.move_stack)
        cache = self._by_ply
        nearest = cache.get(ply) or cache.get(ply - 1)
        accumulator = None
        if nearest is not None:
            accumulator = nearest[1] if nearest[0] == boards else self.residual.update(nearest[1], nearest[0], boards)
        if accumulator is None:
            accumulator = self.residual.accumulate(boards)
            self.refreshes += 1
        else:
            self.updates += 1
        cache[ply] = (boards, accumulator)
        return self.residual.output(accumulator)


#: The bundled residual network.
RESIDUAL_FILE = Path(__file__).with_name("models") / "residual.npz"


def residual_file(path: str, base: Callable[[Any, int], int]) -> Callable[[Any, int], int]:
    """The heuristic ``residual:PATH``: ``base`` (``pesto``, which :mod:`games.chess.evaluation` passes)
    plus the correction of the residual network in the file at ``path``, for ``player`` (0: White).
    The board keeps the network's accumulator through its make/undo (:mod:`games.chess.accumulator`);
    a plain ``chess.Board`` (the reference path) starts from the position evaluated last at its ply
    or the one before (:class:`ResidualAccumulators`).  Raises ``ValueError`` (one line) for a file
    that is not a residual network."""
    return residual_heuristic(Residual.load(path), base, f"residual:{path}")


def residual_heuristic(residual: Residual, base: Callable[[Any, int], int], name: str) -> Callable[[Any, int], int]:
    """``base`` plus ``residual``'s correction, for ``player`` (0: White), named ``name``."""
    fallback = ResidualAccumulators(residual).correction
    accumulator = residual.accumulator
    output = residual.output
    first = base

    def evaluate(game: Any, player: int) -> int:
        board = game.board
        try:
            value = output(board.accumulated(accumulator))
        except AttributeError:  # a plain chess.Board
            value = fallback(board)
        return first(game, player) + (value if player == 0 else -value)

    evaluate.__name__ = name
    return evaluate
