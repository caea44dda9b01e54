"""The app's search tree explorer and stepper, driven by keys as a student would."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static, Tree

from games import GAME_NAMES, new_game
from tui.app.screens.game import GameScreen
from tui.app.screens.tree import TreeScreen, tree_spec
from tui.app.widgets.board import BoardView

from app_pilot import game_screen, make_app, ready, type_move, wait_for


def _text(screen: TreeScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def _open_tree(pilot) -> TreeScreen:
    await pilot.press("ctrl+a")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, TreeScreen) and pilot.app.screen.recorded is not None,
                   "the recorded tree")
    await pilot.pause()
    return pilot.app.screen


def _cursor(screen: TreeScreen):
    node = screen.query_one(Tree).cursor_node
    return node.data if node is not None else None


async def test_the_tree_behind_an_engine_move_its_pv_cutoffs_and_steps() -> None:
    app = make_app("quixo", "human", "alphabeta:depth=2")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await type_move(pilot, "0 0 bottom")
        await wait_for(pilot, lambda: len(screen.moves) == 2, "the engine's reply")
        reply = screen.moves[1]
        tree_screen = await _open_tree(pilot)
        assert "alphabeta:depth=2" in _text(tree_screen, "#tree-status")
        assert f"best {reply}" in _text(tree_screen, "#tree-status")
        root = tree_screen.recorded.root
        # the position searched is the one before the engine's reply
        before = new_game("quixo")
        before.play_text("0 0 bottom")
        assert tree_screen.game.to_text() == before.to_text()
        await wait_for(pilot, lambda: _cursor(tree_screen) is not None and _cursor(tree_screen).node is root,
                       "the root selected")
        assert "(the root)" in _text(tree_screen, "#tree-details")
        await pilot.press("p")
        await wait_for(pilot, lambda: _cursor(tree_screen).node is not root, "the first PV move")
        first = _cursor(tree_screen).node
        assert first.value == -root.value
        assert f"line   {reply}" in _text(tree_screen, "#tree-details")
        board = tree_screen.query_one("#tree-board", BoardView)
        assert board.game.move_stack[-1] == first.move  # the board shows the node's position
        await pilot.press("c")
        await wait_for(pilot, lambda: _cursor(tree_screen).node.end == "cutoff", "the next cutoff")
        assert "cutoff by move" in _text(tree_screen, "#tree-details")
        # step mode: enter the root, then its first child; a cut is marked
        await pilot.press("s")
        await wait_for(pilot, lambda: tree_screen.trail is not None, "step mode")
        assert "step 1/" in _text(tree_screen, "#tree-step") and "enter the root" in _text(tree_screen, "#tree-step")
        await pilot.press("right", "right", "right", "left")  # fast: the stepper's own moves are not the player's
        await pilot.pause()
        assert tree_screen.trail is not None and tree_screen.step_index == 2
        await pilot.press("right")
        await pilot.press("left", "left")
        assert tree_screen.step_index == 1
        await pilot.press("right")
        assert tree_screen.step_index == 2
        await pilot.press("left")
        assert tree_screen.step_index == 1 and "with α -inf  β inf" in _text(tree_screen, "#tree-step")
        await pilot.press("c")
        await pilot.pause()
        assert tree_screen.trail[tree_screen.step_index].cut
        assert "✂ CUT" in _text(tree_screen, "#tree-step") and "not searched" in _text(tree_screen, "#tree-step")
        await pilot.press("s")
        assert tree_screen.trail is None and not tree_screen.query_one("#tree-step").display
        await pilot.press("s", "right")
        await pilot.press("down", "down")  # moving in the tree leaves step mode: the two never disagree
        await wait_for(pilot, lambda: tree_screen.trail is None, "step mode off")
        assert "you moved in the tree" in _text(tree_screen, "#tree-status")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen back")
        assert game_screen(app).moves == ["0 0 bottom", reply]


@pytest.mark.parametrize("game", GAME_NAMES)
async def test_every_game_opens_a_tree_of_the_position_shown_and_steps(game: str) -> None:
    app = make_app(game, "human", "human")
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        tree_screen = await _open_tree(pilot)
        assert tree_screen.spec == "alphabeta:depth=3"
        assert tree_screen.recorded.complete and tree_screen.recorded.root.depth == 3
        await pilot.press("s")
        await wait_for(pilot, lambda: tree_screen.trail is not None, "step mode")
        for _ in range(3):
            await pilot.press("right")
        step = tree_screen.trail[3]
        assert not step.leave and len(step.line) == step.node.ply == 3  # down the first line to the horizon
        board = tree_screen.query_one("#tree-board", BoardView)
        assert list(board.game.move_stack[-len(step.line):]) == [node.move for node in step.line]


async def test_the_engine_box_records_another_engine_and_refuses_a_bad_spec() -> None:
    app = make_app("quixo", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        tree_screen = await _open_tree(pilot)
        first = tree_screen.recorded
        await pilot.press("e")
        await pilot.pause()
        box = tree_screen.query_one("#tree-engine", Input)
        assert tree_screen.focused is box
        box.value = "minimax:dep"
        await pilot.press("enter")
        await wait_for(pilot, lambda: "cannot record" in _text(tree_screen, "#tree-status"), "the refusal")
        assert len(_text(tree_screen, "#tree-status").splitlines()) <= 2
        assert tree_screen.recorded is first and isinstance(app.screen, TreeScreen)
        assert tree_screen.focused is box and box.value == "minimax:dep"  # kept to be mended
        box.value = "random"
        await pilot.press("enter")
        await wait_for(pilot, lambda: "alpha-beta family" in _text(tree_screen, "#tree-status"), "the refusal")
        await pilot.press("escape")  # the box goes back to the tree's own spec
        assert box.value == "alphabeta:depth=3" and tree_screen.focused is not box
        await pilot.press("e")
        await pilot.pause()
        box.value = "minimax:depth=2"
        await pilot.press("enter")
        await wait_for(pilot, lambda: tree_screen.recorded is not first, "the new recording")
        assert tree_screen.spec == "minimax:depth=2"
        assert tree_screen.recorded.size() == 1 + 44 + sum(len(child.children) for child in tree_screen.recorded.root.children)
        # the details follow the new tree even though the cursor stayed on the root's line
        root = tree_screen.recorded.root
        await wait_for(pilot, lambda: f"value  {root.value}," in _text(tree_screen, "#tree-details"),
                       "the new root's details")
        await pilot.press("escape")  # from the tree: back to the game
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen back")


async def test_the_tree_waits_for_paused_clocks_and_says_so() -> None:
    from tui.app.app import TuiGamesApp
    from tui.app.session import GameSetup

    app = TuiGamesApp(GameSetup.checked("quixo", "human", "human", clock="5+0"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await type_move(pilot, "0 0 bottom")
        await type_move(pilot, screen.game.legal_move_texts()[0])  # both have moved: a clock runs
        await wait_for(pilot, lambda: screen.clocks.running is not None, "a running clock")
        await pilot.press("ctrl+a")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert "pause them first" in screen.message_text


def test_a_players_spec_is_recorded_without_its_random_moves_and_helpers() -> None:
    assert tree_spec("pvs:time=1,blunder=0.2,jitter=30") == "pvs:time=1,jitter=30"
    assert tree_spec("pvs:workers=2") == "pvs"
    assert tree_spec("not a spec!") == "not a spec!"
