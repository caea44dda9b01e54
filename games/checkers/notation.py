"""Reading checkers moves: ``11-15``, ``15x24x31``, the short ``15x31``, with reasons."""

from __future__ import annotations

import re

from ..base import MAX_MOVE_TEXT, Game, IllegalMoveError, MoveSyntaxError, check_length, quote_input
from .bitboards import JUMPED, Move

__all__ = ["parse_move"]

_MOVE_RE = re.compile(r"[0-9]{1,3}(?:\s*[-xX]\s*[0-9]{1,3})+")
_NUMBER_RE = re.compile(r"[0-9]+")
_MOVE_HINT = "expected a move like '11-15' or '15x24x31'"


def parse_move(game: Game, text: str) -> Move:
    """The legal move typed as ``11-15``, ``15x24``, ``15x24x31`` or short ``15x31``.

    A king's ring of captures may be typed the other way round, and a capture
    by some of its landing squares (at least the first and the last) when that
    names one move.  Anything else is a :class:`MoveSyntaxError` or an
    :class:`IllegalMoveError` that says why, listing the legal moves.
    """
    if not isinstance(text, str):
        raise MoveSyntaxError(f"{_MOVE_HINT}, got {type(text).__name__}")
    check_length(text, MAX_MOVE_TEXT, "a move", MoveSyntaxError)
    stripped = text.strip()
    if not _MOVE_RE.fullmatch(stripped):
        raise MoveSyntaxError(f"{_MOVE_HINT}, got {quote_input(text)}")
    squares = tuple(int(n) for n in _NUMBER_RE.findall(stripped))
    for s in squares:
        if not 1 <= s <= 32:
            raise MoveSyntaxError(
                f"square {s} is off the board: squares are numbered 1-32, as in '11-15' or '15x24'"
            )
    moves = game.legal_moves()
    for move in moves:
        if move[0] == squares:
            return move
    # A king's ring of captures typed the other way round: same pieces, same end.
    taken = _jumped_by(squares)
    if taken:
        for move in moves:
            path = move[0]
            if move[1] == taken and path[0] == squares[0] and path[-1] == squares[-1]:
                return move
    # A capture given by some of its landing squares (at least first and last).
    candidates = [m for m in moves if m[1] and _abbreviates(squares, m[0])]
    if len(candidates) == 1:
        return candidates[0]
    typed = ("x" if "x" in stripped.lower() else "-").join(map(str, squares))
    if candidates:
        listed = ", ".join(game.format_move(m) for m in candidates)
        raise IllegalMoveError(f"{typed} is ambiguous: it could be {listed}; type every landing square")
    if not moves:
        raise IllegalMoveError(f"{typed} is not legal: {game.PLAYERS[game.turn]} has no legal move")
    listed = _listing(game.format_move(m) for m in moves)
    if moves[0][1]:
        raise IllegalMoveError(f"{typed} is not legal: a capture is compulsory, legal moves: {listed}")
    raise IllegalMoveError(f"{typed} is not legal here; legal moves: {listed}")


def _jumped_by(path: tuple[int, ...]) -> int:
    """The mask of the squares jumped along ``path`` if each hop is a jump, else 0."""
    taken = 0
    for hop in zip(path, path[1:]):
        mid = JUMPED.get(hop)
        if mid is None:
            return 0
        taken |= mid
    return taken


def _abbreviates(typed: tuple[int, ...], path: tuple[int, ...]) -> bool:
    """Whether ``typed`` names ``path`` by its start, its end and some landings in order."""
    if len(typed) < 2 or typed[0] != path[0] or typed[-1] != path[-1] or len(typed) > len(path):
        return False
    rest = iter(path[1:-1])
    return all(any(s == p for p in rest) for s in typed[1:-1])


def _listing(texts, limit: int = 12) -> str:
    texts = list(texts)
    shown = ", ".join(texts[:limit])
    return shown + (f" and {len(texts) - limit} more" if len(texts) > limit else "")


