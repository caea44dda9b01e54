"""``tui-games search``, ``engines`` and the pieces of ``bench search`` (docs/cli.md, docs/benchmarks.md)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import tui.bench.search as bench
from engines import ENGINES, STAT_NAMES, Limits, create_engine
from games import GAME_NAMES, game_class, game_kind, new_game
from cli_run import assert_usage_error, run

from playouts import play_randomly

ROOT = Path(__file__).resolve().parent.parent
#: A back-rank mate in one for White: Ra8#.
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/8/R6K w - - 0 1"
#: Fool's mate: the game is over, Black won.
FOOLS_MATE = ["--moves", "f3", "e5", "g4", "Qh4#"]


def summary(out: str) -> dict[str, str]:
    """The summary block of a human ``search`` output, label -> value."""
    labels = ("best move", "score", "depth", "nodes", "evals", "prunes", "tt hits", "time", "nps", "pv",
              "engine")
    found = {}
    for line in out.splitlines():
        for label in labels:
            if line.startswith(label + " ") and not line.startswith("depth "):
                found[label] = line[len(label):].strip()
            elif label == "depth" and line.startswith("depth ") and "  score " not in line:
                found[label] = line[len("depth"):].strip()
    return found


# ------------------------------------------------------------------- search
@pytest.mark.parametrize("game", GAME_NAMES)
def test_search_prints_depth_lines_then_a_summary(capsys, game: str) -> None:
    code, out, err = run(capsys, "search", game, "--engine", "alphabeta:depth=2")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("depth 2  score ") and "  nodes " in lines[0] and "  pv " in lines[0]
    block = summary(out)
    assert block["depth"] == "2"
    assert block["engine"] == "alphabeta:depth=2"
    assert block["best move"] in new_game(game).legal_move_texts()
    separator = ", " if game == "quixo" else " "  # Quixo's moves have spaces
    assert block["pv"].split(separator)[0] == block["best move"]
    assert len(block["pv"].split(separator)) >= 2
    assert "to move" in block["score"]
    # the same numbers as the engine called directly
    result = create_engine("alphabeta:depth=2", game_class(game)).search(new_game(game))
    assert block["nodes"] == f"{result.stats['nodes']:,}"
    assert block["score"].startswith(f"{result.score} ")


@pytest.mark.parametrize("game", GAME_NAMES)
def test_search_json_is_one_object_with_every_statistic(capsys, game: str) -> None:
    code, out, err = run(capsys, "search", game, "--engine", "alphabeta:depth=2,seed=3", "--json")
    assert code == 0 and err == ""
    assert out.count("\n") == 1
    stats = json.loads(out)
    assert set(STAT_NAMES) <= set(stats)
    assert {"mate", "seldepth", "first_cutoffs", "engine", "game", "position", "interrupted"} <= set(stats)
    start = new_game(game)
    assert stats["game"] == game and stats["position"] == start.to_text()
    assert stats["interrupted"] is False and stats["mate"] is None
    assert stats["depth"] == 2 and stats["engine"] == "alphabeta:depth=2,seed=3"
    result = create_engine("alphabeta:depth=2,seed=3", type(start)).search(start)
    for name in ("nodes", "evals", "prunes", "tt_hits", "score", "best", "pv", "first_cutoffs"):
        assert stats[name] == result.stats[name], name
    assert stats["best"] == start.format_move(result.move) and stats["pv"][0] == stats["best"]


def test_search_iterative_deepening_prints_each_depth_once(capsys) -> None:
    code, out, _ = run(capsys, "search", "checkers", "--engine", "alphabeta:nodes=4000")
    assert code == 0
    depths = [int(line.split()[1]) for line in out.splitlines()
              if line.startswith("depth ") and "score" in line]
    assert len(depths) >= 3
    assert depths == list(range(1, len(depths) + 1))
    assert summary(out)["depth"].split()[0] == str(depths[-1])


def test_search_reports_a_mate(capsys) -> None:
    code, out, _ = run(capsys, "search", "chess", "--position", MATE_IN_ONE, "--engine", "alphabeta:depth=2")
    assert code == 0
    block = summary(out)
    assert block["best move"] == "Ra8#"
    assert block["score"].startswith("mate in 1 ")
    assert out.splitlines()[0].startswith("depth 2  score mate 1  ")
    code, out, _ = run(capsys, "search", "chess", "--position", MATE_IN_ONE, "--engine", "alphabeta:depth=2",
                       "--json")
    assert json.loads(out)["mate"] == 1


def test_search_after_moves(capsys) -> None:
    code, out, _ = run(capsys, "search", "checkers", "--moves", "11-15", "23-19",
                       "--engine", "alphabeta:depth=1", "--json")
    assert code == 0
    stats = json.loads(out)
    game = new_game("checkers")
    game.play_all(["11-15", "23-19"])
    assert stats["position"] == game.to_text()
    assert stats["best"] in game.legal_move_texts()


def test_search_random_engine_has_no_depth_lines(capsys) -> None:
    code, out, err = run(capsys, "search", "quixo", "--engine", "random:seed=5")
    assert code == 0 and err == ""
    assert not out.startswith("depth ")
    assert summary(out)["best move"] in new_game("quixo").legal_move_texts()


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["search", "chess", "--engine", "nosuch"], "unknown engine 'nosuch'"),
        (["search", "chess", "--engine", "alphabeta:depth=0"], "option depth"),
        (["search", "chess", "--engine", "alphabeta:depth"], "expected key=value"),
        (["search", "chess", "--engine", "alphabeta:frob=1"], "unknown option 'frob'"),
        (["search", "quixo", "--engine", "alphabeta:heuristic=sef"], "unknown quixo heuristic 'sef'"),
        (["search", "chess", "--engine", ""], "empty engine spec"),
        (["search", "checkers", "--position", "B:W33:B1"], "error"),
        (["search", "quixo", "--position", "XXXXX/...../...../.....  X"], "error"),
        (["search", "chess", "--moves", "e4", "e4"], "move 2 ('e4')"),
        (["search", "checkers", "--moves", "11-18"], "move 1 ('11-18')"),
        (["search", "chess", *FOOLS_MATE], "the game is over (Black won, checkmate)"),
        (["search", "quixo", "--position", "XXXXX/OO.../...../...../..... O"], "the game is over"),
        (["search", "go"], "unknown game 'go'"),
        (["search"], "required"),
        (["bench", "search", "--sunfish", "/no/such/sunfish-uci"], "--sunfish"),
    ],
)
def test_search_bad_input_is_one_line_and_exit_2(capsys, argv: list[str], needle: str) -> None:
    assert_usage_error(capsys, argv, needle)


def test_engines_lists_every_engine_option_and_heuristic(capsys) -> None:
    code, out, err = run(capsys, "engines")
    assert code == 0 and err == ""
    lines = out.splitlines()
    for name, info in ENGINES.items():
        start = next(i for i, line in enumerate(lines) if line.split()[:1] == [name])
        assert info.summary in lines[start]
        options = []
        for line in lines[start + 1:]:
            if not line.startswith("  "):
                break
            options.append(line.split()[0])
        assert [o.split("=")[0] for o in options] == list(info.options), name
    assert "  depth=4 " in out and "  time=1 " in out and "  tt=on " in out and "  time=none " in out
    for game in GAME_NAMES:
        line = next(line for line in lines if line.split()[:1] == [game])
        for heuristic in game_class(game).HEURISTICS:
            assert heuristic in line
    assert "sef (default)" in out


def test_search_and_engines_do_not_import_textual() -> None:
    code = (
        "import sys\n"
        "from tui.cli import main\n"
        "rc = main(['search', 'quixo', '--engine', 'alphabeta:depth=1', '--json'])\n"
        "rc |= main(['engines'])\n"
        "assert 'textual' not in sys.modules, 'textual was imported'\n"
        "sys.exit(rc)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_ctrl_c_stops_the_search_and_reports_the_last_depth() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tui.cli", "search", "chess", "--engine", "pvs:time=120"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()  # depth 1 is done: the handler is installed
        assert first.startswith("depth 1  "), first
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)  # the output is small: the pipes cannot fill up
        stopped_after = time.monotonic() - sent
        # read on through the same buffered streams (communicate() would skip
        # what readline() has already buffered)
        rest = proc.stdout.read()
        err = proc.stderr.read() if proc.stderr is not None else ""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    assert proc.returncode == 130, err
    assert stopped_after < 20
    assert "interrupted" in err and "Traceback" not in err
    out = first + rest
    block = summary(out)
    last = [line for line in out.splitlines() if line.startswith("depth ") and "score" in line][-1]
    assert block["depth"].split()[0] == last.split()[1]
    assert block["best move"] == last.split("  pv ")[1].split()[0]


# ------------------------------------------------------------- bench search
@pytest.mark.parametrize("position", [p for ps in bench.POSITIONS.values() for p in ps],
                         ids=lambda p: f"{p.game}-{p.label}")
def test_bench_positions_are_reached_by_their_moves(position: bench.BenchPosition) -> None:
    game = new_game(position.game)
    game.play_all(position.moves)
    assert game.to_text() == position.new_game().to_text()
    assert position.new_game().outcome() is None
    assert (position.text is None) == (not position.moves)


def bench_and_random_positions(game: str) -> list:
    positions = [p.new_game() for p in bench.POSITIONS[game]]
    positions += [play_randomly(new_game(game), seed, 30) for seed in (1, 2)]
    return [g for g in positions if g.outcome() is None]


@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_naive_reference_has_the_value_of_alphabeta(game_name: str) -> None:
    for game in bench_and_random_positions(game_name):
        before = game.to_text()
        found = bench.naive_search(game, 2)
        assert game.to_text() == before
        for spec in ("alphabeta:depth=2", "alphabeta:depth=2,tt=off,order=off,seed=9", "minimax:depth=2"):
            result = create_engine(spec, type(game)).search(game)
            assert found.value == result.score, (spec, before)
        assert found.nodes > 1 and found.evals > 0


@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_naive_reference_has_the_value_of_alphabeta_at_depth_3(game_name: str) -> None:
    if (game_kind(game_name).samples.search_depth or 2) < 3:
        pytest.skip(f"{game_name}'s samples keep full-width searches to depth 2 (search_depth)")
    for game in (p.new_game() for p in bench.POSITIONS[game_name]):
        expected = create_engine("alphabeta:depth=3", type(game)).search(game).score
        assert bench.naive_search(game, 3).value == expected


@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_naive_reference_plays_the_first_best_move_in_legal_order(game_name: str) -> None:
    game = bench.POSITIONS[game_name][-1].new_game()
    found = bench.naive_search(game, 2)
    values = [bench.naive_move_value(game, move, 2) for move in game.legal_moves()]
    assert found.value == max(values)
    assert found.move == game.legal_moves()[values.index(max(values))]


def test_naive_reference_finds_a_mate() -> None:
    game = new_game("chess", MATE_IN_ONE)
    found = bench.naive_search(game, 2)
    assert game.format_move(found.move) == "Ra8#"
    assert found.value == create_engine("alphabeta:depth=2", type(game)).search(game).score


@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_bench_rows_compare_alphabeta_with_naive(game_name: str) -> None:
    position = bench.POSITIONS[game_name][1]
    rows = bench.search_rows(position, 2, perft_rate=1000.0)
    assert [r.engine for r in rows] == ["alphabeta", "pvs", "naive"]
    alphabeta, pvs, naive = rows
    assert alphabeta.same_value is True
    assert alphabeta.same_move or alphabeta.tie
    assert alphabeta.value == naive.value
    assert all(r.nodes > 0 and r.seconds > 0 and r.nps > 0 for r in rows)
    assert alphabeta.speedup is not None and alphabeta.speedup > 0 and naive.speedup is None
    assert alphabeta.perft_share == pytest.approx(alphabeta.nps / 1000.0)
    assert pvs.same_value is None
    # short runs are repeated: each repetition searches the same tree as a fresh engine
    game = position.new_game()
    fresh = create_engine("alphabeta:depth=2", type(game)).search(game, Limits(depth=2))
    assert alphabeta.nodes == fresh.stats["nodes"] and alphabeta.move == game.format_move(fresh.move)


@pytest.mark.slow
def test_bench_perft_rates_count_the_right_leaves() -> None:
    for game in GAME_NAMES:  # the games' published counts at depth 2 from the start
        for leaves in (count.leaves for count in game_kind(game).samples.perft
                       if count.position is None and count.depth == 2):
            counted, bulk_rate, played_rate = bench.perft_rates(game, 2)
            assert counted == leaves and bulk_rate > 0 and played_rate > 0


def test_bench_pvs_row_completes_a_depth() -> None:
    row = bench.pvs_row(bench.POSITIONS["checkers"][0], 0.2)
    assert row.depth >= 1 and row.nodes > 0 and row.nps > 0


FAKE_UCI = textwrap.dedent("""\
    import sys
    for line in sys.stdin:
        command = line.split()
        if not command:
            continue
        if command[0] == "uci":
            print("id name fake-sunfish"); print("uciok", flush=True)
        elif command[0] == "isready":
            print("readyok", flush=True)
        elif command[0] == "go":
            print("info depth 3 time 500 nodes 2000 score cp 12 pv e2e4")
            print("bestmove e2e4", flush=True)
        elif command[0] == "quit":
            break
