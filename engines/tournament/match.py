"""Headless tournaments: two engine specs play many games, reproducibly, in parallel, resumably.

A match is fixed by a :class:`MatchConfig` (game, the two specs A and B, the
number of games, the plies of random opening, a seed, and its conditions:
book, adjudication, clocks).  Game ``i`` depends on the config and ``i`` only:

- games ``2k`` and ``2k + 1`` start from the same opening ``k`` -- the seeds'
  "random configuration", ``openings`` random legal plies none of them ending
  the game, or the book's line for pair ``k`` -- A moving first in the even
  game and B in the odd one;
- each engine whose spec does not set ``seed`` gets a seed derived from the
  match seed, ``i`` and its side (the effective specs are kept in its result).

So any subset of the games -- played in one process, over joblib workers, on a
dask cluster, or the rest of a broken run -- gives the same results as an
unbroken run, wall times aside (engines limited by time rather than depth,
and games on clocks, are only as reproducible as the clock).  A book's lines
are picked in the parent process and sent with each game
(:func:`opening_for`), so workers need not read the book.  During the game
the clocks (:mod:`~engines.tournament.clocks`) and adjudication
(:mod:`~engines.tournament.adjudication`) may end it off the board, and so
may an external engine that misbehaves (it misses its deadline, answers an
illegal, null or malformed move, dies or floods its output: see
:mod:`engines.uci_client`): it forfeits the game, its result's ``reason``
saying why (``forfeit: timeout``), and the next game starts it afresh.

Each finished game is a :class:`~engines.tournament.result.GameResult`
(:func:`play_game`), written as one JSON line of a results file by the parent
process only (:class:`~engines.tournament.results.ResultsFile`): appended,
flushed and synced as the game ends, so a killed run loses no finished game.
:func:`engines.tournament.summary.summarize` turns results into W/D/L, the score with a Wilson 95%
interval, the Elo difference and the average cost per move of each side.
"""

from __future__ import annotations

import collections
import hashlib
import itertools
import multiprocessing
import os
import random
import threading
import time
from dataclasses import replace
from typing import Any, Callable, Iterable, Iterator, TypeVar

from games import Game, new_game

from games import Outcome, kind_of
from games.clock import MAX_MINUTES, TimeControl

from ..lifetime import signals_deferred, start_resource_tracker, stop_signals_blocked, worker_initializer
from ..base import Engine
from ..registry import ENGINES, create_engine, parse_engine_spec
from ..remedy import Remedy
from ..spec import EngineSpec, SpecError
from ..stockfish import UciEngine
from ..uci_client import EngineFailure
from .adjudication import Adjudicator
from .clocks import MatchClocks
from .conditions import Opening
from .config import MatchConfig, MatchError, join_clock, split_clock
from .result import AGENTS, Agent, AgentTotals, GameResult, LogEntry, MatchTermination, Sides, forfeit_reason

__all__ = [
    "parallel_games", "random_opening", "play_game", "play_games", "play_tasks", "Task", "derived_seed",
    "effective_spec", "missing_games", "opening_for", "stop_workers",
]

#: Attempts at a random opening that does not end the game before giving up.
_OPENING_TRIES = 1000
#: Seconds between two looks for a Ctrl-C while waiting for workers' games.
WAKE_INTERVAL = 0.2
#: Seconds a joblib worker waits for another game before it exits.
IDLE_WORKER_TIMEOUT = 5

#: Games handed to the workers ahead of those being played, per worker: the games are
#: listed lazily, so memory does not grow with ``--games``.
QUEUED_PER_WORKER = 2
#: What a game played by :func:`parallel_games` returns.
T = TypeVar("T")
#: Seconds to wait for a dask scheduler to accept the connection (refused connections are tried again
#: until then), and then for its handshake, the first thing a scheduler says.
DASK_TIMEOUT = 5
DASK_HANDSHAKE_TIMEOUT = 5


# ---------------------------------------------------------------------- seeds
def derived_seed(*parts: object) -> int:
    """A 31-bit seed from ``parts`` (the same in every process and Python run,
    unlike ``hash``)."""
    digest = hashlib.sha256("/".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:4], "big") >> 1


