"""Othello's rules the plain way: a reference for the bitboards, in tests and the benchmark.

A deliberately plain model on a list-of-lists grid (row 0 is row 1, the top),
with no bitboards: the discs a placement turns over are found by walking the
eight directions, a position is copied for every child.  The tests check the
bitboard code against it move by move; ``tui-games bench perft`` times the
bitboard perft beside it.
"""

from __future__ import annotations

from .bitboards import PASS

__all__ = ["DIRECTIONS", "grid_of", "grid_perft", "on_board", "other", "reference_flips", "reference_moves",
           "reference_count", "reference_perft", "reference_play", "reference_placements", "reference_winner", "text_of"]

#: Where the start position is written down (the game's own text).
START = "......../......../......../...WB.../...BW.../......../......../........ B"


DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def grid_of(text: str) -> tuple[list[list[str]], str]:
    board, side = text.split()
    return [list(row) for row in board.split("/")], side


def text_of(grid: list[list[str]], side: str) -> str:
    return "/".join("".join(row) for row in grid) + " " + side


def other(side: str) -> str:
    return "W" if side == "B" else "B"


def on_board(row: int, col: int) -> bool:
    return 0 <= row < 8 and 0 <= col < 8


def reference_flips(grid: list[list[str]], row: int, col: int, me: str) -> list[tuple[int, int]]:
    """The discs a disc of ``me`` placed at ``(row, col)`` turns over."""
    if grid[row][col] != ".":
        return []
    them = other(me)
    flipped = []
    for dr, dc in DIRECTIONS:
        r, c = row + dr, col + dc
        run = []
        while on_board(r, c) and grid[r][c] == them:
            run.append((r, c))
            r, c = r + dr, c + dc
        if run and on_board(r, c) and grid[r][c] == me:
            flipped.extend(run)
    return flipped


def reference_placements(grid: list[list[str]], me: str) -> list[int]:
    """The cells (row * 8 + col) where ``me`` may place a disc, ascending."""
    return [r * 8 + c for r in range(8) for c in range(8) if reference_flips(grid, r, c, me)]


def reference_moves(grid: list[list[str]], me: str) -> list[int]:
    placements = reference_placements(grid, me)
    if placements:
        return placements
    return [PASS] if reference_placements(grid, other(me)) else []


def reference_play(grid: list[list[str]], move: int, me: str) -> list[list[str]]:
    grid = [row[:] for row in grid]
    if move != PASS:
        row, col = divmod(move, 8)
        for r, c in reference_flips(grid, row, col, me):
            grid[r][c] = me
        grid[row][col] = me
    return grid


def reference_count(grid: list[list[str]], who: str) -> int:
    return sum(row.count(who) for row in grid)


def reference_winner(grid: list[list[str]], me: str) -> int | None | str:
    """``"playing"`` while a side can move, else the winner by disc count (None: draw)."""
    if reference_moves(grid, me):
        return "playing"
    black, white = reference_count(grid, "B"), reference_count(grid, "W")
    return 0 if black > white else 1 if white > black else None


def grid_perft(grid: list[list[str]], me: str, depth: int) -> int:
    """Leaves ``depth`` plies below ``grid`` with ``me`` to move, passes counted as moves."""
    if depth == 0:
        return 1
    moves = reference_moves(grid, me)
    if depth == 1:
        return len(moves)
    return sum(grid_perft(reference_play(grid, m, me), other(me), depth - 1) for m in moves)



def reference_perft(position: str | None, depth: int) -> int:
    """The leaves ``depth`` plies below ``position`` (a position text; ``None``: the start)."""
    grid, side = grid_of(position or START)
    return grid_perft(grid, side.upper(), depth)
