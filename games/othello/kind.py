"""Othello as the rest of the project knows it: :data:`KIND`."""

from __future__ import annotations

from ..books import ShippedBook
from ..kind import BenchPlan, BenchPosition, GameKind, LevelPlan, PerftCase, PerftReference, ScoreScale, ScoreUnit
from .board import OthelloBoard
from ..learned import DatasetStep, TrainStep, tables_plan
from .ffo import FFO_SOURCE, ffo_cases
from .game import Othello
from .patterns import FORM
from .records import OthelloMoveList
from .reference import reference_perft
from .samples import SAMPLES

__all__ = ["KIND"]

KIND: GameKind[Othello] = GameKind(
    game=Othello,
    title="Othello",
    records=OthelloMoveList(),
    board=OthelloBoard(),
    # On the standard heuristic's scale a corner is worth 100 (50 at the end),
    # a mobility move 12; its values spread about ±130 in play.
    scores=ScoreScale(unit=1.0, unit_name="", win_scale=200.0, report_depth=4, puzzle_depth=5,
                      draw_min_plies=30, balanced=36.0,
                      # Read as the final disc difference it predicts: 10 discs are worth 73% (win_scale).
                      reading=ScoreUnit(20.0, "disc", "discs", decimals=0, most=64,
                                        means="the final disc difference it predicts")),
    levels=LevelPlan(
        noise=(100, 40), casual_sees="",
        ratings=((300, 136), (787, 308), (1280, 411), (1545, 438), (1562, 462)),
    ),
    bench=BenchPlan(
        positions=(
            BenchPosition("start", None),
            BenchPosition(
                "after 10 plies", "......../.W...W../.BWB.W../...WBW../...BWB../.....WB./......../........ B",
                ("f5", "f4", "f3", "f6", "d3", "f2", "g6", "c3", "b3", "b2"),
            ),
            BenchPosition(
                "after 20 plies", ".WB...../..WB..../.WWWBB../.WWWWWW./.WBWBW../W.BWW.../......../........ B",
                ("f5", "d6", "c3", "d3", "c4", "f4", "c5", "b3", "c2", "e6",
                 "c6", "b4", "b5", "d2", "e3", "a6", "c1", "b1", "f3", "g4"),
            ),
        ),
        search_depth=(5, 3), warm_depth=(6, 3), parallel_depth=(8, 4), perft_depth=5,
        perft=(PerftCase("start", None, 8, 6, ">=10x", no_bulk=True),),
        reference=PerftReference("plain grid", reference_perft),
        solve_cases=ffo_cases, solve_source=FFO_SOURCE,
    ),
    samples=SAMPLES,
    help=(
        "Type the cell to place a disc on, column a-h and row 1-8 as labelled (row 1 at the top):\n"
        "d3, f5. A disc must bracket a line of the opponent's discs, which turn over; the dots\n"
        "mark the cells you may play. With no such cell you must pass: type pass (or click\n"
        "the board). With the mouse: click the cell. The game ends when neither side can\n"
        "move; more discs wins."
    ),
    position_hint="the 8 rows (B, W or .) from row 1 and the side to move, as `tui-games show othello` prints",
    # Pattern tables fitted from nothing, in a quarter of the score worth 73% (win_scale 200).
    tables=tables_plan(FORM, Othello.from_text, unit=50.0),
    # The bundled tables (learned.npz): two generations of self-play labelled by 3-ply searches.
    recipe=(
        DatasetStep("othello-d3-1.csv", games=4000, depth=3, seed=1, openings=6, explore=0.05),
        TrainStep("generation-1.npz", ("othello-d3-1.csv",)),
        DatasetStep("othello-t3-2.csv", games=3000, depth=3, seed=2, openings=6, explore=0.05,
                    heuristic="tables:{folder}/generation-1.npz"),
        TrainStep("learned.npz", ("othello-d3-1.csv", "othello-t3-2.csv")),
    ),
    books=(ShippedBook("balanced", "games.othello", "books/balanced.txt",
                       "300 random 8-ply lines pvs at depth 8"
                       " scores within 36 of level (tui-games book)"),),
)
