"""The Othello heuristics ``discs``, ``mobility``, ``positional`` and ``standard``,
and the learning features.

Every heuristic is *zero-sum*: ``h(game, 0) == -h(game, 1)`` exactly (each is
computed for the side to move, in ints, and negated for the other player),
and colour-blind: swapping the colours of every disc and the side to move
leaves the side to move's score unchanged.  A finished game (neither side can
place a disc) scores beyond every unfinished one on the same heuristic's
scale, more the wider the margin, and 0 for a draw:

``discs`` (the cheap :data:`~games.othello.Othello.CUT_HEURISTIC`)
    Own discs minus the opponent's; a finished game ±(64 + margin).

``mobility``
    10 per legal placement more than the opponent has, plus 4 per unit of
    potential mobility more (empty cells next to an opponent disc: where
    moves may come later).  Within ±840 (60 cells of each kind at most); a
    finished game ±(1000 + margin).

``positional``
    The sum of a fixed weight table over own discs minus the opponent's:
    corners 100, the edge cells two and three from a corner 10 and 5, the
    C-squares (next to a corner along the edge) -25, the X-squares
    (diagonally next to a corner) -45, the second ring -4 to -2, the inner
    cells 0 to 2 (see :data:`TABLE`).  Within ±540; a finished game
    ±(1000 + margin).

``standard`` (the default and strong heuristic)
    A sum of terms, each own minus opponent's, with weights that slide
    linearly with the number of empty cells from the opening (60 empties or
    more) to the end (none); ``(opening, end)`` weights:

    * corners held: (100, 50);
    * X-squares (-50, -20) and C-squares (-20, -8), only while the corner next
      to them is empty (once it is taken they are harmless);
    * the :data:`TABLE` weights of the other cells (edges and inner cells): (1, 0);
    * mobility, legal placements: (12, 6);
    * potential mobility: (5, 1);
    * stable discs: (10, 20).  Counted are edge discs only: the runs of discs
      of one colour that start at a corner along an edge, and every disc of
      a full edge (see :func:`~games.othello.bitboards.stable_counts`);
    * discs: (0, 8);
    * parity: (0, 30) for the side that plays the last move if nobody passes
      (the side to move when the number of empty cells is odd).

    Unfinished positions are clamped to ±3000; a finished game scores
    ±(4000 + 16 * margin), and :data:`~games.othello.Othello.DECISIVE_SCORE`
    is 4000.
"""

from __future__ import annotations

from typing import Protocol

from .bitboards import (
    C_SQUARES,
    CORNER_NEIGHBOURS,
    CORNERS,
    EDGES,
    FULL,
    X_SQUARES,
    potential_mobility,
    stable_counts,
)

class Othello(Protocol):
    """What the heuristics read of an Othello position (:class:`games.othello.Othello`)."""

    @property
    def turn(self) -> int: ...
    def discs(self, player: int) -> int: ...
    def mobility(self) -> int: ...
    def opponent_mobility(self) -> int: ...
    def mobility_of(self, player: int) -> int: ...


#: The classic square weights, row 1 (top) to row 8, column a to h.
TABLE: tuple[int, ...] = (
    100, -25,  10,   5,   5,  10, -25, 100,
    -25, -45,  -4,  -2,  -2,  -4, -45, -25,
     10,  -4,   2,   1,   1,   2,  -4,  10,
      5,  -2,   1,   0,   0,   1,  -2,   5,
      5,  -2,   1,   0,   0,   1,  -2,   5,
     10,  -4,   2,   1,   1,   2,  -4,  10,
    -25, -45,  -4,  -2,  -2,  -4, -45, -25,
    100, -25,  10,   5,   5,  10, -25, 100,
)  # fmt: skip


def _weight_masks(cells: int) -> tuple[tuple[int, int], ...]:
    """``(weight, mask)`` for each nonzero weight of :data:`TABLE` among ``cells``."""
    masks: dict[int, int] = {}
    for cell, weight in enumerate(TABLE):
        if weight and cells >> cell & 1:
            masks[weight] = masks.get(weight, 0) | 1 << cell
    return tuple(sorted(masks.items(), reverse=True))


