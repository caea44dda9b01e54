"""The conformance kit: the protocol tests every game passes, for a game author's own test suite.

A game written to :class:`games.Game` (see ``docs/protocol.md``) and registered as a game is
checked by the same tests as the bundled ones: the rules' invariants (a move played and taken back
leaves the same position text, key and move count; equal positions have equal keys; no legal move
only where the game is over; random games end with an outcome), the notation (every legal move's
text reads back to it, typed variants read as the game writes them, bad text is one-line
:class:`~games.MoveError`), position texts (they read back; garbage is one-line
:class:`~games.PositionError`), perft (bulk and played counts agree, published counts, and the
game's own reference where its kind has one), records (a played game saved in the game's record
format reads back through :mod:`games.reading`), heuristics (finite, inside
``HEURISTIC_BOUND``, the same for one player as minus for the other) and an app smoke test (the
game screen at 80x24 and 120x40, two human seats, a move typed; skipped where Textual is
missing), and the engines (:mod:`tui.conformance_engines`: every full-width engine against a
brute-force minimax the kit carries, on the game's small positions, and ``turn``'s
consistency).  The facts a test needs of one game (two orders of moves that transpose, an illegal
move, perft counts...) come from its kind's :class:`~games.samples.Samples`; a test whose fact a
game does not give is skipped for it.

Use it the way hypothesis's stateful tests are used: subclass :class:`GameConformance` in a test
module and name the game class.  A plug-in's whole conformance suite is these lines in, say,
``tests/test_conformance.py`` (the game installed, so the registry finds it)::

    from tui.conformance import GameConformance
    from connect_four import ConnectFour

    class TestConnectFour(GameConformance):
        game = ConnectFour

Then ``pytest tests/test_conformance.py``.  The kit needs pytest and hypothesis (the project's
``test`` extra); it imports the app, and so Textual, only inside the smoke test.  Our own suite
runs it over every registered game (``tests/test_conformance.py``), plug-ins included.
"""

from __future__ import annotations

import asyncio
import math
import random
import time
from enum import StrEnum
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import HEURISTIC_BOUND, Game, Outcome, IllegalMoveError, MoveError, MoveSyntaxError, PositionError, kind_of
from games.base import UnknownHeuristicError
from games.kind import GameKind
from games.perft import divide, perft
from games.reading import read_records
from games.samples import Samples

from .conformance_engines import EngineConformance, random_playout

__all__ = ["GameConformance", "random_playout"]

#: The health checks the kit's properties do without: a slow example is no failure on a loaded
#: machine, and each game's class runs the same test methods (one kit, many executors).
_QUIET = [HealthCheck.too_slow, HealthCheck.differing_executors]
#: Random playouts per property (a few seconds a game on a loaded machine).
PLAYOUTS = settings(max_examples=25, deadline=None, suppress_health_check=_QUIET)
#: Garbage texts per parser.
GARBAGE = settings(max_examples=200, deadline=None, suppress_health_check=_QUIET)
#: The plies a random game may last before the kit calls it endless.
ENDLESS = 2000
#: The depth perft is compared with the game's reference at (fewer where the reference is slow).
REFERENCE_DEPTH = 3
#: How long the smoke test waits for the app to do what it was asked.
APP_TIMEOUT = 30.0

SEEDS = st.integers(0, 2**32 - 1)


def check_outcome(outcome: Outcome) -> None:
    """An outcome names a winner (0, 1) or none, and a reason that is a ``StrEnum`` member with words."""
    assert outcome.winner in (None, 0, 1), outcome
    assert isinstance(outcome.reason, StrEnum), f"{outcome.reason!r} is not a StrEnum member"
    assert outcome.reason.value and outcome.text, outcome


