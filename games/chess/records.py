"""Chess records: PGN, written and read by python-chess.

Writing: :meth:`chess.pgn.Game.from_board`, which also writes the
``SetUp``/``FEN`` tags when the game did not start from the standard
position.  Tags: the seven-tag roster (``Event``, ``Site`` "tui-games",
``Date``, ``Round`` "-", ``White`` = the first player, ``Black`` = the second,
``Result`` ``1-0``/``0-1``/``1/2-1/2``/``*``) and ``Termination``: how the
game ended (``"White wins (checkmate)"``, ``"draw (threefold repetition)"``,
or the header's reason), or ``"unterminated"`` for a game still going on.

Reading keeps python-chess's model of each game (headers, comments, NAGs,
variations, ``%clk``/``%eval``) on the :class:`~games.records.LoadedGame`,
and a re-save writes that model back with the moves played since.  Files
are streamed: the games before the one asked for are skipped unread
(``skip_game``), and a list of the games reads their headers only
(``read_headers``), so a 10 MB database is listed in about a second.  A file
of more than :data:`~games.records.MAX_GAMES` games, or a game of more than
:data:`~games.records.MAX_NODES` moves and variations, is refused as it is
read; a long game's variations cost no more than its moves.
"""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, ClassVar, Iterator, cast

import chess
import chess.pgn

from ..base import Game
from ..records import (
    MAX_GAMES,
    MAX_NODES,
    SITE,
    WRAP,
    LoadedGame,
    Progress,
    RecordError,
    RecordFormat,
    RecordHeader,
    RecordNotes,
    RecordSummary,
    describe_outcome,
    games_over_cap,
    notes_tree,
    result_token,
)
from ..variations import MoveNode, MoveTree
from .openings import opening_of

if TYPE_CHECKING:
    from .game import ChessGame

__all__ = ["PGN", "pgn_of_tree", "tree_of_pgn"]

#: The seven-tag roster's values when a PGN game does not give them.
_UNSET = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?",
          "Result": "*"}


class _ShortCopies(chess.Board):
    """The board python-chess reads a PGN on, whose copies keep two moves of the stack:
    python-chess copies the board at each variation to take its last move back, and a copy
    of the whole stack at each of thousands of variations along a long game is quadratic."""

    def copy(self, *, stack: bool | int = True) -> _ShortCopies:
        return super().copy(stack=2 if stack is True else stack)


class _Headers(chess.pgn.Headers):
    """A game's headers whose standard board is :class:`_ShortCopies`."""

    def variant(self) -> type[chess.Board]:
        board_class = super().variant()
        return _ShortCopies if board_class is chess.Board else board_class


class _QuietBuilder(chess.pgn.GameBuilder):
    """python-chess's game builder without its log line per error: the errors
    stay on the game (``errors``) and are reported as one line each.  A game of
    more than :data:`~games.records.MAX_NODES` moves and variations is refused
    as it is read (a ``ValueError``), before its tree grows further."""

    def begin_game(self) -> None:
        super().begin_game()
        self.game.headers = _Headers(self.game.headers)
        self.nodes = 0

    def begin_variation(self) -> None:
        self._count()
        super().begin_variation()

    def visit_move(self, board: chess.Board, move: chess.Move) -> None:
        self._count()
        super().visit_move(board, move)

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise ValueError(f"more than {MAX_NODES:,} moves and variations in one game; refused")

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)


def _read_pgn(stream: io.StringIO) -> chess.pgn.Game | None:
    return chess.pgn.read_game(stream, Visitor=_QuietBuilder)


def _check_game_type(game_type: str, index: int) -> None:
    """A RecordError for a game whose ``GameType`` tag names another game than chess (0):
    PDN's tag, which checkers records carry (21: English draughts)."""
    if game_type.strip() not in ("0", ""):
        raise RecordError(f"game {index + 1}: a record of another game (GameType {game_type.strip()[:20]!r}; "
                          f"chess is 0), not a chess game")


def _board(game: Game) -> chess.Board:
    """The python-chess board of a chess game."""
    return cast("ChessGame", game).board


