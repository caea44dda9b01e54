"""``tui-games bench perft``: move-generation speed beside reference implementations.

Each game's perft through our protocol (:func:`games.perft.perft`) is timed in
the same process as a reference that does the same count another way, the
one the game's benchmark plan names (:class:`games.kind.PerftReference`):

* chess — a plain python-chess ``push``/``pop`` recursion that, like ours,
  counts the last ply with ``board.legal_moves.count()`` instead of playing it;
* checkers — OpenSpiel's ``checkers`` (``pip install open_spiel``) walked from
  Python with ``state.child``; its multi-jumps are several actions, so a move
  counts only when the player to move changes.  OpenSpiel cannot count the last
  ply without playing it, so our figure *without* bulk counting is shown too;
* quixo — the seeds' way: a NumPy board copied for every child and legal moves
  found by trying every border cell and slide (a ply less: it is slow).

Times are the best of ``repeat`` runs (``time.perf_counter``, garbage collector
off while timing; a slow reference runs once); ratios are ours over the
reference, so 2.0 means twice as many leaves per second.
"""

from __future__ import annotations

import gc
import time
from dataclasses import dataclass
from typing import Callable, TypeVar

from games import game_kind, new_game
from games.perft import perft

__all__ = ["BenchRow", "perft_rows", "run_perft_bench"]

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


# ----------------------------------------------------------------------- rows
def perft_rows(games: list[str], *, quick: bool = False, repeat: int = 3) -> list[BenchRow]:
    """Measure every benchmark row for ``games``: each game's perft cases beside its reference."""
    rows: list[BenchRow] = []
    for name in games:
        plan = game_kind(name).bench
        reference = plan.reference
        for case in plan.perft:
            depth = case.quick_depth if quick else case.depth
            game = new_game(name, case.text)
            label, ref_leaves, ref_seconds = "", None, None
            if reference is not None:
                ref_depth = depth - reference.depth_less
                counted, ref_seconds = best_time(lambda: reference.count(case.text, ref_depth),
                                                 1 if reference.depth_less else repeat)
                label = reference.label(ref_depth) if counted is not None else f"(no {reference.name})"
                ref_leaves, ref_seconds = (counted, ref_seconds) if counted is not None else (None, None)
            leaves, seconds = best_time(lambda: perft(game, depth), repeat)
            rows.append(BenchRow(name, case.label, depth, leaves, seconds, label, ref_leaves, ref_seconds,
                                 case.target))
            if case.no_bulk:
                leaves, seconds = best_time(lambda: perft(game, depth, bulk=False), repeat)
                rows.append(BenchRow(name, f"{case.label}, no bulk", depth, leaves, seconds, label,
                                     ref_leaves, ref_seconds, ""))
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
