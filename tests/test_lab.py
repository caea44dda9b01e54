"""The lab: experiment files, claims and verdicts, charts, and the experiment command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.lab import (
    AGREES, DISAGREES, INCONCLUSIVE, PENDING, Arm, ArmResult, Claim, ExperimentError, judge, load_experiment,
    parse_experiment, shipped,
)
from engines.lab.claims import compare
from tui.views.charts import cost_chart, has_matplotlib, save_images, score_chart
from cli_run import assert_usage_error, run

GOOD = """
name = "tiny"
game = "quixo"
games = 2
openings = 0
opponent = "random"
x = "depth"
[sweep]
engine = "alphabeta:depth={depth}"
values = [1, 2]
label = "d{depth}"
[[claim]]
text = "depth 1 wins everything"
kind = "equals"
arm = "d1"
measure = "wins"
value = 1.0
"""


def test_every_shipped_experiment_parses_and_its_specs_are_valid() -> None:
    names = shipped()
    assert {"seed000-part1", "seed000-part2", "seed000-part3", "seed002-depths", "seed003-cutoffs",
            "seed004-quixo"} <= set(names)
    for name in names:
        experiment = load_experiment(name)
        assert experiment.name == name
        assert experiment.claims, name
        configs = experiment.configs(2)  # builds every engine once
        assert len(configs) == len(experiment.arms)


def test_a_sweep_makes_one_arm_per_value() -> None:
    experiment = parse_experiment(GOOD)
    assert [arm.label for arm in experiment.arms] == ["d1", "d2"]
    assert [arm.engine for arm in experiment.arms] == ["alphabeta:depth=1", "alphabeta:depth=2"]
    assert [arm.x for arm in experiment.arms] == [1.0, 2.0]
    assert experiment.claims[0] == Claim("depth 1 wins everything", "equals", ("d1",), "wins", 1.0)


@pytest.mark.parametrize("change, needle", [
    (("games = 2", "games = 0"), "'games' must be 1 or more"),
    (("game = \"quixo\"", "game = \"go\""), "unknown game 'go'"),
    (("name = \"tiny\"", "name = \"a b\""), "must be a word"),
    (("kind = \"equals\"", "kind = \"bigger\""), "kind 'bigger'"),
    (("arm = \"d1\"", "arm = \"d9\""), "no arm labelled 'd9'"),
    (("value = 1.0", "value = 2.0"), "a rate from 0 to 1"),
    (("measure = \"wins\"", "measure = \"elo\""), "measure 'elo'"),
    (("values = [1, 2]", "values = [1, 1]"), "the same label"),
    (("x = \"depth\"", "x = \"depth\"\ncolour = 1"), "unknown key 'colour'"),
    (("games = 2", "games = \"two\""), "'games' must be a whole number"),
    (("games = 2", "games = 2\ntimemargin = 100000000000000"), "'timemargin' must be 0 to 3,600,000"),
    (("engine = \"alphabeta:depth={depth}\"", "engine = \"alphabeta\""), "needs one {parameter}"),
    (("[sweep]", "[sweep\n"), "not valid TOML"),
    (("engine = \"alphabeta:depth={depth}\"", "engine = \"alphabeta:depth={dpth}\""),
     "names {depth}, which is not the parameter swept in the engine ({dpth})"),
])
def test_bad_experiment_files_are_one_line_errors(change: tuple[str, str], needle: str) -> None:
    with pytest.raises(ExperimentError) as error:
        parse_experiment(GOOD.replace(*change), "x.toml")
    message = str(error.value)
    assert needle in message and "\n" not in message and message.startswith("x.toml")


@pytest.mark.parametrize("change", [
    ('label = "d{depth}"', 'label = "d{depth} \\u001b[2J\\u001b[31mred"'),  # clears the screen, then red
    ('label = "d{depth}"', 'label = "d{depth}\\nsecond line"'),
    ('values = [1, 2]', 'values = ["1\\u0007", "2"]'),  # a swept value becomes a label
    ('x = "depth"', 'x = "depth\\r"'),
    ('name = "tiny"', 'name = "tiny"\ntitle = "a \\u009b31m title"'),  # C1's CSI
    ('text = "depth 1 wins everything"', 'text = "depth 1 \\u001b]0;title\\u0007 wins"'),
], ids=["ESC in a label", "a line break in a label", "BEL in a swept value", "CR in x", "CSI in the title",
        "OSC in a claim's text"])
def test_control_characters_in_an_experiments_texts_are_refused(change: tuple[str, str]) -> None:
    """The texts reach the terminal and summary.txt as they are: an escape sequence in an arm's label
    would act on the user's terminal.  The message shows the character escaped, on one line."""
    with pytest.raises(ExperimentError) as error:
        parse_experiment(GOOD.replace(*change), "x.toml")
    message = str(error.value)
    assert "holds the control character" in message and message.startswith("x.toml")
    assert not any(ord(char) < 32 or 127 <= ord(char) < 160 for char in message)


