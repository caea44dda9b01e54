"""What an app served to a web browser (``tui-games serve``) may do.

The server hands its limits to each app it starts, in the app's environment:

- ``TUI_GAMES_SERVED_FILES`` names the one folder the app's file dialogs reach (open, save, the
  lab's files, the endgame tables' folder).  A path is taken relative to it (the app also starts in
  it), and one that leads outside, by ``..``, ``~``, an absolute path or a symbolic link, is refused
  in one line;
- ``TUI_GAMES_NO_PROGRAMS`` (:data:`engines.stockfish.NO_PROGRAMS_VARIABLE`) turns off the engines
  that run another program (``uci:path=…``, ``stockfish``): refused in one line before anything starts.

An app started any other way has neither, and every path and engine is its user's own.  This module
imports no Textual: the command line sets the limits, the app checks them.
"""

from __future__ import annotations

import os
from pathlib import Path

from engines import ENGINES, SpecError
from engines.spec import parse_spec
from engines.stockfish import NO_PROGRAMS_VARIABLE, UciEngine, programs_allowed

__all__ = ["FILES_VARIABLE", "OutsideError", "confined", "files_folder", "program_refusal", "served_environment"]

#: Names the folder a served app's files are confined to (unset: the app is not served).
FILES_VARIABLE = "TUI_GAMES_SERVED_FILES"


class OutsideError(ValueError):
    """A path outside the served folder; the message is one line."""


def files_folder() -> Path | None:
    """The folder this app's files are confined to, resolved; ``None`` when the app is not served."""
    named = os.environ.get(FILES_VARIABLE)
    return Path(named).resolve() if named else None


def confined(path: str | os.PathLike[str]) -> Path:
    """``path`` as the app should open it.  In a served app: relative to the served folder, with ``~``,
    ``..`` and symbolic links followed, and inside that folder, else :class:`OutsideError`.  In any
    other app: ``path`` with ``~`` expanded."""
    given = Path(path).expanduser()
    folder = files_folder()
    if folder is None:
        return given
    resolved = (folder / given).resolve()  # an absolute path replaces the folder
    if resolved != folder and folder not in resolved.parents:
        raise OutsideError(f"{str(path)[:80]}: outside {folder}, the one folder this served app may use")
    return resolved


def program_refusal(spec: str) -> str | None:
    """Why ``spec`` may not play here (one line): it names an engine that runs another program and
    this app may start none; ``None`` otherwise (a bad spec too: its own check says why)."""
    if programs_allowed():
        return None
    try:
        name = parse_spec(spec, {name: info.options for name, info in ENGINES.items()}).name
    except SpecError:
        return None
    factory = ENGINES[name].factory
    if isinstance(factory, type) and issubclass(factory, UciEngine):
        return f"{name}: runs another program, which this served app may not (tui-games serve --allow-programs)"
    return None


def served_environment(folder: Path, allow_programs: bool) -> dict[str, str]:
    """The variables that give a served app its limits."""
    variables = {FILES_VARIABLE: str(folder)}
    if not allow_programs:
        variables[NO_PROGRAMS_VARIABLE] = "1"
    return variables
