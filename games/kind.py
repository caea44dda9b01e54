"""Everything a game is beyond its rules, in one object per game: :class:`GameKind`.

A game's package holds all that is particular to it: the rules (its
:class:`~games.base.Game` subclass), and what every other part of the
project needs to know of the game -- gathered here in its ``KIND``:

- the record format (:class:`~games.records.RecordFormat`: PGN, PDN, a move list);
- the opening books it reads beyond its records and lines of moves (chess
  EPD, the checkers ballots) and the books it ships (:mod:`games.books`);
- the board as front ends draw it (:class:`~games.board.BoardDescription`);
- how its scores read to a player and what they are worth (:class:`ScoreScale`, :class:`ScoreUnit`);
- how to type a move and a position (:attr:`GameKind.help`, :attr:`GameKind.position_hint`);
- its levels' noise, measured ratings and how they were measured (:class:`LevelPlan`);
- the positions and depths its benchmarks use, and the reference its
  move generation is timed against (:class:`BenchPlan`);
- its examples for tests (:class:`~games.samples.Samples`);
- where it has one, its learned network evaluation: a position's inputs and
  how trained weights become the network (:class:`NetworkPlan`).

The registry (:mod:`games`) lists the games' packages by name; nothing
outside a game's package asks which game it is: it asks the game's kind.
"""

from __future__ import annotations

import math

from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Mapping, Protocol, Sequence, TypeVar

from .base import HEURISTIC_BOUND, Game
from .board import BoardDescription
from .books import BookFormat, ShippedBook
from .records import RecordFormat
from .samples import Samples

__all__ = ["BenchPlan", "BenchPosition", "EndgamePlan", "SolveCase", "GameKind", "LevelPlan", "NetworkPlan", "PerftCase", "PerftReference",
           "ScoreScale", "ScoreUnit", "TablesPlan", "VERDICT_CHANCES", "VERDICT_WON", "TrainedNetwork", "by_tables", "tables_text"]


@dataclass(frozen=True)
class ScoreUnit:
    """The unit a player reads a game's scores in: chess pawns, checkers men, Othello discs.

    A game without one (Quixo, a plug-in that names none) reads its scores as a
    winning chance instead (:meth:`ScoreScale.signed`)."""

    #: The game's score worth one unit (100: a chess pawn, a checkers man).
    per: float
    #: The unit's name, one and many: ``pawn``/``pawns``, ``man``/``men``.
    one: str
    many: str
    #: Decimals written: 1 (``+0.9 pawns``), 0 (``+6 discs``).
    decimals: int = 1
    #: Written before a forced win's moves, as the game's players write it (chess:
    #: ``#``: ``#3``, ``#-3``); '' words it: ``win in 3``, ``loss in 3``.
    mate_sign: str = ""
    #: The most the unit can say, where it has a bound (Othello: 64 discs); ``None``: no bound.
    most: float | None = None
    #: What a score in the unit says, for the help (Othello: ``the final disc difference it
    #: predicts``); '' says just the unit.
    means: str = ""


def by_tables(score: float) -> bool:
    """Whether ``score`` is the endgame tables' result: beyond :data:`~games.base.HEURISTIC_BOUND`,
    where a search scores their win and no heuristic reaches."""
    return abs(score) > HEURISTIC_BOUND


def tables_text(score: float) -> str:
    """A score beyond :data:`~games.base.HEURISTIC_BOUND` as a player reads it: the endgame
    tables' result (a search scores their win above every heuristic's value, and their
    distance is not to mate, so it reads as neither pawns nor a mate)."""
    return "won (tables)" if score > 0 else "lost (tables)"


#: The words for a position by the winning chance of the side ahead: below each chance, its words
#: (``{side}``: the side ahead); from the last on, :data:`VERDICT_WON`.  A game's scores for them
#: follow from its ``win_scale`` (:meth:`ScoreScale.bands`): chess about 0.4, 1.1 and 3.0 pawns.
VERDICT_CHANCES: tuple[tuple[float, str], ...] = (
    (0.54, "equal"), (0.60, "{side} is slightly better"), (0.75, "{side} is better"),
)
VERDICT_WON = "{side} is winning"


