"""The registry, and the protocol's properties over every registered game: the properties
themselves are the conformance kit's (tui/conformance.py, run by tests/test_conformance.py); each
game's own hooks are in its test file (tests/test_chess.py ...)."""

from __future__ import annotations

from pathlib import Path

import pytest

from games import GAME_NAMES, UnknownGameError, game_class, game_kind, new_game
from games.samples import Samples

#: Where the bundled games live: one package each, with its kind.
GAMES_DIR = Path(__file__).resolve().parent.parent / "games"


def test_registry() -> None:
    bundled = {path.parent.name for path in GAMES_DIR.glob("*/kind.py")}
    assert bundled and bundled <= set(GAME_NAMES)
    first = GAME_NAMES[0]
    assert new_game(first.capitalize()).NAME == first
    with pytest.raises(UnknownGameError, match=f"expected one of: {', '.join(GAME_NAMES)}$"):
        new_game("go")
    for name in GAME_NAMES:
        assert game_class(name).NAME == name


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_game_gives_its_samples(name: str) -> None:
    """The shared tests' facts come from each game's package; a bundled game gives them all."""
    samples = game_kind(name).samples
    assert isinstance(samples, Samples)
    if (GAMES_DIR / name / "samples.py").exists():
        assert samples.line and samples.transposition and samples.illegal_move and samples.other_side
        assert samples.finished and samples.perft and samples.notation and samples.cells
        assert samples.move_alphabet and samples.position_alphabet and samples.cheap_heuristic
        assert samples.illegal_reason and samples.near_end and samples.middle and samples.ended
        assert samples.signed_scores
        for moves in (samples.line, samples.middle):  # the screens' snapshots play ``middle``: it must be legal
            game = new_game(name)
            game.play_all(moves)
            assert game.ply == len(moves)
        assert samples.cheap_heuristic in game.HEURISTICS
