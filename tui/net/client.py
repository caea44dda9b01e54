"""The client: a player's or a spectator's connection to a host (a socket and a reader thread).

:meth:`Client.connect` says hello with the code, waits for the welcome and the first state, and then
reads the host's lines in a daemon thread, calling ``on_message`` with each (from that thread: the app
posts it on as a Textual message).  :meth:`Client.send` numbers each message (``seq``, going on from
the number the host last saw of this seat, so a reconnected client continues it) and stamps it with
the ply of the last state, so the host refuses it if the game has moved meanwhile.  The client pings
the host when it has sent nothing for a while, so a quiet game is not closed as idle.

The host is trusted no more than a guest.  Each line is checked by :func:`.protocol.decode_host`
(size, depth, types, ranges) and each state by :class:`.trust.StateCheck` (the game known, the moves
legal); one deadline covers the whole handshake (the connection, TLS, the hello, the first state) and
another each message once its first byte has come.  A host that breaks any of this is
:class:`HostBroke` while connecting, and afterwards ends the connection with ``on_closed`` and
:attr:`Client.broken` set: the guest does not join it again.  Whatever ends the reader thread ends the
connection, with its reason.  A host that ends the game (it quit) says a ``bye`` whose reason starts
with :data:`.protocol.ENDED`: the connection ends with :attr:`Client.ended` set, and is not joined again
either.  A guest's hello says whether it agrees to the engine aids (``aids``); a host that allows them
refuses a guest that does not with :data:`.protocol.AIDS_ASKED`, raised as :class:`AidsAsked`.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Any, Callable

from .protocol import AIDS_ASKED, ENDED, MAX_HOST_LINE, VERSION, ProtocolError, decode_host, encode
from .tls import TlsError, check_fingerprint, client_context, fingerprint as fingerprint_of
from .trust import StateCheck

__all__ = ["AidsAsked", "Client", "ConnectError", "HostBroke", "NobodyListens", "MAX_HOST_LINE", "MESSAGE_DEADLINE", "PING_EVERY",
           "parse_address"]

#: Seconds a host has to finish a message once its first byte has come.
MESSAGE_DEADLINE = 10.0
#: Seconds between pings while the client has nothing else to send.
PING_EVERY = 10.0
#: Seconds close() waits for the reader thread to let go of the socket before closing it.
CLOSE_WAIT = 2.0


class ConnectError(OSError):
    """The host could not be reached or refused us: one line."""


class HostBroke(ConnectError):
    """The host broke the protocol (a message out of shape, a state the rules refuse, too slow)."""


class NobodyListens(ConnectError):
    """The host's machine answered that nothing listens at the address: the host's process is gone
    (a lost network does not answer at all)."""


class AidsAsked(ConnectError):
    """The host allows engine aids in this game and the guest has not agreed to them: it may join
    again agreeing (``aids=True``), or leave.  Its seat was not taken."""


class _Watchdog:
    """Shuts the socket down when ``seconds`` have passed, whatever it is doing (a TLS handshake or a
    read fed one byte at a time): the deadline of the whole handshake."""

    def __init__(self, sock: socket.socket, seconds: float) -> None:
        self.sock = sock
        self.expired = False
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True
        self._timer.start()

    def _expire(self) -> None:
        self.expired = True
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def cancel(self) -> None:
        self._timer.cancel()


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) as a pair; :class:`ValueError` in one line otherwise."""
    host, sep, port = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"bad address {text[:60]!r}: expected HOST:PORT, e.g. 127.0.0.1:7777")
    return host, int(port)


