"""The material line under the board: what each side has taken (or holds), and the eval.

Each game counts material its own way (:meth:`games.board.BoardDescription.material`):
in chess and checkers, each side's surplus of pieces kind by kind (what it has
more of than the other, as lichess shows it: a promotion counts as a queen more
and a pawn less), then the balance in the game's unit (``+2`` pawns, a checkers
king worth a man and a half); in Quixo and Othello, the cubes or discs each side
has on the board.  The eval of the last search (the eval bar's number) ends the line.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from games import Game
from games.board import BoardDescription, Material

__all__ = ["MaterialLine", "material_text"]


def _amount(value: float) -> str:
    return f"{value:g}"


def material_text(board: BoardDescription, now: Material, sides: tuple[str, str],
                  *, ascii: bool = False, eval_text: str = "") -> Text:
    """``White ♟♟♞ +4 · Black ♗`` (each side's surplus of pieces, kind by kind, and the
    balance after the side ahead), or ``X 7 +2 · O 5`` (what each holds); then `` · eval +0.35``."""
    text = Text(no_wrap=True, overflow="ellipsis", end="")
    balance = now.balance
    if board.TAKES:
        extra = now.surplus(board.kind_of)
    for side in (0, 1):
        if side:
            text.append(" · ", "dim")
        text.append(sides[side], "bold")
        if board.TAKES:
            shown = "".join(now.pieces[letter].letter if ascii else now.pieces[letter].glyph
                            for letter in extra[side])
            if shown:
                text.append(" " + shown)
        else:
            text.append(f" {sum(now.counts[side].values())}")
        ahead = balance if side == 0 else -balance
        if ahead > 0:
            text.append(f" +{_amount(ahead)}", "bold")
    if eval_text:
        text.append(" · eval ", "dim")
        text.append(eval_text, "bold")
    return text


class MaterialLine(Static):
    """The line under the board (see the module doc)."""

    DEFAULT_CSS = """
    MaterialLine {
        height: 1;
        padding: 0 1;
    }
    """

    def __init__(self, board: BoardDescription, sides: tuple[str, str], *, ascii: bool = False,
                 id: str | None = None) -> None:
        super().__init__("", id=id)
        self.description = board
        self.sides = sides
        self.ascii = ascii
        self.eval_text = ""
        #: What the line shows now: the position's key and the eval (an engine's figures come ten
        #: times a second; the line is counted and drawn again only when one of them changes).
        self._shown: tuple[object, str] | None = None

    def show(self, game: Game, eval_text: str | None = None) -> None:
        """The material of ``game`` (the position shown) and, if given, a new eval."""
        if eval_text is not None:
            self.eval_text = eval_text
        shown = (game.key(), self.eval_text)
        if shown == self._shown:
            return
        self._shown = shown
        # One line, always: no need to lay the screen out again.
        self.update(material_text(self.description, self.description.material(game), self.sides,
                                  ascii=self.ascii, eval_text=self.eval_text), layout=False)
