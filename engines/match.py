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
of a results file by the parent process only (:class:`ResultsFile`): appended,
flushed and synced as the game ends, so a killed run loses no finished game.
:func:`summarize` turns records into W/D/L, the score with a Wilson 95%
interval, the Elo difference and the average cost per move of each side.
"""

from __future__ import annotations

import hashlib
import json
import math
import multiprocessing
import os
import random
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence, TypeVar

from games import GAME_NAMES, Game, game_class, new_game

from .registry import create_engine, parse_engine_spec
from .search import COUNTERS
from .spec import EngineSpec, SpecError


__all__ = [
    "AGENTS",
    "TOTALS",
    "MatchConfig",
    "parallel_games",
    "MatchError",
    "ResultsFileError",
    "ResultsFile",
    "AgentSummary",
    "MatchSummary",
    "random_opening",
    "play_game",
    "play_games",
    "read_results",
    "read_results_files",
    "summarize",
    "wilson_interval",
    "elo_difference",
    "derived_seed",
    "effective_spec",
    "add_stats",
    "running_score",
    "missing_games",
]

#: The two sides of a match, as records name them.
AGENTS: tuple[str, str] = ("a", "b")

#: The statistics summed over an agent's moves (SPEC section 4 names, plus the
#: cutoffs by the first move and the selective depth); with ``moves`` they give
#: the averages per move.  ``depth`` and ``seldepth`` sum too: their average is
#: the mean depth reached.
TOTALS: tuple[str, ...] = COUNTERS + ("depth", "time_s")

#: What every record carries; :func:`read_results` checks for these.
_RECORD_KEYS = ("match", "index", "colours", "first", "engines", "opening", "moves", "plies",
                "result", "winner_colour", "reason", "wall_s", "stats")
_MATCH_KEYS = ("game", "a", "b", "games", "openings", "seed")
_RESULTS = ("a", "b", "draw")
#: Attempts at a random opening that does not end the game before giving up.
_OPENING_TRIES = 1000
#: Seconds a joblib worker waits for another game before it exits.
IDLE_WORKER_TIMEOUT = 5
#: What a game played by :func:`parallel_games` returns.
T = TypeVar("T")
#: Seconds to wait for a dask scheduler to answer.
DASK_TIMEOUT = 10
#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


class MatchError(ValueError):
    """A bad match: arguments, a results file, a cluster.  The message is one line."""


class ResultsFileError(MatchError):
    """A results file that cannot be used; the message names ``FILE:LINE``."""


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
    try:
        while (outcome := game.outcome()) is None:
            agent = agent_of[game.turn]
            result = engines[agent].search(game)
            add_stats(totals[agent], result.stats)
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


def add_stats(totals: dict[str, Any], stats: dict[str, Any]) -> None:
    """Add one move's search statistics to an agent's totals."""
    totals["moves"] += 1
    for name in TOTALS:
        totals[name] += stats.get(name) or 0


def play_games(config: MatchConfig, indices: Sequence[int], *, jobs: int = 1,
               dask: str | None = None) -> Iterator[dict[str, Any]]:
    """The records of games ``indices``, as they finish (in any order).

    ``jobs == 1``: one after the other in this process.  ``jobs > 1``: over
    that many joblib (loky) worker processes.  ``dask``: on the
    dask.distributed scheduler at that address (``jobs`` is then unused),
    connected to before this returns (a :class:`MatchError` if it cannot be).
    Only the caller writes the records: one writer, no interleaving.
    """
    if dask is not None:
        return _play_on_dask(config, indices, _dask_client(dask))
    return parallel_games(play_game, config, indices, jobs=jobs, ordered=False)


def parallel_games(play: Callable[[Any, int], T], config: Any, indices: Sequence[int], *,
                   jobs: int, ordered: bool) -> Iterator[T]:
    """``play(config, index)`` for each of ``indices``: one after the other in
    this process (``jobs <= 1``) or over ``jobs`` joblib (loky) worker
    processes, yielded in index order (``ordered``) or as they finish."""
    if jobs <= 1 or len(indices) <= 1:
        return (play(config, index) for index in indices)
    from joblib import Parallel, delayed

    # Idle workers exit after a few seconds: the workers of a killed run
    # finish the game at hand and go instead of lingering for minutes.
    parallel = Parallel(n_jobs=min(jobs, len(indices)),
                        return_as="generator" if ordered else "generator_unordered",
                        idle_worker_timeout=IDLE_WORKER_TIMEOUT)
    return parallel(delayed(play)(config, index) for index in indices)


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


def _play_on_dask(config: MatchConfig, indices: Sequence[int], client: Any) -> Iterator[dict[str, Any]]:
    from distributed import as_completed

    with client:
        futures = [client.submit(play_game, config, index, pure=False) for index in indices]
        try:
            for future in as_completed(futures):
                try:
                    record = future.result()
                except Exception as error:  # raised on the worker: say which game, in one line
                    raise MatchError(f"--dask: a worker failed a game: {type(error).__name__}: "
                                     f"{' '.join(str(error).split())[:160]}") from None
                yield record
        finally:
            client.cancel([future for future in futures if not future.done()])


# --------------------------------------------------------------- results files
def _check_record(record: Any, where: str) -> dict[str, Any]:
    """``record`` if it looks like a game record, else a :class:`ResultsFileError`."""
    if not isinstance(record, dict):
        raise ResultsFileError(f"{where}: not a game record (a JSON object expected)")
    missing = [key for key in _RECORD_KEYS if key not in record]
    if missing:
        raise ResultsFileError(f"{where}: not a game record of 'tui-games match' "
                               f"(no {', '.join(repr(k) for k in missing[:3])})")
    match = record["match"]
    if not isinstance(match, dict) or any(key not in match for key in _MATCH_KEYS):
        raise ResultsFileError(f"{where}: the record's 'match' key is incomplete")
    index = record["index"]
    if not isinstance(index, int) or not isinstance(match["games"], int) or not 0 <= index < match["games"]:
        raise ResultsFileError(f"{where}: game index {index!r} outside the match's {match['games']!r} games")
    if record["result"] not in _RESULTS:
        raise ResultsFileError(f"{where}: result {record['result']!r}; expected a, b or draw")
    stats = record["stats"]
    if not isinstance(stats, dict) or any(not isinstance(stats.get(agent), dict) for agent in AGENTS):
        raise ResultsFileError(f"{where}: the record's 'stats' lack an agent")
    return record


def read_results(path: str | Path) -> tuple[list[dict[str, Any]], int | None]:
    """The game records of a results file, checked, and where a cut-off last line starts.

    A line that is not a game record, or the same game twice, is a
    :class:`ResultsFileError` naming ``FILE:LINE``.  The exception is the
    last line when it has no newline and does not parse: the trace of a run
    killed while writing it.  It is not returned; the second value is its
    byte offset (``None`` when the file ends cleanly).
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ResultsFileError(f"{path}: cannot read it ({error.strerror or error})") from None
    records: list[dict[str, Any]] = []
    seen: dict[tuple[str, int], int] = {}
    offset = 0
    partial: int | None = None
    lines = data.split(b"\n")
    for number, raw in enumerate(lines, 1):
        last = number == len(lines)
        if last and not raw:
            break
        where = f"{path}:{number}"
        if not raw.strip():  # a blank line (files joined by hand): nothing to read
            offset += len(raw) + 1
            continue
        try:
            record = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            if last and raw.lstrip().startswith(b"{"):
                partial = offset
                break
            reason = (f"{error.msg.lower()} at column {error.colno}" if isinstance(error, json.JSONDecodeError)
                      else "not UTF-8 text")
            raise ResultsFileError(f"{where}: not a JSON game record ({reason})") from None
        record = _check_record(record, where)
        key = (json.dumps(record["match"], sort_keys=True), record["index"])
        if key in seen:
            raise ResultsFileError(f"{where}: game {record['index']} again (first at line {seen[key]})")
        seen[key] = number
        records.append(record)
        offset += len(raw) + 1
    return records, partial