@dataclass(frozen=True)
class ScoreScale:
    """How a game's scores read, and what they are worth.

    Scores are in the units of the game's heuristics (chess centipawns,
    checkers a man = 100, Quixo's line potential), which mean different things.
    """

    #: What a score is divided by to read in the game's unit (100: a chess pawn
    #: or a checkers man; 1: Quixo's raw score).
    unit: float
    #: The unit's name, one and many (``pawn``/``pawns``); '' where it has none.
    unit_name: str
    #: The score worth a winning chance of 1 / (1 + e^-1), about 73%: 272
    #: centipawns in chess (the curve lichess fits to its games), 150 in
    #: checkers (a man and a half), 250 in Quixo (a line of four).
    win_scale: float
    #: The depth the game report searches every position to.
    report_depth: int
    #: The depth of the search that finds puzzles (engines.puzzles; the check searches two plies deeper).
    puzzle_depth: int
    #: Plies to play before an engine accepts a draw offer.
    draw_min_plies: int
    #: How far from 0 a position's score may be for an opening book to call it
    #: balanced (``tui-games book --balanced``): a winning chance within about
    #: 50% +- 4.5%, 0.18 of :attr:`win_scale` (50 centipawns in chess).
    balanced: float = 0.0
    #: The unit a player reads scores in (:meth:`signed`); ``None``: scores read as the
    #: winning chance of the side they are for (``64%``).
    reading: ScoreUnit | None = None
    #: What a puzzle's move must leave the player (engines.puzzle_lines): a winning chance of at
    #: least ``puzzle_win``, the second best move ``puzzle_gap`` of winning chance worse; ``None``:
    #: the usual 80% and 30% (engines.puzzles' WIN_CHANCE, GAP_CHANCE).  Checkers: a man won
    #: (80% is two men up, which noisy games rarely give after one slip).
    puzzle_win: float | None = None
    puzzle_gap: float | None = None

    def in_units(self, score: float) -> str:
        """A score in the game's unit, as a record's ``[%eval]`` gives it:
        ``1.35`` (chess: pawns), ``-12`` (Quixo: its raw score)."""
        value = score / self.unit
        return f"{value:.2f}" if self.unit != 1.0 else f"{value:g}"

    def signed(self, score: float, mate: int | None = None, *, unit: bool = True) -> str:
        """A score for one side as a player reads it, the one unit every view uses (:attr:`reading`):
        ``+0.9 pawns``, ``#3`` and ``#-3`` (chess), ``+1.5 men`` (checkers), ``+6 discs``
        (Othello: the final disc difference it predicts); ``64%`` (the winning chance,
        where the game names no unit); a forced win's moves without a mate sign:
        ``win in 3``, ``loss in 3``; a result the endgame tables know (a score beyond
        :data:`~games.base.HEURISTIC_BOUND`): ``won (tables)``.  ``unit=False`` leaves the unit's name out (``+0.9``)."""
        reading = self.reading
        if mate is not None:
            if reading is not None and reading.mate_sign:
                return f"{reading.mate_sign}{mate}"
            return f"{'win' if mate > 0 else 'loss'} in {abs(mate)}"
        if by_tables(score):
            return tables_text(score)
        if reading is None:
            chance = self.chance(score)
            return "<1%" if chance < 0.005 else ">99%" if chance > 0.995 else f"{chance:.0%}"
        value = round(score / reading.per, reading.decimals)
        if reading.most is not None:
            value = max(-reading.most, min(reading.most, value))
        number = f"{value:+.{reading.decimals}f}"
        if value == 0:
            number = number[1:]  # level: no sign
        if not unit:
            return number
        return f"{number} {reading.one if abs(value) == 1 and reading.decimals == 0 else reading.many}"

    def legend(self) -> str:
        """What the scores say, in a sentence for the help: the unit, an example each way, and
        how a forced win reads."""
        reading, first = self.reading, "the first player"
        if reading is None:
            text = (f"{first}'s winning chance: {self.signed(self.win_scale)}, {first} wins about three games "
                    f"in four; {self.signed(0)} even; {self.signed(-self.win_scale)}, the other side is better")
        else:
            better = reading.per * (1.5 if reading.decimals else 6)
            text = (f"{first}'s advantage in {reading.many}" + (f", {reading.means}" if reading.means else "")
                    + f": {self.signed(better)}, {first} is better by {self.signed(better, unit=False)[1:]}; "
                    f"{self.signed(-better, unit=False)}, the other side is")
        win, loss = self.signed(0, 3), self.signed(0, -3)
        return f"{text}; {win}: {first} forces a win in 3 moves, {loss}: a loss in 3"

    def bands(self) -> tuple[tuple[float, str], ...]:
        """The scores (for one side, in the game's heuristic units) where the words for a position
        change, each with the words up to it: the winning chances of :data:`VERDICT_CHANCES`
        turned into this game's scores through its :attr:`win_scale`."""
        return tuple((self.win_scale * math.log(chance / (1.0 - chance)), words)
                     for chance, words in VERDICT_CHANCES)

    def verdict(self, score: float, mate: int | None, first: str, second: str) -> str:
        """A score for the first player (``first``; the other: ``second``) in words a player reads:
        ``equal``, ``White is slightly better``, ``Black is winning``, ``White mates in 3``
        (chess; ``X wins in 3`` where the game has no mate), ``Black wins (tables)``."""
        reading = self.reading
        if mate is not None:
            side = first if mate > 0 else second
            wins = "mates" if reading is not None and reading.mate_sign else "wins"
            return f"{side} {wins} in {abs(mate)}"
        side = first if score > 0 else second
        if by_tables(score):
            return f"{side} wins (tables)"
        for bound, words in self.bands():
            if abs(score) < bound:
                return words.format(side=side)
        return VERDICT_WON.format(side=side)

    def plotted(self, score: float) -> float:
        """A score on the scale it is charted on: in the unit (pawns) or, where the game has
        none, the winning chance's points above 50% (-50 to +50)."""
        if self.reading is None:
            return (self.chance(score) - 0.5) * 100.0
        return score / self.reading.per

    def chance(self, score: float, mate: int | None = None) -> float:
        """A side's winning chance, 0 to 1, from its score (a mate is 1, being mated 0)."""
        if mate is not None:
            return 1.0 if mate > 0 else 0.0
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, score / self.win_scale))))


