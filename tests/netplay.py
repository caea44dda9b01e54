"""Helpers for the network tests: a live host on 127.0.0.1 with its guest, and waiting for states."""

from __future__ import annotations

import queue
import socket
import time
from typing import Any, Callable

import pytest

from games.clock import TimeControl
from tui.net.client import Client
from tui.net.host import Bounds, HostServer
from tui.net.referee import Referee

#: How long a test waits for the host before failing.
TIMEOUT = 10.0


class Guest:
    """A client whose messages land in a queue, so a test can wait for one."""

    def __init__(self, port: int, code: str, role: str = "play", *, aids: bool = False) -> None:
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.client = Client(("127.0.0.1", port), code, role, on_message=self.messages.put, aids=aids)
        self.client.connect(TIMEOUT)

    def wait(self, condition: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        """The first message (after those already read) meeting ``condition``."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            try:
                message = self.messages.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"timed out waiting for {what}") from None
            if condition(message):
                return message

    def error(self) -> str:
        return self.wait(lambda m: m["type"] == "error", "an error")["reason"]

    def state_at(self, ply: int) -> dict[str, Any]:
        return self.wait(lambda m: m["type"] == "state" and m["ply"] == ply, f"the state at ply {ply}")


def start_host(name: str, position: str | None = None, *, clock: str | None = None, host_side: int = 0,
               bounds: Bounds = Bounds(), now: Callable[[], float] = time.monotonic,
               abandon: float = 60.0, aids: bool = False) -> HostServer:
    referee = Referee(name, position, host_side=host_side,
                      control=TimeControl.parse(clock) if clock else None, now=now, abandon=abandon, aids=aids)
    server = HostServer(referee, bounds=bounds)
    server.start()
    return server


@pytest.fixture
def hosted() -> Any:
    """Start hosts through this; each is stopped after the test."""
    servers: list[HostServer] = []

    def start(*args: Any, **kwargs: Any) -> HostServer:
        server = start_host(*args, **kwargs)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


def raw(port: int, data: bytes, *, read: bool = True) -> bytes:
    """Send ``data`` on a fresh connection and return all the host answers until it closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as sock:
        sock.sendall(data)
        if not read:
            return b""
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
        return answer