def test_a_line_break_in_a_claims_text_or_about_is_fine() -> None:
    text = GOOD.replace('x = "depth"', 'x = "depth"\nabout = "one\\ntwo"').replace(
        'text = "depth 1 wins everything"', 'text = "depth 1\\n\\twins everything"')
    experiment = parse_experiment(text)
    assert experiment.about == "one\ntwo" and experiment.claims[0].text == "depth 1\n\twins everything"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_is_an_experiment_or_a_one_line_error(text: str) -> None:
    try:
        parse_experiment(text)
    except ExperimentError as error:
        assert "\n" not in str(error)


# ---------------------------------------------------------------- verdicts
def _result(label: str, scores: list[float], times: list[float] | None = None, x: float = 0) -> ArmResult:
    arm = Arm(label, f"e-{label}", "opponent", x)
    return ArmResult(arm, None, scores, times or [0.01] * 10, [0.01] * 10, scores)


def _claim(kind: str, *arms: str, measure: str = "score", value: float | None = None) -> Claim:
    return Claim("text", kind, arms, measure, value)


def test_equals_above_below_use_the_wilson_interval() -> None:
    perfect = _result("p", [1.0] * 100)
    one_loss = _result("q", [1.0] * 99 + [0.0])
    results = [perfect, one_loss]
    assert judge(_claim("equals", "p", measure="wins", value=1.0), results).verdict == AGREES
    assert judge(_claim("equals", "q", measure="wins", value=1.0), results).verdict == DISAGREES
    coin = _result("c", [1.0, 0.0] * 10)
    assert judge(_claim("above", "c", value=0.5), [coin]).verdict == INCONCLUSIVE
    assert judge(_claim("above", "p", value=0.5), results).verdict == AGREES
    assert judge(_claim("below", "p", value=0.5), results).verdict == DISAGREES
    drawish = _result("d", [0.5] * 30 + [0.0] * 2)
    assert judge(_claim("above", "d", measure="draws", value=0.5), [drawish]).verdict == AGREES


def test_better_best_and_order_need_significant_differences() -> None:
    strong = _result("s", [1.0] * 40)
    middle = _result("m", [1.0, 0.0] * 20)
    weak = _result("w", [0.0] * 40)
    close = _result("c", [1.0, 0.0] * 19 + [1.0, 1.0])
    results = [strong, middle, weak, close]
    assert judge(_claim("better", "s", "m"), results).verdict == AGREES
    assert judge(_claim("better", "w", "m"), results).verdict == DISAGREES
    assert judge(_claim("better", "c", "m"), results).verdict == INCONCLUSIVE
    assert judge(_claim("best", "s"), results).verdict == AGREES
    assert judge(_claim("best", "m"), results).verdict == DISAGREES
    assert judge(_claim("order", "s", "m", "w"), results).verdict == AGREES
    assert judge(_claim("order", "w", "m", "s"), results).verdict == DISAGREES
    assert judge(_claim("order", "s", "c", "m"), results).verdict == INCONCLUSIVE
    assert compare([1.0] * 5, [1.0] * 5) == 0


def test_faster_slower_and_balance_use_the_move_times() -> None:
    quick = _result("q", [0.5] * 20, [0.010, 0.011] * 20, x=0)
    slow = _result("s", [0.5] * 20, [0.100, 0.101] * 20, x=1)
    assert judge(_claim("faster", "q", "s"), [quick, slow]).verdict == AGREES
    assert judge(_claim("slower", "q", "s"), [quick, slow]).verdict == DISAGREES
    assert judge(_claim("slower", "s"), [slow]).verdict == AGREES  # against its own opponent's 0.01 s
    # Balance: nothing stronger, and the cheaper arm significantly weaker.
    cheap_weak = _result("a", [0.0] * 20 + [0.5] * 4, [0.001] * 24)
    chosen = _result("b", [1.0] * 12 + [0.5] * 12, [0.02] * 24)
    dear_same = _result("c", [1.0] * 12 + [0.5] * 12, [0.2] * 24)
    assert judge(_claim("balance", "b"), [cheap_weak, chosen, dear_same]).verdict == AGREES
    assert judge(_claim("balance", "a"), [cheap_weak, chosen, dear_same]).verdict == DISAGREES
    assert judge(_claim("balance", "c"), [cheap_weak, chosen, dear_same]).verdict == INCONCLUSIVE
    empty = _result("e", [])
    assert judge(_claim("better", "e", "b"), [empty, chosen]).verdict == PENDING


# ---------------------------------------------------------------- charts
def test_charts_draw_every_arm_and_the_axes() -> None:
    results = [_result("d1", [1.0] * 10, x=1), _result("d2", [0.5] * 10, x=2)]
    chart = score_chart(results, "depth", title="the score")
    assert "the score" in chart and "depth" in chart and "100" in chart and "\x1b" not in chart
    assert "●" in chart
    text = cost_chart(results, "depth", stat="nodes", title="nodes")
    assert "nodes" in text


@pytest.mark.skipif(not has_matplotlib(), reason="matplotlib is the 'plots' extra")
def test_charts_are_saved_as_png_and_svg(tmp_path: Path) -> None:
    results = [_result("d1", [1.0] * 10, x=1), _result("d2", [0.5] * 10, x=2)]
    written = save_images(results, "depth", tmp_path, "t")
    assert {path.name for path in written} >= {"chart-score.png", "chart-score.svg", "chart-time.png"}
    assert (tmp_path / "chart-score.png").read_bytes().startswith(b"\x89PNG")