def _last_line_number(path: str | Path) -> int:
    return Path(path).read_bytes().count(b"\n") + 1


def read_results_files(paths: Sequence[str | Path]) -> tuple[list[dict[str, Any]], list[str]]:
    """The records of several results files (each file's in game order) and
    notes on cut-off last lines; the same game of the same match in two files
    is a :class:`ResultsFileError`."""
    records: list[dict[str, Any]] = []
    notes: list[str] = []
    seen: dict[tuple[str, int], str] = {}
    for path in paths:
        found, partial = read_results(path)
        if partial is not None:
            notes.append(f"{path}:{_last_line_number(path)}: ignored its cut-off last line "
                         f"(a game being written when the run stopped)")
        for number, record in enumerate(found, 1):
            key = (json.dumps(record["match"], sort_keys=True), record["index"])
            if key in seen:
                raise ResultsFileError(f"{path}:{number}: game {record['index']} of this match is "
                                       f"also in {seen[key]}")
            seen[key] = str(path)
        records += sorted(found, key=lambda record: record["index"])
    return records, notes


class ResultsFile:
    """The results file of a match: its finished games, and appending new ones.

    :meth:`open` checks the file before anything is played; nothing in it is
    ever rewritten, except that ``resume`` drops a cut-off last line (a run
    killed while writing it; that game is played again).
    """

    def __init__(self, path: Path, records: list[dict[str, Any]], *, newline_first: bool = False) -> None:
        self.path = path
        self.records = records
        self._newline_first = newline_first

    @classmethod
    def open(cls, path: str | Path, config: MatchConfig, *, resume: bool) -> tuple[ResultsFile, str | None]:
        """The file for ``config``, and a note to show the user (or ``None``).

        Without ``resume`` the file must not exist or be empty.  With it, an
        absent file starts the match; otherwise every record must belong to
        this match (same game, specs, games, opening plies and seed).
        """
        path = Path(path)
        if path.is_dir():
            raise ResultsFileError(f"{path}: is a directory, not a results file")
        exists = path.exists() and path.stat().st_size > 0
        if not exists:
            try:
                path.touch()
            except OSError as error:
                raise ResultsFileError(f"{path}: cannot write it ({error.strerror or error})") from None
            return cls(path, []), None
        if not resume:
            raise ResultsFileError(f"{path}: already holds results; add --resume to finish that match, "
                                   f"or choose another --out")
        records, partial = read_results(path)
        key = config.key()
        for number, record in enumerate(records, 1):
            if record["match"] != key:
                theirs = record["match"]
                raise ResultsFileError(
                    f"{path}:{number}: a game of another match ({_describe(theirs)}), not of this one "
                    f"({_describe(key)}); choose another --out")
        note = None
        newline_first = False
        if partial is not None:
            note = (f"{path}: dropped its cut-off last line (line {_last_line_number(path)}, a game being "
                    f"written when the run stopped); that game is played again")
            with open(path, "r+b") as handle:
                handle.truncate(partial)
        else:
            newline_first = not path.read_bytes().endswith(b"\n")
        return cls(path, records, newline_first=newline_first), note

    def append(self, record: dict[str, Any]) -> None:
        """Write one record as a line, flushed and synced to disk."""
        line = json.dumps(record, separators=(",", ":")) + "\n"
        if self._newline_first:
            line = "\n" + line
            self._newline_first = False
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(line)
            handle.flush()
            os.fsync(handle.fileno())
        self.records.append(record)


