"""The checkers endgame database: positions of few pieces, their exact values, and how to look one up.

What it holds
=============

Every position with at most ``N`` pieces on the board (men and kings of both colours, either side
to move) has its value with perfect play: a win, a loss or a draw for the side to move, and for a
win or a loss how many plies it takes to the end (the winner hurrying, the loser holding out).  The
draws by rule (threefold repetition, the 40-move rule) are not counted: a draw here is a position
neither side can win, however long it is played.  The values are built by retrograde analysis
(:mod:`games.checkers.endgame_build`) and checked against themselves: every position's value is the
best of its successors' (:func:`games.checkers.endgame_build.check`).

The side to move is always "Black" in the tables: a position with White to move is the same position
turned round (square ``s`` becomes ``33 - s``, the colours swap), so half the positions need no
entry.  A *signature* is the material as the side to move sees it: ``(own men, own kings, opponent's
men, opponent's kings)``.  Within one signature a position's *index* is a mixed-radix number of four
combinatorial (colex) ranks, one per group of pieces: the mover's men on squares 1-28 (never on its
crowning row 29-32), its kings on 1-32, the opponent's men on 5-32 and its kings on 1-32.  Groups may
overlap in an index (two pieces on one square); such entries are never looked up and hold 0.

A value is an ``int16`` *code* from the mover's side: ``0`` a draw, ``d + 1`` a win in ``d`` plies,
``-(d + 1)`` a loss in ``d`` plies (``-1``: no move left, lost now).

Files
=====

One ``.npz`` file per signature, ``SMSKOMOK.npz`` (``2101.npz``: two men and a king against a king),
in a directory (:func:`default_dir`: ``endgames/checkers`` in the user data directory,
``TUI_GAMES_DATA_DIR`` overrides it).  Each holds ``values`` (the codes) and ``header``: the format's
:data:`VERSION`, the signature, the number of entries and the CRC-32 of the codes' bytes.  The files
are read by :func:`games.arrays.read_arrays` (no pickle); a file that is bad, truncated, of another
version or whose checksum does not match is one line (:class:`EndgameError`), said once on stderr
when the search meets it, and the search goes on without that signature.
"""

from __future__ import annotations

import os
import sys
import zlib
from functools import lru_cache
from math import comb
from pathlib import Path
from typing import Any

import numpy as np

from ..arrays import read_arrays
from ..base import EndgameTables, Game, GameError, TableRanking
from .bitboards import BIT, BLACK, CROWN, FULL, JUMPS, KING_JUMPS, KING_STEPS, STEPS, Move, jump_moves

__all__ = ["VERSION", "EndgameError", "Signature", "Endgame", "default_dir", "signatures", "signature_size",
           "decode", "encode", "flip", "probe_masks", "child_code", "code_score", "MAX_FILE_BYTES",
           "open_tables", "default_tables"]

#: The version of the file format (the header's first number).
VERSION = 1
#: The largest file read (the biggest 5-piece signature, compressed, is far below).
MAX_FILE_BYTES = 64 << 20
#: A signature: the mover's men and kings, then the opponent's.
Signature = tuple[int, int, int, int]
#: Each group's (first square, number of squares): mover's men, mover's kings, opponent's men and kings.
GROUPS = ((1, 28), (1, 32), (5, 28), (1, 32))
#: The widest table: ``COMB[n, k]`` is C(n, k) for n up to 32.
COMB = np.array([[comb(n, k) for k in range(8)] for n in range(33)], dtype=np.int64)


class EndgameError(ValueError):
    """A database file that cannot be used (one line naming the file)."""


def default_dir() -> Path:
    """Where the database lives: ``TUI_GAMES_DATA_DIR`` or the user data directory, then ``endgames/checkers``."""
    override = os.environ.get("TUI_GAMES_DATA_DIR")
    if override:
        base = Path(override).expanduser()
    else:
        import platformdirs

        base = Path(platformdirs.user_data_dir("tui-games", appauthor=False))
    return base / "endgames" / "checkers"


