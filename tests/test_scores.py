"""Scores a player reads, in each game's unit, and the small things around the move box.

The unit itself is each game's fact (its samples' ``signed_scores``, checked in
``test_board_side``); here: what holds for every game's unit, a plug-in's default,
the trend's axis, the report's moves, and the hint and a typed beginning in the app.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

from engines import SearchStats
from engines.review import MoveReport
from games import GAME_NAMES, MoveSyntaxError, game_kind, new_game
from games.kind import ScoreScale
from tui.app.screens.report import eval_reading, move_line
from tui.app.widgets.board import BoardView
from tui.app.widgets.engine_panel import TREND_BARS, trend_scale, trend_text
from tui.app.widgets.move_entry import moves_starting

from app_pilot import make_app, ready, type_move, wait_for

SCORES = st.floats(min_value=-5000, max_value=5000, allow_nan=False)


def _negated(text: str) -> str:
    return text if text[0] not in "+-" else ("-" if text[0] == "+" else "+") + text[1:]


@pytest.mark.parametrize("game", GAME_NAMES)
@settings(max_examples=60, deadline=None)
@given(score=SCORES)
def test_a_score_and_its_negation_read_as_each_sides(game: str, score: float) -> None:
    """The other side's score reads as the same size the other way (a unit's sign turns, a
    winning chance is the rest of 100%), and a unit's name is always said."""
    scores = game_kind(game).scores
    mine, theirs = scores.signed(score), scores.signed(-score)
    if scores.reading is None:
        if "<" not in mine + theirs and ">" not in mine + theirs:
            assert abs(int(mine.rstrip("%")) + int(theirs.rstrip("%")) - 100) <= 1
        return
    assert theirs == _negated(mine)
    number, unit = mine.split(" ")
    assert unit in (scores.reading.one, scores.reading.many)
    assert scores.signed(score, unit=False) == number
    assert (score > 0) == number.startswith("+") or float(number) == 0


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_forced_win_reads_in_moves(game: str) -> None:
    scores = game_kind(game).scores
    win, loss = scores.signed(0, 3), scores.signed(0, -3)
    assert "3" in win and "3" in loss and win != loss
    assert not any(character in win + loss for character in ".%")  # no score: moves


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_help_says_the_unit(game: str) -> None:
    scores = game_kind(game).scores
    legend = scores.legend()
    assert (scores.reading.many if scores.reading is not None else "winning chance") in legend
    assert scores.signed(0, 3) in legend and scores.signed(0, -3) in legend


def test_a_game_that_names_no_unit_reads_as_a_winning_chance() -> None:
    """A plug-in's ScoreScale needs no unit: its scores read as the winning chance."""
    scores = ScoreScale(unit=1.0, unit_name="", win_scale=100.0, report_depth=2, puzzle_depth=2, draw_min_plies=10)
    assert scores.signed(100) == "73%" and scores.signed(0) == "50%" and scores.signed(-100) == "27%"
    assert scores.signed(100_000) == ">99%" and scores.signed(0, 2) == "win in 2" and scores.signed(0, -1) == "loss in 1"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_trend_clips_a_forced_win_to_the_other_scores_scale(game: str) -> None:
    """A forced win (``inf``) is drawn at the edge of the scale the other scores set: before, it
    was drawn at 2000 and the axis jumped to ±20 pawns; a huge score is cut at about 99%."""
    scores = game_kind(game).scores
    small = scores.plotted(scores.win_scale / 3)
    values = [small, -small, math.inf]
    bars = trend_text(values, 60, scores).plain
    scale = trend_scale(values)
    assert scale == trend_scale([small])
    assert bars.endswith(TREND_BARS[-1])  # the win at the top edge, the others drawn as without it
    assert bars[:-1] == trend_text(values[:-1], 60, scores).plain
    units = (scores.reading.one, scores.reading.many) if scores.reading is not None else ("%",)
    if scores.reading is None:  # a chance's trend is 40-60% at the least
        assert trend_text([0.5, -0.5], 60, scores).plain.startswith("trend 40-60% ")
    assert any(unit in bars.split(" ")[1] + bars.split(" ")[2] for unit in units)
    huge = trend_text([scores.plotted(100 * scores.win_scale)], 60, scores).plain
    most = scores.plotted(5 * scores.win_scale)
    assert trend_scale([scores.plotted(100 * scores.win_scale)], most) == trend_scale([most])
    assert huge.endswith(TREND_BARS[-1])


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_reports_moves_read_in_the_games_unit(game: str) -> None:
    """The report's moves say the eval its record keeps (``[%eval]``) in the player's unit."""
    scores = game_kind(game).scores
    assert eval_reading(scores.in_units(scores.win_scale), scores) == scores.signed(scores.win_scale)
    assert eval_reading("#-2", scores) == scores.signed(0, -2)
    move = MoveReport(ply=0, move="m", side=0, before=0.5, after=0.5, label="", best=None,
                      eval=scores.in_units(-scores.win_scale))
    assert move_line(move, 1, True, scores).endswith(f"eval {scores.signed(-scores.win_scale)}")


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_typed_beginning_lists_the_moves_it_starts(game: str) -> None:
    """The shortest beginning of a legal move that is no move lists that move (chess's N: the knight moves)."""
    position = new_game(game)
    for move in position.legal_moves():
        text = position.format_move(move)
        for end in range(1, len(text)):
            try:
                position.parse_move(text[:end])
            except MoveSyntaxError:
                assert text in moves_starting(position, text[:end]).split(", ")
                return
            except Exception:
                continue
    pytest.skip(f"every beginning of a {game} move is a move or an illegal one")


