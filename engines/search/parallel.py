"""Parallel search over processes (``pvs:workers=N``): the root split N ways.

:class:`ParallelEngine` wraps the serial :class:`AlphaBetaEngine`: with one
worker, or a root of one move, or a root restricted by the caller, it is the
serial engine; otherwise it deals the root out to worker processes, each
running the serial engine on its share.

Under the GIL threads buy nothing (the seeds found as much), so each worker is
a process (``spawn`` context, safe next to a threaded UI).  The root moves are
dealt round-robin, in the engine's ordering, among the workers; every worker
deepens iteratively over its share with the serial engine and reports each
completed depth.  The workers share, per depth, the best root value any of them
has proved, so each searches its remaining moves against the best value found
anywhere (null windows, as the serial PVS does) rather than against its own.
The root value at a depth is the best over the shares, so the answer is the
serial search's at the deepest depth *every* worker completed (ties may pick
another of the equal moves).  Counters are the sums over the workers.

The worker processes start on the engine's first parallel search (about half
a second each) and stay for later searches until :meth:`Engine.close`; each
keeps its serial engine, so its transposition table stays warm between moves
(until :meth:`WorkerPool.new_game`).  A
process that is itself daemonic (some pools) cannot start them: run parallel
engines from a main process or a non-daemonic one.
"""

from __future__ import annotations

import multiprocessing
import pickle
import queue
import time
import traceback
from typing import Any, Sequence

from games import Game, game_class

from ..base import COUNTERS, InfoCallback, Limits, SearchResult, SearchStats, StopFlag, check_playable
from ..lifetime import exit_with_parent
from ..spec import EngineSpec
from .alphabeta import MAX_DEPTH, AlphaBetaEngine, SearchConfig
from .core import INF

__all__ = ["ParallelEngine", "WorkerPool", "parallel_search"]

#: Counters summed over the workers.
_SUMMED = tuple(name for name in COUNTERS if name != "seldepth")
#: The task that empties a worker's transposition table.
_NEW_GAME = "new game"


def _worker(index: int, game_name: str, spec: EngineSpec, config: SearchConfig, tasks: Any,
            results: Any, stop: Any, shared_alpha: Any) -> None:
    """A worker process: search the share of root moves each task names."""
    exit_with_parent()
    engine = AlphaBetaEngine(spec, game_class(game_name), config)
    while True:
        task = tasks.get()
        if task is None:
            return
        if task == _NEW_GAME:
            engine.new_game()
            continue
        search_id, game_bytes, share, depth, deadline, nodes = task
        game: Game = pickle.loads(game_bytes)
        legal = game.legal_moves()
        moves = [legal[i] for i in share]
        # The deadline is wall-clock time shared with the parent: the time it
        # took to start this process counts against the limit.
        limits = Limits(depth, None if deadline is None else max(0.001, deadline - time.time()), nodes)

        def on_info(info: SearchStats) -> None:
            results.put(("info", search_id, index, info))

        def on_depth(info: SearchStats, line: list[Any], exact: bool) -> None:
            results.put(("depth", search_id, index, _Depth(info, line, exact)))

        try:
            result = engine.search(game, limits, stop=stop, on_info=on_info, moves=moves,
                                   on_depth=on_depth, shared_alpha=shared_alpha, follower=index > 0)
        except Exception as error:  # pragma: no cover - reported to the parent
            where = traceback.extract_tb(error.__traceback__)[-1]
            results.put(("error", search_id, index,
                         f"{type(error).__name__}: {error} ({where.filename}:{where.lineno})"))
            continue
        finally:
            if index == 0:  # the leader is done (before it says so): nobody waits for it
                shared_alpha[len(shared_alpha) - 1] = 1
        results.put(("done", search_id, index, result))


class _Depth:
    """A worker's completed depth: its statistics, its line (moves) and
    whether its root value is exact (not a bound set by another's window)."""

    __slots__ = ("stats", "line", "exact")

    def __init__(self, stats: SearchStats, line: list[Any], exact: bool) -> None:
        self.stats, self.line, self.exact = stats, line, exact


class WorkerPool:
    """``size`` worker processes for one engine spec and game."""

    def __init__(self, size: int, game_name: str, spec: EngineSpec, config: SearchConfig) -> None:
        context = multiprocessing.get_context("spawn")
        self.size = size
        self.stop = context.Event()
        self.shared_alpha = context.Array("d", MAX_DEPTH + 2)
        self.results = context.Queue()
        self.tasks = [context.Queue() for _ in range(size)]
        self.processes = [
            context.Process(target=_worker, name=f"tui-games-search-{i}",
                            args=(i, game_name, spec, config, self.tasks[i], self.results, self.stop,
                                  self.shared_alpha),
                            daemon=True)
            for i in range(size)
        ]
        for process in self.processes:
            process.start()
        self.search_id = 0

    def new_game(self) -> None:
        """Empty every worker's transposition table."""
        for tasks in self.tasks:
            tasks.put(_NEW_GAME)

    def close(self) -> None:
        self.stop.set()
        for tasks in self.tasks:
            tasks.put(None)
        for process in self.processes:
            process.join(timeout=2)
            if process.is_alive():
                process.terminate()
                process.join(timeout=1)
        for q in (*self.tasks, self.results):
            q.close()
            q.join_thread()


