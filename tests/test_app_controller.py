"""The game controller, without Textual: what comes next in a game (over, a human's move,
an engine's search with its limits, an engine that waits), the clock, pauses and steps,
premoves, undo and flag falls."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

from hypothesis import given, settings, strategies as st

from engines import Limits
from games import Outcome, Termination
from tui.app.controller import (EngineToMove, EngineWaits, GameController, GameOver, HumanToMove, Premove,
                                Reviewing)
from tui.app.session import GameSetup


def controller(game: str, first: str = "human", second: str = "human", position: str | None = None,
               **options) -> GameController:
    return GameController(GameSetup.checked(game, first, second, position, **options))


def test_no_textual_is_imported() -> None:
    code = ("import sys, tui.app.controller; "
            "print(sorted(name for name in sys.modules if name.split('.')[0] == 'textual'))")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "[]"


def test_a_human_then_the_engine_with_its_spec_and_no_limits_without_a_clock() -> None:
    game = controller("quixo", "human", "alphabeta:depth=2")
    assert game.turn() == HumanToMove(0)
    game.play(game.game.parse_move("0 0 bottom"), now=0.0)
    assert game.turn() == EngineToMove(1, "alphabeta:depth=2", None)
    assert game.turn(held=True) == EngineWaits(1, "waits for the dialog")


def test_limits_under_the_clock_keep_the_specs_own_caps() -> None:
    game = controller("chess", "pvs:time=0.5,depth=7", "pvs", clock="1+2")
    turn = game.turn(now=100.0)
    assert isinstance(turn, EngineToMove) and turn.side == 0
    assert turn.limits == Limits(depth=7, time=0.5, nodes=None, flexible=True)  # the spec's time caps the budget
    game.play(game.game.parse_move("e4"), now=100.0)
    limits = game.turn(now=100.0).limits
    assert limits is not None and 0 < limits.time < 60 and limits.depth is None and limits.flexible


def test_a_loaded_game_waits_paused_and_a_step_plays_one_engine_move() -> None:
    setup = GameSetup.checked("checkers", "alphabeta:depth=1", "alphabeta:depth=1")
    game = GameController(replace(setup, moves=("11-15",), source="game.pdn"))
    assert game.paused and game.turn() == EngineWaits(1, "paused")
    assert game.clock_side() is None
    assert game.step_refusal() == ""
    game.step()
    assert isinstance(game.turn(), EngineToMove)
    game.engine_played(game.game.legal_moves()[0], now=0.0)
    assert game.paused and not game.stepping and game.turn() == EngineWaits(0, "paused")
    assert not game.toggle_pause() and isinstance(game.turn(), EngineToMove)


def test_a_human_cannot_step() -> None:
    game = controller("quixo")
    assert game.step_refusal() == "step plays one engine move when an engine is to move"


def test_review_and_the_end_of_the_game() -> None:
    game = controller("chess")
    for text in ["f3", "e5", "g4"]:
        game.play(game.game.parse_move(text), now=0.0)
    game.played.review = 1
    assert game.turn() == Reviewing(1)
    game.played.review = None
    game.play(game.game.parse_move("Qh4#"), now=0.0)
    assert game.turn() == GameOver(Outcome(1, "checkmate")) and not game.human_to_move
    assert game.step_refusal() != ""


def test_a_verdict_off_the_board_ends_the_game_and_undo_takes_it_back() -> None:
    game = controller("quixo", clock="1+0")
    game.play(game.game.parse_move("0 0 bottom"), now=0.0)
    game.end(Outcome(0, "resignation"), now=1.0)
    assert game.turn() == GameOver(Outcome(0, "resignation"))
    assert game.undo() == 1 and game.outcome() is None and game.turn() == HumanToMove(0)


def test_a_premove_is_queued_on_the_engines_turn_and_handed_over_once_on_the_humans() -> None:
    game = controller("quixo", "human", "random")
    assert not game.premove_possible  # the human's own turn: a move, not a premove
    game.play(game.game.parse_move("0 0 bottom"), now=0.0)
    assert game.premove_possible
    game.queue_premove("4 4 left")
    game.engine_played(game.game.legal_moves()[0], now=0.0)
    assert game.turn() == HumanToMove(0, Premove("4 4 left"))
    assert game.turn() == HumanToMove(0) and game.premove is None  # played (or dropped) once


def test_no_premove_between_two_humans_or_two_engines() -> None:
    for players in (("human", "human"), ("random", "random")):
        game = controller("othello", *players)
        assert not game.premove_possible


def test_undo_takes_back_the_engines_reply_too_and_the_clock_with_it() -> None:
    game = controller("quixo", "human", "random", clock="1+2")
    game.play(game.game.parse_move("0 0 bottom"), now=0.0)
    game.engine_played(game.game.legal_moves()[0], now=1.0)
    game.queue_premove("4 4 left")
    assert game.clock is not None and len(game.clock.history) == 3
    assert game.undo() == 2
    assert game.moves == [] and game.premove is None and len(game.clock.history) == 1
    assert game.undo() == 0  # nothing to take back


def test_undo_between_engines_pauses_them() -> None:
    game = controller("checkers", "random", "random")
    game.engine_played(game.game.legal_moves()[0], now=0.0)
    assert game.undo() == 1 and game.paused


def test_the_clock_runs_for_the_side_to_move_once_both_have_moved() -> None:
    game = controller("chess", clock="1+0")
    assert game.clock_side() is None
    game.play(game.game.parse_move("e4"), now=0.0)
    assert game.clock_side() is None  # as on lichess: nobody loses on time before moving
    game.play(game.game.parse_move("e5"), now=0.0)
    assert game.clock_side() == 0
    assert game.clock_side(held=True) is None and game.clock_side(delaying=True) is None
    game.played.review = 1
    assert game.clock_side() is None


def test_a_flag_wins_unless_the_other_side_cannot_win() -> None:
    bare = controller("chess", position="k7/8/8/8/8/8/8/KQ6 w - - 0 1", clock="1+0")
    fell = bare.flag_fell(0)
    assert fell == Outcome(None, Termination.TIME, "time, but Black cannot mate")
    assert fell is not None and fell.text == "time, but Black cannot mate" and fell.reason == "time"
    assert bare.flag_fell(1) is None  # not Black's move: its flag does not count now
    game = controller("quixo", clock="1+0")
    assert game.flag_fell(0) == Outcome(1, "time")


def test_a_fallback_engine_plays_on() -> None:
    game = controller("quixo", "human", "random")
    game.fall_back(1, "h0", "no model: h0 plays")
    assert game.setup.players == ("human", "h0") and game.setup.notices[1] == "no model: h0 plays"


@settings(max_examples=30)
@given(st.sampled_from(["human", "random"]), st.sampled_from(["human", "random"]),
       st.lists(st.integers(min_value=0, max_value=200), max_size=12))
def test_the_turn_is_whoever_moves_in_the_game(first: str, second: str, picks: list[int]) -> None:
    game = controller("othello", first, second)
    for pick in picks:
        if game.outcome() is not None:
            break
        moves = game.game.legal_moves()
        game.play(moves[pick % len(moves)], now=0.0)
    turn = game.turn()
    outcome = game.outcome()
    if outcome is not None:
        assert turn == GameOver(outcome)
    elif game.setup.is_human(game.game.turn):
        assert turn == HumanToMove(game.game.turn)
    else:
        assert turn == EngineToMove(game.game.turn, "random", None)