def _describe(key: dict[str, Any]) -> str:
    return (f"{key.get('game')} {key.get('a')} vs {key.get('b')}, {key.get('games')} games, "
            f"{key.get('openings')} opening plies, seed {key.get('seed')}")


# --------------------------------------------------------------------- summary
def wilson_interval(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``score / n`` (``score`` may
    count draws as halves); ``(0, 1)`` when ``n`` is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = score / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z2 / (4 * n * n))) / denominator
    low = 0.0 if score <= 0 else max(0.0, centre - half)  # exact ends, not rounding errors
    high = 1.0 if score >= n else min(1.0, centre + half)
    return low, high


def elo_difference(rate: float) -> float:
    """The Elo difference that expects a score rate ``rate`` (logistic model):
    ``-400 log10(1/rate - 1)``, infinite at 0 and 1."""
    if rate <= 0:
        return -math.inf
    if rate >= 1:
        return math.inf
    return -400 * math.log10(1 / rate - 1)


@dataclass
class AgentSummary:
    """One side of a match summary: results and the totals of its moves."""

    agent: str
    spec: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    #: Results when this agent moved first (from the start) and second: W, D, L.
    first: list[int] = field(default_factory=lambda: [0, 0, 0])
    second: list[int] = field(default_factory=lambda: [0, 0, 0])
    totals: dict[str, float] = field(default_factory=lambda: {"moves": 0} | dict.fromkeys(TOTALS, 0))

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    def per_move(self, name: str) -> float:
        """The average of statistic ``name`` over this agent's moves."""
        moves = self.totals["moves"]
        return self.totals[name] / moves if moves else 0.0


