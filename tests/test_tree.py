"""Recorded search trees: against the search's own counters, against an independent
minimax, and through their front ends (JSON, Graphviz, comparison, steps, ``tui-games tree``)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import create_engine
from engines.search.core import INF
from engines.tree import RecordError, record_tree
from engines.tree.compare import compare_trees
from engines.tree.export import child_value, pv_nodes, tree_document, tree_dot
from engines.tree.stats import cutoff_counts, ply_stats
from engines.tree.steps import step_text, steps
from games import GAME_NAMES, WIN, Game, game_class, game_kind, new_game

from cli_run import assert_usage_error, run

#: Small positions of every game that gives one (its samples' ``small_tree``), searched to
#: ``depth`` by the independent minimax.
SMALL = [(name, *small) for name in GAME_NAMES if (small := game_kind(name).samples.small_tree) is not None]

#: The games whose random positions near the start a full-width depth-3 search keeps cheap (their
#: samples' ``search_depth`` is 3 or more).
CHEAP_AT_3 = tuple(name for name in GAME_NAMES if (game_kind(name).samples.search_depth or 2) >= 3)

CHESS_WALKTHROUGH = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"


def _position(name: str, position: str | None, moves: tuple[str, ...]) -> Game:
    game = new_game(name, position)
    game.play_all(moves)
    return game


def minimax(game: Game, depth: int, ply: int, evaluate) -> float:
    """Plain negamax with the core's scoring of finished games, nothing shared with it."""
    outcome = game.outcome() if ply else None
    if outcome is not None:
        if outcome.winner is None:
            return 0
        return WIN - ply if outcome.winner == game.turn else ply - WIN
    if depth <= 0:
        return evaluate(game, game.turn)
    best = -INF
    mover = game.turn
    for move in game.legal_moves():
        game.play(move)
        value = minimax(game, depth - 1, ply + 1, evaluate)
        best = max(best, value if game.turn == mover else -value)  # a side may move again (turn)
        game.undo()
    return best


def _node_position(game: Game, line) -> Game:
    copy = game.copy()
    for node in line:
        copy.play(node.move)
    return copy


def _lines(root):
    stack = [(root, ())]
    while stack:
        node, line = stack.pop()
        yield node, line
        for child in node.children:
            stack.append((child, line + (child,)))


@pytest.mark.parametrize("name,position,moves,depth", SMALL)
@pytest.mark.parametrize("engine", ["minimax", "alphabeta", "alphabeta-hard"])
def test_every_value_agrees_with_an_independent_minimax(name, position, moves, depth, engine):
    """Minimax's values are the minimax values; alpha-beta's exact values are too, and its
    bounds hold (a lower bound at most the true value, an upper bound at least)."""
    game = _position(name, position, moves)
    spec = f"{engine}:depth={depth},tt=off"
    result, tree = record_tree(spec, game)
    evaluate = game.heuristic(create_engine(spec, type(game)).heuristic_name)
    assert tree.complete and len(tree.roots) == 1
    checked = Counter()
    for node, line in _lines(tree.root):
        here = _node_position(game, line)
        true = minimax(here, node.depth, node.ply, evaluate)
        if node.bound == "exact":
            assert node.value == true, (line, node)
        elif node.bound == "lower":
            assert true >= node.value, (line, node)
        else:
            assert true <= node.value, (line, node)
        checked[node.bound] += 1
    if engine == "minimax":
        assert set(checked) == {"exact"}
    else:
        assert checked["lower"]  # the cut nodes
    assert tree.root.value == result.score


