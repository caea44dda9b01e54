"""The FFO endgame test positions #40-#49 with their exact values (``ffo.txt``).

A public test set: Gunnar Andersson's FFO endgame suite, whose positions also
ship as Edax's problem files.  Each line of ``ffo.txt`` is a number, the board
as 64 characters (``a1`` ... ``h1``, ``a2`` ... ``h8``; ``X`` Black, ``O``
White, ``-`` empty), the side to move (``X`` or ``O``), the exact final disc
difference for it and its best moves.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from ..kind import SolveCase
from .bitboards import SIZE

__all__ = ["FFO_SOURCE", "ffo_cases", "ffo_text"]

#: Where the positions come from, as the benchmark names it.
FFO_SOURCE = "FFO endgame test suite #40-#49 (Gunnar Andersson; Edax's fforum-40-59.obf)"


def ffo_text(board: str, side: str) -> str:
    """The position text (see :class:`~games.othello.Othello`) of an FFO board and side to move."""
    cells = board.replace("X", "B").replace("O", "W").replace("-", ".")
    rows = "/".join(cells[row * SIZE:(row + 1) * SIZE] for row in range(SIZE))
    return f"{rows} {'B' if side == 'X' else 'W'}"


@cache
def ffo_cases() -> tuple[SolveCase, ...]:
    """Every position of ``ffo.txt``, in its order."""
    text = resources.files(__package__).joinpath("ffo.txt").read_text(encoding="ascii")
    cases = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        number, board, side, value, best = line.split()
        cases.append(SolveCase(int(number), ffo_text(board, side), int(value), tuple(best.split(","))))
    return tuple(cases)
