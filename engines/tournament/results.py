"""Results files: one JSON line per finished game (a
:class:`~engines.tournament.result.GameResult`), appended, flushed and synced
as the game ends, by the parent process only -- a killed run loses no
finished game, and a resumed run reads the file back and plays only the rest.
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path
from typing import BinaryIO, Callable, Sequence

from games.files import MAX_DEPTH, MAX_LINE, nesting_depth, read_bytes, user_path

from ..remedy import Remedy
from .config import MatchConfig, MatchError
from .result import GameResult, ResultsFileError

__all__ = ["ResultsFileError", "ResultsFile", "append_synced", "claim_output", "holds_results", "read_results",
           "read_results_files"]

#: The largest results file read (a game's line is about 1 to 20 kB: tens of thousands of games).
MAX_BYTES = 512 * 1024 * 1024


def read_results(path: str | Path) -> tuple[list[GameResult], int | None]:
    """The games' results in a results file, checked, and where a cut-off last line starts.

    A line that is not a game's result, or the same game twice, is a
    :class:`ResultsFileError` naming ``FILE:LINE``.  The exception is the
    last line when it has no newline and does not parse: the trace of a run
    killed while writing it.  It is not returned; the second value is its
    byte offset (``None`` when the file ends cleanly).
    """
    path = user_path(path)
    data = read_bytes(path, "a results file", MAX_BYTES, ResultsFileError, MAX_LINE)
    results: list[GameResult] = []
    seen: dict[tuple[MatchConfig, int], int] = {}
    offset = 0
    partial: int | None = None
    lines = data.split(b"\n")
    for number, raw in enumerate(lines, 1):
        last = number == len(lines)
        if last and not raw:
            break
        where = f"{path}:{number}"
        if not raw.strip():  # a blank line (files joined by hand): nothing to read
            offset += len(raw) + 1
            continue
        try:
            if nesting_depth(raw.decode("utf-8")) > MAX_DEPTH:
                raise RecursionError
            obj = json.loads(raw.decode("utf-8"))
        except RecursionError:
            raise ResultsFileError(f"{where}: not a game record (nested too deeply)") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            if last and raw.lstrip().startswith(b"{"):
                partial = offset
                break
            reason = (f"{error.msg.lower()} at column {error.colno}" if isinstance(error, json.JSONDecodeError)
                      else "not UTF-8 text")
            raise ResultsFileError(f"{where}: not a JSON game record ({reason})") from None
        result = GameResult.from_json(obj, where)
        key = (result.match, result.index)
        if key in seen:
            raise ResultsFileError(f"{where}: game {result.index} again (first at line {seen[key]})")
        seen[key] = number
        results.append(result)
        offset += len(raw) + 1
    return results, partial


def _last_line_number(path: str | Path) -> int:
    return Path(path).read_bytes().count(b"\n") + 1


def read_results_files(paths: Sequence[str | Path]) -> tuple[list[GameResult], list[str]]:
    """The results in several results files (each file's in game order) and
    notes on cut-off last lines; the same game of the same match in two files
    is a :class:`ResultsFileError`."""
    results: list[GameResult] = []
    notes: list[str] = []
    seen: dict[tuple[MatchConfig, int], str] = {}
    for path in paths:
        found, partial = read_results(path)
        if partial is not None:
            notes.append(f"{path}:{_last_line_number(path)}: ignored its cut-off last line "
                         f"(a game being written when the run stopped)")
        for number, result in enumerate(found, 1):
            key = (result.match, result.index)
            if key in seen:
                raise ResultsFileError(f"{path}:{number}: game {result.index} of this match is "
                                       f"also in {seen[key]}")
            seen[key] = str(path)
        results += sorted(found, key=lambda result: result.index)
    return results, notes


class ResultsFile:
    """The results file of a match: its finished games, and appending new ones.

    :meth:`open` checks the file before anything is played; nothing in it is
    ever rewritten, except that ``resume`` drops a cut-off last line (a run
    killed while writing it; that game is played again).
    """

    def __init__(self, path: Path, results: list[GameResult], *, newline_first: bool = False,
                 lock: BinaryIO | None = None) -> None:
        self.path = path
        self.results = results
        self._newline_first = newline_first
        #: The open handle holding the file's lock (see :func:`claim_output`), while the run lasts.
        self.lock = lock

    @classmethod
    def open(cls, path: str | Path, config: MatchConfig | Sequence[MatchConfig], *,
             resume: bool) -> tuple[ResultsFile, str | None]:
        """The file for ``config`` (a match, or the matches of a tournament or
        an experiment), and a note to show the user (or ``None``).

        Without ``resume`` the file must not exist or be empty.  With it, an
        absent file starts the match; otherwise every game in it must belong to
        one of these matches (same game, specs, games, opening plies and seed).
        A file that cannot be used is a :class:`ResultsFileError` (with its
        :class:`~engines.tournament.config.Remedy`).
        """
        configs = [config] if isinstance(config, MatchConfig) else list(config)
        path = Path(path)
        exists, lock = claim_output(path, resume=resume, what="a results file", holds="results",
                                    error=ResultsFileError)
        if not exists:
            return cls(path, [], lock=lock), None
        try:
            results, partial = read_results(path)
            for number, result in enumerate(results, 1):
                if result.match not in configs:
                    if len(configs) == 1:
                        why = f"{configs[0].difference(result.match)}: {result.match.describe()}"
                    else:
                        why = f"{result.match.describe()}, not one of its {len(configs)} pairings"
                    raise ResultsFileError(f"{path}:{number}: a game of another match ({why})",
                                           remedy=Remedy.OTHER_OUTPUT)
            note = None
            newline_first = False
            if partial is not None:
                note = (f"{path}: dropped its cut-off last line (line {_last_line_number(path)}, a game being "
                        f"written when the run stopped); that game is played again")
                with open(path, "r+b") as handle:
                    handle.truncate(partial)
            else:
                newline_first = not path.read_bytes().endswith(b"\n")
        except BaseException:
            lock.close()
            raise
        return cls(path, results, newline_first=newline_first, lock=lock), note

    def close(self) -> None:
        """Release the file's lock: the run writes no more."""
        if self.lock is not None:
            self.lock.close()
            self.lock = None

    def append(self, result: GameResult) -> None:
        """Write one game's result as a line, flushed and synced to disk."""
        line = json.dumps(result.to_json(), separators=(",", ":")) + "\n"
        if self._newline_first:
            line = "\n" + line
            self._newline_first = False
        append_synced(self.path, line)
        self.results.append(result)


def append_synced(path: Path, text: str, *, separated: bool = False) -> None:
    """Append one game's ``text`` to ``path``, flushed and synced to disk (``separated``:
    after a blank line unless the file is empty).  A failure (a full disk, a quota) is
    an :class:`OSError` naming the file and the way on: the games before it are kept
    (a resumed run cuts a half-written one)."""
    try:
        with open(path, "a", encoding="utf-8", newline="\n") as handle:
            if separated and handle.tell() > 0:
                handle.write("\n")
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as error:
        why = error.strerror or str(error)
        raise OSError(error.errno, f"{why}: the games written before are kept; make room, then resume the run",
                      str(path)) from None


#: How much of a file's beginning is read to tell whether a run wrote it.
_HEAD_BYTES = 1 << 20


def holds_results(path: Path) -> bool:
    """Whether the first line of ``path`` is a game's line of a results file: a file a
    run wrote, which a resume may append to (a user's own file never is)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(_HEAD_BYTES)
    except OSError:
        return False
    first = next((line for line in head.split(b"\n") if line.strip()), b"")
    try:
        obj = json.loads(first.decode("utf-8"))
        GameResult.from_json(obj, str(path))
    except (ValueError, RecursionError, ResultsFileError):  # ValueError: JSON's and UTF-8's errors
        return False
    return True


def claim_output(path: Path, *, resume: bool, what: str, holds: str,
                 error: type[MatchError] = MatchError,
                 ours: Callable[[Path], bool] = holds_results) -> tuple[bool, BinaryIO]:
    """Claim a run's output file (``what``: its results, its game records)
    before any game is played: not a directory nor another special file nor
    a symbolic link that leads to no file (a dangling one, or a loop), not
    being written by another run, and empty unless ``resume``.  Creates it
    when absent.  Returns whether it already holds something (``holds``) and
    the open handle that holds the file's lock: an advisory ``flock`` that
    lasts as long as the handle (the run; the system drops it when the process
    dies, however it dies), so two runs never append to one file.  A file that
    holds something is offered to a resume only when ``ours(path)`` (a run
    wrote it); any other is somebody's own file, refused without that remedy."""
    if path.is_dir():
        raise error(f"{path}: is a directory, not {what}")
    if path.is_symlink() and not path.exists():  # appending would make a file where the link points
        raise error(f"{path}: a symbolic link that leads to no file", remedy=Remedy.OTHER_OUTPUT)
    if path.exists() and not path.is_file():
        raise error(f"{path}: not a regular file; {holds} go to a file of their own")
    # Before any game is played: a run whose output could not be kept is not started.
    try:
        handle = open(path, "ab")  # refused here by what cannot be appended to
    except OSError as failure:
        raise error(f"{path}: cannot write it ({failure.strerror or failure})") from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise error(f"{path}: another run is writing it", remedy=Remedy.WAIT) from None
    exists = path.stat().st_size > 0
    if exists and not resume:
        handle.close()
        if ours(path):
            raise error(f"{path}: already holds {holds}", remedy=Remedy.RESUME)
        raise error(f"{path}: already holds something that is not {what} of a run; it is never written to",
                    remedy=Remedy.OTHER_OUTPUT)
    return exists, handle


