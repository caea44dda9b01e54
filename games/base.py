"""The game protocol every game implements and every engine relies on.

A :class:`Game` is a *mutable position with a history*: search plays a move with
:meth:`Game.play`, looks at the result and takes it back with :meth:`Game.undo`.
Nothing on that path copies the position, which is what makes search fast.

Players are numbered ``0`` and ``1``; ``0`` is the side that moves first from the
standard start (chess White, checkers Black, Quixo X).  :attr:`Game.PLAYERS` gives
their display names.

Moves are small hashable values whose type belongs to the game (``chess.Move``
for chess, tuples for checkers, ints for Quixo).  Engines treat them as opaque
tokens: they come from :meth:`Game.legal_moves` and go back into
:meth:`Game.play`, :meth:`Game.format_move` and friends.

Heuristics are looked up by name and score a position from the point of view of
a given player; the larger the better for that player.  Heuristic values stay
well inside ``±HEURISTIC_BOUND`` so that engines can score wins and losses beyond
any of them (see :data:`WIN`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Callable, ClassVar, Generic, Hashable, Iterable, Sequence, TypeVar

__all__ = [
    "WIN",
    "HEURISTIC_BOUND",
    "Outcome",
    "Termination",
    "Solution",
    "TableRanking",
    "EndgameTables",
    "Game",
    "GameError",
    "PositionError",
    "MoveError",
    "MoveSyntaxError",
    "IllegalMoveError",
    "UnknownHeuristicError",
    "ReplayError",
    "Heuristic",
    "quote_input",
]

#: Score of a won position for the winner (engines subtract the distance to the
#: win so that quicker wins score higher).  Every heuristic stays far below it.
WIN = 1_000_000

#: Every heuristic value lies strictly inside ``(-HEURISTIC_BOUND, HEURISTIC_BOUND)``.
HEURISTIC_BOUND = 100_000


def quote_input(text: str, limit: int = 40) -> str:
    """``repr`` of text a user typed, cut to ``limit`` characters, for one-line error messages."""
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return repr(text)


class GameError(ValueError):
    """Base class of the errors raised for bad user input (positions, moves, names)."""


class PositionError(GameError):
    """A position text could not be read.  The message says what was expected."""


class MoveError(GameError):
    """A typed move was not accepted."""


class MoveSyntaxError(MoveError):
    """The move text is not in the game's notation at all."""


class IllegalMoveError(MoveError):
    """The move text is well formed but names no legal move in this position."""


class ReplayError(GameError):
    """A line of moves that cannot be replayed (see :meth:`Game.replay`): ``ply``
    is the move that failed (1 for the first), 0 for the start position, and
    ``cause`` the game's one-line reason."""

    def __init__(self, ply: int, cause: GameError) -> None:
        super().__init__(str(cause))
        self.ply = ply
        self.cause = cause

    def __reduce__(self) -> tuple[object, ...]:
        """Both arguments, so that the error pickles (to cross a process pool)."""
        return type(self), (self.ply, self.cause), self.__dict__


