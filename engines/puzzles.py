"""Puzzles: positions where one move wins clearly, found by our search and checked again.

A position is a puzzle when ``pvs`` at a fixed depth with two lines (``multipv=2``)
finds a best move that leaves the side to move clearly winning -- a winning
chance (:meth:`games.kind.ScoreScale.chance`) of at least :data:`WIN_CHANCE` --
and every other move at least :data:`GAP_CHANCE` of winning chance worse; and
when a search two plies deeper picks the same move.  Chess puzzles can also be
checked by Stockfish (:meth:`StockfishJudge.agrees`, for a game whose positions
Stockfish reads): its best move at depth 14 must be the same, with the same clear
gap to its second line.  A run checked by Stockfish keeps one Stockfish process
(:class:`StockfishJudge`), screens each candidate with a quick look at depth
10 before our slower searches, and takes every position of the noisy
games as a candidate (:func:`game_positions`); it also drops a puzzle a one-ply search already solves (:func:`obvious`:
taking a piece left hanging).

Candidates come from seeded games between two noisy ``pvs`` players from random
openings (:func:`candidate_positions`), so a set is rebuilt exactly by the same
seed (the command line's ``puzzles`` command writes them).

A puzzle (:class:`Puzzle`) is a line: a position, the opponent's move that sets it up
(played first on the board; none for the puzzles found here), and the player's moves
with the opponent's replies between them, ending on the player's move.  A set is a
text file: the header ``# tui-games puzzles: GAME``, ``#`` comments (how it was made),
then one puzzle a line, six fields separated by tabs: the id (unique in the set), the
position's text before the setting-up move, that move (``-`` when none), the solution
(moves separated by spaces; a move's own spaces, as in Quixo's ``0 0 bottom``, written
``_``), the rating and the themes (separated by spaces; may be empty), and a seventh
when the puzzle says where it comes from (its source: a lichess game's URL...).  Moves are the
game's move text; chess sets use UCI (``e2e4``, as lichess does), and SAN reads too.
An old one-move file (position, move, and the gap in winning chance, by tabs) still
reads: no setting-up move, a one-move solution, a rating from the gap
(:func:`rating_from_gap`), ids ``GAME-LINE``.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

from games import Game, game_class, game_files, game_kind, game_package, new_game
from games.files import open_regular, read_text, user_path
from games.lines import capped_lines

from .base import mate_in
from .registry import create_engine

__all__ = ["Puzzle", "PuzzleError", "WIN_CHANCE", "GAP_CHANCE", "thresholds", "candidate_positions", "judge", "confirm",
           "StockfishJudge", "game_positions", "obvious", "make_puzzles", "blunder_positions", "puzzles_from_blunders", "load_puzzle_file", "read_puzzles", "puzzle_text", "puzzle_line",
           "parse_puzzle_line", "scan_puzzle_file", "with_line", "report_positions", "puzzles_from_positions", "rating_from_gap", "same_move", "refutation", "wins_as_clearly", "DEFAULT_RATING", "MAX_RATING", "shipped_puzzles", "depth_of", "MAX_BYTES"]

#: The winning chance the best move must leave, and how much worse every other move must be.
WIN_CHANCE = 0.8
GAP_CHANCE = 0.3
#: The largest puzzle file read.
MAX_BYTES = 2 * 1024 * 1024
HEADER = "# tui-games puzzles"
#: A puzzle's rating when nothing says otherwise, and the largest read.
DEFAULT_RATING = 1500
MAX_RATING = 4000


class PuzzleError(ValueError):
    """A puzzle file that cannot be read (one line)."""


@dataclass(frozen=True)
class Puzzle:
    """A puzzle: a position, the opponent's move that sets it up (played first, shown on the
    board), and the line the player must find -- the player's move, the reply, the player's
    move, ..., the player's last move (an odd number of plies).  Moves are the game's own move
    text (:meth:`games.Game.parse_move` reads them; chess files use UCI, as lichess does)."""

    id: str                      # unique in its set ("lichess:00sHx", "chess-0042", "mine-...")
    position: str                # the game's position text BEFORE the setting-up move
    setup: str | None            # the opponent's move that sets up the puzzle, None if none
    solution: tuple[str, ...]    # player's move, reply, player's move, ..., the player's last move
    rating: int = DEFAULT_RATING
    themes: tuple[str, ...] = ()
    source: str = ""             # a lichess URL, "made: seed 1", "your game 2026-11-27 ..."

    def start(self, name: str) -> Game:
        """The position before the setting-up move."""
        return new_game(name, self.position)

    def game(self, name: str) -> Game:
        """The position the player faces: the setting-up move played."""
        game = self.start(name)
        if self.setup is not None:
            game.play_text(self.setup)
        return game

    @property
    def move(self) -> str:
        """The player's first move."""
        return self.solution[0]

    @property
    def plies(self) -> int:
        """The solution's length in plies (the setting-up move not counted)."""
        return len(self.solution)

    def check(self, name: str) -> None:
        """Raise :class:`ValueError` (one line) unless the setting-up move and the whole line
        are legal in turn and the line has an odd number of plies."""
        if not self.id or any(char.isspace() for char in self.id):
            raise ValueError(f"the id {self.id[:30]!r} is empty or has spaces")
        if not self.solution or len(self.solution) % 2 == 0:
            raise ValueError(f"the solution has {len(self.solution)} plies; it must end on the player's move "
                             "(an odd number)")
        if not 0 <= self.rating <= MAX_RATING:
            raise ValueError(f"the rating {self.rating} is not between 0 and {MAX_RATING}")
        game = self.game(name)
        for ply, text in enumerate(self.solution, 1):
            if game.outcome() is not None:
                raise ValueError(f"the game is over before the solution's move {ply} ({text[:20]})")
            try:
                game.play_text(text)
            except ValueError as error:
                raise ValueError(f"the solution's move {ply}: {str(error).splitlines()[0]}") from None


