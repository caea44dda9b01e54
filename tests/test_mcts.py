"""``mcts`` (engines/search/mcts.py): UCB1, MCTS-Solver, turn order, budgets, seeds, strength.

The yardstick for the solver is a tiny game written here where a side moves again
(:class:`BonusNim`) and a plain recursive solve of it; every search has a node
(playout) budget, never a clock.
"""

from __future__ import annotations

import math
import random
from enum import StrEnum
from functools import lru_cache
from typing import Any, ClassVar, Sequence

import pytest

from engines import MATE_BOUND, Limits, create_engine, parse_engine_spec
from engines.search.mcts import DRAW, UNKNOWN, Mcts, Tree, ucb1
from engines.tournament.config import MatchConfig
from engines.tournament.match import play_game
from games import GAME_NAMES, WIN, Game, IllegalMoveError, MoveSyntaxError, Outcome, PositionError, new_game


class BonusNimEnd(StrEnum):
    LAST = "took the last counter"


class BonusNim(Game[int]):
    """Misère Nim with a bonus: take 1 to 3 counters from one pile; whoever takes the last
    counter loses; taking exactly three (with counters left) gives the same side another move.
    Position text: the counters and the side to move, ``7 A``; a move: ``1``-``3``."""

    NAME: ClassVar[str] = "bonus-nim"
    PLAYERS: ClassVar[tuple[str, str]] = ("A", "B")
    HEURISTICS: ClassVar[dict[str, Any]] = {"none": lambda game, player: 0.0}
    DEFAULT_HEURISTIC = CUT_HEURISTIC = STRONG_HEURISTIC = "none"
    FEATURE_NAMES: ClassVar[tuple[str, ...]] = ("counters",)
    MOVES_AGAIN: ClassVar[bool] = True
    DECISIVE_SCORE: ClassVar[int] = 100
    EXAMPLE_POSITION: ClassVar[str] = "7 A"
    EXAMPLE_MOVE: ClassVar[str] = "3"
    MOVE_NOTATION: ClassVar[str] = "the counters taken, 1-3"
    POSITION_NOTATION: ClassVar[str] = "the counters and the side to move, e.g. 7 A"

    def __init__(self, counters: int = 7, turn: int = 0) -> None:
        self.counters = counters
        self._turn = turn
        self._stack: list[tuple[int, int]] = []  # (move, mover)

    @classmethod
    def from_text(cls, text: str) -> BonusNim:
        parts = text.split()
        if len(parts) != 2 or not parts[0].isdigit() or parts[1] not in cls.PLAYERS:
            raise PositionError(f"expected {cls.POSITION_NOTATION}")
        return cls(int(parts[0]), cls.PLAYERS.index(parts[1]))

    def to_text(self) -> str:
        return f"{self.counters} {self.PLAYERS[self._turn]}"

    def copy(self) -> BonusNim:
        other = BonusNim(self.counters, self._turn)
        other._stack = list(self._stack)
        return other

    @property
    def turn(self) -> int:
        return self._turn

    def legal_moves(self) -> list[int]:
        return [] if self.outcome() else list(range(1, min(3, self.counters) + 1))

    def play(self, move: int) -> None:
        self._stack.append((move, self._turn))
        self.counters -= move
        if move != 3 or not self.counters:
            self._turn = 1 - self._turn

    def undo(self) -> int:
        move, self._turn = self._stack.pop()
        self.counters += move
        return move

    def outcome(self) -> Outcome | None:
        if self.counters:
            return None
        return Outcome(1 - self._stack[-1][1], BonusNimEnd.LAST)  # the taker of the last counter lost

    def key(self) -> tuple[int, int]:
        return self.counters, self._turn

    @property
    def ply(self) -> int:
        return len(self._stack)

    @property
    def move_stack(self) -> Sequence[int]:
        return tuple(move for move, _ in self._stack)

    def format_move(self, move: int) -> str:
        return str(move)

    def parse_move(self, text: str) -> int:
        if text not in ("1", "2", "3"):
            raise MoveSyntaxError(self.MOVE_NOTATION)
        if int(text) not in self.legal_moves():
            raise IllegalMoveError("not that many counters")
        return int(text)

    def features(self, player: int) -> list[float]:
        return [float(self.counters)]


