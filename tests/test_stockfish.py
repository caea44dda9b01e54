"""The ``stockfish`` engine spec: a UCI binary behind the Engine interface.

No Stockfish is needed: TUI_GAMES_STOCKFISH points at a script running our own
``tui-games uci`` (a real UCI engine, so the adapter is really exercised), or
at a tiny fake with Stockfish's strength options.  A real binary, when one is
installed, gets a test of its own.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import threading
import time
from pathlib import Path

import pytest

import engines.stockfish
from cli_run import assert_usage_error, run
from engines import MATE_BOUND, STAT_NAMES, SpecError, create_engine, mate_in
from engines.stockfish import ENVIRONMENT_VARIABLE, find_stockfish
from games import new_game
from games.chess import ChessGame
from games.quixo import Quixo

ROOT = Path(__file__).resolve().parent.parent
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"  # Ra8#


def executable(path: Path, command: str) -> Path:
    path.write_text(f"#!/bin/sh\nPYTHONPATH='{ROOT}' exec '{sys.executable}' {command}\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def our_uci(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """TUI_GAMES_STOCKFISH -> a script running 'tui-games uci' with alpha-beta inside."""
    script = executable(tmp_path / "stockfish", "-m tui.cli uci --engine alphabeta:depth=2")
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(script))
    return script


@pytest.fixture
def fakefish(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """TUI_GAMES_STOCKFISH -> a fake declaring Stockfish's options; returns its setoption log."""
    script = executable(tmp_path / "fakefish", f"'{ROOT / 'tests' / 'fake_uci_engine.py'}'")
    log = tmp_path / "setoption.log"
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(script))
    monkeypatch.setenv("FAKE_UCI_LOG", str(log))
    return log


# --------------------------------------------------------------- no binary
def test_without_a_binary_the_spec_is_refused_with_how_to_get_one(no_stockfish, capsys) -> None:
    message = ("stockfish: no stockfish binary found (install Debian's 'stockfish' package "
               "or set TUI_GAMES_STOCKFISH)")
    with pytest.raises(SpecError) as error:
        create_engine("stockfish", ChessGame)
    assert str(error.value) == message
    assert_usage_error(capsys, ["search", "chess", "--engine", "stockfish"], message)
    assert_usage_error(capsys, ["match", "chess", "--a", "stockfish:elo=1500", "--b", "random", "--games", "2"],
                       "agent A: " + message)


def test_bad_paths_and_other_games_are_refused(our_uci, tmp_path: Path, monkeypatch) -> None:
    with pytest.raises(SpecError, match="plays chess only, not quixo"):
        create_engine("stockfish", Quixo)
    with pytest.raises(SpecError, match="option path names '/no/such/stockfish'"):
        create_engine("stockfish:path=/no/such/stockfish", ChessGame)
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(tmp_path / "missing"))
    with pytest.raises(SpecError, match=f"{ENVIRONMENT_VARIABLE} names"):
        find_stockfish()


# --------------------------------------------------- through 'tui-games uci'
def test_a_search_maps_the_uci_statistics(our_uci) -> None:
    game = new_game("chess")
    game.play_all(["e4", "e5"])
    with create_engine("stockfish:depth=2", ChessGame) as engine:
        infos: list[dict] = []
        result = engine.search(game, on_info=infos.append)
    assert result.move in game.legal_moves()
    stats = result.stats
    assert set(STAT_NAMES) <= set(stats)
    assert stats["depth"] == 2 and stats["nodes"] > 0 and stats["engine"] == "stockfish:depth=2"
    assert stats["best"] == game.format_move(result.move) == stats["pv"][0]
    assert len(stats["pv"]) == 2 and result.pv[0] == result.move
    assert infos and infos[-1]["depth"] == 2
    assert game.ply == 2  # unchanged


def test_mates_are_scored_like_our_engines(our_uci) -> None:
    with create_engine("stockfish:depth=3", ChessGame) as engine:
        result = engine.search(new_game("chess", MATE_IN_ONE))
        assert result.stats["best"] == "Ra8#" and result.stats["mate"] == 1
        assert result.score >= MATE_BOUND and mate_in(result.score) == 1
        mated = engine.search(new_game("chess", "k7/8/1K6/8/8/8/8/7R b - - 0 1"))
        assert mated.stats["mate"] == -1 and mate_in(mated.score) == -1


