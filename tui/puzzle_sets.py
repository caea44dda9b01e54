"""The user's own puzzle sets: where they live, and the set of puzzles from your games.

A set is a puzzle file (:mod:`engines.puzzles`) named ``NAME.txt`` in ``puzzles/GAME`` of
the user data directory (``~/.local/share/tui-games`` on Linux; ``TUI_GAMES_DATA_DIR``
overrides it): ``tui-games puzzles GAME --import FILE`` makes one from a lichess file,
and the puzzles made of your own mistakes (``--from GAMES``, or *Puzzles* in the game
report) are added to the set :data:`MINE`, never twice and never losing one already there.
Both the command line and the app use this module (it loads no Textual).
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path

from engines.puzzles import Puzzle, puzzle_text, scan_puzzle_file

from .settings import write_whole

__all__ = ["MINE", "SET_NAME", "sets_dir", "set_path", "add_to_mine"]

#: The set the puzzles from your own games go to.
MINE = "mine"
#: A set's name: letters, digits, ``.``, ``_`` and ``-`` (not first), at most 60.
SET_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,59}")


def sets_dir(game: str) -> Path:
    """Where the user's puzzle sets of ``game`` live (see the module doc)."""
    override = os.environ.get("TUI_GAMES_DATA_DIR")
    if override:
        base = Path(override).expanduser()
    else:
        import platformdirs

        base = Path(platformdirs.user_data_dir("tui-games", appauthor=False))
    return base / "puzzles" / game


def set_path(game: str, name: str) -> Path:
    """The file of the set ``name``; :class:`ValueError` (one line) for a name that is not one."""
    if SET_NAME.fullmatch(name) is None:
        raise ValueError(f"bad set name {name[:60]!r}: letters, digits, '.', '_' and '-', at most 60")
    return sets_dir(game) / f"{name}.txt"


def add_to_mine(game: str, puzzles: list[Puzzle]) -> tuple[list[Puzzle], Path]:
    """Add to the set :data:`MINE` those of ``puzzles`` whose position (and setting-up move) it
    lacks, numbered on (``mine-0001``...); the puzzles added (as kept) and the set's file.
    Raises :class:`~engines.puzzles.PuzzleError` for a damaged set (left as it is) and
    :class:`OSError` when it cannot be written."""
    path = set_path(game, MINE)
    kept = list(scan_puzzle_file(path, game)) if path.exists() else []
    seen = {(puzzle.position, puzzle.setup) for puzzle in kept}
    ids = {puzzle.id for puzzle in kept}
    added: list[Puzzle] = []
    for puzzle in puzzles:
        if (puzzle.position, puzzle.setup) in seen:
            continue
        seen.add((puzzle.position, puzzle.setup))
        number = len(kept) + len(added) + 1
        while f"{MINE}-{number:04d}" in ids:
            number += 1
        ids.add(f"{MINE}-{number:04d}")
        added.append(replace(puzzle, id=f"{MINE}-{number:04d}"))
    if added:
        path.parent.mkdir(parents=True, exist_ok=True)
        how = "Puzzles from your games: the positions before your mistakes and blunders, with the line our search prefers."
        write_whole(path, puzzle_text(kept + added, game, how))
    return added, path
