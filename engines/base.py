"""What every engine offers: limits in, a move with its score, PV and statistics out.

An :class:`Engine` is built from a spec (see :mod:`engines.spec`) for one game
class and searches positions of that game::

    engine = create_engine("alphabeta:depth=4", Checkers)
    result = engine.search(game, on_info=print, stop=event)
    result.move, result.score, result.stats["nodes"]

:meth:`Engine.search` never changes the game it is given (it searches a copy).
``stop`` is anything with ``is_set()`` (a ``threading.Event`` or a
``multiprocessing`` event): setting it from another thread or process makes the
search return within a few tens of milliseconds with the best move of its last
completed depth.  ``on_info`` receives a statistics snapshot about ten times a
second and after every completed depth -- never once per node.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence

from games import WIN, Game, GameError

from .spec import EngineSpec

__all__ = [
    "STAT_NAMES",
    "MAX_PLY",
    "MATE_BOUND",
    "Limits",
    "SearchResult",
    "Engine",
    "StopFlag",
    "InfoCallback",
    "GameOverError",
    "mate_in",
]

#: The statistics every search reports, by their contract names (SPEC section 4),
#: in display order.  Snapshots and results carry all of them, plus ``mate``,
#: ``seldepth``, ``first_cutoffs`` (beta cutoffs by the first move searched) and
#: ``engine`` (the spec).
STAT_NAMES: tuple[str, ...] = (
    "nodes", "evals", "prunes", "tt_hits", "depth", "time_s", "nps", "score", "best", "pv",
    "h0_evals", "h0_pruned", "hl_evals", "hl_pruned", "hr_evals", "hr_pruned",
)

#: Deepest ply a search may reach (main search plus quiescence).
MAX_PLY = 128

#: Scores beyond this are wins or losses: ``WIN - plies`` to the end of the game.
MATE_BOUND = WIN - 2 * MAX_PLY


class StopFlag(Protocol):
    """Anything that says whether to stop: ``threading.Event``, ``multiprocessing.Event``."""

    def is_set(self) -> bool: ...


InfoCallback = Callable[[dict[str, Any]], None]


class GameOverError(GameError):
    """Asked to search a position where the game is already over."""


@dataclass(frozen=True)
class Limits:
    """When to stop: after ``depth`` plies, ``time`` seconds or ``nodes`` nodes.

    ``None`` means no limit of that kind.  With ``time`` or ``nodes`` the search
    deepens iteratively and returns the best move of the last completed depth.
    """

    depth: int | None = None
    time: float | None = None
    nodes: int | None = None


@dataclass
class SearchResult:
    """The outcome of one search.

    ``score`` is from the point of view of the side to move, in the units of
    the heuristic searched with; wins and losses are beyond
    :data:`MATE_BOUND` (see :func:`mate_in`).  ``stats`` holds every entry of
    :data:`STAT_NAMES` with ``best`` and ``pv`` as move texts.
    """

    move: Any
    score: int
    pv: list[Any] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def depth(self) -> int:
        return int(self.stats.get("depth", 0))


def mate_in(score: float) -> int | None:
    """Moves (not plies) to a forced win (positive) or loss (negative), else ``None``."""
    if score >= MATE_BOUND:
        return (WIN - int(score) + 1) // 2
    if score <= -MATE_BOUND:
        return -((WIN + int(score) + 1) // 2)
    return None


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

    def close(self) -> None:
        """Release what the engine holds (worker processes); it may not search again."""

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec} for {self.game_class.NAME}>"
