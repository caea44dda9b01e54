"""``tui-games bench profile``: the sampling profiler's rules, each game's run, the command line.

The rules are tested without timing: the category of a stack is a function of its frames, which
the tests capture with ``sys._getframe`` and ``sys.setprofile``.  The runs use small node budgets.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from types import FrameType

import pytest

import engines.search.core
import engines.search.selectors
from engines import create_engine
from games import GAME_NAMES, new_game
from tui.bench.profile import (
    CATEGORIES,
    QUICK_NODES,
    Classifier,
    default_position,
    limited_spec,
    profile_search,
    search_lines,
)

from cli_run import assert_usage_error, run


# ------------------------------------------------------------------ the rules
def _movegen() -> FrameType:
    return sys._getframe()


def _evaluator() -> FrameType:
    return _movegen()


def _bare(codes: dict, engines_folder: Path = Path(__file__).parent) -> Classifier:
    """A classifier of ``codes`` that takes this folder's code (the tests') for the engines'."""
    return Classifier(codes, {}, str(engines_folder.resolve()) + "/")


def test_the_outermost_game_frame_decides() -> None:
    """An evaluation that generates moves (mobility) counts as evaluation; move generation alone
    as move generation; a stack of the engines' code and no game frame as the search loop; a stack
    with no frame of the engines' code is outside the search, not counted."""
    both = _bare({_evaluator.__code__: "eval", _movegen.__code__: "movegen"})
    assert both.category(_evaluator()) == "eval"
    assert both.category(_movegen()) == "movegen"
    assert _bare({}).category(_movegen()) == "search"
    assert _bare(both.game, Path("/no/engines/here")).category(_movegen()) is None


def test_a_frame_at_its_resume_counts_as_its_caller() -> None:
    """A frame just entered has done nothing yet: the time before the sample was its caller's."""
    classifier = _bare({})
    entered: list[tuple[FrameType, FrameType]] = []

    def hook(frame: FrameType, event: str, arg: object) -> None:
        if event == "call" and frame.f_code is _movegen.__code__:
            entered.append((frame, classifier.working(frame)))

    sys.setprofile(hook)
    try:
        running = _evaluator()
    finally:
        sys.setprofile(None)
    ((frame, working),) = entered
    assert working is frame.f_back and working.f_code is _evaluator.__code__
    assert classifier.working(running) is running  # past its RESUME: its own work


def test_statements_of_the_search_core_have_their_categories(tmp_path: Path) -> None:
    source = tmp_path / "core.py"
    source.write_text(textwrap.dedent("""\
        def negamax(self, game, tt, killers):
            nodes = 1
            if tt is not None:
                entry = probe(key)
                value = entry[2]
            moves = game.legal_moves()
            play(moves[0])
            if self.evaluate(game, 0) > 1:
                nodes += 1
            killers[0] = moves[0]
            return nodes
    """))
    lines = search_lines(str(source))
    assert [lines.get(number) for number in range(1, 12)] == [
        None, None, "table", "table", "table", "movegen", "make", "eval", None, "ordering", None]


def test_the_real_search_core_and_selectors_are_read() -> None:
    """The statements the rules look for are where the profiler expects them: a rename in the
    search core that would silently move its table or ordering work into the loop fails here."""
    core = set(search_lines(engines.search.core.__file__).values())
    assert {"table", "ordering", "make", "movegen", "eval"} <= core
    assert "movegen" in search_lines(engines.search.selectors.__file__).values()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_game_method_called_in_a_search_counts_for_its_category(name: str) -> None:
    """At each call of one of the game's methods (captured by a profile hook) during a small
    search, the stack counts for that method's category unless a game frame outside it decides."""
    game = new_game(name, default_position(name)[1])
    engine = create_engine("pvs:nodes=300", type(game))
    classifier = Classifier.for_search(game, engine)
    checked: dict[str, int] = {}
    wrong: list[str] = []

    def hook(frame: FrameType, event: str, arg: object) -> None:
        expected = classifier.game.get(frame.f_code) if event == "call" else None
        if expected is None:
            return
        outer = frame.f_back
        while outer is not None and outer.f_code not in classifier.game:
            outer = outer.f_back
        if outer is None:
            checked[expected] = checked.get(expected, 0) + 1
            if classifier.category(frame) != expected:
                wrong.append(f"{frame.f_code.co_qualname}: {classifier.category(frame)}")

    sys.setprofile(hook)
    try:
        engine.search(game)
    finally:
        sys.setprofile(None)
    assert not wrong
    assert {"movegen", "make", "eval", "table"} <= set(checked)
    getters = [member.fget for klass in type(game).__mro__ for member in vars(klass).values()
               if isinstance(member, property) and member.fget is not None]
    assert getters and all(classifier.game.get(getter.__code__) == "rules" for getter in getters)  # turn, ply ...


