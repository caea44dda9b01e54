"""A finished game's result: the JSON line every run writes, read back as it was written.

``tests/data/results.jsonl`` holds three lines as ``tui-games match`` wrote them
on 2026-11-25 (before results were typed): a Quixo win whose log holds a mate
score, a drawn Quixo game, and a checkers game of a ``--sprt`` match (its line
keeps the test).  ``results.report.json`` and ``results.report.txt`` are what
``tui-games report`` printed for them then, with what the report gained since:
fastchess's figures for every pairing (one ``stats`` object in the JSON, whose
test is now in its pairing's object; every earlier field kept its value).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.tournament import (
    AGENTS, TOTALS, AgentTotals, GameResult, LogEntry, MatchConfig, ResultsFileError, Sides, play_game, read_results,
)

from cli_run import run

DATA = Path(__file__).resolve().parent / "data"
OLD = DATA / "results.jsonl"


def test_lines_written_before_results_were_typed_read_and_report_as_they_did(capsys) -> None:
    results, partial = read_results(OLD)
    assert len(results) == 3 and partial is None
    for argv, expected in ((["report", str(OLD), "--json"], "results.report.json"),
                           (["report", str(OLD)], "results.report.txt")):
        code, out, err = run(capsys, *argv)
        assert code == 0 and err == ""
        assert out == (DATA / expected).read_text(encoding="utf-8")


# ------------------------------------------------------------- the format on disk
def test_an_old_line_reads_typed_and_writes_back_byte_for_byte() -> None:
    for number, line in enumerate(OLD.read_text(encoding="utf-8").splitlines(), 1):
        result = GameResult.from_json(json.loads(line), f"{OLD}:{number}")
        assert json.dumps(result.to_json(), separators=(",", ":")) == line
    win, draw, tested = read_results(OLD)[0]
    assert (win.winner, win.points("a"), win.points("b"), win.match.game) == ("a", 1.0, 0.0, "quixo")
    assert win.log[-1] == LogEntry(999999, 1, 2, 105, 0.0004) and win.log[-1].mate == 1
    assert win.totals["a"].nodes == 1474 and win.totals.b.moves == 6 and win.colours.a == "X"
    assert draw.drawn and draw.points("a") == draw.points("b") == 0.5 and draw.winner_colour is None
    assert tested.sprt == (0.0, 200.0, 0.05, 0.05) and win.sprt is None


def test_a_new_game_writes_the_keys_an_old_line_has() -> None:
    old = json.loads(OLD.read_text(encoding="utf-8").splitlines()[0])
    config = MatchConfig.create("quixo", "alphabeta:depth=1", "random", 2, openings=1)
    new = play_game(config, 1).to_json()
    assert list(new) == [key for key in old if key != "sprt"]
    assert list(new["stats"]["a"]) == list(old["stats"]["a"]) and list(new["match"]) == list(old["match"])
    assert all(len(entry) == 5 for entry in new["log"])


def test_a_line_without_a_log_reads_as_lines_did_before_the_log() -> None:
    old = json.loads(OLD.read_text(encoding="utf-8").splitlines()[0])
    del old["log"], old["start"]
    result = GameResult.from_json(old, "old.jsonl:1")
    assert result.log == () and result.log_of("a") == [] and result.start == ""


# ------------------------------------------------------------- any result
_TEXT = st.text(max_size=12)
_INT = st.integers(-2**40, 2**40)
_COUNT = st.integers(0, 2**40)
_SECONDS = st.floats(0, 1e6, allow_nan=False, allow_infinity=False)
_TOTALS = st.builds(AgentTotals, *([_COUNT] * (len(TOTALS))), _SECONDS)
_LOG = st.builds(LogEntry, _INT, st.none() | _INT, _COUNT, _COUNT, _SECONDS)


@st.composite
def game_results(draw: st.DrawFn) -> GameResult:
    games = draw(st.integers(1, 10**6))
    config = MatchConfig(draw(_TEXT), draw(_TEXT), draw(_TEXT), games, draw(st.integers(0, 50)), draw(_INT))
    winner = draw(st.sampled_from(["a", "b", None]))
    return GameResult(
        match=config, index=draw(st.integers(0, games - 1)), colours=Sides(draw(_TEXT), draw(_TEXT)),
        first=draw(st.sampled_from(AGENTS)), engines=Sides(draw(_TEXT), draw(_TEXT)),
        opening=tuple(draw(st.lists(_TEXT, max_size=4))), start=draw(_TEXT),
        moves=tuple(draw(st.lists(_TEXT, max_size=6))), log=tuple(draw(st.lists(_LOG, max_size=6))),
        plies=draw(_COUNT), winner=winner, winner_colour=None if winner is None else draw(_TEXT),
        reason=draw(_TEXT), wall_s=draw(_SECONDS), totals=Sides(draw(_TOTALS), draw(_TOTALS)),
        sprt=draw(st.none() | st.tuples(*[st.floats(-2000, 2000)] * 4)))


@given(game_results())
def test_any_result_reads_back_equal_from_its_json_text(result: GameResult) -> None:
    text = json.dumps(result.to_json(), separators=(",", ":"))
    assert "\n" not in text
    assert GameResult.from_json(json.loads(text), "r.jsonl:1") == result


@given(game_results(), st.sampled_from(AGENTS))
def test_points_and_the_logs_of_both_agents_add_up(result: GameResult, agent: str) -> None:
    other = "b" if agent == "a" else "a"
    assert result.points(agent) + result.points(other) == 1.0
    assert len(result.log_of(agent)) + len(result.log_of(other)) == len(result.log)


# ------------------------------------------------------------- refusals
def _line(**changes: object) -> dict:
    line = json.loads(OLD.read_text(encoding="utf-8").splitlines()[0])
    for key, value in changes.items():
        if value is _DROP:
            del line[key]
        else:
            line[key] = value
    return line


_DROP = object()


@pytest.mark.parametrize("obj, needle", [
    ([1, 2], "not a game record (a JSON object expected)"),
    (_line(match=_DROP, result=_DROP), "not a game record of 'tui-games match' (no 'match', 'result')"),
    (_line(match={"game": "quixo"}), "the line's 'match' key is incomplete"),
    (_line(index=2), "game index 2 outside the match's 2 games"),
    (_line(index=True), "game index True outside"),
    (_line(result="white"), "result 'white'; expected a, b or draw"),
    (_line(stats={"a": {}}), "the line's 'stats' lack an agent"),
    (_line(stats={"a": {"nodes": "many"}, "b": {}}), "'stats' hold nodes 'many', not a number"),
    (_line(match={"game": "quixo", "a": "x", "b": "y", "games": 2, "openings": -1, "seed": 0}),
     "'match' has openings -1"),
    (_line(first="c"), "the line's 'first' is 'c'; expected a or b"),
    (_line(colours={"a": "X"}), "the line's 'colours' is {'a': 'X'}; expected a text for a and for b"),
    (_line(moves="e4 e5"), "the line's 'moves' is 'e4 e5'; expected a list of texts"),
    (_line(log=[[1, None, 2, 3]]), "the line's 'log' is [[1, None, 2, 3]]; expected a list of [score"),
    (_line(plies=-1), "the line's 'plies' is -1; expected a whole number"),
    (_line(winner_colour=1), "the line's 'winner_colour' is 1; expected a text or null"),
    (_line(wall_s=float("nan")), "the line's 'wall_s' is nan; expected a number"),
    (_line(sprt=[0, "x"]), "its 'sprt' [0, 'x'] is not a list of 2 or 4 numbers"),
])
def test_a_line_that_is_not_a_result_is_refused_in_one_line_naming_it(obj: object, needle: str) -> None:
    with pytest.raises(ResultsFileError) as error:
        GameResult.from_json(obj, "r.jsonl:7")
    message = str(error.value)
    assert message.startswith("r.jsonl:7: ") and needle in message and "\n" not in message


def test_agent_totals_are_moves_then_every_total_in_order() -> None:
    assert list(AgentTotals().to_json()) == ["moves", *TOTALS]
