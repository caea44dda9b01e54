"""The conformance kit's engine checks: every full-width engine against a brute force, on a game's small positions.

The kit carries :func:`brute_force`, a plain minimax written over the game protocol alone: it
reads :attr:`~games.Game.turn` after every move (a child's value is negated only where the other
side moves there), scores a finished game ``WIN`` less the plies to it and a leaf by the game's
heuristic, and gives up past a node budget.  Against it, on the game's own positions:

- random positions near the start, at the samples' ``search_depth`` (2 by default) with the
  cheap heuristic: minimax, alpha-beta and its variants return its value, and play a move worth it;
- positions near the end of random games, where the brute force sees every line to its end:
  those engines and ``pvs`` (its refinements on and off) agree on who wins and play a move that
  keeps it so;
- the samples' ``decided`` positions (the shared engine tests' own): every engine finds the end
  at the given distance (counted in plies where :attr:`~games.Game.MOVES_AGAIN`);
- the samples' ``small_tree``: a recorded minimax tree holds the brute force's value at every node,
  and its MAX and MIN nodes follow ``turn``;
- ``turn``'s consistency: 0 or 1, kept by a copy, a position text and a move taken back; a game
  whose moves leave the side to move unchanged is told (a warning) if it does not say
  ``MOVES_AGAIN``.

What a game does not give (no samples, no positions the budgets reach) is skipped, not failed.
:class:`EngineConformance` is part of :class:`tui.conformance.GameConformance`; it needs no
Textual.
"""

from __future__ import annotations

import random
import warnings
from typing import Any, Callable, ClassVar

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from engines import Limits, create_engine, mate_in
from games import WIN, Game, kind_of
from games.samples import Samples

__all__ = ["BRUTE_BUDGET", "EXACT_ENGINES", "ENDGAME_ENGINES", "BruteForceTooBig", "EngineConformance",
           "brute_force", "random_playout"]

#: The most nodes one brute-force search may visit; a position past it is skipped.
BRUTE_BUDGET = 20_000
#: The engines that must return the brute force's value at a fixed depth (with a heuristic at the leaves).
EXACT_ENGINES = ("minimax", "alphabeta", "alphabeta-hard", "alphabeta:tt=off", "alphabeta:order=off")
#: The engines that must agree with the brute force on who wins where it sees every line to the end.
ENDGAME_ENGINES = EXACT_ENGINES + ("pvs", "pvs:null=off,lmr=off,checks=off,delta=off,predict=off")
#: Extra plies the endgame engines search beyond the brute force's: room for pvs's reductions.
MARGIN = 4
_QUIET = [HealthCheck.too_slow, HealthCheck.differing_executors, HealthCheck.filter_too_much]
SEARCHES = settings(max_examples=6, deadline=None, suppress_health_check=_QUIET,
                    phases=[Phase.explicit, Phase.reuse, Phase.generate])
SEEDS = st.integers(0, 2**32 - 1)


class BruteForceTooBig(Exception):
    """The brute force went past its node budget."""


def brute_force(game: Game, depth: int, evaluate: Callable[[Game, int], float], *,
                budget: int = BRUTE_BUDGET, ply: int = 0) -> tuple[float, bool]:
    """The ``depth``-ply minimax value of ``game`` for the side to move, and whether every line
    ended inside it (the value is then exact, no heuristic in it); ``ply`` is how far ``game`` is
    from the search's root (wins count plies from there).  Raises :class:`BruteForceTooBig` past
    ``budget`` nodes."""
    count = [0]

    def value(ply: int, left: int) -> tuple[float, bool]:
        count[0] += 1
        if count[0] > budget:
            raise BruteForceTooBig
        outcome = game.outcome() if ply else None
        if outcome is not None:
            return (0 if outcome.winner is None else WIN - ply if outcome.winner == game.turn else ply - WIN), True
        moves = game.legal_moves()
        if left <= 0 or not moves:
            return evaluate(game, game.turn), False
        best, ended, mover = -float("inf"), True, game.turn
        for move in moves:
            game.play(move)
            try:
                child, child_ended = value(ply + 1, left - 1)
                child = child if game.turn == mover else -child  # the same side moving again keeps it
            finally:
                game.undo()
            best, ended = max(best, child), ended and child_ended
        return best, ended

    return value(ply, depth)


def _value_of(game: Game, move: Any, depth: int, evaluate: Callable[[Game, int], float]) -> tuple[float, bool]:
    """What ``move`` is worth to its mover, ``depth`` plies deep in all (the brute force below it)."""
    mover = game.turn
    game.play(move)
    try:
        value, ended = brute_force(game, depth - 1, evaluate, ply=1)
        return (value if game.turn == mover else -value), ended
    finally:
        game.undo()


def random_playout(game: Game, seed: int, plies: int) -> Game:
    """Play up to ``plies`` uniformly random legal moves on ``game`` (seeded), stopping at an
    outcome or where no move is left, and return it."""
    rng = random.Random(seed)
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves or game.outcome() is not None:
            break
        game.play(rng.choice(moves))
    return game


def _spec(base: str, **options: Any) -> str:
    extra = ",".join(f"{key}={value}" for key, value in options.items())
    return f"{base}{',' if ':' in base else ':'}{extra}"


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


