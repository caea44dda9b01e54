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
from sys import byteorder
from typing import Any

from ..base import Heuristic
from ..learned import PatternLayout, Tables, TermsForm, bundled_heuristic, packed_entries, tables_file, tapered
from .evaluation import (CENTRE_BONUS, DOUBLE_THREAT, INNER_BONUS, THREAT_TO_MOVE, LINE_POTENTIAL_WIN, line_worth,
                         line_potential)
from .moves import CENTRE, INNER, SIZE

__all__ = ["HEURISTIC_FILES", "FORM", "LAYOUT", "PATTERNS", "SCALARS", "LEARNED_FILE", "terms", "finished", "learned",
           "fast_tables"]

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


# ------------------------------------------------------------- the fast path
# What :func:`terms` and the generic sum do, in fewer Python operations (the values are the same, to
# the unit: a test compares them on random positions).  Every instance is a 16-bit field of one wide
# integer holding its entry's number (its first entry plus its state in base 3), which six lookups
# fill for the whole board (a side's cells 0-8, 9-16 and 17-24, each value's place values added into
# every field); the fields are read at once as an array of 16-bit numbers, and each picks its entry.
# ``line-potential`` is folded in: its lines are instances, so each line pattern's entries take its
# value, weighted, and the fours its threats count (in a field of the sum above the two tables,
# :data:`_FOURS`); its centre and inner bonuses are a seventeenth field (the own and the opponent's
# cubes there counted), with its entries after the tables'.

#: The cells read by each lookup, and where the fours are counted in a sum (own, then the opponent's).
_CHUNKS = ((0, 9), (9, 8), (17, 8))
_FOURS = 80
#: The bonus field: own inner cubes, the opponent's (times 16), own centre cube (256), the opponent's (512).
_BONUS_STATES = 1024


def _place_values() -> tuple[list[int], list[int], int]:
    """Each cell's place values in every field, for an own cube and an opponent's, and the fields'
    first entries (added once): the instances', then the bonus field's."""
    own, opp = [0] * (SIZE * SIZE), [0] * (SIZE * SIZE)
    offsets = 0
    for number, (first, cells) in enumerate(LAYOUT.instances):
        offsets += first << 16 * number
        for digit, cell in enumerate(cells):
            own[cell] += 3 ** digit << 16 * number
            opp[cell] += 2 * 3 ** digit << 16 * number
    bonus = 16 * LAYOUT.count
    offsets += _WEIGHTS << bonus
    for cell in range(SIZE * SIZE):
        if 1 << cell & INNER:
            own[cell] += 1 << bonus
            opp[cell] += 16 << bonus
        if 1 << cell & CENTRE:
            own[cell] += 256 << bonus
            opp[cell] += 512 << bonus
    return own, opp, offsets


def _spreads() -> tuple[tuple[list[int], ...], tuple[list[int], ...]]:
    """The lookups: for each chunk of cells, every value's place values in the fields, for the side to
    move (the fields' first entries added in its first chunk) and for the opponent."""
    own, opp, offsets = _place_values()

    def table(values: list[int], start: int) -> list[int]:
        sums = [start] * (1 << len(values))
        for value in range(1, len(sums)):
            low = value & -value
            sums[value] = sums[value ^ low] + values[low.bit_length() - 1]
        return sums

    return (tuple(table(own[first:first + size], offsets if first == 0 else 0) for first, size in _CHUNKS),
            tuple(table(opp[first:first + size], 0) for first, size in _CHUNKS))


_SPREADS: tuple[tuple[list[int], ...], tuple[list[int], ...]] | None = None


def fast_tables(tables: Tables) -> Callable[[Any, int], int]:
    """The evaluation of Quixo ``tables``: the generic one's value (:func:`games.learned.tables_heuristic`
    over :func:`terms`), computed in one pass over the position."""
    global _SPREADS
    if _SPREADS is None:
        _SPREADS = _spreads()
    (own0, own1, own2), (opp0, opp1, opp2) = _SPREADS
    entries = packed_entries(tables)
    weight = entries[0]  # line-potential's
    for name, cells, _ in PATTERNS:
        if len(cells) == SIZE:  # a line
            first = _FIRSTS[name]
            for state in range(3 ** SIZE):
                digits = [state // 3 ** digit % 3 for digit in range(SIZE)]
                own, opp = digits.count(1), digits.count(2)
                entries[first + state] += ((line_worth(own, opp) - line_worth(opp, own)) * weight
                                           + ((own == 4) + ((opp == 4) << 4) << _FOURS))
    for state in range(_BONUS_STATES):
        own_inner, opp_inner, own_centre, opp_centre = state & 15, state >> 4 & 15, state >> 8 & 1, state >> 9
        entries.append((INNER_BONUS * (own_inner - opp_inner) + CENTRE_BONUS * (own_centre - opp_centre)) * weight)
    entry = entries.__getitem__
    threat, double_threat = THREAT_TO_MOVE * weight, DOUBLE_THREAT * weight
    fours_half = 1 << _FOURS - 1
    squares, tempo, clamp, phases = SIZE * SIZE, tables.tempo, FORM.clamp, FORM.phases
    divisor = phases * FORM.scale
    width = 2 * (LAYOUT.count + 1)

    def evaluate(game: Any, player: int) -> int:
        turn = game.turn
        winner = game.winner
        if winner is not None:
            return LINE_POTENTIAL_WIN if winner == player else -LINE_POTENTIAL_WIN
        x, o = game.x, game.o
        own, opp = (o, x) if turn else (x, o)
        wide = (own0[own & 511] + own1[own >> 9 & 255] + own2[own >> 17]
                + opp0[opp & 511] + opp1[opp >> 9 & 255] + opp2[opp >> 17])
        both = sum(map(entry, memoryview(wide.to_bytes(width, byteorder)).cast("H")))
        fours = (both + fours_half) >> _FOURS
        both -= fours << _FOURS
        if fours & 15:
            both += threat
        if fours >> 4 > 1:
            both -= double_threat
        value = tapered(both, squares - (x | o).bit_count(), phases, divisor, tempo, clamp)
        return value if player == turn else -value

    return evaluate


#: Quixo's terms, for :mod:`games.learned`.
FORM = TermsForm(name="quixo-patterns/2", weights=_WEIGHTS, scalars=len(SCALARS), phases=SIZE * SIZE, terms=terms,
                 finished=finished, clamp=CLAMP, scalar_names=SCALARS, scale=16, start=((1.0, 1.0),), fast=fast_tables,
                 patterns=tuple((name, _FIRSTS[name], 3 ** len(cells)) for name, cells, _ in PATTERNS))

#: The heuristics read from a file: ``tables:FILE``, tables that ``tui-games train quixo --model tables`` fitted.
HEURISTIC_FILES: dict[str, Callable[[str], Heuristic]] = {"tables": tables_file(FORM)}


#: The tables the package ships (the heuristic ``learned``, ``pvs``'s); ``learned.json`` beside them
#: says how they were made.
LEARNED_FILE = Path(__file__).with_name("learned.npz")
learned = bundled_heuristic(FORM, LEARNED_FILE, "learned")
