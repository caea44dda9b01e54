"""Quixo as the rest of the project knows it: :data:`KIND`."""

from __future__ import annotations

from ..books import ShippedBook
from ..kind import BenchPlan, BenchPosition, GameKind, LevelPlan, PerftCase, PerftReference, ScoreScale
from .board import QuixoBoard
from ..learned import DatasetStep, TrainStep, tables_plan
from .game import Quixo
from .patterns import FORM
from .records import QuixoMoveList
from .reference import reference_perft
from .samples import SAMPLES

__all__ = ["KIND"]

KIND: GameKind[Quixo] = GameKind(
    game=Quixo,
    title="Quixo",
    records=QuixoMoveList(),
    board=QuixoBoard(),
    scores=ScoreScale(unit=1.0, unit_name="", win_scale=250.0, report_depth=4, puzzle_depth=3,
                      draw_min_plies=20, balanced=45.0),
    levels=LevelPlan(
        noise=(100, 40), casual_sees="",
        ratings=((699, 158), (1140, 229), (1274, 235), (1371, 243), (1431, 266)),  # 2026-12-03, 40 games a pairing
    ),
    bench=BenchPlan(
        positions=(
            BenchPosition("start", None),
            BenchPosition(
                "after 8 plies", ".OOXX/O..../...../...../OX.X. X",
                ("3 0 bottom", "2 4 top", "1 0 right", "4 1 left", "3 0 right", "2 4 top", "2 4 left",
                 "2 4 left"),
            ),
            BenchPosition(
                "after 16 plies", "OXOXO/O..../...../....X/X.OXO X",
                ("1 0 left", "2 0 right", "2 0 bottom", "0 3 top", "0 1 bottom", "0 2 top", "4 2 bottom",
                 "0 1 top", "1 0 right", "3 0 right", "1 4 left", "4 2 bottom", "0 4 right", "2 4 top",
                 "1 4 top", "2 4 right"),
            ),
        ),
        search_depth=(4, 3), warm_depth=(5, 3), parallel_depth=(7, 3), perft_depth=3,
        perft=(PerftCase("start", None, 4, 3, ">=800k/s", no_bulk=True),),
        reference=PerftReference("seeds' deepcopy", reference_perft, depth_less=1),
    ),
    samples=SAMPLES,
    help=(
        "Type COL ROW EDGE: take the border cube at that column and row (0-4, as labelled)\n"
        "— blank or yours — and push it back in at the top, bottom, left or right edge of its\n"
        "line (t, b, l, r work too): 0 0 bottom, 4 2 left. Five in a line wins; completing a\n"
        "line of the opponent's symbol loses. With the mouse: click the cube, then the cell on\n"
        "the edge it goes back in at."
    ),
    position_hint="the 5 rows (X, O or .) and the side to move, as `tui-games show quixo` prints",
    # Pattern tables fitted from nothing, in a quarter of the score worth 73% (win_scale 250).
    tables=tables_plan(FORM, Quixo.from_text, unit=62.5),
    # The bundled tables (learned.npz): two generations of self-play labelled by 3-ply searches.
    recipe=(
        DatasetStep("quixo-d3-1.csv", games=2000, depth=3, seed=1, explore=0.1),
        # (a run of 4,000 games stopped after 3,159: each game is seeded by its number, so 3,159 remake it)
        DatasetStep("quixo-d3-2.csv", games=3159, depth=3, seed=2, explore=0.25),
        TrainStep("generation-1.npz", ("quixo-d3-1.csv", "quixo-d3-2.csv")),
        DatasetStep("quixo-t3-3.csv", games=3000, depth=3, seed=3, explore=0.25,
                    heuristic="tables:{folder}/generation-1.npz"),
        TrainStep("learned.npz", ("quixo-d3-1.csv", "quixo-d3-2.csv", "quixo-t3-3.csv")),
    ),
    books=(ShippedBook("balanced", "games.quixo", "books/balanced.txt",
                       "300 random 8-ply lines pvs at depth 6"
                       " scores within 45 of level (tui-games book)"),),
)