def rating_from_gap(gap: float) -> int:
    """A one-move puzzle's rating from how clearly its move wins (the gap in winning chance to
    the second best): 1200 for a move that wins by a mile, up to 1900 for a narrow one."""
    gap = gap if math.isfinite(gap) else 1.0
    return round(1200.0 + 1000.0 * max(0.0, min(0.7, 1.0 - gap)))


def thresholds(game_name: str) -> tuple[float, float]:
    """The winning chance a puzzle's move must leave in ``game_name`` and the gap to the second
    best: its kind's ``puzzle_win``/``puzzle_gap`` (checkers: a man won), else :data:`WIN_CHANCE`
    and :data:`GAP_CHANCE`."""
    scores = game_kind(game_name).scores
    return (WIN_CHANCE if scores.puzzle_win is None else scores.puzzle_win,
            GAP_CHANCE if scores.puzzle_gap is None else scores.puzzle_gap)


def depth_of(game_name: str) -> int:
    """The depth a game's puzzles are found at (its kind's ``puzzle_depth``)."""
    return game_kind(game_name).scores.puzzle_depth


def _noisy_game(game_name: str, rng: random.Random, length: Callable[[], int]) -> Iterator[Game]:
    """A seeded game of two noisy players (``pvs`` at 400 nodes with jitter, and a random move
    15% of the time), yielded (live: copy it to keep it) after each of its first ``length()``
    plies, or until it ends."""
    cls = game_class(game_name)
    game = new_game(game_name)
    players = [create_engine(f"pvs:nodes=400,jitter=30,seed={rng.randrange(10**6)}", cls) for _ in (0, 1)]
    for _ in range(length()):
        if game.outcome() is not None:
            return
        if rng.random() < 0.15:
            game.play(rng.choice(game.legal_moves()))
        else:
            game.play(players[game.turn].search(game).move)
        yield game


def _open(game: Game) -> bool:
    """Whether ``game`` goes on with a choice to make."""
    return game.outcome() is None and len(game.legal_moves()) > 1


