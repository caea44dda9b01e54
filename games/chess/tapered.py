"""Tapered piece-square evaluations: PeSTO's form, with PeSTO's tables or tables fitted to data.

A tapered evaluation gives every piece kind on every square a midgame and an
endgame value (from White's side; a Black piece counts as minus the value of
the White piece on the mirrored square), sums them over the board, blends the
two sums by the phase -- the minor pieces count 1, rooks 2, queens 4, out of
24 -- and adds a tempo for the side to move.  :func:`tapered` makes one from
its tables; ``pesto`` is PeSTO's, and ``tables:FILE`` the tables ``tui-games
train chess --model tables`` fitted (Texel tuning) from PeSTO's as a start.

A tables file is a NumPy ``.npz`` of plain arrays, read with
``allow_pickle=False``: ``format``, ``mg`` and ``eg`` (6 x 64 int32: pawn,
knight, bishop, rook, queen, king, by python-chess square, White's values) and
``tempo`` (int32).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Sequence

import chess

from .accumulator import Accumulator
from .tables import PESTO_EG_TABLES, PESTO_MG_TABLES, PESTO_PHASE

__all__ = ["TABLES_FORMAT", "KINDS", "TablesError", "tapered", "tapered_columns", "tapered_from_scratch", "pesto_start",
           "tables_terms", "save_tables",
           "load_tables", "tables_file"]

TABLES_FORMAT = "tui-games-chess-tables/1"
#: The piece kinds, in the tables' order.
KINDS = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)
_PHASE = tuple(PESTO_PHASE[kind] for kind in KINDS)
#: The largest tables file read, and the largest value in it (centipawns).
MAX_BYTES = 1024 * 1024
MAX_VALUE = 10_000


class TablesError(ValueError):
    """A tables file that cannot be used; the message is one line."""


def _blend(mg_sum: int, eg_sum: int, phase: int, tempo: int, player: int) -> int:
    """The midgame and endgame sums blended by ``phase`` (at most 24), plus White's ``tempo``, for ``player``."""
    if phase > 24:
        phase = 24
    total = mg_sum * phase + eg_sum * (24 - phase)
    score = total // 24 if total >= 0 else -(-total // 24)  # round toward zero: colour-symmetric
    score += tempo
    return score if player == 0 else -score


def tapered_columns(mg: Sequence[Sequence[int]], eg: Sequence[Sequence[int]]) -> list[tuple[int, int, int]]:
    """Each feature's lanes (midgame, endgame, phase) for tables ``mg`` and ``eg``: a White piece adds its
    values, a Black piece subtracts those of the White piece on the mirrored square."""
    columns = []
    for colour in (chess.BLACK, chess.WHITE):
        for k in range(6):
            for square in range(64):
                if colour == chess.WHITE:
                    columns.append((mg[k][square], eg[k][square], _PHASE[k]))
                else:
                    columns.append((-mg[k][square ^ 56], -eg[k][square ^ 56], _PHASE[k]))
    return columns


def tapered(mg: Sequence[Sequence[int]], eg: Sequence[Sequence[int]], tempo: int,
            name: str = "tapered") -> Callable[[Any, int], int]:
    """The evaluation of tables ``mg`` and ``eg`` (per kind of :data:`KINDS`, White's value by square)
    and ``tempo``, in centipawns for ``player`` (0: White).

    The sums are an :class:`~games.chess.accumulator.Accumulator` of three lanes (midgame, endgame,
    phase), kept by the board's make/undo (:class:`~games.chess.fastboard.FastBoard`); on a plain
    ``chess.Board`` it is :func:`tapered_from_scratch`'s, whose value it equals.
    The accumulator is the function's ``accumulator`` attribute."""
    accumulator = Accumulator(name, tapered_columns(mg, eg))
    scratch = tapered_from_scratch(mg, eg, tempo)
    bits = accumulator.bits
    half = 1 << (bits - 1)
    mask = (1 << bits) - 1

    def evaluate(game: Any, player: int) -> int:
        b = game.board
        try:
            packed = b.accumulated(accumulator)
        except AttributeError:  # a plain chess.Board: the reference path
            return scratch(game, player)
        mg_sum = ((packed + half) & mask) - half
        packed = (packed - mg_sum) >> bits
        eg_sum = ((packed + half) & mask) - half
        phase = (packed - eg_sum) >> bits
        return _blend(mg_sum, eg_sum, phase, tempo if b.turn else -tempo, player)

    evaluate.accumulator = accumulator  # type: ignore[attr-defined]
    return evaluate


