"""The app's line to its search process: searches asked for by a part of the
app, and their events posted back to it as Textual messages.

:class:`EngineLink` wraps the app's one
:class:`~tui.app.search_service.SearchService`.  :meth:`EngineLink.search`
sends a request on behalf of whoever asks: a message pump (the game screen
for its players, the coach for itself) and an *owner*, the side whose engine
searches (0, 1, or :data:`~tui.app.search_service.COACH`).
:meth:`EngineLink.read` is the body of the app's thread worker: it blocks on
the process's event queue -- nothing polls it from the event loop -- and posts
each event to whoever asked, as an :class:`EngineInfo`, :class:`EngineDone` or
:class:`EngineFailed` naming the owner and the request.  The messages do not
bubble: they reach the asker and nobody else.

The endgame tables the settings name (``tui-games play --syzygy DIR`` first)
go into every search's spec as its ``tables`` option, for the games whose
tables are in that folder (:func:`tui.settings.tables_games`), unless the spec
names its own.

Events of a cancelled request are dropped.  A search process that dies with
searches pending ends each of them with :class:`EngineFailed` ("the search
process ended unexpectedly").  :meth:`EngineLink.close` stops the reader
(within :data:`READ_TIMEOUT`) before it ends the process, so neither outlives
the app.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Protocol, Sequence

from textual.message import Message

from engines import SpecError
from engines.registry import with_tables
from games import game_class

from ..settings import tables_games

from .search_service import SearchDone, SearchEvent, SearchInfo, SearchService

if TYPE_CHECKING:
    from engines import Limits, SearchStats

__all__ = ["EngineDone", "EngineFailed", "EngineInfo", "EngineLink", "EngineMessage", "READ_TIMEOUT",
           "PROCESS_DIED"]

#: How long the reader waits on the queue before it looks at the process and its stop flag (s).
READ_TIMEOUT = 0.1
#: What a search pending in a process that died ends with.
PROCESS_DIED = "the search process ended unexpectedly"


class EngineMessage(Message, bubble=False):
    """An event of a search, for whoever asked for it: ``owner`` is the side
    whose engine searched (a player's 0 or 1, or the coach's)."""

    def __init__(self, owner: int, request_id: int) -> None:
        super().__init__()
        self.owner = owner
        self.request_id = request_id


class EngineInfo(EngineMessage):
    """The statistics of a search still running (about ten a second)."""

    def __init__(self, owner: int, request_id: int, stats: SearchStats) -> None:
        super().__init__(owner, request_id)
        self.stats = stats


class EngineDone(EngineMessage):
    """A search ended: the move it chose (as text) and its final statistics."""

    def __init__(self, owner: int, request_id: int, move: str, stats: SearchStats) -> None:
        super().__init__(owner, request_id)
        self.move = move
        self.stats = stats


class EngineFailed(EngineMessage):
    """A search could not run; ``message`` is one line for the user.
    ``model_error``: the engine's trained model could not be used."""

    def __init__(self, owner: int, request_id: int, message: str, model_error: bool = False) -> None:
        super().__init__(owner, request_id)
        self.message = message
        self.model_error = model_error


def engine_message(owner: int, event: SearchEvent) -> EngineMessage:
    """The message that brings ``event`` to the owner of its search."""
    if isinstance(event, SearchInfo):
        return EngineInfo(owner, event.request_id, event.stats)
    if isinstance(event, SearchDone):
        return EngineDone(owner, event.request_id, event.move, event.stats)
    return EngineFailed(owner, event.request_id, event.message, event.model_error)


class Listener(Protocol):
    """Whoever asks for a search and is sent its events (a screen, a widget: any message pump)."""

    def post_message(self, message: Message) -> bool: ...


@dataclass(frozen=True)
class _Asker:
    """Who is waiting for a request's events, and the process asked."""

    target: Listener
    owner: int
    pid: int | None


class EngineLink:
    """Searches for the parts of the app, their events posted back as messages."""

    def __init__(self, service: SearchService, tables: Callable[[], str | None] = lambda: None) -> None:
        self.service = service
        #: The endgame tables' folder the app's engines read, as it is now (``None``: none).
        self.tables = tables
        #: The games whose tables each folder holds, found once per folder.
        self._reading: dict[str, tuple[str, ...]] = {}
        #: Requests still running, by id (guarded by ``_lock``: the reader thread reads them).
        self._askers: dict[int, _Asker] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._reader_done = threading.Event()
        self._reader_done.set()  # no reader yet

    # -- asking ------------------------------------------------------------------------

    def search(self, target: Listener, owner: int, game: str, spec: str, start: str | None,
               moves: Sequence[str], limits: Limits | None = None) -> int:
        """Ask for a search of ``owner``'s engine; its events go to ``target``.
        Returns the request id the messages carry."""
        spec = self.with_tables(game, spec)
        with self._lock:  # registered before the reader can see its first event
            request_id = self.service.search(game, owner, spec, start, moves, limits)
            self._askers[request_id] = _Asker(target, owner, self.service.pid)
        return request_id

    def with_tables(self, game: str, spec: str) -> str:
        """``spec`` reading the endgame tables of :attr:`tables` when ``game``'s are there."""
        folder = self.tables()
        if not folder:
            return spec
        if folder not in self._reading:
            self._reading[folder] = tables_games(folder)[0]
        if game not in self._reading[folder]:
            return spec
        try:
            return with_tables(spec, game_class(game), folder)
        except SpecError:  # not an engine spec (a human): nothing to add
            return spec

    def cancel(self, request_id: int | None = None) -> None:
        """Stop request ``request_id`` and every earlier one (default: all); none of
        their events is posted any more."""
        self.service.cancel(request_id)
        with self._lock:
            for known in [known for known in self._askers if request_id is None or known <= request_id]:
                del self._askers[known]

    def reset(self) -> None:
        """Cancel everything and forget the engines (a new game starts cold)."""
        self.cancel()
        self.service.reset()

    def close(self) -> None:
        """Stop the reader, then end the search process."""
        self._stop.set()
        self._reader_done.wait(10 * READ_TIMEOUT)
        self.cancel()
        self.service.close()

    # -- the reader ----------------------------------------------------------------------

    def read(self, cancelled: Callable[[], bool]) -> None:
        """Post every event to whoever asked, until :meth:`close` or ``cancelled()``.

        The body of a thread worker: it blocks on the search process's queue."""
        self._reader_done.clear()
        try:
            while not self._stop.is_set() and not cancelled():
                event = self.service.wait_event(READ_TIMEOUT)
                if event is None:
                    self._fail_orphans()
                else:
                    self._deliver(event)
        finally:
            self._reader_done.set()

    def _deliver(self, event: SearchEvent) -> None:
        with self._lock:
            asker = self._askers.get(event.request_id)
            if asker is not None and not isinstance(event, SearchInfo):
                del self._askers[event.request_id]  # its last event
        if asker is not None:
            asker.target.post_message(engine_message(asker.owner, event))

    def _fail_orphans(self) -> None:
        """End the searches of a process that died (or was replaced) with a failure."""
        with self._lock:  # not while search() starts a process and registers its request
            alive, pid = self.service.alive, self.service.pid
            orphans = [(request_id, asker) for request_id, asker in self._askers.items()
                       if not alive or asker.pid != pid]
            for request_id, _ in orphans:
                del self._askers[request_id]
        for request_id, asker in orphans:
            asker.target.post_message(EngineFailed(asker.owner, request_id, PROCESS_DIED))