def effective_spec(text: str, seed: int) -> str:
    """``text`` with ``seed`` set, unless the spec sets it or has no such option
    (a clock of the spec's own, ``tc=``, stays last)."""
    engine_text, clock = split_clock(text)
    spec = parse_engine_spec(engine_text)
    if "seed" in spec.table and "seed" not in spec.options:
        spec = EngineSpec(spec.name, {**spec.options, "seed": seed}, spec.table)
    return join_clock(spec, clock)


def random_opening(game_name: str, plies: int, rng: random.Random) -> list[str]:
    """``plies`` random legal moves (as texts) from the start, none ending the game.

    An opening that ends the game is drawn again from where ``rng`` stands."""
    for _ in range(_OPENING_TRIES):
        game = new_game(game_name)
        texts: list[str] = []
        for _ in range(plies):
            move = rng.choice(game.legal_moves())
            texts.append(game.format_move(move))
            game.play(move)
            if game.outcome() is not None:
                break
        else:
            return texts
    raise MatchError(f"no {plies}-ply {game_name} opening that leaves the game going in {_OPENING_TRIES} tries",
                     remedy=Remedy.FEWER_OPENING_PLIES)


# ---------------------------------------------------------------------- a game
def opening_for(config: MatchConfig, index: int) -> Opening:
    """What game ``index`` starts from: its pair's line of the book, or its pair's random plies."""
    pair = index // 2
    book = config.conditions.book
    if book is not None:
        return book.opening(config.game, pair, config.seed)
    rng = random.Random(derived_seed("opening", config.seed, pair))
    return Opening(tuple(random_opening(config.game, config.openings, rng)))


def play_game(config: MatchConfig, index: int, opening: Opening | None = None) -> GameResult:
    """Play game ``index`` of the match and return its result (see the module doc).

    Runs anywhere (this process, a joblib worker, a dask worker): everything
    it needs comes from ``config`` and ``index`` -- and ``opening``, which the
    parent passes when it has worked it out (:func:`opening_for`).
    """
    start = time.perf_counter()
    _let_engines_spawn()
    opening = opening if opening is not None else opening_for(config, index)
    place = opening.place
    game: Game = new_game(config.game, place.origin if place else None)
    game.play_all(list(opening.moves))
    start_text = game.to_text()
    first: Agent = "a" if index % 2 == 0 else "b"
    # Who moves first in the opening's final position: the agent named `first`
    # plays the side that moves first from the start, so after an odd
    # opening the other agent is to move.
    second: Agent = "b" if first == "a" else "a"
    player_of: dict[Agent, int] = {first: 0, second: 1}
    specs = {agent: effective_spec(config.spec(agent), derived_seed("engine", config.seed, index, agent))
             for agent in AGENTS}
    cls = type(game)
    engines: dict[Agent, Engine] = {}
    agent_of = {player: agent for agent, player in player_of.items()}
    totals = {agent: AgentTotals() for agent in AGENTS}
    controls = {agent: config.clock(agent) for agent in AGENTS}
    clocks = None
    if any(controls.values()):  # a side without a clock gets a day: it never loses on time
        endless = TimeControl(MAX_MINUTES * 60)
        clocks = MatchClocks((controls[agent_of[0]] or endless, controls[agent_of[1]] or endless),
                             config.conditions.timemargin)
    conditions = config.conditions
    adjudicator = Adjudicator(conditions, kind_of(cls).scores.unit) if conditions.adjudicates else None
    moves: list[str] = []
    log: list[LogEntry] = []
    left: list[float] = []
    outcome: Outcome | None = None
    try:
        for agent in AGENTS:
            engine_spec = split_clock(specs[agent])[0]
            try:
                engines[agent] = create_engine(engine_spec, cls)
            except SpecError:
                if not _external(engine_spec):
                    raise
                # A program of someone else's that started for the earlier games and not for this one.
                other: Agent = "b" if agent == "a" else "a"
                outcome = Outcome(player_of[other], MatchTermination.FORFEIT, forfeit_reason("engine did not start"))
                break
        else:
            for engine in engines.values():
                engine.prepare()  # worker processes start now, not on the clock
        while outcome is None and (outcome := game.outcome()) is None:
            player = game.turn
            agent = agent_of[player]
            engine = engines[agent]
            limits = clocks.limits(engine, player) if clocks is not None else None
            began = time.perf_counter()
            try:
                searched = engine.search(game, limits)
            except EngineFailure as failure:  # a program of someone else's broke the rules: it loses
                outcome = Outcome(1 - player, MatchTermination.FORFEIT, forfeit_reason(failure.reason))
                break
            if clocks is not None:
                if not clocks.spend(player, time.perf_counter() - began):
                    outcome = clocks.flag_outcome(game, player)
                    break
                left.append(round(clocks.left[player], 3))
            totals[agent] = totals[agent].add(searched.stats)
            entry = LogEntry.of(searched.stats)
            log.append(entry)
            moves.append(game.format_move(searched.move))
            irreversible = adjudicator is not None and game.is_irreversible(searched.move)
            game.play(searched.move)
            if adjudicator is not None and game.outcome() is None:
                outcome = adjudicator.after_move(player, entry.score if entry.searched else None, entry.mate,
                                                 game.ply, irreversible)
                if outcome is not None:
                    break
    finally:
        for engine in engines.values():
            engine.close()
    totals = {agent: replace(sums, time_s=round(sums.time_s, 4)) for agent, sums in totals.items()}
    winner = outcome.winner
    return GameResult(
        match=config,
        index=index,
        colours=Sides(cls.PLAYERS[player_of["a"]], cls.PLAYERS[player_of["b"]]),
        first=first,
        engines=Sides(specs["a"], specs["b"]),
        opening=tuple(opening.moves),
        start=start_text,
        moves=tuple(moves),
        log=tuple(log),
        plies=len(moves),
        winner=None if winner is None else agent_of[winner],
        winner_colour=None if winner is None else cls.PLAYERS[winner],
        reason=outcome.text,
        wall_s=round(time.perf_counter() - start, 4),
        totals=Sides(totals["a"], totals["b"]),
        book=place,
        clocks=tuple(left) if clocks is not None else None,
    )


