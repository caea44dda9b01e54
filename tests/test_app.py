"""The Textual app, driven with Pilot: typed moves, engine replies, the live panel, AI vs AI, quitting."""

from __future__ import annotations

import os

import pytest
from textual.widgets import Footer, Input, Select, Static

from app_pilot import game_screen, make_app, ready, type_move, wait_for
from games import GAME_NAMES, game_kind
from tui.app.app import TuiGamesApp
from tui.app.screens.dialogs import ConfirmDialog, ResultDialog
from tui.app.screens.files import SaveDialog
from tui.app.screens.help import HelpDialog, MovesDialog
from tui.app.screens.game import GameScreen
from tui.app.screens.start import StartScreen
from tui.app.widgets.board import BoardView
from tui.app.widgets.engine_panel import EnginePanel
from tui.app.widgets.move_list import MoveList

def process_gone(pid: int) -> bool:
    """Whether the process ``pid`` has exited (and been reaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:  # a zombie still answers kill(0): look at its state
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().split(")")[-1].split()[0] == "Z"
    except FileNotFoundError:
        return True


@pytest.mark.parametrize("game", GAME_NAMES)
async def test_a_typed_move_gets_the_engines_reply(game: str) -> None:
    legal = game_kind(game).samples.line[0]
    app = make_app(game, "human", "alphabeta:depth=1")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        assert screen.move_input.has_focus
        await type_move(pilot, legal)
        assert screen.moves[:1] == [legal]
        await wait_for(pilot, lambda: len(screen.moves) == 2, "the engine's reply")
        panel = screen.panel(1)
        assert panel is not None and panel.nodes > 0 and panel.stats["best"] == screen.moves[1]
        assert screen.message_text == f"{screen.sides[1]} played {screen.moves[1]}"
        table = screen.query_one(MoveList)
        assert [str(c) for c in table.get_row_at(0)] == ["1.", legal, screen.moves[1]]
        assert screen.move_input.value == "" and screen.move_input.has_focus
        assert screen.game.legal_move_texts() == screen.board.game.legal_move_texts()


async def test_a_levels_panel_names_the_level_and_another_engine_its_spec() -> None:
    from engines.levels import level_named
    from tui.app.session import rounded

    club = level_named("quixo", "club")
    app = make_app("quixo", "alphabeta:depth=1", club.spec)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        assert screen.panel(1).border_title == f"{screen.sides[1]} · Club {rounded(club)}"
        assert screen.panel(0).border_title == f"{screen.sides[0]} · alphabeta:depth=1"
        assert screen.panel(1).spec == club.spec  # what plays is the level's engine


@pytest.mark.parametrize("game", GAME_NAMES)
async def test_illegal_and_garbage_entries_are_answered_and_play_goes_on(game: str) -> None:
    samples = game_kind(game).samples
    legal, illegal, why = samples.line[0], samples.illegal_move, samples.illegal_reason
    if illegal is None or why is None:
        pytest.skip(f"{game}'s samples give no illegal first move and its answer")
    app = make_app(game, "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await type_move(pilot, illegal)
        assert screen.message_text.startswith("illegal") and why in screen.message_text
        assert "illegal: illegal" not in screen.message_text  # said once
        legal_now = screen.game.legal_move_texts()
        assert any(f"'{m}'" in screen.message_text or f" {m}," in screen.message_text
                   for m in legal_now), "an example of a legal move"
        assert screen.moves == [] and screen.move_input.value == illegal  # kept, to correct it
        for garbage in ("hello!", "[red]x[/red]", "1 2 3 4 5 6"):
            await type_move(pilot, garbage)
            assert screen.message_text.startswith("not a move:"), screen.message_text
            assert garbage in screen.message_text
        await type_move(pilot, legal)
        assert screen.moves == [legal] and screen.message_text == f"you played {legal}"


async def test_suggestions_and_the_list_of_legal_moves() -> None:
    app = make_app("chess", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await pilot.press("n", "f")
        assert screen.move_input._suggestion == "Nf3"
        await pilot.press("right")  # takes the suggestion
        assert screen.move_input.value == "Nf3"
        await pilot.press("enter")
        assert screen.moves == ["Nf3"]
        await pilot.press("ctrl+l")  # the keymap's legal moves (F2 is the start screen's settings)
        await wait_for(pilot, lambda: isinstance(app.screen, MovesDialog), "the list of moves")
        assert app.screen.title_text == "20 legal moves for Black"
        listed = str(app.screen.query_one("#moves-text").render()).split()
        assert sorted(listed) == sorted(screen.game.legal_move_texts())
        await pilot.press("escape")
        await type_move(pilot, "?")
        await wait_for(pilot, lambda: isinstance(app.screen, MovesDialog), "the list again")
        await pilot.press("escape")
        await pilot.press("ctrl+l")
        await wait_for(pilot, lambda: isinstance(app.screen, MovesDialog), "the list by ctrl+l")


@pytest.mark.parametrize("game", GAME_NAMES)
async def test_the_panel_ticks_during_a_search_and_quitting_leaves_no_process(game: str) -> None:
    app = make_app(game, "pvs:time=60", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        panel = screen.panel(0)
        assert panel is not None
        seen: set[int] = set()

        def ticked() -> bool:
            assert screen.engines.request is not None, "the search ended early"
            seen.add(panel.nodes)
            return len({n for n in seen if n > 0}) >= 3

        await wait_for(pilot, ticked, "three different node counts during the search")
        assert "thinking" in str(panel.border_subtitle)
        assert screen.moves == []  # still searching: the counts came while it ran
        pid = app.search_service.pid
        assert pid is not None and not process_gone(pid)
        await pilot.press("ctrl+q")
    assert process_gone(pid)
    assert not app.search_service.alive


@pytest.mark.parametrize("game", GAME_NAMES)
async def test_engines_play_a_short_game_to_its_end(game: str) -> None:
    if game_kind(game).samples.near_end is None:
        pytest.skip(f"{game}'s samples give no position near the end")
    position, spec = game_kind(game).samples.near_end
    app = make_app(game, spec, spec, position)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        screen.engines.delay = 0.0
        await wait_for(pilot, lambda: isinstance(app.screen, ResultDialog)
                       and app.screen.query("#rematch") and app.screen.query_one("#rematch").region.width,
                       "the result dialog")
        outcome = screen.game.outcome()
        assert outcome is not None
        assert app.screen.result in {"1-0", "0-1", "1/2-1/2"}
        for side in (0, 1):
            panel = screen.panel(side)
            assert panel is not None and panel.scores and panel.status == "game over"
        played = list(screen.moves)
        await pilot.click("#rematch")
        # the finished game is not saved: the rematch asks first
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the unsaved-game question")
        assert app.screen.query_one("#cancel").has_focus
        await pilot.click("#discard")
        await wait_for(pilot, lambda: game_screen(app) is not screen, "the rematch")
        rematch = game_screen(app)
        assert rematch.controller.setup == screen.controller.setup and len(app.screen_stack) == 2
        assert len(played) >= 3


async def test_undo_during_a_search_stops_it_and_takes_back_the_pair() -> None:
    app = make_app("quixo", "human", "pvs:time=60")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await type_move(pilot, "0 0 bottom")
        await wait_for(pilot, lambda: screen.panel(1).nodes > 0, "the engine to start")
        pid = app.search_service.pid
        await pilot.press("f4")
        assert screen.engines.request is None and screen.moves == []
        assert screen.panel(1).status == "stopped"
        assert screen.move_input.has_focus
        # Whatever the panel is shown from now on, and for which search: the process serves
        # its requests in order, so once the next search's figures are shown every event
        # of the cancelled one has come (and been dropped).
        panel = screen.panel(1)
        shown: list[int | None] = []
        show_stats = panel.show_stats
        panel.show_stats = lambda stats: (shown.append(screen.engines.request), show_stats(stats))[-1]
        # The same search process serves the next search.
        await type_move(pilot, "4 4 left")
        await wait_for(pilot, lambda: screen.engines.request is not None and bool(shown), "the next search's figures")
        assert shown[0] == screen.engines.request  # nothing of the cancelled search arrived
        assert app.search_service.pid == pid


def settled_paused(screen) -> bool:
    """Nothing can make a move any more: paused, no search running or waiting to start, and
    the panel of the side to move says so (no move comes, however long one waits)."""
    controller = screen.controller
    return (controller.paused and not controller.stepping and screen.engines.request is None and screen.engines.delay_timer is None
            and screen.panel(screen.game.turn).status == "paused")


async def test_pause_step_and_delay_when_engines_play_each_other() -> None:
    app = make_app("checkers", "alphabeta:depth=1", "alphabeta:depth=1")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await pilot.press("f5")  # pause at once
        assert screen.controller.paused and screen.engines.request is None
        moves = len(screen.moves)
        await wait_for(pilot, lambda: settled_paused(screen), "the engine to move paused")
        assert len(screen.moves) == moves
        await pilot.press("f6")
        await wait_for(pilot, lambda: len(screen.moves) == moves + 1, "one stepped move")
        await wait_for(pilot, lambda: settled_paused(screen), "the next engine paused")
        assert len(screen.moves) == moves + 1
        before = screen.engines.delay
        await pilot.press("f7")
        assert screen.engines.delay != before and f"delay {screen.engines.delay:g}s" in str(
            screen.query_one("#status").render())
        screen.engines.delay = 0.0
        await pilot.press("f5")  # resume
        await wait_for(pilot, lambda: len(screen.moves) >= moves + 3, "play to go on")


async def test_save_writes_a_record_and_never_overwrites(tmp_path) -> None:
    app = make_app("chess", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        for move in ("e4", "e5", "Nf3"):
            await type_move(pilot, move)
        await pilot.press("f8")
        assert isinstance(app.screen, SaveDialog)
        target = tmp_path / "game.pgn"
        app.screen.query_one(Input).value = str(target)
        await pilot.press("enter")
        assert not isinstance(app.screen, SaveDialog)
        assert "1. e4 e5 2. Nf3 *" in target.read_text()
        assert screen.message_text == f"saved to {target}"
        await pilot.press("f8")
        app.screen.query_one(Input).value = str(target)
        target.write_text("precious")
        await pilot.press("enter")
        assert isinstance(app.screen, SaveDialog)
        assert "already exists" in str(app.screen.query_one("#save-error").render())
        assert target.read_text() == "precious"
        await pilot.press("escape")
        assert app.screen is screen


async def test_flip_help_and_new_game() -> None:
    app = make_app("checkers", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        board = screen.query_one(BoardView)
        before = board.render().plain
        assert board.flipped  # two humans: Black, the first player, at the bottom
        await pilot.press("f3")
        assert not board.flipped and board.render().plain != before
        await pilot.press("f1")
        assert isinstance(app.screen, HelpDialog)
        # the notation paragraph flows: its hard line ends wrapped raggedly in the dialog
        text = str(app.screen.query_one(Static).render())
        assert "11-15 for a step, 15x24 for a jump" in text
        await pilot.press("escape")
        assert app.screen is screen
        await pilot.press("f9")
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        assert str(app.screen.query_one("#game", Select).value) == "checkers"


async def test_the_start_screen_checks_the_players_and_opens_the_game() -> None:
    app = TuiGamesApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        start = app.screen
        # The form answers a change in its handlers of Changed messages, after the
        # change: wait for the answer (one pause is not always enough on a loaded machine).
        start.query_one("#game", Select).value = "quixo"
        await wait_for(pilot, lambda: "X (first)" in str(start.query_one("#side-label-0").render()),
                       "the form of the game chosen")
        start.query_one("#spec-1", Input).value = "h0:k=0"
        await wait_for(pilot, lambda: start.query_one("#preset-1", Select).value == Select.NULL,
                       "the spec taken (no preset is it)")
        await pilot.click("#start-button")
        await wait_for(pilot, lambda: "k must be >= 1" in str(start.query_one("#start-error").render()),
                       "the refusal")
        assert app.screen is start
        start.query_one("#preset-1", Select).value = "alphabeta:depth=2"
        await wait_for(pilot, lambda: start.query_one("#spec-1", Input).value == "alphabeta:depth=2",
                       "the preset copied into the spec box")
        position = start.query_one("#position", Input)
        position.focus()
        position.value = "XXXX./...../...../...../OOOO. O"
        await pilot.pause()
        # Enter in a field starts as the button does.  (A click here, right after
        # the form changed, could be computed from a layout not yet redrawn on a
        # loaded machine and miss the button: Pilot reports where it landed.)
        await pilot.press("enter")
        screen = await ready(pilot)
        assert screen.controller.setup.game == "quixo"
        assert screen.controller.setup.players == ("human", "alphabeta:depth=2")
        assert screen.controller.setup.position == "XXXX./...../...../...../OOOO. O"
        # O (the engine) is to move and wins at once.
        await wait_for(pilot, lambda: isinstance(app.screen, ResultDialog), "the engine's win")
        assert screen.game.outcome().winner == 1


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("game", GAME_NAMES)
async def test_layout_fits_the_terminal(game: str, size: tuple[int, int]) -> None:
    app = make_app(game, "human", "alphabeta:depth=1")
    async with app.run_test(size=size) as pilot:
        screen = await ready(pilot)
        width, height = size
        parts = [screen.query_one(BoardView), screen.query_one("#status"), screen.query_one("#message"),
                 screen.query_one("#move-input"), screen.query_one(MoveList), screen.query_one(Footer),
                 screen.query_one(EnginePanel)]
        for widget in parts:
            region = widget.region
            assert region.width > 0 and region.height > 0, widget
            assert region.right <= width and region.bottom <= height, (widget, region)
        board = screen.query_one(BoardView)
        painted = board.render()
        lines = painted.plain.splitlines()
        assert len(lines) <= board.content_region.height
        assert max(map(len, lines)) <= board.content_region.width
        plain = painted.plain
        # Coordinates are on screen: the first and last labels on either edge, the edges' names and
        # the cells' own labels (checkers' numbers), as the game's board description gives them.
        description = game_kind(game).board
        layout = description.layout
        cell_labels = [cell.label for row in description.squares(screen.game) for cell in row if cell.label]
        for label in (*layout.column_labels[::len(layout.column_labels) - 1], *cell_labels,
                      *layout.row_labels[::len(layout.row_labels) - 1], *filter(None, layout.edge_captions)):
            assert label in plain, label
        # The engine panel shows all its rows at either size: the figures, the line, the trend, the border.
        panel = screen.query_one(EnginePanel)
        rows, _line = panel._figures()
        assert panel.region.height >= len(rows) + 4
        assert isinstance(screen, GameScreen)


async def test_a_short_terminal_shrinks_the_idle_engines_panel() -> None:
    app = make_app("chess", "alphabeta:depth=1", "pvs:time=60")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await ready(pilot)
        await wait_for(pilot, lambda: screen.engines.request is not None and screen.game.turn == 1
                       and screen.panel(1).nodes > 0, "Black's search")
        idle, thinking = screen.panel(0), screen.panel(1)
        assert idle.compact and not thinking.compact
        assert idle.region.height < thinking.region.height
        assert "best " in str(idle.query_one(".figures").render())
        assert screen.query_one(MoveList).region.height >= 3
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert not idle.compact


def test_the_command_line_opens_the_app(monkeypatch) -> None:
    import tui.cli
    import tui.cli.play

    opened = []
    monkeypatch.setattr(tui.cli.play, "run_app", lambda setup=None, ascii=False, **_: opened.append((setup, ascii)) or 0)
    assert tui.cli.main([]) == 0
    assert tui.cli.main(["--ascii"]) == 0
    assert tui.cli.main(["play", "checkers", "--white", "alphabeta:depth=2", "--ascii"]) == 0
    assert tui.cli.main(["play", "quixo", "--x", "random", "--o", "human",
                         "--position", "...../...../...../...../..... O"]) == 0
    assert opened[:2] == [(None, False), (None, True)]
    checkers, ascii = opened[2]
    assert ascii and checkers.game == "checkers" and checkers.players == ("human", "alphabeta:depth=2")
    quixo = opened[3][0]
    assert quixo.players == ("random", "human") and quixo.position == "...../...../...../...../..... O"
    assert tui.cli.main(["play", "chess", "--clock", "0.1+2", "--analyse"]) == 0
    coached = opened[4][0]
    assert coached.clock is not None and (coached.clock.base, coached.clock.increment) == (6.0, 2.0)
    assert coached.analysis == "pvs"


@pytest.mark.parametrize("argv, needle", [
    (["play", "chess", "--x", "human"], "chess has no side --x"),
    (["play", "quixo", "--white", "human"], "quixo has no side --white"),
    (["play", "chess", "--white", "human", "--first", "pvs"], "--white and --first name the same side"),
    (["play", "checkers", "--second", "alphabeta:dpth=2"], "unknown option 'dpth'"),
    (["play", "quixo", "--first", "pvs:heuristic=pesto"], "unknown quixo heuristic 'pesto'"),
    (["play", "chess", "--position", "not a fen"], "bad FEN"),
    (["play", "chess", "--second", ""], "empty player"),
    (["play", "chess", "--second", "clubb"], "or a level: beginner, casual, club, expert, master, or human"),
    (["play", "go"], "unknown game 'go'"),
    (["play", "chess", "--clock", "5+x"], "bad clock '5+x': expected MIN+INC"),
    (["play", "chess", "--clock", "0+0"], "the minutes must be above 0"),
    (["play", "chess", "--analyse", "human"], "analysis needs an engine spec"),
    (["play", "quixo", "--analyse", "pvs:dpth=3"], "unknown option 'dpth'"),
])
def test_play_refuses_bad_arguments_in_one_line(capsys, monkeypatch, argv, needle) -> None:
    import tui.cli
    import tui.cli.play
    from cli_run import assert_usage_error

    monkeypatch.setattr(tui.cli.play, "run_app", lambda *a, **k: pytest.fail("the app must not open"))
    assert_usage_error(capsys, argv, needle)


async def test_what_is_typed_while_the_engine_thinks_is_suggested_from_the_next_position() -> None:
    app = make_app("chess", "human", "pvs:time=3")  # long enough to type during it on a loaded machine
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await type_move(pilot, "e4")
        assert screen.engines.request is not None
        await pilot.press("N", "f")  # Black's Nf6 must not be offered to White
        assert screen.move_input._suggestion == ""
        await wait_for(pilot, lambda: len(screen.moves) == 2, "the engine's reply")
        assert screen.move_input.value == "Nf" and screen.move_input._suggestion == "Nf3"
