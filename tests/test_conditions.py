"""A match's conditions as units: adjudication on hand-made score sequences, the clocks'
arithmetic, the book's order, and the config's JSON (old lines still read)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engines.base import Clocks, Limits
from engines.registry import create_engine
from engines.timing import clock_limits, time_for_move
from engines.tournament.adjudication import DRAW, MAX_MOVES, RESIGN, Adjudicator
from engines.tournament.clocks import TIME, MatchClocks
from engines.tournament.conditions import (
    BookChoice,
    Conditions,
    ConditionsError,
    DrawRule,
    Resign,
    conditions_from,
)
from engines.tournament.config import MatchConfig, split_clock
from engines.tournament.result import GameResult
from games import GAME_NAMES, Outcome, game_class, game_kind, new_game
from games.clock import TimeControl

DATA = Path(__file__).parent / "data"
MATE = 10 ** 6  # a score with a mate


def run(adjudicator: Adjudicator, moves: list[tuple[int, float | None, int | None]], start_ply: int = 0):
    """Feed ``(player, score, mate)`` moves; the ply of the first outcome and the outcome."""
    for ply, (player, score, mate) in enumerate(moves, start_ply + 1):
        outcome = adjudicator.after_move(player, score, mate, ply)
        if outcome is not None:
            return ply, outcome
    return None, None


def alternate(scores: list[float | None]) -> list[tuple[int, float | None, int | None]]:
    """Moves by players 0, 1, 0, ... with these scores (each for its mover)."""
    return [(ply % 2, score, None) for ply, score in enumerate(scores)]


def resigning(movecount: int, score: float, twosided: bool = False, unit: float = 100.0) -> Adjudicator:
    return Adjudicator(Conditions(resign=Resign(movecount, score, twosided)), unit)


def test_resign_needs_the_losers_own_moves_in_a_row() -> None:
    # player 1 scores -300 (3 pawns) or worse on three of its moves in a row: it loses after its third
    scores = [50, -310, 300, -400, 320, -500]
    ply, outcome = run(resigning(3, 3), alternate(scores))
    assert (ply, outcome) == (6, Outcome(0, RESIGN))


def test_resign_count_starts_again_after_a_better_score_or_an_unsearched_move() -> None:
    assert run(resigning(3, 3), alternate([0, -310, 0, -400, 0, -200, 0, -500, 0, -500]))[1] is None
    assert run(resigning(2, 3), alternate([0, -310, 0, None, 0, -400]))[1] is None
    assert run(resigning(2, 3), alternate([0, -310, 0, None, 0, -400, 0, -400]))[0] == 8


def test_resign_is_one_sided_unless_asked() -> None:
    # the winner's own score does not matter one-sided; two-sided it must agree (|score| >= S)
    scores = [100, -310, 100, -400, 100, -500]
    assert run(resigning(3, 3), alternate(scores))[0] == 6
    assert run(resigning(3, 3, twosided=True), alternate(scores))[1] is None
    agreed = [310, -310, 350, -400, 500, -500]
    assert run(resigning(3, 3, twosided=True), alternate(agreed)) == (6, Outcome(0, RESIGN))


def test_two_sided_resign_waits_for_the_side_below_zero_to_move() -> None:
    # six decided plies end on player 0's winning move: the loser is adjudicated at its own move
    agreed = [-310, 310, -350, 400, -500, 500, -600]
    assert run(resigning(3, 3, twosided=True), alternate(agreed)) == (7, Outcome(1, RESIGN))


def test_a_mate_against_the_mover_counts_as_lost() -> None:
    moves = [(0, 0, None), (1, -MATE, -5), (0, 0, None), (1, -MATE, -4)]
    assert run(resigning(2, 50), moves) == (4, Outcome(0, RESIGN))


def test_scores_are_in_the_games_unit() -> None:
    # Quixo's unit is 1: a setting of 30 is 30 of its raw score; chess's 100: 0.3 pawns is 30 centipawns
    assert run(resigning(1, 30, unit=1.0), alternate([0, -30]))[0] == 2
    assert run(resigning(1, 0.3, unit=100.0), alternate([0, -30]))[0] == 2
    assert run(resigning(1, 0.31, unit=100.0), alternate([0, -30]))[1] is None


def drawing(movenumber: int, movecount: int, score: float) -> Adjudicator:
    return Adjudicator(Conditions(draw=DrawRule(movenumber, movecount, score)), 100.0)


def test_draw_after_the_move_number_with_both_sides_level() -> None:
    level = [5, -5, 10, 0, 8, -9, 3, 2]
    assert run(drawing(0, 2, 0.1), alternate(level)) == (4, Outcome(None, DRAW))
    # movenumber 3: the game must have 3 moves (6 plies) done
    assert run(drawing(3, 2, 0.1), alternate(level))[0] == 6
    # counted from a long opening, the move number is the game's
    assert run(drawing(3, 2, 0.1), alternate(level), start_ply=10)[0] == 14


def test_draw_count_breaks_on_a_big_score_a_mate_or_no_search() -> None:
    assert run(drawing(0, 2, 0.1), alternate([5, -5, 10, 50, 8, -9]))[1] is None
    assert run(drawing(0, 2, 0.1), alternate([5, -5, 10, None, 8, -9]))[1] is None
    assert run(drawing(0, 1, 0.1), [(0, 0, None), (1, MATE, 3)])[1] is None


def test_an_irreversible_move_starts_the_draw_count_again() -> None:
    # fastchess restarts it when the 50-move counter is zeroed (a capture or a pawn move); ours
    # counted on through captures, so a level trade of queens could end the game as a draw.
    adjudicator = drawing(0, 2, 0.1)
    plies = [(0, 5, False), (1, -5, False), (0, 0, False), (1, 0, True), (0, 0, False), (1, 0, False)]
    seen = [adjudicator.after_move(player, score, None, ply + 1, irreversible)
            for ply, (player, score, irreversible) in enumerate(plies)]
    assert seen[3] is None and seen[4] is None and seen[5] is None  # 3 level plies since the capture, not 4
    assert adjudicator.after_move(0, 0, None, 7) == Outcome(None, DRAW)


@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_which_moves_are_irreversible(game_name: str) -> None:
    """The moves of the game's samples (``irreversible``) are irreversible or not as they say."""
    cls, samples = game_class(game_name), game_kind(game_name).samples
    if not samples.irreversible:
        pytest.skip(f"{game_name}'s samples give no irreversible moves")
    for position, moves in samples.irreversible:
        game = cls.from_text(position) if position else cls()
        for text, irreversible in moves:
            assert game.is_irreversible(game.parse_move(text)) is irreversible, (position, text)