#: A move in SAN as a PGN's move text writes it (check marks and annotations aside).
_SAN_RE = re.compile(r"(?<![\w.])(?:[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](?:=?[QRBN])?|O-O(?:-O)?|0-0(?:-0)?)(?![\w-])")
_COMMENT_RE = re.compile(r"\{[^}]*\}|;[^\n]*")
#: Files up to this many characters have their games' moves counted where no PlyCount tag says.
_COUNTED_CHARS = 4_000_000
_PARENTHESIS_RE = re.compile(r"[()]")


def _name_opening(headers: chess.pgn.Headers, board: chess.Board) -> None:
    """The ``ECO`` and ``Opening`` tags of the game's opening, when it has a name."""
    found = opening_of(board)
    if found is not None:
        headers["ECO"] = found.eco
        headers["Opening"] = found.name


def _main_line_plies(record: str) -> int:
    """The moves of a game's main line in its PGN text, counted without reading it
    into a game (tags, comments and variations left out)."""
    body = record.find("\n\n")  # the tags end at the first blank line
    moves = record[body:] if body >= 0 else record
    if "{" in moves or ";" in moves:
        moves = _COMMENT_RE.sub(" ", moves)
    if "(" in moves:
        moves = _outside_variations(moves)
    return len(_SAN_RE.findall(moves))


def _outside_variations(moves: str) -> str:
    """A move text without its variations, however deeply they nest: one pass, the depth
    counted (an unclosed parenthesis keeps what follows it: it is counted as there)."""
    kept: list[str] = []
    depth = at = 0
    for match in _PARENTHESIS_RE.finditer(moves):
        if match.group() == "(":
            if depth == 0:
                kept.append(moves[at:match.start()])
                at = match.end()
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0:
                at = match.end()
    kept.append(moves[at:])
    return " ".join(kept)


def _start_text(headers: chess.pgn.Headers, board: chess.Board) -> str | None:
    """The FEN of a game's start, ``None`` for the standard start: written out only where the
    headers set up a position (a FEN costs more than reading a short game)."""
    if "FEN" not in headers:
        return None
    fen = board.fen()
    return None if fen == chess.STARTING_FEN else fen


def tree_of_pgn(pgn: chess.pgn.Game) -> MoveTree:
    """The tree of a game python-chess read: every variation, comment and NAG, the
    moves in SAN (walked without recursion)."""
    board = pgn.board()
    tree = MoveTree(_start_text(pgn.headers, board),
                    0 if board.turn == chess.WHITE else 1, board.fullmove_number, pgn.comment)
    work: list[tuple[chess.pgn.GameNode, MoveNode, chess.Board]] = [(pgn, tree, board)]
    while work:
        source, node, before = work.pop()
        for variation in source.variations:
            made = node.add_variation(before.san(variation.move), variation.comment, sorted(variation.nags))
            made.starting_comment = variation.starting_comment
            after = before.copy(stack=False)
            after.push(variation.move)
            work.append((variation, made, after))
    return tree


def pgn_of_tree(tree: MoveTree, headers: chess.pgn.Headers | None = None) -> chess.pgn.Game:
    """A python-chess game of ``tree`` (its SAN moves read on the boards they were
    played on) with ``headers`` (the start's ``SetUp``/``FEN`` set from the tree)."""
    pgn = chess.pgn.Game(headers)
    board = chess.Board(tree.start) if tree.start else chess.Board()
    pgn.setup(board)
    pgn.comment = tree.comment
    work: list[tuple[MoveNode, chess.pgn.GameNode, chess.Board]] = [(tree, pgn, board)]
    while work:
        node, target, before = work.pop()
        for variation in node.variations:
            move = before.parse_san(variation.move or "")
            made = target.add_variation(move, comment=variation.comment, nags=variation.nags,
                                        starting_comment=variation.starting_comment)
            after = before.copy(stack=False)
            after.push(move)
            work.append((variation, made, after))
    return pgn