def candidate_positions(game_name: str, count: int, seed: int) -> Iterator[Game]:
    """``count`` positions from seeded games of two noisy players, 6 to 60 plies in (one a game)."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        game = None
        for game in _noisy_game(game_name, rng, lambda: rng.randrange(6, 61)):
            pass
        if game is not None and _open(game):
            made += 1
            yield game.copy()


def game_positions(game_name: str, seed: int) -> Iterator[Game]:
    """Endless positions: every one 6 or more plies into seeded games of the same two noisy
    players as :func:`candidate_positions` (each game played on to 80 plies), so the slips of
    the players' shallow searches become candidates: the candidates of a run checked by
    Stockfish, which screens them cheaply."""
    rng = random.Random(seed)
    while True:
        for ply, game in enumerate(_noisy_game(game_name, rng, lambda: 80)):
            if ply >= 6 and _open(game):
                yield game.copy()


def judge(game: Game, depth: int) -> Puzzle | None:
    """The puzzle ``game`` is, if it is one (see the module doc), by ``pvs`` at ``depth``."""
    scores = game_kind(game.NAME).scores
    engine = create_engine(f"pvs:depth={depth},multipv=2,seed=1", type(game))
    result = engine.search(game)
    lines = result.stats.lines
    if len(lines) < 2:
        return None
    best, second = lines[0], lines[1]
    win = scores.chance(best.score, best.mate)
    gap = win - scores.chance(second.score, second.mate)
    least_win, least_gap = thresholds(game.NAME)
    if win < least_win or gap < least_gap or not best.pv:
        return None
    return Puzzle(f"{game.NAME}-made", game.to_text(), None, (best.pv[0],), rating_from_gap(gap))


def confirm(puzzle: Puzzle, game_name: str, depth: int) -> bool:
    """Whether a search two plies deeper picks the puzzle's move."""
    game = puzzle.game(game_name)
    result = create_engine(f"pvs:depth={depth + 2},seed=2", type(game)).search(game)
    return result.move == game.parse_move(puzzle.move)


class StockfishJudge:
    """One Stockfish process for a run of checks (started with
    :func:`~engines.lifetime.killed_with_parent`, so it dies with us); a context manager.
    Raises :class:`~engines.remedy.RunError` (from :func:`find_stockfish`) when none is installed."""

    def __init__(self, game_name: str) -> None:
        import chess.engine

        from .lifetime import killed_with_parent
        from .stockfish import find_stockfish

        self.game_name = game_name
        self.scores = game_kind(game_name).scores
        self.engine = chess.engine.SimpleEngine.popen_uci(find_stockfish(), preexec_fn=killed_with_parent())

    def __enter__(self) -> "StockfishJudge":
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.engine.quit()
        except Exception:  # it died first (a Ctrl-C reaches its process group too): nothing to end
            pass

    def best(self, position: str, depth: int) -> str | None:
        """Stockfish's best move at ``depth`` (SAN) when it wins clearly as :func:`judge` asks
        (a winning chance of :data:`WIN_CHANCE`, the second line :data:`GAP_CHANCE` worse), else None."""
        import chess
        import chess.engine

        board = chess.Board(position)
        infos = self.engine.analyse(board, chess.engine.Limit(depth=depth), multipv=2)
        if len(infos) < 2 or not infos[0].get("pv"):
            return None
        chances = []
        for info in infos[:2]:
            relative = info["score"].relative
            mate = relative.mate()
            chances.append(self.scores.chance(relative.score(mate_score=100_000) or 0, mate))
        if chances[0] < WIN_CHANCE or chances[1] > chances[0] - GAP_CHANCE:
            return None
        return board.san(infos[0]["pv"][0])

    def agrees(self, puzzle: Puzzle, depth: int = 14) -> bool:
        """Whether Stockfish finds the puzzle's move at ``depth`` with the same clear gap."""
        best = self.best(puzzle.game(self.game_name).to_text(), depth)
        return best is not None and same_move(puzzle.game(self.game_name), best, puzzle.move)


def obvious(puzzle: Puzzle, game_name: str) -> bool:
    """Whether a one-ply search (with its quiescence) already plays the puzzle's move: a
    piece left hanging, not a puzzle for a run checked by Stockfish."""
    game = puzzle.game(game_name)
    result = create_engine("pvs:depth=1,seed=3", type(game)).search(game)
    return result.move == game.parse_move(puzzle.move)


def same_move(game: Game, first: str, second: str) -> bool:
    """Whether two move texts are one move in ``game`` (in any notation it reads: SAN or UCI)."""
    return game.parse_move(first) == game.parse_move(second)


#: The depth of Stockfish's quick look that screens candidates before our searches.
SCREEN_DEPTH = 10


