"""Chess's examples for tests (:class:`~games.samples.Samples`): what the shared tests and the
conformance kit ask of chess."""

from __future__ import annotations

from ..samples import NotationExample, PerftCount, Samples

__all__ = ["KIWIPETE", "SAMPLES"]

#: A position rich in castling, en passant and promotions (perft's usual test).
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

SAMPLES = Samples(
    # The fried liver: a knight taken on f7, the king out in the open and checked.
    line=("e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "Ng5", "d5", "exd5", "Nxd5", "Nxf7", "Kxf7", "Qf3+"),
    transposition=(("Nf3", "Nf6", "Nc3"), ("Nc3", "Nf6", "Nf3")),
    illegal_move="e5",
    other_side=("rnbqkbnr/pppppppp/8/8/8/7N/PPPPPPPP/RNBQKB1R b KQkq - 1 1",
                "rnbqkbnr/pppppppp/8/8/8/7N/PPPPPPPP/RNBQKB1R w KQkq - 1 1"),
    finished=("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",  # checkmate
              "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),  # stalemate
    perft=(PerftCount(None, 1, 20), PerftCount(None, 2, 400), PerftCount(None, 3, 8902), PerftCount(KIWIPETE, 2, 2039)),
    notation=(NotationExample(None, "g1f3", "Nf3"), NotationExample(None, "Ng1f3", "Nf3"),
              NotationExample(None, "e2-e4", "e4")),
    move_alphabet="abcdefgh12345678NBRQKOo0x=+#-!? ",
    position_alphabet="rnbqkpRNBQKP12345678/ wb-KQkq0 ",
    cells=(((40, 18), (4, 2)), ((60, 34), (7, 3))),
    cheap_heuristic="material",
    search_depth=2,  # minimax at 3 in the middle game: tens of thousands of leaves
    small_tree=("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", (), 2),
    illegal_reason="no White pawn can move to e5",
    near_end=("r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1", "alphabeta:depth=3"),  # Qd8+ Bxd8 Re8#
    middle=("e4", "e5", "Nf3", "Nc6", "Bb5", "a6"),
    ended=(None, ("f3", "e5", "g4", "Qh4#")),
    off_balance=(("e4", "d5", "exd5", "Nf6", "d4", "c6"), 135, None),
    shipped_puzzles=500,
    deep_search_depth=4,
    dataset_plies=6,
    bad_book=("e4 e5\nNf3 Nf6 Ng5 Ng4 Nxf7 Nxf2 Ke3\n", "line 2: move 7 'Ke3'"),
    irreversible=((None, (("e4", True), ("Nf3", False))),
                  ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", (("exd5", True), ("Kd2", False), ("e5", True)))),
    signed_scores=((90, None, "+0.9 pawns"), (-20, None, "-0.2 pawns"), (-4, None, "0.0 pawns"), (99999, 3, "#3"),
                   (-99999, -3, "#-3")),
)
