"""Checkers bitboards: squares, masks, and the step and jump tables.

Square ``s`` (PDN 1-32) is bit ``s - 1`` of a Python int.  The tables give,
for every square and direction, the square a man or king steps to and the
square it jumps over and lands on; :func:`extend_jumps` walks multi-jumps.
"""

from __future__ import annotations

#: A move: ``(path, captured)`` -- the squares visited and the mask of the pieces taken.
Move = tuple[tuple[int, ...], int]

BLACK = 0
WHITE = 1

#: The PDN square numbers.
SQUARES = range(1, 33)

FULL = (1 << 32) - 1
START_BLACK = (1 << 12) - 1  # squares 1-12
START_WHITE = ((1 << 12) - 1) << 20  # squares 21-32
START_TEXT = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"

#: ``BIT[s]`` is the mask of square ``s`` (index 0 unused).
BIT = (0,) + tuple(1 << i for i in range(32))


def square_coords(square: int) -> tuple[int, int]:
    """``(row, col)`` of a PDN square: row 0 is the top (rank 8), col 0 is file a."""
    i = square - 1
    row = i >> 2
    return row, 2 * (i & 3) + (1 - (row & 1))


def square_name(square: int) -> str:
    """The algebraic name of a PDN square: ``square_name(1) == 'b8'``, ``square_name(29) == 'a1'``."""
    row, col = square_coords(square)
    return "abcdefgh"[col] + str(8 - row)


def square_at(row: int, col: int) -> int:
    """The PDN square at ``(row, col)``, or 0 off the board or on a light square."""
    if 0 <= row < 8 and 0 <= col < 8 and (row + col) & 1:
        return 4 * row + col // 2 + 1
    return 0


def mask(squares) -> int:
    m = 0
    for s in squares:
        m |= BIT[s]
    return m


def row_mask(row: int) -> int:
    return mask(range(4 * row + 1, 4 * row + 5))


# ------------------------------------------------------------------ directions
# (drow, dcol) in ascending order of the square reached: up-left, up-right,
# down-left, down-right.  "Down" is towards higher numbers: Black's forward.
_UL, _UR, _DL, _DR = (-1, -1), (-1, 1), (1, -1), (1, 1)
UP = (_UL, _UR)
DOWN = (_DL, _DR)
ALL = UP + DOWN


def step_masks(direction: tuple[int, int]) -> dict[int, int]:
    """For each shift ``delta`` of the bit index, the squares whose neighbour in
    ``direction`` lies ``delta`` bits away."""
    masks: dict[int, int] = {}
    for s in SQUARES:
        row, col = square_coords(s)
        t = square_at(row + direction[0], col + direction[1])
        if t:
            masks[t - s] = masks.get(t - s, 0) | BIT[s]
    return masks


_m = step_masks(_DL)
DL3, DL4 = _m[3], _m[4]
_m = step_masks(_DR)
DR4, DR5 = _m[4], _m[5]
_m = step_masks(_UL)
UL4, UL5 = _m[-4], _m[-5]
_m = step_masks(_UR)
UR3, UR4 = _m[-3], _m[-4]
del _m
# Squares with a neighbour 4 bits away downwards (either side) and upwards.
DOWN4, UP4 = DL4 | DR4, UL4 | UR4

# The four neighbour maps of a set of squares, by shifts (the hot path inlines them).


def down_left(b: int) -> int:
    return (b & DL4) << 4 | (b & DL3) << 3


def down_right(b: int) -> int:
    return (b & DR4) << 4 | (b & DR5) << 5


def up_left(b: int) -> int:
    return (b & UL4) >> 4 | (b & UL5) >> 5


def up_right(b: int) -> int:
    return (b & UR4) >> 4 | (b & UR3) >> 3