#: The table as masks of equal weight (a weighted sum is a few popcounts).
_TABLE_MASKS = _weight_masks(FULL)
#: The same for every cell but the corners, X-squares and C-squares (``standard``).
_OTHER_MASKS = _weight_masks(FULL & ~(CORNERS | X_SQUARES | C_SQUARES))


def _next_to_empty_corners() -> dict[int, tuple[int, int]]:
    """For each set of empty corners: the X-squares and the C-squares next to them."""
    table = {}
    for subset in range(16):
        empty = x_mask = c_mask = 0
        for i, (corner, x_square, c_squares) in enumerate(CORNER_NEIGHBOURS):
            if subset >> i & 1:
                empty |= corner
                x_mask |= x_square
                c_mask |= c_squares
        table[empty] = (x_mask, c_mask)
    return table


_NEXT_TO_EMPTY_CORNERS = _next_to_empty_corners()

#: Finished games, per heuristic: a base beyond every unfinished score and a
#: weight per disc of margin.
DISCS_WIN = 64
MOBILITY_WIN = 1000
POSITIONAL_WIN = 1000
STANDARD_WIN = 4000
STANDARD_MARGIN = 16
#: Unfinished positions score within ±STANDARD_CLAMP on ``standard``.
STANDARD_CLAMP = 3000


def _sides(game: Othello) -> tuple[int, int]:
    """The discs of the side to move and of its opponent."""
    return game.discs(game.turn), game.discs(game.turn ^ 1)


def _finished(game: Othello, own: int, opp: int, base: int, per_disc: int) -> int | None:
    """The side to move's score of a finished game (``None`` if it is not over):
    0 for a draw, else ``±(base + per_disc * margin)``."""
    if game.mobility() or game.opponent_mobility():
        return None
    margin = own.bit_count() - opp.bit_count()
    if margin > 0:
        return base + per_disc * margin
    if margin < 0:
        return -base + per_disc * margin
    return 0


def _for(game: Othello, player: int, score: int) -> int:
    """``score`` (the side to move's) seen by ``player``."""
    return score if player == game.turn else -score


# ---------------------------------------------------------------- heuristics
def discs(game: Othello, player: int) -> int:
    """Own discs minus the opponent's; ±(64 + margin) for a finished game."""
    own, opp = _sides(game)
    done = _finished(game, own, opp, DISCS_WIN, 1)
    score = own.bit_count() - opp.bit_count() if done is None else done
    return _for(game, player, score)


def mobility(game: Othello, player: int) -> int:
    """10 per legal placement and 4 per potential move (empty cell next to an
    opponent disc) more than the opponent; ±(1000 + margin) when finished."""
    own, opp = _sides(game)
    done = _finished(game, own, opp, MOBILITY_WIN, 1)
    if done is not None:
        return _for(game, player, done)
    score = 10 * (game.mobility().bit_count() - game.opponent_mobility().bit_count()) + 4 * (
        potential_mobility(own, opp) - potential_mobility(opp, own)
    )
    return _for(game, player, score)


def positional(game: Othello, player: int) -> int:
    """The :data:`TABLE` weights of own discs minus the opponent's; ±(1000 +
    margin) when finished."""
    own, opp = _sides(game)
    done = _finished(game, own, opp, POSITIONAL_WIN, 1)
    if done is not None:
        return _for(game, player, done)
    score = 0
    for weight, mask in _TABLE_MASKS:
        score += weight * ((own & mask).bit_count() - (opp & mask).bit_count())
    return _for(game, player, score)