""")


def test_sunfish_nps_from_a_uci_engine_without_nps(tmp_path: Path) -> None:
    script = tmp_path / "fake_uci.py"
    script.write_text(FAKE_UCI)
    depth, nps = bench.sunfish_nps([sys.executable, str(script)], None, 0.05)
    assert depth == 3 and nps == pytest.approx(4000)
    rows = bench.sunfish_rows([sys.executable, str(script)], bench.POSITIONS["chess"][:1], 0.05)
    assert rows[0].sunfish_nps == pytest.approx(4000)
    assert rows[0].ratio == pytest.approx(rows[0].pvs_nps / 4000)


@pytest.mark.slow
def test_bench_search_command_at_tiny_depth(capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole command, shrunk: one quixo position at depth 2 and a short pvs run."""
    monkeypatch.setitem(bench.QUICK_DEPTHS, "quixo", 2)
    monkeypatch.setitem(bench.POSITIONS, "quixo", bench.POSITIONS["quixo"][:1])
    monkeypatch.setitem(bench.PERFT_DEPTHS, "quixo", 2)
    real_pvs_row = bench.pvs_row
    monkeypatch.setattr(bench, "pvs_row", lambda position: real_pvs_row(position, 0.1))
    code, out, err = run(capsys, "bench", "search", "--game", "quixo", "--quick")
    assert code == 0
    for needle in ("alphabeta", "pvs", "naive", "targets:", "pvs nodes/s"):
        assert needle in out
    assert "same" in out or "tie" in out
    assert "DIFFERS" not in out and "WORSE" not in out
