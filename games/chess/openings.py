"""Chess opening names: the ECO code and name of a position, from lichess's data set.

The data (``games/chess/openings.tsv``) is lichess's ``chess-openings``
(https://github.com/lichess-org/chess-openings, CC0 1.0, see
``LICENSE-chess-openings``): about 3,600 named lines, each ``eco``, ``name``,
``pgn``, with the ``epd`` of the line's last position added, as that
repository's own ``make`` builds its ``dist/`` files.  :func:`build` makes it
from the five source files (``python -m games.chess.openings SOURCE_DIR OUT``).

A game is named as lichess names it: play its moves back until a named
position is found, so that transpositions find their name.
"""

from __future__ import annotations

import functools
import io
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import chess
import chess.pgn

__all__ = ["Opening", "opening_of", "index", "build"]

#: The bundled data set and its first line.
DATA = "openings.tsv"
HEADER = "eco\tname\tpgn\tepd"


@dataclass(frozen=True)
class Opening:
    """An opening's ECO code and name (``C60``, ``Ruy Lopez``)."""

    eco: str
    name: str

    def __str__(self) -> str:
        return f"{self.eco} {self.name}"


@functools.cache
def index() -> dict[str, Opening]:
    """Every named position by its EPD (read once, on first use)."""
    text = resources.files("games.chess").joinpath(DATA).read_text(encoding="utf-8")
    named: dict[str, Opening] = {}
    for line in text.splitlines()[1:]:
        eco, name, _pgn, epd = line.split("\t")
        named.setdefault(epd, Opening(eco, name))
    return named


def opening_of(board: chess.Board) -> Opening | None:
    """The name of the position after ``board``'s moves: the last position on the way with
    a name (``board`` is left as it was)."""
    named = index()
    probe = board.copy()
    while True:
        found = named.get(probe.epd())
        if found is not None:
            return found
        if not probe.move_stack:
            return None
        probe.pop()


def build(source: Path) -> str:
    """The data file from lichess's ``a.tsv`` to ``e.tsv`` in ``source``: each line with the
    EPD of its position added."""
    lines = [HEADER]
    for volume in "abcde":
        rows = (source / f"{volume}.tsv").read_text(encoding="utf-8").splitlines()
        for row in rows[1:]:
            eco, name, pgn = row.split("\t")
            board = chess.Board()
            line = chess.pgn.read_game(io.StringIO(pgn))
            assert line is not None, pgn
            for move in line.mainline_moves():
                board.push(move)
            lines.append(f"{eco}\t{name}\t{pgn}\t{board.epd()}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # pragma: no cover - how the bundled file was made
    Path(sys.argv[2]).write_text(build(Path(sys.argv[1])), encoding="utf-8")