# ---------------------------------------------------------------- the command
def test_experiment_list_names_the_seed_experiments(capsys) -> None:
    code, out, _ = run(capsys, "experiment", "list")
    assert code == 0
    assert "seed004-quixo" in out and "seed002-depths" in out and "100%" in out


def test_experiment_list_json_is_one_json_object(capsys) -> None:
    code, out, _ = run(capsys, "experiment", "list", "--json")
    assert code == 0
    listed = {entry["name"]: entry for entry in json.loads(out)["experiments"]}
    assert "seed004-quixo" in listed and listed["seed004-quixo"]["arms"][0] == "depth 1"
    assert listed["seed004-quixo"]["claims"]


def test_an_experiment_run_fills_its_folder_and_resumes(tmp_path: Path, capsys) -> None:
    source = tmp_path / "tiny.toml"
    source.write_text(GOOD)
    out = tmp_path / "run"
    code, text, _ = run(capsys, "experiment", str(source), "--out", str(out), "--games", "2")
    assert code == 0
    assert "depth 1 wins everything" in text and "verdict" in text
    names = {path.name for path in out.iterdir()}
    assert {"experiment.toml", "games.jsonl", "games.txt", "summary.txt", "summary.json", "chart-score.txt",
            "chart-time.txt", "chart-nodes.txt"} <= names
    summary = json.loads((out / "summary.json").read_text())
    assert [arm["games"] for arm in summary["arms"]] == [2, 2]
    assert summary["claims"][0]["verdict"] in (AGREES, DISAGREES)
    lines = (out / "games.jsonl").read_text().splitlines()
    assert len(lines) == 4
    from games.reading import read_records

    games = read_records("quixo", (out / "games.txt").read_text())
    assert len(games) == 4
    # Resuming a finished run plays nothing and rewrites only the summaries.
    code, _, _ = run(capsys, "experiment", str(source), "--out", str(out), "--resume", "--games", "2")
    assert code == 0
    assert (out / "games.jsonl").read_text().splitlines() == lines
    # Resuming with other games per arm says which it needs.
    assert_usage_error(capsys, ["experiment", str(source), "--out", str(out), "--resume", "--games", "3"],
                       "resume it with --games 2")
    # Without --resume the folder is refused; another experiment's folder too.
    assert_usage_error(capsys, ["experiment", str(source), "--out", str(out), "--games", "2"], "already holds a run")
    other = tmp_path / "other.toml"
    other.write_text(GOOD.replace("values = [1, 2]", "values = [1, 3]"))
    assert_usage_error(capsys, ["experiment", str(other), "--out", str(out), "--resume", "--games", "2"],
                       "another experiment")


@pytest.mark.parametrize("argv, needle", [
    (["experiment", "no-such-experiment"], "no experiment named 'no-such-experiment'"),
    (["experiment", "missing.toml"], "no such file"),
    (["experiment", "seed004-quixo", "--jobs", "2", "--dask", "tcp://x:1"], "exclude each other"),
])
def test_experiment_bad_input_is_one_line_and_exit_2(capsys, argv: list[str], needle: str) -> None:
    assert_usage_error(capsys, argv, needle)


@pytest.mark.parametrize("anchor", ["nan", "inf", "-inf", "NaN", "1e999"])
def test_a_tournament_anchor_must_be_a_number(capsys, anchor: str) -> None:
    assert_usage_error(capsys, ["tournament", "quixo", "--engine", "random", "--engine", "pvs:depth=1",
                                "--games", "2", f"--anchor={anchor}"], f"got {anchor!r}")


def test_an_experiment_file_that_is_not_utf8_is_one_line(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"name = \"\xff\"\n")
    assert_usage_error(capsys, ["experiment", str(bad)], "not UTF-8")


def test_an_experiment_that_failed_at_its_start_leaves_a_folder_a_corrected_run_takes(
        tmp_path: Path, capsys, monkeypatch) -> None:
    import engines.tournament.match as match
    from engines.tournament import MatchError

    def unreachable(address: str) -> None:
        raise MatchError(f"--dask: no dask scheduler reachable at {address!r}")

    monkeypatch.setattr(match, "_dask_client", unreachable)
    source = tmp_path / "tiny.toml"
    source.write_text(GOOD)
    out = tmp_path / "run"
    assert_usage_error(capsys, ["experiment", str(source), "--out", str(out), "--games", "2",
                                "--dask", "tcp://127.0.0.1:1"], "no dask scheduler")
    # The corrected run (here: the experiment file edited too) is accepted, with or without --resume.
    source.write_text(GOOD.replace("values = [1, 2]", "values = [1, 3]"))
    code, _, err = run(capsys, "experiment", str(source), "--out", str(out), "--games", "2")
    assert code == 0, err
    assert len((out / "games.jsonl").read_text().splitlines()) == 4
    assert (out / "experiment.toml").read_text() == source.read_text()
