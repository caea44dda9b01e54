"""``mcts``: Monte Carlo tree search (UCT) with MCTS-Solver, for any game and any turn order.

Each iteration walks down the tree by UCB1 from the root, playing the moves on
the one game it was given (play/undo, never a copy), adds the children of the
first node it reaches that has been visited before, plays one of them out to
the end of the game or for ``max-plies`` plies, and backs the result up the
path.  A playout cut short is scored by the game's heuristic, turned into a
winning chance on the game's own scale (:meth:`games.kind.ScoreScale.chance`).

- **Turn order is the game's.**  Every node keeps the player who made the move
  into it (``game.turn`` before the move), and its value is that player's
  average result: a side that moves twice in a row is backed up as such.
- **MCTS-Solver.**  A node where the game is over is proven (its winner, or a
  draw).  A node whose child is a proven win for the player choosing there is
  a proven win for that player; a node whose children are all proven is worth
  the best of them for that player.  Proven losses are never chosen again, a
  proven node is not searched below, and the best move prefers a proven win
  (the quickest), then the most visited move that is not a proven loss.
- **Playouts**: ``random`` picks uniformly; ``heuristic`` takes the game's
  cheap move ordering (:meth:`~games.Game.capture_scores`: captures first in
  chess and checkers) most of the time, a random move otherwise.

Per-node data live in parallel lists indexed by node number (:class:`Tree`);
children are contiguous, added all at once when a node is expanded.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import replace
from typing import Any, Callable, Sequence

from games import HEURISTIC_BOUND, WIN, Game, UnknownGameError, kind_of

from ..base import (
    Engine,
    InfoCallback,
    Limits,
    MoveVisits,
    SearchResult,
    SearchStats,
    StopFlag,
    line_texts,
    mate_in,
    root_moves,
)
from ..spec import EngineSpec
from .core import INF
from .recorder import DEFAULT_BUDGET, SearchTree, TreeNode

__all__ = ["MctsEngine", "Tree", "Mcts", "UNKNOWN", "DRAW", "DEFAULT_C", "ucb1", "recorded"]

#: ``Tree.proven`` of a node not proven; a proven node holds its winner (0 or 1) or :data:`DRAW`.
UNKNOWN = -1
DRAW = 2
#: The exploration constant's default: half UCB1's own square root of 2, as measured (docs/benchmarks.md).
DEFAULT_C = 0.7
#: The share of heuristic playout moves taken from the game's move ordering (the rest are random).
GREEDY = 0.75
#: Iterations between two looks at the clock and the stop flag, and seconds between two live reports.
POLL = 8
INFO_INTERVAL = 0.1
#: The most nodes one tree holds (about 200 MB): past it the search stops as at its budget.
MAX_TREE = 1_000_000


def ucb1(value: float, visits: int, parent_visits: int, c: float) -> float:
    """UCB1 of a child: its mean result for the player choosing plus ``c`` times the exploration term."""
    return value / visits + c * math.sqrt(math.log(parent_visits) / visits)


class Tree:
    """The search tree as parallel lists, one entry per node; node 0 is the root.

    ``mover`` is the player who made the move into the node, ``value`` the sum of
    that player's results (1 a win, 0.5 a draw, 0 a loss, or a winning chance),
    ``first``/``count`` the node's children (``count`` -1: not expanded),
    ``proven`` its winner once proved (:data:`UNKNOWN`, 0, 1 or :data:`DRAW`) and
    ``plies`` the plies to the end of the game with best play once proved.
    """

    __slots__ = ("parent", "move", "mover", "visits", "value", "first", "count", "proven", "plies")

    def __init__(self, turn: int) -> None:
        self.parent: list[int] = [-1]
        self.move: list[Any] = [None]
        self.mover: list[int] = [1 - turn]
        self.visits: list[int] = [0]
        self.value: list[float] = [0.0]
        self.first: list[int] = [0]
        self.count: list[int] = [-1]
        self.proven: list[int] = [UNKNOWN]
        self.plies: list[int] = [0]

    def __len__(self) -> int:
        return len(self.parent)

    def expand(self, node: int, moves: Sequence[Any], mover: int) -> None:
        """Add ``moves`` as the children of ``node``, each made by ``mover``."""
        n = len(moves)
        self.first[node] = len(self.parent)
        self.count[node] = n
        self.parent.extend([node] * n)
        self.move.extend(moves)
        self.mover.extend([mover] * n)
        self.visits.extend([0] * n)
        self.value.extend([0.0] * n)
        self.first.extend([0] * n)
        self.count.extend([-1] * n)
        self.proven.extend([UNKNOWN] * n)
        self.plies.extend([0] * n)

    def children(self, node: int) -> range:
        count = self.count[node]
        return range(self.first[node], self.first[node] + max(count, 0))

    def prove(self, node: int) -> bool:
        """Prove ``node`` from its children if they say enough (see the module doc); whether it is proven."""
        proven, plies, mover = self.proven, self.plies, self.mover
        kids = self.children(node)
        if not kids:
            return False
        chooser = mover[kids.start]
        draw = longest = -1
        known = True
        for child in kids:
            result = proven[child]
            if result == chooser:
                proven[node], plies[node] = chooser, plies[child] + 1
                return True
            if result == UNKNOWN:
                known = False
            elif result == DRAW:
                draw = child
            longest = max(longest, plies[child])
        if not known:
            return False
        if draw >= 0:
            proven[node], plies[node] = DRAW, plies[draw] + 1
        else:
            proven[node], plies[node] = 1 - chooser, longest + 1
        return True

    def best_child(self, node: int) -> int:
        """The child to play at ``node``: the quickest proven win for the player choosing, else the
        most visited child that is not a proven loss (all lost: the longest resistance); -1 if none."""
        kids = self.children(node)
        if not kids:
            return -1
        proven, visits, plies = self.proven, self.visits, self.plies
        chooser = self.mover[kids.start]
        wins = [child for child in kids if proven[child] == chooser]
        if wins:
            return min(wins, key=plies.__getitem__)
        alive = [child for child in kids if proven[child] in (UNKNOWN, DRAW)]
        if alive:
            return max(alive, key=lambda child: (visits[child], self.value[child]))
        return max(kids, key=plies.__getitem__)

    def line(self, node: int = 0) -> list[int]:
        """The best line from ``node``: :meth:`best_child` after best child while they were visited."""
        line = []
        child = self.best_child(node)
        while child >= 0 and (self.visits[child] or self.proven[child] != UNKNOWN):
            line.append(child)
            child = self.best_child(child)
        return line


class Mcts:
    """One search: the tree over ``game`` (played and taken back in place) and the counters."""

    def __init__(self, game: Game, moves: Sequence[Any], *, c: float, rng: random.Random,
                 greedy: bool, max_plies: int, evaluate: Callable[[Game, int], float],
                 scale: float) -> None:
        self.game = game
        self.c = c
        self.rng = rng
        self.greedy = greedy
        self.max_plies = max_plies
        self.evaluate = evaluate
        self.scale = scale
        self.tree = Tree(game.turn)
        self.evals = self.depth = self.seldepth = 0
        self.tree.expand(0, self.order(moves), game.turn)

    def order(self, moves: Sequence[Any]) -> list[Any]:
        """The order unvisited children are tried in: shuffled, and with the ``heuristic``
        playout the game's move ordering first (a stable sort keeps the shuffle among equals).
        A copy: the game's own list is never reordered."""
        moves = list(moves)
        self.rng.shuffle(moves)
        if self.greedy and len(moves) > 1:
            scores = self.game.capture_scores(moves)
            moves = [move for _, move in sorted(zip(scores, moves), key=lambda pair: -pair[0])]
        return moves

    def iterate(self) -> None:
        """One iteration: select, expand, play out, back up."""
        game, tree = self.game, self.tree
        proven, visits, count = tree.proven, tree.visits, tree.count
        node = depth = 0
        while proven[node] == UNKNOWN:
            if count[node] < 0:
                moves = game.legal_moves()
                if not moves:  # pragma: no cover - outcome() said the game goes on
                    break
                tree.expand(node, self.order(moves), game.turn)
            node = self.select(node)
            game.play(tree.move[node])
            depth += 1
            if not visits[node]:
                outcome = game.outcome()
                if outcome is not None:
                    proven[node] = DRAW if outcome.winner is None else outcome.winner
                break
        if depth > self.depth:
            self.depth = depth
        result = self.proven_result(node)
        if result is None:
            result = self.playout(depth)
        self.backup(node, result)
        for _ in range(depth):
            game.undo()

    def select(self, node: int) -> int:
        """The child of ``node`` UCB1 prefers (an unvisited one first; never a proven loss)."""
        tree = self.tree
        visits, value, proven, mover = tree.visits, tree.value, tree.proven, tree.mover
        first = tree.first[node]
        chooser = mover[first]
        log_n = math.log(max(visits[node], 1))
        c = self.c
        best, best_score = -1, -math.inf
        for child in range(first, first + tree.count[node]):
            n = visits[child]
            if not n:
                return child
            result = proven[child]
            if result != UNKNOWN and result != DRAW:
                if result == chooser:
                    return child
                continue  # a proven loss for the player choosing here
            score = value[child] / n + c * math.sqrt(log_n / n)
            if score > best_score:
                best, best_score = child, score
        return best if best >= 0 else tree.best_child(node)

    def proven_result(self, node: int) -> float | None:
        """The first player's result at a proven node (1, 0.5 or 0), else ``None``."""
        result = self.tree.proven[node]
        if result == UNKNOWN:
            return None
        return 0.5 if result == DRAW else 1.0 - result

    def playout(self, depth: int) -> float:
        """Play on from here to the end or ``max_plies`` plies; the first player's result
        (a cut playout: the heuristic's winning chance for the first player)."""
        game, rng = self.game, self.rng
        played = 0
        outcome = game.outcome()
        greedy = self.greedy
        while outcome is None and played < self.max_plies:
            moves = game.legal_moves()
            if not moves:  # pragma: no cover - outcome() said the game goes on
                break
            if greedy and rng.random() < GREEDY:
                scores = game.capture_scores(moves)
                top = max(scores)
                move = (moves[scores.index(top)] if top else moves[int(rng.random() * len(moves))])
            else:
                move = moves[int(rng.random() * len(moves))]
            game.play(move)
            played += 1
            outcome = game.outcome()
        if depth + played > self.seldepth:
            self.seldepth = depth + played
        if outcome is not None:
            result = 0.5 if outcome.winner is None else 1.0 - outcome.winner
        else:
            self.evals += 1
            score = self.evaluate(game, 0) / self.scale
            result = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, score))))
        for _ in range(played):
            game.undo()
        return result

    def backup(self, node: int, result: float) -> None:
        """Add the first player's ``result`` to ``node`` and its ancestors, each for its mover,
        proving ancestors as far as the node's proof reaches."""
        tree = self.tree
        parent, visits, value, mover = tree.parent, tree.visits, tree.value, tree.mover
        proving = tree.proven[node] != UNKNOWN
        while node >= 0:
            visits[node] += 1
            value[node] += result if mover[node] == 0 else 1.0 - result
            up = parent[node]
            if proving and up >= 0:
                proving = tree.prove(up)
            node = up