@dataclass(frozen=True)
class LevelPlan:
    """A game's levels, beginner to master, as numbers: how noisy the easy ones
    are, and the ratings each earned and how they were measured."""

    #: Leaf-evaluation noise of the beginner and casual levels, in the game's heuristic units.
    noise: tuple[int, int]
    #: What the casual level's two plies see beyond the moves (``" and quiescence"``).
    casual_sees: str
    #: The measured ``(rating, margin)`` of each level, weakest first (``(None, None)``: not measured).
    ratings: tuple[tuple[int | None, int | None], ...]
    #: What the ratings are relative to (``random = 0``).
    scale: str = "random = 0"
    #: The same in a player's words (``Stockfish's scale``, ``random play = 0``).
    scale_words: str = "random play = 0"
    #: The pairings a measurement plays, by player name (levels, ``random``,
    #: rungs); none: the usual chain up from ``random``.
    pairings: tuple[tuple[str, str], ...] = ()
    #: The players a measurement holds at fixed ratings.
    anchors: Mapping[str, float] = field(default_factory=lambda: {"random": 0.0})
    #: Players from outside the ladder a measurement meets, by name: their engine specs.
    rungs: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class BenchPosition:
    """A benchmark position: its text (``None``: the start) and the moves that
    reach it from the start (a test checks they do)."""

    label: str
    text: str | None
    moves: tuple[str, ...] = ()


