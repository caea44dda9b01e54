"""``tui-games uci``'s options as GUIs and match runners set them: Hash, Threads, MultiPV, Ponder
and the engine's own, driven by python-chess as a GUI drives an engine."""

from __future__ import annotations

import chess
import chess.engine
import pytest

from engines import create_engine
from engines.search.table import SharedTable
from games.chess import ChessGame
from test_uci import Session, uci_command, uci_env


@pytest.fixture
def engine():
    process = chess.engine.SimpleEngine.popen_uci(uci_command("--engine", "pvs:depth=3"), env=uci_env(), timeout=30)
    yield process
    process.quit()


def test_the_options_guis_set_first_are_declared_with_their_types(engine) -> None:
    options = engine.options
    assert options["Hash"].type == "spin" and options["Hash"].min == 1
    assert options["Threads"].type == "spin" and options["Threads"].default == 1
    assert options["MultiPV"].type == "spin" and options["MultiPV"].default == 1
    assert options["Ponder"].type == "check"
    assert options["null"].type == "check" and options["null"].default is True
    assert options["jitter"].type == "spin" and options["jitter"].min == 0
    assert "depth" not in options and "time" not in options  # 'go' gives the limits


def test_multipv_3_reports_the_three_best_lines(engine) -> None:
    board = chess.Board()
    board.push_san("e4")
    infos = engine.analyse(board, chess.engine.Limit(depth=3), multipv=3)
    assert len(infos) == 3 and [info["multipv"] for info in infos] == [1, 2, 3]
    firsts = [info["pv"][0] for info in infos]
    assert len(set(firsts)) == 3 and all(move in board.legal_moves for move in firsts)
    scores = [info["score"].relative.score() for info in infos]
    assert scores == sorted(scores, reverse=True)
    # The best line is the move a single-line search plays.
    assert engine.play(board, chess.engine.Limit(depth=3)).move == firsts[0]


def test_pondering_through_a_gui(engine) -> None:
    board = chess.Board()
    for _ in range(3):
        result = engine.play(board, chess.engine.Limit(depth=2), ponder=True)
        assert result.move in board.legal_moves
        board.push(result.move)
        board.push(next(iter(board.legal_moves)))  # the opponent may not play the move pondered


def test_engine_options_set_the_spec_and_bad_values_keep_the_engine() -> None:
    session = Session("pvs:depth=2")
    assert session("setoption name Threads value 2", "setoption name Hash value 8",
                   "setoption name null value false", "setoption name MultiPV value 2") == []
    assert session.server.spec == "pvs:depth=2,workers=2,hash=8,null=off,multipv=2"
    for line, needle in [("setoption name Hash value lots", "Hash: pvs: option hash must be a whole number"),
                         ("setoption name Threads value 0", "Threads: pvs: option workers must be"),
                         ("setoption name MultiPV value 999", "must be <= 256"),
                         ("setoption name lmr value perhaps", "lmr: pvs: option lmr must be on or off"),
                         ("setoption name depth value 3", "unknown option 'depth'")]:
        answer = session(line)
        assert len(answer) == 1 and answer[0].startswith("info string error: ") and needle in answer[0], line
    assert session.server.spec == "pvs:depth=2,workers=2,hash=8,null=off,multipv=2"
    lines = session("position startpos", "go depth 2") + session.wait()
    assert lines[-1].startswith("bestmove ") and sum(" multipv 2 " in line for line in lines) >= 1
    session("quit")


def test_standard_options_an_engine_has_no_use_for_are_ignored_aloud() -> None:
    session = Session("random")
    assert session("setoption name Threads value 1", "setoption name MultiPV value 1") == []
    answer = session("setoption name Hash value 64")
    assert answer == ["info string Hash does not apply to random (no hash option); ignored"]
    assert session.server.spec == "random"


def test_hash_sets_the_table_size() -> None:
    small = create_engine("alphabeta:depth=5,hash=1", ChessGame)
    assert small.tt_capacity == (1 << 20) // 400
    small.search(ChessGame())
    assert len(small.table) <= small.tt_capacity
    shared = create_engine("pvs:workers=2,hash=3,depth=1", ChessGame)
    try:
        shared.prepare()
        assert isinstance(shared.table, SharedTable) and shared.table.entries == 1 << 17  # 3 MB / 24 B
    finally:
        shared.close()
