"""Quixo's examples for tests (:class:`~games.samples.Samples`): what the shared tests and the
conformance kit ask of Quixo."""

from __future__ import annotations

from ..samples import Decided, NotationExample, PerftCount, Samples

__all__ = ["SAMPLES"]

SAMPLES = Samples(
    line=("0 0 bottom", "4 4 left", "2 0 bottom", "3 4 top"),
    transposition=(("0 0 bottom", "4 4 top", "2 0 bottom"), ("2 0 bottom", "4 4 top", "0 0 bottom")),
    illegal_move="2 2 top",
    other_side=("...../...../...../...../X.... O", "...../...../...../...../X.... X"),
    finished=("XXXXX/OOOO./...../...../..... O",),
    perft=(PerftCount(None, 1, 44), PerftCount(None, 2, 1836)),
    notation=(NotationExample(None, "0 0 b", "0 0 bottom"), NotationExample(None, "0,0,bottom", "0 0 bottom"),
              NotationExample(None, "0 0 B", "0 0 bottom")),
    move_alphabet="01234 ,()topbmlefrightTB",
    position_alphabet="XOxo./ ",
    cells=(((40, 18), (5, 2)), ((60, 34), (9, 4))),
    cheap_heuristic="line-potential",
    search_depth=3,
    small_tree=(None, (), 2),
    colour_swap="XO",
    decided=(Decided("X..OO/O...O/....O/X..../XXOXX X", 3, 1), Decided("XX.XX/OX..O/X.O../O.O.X/XOOOO X", 3, 1),
             Decided("XXOXO/XOXXX/OO.XX/X...O/XOOXX O", 3, None),  # lost in 2, beyond 3 plies
             Decided("XXOXO/XOXXX/OO.XX/X...O/XOOXX O", 4, -2, minimax=False)),  # minimax: 2 s
    illegal_reason="not on the border",
    near_end=("OXO.X/...XX/O..../X...X/O.O.O X", "alphabeta:depth=2"),  # nine moves to a threefold repetition
    middle=("0 0 bottom", "4 4 top", "2 0 bottom", "4 2 left"),
    ended=("XXXX./...../...../...../OOOO. X", ("4 4 top",)),
    shipped_puzzles=200,
    deep_search_depth=4,
    dataset_plies=40,
    self_play_ends=True,
    fast_tables=True,
    bad_book=("2 0 bottom, 9 9 top\n", "line 1: move 2 '9 9 top'"),  # moves may be split by commas
    signed_scores=((144, None, "64%"), (0, None, "50%"), (-2000, None, "<1%"), (99999, 3, "win in 3"),
                   (-99999, -1, "loss in 1")),
)