def test_the_stop_flag_ends_a_long_search(our_uci) -> None:
    with create_engine("stockfish:time=60", ChessGame) as engine:
        stop = threading.Event()
        threading.Timer(0.3, stop.set).start()
        start = time.monotonic()
        result = engine.search(new_game("chess"), stop=stop)
        assert time.monotonic() - start < 10
        assert result.move in new_game("chess").legal_moves()


def test_close_ends_the_engine_process(our_uci) -> None:
    engine = create_engine("stockfish:depth=1", ChessGame)
    pid = engine.pid
    engine.close()
    engine.close()  # twice is fine
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the engine process is still running")
    with pytest.raises(RuntimeError, match="closed"):
        engine.search(new_game("chess"))


def test_strength_options_need_the_binary_to_offer_them(our_uci) -> None:
    with pytest.raises(SpecError, match="has no UCI option 'UCI_LimitStrength'"):
        create_engine("stockfish:elo=1500", ChessGame)


@pytest.mark.slow
def test_a_match_against_stockfish(our_uci, tmp_path: Path, capsys) -> None:
    out = tmp_path / "sf.jsonl"
    code, stdout, _ = run(capsys, "match", "chess", "--a", "stockfish:depth=1", "--b", "alphabeta:depth=1",
                          "--games", "2", "--openings", "2", "--out", str(out), "--json")
    assert code == 0
    summary = json.loads(stdout)
    assert summary["games"] == 2 and summary["a"]["totals"]["nodes"] > 0
    assert summary["a"]["spec"] == "stockfish:depth=1"


# ------------------------------------------------- Stockfish's own options
def test_elo_and_skill_set_stockfish_options(fakefish: Path) -> None:
    with create_engine("stockfish:elo=1500,skill=3", ChessGame) as engine:
        result = engine.search(new_game("chess"))
        assert result.move in new_game("chess").legal_moves()
    sent = fakefish.read_text().splitlines()
    assert "setoption name UCI_LimitStrength value true" in sent
    assert "setoption name UCI_Elo value 1500" in sent
    assert "setoption name Skill Level value 3" in sent


def test_out_of_range_strength_is_a_spec_error(fakefish: Path) -> None:
    with pytest.raises(SpecError, match="UCI_Elo must be between 1320 and 3190"):
        create_engine("stockfish:elo=800", ChessGame)
    with pytest.raises(SpecError, match="Skill Level must be between 0 and 20"):
        create_engine("stockfish:skill=25", ChessGame)


def test_on_clocks_stockfish_is_told_them(fakefish: Path, tmp_path: Path, capsys) -> None:
    """Under a match's clocks a UCI engine manages its own time: it gets wtime/btime/winc/binc."""
    out = tmp_path / "sf.jsonl"
    code, _, _ = run(capsys, "match", "chess", "--a", "stockfish", "--b", "random:tc=5", "--games", "1",
                     "--openings", "0", "--tc", "40/3+0.05", "--maxmoves", "2", "--out", str(out))
    assert code == 0
    goes = [line for line in fakefish.read_text().splitlines() if line.startswith("go")]
    assert goes[0] == "go wtime 3000 btime 5000 winc 50 binc 0 movestogo 40"
    assert goes[1].startswith("go wtime 3") and "btime" in goes[1] and "movestogo 39" in goes[1]
    fixed = tmp_path / "fixed.jsonl"
    assert run(capsys, "match", "chess", "--a", "stockfish:time=0.2", "--b", "random", "--games", "1", "--tc",
               "60+1", "--maxmoves", "2", "--openings", "0", "--out", str(fixed))[0] == 0
    assert fakefish.read_text().splitlines()[-1] == "go movetime 200"


# ------------------------------------------------------ a real Stockfish
def _real_stockfish() -> str | None:
    if os.environ.get(ENVIRONMENT_VARIABLE):
        return None
    return shutil.which("stockfish") or (
        engines.stockfish.DEBIAN_PATH if os.access(engines.stockfish.DEBIAN_PATH, os.X_OK) else None)


@pytest.mark.skipif(_real_stockfish() is None, reason="no stockfish binary on this machine")
def test_a_real_stockfish_plays_limited_and_finds_mate() -> None:
    with create_engine("stockfish:elo=1500,time=0.05", ChessGame) as engine:
        result = engine.search(new_game("chess"))
        assert result.move in new_game("chess").legal_moves() and result.stats["nodes"] > 0
    with create_engine("stockfish:depth=5", ChessGame) as engine:
        assert engine.search(new_game("chess", MATE_IN_ONE)).stats["mate"] == 1
