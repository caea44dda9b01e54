"""A player's words: the engine panel's position in words and its Advanced figures, levels named in
dialogs, the status line and saved records, ratings in words, and why a hint's figure is not the
panel's."""

from __future__ import annotations

import io
import math
from pathlib import Path

import chess.pgn
import pytest

from engines import SearchStats
from engines.levels import about, level_named, levels_for, rating_interval, rating_words
from games import GAME_NAMES, game_class, game_kind
from games.kind import VERDICT_CHANCES
from games.records import RecordNotes
from tui.app.session import GameSetup, level_summary, record_player
from tui.app.widgets.engine_panel import EnginePanel, why_figures_differ

from app_pilot import make_app, ready, wait_for


# -- the position in words ---------------------------------------------------------------------

@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_words_change_where_the_winning_chance_says(game: str) -> None:
    scores = game_kind(game).scores
    bands = scores.bands()
    assert [words for _, words in bands] == [words for _, words in VERDICT_CHANCES]
    for (bound, _), (chance, _) in zip(bands, VERDICT_CHANCES):
        assert scores.chance(bound) == pytest.approx(chance)  # each bound is its chance in the game's scores
    assert [bound for bound, _ in bands] == sorted(bound for bound, _ in bands)
    words = [scores.verdict(bound * 0.99, None, "A", "B") for bound, _ in bands]
    assert words == ["equal", "A is slightly better", "A is better"]
    assert scores.verdict(-bands[-1][0] * 1.01, None, "A", "B") == "B is winning"
    assert scores.verdict(0, None, "A", "B") == "equal"


def test_the_words_in_each_games_unit() -> None:
    chess, checkers = game_kind("chess").scores, game_kind("checkers").scores
    assert chess.verdict(30, None, "White", "Black") == "equal"  # 0.3 pawns
    assert chess.verdict(-150, None, "White", "Black") == "Black is better"  # 1.5 pawns
    assert chess.verdict(400, None, "White", "Black") == "White is winning"
    assert chess.verdict(0, 3, "White", "Black") == "White mates in 3"
    assert chess.verdict(0, -2, "White", "Black") == "Black mates in 2"
    assert checkers.verdict(0, 4, "Black", "White") == "Black wins in 4"  # no mate in checkers
    assert checkers.verdict(200, None, "Black", "White") == "Black is winning"  # two men
    # the same score reads by each game's worth: two pawns up is better, two men up winning
    assert (chess.verdict(200, None, "A", "B"), checkers.verdict(200, None, "A", "B")) == ("A is better", "A is winning")
    assert math.isclose(chess.bands()[0][0], 272 * math.log(0.54 / 0.46))


def test_the_panel_shows_a_players_words_and_the_numbers_when_advanced() -> None:
    panel = EnginePanel(1, "Black", "pvs:nodes=3000", scores=game_kind("chess").scores, first_name="White",
                        second_name="Black", label="Club ~1450")
    panel.stats = SearchStats(nodes=123456, evals=1000, prunes=500, depth=9, time_s=1.5, best="Nf6",
                              score=-400, pv=["Nf6", "Nc3"])
    rows, pv = panel._figures()
    labels = [row[0] for row in rows]
    assert labels == ["", "eval", "best", "looked"] and pv == "Nf6 Nc3"
    assert str(rows[0][1]) == "White is winning" and rows[1][1] == "+4.0 pawns"  # Black's -400 is White's +4
    assert rows[3][1] == "9 plies ahead (1.5 s)"
    assert "Club ~1450" in str(panel.border_title)
    panel.advanced = True
    rows, _ = panel._figures()
    assert {"nodes", "evals", "tt hits"} <= {row[0] for row in rows}


# -- the app --------------------------------------------------------------------------------------

async def club_replied(pilot):
    """The game screen of a chess game against Club, after 1. e4 and its reply."""
    screen = await ready(pilot)
    screen.move_input.value = "e4"
    await pilot.press("enter")
    await wait_for(pilot, lambda: len(screen.moves) == 2 and screen.panel(1).stats is not None, "the reply")
    return screen


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_panel_reads_as_words_and_the_key_shows_the_numbers(size: tuple[int, int]) -> None:
    club = level_named("chess", "club")
    app = make_app("chess", "human", club.spec)
    async with app.run_test(size=size) as pilot:
        screen = await club_replied(pilot)
        panel = screen.panel(1)
        assert not panel.advanced and "Club ~1450" in str(panel.border_title)
        text = str(panel.query_one(".figures").render())
        assert panel.verdict in text and panel.eval_text in text and "plies ahead" in text
        assert not any(line.endswith("…") for line in text.splitlines()[:4])  # the words fit, at 80 columns too
        assert "nodes" not in text and "prunes" not in text and "1st cut" not in text
        await pilot.press("ctrl+v")
        assert panel.advanced
        text = str(panel.query_one(".figures").render())
        assert "nodes" in text and "prunes" in text and "1st cut" in text
        assert "search's numbers" in screen.message_text
        assert "Advanced: the search's numbers" in [command.title for command in app.get_system_commands(screen)]
        await pilot.press("ctrl+v")
        assert not panel.advanced and "nodes" not in str(panel.query_one(".figures").render())
        # the status line names the level
        assert "Club ~1450" in str(screen.sub_title)


