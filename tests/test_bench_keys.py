"""``tui-games bench keys``: the app in a pseudo-terminal, key-to-echo latency with and without a search."""

from __future__ import annotations

import math
import os
import re

import pytest

import tui.bench.keys as bench
from cli_run import assert_usage_error, run

#: Why the smoke run cannot run here (``None``: it can).
NO_PTY = bench.pty_reason()

#: What the app wrote when ``z`` was typed after ``q`` (Textual 8, xterm-256color): the
#: box's line with the value, then the cursor's styled cell, then the padding.
ECHO_SAMPLE = (
    b"\x1b[39;9H\x1b[38;5;253;48;5;235mqz\x1b[0m\x1b[38;5;233;48;5;253m \x1b[0m"
    b"\x1b[38;5;253;48;5;235m          \x1b[0m\x1b[39;120H\x1b[39;12H"
    b"\x1b[2;63H\x1b[38;5;246;48;5;233mnodes  \x1b[0m\x1b[38;5;246;48;5;233m \x1b[0m"
    b"\x1b[38;5;253;48;5;233m               33.3k\x1b[0m"
)


def test_echo_pattern_finds_the_whole_value_only() -> None:
    text = bench.screen_text(ECHO_SAMPLE)
    assert bench.echo_pattern("qz").search(text)
    assert not bench.echo_pattern("q").search(text)  # a shorter value is not echoed by a longer one
    assert not bench.echo_pattern("z").search(text)
    assert not bench.echo_pattern("qzj").search(text)


def test_screen_text_reads_the_panel_and_drops_escapes() -> None:
    text = bench.screen_text(ECHO_SAMPLE + b"\x1b]0;title\x07\x1b[?2026l\x1b=")
    assert "\x1b" not in text and "title" not in text
    assert re.search(r"nodes[\x00 ]+33\.3k", text)


def test_typed_letters_start_no_move() -> None:
    """No chess move starts with a typed letter (case aside); checkers and Quixo moves start with digits."""
    assert len(set(bench.TYPED)) == len(bench.TYPED)
    assert not set(bench.TYPED) & set("abcdefgh" + "kqrbno")


@pytest.mark.parametrize("values,share,expected", [
    ([5.0], 0.95, 5.0),
    (list(range(1, 21)), 0.95, 19),
    (list(range(1, 101)), 0.95, 95),
    (list(range(100, 0, -1)), 0.5, 50),
    ([3.0, 1.0, 2.0], 0.5, 2.0),
])
def test_percentile_is_nearest_rank(values: list[float], share: float, expected: float) -> None:
    assert bench.percentile(values, share) == expected


def test_presses_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    assert_usage_error(capsys, ["bench", "keys", "--presses", "0"], "--presses")


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its parent's reaper counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


@pytest.mark.slow
@pytest.mark.xdist_group("processes")  # it kills the app's process group: see test_signals.py
@pytest.mark.skipif(NO_PTY is not None, reason=f"bench keys needs a pseudo-terminal: {NO_PTY}")
def test_quick_run_prints_numbers_and_leaves_no_process(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The smoke run (one game, 20 presses, about 10 s): no timing is asserted, only that it measured."""
    runs: list[bench.KeyRun] = []
    measure = bench.measure_keys

    def recorded(*args: object, **kwargs: object) -> bench.KeyRun:
        result = measure(*args, **kwargs)  # type: ignore[arg-type]
        runs.append(result)
        return result

    monkeypatch.setattr(bench, "measure_keys", recorded)
    code, out, err = run(capsys, "bench", "keys", "--quick")
    assert code == 0, out + err

    assert [(r.game, r.mode) for r in runs] == [("chess", "search"), ("chess", "coach"), ("chess", "idle")]
    for r in runs:
        assert r.error is None and r.missed == 0
        assert len(r.latencies) == bench.QUICK_PRESSES
        assert all(0 < ms < bench.ECHO_TIMEOUT * 1000 and math.isfinite(ms) for ms in r.latencies)
        # Quit with ctrl+q: the app and everything it started exited by themselves.
        assert r.exit_status == 0 and r.killed == []
        assert not [pid for pid in r.pids if _alive(pid)]
    searched = runs[0]
    assert searched.engine_busy, f"the panel did not tick: {searched.nodes}"
    assert runs[1].engine_busy, f"the analysis panel did not tick: {runs[1].nodes}"
    if os.path.isdir("/proc"):
        assert len(searched.pids) > 1  # the search process was seen, and is gone

    number = r"\d+\.\d"
    for label in ("with search", "analysis + clock", "without search"):
        row = next(line for line in out.splitlines() if label in line)
        cells = [cell.strip() for cell in row.split("│")]
        assert cells[3] == str(bench.QUICK_PRESSES)
        assert all(re.fullmatch(number, cell) for cell in cells[4:7]), row
    assert re.search(r"verdict: p95 while an engine searches .* target (met|missed)", out)