class ParallelEngine(AlphaBetaEngine):
    """``pvs`` with its ``workers`` option: the serial engine, or the root
    split over ``workers`` processes (see the module doc)."""

    def __init__(self, spec: EngineSpec, game_class: type[Game], config: SearchConfig) -> None:
        super().__init__(spec, game_class, config)
        self.workers: int = spec.get("workers")
        #: The worker processes, started on the first parallel search.
        self.pool: WorkerPool | None = None

    def search(self, game: Game, limits: Limits | None = None, *, stop: StopFlag | None = None,
               on_info: InfoCallback | None = None, moves: Sequence[Any] | None = None,
               **serial: Any) -> SearchResult:
        if self.workers > 1 and moves is None and not serial:
            legal = check_playable(game)
            if len(legal) > 1:
                limits = limits if limits is not None else self.limits()
                return parallel_search(self, game, legal, limits, stop=stop, on_info=on_info)
        return super().search(game, limits, stop=stop, on_info=on_info, moves=moves, **serial)

    def new_game(self) -> None:
        """Empty the transposition tables, here and in every worker."""
        super().new_game()
        if self.pool is not None:
            self.pool.new_game()

    def close(self) -> None:
        """Stop the worker processes."""
        if self.pool is not None:
            self.pool.close()
            self.pool = None


def _serial_spec(engine: AlphaBetaEngine) -> EngineSpec:
    options = dict(engine.spec.options)
    options["workers"] = 1
    return EngineSpec(engine.spec.name, options, engine.spec.table)


def parallel_search(engine: ParallelEngine, game: Game, legal: list[Any], limits: Limits, *,
                    stop: StopFlag | None, on_info: InfoCallback | None) -> SearchResult:
    """Search ``game`` (whose legal moves are ``legal``, in the game's order)
    with ``engine.workers`` processes splitting the root."""
    if engine.pool is None:
        engine.pool = WorkerPool(engine.workers, game.NAME, _serial_spec(engine), engine.config)
    pool: WorkerPool = engine.pool
    pool.search_id += 1
    search_id = pool.search_id
    start = time.perf_counter()

    order = list(range(len(legal)))
    engine.rng.shuffle(order)
    order.sort(key=lambda i: game.capture_score(legal[i]), reverse=True)
    shares = [order[w::pool.size] for w in range(pool.size)]
    shares = [share for share in shares if share]
    busy = len(shares)

    pool.stop.clear()
    with pool.shared_alpha.get_lock():
        pool.shared_alpha[:] = [-INF] * (len(pool.shared_alpha) - 1) + [0]
    game_bytes = pickle.dumps(game.copy())
    deadline = None if limits.time is None else time.time() + limits.time
    nodes = None if limits.nodes is None else max(1, limits.nodes // busy)
    for w, share in enumerate(shares):
        pool.tasks[w].put((search_id, game_bytes, share, limits.depth, deadline, nodes))

    latest: list[SearchStats] = [SearchStats() for _ in range(busy)]
    depths: list[dict[int, _Depth]] = [{} for _ in range(busy)]
    finals: list[SearchResult | None] = [None] * busy
    failed: list[bool] = [False] * busy
    last_report = start

    def common_depth() -> int:
        """The deepest depth every worker completed."""
        return min((max(d, default=0) for d in depths), default=0)

    def best_at(depth: int) -> _Depth | None:
        """The best root move at ``depth``: the highest exact value (a worker whose
        moves all failed low against another's proved value reports a bound)."""
        if depth == 0:
            return None
        candidates = [d[depth] for d in depths if d[depth].exact] or [d[depth] for d in depths]
        return max(candidates, key=lambda done: done.stats.score)  # first worker wins ties

    def snapshot() -> SearchStats:
        common = common_depth()
        best = best_at(common)
        elapsed = time.perf_counter() - start
        snap = (best.stats if best is not None else latest[0]).copy()
        for name in _SUMMED:
            setattr(snap, name, sum(getattr(info, name) for info in latest))
        snap.seldepth = max(info.seldepth for info in latest)
        snap.depth = common
        snap.time_s = round(elapsed, 4)
        snap.nps = int(snap.nodes / elapsed) if elapsed > 0 else 0
        snap.engine = str(engine.spec)
        return snap

    errors: list[str] = []
    while any(final is None and not fail for final, fail in zip(finals, failed)):
        if stop is not None and stop.is_set():
            pool.stop.set()
        try:
            kind, sid, w, payload = pool.results.get(timeout=0.02)
        except queue.Empty:
            kind = None
        if kind is not None and sid == search_id:
            if kind == "error":
                errors.append(payload)
                failed[w] = True
                pool.stop.set()
            elif kind == "done":
                finals[w] = payload
                latest[w] = payload.stats
            elif kind == "depth":
                latest[w] = payload.stats
                depths[w][payload.stats.depth] = payload
            else:
                latest[w] = payload
        elif kind is None and not all(process.is_alive() for process in pool.processes):
            engine.pool = None
            pool.close()
            raise RuntimeError("a search worker process died; see its error output above")
        now = time.perf_counter()
        if on_info is not None and now - last_report >= 0.1:
            last_report = now
            on_info(snapshot())
    if errors:
        raise RuntimeError(f"a search worker failed: {errors[0]}")

    common = common_depth()
    final = snapshot()
    best = best_at(common)
    if best is None:  # no depth completed by every worker: the first worker's pick
        first = finals[0]
        move, score, pv = (first.move, first.score, first.pv) if first is not None else (None, 0, [])
    else:
        # The move objects come from the worker whose share holds the best move.
        move, score, pv = best.line[0], best.stats.score, best.line
    final.best = game.format_move(move) if move is not None else None
    if on_info is not None:
        on_info(final.copy())
    return SearchResult(move, int(score), list(pv), final)
