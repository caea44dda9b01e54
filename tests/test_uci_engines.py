"""Any UCI engine as a player: the ``uci:path=PROGRAM,option.NAME=VALUE`` spec.

Most tests drive a tiny fake (tests/fake_uci_engine.py) or our own ``tui-games
uci``; real programs get tests of their own that skip cleanly when absent:
Stockfish (Debian's package) and sunfish from PyPI (``pip install sunfish``
in a virtual environment of its own: its ``sunfish-uci`` program, found
through ``TUI_GAMES_SUNFISH``, the ``PATH`` or ``/work/sunfish-venv``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import uci_programs
from cli_run import assert_usage_error, run
from engines import SpecError, create_engine, parse_engine_spec
from games import new_game
from games.chess import ChessGame
from games.quixo import Quixo

ROOT = Path(__file__).resolve().parent.parent
FAKE = ROOT / "tests" / "fake_uci_engine.py"
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"  # Ra8#


def executable(path: Path, command: str, env: str = "") -> Path:
    path.write_text(f"#!/bin/sh\n{env}PYTHONPATH='{ROOT}' exec '{sys.executable}' {command}\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A fake UCI program and the file its setoption lines go to."""
    log = tmp_path / "setoption.log"
    monkeypatch.setenv("FAKE_UCI_LOG", str(log))
    return executable(tmp_path / "fake-engine", f"'{FAKE}'"), log


# ------------------------------------------------------------------ the spec
def test_options_are_a_family_keeping_their_spelling() -> None:
    spec = parse_engine_spec("UCI:path=/bin/x, option.Skill Level=3,OPTION.hash=64,depth=2")
    assert spec.family("option.") == {"Skill_Level": "3", "hash": "64"}
    assert str(spec) == "uci:path=/bin/x,option.Skill_Level=3,option.hash=64,depth=2"
    with pytest.raises(SpecError, match="option option.hash given twice"):
        parse_engine_spec("uci:path=x,option.Hash=1,option.hash=2")
    with pytest.raises(SpecError, match=r"its options are: path, depth, time, nodes, option\.NAME"):
        parse_engine_spec("uci:path=x,option=3")


def test_options_are_typed_as_the_program_declares_them(fake) -> None:
    program, log = fake
    spec = (f"uci:path={program},option.skill_level=3,option.UCI_LimitStrength=on,option.style=risky,"
            f"option.Book_File=my book.bin,option.Clear_Hash=go,depth=1")
    with create_engine(spec, ChessGame) as engine:
        result = engine.search(new_game("chess"))
        assert result.move in new_game("chess").legal_moves() and result.stats.engine == spec
    sent = log.read_text().splitlines()
    for line in ("setoption name Skill Level value 3", "setoption name UCI_LimitStrength value true",
                 "setoption name Style value Risky", "setoption name Book File value my book.bin",
                 "setoption name Clear Hash"):
        assert line in sent


@pytest.mark.parametrize("option, message", [
    ("option.Threads=2", "has no UCI option 'Threads'; its options are: Book_File, Clear_Hash, Skill_Level, "
                         "Style, UCI_Elo, UCI_LimitStrength"),
    ("option.Skill_Level=21", "Skill Level must be between 0 and 20"),
    ("option.Skill_Level=high", "Skill Level must be a whole number"),
    ("option.UCI_LimitStrength=maybe", "UCI_LimitStrength is on or off"),
    ("option.Style=wild", "Style must be one of Solid, Normal, Risky"),
    ("option.MultiPV=3", "option MultiPV is set by the client search by search"),
])
def test_bad_options_are_one_line(fake, option: str, message: str) -> None:
    program, _ = fake
    with pytest.raises(SpecError, match="^uci: ") as error:
        create_engine(f"uci:path={program},{option}", ChessGame)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_programs_that_cannot_play_are_refused_in_one_line(tmp_path: Path, capsys, monkeypatch) -> None:
    plain = tmp_path / "plain"
    plain.write_text("not a program\n")
    talker = tmp_path / "talker"
    talker.write_text("#!/bin/sh\necho hello\n")
    talker.chmod(0o755)
    for spec, message in [
        ("uci", "uci: which program? give its path"),
        (f"uci:path={tmp_path / 'missing'}", "no such file"),
        ("uci:path=no-such-program-here", "no such file, and not a program on the PATH"),
        (f"uci:path={tmp_path}", "is a directory, not a UCI program"),
        (f"uci:path={plain}", "is not executable"),
        (f"uci:path={talker}", "is not a UCI engine: it ended before answering 'uci' with 'uciok'"),
    ]:
        with pytest.raises(SpecError, match="^uci: "):
            create_engine(spec, ChessGame)
        assert_usage_error(capsys, ["search", "chess", "--engine", spec], message)
    with pytest.raises(SpecError, match="uci: plays chess only, not quixo"):
        create_engine(f"uci:path={talker}", Quixo)


