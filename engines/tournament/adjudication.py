"""Adjudication: ending a game off the board on the engines' own scores (fastchess's rules).

An :class:`Adjudicator` is told each engine move's score as it is played
(:meth:`Adjudicator.after_move`: the mover, its score for itself, whether it
is a mate score, and how many plies the game has) and answers with the
:class:`~games.Outcome` that ends the game, or ``None`` to play on.  The
rules (:mod:`~engines.tournament.conditions` describes their settings),
with scores in the game's raw units (a setting in the game's unit times its
:attr:`~games.kind.ScoreScale.unit`):

- *resign*: each side counts its own moves in a row whose score is at most
  ``-score`` (or a mate against it); when a side's count reaches
  ``movecount`` and its score is below zero, it loses.  *Two-sided*: one count
  of plies in a row whose score is at least ``score`` from zero (either sign,
  or any mate), which must reach ``movecount`` moves of each side (twice
  ``movecount`` plies); then the mover whose score is below zero loses.
- *draw*: one count of plies in a row whose score is within ``score`` of
  zero (a mate never is), started again by an irreversible move (a capture,
  a pawn's or a man's move: :meth:`~games.Game.is_irreversible`, as
  fastchess restarts it when the 50-move counter is zeroed); when it reaches
  ``movecount`` moves of each side and ``movenumber`` moves of the game are
  done, a draw.
- *max moves*: a draw when the game has ``maxmoves`` moves (both sides'),
  the opening's included.

A move without a score (chosen without a search: ``random``) breaks every
run of moves it takes part in.  Board results come first: the match asks
only while the game's rules have not ended it.
"""

from __future__ import annotations

from games import Outcome

from .conditions import Conditions, DrawRule, Resign
from .result import MatchTermination

__all__ = ["Adjudicator", "DRAW", "MAX_MOVES", "RESIGN"]

#: The reasons an adjudicated game gives (its results' ``reason`` and its record's termination).
RESIGN = MatchTermination.RESIGN
DRAW = MatchTermination.DRAW
MAX_MOVES = MatchTermination.MAX_MOVES


class Adjudicator:
    """The adjudication of one game under ``conditions``; ``unit`` is the game's score unit
    (100 in chess: a setting of 3 pawns is 300 of the engines' centipawns)."""

    def __init__(self, conditions: Conditions, unit: float) -> None:
        self.resign: Resign | None = conditions.resign
        self.draw: DrawRule | None = conditions.draw
        self.maxmoves = conditions.maxmoves
        self.resign_score = self.resign.score * unit if self.resign else 0.0
        self.draw_score = self.draw.score * unit if self.draw else 0.0
        #: Each side's own moves in a row at or below -score (one-sided resign).
        self.losing = [0, 0]
        #: Plies in a row with both sides decided (two-sided resign), or level (draw).
        self.decided = 0
        self.level = 0

    def after_move(self, player: int, score: float | None, mate: int | None, plies: int,
                   irreversible: bool = False) -> Outcome | None:
        """The outcome after ``player``'s move scored ``score`` for itself (``mate``:
        moves to a mate, negative against it; ``score`` ``None``: no search), with
        the game ``plies`` long; ``irreversible``: the move was a capture or the
        like; ``None`` to play on."""
        searched = score is not None
        score = score or 0.0
        outcome = None
        if self.resign is not None:
            outcome = self._resign(player, searched, score, mate)
        if outcome is None and self.draw is not None:
            outcome = self._draw(searched, score, mate, plies, irreversible)
        if outcome is None and self.maxmoves is not None and plies >= 2 * self.maxmoves:
            outcome = Outcome(None, MAX_MOVES)
        return outcome

    def _resign(self, player: int, searched: bool, score: float, mate: int | None) -> Outcome | None:
        rule = self.resign
        assert rule is not None
        below = score < 0 or (mate is not None and mate < 0)
        if rule.twosided:
            far = searched and (mate is not None or abs(score) >= self.resign_score)
            self.decided = self.decided + 1 if far else 0
            if self.decided >= 2 * rule.movecount and below:
                return Outcome(1 - player, RESIGN)
            return None
        lost = searched and ((mate is not None and mate < 0) or (mate is None and score <= -self.resign_score))
        self.losing[player] = self.losing[player] + 1 if lost else 0
        if self.losing[player] >= rule.movecount and below:
            return Outcome(1 - player, RESIGN)
        return None

    def _draw(self, searched: bool, score: float, mate: int | None, plies: int,
              irreversible: bool) -> Outcome | None:
        rule = self.draw
        assert rule is not None
        if irreversible:
            self.level = 0
        level = searched and mate is None and abs(score) <= self.draw_score
        self.level = self.level + 1 if level else 0
        if self.level >= 2 * rule.movecount and plies // 2 >= rule.movenumber:
            return Outcome(None, DRAW)
        return None
