"""``tui-games bench search``: engine speed at fixed depth beside perft and the seeds' way.

For each game, on a fixed set of positions (:data:`POSITIONS`: the start and
middlegames reached by fixed move lists) and at a fixed depth per game
(:data:`DEPTHS`, :data:`QUICK_DEPTHS`), three searches are timed in the same
process:

* ``alphabeta`` -- our fail-soft alpha-beta (transposition table, move
  ordering) with the game's default heuristic;
* ``pvs`` -- our strongest engine at the same nominal depth and no time limit
  (it adds quiescence and uses the game's strong heuristic, so its tree and
  value differ);
* ``naive`` -- :class:`NaiveAlphaBeta`, a deliberately naive implementation of
  the seeds' way: fail-soft alpha-beta that deep-copies the game for every
  child, no transposition table, no move ordering, the same heuristic and depth
  as the ``alphabeta`` run.  Its root value must equal ``alphabeta``'s; its
  root move is the first best in legal-move order, so among equally good moves
  the two may choose differently (a tie, checked by searching the other move).

Each row reports nodes, time, nodes/s, that rate as a share of the game's
perft rate (every leaf played and taken back, measured in the same run), the
share of beta cutoffs made by the first move searched (a measure of move
ordering), the root value and move, and ``alphabeta``'s speed-up over ``naive``.

A second table gives, per game, the depth ``pvs:time=1`` completes from the
start and its nodes/s (then ``bench search`` prints the warm-table comparison
of :mod:`tui.bench.warm`).  With ``--sunfish PATH`` a third table drives a sunfish
UCI executable through python-chess for one second on the chess positions and
compares nodes/s with ``pvs:time=1`` on the same positions.

Times are wall clock (``time.perf_counter``) with the garbage collector off,
best of up to three runs for runs shorter than :data:`REPEAT_BELOW` seconds
(the naive reference runs once).  Absolute speeds depend on the machine; the
ratios are what to compare.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Callable, Sequence, TypeVar

from engines import Limits, create_engine, mate_in
from engines.stockfish import UCI_GAME
from games import GAME_NAMES, WIN, Game, game_kind, new_game
from games.perft import perft

from .perft import best_time

__all__ = [
    "BenchPosition",
    "POSITIONS",
    "DEPTHS",
    "QUICK_DEPTHS",
    "PERFT_DEPTHS",
    "NaiveAlphaBeta",
    "NaiveResult",
    "naive_search",
    "SearchRow",
    "PvsRow",
    "SunfishRow",
    "search_rows",
    "pvs_row",
    "sunfish_rows",
    "run_search_bench",
]

T = TypeVar("T")

#: Runs faster than this many seconds are repeated (best of three).
REPEAT_BELOW = 0.5
#: Below every value our searches return (they are bounded by ``WIN``).
INF = 10 * WIN


@dataclass(frozen=True)
class BenchPosition:
    """A benchmark position: its text, and the moves that reach it from the start."""

    game: str
    label: str
    text: str | None  # None: the start position
    moves: tuple[str, ...] = ()

    def new_game(self) -> Game:
        return new_game(self.game, self.text)


#: The fixed positions per game (each game's benchmark plan).  ``moves`` document
#: (and a test checks) how each text is reached from the start; the bench itself
#: starts from the text.
POSITIONS: dict[str, tuple[BenchPosition, ...]] = {
    name: tuple(BenchPosition(name, position.label, position.text, position.moves)
                for position in game_kind(name).bench.positions)
    for name in GAME_NAMES
}

#: Search depth per game, full and quick (the naive chess search deep-copies a
#: python-chess board per node, which bounds the chess depth).
DEPTHS: dict[str, int] = {name: game_kind(name).bench.search_depth[0] for name in GAME_NAMES}
QUICK_DEPTHS: dict[str, int] = {name: game_kind(name).bench.search_depth[1] for name in GAME_NAMES}
#: Perft depth per game for the move-generation rate the engines are compared with.
PERFT_DEPTHS: dict[str, int] = {name: game_kind(name).bench.perft_depth for name in GAME_NAMES}
#: The engines timed at fixed depth, beside the naive reference.
ENGINE_NAMES: tuple[str, ...] = ("alphabeta", "pvs")


# --------------------------------------------------------------- the reference
@dataclass
class NaiveResult:
    """What a naive search found and what it cost."""

    move: Any
    value: float
    nodes: int
    evals: int
    prunes: int
    first_cutoffs: int


class NaiveAlphaBeta:
    """The seeds' way, deliberately naive: fail-soft negamax alpha-beta that
    deep-copies the game for every child (as the seeds deep-copied boards), with
    no transposition table and no move ordering (children in legal-move order).

    Values follow our engines' conventions so that the root values can be
    compared exactly: ``evaluate(game, game.turn)`` at depth 0, and a game over
    inside the tree scores ``WIN - ply`` for a win of the side to move,
    ``ply - WIN`` for a loss and 0 for a draw.
    """

    def __init__(self, evaluate: Callable[[Game, int], float]) -> None:
        self.evaluate = evaluate
        self.nodes = 0
        self.evals = 0
        self.prunes = 0
        self.first_cutoffs = 0

    def search(self, game: Game, depth: int) -> NaiveResult:
        """The root value and the first best root move, in legal-move order."""
        best_move = None
        best = -INF
        alpha = -INF
        self.nodes += 1
        for move in game.legal_moves():
            child = copy.deepcopy(game)
            child.play(move)
            value = self.child_value(game, child, depth - 1, alpha, INF, 1)
            if value > best:
                best, best_move = value, move
                alpha = max(alpha, value)
        return NaiveResult(best_move, best, self.nodes, self.evals, self.prunes, self.first_cutoffs)

    def child_value(self, parent: Game, child: Game, depth: int, alpha: float, beta: float, ply: int) -> float:
        """``child``'s value to ``parent``'s side to move, searched in ``(alpha, beta)`` as that side
        sees it: negated where the other side moves at ``child``, kept where the same side moves again."""
        if child.turn == parent.turn:
            return self.negamax(child, depth, alpha, beta, ply)
        return -self.negamax(child, depth, -beta, -alpha, ply)

    def negamax(self, game: Game, depth: int, alpha: float, beta: float, ply: int) -> float:
        self.nodes += 1
        outcome = game.outcome()
        if outcome is not None:
            if outcome.winner is None:
                return 0
            return WIN - ply if outcome.winner == game.turn else ply - WIN
        if depth <= 0:
            self.evals += 1
            return self.evaluate(game, game.turn)
        best = -INF
        for i, move in enumerate(game.legal_moves()):
            child = copy.deepcopy(game)
            child.play(move)
            value = self.child_value(game, child, depth - 1, alpha, beta, ply + 1)
            if value > best:
                best = value
                if value > alpha:
                    if value >= beta:
                        self.prunes += 1
                        self.first_cutoffs += i == 0
                        break
                    alpha = value
        return best


def naive_search(game: Game, depth: int, heuristic: str | None = None) -> NaiveResult:
    """A :class:`NaiveAlphaBeta` search of ``game`` (left unchanged) with the
    heuristic called ``heuristic`` (the game's default if ``None``)."""
    return NaiveAlphaBeta(type(game).heuristic(heuristic)).search(game, depth)


def naive_move_value(game: Game, move: Any, depth: int, heuristic: str | None = None) -> float:
    """The exact depth-``depth`` value of playing ``move`` at the root, by the
    naive search (to tell a tie from a worse move)."""
    child = copy.deepcopy(game)
    child.play(move)
    return NaiveAlphaBeta(type(game).heuristic(heuristic)).child_value(game, child, depth - 1, -INF, INF, 1)


# ------------------------------------------------------------------- timing
def _timed(fn: Callable[[], T], *, repeat: bool = True) -> tuple[T, float]:
    """``fn()`` and its wall time with the garbage collector off; runs shorter
    than :data:`REPEAT_BELOW` are repeated and the best of three kept."""
    return best_time(fn, 3 if repeat else 1, enough=REPEAT_BELOW)


# --------------------------------------------------------------------- rows
@dataclass
class SearchRow:
    """One engine (or the naive reference) on one position at a fixed depth."""

    game: str
    position: str
    depth: int
    engine: str
    nodes: int
    seconds: float
    prunes: int
    first_cutoffs: int
    value: float
    move: str
    perft_rate: float | None = None
    naive_seconds: float | None = None
    same_value: bool | None = None
    same_move: bool | None = None
    tie: bool | None = None  # a different move of the same value

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    @property
    def first_cutoff_share(self) -> float | None:
        return self.first_cutoffs / self.prunes if self.prunes else None

    @property
    def speedup(self) -> float | None:
        """Naive time over this engine's time at the same depth."""
        if self.naive_seconds is None or self.seconds <= 0:
            return None
        return self.naive_seconds / self.seconds

    @property
    def perft_share(self) -> float | None:
        return self.nps / self.perft_rate if self.perft_rate else None


def perft_rates(game_name: str, depth: int | None = None) -> tuple[int, float, float]:
    """Perft of the start at ``depth``: leaves, leaves/s with the last ply
    counted in bulk, and leaves/s with every leaf played and taken back."""
    depth = depth or PERFT_DEPTHS[game_name]
    game = new_game(game_name)
    leaves, bulk_seconds = _timed(lambda: perft(game, depth))
    _, played_seconds = _timed(lambda: perft(game, depth, bulk=False))
    return leaves, leaves / bulk_seconds, leaves / played_seconds


def search_rows(position: BenchPosition, depth: int, *, perft_rate: float | None = None,
                engines: Sequence[str] = ENGINE_NAMES, naive: bool = True) -> list[SearchRow]:
    """Time ``engines`` (spec names, run at ``depth``) and the naive reference on
    ``position``; the ``alphabeta`` row carries the comparison with the naive one."""
    game = position.new_game()
    cls = type(game)
    rows: list[SearchRow] = []
    for name in engines:
        spec = f"{name}:depth={depth}"
        # a new engine per run: every repetition searches the same tree
        result, seconds = _timed(lambda: create_engine(spec, cls).search(game, Limits(depth=depth)))
        stats = result.stats
        rows.append(SearchRow(
            position.game, position.label, depth, name, stats["nodes"], seconds, stats["prunes"],
            stats["first_cutoffs"], result.score, game.format_move(result.move), perft_rate,
        ))
    if naive:
        reference = NaiveAlphaBeta(cls.heuristic(cls.DEFAULT_HEURISTIC))
        found, seconds = _timed(lambda: reference.search(game, depth), repeat=False)
        naive_row = SearchRow(
            position.game, position.label, depth, "naive", found.nodes, seconds, found.prunes,
            found.first_cutoffs, found.value, game.format_move(found.move), perft_rate,
        )
        for row in rows:
            row.naive_seconds = seconds
            if row.engine != "alphabeta":
                continue
            row.same_value = row.value == found.value
            row.same_move = row.move == naive_row.move
            if not row.same_move:
                move = game.parse_move(row.move)
                row.tie = naive_move_value(game, move, depth, cls.DEFAULT_HEURISTIC) == found.value
        rows.append(naive_row)
    return rows


@dataclass
class PvsRow:
    """What ``pvs:time=1`` does from one position in one second."""

    game: str
    position: str
    depth: int
    nodes: int
    seconds: float
    perft_leaves: int = 0
    perft_bulk_rate: float = 0.0
    perft_played_rate: float = 0.0

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


def pvs_row(position: BenchPosition, seconds: float = 1.0) -> PvsRow:
    """``pvs:time=SECONDS`` on ``position``: the depth it completes and its nodes/s."""
    game = position.new_game()
    engine = create_engine(f"pvs:time={seconds}", type(game))
    result, elapsed = _timed(lambda: engine.search(game), repeat=False)
    return PvsRow(position.game, position.label, result.depth, result.stats["nodes"], elapsed)


@dataclass
class SunfishRow:
    """sunfish and ``pvs`` for the same time on one chess position."""

    position: str
    pvs_depth: int
    pvs_nps: float
    sunfish_depth: int | None
    sunfish_nps: float | None

    @property
    def ratio(self) -> float | None:
        return self.pvs_nps / self.sunfish_nps if self.sunfish_nps else None


def sunfish_nps(command: str | Sequence[str], fen: str | None,
                seconds: float = 1.0) -> tuple[int | None, float | None]:
    """Drive the sunfish UCI executable ``command`` (a path, or a command line as
    a list) for ``seconds`` on ``fen`` (the start if ``None``): the depth of its
    last report and its nodes/s (from its ``nps``, else nodes over time)."""
    import chess
    import chess.engine

    board = chess.Board(fen) if fen else chess.Board()
    engine = chess.engine.SimpleEngine.popen_uci(command if isinstance(command, str) else list(command))
    try:
        info = engine.analyse(board, chess.engine.Limit(time=seconds))
    finally:
        engine.quit()
    nps = info.get("nps")
    if nps is None and info.get("nodes") and info.get("time"):
        nps = info["nodes"] / info["time"]
    return info.get("depth"), nps


def sunfish_rows(command: str | Sequence[str], positions: Sequence[BenchPosition],
                 seconds: float = 1.0) -> list[SunfishRow]:
    """``pvs:time=SECONDS`` and sunfish for ``seconds`` on each chess position."""
    rows = []
    for position in positions:
        ours = pvs_row(position, seconds)
        depth, nps = sunfish_nps(command, position.text, seconds)
        rows.append(SunfishRow(position.label, ours.depth, ours.nps, depth, nps))
    return rows


# -------------------------------------------------------------------- tables
TARGETS = ("targets: alphabeta >= 30x faster than naive with the same root value;  "
           "chess pvs nodes/s / sunfish nodes/s >= 1.0")


def _rate(value: float | None) -> str:
    if value is None:
        return "-"
    if value >= 10_000_000:
        return f"{value / 1e6:.1f}M"
    if value >= 10_000:
        return f"{value / 1e3:.0f}k"
    return f"{value:,.0f}"


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _check(row: SearchRow) -> str:
    """The naive comparison, for the ``alphabeta`` row (see the legend)."""
    if row.same_value is None:
        return ""
    if not row.same_value:
        return "[red]VALUE DIFFERS[/]"
    if row.same_move:
        return "same"
    return "tie" if row.tie else "[red]WORSE MOVE[/]"


def _value(value: float) -> str:
    mate = mate_in(value)
    return f"mate {mate}" if mate is not None else f"{value:g}"


def run_search_bench(games: Sequence[str], *, quick: bool = False, sunfish: str | None = None) -> None:
    """Measure and print the tables."""
    from rich.console import Console
    from rich.table import Table

    console = Console(width=max(150, Console().width))
    depths = QUICK_DEPTHS if quick else DEPTHS
    fixed = Table(
        title="search at fixed depth: our engines beside the naive deep-copying alpha-beta",
        caption="of perft: nodes/s over perft leaves/s (every leaf played);  1st cut: share of beta "
                "cutoffs made by the first move;  vs naive: naive time / engine time;  check: root value "
                "and move against naive (tie: another move of the same value)",
    )
    for column in ("game", "position", "d", "engine", "nodes", "time s", "nodes/s", "of perft",
                   "1st cut", "value", "move", "vs naive", "check"):
        fixed.add_column(column, no_wrap=True, justify="right" if column in (
            "d", "nodes", "time s", "nodes/s", "of perft", "1st cut", "value", "vs naive") else "left")
    per_game = Table(title="per game: perft from the start, and pvs:time=1 from the start")
    for column in ("game", "perft d", "leaves/s (bulk)", "leaves/s (played)", "pvs depth in 1 s",
                   "pvs nodes/s", "pvs of perft"):
        per_game.add_column(column, no_wrap=True, justify="left" if column == "game" else "right")
    sunfish_table: Table | None = None
    sunfish_failure = ""

    with console.status("measuring…") as status:
        for name in games:
            status.update(f"measuring {name}: perft")
            leaves, bulk_rate, played_rate = perft_rates(name)
            for position in POSITIONS[name]:
                status.update(f"measuring {name}: {position.label}, depth {depths[name]}")
                for row in search_rows(position, depths[name], perft_rate=played_rate):
                    fixed.add_row(
                        row.game, row.position, str(row.depth), row.engine, f"{row.nodes:,}",
                        f"{row.seconds:.3f}", _rate(row.nps), _share(row.perft_share),
                        _share(row.first_cutoff_share), _value(row.value), row.move,
                        "" if row.speedup is None else f"{row.speedup:.1f}x", _check(row),
                    )
                fixed.add_section()
            status.update(f"measuring {name}: pvs for 1 s")
            pvs = pvs_row(POSITIONS[name][0])
            per_game.add_row(
                name, str(PERFT_DEPTHS[name]), _rate(bulk_rate), _rate(played_rate), str(pvs.depth),
                _rate(pvs.nps), _share(pvs.nps / played_rate),
            )
        if sunfish and UCI_GAME in games:
            import chess.engine

            status.update("measuring sunfish")
            sunfish_table = Table(title=f"chess: pvs:time=1 beside sunfish ({sunfish}) for 1 s")
            for column in ("position", "pvs depth", "pvs nodes/s", "sunfish depth", "sunfish nodes/s",
                           "pvs / sunfish"):
                sunfish_table.add_column(column, no_wrap=True,
                                         justify="left" if column == "position" else "right")
            try:
                measured = sunfish_rows(sunfish, POSITIONS[UCI_GAME])
            except (OSError, chess.engine.EngineError) as error:
                sunfish_failure = f"sunfish ({sunfish}) failed: {error}"
                measured = []
            for srow in measured:
                sunfish_table.add_row(
                    srow.position, str(srow.pvs_depth), _rate(srow.pvs_nps),
                    "-" if srow.sunfish_depth is None else str(srow.sunfish_depth),
                    _rate(srow.sunfish_nps), "-" if srow.ratio is None else f"{srow.ratio:.2f}x",
                )
    console.print(fixed)
    console.print(TARGETS)
    console.print(per_game)
    if sunfish_failure:
        console.print(sunfish_failure, markup=False)
    elif sunfish_table is not None:
        console.print(sunfish_table)
