"""The selective refinements of ``pvs``: null move, late-move reductions, check
extensions, delta pruning and time prediction (each an option)."""

from __future__ import annotations

import pytest

from engines import create_engine
from engines.search.alphabeta import GROWTH_BOUNDS, next_depth_time
from games import GAME_NAMES, game_class, new_game
from games.chess import ChessGame

REFINEMENTS = ("null", "lmr", "checks", "delta", "predict")


def test_the_null_move_passes_and_comes_back() -> None:
    game = new_game("chess", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    key, turn = game.key(), game.turn
    assert game.null_move_ok()
    game.play_null()
    assert game.turn != turn and game.key() != key
    game.undo_null()
    assert game.key() == key and game.turn == turn


@pytest.mark.parametrize("fen, ok", [
    ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", False),             # king and pawns only: zugzwang land
    ("4k3/8/8/8/8/8/4P3/4KN2 w - - 0 1", True),             # a knight is enough
    ("4k3/8/8/8/8/8/3q4/4K2R w K - 0 1", False),            # in check
])
def test_the_zugzwang_guard(fen: str, ok: bool) -> None:
    assert ChessGame.from_text(fen).null_move_ok() is ok


@pytest.mark.parametrize("game", [name for name in GAME_NAMES if not new_game(name).null_move_ok()])
def test_zugzwang_games_never_pass(game: str) -> None:
    played = new_game(game)
    assert not played.null_move_ok() and not played.in_check()
    with pytest.raises(NotImplementedError):
        played.play_null()


def test_capture_gain() -> None:
    game = new_game("chess", "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1")
    assert game.capture_gain(game.parse_move("exd5")) == 900
    assert game.capture_gain(game.parse_move("e5")) == 0
    promotion = new_game("chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert promotion.capture_gain(promotion.parse_move("a8=Q")) == 800


def test_next_depth_time() -> None:
    low, high = GROWTH_BOUNDS
    assert next_depth_time([0.1]) == pytest.approx(0.1 * high)
    assert next_depth_time([0.1, 0.4]) == pytest.approx(0.3 * 3)   # grew 3x: so again
    assert next_depth_time([0.1, 0.11]) == pytest.approx(0.01 * low)
    assert next_depth_time([0.1, 2.1]) == pytest.approx(2.0 * high)


@pytest.mark.parametrize("spec", ["pvs", *(f"pvs:{name}=off" for name in REFINEMENTS)])
@pytest.mark.parametrize("fen, best", [
    ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "Rd8#"),                          # mate in one
    ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", "Nf6+"),  # mate in 2
    ("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", "Qg6"),    # WAC 001
])
def test_every_refinement_keeps_tactics(spec: str, fen: str, best: str) -> None:
    engine = create_engine(f"{spec},depth=4" if ":" in spec else f"{spec}:depth=4", ChessGame)
    result = engine.search(new_game("chess", fen))
    assert new_game("chess", fen).format_move(result.move) == best


@pytest.mark.parametrize("game", GAME_NAMES)
def test_refinements_search_fewer_nodes_to_the_same_depth(game: str) -> None:
    position = new_game(game)
    for move in position.legal_moves()[:1]:
        position.play(move)
    full = create_engine("pvs:depth=5,null=off,lmr=off,checks=off,delta=off", game_class(game))
    selective = create_engine("pvs:depth=5,checks=off", game_class(game))
    assert selective.search(position).stats.nodes < full.search(position).stats.nodes


def test_refinements_are_options_of_pvs_only() -> None:
    with pytest.raises(Exception, match="unknown option 'null'"):
        create_engine("alphabeta:null=off", ChessGame)
