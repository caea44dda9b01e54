"""English checkers as the rest of the project knows it: :data:`KIND`."""

from __future__ import annotations

from ..kind import BenchPlan, BenchPosition, EndgamePlan, GameKind, LevelPlan, PerftCase, PerftReference, ScoreScale, ScoreUnit
from .ballots import BALLOTS, Ballots
from .board import CheckersBoard
from .endgame import default_dir
from .endgame_build import build_saying, check
from ..learned import tables_plan
from .game import Checkers
from .patterns import FORM, quiet
from .records import PDN
from .reference import reference_perft
from .samples import SAMPLES

__all__ = ["KIND"]

KIND: GameKind[Checkers] = GameKind(
    game=Checkers,
    title="checkers",
    records=PDN(),
    board=CheckersBoard(),
    scores=ScoreScale(unit=100.0, unit_name="man", win_scale=150.0, report_depth=8, puzzle_depth=6,
                      draw_min_plies=30, balanced=27.0, reading=ScoreUnit(100.0, "man", "men"),
                      # A puzzle wins a man (0.64: +0.86 of a man), the second best a man less (0.15).
                      puzzle_win=0.64, puzzle_gap=0.15),
    levels=LevelPlan(
        noise=(100, 40), casual_sees=" and the jumps after them",
        ratings=((439, 232), (807, 363), (1120, 425), (1474, 499), (1538, 541)),
    ),
    bench=BenchPlan(
        positions=(
            BenchPosition("start", None),
            BenchPosition(
                "after 8 plies", "B:W18,19,21,23,24,25,28,29,30,31,32:B1,2,3,4,5,7,8,9,10,12,16",
                ("9-14", "23-19", "6-9", "22-18", "14x23", "27x18", "11-16", "26-23"),
            ),
            BenchPosition(
                "after 16 plies", "B:W5,20,21,22,24,25,26,27,28,30,31:B1,2,3,6,8,11,12,15,16",
                ("12-16", "24-20", "8-12", "21-17", "4-8", "25-21", "9-14", "27-24", "10-15", "17x10",
                 "7x14", "32-27", "5-9", "29-25", "14-18", "23x14x5"),
            ),
        ),
        search_depth=(8, 6), warm_depth=(9, 6), parallel_depth=(13, 6), perft_depth=6,
        perft=(PerftCase("start", None, 7, 5, ">=2.0x", no_bulk=True),),
        reference=PerftReference("OpenSpiel", reference_perft),
    ),
    samples=SAMPLES,
    help=(
        "Type moves with the PDN square numbers 1-32 shown on the board: 11-15 for a step,\n"
        "15x24 for a jump and 15x24x31 for a multiple jump (or just its start and end, 15x31,\n"
        "when that is unambiguous). Jumping is compulsory. Black (first) starts on 1-12."
    ),
    position_hint="a PDN FEN like B:W21,22,K30:B1,2,K9",
    # Pattern tables fitted from nothing, in a quarter of the score worth 73% (win_scale 150).
    tables=tables_plan(FORM, Checkers.from_text, unit=37.5, quiet=lambda text: quiet(Checkers.from_text(text))),
    book_formats=(Ballots(),),
    books=(BALLOTS,),
    endgames=EndgamePlan(build=build_saying, check=check, folder=default_dir, pieces=4, most=5),
)