class EngineConformance:
    """The engine checks of one game (see the module doc); part of ``GameConformance``."""

    game: ClassVar[type[Game]]

    def _samples(self) -> Samples:
        return kind_of(self.game).samples

    def _walk(self, seed: int, plies: int) -> Game:
        return random_playout(self.game(), seed, plies)

    def _near_the_end(self, seed: int, back: int) -> Game | None:
        """A random game from the start played to its end, then ``back`` plies taken back."""
        game = self._walk(seed, 2000)
        if game.outcome() is None:
            return None
        for _ in range(min(back, game.ply)):
            game.undo()
        return game if game.outcome() is None else None

    # ------------------------------------------------------------ turn
    @settings(max_examples=15, deadline=None, suppress_health_check=_QUIET)
    @given(seed=SEEDS, plies=st.integers(0, 40))
    def test_turn_is_kept_by_copies_texts_and_undo(self, seed: int, plies: int) -> None:
        game = self._walk(seed, plies)
        turn = game.turn
        assert turn in (0, 1)
        assert game.copy().turn == turn
        assert type(game).from_text(game.to_text()).turn == turn, game.to_text()
        again = 0
        for move in game.legal_moves():
            game.play(move)
            assert game.turn in (0, 1)
            again += game.turn == turn and game.outcome() is None
            game.undo()
            assert game.turn == turn, game.format_move(move)
        if again and not self.game.MOVES_AGAIN:
            warnings.warn(f"{self.game.__name__}: a move left {self.game.PLAYERS[turn]} to move again but "
                          "MOVES_AGAIN is False: set it so forced wins are counted in plies", stacklevel=1)

    # ------------------------------------------------------------ values
    @SEARCHES
    @given(seed=SEEDS, plies=st.integers(2, 16))
    def test_full_width_engines_return_the_brute_forces_value(self, seed: int, plies: int) -> None:
        samples = self._samples()
        depth = samples.search_depth or 2
        heuristic = samples.cheap_heuristic or self.game.DEFAULT_HEURISTIC
        evaluate = self.game.heuristic(heuristic)
        game = self._walk(seed, plies)
        if game.outcome() is not None:
            return
        try:
            expected, _ = brute_force(game, depth, evaluate)
        except BruteForceTooBig:
            return
        for base in EXACT_ENGINES:
            result = create_engine(_spec(base, depth=depth, heuristic=heuristic), self.game).search(
                game, Limits(depth=depth))
            assert result.score == int(expected), (base, game.to_text(), result.score, expected)
            assert _value_of(game, result.move, depth, evaluate)[0] == expected, (base, game.to_text())

    @SEARCHES
    @given(seed=SEEDS, back=st.integers(1, 8))
    def test_engines_agree_with_the_brute_force_near_the_end(self, seed: int, back: int) -> None:
        game = self._near_the_end(seed, back)
        if game is None:
            return
        evaluate = self.game.heuristic(self.game.DEFAULT_HEURISTIC)
        for depth in range(1, 12):  # the least depth that sees every line to the end
            try:
                value, ended = brute_force(game, depth, evaluate)
            except BruteForceTooBig:
                return
            if ended:
                break
        else:
            return
        for base in ENDGAME_ENGINES:
            spec = _spec(base, depth=depth + MARGIN, heuristic=self.game.DEFAULT_HEURISTIC)
            result = create_engine(spec, self.game).search(game, Limits(depth=depth + MARGIN))
            assert _sign(result.score) == _sign(value), (base, game.to_text(), result.score, value)
            try:
                played, _ = _value_of(game, result.move, depth + MARGIN, evaluate)
            except BruteForceTooBig:
                continue
            assert _sign(played) == _sign(value), (base, game.to_text(), game.format_move(result.move))

    def test_full_width_engines_find_the_decided_ends(self) -> None:
        decided = self._samples().decided
        if not decided:
            pytest.skip(f"{self.game.__name__}'s samples give no decided positions")
        for case in decided:
            game = self.game.from_text(case.position)
            evaluate = self.game.heuristic(self.game.DEFAULT_HEURISTIC)
            engines = ENDGAME_ENGINES if case.minimax else tuple(e for e in ENDGAME_ENGINES if "minimax" not in e)
            expected = None
            if case.minimax:
                try:
                    expected = brute_force(game, case.depth, evaluate, budget=10 * BRUTE_BUDGET)[0]
                except BruteForceTooBig:
                    pass
            for base in engines:
                spec = _spec(base, depth=case.depth, heuristic=self.game.DEFAULT_HEURISTIC)
                result = create_engine(spec, self.game).search(game, Limits(depth=case.depth))
                assert mate_in(result.score, plies=self.game.MOVES_AGAIN) == case.moves_to_end, (base, case)
                if expected is not None and not base.startswith("pvs"):
                    assert result.score == expected, (base, case)

    def test_a_recorded_tree_holds_the_brute_forces_values_and_turns(self) -> None:
        small = self._samples().small_tree
        if small is None:
            pytest.skip(f"{self.game.__name__}'s samples give no small tree")
        from engines.tree import record_tree
        from engines.tree.views import MAX, MIN, MINIMAX, node_view

        start, moves, depth = small
        game = self.game() if start is None else self.game.from_text(start)
        game.play_all(moves)
        evaluate = self.game.heuristic(self.game.DEFAULT_HEURISTIC)
        _, tree = record_tree(f"minimax:depth={depth}", game, budget=BRUTE_BUDGET)
        if tree.root is None or not tree.complete:
            pytest.skip("the small tree is past the kit's node budget")
        stack: list[tuple[Any, tuple[Any, ...]]] = [(tree.root, ())]
        while stack:
            node, line = stack.pop()
            position = game.copy()
            for move in line:
                position.play(move)
            assert node_view(node, MINIMAX).role == (MAX if position.turn == game.turn else MIN), line
            if line and position.outcome() is not None:
                continue
            value, _ = brute_force(position, node.depth, evaluate, ply=node.ply)
            assert node.value == value, (line, node.value, value)
            stack.extend((child, line + (child.move,)) for child in node.children if not child.null)