def _kept(positions: Iterator[Game], game_name: str, count: int, *, stockfish: StockfishJudge | None = None,
          progress: Callable[[int, int], None] | None = None,
          found: list[Puzzle] | None = None, prefix: str | None = None) -> tuple[list[Puzzle], int]:
    """The first ``count`` puzzles among ``positions`` (each position once) and the positions
    looked at, numbered ``prefix-0001``... (default: the game's name): judged, checked two plies deeper, and by Stockfish if given (a quick look at
    :data:`SCREEN_DEPTH` first, which drops most positions cheaply, and depth 14 last)."""
    depth = depth_of(game_name)
    found = [] if found is None else found
    seen: set[str] = set()
    tried = 0
    for position in positions:
        if len(found) >= count:
            break
        tried += 1
        text = position.to_text()
        if text in seen:
            continue
        seen.add(text)
        if stockfish is not None and stockfish.best(text, SCREEN_DEPTH) is None:
            continue
        puzzle = judge(position, depth)
        if puzzle is None or not confirm(puzzle, game_name, depth):
            continue
        if stockfish is not None and (obvious(puzzle, game_name) or not stockfish.agrees(puzzle)):
            continue
        found.append(replace(puzzle, id=f"{prefix or game_name}-{len(found) + 1:04d}"))
        if progress is not None:
            progress(len(found), tried)
    return found, tried


def make_puzzles(game_name: str, count: int, seed: int, *, stockfish: bool = False,
                 progress: Callable[[int, int], None] | None = None,
                 found: list[Puzzle] | None = None) -> tuple[list[Puzzle], int]:
    """``count`` puzzles of ``game_name`` found among seeded candidates (see the module doc),
    and how many candidates it took.  ``stockfish``: they must also be Stockfish's
    (:meth:`StockfishJudge.agrees`).  ``found``: the list they are added to as they are found (the
    caller's, so that a run stopped early keeps them)."""
    if not stockfish:
        return _kept(candidate_positions(game_name, 1_000_000, seed), game_name, count, progress=progress,
                     found=found)
    with StockfishJudge(game_name) as judge_:
        return _kept(game_positions(game_name, seed), game_name, count, stockfish=judge_, progress=progress,
                     found=found)


def refutation(game: Game) -> object | None:
    """The reply our search finds in ``game`` (a wrong move just played): the move that
    refutes it, by ``pvs`` at the game's puzzle depth; ``None`` when the game is over."""
    if game.outcome() is not None:
        return None
    return create_engine(f"pvs:depth={depth_of(game.NAME)},seed=4", type(game)).search(game).move


def wins_as_clearly(game: Game, move: object, expected: object) -> bool:
    """Whether ``move``, played in ``game`` instead of the solution's last move ``expected``,
    wins as clearly: the same move; when the solution wins the game (a mate) or forces a win
    our search sees (at the game's puzzle depth), a move that does too (any mate, in chess);
    else also one that leaves a winning chance of :data:`WIN_CHANCE` (the game's own:
    :func:`thresholds`) and no less than the
    solution's less 5%."""
    if move == expected:
        return True
    player, scores = game.turn, game_kind(game.NAME).scores
    found = []  # (how sure: 2 the game won, 1 a forced win found, 0 a score; the winning chance)
    for tried in (move, expected):
        after = game.copy()
        after.play(tried)
        outcome = after.outcome()
        if outcome is not None:
            won = outcome.result_for(player) == 1.0
            found.append((2 if won else 0, outcome.result_for(player)))
            continue
        result = create_engine(f"pvs:depth={depth_of(game.NAME)},seed=5", type(game)).search(after)
        mate = mate_in(result.score)
        found.append((1 if mate is not None and mate < 0 else 0, 1.0 - scores.chance(result.score, mate)))
    (sure, chance), (sure_expected, chance_expected) = found
    if sure_expected:  # a mate (a won game) is matched only by a mate: a forced win found at least
        return sure >= 1
    return sure >= 1 or (chance >= thresholds(game.NAME)[0] and chance >= chance_expected - 0.05)


#: The words the game report writes in the comment of a move it calls a blunder or a mistake
#: (see :mod:`engines.review`): the positions before them become puzzles.
MISTAKE_WORDS = ("blunder", "mistake")
#: The plies of our search's line a puzzle from a game keeps (at most: the player's moves and the replies).
LINE_PLIES = 3


def blunder_positions(game_name: str, text: str) -> Iterator[Game]:
    """The positions before every move a record's comments call a blunder or a mistake (as
    the game report writes them into a saved game), each game of the record in turn."""
    from games.reading import scan_records

    for loaded in scan_records(game_name, text):
        if isinstance(loaded, Exception):
            continue
        comments = list(loaded.comments)
        if not any(comments) and loaded.model is not None:  # a chess game keeps its comments in its model
            comments = [node.comment for node in loaded.model.mainline()]
        game = new_game(game_name, loaded.start)
        for ply, move in enumerate(loaded.moves):
            if (ply < len(comments) and any(word in comments[ply] for word in MISTAKE_WORDS)
                    and game.outcome() is None):
                yield game.copy()
            try:
                game.play_text(move)
            except ValueError:
                break