@dataclass(frozen=True)
class PerftReference:
    """Another way to count the same leaves, timed beside the game's perft.

    ``count(position, depth)`` returns the leaves (the position text ``None``
    for the start), or ``None`` when the reference cannot run here (a package
    that is not installed); ``depth_less`` plies fewer are asked of a slow one."""

    name: str
    count: Callable[[str | None, int], int | None]
    depth_less: int = 0

    def label(self, depth: int) -> str:
        """The reference as a table names it (with its depth when it counts fewer plies)."""
        return f"{self.name} d{depth}" if self.depth_less else self.name


@dataclass(frozen=True)
class PerftCase:
    """A row of the perft benchmark: a position, its depths (full and quick) and the
    target its ratio to the reference aims at; ``no_bulk`` adds a row that plays
    every leaf."""

    label: str
    text: str | None
    depth: int
    quick_depth: int
    target: str = ""
    no_bulk: bool = False


@dataclass(frozen=True)
class SolveCase:
    """A position with a published exact value, for the game's endgame solver
    (``bench endgame``): its ``number`` in its test set, the position text, the
    value (:attr:`games.base.Solution.value`) and the best moves, as texts."""

    number: int
    position: str
    value: int
    best: tuple[str, ...]


@dataclass(frozen=True)
class BenchPlan:
    """What the benchmarks measure of a game."""

    #: The search benchmark's positions: the start first, then middlegames.
    positions: tuple[BenchPosition, ...]
    #: ``(full, quick)`` depths of the fixed-depth search benchmark, of its warm-table
    #: comparison and of the parallel search's time to depth.
    search_depth: tuple[int, int]
    warm_depth: tuple[int, int]
    parallel_depth: tuple[int, int]
    #: The perft depth the search benchmark compares nodes/s with.
    perft_depth: int
    #: The perft benchmark's rows and the reference they are timed against.
    perft: tuple[PerftCase, ...]
    reference: PerftReference | None = None
    #: The exact solver's test positions and where they come from (read when the
    #: endgame benchmark runs; ``None``: the game has no solver).
    solve_cases: Callable[[], tuple[SolveCase, ...]] | None = None
    solve_source: str = ""


class TrainedNetwork(Protocol):
    """A network built from trained weights: it evaluates many positions' inputs at once and saves itself."""

    def batch(self, inputs: Any) -> Any: ...

    def save(self, path: Any) -> Any: ...


@dataclass(frozen=True)
class NetworkPlan:
    """A game's learned evaluation by a network over its pieces' squares (chess:
    :mod:`games.chess.network`): what training needs to know of it."""

    #: The number of inputs (chess: 768, a piece kind on a square).
    inputs: int
    #: The inputs that are on for a position text, seen by its side to move.
    active: Callable[[str], Sequence[int]]
    #: A network from float weights (first layer inputs x hidden, its bias, output weights of both
    #: views -- the side to move's, then the other's -- and output bias).
    build: Callable[[Any, Any, Any, float], TrainedNetwork]
    #: The heuristic that evaluates with the network bundled in the game's package.
    heuristic: str
    #: For each input of the side to move, the same piece on the same square as the other side sees it.
    other_view: Sequence[int] = ()
    #: Whether a position text is quiet -- its value is not a tactic in progress -- and so fit to train
    #: on (the network is asked only at the quiescence search's quiet leaves); ``None``: all are.
    quiet: Callable[[str], bool] | None = None


