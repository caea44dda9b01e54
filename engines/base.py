"""What every engine offers: limits in, a move with its score, PV and statistics out.

An :class:`Engine` is built from a spec (see :mod:`engines.spec`) for one game
class and searches positions of that game::

    engine = create_engine("alphabeta:depth=4", Checkers)
    result = engine.search(game, on_info=print, stop=event)
    result.move, result.score, result.stats.nodes

:meth:`Engine.search` never changes the game it is given (it searches a copy).
``stop`` is anything with ``is_set()`` (a ``threading.Event`` or a
``multiprocessing`` event): setting it from another thread or process makes the
search return within a few tens of milliseconds with the best move of its last
completed depth.  ``on_info`` receives a statistics snapshot (a :class:`SearchStats`) about ten
times a second and after every completed depth -- never once per node.

An engine object may search many positions of one game in turn (the app, the
UCI front end and a match reuse one per side): what it learns in one search
(its transposition table) serves the next, until :meth:`Engine.new_game`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Callable, NamedTuple, Protocol, Sequence, TypeVar

from games import WIN, Game, GameError

from .spec import EngineSpec

#: A game's move type (``Game[M]``): what the helpers below take and give back unchanged.
M = TypeVar("M")

__all__ = [
    "STAT_NAMES",
    "COUNTERS",
    "SearchStats",
    "PvLine",
    "MoveVisits",
    "MAX_PLY",
    "MATE_BOUND",
    "Clocks",
    "Limits",
    "SearchResult",
    "Engine",
    "StopFlag",
    "InfoCallback",
    "GameOverError",
    "mate_in",
    "line_texts",
    "check_playable",
    "root_moves",
    "restrict",
]

#: The statistics every search reports, by the names the panel, the command
#: line's JSON and match results use, in display order (the first fields of
#: :class:`SearchStats`).
STAT_NAMES: tuple[str, ...] = (
    "nodes", "evals", "prunes", "tt_hits", "depth", "time_s", "nps", "score", "best", "pv",
    "h0_evals", "h0_pruned", "hl_evals", "hl_pruned", "hr_evals", "hr_pruned",
)

#: The counters a search keeps while it runs (see :class:`engines.search.core.Control`);
#: all but ``seldepth`` (a maximum) add up over the processes of a parallel search.
COUNTERS: tuple[str, ...] = (
    "nodes", "evals", "prunes", "tt_hits", "first_cutoffs", "seldepth",
    "h0_evals", "h0_pruned", "hl_evals", "hl_pruned", "hr_evals", "hr_pruned",
)


class PvLine(NamedTuple):
    """One of the best root moves of a search asked for several (``multipv``):
    its score for the side to move, the moves to a forced result (or ``None``)
    and its line as move texts, the move first."""

    score: int
    mate: int | None
    pv: list[str]


class MoveVisits(NamedTuple):
    """A root move of a Monte Carlo search (``mcts``): its text, the playouts through it, its
    mean result for the side to move (1 a win, 0.5 a draw, 0 a loss, a cut playout its winning
    chance) and, once the search proved it, ``win``, ``draw`` or ``loss`` (else ``None``)."""

    move: str
    visits: int
    value: float
    proven: str | None


@dataclass
class SearchStats(Mapping[str, Any]):
    """The statistics of a search, live or final: one type from the core to
    every reader (the engine panel, ``search --json``, match results, UCI).

    ``score`` is for the side to move, ``mate`` the moves to a forced win
    (positive) or loss (negative) when one is proved, ``best`` and ``pv`` are
    move texts.  The ``h0_``/``hl_``/``hr_`` pairs count the children a cutoff
    scored and dropped; ``first_cutoffs`` the beta cutoffs made by the first
    move searched; ``engine`` is the spec searched with; ``lines`` the best
    root moves with their scores and lines, best first, when the search was
    asked for more than one (``multipv``; else empty); ``solved`` the exact
    value the game's own solver proved for the root, in the game's units
    (Othello: the final disc difference for the side to move), ``None`` when
    the root was searched rather than solved.  A Monte Carlo search (``mcts``) also
    fills ``playouts`` (the iterations run, each one playout or a proven result
    backed up) and ``visits``, the root's moves with their visits and values, most
    visited first; ``nodes`` is then its tree's size and ``depth`` the deepest
    path its selection walked.

    It reads as a mapping too, by field name (``stats["nodes"]``,
    ``set(stats)``), and :meth:`as_dict` gives the plain dict written as JSON.
    """

    nodes: int = 0
    evals: int = 0
    prunes: int = 0
    tt_hits: int = 0
    depth: int = 0
    time_s: float = 0.0
    nps: int = 0
    score: int = 0
    best: str | None = None
    pv: list[str] = field(default_factory=list)
    h0_evals: int = 0
    h0_pruned: int = 0
    hl_evals: int = 0
    hl_pruned: int = 0
    hr_evals: int = 0
    hr_pruned: int = 0
    mate: int | None = None
    seldepth: int = 0
    first_cutoffs: int = 0
    engine: str = ""
    lines: list[PvLine] = field(default_factory=list)
    solved: int | None = None
    playouts: int = 0
    #: Set after construction, not an argument: only a Monte Carlo search has it.
    visits: list[MoveVisits] = field(default_factory=list, init=False)

    def __getitem__(self, name: str) -> Any:
        if name not in _STAT_FIELDS:
            raise KeyError(name)
        return getattr(self, name)

    def __iter__(self) -> Iterator[str]:
        return iter(_STAT_FIELDS)

    def __len__(self) -> int:
        return len(_STAT_FIELDS)

    def as_dict(self) -> dict[str, Any]:
        """A plain dict by field name, in field order (``pv`` copied)."""
        values = {name: getattr(self, name) for name in _STAT_FIELDS}
        values["pv"] = list(self.pv)
        values["lines"] = list(self.lines)
        values["visits"] = list(self.visits)
        return values

    def copy(self, **changes: Any) -> SearchStats:
        """A copy, with ``changes`` applied (``pv`` is never shared)."""
        values = self.as_dict()
        values.update(changes)
        visits = values.pop("visits")
        stats = SearchStats(**values)
        stats.visits = list(visits)
        return stats


_STAT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(SearchStats))

#: Deepest ply a search may reach (main search plus quiescence).
MAX_PLY = 128

#: Scores beyond this are wins or losses: ``WIN - plies`` to the end of the game.
MATE_BOUND = WIN - 2 * MAX_PLY


class StopFlag(Protocol):
    """Anything that says whether to stop: ``threading.Event``, ``multiprocessing.Event``."""

    def is_set(self) -> bool: ...


InfoCallback = Callable[[SearchStats], None]


class GameOverError(GameError):
    """Asked to search a position where the game is already over."""


@dataclass(frozen=True)
class Clocks:
    """Both sides' clocks as a search starts: the seconds ``left`` and the
    ``increment`` of the first player and of the second, and the moves until
    the next time control adds time (``None``: none comes); ``margin``: the
    seconds a side may go beyond its clock before it loses on time (a match's
    ``timemargin``)."""

    left: tuple[float, float]
    increment: tuple[float, float] = (0.0, 0.0)
    moves_to_go: int | None = None
    margin: float = 0.0


@dataclass(frozen=True)
class Limits:
    """When to stop: after ``depth`` plies, ``time`` seconds or ``nodes`` nodes.

    ``None`` means no limit of that kind.  With ``time`` or ``nodes`` the search
    deepens iteratively and returns the best move of the last completed depth.
    A ``time`` is used in full (a fixed time: UCI's ``movetime``, a spec's
    ``time=``) unless ``flexible``: a budget derived from a clock, which the
    search may end early when its next depth would not finish in it.
    ``clocks``, when the budget came from clocks, are those clocks: an engine
    that manages its own time (a UCI engine) is told them instead.
    """

    depth: int | None = None
    time: float | None = None
    nodes: int | None = None
    flexible: bool = False
    clocks: Clocks | None = None


@dataclass
class SearchResult:
    """The outcome of one search.

    ``score`` is from the point of view of the side to move, in the units of
    the heuristic searched with; wins and losses are beyond
    :data:`MATE_BOUND` (see :func:`mate_in`).  ``pv`` holds move objects,
    ``stats.pv`` the same line as texts.
    """

    move: Any
    score: int
    pv: list[Any] = field(default_factory=list)
    stats: SearchStats = field(default_factory=SearchStats)

    @property
    def depth(self) -> int:
        return self.stats.depth


def mate_in(score: float, *, plies: bool = False) -> int | None:
    """Moves (not plies) to a forced win (positive) or loss (negative), else ``None``.

    The search scores a win ``WIN`` less the plies to it; a move is two plies where the sides
    alternate.  With ``plies`` (a game where a side may move again,
    :attr:`~games.Game.MOVES_AGAIN`) the count is in plies: no pairing of them holds there."""
    if score >= MATE_BOUND:
        left = WIN - int(score)
        return left if plies else (left + 1) // 2
    if score <= -MATE_BOUND:
        left = WIN + int(score)
        return -(left if plies else (left + 1) // 2)
    return None


def line_texts(game: Game[M], line: Sequence[M]) -> list[str]:
    """The moves of ``line`` as texts, each written in the position it is played in (played and
    taken back: ``game`` ends as it was)."""
    texts = []
    for move in line:
        texts.append(game.format_move(move))
        game.play(move)
    for _ in line:
        game.undo()
    return texts


def check_playable(game: Game[M]) -> list[M]:
    """The legal moves, or :class:`GameOverError` if the game is over."""
    outcome = game.outcome()
    if outcome is not None:
        winner = "draw" if outcome.winner is None else f"{game.PLAYERS[outcome.winner]} won"
        raise GameOverError(f"the game is over ({winner}, {outcome.text}); there is no move to search")
    moves = game.legal_moves()
    if not moves:  # pragma: no cover - outcome() covers it for every game
        raise GameOverError("the side to move has no legal move; there is nothing to search")
    return moves


def restrict(legal: list[M], moves: Sequence[M]) -> list[M]:
    """The legal moves among ``moves``, in legal-move order; an error if none."""
    wanted = set(moves)
    kept = [move for move in legal if move in wanted]
    if not kept:
        raise GameError("none of the moves to search is legal here")
    return kept


def root_moves(game: Game[M], moves: Sequence[M] | None = None) -> list[M]:
    """The legal moves to choose from: all of them, or those among ``moves``
    (UCI's ``searchmoves``); :class:`GameOverError` if the game is over."""
    legal = check_playable(game)
    return legal if moves is None else restrict(legal, moves)


class Engine(ABC):
    """A search algorithm with its options, bound to one game class."""

    def __init__(self, spec: EngineSpec, game_class: type[Game]) -> None:
        self.spec = spec
        self.game_class = game_class

    @property
    def name(self) -> str:
        return self.spec.name

    def limits(self) -> Limits:
        """The limits the spec sets (``depth``, ``time``, ``nodes``)."""
        table = self.spec.table
        return Limits(
            depth=self.spec.get("depth") if "depth" in table else None,
            time=self.spec.get("time") if "time" in table else None,
            nodes=self.spec.get("nodes") if "nodes" in table else None,
        )

    @abstractmethod
    def search(self, game: Game, limits: Limits | None = None, *,
               stop: StopFlag | None = None, on_info: InfoCallback | None = None,
               moves: Sequence[Any] | None = None) -> SearchResult:
        """Choose a move for the side to move in ``game`` (left unchanged).

        ``limits`` replaces the spec's limits when given; ``moves`` restricts
        the choice to those legal moves (UCI's ``searchmoves``).  Raises
        :class:`GameOverError` if the game is over.
        """

    def new_stats(self) -> SearchStats:
        """The statistics of a search that has not started yet."""
        return SearchStats(engine=str(self.spec))

    def new_game(self) -> None:
        """Forget what earlier searches learned (a new game starts cold)."""

    def prepare(self) -> None:
        """Get ready to search at once (start worker processes), so that the
        first search's clock pays nothing for it; idempotent.  UCI calls it on
        ``isready``."""

    def close(self) -> None:
        """Release what the engine holds (worker processes); it may not search again."""

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec} for {self.game_class.NAME}>"
