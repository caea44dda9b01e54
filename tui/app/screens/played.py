"""The game a game screen plays, as data: no Textual here.

:class:`PlayedGame` holds the :class:`~games.Game`, its moves as texts (what
the search process replays and the records write), the result decided off the
board (a resignation, an agreed draw, a flag fall), the ply reviewed and what
was last saved; it numbers the moves as the records do (a chess FEN's
full-move number) and says whether moves were played that no file holds.

Beside the game it keeps the tree of every move tried, with the variations,
comments and NAGs a record brought (:class:`games.variations.MoveTree`):
:attr:`PlayedGame.node` is the game's position in it, and the game's moves are
the path to that node.  A move played follows the variation that already
plays it or starts a new one, so nothing is cut: playing on from a reviewed
position (:meth:`PlayedGame.back_to`) keeps the later moves as a line of the
tree, and :meth:`PlayedGame.follow_line` makes another line the game's.

Only two things take a move out of the tree, and both can be undone:
taking back a move played in this session with nothing hanging on it
(:meth:`PlayedGame.undo`: the moves taken back wait in :attr:`PlayedGame.redo`
until another move is played), and deleting a variation
(:meth:`PlayedGame.delete`: it waits in :attr:`PlayedGame.deleted` until
another move is played).  A move the game started with -- read from a file,
or a continued game's -- is never forgotten: taking it back only steps back.
"""

from __future__ import annotations

from typing import Any

from dataclasses import dataclass

from games import Game, Outcome, new_game
from games.variations import MoveNode, MoveTree, start_move_number

from ...views.format import counted, plies_text
from ..session import GameSetup, side_names

__all__ = ["Deleted", "PlayedGame", "start_move_number"]


@dataclass(frozen=True)
class Deleted:
    """A variation deleted from the tree: ``node`` was ``parent``'s ``index``-th continuation."""

    parent: MoveNode
    index: int
    node: MoveNode


