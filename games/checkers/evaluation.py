"""The checkers heuristics: ``material`` and ``positional``.

Both score from ``player``'s side, in units where a man is 100.
"""

from __future__ import annotations

from typing import Protocol

from ..base import Heuristic

from .bitboards import (
    BLACK,
    BACK,
    BIT,
    DL3,
    DL4,
    DR4,
    DR5,
    FULL,
    SQUARES,
    UL4,
    UL5,
    UR3,
    UR4,
    down_left,
    down_right,
    mask,
    square_coords,
    up_left,
    up_right,
)

class Checkers(Protocol):
    """What the heuristics read of a checkers position (:class:`games.checkers.Checkers`)."""

    @property
    def black(self) -> int: ...
    @property
    def white(self) -> int: ...
    @property
    def kings(self) -> int: ...
    @property
    def turn(self) -> int: ...


# ---------------------------------------------------------------- heuristics
MAN_VALUE = 100
KING_VALUE = 150

#: The inner centre (c5, e5, d4, f4) and the squares just outside it on the long files (d6, f6, c3, e3).
_CENTRE = mask((14, 15, 18, 19))
_CENTRE_RING = mask((10, 11, 22, 23))
#: Side files a and h, where a piece cannot be jumped.
_EDGE = mask((5, 13, 21, 29, 4, 12, 20, 28))
#: Rows of odd index, of index with bit 1 and bit 2 set (for the sum of row indices).
_ROW_BIT0 = mask(s for s in SQUARES if square_coords(s)[0] & 1)
_ROW_BIT1 = mask(s for s in SQUARES if square_coords(s)[0] & 2)
_ROW_BIT2 = mask(s for s in SQUARES if square_coords(s)[0] & 4)
#: Back-rank guard: the bridge squares count double (Black 1 and 3, White 30 and 32).
_BACK_BLACK, _BACK_WHITE = BACK
_BRIDGE_BLACK, _BRIDGE_WHITE = mask((1, 3)), mask((30, 32))


def _rows_sum(pieces: int) -> int:
    """Sum of the row indices (0 at the top) of ``pieces``."""
    return (
        (pieces & _ROW_BIT0).bit_count()
        + 2 * (pieces & _ROW_BIT1).bit_count()
        + 4 * (pieces & _ROW_BIT2).bit_count()
    )


def _step_count(down: int, up: int, empty: int) -> int:
    """Number of steps of pieces moving ``down`` and ``up`` into ``empty``."""
    return (
        (down_left(down) & empty).bit_count()
        + (down_right(down) & empty).bit_count()
        + (up_left(up) & empty).bit_count()
        + (up_right(up) & empty).bit_count()
    )


def _jump_count(down: int, up: int, enemy: int, empty: int) -> int:
    """Number of single jumps available to pieces moving ``down`` and ``up``."""
    return (
        (down_left(down_left(down) & enemy) & empty).bit_count()
        + (down_right(down_right(down) & enemy) & empty).bit_count()
        + (up_left(up_left(up) & enemy) & empty).bit_count()
        + (up_right(up_right(up) & enemy) & empty).bit_count()
    )


def material(game: Checkers, player: int) -> int:
    """Men 100, kings 150: the cheap cut heuristic (H0)."""
    black, white, kings = game.black, game.white, game.kings
    score = MAN_VALUE * (black.bit_count() - white.bit_count()) + (KING_VALUE - MAN_VALUE) * (
        (black & kings).bit_count() - (white & kings).bit_count()
    )
    return -score if player else score


def positional(game: Checkers, player: int) -> int:
    """Material with kings, back-rank guard, advancement, centre, mobility, trades
    when ahead, and kings closing in on the enemy in won endings.

    Terms (from Black's side, negated for White):

    * material: men 100, kings 150;
    * back-rank guard, while the opponent still has men to crown: 8 per man on
      the own back row, 8 more on the bridge squares (Black 1 and 3, White 30
      and 32);
    * advancement: 2 per row advanced by each man, more as the board empties;
    * centre: 6 per piece on c5, e5, d4, f4, 3 on d6, f6, c3, e3;
    * mobility: 2 per available step;
    * trading down when ahead: up to 3 per missing piece for the side ahead;
    * in an ending with a material lead, the leading side's kings lose 3 per
      square of distance to the nearest enemy piece (drives the mop-up).
    """
    score = positional_parts(game.black, game.white, game.kings)[0]
    return -score if player else score


