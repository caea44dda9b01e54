"""``tui-games bench perft``: move-generation speed beside reference implementations.

Each game's perft through our protocol (:func:`games.perft.perft`) is timed in
the same process as a reference that does the same count another way:

* chess — a plain python-chess ``push``/``pop`` recursion that, like ours,
  counts the last ply with ``board.legal_moves.count()`` instead of playing it;
* checkers — OpenSpiel's ``checkers`` (``pip install open_spiel``) walked from
  Python with ``state.child``; its multi-jumps are several actions, so a move
  counts only when the player to move changes.  OpenSpiel cannot count the last
  ply without playing it, so our figure *without* bulk counting is shown too;
* quixo — the seeds' way: a NumPy board copied for every child and legal moves
  found by trying every border cell and slide.

Times are the best of ``repeat`` runs (``time.perf_counter``, garbage collector
off while timing); ratios are ours over the reference, so 2.0 means twice as
many leaves per second.
"""

from __future__ import annotations

import copy
import gc
import time
from dataclasses import dataclass
from typing import Callable, TypeVar

from games import new_game
from games.perft import perft

__all__ = ["BenchRow", "perft_rows", "run_perft_bench"]

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


@dataclass
class BenchRow:
    game: str
    what: str
    depth: int
    leaves: int
    seconds: float
    reference: str = ""
    ref_leaves: int | None = None
    ref_seconds: float | None = None
    target: str = ""

    @property
    def rate(self) -> float:
        return self.leaves / self.seconds

    @property
    def ref_rate(self) -> float | None:
        if self.ref_leaves is None or not self.ref_seconds:
            return None
        return self.ref_leaves / self.ref_seconds

    @property
    def ratio(self) -> float | None:
        ref = self.ref_rate
        return None if ref is None else self.rate / ref


T = TypeVar("T")


def best_time(fn: Callable[[], T], repeat: int = 3, enough: float | None = None) -> tuple[T, float]:
    """``fn()`` and its best wall time over up to ``repeat`` runs, with the cyclic
    GC off while timing (as :mod:`timeit` does) so that collections triggered by
    other rows' garbage do not land in this one.  With ``enough``, a run that
    takes at least that many seconds is not repeated."""
    best = float("inf")
    result: T
    for _ in range(max(1, repeat)):
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            result = fn()
            best = min(best, time.perf_counter() - start)
        finally:
            gc.enable()
        if enough is not None and best >= enough:
            break
    return result, best


# ------------------------------------------------------------------ references
def chess_reference_perft(board, depth: int) -> int:
    """Plain python-chess recursion, last ply counted without playing it."""
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += chess_reference_perft(board, depth - 1)
        board.pop()
    return total


def openspiel_checkers_perft(state, depth: int) -> int:
    """Perft over OpenSpiel's checkers, counting a move when the player changes."""
    if depth == 0:
        return 1
    player = state.current_player()
    total = 0
    for action in state.legal_actions():
        child = state.child(action)
        if child.is_terminal():
            total += depth == 1
        elif child.current_player() == player:  # a multi-jump goes on: same move
            total += openspiel_checkers_perft(child, depth)
        else:
            total += openspiel_checkers_perft(child, depth - 1)
    return total


class SeedQuixo:
    """Quixo the seeds' way: a 5x5 NumPy board, deep-copied for every child."""

    SLIDES = ("top", "bottom", "left", "right")

    def __init__(self) -> None:
        import numpy as np

        self.board = np.full((5, 5), -1, dtype=int)
        self.player = 0

    def children(self) -> list["SeedQuixo"]:
        out = []
        for x in range(5):
            for y in range(5):
                if x not in (0, 4) and y not in (0, 4):
                    continue
                for slide in self.SLIDES:
                    child = copy.deepcopy(self)
                    if child._move(x, y, slide):
                        child.player = 1 - self.player
                        out.append(child)
        return out

    def _move(self, x: int, y: int, slide: str) -> bool:
        b = self.board
        if b[y, x] not in (-1, self.player):
            return False
        # never pushed back in where it came from: that rule alone leaves a
        # corner 2 slides and any other border cube 3
        if (slide == "top" and y == 0) or (slide == "bottom" and y == 4):
            return False
        if (slide == "left" and x == 0) or (slide == "right" and x == 4):
            return False
        if slide == "top":
            b[1 : y + 1, x] = b[0:y, x].copy()
            b[0, x] = self.player
        elif slide == "bottom":
            b[y:4, x] = b[y + 1 : 5, x].copy()
            b[4, x] = self.player
        elif slide == "left":
            b[y, 1 : x + 1] = b[y, 0:x].copy()
            b[y, 0] = self.player
        else:
            b[y, x:4] = b[y, x + 1 : 5].copy()
            b[y, 4] = self.player
        return True


