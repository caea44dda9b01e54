"""Judging moves: winning chances, the game report, and when an engine takes a draw.

Scores are in each game's heuristic units, which mean different things.  To
compare moves across games a score becomes a **winning chance** for the side
to move, the expected result between 0 (lost) and 1 (won)::

    chance = 1 / (1 + exp(-score / win_scale))

where ``win_scale``, the score worth about a 73% chance, is the game's own
(its kind's :class:`~games.kind.ScoreScale`).  A proved mate is a chance of 1
(or 0); a finished game is its result.

**The report.**  Every position of a game is searched at the fixed depth its
score scale gives (``report_depth``).  A move's *loss* is the mover's chance before it
minus the mover's chance after it (0 when it gained): the best move loses
about nothing, a move that throws the game away loses up to 1.  The
classification, on that scale, with lichess's thresholds halved to fit 0..1:

==============  ==========
loss ≥ 0.15     blunder
loss ≥ 0.10     mistake
loss ≥ 0.05     inaccuracy
==============  ==========

**Draw offers.**  An engine accepts a draw once at least the game's
``draw_min_plies`` moves have been played (both sides' moves count) and
its own last score is no better than a small margin above level: a winning
chance of at most ``0.5 + DRAW_MARGIN``, i.e. within ±0.05 of even or worse.
It never takes a draw when it has a mate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from games import Game, game_kind, new_game

from .base import Limits, SearchStats

__all__ = [
    "CLASSES",
    "DRAW_MARGIN",
    "GameReport",
    "MARKS",
    "MoveReport",
    "PositionScore",
    "REPORT_ENGINE",
    "accepts_draw",
    "classify",
    "eval_text",
    "game_positions",
    "score_game",
    "turns_of",
    "win_chance",
]

#: The engine a report searches every position with (at the game's report depth).
REPORT_ENGINE = "pvs"
#: The loss (in winning chance) from which a move is each class, worst first.
CLASSES: tuple[tuple[str, float], ...] = (("blunder", 0.15), ("mistake", 0.10), ("inaccuracy", 0.05))
#: The NAG-like marks written after moves of each class.
MARKS = {"blunder": "??", "mistake": "?", "inaccuracy": "?!"}
#: How far above an even chance an engine still accepts a draw.
DRAW_MARGIN = 0.05


def win_chance(game_name: str, score: float, mate: int | None = None) -> float:
    """The side to move's winning chance (0..1) for a ``score`` (and a proved ``mate``)."""
    return game_kind(game_name).scores.chance(score, mate)


def classify(loss: float) -> str:
    """``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or ``""`` for a move losing ``loss``."""
    for name, threshold in CLASSES:
        if loss >= threshold:
            return name
    return ""


def accepts_draw(game_name: str, plies: int, score: float | None, mate: int | None) -> bool:
    """Whether an engine whose last score (for itself) is ``score`` accepts a draw after ``plies`` moves."""
    if score is None or mate is not None or plies < game_kind(game_name).scores.draw_min_plies:
        return False
    return win_chance(game_name, score) <= 0.5 + DRAW_MARGIN


@dataclass(frozen=True)
class PositionScore:
    """One position judged: the side to move's score, mate and chance, and the engine's best line."""

    score: float
    chance: float
    mate: int | None = None
    best: str | None = None
    pv: tuple[str, ...] = ()
    depth: int = 0

    @classmethod
    def from_stats(cls, game_name: str, stats: SearchStats) -> PositionScore:
        """The score of a finished search of the position."""
        return cls(stats.score, win_chance(game_name, stats.score, stats.mate), stats.mate,
                   stats.best, tuple(stats.pv), stats.depth)

    @classmethod
    def final(cls, game: Game) -> PositionScore:
        """A finished game's last position: its result, for the side to move."""
        outcome = game.outcome()
        if outcome is None:
            raise ValueError("the game is not over: search the position instead")
        if outcome.winner is None:
            return cls(0.0, 0.5)
        # mate 0: the game is decided on the board (no eval is written for it).
        return cls(0.0, 1.0 if outcome.winner == game.turn else 0.0, 0)


@dataclass(frozen=True)
class MoveReport:
    """One move judged: who made it, the mover's chances before and after, its class."""

    ply: int
    move: str
    side: int
    before: float
    after: float
    label: str
    #: The engine's choice in the position before the move (``None`` if it is this move).
    best: str | None
    #: The position after the move, for the first player (``[%eval]`` of a record).
    eval: str

    @property
    def loss(self) -> float:
        return max(0.0, self.before - self.after)

    @property
    def mark(self) -> str:
        """``??``, ``?``, ``?!`` or ``""``."""
        return MARKS.get(self.label, "")

    @property
    def comment(self) -> str:
        """The record comment: ``[%eval 0.35] mistake (loses 12%); best Nf3``."""
        parts = [f"[%eval {self.eval}]"] if self.eval else []
        if self.label:
            parts.append(f"{self.label} (loses {self.loss:.0%})" + (f"; best {self.best}" if self.best else ""))
        return " ".join(parts)


