"""Othello's examples for tests (:class:`~games.samples.Samples`): what the shared tests and the
conformance kit ask of Othello."""

from __future__ import annotations

from ..samples import NotationExample, PerftCount, Samples

__all__ = ["SAMPLES"]

SAMPLES = Samples(
    line=("f5", "f4", "f3", "f6", "d3", "f2", "g6", "c3", "b3", "b2"),
    transposition=(("d3", "c3", "c4", "e3"), ("c4", "c3", "d3", "e3")),
    illegal_move="d4",
    other_side=("......../......../...B..../...BB.../...BW.../......../......../........ W",
                "......../......../...B..../...BB.../...BW.../......../......../........ B"),
    finished=("......../......../......../...BB.../...BB.../......../......../........ W",  # no moves
              "BBBBBBBB/" * 4 + "WWWWWWWW/" * 3 + "WWWWWWWW B"),  # a full board, a draw
    perft=(PerftCount(None, 1, 4), PerftCount(None, 2, 12), PerftCount(None, 3, 56), PerftCount(None, 4, 244),
           PerftCount(None, 5, 1396)),
    notation=(NotationExample(None, "D3", "d3"), NotationExample(None, " c4 ", "c4")),
    move_alphabet="abcdefgh12345678 pasPAS-",
    position_alphabet="BWbw./ ",
    cells=(((40, 18), (4, 2)), ((60, 34), (7, 3))),
    cheap_heuristic="positional",
    search_depth=3,
    small_tree=(None, (), 3),
    colour_swap="BW",
    illegal_reason="d4 is occupied",
    near_end=("BBBBBB../WBBBBBBB/BWBBBWBW/BBWBBBW./BBWWBWWW/BWBWBWWW/BBBBBWWW/B.BBBBBB B",
              "alphabeta:depth=2"),  # four empty cells left
    middle=("f5", "d6", "c3", "d3", "c4"),
    ended=("BBBBBB../WBBBBBBB/BWBBBWBW/BBWBBBW./BBWWBWWW/BWBWBWWW/BBBBBWWW/B.BBBBBB B", ("h4", "g1", "h1", "b8")),
    off_balance=(("f5", "d6", "c3"), 0, 3),
    shipped_puzzles=200,
    dataset_plies=20,
    self_play_ends=True,
    signed_scores=((120, None, "+6 discs"), (-20, None, "-1 disc"), (5, None, "0 discs"), (-9999, None, "-64 discs"),
                   (99999, 2, "win in 2")),
)
