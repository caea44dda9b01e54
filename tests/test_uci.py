"""``tui-games uci``: driven by python-chess's UCI client, and line by line in-process."""

from __future__ import annotations

import io
import os
import sys
import threading
import time
from pathlib import Path

import chess
import chess.engine
import pytest

from tui.uci import UciServer, time_for_move

ROOT = Path(__file__).resolve().parent.parent
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"  # Ra8#


def uci_command(*extra: str) -> list[str]:
    return [sys.executable, "-m", "tui.cli", "uci", *extra]


def uci_env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


@pytest.fixture
def engine():
    process = chess.engine.SimpleEngine.popen_uci(uci_command("--engine", "pvs:time=0.2"), env=uci_env(),
                                                  timeout=30)
    yield process
    process.quit()


class Session:
    """An in-process UCI session: send lines, read what came back since the last read."""

    def __init__(self, spec: str = "alphabeta:depth=2") -> None:
        self.out = io.StringIO()
        self.server = UciServer(spec, self.out)
        self.seen = 0

    def _new_lines(self) -> list[str]:
        text = self.out.getvalue()
        new, self.seen = text[self.seen:], len(text)
        return new.splitlines()

    def __call__(self, *lines: str) -> list[str]:
        for line in lines:
            self.server.handle(line)
        return self._new_lines()

    def wait_for(self, text: str, timeout: float = 30.0) -> None:
        """Wait until the session's output holds ``text`` (the search got that far)."""
        deadline = time.monotonic() + timeout
        while text not in self.out.getvalue():
            assert time.monotonic() < deadline, f"no {text!r} in {self.out.getvalue()[-300:]!r}"
            time.sleep(0.005)

    def wait(self) -> list[str]:
        """Wait for the search under way to end; what came since the last read."""
        thread = self.server.thread
        if thread is not None:
            thread.join(30)
        return self._new_lines()


def test_identifies_itself_and_its_engine_option(engine) -> None:
    assert engine.id["name"] == "tui-games (pvs:time=0.2)"
    assert engine.options["Engine"].default == "pvs:time=0.2"


def test_plays_legal_moves_through_a_game(engine) -> None:
    board = chess.Board()
    for _ in range(6):
        result = engine.play(board, chess.engine.Limit(time=0.1))
        assert result.move in board.legal_moves
        board.push(result.move)


def test_analyse_to_a_depth_reports_the_statistics(engine) -> None:
    info = engine.analyse(chess.Board(), chess.engine.Limit(depth=3))
    assert info["depth"] == 3 and info["seldepth"] >= 3
    assert info["nodes"] > 0 and "nps" in info and "time" in info
    assert isinstance(info["score"].relative, chess.engine.Cp)
    assert len(info["pv"]) >= 1 and info["pv"][0] in chess.Board().legal_moves


def test_finds_a_mate_in_one(engine) -> None:
    board = chess.Board(MATE_IN_ONE)
    info = engine.analyse(board, chess.engine.Limit(depth=3))
    assert info["score"].relative == chess.engine.Mate(1)
    assert info["pv"][0] == chess.Move.from_uci("a1a8")
    assert engine.play(board, chess.engine.Limit(time=0.2)).move == chess.Move.from_uci("a1a8")


def test_the_mated_side_sees_negative_mate(engine) -> None:
    board = chess.Board("k7/8/1K6/8/8/8/8/7R b - - 0 1")  # Kb8 is forced, then Rh8#
    info = engine.analyse(board, chess.engine.Limit(depth=3))
    assert info["score"].relative == chess.engine.Mate(-1)


def test_the_clock_limits_the_time_used(engine) -> None:
    start = time.monotonic()
    result = engine.play(chess.Board(), chess.engine.Limit(white_clock=3, black_clock=3, white_inc=0, black_inc=0))
    assert result.move in chess.Board().legal_moves
    assert time.monotonic() - start < 3  # a tenth of the clock, not all of it


def test_setoption_engine_switches_and_a_bad_spec_keeps_the_previous(engine) -> None:
    engine.configure({"Engine": "alphabeta:depth=1"})
    assert engine.analyse(chess.Board(), chess.engine.Limit(depth=1))["depth"] == 1
    engine.configure({"Engine": "no-such-engine"})
    info = engine.analyse(chess.Board(), chess.engine.Limit(nodes=200))
    assert info["pv"][0] in chess.Board().legal_moves


