"""A piece-square network: a chess evaluation learned from a deeper search,
kept up to date piece by piece rather than recomputed (an "efficiently
updatable" network, NNUE, in NumPy).

The inputs are 768 bits, one per (piece type, own or theirs, square).  Each
side sees them with its own board turned so that it plays up the board, and
one hidden layer of clipped-ReLU units (the same weights for both) reads each
side's view: the two halves, the side to move's first, feed one output in
centipawns for the side to move.  The evaluation is colour-symmetric by
construction.

The hidden layer's input -- the *accumulator*, its bias plus the weight rows
of the pieces on the board -- is kept in integers (the weights are scaled by
:attr:`Network.scale` and rounded; the clip is at ``scale``, which is 1.0),
for both sides' views at once.  An evaluation starts from the accumulator of
a position evaluated before (in a search: the sibling evaluated last, else
the parent, cached by ply) and adds and subtracts the rows of the few pieces
that differ, found by comparing the twelve piece bitboards.  Integer sums make
that exactly equal to a recomputation (a test checks it over random games).

A network file is a NumPy ``.npz`` of plain arrays, read with
``allow_pickle=False``: ``format``, ``w1`` (768 x H int32), ``b1`` (H int32),
``w2`` (2H float32: the side to move's half, then the other's), ``b2``
(float32) and ``scale``.  Files of format 1 (an output that reads the side to
move's half alone, through an unclipped ReLU) are read too.  ``tui-games
train chess --model network`` writes one from a dataset's positions and labels.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import chess
import numpy as np

from ..arrays import read_arrays, scalar, within, write_arrays
from ..files import user_path
from .views import OTHER_VIEW

__all__ = ["FORMAT", "INPUTS", "OTHER_VIEW", "NetworkError", "Network", "Accumulators", "piece_boards",
           "input_indices"]

#: The ``format`` of a network file, and the earlier one still read.
FORMAT = "tui-games-chess-network/2"
FORMAT_1 = "tui-games-chess-network/1"
#: The number of inputs: 12 piece kinds x 64 squares.
INPUTS = 768
#: Beyond this many changed pieces, the accumulator is recomputed rather than updated.
_REFRESH = 12
#: At most this many hidden units (a file claiming more is refused).
_MAX_HIDDEN = 4096
#: The largest network file read.
MAX_BYTES = 32 * 1024 * 1024
#: The types of a network file's arrays: an integer first layer and scale, a real output.
_KINDS = {"format": "U", "w1": "i", "b1": "i", "w2": "f", "b2": "fi", "scale": "iu"}
#: The largest scale and output weight (or bias) read: far beyond any trained network's.
_MAX_SCALE, _MAX_OUTPUT = 2**20, 1e9


class NetworkError(ValueError):
    """A network file that cannot be used; the message is one line."""


def piece_boards(board: chess.Board) -> tuple[int, ...]:
    """The twelve piece bitboards: White's pawns ... king, then Black's."""
    white = board.occupied_co[chess.WHITE]
    black = board.occupied_co[chess.BLACK]
    kinds = (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings)
    return tuple(bb & white for bb in kinds) + tuple(bb & black for bb in kinds)


def input_indices(board: chess.Board) -> list[int]:
    """The inputs that are on for ``board``, seen by its side to move."""
    boards = piece_boards(board)
    indices = []
    for kind, bb in enumerate(boards):
        for square in chess.scan_forward(bb):
            white_view = kind * 64 + square
            indices.append(white_view if board.turn == chess.WHITE else OTHER_VIEW[white_view])
    return indices


#: :data:`~games.chess.views.OTHER_VIEW` as NumPy indexes columns with it (a tuple would index dimensions).
_OTHER_COLUMNS = list(OTHER_VIEW)


class Network:
    """A trained piece-square network (see the module's docstring).

    ``w2`` has a weight per hidden unit of both views (2H: the side to move's,
    then the other's), in centipawns per unit of the (float) activation;
    ``clip`` is False for a format-1 network (unclipped ReLU)."""

    def __init__(self, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: float, scale: int,
                 clip: bool = True) -> None:
        self.hidden = int(w1.shape[1])
        self.scale = int(scale)
        self.clip = clip
        self.w1 = w1.astype(np.int32)
        self.b1 = b1.astype(np.int32)
        w2 = np.asarray(w2, dtype=np.float64).reshape(-1)
        if w2.shape[0] == self.hidden:  # the side to move's half alone
            w2 = np.concatenate([w2, np.zeros(self.hidden)])
        self.w2 = w2
        self.b2 = float(b2)
        # Both views at once: row i holds White's view of input i, then Black's.
        self._rows = np.concatenate([self.w1, self.w1[_OTHER_COLUMNS]], axis=1)
        self._bias = np.concatenate([self.b1, self.b1]).astype(np.int32)
        own, other = w2[:self.hidden] / self.scale, w2[self.hidden:] / self.scale
        #: The output weights over the accumulator (White's half first) with White, or Black, to move.
        self._out = (np.concatenate([own, other]), np.concatenate([other, own]))
        self._top = self.scale if clip else np.iinfo(np.int32).max

    # -- files ------------------------------------------------------------------
    @classmethod
    def from_float(cls, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: float, scale: int = 1024,
                   clip: bool = True) -> Network:
        """A network from float weights (a trained model's), its first layer rounded to ``1/scale``."""
        return cls(np.rint(np.asarray(w1) * scale).astype(np.int32), np.rint(np.asarray(b1) * scale).astype(np.int32),
                   np.asarray(w2, dtype=np.float32).reshape(-1), float(np.asarray(b2).reshape(-1)[0]), scale, clip)

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the network to a new file at ``path`` (never overwriting)."""
        w2 = self.w2.astype(np.float32)
        return write_arrays(path, format=np.array(FORMAT if self.clip else FORMAT_1), w1=self.w1, b1=self.b1,
                            w2=w2 if self.clip else w2[:self.hidden], b2=np.float32(self.b2),
                            scale=np.int32(self.scale))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Network:
        """Read a network file, checking every array; any problem is one :class:`NetworkError` line."""
        target = user_path(path)
        arrays = read_arrays(target, ("format", "w1", "b1", "w2", "b2", "scale"), MAX_BYTES, NetworkError, "network",
                             _KINDS)
        found = str(arrays["format"])
        if found not in (FORMAT, FORMAT_1):
            raise NetworkError(f"{target}: format {found[:40]!r}, not {FORMAT!r}")
        w1, b1, w2 = arrays["w1"], arrays["b1"], arrays["w2"]
        hidden = w1.shape[1] if w1.ndim == 2 else -1
        outputs = 2 * hidden if found == FORMAT else hidden
        if (w1.ndim != 2 or w1.shape[0] != INPUTS or not 0 < hidden <= _MAX_HIDDEN or b1.shape != (hidden,)
                or w2.shape != (outputs,) or arrays["b2"].size != 1 or arrays["scale"].size != 1):
            raise NetworkError(f"{target}: arrays of the wrong shapes for a network of {INPUTS} inputs")
        scale = scalar(arrays, "scale", "iu", str(target), NetworkError, _MAX_SCALE)
        b2 = scalar(arrays, "b2", "if", str(target), NetworkError, _MAX_OUTPUT)
        if scale < 1:
            raise NetworkError(f"{target}: 'scale' is {scale}, not 1 or more")
        if not (within(w1, 2**20) and within(b1, 2**24)):
            raise NetworkError(f"{target}: first-layer weights too large (they would overflow)")
        if not within(w2, _MAX_OUTPUT):
            raise NetworkError(f"{target}: output weights beyond {_MAX_OUTPUT:g}")
        return cls(w1, b1, w2, float(b2), int(scale), found == FORMAT)

    # -- evaluation -------------------------------------------------------------
    def accumulate(self, boards: tuple[int, ...]) -> np.ndarray:
        """The accumulator of both views (White's then Black's) computed from scratch."""
        indices = [kind * 64 + square for kind, bb in enumerate(boards) for square in chess.scan_forward(bb)]
        return self._bias + self._rows[indices].sum(axis=0, dtype=np.int32)

    def update(self, accumulator: np.ndarray, before: tuple[int, ...], after: tuple[int, ...]) -> np.ndarray | None:
        """``accumulator`` (of the position with piece boards ``before``) moved to ``after``;
        ``None`` when so many pieces differ that a recomputation is cheaper."""
        rows = self._rows
        changed = 0
        for kind in range(12):
            old = before[kind]
            new = after[kind]
            if old != new:
                base = kind * 64
                for square in chess.scan_forward(new & ~old):
                    accumulator = accumulator + rows[base + square]
                    changed += 1
                for square in chess.scan_forward(old & ~new):
                    accumulator = accumulator - rows[base + square]
                    changed += 1
                if changed > _REFRESH:
                    return None
        return accumulator

    def output(self, accumulator: np.ndarray, white_to_move: bool) -> float:
        """The evaluation in centipawns for the side to move, from the accumulator of both views."""
        return float(np.clip(accumulator, 0, self._top) @ self._out[0 if white_to_move else 1]) + self.b2

    def evaluate(self, board: chess.Board) -> float:
        """``board``'s evaluation for the side to move, computed from scratch."""
        return self.output(self.accumulate(piece_boards(board)), board.turn == chess.WHITE)

    def batch(self, inputs: Any) -> np.ndarray:
        """Evaluations of many positions at once: ``inputs`` a (positions x 768) 0/1 matrix (dense or
        SciPy sparse) of the side to move's inputs (:func:`input_indices`)."""
        top = self._top
        own = np.clip(inputs @ self.w1 + self.b1, 0, top)
        other = np.clip(inputs[:, _OTHER_COLUMNS] @ self.w1 + self.b1, 0, top)
        weights = self._out[0]
        return np.asarray(own @ weights[:self.hidden] + other @ weights[self.hidden:]).reshape(-1) + self.b2


class Accumulators:
    """The accumulators of the positions last evaluated, one per ply, from
    which the next evaluation starts (see the module's docstring).

    Any cached position serves: the update adds the pieces that differ, so
    the answer never depends on what is cached, only its cost does."""

    def __init__(self, network: Network) -> None:
        self.network = network
        self._by_ply: dict[int, tuple[tuple[int, ...], np.ndarray]] = {}
        #: How evaluations started: from a near position (updates) or from scratch (refreshes).
        self.updates = 0
        self.refreshes = 0

    def of(self, board: chess.Board) -> np.ndarray:
        """The accumulator of ``board`` (both views)."""
        boards = piece_boards(board)
        ply = len(board.move_stack)
        cache = self._by_ply
        accumulator = None
        nearest = cache.get(ply) or cache.get(ply - 1)  # a sibling, else the parent
        if nearest is not None:
            accumulator = nearest[1] if nearest[0] == boards else self.network.update(nearest[1], nearest[0], boards)
        if accumulator is None:
            accumulator = self.network.accumulate(boards)
            self.refreshes += 1
        else:
            self.updates += 1
        cache[ply] = (boards, accumulator)
        return accumulator

    def evaluate(self, board: chess.Board) -> float:
        """``board``'s evaluation for the side to move."""
        return self.network.output(self.of(board), board.turn == chess.WHITE)
