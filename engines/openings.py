"""Making opening books: random short lines, kept when a deep search finds them balanced.

:func:`make_book` draws lines of ``plies`` uniformly random legal moves from
the start (attempt ``i`` from its own seeded generator, so the book is the
same on any number of processes), drops those that end the game or reach a
position an earlier line reached, searches the last position of each with
the plan's engine (Stockfish at a fixed depth for chess, where it is
installed; else ours), and keeps the line when the score, for the first
player, is within the band -- a balanced opening, where neither side is
known to be better -- until it has the lines asked for.  :func:`book_text`
writes them as a book of lines of moves (:mod:`games.books`), each with its
score, under comments saying how the book was made.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from games import Game, game_kind, new_game

from .registry import create_engine
from .tournament.match import derived_seed, parallel_games

__all__ = ["BookPlan", "Candidate", "MadeBook", "book_text", "engine_name", "make_book", "try_line"]


@dataclass(frozen=True)
class BookPlan:
    """What to make: ``lines`` openings of ``plies`` random plies of ``game``, scored by
    ``engine`` (a spec) and kept when within ``band`` of zero (raw score units; ``None``:
    every line is kept, scored), from ``seed``, in at most ``tries`` random lines."""

    game: str
    lines: int
    plies: int
    engine: str
    band: float | None
    seed: int = 0
    tries: int = 100_000


@dataclass(frozen=True)
class Candidate:
    """Random line number ``attempt``: its moves, the position it reaches (``None``: the
    game ended in it), and the search's score for the first player there (``mate``:
    moves to a mate found, for the side to move)."""

    attempt: int
    moves: tuple[str, ...]
    position: str | None
    score: int = 0
    mate: int | None = None


@dataclass
class MadeBook:
    """The lines kept, and what became of the others."""

    kept: list[Candidate]
    tried: int = 0
    ended: int = 0
    repeated: int = 0
    outside: int = 0


def try_line(plan: BookPlan, attempt: int) -> Candidate:
    """Random line ``attempt`` of ``plan``, searched (a game ended in it is not)."""
    rng = random.Random(derived_seed("book line", plan.seed, attempt))
    game: Game = new_game(plan.game)
    texts = []
    for _ in range(plan.plies):
        move = rng.choice(game.legal_moves())
        texts.append(game.format_move(move))
        game.play(move)
        if game.outcome() is not None:
            return Candidate(attempt, tuple(texts), None)
    with create_engine(plan.engine, type(game)) as engine:  # a fresh one: the score owes nothing to other lines
        found = engine.search(game)
    sign = 1 if game.turn == 0 else -1
    return Candidate(attempt, tuple(texts), game.to_text(), sign * found.score, found.stats.mate)


def make_book(plan: BookPlan, *, jobs: int = 1,
              progress: Callable[[MadeBook], None] | None = None) -> MadeBook:
    """The lines ``plan`` keeps, tried in order on ``jobs`` processes (the same book on
    any number); ``progress(made)`` after every line tried."""
    made = MadeBook([])
    seen: set[str] = set()
    tried: Iterator[Candidate] = parallel_games(try_line, plan, range(plan.tries), jobs=jobs, ordered=True)
    try:
        for candidate in tried:
            made.tried += 1
            if candidate.position is None:
                made.ended += 1
            elif candidate.position in seen:
                made.repeated += 1
            else:
                seen.add(candidate.position)
                balanced = candidate.mate is None and (plan.band is None or abs(candidate.score) <= plan.band)
                if balanced:
                    made.kept.append(candidate)
                else:
                    made.outside += 1
            if progress is not None:
                progress(made)
            if len(made.kept) >= plan.lines:
                break
    finally:
        close = getattr(tried, "close", None)
        if close is not None:
            close()  # the lines still being tried are dropped, their workers stopped
    return made


def book_text(plan: BookPlan, made: MadeBook, command: str, engine_name: str = "") -> str:
    """The book as a file of lines of moves, with how it was made in its head comments."""
    kind = game_kind(plan.game)
    scale = kind.scores

    def shown(score: float) -> str:
        value = score / scale.unit
        return f"{value:+.2f}" if scale.unit != 1.0 else f"{value:+g}"

    unit = f" {scale.unit_name}s" if scale.unit_name else ""
    band = (f"kept when the search scores the last position within +-{shown(plan.band).lstrip('+')}{unit} "
            f"for {kind.game.PLAYERS[0]} (and finds no mate)" if plan.band is not None else
            "every line kept, whatever its score")
    separator = ", " if any(" " in move for candidate in made.kept for move in candidate.moves) else " "
    head = [
        f"# tui-games book: {len(made.kept)} {'balanced ' if plan.band is not None else ''}{kind.title} openings "
        f"of {plan.plies} random plies",
        f"# made by: {command}",
        f"# engine: {plan.engine}{f' ({engine_name})' if engine_name else ''}; {band}",
        f"# tried {made.tried:,} random lines (seed {plan.seed}): {made.ended:,} ended the game, "
        f"{made.repeated:,} reached a position an earlier line had, {made.outside:,} were outside the band, "
        f"{len(made.kept):,} kept",
        f"# on {datetime.date.today().isoformat()}; each line: its moves, then the score for "
        f"{kind.game.PLAYERS[0]} after them",
    ]
    rows = [f"{separator.join(candidate.moves)}  # {shown(candidate.score)}" for candidate in made.kept]
    return "\n".join(head + rows) + "\n"


def engine_name(spec: str, game: str) -> str:
    """What the engine of ``spec`` calls itself, for a book's head (a UCI engine's ``id name``)."""
    engine: Any = create_engine(spec, type(new_game(game)))
    try:
        process = getattr(engine, "process", None)
        return str(process.id.get("name", "")) if process is not None else ""
    finally:
        engine.close()
