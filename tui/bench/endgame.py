"""``tui-games bench endgame``: the exact endgame solver on positions with published values.

For each game whose kind lists solver test positions (``BenchPlan.solve_cases``),
each chosen position is solved from scratch (:meth:`games.base.Game.solve`, no
reach limit) and its value, best move, nodes, time and nodes/s printed beside
the published value and best moves, one line as each finishes.  A position
that takes longer than ``--timeout`` seconds is abandoned and said so.
``--without NAME`` turns a refinement of the solver off (the same values,
found with more nodes: what the refinement buys).

Othello's solver is compiled with numba when numba is installed (the ``fast``
extra, :mod:`games.othello.compiled`): the bench then waits for the
compilation once (:func:`choose_solver`, one line said while it waits) so that
every position is timed with the same solver, and says in its header which
solver served.  ``--solver python`` or ``compiled`` chooses; ``--without``
measures the pure-Python solver's refinements, so it takes the pure solver.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from games import game_class, game_kind
from games.kind import SolveCase

__all__ = ["EndgameRow", "SOLVERS", "choose_solver", "solve_case", "run_endgame_bench"]

#: The solvers ``--solver`` chooses from: Othello's pure-Python solver or its compiled one.
SOLVERS = ("python", "compiled")
#: Said once while the compiled solver is being prepared (compiled, or loaded from numba's cache).
COMPILING = "compiling the endgame solver once (numba; later runs load it from numba's cache)..."

#: No position of a game is further from the end than this (Othello: 60 empty cells).
NO_LIMIT = 64


class _OutOfTime(Exception):
    """A position's solve went past its timeout."""


@dataclass(frozen=True)
class EndgameRow:
    """One position solved (or abandoned: ``value`` is ``None``)."""

    number: int
    depth: int
    value: int | None
    move: str | None
    nodes: int
    seconds: float
    expected: int
    best: tuple[str, ...]

    @property
    def right(self) -> bool:
        """The published value, reached by one of the published best moves."""
        return self.value == self.expected and self.move in self.best


def solve_case(name: str, case: SolveCase, *, timeout: float | None = None,
               off: Iterable[str] = ()) -> EndgameRow:
    """Solve ``case`` of game ``name`` from scratch, within ``timeout`` seconds if given."""
    game = game_class(name).from_text(case.position)
    counted = [0]
    start = time.perf_counter()
    deadline = None if timeout is None else start + timeout

    def tick(nodes: int) -> None:
        counted[0] += nodes
        if deadline is not None and time.perf_counter() > deadline:
            raise _OutOfTime

    try:
        solution = game.solve(NO_LIMIT, tick, off)
    except _OutOfTime:
        return EndgameRow(case.number, 0, None, None, counted[0], time.perf_counter() - start,
                          case.value, case.best)
    seconds = time.perf_counter() - start
    assert solution is not None  # no reach limit
    move = None if solution.move is None else game.format_move(solution.move)
    return EndgameRow(case.number, solution.depth, solution.value, move, solution.nodes, seconds,
                      case.value, case.best)


def choose_solver(choice: str | None, say: Callable[[str], None] = print) -> str:
    """Make ``choice`` (:data:`SOLVERS`; ``None``: the compiled one when numba is installed
    and ``TUI_GAMES_COMPILED`` is not ``off``) serve Othello's solves in this process,
    waiting for the compilation if it is needed (``say`` tells so first, one line).
    Returns which solver serves, in a few words; a ``ValueError`` of one line when the
    compiled solver is asked for and cannot serve."""
    from games.othello.solving import COMPILED

    if choice not in (None, *SOLVERS):
        raise ValueError(f"no such solver: {choice!r} (the solvers: {', '.join(SOLVERS)})")
    COMPILED.enabled = {None: None, "python": False, "compiled": True}[choice]
    if COMPILED.wanted() and (choice == "compiled" or COMPILED.installed()):
        if COMPILED.ready() is None and COMPILED.compiling():
            say(COMPILING)
            COMPILED.ready(wait=True)
        if choice == "compiled" and COMPILED.ready() is None:
            raise ValueError(f"the compiled solver cannot serve: {COMPILED.failure}")
    return COMPILED.status()


def run_endgame_bench(games: Sequence[str], *, numbers: Callable[[int], bool] = lambda number: True,
                      timeout: float | None = None, off: Sequence[str] = (),
                      solver: str | None = None) -> list[EndgameRow]:
    """Solve and print, one line per position as it finishes; the rows.  ``solver``
    as :func:`choose_solver` takes it (with ``off``: the pure-Python solver), for this
    run only."""
    from games.othello.solving import COMPILED

    before = COMPILED.enabled
    try:
        return _run_endgame_bench(games, numbers, timeout, off, choose_solver("python" if off else solver))
    finally:
        COMPILED.enabled = before


def _run_endgame_bench(games: Sequence[str], numbers: Callable[[int], bool], timeout: float | None,
                       off: Sequence[str], served: str) -> list[EndgameRow]:
    rows: list[EndgameRow] = []
    for name in games:
        plan = game_kind(name).bench
        if plan.solve_cases is None:
            continue
        cases = [case for case in plan.solve_cases() if numbers(case.number)]
        without = f", without {', '.join(off)}" if off else ""
        print(f"{name}: {plan.solve_source}{without}; {served}; times measured on this machine as it is loaded",
              flush=True)
        print(f"{'#':>4} {'empties':>7} {'value':>6} {'move':>5} {'nodes':>13} {'time s':>9} {'nodes/s':>9}  "
              "published", flush=True)
        done = []
        for case in cases:
            row = solve_case(name, case, timeout=timeout, off=off)
            rows.append(row)
            published = f"{case.value:+d} {','.join(case.best)}"
            if row.value is None:
                print(f"{row.number:>4} {'':>7} {'-':>6} {'-':>5} {row.nodes:>13,} {row.seconds:>9.1f} "
                      f"{row.nodes / row.seconds if row.seconds else 0:>9,.0f}  {published}  "
                      f"timed out after {timeout:g} s", flush=True)
                continue
            done.append(row)
            verdict = "right" if row.right else "WRONG"
            print(f"{row.number:>4} {row.depth:>7} {row.value:>+6d} {row.move or '-':>5} {row.nodes:>13,} "
                  f"{row.seconds:>9.1f} {row.nodes / row.seconds if row.seconds else 0:>9,.0f}  "
                  f"{published}  {verdict}", flush=True)
        if done:
            nodes = sum(row.nodes for row in done)
            seconds = sum(row.seconds for row in done)
            print(f"solved {len(done)} of {len(cases)}, {sum(row.right for row in done)} right: "
                  f"{nodes:,} nodes in {seconds:.1f} s ({nodes / seconds if seconds else 0:,.0f} nodes/s)",
                  flush=True)
    return rows
