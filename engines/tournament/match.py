"""Headless tournaments: two engine specs play many games, reproducibly, in parallel, resumably.

A match is fixed by a :class:`MatchConfig` (game, the two specs A and B, the
number of games, the plies of random opening and a seed).  Game ``i`` depends
on the config and ``i`` only:

- games ``2k`` and ``2k + 1`` start from the same random opening ``k`` (the
  seeds' "random configuration": ``openings`` random legal plies, none of them
  ending the game), A moving first in the even game and B in the odd one;
- each engine whose spec does not set ``seed`` gets a seed derived from the
  match seed, ``i`` and its side (the effective specs are recorded).

So any subset of the games -- played in one process, over joblib workers, on a
dask cluster, or the rest of a broken run -- gives the same records as an
unbroken run, wall times aside (engines limited by time rather than depth
are only as reproducible as the clock).

Each finished game is one JSON object (:func:`play_game`), written as one line
of a results file by the parent process only (:class:`~engines.tournament.results.ResultsFile`): appended,
flushed and synced as the game ends, so a killed run loses no finished game.
:func:`engines.tournament.summary.summarize` turns records into W/D/L, the score with a Wilson 95%
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
from dataclasses import asdict, dataclass
from typing import Any, Callable, Iterable, Iterator, TypeVar

from games import GAME_NAMES, Game, game_class, new_game

from ..base import COUNTERS, SearchStats
from ..lifetime import exit_with_parent, sigint_blocked
from ..registry import create_engine, parse_engine_spec
from ..spec import EngineSpec, SpecError


__all__ = [
    "AGENTS", "TOTALS", "MatchConfig", "MatchError", "parallel_games", "random_opening", "play_game",
    "play_games", "play_tasks", "Task", "LOG_FIELDS", "move_log", "derived_seed", "effective_spec",
    "add_stats", "missing_games", "stop_workers",
]

#: The two sides of a match, as records name them.
AGENTS: tuple[str, str] = ("a", "b")

#: The statistics summed over an agent's moves (the search counters, plus the
#: cutoffs by the first move and the selective depth); with ``moves`` they give
#: the averages per move.  ``depth`` and ``seldepth`` sum too: their average is
#: the mean depth reached.
TOTALS: tuple[str, ...] = COUNTERS + ("depth", "time_s")

#: Attempts at a random opening that does not end the game before giving up.
_OPENING_TRIES = 1000
#: Seconds a joblib worker waits for another game before it exits.
IDLE_WORKER_TIMEOUT = 5

#: The most games one match may have: a million games at a millisecond each is a quarter of an
#: hour of play, and every finished record is kept in memory for the report.
MAX_GAMES = 1_000_000

#: Games handed to the workers ahead of those being played, per worker: the games are
#: listed lazily, so memory does not grow with ``--games``.
QUEUED_PER_WORKER = 2
#: What a game played by :func:`parallel_games` returns.
T = TypeVar("T")
#: Seconds to wait for a dask scheduler to answer.
DASK_TIMEOUT = 10


class MatchError(ValueError):
    """A bad match: arguments, a results file, a cluster.  The message is one line."""


# ---------------------------------------------------------------------- config
@dataclass(frozen=True)
class MatchConfig:
    """What fixes a match: every record carries it as its ``match`` key.

    ``a`` and ``b`` are canonical spec texts (see :meth:`create`)."""

    game: str
    a: str
    b: str
    games: int
    openings: int = 4
    seed: int = 0

    @classmethod
    def create(cls, game: str, a: str, b: str, games: int, openings: int = 4, seed: int = 0) -> MatchConfig:
        """A config with the game name and specs checked and made canonical.

        Raises :class:`SpecError` for a bad spec (one the game cannot use
        included: the engines are built once and closed) and
        :class:`MatchError` for the rest.
        """
        if game not in GAME_NAMES:
            raise MatchError(f"unknown game {game!r}; expected one of: {', '.join(GAME_NAMES)}")
        if games < 1:
            raise MatchError(f"a match needs at least 1 game, got {games}")
        if games > MAX_GAMES:
            raise MatchError(f"a match of {games:,} games is more than this runner plays "
                             f"(at most {MAX_GAMES:,}); split it into matches with other seeds")
        if openings < 0:
            raise MatchError(f"the random opening cannot have {openings} plies; expected 0 or more")
        cls_ = game_class(game)
        texts = []
        for side, text in (("A", a), ("B", b)):
            try:
                spec = parse_engine_spec(text)
                create_engine(spec, cls_).close()  # heuristics, the game, a stockfish binary ...
            except SpecError as error:
                raise SpecError(f"agent {side}: {error}") from None
            texts.append(str(spec))
        return cls(game, texts[0], texts[1], games, openings, seed)

    def key(self) -> dict[str, Any]:
        """The ``match`` key of its records."""
        return asdict(self)

    def spec(self, agent: str) -> str:
        return self.a if agent == "a" else self.b


def derived_seed(*parts: object) -> int:
    """A 31-bit seed from ``parts`` (the same in every process and Python run,
    unlike ``hash``)."""
    digest = hashlib.sha256("/".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:4], "big") >> 1


def effective_spec(text: str, seed: int) -> str:
    """``text`` with ``seed`` set, unless the spec sets it or has no such option."""
    spec = parse_engine_spec(text)
    if "seed" not in spec.table or "seed" in spec.options:
        return str(spec)
    return str(EngineSpec(spec.name, {**spec.options, "seed": seed}, spec.table))


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
    raise MatchError(f"no {plies}-ply {game_name} opening that leaves the game going "
                     f"in {_OPENING_TRIES} tries; use fewer --openings plies")


# ---------------------------------------------------------------------- a game
def play_game(config: MatchConfig, index: int) -> dict[str, Any]:
    """Play game ``index`` of the match and return its record (see the module doc).

    Runs anywhere (this process, a joblib worker, a dask worker): everything
    it needs comes from ``config`` and ``index``.
    """
    start = time.perf_counter()
    _let_engines_spawn()
    pair = index // 2
    opening = random_opening(config.game, config.openings,
                             random.Random(derived_seed("opening", config.seed, pair)))
    game: Game = new_game(config.game)
    game.play_all(opening)
    start_text = game.to_text()
    first = "a" if index % 2 == 0 else "b"
    # Who moves first in the opening's final position: the agent named `first`
    # plays the side that moves first from the start, so after an odd
    # opening the other agent is to move.
    player_of = {first: 0, ("b" if first == "a" else "a"): 1}
    specs = {agent: effective_spec(config.spec(agent), derived_seed("engine", config.seed, index, agent))
             for agent in AGENTS}
    cls = type(game)
    engines = {agent: create_engine(specs[agent], cls) for agent in AGENTS}
    agent_of = {player: agent for agent, player in player_of.items()}
    totals = {agent: {"moves": 0} | dict.fromkeys(TOTALS, 0) for agent in AGENTS}
    moves: list[str] = []
    log: list[list[Any]] = []
    try:
        while (outcome := game.outcome()) is None:
            agent = agent_of[game.turn]
            result = engines[agent].search(game)
            add_stats(totals[agent], result.stats)
            log.append(move_log(result.stats))
            moves.append(game.format_move(result.move))
            game.play(result.move)
    finally:
        for engine in engines.values():
            engine.close()
    for agent_totals in totals.values():
        agent_totals["time_s"] = round(agent_totals["time_s"], 4)
    winner = outcome.winner
    return {
        "match": config.key(),
        "index": index,
        "colours": {agent: cls.PLAYERS[player_of[agent]] for agent in AGENTS},
        "first": first,
        "engines": specs,
        "opening": opening,
        "start": start_text,
        "moves": moves,
        "log": log,
        "plies": len(moves),
        "result": "draw" if winner is None else agent_of[winner],
        "winner_colour": None if winner is None else cls.PLAYERS[winner],
        "reason": outcome.reason,
        "wall_s": round(time.perf_counter() - start, 4),
        "stats": totals,
    }


def _let_engines_spawn() -> None:
    """Make ``pvs:workers=N`` work inside a joblib worker.

    Loky sets the worker's global start method to ``"loky"``, and a process
    started there with the ``spawn`` context (as parallel engines are) is told
    to use that method, which plain multiprocessing does not know: the child
    dies at once.  Naming ``spawn`` as the global method fixes that.
    """
    if multiprocessing.get_start_method(allow_none=True) == "loky":
        multiprocessing.set_start_method("spawn", force=True)


#: What :func:`move_log` keeps of each engine move, in order (a record's ``log``).
LOG_FIELDS: tuple[str, ...] = ("score", "mate", "depth", "nodes", "time_s")


def move_log(stats: SearchStats) -> list[Any]:
    """One engine move's figures for the record's ``log`` (:data:`LOG_FIELDS`): the
    score for the side that moved (its mate distance, or ``None``), the depth
    reached, the nodes searched and the seconds taken."""
    return [stats.score, stats.mate, stats.depth, stats.nodes, round(stats.time_s, 4)]


def add_stats(totals: dict[str, Any], stats: SearchStats) -> None:
    """Add one move's search statistics to an agent's totals."""
    totals["moves"] += 1
    for name in TOTALS:
        totals[name] += getattr(stats, name) or 0


def play_games(config: MatchConfig, indices: Iterable[int], *, jobs: int = 1,
               dask: str | None = None) -> Iterator[dict[str, Any]]:
    """The records of games ``indices``, as they finish (in any order).

    ``jobs == 1``: one after the other in this process.  ``jobs > 1``: over
    that many joblib (loky) worker processes.  ``dask``: on the
    dask.distributed scheduler at that address (``jobs`` is then unused),
    connected to before this returns (a :class:`MatchError` if it cannot be).
    Only the caller writes the records: one writer, no interleaving.
    """
    return play_tasks(((config, index) for index in indices), jobs=jobs, dask=dask)


#: One game to play: a match and the game's index in it.
Task = tuple[MatchConfig, int]


def play_tasks(tasks: Iterable[Task], *, jobs: int = 1, dask: str | None = None,
               workers_only: bool = False) -> Iterator[dict[str, Any]]:
    """The records of the games ``tasks`` (of one match or of several: a
    tournament's pairings, an experiment's arms), as they finish; ``jobs``
    and ``dask`` as for :func:`play_games`.  ``workers_only``: even one job
    plays in a worker process (so :func:`stop_workers` can stop it at once)."""
    if dask is not None:
        return _play_on_dask(tasks, _dask_client(dask))
    return parallel_games(_play_task, None, tasks, jobs=jobs, ordered=False, workers_only=workers_only)


def stop_workers() -> None:
    """Kill the worker processes playing games (from any thread): the games
    being played are lost, and the generator of :func:`play_tasks` raises."""
    executor = _running.get("executor")
    if executor is not None:
        executor.shutdown(wait=False, kill_workers=True)


#: The executor of the games being played (for :func:`stop_workers`).
_running: dict[str, Any] = {}


def _play_task(_: None, task: Task) -> dict[str, Any]:
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
    from concurrent.futures import FIRST_COMPLETED, wait

    from joblib.externals.loky import get_reusable_executor

    # Each worker watches this process from its start (even if this one dies
    # while the worker is still starting up).
    # Workers (started by ``submit``) begin with SIGINT blocked: see :func:`sigint_blocked`.  The
    # standard library's resource tracker, which loky starts with the first worker, unblocks SIGINT
    # once it is started: it is started first.
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    with sigint_blocked():
        executor = get_reusable_executor(max_workers=workers, timeout=IDLE_WORKER_TIMEOUT,
                                         initializer=exit_with_parent, initargs=(os.getpid(),))
    _running["executor"] = executor
    window = workers * QUEUED_PER_WORKER
    queued: collections.deque[Any] = collections.deque()  # in submission order

    def refill() -> None:
        for index in itertools.islice(indices, window - len(queued)):
            with sigint_blocked():
                queued.append(executor.submit(play, config, index))

    finished = False
    try:
        refill()
        while queued:
            if ordered:
                future = queued.popleft()
            else:
                done, _ = wait(queued, return_when=FIRST_COMPLETED)
                future = next(f for f in queued if f in done)
                queued.remove(future)
            result = future.result()
            refill()
            yield result
        finished = True
    finally:
        if not finished:  # stopped early: the games at hand have nobody to go to
            _kill_workers(executor)


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
        raise MatchError("--dask needs dask.distributed, which is not installed: "
                         "pip install 'tui-games[dask]'") from None
    try:
        return Client(address, timeout=DASK_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as error:
        raise MatchError(f"--dask: no dask scheduler reachable at {address!r} "
                         f"({' '.join(str(error).split())[:120]})") from None


def _play_on_dask(tasks: Iterable[Task], client: Any) -> Iterator[dict[str, Any]]:
    from distributed import as_completed

    pending = iter(tasks)
    with client:
        window = max(1, sum(client.nthreads().values())) * QUEUED_PER_WORKER
        futures = [client.submit(play_game, config, index, pure=False)
                   for config, index in itertools.islice(pending, window)]
        running = as_completed(futures)
        try:
            for future in running:
                try:
                    record = future.result()
                except Exception as error:  # raised on the worker: say which game, in one line
                    raise MatchError(f"--dask: a worker failed a game: {type(error).__name__}: "
                                     f"{' '.join(str(error).split())[:160]}") from None
                futures.remove(future)
                for config, index in itertools.islice(pending, 1):
                    added = client.submit(play_game, config, index, pure=False)
                    futures.append(added)
                    running.add(added)
                yield record
        finally:
            client.cancel([future for future in futures if not future.done()])


def missing_games(config: MatchConfig, records: Iterable[dict[str, Any]]) -> Iterator[int]:
    """The indices of the games of ``config`` not among ``records`` (which may
    hold the games of other matches too), in order and lazily."""
    key = config.key()
    done = {record["index"] for record in records if record["match"] == key}
    return (index for index in range(config.games) if index not in done)


