"""fastchess's figures for every match (engines.tournament.stats), checked against values worked out
by hand from fastchess's published definitions, and the output formats of match and report."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from cli_run import assert_usage_error, run
from engines.tournament import GameResult
from engines.tournament.stats import MatchStats, Pairs, pair_counts
from engines.tournament.sprt import pair_elo

_OLD = GameResult.from_json(json.loads((Path(__file__).parent / "data" / "results.jsonl").read_text().splitlines()[0]),
                            "results.jsonl:1")


def _result(index: int, result: str) -> GameResult:
    return replace(_OLD, index=index, winner=None if result == "draw" else result)


# Thirteen pairs: LL 1, LD 2, WL 1, DD 3, WD 4, WW 2 (28 wins... counted per game below).
# Pair scores (share of 2 points): 0 x1, .25 x2, .5 x4, .75 x4, 1 x2 -> s = 7.5/13 = 0.576923.
# Variance: (1(0-s)² + 2(.25-s)² + 4(.5-s)² + 4(.75-s)² + 2(1-s)²)/13 = 0.0806213.
# 95%: s ± 1.96·√(0.0806213/13) = [0.42257, 0.73128]; Elo(s) = -400·log10(1/s-1) = 53.88,
# margin (Elo(0.73128) - Elo(0.42257))/2 = 114.07; nElo = (s-.5)/√(2·0.0806213)·800/ln10 = 66.56,
# margin 133.55; LOS = Φ((s-.5)/√(0.0806213/13)) = 83.57 %.
PAIRS = Pairs(ll=1, ld=2, wl=1, dd=3, wd=4, ww=2)


def test_pentanomial_figures_are_fastchess_s() -> None:
    # games: LL 0-2, LD 0-1-1, WL 1-0-1, DD 0-2-0, WD 1-1-0, WW 2-0-0 (wins-draws-losses)
    wins = 1 * 1 + 4 * 1 + 2 * 2
    draws = 2 * 1 + 3 * 2 + 4 * 1
    losses = 1 * 2 + 2 * 1 + 1 * 1
    stats = MatchStats(wins, draws, losses, PAIRS)
    assert stats.pentanomial and stats.games == 26 and stats.pairs.counts == [1, 2, 4, 4, 2]
    assert stats.score == pytest.approx(7.5 / 13)
    assert stats.elo == pytest.approx(53.88, abs=0.01)
    assert stats.elo_error == pytest.approx(114.07, abs=0.01)
    assert stats.nelo == pytest.approx(66.56, abs=0.01)
    assert stats.nelo_error == pytest.approx(133.55, abs=0.01)
    assert stats.los == pytest.approx(0.8357, abs=1e-4)
    assert stats.draw_ratio == pytest.approx(4 / 13)  # pairs scoring 1 of 2: WL + DD
    assert stats.pairs_ratio == pytest.approx((2 + 4) / (1 + 2))
    assert stats.wl_dd_ratio == pytest.approx(1 / 3)
    assert pair_elo(PAIRS.counts) == pytest.approx((stats.elo, *stats.elo_interval))
    lines = stats.fastchess_lines("new", "old")
    assert lines == [
        "Results of new vs old:",
        "Elo: 53.88 +/- 114.07, nElo: 66.56 +/- 133.55",
        "LOS: 83.57 %, DrawRatio: 30.77 %, PairsRatio: 2.00",
        "Games: 26, Wins: 9, Losses: 5, Draws: 12, Points: 15.0 (57.69 %)",
        "Ptnml(0-2): [1, 2, 4, 4, 2], WL/DD Ratio: 0.33",
    ]


def test_without_a_finished_pair_the_games_are_the_sample() -> None:
    # 6 wins, 3 draws, 3 losses: s = 7.5/12 = 0.625, variance (6·.375² + 3·.125² + 3·.625²)/12 = 0.171875;
    # 95%: 0.625 ± 1.96·√(0.171875/12); Elo 88.74 ± 196.06; nElo (s-.5)/√σ²·800/ln10 = 104.76 ± 196.58;
    # LOS Φ(0.125/√(0.171875/12)) = 85.19 %.
    stats = MatchStats(6, 3, 3)
    assert not stats.pentanomial
    assert stats.elo == pytest.approx(88.74, abs=0.01) and stats.elo_error == pytest.approx(196.06, abs=0.01)
    assert stats.nelo == pytest.approx(104.76, abs=0.01) and stats.nelo_error == pytest.approx(196.58, abs=0.01)
    assert stats.los == pytest.approx(0.8519, abs=1e-4) and stats.draw_ratio == pytest.approx(0.25)


def test_sweeps_and_even_runs_have_no_margin_to_give() -> None:
    sweep = MatchStats(4, 0, 0, Pairs(ww=2))
    assert sweep.elo == math.inf and sweep.los == 1.0 and sweep.pairs_ratio == math.inf
    assert sweep.to_json()["elo"] is None and sweep.to_json()["pairs_ratio"] is None
    even = MatchStats(0, 4, 0, Pairs(dd=2))
    assert even.elo == 0 and even.elo_error == 0 and even.nelo == 0 and even.los == 0.5
    assert MatchStats(0, 0, 0).los == 0.5 and json.dumps(MatchStats(0, 0, 0).to_json())


def test_pairs_are_the_two_games_of_one_opening_in_one_match() -> None:
    results = [_result(0, "a"), _result(1, "b"), _result(2, "draw"), _result(3, "draw"), _result(4, "a"),
               _result(5, "draw"), _result(6, "b")]  # the last pair is unfinished
    assert pair_counts(results) == Pairs(wl=1, dd=1, wd=1)
    other = replace(_OLD.match, seed=_OLD.match.seed + 1)
    assert pair_counts([_result(0, "a"), replace(_result(1, "a"), match=other)]) == Pairs()


# ------------------------------------------------------------ the command line
def _played(tmp_path: Path, capsys, *extra: str) -> Path:
    out = tmp_path / "m.jsonl"
    code, _, _ = run(capsys, "match", "quixo", "--a", "alphabeta:depth=1", "--b", "random", "--games", "4",
                     "--out", str(out), *extra)
    assert code == 0
    return out


def test_every_summary_has_the_figures_not_only_with_an_sprt(tmp_path: Path, capsys) -> None:
    out = _played(tmp_path, capsys)
    code, text, _ = run(capsys, "report", str(out))
    assert code == 0
    for needle in ("Results of alphabeta:depth=1 vs random (quixo, 4 of 4 games):", "Elo: ", "nElo: ",
                   "LOS: ", "DrawRatio: ", "PairsRatio: ", "Games: 4, ", "Ptnml(0-2): ["):
        assert needle in text
    assert "LLR" not in text
    code, as_json, _ = run(capsys, "report", str(out), "--format", "json")
    summary = json.loads(as_json)
    assert summary["stats"]["games"] == 4 and summary["stats"]["pairs"] == 2 and "sprt" not in summary
    assert sum(summary["stats"]["ptnml"]) == 2 and set(summary["stats"]) >= {"elo", "nelo", "los", "draw_ratio"}
    code, fastchess, _ = run(capsys, "report", str(out), "--format", "fastchess")
    lines = fastchess.splitlines()
    assert lines[0] == lines[-1] == "-" * 50 and lines[1].startswith("Results of ")
    assert [line.split(":")[0] for line in lines[2:-1]] == ["Elo", "LOS", "Games", "Ptnml(0-2)"]


def test_the_sprt_is_kept_in_the_results_and_goes_on_when_resumed(tmp_path: Path, capsys) -> None:
    out = _played(tmp_path, capsys, "--sprt", "0,400")
    assert all(json.loads(line)["sprt"] == [0, 400, 0.05, 0.05] for line in out.read_text().splitlines())
    code, fastchess, _ = run(capsys, "report", str(out), "--format", "fastchess")
    assert "LLR: " in fastchess and "[0.00, 400.00]" in fastchess
    code, as_json, _ = run(capsys, "report", str(out), "--json")
    assert json.loads(as_json)["sprt"]["elo1"] == 400 and json.loads(as_json)["stats"]["games"] == 4
    # --resume without --sprt continues the test the file keeps (one line on stderr says so) ...
    code, text, err = run(capsys, "match", "quixo", "--a", "alphabeta:depth=1", "--b", "random", "--games", "4",
                          "--out", str(out), "--resume")
    assert code == 0 and "continuing its SPRT 0,400,0.05,0.05" in err
    assert "SPRT: H0 0 Elo vs H1 400 Elo" in text and "LLR: " in text
    # ... and a resume with other hypotheses is refused in one line.
    assert_usage_error(capsys, ["match", "quixo", "--a", "alphabeta:depth=1", "--b", "random", "--games", "4",
                                "--out", str(out), "--resume", "--sprt", "0,50"],
                       "a test cannot change its hypotheses half-way")
