"""Syzygy endgame tables in pvs (games/chess/syzygy.py, the tables hook of the search core).

No Syzygy files ship with the project (the small ones in python-chess's repository say
nothing of their licence), so the search's use of them is checked with a stand-in that
has python-chess's ``probe_wdl``/``probe_dtz`` and answers what each test scripts;
python-chess itself is met through files that are not tables (a corrupt table must not
end a search).  With real tables, ``TUI_GAMES_SYZYGY=DIR`` runs the last test on them.
"""

from __future__ import annotations

import io
import os
import struct
from typing import Callable

import chess
import pytest

from cli_run import assert_usage_error, run
from engines import create_engine
from engines.registry import has_tables, with_tables
from engines.search.core import TABLE_WIN
from games import GAME_NAMES, GameError, game_class
from games.base import EndgameTables
from games.chess import ChessGame
from games.chess.syzygy import SyzygyTables, open_syzygy, table_pieces, wdl_value
from tui.uci import UciServer

#: White: king a1, queen b2; Black: king d5.  Three pieces, the clock at 0.
KQK = "8/8/8/3k4/8/8/1Q6/K7 w - - 0 1"
#: The same with a black rook on c3 the queen takes (then three pieces are left).
KQKR = "8/8/8/3k4/8/2r5/1Q6/K7 w - - 0 1"


class Stand:
    """python-chess's tablebase as a test scripts it: ``wdl`` and ``dtz`` of a board
    (``None``: no such table, python-chess's KeyError); every board asked is kept."""

    def __init__(self, wdl: Callable[[chess.Board], int | None],
                 dtz: Callable[[chess.Board], int | None] = lambda board: None) -> None:
        self.wdl, self.dtz = wdl, dtz
        self.asked: list[str] = []

    def _answer(self, value: int | None, board: chess.Board) -> int:
        self.asked.append(board.fen())
        if value is None:
            raise chess.syzygy.MissingTableError(board.fen())
        return value

    def probe_wdl(self, board: chess.Board) -> int:
        return self._answer(self.wdl(board), board)

    def probe_dtz(self, board: chess.Board) -> int:
        return self._answer(self.dtz(board), board)


def queen_wins(board: chess.Board) -> int:
    """The WDL of a queen against a bare king: the side with the queen wins."""
    if board.pieces(chess.QUEEN, board.turn):
        return 2
    return -2 if board.pieces(chess.QUEEN, not board.turn) else 0


def pvs_with(tables: SyzygyTables, spec: str = "pvs:depth=2"):
    engine = create_engine(spec, ChessGame)
    engine.tables = tables  # as the tables option would have opened them
    return engine


def test_wdl_under_the_fifty_move_rule_and_piece_counts() -> None:
    assert [wdl_value(wdl) for wdl in (-2, -1, 0, 1, 2)] == [-1, 0, 0, 0, 1]
    assert table_pieces(["KQvK.rtbw", "KRPvKP.rtbz", "README", "KQvK.txt", "kqvk.rtbw"]) == 5
    assert table_pieces(["notes.txt"]) == 0


def test_the_tree_asks_only_right_after_a_capture_or_a_pawn_move_with_few_pieces() -> None:
    tables = SyzygyTables(Stand(queen_wins), pieces=3)
    game = ChessGame.from_text(KQK)
    assert tables.probe(game) == 1
    game.play_text("Qb3")  # a quiet move: the clock runs, a WDL value may be wrong now
    assert tables.probe(game) is None
    assert tables.probe(ChessGame.from_text(KQKR)) is None  # four pieces
    assert tables.probe(ChessGame.from_text("8/8/8/3k4/8/8/8/R3K3 w Q - 0 1")) is None  # castling
    assert tables.probe(ChessGame.from_text("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1")) is None  # mated: a mate's score
    assert tables.tablebase.asked == [KQK]


def test_a_capture_into_the_tables_is_scored_as_their_win() -> None:
    stand = Stand(queen_wins)
    result = pvs_with(SyzygyTables(stand, pieces=3)).search(ChessGame.from_text(KQKR))
    assert result.move == chess.Move.from_uci("b2c3")
    assert result.score == TABLE_WIN - 1  # the tables' win one ply down, not a heuristic's guess
    assert all(chess.popcount(chess.Board(fen).occupied) <= 3 for fen in stand.asked)
    assert all(chess.Board(fen).halfmove_clock == 0 for fen in stand.asked)


