"""An exact solver of small Kalah boards, written apart from the game's class and the engines.

A plain recursive minimax over the rules written again here, on tuples: the value of a position is
the final store difference (the side to move's seeds less the other's) under perfect play, the
side that moves again keeping its own value, the other side's negated.  No pruning, no ordering,
only memoisation of equal positions, so that what it says can be trusted by reading it: the tests
check both the game's rules (each move lands where :meth:`kalah.Kalah.play` puts it) and every
engine (their values and best moves) against it.  For small boards only (``pits`` ≤ 4, or six pits
of one or two seeds): the number of positions grows fast.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["Board", "sow", "solve", "move_values", "from_text"]

#: ``(cells, turn)``: the seed counts in sowing order (South's pits, South's store, North's pits,
#: North's store) and the side to move (0: South).
Board = tuple[tuple[int, ...], int]


def from_text(text: str) -> Board:
    """A board from a position text (``1,1,1:0 1,1,1:0 S``), read again independently."""
    south, north, side = text.split()
    cells: list[int] = []
    for row in (south, north):
        pits, store = row.split(":")
        cells += [int(seeds) for seeds in pits.split(",")] + [int(store)]
    return tuple(cells), "SN".index(side)


def _pits(cells: tuple[int, ...], side: int) -> tuple[int, ...]:
    n = len(cells) // 2 - 1
    return cells[side * (n + 1):side * (n + 1) + n]


def over(board: Board) -> bool:
    """Whether a side's pits are all empty."""
    cells, _ = board
    return not any(_pits(cells, 0)) or not any(_pits(cells, 1))


def sow(board: Board, pit: int) -> Board:
    """The board after the side to move sows its pit ``pit`` (counted from its left)."""
    cells, turn = board
    n = len(cells) // 2 - 1
    row = list(cells)
    mine = [turn * (n + 1) + j for j in range(n)]
    my_store = turn * (n + 1) + n
    their_store = (1 - turn) * (n + 1) + n
    at = mine[pit]
    hand = row[at]
    row[at] = 0
    while hand > 0:
        at = (at + 1) % len(row)
        if at == their_store:
            continue
        row[at] += 1
        hand -= 1
    facing = len(row) - 2 - at  # the pit across the board
    if at in mine and row[at] == 1 and row[facing] > 0:
        row[my_store] += row[at] + row[facing]
        row[at] = 0
        row[facing] = 0
    after = (tuple(row), turn)
    if over(after):
        for side in (0, 1):
            base = side * (n + 1)
            row[base + n] += sum(row[base:base + n])
            for j in range(n):
                row[base + j] = 0
        return tuple(row), turn
    return tuple(row), turn if at == my_store else 1 - turn


@lru_cache(maxsize=None)
def solve(board: Board) -> int:
    """The final store difference for the side to move, both sides playing perfectly."""
    cells, turn = board
    n = len(cells) // 2 - 1
    if over(board):
        mine = cells[turn * (n + 1) + n] + sum(_pits(cells, turn))
        theirs = cells[(1 - turn) * (n + 1) + n] + sum(_pits(cells, 1 - turn))
        return mine - theirs
    return max(move_values(board).values())


def move_values(board: Board) -> dict[int, int]:
    """Each legal pit's value for the side to move (the final store difference after it)."""
    cells, turn = board
    values = {}
    for pit, seeds in enumerate(_pits(cells, turn)):
        if seeds:
            after = sow(board, pit)
            value = solve(after)
            values[pit] = value if after[1] == turn and not over(after) else -value if not over(after) \
                else _final(after, turn)
    return values


def _final(board: Board, side: int) -> int:
    """A finished board's store difference for ``side``."""
    cells, _ = board
    n = len(cells) // 2 - 1
    return cells[side * (n + 1) + n] - cells[(1 - side) * (n + 1) + n]