class MctsEngine(Engine):
    """``mcts``: see the module doc.  A fresh tree per search."""

    def __init__(self, spec: EngineSpec, game_class: type[Game]) -> None:
        super().__init__(spec, game_class)
        self.rng = random.Random(spec.get("seed"))
        self.c: float = spec.get("c")
        self.greedy = spec.get("playout") == "heuristic"
        self.max_plies: int = spec.get("max-plies")
        self.evaluate = game_class.heuristic(spec.get("heuristic") or game_class.STRONG_HEURISTIC)
        self.scale = win_scale(game_class)

    def limits(self) -> Limits:
        """The spec's budget: ``nodes`` playouts when given (and no ``time``), else ``time`` seconds."""
        given = self.spec.options
        nodes = given.get("nodes")
        time_limit = None if nodes is not None and "time" not in given else self.spec.get("time")
        return Limits(time=time_limit, nodes=nodes)

    def search(self, game: Game, limits: Limits | None = None, *,
               stop: StopFlag | None = None, on_info: InfoCallback | None = None,
               moves: Sequence[Any] | None = None) -> SearchResult:
        return self._run(game, limits, stop, on_info, moves)[0]

    def record(self, game: Game, limits: Limits | None = None, *, budget: int = DEFAULT_BUDGET,
               stop: StopFlag | None = None, on_info: InfoCallback | None = None) -> tuple[SearchResult, SearchTree]:
        """Search ``game`` as :meth:`search` does and give its tree as a recording (see
        :func:`recorded`): at most ``budget`` nodes, the playouts capped to stay within them."""
        limits = limits if limits is not None else self.limits()
        cap = max(budget - 1, 1)
        capped = limits.nodes is None or limits.nodes > cap
        if limits.time is None and limits.nodes is None:
            limits = replace(limits, time=self.spec.get("time"))
        result, mcts = self._run(game, replace(limits, nodes=cap if capped else limits.nodes), stop, on_info, None)
        exhausted = capped and mcts.tree.proven[0] == UNKNOWN and mcts.tree.visits[0] >= cap
        return result, SearchTree([recorded(mcts)], budget, exhausted)

    def _run(self, game: Game, limits: Limits | None, stop: StopFlag | None, on_info: InfoCallback | None,
             moves: Sequence[Any] | None) -> tuple[SearchResult, Mcts]:
        limits = limits if limits is not None else self.limits()
        legal = root_moves(game, moves)
        budget = limits.nodes
        seconds = limits.time if limits.time is not None or budget is not None else self.spec.get("time")
        start = time.perf_counter()
        deadline = None if seconds is None else start + seconds
        work = game.copy()
        mcts = Mcts(work, legal, c=self.c, rng=self.rng, greedy=self.greedy, max_plies=self.max_plies,
                    evaluate=self.evaluate, scale=self.scale)
        tree = mcts.tree
        last_info = start
        iterations = 0
        while tree.proven[0] == UNKNOWN and len(tree) < MAX_TREE:
            if budget is not None and iterations >= budget:
                break
            if iterations % POLL == 0 and iterations:
                now = time.perf_counter()
                if deadline is not None and now >= deadline:
                    break
                if stop is not None and stop.is_set():
                    break
                if on_info is not None and now - last_info >= INFO_INTERVAL:
                    last_info = now
                    on_info(self.stats(mcts, now - start))
            mcts.iterate()
            iterations += 1
        stats = self.stats(mcts, time.perf_counter() - start)
        if on_info is not None:
            on_info(stats.copy())
        line = [tree.move[node] for node in tree.line()] or [legal[0]]
        return SearchResult(line[0], stats.score, line, stats), mcts

    def stats(self, mcts: Mcts, elapsed: float) -> SearchStats:
        """The search's figures now: the tree's size as ``nodes``, the root's moves with their visits."""
        tree = mcts.tree
        line = tree.line()
        texts = line_texts(mcts.game, [tree.move[node] for node in line])
        best = line[0] if line else -1
        score = score_of(tree, best, self.scale)
        root = sorted(tree.children(0), key=lambda child: -tree.visits[child])
        visits = [MoveVisits(mcts.game.format_move(tree.move[child]), tree.visits[child],
                             round(_mean(tree, child), 4), _proven_text(tree, child)) for child in root]
        stats = SearchStats(
            nodes=len(tree), evals=mcts.evals, depth=mcts.depth, seldepth=mcts.seldepth,
            time_s=round(elapsed, 4), nps=int(len(tree) / elapsed) if elapsed > 0 else 0,
            score=score, mate=mate_in(score, plies=self.game_class.MOVES_AGAIN),
            best=texts[0] if texts else None, pv=texts,
            engine=str(self.spec), playouts=tree.visits[0],
        )
        stats.visits = visits
        return stats