def tapered_from_scratch(mg: Sequence[Sequence[int]], eg: Sequence[Sequence[int]],
                         tempo: int) -> Callable[[Any, int], int]:
    """:func:`tapered`'s evaluation summed over the board's bitboards at every call, without an
    accumulator: the reference the tests hold the incremental one to."""
    pieces = tuple(
        ((list(mg[k]), [-mg[k][square ^ 56] for square in range(64)]),
         (list(eg[k]), [-eg[k][square ^ 56] for square in range(64)]), _PHASE[k])
        for k in range(6)
    )

    def evaluate(game: Any, player: int) -> int:
        b = game.board
        occ_w = b.occupied_co[chess.WHITE]
        mg_sum = 0
        eg_sum = 0
        phase = 0
        for bb, ((mg_white, mg_black), (eg_white, eg_black), weight) in zip(
            (b.pawns, b.knights, b.bishops, b.rooks, b.queens, b.kings), pieces
        ):
            if weight:
                phase += weight * bb.bit_count()
            own = bb & occ_w
            bb ^= own
            while own:
                low = own & -own
                sq = low.bit_length() - 1
                mg_sum += mg_white[sq]
                eg_sum += eg_white[sq]
                own ^= low
            while bb:
                low = bb & -bb
                sq = low.bit_length() - 1
                mg_sum += mg_black[sq]
                eg_sum += eg_black[sq]
                bb ^= low
        return _blend(mg_sum, eg_sum, phase, tempo if b.turn else -tempo, player)

    return evaluate


def pesto_start() -> tuple[list[list[int]], list[list[int]], int]:
    """PeSTO's tables (and its tempo, 10): where a fit starts."""
    return ([list(PESTO_MG_TABLES[kind][0]) for kind in KINDS], [list(PESTO_EG_TABLES[kind][0]) for kind in KINDS], 10)


def tables_terms(text: str) -> tuple[list[int], list[float], float]:
    """A FEN's terms for fitting tables, for its side to move: the weight indices (kind x 64 + White's
    square), +1 for its own pieces and -1 for the other's (each seen from its own side, the board
    mirrored for Black), and the phase (1.0: every piece on, 0.0: kings and pawns)."""
    board = chess.Board(text)
    flip = 0 if board.turn == chess.WHITE else 56
    indices: list[int] = []
    signs: list[float] = []
    phase = 0
    for k, kind in enumerate(KINDS):
        for colour, sign in ((board.turn, 1.0), (not board.turn, -1.0)):
            for square in board.pieces(kind, colour):
                seen = square ^ flip if colour == board.turn else square ^ flip ^ 56
                indices.append(k * 64 + seen)
                signs.append(sign)
                phase += _PHASE[k]
    return indices, signs, min(phase, 24) / 24


def save_tables(mg: Any, eg: Any, tempo: float, path: str | os.PathLike[str]) -> Path:
    """Write tables (rounded to centipawns) to a new file at ``path`` (never overwriting)."""
    import numpy as np

    from ..arrays import write_arrays

    return write_arrays(path, format=np.array(TABLES_FORMAT), mg=np.rint(np.asarray(mg)).astype(np.int32).reshape(6, 64),
                        eg=np.rint(np.asarray(eg)).astype(np.int32).reshape(6, 64), tempo=np.int32(round(float(tempo))))


def load_tables(path: str | os.PathLike[str]) -> tuple[list[list[int]], list[list[int]], int]:
    """Read a tables file, checking every array; any problem is one :class:`TablesError` line."""
    from ..arrays import read_arrays, scalar, within
    from ..files import user_path

    target = user_path(path)
    arrays = read_arrays(target, ("format", "mg", "eg", "tempo"), MAX_BYTES, TablesError, "tables",
                         {"format": "U", "mg": "i", "eg": "i", "tempo": "i"})
    if str(arrays["format"]) != TABLES_FORMAT:
        raise TablesError(f"{target}: format {str(arrays['format'])[:40]!r}, not {TABLES_FORMAT!r}")
    mg, eg = arrays["mg"], arrays["eg"]
    if mg.shape != (6, 64) or eg.shape != (6, 64) or arrays["tempo"].size != 1:
        raise TablesError(f"{target}: arrays of the wrong shapes (6 x 64 tables and one tempo)")
    tempo = scalar(arrays, "tempo", "i", str(target), TablesError, MAX_VALUE)
    if not (within(mg, MAX_VALUE) and within(eg, MAX_VALUE)):
        raise TablesError(f"{target}: values beyond {MAX_VALUE} centipawns")
    return mg.tolist(), eg.tolist(), int(tempo)


def tables_file(path: str) -> Callable[[Any, int], int]:
    """The heuristic ``tables:PATH``: the tapered evaluation of the tables in the file at ``path``.
    Raises ``ValueError`` (one line) for a file that is not a tables file."""
    evaluate = tapered(*load_tables(path), name=f"tables:{path}")
    evaluate.__name__ = f"tables:{path}"
    return evaluate
