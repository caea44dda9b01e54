"""Position texts of games played on a grid with two kinds of pieces (Quixo, Othello).

The text is the rows top to bottom joined by ``/``, each cell one of the two
players' symbols or ``.``, then a space and the side to move's symbol:
``X...O/.X.../..O../...../O...X X``.  :class:`GridText` reads it into two
bitboards (cell ``(col, row)`` is bit ``row * size + col``) and writes them
back; the game adds what the text alone cannot say (Quixo's won lines).
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import MAX_POSITION_TEXT, PositionError, check_length, quote_input

__all__ = ["GridText"]

#: Numbers as the messages spell them.
_WORDS = {5: "five", 8: "eight"}


@dataclass(frozen=True)
class GridText:
    """The position text of a ``size`` x ``size`` grid whose players' pieces are
    ``symbols`` (the first player's, then the second's)."""

    game: str
    size: int
    symbols: str
    #: A whole position text and a row, for the messages.
    example: str
    row_example: str

    def read(self, text: object) -> tuple[int, int, int]:
        """The first and the second player's bitboards and the side to move (0 or 1)
        of ``text``; any case and surrounding whitespace.  A :class:`PositionError`
        says what was expected, with an example."""
        first, second = self.symbols[0], self.symbols[1]
        example = f"e.g. '{self.example}'"
        if not isinstance(text, str):
            raise PositionError(f"expected a{'n' if self.game[0] in 'AEIOU' else ''} {self.game} position text, "
                                f"{example}, got {type(text).__name__}")
        check_length(text, MAX_POSITION_TEXT, "a position", PositionError)
        parts = text.split()
        size = self.size
        if len(parts) != 2 or not text.isascii():
            raise PositionError(
                f"expected {_WORDS.get(size, size)} rows of {first}, {second} or '.' joined by '/', a space and "
                f"the side to move, {example}, got {quote_input(text)}"
            )
        board, side = parts[0].upper(), parts[1].upper()
        rows = board.split("/")
        if len(rows) != size:
            raise PositionError(
                f"expected {size} rows joined by '/', {example}, got {len(rows)} in {quote_input(text)}"
            )
        boards = [0, 0]
        for row, cells in enumerate(rows):
            if len(cells) != size or cells.strip(self.symbols + "."):
                raise PositionError(
                    f"expected row {row + 1} to be {size} cells of {first}, {second} or '.' like "
                    f"'{self.row_example}', got {quote_input(cells)}"
                )
            for col, cell in enumerate(cells):
                if cell != ".":
                    boards[self.symbols.index(cell)] |= 1 << (row * size + col)
        if len(side) != 1 or side not in self.symbols:
            raise PositionError(
                f"expected the side to move, {first} or {second}, after the board, {example}, "
                f"got {quote_input(parts[1])}"
            )
        return boards[0], boards[1], self.symbols.index(side)

    def write(self, first: int, second: int, turn: int) -> str:
        """The text of the bitboards ``first`` and ``second`` with ``turn`` to move."""
        size = self.size
        rows = []
        for row in range(size):
            cells = []
            for col in range(size):
                bit = 1 << (row * size + col)
                cells.append(self.symbols[0] if first & bit else self.symbols[1] if second & bit else ".")
            rows.append("".join(cells))
        return "/".join(rows) + " " + self.symbols[turn]
