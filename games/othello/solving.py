"""Which Othello endgame solver serves: the compiled one or the pure-Python one.

:func:`solve` (the game's ``solve`` hook) hands a solve to the algorithm of
:mod:`games.othello.solver` compiled with numba (:mod:`games.othello.compiled`)
when numba is installed, no switch is turned off, and the compiled code is ready:
:data:`COMPILED` compiles it once, in a daemon thread, the first time a solve
wants it, and the pure-Python :class:`~games.othello.solver.Solver` serves until
then (``TUI_GAMES_COMPILED=off`` keeps it pure).  Both give the same value and
best move.  (Its own module so that the compiled solver, which reads the pure
one's constants and ordering, and the choice between them import in one direction.)
"""

from __future__ import annotations

import importlib.util
import os
import threading
from types import ModuleType
from typing import Callable, Iterable

from ..base import Solution
from .solver import Solver

__all__ = ["COMPILED", "COMPILED_SWITCH", "CompiledPath", "solve"]

#: The environment variable that turns the compiled solver off (``off``).
COMPILED_SWITCH = "TUI_GAMES_COMPILED"


class CompiledPath:
    """Whether the compiled solver (:mod:`games.othello.compiled`) can serve, and its
    compilation: started once, in a daemon thread, the first time :meth:`ready` is
    asked while numba is installed and ``TUI_GAMES_COMPILED`` is not ``off``."""

    def __init__(self) -> None:
        self._module: ModuleType | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        #: Why the compiled solver cannot serve in this process (one line), once known.
        self.failure: str | None = None
        #: True or False: the compiled solver allowed or not whatever the environment says
        #: (a command's ``--solver``); ``None``: as ``TUI_GAMES_COMPILED`` says.
        self.enabled: bool | None = None

    def wanted(self) -> bool:
        """Whether the compiled solver is allowed: :attr:`enabled`, or else the
        environment (``TUI_GAMES_COMPILED`` not ``off``)."""
        if self.enabled is not None:
            return self.enabled
        return os.environ.get(COMPILED_SWITCH, "").strip().lower() != "off"

    @staticmethod
    def installed() -> bool:
        """Whether numba can be imported (looked up, not imported)."""
        try:
            return importlib.util.find_spec("numba") is not None
        except (ImportError, ValueError):
            return False

    def _load(self) -> None:
        try:
            from . import compiled
        except Exception as exc:  # noqa: BLE001 -- any failure leaves the pure solver serving
            self.failure = f"the compiled solver could not be built ({type(exc).__name__}: {exc})".splitlines()[0]
        else:
            self._module = compiled

    def ready(self, wait: bool = False) -> Callable[..., Solution] | None:
        """The compiled ``solve`` if it can serve now, else ``None`` -- starting its
        compilation the first time it is asked (with ``wait``, waiting for it)."""
        if not self.wanted():
            return None
        if self._module is None:
            with self._lock:
                if self._thread is None and self.failure is None:
                    if not self.installed():
                        self.failure = "numba is not installed (pip install 'tui-games[fast]')"
                    else:
                        self._thread = threading.Thread(target=self._load, name="compile-othello-solver",
                                                        daemon=True)
                        self._thread.start()
                thread = self._thread
            if wait and thread is not None:
                thread.join()
        return None if self._module is None else self._module.solve

    def compiling(self) -> bool:
        """Whether the compilation has started and not finished."""
        return self._thread is not None and self._module is None and self.failure is None

    def status(self) -> str:
        """Which solver serves, in a few words (for the benchmarks' and the CLI's output)."""
        if self.enabled is False:
            return "the pure-Python solver"
        if not self.wanted():
            return f"the pure-Python solver ({COMPILED_SWITCH}=off)"
        if self._module is not None:
            return "the compiled solver (numba)"
        if self.failure is not None:
            return f"the pure-Python solver: {self.failure}"
        return "the pure-Python solver (the compiled one not ready yet)"


#: The compiled solver's state in this process.
COMPILED = CompiledPath()


def solve(own: int, opp: int, tick: Callable[[int], object] | None = None, off: Iterable[str] = (),
          compiled: bool | None = None) -> Solution:
    """The exact value of the position (``own`` to move) and a best move: the
    compiled solver when it is ready and no switch is turned ``off`` (the switches
    are the pure solver's), else :class:`Solver`.  ``compiled`` True or False
    forces one (True: waits for the compilation; the pure solver if it fails)."""
    off = tuple(off)
    if compiled is not False and not off:
        fast = COMPILED.ready(wait=bool(compiled))
        if fast is not None:
            return fast(own, opp, tick)
    return Solver(tick=tick, off=off).solve(own, opp)