def test_max_moves_counts_the_whole_game() -> None:
    adjudicator = Adjudicator(Conditions(maxmoves=3), 100.0)
    assert run(adjudicator, alternate([900] * 10)) == (6, Outcome(None, MAX_MOVES))
    assert run(Adjudicator(Conditions(maxmoves=3), 100.0), alternate([0] * 10), start_ply=4)[0] == 6


def test_resign_comes_before_the_draw_rules() -> None:
    adjudicator = Adjudicator(Conditions(resign=Resign(1, 1), maxmoves=1), 100.0)
    assert run(adjudicator, alternate([0, -150])) == (2, Outcome(0, RESIGN))


@pytest.mark.parametrize("text, needle", [
    ("movecount=3", "give movecount"), ("movecount=x,score=1", "not a number"), ("count=3,score=1", "expected"),
    ("movecount=0,score=1", "1 or more"), ("movecount=3,score=-1", "0 or more"),
    ("movecount=3,score=1,twosided=maybe", "true or false"),
])
def test_bad_rules_are_one_line(text: str, needle: str) -> None:
    with pytest.raises(ConditionsError, match=needle):
        Resign.parse(text)


def test_rules_read_and_write_as_fastchess_writes_them() -> None:
    assert Resign.parse("movecount=3,score=5,twosided=true") == Resign(3, 5.0, True)
    assert DrawRule.parse("movenumber=40,movecount=8,score=0.1") == DrawRule(40, 8, 0.1)
    assert DrawRule.parse("movecount=8,score=0.1").movenumber == 0
    assert Resign.parse(Resign(3, 5.5).text()) == Resign(3, 5.5)


# ---------------------------------------------------------------- clocks
def test_a_clock_runs_down_gains_its_increment_and_flags_beyond_the_margin() -> None:
    clocks = MatchClocks((TimeControl(1.0, 0.1), TimeControl(5.0)), margin_ms=50)
    assert clocks.spend(0, 0.4) and clocks.left[0] == pytest.approx(0.7)
    assert clocks.spend(0, 0.74)  # over by 40 ms: within the margin, the clock is 0, then the increment
    assert clocks.left[0] == pytest.approx(0.1)
    assert not clocks.spend(0, 0.2)  # over by 100 ms: lost on time
    assert clocks.left[1] == 5.0


def test_a_period_adds_the_base_again() -> None:
    clocks = MatchClocks((TimeControl(10.0, 0.0, moves=2), TimeControl(10.0)))
    assert clocks.moves_to_go(0) == 2
    clocks.spend(0, 4.0)
    assert clocks.moves_to_go(0) == 1 and clocks.left[0] == pytest.approx(6.0)
    clocks.spend(0, 4.0)
    assert clocks.left[0] == pytest.approx(12.0) and clocks.moves_to_go(0) == 2
    assert clocks.moves_to_go(1) is None