def _plies_after(fen: str, dtz: Callable[[chess.Board], int]) -> dict[chess.Move, int]:
    """Each move's DTZ counted from ``fen`` (the stand's DTZ of the position it reaches, one ply on)."""
    board = chess.Board(fen)
    plies = {}
    for move in board.legal_moves:
        board.push(move)
        value = dtz(board)
        plies[move] = -value + 1 if value < 0 else -value - 1
        board.pop()
    return plies


def corner_dtz(board: chess.Board) -> int:
    """A DTZ of the stand's making: the bare king's distance to a1, as a loss (or a win)."""
    bare = chess.BLACK if board.pieces(chess.QUEEN, chess.WHITE) else chess.WHITE
    distance = 1 + chess.square_distance(board.king(bare), chess.A1) + board.king(not bare) % 5
    return -distance if board.turn == bare else distance


def test_a_won_root_plays_the_tables_fastest_win() -> None:
    plies = _plies_after(KQK, corner_dtz)
    fastest = min(plies.values())
    result = pvs_with(SyzygyTables(Stand(queen_wins, corner_dtz), pieces=3)).search(ChessGame.from_text(KQK))
    assert plies[result.move] == fastest
    assert result.stats.solved == 1 and result.score == TABLE_WIN - fastest
    assert result.stats.evals == 0 and result.stats.depth == 1  # played from the tables, nothing searched


def test_a_lost_root_resists_longest() -> None:
    lost = "8/8/8/3k4/8/8/1Q6/K7 b - - 0 1"
    plies = _plies_after(lost, corner_dtz)
    result = pvs_with(SyzygyTables(Stand(queen_wins, corner_dtz), pieces=3)).search(ChessGame.from_text(lost))
    assert plies[result.move] == min(plies.values())  # the most negative: the longest loss
    assert result.stats.solved == -1


def test_a_win_past_the_fifty_move_rule_is_a_draw() -> None:
    late = "8/8/8/3k4/8/8/1Q6/K7 w - - 98 120"
    ranking = SyzygyTables(Stand(queen_wins, corner_dtz), pieces=3).rank(ChessGame.from_text(late))
    assert ranking is not None and ranking.value == 0  # every win takes 3 plies or more: too late
    capture = SyzygyTables(Stand(queen_wins, corner_dtz), pieces=4).rank(
        ChessGame.from_text("8/8/8/3k4/8/2r5/1Q6/K7 w - - 99 120"))
    assert capture is not None and capture.value == 1 and capture.moves == (chess.Move.from_uci("b2c3"),)


def test_a_drawn_root_is_searched_among_the_moves_that_hold_the_draw() -> None:
    holding = {chess.A2, chess.B1}  # the stand's draws: the white king on a2 or b1; elsewhere Black wins

    def dtz(board: chess.Board) -> int:
        return 0 if board.king(chess.WHITE) in holding else 5

    stand = Stand(lambda board: 0 if board.king(chess.WHITE) in holding else 2, dtz)
    result = pvs_with(SyzygyTables(stand, pieces=3)).search(ChessGame.from_text(KQK))
    assert result.move.to_square in holding and result.move.from_square == chess.A1
    assert result.stats.solved is None and result.stats.depth == 2  # searched, not played from the tables


def test_a_table_that_cannot_be_read_leaves_the_search_to_go_on() -> None:
    def broken(board: chess.Board) -> int:
        raise struct.error("unpack requires a buffer of 4 bytes")

    tables = SyzygyTables(Stand(broken, broken), pieces=3)
    result = pvs_with(tables).search(ChessGame.from_text(KQKR))
    assert result.move == chess.Move.from_uci("b2c3") and abs(result.score) < TABLE_WIN // 2
    assert tables.problem is not None and "unpack requires" in tables.problem