def step_table(directions) -> tuple[tuple[tuple[int, Move], ...], ...]:
    """Per square, ``(target_mask, move)`` for each step in ``directions``."""
    table: list[tuple[tuple[int, Move], ...]] = [()]
    for s in SQUARES:
        row, col = square_coords(s)
        steps = []
        for dr, dc in directions:
            t = square_at(row + dr, col + dc)
            if t:
                steps.append((BIT[t], ((s, t), 0)))
        table.append(tuple(steps))
    return tuple(table)


def jump_table(directions) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Per square, ``(jumped_mask, landing_square, landing_mask)`` for each jump in ``directions``."""
    table: list[tuple[tuple[int, int, int], ...]] = [()]
    for s in SQUARES:
        row, col = square_coords(s)
        jumps = []
        for dr, dc in directions:
            mid = square_at(row + dr, col + dc)
            land = square_at(row + 2 * dr, col + 2 * dc)
            if mid and land:
                jumps.append((BIT[mid], land, BIT[land]))
        table.append(tuple(jumps))
    return tuple(table)


#: Steps and jumps per square, for Black men, White men and kings.
STEPS = (step_table(DOWN), step_table(UP))
KING_STEPS = step_table(ALL)
JUMPS = (jump_table(DOWN), jump_table(UP))
KING_JUMPS = jump_table(ALL)

#: The row where each colour's men are crowned (Black: 29-32, White: 1-4).
CROWN = (row_mask(7), row_mask(0))
#: Each colour's own back row (Black: 1-4, White: 29-32).
BACK = (row_mask(0), row_mask(7))

#: The mask of the square jumped, for every (start, landing) pair of a single jump.
JUMPED: dict[tuple[int, int], int] = {
    (s, land): mid for s in SQUARES for mid, land, _ in KING_JUMPS[s]
}


# ---------------------------------------------------------------- jump search
def man_jump_count(square: int, enemy: int, occupied: int, jumps, crown: int) -> int:
    """Number of complete jump sequences of a man on ``square`` (no moves built).

    A man only goes forward, so it can neither jump a piece twice nor reach one
    place by two paths with the same captures: no de-duplication is needed.
    """
    total = 0
    for mid, land, land_bit in jumps[square]:
        if mid & enemy and not land_bit & occupied:
            if land_bit & crown:
                total += 1
            else:
                more = man_jump_count(land, enemy & ~mid, occupied, jumps, crown)
                total += more or 1
    return total


def jump_moves(start: int, king: bool, enemy: int, occupied: int, jumps, crown: int, out: list) -> None:
    """Append to ``out`` every complete jump sequence of the piece on ``start``.

    ``enemy`` holds the pieces that may be jumped and ``occupied`` every piece on
    the board except the mover; pieces taken stay in ``occupied`` (they block)
    and leave ``enemy`` (they cannot be jumped twice).
    """
    extend_jumps(start, enemy, 0, [start], set() if king else None, occupied, jumps, crown, out)


def extend_jumps(square: int, enemy: int, captured: int, path: list[int],
                  seen: set[tuple[int, int]] | None, occupied: int, jumps, crown: int,
                  out: list) -> bool:
    """Follow every jump from ``square`` (the piece's path so far in ``path``),
    appending finished sequences to ``out``; False if there is none.

    ``seen`` is None for a man; for a king it holds the (end, captured) pairs
    already listed, since a king can reach one end by two paths.  A plain
    recursive function, not a closure: a recursive closure is a reference
    cycle per call, garbage only the cycle collector frees (and search pauses it).
    """
    found = False
    for mid, land, land_bit in jumps[square]:
        if mid & enemy and not land_bit & occupied:
            found = True
            path.append(land)
            taken = captured | mid
            if seen is not None:
                if (not extend_jumps(land, enemy & ~mid, taken, path, seen, occupied, jumps, crown, out)
                        and (land, taken) not in seen):
                    seen.add((land, taken))
                    out.append((tuple(path), taken))
            elif land_bit & crown or not extend_jumps(
                    land, enemy & ~mid, taken, path, None, occupied, jumps, crown, out):
                out.append((tuple(path), taken))
            path.pop()
    return found


# -------------------------------------------------------------------- parsing
