"""Parallel search over processes (``pvs:workers=N``): a shared table, Lazy SMP
with ABDADA's deferred moves.

:class:`ParallelEngine` is the serial :class:`AlphaBetaEngine` whose
transposition table lives in shared memory (:class:`~.table.SharedTable`),
plus ``N - 1`` helper processes.  On every search the engine's own process
runs the ordinary serial search while each helper searches the same position
on the same table (with its own seed, so its own order among equal moves).
What one proves reaches the others as table entries -- values that cut off,
best moves that order children -- which is the *lazy* part.  So that they do
not search the same subtree side by side, each marks the positions it is
searching near the root on the table's busy list, and a process meeting a
move whose position another one is on puts it off to the end of its node
(ABDADA's deferral, :data:`~.core.DEFER_DEPTH` and deeper); by the time it
comes back, the answer is usually in the table.

The answer is the line of whichever process completed the deepest depth (the
main one on a tie).  A helper that completes the depth asked ends the main
search too: with a depth limit, the first process to reach it answers.

Under the GIL threads buy nothing (the seeds found as much), so each helper is
a process (``spawn`` context, safe next to a threaded UI).  They start on the
engine's first search (about half a second each) and stay until
:meth:`Engine.close`; the table stays warm between moves until
:meth:`ParallelEngine.new_game`.  A process that is itself daemonic (some
pools) cannot start them: run parallel engines from a main process or a
non-daemonic one.

Counters (nodes, evaluations, cutoffs, ...) are the sums over all processes,
so nodes per second is the whole machine's.  A node budget is split evenly
between the processes; a time limit or a depth applies to each.
"""

from __future__ import annotations

import multiprocessing
import queue
import time
import traceback
from typing import Any, Sequence, cast

from games import Game, GameError, game_class

from ..base import COUNTERS, InfoCallback, Limits, SearchResult, SearchStats, StopFlag, check_playable
from ..lifetime import exit_with_parent, start_resource_tracker, stop_signals_blocked
from ..spec import EngineSpec
from .alphabeta import AlphaBetaEngine, SearchConfig
from .table import SharedTable, hash_cap, shared_entries

__all__ = ["ParallelEngine", "HelperPool"]

#: Counters summed over the processes (``seldepth`` is their maximum).
SUMMED = tuple(name for name in COUNTERS if name != "seldepth")
#: Seconds the main search waits for stopped helpers to report.
HELPER_GRACE = 5.0
#: Seconds helpers may take to start and map the table.
HELPER_START = 60.0


def _helper(index: int, game_name: str, spec: EngineSpec, config: SearchConfig, table: tuple[str, int],
            tasks: Any, results: Any, stop: Any, finished: Any, counts: Any) -> None:
    """A helper process: search each task's position on the shared table (its name and
    entries) until told to stop."""
    exit_with_parent()
    engine = AlphaBetaEngine(spec, game_class(game_name), config)
    engine.table = SharedTable(table[1], name=table[0])
    results.put(("ready", 0, index, None))  # mapped: the maker may remove the block's name
    base = index * len(SUMMED)
    while True:
        task = tasks.get()
        if task is None:
            engine.table.close()
            return
        search_id, game, depth, seconds, nodes = task

        def on_info(info: SearchStats) -> None:
            counts[base:base + len(SUMMED)] = [info[name] for name in SUMMED]

        try:
            # The main search's time too: near its end a helper looks at the clock
            # every few nodes, so it has stopped by itself when the main one asks.
            result = engine.search(game, Limits(depth, seconds, nodes), stop=stop, on_info=on_info)
        except Exception as error:  # pragma: no cover - reported to the parent
            where = traceback.extract_tb(error.__traceback__)[-1]
            results.put(("error", search_id, index,
                         f"{type(error).__name__}: {error} ({where.filename}:{where.lineno})"))
            continue
        if not stop.is_set():
            finished.set()  # its depth completed (or a forced result): the main search may stop
        results.put(("done", search_id, index, result.stats))