@dataclass(frozen=True)
class TablesPlan:
    """A game's evaluation of a tapered linear form -- a midgame and an endgame value per term,
    blended by the game's phase, plus a tempo -- that training fits to data (Texel tuning): what
    training needs to know of it.  Chess's terms are its pieces on their squares (``pesto``'s form,
    fitted again from PeSTO's tables); checkers', Quixo's and Othello's are the states of patterns
    on their boards and a few counts (:mod:`games.learned`), fitted from nothing.
    """

    #: The values of one table (chess: 6 kinds x 64 squares).
    weights: int
    #: For a position text: the values that count (indices), what each counts (chess: +1 for the
    #: side to move's pieces, -1 for the other's; a count's value), and the phase (1.0: the opening,
    #: 0.0: the end).
    terms: Callable[[str], tuple[Sequence[int], Sequence[float], float]]
    #: The tables the fit starts from: midgame, endgame (in the game's score) and tempo.
    start: Callable[[], tuple[Any, Any, float]]
    #: Writes fitted tables (midgame, endgame, tempo) to a new file the heuristic reads.
    save: Callable[[Any, Any, float, Any], Any]
    #: The heuristic kind that reads such a file (``tables``: ``heuristic=tables:FILE``).
    heuristic: str
    #: Whether a position text is quiet (see :attr:`NetworkPlan.quiet`); ``None``: all are.
    quiet: Callable[[str], bool] | None = None
    #: What the fit starts from, in a sentence (chess: PeSTO's tables; ``None``: every entry 0).
    starts_from: str | None = None
    #: The unit the fit works in, where it is not the score scale's (:attr:`ScoreScale.unit`): the
    #: loss compares winning chances ``sigmoid(score / (4 units))``, so a quarter of the score worth
    #: about 73% (:attr:`ScoreScale.win_scale`) for the games whose unit is a raw score.
    unit: float | None = None


G = TypeVar("G", bound=Game)


@dataclass(frozen=True)
class EndgamePlan:
    """A game's endgame database, built by the user (checkers: :mod:`games.checkers.endgame`):
    what ``endgame build`` and ``endgame check`` run.  ``say`` takes a line of progress."""

    #: Build every position of up to ``pieces`` pieces into a folder (files already there and
    #: sound are kept: a stopped build resumes); a ``ValueError`` of one line on a problem.
    build: Callable[[Any, int, Callable[[str], object]], object]
    #: The self-consistency pass over a built folder: the positions checked, or a ``ValueError``.
    check: Callable[[Any, int, Callable[[str], object]], int]
    #: Where the search finds the database by default (the user data directory's).
    folder: Callable[[], Any]
    #: The pieces built when none are asked, and the most the build takes.
    pieces: int
    most: int


@dataclass(frozen=True)
class GameKind(Generic[G]):
    """One game, whole: its rules and all the rest (see the module docstring)."""

    game: type[G]
    #: The game's name in a sentence: ``chess``, ``checkers``, ``Quixo``.
    title: str
    records: RecordFormat
    board: BoardDescription[G]
    scores: ScoreScale
    levels: LevelPlan
    bench: BenchPlan
    #: How to type a move, for the help (a few lines).
    help: str
    #: What the start screen's position box accepts (one line).
    position_hint: str
    #: The distributions the rules come from (chess: python-chess): a dataset
    #: records their versions.
    libraries: tuple[str, ...] = ()
    #: The opening-book files it reads beyond its records and lines of moves (chess: EPD).
    book_formats: tuple[BookFormat, ...] = ()
    #: The opening books its package ships, by name (:mod:`games.books`).
    books: tuple[ShippedBook, ...] = ()
    #: Its learned network evaluation, if it has one.
    network: NetworkPlan | None = None
    #: Its tapered tables that training can fit again, if it has them.
    tables: TablesPlan | None = None
    #: How its bundled learned tables were made, step by step (:mod:`games.learned`'s steps; empty:
    #: it bundles none): what ``tui-games rebuild`` runs again.
    recipe: tuple[Any, ...] = ()
    #: Its examples for tests (:mod:`games.samples`): the shared tests and the conformance kit
    #: (:mod:`tui.conformance`) read every per-game fact they need here; none: the tests that need
    #: one skip.
    samples: Samples = field(default_factory=Samples)
    #: Its endgame database, if the user can build one.
    endgames: EndgamePlan | None = None

    @property
    def name(self) -> str:
        """The registry name (``chess``)."""
        return self.game.NAME