@pytest.mark.parametrize("name,position,moves,depth", SMALL)
def test_the_tree_adds_up_to_the_search_counters(name, position, moves, depth):
    game = _position(name, position, moves)
    result, tree = record_tree(f"alphabeta:depth={depth + 1}", game)
    stats = result.stats
    nodes = list(tree.root.walk())
    ends = Counter(node.end for node in nodes)
    assert len(nodes) == stats.nodes and tree.unrecorded == 0
    assert ends["cutoff"] == stats.prunes
    assert sum(1 for node in nodes if node.cut_at == 1) == stats.first_cutoffs
    assert ends["tt"] == stats.tt_hits
    assert ends["horizon"] + ends["max-ply"] == stats.evals
    assert sum(cutoff_counts(tree.root).values()) == stats.prunes
    rows = ply_stats(tree.root)
    assert sum(row.nodes for row in rows) == stats.nodes
    assert [row.ply for row in rows] == list(range(len(rows)))
    for node in nodes:  # children in the order searched: a cutoff is the last child
        if node.end == "cutoff":
            last = node.children[-1]  # it failed low (high where the same side moves again): the parent high
            again = last.root_side == node.root_side
            assert last.bound in (("lower", "exact") if again else ("upper", "exact"))
            assert child_value(node, node.children[-1]) >= node.beta  # negated unless the side moves again


def test_pvs_tree_counts_quiescence_null_moves_and_the_root_probe():
    game = new_game("chess", CHESS_WALKTHROUGH)
    result, tree = record_tree("pvs:depth=4", game)
    stats = result.stats
    roots = tree.roots
    nodes = [node for root in roots for node in root.walk()]
    ends = Counter(node.end for node in nodes)
    assert [root.depth for root in roots][:4] == [1, 2, 3, 4]
    # pvs looks at every root move for a win in one before searching: those are the unrecorded nodes
    assert len(nodes) + len(game.legal_moves()) == stats.nodes
    assert ends["cutoff"] + ends["null-move"] == stats.prunes
    assert ends["tt"] == stats.tt_hits
    assert any(node.quiescence for node in nodes) and any(node.null for node in nodes)
    assert any(node.research for node in nodes)  # PVS re-searches a move that beat the null window
    line = [node.move for node in pv_nodes(roots[-1])]
    assert [game.format_move(move) for move in line[:1]] == [stats.best]


def test_selectors_dropped_children_are_counted():
    game = new_game("checkers")
    result, tree = record_tree("h0:depth=4,k=2", game)
    dropped = sum(node.dropped for node in tree.root.walk())
    assert dropped == result.stats.h0_pruned > 0
    result, tree = record_tree("bl:depth=3,bf=2,l=1", game)
    lookahead = sum(node.lookahead for node in tree.root.walk())
    assert lookahead > 0 and tree.size() + lookahead == result.stats.nodes == tree.size() + tree.unrecorded


def test_the_budget_stops_the_search_and_marks_the_nodes_it_cut_short():
    game = new_game("chess")
    result, tree = record_tree("minimax:depth=4", game, budget=500)
    assert not tree.complete and tree.size() == 500
    stopped = [node for node in tree.root.walk() if node.end == "stopped"]
    assert stopped and stopped[0] is tree.root and all(node.value is None for node in stopped)
    assert result.move in game.legal_moves()


def test_only_the_alpha_beta_family_records():
    with pytest.raises(RecordError, match="alpha-beta family"):
        record_tree("random", new_game("quixo"))
    with pytest.raises(RecordError, match="budget"):
        record_tree("alphabeta", new_game("quixo"), budget=0)


@given(st.integers(0, 2**32 - 1), st.sampled_from(CHEAP_AT_3))
@settings(max_examples=15, deadline=None)
def test_recording_leaves_the_search_unchanged(seed, name):
    """The same engine answers the same with and without recording (random positions)."""
    import random

    game = new_game(name)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 12)):
        if game.outcome() is not None:
            break
        game.play(rng.choice(game.legal_moves()))
    if game.outcome() is not None:
        return
    spec = f"alphabeta:depth=3,seed={seed % 1000}"
    plain = create_engine(spec, type(game)).search(game)
    recorded, tree = record_tree(spec, game)
    assert (recorded.move, recorded.score, recorded.stats.nodes, recorded.stats.prunes) == (
        plain.move, plain.score, plain.stats.nodes, plain.stats.prunes)
    assert tree.size() == plain.stats.nodes