def test_a_program_dying_while_searching_is_one_line(tmp_path: Path, capsys) -> None:
    program = executable(tmp_path / "dies", f"'{FAKE}'", env="FAKE_UCI_DIE=1 ")
    engine = create_engine(f"uci:path={program},depth=1", ChessGame)
    with pytest.raises(SpecError, match=r"died \(exit status 9\) while searching"):
        engine.search(new_game("chess"))
    engine.close()
    assert_usage_error(capsys, ["search", "chess", "--engine", f"uci:path={program}"],
                       "died (exit status 9) while searching")


def test_our_own_uci_front_end_as_a_uci_engine(tmp_path: Path) -> None:
    program = executable(tmp_path / "ours", "-m tui.cli uci --engine alphabeta:depth=2")
    with create_engine(f"uci:path={program},depth=2,option.Engine=alphabeta:depth=1", ChessGame) as engine:
        result = engine.search(new_game("chess", MATE_IN_ONE))
    assert result.stats.best == "Ra8#" and result.stats.mate == 1


# ------------------------------------------------------------ real programs
SUNFISH = uci_programs.sunfish()
STOCKFISH = uci_programs.stockfish()
needs_sunfish = pytest.mark.skipif(SUNFISH is None, reason="no sunfish-uci (pip install sunfish in a venv)")
needs_stockfish = pytest.mark.skipif(STOCKFISH is None, reason="no stockfish binary on this machine")


@needs_sunfish
def test_sunfish_plays_with_its_options_and_finds_mate() -> None:
    with create_engine(f"uci:path={SUNFISH},depth=3,option.hash=16,option.qs=40", ChessGame) as engine:
        result = engine.search(new_game("chess", MATE_IN_ONE))
        assert result.stats.best == "Ra8#" and result.stats.nodes > 0 and result.stats.depth >= 1
        opening = engine.search(new_game("chess"))
        assert opening.move in new_game("chess").legal_moves()
    with pytest.raises(SpecError, match="Hash must be between 1 and 32768"):
        create_engine(f"uci:path={SUNFISH},option.Hash=0", ChessGame)


@needs_sunfish
@pytest.mark.slow
def test_a_match_against_sunfish(tmp_path: Path, capsys) -> None:
    out = tmp_path / "sunfish.jsonl"
    code, stdout, _ = run(capsys, "match", "chess", "--a", "alphabeta:depth=1", "--b", f"uci:path={SUNFISH},depth=2",
                          "--games", "2", "--openings", "2", "--out", str(out), "--json")
    assert code == 0
    summary = json.loads(stdout)
    assert summary["games"] == 2 and summary["b"]["totals"]["nodes"] > 0 and summary["stats"]["pairs"] == 1
    assert "[%eval" in out.with_suffix(".pgn").read_text()


@needs_stockfish
def test_stockfish_through_uci_with_its_own_options() -> None:
    spec = f"uci:path={STOCKFISH},option.Skill_Level=0,option.Hash=16,option.Threads=1,depth=4"
    with create_engine(spec, ChessGame) as engine:
        result = engine.search(new_game("chess", MATE_IN_ONE))
    assert result.stats.mate == 1 and result.stats.best == "Ra8#"
    with pytest.raises(SpecError, match="has no UCI option 'Skill'; its options are: Clear_Hash, "):
        create_engine(f"uci:path={STOCKFISH},option.Skill=3", ChessGame)
