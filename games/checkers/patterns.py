"""Checkers' terms for learned tables (:mod:`games.learned`): two-row bands, kings' squares, mobility.

The board is seen by the side to move, turned for White so that its men
always move down the board (square ``s`` becomes ``33 - s``):

- ``band1`` ... ``band7``: rows ``r`` and ``r + 1`` (eight squares) as a
  number in base 3 -- 0 empty, 1 an own piece, 2 the opponent's, men and
  kings alike -- a table per pair of rows, since a formation means one thing
  at home and another before promotion: the back-rank guards, bridges,
  triangles and holes, and how the men stand to be exchanged;
- ``kings``: an entry per square for an own king on it, and one for the opponent's;

and the scalars: ``positional``'s value (the hand-made evaluation, where
the fit starts, at weight 1: the patterns learn what it misses -- the same
form fitted from its terms alone, without its value, played no better than
it), the men and the kings (own less the opponent's), the steps each side
could make (mobility) and the pieces on the side files a and h, where a
piece cannot be jumped.  Entries are sixteenths of a man's hundredth.  The phase is the number of pieces
on the board (24 at the start).  A position whose side to move must jump is
no quiet one: the search asks its evaluation after the jumps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..base import Heuristic
from ..learned import PatternLayout, Tables, TermsForm, packed_entries, tables_file, tapered
from .bitboards import DL3, DL4, DR4, DR5, FULL, UL4, UL5, UR3, UR4
from .evaluation import positional, positional_parts

__all__ = ["HEURISTIC_FILES", "FORM", "BANDS", "BANDS_TURNED", "KINGS", "SCALARS", "terms", "turned", "quiet",
           "fast_tables"]

#: Unfinished positions score within this (a man is 100).
CLAMP = 5000
SCALARS = ("positional", "men", "kings", "mobility", "side files")
_SIDE_FILES = sum(1 << (square - 1) for square in (5, 13, 21, 29, 4, 12, 20, 28))
_REVERSED = bytes(int(f"{value:08b}"[::-1], 2) for value in range(256))


def turned(board: int) -> int:
    """The 32-square board turned half round: square ``s`` to ``33 - s``."""
    return int.from_bytes(board.to_bytes(4, "little").translate(_REVERSED), "big")


def _layout() -> tuple[PatternLayout, int, int, tuple[tuple[str, int, int], ...]]:
    first = len(SCALARS)
    bands, named = [], []
    for row in range(7):
        bands.append((first, list(range(4 * row, 4 * row + 8))))
        named.append((f"band{row + 1}", first, 3 ** 8))
        first += 3 ** 8
    named.append(("kings", first, 2 * 32))
    return PatternLayout(32, bands), first, first + 2 * 32, tuple(named)


#: The bands, the first entry of the kings' squares (own kings', then the opponent's), the entries in
#: all and each pattern's first entry.
BANDS, KINGS, _WEIGHTS, _NAMED = _layout()
#: The bands read on the board turned half round (White to move), without turning it.
BANDS_TURNED = PatternLayout(32, [(first, [31 - cell for cell in cells]) for first, cells in BANDS.instances])


def _squares(pieces: int, first: int, turn: int) -> list[int]:
    """The entries ``first + bit`` of the pieces' squares (``bit ^ 31``, the board turned, with ``turn`` 31)."""
    entries = []
    while pieces:
        low = pieces & -pieces
        entries.append(first + ((low.bit_length() - 1) ^ turn))
        pieces ^= low
    return entries


def _down_steps(pieces: int, empty: int) -> int:
    """The steps ``pieces`` could make down the board into ``empty``."""
    return ((((pieces & DL4) << 4 | (pieces & DL3) << 3) & empty).bit_count()
            + (((pieces & DR4) << 4 | (pieces & DR5) << 5) & empty).bit_count())


def _up_steps(pieces: int, empty: int) -> int:
    """The steps ``pieces`` could make up the board into ``empty``."""
    return ((((pieces & UL4) >> 4 | (pieces & UL5) >> 5) & empty).bit_count()
            + (((pieces & UR4) >> 4 | (pieces & UR3) >> 3) & empty).bit_count())