def signatures(pieces: int) -> list[Signature]:
    """Every signature of exactly ``pieces`` pieces with a piece on each side, fewest men first
    (a man crowned makes a signature of one man fewer: those are built before)."""
    found = [(sm, sk, om, ok) for sm in range(pieces + 1) for sk in range(pieces + 1)
             for om in range(pieces + 1) for ok in range(pieces + 1)
             if sm + sk + om + ok == pieces and sm + sk and om + ok]
    return sorted(found, key=lambda s: (s[0] + s[2], s))


def signature_size(sig: Signature) -> int:
    """The entries of a signature's table: the product of its groups' numbers of placements."""
    size = 1
    for count, (_first, squares) in zip(sig, GROUPS):
        size *= comb(squares, count)
    return size


def file_name(sig: Signature) -> str:
    return "".join(map(str, sig)) + ".npz"


def decode(sig: Signature, index: np.ndarray) -> list[np.ndarray]:
    """The squares (1-32, ascending in each row) of the four groups of the positions ``index``."""
    radices = [comb(squares, count) for count, (_f, squares) in zip(sig, GROUPS)]
    rest = index.astype(np.int64)
    ranks = []
    for radix in reversed(radices):
        ranks.append(rest % radix)
        rest = rest // radix
    ranks.reverse()
    groups = []
    for count, (first, squares), rank in zip(sig, GROUPS, ranks):
        out = np.empty((len(index), count), dtype=np.int64)
        for j in range(count, 0, -1):
            column = COMB[:squares, j]
            place = np.searchsorted(column, rank, side="right") - 1
            rank = rank - column[place]
            out[:, j - 1] = place + first
        groups.append(out)
    return groups


def encode(sig: Signature, groups: list[np.ndarray]) -> np.ndarray:
    """The index of positions given by their four groups' squares (each row ascending)."""
    index = np.zeros(len(groups[0]), dtype=np.int64)
    for count, (first, squares), group in zip(sig, GROUPS, groups):
        rank = np.zeros(len(group), dtype=np.int64)
        for j in range(count):
            rank += COMB[group[:, j] - first, j + 1]
        index = index * comb(squares, count) + rank
    return index


