"""Kalah as tui-games knows it: :data:`KIND`, found by the registry beside the game's class.

It ships no books, puzzles, learned tables or models: the suite's defaults serve (``pvs`` with the
``mobility`` heuristic, levels by depth and unrated).  Its samples give the shared tests and the
conformance kit small boards to check the engines on (a side moving again inside the search).
"""

from __future__ import annotations

from games.kind import BenchPlan, BenchPosition, GameKind, LevelPlan, PerftCase, ScoreScale
from games.samples import Decided, NotationExample, Samples

from .board import KalahBoard
from .game import Kalah
from .records import KalahMoveList

__all__ = ["KIND"]

SAMPLES = Samples(
    line=("d", "c", "f", "b", "a"),  # North moves again after its c
    transposition=None,
    illegal_move=None,
    other_side=("1,0,2,0,0,1:20 0,3,0,0,1,0:20 S", "1,0,2,0,0,1:20 0,3,0,0,1,0:20 N"),
    finished=("0,0,0,0,0,0:30 0,0,0,0,0,0:18 N", "0,0,0,0,0,0:24 0,0,0,0,0,0:24 S"),
    notation=(NotationExample(None, "3", "c"), NotationExample(None, "C", "c")),
    move_alphabet="abcdefABCDEF123456 ",
    position_alphabet="0123456789,: SN",
    cheap_heuristic="stores",
    search_depth=3,
    small_tree=("1,1,1,1,1,1:0 1,1,1,1,1,1:0 S", (), 4),
    # South sows f into its store, moves again and sows e: the last of its seeds home, 25-23.
    decided=(Decided("0,0,0,0,2,1:22 0,0,0,1,0,0:23 S", 4, 3),),
    ended=("0,0,0,0,0,1:23 1,0,0,0,0,0:23 S", ("f",)),
    near_end=("0,0,1,0,1,1:21 1,0,0,1,0,1:19 S", "alphabeta:depth=6"),
    middle=("c", "f", "a"),
)

KIND: GameKind[Kalah] = GameKind(
    game=Kalah,
    title="Kalah",
    records=KalahMoveList(),
    board=KalahBoard(),
    # On the mobility heuristic's scale a seed in the store is worth 10.
    scores=ScoreScale(unit=10.0, unit_name="seed", win_scale=60.0, report_depth=6, puzzle_depth=6,
                      draw_min_plies=30, balanced=10.0),
    levels=LevelPlan(noise=(60, 20), casual_sees="", ratings=()),
    bench=BenchPlan(
        positions=(BenchPosition("start", None),
                   BenchPosition("after 3 moves", "4,4,0,5,5,0:2 0,6,6,6,5,5:0 S", ("c", "f", "a")),),
        search_depth=(8, 6), warm_depth=(8, 6), parallel_depth=(10, 7), perft_depth=6,
        perft=(PerftCase("start", None, 7, 5),),
    ),
    help=(
        "Type the pit to sow, a-f from your left (or 1-6): c. Its seeds go one by one\n"
        "counter-clockwise into the pits that follow and your store (never the other's).\n"
        "The last seed in your store: move again. The last in an empty pit of yours takes\n"
        "it and the seeds opposite. When a side's pits are empty the game ends; most seeds wins."
    ),
    position_hint="South's pits:store, North's pits:store, the side to move (S or N), as `tui-games show kalah` prints",
    samples=SAMPLES,
)
