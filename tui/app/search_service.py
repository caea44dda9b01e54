"""Engine searches in a separate process, so the app never waits for one.

A search is CPU-bound pure Python: run in a thread of the app's process it
would hold the GIL and starve Textual's event loop (keys would stop echoing).
:class:`SearchService` therefore runs every search in one spawned process:

* the app sends a :class:`SearchRequest` (the game, the side's engine spec, the
  start position and the moves played, so repetition history is exact);
* the process answers with :class:`SearchInfo` events while it searches (the
  engine's ``on_info``, about ten a second) and one :class:`SearchDone` or
  :class:`SearchFailed` at the end;
* :meth:`SearchService.cancel` stops the running search: the process polls a
  shared counter (the highest cancelled request id) through the engine's
  ``stop`` flag, so a cancellation can never stop a later request by mistake.

Every message is a frozen dataclass: requests :class:`SearchRequest`,
:class:`ResetEngines` and :class:`Shutdown` go in; events :class:`SearchInfo`,
:class:`SearchDone` and :class:`SearchFailed` (carrying
:class:`~engines.SearchStats`) come out.  :meth:`SearchService.wait_event`
blocks until the next one (a thread of the app waits there: see
:mod:`tui.app.engine_link`); events of a cancelled request are dropped there.
Engines are created once per side and spec and kept between
moves -- their transposition tables stay warm from one move to the next --
until :meth:`SearchService.reset` (a new game) sends :class:`ResetEngines`.  :meth:`SearchService.close` stops the search,
asks the process to exit, waits for it and kills it only if it does not.
The process also exits by itself when the app's process dies.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import queue
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator, Sequence

if TYPE_CHECKING:
    from engines import Limits, SearchStats

__all__ = [
    "COACH",
    "SearchRequest",
    "ResetEngines",
    "Shutdown",
    "ServiceRequest",
    "SearchInfo",
    "SearchDone",
    "SearchFailed",
    "SearchEvent",
    "SearchService",
]


#: The ``side`` of the coach's engine (hints, analysis, reports), beside the players' 0 and 1.
COACH = 2


@dataclass(frozen=True)
class SearchRequest:
    """Search the position reached from ``start`` (``None``: the standard start) by ``moves``.

    ``side`` names whose engine searches: a player's (0, 1) or the coach's
    (:data:`COACH`: hints, analysis, the report), each kept warm apart.
    ``limits`` replaces the spec's own (a clock's budget, analysis without end,
    the report's fixed depth)."""

    request_id: int
    game: str
    side: int
    spec: str
    start: str | None
    moves: tuple[str, ...]
    limits: Limits | None = None


@dataclass(frozen=True)
class ResetEngines:
    """Forget every engine (and its transposition table): a new game starts cold."""


@dataclass(frozen=True)
class Shutdown:
    """End the process."""


ServiceRequest = SearchRequest | ResetEngines | Shutdown


@dataclass(frozen=True)
class SearchInfo:
    """Statistics of a running search."""

    request_id: int
    stats: SearchStats


@dataclass(frozen=True)
class SearchDone:
    """A search ended: the move chosen, as text, and the final statistics."""

    request_id: int
    move: str
    stats: SearchStats


@dataclass(frozen=True)
class SearchFailed:
    """A search could not run; ``message`` is one line for the user.

    ``model_error``: the engine's trained model could not be used (the app
    then plays the fallback engine for that side)."""

    request_id: int
    message: str
    model_error: bool = False


SearchEvent = SearchInfo | SearchDone | SearchFailed

#: How often the idle process checks that the app's process is still alive (s).
_PARENT_CHECK = 0.5


class _Cancelled:
    """The engine's stop flag for one request: set once that request is cancelled,
    or once the app's process is gone (checked every :data:`_PARENT_CHECK` seconds:
    an app killed mid-search, or whose terminal closed, cannot cancel)."""

    __slots__ = ("_cancelled", "_request_id", "_parent", "_next_check")

    def __init__(self, cancelled: Any, request_id: int, parent: Any = None) -> None:
        self._cancelled = cancelled
        self._request_id = request_id
        self._parent = parent
        self._next_check = time.monotonic() + _PARENT_CHECK

    def is_set(self) -> bool:
        if self._cancelled.value >= self._request_id:
            return True
        if self._parent is not None and time.monotonic() >= self._next_check:
            self._next_check = time.monotonic() + _PARENT_CHECK
            return not self._parent.is_alive()
        return False


@contextmanager
def _real_stderr() -> Iterator[None]:
    """Put the process's real stderr back while starting processes.

    Textual replaces ``sys.stderr`` with an object whose ``fileno()`` is not a
    file descriptor; multiprocessing's resource tracker passes that descriptor
    to the process it starts and would fail.
    """
    saved = sys.stderr
    sys.stderr = sys.__stderr__
    try:
        yield
    finally:
        sys.stderr = saved


