"""Syzygy endgame tables through python-chess (:mod:`chess.syzygy`).

:class:`SyzygyTables` is chess's :class:`~games.base.EndgameTables`: the search
asks it for the positions with few enough pieces.  Inside the tree
(:meth:`SyzygyTables.probe`) it answers from the WDL tables, and only right
after a capture or a pawn move (the half-move clock at 0), where a WDL value
is exact under the fifty-move rule, never with castling rights (the tables
hold none) and never for a mate on the board (the search scores it as a mate).  At the root (:meth:`SyzygyTables.rank`) it ranks every move by
the DTZ tables as engines do: the distance to the next capture or pawn move
(counted from the root, so a zeroing move that keeps a win is 1 ply), a win
only when it comes before the fifty-move rule draws it given the clock, the
fastest win first and the longest loss first; a cursed win or a blessed loss
(won or lost only past the fifty-move rule) is a draw, since engine games end
at the fifty-move rule (:attr:`~games.chess.game.ChessGame.claim_draws`).

Values are for the side to move: 1 won, 0 drawn, -1 lost.

python-chess reads the table files itself and lazily, on the first probe of
each material.  Opening a folder checks what can be checked up front (it is a
folder, it holds tables, each table is a regular file, so nothing can block a
search on a FIFO); a table that turns out unreadable or corrupt raises inside
python-chess when probed, which this module catches: the position is then
unknown (``None``) and the search goes on as without tables.  The first such
problem is kept in :attr:`SyzygyTables.problem` for whoever wants to say it.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any, Callable, Protocol

import chess
import chess.syzygy

from ..base import EndgameTables, Game, GameError, TableRanking
from ..files import unknown_user, user_path

__all__ = ["SyzygyTables", "Tablebase", "open_syzygy", "table_pieces", "wdl_value"]

#: A Syzygy table's file name: the two sides' pieces, strongest first, each starting with its king.
TABLE_NAME = re.compile(r"(K[QRBNP]*)v(K[QRBNP]*)\.(rtbw|rtbz)\Z")
#: The fifty-move rule in plies: a win must zero the clock before it reaches this.
FIFTY_MOVES = 100


class Tablebase(Protocol):
    """What this module asks of python-chess's :class:`chess.syzygy.Tablebase`
    (a test's stand-in has the same two methods)."""

    def probe_wdl(self, board: chess.Board) -> int: ...

    def probe_dtz(self, board: chess.Board) -> int: ...


def table_pieces(names: list[str]) -> int:
    """The most pieces of the tables among the file ``names`` (``KQvK.rtbw`` is 3; 0: no table)."""
    counts = [len(match[1]) + len(match[2]) for name in names if (match := TABLE_NAME.match(name))]
    return max(counts, default=0)


def wdl_value(wdl: int) -> int:
    """A python-chess WDL (-2..2) as a result under the fifty-move rule: a cursed win
    or a blessed loss (1, -1) is a draw."""
    return 1 if wdl >= 2 else -1 if wdl <= -2 else 0


def open_syzygy(path: str) -> SyzygyTables:
    """The Syzygy tables in the folder ``path``, or a :class:`GameError` of one line:
    no such folder, not a folder, unreadable, no table in it, or a table that is not
    a regular file."""
    typed = os.fspath(path)
    folder = user_path(typed)
    shown = typed if unknown_user(typed) else str(folder)
    try:
        entries = os.listdir(folder)
    except FileNotFoundError:
        user = unknown_user(typed)
        if user is not None:
            raise GameError(f"{shown}: there is no user {user[:40]!r} to expand ~{user[:40]}") from None
        raise GameError(f"{shown}: no such folder (the Syzygy tables' folder)") from None
    except NotADirectoryError:
        raise GameError(f"{shown} is not a folder; give the folder that holds the Syzygy "
                        f".rtbw/.rtbz files") from None
    except OSError as error:
        raise GameError(f"{shown}: cannot read it ({error.strerror or error})") from None
    names = sorted(name for name in entries if TABLE_NAME.match(name))
    if not names:
        raise GameError(f"{shown}: no Syzygy tables in it (files such as KQvK.rtbw and KQvK.rtbz)")
    for name in names:
        try:
            mode = os.stat(folder / name).st_mode
        except OSError as error:
            raise GameError(f"{folder / name}: cannot read it ({error.strerror or error})") from None
        if not stat.S_ISREG(mode):
            raise GameError(f"{folder / name} is not a regular file")
    tablebase = chess.syzygy.Tablebase()
    try:
        tablebase.add_directory(str(folder))
    except OSError as error:  # pragma: no cover - listed a moment ago
        raise GameError(f"{shown}: cannot read it ({error.strerror or error})") from None
    return SyzygyTables(tablebase, table_pieces(names), where=Path(shown))


class SyzygyTables(EndgameTables):
    """Chess positions of up to :attr:`pieces` pieces, from Syzygy tables
    (see the module doc).  ``tablebase`` is python-chess's, or anything with its
    ``probe_wdl`` and ``probe_dtz``."""

    def __init__(self, tablebase: Tablebase, pieces: int, *, where: Path | None = None) -> None:
        self.tablebase = tablebase
        self.pieces = pieces
        #: The folder the tables came from (``None``: given as an object).
        self.where = where
        #: The first table that could not be read, as one line (``None``: none so far).
        self.problem: str | None = None

    def __repr__(self) -> str:
        return f"SyzygyTables({str(self.where or self.tablebase)!r}, pieces={self.pieces})"

    def _holds(self, board: chess.Board) -> bool:
        """Whether a position of ``board`` can be in the tables: few enough pieces, no castling right."""
        return not board.castling_rights and chess.popcount(board.occupied) <= self.pieces

    def _ask(self, probe: Callable[[chess.Board], int], board: chess.Board) -> int | None:
        """``probe(board)``, or ``None`` when the table is missing or cannot be read
        (python-chess raises: a missing table ``KeyError``, a bad file ``OSError`` or
        ``ValueError``, a corrupt one anything; the search must go on)."""
        try:
            return probe(board)
        except KeyError:
            return None
        except Exception as error:  # a corrupt table: python-chess's behaviour is undefined
            if self.problem is None:
                self.problem = f"a Syzygy table could not be read: {' '.join(str(error).split())[:200]}"
            return None

    def probe(self, game: Game[Any]) -> int | None:
        """See :meth:`EndgameTables.probe`: only right after a capture or a pawn move."""
        board: chess.Board = game.board  # type: ignore[attr-defined]
        if board.halfmove_clock or not self._holds(board):
            return None
        if board.is_check() and board.is_checkmate():
            return None  # the search scores a mate as a mate, above any win the tables promise
        wdl = self._ask(self.tablebase.probe_wdl, board)
        return None if wdl is None else wdl_value(wdl)

    def rank(self, game: Game[Any]) -> TableRanking | None:
        """See :meth:`EndgameTables.rank`: each move ranked by its DTZ from the root."""
        root: chess.Board = game.board  # type: ignore[attr-defined]
        if not self._holds(root):
            return None
        board = root.copy(stack=False)
        clock = root.halfmove_clock
        scored: list[tuple[int, int, chess.Move]] = []  # (value, plies, move)
        for move in list(board.legal_moves):
            board.push(move)
            try:
                mated = board.is_checkmate()
                plies = 1 if mated else self._plies(board)
                fresh = mated or board.halfmove_clock == 0  # the root's clock no longer counts
            finally:
                board.pop()
            if plies is None:
                return None  # a table the root needs is missing: the search decides
            scored.append((self._value(plies, 0 if fresh else clock), plies, move))
        if not scored:
            return None
        value = max(entry[0] for entry in scored)
        kept = [entry for entry in scored if entry[0] == value]
        if value:  # a win: the fewest plies first; a loss: the most negative, the longest resistance
            kept.sort(key=lambda entry: entry[1])
        best = kept[0][1]
        return TableRanking(value, tuple(entry[2] for entry in kept), abs(best))

    def _plies(self, board: chess.Board) -> int | None:
        """The DTZ of the move just played on ``board`` (not a mate), for the side that
        played it and counted from before it: positive a win, negative a loss, 0 a draw;
        1 for a zeroing move that wins; ``None`` when the tables do not say."""
        if board.halfmove_clock == 0:  # a capture or a pawn move: the WDL says it all
            wdl = self._ask(self.tablebase.probe_wdl, board)
            if wdl is None:
                return None
            return {2: -1, 1: -101, 0: 0, -1: 101, -2: 1}[max(-2, min(2, wdl))]
        dtz = self._ask(self.tablebase.probe_dtz, board)
        if dtz is None:
            return None
        return -dtz + 1 if dtz < 0 else -dtz - 1 if dtz > 0 else 0

    @staticmethod
    def _value(plies: int, clock: int) -> int:
        """A move's result from its DTZ (see :meth:`_plies`) and the half-move clock it
        leaves counting (the root's, or 0 after a capture, a pawn move or a mate): a win
        or a loss only where it comes before the fifty-move rule."""
        if plies > 0:
            return 1 if plies + clock < FIFTY_MOVES else 0
        if plies < 0:
            return -1 if -plies + clock < FIFTY_MOVES else 0
        return 0