def positional_parts(black: int, white: int, kings: int) -> tuple[int, int, int]:
    """:func:`positional`'s value from Black's side, with what the learned tables
    (:mod:`games.checkers.patterns`) read of it too: the steps each side could make (Black's less
    White's) and the pieces on the board."""
    bm, wm = black & ~kings, white & ~kings
    bk, wk = black & kings, white & kings
    n_bm, n_wm, n_bk, n_wk = bm.bit_count(), wm.bit_count(), bk.bit_count(), wk.bit_count()
    mat = MAN_VALUE * (n_bm - n_wm) + KING_VALUE * (n_bk - n_wk)
    pieces = n_bm + n_wm + n_bk + n_wk
    score = mat

    # back-rank guard against the opponent's men
    if n_wm:
        score += 8 * ((bm & _BACK_BLACK).bit_count() + (bm & _BRIDGE_BLACK).bit_count())
    if n_bm:
        score -= 8 * ((wm & _BACK_WHITE).bit_count() + (wm & _BRIDGE_WHITE).bit_count())

    # advancement of men (sum of row indices, White's counted from the bottom), more in the ending
    advance = (
        (bm & _ROW_BIT0).bit_count() + 2 * (bm & _ROW_BIT1).bit_count() + 4 * (bm & _ROW_BIT2).bit_count()
        + (wm & _ROW_BIT0).bit_count() + 2 * (wm & _ROW_BIT1).bit_count() + 4 * (wm & _ROW_BIT2).bit_count()
        - 7 * n_wm
    )
    score += advance * (2 + (24 - pieces) // 8)

    # centre control
    score += 6 * ((black & _CENTRE).bit_count() - (white & _CENTRE).bit_count()) + 3 * (
        (black & _CENTRE_RING).bit_count() - (white & _CENTRE_RING).bit_count()
    )

    # mobility: steps available to each side (Black's men and kings go down, its kings up too)
    empty = FULL ^ (black | white)
    mobility = (
        (((black & DL4) << 4 | (black & DL3) << 3) & empty).bit_count()
        + (((black & DR4) << 4 | (black & DR5) << 5) & empty).bit_count()
        - (((white & UL4) >> 4 | (white & UL5) >> 5) & empty).bit_count()
        - (((white & UR4) >> 4 | (white & UR3) >> 3) & empty).bit_count()
    )
    if bk:
        mobility += (((bk & UL4) >> 4 | (bk & UL5) >> 5) & empty).bit_count() + (
            ((bk & UR4) >> 4 | (bk & UR3) >> 3) & empty
        ).bit_count()
    if wk:
        mobility -= (((wk & DL4) << 4 | (wk & DL3) << 3) & empty).bit_count() + (
            ((wk & DR4) << 4 | (wk & DR5) << 5) & empty
        ).bit_count()
    score += 2 * mobility

    if mat:
        # trade down when ahead
        score += (3 if mat > 0 else -3) * (24 - pieces)
        # mop-up: the side ahead brings its kings to the enemy
        if pieces <= 10:
            if mat > 0:
                if bk and white:
                    score -= 3 * _king_distance(bk, white)
            elif wk and black:
                score += 3 * _king_distance(wk, black)
    return score, mobility, pieces


def _king_distance(kings: int, targets: int) -> int:
    """Sum over ``kings`` of the distance (king moves on an empty board) to the nearest target."""
    spots = [square_coords(s) for s in SQUARES if targets & BIT[s]]
    total = 0
    for s in SQUARES:
        if kings & BIT[s]:
            row, col = square_coords(s)
            total += min(max(abs(row - r), abs(col - c)) for r, c in spots)
    return total


# ------------------------------------------------------------------ features
def features(game: Checkers, player: int) -> list[float]:
    """The values named by :attr:`FEATURE_NAMES`, seen by ``player``.

    Pairs of counts for ``player`` and the opponent (``opp_``): men, kings,
    men on the own back row, pieces on the four centre squares, rows advanced
    by men, steps available, single jumps available, pieces on the side files
    a and h; then ``to_move``, 1 if ``player`` is to move.
    """
    mine = _colour_features(game, player)
    theirs = _colour_features(game, player ^ 1)
    values: list[float] = []
    for pair in zip(mine, theirs):
        values.extend(pair)
    values.append(1 if game.turn == player else 0)
    return values

def _colour_features(game: Checkers, colour: int) -> tuple[int, ...]:
    """The per-colour counts of :func:`features`."""
    kings = game.kings
    if colour == BLACK:
        own, opp = game.black, game.white
        down, up = own, own & kings
    else:
        own, opp = game.white, game.black
        down, up = own & kings, own
    men = own & ~kings
    advancement = _rows_sum(men) if colour == BLACK else 7 * men.bit_count() - _rows_sum(men)
    empty = FULL ^ (own | opp)
    return (
        men.bit_count(),
        (own & kings).bit_count(),
        (men & BACK[colour]).bit_count(),
        (own & _CENTRE).bit_count(),
        advancement,
        _step_count(down, up, empty),
        _jump_count(down, up, opp, empty),
        (own & _EDGE).bit_count(),
    )


#: The heuristics by name.
HEURISTICS: dict[str, Heuristic] = {"material": material, "positional": positional}
