"""The coach's parts that need no app: clocks, winning chances, the game report,
draw offers, and records that carry them."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from engines import create_engine
from engines.review import (
    GameReport,
    PositionScore,
    accepts_draw,
    classify,
    score_game,
    win_chance,
)
from engines.timing import time_for_move
from games import GAME_NAMES, Outcome, game_class, new_game
from games.clock import Clock, ClockError, TimeControl, clock_text
from games.reading import read_records
from games import game_kind
from games.records import RecordNotes, outcome_from_record


def record_text(name: str, game, **kwargs) -> str:
    return game_kind(name).records.text(game, **kwargs)


# -- clocks -------------------------------------------------------------------

@pytest.mark.parametrize("text, base, increment", [
    ("5+3", 300.0, 3.0), ("0.1+0", 6.0, 0.0), ("10", 600.0, 0.0), (" 1 + 0.5 ", 60.0, 0.5), (".5+1", 30.0, 1.0),
])
def test_time_control_parses_minutes_and_seconds(text: str, base: float, increment: float) -> None:
    control = TimeControl.parse(text)
    assert (control.base, control.increment) == (base, increment)


@pytest.mark.parametrize("text", ["", "5+", "+3", "five", "0+3", "-1+0", "5+3+1", "2000+0", "5+9999"])
def test_bad_time_controls_say_what_is_expected(text: str) -> None:
    with pytest.raises(ClockError, match="bad clock"):
        TimeControl.parse(text)


@given(st.text(max_size=20))
def test_any_clock_text_parses_or_fails_cleanly(text: str) -> None:
    try:
        control = TimeControl.parse(text)
    except ClockError as error:
        assert "\n" not in str(error)
    else:
        assert control.base > 0 and control.increment >= 0


def test_time_control_tags() -> None:
    assert TimeControl.parse("5+3").pgn_tag == "300+3"
    assert TimeControl.parse("0.1+0").pgn_tag == "6+0"
    assert str(TimeControl.parse("0.1+0")) == "0.1+0"


def test_clock_text() -> None:
    assert clock_text(299.5) == "4:59"
    assert clock_text(3723) == "1:02:03"
    assert clock_text(7.35) == "0:07.3"
    assert clock_text(-1) == "0:00.0"


def test_clock_runs_one_side_adds_the_increment_and_goes_back() -> None:
    clock = Clock(TimeControl(60.0, 2.0))
    clock.start(0, now=100.0)
    assert clock.left(0, 110.0) == 50.0 and clock.left(1, 110.0) == 60.0
    clock.press(0, now=110.0)                 # 10 s used, 2 s added
    assert clock.left(0, 500.0) == 52.0
    clock.start(1, now=110.0)
    clock.stop(now=115.0)                     # a pause: no time runs
    assert clock.left(1, 999.0) == 55.0
    clock.start(1, now=200.0)
    clock.press(1, now=203.0)
    assert clock.history == [(60.0, 60.0), (52.0, 60.0), (52.0, 54.0)]
    assert clock.at_ply(1) == (52.0, 60.0)
    clock.back_to(1)                          # undo the second move
    assert clock.running is None and clock.left(1, 0.0) == 60.0 and len(clock.history) == 2


def test_a_game_kept_mid_move_keeps_the_time_already_used() -> None:
    """Quit with White's clock at 0:51 of 1:00, Continue: it showed 0:58 again (the history holds
    the times after each move only); what is kept is the clocks as they stand."""
    clock = Clock(TimeControl(60.0, 0.0))
    clock.start(0, now=100.0)
    clock.press(0, now=102.0)
    clock.start(1, now=102.0)
    assert clock.standing(109.0) == [(60.0, 60.0), (58.0, 53.0)]  # Black thinking for 7 s
    clock.stop(now=110.0)  # paused: the same, whenever it is read
    assert clock.standing(500.0) == [(60.0, 60.0), (58.0, 52.0)] and clock.history[-1] == (58.0, 60.0)


def test_clock_flag_falls() -> None:
    clock = Clock(TimeControl.parse("0.05+0"))
    clock.start(0, now=0.0)
    assert not clock.flagged(0, 2.9)
    assert clock.flagged(0, 3.0) and clock.left(0, 10.0) == 0.0


def test_time_budget_from_the_clock() -> None:
    # sudden death: the clock less its 50 ms reserve over 50 moves, less 10 ms of per-move overhead
    assert time_for_move(60_000, 0) == pytest.approx((60 - 0.05) / 50 - 0.010)
    assert time_for_move(100, 0) == pytest.approx(0.001)  # the least budget, 1 ms
    assert time_for_move(60_000, 2_000) == pytest.approx((60 - 0.05) / 30 + 0.8 * 2 - 0.010)


def test_a_one_second_clock_lasts_a_long_game() -> None:
    """At 1 s + 0 a game of 200 moves a side fits on the clock when each move costs
    its budget and what a move costs beyond it through a GUI: 1.6 ms with one
    process, 2.7 ms with two (measured through python-chess at the least budget).
    With 5 ms charged a move it lasted 168 moves, and a 149-move game was lost on time."""
    left_ms = 1000.0
    for _ in range(200):
        left_ms -= 1000 * time_for_move(left_ms) + 2.7
        assert left_ms > 0


# -- winning chances and classes ------------------------------------------------

@pytest.mark.parametrize("game", GAME_NAMES)
def test_win_chance_is_symmetric_and_monotonic(game: str) -> None:
    assert win_chance(game, 0) == 0.5
    assert win_chance(game, 200) + win_chance(game, -200) == pytest.approx(1.0)
    assert win_chance(game, 100) < win_chance(game, 300) < 1.0
    assert win_chance(game, -5, mate=3) == 1.0 and win_chance(game, 5, mate=-1) == 0.0


def test_classes() -> None:
    assert [classify(loss) for loss in (0.0, 0.049, 0.05, 0.10, 0.15, 0.9)] == [
        "", "", "inaccuracy", "mistake", "blunder", "blunder"]


def test_draw_acceptance_needs_moves_and_a_level_score() -> None:
    plies = game_kind("chess").scores.draw_min_plies
    assert not accepts_draw("chess", plies - 1, 0, None)
    assert accepts_draw("chess", plies, 0, None)
    assert accepts_draw("chess", plies, -300, None)        # worse: takes it
    assert not accepts_draw("chess", plies, 300, None)     # better: plays on
    assert not accepts_draw("chess", plies, 0, 2)          # has a mate
    assert not accepts_draw("chess", plies, None, None)    # has not searched


# -- the report ---------------------------------------------------------------------

def test_report_marks_a_planted_blunder() -> None:
    engine = create_engine("pvs", game_class("chess"))
    moves = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]   # 3... Nf6?? allows mate
    report = score_game("chess", None, moves, engine, depth=3)
    labels = {move.move: move.label for move in report.moves}
    assert labels["Nf6"] == "blunder"
    assert [m.move for m in report.moves if m.label == "blunder"] == ["Nf6"]
    blunder = report.moves[5]
    assert blunder.side == 1 and blunder.best and blunder.best != "Nf6"
    assert blunder.comment.startswith("[%eval #1] blunder")
    assert report.counts(1)["blunder"] == 1 and report.counts(0)["blunder"] == 0
    assert len(report.chances) == len(moves) + 1 and report.chances[-1] == 1.0
    assert report.average_loss(1) > report.average_loss(0)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_report_of_every_game(game: str) -> None:
    played = new_game(game)
    moves = []
    for _ in range(6):
        move = played.legal_moves()[0]
        moves.append(played.format_move(move))
        played.play(move)
    report = score_game(game, None, moves, create_engine("pvs", game_class(game)), depth=2)
    assert len(report.moves) == 6 and all(0.0 <= c <= 1.0 for c in report.chances)
    assert all(m.loss >= 0 for m in report.moves)


def test_report_needs_one_score_per_position() -> None:
    with pytest.raises(ValueError, match="3 position scores"):
        GameReport.build("chess", 0, ["e4", "e5"], [PositionScore(0, 0.5)])


# -- records that carry notes ---------------------------------------------------------

def _played(game: str, plies: int = 3):
    played = new_game(game)
    for _ in range(plies):
        played.play(played.legal_moves()[0])
    return played


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("outcome", [Outcome(1, "resignation"), Outcome(None, "agreement"), Outcome(0, "time")])
def test_results_off_the_board_load_back(game: str, outcome: Outcome) -> None:
    notes = RecordNotes(outcome=outcome, comments=["[%eval 0.20] [%clk 0:04:59]", "", "[%clk 0:04:50]"],
                        tags={"TimeControl": "300+3"}, comment="hints used: 1 (White)")
    text = record_text(game, _played(game), first_player="a", second_player="b", notes=notes)
    assert "[%clk 0:04:59]" in text and "300+3" in text and "hints used" in text
    loaded = read_records(game, text)[0]
    assert loaded.outcome == outcome
    assert len(loaded.moves) == 3
    assert loaded.tags.get("TimeControl") == "300+3"


def test_a_finished_game_states_no_outcome_of_its_own() -> None:
    game = new_game("chess")
    game.play_all(["f3", "e5", "g4", "Qh4#"])
    loaded = read_records("chess", record_text("chess", game, first_player="a", second_player="b"))[0]
    assert loaded.outcome is None


def test_outcome_from_record() -> None:
    assert outcome_from_record("1-0", "White wins (time)") == Outcome(0, "time")
    assert outcome_from_record("1/2-1/2", "") == Outcome(None, "as recorded")  # not an invented reason
    assert outcome_from_record("*", "unterminated") is None