def _external(spec: str) -> bool:
    """Whether ``spec`` names a program of someone else's (a UCI engine), which may fail to start."""
    factory = ENGINES[parse_engine_spec(spec).name].factory
    return isinstance(factory, type) and issubclass(factory, UciEngine)


def _let_engines_spawn() -> None:
    """Make ``pvs:workers=N`` work inside a joblib worker.

    Loky sets the worker's global start method to ``"loky"``, and a process
    started there with the ``spawn`` context (as parallel engines are) is told
    to use that method, which plain multiprocessing does not know: the child
    dies at once.  Naming ``spawn`` as the global method fixes that.
    """
    if multiprocessing.get_start_method(allow_none=True) == "loky":
        multiprocessing.set_start_method("spawn", force=True)


def play_games(config: MatchConfig, indices: Iterable[int], *, jobs: int = 1,
               dask: str | None = None) -> Iterator[GameResult]:
    """The results of games ``indices``, as they finish (in any order).

    ``jobs == 1``: one after the other in this process.  ``jobs > 1``: over
    that many joblib (loky) worker processes.  ``dask``: on the
    dask.distributed scheduler at that address (``jobs`` is then unused),
    connected to before this returns (a :class:`MatchError` if it cannot be).
    Only the caller writes the results: one writer, no interleaving.
    """
    return play_tasks(((config, index) for index in indices), jobs=jobs, dask=dask)


#: One game to play: a match and the game's index in it.
Task = tuple[MatchConfig, int]
#: A game as it is sent to be played: with its opening when it comes from a book.
_Sent = tuple[MatchConfig, int, Opening | None]


def _with_openings(tasks: Iterable[Task]) -> Iterator[_Sent]:
    """The tasks with their book lines worked out here (workers need not read the book)."""
    for config, index in tasks:
        yield config, index, (opening_for(config, index) if config.conditions.book is not None else None)


def play_tasks(tasks: Iterable[Task], *, jobs: int = 1, dask: str | None = None,
               workers_only: bool = False) -> Iterator[GameResult]:
    """The results of the games ``tasks`` (of one match or of several: a
    tournament's pairings, an experiment's arms), as they finish; ``jobs``
    and ``dask`` as for :func:`play_games`.  ``workers_only``: even one job
    plays in a worker process (so :func:`stop_workers` can stop it at once)."""
    if dask is not None:
        return _play_on_dask(_with_openings(tasks), _dask_client(dask))
    return parallel_games(_play_task, None, _with_openings(tasks), jobs=jobs, ordered=False,
                          workers_only=workers_only)