def test_infinite_analysis_runs_until_stopped(engine) -> None:
    board = chess.Board()
    with engine.analysis(board) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 2:
                break
        start = time.monotonic()
        analysis.stop()
        best = analysis.wait()
    assert best.move in board.legal_moves
    assert time.monotonic() - start < 2


# ------------------------------------------------------------ in-process lines
def test_uci_handshake_and_isready() -> None:
    session = Session()
    lines = session("uci")
    assert lines[:3] == [
        "id name tui-games (alphabeta:depth=2)", "id author tui-games developers",
        "option name Engine type string default alphabeta:depth=2",
    ]
    assert lines[-1] == "uciok" and all(line.startswith("option name ") for line in lines[2:-1])
    assert session("isready") == ["readyok"]


def test_bad_input_is_answered_with_info_strings() -> None:
    session = Session()
    assert session("setoption name Engine value pvs:depth=0")[0].startswith(
        "info string error: pvs: option depth must be")
    assert session.server.spec == "alphabeta:depth=2"
    assert "unknown option" in session("setoption name Contempt value 16")[0]
    assert "error: bad FEN" in session("position fen not a fen")[0]
    lines = session("position startpos moves e2e4 e2e4")
    assert "illegal move 'e2e4'" in lines[0]
    assert session.server.game.ply == 1  # the position stops before the bad move
    assert session("frobnicate", "debug on", "") == []  # unknown commands are ignored


def test_go_after_a_refused_position_searches_nothing() -> None:
    session = Session("alphabeta:depth=1")
    session("position startpos moves e2e4")
    assert "error: bad FEN" in session("position fen 8/8/8/8 w - - 0 1")[0]
    lines = session("go depth 1") + session.wait()
    assert lines[-1] == "bestmove 0000"  # not a move of the previous position
    assert any("the last 'position' was refused" in line for line in lines)
    assert "error: expected 'position startpos' or 'position fen FEN'" in session("position sideways")[0]
    assert (session("go depth 1") + session.wait())[-1] == "bestmove 0000"
    session("position startpos")
    assert (session("go depth 1") + session.wait())[-1] != "bestmove 0000"


def test_go_infinite_waits_for_stop_and_bestmove_comes_after() -> None:
    session = Session("alphabeta:depth=1")
    session("position fen " + MATE_IN_ONE, "go infinite")
    session.wait_for("score mate 1")  # the search has found the mate at once, but may not answer before 'stop'
    assert not any(line.startswith("bestmove") for line in session.out.getvalue().splitlines())
    lines = session("stop")
    assert lines[-1].startswith("bestmove a1a8")


def test_go_depth_in_a_game_over_position_answers_a_null_move() -> None:
    session = Session()
    lines = session("position fen R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", "go depth 2") + session.wait()
    assert lines[-1] == "bestmove 0000"
    assert any("game is over" in line for line in lines)


def test_go_searchmoves_restricts_the_root() -> None:
    session = Session("alphabeta:depth=2")
    lines = session("position startpos", "go depth 2 searchmoves a2a3 h2h3") + session.wait()
    assert lines[-1].split()[1] in ("a2a3", "h2h3")


def test_a_repetition_nobody_claimed_still_gets_a_move() -> None:
    session = Session("alphabeta:depth=1")
    lines = session("position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8", "go depth 1")
    lines += session.wait()
    assert lines[-1].startswith("bestmove ") and lines[-1] != "bestmove 0000"


def test_quit_stops_a_running_search() -> None:
    session = Session("pvs:time=30")
    session("position startpos", "go infinite")
    thread = session.server.thread
    done = threading.Event()

    def quit_() -> None:
        session.server.handle("quit")
        done.set()

    threading.Thread(target=quit_).start()
    assert done.wait(5) and thread is not None and not thread.is_alive()


@pytest.mark.parametrize(
    ("remaining", "increment", "to_go", "low", "high"),
    [
        (60_000, 0, None, 1.18, 1.2),      # sudden death: a fiftieth of a minute, less the overhead
        (60_000, 1_000, None, 2.7, 2.8),   # plus 80% of the increment
        (10_000, 0, 5, 1.9, 2.0),          # over the moves to go
        (1_000, 0, 1, 0.8, 0.9),           # the last move before the time control: most of it
        (100, 5_000, None, 0.0349, 0.0351),  # never more than half the clock after its reserve (a tenth)
        (20, 0, None, 0.001, 0.001),       # 20 ms left: 1 ms (it took 13-24 ms with a 10 ms floor)
        (500, 10, None, 0.012, 0.014),     # 0.2 s + 0.01 late in a game: the reserve shrinks with the clock
    ],
)
def test_time_for_move(remaining: int, increment: int, to_go: int | None, low: float, high: float) -> None:
    assert low <= time_for_move(remaining, increment, to_go) <= high


