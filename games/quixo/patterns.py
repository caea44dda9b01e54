"""Quixo's terms for learned tables (:mod:`games.learned`): the states of its lines and corners.

The board is seen by the side to move (own cubes, the opponent's) and each
pattern is read in the board's rotations, so that one table serves every
line of a kind wherever it lies:

- ``edge``: a border line (four instances), ``inner``: the lines next to it
  (four), ``middle``: the middle row and column (two), ``diagonal``: the two
  diagonals -- every line five in a row can be made on, in base 3 (0 blank,
  1 own, 2 the opponent's);
- ``corner``: the 3 x 3 square at each corner (four), where the cubes that
  can be taken from two edges meet.

The one scalar is ``line-potential``'s value (the hand-made evaluation,
where the fit starts, at weight 1: the patterns learn what it misses); the
phase is the number of blank cubes (25 at the start, fewer as cubes are
taken).  Entries are sixteenths of the score.  A position won on the board scores as
``line-potential`` scores it (±50000); others are clamped to ±6000.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..base import Heuristic
from ..learned import PatternLayout, TermsForm, bundled_heuristic, tables_file
from .evaluation import LINE_POTENTIAL_WIN, line_potential
from .moves import SIZE

__all__ = ["HEURISTIC_FILES", "FORM", "LAYOUT", "PATTERNS", "SCALARS", "LEARNED_FILE", "terms", "finished", "learned"]

#: Unfinished positions score within this.
CLAMP = 6000
#: The scalar, in the tables' first entry.
SCALARS = ("line-potential",)
_LINE = tuple((x, 0) for x in range(SIZE))
#: Each pattern: its name, its cells (column, row) in reading order, and the quarter turns it is read in.
PATTERNS: tuple[tuple[str, tuple[tuple[int, int], ...], tuple[int, ...]], ...] = (
    ("edge", _LINE, (0, 1, 2, 3)),
    ("inner", tuple((x, 1) for x, _ in _LINE), (0, 1, 2, 3)),
    ("middle", tuple((x, 2) for x, _ in _LINE), (0, 1)),
    ("diagonal", tuple((i, i) for i in range(SIZE)), (0, 1)),
    ("corner", tuple((x, y) for y in range(3) for x in range(3)), (0, 1, 2, 3)),
)


def _turned(cell: tuple[int, int], quarters: int) -> int:
    """The bit of cell ``(column, row)`` turned ``quarters`` quarter turns clockwise."""
    x, y = cell
    for _ in range(quarters):
        x, y = SIZE - 1 - y, x
    return y * SIZE + x


def _layout() -> tuple[PatternLayout, dict[str, int], int]:
    firsts: dict[str, int] = {}
    end = len(SCALARS)
    for name, cells, _ in PATTERNS:
        firsts[name] = end
        end += 3 ** len(cells)
    instances = [(firsts[name], [_turned(cell, quarters) for cell in cells])
                 for name, cells, turns in PATTERNS for quarters in turns]
    return PatternLayout(SIZE * SIZE, instances), firsts, end


#: Where the patterns lie, the first entry of each pattern's table, and the entries in all.
LAYOUT, _FIRSTS, _WEIGHTS = _layout()
def terms(game: Any) -> tuple[list[int], tuple[int], int]:
    """The pattern entries, the scalar and the phase of a Quixo position, for its side to move."""
    x, o = game.x, game.o
    turn = game.turn
    own, opp = (o, x) if turn else (x, o)
    return LAYOUT.indices(own, opp), (line_potential(game, turn),), SIZE * SIZE - (x | o).bit_count()


def finished(game: Any) -> int | None:
    """The side to move's score of a position won on the board, ``None`` for a game in play."""
    winner = game.winner
    if winner is None:
        return None
    return LINE_POTENTIAL_WIN if winner == game.turn else -LINE_POTENTIAL_WIN


#: Quixo's terms, for :mod:`games.learned`.
FORM = TermsForm(name="quixo-patterns/2", weights=_WEIGHTS, scalars=len(SCALARS), phases=SIZE * SIZE, terms=terms,
                 finished=finished, clamp=CLAMP, scalar_names=SCALARS, scale=16, start=((1.0, 1.0),),
                 patterns=tuple((name, _FIRSTS[name], 3 ** len(cells)) for name, cells, _ in PATTERNS))

#: The heuristics read from a file: ``tables:FILE``, tables that ``tui-games train quixo --model tables`` fitted.
HEURISTIC_FILES: dict[str, Callable[[str], Heuristic]] = {"tables": tables_file(FORM)}


#: The tables the package ships (the heuristic ``learned``, ``pvs``'s); ``learned.json`` beside them
#: says how they were made.
LEARNED_FILE = Path(__file__).with_name("learned.npz")
learned = bundled_heuristic(FORM, LEARNED_FILE, "learned")
