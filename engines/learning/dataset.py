"""Self-play datasets: positions with their features, H0 and a depth-L label, as CSV.

``tui-games dataset`` writes what ``tui-games train`` learns from.  A dataset is fixed by a :class:`DatasetConfig`; game ``i``
depends on the config and ``i`` only:

- an opening of ``openings`` random legal plies drawn with an RNG seeded by
  :func:`~engines.tournament.match.derived_seed` ``(seed, game, i)`` (drawn again if it
  ends the game, as :func:`~engines.tournament.match.random_opening` does for matches);
- then self-play: at every position where the game is not over, one row is
  recorded and the position is searched by
  ``alphabeta:depth=L,heuristic=H,seed=S`` (``S`` derived from the seed, the
  game, ``i`` and the ply).  The searched move is played, except that with
  probability ``explore`` a uniformly random legal move is played instead
  (drawn from the same RNG), so that the games do not all follow the engine's
  one line.  The game stops at its outcome or after ``max_plies`` plies of
  self-play.

The label is the search value of the *position* (it is searched from its
text, without the moves that led to it): a row's ``h_l`` can be recomputed
from the row alone, which is what a learned evaluator sees.  Wins and losses
the search proved (``|score| >= MATE_BOUND``) are written as
``±GameClass.DECISIVE_SCORE`` and the ``mate`` column keeps the distance
(:func:`~engines.base.mate_in`; 0 when none).  Once the game is over, each
row also gets its ``outcome``: the game's result for the row's side to move
(``1``, ``0.5`` or ``0``; empty when ``max_plies`` stopped the game), the
target of learning from outcomes rather than searches.

With ``label`` a stockfish spec (chess only) the label and the move come from
that engine instead (one engine process per game), searching to depth L
unless the spec sets its own ``depth``, ``time`` or ``nodes``.

The CSV has the columns of :func:`dataset_columns`; beside it the sidecar
``FILE.meta.json`` (:func:`meta_path`) describes the run.  Games are written
in index order whatever the number of worker processes, so the file is
byte-identical for any ``jobs``; each game's rows are appended in one write
and flushed, so a killed run keeps every game written so far.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import random
import shlex
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterator

from games import GAME_NAMES, Game, GameError, game_class, game_kind, new_game

from ..base import Engine, mate_in
from ..registry import create_engine, parse_engine_spec
from ..spec import EngineSpec, SpecError
from ..remedy import Remedy, RunError
from ..tournament.config import MatchError
from ..tournament.match import derived_seed, parallel_games, random_opening
from .models import package_versions

__all__ = [
    "FORMAT",
    "SEARCH_LABEL",
    "MAX_PLIES_REASON",
    "DatasetError",
    "DatasetInterrupted",
    "DatasetConfig",
    "DatasetGame",
    "DatasetSummary",
    "Labeller",
    "dataset_columns",
    "meta_path",
    "search_spec",
    "label_score",
    "self_play",
    "play_dataset_game",
    "play_dataset_games",
    "write_dataset",
]

#: The ``format`` of a dataset's sidecar metadata.
FORMAT = "tui-games-dataset/1"
#: The ``label`` of datasets labelled by our own alpha-beta search.
SEARCH_LABEL = "search"
#: The ``reason`` of a game stopped by ``max_plies`` rather than by its rules.
MAX_PLIES_REASON = "max plies"
#: The columns before the features and after them.
_LEADING = ("game_id", "ply", "side", "position")
_TRAILING = ("h0", "h_l", "mate", "outcome")
#: The ``outcome`` of a row whose game was stopped by ``max_plies``: the result is not known.
UNKNOWN_OUTCOME = ""
#: Options of a stockfish spec that limit its search (else depth L is added).
_LIMITS = ("depth", "time", "nodes")


class DatasetError(RunError):
    """A bad dataset argument or output file; the message is one line (a
    :class:`~engines.remedy.Remedy` says what the user can do, if anything)."""


class DatasetInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`write_dataset`: the games written so far are in the
    file (synced); ``summary`` describes them."""

    def __init__(self, summary: DatasetSummary) -> None:
        super().__init__("interrupted")
        self.summary = summary


def dataset_columns(game_cls: type[Game]) -> list[str]:
    """The CSV columns of a dataset of ``game_cls``, in order."""
    return [*_LEADING, *game_cls.FEATURE_NAMES, *_TRAILING]


