"""Connect Four as tui-games knows it: :data:`KIND`, found by the registry beside the game's class.

It ships no books, puzzles, learned tables or models: the suite's defaults serve (``pvs`` with the
``threats`` heuristic, levels by depth and unrated, no book, puzzles once ``tui-games puzzles``
makes some).
"""

from __future__ import annotations

from games.kind import BenchPlan, BenchPosition, GameKind, LevelPlan, PerftCase, ScoreScale

from .board import ConnectFourBoard
from .game import ConnectFour
from .records import ConnectFourMoveList

__all__ = ["KIND"]

KIND: GameKind[ConnectFour] = GameKind(
    game=ConnectFour,
    title="Connect Four",
    records=ConnectFourMoveList(),
    board=ConnectFourBoard(),
    # On the threats heuristic's scale an open three is worth 50.
    scores=ScoreScale(unit=1.0, unit_name="", win_scale=100.0, report_depth=6, puzzle_depth=6,
                      draw_min_plies=30, balanced=20.0),
    levels=LevelPlan(noise=(120, 40), casual_sees="", ratings=()),
    bench=BenchPlan(
        positions=(BenchPosition("start", None),
                   BenchPosition("after 4 plies", "......./......./......./......./...Y.../..RRY.. R",
                                 ("d", "d", "c", "e"))),
        search_depth=(7, 5), warm_depth=(7, 5), parallel_depth=(9, 6), perft_depth=6,
        perft=(PerftCase("start", None, 7, 5),),
    ),
    help=(
        "Type the column to drop a disc in, a-g as labelled (or 1-7): d. The disc falls to\n"
        "the lowest empty cell. With the mouse: click the cell where it would land. Four\n"
        "discs in a row, a column or a diagonal win; a full board is a draw."
    ),
    position_hint="the 6 rows (R, Y or .) from the top and the side to move, as `tui-games show connect-four` prints",
)
