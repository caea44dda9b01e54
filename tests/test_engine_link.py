"""The app's line to its search process: each search's events come back as messages
to whoever asked, naming the owner; a cancelled search is silent; a dead process
ends the searches pending in it; closing stops the reader and the process."""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Callable, Iterator

import pytest

from tui.app.engine_link import PROCESS_DIED, EngineDone, EngineFailed, EngineInfo, EngineLink, EngineMessage
from tui.app.search_service import COACH, SearchService

TIMEOUT = 30.0


class Inbox:
    """Stands for a screen or the coach: keeps the messages posted to it."""

    def __init__(self) -> None:
        self.messages: list[EngineMessage] = []
        self._lock = threading.Lock()

    def post_message(self, message: EngineMessage) -> bool:
        with self._lock:
            self.messages.append(message)
        return True

    def of(self, kind: type) -> list:
        with self._lock:
            return [message for message in self.messages if isinstance(message, kind)]


def wait_until(condition: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


@pytest.fixture
def link() -> Iterator[EngineLink]:
    link = EngineLink(SearchService())
    reader = threading.Thread(target=link.read, args=(lambda: False,), daemon=True)
    reader.start()
    yield link
    link.close()
    reader.join(2.0)
    assert not reader.is_alive()


def test_each_search_answers_whoever_asked_naming_the_owner(link: EngineLink) -> None:
    screen, coach = Inbox(), Inbox()
    played = link.search(screen, 1, "quixo", "alphabeta:depth=2", None, ["0 0 bottom"])
    wait_until(lambda: screen.of(EngineDone), "the player's move")
    hinted = link.search(coach, COACH, "quixo", "alphabeta:depth=2", None, ["0 0 bottom", "4 4 top"])
    wait_until(lambda: coach.of(EngineDone), "the coach's move")
    [done] = screen.of(EngineDone)
    assert (done.owner, done.request_id) == (1, played) and done.move and done.stats.nodes > 0
    assert {(m.owner, m.request_id) for m in screen.messages} == {(1, played)}
    assert {(m.owner, m.request_id) for m in coach.messages} == {(COACH, hinted)}
    assert all(isinstance(m, EngineInfo) for m in screen.messages[:-1])  # then nothing after the move


def test_a_cancelled_search_says_nothing_more(link: EngineLink) -> None:
    screen = Inbox()
    request = link.search(screen, 0, "chess", "pvs:time=60", None, [])
    wait_until(lambda: screen.of(EngineInfo), "the search's first figures")
    link.cancel(request)
    heard = len(screen.messages)
    # The process answers requests in order: once the next search has answered, the cancelled one has
    # said all it ever will.
    after = link.search(screen, 0, "chess", "alphabeta:depth=1", None, [])
    wait_until(lambda: any(m.request_id == after for m in screen.of(EngineDone)), "the next search's move")
    late = [m for m in screen.messages[heard:] if m.request_id == request]
    assert len(late) <= 1 and not [m for m in screen.of(EngineDone) if m.request_id == request]
    assert link.service.alive


def test_a_dead_process_ends_the_search_pending_in_it(link: EngineLink) -> None:
    screen = Inbox()
    request = link.search(screen, 0, "chess", "pvs:time=60", None, [])
    wait_until(lambda: screen.of(EngineInfo), "the search's first figures")
    os.kill(link.service.pid, signal.SIGKILL)
    wait_until(lambda: screen.of(EngineFailed), "the failure")
    [failed] = screen.of(EngineFailed)
    assert (failed.owner, failed.request_id, failed.message) == (0, request, PROCESS_DIED)
    # The next search starts a new process, and is not taken for an orphan of the old one.
    again = link.search(screen, 0, "quixo", "alphabeta:depth=1", None, [])
    wait_until(lambda: any(m.request_id == again for m in screen.of(EngineDone)), "the next search's move")
    assert len(screen.of(EngineFailed)) == 1


def test_close_stops_the_reader_and_the_process() -> None:
    link = EngineLink(SearchService())
    reader = threading.Thread(target=link.read, args=(lambda: False,), daemon=True)
    reader.start()
    screen = Inbox()
    link.search(screen, 0, "chess", "pvs:time=60", None, [])
    wait_until(lambda: screen.of(EngineInfo), "the search")
    started = time.monotonic()
    link.close()
    reader.join(2.0)
    assert not reader.is_alive() and not link.service.alive
    assert time.monotonic() - started < 5.0