def eval_text(game_name: str, score: PositionScore, first_to_move: bool) -> str:
    """A position's eval for the first player: ``0.35``, ``-1.20``, ``#3``, ``#-2``
    (``""`` for a game decided on the board)."""
    sign = 1 if first_to_move else -1
    if score.mate == 0:
        return ""
    if score.mate is not None:
        return f"#{sign * score.mate}"
    return game_kind(game_name).scores.in_units(sign * score.score)


@dataclass(frozen=True)
class GameReport:
    """Every move of a game judged from the scores of its positions."""

    game_name: str
    moves: tuple[MoveReport, ...]
    #: The first player's winning chance in each position (``len(moves) + 1`` of them).
    chances: tuple[float, ...]
    depth: int

    @classmethod
    def build(cls, game_name: str, first_mover: int, moves: Sequence[str],
              scores: Sequence[PositionScore], depth: int = 0, *,
              turns: Sequence[int] | None = None) -> GameReport:
        """The report of ``moves`` from ``scores`` of the ``len(moves) + 1`` positions.

        ``turns`` is the side to move in each position (:func:`turns_of`: a side may move
        again); without it the sides alternate from ``first_mover``.  A score is its position's
        side to move's, so a move's chance after it is that score's, or its complement where
        the other side moves next."""
        if len(scores) != len(moves) + 1:
            raise ValueError(f"{len(moves)} moves need {len(moves) + 1} position scores, got {len(scores)}")
        if turns is None:
            turns = [(first_mover + ply) % 2 for ply in range(len(scores))]
        reports = []
        chances = []
        for ply, score in enumerate(scores):
            chances.append(score.chance if turns[ply] == 0 else 1.0 - score.chance)
        for ply, move in enumerate(moves):
            side = turns[ply]
            following = turns[ply + 1]
            before = scores[ply].chance
            after = scores[ply + 1].chance if following == side else 1.0 - scores[ply + 1].chance
            loss = max(0.0, before - after)
            best = scores[ply].best
            reports.append(MoveReport(
                ply, move, side, before, after, classify(loss),
                None if best == move else best,
                eval_text(game_name, scores[ply + 1], following == 0),
            ))
        return cls(game_name, tuple(reports), tuple(chances), depth)

    def counts(self, side: int) -> dict[str, int]:
        """How many moves of ``side`` fall in each class."""
        found = {name: 0 for name, _ in CLASSES}
        for move in self.moves:
            if move.side == side and move.label:
                found[move.label] += 1
        return found

    def average_loss(self, side: int) -> float:
        """The mean loss of ``side``'s moves (0 when it made none)."""
        losses = [move.loss for move in self.moves if move.side == side]
        return sum(losses) / len(losses) if losses else 0.0

    def comments(self) -> list[str]:
        """One record comment per move."""
        return [move.comment for move in self.moves]


def game_positions(game_name: str, start: str | None, moves: Sequence[str]) -> Iterator[Game]:
    """Every position of a game, the start first: one game, advanced a move per
    step (read each before asking for the next)."""
    game = new_game(game_name, start)
    yield game
    for text in moves:
        game.play(game.parse_move(text))
        yield game


def turns_of(game_name: str, start: str | None, moves: Sequence[str]) -> list[int]:
    """The side to move in each position of a game, the start first (the game's ``turn``)."""
    return [game.turn for game in game_positions(game_name, start, moves)]


def score_game(game_name: str, start: str | None, moves: Sequence[str], engine: Any,
               depth: int | None = None,
               on_progress: Callable[[int, int], None] | None = None) -> GameReport:
    """Search every position of a game with ``engine`` at ``depth`` (default
    the game's report depth) and judge its moves; the app walks the same
    :func:`game_positions` in its search process, one position at a time."""
    depth = depth or game_kind(game_name).scores.report_depth
    first_mover = new_game(game_name, start).turn
    scores = []
    turns = []
    for ply, game in enumerate(game_positions(game_name, start, moves)):
        turns.append(game.turn)
        if on_progress is not None:
            on_progress(ply, len(moves) + 1)
        if game.outcome() is not None:
            scores.append(PositionScore.final(game))
        else:
            result = engine.search(game, Limits(depth=depth))
            scores.append(PositionScore.from_stats(game_name, result.stats))
    return GameReport.build(game_name, first_mover, moves, scores, depth, turns=turns)
