"""``tui-games bench keys``: key-press-to-echo latency in the app while an engine searches.

The app is measured end to end, as a user meets it: :class:`AppProcess` starts
``python -m tui.cli play GAME ...`` as a subprocess in a pseudo-terminal of
:data:`SIZE` (``TERM=xterm-256color``), reads everything it writes, and types
into it one character at a time.

Three runs per game (:func:`measure_keys`), one after the other on the same
machine (:data:`MODES`):

* *with search* -- ``--first pvs:time=600 --second human``: the engine moves
  first and searches for ten minutes in the app's search process, while the
  move box (which has the focus) takes the keys;
* *analysis + clock* -- ``--first human --second human --clock 10+0
  --analyse``: the analysis engine searches the human's position without end
  while the human's clock runs (redrawn ten times a second);
* *without search* -- ``--first human --second human``: nobody searches.

Each run waits until the screen shows the engine thinking or analysing (or,
without an engine, the human's turn), lets the search get going for :data:`SETTLE`
seconds, types :data:`WARMUP` untimed keys and clears the box, then times
``presses`` keys.  The keys build values out of :data:`TYPED` (letters that
start no legal move, so the box suggests nothing and the value appears nowhere
else on screen); after each key the bench waits until the output written since
the key contains the whole expected value as one run of text (Textual redraws
the box's line: the value, then the cursor's styled cell), escape sequences
counting as separators.  The latency is the time from writing the key to
reading that output.  After every :data:`CLEAR_AFTER` characters ctrl+u
(the box's "delete all to the left") empties the box, untimed.  Keys are
spaced at a human pace: the next key goes :data:`GAP` seconds (uniformly
random, fixed seed) after the previous echo, so each is measured alone.

Meanwhile the bench checks the engine was really searching: the engine panel's
node count keeps changing in the output, no "your turn" status appeared, and
(on Linux) the search process used the CPU.  At the end ctrl+q quits the app;
the bench waits for the app and every process of its process group (the
search process, multiprocessing's resource tracker) to exit, kills whatever is
left after :data:`QUIT_TIMEOUT` seconds and reports it.

The table gives, per game and run, the presses timed, the median, 95th
percentile (nearest rank) and maximum latency in milliseconds, the share of a
core the UI and search processes used, and the verdict against the issue's
target: p95 below :data:`TARGET_P95_MS` while an engine searches.

Needs a pseudo-terminal (POSIX); the CPU shares and process checks read
``/proc`` (Linux) and are left out elsewhere.
"""

from __future__ import annotations

import math
import os
import random
import re
import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator, Pattern, Sequence

from .pty_app import APP_COMMAND, SIZE, AppProcess, cpu_seconds, group_pids, screen_text

__all__ = [
    "TYPED",
    "SIZE",
    "SEARCH_SPEC",
    "TARGET_P95_MS",
    "PRESSES",
    "QUICK_PRESSES",
    "NoPty",
    "pty_reason",
    "screen_text",
    "echo_pattern",
    "percentile",
    "APP_COMMAND",
    "AppProcess",
    "KeyRun",
    "measure_keys",
    "run_keys_bench",
]

#: The characters typed, in order: letters no legal move starts with (chess
#: moves start with a file or a piece letter, checkers and Quixo moves with a
#: digit), all different, so a run of them is found nowhere else on screen.
TYPED = "zjxwvmyltpus"
#: Characters typed before the box is cleared (the value stays on one line).
CLEAR_AFTER = len(TYPED)
#: ctrl+u: the move box's "delete all to the left".
CLEAR_KEY = b"\x15"
#: ctrl+v, the Advanced key: the engine panel shows the search's numbers (its node count is read).
ADVANCED_KEY = b"\x16"
#: The engine that moves first in the run with a search: it searches for ten minutes.
SEARCH_SPEC = "pvs:time=600"
#: The runs: a player's engine searching, the analysis beside a clock, nobody searching.
MODES = ("search", "coach", "idle")
#: Each run's label in the table.
MODE_LABELS = {"search": "with search", "coach": "analysis + clock", "idle": "without search"}
#: The issue's target for the 95th percentile while an engine searches (ms).
TARGET_P95_MS = 50.0
#: Presses timed per run by default, and with ``--quick``.
PRESSES = 100
QUICK_PRESSES = 20
#: Untimed keys typed (and cleared) before the timed ones.
WARMUP = 3
#: Seconds between an echo and the next key (uniform in this range).
GAP = (0.060, 0.120)
#: Seconds the search runs before the first key (and without a search, the same wait).
SETTLE = 1.0
QUICK_SETTLE = 0.5
#: Seconds to wait for the app's first screen, for an echo, and for the app to quit.
START_TIMEOUT = 30.0
ECHO_TIMEOUT = 2.0
#: A run is abandoned after this many echoes in a row did not come.
MAX_MISSES_IN_A_ROW = 3

