"""The tree explorer steered as a student would: the minimax view, filters, jumps, a path, the count
against plain minimax, the engine list, two trees side by side; and the reason the game's engine
played another move (its jitter, another engine)."""

from __future__ import annotations

from textual.widgets import Input, Select, Static

from engines.tree.export import pv_nodes
from engines.tree.stats import minimax_nodes
from games import new_game
from tui.app.screens.tree import PRESETS, TreeScreen
from tui.app.widgets.search_tree import MARK, SearchTreeView

from app_pilot import make_app, ready, wait_for


def _text(screen: TreeScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


def _labels(widget: SearchTreeView) -> list[str]:
    return [str(item.label) for item in widget.shown.values()]


async def _tree(pilot, screen: TreeScreen) -> TreeScreen:
    pilot.app.push_screen(screen)
    await wait_for(pilot, lambda: screen.recorded is not None and screen.recorded.root.depth in screen.minimax,
                   "the recorded tree and plain minimax's count")
    await pilot.pause()
    return screen


async def test_a_student_steers_the_stepper_in_the_minimax_view() -> None:
    game = new_game("quixo")
    app = make_app("quixo", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        screen = await _tree(pilot, TreeScreen(game, "alphabeta:depth=2,seed=0"))
        root = screen.recorded.root
        assert all(" MAX " not in label for label in _labels(screen.tree_view))
        await pilot.press("v")
        await pilot.pause()
        assert any(" MIN " in label for label in _labels(screen.tree_view))
        assert "for the root player" in _text(screen, "#tree-details")
        await pilot.press("s")
        await wait_for(pilot, lambda: screen.trail is not None, "step mode")
        step = _text(screen, "#tree-step")
        assert "enter MAX the root" in step and "α -inf ≤ v ≤ β inf" in step
        assert f"node 1 of {root.size():,}" in step and f"plain minimax to depth 2: {minimax_nodes(game, 2):,}" in step
        await pilot.press("c")  # alpha-beta to depth 2 cuts at the MIN nodes
        await pilot.pause()
        assert screen.trail[screen.step_index].cut and "(α-cut)" in _text(screen, "#tree-step")
        await pilot.press("a")
        await pilot.pause()
        assert "no re-search after this step" in _text(screen, "#tree-status")
        await pilot.press("3")  # the principal line only
        await pilot.pause()
        assert [step.node for step in screen.trail if not step.leave] == [root, *pv_nodes(root)]
        await pilot.press("3", "slash")
        await pilot.pause()
        box = screen.query_one("#tree-ask", Input)
        assert screen.focused is box
        target = root.children[2]
        box.value = game.format_move(target.move)
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.trail[screen.step_index].node is target, "the step entering it")
        await pilot.press("slash")
        box.value = "9 9 nowhere"
        await pilot.press("enter")
        await pilot.pause()
        assert "cannot find" in _text(screen, "#tree-status") and len(_text(screen, "#tree-status").splitlines()) <= 2
        await pilot.press("escape")  # the box closes, the stepper stays
        assert not box.display and screen.trail is not None


async def test_the_engine_list_and_two_trees_side_by_side() -> None:
    app = make_app("othello", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        screen = await _tree(pilot, TreeScreen(new_game("othello"), "alphabeta:depth=3,seed=0"))
        await pilot.press("m")
        await pilot.pause()
        wanted = next(i for i, (_, spec) in enumerate(PRESETS) if spec == "alphabeta:depth=2")
        await pilot.press(*["down"] * (wanted + 2), "enter")  # past the prompt, to the preset
        await wait_for(pilot, lambda: screen.spec == "alphabeta:depth=2", "the chosen engine's tree")
        assert screen.query_one("#tree-presets", Select).value == "alphabeta:depth=2"
        await pilot.press("x")
        await pilot.pause()
        assert screen.query_one("#tree-ask", Input).value == "minimax:depth=2"
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.other is not None, "the compared tree")
        compared = screen.query_one("#compare-tree", SearchTreeView)
        assert compared.display and compared.roots == [screen.other[1].root]
        only = len(compared.marked)
        assert only == screen.other[1].root.size() - screen.recorded.root.size() > 0  # minimax's extra nodes
        assert f"{MARK} {only:,} it alone visited" in _text(screen, "#compare-title")
        assert not screen.tree_view.marked  # alpha-beta visits nothing minimax does not
        await pilot.press("x")
        assert screen.other is None and not screen.query_one("#compare-box").display


async def test_another_move_of_a_jittered_engine_is_put_down_to_its_jitter() -> None:
    """Issue 38: the game's engine with ``jitter`` is not said to have 'a table warm from its earlier
    moves', neither for its own tree nor after ``e`` recorded another engine."""
    game = new_game("quixo")
    app = make_app("quixo", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        spec = "pvs:depth=1,jitter=40,seed=0"
        screen = TreeScreen(game, spec, played="not the best")
        await _tree(pilot, screen)
        status = _text(screen, "#tree-status")
        assert "jitter=40" in status and "table warm" not in status
        await pilot.press("e")
        screen.query_one("#tree-engine", Input).value = "minimax:depth=1"
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.spec == "minimax:depth=1", "the other engine's tree")
        status = _text(screen, "#tree-status")
        assert "jitter=40" in status and "not the game's engine's" in status and "table warm" not in status