def test_python_chess_meeting_files_that_are_not_tables(tmp_path) -> None:
    (tmp_path / "KQvK.rtbw").write_bytes(os.urandom(4096))
    (tmp_path / "KQvK.rtbz").write_bytes(b"")
    engine = create_engine(f"pvs:depth=2,tables={tmp_path}", ChessGame)
    assert engine.tables is not None and engine.tables.pieces == 3
    result = engine.search(ChessGame.from_text(KQK))
    assert result.move in ChessGame.from_text(KQK).legal_moves() and result.stats.depth == 2
    assert engine.tables.problem is not None


def test_folders_without_tables_are_refused_in_one_line(tmp_path) -> None:
    (tmp_path / "notes.txt").write_text("no tables here")
    fifo = tmp_path / "fifo"
    fifo.mkdir()
    os.mkfifo(fifo / "KQvK.rtbw")
    cases = [(tmp_path / "missing", "no such folder"), (tmp_path / "notes.txt", "is not a folder"),
             (tmp_path, "no Syzygy tables in it"), (fifo, "is not a regular file")]
    for folder, needle in cases:
        with pytest.raises(GameError, match=needle) as caught:
            open_syzygy(str(folder))
        assert "\n" not in str(caught.value)


def test_with_tables_fills_in_what_a_spec_leaves_out() -> None:
    assert with_tables("pvs:time=1", ChessGame, "/t") == "pvs:time=1,tables=/t"
    assert with_tables("pvs:tables=/mine", ChessGame, "/t") == "pvs:tables=/mine"
    assert with_tables("h0", ChessGame, "/t") == "h0" and with_tables("pvs", ChessGame, None) == "pvs"
    for name in GAME_NAMES:
        if not has_tables(game_class(name)):
            assert with_tables("pvs", game_class(name), "/t") == "pvs"


def test_syzygy_flag_errors_are_one_line(capsys, tmp_path) -> None:
    assert_usage_error(capsys, ["search", "chess", "--syzygy", str(tmp_path / "none")], "no such folder")
    (tmp_path / "KQvK.rtbw").write_bytes(b"x")
    assert_usage_error(capsys, ["search", "chess", "--syzygy", str(tmp_path), "--engine", "h0"],
                       "reads no endgame tables")
    assert_usage_error(capsys, ["uci", "--syzygy", str(tmp_path / "none")], "--syzygy")
    without = [name for name in GAME_NAMES if not has_tables(game_class(name))]
    if without:
        assert_usage_error(capsys, ["search", without[0], "--syzygy", str(tmp_path)], "has no endgame tables")


def test_search_with_unreadable_tables_still_answers(capsys, tmp_path) -> None:
    (tmp_path / "KQvK.rtbw").write_bytes(os.urandom(1024))
    code, out, err = run(capsys, "search", "chess", "--position", KQK, "--syzygy", str(tmp_path),
                         "--engine", "pvs:depth=2")
    assert code == 0 and f"tables={tmp_path}" in out and "best move" in out
    assert err.count("\n") == 1 and "a Syzygy table could not be read" in err and "went on without it" in err


def test_uci_syzygy_path(tmp_path) -> None:
    (tmp_path / "KQvK.rtbw").write_bytes(b"x")
    out = io.StringIO()
    server = UciServer("pvs:depth=2", out)
    server.handle("uci")
    assert "option name SyzygyPath type string default <empty>" in out.getvalue()
    server.handle(f"setoption name SyzygyPath value {tmp_path / 'none'}")
    assert "info string error: SyzygyPath" in out.getvalue() and server.spec == "pvs:depth=2"
    server.handle(f"setoption name SyzygyPath value {tmp_path}")
    assert server.spec == f"pvs:depth=2,tables={tmp_path}"
    server.handle("setoption name SyzygyPath value <empty>")
    assert server.spec == "pvs:depth=2"
    server.handle("quit")


@pytest.mark.skipif(not os.environ.get("TUI_GAMES_SYZYGY"), reason="TUI_GAMES_SYZYGY names no Syzygy tables")
def test_real_tables_convert_a_won_ending() -> None:
    """With real tables (at least KQvK): pvs mates a bare king within the tables' distance."""
    folder = os.environ["TUI_GAMES_SYZYGY"]
    tables = open_syzygy(folder)
    game = ChessGame.from_text(KQK)
    dtz = tables.tablebase.probe_dtz(game.board)
    assert tables.probe(game) == 1 and dtz > 0
    engine = create_engine(f"pvs:depth=1,tables={folder}", ChessGame)
    for _ in range(dtz + 1):
        if game.outcome() is not None:
            break
        game.play(engine.search(game).move)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == 0 and tables.problem is None