async def test_two_engines_show_the_numbers_from_the_start() -> None:
    app = make_app("quixo", "random", "alphabeta:depth=1")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        assert screen.advanced and all(screen.panel(side).advanced for side in (0, 1))


async def test_a_saved_pgn_names_the_level_and_keeps_its_spec_in_a_tag(tmp_path: Path) -> None:
    from tui.app.screens.files import SaveDialog
    from textual.widgets import Input

    club = level_named("chess", "club")
    app = make_app("chess", "human", club.spec)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await club_replied(pilot)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, SaveDialog), "the save dialog")
        app.screen.query_one(Input).value = str(tmp_path / "game.pgn")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is screen, "the save")
    read = chess.pgn.read_game(io.StringIO((tmp_path / "game.pgn").read_text()))
    assert read is not None
    assert read.headers["Black"] == f"Club (~{round(club.elo, -1)})" == record_player("chess", club.spec)
    assert read.headers["BlackEngine"] == club.spec and "WhiteEngine" not in read.headers
    assert read.headers["White"] == "human"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_records_engine_tag_follows_its_player_tags(game: str) -> None:
    level = level_named(game, "casual")
    setup = GameSetup.checked(game, level.name, "human")
    records = game_kind(game).records
    assert setup.record_tags(records.player_tags) == {f"{records.player_tags[0]}Engine": level.spec}
    if level.elo is not None:  # a plug-in's levels may be unrated (ratings are optional)
        assert setup.record_name(0) == f"Casual (~{round(level.elo, -1)})"
    text = records.text(game_class(game)(), first_player=setup.record_name(0), second_player=setup.record_name(1),
                        notes=RecordNotes(tags=setup.record_tags(records.player_tags)))
    assert setup.record_name(0) in text and level.spec in text


def test_an_opened_game_continues_against_the_middle_level_by_name() -> None:
    from tui.cli.play import DEFAULT_OPPONENT
    from tui.app.screens.analysis import level_name

    for game in GAME_NAMES:
        setup = GameSetup.checked(game, "human", DEFAULT_OPPONENT)
        assert level_name(game, setup.players[1]) == "Club"


# -- ratings ----------------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAME_NAMES)
def test_ratings_read_in_words_from_the_measured_table(game: str) -> None:
    plan = game_kind(game).levels
    for level, (elo, margin) in zip(levels_for(game), plan.ratings):
        assert rating_words(game, level) == f"about {round(elo, -1)} ({plan.scale_words})"
        assert about(level) == f"about {round(elo, -1)}" and "±" not in rating_words(game, level)
        assert rating_interval(game, level) == f"{elo} ± {margin} ({plan.scale}, 95% interval)"
        assert rating_words(game, level) in level_summary(game, level.spec)
    assert plan.scale_words == ("Stockfish's scale" if game == "chess" else "random play = 0")


async def test_the_start_screen_and_the_help_say_the_ratings() -> None:
    from textual.widgets import Static
    from tui.app.app import TuiGamesApp
    from tui.app.screens.help import HelpDialog
    from tui.app.screens.start import StartScreen

    app = TuiGamesApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        club = level_named(app.screen.game, "club")
        said = str(app.screen.query_one("#opponent-about", Static).render())
        assert rating_words(app.screen.game, club) in said and "±" not in said
        app.push_screen(HelpDialog("chess"))
        await wait_for(pilot, lambda: isinstance(app.screen, HelpDialog) and app.screen.query("Static"), "the help")
        text = str(app.screen.query_one("Static").render())
        chess_club = level_named("chess", "club")
        assert f"{about(chess_club)} (measured {chess_club.elo} ± {chess_club.margin})" in text
        assert "(Stockfish's scale; measured in games, ± the 95% interval" in text


