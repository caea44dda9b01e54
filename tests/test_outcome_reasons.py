"""Outcome reasons are StrEnum members: the shared ones of games.Termination, each game's own,
the match's; their words are the texts records, results files and messages always had."""

from __future__ import annotations

from enum import StrEnum

import pytest

from engines.tournament.clocks import MatchClocks
from engines.tournament.result import FORFEIT, MatchTermination, forfeit_reason
from games import Outcome, Termination, new_game
from games.chess import ChessGame, ChessTermination
from games.records import describe_outcome, outcome_from_record
from tui.conformance import check_outcome


def test_a_reason_is_its_words() -> None:
    outcome = Outcome(None, Termination.THREEFOLD_REPETITION)
    assert outcome.reason == "threefold repetition" and outcome.text == "threefold repetition"
    assert f"{outcome.reason}" == "threefold repetition"
    said = Outcome(None, Termination.TIME, "time, White cannot win")
    assert said.reason is Termination.TIME and said.text == "time, White cannot win"
    assert said != Outcome(None, Termination.TIME)


def test_checkmate_is_chess_own_reason_and_reads_as_before() -> None:
    game = ChessGame.from_text("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    outcome = game.outcome()
    assert outcome is not None and outcome.reason is ChessTermination.CHECKMATE
    assert describe_outcome(game) == "White wins (checkmate)"
    check_outcome(outcome)


def test_the_kit_refuses_a_reason_that_is_a_plain_string() -> None:
    with pytest.raises(AssertionError, match="not a StrEnum member"):
        check_outcome(Outcome(None, "board full"))  # type: ignore[arg-type]


@pytest.mark.parametrize(("described", "reason", "text"), [
    ("White wins (resignation)", Termination.RESIGNATION, "resignation"),
    ("Draw (agreement)", Termination.AGREEMENT, "agreement"),
    ("Black wins (White's engine crashed)", Termination.RECORDED, "White's engine crashed"),
    ("", Termination.RECORDED, "as recorded"),
])
def test_a_records_reason_is_a_member_its_words_kept(described: str, reason: StrEnum, text: str) -> None:
    outcome = outcome_from_record("1-0", described)
    assert outcome is not None and outcome.reason is reason and outcome.text == text


def test_a_match_gives_its_reasons_as_members_with_the_results_words() -> None:
    bare = new_game("chess", "k7/8/8/8/8/8/8/KQ6 w - - 0 1")
    fell = MatchClocks.flag_outcome(bare, 0)  # White's flag: bare Black cannot win
    assert fell.reason is Termination.TIME and fell.text == "time, Black cannot win"
    assert MatchClocks.flag_outcome(bare, 1) == Outcome(0, Termination.TIME)
    assert forfeit_reason("timeout") == "forfeit: timeout" and FORFEIT == "forfeit: "
    assert MatchTermination.RESIGN == "adjudication: resign"