def test_a_flag_loses_unless_the_other_side_cannot_win() -> None:
    game = new_game("chess", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1")
    assert MatchClocks.flag_outcome(game, 1) == Outcome(0, TIME)
    drawn = MatchClocks.flag_outcome(game, 0)
    assert drawn == Outcome(None, TIME, f"{TIME}, Black cannot win") and drawn.text == "time, Black cannot win"


def test_engines_are_told_their_clock_or_keep_their_own_time() -> None:
    clocks = MatchClocks((TimeControl(10.0, 0.1), TimeControl(4.0)))
    ours = create_engine("pvs:nodes=500", new_game("chess").__class__)
    limits = clocks.limits(ours, 1)
    assert limits.nodes == 500 and limits.flexible and limits.time == pytest.approx(time_for_move(4000, 0))
    assert limits.clocks == Clocks((10.0, 4.0), (0.1, 0.0))
    fixed = create_engine("pvs:time=2", new_game("chess").__class__)
    assert clocks.limits(fixed, 0) == Limits(None, 2.0, None)
    assert clock_limits(Limits(depth=3), Clocks((1.0, 1.0)), 0).depth == 3


def test_a_specs_own_clock_is_read_off_and_kept_last() -> None:
    assert split_clock("pvs:nodes=500,tc=10+0.1") == ("pvs:nodes=500", TimeControl(10.0, 0.1))
    assert split_clock("pvs:TC=40/60") == ("pvs", TimeControl(60.0, 0.0, 40))
    config = MatchConfig.create("quixo", "random:tc=5", "alphabeta:tc=40/60+0.6,depth=1", 2,
                                conditions=Conditions(tc="10+0.1"))
    assert config.b == "alphabeta:depth=1,tc=40/60+0.6"
    assert config.clock("a") == TimeControl(5.0) and config.clock("b") == TimeControl(60.0, 0.6, 40)
    assert MatchConfig.create("quixo", "random", "random", 2, conditions=Conditions(tc="10")).clock("a") == \
        TimeControl(10.0)


# ------------------------------------------------------------------ book
def test_book_orders(tmp_path: Path) -> None:
    path = tmp_path / "b.txt"
    path.write_text("".join(f"{move}\n" for move in ("a3", "a4", "b3", "b4", "c3")))
    sequential = BookChoice.open("chess", str(path))
    assert [sequential.line_of(pair, 0) for pair in range(7)] == [0, 1, 2, 3, 4, 0, 1]
    shuffled = BookChoice.open("chess", str(path), order="random")
    first = [shuffled.line_of(pair, 7) for pair in range(5)]
    assert sorted(first) == [0, 1, 2, 3, 4] and first != [0, 1, 2, 3, 4]
    assert sorted(shuffled.line_of(pair, 7) for pair in range(5, 10)) == [0, 1, 2, 3, 4]
    assert first == [shuffled.line_of(pair, 7) for pair in range(5)]
    assert first != [shuffled.line_of(pair, 8) for pair in range(5)]


def test_book_plies_cut_each_line(tmp_path: Path) -> None:
    path = tmp_path / "b.txt"
    path.write_text("e4 e5 Nf3 Nc6\nd4\n")
    book = BookChoice.open("chess", str(path), plies=2)
    assert book.opening("chess", 0, 0).moves == ("e4", "e5")
    assert book.opening("chess", 1, 0).moves == ("d4",)
    assert book.opening("chess", 0, 0).place.line == 1


def test_a_book_of_lost_lines_only_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "b.txt"
    path.write_text("# tui-games ballots\n001 9-13 21-17 5-9 lost\n")
    with pytest.raises(ConditionsError, match="all its 1 lines are marked lost"):
        BookChoice.open("checkers", str(path))
    assert BookChoice.open("checkers", str(path), include_lost=True).lines == 1


def test_the_same_lines_are_the_same_book_whatever_the_file(tmp_path: Path) -> None:
    (tmp_path / "one.txt").write_text("e4 e5\n")
    (tmp_path / "two.txt").write_text("# another name, another layout\n1. e4 e5\n")
    assert BookChoice.open("chess", str(tmp_path / "one.txt")) == BookChoice.open("chess", str(tmp_path / "two.txt"))


def test_settings_refuse_book_tuning_without_a_book_and_unknown_names() -> None:
    with pytest.raises(ConditionsError, match="'book_plies' goes with a 'book'"):
        conditions_from("chess", {"book_plies": 2})
    with pytest.raises(ConditionsError, match="unknown setting"):
        conditions_from("chess", {"books": "x"})


# ------------------------------------------------------------------ JSON
def test_a_match_without_conditions_writes_the_line_it_always_did() -> None:
    config = MatchConfig.create("quixo", "random", "random", 2)
    assert list(config.to_json()) == ["game", "a", "b", "games", "openings", "seed"]


def test_old_results_lines_still_read() -> None:
    for number, line in enumerate((DATA / "results.jsonl").read_text().splitlines(), 1):
        result = GameResult.from_json(json.loads(line), f"results.jsonl:{number}")
        assert result.match.conditions == Conditions() and result.book is None and result.clocks is None


def test_conditions_round_trip_through_a_results_line() -> None:
    conditions = conditions_from("checkers", {"book": "ballots", "book_order": "random", "book_plies": 2,
                                              "resign": "movecount=3,score=4,twosided=true",
                                              "draw": "movenumber=30,movecount=5,score=0.1", "maxmoves": 100,
                                              "tc": "40/5+0.05", "timemargin": 30})
    config = MatchConfig.create("checkers", "alphabeta:depth=1", "alphabeta:depth=1", 2, seed=3,
                                conditions=conditions)
    assert Conditions.from_json(json.loads(json.dumps(config.to_json()))) == conditions
    for key in ("book", "resign", "draw", "maxmoves", "tc", "timemargin"):
        assert key in config.to_json()