def terms(game: Any) -> tuple[list[int], tuple[int, int, int, int, int], int]:
    """The pattern entries, the scalars and the phase of a checkers position, for its side to move."""
    black, white, kings = game.black, game.white, game.kings
    empty = FULL ^ (black | white)
    if game.turn:  # White's men move up: the patterns are read on the board turned half round
        own, opp, layout, turn, ahead, back = white, black, BANDS_TURNED, 31, _up_steps, _down_steps
    else:
        own, opp, layout, turn, ahead, back = black, white, BANDS, 0, _down_steps, _up_steps
    own_kings, opp_kings = own & kings, opp & kings
    mobility = ahead(own, empty) - back(opp, empty)
    if kings:
        mobility += back(own_kings, empty) - ahead(opp_kings, empty)
    files = (own & _SIDE_FILES).bit_count() - (opp & _SIDE_FILES).bit_count()
    own_count, opp_count = own.bit_count(), opp.bit_count()
    kings_count = own_kings.bit_count() - opp_kings.bit_count()
    men = own_count - opp_count - kings_count
    indices = layout.indices(own, opp)
    if kings:
        indices += _squares(own_kings, KINGS, turn) + _squares(opp_kings, KINGS + 32, turn)
    return indices, (positional(game, game.turn), men, kings_count, mobility, files), own_count + opp_count


def finished(game: Any) -> None:
    """Never: a checkers search scores a game without moves itself."""
    return None


def quiet(game: Any) -> bool:
    """Whether the side to move has no jump (the search's quiescence resolves jumps)."""
    return not game.tactical_moves()


# ------------------------------------------------------------- the fast path
# What :func:`terms` and the generic sum do, in fewer Python operations (the values are the same, to
# the unit: a test compares them on random positions).  The two sides' boards are spread a nibble
# (half a row) apart -- own nibble k at bits 8k, the opponent's at 8k + 4 -- so that band r is
# the 16 bits at 8r: one shift and one mask, then one lookup in that band's table of entries.


def _spread(value: int) -> int:
    """The nibbles of a 16-bit ``value`` a byte apart: nibble k at bit 8k."""
    return sum((value >> 4 * k & 15) << 8 * k for k in range(4))


def _key_states() -> tuple[tuple[int, int], ...]:
    """Every band state: its 16-bit key (see above) and its number in base 3 (1 own, 2 the opponent's)."""
    found = []
    for own in range(256):
        rest = 255 ^ own
        opp = rest
        while True:  # every opp within rest
            state = sum(3 ** bit * (1 if own >> bit & 1 else 2 if opp >> bit & 1 else 0) for bit in range(8))
            found.append((_spread(own) | _spread(opp) << 4, state))
            if not opp:
                break
            opp = (opp - 1) & rest
    return tuple(found)


_SPREAD: list[int] | None = None
_SPREAD_TURNED: list[int] | None = None
_KEY_STATES: tuple[tuple[int, int], ...] = ()


def _prepare() -> None:
    """The spreading tables (made at the first fast tables, not at import: 65,536 entries each)."""
    global _SPREAD, _SPREAD_TURNED, _KEY_STATES
    if _SPREAD is None:
        spread = [_spread(value) for value in range(1 << 16)]
        reverse = [int(f"{value:016b}"[::-1], 2) for value in range(1 << 16)]
        _SPREAD_TURNED = [spread[reverse[value]] for value in range(1 << 16)]
        _KEY_STATES = _key_states()
        _SPREAD = spread


def _interleaved(own: int, opp: int, table: list[int], turn: int) -> int:
    """The two boards spread by ``table`` (:data:`_SPREAD`, or :data:`_SPREAD_TURNED` with ``turn`` 1,
    the board turned half round) and interleaved a nibble apart: own nibble k at bit 8k, the
    opponent's at 8k + 4."""
    if turn:
        return table[own >> 16] | table[own & 0xFFFF] << 32 | (table[opp >> 16] | table[opp & 0xFFFF] << 32) << 4
    return table[own & 0xFFFF] | table[own >> 16] << 32 | (table[opp & 0xFFFF] | table[opp >> 16] << 32) << 4