class GameConformance(EngineConformance):
    """The protocol tests of one game: subclass it as ``TestSomething`` with ``game`` set."""

    #: The game under test (a :class:`games.Game` subclass, registered).
    game: ClassVar[type[Game]]

    @classmethod
    def for_game(cls, game: type[Game]) -> type[GameConformance]:
        """The kit for ``game`` as a test class pytest collects (``TestChessGame``)."""
        return type(f"Test{game.__name__}", (cls,), {"game": game, "__module__": cls.__module__})

    # ------------------------------------------------------------ helpers
    def kind(self) -> GameKind[Game]:
        """The game's kind: the registry must know the game."""
        return kind_of(self.game)

    def samples(self) -> Samples:
        return self.kind().samples

    def walk(self, seed: int, plies: int) -> Game:
        return random_playout(self.game(), seed, plies)

    def at(self, position: str | None) -> Game:
        return self.game() if position is None else self.game.from_text(position)

    # ------------------------------------------------------------ the class
    def test_the_class_is_complete_and_registered(self) -> None:
        cls = self.game
        assert self.kind().game is cls
        assert len(cls.PLAYERS) == 2 and all(cls.PLAYERS)
        for name in (cls.DEFAULT_HEURISTIC, cls.CUT_HEURISTIC, cls.STRONG_HEURISTIC):
            assert cls.heuristic(name) is not None
        assert cls.DEFAULT_HEURISTIC in cls.HEURISTICS and cls.CUT_HEURISTIC in cls.HEURISTICS
        assert len(set(cls.FEATURE_NAMES)) == len(cls.FEATURE_NAMES)
        with pytest.raises(UnknownHeuristicError, match="expected one of"):
            cls.heuristic("nope")

    def test_decisive_score_is_a_positive_int_beyond_the_start_evaluation(self) -> None:
        """Learning targets put forced wins at DECISIVE_SCORE: it must read as more than any quiet position."""
        cls = self.game
        assert type(cls.DECISIVE_SCORE) is int and cls.DECISIVE_SCORE > 0
        game = cls()
        for heuristic in (cls.DEFAULT_HEURISTIC, cls.CUT_HEURISTIC, cls.STRONG_HEURISTIC):
            assert abs(game.evaluate(game.turn, heuristic)) < cls.DECISIVE_SCORE
        assert cls.DECISIVE_SCORE < HEURISTIC_BOUND

    # ------------------------------------------------------------ the rules
    @PLAYOUTS
    @given(seed=SEEDS, plies=st.integers(1, 80))
    def test_play_then_undo_restores_position_and_key(self, seed: int, plies: int) -> None:
        rng = random.Random(seed)
        game = self.game()
        trail = []
        for _ in range(plies):
            moves = game.legal_moves()
            if not moves or game.outcome() is not None:
                break
            trail.append((game.to_text(), game.key(), game.turn, game.count_moves(), game.outcome()))
            move = rng.choice(moves)
            game.play(move)
            assert game.move_stack[-1] == move
        assert game.ply == len(trail)
        while trail:
            text, key, turn, count, outcome = trail.pop()
            game.undo()
            assert game.to_text() == text
            assert game.key() == key
            assert game.turn == turn
            assert game.count_moves() == count
            assert game.outcome() == outcome
        assert game.ply == 0
        with pytest.raises(IndexError):
            game.undo()

    @PLAYOUTS
    @given(seed=SEEDS, plies=st.integers(0, 120))
    def test_no_legal_move_only_where_the_game_is_over(self, seed: int, plies: int) -> None:
        """An empty move list is an outcome (a forced pass is a move); a win is on the board, so it
        leaves no move; an outcome with moves left is a draw by rule."""
        game = self.walk(seed, plies)
        outcome, moves = game.outcome(), game.legal_moves()
        assert len(moves) == game.count_moves()
        if not moves:
            assert outcome is not None, game.to_text()
        if outcome is not None:
            check_outcome(outcome)
            if moves:
                assert outcome.winner is None, (outcome, game.to_text())

    def test_random_games_end_with_an_outcome(self) -> None:
        """Random play reaches an end by the rules (wins, draws or caps), never a dead end without one."""
        for seed in range(3):
            rng = random.Random(seed)
            game = self.game()
            for _ in range(ENDLESS):
                if game.outcome() is not None:
                    break
                moves = game.legal_moves()
                assert moves, "no legal move but no outcome either"
                game.play(rng.choice(moves))
            outcome = game.outcome()
            assert outcome is not None, f"{self.game.NAME}: random game did not end in {ENDLESS} plies"
            check_outcome(outcome)

    @PLAYOUTS
    @given(seed=SEEDS, plies=st.integers(0, 80))
    def test_copy_is_independent(self, seed: int, plies: int) -> None:
        game = self.walk(seed, plies)
        twin = game.copy()
        assert twin.key() == game.key() and twin.to_text() == game.to_text()
        assert list(twin.move_stack) == list(game.move_stack)
        moves = twin.legal_moves()
        if moves:
            before = game.to_text()
            twin.play(moves[0])
            assert game.to_text() == before

    def test_equal_positions_have_equal_keys(self) -> None:
        transposition = self.samples().transposition
        if transposition is None:
            pytest.skip("the game's samples give no transposition")
        first, second = self.game(), self.game()
        first.play_all(transposition[0])
        second.play_all(transposition[1])
        assert first.to_text() == second.to_text()
        assert first.key() == second.key()
        assert hash(first.key()) == hash(second.key())
        assert first.key() != self.game().key()

    def test_keys_differ_by_side_to_move(self) -> None:
        pair = self.samples().other_side
        if pair is None:
            pytest.skip("the game's samples give no board with either side to move")
        one, other = (self.game.from_text(text) for text in pair)
        assert one.turn != other.turn
        assert one.key() != other.key()

    def test_finished_positions_are_over(self) -> None:
        for text in self.samples().finished:
            assert self.game.from_text(text).outcome() is not None, text

    @PLAYOUTS
    @given(seed=SEEDS, plies=st.integers(0, 100))
    def test_search_hooks_agree_with_the_rules(self, seed: int, plies: int) -> None:
        """capture_score, can_stand_pat and tactical_moves, which engines order and quiesce with,
        are consistent with the legal moves and the outcome."""
        game = self.walk(seed, plies)
        if game.outcome() is not None:
            return
        legal = game.legal_moves()
        text = game.to_text()
        for move in legal:
            score = game.capture_score(move)
            assert isinstance(score, int) and score >= 0
            if game.is_capture(move):
                assert score > 0
        tactical = game.tactical_moves()
        assert set(tactical) <= set(legal)
        assert all(game.is_capture(m) or game.capture_score(m) > 0 for m in tactical) or not game.can_stand_pat()
        assert game.to_text() == text

    # ------------------------------------------------------------ notation
    @PLAYOUTS
    @given(seed=SEEDS, plies=st.integers(0, 60))
    def test_every_legal_move_round_trips_through_its_text(self, seed: int, plies: int) -> None:
        game = self.walk(seed, plies)
        moves = game.legal_moves()
        assert len(moves) == game.count_moves()
        assert len(set(moves)) == len(moves), "legal moves must be distinct"
        texts = [game.format_move(m) for m in moves]
        assert len(set(texts)) == len(texts), "two moves share a text"
        for move, text in zip(moves, texts):
            assert game.parse_move(text) == move
            assert game.parse_move(f"  {text} ") == move

    def test_typed_variants_read_as_the_game_writes_them(self) -> None:
        examples = self.samples().notation
        if not examples:
            pytest.skip("the game's samples give no notation examples")
        for example in examples:
            game = self.at(example.position)
            assert game.format_move(game.parse_move(example.typed)) == example.written, example

    def test_error_messages_explain_and_give_an_example(self) -> None:
        cls = self.game
        game = cls()
        with pytest.raises(MoveSyntaxError) as syntax:
            game.parse_move("what?")
        assert cls.EXAMPLE_MOVE in str(syntax.value) or "like" in str(syntax.value)
        with pytest.raises(PositionError) as position:
            cls.from_text("not a position")
        assert str(position.value)
        assert cls.from_text(cls.EXAMPLE_POSITION).to_text()
        assert game.parse_move(cls.EXAMPLE_MOVE) in game.legal_moves()

    def test_well_formed_but_illegal_moves_are_illegal_not_syntax_errors(self) -> None:
        illegal = self.samples().illegal_move
        if illegal is None:
            pytest.skip("the game's samples give no illegal move")
        with pytest.raises(IllegalMoveError):
            self.game().parse_move(illegal)

    @GARBAGE
    @given(text=st.text(max_size=40))
    def test_garbage_move_text_raises_only_move_errors(self, text: str) -> None:
        game = self.game()
        try:
            move = game.parse_move(text)
        except MoveError as exc:
            assert str(exc) and "\n" not in str(exc)
        else:
            assert move in game.legal_moves()

    @GARBAGE
    @given(data=st.data())
    def test_mangled_legal_moves_raise_only_move_errors(self, data: st.DataObject) -> None:
        """Near misses (a legal move with a character changed) are the typical typo."""
        game = self.game()
        text = data.draw(st.sampled_from(game.legal_move_texts()))
        chars = list(text)
        chars[data.draw(st.integers(0, len(chars) - 1))] = data.draw(st.characters())
        try:
            game.parse_move("".join(chars))
        except MoveError as exc:
            assert str(exc) and "\n" not in str(exc)

    # ------------------------------------------------------------ position texts
    @PLAYOUTS
    @given(seed=SEEDS, plies=st.integers(0, 80))
    def test_position_text_round_trips(self, seed: int, plies: int) -> None:
        game = self.walk(seed, plies)
        text = game.to_text()
        again = self.game.from_text(text)
        assert again.to_text() == text
        assert again.key() == game.key()
        assert again.turn == game.turn
        assert sorted(map(again.format_move, again.legal_moves())) == sorted(game.legal_move_texts())

    @GARBAGE
    @given(text=st.text(max_size=120))
    def test_garbage_position_text_raises_only_position_errors(self, text: str) -> None:
        try:
            game = self.game.from_text(text)
        except PositionError as exc:
            assert str(exc) and "\n" not in str(exc)
        else:
            assert self.game.from_text(game.to_text()).key() == game.key()

    # ------------------------------------------------------------ perft
    def test_perft_leaves_position_unchanged_and_divide_sums(self) -> None:
        game = self.game()
        before = game.to_text()
        total = perft(game, 3)
        assert perft(game, 3, bulk=False) == total
        assert sum(count for _, count in divide(game, 3)) == total
        assert game.to_text() == before and game.ply == 0

    def test_perft_counts_the_published_leaves(self) -> None:
        counts = self.samples().perft
        if not counts:
            pytest.skip("the game's samples give no perft counts")
        for count in counts:
            game = self.at(count.position)
            assert perft(game, count.depth) == count.leaves, count

    def test_perft_agrees_with_the_games_reference(self) -> None:
        reference = self.kind().bench.reference
        if reference is None:
            pytest.skip("the game's kind has no perft reference")
        depth = max(1, REFERENCE_DEPTH - reference.depth_less)
        leaves = reference.count(None, depth)
        if leaves is None:
            pytest.skip(f"the reference {reference.name} cannot run here")
        assert perft(self.game(), depth) == leaves

    # ------------------------------------------------------------ heuristics
    @PLAYOUTS
    @given(seed=SEEDS, plies=st.integers(0, 120))
    def test_heuristics_and_features_are_finite_bounded_and_antisymmetric(self, seed: int, plies: int) -> None:
        game = self.walk(seed, plies)
        for heuristic in game.HEURISTICS:
            mine, theirs = game.evaluate(0, heuristic), game.evaluate(1, heuristic)
            assert math.isfinite(mine)
            assert -HEURISTIC_BOUND < mine < HEURISTIC_BOUND
            assert mine == -theirs, heuristic
        for player in (0, 1):
            features = game.features(player)
            assert len(features) == len(game.FEATURE_NAMES)
            assert all(math.isfinite(float(v)) for v in features)

    # ------------------------------------------------------------ records
    @settings(max_examples=10, deadline=None, suppress_health_check=_QUIET)
    @given(seed=SEEDS, plies=st.integers(0, 200))
    def test_a_played_game_reads_back_from_its_record(self, seed: int, plies: int) -> None:
        game = self.walk(seed, plies)
        records = self.kind().records
        text = records.text(game, first_player="Ann", second_player="random")
        (loaded,) = read_records(self.game.NAME, text)
        assert loaded.player_names == ("Ann", "random")
        again, written = self.game.replay(loaded.start, loaded.moves)
        assert written == _written(game)
        assert again.to_text() == game.to_text()
        assert records.recognises(text)

    # ------------------------------------------------------------ the app
    @pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
    def test_the_app_opens_the_game_and_takes_a_typed_move(self, size: tuple[int, int]) -> None:
        pytest.importorskip("textual")
        asyncio.run(_smoke(self.game.NAME, size))


