"""The conformance kit over games where a side moves again: the Kalah example and the take-two
game of the tests, each registered as an installed plug-in is (as tests/test_plugins.py does)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Iterator

import pytest

import games
from games import registry
from tui.conformance import GameConformance

from extra_moves import TakeTwo
from test_plugins import write_dist

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "kalah"
sys.path.insert(0, str(EXAMPLE))

from kalah import Kalah  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def registered(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Kalah and take-two registered for this module's tests (the app's list of games too)."""
    site = tmp_path_factory.mktemp("site")
    shutil.copytree(EXAMPLE / "kalah", site / "kalah")
    write_dist(site, "tui-games-kalah", {"kalah": "kalah.game:Kalah"})
    write_dist(site, "take-two", {"take-two": "extra_moves:TakeTwo"})
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(site))
        patch.delenv(registry.WARNED_VARIABLE, raising=False)
        registry.reset()
        import tui.app.session

        patch.setattr(tui.app.session, "GAME_NAMES", games.GAME_NAMES)
        assert games.game_class("kalah") is Kalah and games.game_class("take-two") is TakeTwo
        yield
    registry.reset()


class TestKalahKit(GameConformance):
    game = Kalah


class TestTakeTwoKit(GameConformance):
    game = TakeTwo


async def test_the_help_dialog_is_titled_by_the_kinds_title() -> None:
    from textual.widgets import Static

    from tui.app.screens.help import HelpDialog

    from app_pilot import make_app, ready

    app = make_app("take-two", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await pilot.press("f1")
        assert isinstance(app.screen, HelpDialog)
        text = str(app.screen.query_one(Static).render())
        assert text.startswith("Take Two: making moves"), text[:80]