def test_json_document_and_dot_drawing():
    game = new_game("quixo")
    result, tree = record_tree("alphabeta:depth=3", game)
    document = json.loads(json.dumps(tree_document(game, tree, result, "alphabeta:depth=3")))
    root = document["root"]
    assert root["move"] is None and root["alpha"] is None and root["beta"] is None
    assert document["best"] == result.stats.best and document["recorded"] == tree.size()

    def count(item):
        return 1 + sum(count(child) for child in item["children"])

    assert count(root) == tree.size()
    child = root["children"][0]
    assert set(child) >= {"move", "alpha", "beta", "value", "bound", "end", "children"}
    assert child["move"] in game.legal_move_texts()
    dot = tree_dot(game, tree, "alphabeta:depth=3")
    assert dot.startswith("digraph") and dot.rstrip().endswith("}")
    assert "penwidth=2" in dot and "not searched" in dot and "style=dashed" in dot


def test_compare_tells_minimax_from_alpha_beta():
    game = new_game("checkers")
    _, a = record_tree("minimax:depth=4", game)
    _, b = record_tree("alphabeta:depth=4,tt=off", game)
    result = compare_trees(game, a.root, b.root)
    assert not result.only_b and len(result.only_a) == a.size() - b.size()
    assert result.differ  # alpha-beta's bounds where minimax has values
    for line in result.differ:
        node = result.b[line]
        assert node.bound != "exact"


def test_steps_enter_and_leave_every_node_in_order():
    game = new_game("quixo")
    _, tree = record_tree("alphabeta:depth=2", game)
    events = steps(tree.root)
    assert len(events) == 2 * tree.size()
    assert not events[0].leave and events[-1].leave and events[0].node is events[-1].node is tree.root
    depth = 0
    for event in events:
        depth += -1 if event.leave else 1
        assert depth >= 0
        assert len(event.line) == event.node.ply
    cut = next(event for event in events if event.cut)
    text = step_text(cut, [game.format_move(node.move) for node in cut.line])
    assert "cutoff by move" in text and "not searched" in text
    assert "with α -inf  β inf" in step_text(events[0], [])


def test_tree_command_prints_counts_and_writes_files(tmp_path, capsys):
    out = tmp_path / "q.json"
    code, text, err = run(capsys, "tree", "quixo", "--engine", "alphabeta:depth=3", "--out", str(out))
    assert code == 0, err
    assert "recorded   1,057 nodes in 1 root search (complete)" in text
    assert "cutoffs by the move that cut" in text and f"wrote {out}" in text
    document = json.loads(out.read_text())
    assert document["format"] == "tui-games tree 1" and document["root"]["move"] is None
    assert_usage_error(capsys, ["tree", "quixo", "--out", str(out)], "never written over")
    dot = tmp_path / "c.dot"
    code, text, err = run(capsys, "tree", "chess", "--engine", "minimax:depth=2", "--compare", "alphabeta:depth=2",
                          "--out", str(dot))
    assert code == 0, err
    assert "only A visited" in text and "filled" in dot.read_text()


@pytest.mark.parametrize("args,message", [
    (["--engine", "random"], "alpha-beta family"),
    (["--engine", "pred"], "alpha-beta family"),
    (["--budget", "0"], "whole number"),
    (["--budget", "2000000"], "at most"),
    (["--out", "x.txt"], ".json or a .dot"),
    (["--out", "/nonexistent/dir/x.json"], "does not exist"),
    (["--moves", "zz"], "move 1"),
])
def test_tree_command_refuses_bad_input_in_one_line(args, message, capsys):
    assert_usage_error(capsys, ["tree", "quixo", *args], message)


def test_the_readme_tree_example(capsys):
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    block = readme.split("$ tui-games tree quixo --engine alphabeta:depth=3,tt=off\n", 1)[1].split("$ ", 1)[0]
    code, text, _ = run(capsys, "tree", "quixo", "--engine", "alphabeta:depth=3,tt=off")
    assert code == 0
    for line in block.splitlines():
        if line.strip() and line != "...":
            assert line in text.splitlines()


def test_bench_tree_runs_and_the_recording_search_is_the_same_search(capsys):
    from tui.bench.tree import tree_rows

    (row,) = tree_rows(["quixo"], quick=True)
    assert row.nodes > row.recorded > 0 and row.ratio > 0
    code, text, _ = run(capsys, "bench", "tree", "--game", "othello", "--quick")
    assert code == 0 and "nodes/s recording" in text


