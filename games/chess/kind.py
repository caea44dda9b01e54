"""Chess as the rest of the project knows it: :data:`KIND`."""

from __future__ import annotations

from typing import Any, Sequence

from ..books import ShippedBook
from ..kind import (
    BenchPlan,
    BenchPosition,
    GameKind,
    LevelPlan,
    NetworkPlan,
    PerftCase,
    PerftReference,
    ScoreScale,
    ScoreUnit,
    TablesPlan,
    TrainedNetwork,
)
from .board import ChessBoard
from .epd import EPD
from .game import ChessGame
from .records import PGN
from .reference import reference_perft
from .samples import KIWIPETE, SAMPLES
from .tapered import pesto_start, save_tables, tables_terms
from .views import OTHER_VIEW

__all__ = ["KIND", "KIWIPETE", "STOCKFISH_RUNGS"]

#: Stockfish's rungs on the chess ladder, by name: ``UCI_Elo`` at 0.5 s a move.
STOCKFISH_RUNGS: dict[str, int] = {f"stockfish-{elo}": elo for elo in (1350, 1600, 1800, 2000)}

def _network_inputs(text: str) -> Sequence[int]:
    """The network's inputs of a FEN (numpy is imported only when a network is used)."""
    import chess

    from .network import input_indices

    return input_indices(chess.Board(text))


#: Piece values for telling a quiet position (a capture of a bigger piece is not quiet).
_QUIET_VALUES = {1: 1, 2: 3, 3: 3, 4: 5, 5: 9, 6: 100}


def _quiet(text: str) -> bool:
    """Whether a FEN is quiet: no check, and no capture of a bigger or an undefended piece, nor a
    capture that promotes (about two positions in three of a game)."""
    import chess

    board = chess.Board(text)
    if board.is_check():
        return False
    for move in board.generate_legal_captures():
        if board.is_en_passant(move):
            continue
        victim, attacker = board.piece_type_at(move.to_square), board.piece_type_at(move.from_square)
        if (move.promotion or _QUIET_VALUES[victim or 1] > _QUIET_VALUES[attacker or 1]
                or not board.is_attacked_by(not board.turn, move.to_square)):
            return False
    return True


def _network(w1: Any, b1: Any, w2: Any, b2: float) -> TrainedNetwork:
    from .network import Network

    return Network.from_float(w1, b1, w2, b2)


KIND: GameKind[ChessGame] = GameKind(
    game=ChessGame,
    title="chess",
    records=PGN(),
    board=ChessBoard(),
    scores=ScoreScale(unit=100.0, unit_name="pawn", win_scale=272.0, report_depth=4, puzzle_depth=4,
                      draw_min_plies=40, balanced=50.0,
                      reading=ScoreUnit(100.0, "pawn", "pawns", mate_sign="#")),
    levels=LevelPlan(
        noise=(150, 60), casual_sees=" and quiescence",
        ratings=((740, 367), (1213, 166), (1449, 76), (1723, 71), (1812, 113)),  # 2026-12-03 (docs/levels.md)
        scale="Stockfish 15.1 UCI_Elo",
        scale_words="Stockfish's scale",
        pairings=(
            ("beginner", "casual"), ("casual", "club"), ("club", "expert"), ("expert", "master"),
            ("beginner", "stockfish-1350"), ("casual", "stockfish-1350"), ("club", "stockfish-1350"),
            ("club", "stockfish-1600"), ("expert", "stockfish-1600"), ("expert", "stockfish-1800"),
            ("master", "stockfish-1800"), ("master", "stockfish-2000"),
        ),
        anchors={name: float(elo) for name, elo in STOCKFISH_RUNGS.items()},
        rungs={name: f"stockfish:elo={elo},time=0.5" for name, elo in STOCKFISH_RUNGS.items()},
    ),
    bench=BenchPlan(
        positions=(
            BenchPosition("start", None),
            BenchPosition(
                "Italian 6...Bb4+", "r1bqk2r/pppp1ppp/2n2n2/8/1bBPP3/5N2/PP3PPP/RNBQK2R w KQkq - 1 7",
                ("e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3", "Nf6", "d4", "exd4", "cxd4", "Bb4+"),
            ),
            BenchPosition(
                "QGD 9...Nd5", "r1bq1rk1/pp1nbppp/2p1p3/3n2B1/2BP4/2N1PN2/PP3PPP/2RQK2R w K - 1 10",
                ("d4", "d5", "c4", "e6", "Nc3", "Nf6", "Bg5", "Be7", "e3", "O-O", "Nf3", "Nbd7",
                 "Rc1", "c6", "Bd3", "dxc4", "Bxc4", "Nd5"),
            ),
        ),
        # The naive reference search deep-copies a python-chess board per node,
        # which bounds the chess depth.
        search_depth=(4, 3), warm_depth=(5, 3), parallel_depth=(6, 3), perft_depth=3,
        perft=(PerftCase("start", None, 4, 3, ">=1.0x"), PerftCase("kiwipete", KIWIPETE, 3, 2, ">=1.0x")),
        reference=PerftReference("python-chess", reference_perft),
    ),
    help=(
        "Type moves in SAN — e4, Nf3, exd5, O-O, e8=Q — or UCI — g1f3, e7e8q.\n"
        "Case matters for pieces (N is a knight, b a file); SAN check marks are optional."
    ),
    position_hint="a FEN; `tui-games show chess --moves e4` prints one",
    libraries=("chess",),
    book_formats=(EPD(),),
    books=(ShippedBook("balanced", "games.chess", "books/balanced.txt",
                       "300 random 8-ply lines Stockfish 15.1 at depth 12"
                       " scores within 0.5 pawn of level (tui-games book)"),),
    network=NetworkPlan(inputs=768, active=_network_inputs, build=_network, heuristic="network",
                        other_view=OTHER_VIEW, quiet=_quiet),
    samples=SAMPLES,
    tables=TablesPlan(weights=384, terms=tables_terms, start=pesto_start, save=save_tables, heuristic="tables",
                      quiet=_quiet, starts_from="the hand-made ones (PeSTO's)"),
)