def standard(game: Othello, player: int) -> int:
    """Corners, corner-aware X/C-squares, the table, mobility, potential
    mobility, edge stability, discs and parity, weighted by the game phase
    (see the module doc)."""
    own, opp = _sides(game)
    done = _finished(game, own, opp, STANDARD_WIN, STANDARD_MARGIN)
    if done is not None:
        return _for(game, player, done)
    occupied = own | opp
    empties = 64 - occupied.bit_count()
    opening = empties if empties < 60 else 60
    end = 60 - opening

    corners = (own & CORNERS).bit_count() - (opp & CORNERS).bit_count()
    x_mask, c_mask = _NEXT_TO_EMPTY_CORNERS[CORNERS & ~occupied]
    x_squares = (own & x_mask).bit_count() - (opp & x_mask).bit_count()
    c_squares = (own & c_mask).bit_count() - (opp & c_mask).bit_count()
    table = 0
    for weight, mask in _OTHER_MASKS:
        table += weight * ((own & mask).bit_count() - (opp & mask).bit_count())
    moves = game.mobility().bit_count() - game.opponent_mobility().bit_count()
    potential = potential_mobility(own, opp) - potential_mobility(opp, own)
    own_stable, opp_stable = stable_counts(own, opp)
    stable = own_stable - opp_stable
    disc_margin = own.bit_count() - opp.bit_count()
    parity = 1 if empties & 1 else -1  # the side to move plays last on an odd count

    total = opening * (
        100 * corners - 50 * x_squares - 20 * c_squares + table + 12 * moves + 5 * potential + 10 * stable
    ) + end * (
        50 * corners - 20 * x_squares - 8 * c_squares + 6 * moves + potential + 20 * stable
        + 8 * disc_margin + 30 * parity
    )
    score = total // 60
    if score > STANDARD_CLAMP:
        score = STANDARD_CLAMP
    elif score < -STANDARD_CLAMP:
        score = -STANDARD_CLAMP
    return _for(game, player, score)


#: The heuristics by name.
HEURISTICS = {
    "discs": discs,
    "mobility": mobility,
    "positional": positional,
    "standard": standard,
}


# ------------------------------------------------------------------ features
def features(game: Othello, player: int) -> list[float]:
    """The values named by :attr:`~games.othello.Othello.FEATURE_NAMES`, seen by ``player``.

    Pairs for ``player`` (``own_``) and the opponent (``opp_``): discs;
    mobility, the placements that side would have if it were to move;
    potential mobility, empty cells next to the other side's discs; corners;
    X-squares held (whatever the corner); edge-stable discs (see
    :func:`~games.othello.bitboards.stable_counts`); discs on the edges
    (corners included).  Then ``parity``, 1 if ``player`` plays the last move
    when nobody passes (the side to move on an odd number of empty cells),
    else -1; ``empties``, the empty cells; ``to_move``, 1 if ``player`` moves
    next; ``result``, 1/-1 if the game is over and ``player`` has won/lost,
    else 0.
    """
    own, opp = game.discs(player), game.discs(player ^ 1)
    own_moves, opp_moves = game.mobility_of(player), game.mobility_of(player ^ 1)
    own_stable, opp_stable = stable_counts(own, opp)
    empties = 64 - (own | opp).bit_count()
    to_move = game.turn == player
    last = to_move if empties & 1 else not to_move
    result = 0.0
    if not own_moves and not opp_moves:
        margin = own.bit_count() - opp.bit_count()
        result = 1.0 if margin > 0 else -1.0 if margin < 0 else 0.0
    return [
        float(own.bit_count()),
        float(opp.bit_count()),
        float(own_moves.bit_count()),
        float(opp_moves.bit_count()),
        float(potential_mobility(own, opp)),
        float(potential_mobility(opp, own)),
        float((own & CORNERS).bit_count()),
        float((opp & CORNERS).bit_count()),
        float((own & X_SQUARES).bit_count()),
        float((opp & X_SQUARES).bit_count()),
        float(own_stable),
        float(opp_stable),
        float((own & EDGES).bit_count()),
        float((opp & EDGES).bit_count()),
        1.0 if last else -1.0,
        float(empties),
        1.0 if to_move else 0.0,
        result,
    ]
