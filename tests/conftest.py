"""Shared fixtures and settings for the whole suite.

- Hypothesis runs without per-example deadlines: property tests choose their
  example counts, and a loaded CI machine must not turn a slow example into a
  failure.  ``HYPOTHESIS_PROFILE=thorough`` runs ten times the examples.
- Othello's compiled endgame solver (numba) is off (``TUI_GAMES_COMPILED=off``, for
  the programs the tests start too): which solver serves must not depend on when
  a compilation in the background finishes; tests/test_othello_compiled.py asks
  for it by name.
- ``no_stockfish`` hides every Stockfish binary (environment, PATH, Debian's path).
- Tests marked ``slow`` (several seconds each) run in CI; ``pytest -m "not slow"``
  leaves them out for a quick loop.
- Ctrl-C reaches the programs the tests start even when the suite itself was
  started in the background (``cmd &`` in a script ignores SIGINT, and an
  ignored signal stays ignored in every program started below it): the tests
  that interrupt a run are about the run, not about how the suite was started.

Searches in tests are limited by depth or a node budget, never by wall-clock
time, unless the clock itself is what a test is about.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from hypothesis import settings

import engines.stockfish
from engines import notices
from engines.stockfish import ENVIRONMENT_VARIABLE

settings.register_profile("default", deadline=None)
settings.register_profile("thorough", deadline=None, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
os.environ["TUI_GAMES_COMPILED"] = "off"

if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    # A handled signal is reset to its default in a program started below, an ignored one is not.
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture
def no_stockfish(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No Stockfish binary anywhere the engine looks."""
    monkeypatch.delenv(ENVIRONMENT_VARIABLE, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(engines.stockfish, "DEBIAN_PATH", str(tmp_path / "no-stockfish"))


@pytest.fixture(autouse=True)
def no_waiting_notices() -> None:
    """Notices said earlier in this process with no one listening (engines.notices: a spec's
    clamp, said by another test that parsed specs) are not this test's: they would reach the
    first listener, the next command line run, as extra lines on its stderr."""
    notices.listen(lambda text: None)()


@pytest.fixture(autouse=True)
def own_settings(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test keeps its settings (tui.settings) and its data (puzzle sets, endgame databases) in
    directories of its own, never the user's: a database the user built must not change a search."""
    folder = tmp_path_factory.mktemp("config")
    monkeypatch.setenv("TUI_GAMES_CONFIG_DIR", str(folder))
    monkeypatch.setenv("TUI_GAMES_DATA_DIR", str(folder / "data"))
    return folder