def with_line(puzzle: Puzzle, game_name: str, pv: list[str]) -> Puzzle:
    """``puzzle`` with the first plies of our search's line ``pv`` as its solution: an odd
    number, up to :data:`LINE_PLIES`, stopping where the game ends; the puzzle as it is when
    the line does not start with its move."""
    game = puzzle.game(game_name)
    if not pv or not same_move(game, pv[0], puzzle.move):
        return puzzle
    line: list[str] = []
    for text in pv[:LINE_PLIES]:
        if game.outcome() is not None:
            break
        try:
            game.play_text(text)
        except ValueError:
            break
        line.append(text)
    if len(line) % 2 == 0:
        line = line[:-1]
    return replace(puzzle, solution=tuple(line) or puzzle.solution)


def puzzles_from_blunders(game_name: str, text: str, progress: Callable[[int, int], None] | None = None,
                          source: str = "") -> list[Puzzle]:
    """The puzzles among the positions before a record's mistakes and blunders (see
    :func:`puzzles_from_positions`)."""
    return puzzles_from_positions(game_name, blunder_positions(game_name, text), progress, source)


def report_positions(game_name: str, start: str | None, moves: Sequence[str], labels: Sequence[str]) -> Iterator[Game]:
    """The positions before the moves of a game a report labels (``labels[ply]``, see
    :mod:`engines.review`) a mistake or a blunder."""
    game = new_game(game_name, start)
    for move, label in zip(moves, labels):
        if label in MISTAKE_WORDS and game.outcome() is None:
            yield game.copy()
        game.play_text(move)


def puzzles_from_positions(game_name: str, positions: Iterable[Game],
                           progress: Callable[[int, int], None] | None = None, source: str = "") -> list[Puzzle]:
    """The puzzles among ``positions`` (before a player's mistakes): where the move the player
    missed wins clearly (judged and checked as any puzzle), each with a few plies of the line
    our search prefers (:func:`with_line`), ids ``mine-0001``..., ``source`` saying where from."""
    found = _kept(iter(positions), game_name, 1_000_000, progress=progress, prefix="mine")[0]
    depth = depth_of(game_name)
    lines = []
    for puzzle in found:
        game = puzzle.game(game_name)
        pv = create_engine(f"pvs:depth={depth},seed=1", type(game)).search(game).stats.pv
        lines.append(replace(with_line(puzzle, game_name, list(pv) if pv else []), source=source))
    return lines


def puzzle_line(puzzle: Puzzle) -> str:
    """One puzzle's line in a set file: id, position, setup (``-`` when none), solution
    (space-separated), rating, themes (space-separated), and the source when there is one,
    separated by tabs; a move's own spaces are written ``_``."""
    fields = [puzzle.id, puzzle.position, _token(puzzle.setup) if puzzle.setup else "-",
              " ".join(map(_token, puzzle.solution)), str(puzzle.rating), " ".join(puzzle.themes)]
    source = " ".join(puzzle.source.split())
    return "\t".join(fields + [source] if source else fields)


def _token(move: str) -> str:
    """A move's text as one word of a set file: its own spaces (Quixo's ``0 0 bottom``) as ``_``."""
    return move.strip().replace(" ", "_")


def _move(token: str) -> str:
    """A move's text from its word in a set file (:func:`_token`)."""
    return token.replace("_", " ")


def puzzle_text(puzzles: list[Puzzle], game_name: str, how: str) -> str:
    """A puzzle file: the header, ``how`` as comments, one puzzle a line (:func:`puzzle_line`)."""
    lines = [f"{HEADER}: {game_name}"] + [f"# {line}" if line else "#" for line in how.splitlines()]
    lines += [puzzle_line(puzzle) for puzzle in puzzles]
    return "\n".join(lines) + "\n"


