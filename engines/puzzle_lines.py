"""Puzzle lines: multi-move puzzles found by search, checked deeper, rated and tagged.

A candidate is a position of a seeded game between two noisy players
(:func:`engines.puzzles.game_positions`) together with the move that led to it
(the *setting-up move*, played by the side that is not to move).  From there the
side to move must find a whole line (:func:`follow`):

- at every one of its moves the search with two lines (``multipv=2``) leaves it a
  winning chance of at least :data:`~engines.puzzles.WIN_CHANCE` and the second
  best move at least :data:`~engines.puzzles.GAP_CHANCE` of winning chance worse
  (the only move that wins), or the game's own thresholds where its kind gives
  them (:func:`thresholds`: checkers asks for a man won), except that the last
  move of a forced win may be any winning move (any mate);
- the opponent's replies are the best defence that search finds;
- the line stops where the player's next move is no longer the only one that
  wins (the win is cashed) or the game is won, and it has at least
  :data:`MIN_PLIES` plies and at most :data:`MAX_MOVES` moves of the player.

A line is then checked (:func:`verify`): a search two plies deeper than the one
that found it plays each of the player's moves with the same clear gap; and the
position before the setting-up move must not already be won for the player (the
setting-up move is the slip the puzzle punishes).

Chess runs checked by Stockfish (``stockfish=True``) let one Stockfish process do
the cheap work first: a quick look (:data:`SCREEN_DEPTH`) drops candidates with
no clear win, Stockfish at :data:`FOLLOW_DEPTH` follows the line (the player's
moves and the best defence), our ``pvs`` at the game's puzzle depth must find
each of the player's moves (with the gap), and Stockfish at
:data:`VERIFY_DEPTH` must agree with each of them last.

Near-duplicates are dropped (:class:`Dedup`): no two puzzles share their
position (before or after the setting-up move) or the position after the first
move, and no two from the same source game share their first move or their set
of moves.  Each puzzle is rated (:func:`rating`) from the depth its first move
needs and the length of its line, and tagged with the themes
:mod:`engines.puzzle_themes` computes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Protocol, Sequence

from games import Game, game_kind, new_game

from .puzzles import GAP_CHANCE, WIN_CHANCE, Puzzle, StockfishJudge, depth_of, game_positions, thresholds
from .registry import create_engine
from .stockfish import UCI_GAME

__all__ = ["Lines", "Analyser", "OurSearch", "StockfishSearch", "MIN_PLIES", "MAX_MOVES",
           "SCREEN_DEPTH", "stockfish_candidates", "FOLLOW_DEPTH", "VERIFY_DEPTH", "BEFORE_CHANCE", "Candidate", "candidates", "follow",
           "verify", "thresholds", "needed_depth", "rating", "Dedup", "make_lines", "move_text", "line_texts", "replay_line"]

#: The shortest line kept (the player's move, the reply, the player's move), and the most player moves.
MIN_PLIES = 1
MAX_MOVES = 4
#: Stockfish's depths: the quick look that screens candidates, the line's search, the last check.
SCREEN_DEPTH = 6
FOLLOW_DEPTH = 12
VERIFY_DEPTH = 14
#: The player's winning chance before the setting-up move must be below this (it was not won yet).
BEFORE_CHANCE = 0.7


@dataclass(frozen=True)
class Lines:
    """The two best moves of a position by one search: moves, winning chances, mates (the side to move's)."""

    moves: tuple[Any, ...]
    chances: tuple[float, ...]
    mates: tuple[int | None, ...]
    #: The winning chance the best move must leave, and how much worse the second best must be
    #: (the game's own, :func:`thresholds`).
    win: float = WIN_CHANCE
    gap: float = GAP_CHANCE

    def decisive(self, *, last: bool = False) -> bool:
        """Whether the best move wins clearly and is the only one that does (on the ``last`` move
        of a line any mate in one is enough)."""
        if not self.moves or self.chances[0] < self.win:
            return False
        if last and self.mates[0] == 1:
            return True
        return len(self.moves) > 1 and self.chances[1] <= self.chances[0] - self.gap


class Analyser(Protocol):
    """A search that gives a position's two best moves at a depth."""

    def lines(self, game: Game, depth: int) -> Lines: ...


class OurSearch:
    """``pvs`` with two lines at a fixed depth."""

    def __init__(self, game_name: str) -> None:
        self.scores = game_kind(game_name).scores
        self.win, self.gap = thresholds(game_name)

    def lines(self, game: Game, depth: int) -> Lines:
        result = create_engine(f"pvs:depth={depth},multipv=2,seed=1", type(game)).search(game)
        found = [line for line in result.stats.lines if line.pv][:2]
        if not found and result.move is not None:  # one legal move: no lines, the move
            return Lines((result.move,), (self.scores.chance(result.score, result.stats.mate),), (result.stats.mate,),
                         self.win, self.gap)
        return Lines(tuple(game.parse_move(line.pv[0]) for line in found),
                     tuple(self.scores.chance(line.score, line.mate) for line in found),
                     tuple(line.mate for line in found), self.win, self.gap)


class StockfishSearch:
    """Stockfish with two lines at a fixed depth, over one :class:`~engines.puzzles.StockfishJudge` process."""

    def __init__(self, judge: StockfishJudge) -> None:
        self.judge = judge

    def lines(self, game: Game, depth: int, multipv: int = 2) -> Lines:
        import chess
        import chess.engine

        board = chess.Board(game.to_text())
        infos = self.judge.engine.analyse(board, chess.engine.Limit(depth=depth), multipv=multipv)
        moves, chances, mates = [], [], []
        for info in infos[:multipv]:
            if not info.get("pv"):
                continue
            relative = info["score"].relative
            mate = relative.mate()
            moves.append(game.parse_move(info["pv"][0].uci()))
            chances.append(self.judge.scores.chance(relative.score(mate_score=100_000) or 0, mate))
            mates.append(mate)
        return Lines(tuple(moves), tuple(chances), tuple(mates))


def move_text(game: Game, move: Any) -> str:
    """A move as a puzzle file writes it: the game's move text, UCI for chess."""
    return move.uci() if game.NAME == UCI_GAME else game.format_move(move)


@dataclass(frozen=True)
class Candidate:
    """A position to try (after the setting-up move) and the source game it is from."""

    game: Game
    source: int


def candidates(game_name: str, seed: int) -> Iterator[Candidate]:
    """Endless candidates: every position 6 or more plies into the seeded noisy games of
    :func:`engines.puzzles.game_positions`, numbered by the game they come from."""
    number, last_ply = 0, 10**9
    for game in game_positions(game_name, seed):
        if game.ply <= last_ply:
            number += 1
        last_ply = game.ply
        yield Candidate(game, number)


#: Stockfish's games: the share of moves that are random (the slips), and the winning chance past
#: which a game stops two plies later (its slip is punished: what comes next is no puzzle).
SLIP_SHARE = 0.25
LOPSIDED = 0.97


def stockfish_candidates(game_name: str, seed: int, engine: StockfishSearch) -> Iterator[tuple[Candidate, Lines]]:
    """Endless candidates for a run checked by Stockfish, with Stockfish's quick look at each
    (two lines at :data:`SCREEN_DEPTH`): seeded games where Stockfish plays its best move but
    for a share :data:`SLIP_SHARE` of random moves; the positions after a random move are the
    candidates.  A game stops two plies after one side's winning chance passes :data:`LOPSIDED`."""
    rng = random.Random(seed)
    number = 0
    while True:
        number += 1
        game = new_game(game_name)
        far, slipped = 0, False
        while game.outcome() is None and game.ply < 160 and far < 2:
            lines = engine.lines(game, SCREEN_DEPTH)
            if not lines.moves:
                break
            if slipped and game.ply >= 6:
                yield Candidate(game.copy(), number), lines
            far = far + 1 if max(lines.chances[0], 1 - lines.chances[0]) > LOPSIDED else 0
            slipped = rng.random() < SLIP_SHARE
            game.play(rng.choice(game.legal_moves()) if slipped else lines.moves[0])


def follow(game: Game, finder: Analyser, depth: int, defence: Analyser | None = None,
           defence_depth: int | None = None) -> list[Any] | None:
    """The line the side to move must find from ``game`` (see the module doc), by ``finder`` at
    ``depth``, the replies by ``defence`` (default: the finder) at ``defence_depth``; None when
    there is none of :data:`MIN_PLIES` plies."""
    defence = defence or finder
    defence_depth = defence_depth or depth
    player = game.turn
    work = game.copy()
    solution: list[Any] = []
    for step in range(MAX_MOVES):
        lines = finder.lines(work, depth)
        if not lines.decisive(last=step > 0):
            break
        move = lines.moves[0]
        solution.append(move)
        work.play(move)
        outcome = work.outcome()
        if outcome is not None:
            if outcome.winner != player:
                solution.pop()
            break
        if step == MAX_MOVES - 1:
            break
        reply = defence.lines(work, defence_depth)
        if not reply.moves:
            break
        solution.append(reply.moves[0])
        work.play(reply.moves[0])
        if work.outcome() is not None:
            break
    if len(solution) % 2 == 0 and solution:
        solution.pop()
    return solution if len(solution) >= MIN_PLIES else None


def _ends_won(game: Game, solution: Sequence[Any]) -> bool:
    """Whether the line ends the game with a win for the side to move at its start."""
    work = game.copy()
    for move in solution:
        work.play(move)
    outcome = work.outcome()
    return outcome is not None and outcome.winner == game.turn


def verify(game: Game, solution: Sequence[Any], checker: Analyser, depth: int) -> bool:
    """Whether ``checker`` at ``depth`` plays each of the player's moves of the line with the same
    clear gap (the mating or winning last move: any move that wins on the board is as good)."""
    work = game.copy()
    won = _ends_won(game, solution)
    for ply, move in enumerate(solution):
        if ply % 2 == 0:
            last = ply == len(solution) - 1
            if not (last and won):
                lines = checker.lines(work, depth)
                if not lines.decisive() or lines.moves[0] != move:
                    return False
        work.play(move)
    return True


def before_not_won(game: Game, analyser: Analyser, depth: int) -> bool:
    """Whether the position before the setting-up move (``game`` with its last move taken back)
    left the player below :data:`BEFORE_CHANCE`: the setting-up move is the slip."""
    before = game.copy()
    before.undo()
    lines = analyser.lines(before, depth)
    return bool(lines.moves) and 1.0 - lines.chances[0] < BEFORE_CHANCE


def needed_depth(game: Game, move: Any, depth: int) -> int:
    """The smallest depth, up to ``depth``, at which ``pvs`` plays ``move`` here (``depth`` + 1: never)."""
    for tried in range(1, depth + 1):
        if create_engine(f"pvs:depth={tried},seed=1", type(game)).search(game).move == move:
            return tried
    return depth + 1


def rating(plies: int, needed: int) -> int:
    """A puzzle's rating: 900, and 150 for each ply of the line past the first, and 200 for each
    ply of depth the search needs to play its first move past one (a hanging piece taken at
    depth 1 in three plies: 1200; a depth-5 first move in seven plies: 2600)."""
    return 900 + 150 * (plies - 1) + 200 * (needed - 1)


@dataclass
class Dedup:
    """What has been kept: positions (before and after the setting-up move, after the first
    move) and, per source game, first moves and sets of moves (see the module doc)."""

    positions: set[str] = field(default_factory=set)
    motifs: set[tuple[int, object]] = field(default_factory=set)

    def keys(self, game: Game, solution: Sequence[Any], source: int) -> tuple[list[str], list[tuple[int, object]]]:
        before = game.copy()
        before.undo()
        after = game.copy()
        after.play(solution[0])
        texts = [move_text(game, move) for move in solution]
        return ([game.to_text(), before.to_text(), "after " + after.to_text()],
                [(source, texts[0]), (source, frozenset(texts[::2]))])

    def seen(self, game: Game, solution: Sequence[Any], source: int) -> bool:
        positions, motifs = self.keys(game, solution, source)
        return any(p in self.positions for p in positions) or any(m in self.motifs for m in motifs)

    def add(self, game: Game, solution: Sequence[Any], source: int) -> None:
        positions, motifs = self.keys(game, solution, source)
        self.positions.update(positions)
        self.motifs.update(motifs)


def replay_line(game_name: str, position: str, setup: str | None, solution: Sequence[str]) -> tuple[Game, list[Any]]:
    """The puzzle's position after its setting-up move, and its solution as moves (each checked legal)."""
    game = new_game(game_name, position)
    if setup is not None:
        game.play_text(setup)
    work = game.copy()
    moves = []
    for text in solution:
        moves.append(work.play_text(text))
    return game, moves


def _puzzle(game_name: str, candidate: Candidate, solution: Sequence[Any], seed: int, number: int,
            needed: int) -> Puzzle:
    game = candidate.game
    before = game.copy()
    setup = before.undo()
    texts = line_texts(game, solution)
    return Puzzle(id=f"{game_name}-{seed}-{number:04d}", position=before.to_text(), setup=move_text(before, setup),
                      solution=texts, rating=rating(len(solution), needed),
                      source=f"seed {seed}, game {candidate.source}, ply {game.ply}")


def line_texts(game: Game, solution: Sequence[Any]) -> tuple[str, ...]:
    """The solution's moves as texts, each written in the position it is played in."""
    work = game.copy()
    texts = []
    for move in solution:
        texts.append(move_text(work, move))
        work.play(move)
    return tuple(texts)


def make_lines(game_name: str, count: int, seed: int, *, stockfish: bool = False,
               progress: Callable[[int, int], None] | None = None,
               found: list[Puzzle] | None = None) -> tuple[list[Puzzle], int]:
    """``count`` line puzzles of ``game_name`` from the seeded candidates (see the module doc), and
    how many candidates it took; ``found`` is the caller's list they are added to as they come."""
    found = [] if found is None else found
    if not stockfish:
        return _run(game_name, count, seed, None, progress, found)
    with StockfishJudge(game_name) as judge:
        return _run(game_name, count, seed, StockfishSearch(judge), progress, found)


def _run(game_name: str, count: int, seed: int, engine: StockfishSearch | None,
         progress: Callable[[int, int], None] | None, found: list[Puzzle]) -> tuple[list[Puzzle], int]:
    depth = depth_of(game_name)
    ours = OurSearch(game_name)
    dedup = Dedup()
    tried = 0
    stream: Iterator[tuple[Candidate, Lines | None]] = (
        ((candidate, None) for candidate in candidates(game_name, seed)) if engine is None
        else stockfish_candidates(game_name, seed, engine))
    for candidate, screen in stream:
        if len(found) >= count:
            break
        tried += 1
        game = candidate.game
        if game.to_text() in dedup.positions:
            continue
        if engine is not None:
            if screen is None or not screen.decisive():
                continue
            solution = follow(game, engine, FOLLOW_DEPTH)
            if (solution is None or dedup.seen(game, solution, candidate.source)
                    or not verify(game, solution, ours, depth)
                    or not verify(game, solution, engine, VERIFY_DEPTH)
                    or not before_not_won(game, engine, FOLLOW_DEPTH)):
                continue
        else:
            if not ours.lines(game, depth).decisive():
                continue
            solution = follow(game, ours, depth, ours, depth + 2)
            if (solution is None or dedup.seen(game, solution, candidate.source)
                    or not verify(game, solution, ours, depth + 2)
                    or not before_not_won(game, ours, depth)):
                continue
        dedup.add(game, solution, candidate.source)
        found.append(_puzzle(game_name, candidate, solution, seed, len(found) + 1,
                             needed_depth(game, solution[0], depth)))
        if progress is not None:
            progress(len(found), tried)
    return found, tried
