"""What a board looks like, as data: the description a game gives and any front end draws.

A game says what its board is made of -- a grid of cells with labels around
it, what stands on each cell (:class:`Piece`: a glyph, an ASCII letter, the
side whose colour it takes), which cells the last move touched
(:class:`Tint`) -- and which cells a move starts and ends on, so that a
player can point at them.  It says nothing of terminals or widgets: one
generic painter (in the user interface) draws every game from this.

Cells are ``(col, row)`` pairs with ``(0, 0)`` the top-left cell of the
board as the game draws it unturned (chess: a8; checkers: the corner beside
square 1; Quixo: the cell ``0 0``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, ClassVar, Generic, Mapping, Sequence, TypeVar

__all__ = [
    "BoardColours",
    "BoardDescription",
    "BoardLayout",
    "Cell",
    "Material",
    "Piece",
    "Square",
    "Tint",
]

#: A cell of the board: ``(col, row)``, ``(0, 0)`` the top-left of the unturned board.
Cell = tuple[int, int]


class Tint(Enum):
    """What the last move did to a cell (a front end tints it)."""

    #: Where the moving piece (a Quixo cube) came from.
    FROM = "from"
    #: Where it arrived, and the cells a multi-jump landed on on the way.
    TO = "to"
    #: Cells the move changed in passing: Quixo's shifted line, Othello's flipped discs.
    ALONG = "along"
    #: Where a piece was taken (checkers).
    TAKEN = "taken"
    #: A king in check.
    ALERT = "alert"


@dataclass(frozen=True, slots=True)
class Piece:
    """What stands on a cell: drawn as ``glyph`` (Unicode), or ``letter`` where
    glyphs misrender; ``side`` is the player whose colour it takes (``0`` moves
    first from the standard start), ``None`` for a neutral piece (a blank Quixo cube)."""

    glyph: str
    letter: str
    side: int | None
    #: The hollow glyph of the outlined piece set ('' : the solid one): the light side's pieces
    #: drawn as in printed diagrams, readable on any background and without colour.
    outline: str = ""


@dataclass(frozen=True)
class Material:
    """What each side has on the board (see :meth:`BoardDescription.material`)."""

    #: Per side (0 moves first), its pieces by letter.
    counts: tuple[Counter[str], Counter[str]]
    #: Per side, what its pieces are worth.
    values: tuple[float, float]
    #: The piece of each letter seen (for drawing it).
    pieces: Mapping[str, Piece]

    @property
    def balance(self) -> float:
        """The first side's worth less the second's."""
        return self.values[0] - self.values[1]

    def surplus(self, kind_of: Callable[[str], str]) -> tuple[list[str], list[str]]:
        """Per side, the pieces it has more of than the other, kind by kind (``kind_of``
        names a letter's kind), as the letters of the other side's pieces of that kind
        (the pieces it is up, as if taken; its own where the other has none left) --
        what lichess shows beside the players: the imbalance, so a promotion counts as
        what it is."""
        kinds: dict[str, list[int]] = {}
        letters: dict[tuple[str, int], str] = {}
        for side in (0, 1):
            for letter, count in self.counts[side].items():
                kind = kind_of(letter)
                kinds.setdefault(kind, [0, 0])[side] += count
                letters[kind, side] = letter
        extra: tuple[list[str], list[str]] = ([], [])
        for kind, (first, second) in sorted(kinds.items()):
            side = 0 if first > second else 1
            letter = letters.get((kind, 1 - side), letters[kind, side])
            extra[side].extend([letter] * abs(first - second))
        return extra


@dataclass(frozen=True, slots=True)
class Square:
    """One cell as it stands now: its shade, its piece, its label, its tint."""

    #: Light or dark (chessboard shading; games without it alternate too).
    light: bool
    piece: Piece | None = None
    #: A number written in the cell's corner (checkers' PDN numbers), '' for none.
    label: str = ""
    tint: Tint | None = None


@dataclass(frozen=True)
class BoardColours:
    """The game's own colours (hex ``#rrggbb``), as its players know the board."""

    light: str
    dark: str
    #: The background of each tint, on a light and on a dark cell.
    tints: Mapping[Tint, tuple[str, str]]
    #: The colour of each side's pieces, and of neutral ones.
    pieces: tuple[str, str]
    neutral: str
    #: The colour of the cells' labels.
    label: str = "#ffffff"


@dataclass(frozen=True)
class BoardLayout:
    """The fixed shape of a board: its size and what is written around it."""

    columns: int
    rows: int
    #: The label of each column left to right and each row top to bottom (unturned).
    column_labels: Sequence[str]
    row_labels: Sequence[str]
    colours: BoardColours
    #: Names written beyond the labels on the (top, bottom, left, right) edges, '' for none.
    edge_captions: tuple[str, str, str, str] = ("", "", "", "")
    #: What an empty cell shows: a glyph, and a letter in ASCII ('' for nothing).
    empty_glyph: str = ""
    empty_letter: str = ""
    #: The labels around the board are dimmed (they matter less than the cells' own).
    dim_labels: bool = False
    #: Which side is drawn at the bottom when the board is not turned.
    bottom_side: int = 0
    #: Whether turning the board keeps the cells where they are (Quixo's numbers
    #: are typed as read: the board is never turned for a player).
    turns_for_players: bool = True


G = TypeVar("G")


class BoardDescription(ABC, Generic[G]):
    """A game's board for front ends: its :class:`BoardLayout`, what every cell
    shows now, and what pointing at cells means.  One per game, stateless.

    It also says how the game's players count material (:meth:`material`): what
    each piece is worth, by its letter, and whether material is what was taken
    (chess, checkers) or what stands on the board (Quixo's cubes, Othello's discs).
    """

    layout: BoardLayout
    #: What a piece is worth, by its letter (a lower-case letter not named takes its
    #: capital's worth: chess's black pieces); pieces not named count 0.
    MATERIAL: ClassVar[Mapping[str, float]] = {}
    #: Whether pieces are taken off the board (material is then shown as each side's
    #: surplus of pieces, kind by kind; else as the pieces each side has on the board).
    TAKES: ClassVar[bool] = False
    #: A piece letter's kind, where the two sides' letters of one kind are not one
    #: letter in two cases (checkers: ``b`` and ``w`` are men).
    KINDS: ClassVar[Mapping[str, str]] = {}

    def kind_of(self, letter: str) -> str:
        """The kind of piece ``letter`` is (the same for both sides' pieces of that kind)."""
        return self.KINDS.get(letter, letter.upper())

    def material(self, game: G) -> Material:
        """The pieces of each side on the board, by letter, and their worth."""
        counts: tuple[Counter[str], Counter[str]] = (Counter(), Counter())
        pieces: dict[str, Piece] = {}
        for line in self.squares(game):
            for square in line:
                piece = square.piece
                if piece is not None and piece.side is not None:
                    counts[piece.side][piece.letter] += 1
                    pieces[piece.letter] = piece
        worth = self.MATERIAL
        values = tuple(sum(worth.get(letter, worth.get(letter.upper(), 0.0)) * count
                           for letter, count in side.items()) for side in counts)
        return Material(counts, (values[0], values[1]), pieces)

    @abstractmethod
    def squares(self, game: G) -> list[list[Square]]:
        """What every cell shows in ``game``'s position: ``squares[row][col]``."""

    @abstractmethod
    def move_cells(self, game: G, move: Any) -> tuple[Cell, Cell] | None:
        """Where a legal ``move`` of ``game`` starts and ends: the piece's cell and
        its destination (Quixo: the cube taken and the cell on the edge it is
        pushed in at; a disc placed starts and ends on its cell); ``None`` for a
        move on no cell (a pass)."""

    @abstractmethod
    def cell_name(self, cell: Cell) -> str:
        """What a player calls the cell: ``e4``, ``square 11``, ``cell 0 2``."""

    @abstractmethod
    def typed_move(self, start: Cell, end: Cell) -> str | None:
        """The move text a player would type for ``start`` to ``end`` (which may be
        illegal, so that the game can say why), or ``None`` if there is none."""

    def turned_for(self, side: int) -> bool:
        """Whether the board is drawn turned (by 180 degrees) with ``side`` at the bottom."""
        return self.layout.turns_for_players and side != self.layout.bottom_side