def parse_puzzle_line(line: str, game_name: str, number: int, check: bool = True) -> Puzzle:
    """The puzzle of one line of a set file (:func:`puzzle_line`), or of an old one-move file
    (position, move, gap: no setting-up move, a one-move solution, the rating from the gap,
    the id ``GAME-NUMBER``); checked (:meth:`Puzzle.check`) unless ``check`` is false (the
    fields only: a set of millions is scanned fast, the puzzles taken checked after).
    :class:`ValueError` if bad."""
    parts = line.rstrip("\r").split("\t")
    if len(parts) == 3:
        gap = float(parts[2])
        if not 0.0 <= gap <= 1.0:
            raise ValueError(f"the gap {parts[2][:20]!r} is not a share between 0 and 1")
        puzzle = Puzzle(f"{game_name}-{number:04d}", parts[0], None, (parts[1],), rating_from_gap(gap))
    elif len(parts) in (5, 6, 7):
        try:
            rating = int(parts[4])
        except ValueError:
            raise ValueError(f"the rating {parts[4][:20]!r} is not a whole number") from None
        puzzle = Puzzle(parts[0], parts[1], None if parts[2] in ("", "-") else _move(parts[2]),
                        tuple(map(_move, parts[3].split())), rating, tuple(parts[5].split()) if len(parts) > 5 else (),
                        parts[6].strip() if len(parts) > 6 else "")
    else:
        raise ValueError("expected id, position, setup, solution, rating and themes separated by tabs")
    if check:
        puzzle.check(game_name)
    return puzzle


def read_puzzles(text: str, game_name: str, where: str = "puzzles") -> list[Puzzle]:
    """The puzzles of a file; :class:`PuzzleError` names the first bad line (or a repeated id)."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or not lines[0].startswith(HEADER):
        raise PuzzleError(f"{where}: not a puzzle file (its first line is not '{HEADER}: GAME')")
    found = lines[0].split(":", 1)[1].strip().lower() if ":" in lines[0] else ""
    if found != game_name:
        raise PuzzleError(f"{where}: puzzles of {found[:20]!r}, not {game_name}" if found else
                          f"{where}: its first line names no game")
    puzzles = []
    ids: set[str] = set()
    for number, line in enumerate(lines[1:], 2):
        if not line.strip() or line.startswith("#"):
            continue
        try:
            puzzle = parse_puzzle_line(line, game_name, number)
            if puzzle.id in ids:
                raise ValueError(f"the id {puzzle.id[:30]!r} is used twice")
        except ValueError as error:
            raise PuzzleError(f"{where}, line {number}: {str(error).splitlines()[0][:120]}") from None
        ids.add(puzzle.id)
        puzzles.append(puzzle)
    return puzzles


def shipped_puzzles(game_name: str) -> list[Puzzle]:
    """The set a game ships (``puzzles.txt`` in its package: ``games/<game>/puzzles.txt``), or none."""
    package = game_package(game_name)
    try:
        text = game_files(game_name).joinpath("puzzles.txt").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return []
    return read_puzzles(text, game_name, f"{package}/puzzles.txt")


def scan_puzzle_file(path: Path, game_name: str, check: bool = True) -> Iterator[Puzzle]:
    """The puzzles of a set file of any size, a line at a time (an imported database may hold
    millions); :class:`PuzzleError` names the first bad line, or a file that is not a set.
    ``check``: each puzzle's moves are played through (else the fields only are read)."""
    where = str(user_path(path))
    try:
        with open_regular(path, "a puzzle file", PuzzleError) as handle:
            lines = capped_lines(handle, where, PuzzleError)
            first = next(lines, b"").decode("utf-8", errors="replace").lstrip("\ufeff")
            read_puzzles(first, game_name, where)  # the header: the right game
            for number, raw in enumerate(lines, 2):
                line = raw.decode("utf-8", errors="replace")
                if not line.strip() or line.startswith("#"):
                    continue
                try:
                    yield parse_puzzle_line(line.rstrip("\r\n"), game_name, number, check)
                except ValueError as error:
                    raise PuzzleError(f"{where}, line {number}: {str(error).splitlines()[0][:120]}") from None
    except OSError as error:
        raise PuzzleError(f"{where}: cannot read it ({error.strerror or error})") from None


def load_puzzle_file(path: Path, game_name: str) -> list[Puzzle]:
    """The puzzles of a file the user names (checked: size, encoding, format)."""
    text = read_text(path, "a puzzle file", MAX_BYTES, PuzzleError)
    return read_puzzles(text, game_name, str(user_path(path)))
