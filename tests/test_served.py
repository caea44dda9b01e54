"""What an app served to a browser may do (:mod:`tui.served`): its files stay in the served folder,
and no engine that runs another program starts unless the server allows it.

The app is given the limits as ``tui-games serve`` gives them, in its environment (monkeypatched
here).  A fake UCI "engine" that would leave a file behind if it ever ran proves that none did.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.widgets import Input

from engines import SpecError, create_engine
from engines.stockfish import NO_PROGRAMS_VARIABLE
from games import game_class
from tui.app.screens.files import OpenDialog, SaveDialog
from tui.app.session import SetupError, resolve_player
from tui.app.widgets.path_input import complete_path
from tui.served import FILES_VARIABLE, OutsideError, confined, program_refusal, served_environment

from app_pilot import make_app, wait_for


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A served app's environment: files in ``tmp_path/served``, no programs."""
    served = tmp_path / "served"
    served.mkdir()
    monkeypatch.setenv(FILES_VARIABLE, str(served))
    monkeypatch.setenv(NO_PROGRAMS_VARIABLE, "1")
    monkeypatch.chdir(served)
    return served.resolve()


@pytest.fixture
def program(tmp_path: Path) -> tuple[str, Path]:
    """A program that leaves ``ran`` behind if it is ever started, and that file."""
    ran = tmp_path / "ran"
    script = tmp_path / "engine.sh"
    script.write_text(f"#!/bin/sh\ntouch {ran}\n")
    script.chmod(0o755)
    return str(script), ran


def test_paths_outside_the_served_folder_are_refused(folder: Path, tmp_path: Path) -> None:
    (folder / "games").mkdir()
    assert confined("a.pgn") == folder / "a.pgn"
    assert confined("games/../b.pgn") == folder / "b.pgn"
    assert confined(str(folder / "games" / "c.pgn")) == folder / "games" / "c.pgn"
    (tmp_path / "secret").write_text("x")
    (folder / "link").symlink_to(tmp_path / "secret")
    (folder / "dangling").symlink_to(tmp_path / "not-yet")
    (folder / "out").symlink_to(tmp_path)
    for outside in ("../secret", "/etc/passwd", "~/.bashrc", "link", "dangling", "out/secret", "games/../../x"):
        with pytest.raises(OutsideError) as refused:
            confined(outside)
        assert "outside" in str(refused.value) and "\n" not in str(refused.value)
    assert complete_path("../")[1] == []  # nothing outside is even listed
    (folder / "mine.pgn").write_text("")
    assert complete_path("mi") == ("mine.pgn", ["mine.pgn"])


def test_paths_are_the_users_own_outside_a_served_app(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(FILES_VARIABLE, raising=False)
    assert confined("/etc/passwd") == Path("/etc/passwd")
    assert confined("~/x.pgn") == Path("~/x.pgn").expanduser()


def test_engines_that_run_a_program_are_refused_before_it_starts(folder: Path, program: tuple[str, Path]) -> None:
    path, ran = program
    for spec in (f"uci:path={path}", f"stockfish:path={path}", "stockfish", f"UCI:path={path},time=0.1"):
        refusal = program_refusal(spec)
        assert refusal is not None and "--allow-programs" in refusal, spec
        with pytest.raises(SetupError) as refused:
            resolve_player(spec, "chess")
        assert "runs another program" in str(refused.value) and "\n" not in str(refused.value)
        with pytest.raises(SpecError):  # the engine itself refuses too (a lab run, the search process)
            create_engine(spec, game_class("chess"))
    assert program_refusal("pvs:time=0.1") is None
    assert resolve_player("alphabeta:depth=1", "chess") == ("alphabeta:depth=1", None)
    assert not ran.exists(), "the program ran"


def test_allow_programs_leaves_the_engines_alone(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(NO_PROGRAMS_VARIABLE, raising=False)
    assert program_refusal("uci:path=/bin/true") is None
    assert served_environment(tmp_path, allow_programs=True) == {FILES_VARIABLE: str(tmp_path)}
    assert served_environment(tmp_path, allow_programs=False)[NO_PROGRAMS_VARIABLE] == "1"


async def test_a_served_apps_dialogs_stay_in_its_folder(folder: Path, tmp_path: Path) -> None:
    app = make_app("chess", "human", "human")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.screen.query("#move-input"), "the game screen")
        await pilot.press("f8")
        assert isinstance(app.screen, SaveDialog)
        for outside in (str(tmp_path / "escape.pgn"), "../escape.pgn"):
            app.screen.query_one(Input).value = outside
            await pilot.press("enter")
            assert isinstance(app.screen, SaveDialog)
            said = str(app.screen.query_one("#save-error").render())
            assert "outside" in said and str(folder) in said
        assert not (tmp_path / "escape.pgn").exists()
        app.screen.query_one(Input).value = "kept.pgn"
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, SaveDialog), "the save")
        assert (folder / "kept.pgn").exists()
        (tmp_path / "theirs.pgn").write_text((folder / "kept.pgn").read_text())
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, OpenDialog), "the open dialog")
        app.screen.query_one("#open-path", Input).value = str(tmp_path / "theirs.pgn")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "outside" in str(app.screen.query_one("#open-error").render()),
                       "the refusal")
    assert os.listdir(tmp_path / "served") == ["kept.pgn"]