@lru_cache(None)
def wins(counters: int) -> bool:
    """Whether the side to move wins with ``counters`` left (a plain recursive solve)."""
    return bool(winning_moves(counters))


def winning_moves(counters: int) -> list[int]:
    moves = []
    for take in range(1, min(3, counters) + 1):
        left = counters - take
        if left and (wins(left) if take == 3 else not wins(left)):
            moves.append(take)
    return moves


def search(spec: str, game: Game, **kwargs: Any) -> Any:
    return create_engine(spec, type(game)).search(game, **kwargs)


# ------------------------------------------------------------------ the solver
def test_the_yardstick_is_not_plain_misere_nim() -> None:
    """With the bonus, the lost piles are 1, 4, 7, 10 (plain misère Nim: 1, 5, 9): a search that
    assumed the sides alternate would prove the wrong results."""
    assert [n for n in range(1, 14) if not wins(n)] == [1, 4, 7, 10, 13]


@pytest.mark.parametrize("counters", range(2, 14))
def test_the_solver_proves_every_pile_and_picks_a_winning_move(counters: int) -> None:
    game = BonusNim(counters)
    result = search("mcts:nodes=20000", game)
    assert abs(result.score) >= MATE_BOUND, (counters, result.stats.visits)
    assert (result.score > 0) == wins(counters)
    if wins(counters):
        assert result.move in winning_moves(counters), (counters, result.stats.visits)
        assert result.stats.playouts < 20000  # proven: the search stopped early
    assert game.to_text() == f"{counters} A"  # the game searched is left as it was


def test_a_forced_win_is_the_only_move_played() -> None:
    """Two counters: only taking one wins; three: only taking two (taking three is the last)."""
    assert search("mcts:nodes=2000", BonusNim(2)).move == 1
    assert search("mcts:nodes=2000", BonusNim(3)).move == 2


def test_a_side_moving_again_is_backed_up_as_the_same_side() -> None:
    """Five counters: taking three leaves two to the same side, who then takes one and wins;
    taking two leaves three to the opponent, who takes two and wins."""
    bonus = search("mcts:nodes=5000,seed=3", BonusNim(5), moves=[3])
    assert bonus.pv == [3, 1, 1] and bonus.score == WIN - 3  # A twice, then B takes the last
    assert bonus.stats.visits[0].proven == "win"
    lost = search("mcts:nodes=5000,seed=3", BonusNim(5), moves=[2])
    assert lost.score <= -MATE_BOUND and lost.stats.visits[0].proven == "loss"


