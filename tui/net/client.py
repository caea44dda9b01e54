"""The client: a player's or a spectator's connection to a host (a socket and a reader thread).

:meth:`Client.connect` says hello with the code, waits for the welcome and the first state, and then
reads the host's lines in a daemon thread, calling ``on_message`` with each (from that thread: the app
posts it on as a Textual message).  :meth:`Client.send` numbers each message (``seq``, going on from
the number the host last saw of this seat, so a reconnected client continues it) and stamps it with
the ply of the last state, so the host refuses it if the game has moved meanwhile.  The client pings
the host when it has sent nothing for a while, so a quiet game is not closed as idle.  A host's line is
at most :data:`MAX_HOST_LINE` bytes and must be a JSON object of a known type; anything else ends the
connection with one line (``on_closed``).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from typing import Any, Callable

from .protocol import HOST_TYPES, VERSION, encode
from .tls import TlsError, check_fingerprint, client_context, fingerprint as fingerprint_of

__all__ = ["Client", "ConnectError", "MAX_HOST_LINE", "PING_EVERY", "parse_address"]

#: The longest line the client reads from the host (a state holds the whole game's moves).
MAX_HOST_LINE = 1 << 20
#: Seconds between pings while the client has nothing else to send.
PING_EVERY = 10.0
#: Seconds close() waits for the reader thread to let go of the socket before closing it.
CLOSE_WAIT = 2.0


class ConnectError(OSError):
    """The host could not be reached or refused us: one line."""


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) as a pair; :class:`ValueError` in one line otherwise."""
    host, sep, port = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"bad address {text[:60]!r}: expected HOST:PORT, e.g. 127.0.0.1:7777")
    return host, int(port)


class Client:
    """A connection to the host at ``address`` with ``code`` as ``role`` (``play`` or ``watch``)."""

    def __init__(self, address: tuple[str, int], code: str, role: str = "play", *,
                 on_message: Callable[[dict[str, Any]], None] | None = None,
                 on_closed: Callable[[str], None] | None = None, tls: bool = False,
                 fingerprint: str | None = None) -> None:
        self.address = address
        #: TLS: whether to use it, the host's fingerprint expected (``None``: any) and the one got.
        self.tls = tls
        self.expected = fingerprint
        self.fingerprint: str | None = None
        self.code = code
        self.role = role
        self.on_message = on_message
        self.on_closed = on_closed
        #: The last state the host sent.
        self.state: dict[str, Any] = {}
        self.closed = threading.Event()
        self.close_reason = ""
        self._socket: socket.socket | None = None
        self._buffer = b""
        self._seq = 0
        self._lock = threading.Lock()
        self._sent_at = 0.0
        self._thread: threading.Thread | None = None

    # -- connecting -------------------------------------------------------------------------------

    def connect(self, timeout: float = 10.0) -> dict[str, Any]:
        """Say hello and return the first state; :class:`ConnectError` (one line) if refused."""
        try:
            sock = socket.create_connection(self.address, timeout=timeout)
        except OSError as error:
            raise ConnectError(f"cannot reach {self.address[0]}:{self.address[1]}: "
                               f"{error.strerror or error}") from None
        if self.tls:
            try:
                sock = client_context().wrap_socket(sock)
                der = sock.getpeercert(binary_form=True) or b""
            except (OSError, ValueError) as error:
                sock.close()
                raise ConnectError(f"no TLS with {self.address[0]}:{self.address[1]}: {error}") from None
            self.fingerprint = fingerprint_of(der)
            try:
                check_fingerprint(self.fingerprint, self.expected)
            except TlsError as error:
                sock.close()
                raise ConnectError(str(error)) from None
        self._socket = sock
        self._write({"type": "hello", "v": VERSION, "code": self.code, "role": self.role})
        deadline = time.monotonic() + timeout
        while not self.state:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                message = self._read()
            except (OSError, ValueError) as error:
                sock.close()
                raise ConnectError(f"the host did not answer: {error}") from None
            if message is None or message["type"] in ("error", "bye"):
                sock.close()
                reason = "closed the connection" if message is None else str(message.get("reason"))[:200]
                raise ConnectError(f"the host refused: {reason}")
            if message["type"] == "state":
                self.state = message
        self._seq = int(self.state.get("seq") or 0)
        sock.settimeout(1.0)  # the reader wakes up each second to ping when nothing was sent for a while
        self._thread = threading.Thread(target=self._reader, name="tui-games client", daemon=True)
        self._thread.start()
        return self.state

    def close(self) -> None:
        """Close the connection (the reader thread ends)."""
        self.closed.set()
        if self._socket is not None:
            try:
                self._socket.shutdown(socket.SHUT_RDWR)  # the reader's recv returns: end of the line
            except OSError:
                pass
            # Close only once the reader has let go of the socket: a thread still inside recv
            # holds the descriptor's number, and a connection opened next may be given the same
            # number -- the old reader would then read the new connection's TLS handshake.
            thread = getattr(self, "_thread", None)
            if thread is not None and thread is not threading.current_thread():
                thread.join(CLOSE_WAIT)
            self._socket.close()

    # -- sending ----------------------------------------------------------------------------------

    def send(self, kind: str, **fields: Any) -> None:
        """Send ``kind`` with ``fields``, numbered and stamped with the last state's ply."""
        with self._lock:
            self._seq += 1
            message = {"type": kind, "seq": self._seq, "ply": self.state.get("ply", 0), **fields}
        self._write(message)

    def move(self, text: str) -> None:
        self.send("move", move=text)

    def _write(self, message: dict[str, Any]) -> None:
        if self._socket is None or self.closed.is_set():
            return
        try:
            with self._lock:
                self._socket.sendall(encode(message))
                self._sent_at = time.monotonic()
        except OSError:
            self._end("the connection dropped")

    # -- reading ----------------------------------------------------------------------------------

    def _read(self) -> dict[str, Any] | None:
        """The host's next message (``None``: it closed); ValueError for a bad line."""
        assert self._socket is not None
        while b"\n" not in self._buffer:
            if len(self._buffer) > MAX_HOST_LINE:
                raise ValueError("the host sent a line too long")
            chunk = self._socket.recv(65536)
            if not chunk:
                return None
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        message = json.loads(line.decode("utf-8"))
        if not isinstance(message, dict) or message.get("type") not in HOST_TYPES:
            raise ValueError("the host sent a message of no known type")
        return message

    def _reader(self) -> None:
        assert self._socket is not None
        while not self.closed.is_set():
            try:
                message = self._read()
            except socket.timeout:
                if time.monotonic() - self._sent_at > PING_EVERY:
                    self._write({"type": "ping"})
                continue
            except (OSError, ValueError, UnicodeDecodeError) as error:
                self._end(f"the connection dropped ({error})" if not self.closed.is_set() else "closed")
                return
            if message is None:
                self._end("the host closed the connection")
                return
            if message["type"] == "bye":
                self._end(f"the host closed the connection: {str(message.get('reason'))[:200]}")
                return
            if message["type"] == "state":
                self.state = message
            if self.on_message is not None:
                self.on_message(message)

    def _end(self, reason: str) -> None:
        if self.closed.is_set():
            return
        self.close_reason = reason
        self.closed.set()
        if self._socket is not None:
            self._socket.close()
        if self.on_closed is not None:
            self.on_closed(reason)