def stop_workers() -> None:
    """Kill the worker processes playing games (from any thread): the games
    being played are lost, and the generator of :func:`play_tasks` raises."""
    executor = _running.get("executor")
    if executor is not None:
        executor.shutdown(wait=False, kill_workers=True)


#: The executor of the games being played (for :func:`stop_workers`).
_running: dict[str, Any] = {}


def _play_task(_: None, task: _Sent) -> GameResult:
    return play_game(*task)


def parallel_games(play: Callable[[Any, Any], T], config: Any, indices: Iterable[Any], *,
                   jobs: int, ordered: bool, workers_only: bool = False) -> Iterator[T]:
    """``play(config, index)`` for each of ``indices``: one after the other in
    this process (``jobs <= 1``) or over ``jobs`` worker processes (loky, the
    executor joblib runs on), yielded in index order (``ordered``) or as they
    finish.  ``indices`` is read lazily: only :data:`QUEUED_PER_WORKER` games a
    worker are handed out ahead, so a long match costs no memory before it plays.

    The workers end with this process, however it dies (see
    :mod:`engines.lifetime`), and when the generator is closed before the end
    -- Ctrl-C, an error while writing -- the games still being played are
    stopped: their workers are killed.  Idle workers exit after a few seconds.
    """
    pending = iter(indices)
    head = list(itertools.islice(pending, 2))
    if not head:
        return iter(())
    indices = itertools.chain(head, pending)
    if not workers_only and (jobs <= 1 or len(head) <= 1):
        return (play(config, index) for index in indices)
    return _on_workers(play, config, indices, max(1, jobs), ordered)


def _on_workers(play: Callable[[Any, Any], T], config: Any, indices: Iterator[Any], workers: int,
                ordered: bool) -> Iterator[T]:
    import queue

    from joblib.externals.loky import get_reusable_executor

    # Each worker watches this process from its start (even if this one dies
    # while the worker is still starting up).
    # Workers (started by ``submit``) begin with the stop signals blocked: see
    # :func:`~engines.lifetime.stop_signals_blocked`.  The standard library's resource tracker, which
    # loky starts with the first worker, unblocks them once it is started: it is started first, deaf to
    # a hangup (:func:`~engines.lifetime.start_resource_tracker`).
    # The pool's own code (starting it, ``submit``, its futures' locks) is not safe to interrupt half-way:
    # it runs with Ctrl-C held (:func:`~engines.lifetime.signals_deferred`), and this thread waits only
    # on a queue the pool's callbacks fill, which a Ctrl-C interrupts cleanly.
    initializer, initargs = worker_initializer(os.getpid())
    with signals_deferred():
        start_resource_tracker()
        with stop_signals_blocked():
            executor = get_reusable_executor(max_workers=workers, timeout=IDLE_WORKER_TIMEOUT,
                                             initializer=initializer, initargs=initargs)
    _running["executor"] = executor
    window = workers * QUEUED_PER_WORKER
    done: queue.SimpleQueue[tuple[int, Any]] = queue.SimpleQueue()  # (submission number, finished future)
    arrived: dict[int, Any] = {}  # finished, waiting for their turn (``ordered``)
    submitted = 0
    given = 0  # results yielded

    def refill() -> None:
        nonlocal submitted
        for index in itertools.islice(indices, window - (submitted - given)):
            with stop_signals_blocked():
                future = executor.submit(play, config, index)
            future.add_done_callback(lambda future, number=submitted: done.put((number, future)))
            submitted += 1

    finished = False
    try:
        with signals_deferred():
            refill()
        while given < submitted:
            if ordered:
                while given not in arrived:
                    number, future = _next_done(done)
                    arrived[number] = future
                future = arrived.pop(given)
            else:
                _, future = _next_done(done)
            with signals_deferred():
                given += 1
                result = future.result()
                refill()
            yield result
        finished = True
    finally:
        if not finished:  # stopped early: the games at hand have nobody to go to
            with signals_deferred():
                _kill_workers(executor)


def _next_done(done: Any) -> tuple[int, Any]:
    """The next finished game from ``done`` (a :class:`queue.SimpleQueue`), waiting in short steps:
    a Ctrl-C that another thread took is raised here within :data:`WAKE_INTERVAL`."""
    import queue

    while True:
        try:
            return done.get(timeout=WAKE_INTERVAL)
        except queue.Empty:
            pass


