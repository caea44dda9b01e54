"""Tournament formats: round-robin and gauntlet, the SPRT, and the game records every run writes."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.tournament import GameResult, MatchConfig, MatchError, play_games
from games import GAME_NAMES
from engines.tournament.crosstable import Tournament
from engines.tournament.gamefiles import GameRecordsFile, game_record, move_comment
from engines.tournament.sprt import SPRT, llr, los, pair_elo, parse_sprt, pentanomial
from games.reading import read_records
from cli_run import assert_usage_error, run


#: A game's result as match wrote it (tests/data/results.jsonl); the SPRT reads only the index and winner.
_OLD = GameResult.from_json(json.loads((Path(__file__).parent / "data" / "results.jsonl").read_text().splitlines()[0]),
                            "results.jsonl:1")


def _result(index: int, result: str) -> GameResult:
    return replace(_OLD, index=index, winner=None if result == "draw" else result)


# ---------------------------------------------------------------- SPRT
def test_pentanomial_counts_only_finished_pairs() -> None:
    records = [_result(0, "a"), _result(1, "a"), _result(2, "a"), _result(3, "draw"), _result(4, "b"),
               _result(5, "a"), _result(6, "b"), _result(7, "b"), _result(8, "a")]
    assert pentanomial(records) == [1, 0, 1, 1, 1]


def _normal_llr(counts: list[int], elo0: float, elo1: float) -> float:
    def score(elo: float) -> float:
        return 1 / (1 + 10 ** (-elo / 400))

    pairs = sum(counts)
    values = (0, 0.25, 0.5, 0.75, 1)
    mean = sum(n * a for n, a in zip(counts, values)) / pairs
    variance = sum(n * (a - mean) ** 2 for n, a in zip(counts, values)) / pairs
    s0, s1 = score(elo0), score(elo1)
    return pairs * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


@pytest.mark.parametrize("counts", [[10, 100, 200, 150, 40], [40, 150, 200, 100, 10], [5, 50, 300, 50, 5]])
def test_llr_agrees_with_the_normal_approximation_for_small_elo_gaps(counts: list[int]) -> None:
    exact, approximate = llr(counts, 0, 5), _normal_llr(counts, 0, 5)
    assert exact == pytest.approx(approximate, rel=0.05, abs=0.02)


@given(st.lists(st.integers(0, 60), min_size=5, max_size=5), st.floats(-50, 50), st.floats(1, 50))
def test_llr_is_finite_and_antisymmetric(counts: list[int], elo0: float, gap: float) -> None:
    forward = llr(counts, elo0, elo0 + gap)
    assert math.isfinite(forward)
    assert llr(counts, elo0 + gap, elo0) == pytest.approx(-forward, abs=1e-9)


def test_sprt_bounds_verdicts_and_los() -> None:
    test = SPRT(0, 10)
    lower, upper = test.bounds
    assert lower == pytest.approx(math.log(0.05 / 0.95)) and upper == pytest.approx(math.log(0.95 / 0.05))
    mixed = [_result(i, "a" if i % 4 else "draw") for i in range(400)]  # pairs 2-0 and 1.5-0.5
    assert test.state(mixed).verdict == "H1 accepted"
    weak = [_result(i, "b" if i % 4 else "draw") for i in range(400)]
    assert test.state(weak).verdict == "H0 accepted"
    # A one-sided run (every pair 2-0) has no spread; its empty buckets are regularised, and the test
    # still ends, on H1.
    assert SPRT(0, 50).state([_result(i, "a") for i in range(100)]).verdict == "H1 accepted"
    even = [_result(i, "draw") for i in range(4)]
    state = test.state(even)
    assert state.verdict is None and state.counts == [0, 0, 2, 0, 0]
    assert any(line.startswith("Ptnml(0-2): [0, 0, 2, 0, 0]") for line in state.lines())
    assert los(10, 10) == 0.5 and los(20, 5) > 0.99 and los(0, 0) == 0.5
    elo, low, high = pair_elo([0, 10, 20, 30, 0])
    assert low < elo < high and elo > 0


@pytest.mark.parametrize("text, needle", [("5", "expected ELO0,ELO1"), ("5,0", "below ELO1"),
                                          ("0,5,0.7,0.05", "between 0 and 0.5"), ("a,b", "numbers"),
                                          ("0,nan", "finite"), ("0,5000", "between -2000 and 2000")])
def test_parse_sprt_refuses_bad_tests(text: str, needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        parse_sprt(text)
    assert parse_sprt("0,5,0.1,0.2") == SPRT(0, 5, 0.1, 0.2)


@given(st.text(max_size=40))
def test_any_sprt_text_is_a_test_or_a_one_line_error(text: str) -> None:
    try:
        test = parse_sprt(text)
    except ValueError as error:
        assert "\n" not in str(error)
    else:
        assert test.elo0 < test.elo1 and 0 < test.alpha < 0.5 and 0 < test.beta < 0.5


def test_match_sprt_stops_at_a_verdict_and_prints_it(tmp_path: Path, capsys) -> None:
    out = tmp_path / "s.jsonl"
    code, text, _ = run(capsys, "match", "quixo", "--a", "alphabeta:depth=2", "--b", "random", "--games", "200",
                        "--sprt", "0,100", "--out", str(out))
    assert code == 0
    assert "H1 accepted" in text and "LLR:" in text and "Ptnml(0-2):" in text and "LOS:" in text
    played = len(out.read_text().splitlines())
    assert played < 200 and played % 2 == 0
    # Resuming a decided test plays nothing.
    code, text, _ = run(capsys, "match", "quixo", "--a", "alphabeta:depth=2", "--b", "random", "--games", "200",
                        "--sprt", "0,100", "--out", str(out), "--resume", "--json")
    assert code == 0 and len(out.read_text().splitlines()) == played
    assert json.loads(text.splitlines()[-1])["sprt"]["verdict"] == "H1 accepted"


def test_match_bad_sprt_is_a_usage_error(capsys) -> None:
    assert_usage_error(capsys, ["match", "quixo", "--a", "random", "--b", "random", "--games", "2",
                                "--sprt", "5,0"], "ELO0 must be below ELO1")


# ---------------------------------------------------------------- tournaments
def test_round_robin_and_gauntlet_pairings() -> None:
    engines = ["random", "alphabeta:depth=1", "alphabeta:depth=2", "minimax:depth=1"]
    assert len(Tournament.create("quixo", engines, 2).configs) == 6
    gauntlet = Tournament.create("quixo", engines, 2, gauntlet=True)
    assert [(c.a, c.b) for c in gauntlet.configs] == [("random", e) for e in engines[1:]]
    with pytest.raises(MatchError, match="listed twice"):
        Tournament.create("quixo", ["random", "random"], 2)


def test_standings_add_up_and_rate_the_strongest_first() -> None:
    tournament = Tournament.create("quixo", ["random", "alphabeta:depth=1", "alphabeta:depth=2"], 4)
    records = [record for config in tournament.configs for record in play_games(config, range(4))]
    standings = tournament.standings(records)
    assert standings.played == standings.planned == 12
    assert sum(standings.points(e) for e in standings.engines) == 12
    assert all(standings.games(e) == 8 for e in standings.engines)
    drawn = sum(1 for record in records if record.outcome == "draw")
    assert sum(standings.draws.values()) == 2 * drawn
    assert all(0 <= standings.draw_rate(e) <= 1 for e in standings.engines)
    assert standings.order()[-1] == "random"
    assert standings.rating("random").anchor and standings.rating("random").elo == 0
    assert json.loads(json.dumps(standings.to_dict()))["games"] == 12


def test_tournament_command_prints_a_crosstable_and_keeps_the_games(tmp_path: Path, capsys) -> None:
    out = tmp_path / "t.jsonl"
    code, text, _ = run(capsys, "tournament", "checkers", "--engine", "random", "--engine", "alphabeta:depth=1",
                        "--engine", "alphabeta:depth=2", "--games", "2", "--out", str(out), "--gauntlet")
    assert code == 0
    assert "crosstable -- 4 of 4 games" in text and "(anchor)" in text
    games = read_records("checkers", (tmp_path / "t.pdn").read_text())
    assert len(games) == 4 and {g.tags["Round"] for g in games} == {"1", "2"}


def test_a_crosstable_in_a_narrow_space_folds_long_specs_rather_than_cutting_them() -> None:
    # The lab's crosstable cut "pvs:time=0.2,heuristic=network" to "pvs:time=0.2,heu…".
    from rich.console import Console

    from tui.views.tournament import crosstable

    long = "alphabeta:depth=1,heuristic=positional,order=on"
    console = Console(width=60, record=True)
    console.print(crosstable(Tournament.create("checkers", [long, "random"], 2).standings([])))
    text = console.export_text()
    cells = [line.split("│")[2].strip() for line in text.splitlines() if line.count("│") > 3]
    assert "…" not in text and long in "".join(cells), text


@pytest.mark.parametrize("argv, needle", [
    (["tournament", "quixo", "--engine", "random", "--games", "2"], "two --engine specs or more"),
    (["tournament", "quixo", "--engine", "random", "--engine", "nope", "--games", "2"], "nope"),
    (["tournament", "go", "--engine", "random", "--engine", "random", "--games", "2"], "unknown game"),
    (["tournament", "quixo", "--engine", "random", "--engine", "minimax", "--games", "2", "--resume"],
     "--resume needs --out"),
])
def test_tournament_bad_input_is_one_line_and_exit_2(capsys, argv: list[str], needle: str) -> None:
    assert_usage_error(capsys, argv, needle)


# ---------------------------------------------------------------- records
@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_game_of_a_match_reads_back_with_its_moves_and_comments(game: str, tmp_path: Path) -> None:
    config = MatchConfig.create(game, "alphabeta:depth=1", "random", 2, openings=2)
    records = sorted(play_games(config, range(2)), key=lambda record: record.index)
    path = tmp_path / "games.rec"
    file = GameRecordsFile.open(path, "tui-games match", game=game, resume=False)
    for record in records:
        file.append(record)
    file.close()  # the run ends: its lock on the file goes
    text = path.read_text()
    loaded = read_records(game, text)
    assert [list(g.moves) for g in loaded] == [list(r.opening + r.moves) for r in records]
    assert [g.tags["Round"] for g in loaded] == ["1", "2"]
    assert "random opening" in text and "nodes" in text
    # A resumed run adds the games the file lacks, and only those.
    path.write_text(game_record(records[0]))
    GameRecordsFile.open(path, "tui-games match", game=game, resume=True, results=records).close()
    assert len(read_records(game, path.read_text())) == 2
    with pytest.raises(MatchError, match="already holds games"):
        GameRecordsFile.open(path, "tui-games match", game=game, resume=False)


def test_move_comments_give_the_first_players_eval() -> None:
    assert move_comment("chess", [35, None, 5, 12345, 0.12], True) == "[%eval 0.35] depth 5, 12,345 nodes, 0.120 s"
    assert move_comment("chess", [35, None, 5, 10, 0.1], False).startswith("[%eval -0.35]")
    assert move_comment("chess", [0, 3, 5, 10, 0.1], False).startswith("[%eval #-3]")
    assert move_comment("quixo", [2, None, 3, 10, 0.1], True).startswith("[%eval 2]")
    assert move_comment("quixo", [0, None, 0, 1, 0.0], True) == ""  # a random move: no search to report


def test_match_writes_records_beside_its_results(tmp_path: Path, capsys) -> None:
    out = tmp_path / "m.jsonl"
    code, _, _ = run(capsys, "match", "chess", "--a", "random", "--b", "random", "--games", "2",
                     "--out", str(out))
    assert code == 0
    assert len(read_records("chess", (tmp_path / "m.pgn").read_text())) == 2
