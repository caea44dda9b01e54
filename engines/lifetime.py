"""Processes that end with their parent: no search worker outlives what started it.

Every process the project starts for work -- the parallel search's workers,
the app's search process, the joblib workers of a match or a dataset -- calls
:func:`exit_with_parent` first.  A daemon thread then looks at the process's
parent every :data:`CHECK_INTERVAL` seconds and ends the process at once
(``os._exit``) when the parent is gone, whatever killed it: SIGKILL leaves no
chance to clean up, so the children must notice by themselves.  Such a
process ignores the signals that end a run (:data:`STOP_SIGNALS`: SIGINT,
SIGHUP, SIGTERM): a terminal's Ctrl-C or hangup, ``kill`` or ``timeout`` on
the process group reach every process of it, and only the parent decides what
they mean (it keeps what is finished and stops its children itself, with
SIGKILL, freeing what they shared).  The thread
gets the interpreter's lock between the search's bytecodes like any other, so
a process busy searching still exits within a fraction of a second.

A process's own children exit the same way when it does (each watches its own
parent).  A program we start that is not ours (a UCI engine: Stockfish,
sunfish, any ``uci:path=...``) is started with :func:`killed_with_parent`: the
kernel kills it when its parent goes, even in the middle of a search.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import runpy
import signal
import sys
import threading
import time
from types import FrameType
from typing import Callable, Iterator

__all__ = ["CHECK_INTERVAL", "STOP_SIGNALS", "exit_with_parent", "killed_with_parent", "signals_deferred",
           "start_resource_tracker", "stop_signals_blocked", "watching", "worker_initializer"]

#: Seconds between two looks at the parent.
CHECK_INTERVAL = 0.2
#: The exit status of a process whose parent died.
ORPHANED = 3
#: The signals that end a run, which only the parent answers (its helpers ignore them).
STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGHUP, signal.SIGTERM})
#: prctl's option that sets the signal a process gets when its parent dies (linux/prctl.h).
PR_SET_PDEATHSIG = 1
#: The name this file runs under as a pool worker's initializer (:func:`worker_initializer`).
_WORKER_RUN = "engines.lifetime, run as a worker's initializer"

_watched: int | None = None  # the pid watching started in
_lock = threading.Lock()


def watching() -> bool:
    """Whether this process ends with its parent."""
    return _watched == os.getpid()


def exit_with_parent(parent: int | None = None, interval: float = CHECK_INTERVAL) -> None:
    """End this process soon after its parent dies (idempotent, per process).

    ``parent`` is the pid of the process that started this one: by default
    the one :mod:`multiprocessing` recorded when it started this process, or
    else the current parent.  Naming it matters for a parent that may die
    while this process is still starting: the process then exits at once
    instead of watching its new adoptive parent.  When ``os.getppid()`` is no
    longer ``parent`` (the orphan was adopted by init or a subreaper) the
    process exits with status :data:`ORPHANED` without running cleanup
    handlers: what it was working on has nobody to go to.
    """
    global _watched
    with _lock:
        if watching():
            return
        _watched = os.getpid()
    # Ctrl-C or a hangup in a terminal, or kill on the group, signal the whole process
    # group: the parent decides what they mean (print what is finished, stop this process).
    # It may have started with them blocked (:func:`stop_signals_blocked`): ignoring them drops what
    # came meanwhile, and unblocking them gives the threads it starts, and the programs those start (a
    # UCI engine's guard), the mask a process should have.
    if threading.current_thread() is threading.main_thread():
        for sig in STOP_SIGNALS:
            signal.signal(sig, signal.SIG_IGN)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    if parent is None:
        recorded = multiprocessing.parent_process()
        parent = recorded.pid if recorded is not None and recorded.pid else os.getppid()
    if os.getppid() != parent:
        os._exit(ORPHANED)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(ORPHANED)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def worker_initializer(parent: int) -> tuple[Callable[..., object], tuple[object, ...]]:
    """A process pool's ``initializer`` and ``initargs`` that make each worker end with ``parent``.

    The worker runs this file by its path (:func:`runpy.run_path`, the standard library alone), which
    calls :func:`exit_with_parent` at once.  Given :func:`exit_with_parent` itself, the worker would
    import the whole ``engines`` package to unpickle it (a second, several on a loaded machine) and, if
    its parent was killed meanwhile, see it go only then.
    """
    return runpy.run_path, (__file__, {"_PARENT": parent}, _WORKER_RUN)


@contextlib.contextmanager
def stop_signals_blocked(signals: frozenset[int] = STOP_SIGNALS) -> Iterator[None]:
    """Block ``signals`` (the :data:`STOP_SIGNALS`) in this thread while starting processes (and threads).

    A process started here inherits the blocked signals through its exec, so a
    Ctrl-C, hangup or SIGTERM that reaches the process group while the new
    process is still importing (before :func:`exit_with_parent` makes it
    ignore them) is held, then dropped, instead of printing a
    KeyboardInterrupt traceback from the middle of an import or ending a
    worker before its parent can stop it; :func:`exit_with_parent` then
    unblocks them (a process that kept them blocked would pass the mask on to
    what it starts: a UCI engine's guard that never hears its SIGTERM).  A helper that never unblocks them
    (the standard library's and loky's resource trackers unblock only SIGINT
    and SIGTERM, which they ignore) outlives a hangup of the group, and so
    still frees the semaphores of a parent that died.  This process loses
    nothing: the signal is taken by another of its threads, or waits until
    the block ends.
    """
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextlib.contextmanager
def signals_deferred(signals: frozenset[int] = STOP_SIGNALS) -> Iterator[None]:
    """Hold this process's Python handlers of ``signals`` until the block ends, then run them.

    Code that is not safe to interrupt at an arbitrary bytecode -- a process
    pool's ``submit``, ``concurrent.futures.wait``, whose locks a
    :class:`KeyboardInterrupt` raised half-way leaves held, so that shutting
    the pool down waits for ever -- runs in the block; a Ctrl-C that comes
    meanwhile is remembered and its handler (the one in place before the
    block) called as the block ends, so it raises there, in code that can take
    it.  Blocking the signal (:func:`stop_signals_blocked`) is not enough: a
    thread that does not block it takes it, and Python runs the handler in the
    main thread wherever that thread is.  Outside the main thread handlers
    cannot change: nothing is held.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[tuple[int, FrameType | None]] = []
    previous = {sig: signal.signal(sig, lambda signum, frame: came.append((signum, frame))) for sig in signals}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for signum, frame in came[:1]:  # the first one decides; a second Ctrl-C adds nothing
            handler = previous[signum]
            if callable(handler):
                handler(signum, frame)
            elif handler == signal.SIG_DFL:
                signal.raise_signal(signum)


def start_resource_tracker() -> None:
    """Start the standard library's resource tracker now, deaf to SIGHUP.

    The tracker frees the semaphores and shared memory of a process tree
    whose parent died; it ignores SIGINT and SIGTERM but not SIGHUP, so a
    terminal's hangup of the group would end it first, and the parent's
    later unregistering would start another that warns of leaks.  Started
    with SIGHUP blocked, it keeps it blocked.  Call it before the first
    semaphore or shared block of a run is made.
    """
    from multiprocessing import resource_tracker

    with stop_signals_blocked(frozenset({signal.SIGHUP})):
        resource_tracker.ensure_running()


def killed_with_parent(death_signal: int = signal.SIGKILL) -> Callable[[], None] | None:
    """A ``preexec_fn`` that makes a program we start (a UCI engine) end with us.

    A program of someone else's cannot call :func:`exit_with_parent`, and one
    busy searching may not read the end of its input for a long time: on
    Linux the child asks the kernel for SIGKILL when its parent goes
    (``prctl(PR_SET_PDEATHSIG)``; the parent is the *thread* that started it,
    which for :class:`~engines.uci_client.UciProcess` is the thread reading
    its output, alive as long as the engine).  A
    parent already gone by then (a race at start) ends the child at once.
    ``None`` where the system has no such call.
    """
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):  # pragma: no cover - a Linux without libc's prctl
        return None
    parent = os.getpid()

    def set_death_signal() -> None:
        prctl(PR_SET_PDEATHSIG, death_signal, 0, 0, 0)
        if os.getppid() != parent:
            os._exit(ORPHANED)

    return set_death_signal


if __name__ == _WORKER_RUN:  # a pool worker's first code (see worker_initializer)
    exit_with_parent(globals()["_PARENT"])