class PlayedGame:
    """The game of ``setup`` with the moves it read from a record played."""

    def __init__(self, setup: GameSetup) -> None:
        self.sides = side_names(setup.game)
        self.game: Game = new_game(setup.game, setup.position)
        self.first_number = start_move_number(self.game)
        #: Every move tried, with the record's variations, comments and NAGs; the game's node in it.
        record = setup.record.tree if setup.record is not None else None
        self.tree = record.copy() if record is not None else MoveTree(setup.position, self.game.turn,
                                                                       self.first_number)
        self.node: MoveNode = self.tree
        #: The moves played, as texts.
        self.moves: list[str] = []
        #: The side that made (or makes) the first move of this game.
        self.first_mover = self.game.turn
        for text in setup.moves:
            self.play(self.game.parse_move(text))
        #: A result decided off the board: resignation, agreed draw, time.
        self.verdict: Outcome | None = setup.outcome
        #: The tree as last saved (or read from a file); ``None``: never saved.
        self.saved: tuple[object, ...] | None = self.tree.key() if setup.source else None
        #: The position reviewed (after this many moves); ``None``: the game itself.
        self.review: int | None = None
        #: The moves the game started with (a file's, a continued game's): taking back never forgets them.
        self.kept: set[MoveNode] = set(self.tree.walk())
        #: What redo brings back, the last undone last: the moves one undo took back, or a deletion
        #: that undo restored (redo deletes it again).
        self.redo: list[list[str] | Deleted] = []
        #: The variations deleted since the last move was played, the last deleted last (undo restores them).
        self.deleted: list[Deleted] = []

    def play(self, move: Any) -> None:
        """Play ``move``: the tree's variation that plays it is followed, or a new one starts.
        What undo could bring back or restore before it is history now (as in any editor)."""
        self.redo = []
        self.deleted = []
        self.replay(move)

    def replay(self, move: Any) -> None:
        """Play ``move`` as :meth:`play` does, keeping what undo could bring back (redo's own moves)."""
        text = self.game.format_move(move)
        mover = self.game.turn
        self.moves.append(text)
        self.game.play(move)
        self.node = self.node.follow(text)
        self.node.side = mover  # the game's turn: the move list's columns follow it

    def undo(self, *, forget: bool = True) -> None:
        """Take back the last move; ``forget``: it leaves the tree too, unless it is one the game
        started with, or moves, a comment or a mark hang on it."""
        self.game.undo()
        self.moves.pop()
        node, self.node = self.node, self.node.parent or self.tree
        if forget and node not in self.kept and not (node.variations or node.comment or node.nags
                                                     or node.starting_comment):
            node.remove()

    def delete(self, node: MoveNode) -> Deleted:
        """Take ``node`` and what follows it out of the tree, kept in :attr:`deleted` for undo.
        The game must not be in it (the caller goes back first)."""
        parent = node.parent
        assert parent is not None and node not in self.node.path()
        entry = Deleted(parent, parent.variations.index(node), node)
        node.remove()
        self.deleted.append(entry)
        return entry

    def restore(self) -> Deleted | None:
        """Put the last deleted variation back where it was (``None``: none to restore)."""
        if not self.deleted:
            return None
        entry = self.deleted.pop()
        entry.parent.variations.insert(min(entry.index, len(entry.parent.variations)), entry.node)
        return entry

    def follow_line(self, node: MoveNode) -> int:
        """Make the line through ``node`` (to its end) the game's; returns ``node``'s ply."""
        target, current = node.line(), self.node.path()
        common = 0
        while common < min(len(target), len(current)) and target[common] is current[common]:
            common += 1
        while len(self.moves) > common:
            self.undo(forget=False)
        for step in target[common:]:
            self.replay(self.game.parse_move(step.move or ""))
        return node.ply

    def mark_saved(self, key: tuple[object, ...] | None = None) -> None:
        """What the game held (``key``: the tree's key then; ``None``: now) is in a file."""
        self.saved = self.tree.key() if key is None else key

    def outcome(self) -> Outcome | None:
        """How the game ended: off the board or on it; ``None`` while it goes on."""
        return self.verdict or self.game.outcome()

    @property
    def unsaved(self) -> bool:
        """Moves were played (or annotated) that no file holds."""
        return bool(self.tree.variations) and self.tree.key() != self.saved

    def size_text(self) -> str:
        """What the record holds, as a player counts it: the main line, and the moves of the variations."""
        main = len(self.tree.mainline())
        others = sum(1 for _ in self.tree.walk()) - 1 - main
        text = f"{plies_text(main)} on the main line" if others else f"{plies_text(main)} played"
        return text + (f", {counted(others, 'more move')} in variations" if others else "")

    def shown_game(self) -> Game:
        """The position to show: the game's, or the one reviewed."""
        if self.review is None:
            return self.game
        shown = self.game.copy()
        for _ in range(len(self.moves) - self.review):
            shown.undo()
        return shown

    def move_number(self, ply: int) -> int:
        """The number of the move made after ``ply`` plies (from the start position's number; a
        side's moves in a row share one, as the move list shows them)."""
        path = self.node.path()
        if ply < len(path):
            return self.tree.number(path[ply])
        return self.first_number + (ply + self.first_mover) // 2

    def review_status(self) -> str:
        """The status line while reviewing: which position is shown."""
        ply = self.review or 0
        if ply == 0:
            where = "the start position"
        else:
            path = self.node.path()
            mover = self.tree.mover(path[ply - 1]) if ply <= len(path) else (ply - 1 + self.first_mover) % 2
            dots = "." if mover == 0 else "..."
            where = f"after {self.move_number(ply - 1)}{dots} {self.moves[ply - 1]}"
        return (f"reviewing {where} ({ply}/{len(self.moves)}) — ←→ ↑↓ Home End; a move made here adds a "
                "variation; Enter plays from here, Esc returns")
