"""The puzzle trainer's model: Glicko-2 ratings, the streak, failed puzzles coming back, the summary."""

from __future__ import annotations

from hypothesis import given, strategies as st

from engines.puzzle_training import FIRST_GAP, LAST_GAP, Rating, Session, Training, glicko2


def test_glicko2_moves_more_when_unsure_and_grows_surer() -> None:
    fresh, settled = Rating(), Rating(1500.0, 60.0, 0.06)
    won_fresh, won_settled = glicko2(fresh, 1500, 1.0), glicko2(settled, 1500, 1.0)
    assert won_fresh.rating - 1500 > won_settled.rating - 1500 > 0
    assert won_fresh.deviation < fresh.deviation
    assert glicko2(fresh, 1500, 0.0).rating < 1500
    assert glicko2(settled, 1000, 1.0).rating - 1500 < glicko2(settled, 2000, 1.0).rating - 1500  # a hard one counts more


@given(st.floats(0, 4000), st.floats(30, 350), st.floats(0.001, 0.2), st.integers(0, 4000), st.booleans())
def test_glicko2_stays_in_bounds(rating: float, deviation: float, volatility: float, opponent: int, won: bool) -> None:
    after = glicko2(Rating(rating, deviation, volatility), opponent, 1.0 if won else 0.0)
    assert 0 <= after.rating <= 4000 and 30 <= after.deviation <= 350 and 0 <= after.volatility <= 0.2
    assert (after.rating >= rating) if won else (after.rating <= rating)


def test_a_failed_puzzle_comes_back_later_and_leaves_when_known() -> None:
    training = Training()
    training.scored("a", 1500, ("fork",), False)
    assert training.due(["a"]) == [] and training.streak == 0
    for number in range(FIRST_GAP):
        training.scored(f"other-{number}", 1500, (), True)
    assert training.due(["a", "other-0"]) == ["a"] and training.streak == FIRST_GAP
    gap = FIRST_GAP
    while "a" in training.reviews:
        training.scored("a", 1500, ("fork",), True)
        gap *= 2
        assert gap <= LAST_GAP or "a" not in training.reviews
    assert training.themes["fork"].deviation < 350 and training.best_streak > FIRST_GAP


def test_a_record_round_trips_and_a_damaged_one_is_refused() -> None:
    training = Training()
    training.scored("lichess:00sHx", 1800, ("mateIn2", "backRank"), False)
    assert Training.from_table(training.to_table()) == Training(
        Rating(*[round(x, n) for x, n in zip(vars(training.rating).values(), (1, 1, 6))]),
        {name: Rating(*[round(x, n) for x, n in zip(vars(r).values(), (1, 1, 6))]) for name, r in training.themes.items()},
        0, 0, 0, 1, reviews=training.reviews)
    for bad in ({"rating": "high"}, {"themes": {"fork": [1500, 9999, 0.06]}}, {"reviews": {"a": [1, -2]}},
                {"themes": []}, {"tried": True}):
        assert Training.from_table(bad) is None
    assert Training.from_table({"rating": 1600}) == Training(Rating(1600.0))  # an older file: the rest defaults


def test_the_summary_says_what_the_sitting_did() -> None:
    training = Training()
    session = Session(training.rating.rating)
    for id_, solved in (("a", True), ("b", False), ("c", True)):
        training.scored(id_, 1500, (), solved)
        session.count(id_, solved, training.streak)
    said = session.summary(training)
    assert said.startswith("this session: 2 of 3 solved, best streak 1") and "1 will come back for review" in said
