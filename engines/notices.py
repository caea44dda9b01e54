"""Notices: what an engine will do differently from what its spec asked (a clamp), said once.

``alphabeta:depth=999`` searches 64 plies at most; ``pvs:workers=2,hash=65536``
gets the table this machine can hold.  Neither is an error -- the spec stays
as written, and the same spec on a bigger machine gets more -- but the user is
told, once per process, whatever reads the spec how many times:
:func:`say` keeps each text once and hands it to whoever listens (the command
line prints it on stderr, the app shows a notification); a text said before
anyone listens waits for the first listener.  Like every message of the
engines, a notice names no command-line flag.
"""

from __future__ import annotations

import threading
from typing import Callable

__all__ = ["say", "listen", "said"]

_lock = threading.Lock()
_said: list[str] = []
_waiting: list[str] = []
_listeners: list[Callable[[str], None]] = []


def say(text: str) -> None:
    """Tell the listener ``text``, unless this process said it already."""
    with _lock:
        if text in _said:
            return
        _said.append(text)
        listener = _listeners[-1] if _listeners else None
        if listener is None:
            _waiting.append(text)
    if listener is not None:
        listener(text)


def listen(listener: Callable[[str], None]) -> Callable[[], None]:
    """Hand the notices to ``listener`` from now on (and those waiting, at once) until
    the function returned is called; the latest listener hears them."""
    with _lock:
        _listeners.append(listener)
        waiting = _waiting[:]
        _waiting.clear()
    for text in waiting:
        listener(text)

    def stop() -> None:
        with _lock:
            if listener in _listeners:
                _listeners.remove(listener)

    return stop


def said() -> tuple[str, ...]:
    """Every notice this process said, in order."""
    with _lock:
        return tuple(_said)
