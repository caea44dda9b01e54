"""The snapshot (pytest-textual-snapshot) of the tree explorer's stepper in the minimax view, at 120x40.

The tree is alpha-beta's to depth 2 with a fixed seed on a small position, so it is the same in every
run; ``pytest tests/test_snapshots_tree.py --snapshot-update`` rewrites it after a deliberate change.
"""

from __future__ import annotations

from textual.widgets import Input

from games import GAME_NAMES, game_kind, new_game
from tui.app.screens.tree import TreeScreen

from app_pilot import make_app, ready, wait_for

#: The game drawn: the first whose samples give a small tree to step through.
GAME = next(name for name in GAME_NAMES if game_kind(name).samples.small_tree is not None)


def test_tree_stepper_minimax_view(snap_compare) -> None:
    app = make_app(GAME, "human", "human")
    app.animation_level = "none"
    position, moves, _ = game_kind(GAME).samples.small_tree

    async def step(pilot) -> None:
        await ready(pilot)
        game = new_game(GAME, position)
        game.play_all(moves)
        screen = TreeScreen(game, "alphabeta:depth=2,seed=0")
        pilot.app.push_screen(screen)
        await wait_for(pilot, lambda: screen.recorded is not None and screen.recorded.root.depth in screen.minimax,
                       "the tree and plain minimax's count")
        await pilot.press("v", "s", "c")
        await wait_for(pilot, lambda: screen.trail is not None and screen.trail[screen.step_index].cut, "a cut")
        for box in pilot.app.query(Input):
            box.cursor_blink = False
        await pilot.pause()

    assert snap_compare(app, terminal_size=(120, 40), run_before=step)