class UnknownHeuristicError(GameError, KeyError):
    """No heuristic of that name exists for the game."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


#: The longest move text a game reads: longer input is refused before any parser sees it.
MAX_MOVE_TEXT = 100
#: The longest position text a game reads.
MAX_POSITION_TEXT = 1000


def check_length(text: str, limit: int, what: str, error: type[GameError]) -> None:
    """Refuse ``text`` longer than ``limit`` characters at once, with a one-line ``error``."""
    if len(text) > limit:
        raise error(f"{what} is at most {limit} characters, got {len(text):,} ({quote_input(text)})")


class Termination(StrEnum):
    """The reasons a game ends for that more than one game gives, or that the players
    (the app, a match) give whatever the game: each member IS its short lowercase words
    (``Termination.TIME == "time"``), as python-chess's ``Termination`` names its reasons.
    A game's own reasons are a ``StrEnum`` of its own (chess's ``ChessTermination``:
    ``"checkmate"``, ``"stalemate"`` ...)."""

    THREEFOLD_REPETITION = "threefold repetition"
    TIME = "time"
    RESIGNATION = "resignation"
    AGREEMENT = "agreement"
    #: A player left a network game for longer than the host allows (lichess's "abandoned").
    ABANDONMENT = "abandonment"
    #: The reason a record or a results file gives, whatever its words (in ``said``).
    RECORDED = "as recorded"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``winner`` is the winning player's index (``0`` or ``1``) or ``None`` for a draw;
    ``reason`` a member of any ``StrEnum``, so its words are the member itself
    (``Termination.THREEFOLD_REPETITION``, chess's ``"checkmate"``, Quixo's ``"five in a
    row"``, checkers' ``"40-move rule"``...); ``said`` the words when they say more than the
    reason (``"time, White cannot win"``, a forfeit's cause, a record's own words).
    """

    winner: int | None
    reason: StrEnum
    said: str | None = None

    @property
    def text(self) -> str:
        """The words for the reason: ``said`` if given, else the reason's own."""
        return self.reason if self.said is None else self.said

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def result_for(self, player: int) -> float:
        """1.0 for a win of ``player``, 0.5 for a draw, 0.0 for a loss."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == player else 0.0


@dataclass(frozen=True, slots=True)
class Solution:
    """A position solved to the end of the game by the game's own solver (see
    :meth:`Game.solve`).

    ``value`` is the exact result with perfect play for the side to move, in the
    game's own units (Othello: the final disc difference): positive a win, 0 a
    draw, negative a loss; ``move`` a move that reaches it (``None`` when the
    game is over); ``nodes`` the positions searched; ``depth`` how far the solve
    looked, in the game's measure of what is left (Othello: the empty cells).
    """

    value: int
    move: Any
    nodes: int
    depth: int


@dataclass(frozen=True, slots=True)
class TableRanking:
    """The root as endgame tables rank it (see :meth:`EndgameTables.rank`).

    ``value`` is the result with perfect play for the side to move: 1 a win, 0 a
    draw, -1 a loss; ``moves`` the moves that keep it, best first (a win: the
    fastest; a loss: the longest resistance; a draw: every drawing move, in no
    order: the search chooses among them); ``plies`` how far the first one is
    from the end or the next irreversible move, in the tables' own measure.
    """

    value: int
    moves: tuple[Any, ...]
    plies: int


class EndgameTables(ABC):
    """Exact values of positions with few pieces, read from tables the user has
    (chess: Syzygy files, :mod:`games.chess.syzygy`); a game opens them with
    :meth:`Game.open_tables`.  The search asks :meth:`probe` inside its tree and
    :meth:`rank` at the root.  Neither ever raises: a table that is missing or
    cannot be read answers ``None`` and the search goes on without it."""

    #: The most pieces of a position the tables hold (0: none).
    pieces: int = 0

    @abstractmethod
    def probe(self, game: Game[Any]) -> int | None:
        """The value of ``game`` for the side to move (1 won, 0 drawn, -1 lost), or
        ``None`` when the tables do not say: too many pieces, a position the tables
        cannot be trusted in (chess: only right after a capture or a pawn move),
        or a table missing or unreadable."""

    @abstractmethod
    def rank(self, game: Game[Any]) -> TableRanking | None:
        """The root's value and the moves that keep it (see :class:`TableRanking`),
        or ``None`` when the tables do not hold it."""


G = TypeVar("G", bound="Game[Any]")
#: A game's move type: chess a ``chess.Move``, checkers a ``Move``, Quixo and Othello an ``int``.
M = TypeVar("M")

#: A heuristic maps (position, player) to a number, larger is better for ``player``.
Heuristic = Callable[[Any, int], float]


class Game(ABC, Generic[M]):
    """A position of one game, with the moves that led to it, generic over its move type ``M``.

    Subclasses set the class attributes and implement the abstract methods.  The
    constructor takes no arguments and gives the standard start position;
    :meth:`from_text` reads any other.
    """

    #: Registry name: ``"chess"``, ``"checkers"`` or ``"quixo"``.
    NAME: ClassVar[str]
    #: Display names of players 0 and 1, e.g. ``("White", "Black")``.
    PLAYERS: ClassVar[tuple[str, str]]
    #: Heuristics by name; each is ``f(game, player) -> float``.
    HEURISTICS: ClassVar[dict[str, Heuristic]]
    #: Heuristics read from a file, by kind: ``heuristic=KIND:PATH`` evaluates with
    #: ``HEURISTIC_FILES[KIND](PATH)`` (chess: ``network:my.npz``, a trained network).
    HEURISTIC_FILES: ClassVar[dict[str, Callable[[str], Heuristic]]] = {}
    #: Name of the heuristic used when none is asked for.
    DEFAULT_HEURISTIC: ClassVar[str]
    #: Name of the cheap heuristic the seed cutoffs (H0) use by default.
    CUT_HEURISTIC: ClassVar[str]
    #: Name of the strongest heuristic, the one the ``pvs`` engine searches with.
    STRONG_HEURISTIC: ClassVar[str]
    #: Name of the strongest hand-made heuristic where :attr:`STRONG_HEURISTIC` is a learned one
    #: (``None``: the strong heuristic is hand-made): what learned evaluations are measured against.
    HAND_MADE_HEURISTIC: ClassVar[str | None] = None
    #: Names of the entries of :meth:`features`, in order.
    FEATURE_NAMES: ClassVar[tuple[str, ...]]
    #: The value on the default heuristic's scale that learning targets use for
    #: a forced win: about a won game's worth.  Self-play datasets write
    #: ``+DECISIVE_SCORE`` (``-`` for a loss) where the search proved a result,
    #: instead of the engines' ``WIN``-based scores, which no regressor should fit.
    DECISIVE_SCORE: ClassVar[int]
    #: A legal position text and a legal move text, used in error messages and docs.
    EXAMPLE_POSITION: ClassVar[str]
    EXAMPLE_MOVE: ClassVar[str]
    #: One-line description of the move notation, used in error messages and help.
    MOVE_NOTATION: ClassVar[str]
    #: One-line description of the position text format.
    POSITION_NOTATION: ClassVar[str]
    #: Whether a side may move twice in a row (Kalah's last seed in its own store, a box
    #: completed in Dots and Boxes).  :attr:`turn` alone says who moves and the searches read
    #: it after every move, so they are right without this; it says how results read: a
    #: forced win is counted in plies, not in moves of two plies.
    MOVES_AGAIN: ClassVar[bool] = False

    # ----------------------------------------------------------------- creation
    @classmethod
    @abstractmethod
    def from_text(cls: type[G], text: str) -> G:
        """Read a position text (see :attr:`POSITION_NOTATION`).

        Raises :class:`PositionError` with a one-line message that says what was
        expected and gives an example.
        """

    @classmethod
    def from_user_text(cls: type[G], text: str) -> G:
        """A position text given by the user: :meth:`from_text`, then :meth:`check_reachable`.
        :func:`games.new_game` reads positions this way."""
        game = cls.from_text(text)
        game.check_reachable()
        return game

    def check_reachable(self) -> None:
        """Refuse (:class:`PositionError`, one line) a position the rules cannot reach, where
        that is cheap to see.  :meth:`from_text` reads any board the notation can write (the
        made-up positions of tests and analysis); a position from the user is checked too."""

    @abstractmethod
    def to_text(self) -> str:
        """The position text of the current position; ``from_text`` reads it back."""

    @abstractmethod
    def copy(self: G) -> G:
        """An independent copy of the position *and* its history.

        Not for the search hot path: use :meth:`play`/:meth:`undo` there.
        """

    # ---------------------------------------------------------------- the rules
    @property
    @abstractmethod
    def turn(self) -> int:
        """The index (0 or 1) of the player to move.

        Only ``turn`` says who moves: a move need not hand the turn over (see
        :attr:`MOVES_AGAIN`).  A search negates a child's value only where ``turn``
        changed, and views number and colour moves by the side that played them."""

    @abstractmethod
    def legal_moves(self) -> list[M]:
        """The legal moves by the rules of movement, in a fixed order.

        Empty when the side to move has no move or when the game has been won on
        the board (checkmate, five in a row, no pieces).  Draws that depend on
        history (repetition, move counters, move caps) are reported by
        :meth:`outcome` only and do not empty this list.
        """

    def count_moves(self) -> int:
        """``len(self.legal_moves())``, possibly without building the moves (perft)."""
        return len(self.legal_moves())

    @abstractmethod
    def play(self, move: M) -> None:
        """Play a legal move (not checked: pass only moves from :meth:`legal_moves`)."""

    @abstractmethod
    def undo(self) -> M:
        """Take back the last move played and return it.  Raises ``IndexError`` if none."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The outcome if the game is over (including draws by rule), else ``None``."""

    @abstractmethod
    def key(self) -> Hashable:
        """A hashable key equal for equal positions (board and side to move).

        Suitable for transposition tables; it does not include history counters.
        """

    @property
    @abstractmethod
    def ply(self) -> int:
        """Number of moves played from the position the game was created at."""

    @property
    @abstractmethod
    def move_stack(self) -> Sequence[M]:
        """The moves played so far, oldest first (read-only view)."""

    def is_capture(self, move: M) -> bool:
        """True if ``move`` takes material (used for ordering and quiescence)."""
        return False

    def is_irreversible(self, move: M) -> bool:
        """True if no later move can undo ``move``'s change (chess: a capture or a
        pawn move, which zero the 50-move counter; checkers: a capture or a man's
        step).  Match runners restart their draw adjudication count after one."""
        return self.is_capture(move)

    def capture_score(self, move: M) -> int:
        """How promising ``move`` looks before searching it: 0 for a quiet move,
        larger for captures that take more for less (MVV-LVA in chess).

        Engines search moves with higher scores first; the default ranks every
        capture above every quiet move.
        """
        return 1 if self.is_capture(move) else 0

    def capture_scores(self, moves: Sequence[M]) -> list[int]:
        """:meth:`capture_score` of each of ``moves`` (games may do it faster in bulk)."""
        score = self.capture_score
        return [score(move) for move in moves]

    def can_win(self, player: int) -> bool:
        """Whether ``player`` could still win by some series of legal moves: when
        the opponent's clock falls, ``player`` wins on time only if so (chess:
        not without mating material).  The default: always."""
        return True

    def can_stand_pat(self) -> bool:
        """Whether a quiescence search may trust the static evaluation here.

        False when it must not: in check in chess (so checkmate too), a
        compulsory jump pending in checkers, and whenever the game is won on
        the board (no moves, no pieces, five in a row).  Then a quiescence
        search looks at every :meth:`tactical_moves` and, if there are none,
        asks :meth:`outcome`.  Quiescence does not look for draws by rule.
        The default: not won on the board, judged by :meth:`outcome`.
        """
        outcome = self.outcome()
        return outcome is None or outcome.winner is None

    def tactical_moves(self) -> list[M]:
        """The moves a quiescence search still looks at here: captures and
        queen promotions in chess (every evasion when in check), the jumps in
        checkers, none in Quixo.  The default: the captures."""
        return [m for m in self.legal_moves() if self.is_capture(m)]

    def opening(self) -> str | None:
        """The name of the opening played to reach this position, as players know it
        (chess: ``C60 Ruy Lopez``, its ECO code first), or ``None`` where the game names
        none.  The default: none."""
        return None

    #: The switches of the game's endgame solver (:meth:`solve`'s ``off``), each a
    #: refinement the endgame benchmark can measure by turning it off; none without a solver.
    SOLVER_SWITCHES: ClassVar[tuple[str, ...]] = ()

    def left_to_solve(self) -> int | None:
        """What is left of the game in the measure :meth:`solve` compares with its ``reach``
        (Othello: the empty cells); ``None`` where the game has no solver.  Callers ask this,
        never an attribute of one game, to know whether a solve is near."""
        return None

    def solve(self, reach: int, tick: Callable[[int], object] | None = None,
              off: Iterable[str] = ()) -> Solution | None:
        """The exact value of this position and a best move, from the game's own
        endgame solver, when what is left to play is within ``reach`` (in the
        game's measure: Othello's empty cells); ``None`` when it is not, or when
        the game has no solver (the default).  ``tick(nodes)`` is called as the
        solve goes with the positions searched since its last call; it may raise
        to abandon the solve (the search core's stop), which leaves this
        position as it was.  ``off`` names :attr:`SOLVER_SWITCHES` to turn off
        (the same value, found more slowly: for measurements)."""
        return None

    @classmethod
    def open_tables(cls, path: str) -> EndgameTables:
        """The game's endgame tables in the folder ``path`` (see
        :class:`EndgameTables`); a :class:`GameError` of one line when the folder
        holds none or cannot be read, or the game has no tables (the default)."""
        raise GameError(f"{cls.NAME} has no endgame tables")

    @classmethod
    def default_tables(cls) -> EndgameTables | None:
        """The endgame tables the search uses when its ``tables`` option names no folder
        (checkers: the database the user built into the data directory), or ``None``
        when there are none (the default: a game's tables must be named)."""
        return None

    # --------------------------------------------------- what selective searches may ask
    def in_check(self) -> bool:
        """Whether the side to move is in check (chess): a search extends such
        positions by a ply.  The default: never."""
        return False

    def null_move_ok(self) -> bool:
        """Whether a search may try passing here (null-move pruning): a pass
        proves a position good only where zugzwang is rare.  Chess allows it
        when not in check and the side to move has a piece besides pawns and
        king; the default (checkers, Quixo, where zugzwang is common) never."""
        return False

    def play_null(self) -> None:
        """Pass the move to the opponent (only where :meth:`null_move_ok`)."""
        raise NotImplementedError(f"{self.NAME} has no null move")

    def undo_null(self) -> None:
        """Take back :meth:`play_null`."""
        raise NotImplementedError(f"{self.NAME} has no null move")

    def capture_gain(self, move: M) -> int | None:
        """The material a capture (or promotion) wins, in the strong heuristic's
        units, for delta pruning in quiescence; ``None`` when the game cannot say
        (the default: no delta pruning)."""
        return None

    # ------------------------------------------------------ moves as integers
    def move_code(self, move: M) -> int:
        """``move`` as a non-negative int below 2**53 that means the same move in
        any position (a transposition table shared between processes stores
        moves this way), or -1 when it has none.  The default: none."""
        return -1

    def move_from_code(self, code: int) -> M | None:
        """The legal move here whose :meth:`move_code` is ``code``, or ``None``
        (no such move is legal in this position)."""
        for move in self.legal_moves():
            if self.move_code(move) == code:
                return move
        return None

    # ----------------------------------------------------------------- notation
    @abstractmethod
    def format_move(self, move: M) -> str:
        """The move in the game's notation (must be legal in the current position)."""

    @abstractmethod
    def parse_move(self, text: str) -> M:
        """Parse a move typed in the game's notation and check it is legal here.

        Raises :class:`MoveSyntaxError` when the text is not in the notation and
        :class:`IllegalMoveError` when it names no legal move; both messages say
        what was expected and give an example.
        """

    # ------------------------------------------------------ evaluation/learning
    @classmethod
    def heuristic(cls, name: str | None = None) -> Heuristic:
        """The heuristic called ``name`` (the default one if ``None``)."""
        if name is None:
            name = cls.DEFAULT_HEURISTIC
        if name in cls.HEURISTICS:
            return cls.HEURISTICS[name]
        kind, colon, path = name.partition(":")
        if colon and kind in cls.HEURISTIC_FILES:
            return _file_heuristic(cls, kind, path)
        known = ", ".join(sorted(cls.HEURISTICS) + [f"{kind}:FILE" for kind in sorted(cls.HEURISTIC_FILES)])
        raise UnknownHeuristicError(f"unknown {cls.NAME} heuristic {quote_input(name)}; expected one of: {known}")

    def evaluate(self, player: int, heuristic: str | None = None) -> float:
        """Score the position for ``player`` with the named heuristic."""
        return self.heuristic(heuristic)(self, player)

    @abstractmethod
    def features(self, player: int) -> list[float]:
        """Numeric features of the position seen by ``player`` (see :attr:`FEATURE_NAMES`)."""

    # ------------------------------------------------------------------ helpers
    def play_text(self, text: str) -> M:
        """Parse ``text``, play it and return the move."""
        move = self.parse_move(text)
        self.play(move)
        return move

    @classmethod
    def replay(cls: type[G], start: str | None, texts: Iterable[str],
               each: Callable[[G, int], None] | None = None) -> tuple[G, list[str]]:
        """The game from the position text ``start`` (``None``: the standard start)
        after the moves ``texts``, and those moves as the game writes them.
        ``each(game, ply)`` is called at the start (ply 0) and after each move
        (and may raise to stop).  A bad start or move is a :class:`ReplayError`."""
        try:
            game = cls.from_text(start) if start else cls()
        except GameError as error:
            raise ReplayError(0, error) from None
        if each is not None:
            each(game, 0)
        written = []
        for ply, text in enumerate(texts, 1):
            try:
                move = game.parse_move(text)
            except GameError as error:
                raise ReplayError(ply, error) from None
            written.append(game.format_move(move))
            game.play(move)
            if each is not None:
                each(game, ply)
        return game, written

    def play_all(self, texts: Iterable[str]) -> None:
        """Play a sequence of moves given in the game's notation."""
        for text in texts:
            self.play_text(text)

    def legal_move_texts(self) -> list[str]:
        """Every legal move, formatted."""
        return [self.format_move(m) for m in self.legal_moves()]

    def render(self) -> str:
        """A plain-text diagram of the board with coordinates (for CLIs and logs)."""
        return self.to_text()

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_text({self.to_text()!r})"


_FILE_HEURISTICS: dict[tuple[type[Game], str, str], Heuristic] = {}


def _file_heuristic(cls: type[Game], kind: str, path: str) -> Heuristic:
    """The heuristic ``kind`` reads from the file at ``path``, read once a process;
    a file it cannot use is an :class:`UnknownHeuristicError` naming the file."""
    key = (cls, kind, path)
    if key not in _FILE_HEURISTICS:
        if not path.strip():
            raise UnknownHeuristicError(f"heuristic {kind}:FILE needs the path of a file after '{kind}:'")
        try:
            _FILE_HEURISTICS[key] = cls.HEURISTIC_FILES[kind](path)
        except (OSError, ValueError) as error:
            raise UnknownHeuristicError(f"heuristic {kind}:FILE: {error}") from None
    return _FILE_HEURISTICS[key]