def _written(game: Game) -> list[str]:
    """The moves of ``game`` from its start, each written where it was played (``game`` is left as it was)."""
    start, moves = game.copy(), list(game.move_stack)
    for _ in moves:
        start.undo()
    written = []
    for move in moves:
        written.append(start.format_move(move))
        start.play(move)
    return written


async def _smoke(name: str, size: tuple[int, int]) -> None:
    """Open the game screen of ``name`` for two humans at ``size``, type the first legal move and
    wait for it to be played; any exception in the app fails the test."""
    from tui.app.app import TuiGamesApp
    from tui.app.screens.game import GameScreen
    from tui.app.session import GameSetup

    app = TuiGamesApp(GameSetup.checked(name, "human", "human"))
    app.animation_level = "none"
    async with app.run_test(size=size) as pilot:
        deadline = time.monotonic() + APP_TIMEOUT

        def screen() -> Any:
            return next((s for s in app.screen_stack if isinstance(s, GameScreen)), None)

        while screen() is None or not screen().is_mounted:
            assert time.monotonic() < deadline, "the game screen did not open"
            await pilot.pause(0.02)
        game_screen = screen()
        move = game_screen.game.legal_move_texts()[0]
        game_screen.move_input.focus()
        await pilot.press(*move, "enter")
        while game_screen.game.ply < 1:
            assert time.monotonic() < deadline, f"the typed move {move!r} was not played"
            await pilot.pause(0.02)
        await pilot.press("tab", "shift+tab")
        await pilot.pause()