def seed_quixo_perft(state: SeedQuixo, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(seed_quixo_perft(child, depth - 1) for child in state.children())


# ----------------------------------------------------------------------- rows
def perft_rows(games: list[str], *, quick: bool = False, repeat: int = 3) -> list[BenchRow]:
    """Measure every benchmark row for ``games``."""
    rows: list[BenchRow] = []
    if "chess" in games:
        import chess

        for label, fen, depth in (("start", None, 3 if quick else 4), ("kiwipete", KIWIPETE, 2 if quick else 3)):
            game = new_game("chess", fen)
            leaves, seconds = best_time(lambda: perft(game, depth), repeat)
            board = chess.Board(fen) if fen else chess.Board()
            ref_leaves, ref_seconds = best_time(lambda: chess_reference_perft(board, depth), repeat)
            rows.append(BenchRow("chess", label, depth, leaves, seconds,
                                 "python-chess", ref_leaves, ref_seconds, ">=1.0x"))
    if "checkers" in games:
        depth = 5 if quick else 7
        game = new_game("checkers")
        try:
            import pyspiel  # type: ignore[import-not-found]
        except ImportError:
            pyspiel = None
        if pyspiel is not None:
            state = pyspiel.load_game("checkers").new_initial_state()
            ref_leaves, ref_seconds = best_time(lambda: openspiel_checkers_perft(state, depth), repeat)
            ref = ("OpenSpiel", ref_leaves, ref_seconds)
        else:
            ref = ("(no open_spiel)", None, None)
        leaves, seconds = best_time(lambda: perft(game, depth), repeat)
        rows.append(BenchRow("checkers", "start", depth, leaves, seconds, *ref, ">=2.0x"))
        leaves, seconds = best_time(lambda: perft(game, depth, bulk=False), repeat)
        rows.append(BenchRow("checkers", "start, no bulk", depth, leaves, seconds, *ref, ""))
    if "quixo" in games:
        depth = 3 if quick else 4
        game = new_game("quixo")
        leaves, seconds = best_time(lambda: perft(game, depth), repeat)
        ref_depth = 2 if quick else 3
        ref_leaves, ref_seconds = best_time(lambda: seed_quixo_perft(SeedQuixo(), ref_depth), 1)
        rows.append(BenchRow("quixo", "start", depth, leaves, seconds,
                             f"seeds' deepcopy d{ref_depth}", ref_leaves, ref_seconds, ">=800k/s"))
        leaves, seconds = best_time(lambda: perft(game, depth, bulk=False), repeat)
        rows.append(BenchRow("quixo", "start, no bulk", depth, leaves, seconds,
                             f"seeds' deepcopy d{ref_depth}", ref_leaves, ref_seconds, ""))
    return rows


def run_perft_bench(games: list[str], *, quick: bool = False, repeat: int = 3) -> None:
    """Measure and print the table."""
    from rich.console import Console
    from rich.table import Table

    console = Console(width=max(130, Console().width))
    table = Table(title="perft leaves/s (best of %d)" % repeat)
    for col in ("game", "position", "d", "leaves", "leaves/s", "reference", "ref leaves/s",
                "ratio", "target"):
        table.add_column(col, no_wrap=True,
                         justify="right" if col in ("d", "leaves", "leaves/s", "ref leaves/s", "ratio") else "left")
    with console.status("measuring…"):
        rows = perft_rows(games, quick=quick, repeat=repeat)
    for r in rows:
        table.add_row(
            r.game, r.what, str(r.depth), f"{r.leaves:,}", f"{r.rate:,.0f}", r.reference,
            "-" if r.ref_rate is None else f"{r.ref_rate:,.0f}",
            "-" if r.ratio is None else f"{r.ratio:.2f}x", r.target,
        )
    console.print(table)
