"""A malicious host for the network tests: it welcomes a guest and then sends what a test asks.

``python tests/evil_host.py MODE`` prints its port and serves one guest at a time; :func:`serve` runs
it in a thread of the test instead.  Each mode is a list of steps: ``bytes`` are sent as they are, a
``float`` waits that long (the host's own pacing, not the test's), ``"trickle"`` sends one byte every
0.3 s for ever.  The modes are those a breaker found crashing or freezing ``join``.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from typing import Any

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def state(**changes: Any) -> bytes:
    """A right chess state at the start for the guest (side 1), with ``changes``."""
    message: dict[str, Any] = {
        "type": "state", "game": "chess", "start": None, "number": 1, "moves": [], "ply": 0, "turn": 0,
        "you": 1, "seq": 0, "paused": False, "aids": False, "clock": None, "offer": None, "outcome": None, "away": None}
    message.update(changes)
    return json.dumps(message).encode() + b"\n"


WELCOME = b'{"type":"welcome","v":1,"role":"play"}\n'
CLOCK = {"base": 60, "increment": 0, "left": [60, 60], "running": 0, "history": [[60, 60]]}
#: What each mode sends after the guest's hello.
MODES: dict[str, list[Any]] = {
    "deep": [b"[" * 200_000 + b"\n"],
    "nogame": [WELCOME, state(game="nosuchgame")],
    "clockx": [WELCOME, state(clock={**CLOCK, "base": "x"})],
    "illegal": [WELCOME, state(moves=["e5"], ply=1, turn=1)],
    "start": [WELCOME, state(start="not a fen")],
    "history": [WELCOME, state(clock={**CLOCK, "history": [[1, 2, 3]]})],
    "markup": [WELCOME, state(moves=["e4"], ply=1, turn=1,
                              outcome={"winner": 0, "reason": "as recorded", "said": "[/x] [bold [@click=app.quit]"})],
    "nan": [WELCOME, state(clock={**CLOCK, "left": [float("nan"), 60]})],
    "later-illegal": [WELCOME, state(), 1.0, state(moves=["e4"], ply=1, turn=1), 1.0,
                      state(moves=["e4", "Ke8"], ply=2, turn=0)],
    "later-deep": [WELCOME, state(), 1.0, b"[" * 200_000 + b"\n"],
    "trickle": [WELCOME, "trickle"],
    "later-trickle": [WELCOME, state(), "trickle"],
    "good": [WELCOME, state()],
}


def _guest(conn: socket.socket, steps: list[Any], stop: threading.Event) -> None:
    with conn:
        try:
            conn.settimeout(5)
            conn.recv(4096)  # the hello, whatever it says
            for step in steps:
                if isinstance(step, bytes):
                    conn.sendall(step)
                elif isinstance(step, float):
                    time.sleep(step)
                else:  # trickle: one byte at a time, never a newline
                    while not stop.is_set():
                        conn.sendall(b" ")
                        time.sleep(0.3)
            while not stop.is_set() and conn.recv(4096):  # keep the line open while the guest talks
                pass
        except OSError:
            return


def serve(mode: str) -> tuple[int, threading.Event]:
    """Listen on 127.0.0.1 in a daemon thread; the port and the event that stops it."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    stop = threading.Event()

    def run() -> None:
        with listener:
            while not stop.is_set():
                try:
                    conn, _ = listener.accept()
                except TimeoutError:
                    continue
                threading.Thread(target=_guest, args=(conn, MODES[mode], stop), daemon=True).start()

    threading.Thread(target=run, daemon=True).start()
    return listener.getsockname()[1], stop


if __name__ == "__main__":
    port, stopped = serve(sys.argv[1])
    print(port, flush=True)
    try:
        stopped.wait()
    except KeyboardInterrupt:
        pass