@dataclass
class MatchSummary:
    """The summary of the games of one pairing (game, spec A, spec B)."""

    game: str
    a: AgentSummary
    b: AgentSummary
    games: int = 0
    #: Games planned (the ``games`` of the match keys seen).
    planned: int = 0
    plies: int = 0
    wall_s: float = 0.0
    #: reason -> {"a": wins of A, "b": wins of B, "draw": draws}.
    reasons: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def score(self) -> float:
        """A's score rate (draws count a half)."""
        return self.a.points / self.games if self.games else 0.5

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of A's score rate."""
        return wilson_interval(self.a.points, self.games)

    @property
    def elo(self) -> float:
        """A's Elo advantage over B."""
        return elo_difference(self.score)

    @property
    def elo_interval(self) -> tuple[float, float]:
        low, high = self.interval
        return elo_difference(low), elo_difference(high)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (infinite Elo values as ``None``)."""

        def finite(value: float) -> float | None:
            return round(value, 1) if math.isfinite(value) else None

        def agent(side: AgentSummary) -> dict[str, Any]:
            averages = {name: round(side.per_move(name), 4) for name in TOTALS}
            return {
                "spec": side.spec, "wins": side.wins, "draws": side.draws, "losses": side.losses,
                "points": side.points, "as_first": side.first, "as_second": side.second,
                "moves": side.totals["moves"], "totals": {name: round(value, 4) for name, value in side.totals.items()},
                "per_move": averages,
            }

        low, high = self.interval
        elo_low, elo_high = self.elo_interval
        return {
            "game": self.game, "games": self.games, "planned": self.planned,
            "a": agent(self.a), "b": agent(self.b),
            "score": round(self.score, 4), "score_interval": [round(low, 4), round(high, 4)],
            "elo": finite(self.elo), "elo_interval": [finite(elo_low), finite(elo_high)],
            "reasons": self.reasons, "average_plies": round(self.plies / self.games, 1) if self.games else 0,
            "wall_s": round(self.wall_s, 2),
        }


def summarize(records: Iterable[dict[str, Any]]) -> list[MatchSummary]:
    """One summary per pairing (game, spec A, spec B), in order of first appearance."""
    summaries: dict[tuple[str, str, str], MatchSummary] = {}
    planned: dict[tuple[str, str, str], set[str]] = {}
    for record in records:
        match = record["match"]
        pairing = (match["game"], match["a"], match["b"])
        summary = summaries.get(pairing)
        if summary is None:
            summary = summaries[pairing] = MatchSummary(
                match["game"], AgentSummary("a", match["a"]), AgentSummary("b", match["b"]))
            planned[pairing] = set()
        key = json.dumps(match, sort_keys=True)
        if key not in planned[pairing]:
            planned[pairing].add(key)
            summary.planned += match["games"]
        summary.games += 1
        summary.plies += record["plies"]
        summary.wall_s += record["wall_s"]
        result = record["result"]
        counts = summary.reasons.setdefault(record["reason"], dict.fromkeys(_RESULTS, 0))
        counts[result] += 1
        for side in (summary.a, summary.b):
            outcome = 1 if result == "draw" else 0 if result == side.agent else 2  # W, D, L
            if outcome == 0:
                side.wins += 1
            elif outcome == 1:
                side.draws += 1
            else:
                side.losses += 1
            (side.first if record["first"] == side.agent else side.second)[outcome] += 1
            for name, value in record["stats"][side.agent].items():
                if name in side.totals:
                    side.totals[name] += value
    return list(summaries.values())


def running_score(records: Iterable[dict[str, Any]]) -> tuple[float, float]:
    """Points of A and of B over ``records``."""
    a = b = 0.0
    for record in records:
        result = record["result"]
        a += 1.0 if result == "a" else 0.5 if result == "draw" else 0.0
        b += 1.0 if result == "b" else 0.5 if result == "draw" else 0.0
    return a, b


def missing_games(config: MatchConfig, records: Iterable[dict[str, Any]]) -> list[int]:
    """The indices of the games of ``config`` not among ``records``."""
    done = {record["index"] for record in records}
    return [index for index in range(config.games) if index not in done]