async def _click(pilot, board: BoardView, square: tuple[int, int]) -> None:
    await pilot.click(BoardView, offset=board.square_offset(square))
    await pilot.pause()


async def test_the_hinted_piece_clicked_is_picked_up_and_a_typed_letter_lists_its_moves() -> None:
    """``hint: b3``, a click on b2, then on b3 plays it (before: the click on b2 put the hinted
    piece back and b3 said "no legal move starts on b3"); N lists the knight moves."""
    app = make_app("chess", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        from tui.app.screens.help import HelpDialog

        app.push_screen(HelpDialog("chess"))  # the help says the game's unit
        await wait_for(pilot, lambda: isinstance(app.screen, HelpDialog) and app.screen.query("Static"), "the help")
        assert game_kind("chess").scores.legend() in str(app.screen.query_one("Static").render())
        app.pop_screen()
        await wait_for(pilot, lambda: app.screen is screen, "the game again")
        await type_move(pilot, "N")
        await wait_for(pilot, lambda: "Nf3" in screen.message_text, "the knight moves listed")
        assert "not a whole move" in screen.message_text and screen.moves == []
        screen.aids.hint_found((), "b3", SearchStats(score=20, best="b3", pv=["b3"]))
        assert "eval +0.2 pawns for White" in screen.message_text
        b2, b3 = (1, 6), (1, 5)
        assert screen.board.selected == b2
        await _click(pilot, screen.board, b2)
        assert screen.board.selected == b2 and b3 in screen.board.targets  # picked up, not put back
        await _click(pilot, screen.board, b3)
        await wait_for(pilot, lambda: screen.moves == ["b3"], "the hinted move played by two clicks")
        # a piece the player picks up is still put back by a second click
        await _click(pilot, screen.board, (1, 1))
        assert screen.board.selected == (1, 1)
        await _click(pilot, screen.board, (1, 1))
        assert screen.board.selected is None


async def test_a_puzzles_hinted_cube_clicked_stays_picked_up() -> None:
    """The puzzles' hint picks up the cube; clicking it then its edge plays the move."""
    from engines.puzzles import Puzzle
    from tui.app.app import TuiGamesApp
    from tui.app.screens.puzzles import PuzzleScreen

    position = "XXXX./OO.../O..../...../..... X"  # 4 4 top makes the top row
    app = TuiGamesApp(puzzles=("quixo", [Puzzle("t-1", position, None, ("4 4 top",))], "a test set", 1))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PuzzleScreen), "the puzzles")
        puzzles = app.screen
        await wait_for(pilot, lambda: puzzles.entry.game is not None, "the puzzle's position")
        await pilot.press("ctrl+f", "ctrl+f")  # what a hint costs, then the hint
        await wait_for(pilot, lambda: puzzles.board.selected == (4, 4), "the hint")
        await _click(pilot, puzzles.board, (4, 4))
        assert puzzles.board.selected == (4, 4)
        await _click(pilot, puzzles.board, (4, 0))
        await wait_for(pilot, lambda: puzzles.done, "the answer")


async def test_a_puzzles_setting_up_move_shown_on_the_board_is_not_a_piece_held() -> None:
    """The opponent's move is marked on the board (from and to); a click elsewhere starts afresh
    (before: it was judged as a move from the opponent's square, 'illegal move h7c4')."""
    from engines.puzzles import Puzzle
    from tui.app.app import TuiGamesApp
    from tui.app.screens.puzzles import PuzzleScreen

    puzzle = Puzzle("t-1", "6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1", "h7h6", ("a1a8",))
    app = TuiGamesApp(puzzles=("chess", [puzzle], "a test set", 1))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PuzzleScreen), "the puzzles")
        puzzles = app.screen
        await wait_for(pilot, lambda: puzzles.entry.game is not None and puzzles.board.selected == (7, 1),
                       "the setting-up move h7-h6 marked")
        await _click(pilot, puzzles.board, (2, 4))  # c4, empty: nothing picked up, nothing tried
        assert puzzles.board.selected is None and not puzzles.done
        await _click(pilot, puzzles.board, (0, 7))  # the rook on a1
        assert puzzles.board.selected == (0, 7)
        await _click(pilot, puzzles.board, (0, 0))  # a8: mate
        await wait_for(pilot, lambda: puzzles.done, "the answer")