class HelperPool:
    """``size`` helper processes searching on the shared ``table`` (its name and entries)."""

    def __init__(self, size: int, game_name: str, spec: EngineSpec, config: SearchConfig,
                 table: tuple[str, int]) -> None:
        context = multiprocessing.get_context("spawn")
        self.size = size
        self.stop = context.Event()
        #: Set by a helper that completed its search (the depth asked, or a forced result).
        self.finished = context.Event()
        #: Each helper's latest counters (:data:`SUMMED`), written as it reports.
        self.counts = context.Array("q", size * len(SUMMED), lock=False)
        self.results = context.Queue()
        self.tasks = [context.Queue() for _ in range(size)]
        self.processes = []
        for i in range(size):
            # Helpers differ in their order among equal moves (their seed).
            options = dict(spec.options)
            options["seed"] = (spec.options.get("seed") or 0) * 1000 + 1 + i
            helper_spec = EngineSpec(spec.name, options, spec.table)
            self.processes.append(context.Process(
                target=_helper, name=f"tui-games-search-{i + 1}",
                args=(i, game_name, helper_spec, config, table, self.tasks[i], self.results,
                      self.stop, self.finished, self.counts),
                daemon=True))
        with stop_signals_blocked():  # a Ctrl-C while a helper still imports must not end it with a traceback
            for process in self.processes:
                process.start()
        self.search_id = 0
        try:
            deadline = time.monotonic() + HELPER_START
            for _ in range(self.size):  # the first message of each helper: it has mapped the table
                self._receive(deadline, "while starting", f"did not start within {HELPER_START:g} s")
        except RuntimeError:
            self.close()
            raise

    def _receive(self, deadline: float, dying: str, late: str) -> tuple[str, int, int, Any]:
        """The helpers' next message; a RuntimeError if one died (``dying``
        says when) or none came by ``deadline`` (``late`` says what)."""
        while True:
            try:
                return self.results.get(timeout=0.05)
            except queue.Empty:
                if not all(process.is_alive() for process in self.processes):
                    raise RuntimeError(f"a search helper process died {dying}; see its error output above")
                if time.monotonic() > deadline:
                    raise RuntimeError(f"a search helper {late}")

    def start(self, game: Game, limits: Limits, nodes: int | None) -> int:
        """Set every helper searching ``game``; returns the search's id."""
        self.search_id += 1
        self.stop.clear()
        self.finished.clear()
        self.counts[:] = [0] * len(self.counts)
        for tasks in self.tasks:
            tasks.put((self.search_id, game, limits.depth, limits.time, nodes))
        return self.search_id

    def running_counts(self) -> dict[str, int]:
        """The helpers' counters as last reported (while they search)."""
        width = len(SUMMED)
        values = self.counts[:]
        return {name: sum(values[i * width + k] for i in range(self.size)) for k, name in enumerate(SUMMED)}

    def finish(self, search_id: int) -> list[SearchStats]:
        """Stop the helpers and collect their final statistics."""
        self.stop.set()
        finals: dict[int, SearchStats] = {}
        errors: list[str] = []
        deadline = time.monotonic() + HELPER_GRACE
        while len(finals) + len(errors) < self.size:
            kind, sid, index, payload = self._receive(deadline, "while searching", "did not stop")
            if sid != search_id:
                continue  # a report from an earlier, abandoned search
            if kind == "error":
                errors.append(payload)
            else:
                finals[index] = payload
        if errors:
            raise RuntimeError(f"a search helper failed: {errors[0]}")
        return list(finals.values())

    def close(self) -> None:
        self.stop.set()
        for tasks in self.tasks:
            tasks.put(None)
        for process in self.processes:
            process.join(timeout=2)
            if process.is_alive():  # it ignores SIGTERM (see engines.lifetime)
                process.kill()
                process.join(timeout=1)
        for q in (*self.tasks, self.results):
            q.close()
            q.join_thread()


