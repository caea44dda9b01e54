"""Small dataset files in the ``tui-games dataset`` format, made here from random play.

The tests of training and model files do not depend on the dataset command:
they write the contract's CSV (and sidecar) themselves, from positions of
seeded random games labelled with a shallow alpha-beta search.
"""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path
from typing import Any

from engines import MATE_BOUND, create_engine, mate_in
from games import Game, game_class

def decisive_score(cls: type[Game]) -> int:
    """The game's decisive score (every registered game declares one: the registry checks it)."""
    return int(cls.DECISIVE_SCORE)


def columns(cls: type[Game]) -> list[str]:
    return ["game_id", "ply", "side", "position", *cls.FEATURE_NAMES, "h0", "h_l", "mate"]


def positions(game: str, rows: int, *, depth: int = 1, seed: int = 0, max_plies: int = 40,
              heuristic: str | None = None) -> list[list[Any]]:
    """``rows`` dataset rows from seeded random games of ``game`` (positions may repeat)."""
    cls = game_class(game)
    heuristic = heuristic or cls.DEFAULT_HEURISTIC
    engine = create_engine(f"alphabeta:depth={depth},heuristic={heuristic}", cls)
    rng = random.Random(seed)
    decisive = decisive_score(cls)
    out: list[list[Any]] = []
    game_id = 0
    while len(out) < rows:
        position = cls()
        for ply in range(max_plies):
            if position.outcome() is not None or len(out) >= rows:
                break
            side = position.turn
            score = engine.search(position).score
            if abs(score) >= MATE_BOUND:
                label = decisive if score > 0 else -decisive
            else:
                label = score
            out.append([game_id, ply, side, position.to_text(), *position.features(side),
                        position.evaluate(side, heuristic), label, mate_in(score) or 0])
            position.play(rng.choice(position.legal_moves()))
        game_id += 1
    return out


def write_dataset(path: Path, game: str, rows: list[list[Any]], *, depth: int = 1,
                  heuristic: str | None = None, sidecar: bool = True,
                  header: list[str] | None = None) -> Path:
    """Write ``rows`` as a dataset CSV (and its ``.meta.json`` unless ``sidecar`` is false)."""
    cls = game_class(game)
    header = header or columns(cls)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        for row in rows:
            writer.writerow([repr(v) if isinstance(v, float) else v for v in row])
    if sidecar:
        meta = {
            "format": "tui-games-dataset/1", "game": game, "games": 1 + max(r[0] for r in rows),
            "depth": depth, "heuristic": heuristic or cls.DEFAULT_HEURISTIC, "label": "search",
            "openings": 0, "explore": 1.0, "max_plies": 40, "seed": 0,
            "decisive_score": decisive_score(cls), "features": list(cls.FEATURE_NAMES),
            "columns": header, "command": "tests", "created": "2024-01-01T00:00:00+00:00",
            "versions": {},
        }
        Path(f"{path}.meta.json").write_text(json.dumps(meta), encoding="utf-8")
    return path


def random_boards(count: int, seed: int, max_plies: int = 60) -> list[Any]:
    """``count`` python-chess boards after 0 to ``max_plies`` random plies (seeded)."""
    import chess

    rng = random.Random(seed)
    boards = []
    for _ in range(count):
        board = chess.Board()
        for _ in range(rng.randrange(0, max_plies)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        boards.append(board)
    return boards