# -- a hint beside the panel -------------------------------------------------------------------

def test_why_a_hints_figure_is_not_the_panels() -> None:
    assert why_figures_differ(5, 9) == "the hint looked deeper (depth 9 vs 5)"
    assert why_figures_differ(9, 5, "before Nf6") == \
        "the panel's search was before Nf6; the hint looked less deep (depth 5 vs 9)"
    assert "both looked 6 plies deep" in why_figures_differ(6, 6)


async def test_a_hint_says_why_its_figure_differs_from_the_panels() -> None:
    club = level_named("chess", "club")
    app = make_app("chess", "human", club.spec)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await club_replied(pilot)
        panel = screen.panel(1)
        depth = panel.stats.depth
        screen.aids.hint_found(tuple(screen.moves), screen.game.legal_move_texts()[0],
                               SearchStats(score=390, depth=depth + 4, best="d4", pv=["d4"]))
        said = screen.message_text
        assert f"the panel says {panel.eval_text}" in said
        assert f"the hint looked deeper (depth {depth + 4} vs {depth})" in said
        assert f"before {screen.moves[1]}" in said


# -- the small ones --------------------------------------------------------------------------

async def test_the_othello_puzzle_hint_says_its_cost_first_and_never_plays_the_move() -> None:
    from engines.puzzles import Puzzle
    from tui.app.app import TuiGamesApp
    from tui.app.screens.puzzles import PuzzleScreen

    start = game_class("othello")().to_text()
    puzzle = Puzzle("o-1", start, None, ("d3",), 1500)
    app = TuiGamesApp(puzzles=("othello", [puzzle], "one", 1))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PuzzleScreen), "the puzzles")
        screen = app.screen
        await wait_for(pilot, lambda: screen.entry.game is not None, "the puzzle's position")
        await pilot.press("ctrl+f")
        message = str(screen.query_one("#puzzle-message").render())
        assert "counts this puzzle as not solved" in message and not screen.hinted
        await pilot.press("ctrl+f")
        await pilot.pause()
        assert screen.hinted and not screen.done and screen.step == 0
        assert screen.position.to_text() == start  # not played
        cells = screen.board.painter.move_squares(screen.position, screen.position.parse_move("d3"))
        assert screen.board.selected == cells[0]
        assert "hint: the move is on" in str(screen.query_one("#puzzle-message").render())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_quixo_move_keeps_its_move_list_column(size: tuple[int, int]) -> None:
    from textual.widgets import Static
    from tui.app.widgets.move_list import MoveList

    app = make_app("quixo", "human", "human")
    async with app.run_test(size=size) as pilot:
        screen = await ready(pilot)
        for move in ("0 0 bottom", "4 4 top", "2 0 bottom", "1 4 right"):
            screen.move_input.value = move
            await pilot.press("enter")
        await wait_for(pilot, lambda: len(screen.moves) == 4, "the moves")
        listed = screen.query_one(MoveList)
        text = screen.query_one("#move-text", Static)
        lines = str(text.render()).splitlines()
        header, rows = lines[0], [line for line in lines[1:] if line.strip()]
        second = header.index(screen.sides[1], len(screen.sides[0]) + 5)
        assert len(rows) == 2
        for row, (first, reply) in zip(rows, (screen.moves[0:2], screen.moves[2:4])):
            assert row.index(first) < second and row.index(reply, row.index(first) + len(first)) == second
            assert len(row.rstrip()) <= listed.scrollable_content_region.width


async def test_the_reports_header_fits_80_columns() -> None:
    from textual.widgets import Label
    from engines.review import GameReport, PositionScore
    from tui.app.app import TuiGamesApp
    from tui.app.screens.report import ReportDialog

    moves = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Nc3", "Nxh5"]
    scores = [PositionScore(0, 0.5)] * 6 + [PositionScore(0, 1.0), PositionScore(0, 0.9), PositionScore(0, 0.1)]
    report = GameReport.build("chess", 0, moves, scores, 4)
    app = TuiGamesApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(ReportDialog(report, ("White", "Black"), 1, 0))
        await wait_for(pilot, lambda: isinstance(app.screen, ReportDialog) and app.screen.query(Label), "the report")
        await pilot.pause()
        for label in app.screen.query(Label):
            text = str(label.render())
            shown = label.content_region
            assert shown.right <= 80 and shown.width > 0
            lines = [line for line in text.splitlines()]
            wrapped = sum(max(1, -(-len(line) // shown.width)) for line in lines)
            assert shown.height >= wrapped, (text, shown)  # every word on screen, none cut
