"""A game with its variations: a tree of moves with comments and NAGs, for every game.

:class:`MoveTree` is the root of the tree (the start position, the comment on
the whole game); each :class:`MoveNode` is a move as the game writes it
(``e4``, ``11-15``, ``2 0 bottom``, ``f5``), with the comment after it, the
comment before it when it starts a variation, and its NAGs (``$1`` is ``!``,
see :data:`NAG_GLYPHS`).  A node's first variation is its main continuation,
the others are alternatives to that move, as in python-chess's
``chess.pgn.GameNode`` -- the model of the four games' records alike.

The tree knows nothing of the rules: the moves are texts, replayed and checked
by :mod:`games.reading` when a record is read.  It numbers its moves as the
records do (:meth:`MoveTree.label`) from the side that moved first and the
start's move number, and writes and reads PGN-style move text with nested
variations (:func:`movetext_tokens`, :func:`read_movetext`) for the formats
that are not python-chess's (PDN, the move lists).
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterable, Iterator

__all__ = ["GLYPH_NAGS", "MAX_NODES", "MoveNode", "MoveTree", "NAG_GLYPHS", "Token", "TreeError", "annotated", "movetext_tokens", "nag_text",
           "pgn_style_tokens", "read_movetext", "start_move_number", "variation_parts", "variation_tokens"]

#: The move marks of the six NAGs every reader knows.
NAG_GLYPHS = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!"}
#: A move mark's NAG: ``!?`` is 5.
GLYPH_NAGS = {glyph: nag for nag, glyph in NAG_GLYPHS.items()}
#: The most moves and variations read in one game (an annotated game holds hundreds, a deep
#: repertoire a few thousand): a larger game is refused in one line as it is read.
MAX_NODES = 20_000


class TreeError(ValueError):
    """Move text that does not make a tree (a variation before any move, an unclosed parenthesis)."""


def nag_text(nag: int) -> str:
    """A NAG as a reader sees it: its mark (``!?``) or ``$n``."""
    return NAG_GLYPHS.get(nag, f"${nag}")


def start_move_number(game: Any) -> int:
    """The move number of a game's start position (a chess FEN's full-move number, else 1)."""
    board = getattr(game, "board", None)
    return int(getattr(board, "fullmove_number", 1)) if board is not None else 1


class MoveNode:
    """One move of the tree and what follows it (see the module doc)."""

    def __init__(self, parent: MoveNode | None, move: str | None, comment: str = "",
                 nags: Iterable[int] = (), starting_comment: str = "") -> None:
        self.parent = parent
        #: How many moves lead to this node (0: the root); a node never changes its parent.
        self.ply: int = 0 if parent is None else parent.ply + 1
        #: The move as the game writes it (``None`` for the root).
        self.move = move
        #: The comment after the move, and the one before it (a variation's first move only).
        self.comment = comment
        self.starting_comment = starting_comment
        #: Numeric annotation glyphs, in order.
        self.nags: list[int] = list(nags)
        #: What follows: the main continuation first, then the alternatives to it.
        self.variations: list[MoveNode] = []
        #: The side that made the move, where the game said so (its ``turn``: a side may move
        #: again); ``None``: the sides alternate from the tree's first mover.
        self.side: int | None = None

    def __repr__(self) -> str:
        return f"MoveNode({self.move!r}, ply={self.ply})"

    # -- where it stands ---------------------------------------------------------------

    def root(self) -> MoveTree:
        node = self
        while node.parent is not None:
            node = node.parent
        assert isinstance(node, MoveTree)
        return node

    def path(self) -> list[MoveNode]:
        """The moves from the start to this one (the root left out)."""
        nodes = []
        node: MoveNode | None = self
        while node is not None and node.parent is not None:
            nodes.append(node)
            node = node.parent
        return nodes[::-1]

    def moves(self) -> list[str]:
        """The texts of :meth:`path`."""
        return [node.move or "" for node in self.path()]

    def continuation(self) -> list[MoveNode]:
        """The main continuation after this node, to its end."""
        nodes = []
        node = self
        while node.variations:
            node = node.variations[0]
            nodes.append(node)
        return nodes

    def end(self) -> MoveNode:
        """The last node of the main continuation (this one if nothing follows)."""
        line = self.continuation()
        return line[-1] if line else self

    def line(self) -> list[MoveNode]:
        """This node's whole line: the path to it and its main continuation."""
        return self.path() + self.continuation()

    def is_main_line(self) -> bool:
        """Every move to this one is its parent's first variation."""
        node = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def siblings(self) -> list[MoveNode]:
        """The alternatives to this move, itself included, in order."""
        return [self] if self.parent is None else list(self.parent.variations)

    # -- changing it ------------------------------------------------------------------------
    def add_variation(self, move: str, comment: str = "", nags: Iterable[int] = ()) -> MoveNode:
        """A new last variation after this node."""
        node = MoveNode(self, move, comment, nags)
        self.variations.append(node)
        return node

    def follow(self, move: str) -> MoveNode:
        """The variation playing ``move`` after this node: the existing one, else a new last one."""
        for node in self.variations:
            if node.move == move:
                return node
        return self.add_variation(move)

    def promote(self) -> bool:
        """Make this move its parent's main continuation; whether anything changed."""
        parent = self.parent
        if parent is None or parent.variations[0] is self:
            return False
        parent.variations.remove(self)
        parent.variations.insert(0, self)
        return True

    def promote_line(self) -> bool:
        """Make the line through this node the main line; whether anything changed."""
        changed = False
        for node in self.path():
            changed = node.promote() or changed
        return changed

    def remove(self) -> MoveNode:
        """Take this move and all that follows it out of the tree; returns its parent."""
        parent = self.parent
        if parent is None:
            raise TreeError("the start of the game cannot be deleted")
        parent.variations.remove(self)
        return parent

    def walk(self) -> Iterator[MoveNode]:
        """This node and every node after it, depth first, main continuation first."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.variations))

    def key(self) -> tuple[Any, ...]:
        """Everything the subtree holds, as a value to compare (without recursion)."""
        return tuple((node.ply, node.move, node.comment, node.starting_comment, tuple(node.nags),
                      len(node.variations)) for node in self.walk())


class MoveTree(MoveNode):
    """The root of a game's tree: ``start`` is the start position's text (``None``: the
    game's standard start), ``first_mover`` the side to move there (0 the first
    player), ``first_number`` its move number; ``comment`` is on the whole game."""

    def __init__(self, start: str | None = None, first_mover: int = 0, first_number: int = 1,
                 comment: str = "") -> None:
        super().__init__(None, None, comment)
        self.start = start
        self.first_mover = first_mover
        self.first_number = first_number

    @classmethod
    def of_moves(cls, moves: Iterable[str], start: str | None = None, first_mover: int = 0,
                 first_number: int = 1, sides: Iterable[int] | None = None) -> MoveTree:
        """A tree of one line; ``sides``: the side that made each move (``None``: they alternate)."""
        tree = cls(start, first_mover, first_number)
        node: MoveNode = tree
        moves = list(moves)
        for move, side in zip(moves, list(sides) if sides is not None else [None] * len(moves)):
            node = node.add_variation(move)
            node.side = side
        return tree

    def mainline(self) -> list[MoveNode]:
        return self.continuation()

    def mover(self, node: MoveNode) -> int:
        """The side that made ``node``'s move (0 the first player): as recorded (:attr:`MoveNode.side`),
        else by alternation from :attr:`first_mover`."""
        if node.side is not None:
            return node.side
        return (self.first_mover + node.ply - 1) % 2

    def number(self, node: MoveNode) -> int:
        """The move number of ``node``'s move: one more each time the first player moves after the
        second (a side's moves in a row share their number, as PDN's multi-jump)."""
        if node.side is None:
            return self.first_number + (node.ply - 1 + self.first_mover) // 2
        number, last = self.first_number, None
        for step in node.path():
            side = self.mover(step)
            number += side == 0 and last == 1
            last = side
        return number

    def label(self, node: MoveNode, *, numbered: bool = False) -> str:
        """``3.`` before a first player's move, ``3...`` before a second's when
        ``numbered`` (it starts a line or follows a comment), else ``""``."""
        if self.mover(node) == 0:
            return f"{self.number(node)}."
        return f"{self.number(node)}..." if numbered else ""

    def copy(self) -> MoveTree:
        """A copy of the whole tree (without recursion)."""
        copied = MoveTree(self.start, self.first_mover, self.first_number, self.comment)
        pairs: list[tuple[MoveNode, MoveNode]] = [(self, copied)]
        while pairs:
            old, new = pairs.pop()
            for child in old.variations:
                made = new.add_variation(child.move or "", child.comment, child.nags)
                made.starting_comment, made.side = child.starting_comment, child.side
                pairs.append((child, made))
        return copied

    def find(self, path: list[MoveNode]) -> MoveNode:
        """The node of this tree at the same place as ``path``'s last node in another
        tree of the same shape (a copy): followed by the indexes of the variations."""
        node: MoveNode = self
        for step in path:
            assert step.parent is not None
            node = node.variations[step.parent.variations.index(step)]
        return node


# ---------------------------------------------------------------------------
# PGN-style move text
# ---------------------------------------------------------------------------


def _braced(comment: str) -> str:
    return "{" + comment.replace("{", "(").replace("}", ")") + "}"


def annotated(node: MoveNode, *, glyphs: bool = True) -> list[str]:
    """A move's tokens without its number: the move with its first mark (``e5!``)
    when ``glyphs``, its other NAGs (``$14``), its comment (``{...}``)."""
    marks = [NAG_GLYPHS[nag] for nag in node.nags if glyphs and nag in NAG_GLYPHS][:1]
    tokens = [f"{node.move}{''.join(marks)}"]
    tokens += [f"${nag}" for nag in node.nags if not (marks and GLYPH_NAGS[marks[0]] == nag)]
    if node.comment:
        tokens.append(_braced(node.comment))
    return tokens


#: A token of move text and the node it writes (``None``: a comment).
Part = tuple[str, "MoveNode | None"]


def _move_parts(tree: MoveTree, node: MoveNode, numbered: bool, glyphs: bool) -> list[Part]:
    parts: list[Part] = [(_braced(node.starting_comment), None)] if node.starting_comment else []
    label = tree.label(node, numbered=numbered or bool(node.starting_comment))
    move, *rest = annotated(node, glyphs=glyphs)
    parts.append((f"{label} {move}" if label else move, node))
    return parts + [(token, None if token.startswith("{") else node) for token in rest]


def _line_parts(tree: MoveTree, node: MoveNode, numbered: bool, glyphs: bool) -> list[Part]:
    """The tokens of ``node``'s continuation with its variations (recursive in the
    nesting of variations only: a long main line is a loop)."""
    parts: list[Part] = []
    while node.variations:
        main = node.variations[0]
        parts += _move_parts(tree, main, numbered, glyphs)
        for alternative in node.variations[1:]:
            parts += variation_parts(tree, alternative, glyphs=glyphs)
        numbered = bool(main.comment) or len(node.variations) > 1
        node = main
    return parts


def variation_parts(tree: MoveTree, node: MoveNode, *, glyphs: bool = True) -> list[Part]:
    """``(2...`` ``d6``, ``3. d4)``, each with its node: the variation that starts with
    ``node``, its own ones nested."""
    inner = _move_parts(tree, node, True, glyphs) + _line_parts(tree, node, bool(node.comment), glyphs)
    inner[0] = ("(" + inner[0][0], inner[0][1])
    inner[-1] = (inner[-1][0] + ")", inner[-1][1])
    return inner


def variation_tokens(tree: MoveTree, node: MoveNode, *, glyphs: bool = True) -> list[str]:
    """``(2...``, ``d6``, ``3. d4)``: the variation that starts with ``node``, its own ones nested."""
    return [text for text, _ in variation_parts(tree, node, glyphs=glyphs)]


def movetext_tokens(tree: MoveTree, *, glyphs: bool = True) -> list[str]:
    """The tree as PGN-style tokens: ``{game comment}``, ``1. e4``, ``e5!``, ``{comment}``,
    ``(2... d6 3. d4)`` (a variation's parentheses joined to its first and last tokens),
    a move's first mark written after it when ``glyphs`` (``$n`` otherwise and for the rest)."""
    tokens = [_braced(tree.comment)] if tree.comment else []
    return tokens + [text for text, _ in _line_parts(tree, tree, True, glyphs)]


_RESULTS = frozenset({"1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1", "0-0"})
_NUMBER_RE = re.compile(r"^[0-9]+\.(?:\.\.)?")
_MARKS_RE = re.compile(r"[!?]+$")

#: What a reader gives :func:`read_movetext`: ``(kind, text)``, kind one of
#: ``move``, ``comment``, ``nag``, ``open``, ``close``.
Token = tuple[str, str]


def pgn_style_tokens(body: str) -> Iterator[Token]:
    """The tokens of PGN-style move text whose moves have no spaces (PDN's ``11-15``):
    move numbers, results and ``...`` are read past, a move's mark (``23-19!?``) is its NAG."""
    for token in re.findall(r"\{[^}]*\}|;[^\n]*|[()]|[^\s(){}]+", body):
        if token.startswith("{"):
            yield "comment", token[1:-1].strip()
        elif token.startswith(";"):
            yield "comment", token[1:].strip()
        elif token in "()":
            yield ("open" if token == "(" else "close"), token
        elif token.startswith("$") and token[1:].isdigit():
            yield "nag", token[1:]
        elif token in _RESULTS:
            continue
        else:
            token = _NUMBER_RE.sub("", token)
            if not token.strip("."):
                continue
            mark = _MARKS_RE.search(token)
            if mark and mark.start() > 0:
                yield "move", token[:mark.start()]
                if mark.group() in GLYPH_NAGS:  # a mark no NAG stands for is read past
                    yield "nag", str(GLYPH_NAGS[mark.group()])
            else:
                yield "move", token


def read_movetext(tokens: Iterable[Token], tree: MoveTree,
                  where: Callable[[int], str] = lambda index: f"token {index + 1}") -> MoveTree:
    """The tree ``tokens`` describe, built on ``tree`` (its comment gets a comment
    before the first move).  Raises :class:`TreeError` (``where(index)`` names the
    place) for a variation with no move before it or a parenthesis not closed, and
    for more than :data:`MAX_NODES` moves and variations."""
    node: MoveNode = tree
    stack: list[MoveNode] = []
    fresh = False  # a variation was opened and has no move yet
    pending = ""  # the comment before its first move
    nodes = 0
    for index, (kind, text) in enumerate(tokens):
        if kind in ("move", "open"):
            nodes += 1
            if nodes > MAX_NODES:
                raise TreeError(f"more than {MAX_NODES:,} moves and variations in one game; refused")
        if kind == "move":
            node = node.add_variation(text)
            if fresh:
                node.starting_comment, fresh = pending, False
        elif kind == "comment":
            if fresh:
                pending = " ".join(part for part in (pending, text) if part)
            elif node is tree:
                tree.comment = " ".join(part for part in (tree.comment, text) if part)
            else:
                node.comment = " ".join(part for part in (node.comment, text) if part)
        elif kind == "nag" and node is not tree:
            node.nags.append(int(text))
        elif kind == "open":
            if node.parent is None or fresh:
                raise TreeError(f"{where(index)}: a variation must follow a move")
            stack.append(node)
            node, fresh, pending = node.parent, True, ""
        elif kind == "close":
            if not stack or fresh:
                raise TreeError(f"{where(index)}: ')' closes no variation")
            node = stack.pop()
    if stack:
        raise TreeError("a variation is not closed: a ')' is missing")
    return tree