#: The engine panel's node count, in :func:`screen_text`'s form.
_NODES = re.compile(r"nodes[\x00 ]+([0-9][0-9.]*[kMG]?)")
#: What the status line says when a human is to move (and so no engine searches).
_YOUR_TURN = "(you)"
_THINKING = "thinking"
_ANALYSING = "analysing"
#: What the analysis panel says when its search ended (it would stop ticking).
_ANALYSIS_DONE = "done: the search"


class NoPty(Exception):
    """No pseudo-terminal can be opened here (the reason is the message)."""


def pty_reason() -> str | None:
    """Why this benchmark cannot run here, or ``None`` if a pseudo-terminal opens."""
    if os.name != "posix":
        return f"pseudo-terminals need a POSIX system, this is {os.name!r}"
    try:
        import termios

        master, slave = os.openpty()
    except (ImportError, OSError) as error:
        return f"no pseudo-terminal available: {error}"
    if not hasattr(termios, "TIOCSWINSZ"):
        return "this system cannot set a pseudo-terminal's size (no TIOCSWINSZ)"
    os.close(master)
    os.close(slave)
    return None




def echo_pattern(value: str) -> Pattern[str]:
    """Finds ``value`` drawn as one run of text in :func:`screen_text`'s output.

    The run must start and end at an escape sequence or a space: the box draws
    its value after the cursor moves there and before the cursor's styled cell
    (or the padding, while the cursor blinks off), so a longer value that merely
    contains ``value`` does not match.
    """
    return re.compile(r"[\x00 ]" + re.escape(value) + r"[\x00 ]")


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value with ``share`` of all at or below it."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    rank = math.ceil(share * len(ordered) - 1e-9)  # 0.95 * 20 is 19, not 19.000000000000004
    return ordered[min(max(rank, 1), len(ordered)) - 1]


# -------------------------------------------------------------------- a run
@dataclass
class KeyRun:
    """One run: the latencies of ``presses`` keys typed into the app of ``game``."""

    game: str
    #: One of :data:`MODES`.
    mode: str
    args: tuple[str, ...] = ()
    #: Key-to-echo latencies in milliseconds, in the order typed.
    latencies: list[float] = field(default_factory=list)
    #: When each of those keys was written (``time.perf_counter``; on Linux the same
    #: clock in every process, so a trace of the app can be lined up with them).
    sent: list[float] = field(default_factory=list)
    #: Keys whose echo did not come within :data:`ECHO_TIMEOUT`.
    missed: int = 0
    #: The engine panel's node counts during the timed keys, each change once.
    nodes: list[str] = field(default_factory=list)
    #: Whether the status showed a human's turn during the timed keys (the search ended).
    search_ended: bool = False
    #: Shares of one core used during the timed keys by the UI process and its children.
    ui_cpu: float | None = None
    search_cpu: float | None = None
    #: The app's pid and the other processes of its group seen while it ran.
    pids: list[int] = field(default_factory=list)
    exit_status: int | None = None
    #: What had to be killed at the end (empty: everything exited by itself).
    killed: list[str] = field(default_factory=list)
    #: Why the run failed, if it did.
    error: str | None = None

    @property
    def searching(self) -> bool:
        """Whether an engine searches during the keys (a player's or the analysis)."""
        return self.mode != "idle"

    @property
    def label(self) -> str:
        return MODE_LABELS[self.mode]

    @property
    def median(self) -> float | None:
        return percentile(self.latencies, 0.5) if self.latencies else None

    @property
    def p95(self) -> float | None:
        return percentile(self.latencies, 0.95) if self.latencies else None

    @property
    def max(self) -> float | None:
        return max(self.latencies) if self.latencies else None

    @property
    def engine_busy(self) -> bool:
        """Whether the engine searched throughout the timed keys (the panel kept counting)."""
        return self.searching and len(self.nodes) >= 2 and not self.search_ended

    @property
    def passed(self) -> bool | None:
        """The verdict against the target (with a search only; ``None`` without numbers)."""
        p95 = self.p95
        return None if p95 is None else p95 < TARGET_P95_MS