def _kill_workers(executor: Any) -> None:
    """Shut ``executor`` down, killing its workers, without the traceback that
    loky's manager thread may print when the work items it was handing out are
    cleared under it (a KeyError or InvalidStateError: a race inside loky, of
    no consequence, that must not reach the user on an early stop)."""
    previous = threading.excepthook

    def quiet(args: threading.ExceptHookArgs) -> None:
        if args.thread is None or args.thread.name != "ExecutorManagerThread":
            previous(args)

    threading.excepthook = quiet
    try:
        executor.shutdown(wait=True, kill_workers=True)  # the manager thread ends before we go on
    finally:
        threading.excepthook = previous


def _dask_client(address: str) -> Any:
    try:
        from distributed import Client
    except ImportError:
        raise MatchError("playing on dask needs dask.distributed, which is not installed: "
                         "pip install 'tui-games[dask]'") from None
    try:
        _check_dask_scheduler(address)
        return Client(address, timeout=DASK_TIMEOUT)
    except MatchError:
        raise
    except (OSError, TimeoutError, ValueError, TypeError) as error:  # TypeError: tls:// without TLS settings
        raise MatchError(f"no dask scheduler reachable at {address!r} "
                         f"({' '.join(str(error).split())[:120]})") from None


def _check_dask_scheduler(address: str) -> None:
    """Refuse ``address`` (a :class:`MatchError`) unless a dask scheduler there says its handshake in time.

    dask's own connection waits for the handshake without a deadline (a silent listener held a match for
    minutes) and takes the first bytes of any answer as a frame's length (a ``tui-games host`` port made
    it allocate exabytes): the first exchange is made here, the connection within :data:`DASK_TIMEOUT`
    and the handshake within :data:`DASK_HANDSHAKE_TIMEOUT`, without unpickling anything, and any
    other answer refused.  The scheduler is trusted past this point: dask unpickles what it sends."""
    import asyncio

    from distributed.comm import parse_address
    from distributed.comm.registry import get_backend

    scheme, location = parse_address(address)
    connector = get_backend(scheme).get_connector()

    async def handshake() -> object:
        try:
            comm = await asyncio.wait_for(connector.connect(location, deserialize=False), DASK_TIMEOUT)
        except TimeoutError:
            raise OSError(f"no connection within {DASK_TIMEOUT} s") from None
        except (OSError, ValueError, TypeError):
            raise
        try:
            await asyncio.wait_for(comm.write(comm.handshake_info()), DASK_HANDSHAKE_TIMEOUT)
            return await asyncio.wait_for(comm.read(), DASK_HANDSHAKE_TIMEOUT)
        except TimeoutError:
            raise MatchError(f"no dask scheduler at {address!r}: it accepted the connection but gave no "
                             f"dask handshake within {DASK_HANDSHAKE_TIMEOUT} s") from None
        except Exception:  # not dask's protocol: a frame length of exabytes, bad msgpack, a closed line...
            raise MatchError(f"no dask scheduler at {address!r}: what it answered is not dask's protocol") \
                from None
        finally:
            comm.abort()

    if not isinstance(asyncio.run(handshake()), dict):
        raise MatchError(f"no dask scheduler at {address!r}: what it answered is not dask's protocol")


def _play_on_dask(tasks: Iterable[_Sent], client: Any) -> Iterator[GameResult]:
    from distributed import as_completed

    pending = iter(tasks)
    with client:
        window = max(1, sum(client.nthreads().values())) * QUEUED_PER_WORKER
        futures = [client.submit(play_game, *task, pure=False) for task in itertools.islice(pending, window)]
        running = as_completed(futures)
        try:
            for future in running:
                try:
                    result = future.result()
                except Exception as error:  # raised on the worker: say which game, in one line
                    raise MatchError(f"a dask worker failed a game: {type(error).__name__}: "
                                     f"{' '.join(str(error).split())[:160]}") from None
                futures.remove(future)
                for task in itertools.islice(pending, 1):
                    added = client.submit(play_game, *task, pure=False)
                    futures.append(added)
                    running.add(added)
                yield result
        finally:
            client.cancel([future for future in futures if not future.done()])


def missing_games(config: MatchConfig, results: Iterable[GameResult]) -> Iterator[int]:
    """The indices of the games of ``config`` not among ``results`` (which may
    hold the games of other matches too), in order and lazily."""
    done = {result.index for result in results if result.match == config}
    return (index for index in range(config.games) if index not in done)