def meta_path(out: str | Path) -> Path:
    """The sidecar metadata of the dataset ``out``: ``data.csv`` -> ``data.csv.meta.json``."""
    return Path(str(out) + ".meta.json")


# ---------------------------------------------------------------------- config
@dataclass(frozen=True)
class DatasetConfig:
    """What fixes a dataset (everything but the output file and the workers).

    Checked when built: :class:`DatasetError` for a bad value, with a
    one-line message.  ``heuristic`` ``None`` becomes the game's
    :attr:`~games.Game.DEFAULT_HEURISTIC`; ``label`` is ``"search"`` or a
    ``stockfish`` spec (chess only), kept in canonical form with the depth
    limit it searches with.
    """

    game: str
    games: int
    depth: int
    openings: int = 4
    seed: int = 0
    explore: float = 0.1
    max_plies: int = 200
    heuristic: str | None = None
    label: str = SEARCH_LABEL

    def __post_init__(self) -> None:
        if self.game not in GAME_NAMES:
            raise DatasetError(f"unknown game {self.game!r}; expected one of: {', '.join(GAME_NAMES)}")
        for name, value, minimum in (("games", self.games, 1), ("depth", self.depth, 1),
                                     ("openings", self.openings, 0), ("max_plies", self.max_plies, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
                raise DatasetError(f"{name} must be a whole number >= {minimum}, got {value!r}")
        if isinstance(self.explore, bool) or not isinstance(self.explore, (int, float)) \
                or not 0 <= self.explore <= 1:
            raise DatasetError(f"explore must be a probability between 0 and 1, got {self.explore!r}")
        object.__setattr__(self, "explore", float(self.explore))
        cls = self.game_class
        if self.heuristic is None:
            object.__setattr__(self, "heuristic", cls.DEFAULT_HEURISTIC)
        try:
            cls.heuristic(self.heuristic)
        except GameError as error:
            raise DatasetError(str(error)) from None
        object.__setattr__(self, "label", self._checked_label())

    def _checked_label(self) -> str:
        text = self.label.strip()
        if text == SEARCH_LABEL:
            return text
        expected = f"label must be 'search' or a stockfish spec such as 'stockfish:depth=12', got {self.label!r}"
        if text.split(":", 1)[0] != "stockfish":
            raise DatasetError(expected)
        try:
            spec = parse_engine_spec(text)
        except SpecError as error:
            raise DatasetError(f"label: {error}") from None
        from ..stockfish import check_game, find_stockfish

        try:
            check_game(game_class(self.game))
        except SpecError:
            raise DatasetError(f"label {self.label!r}: stockfish labels chess only, not {self.game}") from None

        try:
            find_stockfish(spec.get("path"))
        except SpecError as error:
            raise DatasetError(f"label: {error}") from None
        if not any(name in spec.options for name in _LIMITS):
            spec = EngineSpec(spec.name, {**spec.options, "depth": self.depth}, spec.table)
        return str(spec)

    @property
    def game_class(self) -> type[Game]:
        return game_class(self.game)

    @property
    def columns(self) -> list[str]:
        return dataset_columns(self.game_class)

    @property
    def decisive_score(self) -> int:
        return self.game_class.DECISIVE_SCORE

    @property
    def uses_stockfish(self) -> bool:
        return self.label != SEARCH_LABEL

    def command(self, out: str | Path) -> str:
        """The ``tui-games dataset`` command line that writes this dataset to ``out``."""
        words = ["tui-games", "dataset", self.game, "--games", str(self.games), "--depth", str(self.depth),
                 "--openings", str(self.openings), "--seed", str(self.seed), "--explore", repr(self.explore),
                 "--max-plies", str(self.max_plies), "--heuristic", str(self.heuristic),
                 "--label", self.label, "--out", str(out)]
        return shlex.join(words)


def search_spec(config: DatasetConfig, index: int, ply: int) -> str:
    """The spec that labels the position at ``ply`` of game ``index`` (``label`` search)."""
    seed = derived_seed(config.seed, config.game, index, ply)
    return f"alphabeta:depth={config.depth},heuristic={config.heuristic},seed={seed}"


def label_score(score: int, decisive: int) -> tuple[int, int]:
    """``(h_l, mate)`` of a search score: proved wins and losses become
    ``±decisive`` with their distance in moves, other scores stay, mate 0."""
    mate = mate_in(score)
    if mate is None:
        return int(score), 0
    return (decisive if mate > 0 else -decisive), mate


# ----------------------------------------------------------------- self-play
@dataclass
class DatasetGame:
    """One self-play game: its rows, how it ended and its length."""

    index: int
    rows: list[list[Any]]
    #: The outcome's reason, or :data:`MAX_PLIES_REASON`.
    reason: str
    #: Plies from the start position, opening included.
    plies: int
    wall_s: float


class Labeller:
    """Labels the positions of game ``index``: a fresh alpha-beta engine per
    position (:func:`search_spec`), or one stockfish process for the whole
    game (:meth:`close` ends it)."""

    def __init__(self, config: DatasetConfig, index: int) -> None:
        self.config = config
        self.index = index
        self.cls = config.game_class
        self.engine: Engine | None = None
        if config.uses_stockfish:
            try:
                self.engine = create_engine(config.label, self.cls)
            except SpecError as error:
                raise DatasetError(f"label: {error}") from None

    def label(self, position: Game, ply: int) -> tuple[Any, int, int]:
        """``(move, h_l, mate)`` for ``position``, reached at ``ply`` of the
        game: the engine's move and its score through :func:`label_score`."""
        if self.engine is not None:
            result = self.engine.search(position)
        else:
            engine = create_engine(search_spec(self.config, self.index, ply), self.cls)
            result = engine.search(position)
        h_l, mate = label_score(result.score, self.cls.DECISIVE_SCORE)
        return result.move, h_l, mate

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()
            self.engine = None

    def __enter__(self) -> Labeller:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def self_play(config: DatasetConfig, index: int) -> DatasetGame:
    """Play game ``index`` of the dataset (see the module doc) and return it.

    Runs anywhere (this process or a joblib worker): everything it needs
    comes from ``config`` and ``index``.
    """
    start = time.perf_counter()
    rng = random.Random(derived_seed(config.seed, config.game, index))
    try:
        opening = random_opening(config.game, config.openings, rng)
    except MatchError as error:
        raise DatasetError(str(error), remedy=error.remedy) from None
    game = new_game(config.game)
    game.play_all(opening)
    cls = type(game)
    heuristic = config.heuristic
    rows: list[list[Any]] = []
    with Labeller(config, index) as labeller:
        played = 0
        while True:
            outcome = game.outcome()
            if outcome is not None:
                reason = outcome.text
                break
            if played >= config.max_plies:
                reason = MAX_PLIES_REASON
                break
            text = game.to_text()
            position = cls.from_text(text)  # the label is the position's, not its history's
            side = position.turn
            move, h_l, mate = labeller.label(position, game.ply)
            rows.append([index, game.ply, side, text, *position.features(side),
                         position.evaluate(side, heuristic), h_l, mate])
            if config.explore and rng.random() < config.explore:
                move = rng.choice(game.legal_moves())
            game.play(move)
            played += 1
    for row in rows:  # the game's result for each row's side to move, once it is known
        row.append(UNKNOWN_OUTCOME if outcome is None else _result_text(outcome.result_for(row[2])))
    return DatasetGame(index, rows, reason, game.ply, round(time.perf_counter() - start, 4))


def _result_text(result: float) -> str:
    """A result as the ``outcome`` column writes it: ``1``, ``0.5`` or ``0``."""
    return "0.5" if result == 0.5 else str(int(result))


def play_dataset_game(config: DatasetConfig, index: int) -> list[list[Any]]:
    """The rows of game ``index`` (see :func:`self_play`)."""
    return self_play(config, index).rows


def play_dataset_games(config: DatasetConfig, *, jobs: int = 1) -> Iterator[DatasetGame]:
    """Every game of the dataset, in index order, each as soon as it and those
    before it are done: in this process (``jobs == 1``) or over ``jobs``
    joblib (loky) worker processes."""
    return parallel_games(self_play, config, range(config.games), jobs=jobs, ordered=True)


# --------------------------------------------------------------------- summary
@dataclass
class DatasetSummary:
    """What a run wrote: games, positions, how the games ended, label statistics."""

    out: str
    game: str
    planned: int
    games: int = 0
    positions: int = 0
    plies: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    decided: int = 0
    #: Running mean and sum of squared deviations of h_l (Welford).
    mean: float = 0.0
    _m2: float = 0.0
    minimum: int | None = None
    maximum: int | None = None
    wall_s: float = 0.0

    def plus(self, game: DatasetGame) -> DatasetSummary:
        """A new summary: this one with ``game`` counted too."""
        summary = replace(self, reasons=dict(self.reasons))
        summary.add(game)
        return summary

    def add(self, game: DatasetGame) -> None:
        """Count one game written."""
        self.games += 1
        self.plies += game.plies
        self.reasons[game.reason] = self.reasons.get(game.reason, 0) + 1
        for row in game.rows:
            value = row[-3]
            self.positions += 1
            delta = value - self.mean
            self.mean += delta / self.positions
            self._m2 += delta * (value - self.mean)
            self.minimum = value if self.minimum is None else min(self.minimum, value)
            self.maximum = value if self.maximum is None else max(self.maximum, value)
            if row[-2]:
                self.decided += 1

    @property
    def std(self) -> float:
        """The population standard deviation of h_l."""
        return math.sqrt(self._m2 / self.positions) if self.positions else 0.0

    @property
    def rate(self) -> float:
        """Positions written per second of wall time."""
        return self.positions / self.wall_s if self.wall_s > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "out": self.out, "game": self.game, "games": self.games, "planned": self.planned,
            "positions": self.positions,
            "plies_per_game": round(self.plies / self.games, 1) if self.games else 0.0,
            "positions_per_game": round(self.positions / self.games, 1) if self.games else 0.0,
            "reasons": dict(sorted(self.reasons.items(), key=lambda item: (-item[1], item[0]))),
            "h_l": {"mean": round(self.mean, 2), "std": round(self.std, 2), "min": self.minimum,
                    "max": self.maximum,
                    "decided": round(self.decided / self.positions, 4) if self.positions else 0.0},
            "wall_s": round(self.wall_s, 2), "positions_per_s": round(self.rate, 1),
        }

    def lines(self) -> list[str]:
        """The summary as text, for the command line."""
        data = self.to_dict()
        h_l = data["h_l"]
        games = f"{self.games}" + (f" of {self.planned}" if self.games < self.planned else "")
        ended = ", ".join(f"{reason} {count}" for reason, count in data["reasons"].items()) or "-"
        return [
            f"dataset    {self.out} ({self.game})",
            f"games      {games}, {data['plies_per_game']} plies a game (opening included)",
            f"positions  {self.positions:,} ({data['positions_per_game']} a game)",
            f"ended      {ended}",
            f"h_l        mean {h_l['mean']:g}, std {h_l['std']:g}, min {h_l['min']}, max {h_l['max']}, "
            f"decided {100 * h_l['decided']:.1f}%",
            f"time       {self.wall_s:.1f} s, {self.rate:,.1f} positions/s",
        ]


# --------------------------------------------------------------------- writing
def _csv_bytes(rows: list[list[Any]]) -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue().encode("utf-8")


def _versions(game: str, engine_name: str | None) -> dict[str, str]:
    libraries = {name: name for name in game_kind(game).libraries}  # the game's rules (python-chess)
    versions = package_versions({"tui_games": "tui-games", "numpy": "numpy", "joblib": "joblib", **libraries})
    if engine_name is not None:
        versions["label_engine"] = engine_name
    return versions


def _label_engine_name(config: DatasetConfig) -> str | None:
    """Start the stockfish label engine once (a bad binary fails here, before
    anything is written) and return the name it gives itself."""
    if not config.uses_stockfish:
        return None
    try:
        engine = create_engine(config.label, config.game_class)
    except SpecError as error:
        raise DatasetError(f"label: {error}") from None
    try:
        return getattr(engine, "program_name", None)
    finally:
        engine.close()


def _check_out(out: Path) -> None:
    """Refuse ``out`` unless it is absent or an empty regular file, without its sidecar yet."""
    if out.is_dir():
        raise DatasetError(f"{out}: is a directory, not a dataset file")
    if out.exists() and not out.is_file():  # a device or a FIFO: nothing would be kept, or it would block
        raise DatasetError(f"{out}: not a regular file; a dataset goes to a file of its own",
                           remedy=Remedy.OTHER_OUTPUT)
    if out.exists() and out.stat().st_size > 0:
        raise DatasetError(f"{out}: already holds data, and a dataset never overwrites one",
                           remedy=Remedy.OTHER_OUTPUT)
    if meta_path(out).exists():
        raise DatasetError(f"{meta_path(out)}: already exists, and a dataset never overwrites its "
                           f"metadata (move it away)", remedy=Remedy.OTHER_OUTPUT)


def _open_out(out: Path) -> BinaryIO:
    """``out`` opened to append, refused unless it is absent or empty (:func:`_check_out`)."""
    _check_out(out)
    try:
        handle = open(out, "ab")
    except OSError as error:
        raise DatasetError(f"{out}: cannot write it ({error.strerror or error})") from None
    if handle.tell() != 0:  # written to since the check
        handle.close()
        raise DatasetError(f"{out}: already holds data, and a dataset never overwrites one",
                           remedy=Remedy.OTHER_OUTPUT)
    return handle


def _meta(config: DatasetConfig, out: Path, command: str | None, engine_name: str | None) -> dict[str, Any]:
    return {
        "format": FORMAT, "game": config.game, "games": config.games, "depth": config.depth,
        "heuristic": config.heuristic, "label": config.label, "openings": config.openings,
        "explore": config.explore, "max_plies": config.max_plies, "seed": config.seed,
        "decisive_score": config.decisive_score, "features": list(config.game_class.FEATURE_NAMES),
        "columns": config.columns, "command": command or config.command(out),
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z"),
        "versions": _versions(config.game, engine_name),
    }


def write_dataset(config: DatasetConfig, out: str | Path, *, jobs: int = 1,
                  on_start: Callable[[], None] | None = None,
                  on_game: Callable[[DatasetGame], None] | None = None,
                  command: str | None = None) -> DatasetSummary:
    """Play the dataset's games and write them to ``out`` (CSV) and its sidecar meta.

    Before anything is written: a stockfish label engine is started once and
    ``out`` must be absent or empty (:class:`DatasetError` otherwise).  The
    meta (``command``: the command line to record, by default the canonical
    one) and the CSV header are written first; then each game's rows in one
    write, flushed, in index order; the file is synced at the end.
    ``on_start`` is called once the checks passed and the header is written,
    ``on_game`` with each game once it is written (the command line's
    progress bar).  Ctrl-C raises
    :class:`DatasetInterrupted` (a ``KeyboardInterrupt``) with the summary of
    the games written.
    """
    out = Path(out)
    _check_out(out)  # before a label engine is started
    engine_name = _label_engine_name(config)
    handle = _open_out(out)
    start = time.perf_counter()
    summary = DatasetSummary(str(out), config.game, config.games)
    # The summary counts exactly the games in the file, even when Ctrl-C
    # lands between writing a game and counting it: `following` is the
    # summary with the game being written, `mark` the file's size before it.
    following: DatasetSummary | None = None
    mark = 0
    try:
        meta = _meta(config, out, command, engine_name)
        try:
            with open(meta_path(out), "x", encoding="utf-8") as sidecar:  # never over another
                sidecar.write(json.dumps(meta, indent=2) + "\n")
        except OSError as error:
            raise DatasetError(f"{meta_path(out)}: cannot write it ({error.strerror or error})") from None
        handle.write(_csv_bytes([config.columns]))
        handle.flush()
        if on_start is not None:
            on_start()
        for played in play_dataset_games(config, jobs=jobs):
            mark = handle.tell()
            following = summary.plus(played)
            handle.write(_csv_bytes(played.rows))
            summary, following = following, None
            handle.flush()
            summary.wall_s = time.perf_counter() - start
            if on_game is not None:
                on_game(played)
    except KeyboardInterrupt:
        if following is not None and handle.tell() > mark:  # written, not yet counted
            summary = following
        summary.wall_s = time.perf_counter() - start
        _close(handle)
        raise DatasetInterrupted(summary) from None
    except BaseException:
        _close(handle)
        raise
    _close(handle)
    summary.wall_s = time.perf_counter() - start
    return summary


def _close(handle: BinaryIO) -> None:
    if handle.closed:
        return
    handle.flush()
    os.fsync(handle.fileno())
    handle.close()