def _tables_folder(path) -> str:
    """A folder python-chess takes for Syzygy tables (it reads the files only when probing)."""
    (path / "KQvK.rtbw").write_bytes(b"x")
    return str(path)


def test_the_settings_keep_the_tables_folder_and_drop_one_gone(tmp_path) -> None:
    from tui.settings import Settings, load_settings, save_settings

    folder = _tables_folder(tmp_path)
    save_settings(Settings(syzygy=folder))
    assert load_settings() == (Settings(syzygy=folder), [])
    os.remove(tmp_path / "KQvK.rtbw")
    settings, problems = load_settings()
    assert settings.syzygy == "" and len(problems) == 1 and "engines.syzygy" in problems[0]
    assert "no Syzygy tables" in problems[0] and "\n" not in problems[0]


def test_the_apps_searches_read_the_tables_of_the_games_that_have_them_there(tmp_path) -> None:
    from tui.app.engine_link import EngineLink

    folder = _tables_folder(tmp_path)
    link = EngineLink(service=None, tables=lambda: folder)  # type: ignore[arg-type]  # with_tables asks no process
    assert link.with_tables("chess", "pvs:time=1") == f"pvs:time=1,tables={folder}"
    assert link.with_tables("chess", "human") == "human"
    for name in GAME_NAMES:
        if name != ChessGame.NAME:
            assert link.with_tables(name, "pvs:time=1") == "pvs:time=1"  # a Syzygy folder is chess's only
    assert EngineLink(service=None).with_tables("chess", "pvs") == "pvs"  # type: ignore[arg-type]


async def test_the_settings_screen_checks_and_keeps_the_tables_folder(tmp_path) -> None:
    from textual.widgets import Input, Static

    from app_pilot import open_settings, wait_for
    from tui.app.app import TuiGamesApp
    from tui.app.screens.settings import SettingsScreen
    from tui.app.screens.start import StartScreen
    from tui.settings import load_settings

    folder = _tables_folder(tmp_path)
    app = TuiGamesApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_settings(pilot, app)
        screen.query_one("#settings-syzygy", Input).value = str(tmp_path / "none")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SettingsScreen)
        said = str(screen.query_one("#settings-error", Static).render())
        assert said.startswith("Syzygy tables: ") and "no such folder" in said
        screen.query_one("#settings-syzygy", Input).value = folder
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen again")
        assert app.tables_folder() == folder
    assert load_settings()[0].syzygy == folder


class Everything(EndgameTables):
    """Tables that know every position: each is ``value`` for the side to move (the core's hook, any game)."""

    def __init__(self, value: int) -> None:
        self.value = value
        self.asked = 0

    def probe(self, game) -> int | None:
        self.asked += 1
        return self.value

    def rank(self, game) -> None:
        return None


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_core_takes_any_games_tables_below_the_root(name: str) -> None:
    for value in (0, 1, -1):
        tables = Everything(value)
        engine = create_engine("pvs:depth=3", game_class(name))
        engine.tables = tables
        game = game_class(name)()
        kept = []  # per root move: whether the same side moves again (its value is then not negated)
        for move in game.legal_moves():
            game.play(move)
            kept.append(game.turn == game_class(name)().turn)
            game.undo()
        score = max(value * (TABLE_WIN - 1) * (1 if again else -1) for again in kept)
        result = engine.search(game)
        assert result.score == score and result.move in game.legal_moves()
        if not any(kept):  # each child once a depth, nothing deeper (a root move again may be searched again)
            assert tables.asked == game.count_moves() * result.stats.depth


def test_a_tables_result_reads_as_won_or_lost_not_as_pawns() -> None:
    from games import game_kind

    scores = game_kind("chess").scores
    assert scores.signed(TABLE_WIN - 7) == "won (tables)" and scores.signed(-(TABLE_WIN - 7)) == "lost (tables)"
    assert scores.signed(250) == "+2.5 pawns"  # a heuristic's score is unchanged
    assert game_kind("checkers").scores.signed(TABLE_WIN - 1, unit=False) == "won (tables)"
