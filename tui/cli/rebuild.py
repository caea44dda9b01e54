"""``tui-games rebuild GAME --out DIR``: make a game's bundled learned tables again, from nothing.

Runs the game's recipe (its kind's ``recipe``, :mod:`games.learned`'s steps) in the folder ``DIR``:
each step is the ``dataset`` or ``train`` command it names, run here in this
process, its files in ``DIR``.  A step whose output is already there is
skipped, so a stopped run goes on where it stopped; the step that was
running when Ctrl-C (or an error) stopped it leaves nothing behind.  At the
end the tables written are compared, byte for byte, with the bundled file.
"""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path
from typing import Callable, Sequence

from games import GAME_NAMES, game_kind
from games.learned import DatasetStep, Step

from .common import PROG, UsageError

__all__ = ["run_rebuild", "step_words", "step_outputs"]


def step_words(game: str, step: Step, folder: Path, jobs: int) -> list[str]:
    """The command's words of ``step`` (after ``tui-games``), its files in ``folder``."""
    if isinstance(step, DatasetStep):
        words = ["dataset", game, "--jobs", str(jobs), "--games", str(step.games), "--depth", str(step.depth),
                 "--openings", str(step.openings), "--seed", str(step.seed), "--explore", f"{step.explore:g}",
                 "--max-plies", str(step.max_plies)]
        if step.heuristic is not None:
            words += ["--heuristic", step.heuristic.replace("{folder}", str(folder))]
        return words + ["--out", str(folder / step.out)]
    words = ["train", game, "--data", *(str(folder / name) for name in step.data), "--model", "tables",
             "--max-iter", str(step.max_iter), "--test-size", f"{step.test_size:g}", "--seed", str(step.seed)]
    if step.outcome:
        words += ["--outcome", f"{step.outcome:g}"]
    return words + ["--out", str(folder / step.out)]


def step_outputs(step: Step, folder: Path) -> list[Path]:
    """The files a step writes: a dataset and its sidecar, or tables and their metadata."""
    out = folder / step.out
    if isinstance(step, DatasetStep):
        return [out, Path(f"{out}.meta.json")]
    return [out, out.with_suffix(".json")]


def run_rebuild(game: str, folder: Path, jobs: int, run: Callable[[list[str]], int],
                bundled: Path | None = None, steps: Sequence[Step] | None = None) -> int:
    """Run the recipe's steps (``run(words)`` runs one command, returning its exit status); say each
    step, how long it took, and whether the last file equals ``bundled``."""
    if steps is None:
        steps = game_kind(game).recipe
        if not steps:
            having = [name for name in GAME_NAMES if game_kind(name).recipe]
            raise UsageError(f"{PROG} rebuild", f"{game} bundles no learned tables to rebuild "
                             f"({', '.join(having) or 'no game'} {'does' if len(having) == 1 else 'do'})")
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{PROG} rebuild", f"--out: {folder} is a file, not a folder")
    if not folder.parent.is_dir():  # as every command's --out: the folder is made, never its parents
        raise UsageError(f"{PROG} rebuild", f"cannot make {folder}: the directory {folder.parent} does not exist")
    folder.mkdir(exist_ok=True)
    started = time.perf_counter()
    for number, step in enumerate(steps, 1):
        words = step_words(game, step, folder, jobs)
        outputs = step_outputs(step, folder)
        shown = f"step {number} of {len(steps)}: {PROG} {shlex.join(words)}"
        if all(path.exists() for path in outputs):
            print(f"{shown}\n  done before: {outputs[0].name} is there", flush=True)
            continue
        if any(path.exists() for path in outputs):
            raise UsageError(f"{PROG} rebuild", f"{', '.join(str(p) for p in outputs if p.exists())}: a step's "
                             "files half there (not written by rebuild?); move them away")
        print(shown, flush=True)
        step_start = time.perf_counter()
        try:
            status = run(words)
        except BaseException:
            _remove(outputs)
            raise
        if status != 0:
            _remove(outputs)
            return status
        print(f"  done in {time.perf_counter() - step_start:,.0f} s", flush=True)
    last = folder / steps[-1].out
    print(f"rebuilt {last} in {time.perf_counter() - started:,.0f} s")
    if bundled is not None and bundled.exists():
        same = last.read_bytes() == bundled.read_bytes()
        print(f"{'the same bytes as' if same else 'not the same bytes as'} the bundled {bundled}")
    return 0


def _remove(paths: Sequence[Path]) -> None:
    """Delete what an unfinished step wrote (rebuild's own files, not finished)."""
    for path in paths:
        try:
            path.unlink()
        except FileNotFoundError:
            pass
        except OSError as error:  # said, and the run stops as it would have
            print(f"{PROG} rebuild: could not remove {path}: {error.strerror or error}", file=sys.stderr)
