"""The Quixo heuristics: ``longest_line`` (the seed's) and ``line_potential``."""

from __future__ import annotations

from typing import Protocol

from ..base import Heuristic

from .moves import (
    CENTRE,
    INNER,
    LINES,
    SIZE,
)

class Quixo(Protocol):
    """What the heuristics read of a Quixo position (:class:`games.quixo.Quixo`)."""

    @property
    def x(self) -> int: ...
    @property
    def o(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def winner(self) -> int | None: ...


# ---------------------------------------------------------------- heuristics
def longest_line(game: Quixo, player: int) -> int:
    """The seed's evaluation (``find_max_sequence``): the most cubes ``player`` has in
    any one row, column or diagonal (not necessarily adjacent) minus the same for
    the opponent; 5 if ``player`` has won on the board, -5 if the opponent has."""
    winner = game.winner
    if winner is not None:
        return 5 if winner == player else -5
    own, opp = (game.o, game.x) if player else (game.x, game.o)
    # Bit k of own_counts is set when some line holds exactly k own cubes; the
    # highest set bit is the longest line.
    own_counts = opp_counts = 0
    for line in LINES:
        own_counts |= 1 << (own & line).bit_count()
        opp_counts |= 1 << (opp & line).bit_count()
    return own_counts.bit_length() - opp_counts.bit_length()


# line-potential.  Each line scores by the X and O cubes in it.  A side's worth
# in a line is steep in its count (4, 16, 64, 256 for 1 to 4 cubes) and divided
# by 4 for every opposing cube in the line (a contested line is not dead in
# Quixo: pushes across it replace its cubes).  The line's value is X's worth
# minus O's, so the evaluation is antisymmetric by construction.
_WORTH = (0, 4, 16, 64, 256, 0)


def line_worth(own: int, opp: int) -> int:
    """What a line holding ``own`` of a player's cubes and ``opp`` of the other's is worth to the player
    (the learned tables fold the same worth into their line entries)."""
    return _WORTH[own] >> (2 * opp)


#: ``_LINE_TABLE[6 * x_cubes + o_cubes]``: the line's value for X times 256, plus 1
#: if X has four cubes in it and 16 if O has (summed over the lines these count
#: the fours in the low byte, which never carries: at most 12 lines).
_LINE_TABLE: tuple[int, ...] = tuple(
    ((line_worth(a, b) - line_worth(b, a)) << 8) + (a == 4) + 16 * (b == 4) if a + b <= SIZE else 0
    for a in range(6)
    for b in range(6)
)
#: The side to move has four cubes in a line: it may complete it at once.
THREAT_TO_MOVE = 1024
#: The side that just moved has two lines of four: one push rarely stops both.
DOUBLE_THREAT = 384
#: Own cube in the centre (on 4 lines) and in the inner 3x3 (safe from being taken).
CENTRE_BONUS = 12
INNER_BONUS = 3
#: Score of a position won on the board, beyond every other score of the heuristic.
LINE_POTENTIAL_WIN = 50_000


def line_potential(game: Quixo, player: int) -> int:
    """The default evaluation for ``player``: the sum of the 12 line values (see
    ``_LINE_TABLE``), a bonus for four cubes in a line (large for the side to
    move, who may complete it at once; smaller for two such lines of the side
    that just moved), for the centre cube and for inner cubes.  ±50000 for a
    position won on the board; otherwise well within ±6000."""
    winner = game.winner
    if winner is not None:
        return LINE_POTENTIAL_WIN if winner == player else -LINE_POTENTIAL_WIN
    x, o = game.x, game.o
    table = _LINE_TABLE
    total = 0
    for line in LINES:
        total += table[6 * (x & line).bit_count() + (o & line).bit_count()]
    value = total >> 8  # for X from here on
    if game.turn == 0:
        if total & 15:
            value += THREAT_TO_MOVE
        if (total >> 4) & 15 > 1:
            value -= DOUBLE_THREAT
    else:
        if (total >> 4) & 15:
            value -= THREAT_TO_MOVE
        if total & 15 > 1:
            value += DOUBLE_THREAT
    if x & CENTRE:
        value += CENTRE_BONUS
    elif o & CENTRE:
        value -= CENTRE_BONUS
    value += INNER_BONUS * ((x & INNER).bit_count() - (o & INNER).bit_count())
    return -value if player else value


#: The heuristics by name.
HEURISTICS: dict[str, Heuristic] = {
    "longest-line": longest_line,
    "line-potential": line_potential,
}