class PGN(RecordFormat):
    """Portable Game Notation, through python-chess."""

    game_name: ClassVar[str] = "chess"
    name: ClassVar[str] = "PGN"
    extension: ClassVar[str] = "pgn"
    player_tags: ClassVar[tuple[str, str]] = ("White", "Black")
    game_start: ClassVar[str] = r"^\[Event "
    date_line: ClassVar[str] = r'^\[Date "[^"\n]*"\]$'

    # -- writing ---------------------------------------------------------------
    def write(self, game: Game, header: RecordHeader, notes: RecordNotes) -> str:
        pgn = pgn_of_tree(notes_tree(game, notes))
        headers = pgn.headers
        headers["Event"] = header.event
        headers["Site"] = SITE
        headers["Date"] = header.date.strftime("%Y.%m.%d")
        headers["Round"] = "-"
        headers["White"] = header.first
        headers["Black"] = header.second
        headers["Result"] = result_token(game, notes.outcome)
        headers["Termination"] = header.termination(game, notes)
        _name_opening(headers, _board(game))
        for name, value in notes.tags.items():
            headers[name] = value
        return pgn.accept(chess.pgn.StringExporter(columns=WRAP)) + "\n"

    def resave(self, loaded: LoadedGame, game: Game, notes: RecordNotes) -> str | None:
        """The model python-chess read -- every header, comment, NAG, variation,
        ``%clk`` and ``%eval`` -- with the moves played since added (a move off
        the record's main line becomes the main line, the record's own
        continuation a variation; later moves the player dropped are left out),
        ``notes``' comments on those new moves, and
        the ``Result`` (with a ``Termination``) only when the game reached a
        result the record did not state.  Unchanged, the record is written back
        as read (the move text may be re-wrapped)."""
        if loaded.model is None:
            return None
        if notes.tree is not None:
            return self._resave_tree(loaded, game, notes)
        outcome = notes.outcome or game.outcome()
        pgn = _copy_of(loaded.model)
        node: chess.pgn.GameNode = pgn
        changed = False
        for ply, move in enumerate(_board(game).move_stack):
            following = next((variation for variation in node.variations if variation.move == move), None)
            if following is None:
                following = node.add_main_variation(move, comment=notes.move_comment(ply))
                changed = True
            elif not following.is_main_variation():
                node.promote_to_main(following)
                changed = True
            node = following
        if not node.is_end():  # the player dropped the record's later moves and played on from here
            node.variations.clear()
            changed = True
        token = result_token(game, notes.outcome)
        if outcome is not None and node.is_end() and (changed or pgn.headers.get("Result", "*") == "*"):
            pgn.headers["Result"] = token
            pgn.headers["Termination"] = describe_outcome(game, notes.outcome) or ""
        elif changed:
            pgn.headers["Result"] = "*"  # the game goes on past the record's result
            if "Termination" in pgn.headers:  # and the record's way of ending is not this game's
                pgn.headers["Termination"] = "unterminated"
        if changed and "ECO" not in pgn.headers and "Opening" not in pgn.headers:
            _name_opening(pgn.headers, _board(game))  # a record that named its opening keeps its name
        return pgn.accept(chess.pgn.StringExporter(columns=WRAP)) + "\n"

    def _resave_tree(self, loaded: LoadedGame, game: Game, notes: RecordNotes) -> str:
        """The record's headers around ``notes.tree`` (the record's own tree, with what
        the player added, promoted or deleted): the ``Result`` and ``Termination``
        are said again when the main line no longer ends as the record's did."""
        tree = notes_tree(game, notes)
        pgn = pgn_of_tree(tree, loaded.model.headers)
        main = tuple(node.move for node in tree.mainline())
        outcome = notes.outcome or game.outcome()
        if main != loaded.moves or (outcome is not None and pgn.headers.get("Result", "*") == "*"):
            pgn.headers["Result"] = result_token(game, notes.outcome)
            if outcome is not None:
                pgn.headers["Termination"] = describe_outcome(game, notes.outcome) or ""
            elif "Termination" in pgn.headers:
                pgn.headers["Termination"] = "unterminated"
            if "ECO" not in pgn.headers and "Opening" not in pgn.headers:
                _name_opening(pgn.headers, _board(game))
        return pgn.accept(chess.pgn.StringExporter(columns=WRAP)) + "\n"

    # -- reading ---------------------------------------------------------------
    def _loaded(self, pgn: chess.pgn.Game | None, index: int) -> LoadedGame:
        """A game python-chess read, or RecordError: its errors, or nothing of a game in it."""
        if pgn is None:
            raise RecordError(f"game {index + 1}: no chess game found")
        _check_game_type(pgn.headers.get("GameType", "0"), index)
        if pgn.errors:  # where python-chess stopped: the move after the last one it read
            board = pgn.end().board()
            where = f"move {board.fullmove_number} ({'White' if board.turn == chess.WHITE else 'Black'})"
            raise RecordError(f"game {index + 1}, {where}: {' '.join(str(pgn.errors[0]).split())[:160]}")
        if not pgn.variations and all(pgn.headers.get(key) == value for key, value in _UNSET.items()) \
                and len(pgn.headers) == len(_UNSET):
            raise RecordError(f"game {index + 1}: neither tags nor moves: not a PGN game")
        tree = tree_of_pgn(pgn)
        moves = tuple(node.move or "" for node in tree.mainline())
        return LoadedGame(self.game_name, tree.start, moves, dict(pgn.headers), model=pgn,
                          player_tags=self.player_tags, tree=tree)

    def read(self, text: str) -> list[LoadedGame | RecordError]:
        return list(self.each(text))

    def each(self, text: str) -> Iterator[LoadedGame | RecordError]:
        """Streamed: a game is read when the one before has been taken."""
        stream = io.StringIO(text)
        count = 0
        while True:
            try:
                pgn = _read_pgn(stream)
            except (ValueError, RecursionError) as error:  # python-chess is lenient; be safe with garbage
                yield RecordError(f"game {count + 1}: {error}")
                return
            if pgn is None:
                return
            if count == MAX_GAMES:  # games without the tag game_start counts
                raise games_over_cap()
            try:
                yield self._loaded(pgn, count)
            except RecordError as error:
                yield error
            count += 1

    def game_at(self, text: str, number: int) -> tuple[LoadedGame | RecordError | None, int]:
        """Streamed: the games before ``number`` are skipped unread."""
        stream = io.StringIO(text)
        count = 0
        loaded: LoadedGame | RecordError | None = None
        while True:
            count += 1
            if count > MAX_GAMES + 1:
                raise games_over_cap()
            if count == number:
                try:
                    pgn = _read_pgn(stream)
                except (ValueError, RecursionError) as error:
                    return RecordError(f"game {count}: {error}"), count
                if pgn is None:
                    return None, count - 1
                try:
                    loaded = self._loaded(pgn, count - 1)
                except RecordError as error:
                    loaded = error
            elif not chess.pgn.skip_game(stream):
                return loaded, count - 1

    def summaries(self, text: str, progress: Progress | None = None) -> list[RecordSummary]:
        """From the headers alone (python-chess's ``read_headers`` skips the moves)."""
        stream = io.StringIO(text)
        summaries: list[RecordSummary] = []
        count_moves = len(text) <= _COUNTED_CHARS  # counting doubles a large database's listing time
        start = 0
        while (headers := chess.pgn.read_headers(stream)) is not None:
            if len(summaries) == MAX_GAMES:
                raise games_over_cap()
            _check_game_type(headers.get("GameType", "0"), len(summaries))
            end = stream.tell()
            tagged = headers.get("PlyCount", "")
            plies: int | None = None
            if tagged.isdigit():
                plies = int(tagged)
            elif count_moves:
                plies = _main_line_plies(text[start:end])
            summaries.append(self.summary(len(summaries) + 1, headers, None if plies is None else (plies + 1) // 2))
            start = end
            if progress is not None and len(summaries) % 500 == 0:
                progress(stream.tell(), len(text))
        if progress is not None:
            progress(len(text), len(text))
        return summaries


def _copy_of(model: chess.pgn.Game) -> chess.pgn.Game:
    """A copy of a game python-chess read, headers, comments, NAGs and variations included:
    written out and read back, which python-chess does without recursion (``copy.deepcopy``
    recurses node by node and overflows on a game of a few hundred plies)."""
    copied = chess.pgn.read_game(io.StringIO(model.accept(chess.pgn.StringExporter())))
    assert copied is not None  # what python-chess wrote, it reads
    return copied
