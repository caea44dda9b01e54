"""``--syzygy DIR``: the endgame tables a command's engines read (chess's Syzygy files).

The flag puts the folder into the engine's spec as its ``tables`` option
(:func:`engines.registry.with_tables`), so what runs is what a spec says; a
spec that names its own ``tables`` keeps them.  The folder is checked before
anything starts: a game without tables, an engine that reads none, or a folder
that holds no tables is one line (exit 2).
"""

from __future__ import annotations

import argparse

from engines import Engine, SpecError
from engines.registry import has_tables, parse_engine_spec, with_tables
from games import Game, GameError

from .common import UsageError, path_arg

__all__ = ["add_syzygy", "checked_tables", "syzygy_spec", "tables_problem"]


def add_syzygy(p: argparse.ArgumentParser) -> None:
    """Add ``--syzygy DIR`` to a command whose engines play a game given on its line."""
    p.add_argument("--syzygy", type=path_arg, metavar="DIR",
                   help="the folder of Syzygy endgame tables (.rtbw/.rtbz files, chess): pvs plays the "
                        "positions they hold perfectly (its option tables=DIR)")


def checked_tables(prog: str, game_class: type[Game], folder: str | None) -> str | None:
    """``folder`` once the game has opened its tables there, or a :class:`UsageError`."""
    if folder is None:
        return None
    if not has_tables(game_class):
        raise UsageError(prog, f"--syzygy: {game_class.NAME} has no endgame tables")
    try:
        game_class.open_tables(folder)
    except GameError as error:
        raise UsageError(prog, f"--syzygy: {error}") from None
    return folder


def syzygy_spec(prog: str, spec: str, game_class: type[Game], folder: str | None) -> str:
    """``spec`` with the checked ``folder`` as its tables (see the module doc); a
    :class:`UsageError` when the engine reads no tables."""
    if folder is None:
        return spec
    try:
        if "tables" not in parse_engine_spec(spec).table:
            raise UsageError(prog, f"--syzygy: engine {spec.partition(':')[0].strip()[:40]!r} reads no "
                                   f"endgame tables (pvs does)")
        return with_tables(spec, game_class, folder)
    except SpecError as error:
        raise UsageError(prog, str(error)) from None


def tables_problem(engine: Engine) -> str | None:
    """The first table ``engine`` could not read while it searched (one line), if any:
    the search went on without it (see :mod:`games.chess.syzygy`)."""
    tables = getattr(engine, "tables", None)  # the alpha-beta family's; other engines read none
    problem = getattr(tables, "problem", None)
    return problem if isinstance(problem, str) else None