def score_of(tree: Tree, best: int, scale: float) -> int:
    """The root's score for the side to move from its ``best`` child: a proven result as a win
    or loss in its plies, else the child's mean result as the score with that winning chance."""
    if best < 0:
        return 0
    result = tree.proven[best]
    if result != UNKNOWN:
        return 0 if result == DRAW else proven_score(result == tree.mover[best], tree.plies[best] + 1)
    return chance_score(_mean(tree, best), scale)


def proven_score(won: bool, plies: int) -> int:
    """A proven win (or loss) ``plies`` plies from the end, on the search's scale."""
    return WIN - plies if won else plies - WIN


def chance_score(chance: float, scale: float) -> int:
    """The score worth a winning ``chance`` on the game's ``scale``, within the heuristics' bound."""
    chance = min(max(chance, 1e-6), 1 - 1e-6)
    bound = HEURISTIC_BOUND - 1
    return int(max(-bound, min(bound, scale * math.log(chance / (1 - chance)))))


def recorded(mcts: Mcts) -> TreeNode:
    """The search's tree as a recording (:class:`~engines.search.recorder.TreeNode`): every
    visited node with its ``visits`` and its value for the side to move there (a proven result
    as a win or loss in its plies, else the score worth its mean result), the children the move
    played first, then most visited first; ``end`` is ``all`` where children were visited, ``terminal`` where the game
    is over, ``playout`` at a leaf played out (or evaluated); windows are unbounded and every value exact;
    ``root_side`` says where the root's side moves (the game's turn: a side may move again)."""
    tree, game = mcts.tree, mcts.game
    root_turn = game.turn

    def node(index: int, ply: int) -> TreeNode:
        mover, proven = tree.mover[index], tree.proven[index]
        if proven not in (UNKNOWN, DRAW):
            value: float = proven_score(proven == game.turn, tree.plies[index])
        elif proven == DRAW:
            value = 0
        else:
            mean = _mean(tree, index)
            value = chance_score(mean if game.turn == mover else 1 - mean, mcts.scale)
        best = tree.best_child(index)
        kids = [child for child in tree.children(index) if tree.visits[child]]
        kids.sort(key=lambda child: (child != best, -tree.visits[child]))  # the move played first
        end = "all" if kids else "terminal" if game.outcome() is not None else "playout"
        item = TreeNode(tree.move[index] if index else None, 0, ply, -INF, INF, value=value, end=end,
                        bound="exact", legal=tree.count[index] if tree.count[index] >= 0 else None,
                        visits=tree.visits[index], root_side=game.turn == root_turn)
        for child in kids:
            game.play(tree.move[child])
            item.children.append(node(child, ply + 1))
            game.undo()
        return item

    return node(0, 0)


def win_scale(game_class: type[Game]) -> float:
    """The score worth a winning chance of about 73% in the game (its kind's ``win_scale``;
    a quarter of its ``DECISIVE_SCORE``, or 100, for a game no kind describes)."""
    try:
        kind = kind_of(game_class)
    except UnknownGameError:
        kind = None
    if kind is not None and kind.game is game_class:
        return kind.scores.win_scale
    return getattr(game_class, "DECISIVE_SCORE", 400) / 4


def _mean(tree: Tree, node: int) -> float:
    """The node's mean result for its mover (a proven node: its exact result)."""
    result = tree.proven[node]
    if result != UNKNOWN:
        return 0.5 if result == DRAW else 1.0 if result == tree.mover[node] else 0.0
    visits = tree.visits[node]
    return tree.value[node] / visits if visits else 0.5


def _proven_text(tree: Tree, node: int) -> str | None:
    result = tree.proven[node]
    if result == UNKNOWN:
        return None
    return "draw" if result == DRAW else "win" if result == tree.mover[node] else "loss"