# ------------------------------------------------------------------ the runs
@pytest.mark.parametrize("name", GAME_NAMES)
def test_each_game_profiles_and_its_shares_sum_to_one(name: str) -> None:
    label, text = default_position(name)
    spec = limited_spec("pvs", type(new_game(name)), QUICK_NODES)
    assert spec == f"pvs:nodes={QUICK_NODES}"
    profile = profile_search(name, spec, text, label)
    assert profile.nodes == profile.profiled_nodes == QUICK_NODES  # the same tree, sampled or not
    assert profile.samples >= 1
    assert sum(profile.counts.values()) == profile.samples
    assert set(profile.counts) <= set(CATEGORIES)
    assert sum(profile.share(category) for category in CATEGORIES) == pytest.approx(1.0)
    assert sum(count for _, count in profile.top) <= profile.samples


def test_a_spec_with_a_limit_keeps_it() -> None:
    game_class = type(new_game(GAME_NAMES[0]))
    assert limited_spec("pvs:depth=2", game_class, 100) == "pvs:depth=2"
    assert limited_spec("alphabeta:heuristic=" + game_class.DEFAULT_HEURISTIC, game_class, 100).endswith(",nodes=100")


# ------------------------------------------------------------------ the command line
def test_json_is_one_valid_object_per_run(capsys: pytest.CaptureFixture[str]) -> None:
    name = GAME_NAMES[-1]
    code, out, err = run(capsys, "bench", "profile", "--game", name, "--quick", "--json")
    assert code == 0, err
    document = json.loads(out)
    assert document["categories"] == list(CATEGORIES)
    (row,) = document["games"]
    assert row["game"] == name and row["nodes"] == QUICK_NODES
    assert sum(row["shares"].values()) == pytest.approx(1.0, abs=0.001)
    assert {"function", "category", "share"} == set(row["top"][0])


def test_the_tables_name_every_category(capsys: pytest.CaptureFixture[str]) -> None:
    name = GAME_NAMES[0]
    code, out, _ = run(capsys, "bench", "profile", "--game", name, "--engine", "pvs:nodes=400")
    assert code == 0
    for title in ("movegen", "make/undo", "eval", "order", "table", "rules", "loop", "top functions"):
        assert title in out


@pytest.mark.parametrize("argv, needle", [
    (["--game", "nogame"], "nogame"),
    (["--engine", "nosuchengine"], "nosuchengine"),
    (["--engine", "pvs:depth=zero"], "--engine"),
    (["--position", "x"], "--position needs exactly one --game"),
    (["--engine", "pvs:workers=2"], "leave workers out"),
])
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                                          needle: str) -> None:
    assert_usage_error(capsys, ["bench", "profile", *argv], needle)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_bad_position_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], name: str) -> None:
    assert_usage_error(capsys, ["bench", "profile", "--game", name, "--position", "not a position ~"],
                       "--position")


# ------------------------------------------------------------------ tools/ab_nodes.py
def _ab_nodes():
    import importlib.util

    path = Path(__file__).resolve().parent.parent / "tools" / "ab_nodes.py"
    spec = importlib.util.spec_from_file_location("ab_nodes", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ab_nodes_refuses_a_folder_that_is_no_checkout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = str(Path(__file__).resolve().parent.parent)
    assert _ab_nodes().main([str(tmp_path), root]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "not a checkout" in err


def test_ab_nodes_of_a_checkout_against_itself_searches_the_same_trees(capsys: pytest.CaptureFixture[str]) -> None:
    """Each side in its own process, importing from the checkout: the same nodes on both sides."""
    root = str(Path(__file__).resolve().parent.parent)
    name = GAME_NAMES[-1]
    assert _ab_nodes().main([root, root, "--game", name, "--quick", "--repeat", "1", "--best-of", "1",
                             "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["games"]
    assert row["game"] == name and row["nodes_before"] == row["nodes_after"] > 0
    assert row["nps_before"] > 0 and row["nps_after"] > 0