@pytest.mark.parametrize("remaining", [0, 1, 5, 20, 100, 1_000, 10_000, 100_000])
def test_a_clock_budget_leaves_time_on_the_clock(remaining: int) -> None:
    budget = time_for_move(remaining)
    assert 0.001 <= budget and (remaining < 20 or budget <= 0.9 * remaining / 1000 / 2)


@pytest.mark.parametrize(("movetime", "seconds"), [(500, 0.475), (100, 0.095), (5_000, 4.95), (1, 0.001)])
def test_a_fixed_time_is_used_in_full(movetime: int, seconds: float) -> None:
    from engines.timing import fixed_time

    assert fixed_time(movetime) == pytest.approx(seconds)


def test_a_fixed_time_search_uses_its_time() -> None:
    # go movetime 500 used 0.30 s on average: the search stopped when it predicted the next
    # depth would not finish, which only a clock's budget may do.
    from engines import Limits, create_engine
    from engines.registry import parse_engine_spec
    from games.chess import ChessGame

    engine = create_engine(parse_engine_spec("pvs"), ChessGame)
    fixed = engine.search(ChessGame(), Limits(time=0.3))
    assert fixed.stats.time_s >= 0.27
    flexible = engine.search(ChessGame(), Limits(time=0.3, flexible=True))
    assert flexible.stats.time_s <= 0.35


def test_ponderhit_turns_pondering_into_a_timed_search() -> None:
    # 'go ponder' searched for ever and 'ponderhit' was ignored: a GUI with pondering on lost on time.
    session = Session("pvs")
    session("position startpos moves e2e4 e7e5", "go ponder wtime 3000 btime 3000")
    session.wait_for("info depth 2 ")  # pondering, depth after depth
    assert session.server.thread is not None and session.server.thread.is_alive()
    assert not any(line.startswith("bestmove") for line in session.out.getvalue().splitlines())
    started = time.monotonic()
    session("ponderhit")
    lines = session.wait()
    elapsed = time.monotonic() - started
    assert lines[-1].startswith("bestmove ")
    assert elapsed < time_for_move(3000) + 1.0  # the clock's budget from the ponderhit on


def test_stop_while_pondering_answers_bestmove() -> None:
    session = Session("pvs")
    session("position startpos", "go ponder wtime 60000 btime 60000")
    session.wait_for("info depth 1 ")
    lines = session("stop")
    assert lines[-1].startswith("bestmove ")
    assert session.server.thread is None


def test_a_ponder_search_that_ends_early_waits_for_ponderhit() -> None:
    session = Session("alphabeta:depth=1")
    session("position fen " + MATE_IN_ONE, "go ponder wtime 1000 btime 1000")
    session.wait_for("score mate 1")  # the search is over, but a ponder search waits for ponderhit
    assert not any(line.startswith("bestmove") for line in session.out.getvalue().splitlines())
    session("ponderhit")
    assert session.wait()[-1].startswith("bestmove a1a8")


def test_a_position_extending_the_last_one_plays_only_the_new_moves() -> None:
    session = Session()
    session("position startpos moves e2e4 e7e5")
    game = session.server.game
    session("position startpos moves e2e4 e7e5 g1f3")
    assert session.server.game is game and game.board.fen() == chess.Board(
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2").fen()
    session("position startpos moves d2d4")  # another game: read from the start
    assert session.server.game.board.fen() == chess.Board("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1").fen()
    session("ucinewgame", "position startpos moves e2e4")
    assert session.server.game.ply == 1
    lines = session("position startpos moves e2e4 e2e4")
    assert "illegal move 'e2e4'" in lines[0] and session.server.game.ply == 1
    session("position startpos moves e2e4 e7e5")
    assert session.server.game.ply == 2


def test_ponderhit_without_a_clock_searches_with_the_engine_s_own_limits() -> None:
    session = Session("pvs:time=0.2")
    session("position startpos", "go ponder")
    session.wait_for("info depth 1 ")
    assert not any(line.startswith("bestmove") for line in session.out.getvalue().splitlines())
    session("ponderhit")
    assert session.wait()[-1].startswith("bestmove ")