def fast_tables(tables: Tables) -> Callable[[Any, int], int]:
    """The evaluation of checkers ``tables``: the generic one's value (:func:`games.learned.tables_heuristic`
    over :func:`terms`), computed in one pass over the position."""
    _prepare()
    spread, spread_turned = _SPREAD, _SPREAD_TURNED
    assert spread is not None and spread_turned is not None
    packed = packed_entries(tables)
    w_positional, w_men, w_kings, w_mobility, w_files = packed[:len(SCALARS)]
    # The scalars that count pieces are folded into the entries: ``men`` is the pieces less the
    # kings, so each piece adds ``w_men`` (and each king ``w_kings - w_men`` more) -- a piece's in
    # the band of its rows among bands 1, 3, 5 and 7, which cover the board once; so does a piece
    # on a side file, ``w_files``.
    squares = [w_men + (w_files if _SIDE_FILES >> bit & 1 else 0) for bit in range(32)]
    bands = []
    for number, (first, cells) in enumerate(BANDS.instances):
        band = [0] * (1 << 16)
        for key, state in _KEY_STATES:
            entry = packed[first + state]
            if number % 2 == 0:
                for cell in cells:
                    digit = state // 3 ** (cell - cells[0]) % 3
                    entry += squares[cell] if digit == 1 else -squares[cell] if digit == 2 else 0
            band[key] = entry
        bands.append(band)
    band0, band1, band2, band3, band4, band5, band6 = bands
    # The kings' entries by half-row, spread as the bands are (own kings' nibble, then the opponent's):
    # half-row k's 256 states each add their kings' entries.
    king = w_kings - w_men
    kings_rows = tuple([sum(packed[KINGS + 4 * k + bit] + king for bit in range(4) if state >> bit & 1)
                        + sum(packed[KINGS + 32 + 4 * k + bit] - king for bit in range(4) if state >> 4 + bit & 1)
                        for state in range(256)] for k in range(8))
    row0, row1, row2, row3, row4, row5, row6, row7 = kings_rows
    tempo, clamp, phases = tables.tempo, FORM.clamp, FORM.phases
    divisor = phases * FORM.scale

    def evaluate(game: Any, player: int) -> int:
        black, white, kings = game.black, game.white, game.kings
        score, mobility, pieces = positional_parts(black, white, kings)
        both = score * w_positional + mobility * w_mobility
        turn = game.turn
        if turn:  # White to move: its view, the board turned half round
            both = -both
            own, opp, table = white, black, spread_turned
        else:
            own, opp, table = black, white, spread
        x = _interleaved(own, opp, table, turn)
        both += (band0[x & 0xFFFF] + band1[x >> 8 & 0xFFFF] + band2[x >> 16 & 0xFFFF] + band3[x >> 24 & 0xFFFF]
                 + band4[x >> 32 & 0xFFFF] + band5[x >> 40 & 0xFFFF] + band6[x >> 48])
        if kings:
            x = _interleaved(own & kings, opp & kings, table, turn)
            both += (row0[x & 255] + row1[x >> 8 & 255] + row2[x >> 16 & 255] + row3[x >> 24 & 255]
                     + row4[x >> 32 & 255] + row5[x >> 40 & 255] + row6[x >> 48 & 255] + row7[x >> 56])
        value = tapered(both, pieces, phases, divisor, tempo, clamp)
        return value if player == turn else -value

    return evaluate


#: Checkers' terms, for :mod:`games.learned`.
FORM = TermsForm(name="checkers-patterns/2", weights=_WEIGHTS, scalars=len(SCALARS), phases=24, terms=terms,
                 finished=finished, clamp=CLAMP, scalar_names=SCALARS, patterns=_NAMED, scale=16,
                 start=((1.0, 1.0),), fast=fast_tables)

#: The heuristics read from a file: ``tables:FILE``, tables that ``tui-games train checkers --model tables`` fitted.
HEURISTIC_FILES: dict[str, Callable[[str], Heuristic]] = {"tables": tables_file(FORM)}