def _args(game: str, mode: str) -> tuple[str, ...]:
    first = SEARCH_SPEC if mode == "search" else "human"
    extra = ("--clock", "10+0", "--analyse", "pvs") if mode == "coach" else ()
    return ("play", game, "--first", first, "--second", "human", *extra)


def measure_keys(game: str, *, mode: str = "search", presses: int = PRESSES,
                 settle: float = SETTLE, seed: int = 0, command: Sequence[str] | None = None) -> KeyRun:
    """Start the app of ``game`` in ``mode`` (one of :data:`MODES`), time ``presses`` keys, quit.

    ``command`` replaces :data:`APP_COMMAND` (e.g. a wrapper that traces the app).
    """
    reason = pty_reason()
    if reason is not None:
        raise NoPty(reason)
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; expected one of: {', '.join(MODES)}")
    run = KeyRun(game, mode, _args(game, mode))
    rng = random.Random(seed)
    with _exit_on_termination():
        app = AppProcess(run.args, command=command)
        run.pids = [app.pid]
        try:
            _type_keys(app, run, presses, settle, rng)
            run.exit_status, run.killed = app.quit()
        except BaseException:
            app.kill()  # Ctrl-C, SIGTERM or a bug: no stray app or search process
            raise
    return run


@contextmanager
def _exit_on_termination() -> Iterator[None]:
    """SIGTERM and SIGHUP raise ``SystemExit`` while the block runs (so it can clean up).

    The app runs in a session of its own, without a controlling terminal: if
    this process just died the app would keep running (and its search with it).
    Outside the main thread signal handlers cannot be set: nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)

    previous = {sig: signal.signal(sig, terminate) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _type_keys(app: AppProcess, run: KeyRun, presses: int, settle: float,
               rng: random.Random) -> None:
    """Wait for the app, type the keys and fill ``run`` in (``run.error`` if it went wrong)."""
    ready = {"search": _THINKING, "coach": _ANALYSING, "idle": _YOUR_TURN}[run.mode]
    if not app.wait_for(ready, START_TIMEOUT):
        run.error = f"the app did not show {ready!r} within {START_TIMEOUT:g} s; screen: {app.tail()!r}"
        return
    if run.mode != "idle":  # a player's panel shows words: the node count is the Advanced view's
        app.write(ADVANCED_KEY)
        if not app.wait_for("nodes", START_TIMEOUT):
            run.error = f"the panel did not show its numbers (ctrl+v); screen: {app.tail()!r}"
            return
    app.pump(settle)
    run.pids = [app.pid] + [pid for pid in group_pids(app.pid) if pid != app.pid]

    typed = 0  # characters in the box

    def press() -> tuple[float, float | None]:
        """Type the next character; when, and its latency in ms (``None``: no echo came)."""
        nonlocal typed
        if typed == CLEAR_AFTER:
            app.write(CLEAR_KEY)
            typed = 0
            app.pump(rng.uniform(*GAP) + 0.1)
        value = TYPED[:typed + 1]
        pattern = echo_pattern(value)
        start = len(app.output)
        sent = app.write(value[-1].encode())
        typed += 1
        deadline = sent + ECHO_TIMEOUT
        while (left := deadline - time.perf_counter()) > 0:
            arrived = app.read(left)
            if arrived is not None and pattern.search(screen_text(bytes(app.output[start:]))):
                return sent, (arrived - sent) * 1000.0
            if app.eof:
                break
        return sent, None

    for _ in range(WARMUP):
        press()
        app.pump(rng.uniform(*GAP))
    if typed:
        app.write(CLEAR_KEY)
        typed = 0
        app.pump(rng.uniform(*GAP) + 0.1)

    timed_from = len(app.output)
    ui_before, search_before = _cpu(run.pids)
    started = time.perf_counter()
    misses = 0
    for _ in range(presses):
        sent, latency = press()
        if latency is None:
            run.missed += 1
            misses += 1
            if misses >= MAX_MISSES_IN_A_ROW or app.eof:
                run.error = (f"{misses} keys in a row did not echo within {ECHO_TIMEOUT:g} s; "
                             f"screen: {app.tail()!r}")
                break
        else:
            misses = 0
            run.latencies.append(latency)
            run.sent.append(sent)
        app.pump(rng.uniform(*GAP))
    elapsed = time.perf_counter() - started
    ui_after, search_after = _cpu(run.pids)
    if ui_before is not None and ui_after is not None and elapsed > 0:
        run.ui_cpu = (ui_after - ui_before) / elapsed
    if search_before is not None and search_after is not None and elapsed > 0 and len(run.pids) > 1:
        run.search_cpu = (search_after - search_before) / elapsed

    shown = screen_text(bytes(app.output[timed_from:]))
    for count in _NODES.findall(shown):
        if not run.nodes or run.nodes[-1] != count:
            run.nodes.append(count)
    ended = _ANALYSIS_DONE if run.mode == "coach" else _YOUR_TURN
    run.search_ended = run.searching and ended in shown


def _cpu(pids: Sequence[int]) -> tuple[float | None, float | None]:
    """CPU seconds of the UI process (``pids[0]``) and of all the others together."""
    ui = cpu_seconds(pids[0])
    others = [cpu_seconds(pid) for pid in pids[1:]]
    rest = None if any(c is None for c in others) else sum(c for c in others if c is not None)
    return ui, rest


# ------------------------------------------------------------------ the table
def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _engine(run: KeyRun) -> str:
    if not run.searching:
        return "none"
    if run.search_ended:
        return "[red]search ended during the keys[/]"
    if len(run.nodes) < 2:
        return "[red]panel did not tick[/]" + (f" (nodes {run.nodes[0]})" if run.nodes else "")
    return f"nodes {run.nodes[0]}→{run.nodes[-1]}, {len(run.nodes)} updates"


def _exit(run: KeyRun) -> str:
    if run.killed:
        return "[red]killed: " + "; ".join(run.killed) + "[/]"
    return f"{len(run.pids)} of {len(run.pids)} exited"


def _load() -> str:
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except (AttributeError, OSError):
        return "-"


def _verdict(run: KeyRun) -> str:
    if not run.searching or run.passed is None:
        return ""
    return "[green]PASS[/]" if run.passed and run.engine_busy else "[red]MISS[/]"


def run_keys_bench(games: Sequence[str], *, presses: int = PRESSES, quick: bool = False,
                   seed: int = 0) -> list[KeyRun]:
    """Measure each game with and without a search, print the table, return the runs."""
    from rich.console import Console
    from rich.table import Table

    reason = pty_reason()
    if reason is not None:
        raise NoPty(reason)
    console = Console(width=max(160, Console().width))
    table = Table(
        title=f"key press to echo in the app ({SIZE[0]}x{SIZE[1]} pty), milliseconds",
        caption=f"with search: {SEARCH_SPEC} moves first and searches while a human types;  analysis + "
                f"clock: pvs analyses the human's position while its clock runs;  without: "
                f"human vs human.  p95: nearest rank.  cpu: share of one core during the keys (search: "
                f"the app's other processes).  verdict: p95 < {TARGET_P95_MS:g} ms while the engine searched",
    )
    for column in ("game", "run", "presses", "median", "p95", "max", "missed", "ui cpu",
                   "search cpu", "engine during the keys", "at exit", "verdict"):
        table.add_column(column, no_wrap=True, justify="right" if column in (
            "presses", "median", "p95", "max", "missed", "ui cpu", "search cpu") else "left")
    runs: list[KeyRun] = []
    load_before = _load()
    with console.status("measuring…") as status:
        for name in games:
            for mode in MODES:
                status.update(f"measuring {name} {MODE_LABELS[mode]}")
                run = measure_keys(name, mode=mode, presses=presses,
                                   settle=QUICK_SETTLE if quick else SETTLE, seed=seed)
                runs.append(run)
                table.add_row(
                    name, run.label, str(len(run.latencies)),
                    _ms(run.median), _ms(run.p95), _ms(run.max), str(run.missed),
                    _share(run.ui_cpu), _share(run.search_cpu), _engine(run), _exit(run), _verdict(run),
                )
            table.add_section()
    console.print(table)
    console.print(f"machine: {os.cpu_count()} CPUs; load average (1 min) {load_before} before, {_load()} "
                  f"after (other work on the machine delays the app's frames)", markup=False, highlight=False)
    for run in runs:
        if run.error:
            console.print(f"{run.game} {run.label} failed: "
                          f"{run.error}", markup=False, highlight=False)
    measured = [run for run in runs if run.searching and run.passed is not None]
    if measured:
        worst = max(measured, key=lambda run: run.p95 or 0.0)
        met = all(run.passed and run.engine_busy for run in measured)
        console.print(
            f"verdict: p95 while an engine searches {'<' if met else 'is not <'} {TARGET_P95_MS:g} ms in every game "
            f"(worst: {worst.game}, {_ms(worst.p95)} ms) -- target {'met' if met else 'missed'}",
            markup=False, highlight=False,
        )
    return runs