class Client:
    """A connection to the host at ``address`` with ``code`` as ``role`` (``play`` or ``watch``);
    ``aids``: the guest agrees to the engine aids if the host allows them."""

    def __init__(self, address: tuple[str, int], code: str, role: str = "play", *,
                 on_message: Callable[[dict[str, Any]], None] | None = None,
                 on_closed: Callable[[str], None] | None = None, tls: bool = False,
                 fingerprint: str | None = None, aids: bool = False) -> None:
        self.address = address
        self.aids = aids
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
        self._check = StateCheck(role)
        #: When the message being read began to arrive (``None``: between messages).
        self._begun: float | None = None
        #: Whether the connection ended because the host broke the protocol (it is not joined again).
        self.broken = False
        #: Whether the connection ended because the host ended the game (it is not joined again).
        self.ended = False

    # -- connecting -------------------------------------------------------------------------------

    def connect(self, timeout: float = 10.0) -> dict[str, Any]:
        """Say hello and return the first state, all within ``timeout`` seconds; :class:`ConnectError`
        (one line) if refused or unreachable, :class:`HostBroke` if the host broke the protocol."""
        where = f"{self.address[0]}:{self.address[1]}"
        deadline = time.monotonic() + timeout
        try:
            sock = socket.create_connection(self.address, timeout=timeout)
        except ConnectionRefusedError as error:
            raise NobodyListens(f"cannot reach {where}: {error.strerror or error}") from None
        except OSError as error:
            raise ConnectError(f"cannot reach {where}: {error.strerror or error}") from None
        watchdog = _Watchdog(sock, max(0.0, deadline - time.monotonic()))  # what the connection left
        try:
            sock = self._handshake(sock, watchdog)
        except ConnectError:
            sock.close()
            raise
        except ProtocolError as error:
            sock.close()
            raise HostBroke(f"the host broke the protocol: {error}") from None
        except (OSError, ValueError) as error:
            sock.close()
            if watchdog.expired or isinstance(error, TimeoutError):
                raise HostBroke(f"the host did not finish its welcome within {timeout:g} s") from None
            raise ConnectError(f"the host did not answer: {error}") from None
        finally:
            watchdog.cancel()
        self._seq = int(self.state.get("seq") or 0)
        sock.settimeout(1.0)  # the reader wakes up each second to ping when nothing was sent for a while
        self._thread = threading.Thread(target=self._reader, name="tui-games client", daemon=True)
        self._thread.start()
        return self.state

    def _handshake(self, sock: socket.socket, watchdog: _Watchdog) -> socket.socket:
        """TLS if asked, the hello, the welcome and the first state: the connected socket."""
        if self.tls:
            try:
                sock = client_context().wrap_socket(sock)
                watchdog.sock = sock
                der = sock.getpeercert(binary_form=True) or b""
            except (OSError, ValueError) as error:
                sock.close()
                reason = "too slow" if watchdog.expired else str(error)
                raise ConnectError(f"no TLS with {self.address[0]}:{self.address[1]}: {reason}") from None
            self.fingerprint = fingerprint_of(der)
            try:
                check_fingerprint(self.fingerprint, self.expected)
            except TlsError as error:
                sock.close()
                raise ConnectError(str(error)) from None
        self._socket = sock
        self._write({"type": "hello", "v": VERSION, "code": self.code, "role": self.role, "aids": self.aids})
        welcomed = False
        while not self.state:
            message = self._read()
            if message is None and watchdog.expired:  # the watchdog shut the socket: the time ran out
                raise TimeoutError("the handshake's time ran out")
            if message is not None and message["type"] == "error" and message["reason"] == AIDS_ASKED:
                raise AidsAsked("the host allows engine aids in this game (hints, analysis, the engine panel, "
                                "for both players)")
            if message is None or message["type"] in ("error", "bye"):
                reason = "closed the connection" if message is None else message["reason"]
                raise ConnectError(f"the host refused: {_plain(reason)}")
            if message["type"] == "welcome":
                if message["role"] != self.role:
                    raise ProtocolError(f"welcome: the role {message['role']}, not {self.role}")
                welcomed = True
            elif message["type"] == "state":
                if not welcomed:
                    raise ProtocolError("a state before the welcome")
                self.state = message
        return sock

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
        """The host's next message, checked (``None``: it closed); :class:`ProtocolError` for a line
        out of shape, a state the rules refuse, or a message not whole :data:`MESSAGE_DEADLINE` after
        its first byte (the handshake's own deadline is the watchdog's)."""
        assert self._socket is not None
        while b"\n" not in self._buffer:
            now = time.monotonic()
            if self._begun is None and self._buffer:
                self._begun = now
            if self._begun is not None and now - self._begun > MESSAGE_DEADLINE:
                raise ProtocolError(f"a message took more than {MESSAGE_DEADLINE:g} s to arrive")
            if len(self._buffer) > MAX_HOST_LINE:
                raise ProtocolError(f"line too long: at most {MAX_HOST_LINE} bytes")
            chunk = self._socket.recv(65536)
            if not chunk:
                return None
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        self._begun = time.monotonic() if self._buffer else None
        message = decode_host(line)
        if message["type"] == "state":
            self._check.check(message)
        return message

    def _reader(self) -> None:
        """The reader thread: each message to ``on_message``; anything that ends it ends the connection."""
        try:
            self._read_on()
        except ProtocolError as error:
            self.broken = True
            self._end(f"the host broke the protocol: {error}")
        except Exception as error:  # noqa: BLE001 -- the thread's death is the connection's end
            self._end(f"the connection failed: {type(error).__name__}: {str(error)[:200]}")

    def _read_on(self) -> None:
        assert self._socket is not None
        while not self.closed.is_set():
            try:
                message = self._read()
            except socket.timeout:
                if time.monotonic() - self._sent_at > PING_EVERY:
                    self._write({"type": "ping"})
                continue
            except OSError as error:
                self._end(f"the connection dropped ({error})" if not self.closed.is_set() else "closed")
                return
            if message is None:
                self._end("the host closed the connection")
                return
            if message["type"] == "bye":
                if message["reason"].startswith(ENDED):
                    self.ended = True
                    self._end("the host ended the game")
                else:
                    self._end(f"the host closed the connection: {_plain(message['reason'])}")
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


def _plain(text: str) -> str:
    """A peer's words made one printable line (control characters dropped, at most 200 characters)."""
    return "".join(c if c.isprintable() else " " for c in text[:200]).strip()
