"""Othello's terms for learned tables (:mod:`games.learned`): patterns of Logistello's kind.

The board is seen by the side to move (own discs, the opponent's).  Each
pattern is read in the board's four rotations, so that every edge, corner
and line is read the same way wherever it lies and one table serves all of
them (46 instances of 11 patterns, as Edax reads them):

- the lines: ``edge`` (the first row), ``row2``, ``row3`` and ``row4`` --
  their four rotations are every row and column of the board once;
- the corner's 3 x 3 square (``corner3x3``), and its 2 x 5 rectangle
  (``corner2x5``) along either edge;
- the diagonals: the two main ones (``diag8``) and those of 7, 6, 5 and 4
  cells beside them (``diag7`` ... ``diag4``).

A pattern's state is its cells read as a number in base 3 (0 empty, 1 own,
2 the opponent's).  The scalars are the difference in legal placements
(mobility), in potential mobility (empty cells next to the other side's
discs), and the parity (1 when the side to move plays the last disc if
nobody passes, else -1); the phase is the number of empty cells, 60 at the
start.  A finished game scores as ``standard`` scores it: ±(4000 + 16 x
margin); unfinished positions are clamped to ±3000.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..base import Heuristic
from ..learned import PatternLayout, TermsForm, bundled_heuristic, tables_file
from .bitboards import potential_mobility
from .evaluation import STANDARD_CLAMP, STANDARD_MARGIN, STANDARD_WIN

__all__ = ["HEURISTIC_FILES", "FORM", "LAYOUT", "PATTERNS", "SCALARS", "LEARNED_FILE", "terms", "finished", "learned"]

#: The scalars, in the tables' first entries.
SCALARS = ("mobility", "potential mobility", "parity")

_LINE = tuple((x, 0) for x in range(8))
#: Each pattern: its name, its cells (column, row) near the top-left corner in reading order, and
#: the rotations it is read in (a quarter turn clockwise each).
PATTERNS: tuple[tuple[str, tuple[tuple[int, int], ...], tuple[int, ...]], ...] = (
    ("edge", _LINE, (0, 1, 2, 3)),
    ("row2", tuple((x, 1) for x, _ in _LINE), (0, 1, 2, 3)),
    ("row3", tuple((x, 2) for x, _ in _LINE), (0, 1, 2, 3)),
    ("row4", tuple((x, 3) for x, _ in _LINE), (0, 1, 2, 3)),
    ("corner3x3", tuple((x, y) for y in range(3) for x in range(3)), (0, 1, 2, 3)),
    ("corner2x5", tuple((x, y) for y in range(2) for x in range(5)), (0, 1, 2, 3)),
    ("corner5x2", tuple((y, x) for x in range(5) for y in range(2)), (0, 1, 2, 3)),  # shares corner2x5's table
    ("diag8", tuple((i, i) for i in range(8)), (0, 1)),
    ("diag7", tuple((i + 1, i) for i in range(7)), (0, 1, 2, 3)),
    ("diag6", tuple((i + 2, i) for i in range(6)), (0, 1, 2, 3)),
    ("diag5", tuple((i + 3, i) for i in range(5)), (0, 1, 2, 3)),
    ("diag4", tuple((i + 4, i) for i in range(4)), (0, 1, 2, 3)),
)
#: Patterns read through another's table (its mirror image, cell for cell).
_SHARES = {"corner5x2": "corner2x5"}


def _turned(cell: tuple[int, int], quarters: int) -> int:
    """The bit of cell ``(column, row)`` turned ``quarters`` quarter turns clockwise."""
    x, y = cell
    for _ in range(quarters):
        x, y = 7 - y, x
    return y * 8 + x


def _layout() -> tuple[PatternLayout, dict[str, int], int]:
    firsts: dict[str, int] = {}
    end = len(SCALARS)
    for name, cells, _ in PATTERNS:
        if name not in _SHARES:
            firsts[name] = end
            end += 3 ** len(cells)
    instances = [(firsts[_SHARES.get(name, name)], [_turned(cell, quarters) for cell in cells])
                 for name, cells, turns in PATTERNS for quarters in turns]
    return PatternLayout(64, instances), firsts, end


#: Where the patterns lie, the first entry of each pattern's table, and the entries in all.
LAYOUT, _FIRSTS, _WEIGHTS = _layout()


def terms(game: Any) -> tuple[list[int], tuple[int, int, int], int]:
    """The pattern entries, the scalars and the phase of an Othello position, for its side to move."""
    own, opp = game.discs(game.turn), game.discs(game.turn ^ 1)
    empties = 64 - (own | opp).bit_count()
    scalars = (game.mobility().bit_count() - game.opponent_mobility().bit_count(),
               potential_mobility(own, opp) - potential_mobility(opp, own),
               1 if empties & 1 else -1)
    return LAYOUT.indices(own, opp), scalars, min(empties, 60)


def finished(game: Any) -> int | None:
    """The side to move's score of a finished game (``standard``'s), ``None`` for a game in play."""
    if game.mobility() or game.opponent_mobility():
        return None
    margin = game.discs(game.turn).bit_count() - game.discs(game.turn ^ 1).bit_count()
    if margin > 0:
        return STANDARD_WIN + STANDARD_MARGIN * margin
    if margin < 0:
        return -STANDARD_WIN + STANDARD_MARGIN * margin
    return 0


#: Othello's terms, for :mod:`games.learned`.
FORM = TermsForm(name="othello-patterns/1", weights=_WEIGHTS, scalars=len(SCALARS), phases=60, terms=terms,
                 finished=finished, clamp=STANDARD_CLAMP, scalar_names=SCALARS,
                 patterns=tuple((name, first, 3 ** len(cells)) for name, cells, _ in PATTERNS
                                if name in _FIRSTS for first in (_FIRSTS[name],)))
#: The heuristics read from a file: ``tables:FILE``, tables that ``tui-games train othello --model tables`` fitted.
HEURISTIC_FILES: dict[str, Callable[[str], Heuristic]] = {"tables": tables_file(FORM)}


#: The tables the package ships (the heuristic ``learned``, ``pvs``'s); ``learned.json`` beside them
#: says how they were made.
LEARNED_FILE = Path(__file__).with_name("learned.npz")
learned = bundled_heuristic(FORM, LEARNED_FILE, "learned")