def test_multipv_lines_and_a_search_stopped_short_are_told_apart():
    game = new_game("chess", CHESS_WALKTHROUGH)
    result, tree = record_tree("alphabeta:depth=2,multipv=3", game)
    assert [root.pv_line for root in tree.roots] == [1, 2, 3]
    assert tree.root is tree.roots[0] and tree.root.value == result.score  # the answer's, not line 3's
    result, tree = record_tree("pvs:nodes=100", new_game("quixo"))
    assert tree.stopped_by == "search" and not tree.complete
    assert tree.root.end != "stopped" and tree.root.value == result.score  # the last depth it finished
    document = tree_document(new_game("quixo"), tree, result, "pvs:nodes=100")
    assert document["complete"] is False and document["other_roots"][-1]["end"] == "stopped"


def test_forced_results_read_as_mates():
    from engines.tree.export import value_text

    assert value_text(WIN - 3) == "#2" and value_text(WIN - 5, 2) == "#2" and value_text(-(WIN - 2)) == "#-1"
    assert value_text(WIN - 4, 4) == "won" and value_text(-(WIN - 1), 1) == "lost" and value_text(None) == "?"
    game = new_game("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")  # Ra8 mates
    result, tree = record_tree("alphabeta:depth=2", game)
    from tui.views.tree_text import node_label

    assert node_label(tree.root, None).startswith("root, depth 2  =#1")


def test_an_output_file_that_cannot_be_written_is_refused_before_the_search(tmp_path, capsys):
    code, out, err = run(capsys, "tree", "quixo", "--engine", "minimax:depth=3", "--out", "/proc/x.json")
    assert code == 2 and out == "" and "cannot write /proc/x.json" in err
    (tmp_path / "a.json").write_text("{}")
    assert_usage_error(capsys, ["tree", "quixo", "--out", str(tmp_path / "a.json" / "x.json")], "is not a directory")
    assert_usage_error(capsys, ["tree", "quixo", "--engine", "random", "--out", str(tmp_path / "b.json")],
                       "alpha-beta family")
    assert not (tmp_path / "b.json").exists()  # a refused run leaves no file


def test_ctrl_c_while_the_command_line_starts_is_quiet():
    """A Ctrl-C while the command line loads (its imports take a few tenths of a second)
    exits 130 without Python's traceback.  (Before the console script's first line runs,
    only Python itself can answer.)"""
    import os
    import signal
    import subprocess
    import sys
    import time

    # "loading" is printed from inside main()'s import of the command line (an audit hook on that
    # import), not before main() is called: a signal landing between a print and the call would reach
    # Python's own top level, which no code of ours can answer (1 CI run in many hit that window).
    child = ("import sys, tui.launch; sys.argv[1:] = ['tree', 'chess', '--engine', 'minimax:depth=4']\n"
             "said = []\n"
             "def hook(event, args):\n"
             "    if event == 'import' and args[0] == 'tui.cli.main' and not said:\n"
             "        said.append(1); print('loading', flush=True)\n"
             "sys.addaudithook(hook)\n"
             "sys.exit(tui.launch.main())")
    for delay in (0.0, 0.05):
        process = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   start_new_session=True)
        assert process.stdout.readline() == b"loading\n"
        time.sleep(delay)
        os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=30)
        assert process.returncode == 130, err
        assert b"Traceback" not in err


@pytest.mark.parametrize("name", ["t.json", "t.dot"])
def test_an_interrupted_tree_leaves_no_out_file(tmp_path, capsys, monkeypatch, name):
    # The docs said an interrupted run's --out is removed; the partial tree was written and kept.
    from tui.cli import tree as command

    recorded = command.record_tree

    def interrupted(spec, game, *, budget, stop):
        stop.set()  # Ctrl-C during the search: stop_on_interrupt sets the event
        return recorded(spec, game, budget=budget, stop=stop)

    monkeypatch.setattr(command, "record_tree", interrupted)
    out = tmp_path / name
    code, printed, err = run(capsys, "tree", "quixo", "--engine", "alphabeta:depth=3", "--out", str(out))
    assert code == 130 and f"{out} is not written" in err and "engine     alphabeta:depth=3" in printed
    assert not out.exists()