def _serve(requests: Any, events: Any, cancelled: Any) -> None:
    """The search process: answer requests until told to stop (:class:`Shutdown`) or orphaned."""
    # The app owns the terminal: nothing printed here may land on its screen.
    sys.stdout = sys.stderr = open(os.devnull, "w")
    from engines import EngineFailure, create_engine
    from engines.learning.learned import EngineModelError
    from engines.lifetime import exit_with_parent

    exit_with_parent()  # even when the app is killed outright (SIGKILL)
    from games import game_class, new_game

    engines: dict[tuple[str, int, str], Any] = {}
    parent = mp.parent_process()
    try:
        while True:
            try:
                request = requests.get(timeout=_PARENT_CHECK)
            except queue.Empty:
                if parent is not None and not parent.is_alive():
                    return
                continue
            if isinstance(request, Shutdown):
                return
            if isinstance(request, ResetEngines):
                for engine in engines.values():
                    engine.close()
                engines.clear()
                continue
            stop = _Cancelled(cancelled, request.request_id, parent)
            if stop.is_set():
                continue
            try:
                key = (request.game, request.side, request.spec)
                engine = engines.get(key)
                if engine is None:
                    engine = engines[key] = create_engine(request.spec, game_class(request.game))
                game = new_game(request.game, request.start)
                game.play_all(request.moves)
                result = engine.search(
                    game, request.limits, stop=stop,
                    on_info=lambda stats, rid=request.request_id: events.put(SearchInfo(rid, stats)),
                )
                events.put(SearchDone(request.request_id, game.format_move(result.move), result.stats))
            except Exception as error:  # one line for the user, whatever went wrong
                failed = engines.pop(key, None) if isinstance(error, EngineFailure) else None
                if failed is not None:  # an external engine broke the rules: killed; the next search restarts it
                    failed.close()
                text = str(error).splitlines()[0] if str(error) else type(error).__name__
                events.put(SearchFailed(request.request_id, text, isinstance(error, EngineModelError)))
    finally:
        for engine in engines.values():
            engine.close()
        # Nobody may be reading any more: do not wait for unread events to drain.
        events.cancel_join_thread()
        events.close()


class SearchService:
    """One spawned process running the searches of a session's engines.

    Use::

        service = SearchService()
        rid = service.search("chess", 1, "pvs:time=2", None, ["e4"])
        ...  # in a thread:
        event = service.wait_event(0.1)  # None: nothing came meanwhile
        ...
        service.close()
    """

    def __init__(self) -> None:
        self._context = mp.get_context("spawn")
        self._requests: Any = None
        self._events: Any = None
        self._cancelled: Any = None
        self._process: Any = None
        self._last_id = 0

    # -- lifecycle ---------------------------------------------------------

    def start(self) -> None:
        """Start the process (done by the first :meth:`search` if not before)."""
        if self._process is not None and self._process.is_alive():
            return
        with _real_stderr():
            ctx = self._context
            self._requests = ctx.Queue()
            self._events = ctx.Queue()
            self._cancelled = ctx.Value("q", 0, lock=False)
            self._cancelled.value = self._last_id
            # Not a daemon: an engine with workers=N starts processes of its own.
            self._process = ctx.Process(
                target=_serve, args=(self._requests, self._events, self._cancelled),
                name="tui-games-search", daemon=False,
            )
            self._process.start()

    @property
    def pid(self) -> int | None:
        """The process id of the search process, if started."""
        return None if self._process is None else self._process.pid

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.is_alive()

    def close(self, timeout: float = 3.0) -> None:
        """Stop any search, end the process and wait for it (kill it if it hangs)."""
        process = self._process
        if process is None:
            return
        self.cancel()
        try:
            self._requests.put(Shutdown())
        except (ValueError, OSError):
            pass
        process.join(timeout)
        if process.is_alive():
            process.kill()
            process.join(1.0)
        for q in (self._requests, self._events):
            q.cancel_join_thread()
            q.close()
        self._process = None

    # -- requests ----------------------------------------------------------

    def search(self, game: str, side: int, spec: str, start: str | None,
               moves: Sequence[str], limits: Limits | None = None) -> int:
        """Ask for a search; returns the request id its events will carry."""
        self.start()
        self._last_id += 1
        self._requests.put(SearchRequest(self._last_id, game, side, spec, start, tuple(moves), limits))
        return self._last_id

    def cancel(self, request_id: int | None = None) -> None:
        """Stop request ``request_id`` and drop every earlier one (default: all made so far).

        Naming the request keeps a later one (of a screen that has already
        started its own search) running.
        """
        if self._cancelled is not None:
            upto = self._last_id if request_id is None else request_id
            self._cancelled.value = max(self._cancelled.value, upto)

    def reset(self) -> None:
        """Cancel, and forget the engines (a new game starts with cold tables)."""
        self.cancel()
        if self._process is not None:
            self._requests.put(ResetEngines())

    def is_current(self, request_id: int) -> bool:
        """Whether events of ``request_id`` still matter (not cancelled)."""
        return self._cancelled is not None and request_id > self._cancelled.value

    def wait_event(self, timeout: float) -> SearchEvent | None:
        """The next event of a request not cancelled, waiting at most ``timeout``
        seconds for it (``None``: none came, or no process runs).

        Meant for one reader thread: it blocks on the process's queue (the
        interpreter's lock released meanwhile), never on the event loop."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            events = self._events  # the process may be restarted meanwhile: this one's queue
            if events is None:
                time.sleep(left)
                return None
            try:
                event = events.get(timeout=left)
            except queue.Empty:
                return None
            except (OSError, ValueError, EOFError):  # closed under the reader: the app is ending
                time.sleep(left)
                return None
            if self.is_current(event.request_id):
                return event
        return None