def test_a_mate_in_one_is_proved_and_played() -> None:
    game = new_game("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    result = search("mcts:nodes=3000", game)
    assert game.format_move(result.move) == "Ra8#"
    assert result.stats.mate == 1 and result.score >= MATE_BOUND
    assert result.stats.visits[0].proven == "win" or any(v.proven == "win" for v in result.stats.visits)


def test_tree_proofs_by_hand() -> None:
    game = BonusNim(6)
    tree = Mcts(game, game.legal_moves(), c=1.4, rng=random.Random(0), greedy=False, max_plies=10,
                evaluate=lambda g, p: 0.0, scale=25.0).tree
    kids = tree.children(0)
    assert [tree.mover[child] for child in kids] == [0, 0, 0]
    tree.proven[kids[0]] = 1  # a win for the other side
    assert not tree.prove(0)  # the other children are not known
    tree.proven[kids[1]] = DRAW
    tree.proven[kids[2]] = 1
    assert tree.prove(0) and tree.proven[0] == DRAW
    tree.proven[0] = UNKNOWN
    tree.proven[kids[2]], tree.plies[kids[2]] = 0, 4
    assert tree.prove(0) and tree.proven[0] == 0 and tree.plies[0] == 5
    assert tree.best_child(0) == kids[2]


# --------------------------------------------------------------------- UCB1
def test_ucb1_selection_by_hand() -> None:
    game = BonusNim(6)

    def chosen(c: float) -> int:
        mcts = Mcts(game, game.legal_moves(), c=c, rng=random.Random(0), greedy=False, max_plies=10,
                    evaluate=lambda g, p: 0.0, scale=25.0)
        tree = mcts.tree
        tree.visits[0] = 10
        for child, (n, value) in zip(tree.children(0), [(5, 3.5), (3, 2.0), (2, 0.5)]):
            tree.visits[child], tree.value[child] = n, value
        return mcts.select(0) - tree.first[0]

    # means 0.7, 0.667, 0.25; exploration sqrt(ln 10 / n): 0.679, 0.876, 1.073
    assert chosen(0.0) == 0
    assert chosen(1.4) == 1  # 1.650, 1.893, 1.752
    assert chosen(3.0) == 2  # 2.736, 3.295, 3.469
    assert ucb1(2.0, 3, 10, 1.4) == pytest.approx(2 / 3 + 1.4 * math.sqrt(math.log(10) / 3))


def test_selection_tries_unvisited_children_first_and_never_a_proven_loss() -> None:
    game = BonusNim(6)
    mcts = Mcts(game, game.legal_moves(), c=1.4, rng=random.Random(0), greedy=False, max_plies=10,
                evaluate=lambda g, p: 0.0, scale=25.0)
    tree = mcts.tree
    first = tree.first[0]
    tree.visits[0], tree.visits[first], tree.value[first] = 1, 1, 1.0
    assert mcts.select(0) == first + 1  # unvisited
    for child in tree.children(0):
        tree.visits[child], tree.value[child] = 1, 1.0
    tree.visits[0] = 3
    tree.proven[first] = 1  # the best by UCB1, but a proven loss for A
    assert mcts.select(0) != first


# ---------------------------------------------------------- budgets and seeds
@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_node_budget_is_the_playouts_run_and_a_seed_repeats_the_search(name: str) -> None:
    game = new_game(name)
    first = search("mcts:nodes=150,seed=5", game)
    again = search("mcts:nodes=150,seed=5", game)
    assert first.stats.playouts == 150
    assert first.stats.nodes > 1 + len(first.stats.visits)  # the root, its children and more
    assert sum(visit.visits for visit in first.stats.visits) == 150
    assert (first.move, first.pv, first.stats.visits) == (again.move, again.pv, again.stats.visits)
    assert first.move in game.legal_moves() and first.stats.best == game.format_move(first.move)
    assert first.stats.pv[0] == first.stats.best and first.stats.depth >= 1


def test_limits_given_replace_the_spec_and_moves_restrict_the_root() -> None:
    game = new_game("quixo")
    engine = create_engine("mcts:time=30", type(game))
    share = game.legal_moves()[::5]
    result = engine.search(game, Limits(nodes=40), moves=share)
    assert result.stats.playouts == 40 and result.move in share
    assert {visit.move for visit in result.stats.visits} == {game.format_move(move) for move in share}


def test_the_spec_time_applies_unless_nodes_is_given_alone() -> None:
    assert create_engine("mcts", type(new_game("quixo"))).limits() == Limits(time=1.0)
    assert create_engine("mcts:nodes=9", type(new_game("quixo"))).limits() == Limits(nodes=9)
    assert create_engine("mcts:nodes=9,time=2", type(new_game("quixo"))).limits() == Limits(time=2.0, nodes=9)


def test_live_statistics_and_a_stop_already_set() -> None:
    class Set:
        def is_set(self) -> bool:
            return True

    game = new_game("othello")
    seen: list[Any] = []
    result = search("mcts:nodes=100000", game, stop=Set(), on_info=seen.append)
    assert result.stats.playouts <= 8 and result.move in game.legal_moves()
    assert seen and seen[-1].playouts == result.stats.playouts


@pytest.mark.parametrize("text", ["mcts:c=-1", "mcts:playout=smart", "mcts:max-plies=-2", "mcts:nodes=0"])
def test_bad_options_are_refused(text: str) -> None:
    from engines import SpecError

    with pytest.raises(SpecError):
        parse_engine_spec(text)


def test_random_playouts_to_the_end() -> None:
    game = new_game("checkers")
    result = search("mcts:nodes=60,playout=random,max-plies=1000", game)
    assert result.stats.evals == 0 and result.move in game.legal_moves()


# ------------------------------------------------------------------ strength
@pytest.mark.parametrize("name", GAME_NAMES)
def test_mcts_beats_random_with_either_colour(name: str) -> None:
    config = MatchConfig.create(name, "mcts:nodes=200", "random", 2, seed=1)
    for index in range(2):
        result = play_game(config, index)
        assert result.winner == "a", (name, index, result.reason)


def test_the_visits_read_as_moves_with_counts_and_chances() -> None:
    from tui.views.format import visits_text

    game = BonusNim(5)
    result = search("mcts:nodes=3000", game)
    text = visits_text(result.stats.visits)
    assert text.startswith(f"{result.stats.visits[0].move} ") and "win" in text
    assert visits_text([("d3", 181, 0.482, None), ("c4", 1500, 0.47, None)]) == "d3 181 48%, c4 1.5k 47%"


# ------------------------------------------------------------- the recorder
def test_the_tree_recorder_shows_visits_and_values() -> None:
    from engines.tree import record_tree
    from engines.tree.export import tree_document

    game = new_game("othello")
    result, tree = record_tree("mcts:nodes=5000,seed=1", game, budget=120)
    root = tree.root
    assert root is not None and tree.exhausted and not tree.complete
    assert tree.size() <= 120 and root.visits == result.stats.playouts == 119
    assert [child.visits for child in root.children] == sorted((v.visits for v in result.stats.visits), reverse=True)
    assert {child.end for node in root.walk() for child in node.children} <= {"all", "playout", "terminal"}
    best = root.children[0]
    assert game.format_move(best.move) == result.stats.best and best.value == -result.score
    document = tree_document(game, tree, result, "mcts:nodes=5000,seed=1")
    assert document["root"]["visits"] == 119 and document["root"]["children"][0]["move"] == result.stats.best


def test_a_proven_tree_records_its_results() -> None:
    from engines.tree import record_tree

    result, tree = record_tree("mcts:nodes=3000", BonusNim(5))
    assert tree.complete and tree.root is not None and tree.root.value == result.score >= MATE_BOUND
    assert any(node.end == "terminal" for node in tree.root.walk())


def test_the_recorded_roles_follow_the_turn() -> None:
    """Five counters, taking three: the same side moves again, so that node is still the root side's."""
    from engines.tree import record_tree
    from engines.tree.views import MAX, MIN, node_view

    _, tree = record_tree("mcts:nodes=3000", BonusNim(5))
    assert tree.root is not None
    roles = {node.move: node_view(node).role for node in tree.root.children}
    assert roles.get(3) == MAX and roles.get(1, MIN) == MIN


def test_the_tree_explorer_names_the_visits() -> None:
    from engines.tree import record_tree
    from tui.views.tree_text import node_details, node_label

    _, tree = record_tree("mcts:nodes=200", new_game("quixo"), budget=300)
    root = tree.root
    assert root is not None
    assert node_label(root, None).endswith("n 200")
    assert "visits 200: the playouts through this node (a Monte Carlo tree)" in node_details(root, [])


# ---------------------------------------------- the shared game with extra moves
def exact(game: Game, player: int) -> int:
    """``player``'s result with best play on both sides (1, 0 or -1), by plain recursion on turn."""
    outcome = game.outcome()
    if outcome is not None:
        return 0 if outcome.winner is None else 1 if outcome.winner == player else -1
    values = []
    for move in game.legal_moves():
        game.play(move)
        values.append(exact(game, player))
        game.undo()
    return max(values) if game.turn == player else min(values)


@pytest.mark.parametrize("seed", range(6))
def test_the_solver_agrees_with_a_brute_force_on_take_two(seed: int) -> None:
    from extra_moves import TakeTwo

    rng = random.Random(seed)
    row = "".join(str(rng.randint(0, 9)) for _ in range(rng.randint(5, 9)))
    game = TakeTwo.from_text(f"{row} 0 0 {'AB'[seed % 2]}")
    root = game.turn
    result = search("mcts:nodes=30000", game)
    truth = exact(game, root)
    assert result.stats.playouts < 30000, row  # the root was proven
    assert (result.score > 0) - (result.score < 0) == truth, (row, result.score)
    game.play(result.move)
    assert exact(game, root) == truth, row  # the move chosen keeps the result
