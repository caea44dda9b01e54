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
from operator import getitem
from sys import byteorder
from typing import Any

from ..base import Heuristic
from ..learned import PatternLayout, Tables, TermsForm, bundled_heuristic, packed_entries, tables_file, tapered
from .evaluation import (_CENTRE_BONUS, _DOUBLE_THREAT, _INNER_BONUS, _THREAT_TO_MOVE, LINE_POTENTIAL_WIN, _worth,
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
# the unit: a test compares them on random positions).  Every instance gets a field of a wide
# integer, 32 bits, its cells in reading order (the side to move's cubes, then the opponent's), which
# four lookups fill for the whole board (the low 13 and the high 12 cells of each side); the fields
# are then read at once as an array of 32-bit numbers, and each looks up its instance's entry.
# ``line-potential`` is folded in: its lines are instances, so each line's value, weighted, joins
# the line's entries, and the centre and inner cubes join their rows'; the fours that its threats
# count are counted in a field of the sum above the two tables (:data:`_FOURS`).

#: The low cells read by one lookup, and where the fours are counted in a sum (own, then the opponent's).
_LOW = 13
_FOURS = 80


def _fields() -> tuple[tuple[int, int, int], ...]:
    """Each instance's field: its place in the wide integer, its cells, and its first entry."""
    return tuple((32 * number, len(cells), first) for number, (first, cells) in enumerate(LAYOUT.instances))


_FIELDS = _fields()


def _spreads() -> tuple[list[int], list[int], list[int], list[int]]:
    """The four lookups: every value of the low and high cells of the side to move's board, then of
    the opponent's, as their bits in every instance's field."""
    own_bits, opp_bits = [0] * (SIZE * SIZE), [0] * (SIZE * SIZE)
    for (place, size, _), (_, cells) in zip(_FIELDS, LAYOUT.instances):
        for digit, cell in enumerate(cells):
            own_bits[cell] |= 1 << place + digit
            opp_bits[cell] |= 1 << place + size + digit

    def table(bits: list[int]) -> list[int]:
        values = [0] * (1 << len(bits))
        for value in range(1, len(values)):
            low = value & -value
            values[value] = values[value ^ low] | bits[low.bit_length() - 1]
        return values

    return table(own_bits[:_LOW]), table(own_bits[_LOW:]), table(opp_bits[:_LOW]), table(opp_bits[_LOW:])


_SPREADS: tuple[list[int], list[int], list[int], list[int]] | None = None


def fast_tables(tables: Tables) -> Callable[[Any, int], int]:
    """The evaluation of Quixo ``tables``: the generic one's value (:func:`games.learned.tables_heuristic`
    over :func:`terms`), computed in one pass over the position."""
    global _SPREADS
    if _SPREADS is None:
        _SPREADS = _spreads()
    own_low, own_high, opp_low, opp_high = _SPREADS
    packed = packed_entries(tables)
    weight = packed[0]  # line-potential's
    lines = {sum(1 << cell for cell in cells) for (_, cells) in LAYOUT.instances if len(cells) == SIZE}
    lookups = []
    for (_, size, first), (_, cells) in zip(_FIELDS, LAYOUT.instances):
        mask = sum(1 << cell for cell in cells)
        is_line = mask in lines
        is_row = is_line and len({cell // SIZE for cell in cells}) == 1
        entries = {}
        for state in range(3 ** size):
            digits = [state // 3 ** digit % 3 for digit in range(size)]
            key = sum(1 << digit for digit, value in enumerate(digits) if value == 1) | sum(
                1 << size + digit for digit, value in enumerate(digits) if value == 2)
            entry = packed[first + state]
            if is_line:
                own, opp = digits.count(1), digits.count(2)
                entry += (_worth(own, opp) - _worth(opp, own)) * weight + ((own == 4) + ((opp == 4) << 4) << _FOURS)
            if is_row:
                for cell, value in zip(cells, digits):
                    bonus = (_CENTRE_BONUS if 1 << cell & CENTRE else 0) + (_INNER_BONUS if 1 << cell & INNER else 0)
                    entry += bonus * weight if value == 1 else -bonus * weight if value == 2 else 0
            entries[key] = entry
        if size <= SIZE:  # a line's 1,024 keys: a list; a corner's 262,144: a dict of its 19,683 states
            listed = [0] * (1 << 2 * size)
            for key, entry in entries.items():
                listed[key] = entry
            lookups.append(listed)
        else:
            lookups.append(entries)
    threat, double_threat = _THREAT_TO_MOVE * weight, _DOUBLE_THREAT * weight
    fours_half, low_mask = 1 << _FOURS - 1, (1 << _LOW) - 1
    cells, tempo, clamp, phases = SIZE * SIZE, tables.tempo, FORM.clamp, FORM.phases
    divisor = phases * FORM.scale
    instances = tuple(lookups)
    width = 4 * len(instances)

    def evaluate(game: Any, player: int) -> int:
        turn = game.turn
        winner = game.winner
        if winner is not None:
            return LINE_POTENTIAL_WIN if winner == player else -LINE_POTENTIAL_WIN
        x, o = game.x, game.o
        own, opp = (o, x) if turn else (x, o)
        wide = own_low[own & low_mask] | own_high[own >> _LOW] | opp_low[opp & low_mask] | opp_high[opp >> _LOW]
        both = sum(map(getitem, instances, memoryview(wide.to_bytes(width, byteorder)).cast("I")))
        fours = (both + fours_half) >> _FOURS
        both -= fours << _FOURS
        if fours & 15:
            both += threat
        if fours >> 4 > 1:
            both -= double_threat
        value = tapered(both, cells - (x | o).bit_count(), phases, divisor, tempo, clamp)
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
