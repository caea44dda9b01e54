"""A game's examples for tests: :class:`Samples`, the facts a test needs of one game.

The shared tests (ours and the conformance kit's, :mod:`tui.conformance`) are the same for every
game; what differs is data -- a line of moves worth drawing, two orders of moves that reach one
position, a move that is well formed but illegal at the start, published perft counts, the
characters near the game's notation for a fuzzer.  Each game's package gives its own in a
``samples`` module, and its kind carries them (:attr:`games.kind.GameKind.samples`), so a test
asks ``game_kind(name).samples`` and adding a game adds no line to a shared test.

Every field is optional: a test whose fact a game does not give skips for that game.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Decided", "NotationExample", "PerftCount", "Samples"]


@dataclass(frozen=True)
class PerftCount:
    """A published perft figure: the leaves ``depth`` plies below ``position`` (``None``: the start)."""

    position: str | None
    depth: int
    leaves: int


@dataclass(frozen=True)
class NotationExample:
    """A move as somebody may type it (``typed``) and as the game writes it (``written``), in
    ``position`` (``None``: the start)."""

    position: str | None
    typed: str
    written: str


@dataclass(frozen=True)
class Decided:
    """A ``position`` whose game ends inside a ``depth``-ply search: ``moves_to_end`` is the side
    to move's moves to its win, negative to its loss (``None``: the end lies beyond ``depth``).
    ``minimax`` is ``False`` where the full tree is too big for minimax (the pruning engines only)."""

    position: str
    depth: int
    moves_to_end: int | None
    minimax: bool = True


@dataclass(frozen=True)
class Samples:
    """One game's examples for tests (see the module docstring)."""

    #: Moves from the start that make a position worth drawing (pieces of both sides moved,
    #: crowned or captured where the game has such things).
    line: tuple[str, ...] = ()
    #: Two lines of moves from the start, in different orders, that reach the same position.
    transposition: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    #: A move text in the game's notation that names no legal move at the start.
    illegal_move: str | None = None
    #: Two position texts of one board with the other side to move (their keys differ).
    other_side: tuple[str, str] | None = None
    #: Positions where the game is over (won on the board, no moves, drawn).
    finished: tuple[str, ...] = ()
    #: Published perft counts (small: the shared tests count them all).
    perft: tuple[PerftCount, ...] = ()
    #: Moves as they are commonly typed and as the game writes them.
    notation: tuple[NotationExample, ...] = ()
    #: The characters near the game's move and position notations, so a fuzzer gets past the first
    #: syntax check ('' : printable text).
    move_alphabet: str = ""
    position_alphabet: str = ""
    #: The cells of the board as drawn in regions of the screen: ``((width, height), (cell width,
    #: cell height))``, for the board's regions in an 80x24 and a 120x40 terminal (40x18, 60x34).
    cells: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = ()
    #: A cheap heuristic, for tests that compare many searches' values (``None``: the default one).
    cheap_heuristic: str | None = None
    #: The depth the shared engine tests search random positions near the start to, full width and
    #: minimax included: as deep as stays cheap (a few thousand leaves). ``None``: 2.
    search_depth: int | None = None
    #: A position and a depth whose whole search tree is small (a few thousand nodes), for the
    #: recorded-tree tests that check every node against an independent minimax: ``(start or None
    #: for the usual, moves from it, depth)``. ``None``: those tests skip the game.
    small_tree: tuple[str | None, tuple[str, ...], int] | None = None
    #: Two characters, one for each side, whose exchange throughout a position text gives the
    #: same position with the sides' pieces and the side to move exchanged (Othello's ``"BW"``);
    #: ``None`` where exchanging the sides also moves the pieces (a board turned round).
    colour_swap: str | None = None
    #: Positions where the game ends inside a search, and when (:class:`Decided`).
    decided: tuple[Decided, ...] = ()
    #: How many puzzles the game ships, at least (a guard that its shipped set does not shrink).
    shipped_puzzles: int = 0
    #: Moves and whether each is irreversible (:meth:`~games.base.Game.is_irreversible`: a draw
    #: count starts again after it), as ``(position, ((move, irreversible), ...))`` (``None``: the start).
    irreversible: tuple[tuple[str | None, tuple[tuple[str, bool], ...]], ...] = ()
    #: A depth deep enough that a search of a position near the start is real work (a helper
    #: process has a share in it), for the parallel search tests. ``None``: those tests skip.
    deep_search_depth: int | None = None
    #: A book (lines of moves) holding a bad move, and the words its one-line refusal names the
    #: move with (``line 2: move 1 '11-19'``).
    bad_book: tuple[str, str] | None = None
    #: The plies a game of a tiny depth-2 self-play dataset is cut at: a second or two of play.
    dataset_plies: int = 10
    #: Self-play at depth 4 (with some random openings) reaches the game's end within 400 plies
    #: in a second or so: the dataset tests that read each game's outcome run for it.
    self_play_ends: bool = False
    #: The words the refusal of :attr:`illegal_move` says (part of the app's one-line answer).
    illegal_reason: str | None = None
    #: A position three or more plies from the game's end and an engine spec that plays it out
    #: quickly from both sides, for the app's tests of a game played to its end.
    near_end: tuple[str, str] | None = None
    #: For the app's screen snapshots (changing these changes the snapshots): the moves from the
    #: start to a game in progress ...
    middle: tuple[str, ...] = ()
    #: ... a start (``None``: the usual) and the moves that end the game from it ...
    ended: tuple[str | None, tuple[str, ...]] | None = None
    #: ... and moves to material off balance, with the eval to show there (the first player's
    #: view: a score and a mate distance or ``None``).
    off_balance: tuple[tuple[str, ...], float, int | None] | None = None
    #: Evals as a player reads them, in the game's one unit (:meth:`games.kind.ScoreScale.signed`):
    #: ``(score, mate distance or None, text)``.
    signed_scores: tuple[tuple[float, int | None, str], ...] = ()
    #: The game's pattern tables have a fast evaluation of their own (:attr:`games.learned.TermsForm.fast`),
    #: which the tests check against the generic one.
    fast_tables: bool = False