def masks_of(groups: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The mover's and the opponent's pieces, the kings and the number of distinct squares used."""
    bits = [np.zeros(len(groups[0]), dtype=np.int64) for _ in groups]
    for bit, group in zip(bits, groups):
        for j in range(group.shape[1]):
            bit |= np.left_shift(1, group[:, j] - 1)
    own, opp, kings = bits[0] | bits[1], bits[2] | bits[3], bits[1] | bits[3]
    return own, opp, kings, own | opp


@lru_cache(maxsize=1 << 16)
def flip(mask: int) -> int:
    """The board turned round: square ``s`` goes to ``33 - s`` (the 32 bits reversed)."""
    return int(f"{mask & FULL:032b}"[::-1], 2)


def flip_array(masks: np.ndarray) -> np.ndarray:
    """:func:`flip` over an array of masks."""
    out = np.zeros_like(masks)
    for i in range(32):
        out |= ((masks >> i) & 1) << (31 - i)
    return out


def _squares(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length())
        mask ^= low
    return out


def index_of(own: int, opp: int, kings: int) -> tuple[Signature, int]:
    """The signature and index of a position with the mover as Black (men going to 29-32)."""
    groups = (own & ~kings, own & kings, opp & ~kings, opp & kings)
    sig = tuple(g.bit_count() for g in groups)
    index = 0
    for group, count, (first, squares) in zip(groups, sig, GROUPS):
        rank = 0
        for j, square in enumerate(_squares(group)):
            rank += comb(square - first, j + 1)
        index = index * comb(squares, count) + rank
    return sig, index  # type: ignore[return-value]  # four counts


def code_score(code: int) -> int:
    """A code as a number to maximise: quicker wins first, then draws, then longer losses."""
    if code > 0:
        return 10_000 - code
    if code < 0:
        return -10_000 - code
    return 0


def child_code(code: int) -> int:
    """A successor's code (its mover's view) as the code of the move for the side that made it."""
    if code > 0:
        return -(code + 1)
    if code < 0:
        return -code + 1
    return 0


def successors(own: int, opp: int, kings: int) -> list[tuple[tuple[int, int, int], Move]]:
    """Every legal move of the mover (Black's way) as the successor's masks from its own mover's view
    (turned round), with the move's path and captures ``(path, captured)``."""
    occupied = own | opp
    moves: list[Move] = []
    pieces = own
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        square = low.bit_length()
        if low & kings:
            jump_moves(square, True, opp, occupied ^ low, KING_JUMPS, CROWN[BLACK], moves)
        else:
            jump_moves(square, False, opp, occupied ^ low, JUMPS[BLACK], CROWN[BLACK], moves)
    if not moves:
        pieces = own
        empty = FULL ^ occupied
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            for target, move in (KING_STEPS if low & kings else STEPS[BLACK])[low.bit_length()]:
                if target & empty:
                    moves.append(move)
    out = []
    for move in moves:
        path, captured = move
        start, end = BIT[path[0]], BIT[path[-1]]
        new_kings = kings & ~captured
        if start & kings:
            new_kings = (new_kings & ~start) | end
        elif end & CROWN[BLACK]:
            new_kings |= end
        new_own = (own & ~start) | end
        out.append(((flip(opp & ~captured), flip(new_own), flip(new_kings)), move))
    return out


class Endgame(EndgameTables):
    """The database files of one directory, read when first needed (a file each signature): the
    game's :class:`~games.base.EndgameTables`.

    :meth:`code` gives a position's code, or ``None`` when its signature has no usable file; a bad
    file is said once on stderr (one line) and left alone from then on.  :meth:`probe` answers in
    the tree, :meth:`rank` at the root (the quickest win, the longest loss, every drawing move)."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self.tables: dict[Signature, np.ndarray | None] = {}
        #: The problems met (one line each), in the order met.
        self.problems: list[str] = []
        present = {path.name for path in self.directory.glob("*.npz")} if self.directory.is_dir() else set()
        #: The most pieces for which every signature has a file.
        self.pieces = 0
        for n in range(2, 11):
            if not all(file_name(sig) in present for sig in signatures(n)):
                break
            self.pieces = n

    def table(self, sig: Signature) -> np.ndarray | None:
        """The codes of ``sig``, read and checked once; ``None`` when missing or bad."""
        if sig not in self.tables:
            try:
                self.tables[sig] = load(self.directory / file_name(sig), sig)
            except EndgameError as problem:
                self.tables[sig] = None
                self.problems.append(str(problem))
                print(f"endgame database: {problem}", file=sys.stderr, flush=True)
        return self.tables[sig]

    def code(self, own: int, opp: int, kings: int) -> int | None:
        """The code of a position with the mover as Black, or ``None`` (see the class)."""
        if not own:
            return -1
        if not opp:
            return None
        sig, index = index_of(own, opp, kings)
        if sum(sig) > self.pieces:
            return None
        table = self.table(sig)
        return None if table is None else int(table[index])


    def _masks(self, game: Game[Any]) -> tuple[int, int, int] | None:
        black, white = game.black, game.white  # type: ignore[attr-defined]
        if (black | white).bit_count() > self.pieces:
            return None
        return probe_masks(black, white, game.kings, game.turn)  # type: ignore[attr-defined]

    def probe(self, game: Game[Any]) -> int | None:
        """1 won, 0 drawn, -1 lost for the side to move, or ``None`` beyond the database."""
        masks = self._masks(game)
        if masks is None:
            return None
        code = self.code(*masks)
        return None if code is None else (code > 0) - (code < 0)

    def rank(self, game: Game[Any]) -> TableRanking | None:
        """The root's value and its moves that keep it, best first (see :class:`TableRanking`);
        ``plies`` the distance to the end of the first one (0 for a draw)."""
        masks = self._masks(game)
        if masks is None:
            return None
        code = self.code(*masks)
        if code is None:
            return None
        scored = []
        for child, move in successors(*masks):
            seen = self.code(*child)
            if seen is None:
                return None
            scored.append((code_score(child_code(seen)), move))
        if not scored:
            return None
        best = max(score for score, _move in scored)
        keep = [move for score, move in sorted(scored, key=lambda item: -item[0])
                if (score == best if code else score == 0)]
        turned = game.turn != BLACK
        by_path = {move[0]: move for move in game.legal_moves()}
        moves = tuple(by_path[tuple(33 - s for s in path) if turned else path] for path, _taken in keep)
        return TableRanking((code > 0) - (code < 0), moves, abs(code) - 1 if code else 0)


def save(path: Path, sig: Signature, values: np.ndarray) -> None:
    """Write a signature's codes with their header, through a temporary file (no partial file left)."""
    values = np.ascontiguousarray(values, dtype=np.int16)
    header = np.array([VERSION, *sig, values.size, zlib.crc32(values.tobytes())], dtype=np.int64)
    partial = path.with_name(path.name + ".partial")
    try:
        with open(partial, "wb") as out:
            np.savez_compressed(out, values=values, header=header)
    except OSError as error:  # a full disk, the file size limit: the error names the file it was for
        partial.unlink(missing_ok=True)
        raise OSError(error.errno, error.strerror, str(path)) from None
    os.replace(partial, path)


def load(path: Path, sig: Signature) -> np.ndarray:
    """A signature's codes, checked: the header's version, signature, size and checksum."""
    if not path.is_file():
        raise EndgameError(f"{path}: no such file")
    arrays = read_arrays(path, ("values", "header"), MAX_FILE_BYTES, EndgameError, "checkers endgame",
                         kinds={"values": "i", "header": "i"})
    values, header = arrays["values"], arrays["header"].reshape(-1)
    if header.size != 7 or int(header[0]) != VERSION:
        raise EndgameError(f"{path}: not version {VERSION} of the checkers endgame format: build it again")
    if tuple(int(h) for h in header[1:5]) != sig:
        raise EndgameError(f"{path}: holds the signature {tuple(header[1:5].tolist())}, not {sig}")
    if values.dtype != np.int16 or values.ndim != 1 or values.size != signature_size(sig) \
            or int(header[5]) != values.size:
        raise EndgameError(f"{path}: {values.size:,} entries, not the {signature_size(sig):,} of {sig}")
    if zlib.crc32(values.tobytes()) != int(header[6]):
        raise EndgameError(f"{path}: its checksum does not match: damaged, build it again")
    return values


def probe_masks(black: int, white: int, kings: int, turn: int) -> tuple[int, int, int]:
    """A position as the tables see it: the mover as Black (White to move is turned round)."""
    if turn == BLACK:
        return black, white, kings
    return flip(white), flip(black), flip(kings)


@lru_cache(maxsize=4)
def opened(directory: str) -> Endgame:
    """The database of ``directory``, opened once per process."""
    return Endgame(directory)


def open_tables(path: str) -> Endgame:
    """The database in the folder ``path`` (the ``tables`` option; the game's ``open_tables``);
    :class:`GameError` of one line when it holds no complete set (every signature of 2 pieces at least)."""
    tables = opened(str(Path(path).expanduser().resolve()))
    if not tables.pieces:
        raise GameError(f"{path}: no checkers endgame database in it (every signature of 2 pieces at least)")
    return tables


def default_tables() -> Endgame | None:
    """The database in :func:`default_dir`, when the user has built one (the game's ``default_tables``)."""
    tables = opened(str(default_dir()))
    return tables if tables.pieces else None