class ParallelEngine(AlphaBetaEngine):
    """``pvs`` with its ``workers`` option: the serial search, helped by
    ``workers - 1`` processes through a shared table (see the module doc)."""

    def __init__(self, spec: EngineSpec, game_class: type[Game], config: SearchConfig) -> None:
        super().__init__(spec, game_class, config)
        self.workers: int = spec.get("workers")
        if self.workers >= 2 and spec.options.get("hash") is not None:  # the block in /dev/shm too
            self.hash_mb = hash_cap(spec.get("hash"), shared=True)[0]
        #: The helper processes, started on the first search.
        self.pool: HelperPool | None = None

    def search(self, game: Game, limits: Limits | None = None, *, stop: StopFlag | None = None,
               on_info: InfoCallback | None = None, moves: Sequence[Any] | None = None) -> SearchResult:
        # Without a table (tt=off) the helpers would have nothing to share: one process searches.
        # More than one line (multipv) is the main search's root loop: one process then too.
        if self.workers < 2 or self.table is None or moves is not None or self.multipv > 1:
            return super().search(game, limits, stop=stop, on_info=on_info, moves=moves)
        legal = check_playable(game)
        limits = limits if limits is not None else self.limits()
        if len(legal) == 1 and limits.depth is None:
            return super().search(game, limits, stop=stop, on_info=on_info)
        pool = self._pool()
        share = None if limits.nodes is None else max(1, limits.nodes // self.workers)
        cast(SharedTable, self.table).clear_busy()  # _pool shared it; marks a stopped search left
        search_id = pool.start(game.copy(), limits, share)
        mine = Limits(limits.depth, limits.time, share, limits.flexible)

        def report(info: SearchStats) -> None:
            on_info(_combined(info, [pool.running_counts()]))  # type: ignore[misc]

        try:
            result = super().search(game, mine, stop=_Either(stop, pool.finished),
                                    on_info=None if on_info is None else report)
        finally:
            helpers = pool.finish(search_id)
        result = _deepest(game, result, helpers)
        stats = _combined(result.stats, helpers)
        if on_info is not None:
            on_info(stats.copy())
        return SearchResult(result.move, result.score, result.pv, stats)

    def prepare(self) -> None:
        """Start the helpers now (once per engine): a search at a tight clock
        does not wait for processes to start."""
        if self.workers >= 2 and self.table is not None:
            self._pool()

    def _pool(self) -> HelperPool:
        start_resource_tracker()  # before the first shared block or semaphore: it outlives a hangup
        if not isinstance(self.table, SharedTable):
            self.table = SharedTable(shared_entries(self.hash_mb))  # from now on every search fills it
        if self.pool is None:
            self.pool = HelperPool(self.workers - 1, self.game_class.NAME, self.spec, self.config,
                                   (self.table.name, self.table.entries))
            self.table.unlink()  # every process has it mapped
        return self.pool

    def close(self) -> None:
        """Stop the helper processes and free the shared table."""
        if self.pool is not None:
            self.pool.close()
            self.pool = None
        if isinstance(self.table, SharedTable):
            self.table.close()
            self.table = None


class _Either:
    """A stop flag set when either of two is (the caller's may be ``None``)."""

    def __init__(self, first: StopFlag | None, second: StopFlag) -> None:
        self.first, self.second = first, second

    def is_set(self) -> bool:
        return (self.first is not None and self.first.is_set()) or self.second.is_set()


def _deepest(game: Game, main: SearchResult, helpers: list[SearchStats]) -> SearchResult:
    """The main search's result, or a helper's if it completed a deeper depth
    (its line, read back from the move texts it reported)."""
    best = max(helpers, key=lambda stats: stats["depth"], default=None)
    if best is None or best["depth"] <= main.stats["depth"] or not best["pv"]:
        return main
    work = game.copy()
    line = []
    try:
        for text in best["pv"]:
            move = work.parse_move(text)
            work.play(move)
            line.append(move)
    except GameError:  # pragma: no cover - a helper's line is legal
        if not line:
            return main
    stats = main.stats.copy(depth=best["depth"], score=best["score"], mate=best["mate"],
                            best=best["best"], pv=list(best["pv"][:len(line)]))
    return SearchResult(line[0], int(best["score"]), line, stats)


def _combined(main: SearchStats, helpers: list[Any]) -> SearchStats:
    """``main``'s statistics with the helpers' counters added (``helpers``
    are their statistics or counter dicts) and nodes per second recomputed."""
    changes: dict[str, Any] = {name: main[name] + sum(h[name] for h in helpers) for name in SUMMED}
    seldepths = [h["seldepth"] for h in helpers if "seldepth" in h]
    changes["seldepth"] = max([main["seldepth"], *seldepths])
    elapsed = main["time_s"]
    changes["nps"] = int(changes["nodes"] / elapsed) if elapsed > 0 else 0
    return main.copy(**changes)
