"""Checkers' examples for tests (:class:`~games.samples.Samples`): what the shared tests and the
conformance kit ask of checkers."""

from __future__ import annotations

from ..samples import Decided, NotationExample, PerftCount, Samples

__all__ = ["SAMPLES"]

SAMPLES = Samples(
    # A shot: Black's 14 takes 18 and 26, landing on 23 then 30 (crowned).
    line=("9-14", "23-19", "6-9", "22-18", "14x23", "27x18", "11-16", "26-23", "10-14", "24-20", "1-6",
          "20x11", "7x16", "31-26", "8-11", "26-22", "2-7", "30-26", "16-20", "19-16", "12x19", "23x16",
          "14x23x30"),
    transposition=(("9-13", "22-18", "10-14"), ("10-14", "22-18", "9-13")),
    illegal_move="21-17",
    other_side=("W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,13",
                "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,13"),
    finished=("B:W18:B", "B:W9,10,14:B5"),  # no pieces; no moves
    perft=(PerftCount(None, 1, 7), PerftCount(None, 2, 49), PerftCount(None, 3, 302), PerftCount(None, 4, 1469)),
    notation=(NotationExample(None, "9 - 13", "9-13"),
              # a multiple jump by its start and end
              NotationExample("B:W16,18,21,22,25,26,28,29,32:B3,4,5,6,7,9,11,14,20", "14x30", "14x23x30")),
    move_alphabet="0123456789-xX K",
    position_alphabet="BW:K,0123456789- .",
    cells=(((40, 18), (4, 2)), ((60, 34), (7, 3))),
    cheap_heuristic="positional",
    search_depth=3,
    small_tree=(None, ("11-15", "23-19"), 3),
    decided=(Decided("W:WK1,20,21,25,26,27,28,29:B15", 4, 2), Decided("W:WK1,20,21,25,26,27,28,29:B15", 5, 2),
             Decided("B:W15,16,23:B7,8,12,13,K29", 4, 2)),
    illegal_reason="21-17 is not legal here",
    near_end=("B:W5,K8,23,29:B17", "alphabeta:depth=2"),  # Black's last man is caught: 17-21 5-1 21-25 29x22
    middle=("11-15", "23-19", "8-11", "22-17", "9-13"),
    ended=("W:W18:B14", ("18x9",)),
    off_balance=(("11-15", "24-19", "15x24"), -90, None),
    shipped_puzzles=200,
    deep_search_depth=7,
    dataset_plies=12,
    self_play_ends=True,
    fast_tables=True,
    bad_book=("11-15 23-19\n11-19\n", "line 2: move 1 '11-19'"),
    irreversible=((None, (("11-15", True),)), ("B:W18:BK14", (("14x23", True),)),
                  ("B:W21:BK14,K1,6", (("14-10", False), ("6-10", True)))),
    signed_scores=((150, None, "+1.5 men"), (-100, None, "-1.0 men"), (0, None, "0.0 men"), (99999, 4, "win in 4"),
                   (-99999, -2, "loss in 2")),
)
