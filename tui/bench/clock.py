"""Games on a real clock against another UCI engine: are we ever lost on time?

Both engines run as UCI processes driven by python-chess, the way a GUI
drives them: each side's clock is charged the wall time from sending ``go``
to reading ``bestmove``, plus the increment after the move; a side whose clock
falls below zero loses on time.  ``tui-games bench clock`` plays
``games`` games (colours alternating, each pair from one random opening of 4
plies) and reports the score and the time losses.
"""

from __future__ import annotations

import os
import random
import shutil
import sys
import time
from dataclasses import dataclass

import chess
import chess.engine

__all__ = ["ClockGame", "play_clock_games", "stockfish_path"]

#: Plies of the random opening each pair of games starts from.
OPENING_PLIES = 4
#: A game is adjudicated a draw after this many plies.
MAX_PLIES = 400


@dataclass(frozen=True)
class ClockGame:
    """One game: our colour, the result for us (1, 0.5, 0), why it ended and our least clock."""

    ours: chess.Color
    points: float
    reason: str
    least_clock: float
    plies: int


def stockfish_path() -> str | None:
    """Debian's Stockfish, where it is installed."""
    found = shutil.which("stockfish")
    if found is None and os.path.exists("/usr/games/stockfish"):
        found = "/usr/games/stockfish"
    return found


def _play(ours: chess.engine.SimpleEngine, theirs: chess.engine.SimpleEngine, our_colour: chess.Color,
          opening: list[chess.Move], base: float, inc: float) -> ClockGame:
    board = chess.Board()
    for move in opening:
        board.push(move)
    clocks = {chess.WHITE: base, chess.BLACK: base}
    least = base
    for engine in (ours, theirs):
        engine.ping()  # isready: helpers start here, off the clock
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        side = board.turn
        engine = ours if side == our_colour else theirs
        limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                   white_inc=inc, black_inc=inc)
        started = time.perf_counter()
        result = engine.play(board, limit)
        clocks[side] -= time.perf_counter() - started
        if side == our_colour:
            least = min(least, clocks[side])
        if clocks[side] < 0:
            points = 0.0 if side == our_colour else 1.0
            return ClockGame(our_colour, points, "time", least, board.ply())
        clocks[side] += inc
        if result.move is None:
            break
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    if outcome is None or outcome.winner is None:
        return ClockGame(our_colour, 0.5, outcome.termination.name.lower() if outcome else "ply limit", least,
                         board.ply())
    points = 1.0 if outcome.winner == our_colour else 0.0
    return ClockGame(our_colour, points, outcome.termination.name.lower(), least, board.ply())


def play_clock_games(our_command: list[str], their_command: list[str], their_options: dict[str, object],
                     games: int, base: float, inc: float, seed: int = 1) -> list[ClockGame]:
    """Play ``games`` games of ``base`` + ``inc`` seconds; print a line per game."""
    rng = random.Random(seed)
    played = []
    ours = chess.engine.SimpleEngine.popen_uci(our_command)
    theirs = chess.engine.SimpleEngine.popen_uci(their_command)
    try:
        theirs.configure(their_options)
        for number in range(games):
            if number % 2 == 0:
                board = chess.Board()
                opening = []
                for _ in range(OPENING_PLIES):
                    move = rng.choice(list(board.legal_moves))
                    board.push(move)
                    opening.append(move)
            game = _play(ours, theirs, chess.WHITE if number % 2 == 0 else chess.BLACK, opening, base, inc)
            played.append(game)
            print(f"game {number + 1}: {'White' if game.ours else 'Black'} {game.points:g} ({game.reason}, "
                  f"{game.plies} plies, least clock {game.least_clock:.3f} s)", file=sys.stderr, flush=True)
    finally:
        ours.quit()
        theirs.quit()
    return played
