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
# the unit: a test compares them on random positions).  Band r is the byte of the board at bit 4r
# (the board's bits in reverse for White: the byte at 24 - 4r, read backwards), so its state is two
# lookups in tables of 256 (a byte's number in base 3, for the own side's pieces and twice that for
# the opponent's) and its entry one more.  Small tables on purpose: lookups in tables of 65,536
# entries, one shift fewer a band, ran slower for the cache they miss.  The kings' entries are a
# lookup a byte of each side's kings.

#: A byte's cells as base-3 digits 1 (an own piece), read from bit 0 up, then from bit 7 down.
_BASE3 = tuple(sum(3 ** bit for bit in range(8) if value >> bit & 1) for value in range(256))
_BASE3_REVERSED = tuple(sum(3 ** bit for bit in range(8) if value >> 7 - bit & 1) for value in range(256))


def fast_tables(tables: Tables) -> Callable[[Any, int], int]:
    """The evaluation of checkers ``tables``: the generic one's value (:func:`games.learned.tables_heuristic`
    over :func:`terms`), computed in one pass over the position."""
    packed = packed_entries(tables)
    w_positional, w_men, w_kings, w_mobility, w_files = packed[:len(SCALARS)]
    # The scalars that count pieces are folded into the entries: ``men`` is the pieces less the
    # kings, so each piece adds ``w_men`` (and each king ``w_kings - w_men`` more) -- a piece's in
    # the band of its rows among bands 1, 3, 5 and 7, which cover the board once; so does a piece
    # on a side file, ``w_files``.
    squares = [w_men + (w_files if _SIDE_FILES >> bit & 1 else 0) for bit in range(32)]
    bands = []
    for number, (first, cells) in enumerate(BANDS.instances):
        band = packed[first:first + 3 ** 8]
        if number % 2 == 0:
            for state in range(3 ** 8):
                for digit, cell in enumerate(cells):
                    value = state // 3 ** digit % 3
                    band[state] += squares[cell] if value == 1 else -squares[cell] if value == 2 else 0
        bands.append(band)
    # Each side to move's view: the bands in the order of the bytes read (White's from the top), the
    # base-3 tables, and the kings' entries a byte (own kings', then the opponent's), for the entries
    # ``KINGS + square`` of the board turned as the bands are.
    king = w_kings - w_men
    views = []
    for turn, digits in ((0, _BASE3), (31, _BASE3_REVERSED)):
        kings_bytes = [[sum(packed[first + ((8 * byte + bit) ^ turn)] + sign * king
                            for bit in range(8) if value >> bit & 1) for value in range(256)]
                       for first, sign in ((KINGS, 1), (KINGS + 32, -1)) for byte in range(4)]
        views.append((*(bands if not turn else bands[::-1]), digits, tuple(2 * value for value in digits),
                      *kings_bytes))
    tempo, clamp, phases = tables.tempo, FORM.clamp, FORM.phases
    divisor = phases * FORM.scale

    def evaluate(game: Any, player: int) -> int:
        black, white, kings = game.black, game.white, game.kings
        score, mobility, pieces = positional_parts(black, white, kings)
        both = score * w_positional + mobility * w_mobility
        turn = game.turn
        if turn:  # White to move: its view
            both = -both
            own, opp = white, black
        else:
            own, opp = black, white
        b0, b1, b2, b3, b4, b5, b6, one, two, k0, k1, k2, k3, q0, q1, q2, q3 = views[turn]
        both += (b0[one[own & 255] + two[opp & 255]] + b1[one[own >> 4 & 255] + two[opp >> 4 & 255]]
                 + b2[one[own >> 8 & 255] + two[opp >> 8 & 255]] + b3[one[own >> 12 & 255] + two[opp >> 12 & 255]]
                 + b4[one[own >> 16 & 255] + two[opp >> 16 & 255]] + b5[one[own >> 20 & 255] + two[opp >> 20 & 255]]
                 + b6[one[own >> 24] + two[opp >> 24]])
        if kings:
            own &= kings
            opp &= kings
            both += (k0[own & 255] + k1[own >> 8 & 255] + k2[own >> 16 & 255] + k3[own >> 24]
                     + q0[opp & 255] + q1[opp >> 8 & 255] + q2[opp >> 16 & 255] + q3[opp >> 24])
        value = tapered(both, pieces, phases, divisor, tempo, clamp)
        return value if player == turn else -value

    return evaluate


#: Checkers' terms, for :mod:`games.learned`.
FORM = TermsForm(name="checkers-patterns/2", weights=_WEIGHTS, scalars=len(SCALARS), phases=24, terms=terms,
                 finished=finished, clamp=CLAMP, scalar_names=SCALARS, patterns=_NAMED, scale=16,
                 start=((1.0, 1.0),), fast=fast_tables)

#: The heuristics read from a file: ``tables:FILE``, tables that ``tui-games train checkers --model tables`` fitted.
HEURISTIC_FILES: dict[str, Callable[[str], Heuristic]] = {"tables": tables_file(FORM)}