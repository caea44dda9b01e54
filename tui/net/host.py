"""The host: a :class:`~.referee.Referee` served on a TCP socket, in a thread of its own (asyncio).

:class:`HostServer` listens on 127.0.0.1 (all interfaces only with ``public=True``) and takes two kinds
of peer: the guest player, with the join code, and spectators, with the watch code.  A connection's
first line must be a ``hello`` naming the protocol's version and the right code (compared with
:func:`hmac.compare_digest`); anything else is answered with one ``error`` line and the connection is
closed.  After it, each line is read by :func:`.protocol.decode` and handed to the referee; a refusal is
an ``error`` line to that peer alone, and every change sends each peer the new ``state``.  The bounds
(:class:`Bounds`): the line's size, the messages per second, the time a peer may stay silent, the time
to say the whole hello (one deadline, however slowly its bytes come), the connections still to say hello
(in all and from one address: a new one pushes out the oldest that has had time to say it, so a crowd
of slow connections never keeps the real guest out), the spectators, what may wait unsent for a slow reader.  The host's
own player acts through :meth:`HostServer.act`, the same referee path as the guest's messages, and
hears every change through ``on_change``.
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
import ssl
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from .protocol import AIDS_ASKED, ENDED, MAX_LINE, VERSION, ProtocolError, decode, encode
from .referee import GUEST, HOST, Referee, RefereeError

__all__ = ["Bounds", "HostServer", "new_code"]


def new_code() -> str:
    """A join code: 10 random characters of an unambiguous alphabet (about 50 bits)."""
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(10))


@dataclass(frozen=True)
class Bounds:
    """What the host allows a connection."""

    #: Messages a second, on average, and in a burst; beyond, each is refused, and after
    #: ``strikes`` refusals for the rate the connection is closed.
    rate: float = 20.0
    burst: int = 40
    strikes: int = 200
    #: Seconds a connection may send nothing (the client pings well within it).
    idle: float = 60.0
    #: Seconds a new connection has to send its whole hello (a TLS handshake has as long again).
    hello: float = 5.0
    #: Spectators at once (the guest's seat is never refused for them).
    connections: int = 32
    #: Connections still to say hello, in all and from one address: beyond, a new one closes the oldest
    #: that has waited ``grace`` seconds (a younger one is never pushed out: its hello is on its way);
    #: with none that old, the new one comes in over the bound, up to ``pending_hard`` in all.
    pending: int = 16
    pending_per_address: int = 4
    grace: float = 0.25
    pending_hard: int = 256
    #: Bytes that may wait unsent for a peer that does not read; beyond, it is closed.
    backlog: int = 1 << 20


@dataclass
class _Peer:
    writer: asyncio.StreamWriter
    address: str = ""
    since: float = 0.0  # when it connected
    seat: int | None = None  # None: a spectator
    tokens: float = 0.0
    stamp: float = 0.0
    strikes: int = 0
    closed: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


class HostServer:
    """Serve ``referee`` (see the module doc); :meth:`start` binds and returns the port."""

    def __init__(self, referee: Referee, *, port: int = 0, public: bool = False, code: str | None = None,
                 watch_code: str | None = None, bounds: Bounds = Bounds(),
                 on_change: Callable[[dict[str, Any]], None] | None = None,
                 tls: ssl.SSLContext | None = None) -> None:
        self.referee = referee
        #: The TLS context (``None``: plain TCP).
        self.tls = tls
        self.port = port
        self.bind = "0.0.0.0" if public else "127.0.0.1"
        self.code = code or new_code()
        self.watch_code = watch_code or new_code()
        self.bounds = bounds
        self.on_change = on_change
        self.peers: list[_Peer] = []
        #: Counts for the record: lines read, refused, connections refused.
        self.counts = {"lines": 0, "errors": 0, "refused": 0}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.base_events.Server | None = None
        self._thread: threading.Thread | None = None
        self._host_seq = 0

    # -- running ----------------------------------------------------------------------------

    def start(self) -> int:
        """Bind and serve in a daemon thread (it ends with the process); the port bound."""
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            try:
                self._server = loop.run_until_complete(
                    asyncio.start_server(self._serve, self.bind, self.port, limit=MAX_LINE * 2, ssl=self.tls,
                                         ssl_handshake_timeout=self.bounds.hello if self.tls else None))
                self.port = self._server.sockets[0].getsockname()[1]
                ticker = loop.create_task(self._tick())
            except BaseException as error:  # the port is taken, say: the caller says it
                failure.append(error)
                ready.set()
                loop.close()
                return
            ready.set()
            try:
                loop.run_forever()
            finally:
                ticker.cancel()
                tasks = asyncio.all_tasks(loop)
                for task in tasks:
                    task.cancel()
                loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
                loop.close()

        self._thread = threading.Thread(target=run, name="tui-games host", daemon=True)
        self._thread.start()
        ready.wait()
        if failure:
            raise failure[0]
        return self.port

    def stop(self) -> None:
        """End the game: every peer is told so (a ``bye`` whose reason starts with :data:`.protocol.ENDED`,
        so a guest does not join again), the connections and the listening socket close; the thread ends."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return

        async def close() -> None:
            if self._server is not None:
                self._server.close()
            peers = list(self.peers)
            for peer in peers:
                self._close(peer, f"{ENDED} the host ended the game")
            # the byes are on their way before the loop stops (a peer that does not read is not waited for)
            if peers:
                await asyncio.wait([asyncio.ensure_future(peer.writer.wait_closed()) for peer in peers], timeout=1.0)
            loop.stop()

        try:
            asyncio.run_coroutine_threadsafe(close(), loop)
        except RuntimeError:  # already closed
            return
        if self._thread is not None:
            self._thread.join(5)

    def _call(self, function: Callable[[], Any]) -> Any:
        """Run ``function`` on the server's loop and return its result (from any other thread)."""
        assert self._loop is not None

        async def call() -> Any:
            return function()

        return asyncio.run_coroutine_threadsafe(call(), self._loop).result(10)

    # -- the host's own player ------------------------------------------------------------------

    def act(self, kind: str, **fields: Any) -> str | None:
        """The host's player does ``kind`` (``move``, ``offer``, ``answer``, ``resign``) at the game's
        current ply; the one-line refusal, or ``None`` when it was done."""

        def run() -> str | None:
            self._host_seq += 1
            message = {"type": kind, "seq": self._host_seq, "ply": self.referee.game.ply, **fields}
            try:
                self.referee.handle(HOST, message)
            except RefereeError as error:
                return str(error)
            self._broadcast()
            return None

        return self._call(run)

    def state(self) -> dict[str, Any]:
        """The game as the host's seat sees it now."""
        return self._call(lambda: self.referee.state(HOST))

    def guest_present(self) -> bool:
        return self._call(lambda: self.referee.present[GUEST])

    def reissue(self) -> str:
        """A new join code for the guest's seat (the old one no longer works); refused while the
        guest is connected, as :class:`RuntimeError`."""

        def run() -> str:
            if self.referee.present[GUEST]:
                raise RuntimeError("the guest is connected")
            self.code = new_code()
            return self.code

        return self._call(run)

    # -- the peers ------------------------------------------------------------------------------

    def _send(self, peer: _Peer, message: dict[str, Any]) -> None:
        if peer.closed:
            return
        transport = peer.writer.transport
        if transport.get_write_buffer_size() > self.bounds.backlog:
            self._close(peer, None)
            return
        peer.writer.write(encode(message))

    def _close(self, peer: _Peer, reason: str | None) -> None:
        if peer.closed:
            return
        if reason is not None:
            peer.writer.write(encode({"type": "bye", "reason": reason}))
        peer.closed = True
        peer.writer.close()
        if peer in self.peers:
            self.peers.remove(peer)
        if peer.seat == GUEST and self.referee.present[GUEST]:
            self.referee.connected(GUEST, False)
            self._broadcast()

    def _broadcast(self) -> None:
        for peer in list(self.peers):
            if peer.extra.get("welcomed"):
                self._send(peer, self.referee.state(peer.seat))
        if self.on_change is not None:
            self.on_change(self.referee.state(HOST))

    def _refuse(self, peer: _Peer, reason: str) -> None:
        self.counts["errors"] += 1
        self._send(peer, {"type": "error", "reason": reason})

    async def _tick(self) -> None:
        """End a game on time as soon as a flag falls or a player has been away too long, and tell
        everyone once the game may be claimed."""
        claimable = False
        while True:
            await asyncio.sleep(0.1)
            if self.referee.check_time() or self.referee.claimable() != claimable:
                claimable = self.referee.claimable()
                self._broadcast()

    async def _lines(self, reader: asyncio.StreamReader, peer: _Peer):
        """The peer's lines, each at most MAX_LINE bytes; an oversized one is refused and skipped
        (to its newline); ends when the peer closes, has not said its whole hello within
        :attr:`Bounds.hello` of connecting, or once welcomed is silent for :attr:`Bounds.idle`."""
        buffer = b""
        skipping = False
        while not peer.closed:
            welcomed = peer.extra.get("welcomed")
            timeout = self.bounds.idle if welcomed else peer.since + self.bounds.hello - time.monotonic()
            try:
                chunk = await asyncio.wait_for(reader.read(MAX_LINE), max(0.0, timeout))
            except (asyncio.TimeoutError, ConnectionError):
                if not peer.closed:
                    self._close(peer, "idle: nothing received for too long" if welcomed
                                else f"too slow: say hello within {self.bounds.hello:g} s")
                return
            if not chunk:
                return
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                if skipping:
                    skipping = False
                    continue
                if len(line) + 1 > MAX_LINE:
                    if self._too_long(peer):
                        return
                    continue
                yield line
            if len(buffer) > MAX_LINE:
                if not skipping and self._too_long(peer):
                    return
                skipping = True
                buffer = b""

    def _too_long(self, peer: _Peer) -> bool:
        """Refuse a line over the bound; before the hello, that closes the connection (whether it did)."""
        self._refuse(peer, f"line too long: at most {MAX_LINE} bytes")
        if peer.extra.get("welcomed"):
            return False
        self.counts["refused"] += 1
        self._close(peer, None)
        return True

    def _make_room(self, address: str) -> bool:
        """Make a place for a new connection from ``address`` among those still to say hello (see
        :class:`Bounds`); whether it may come in."""
        now = time.monotonic()
        waiting = [peer for peer in self.peers if not peer.extra.get("welcomed")]
        if len(waiting) >= self.bounds.pending_hard:
            return False
        mine = [peer for peer in waiting if peer.address == address]
        for crowd, bound in ((mine, self.bounds.pending_per_address), (waiting, self.bounds.pending)):
            if len(crowd) >= bound:
                old = [peer for peer in crowd if now - peer.since >= self.bounds.grace]
                if old:
                    self.counts["refused"] += 1
                    self._close(min(old, key=lambda peer: peer.since), "too slow: another connection needs the place")
                return True
        return True

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        where = writer.get_extra_info("peername")
        peer = _Peer(writer, address=str(where[0]) if isinstance(where, tuple) else "", since=time.monotonic())
        if not self._make_room(peer.address):
            self.counts["refused"] += 1
            writer.write(encode({"type": "bye", "reason": "too many connections waiting to say hello"}))
            writer.close()
            return
        self.peers.append(peer)
        try:
            first = True
            async for line in self._lines(reader, peer):
                self.counts["lines"] += 1
                if first:
                    first = False
                    if not self._hello(peer, line):
                        self.counts["refused"] += 1
                        self._close(peer, None)
                        return
                    continue
                if self._over_rate(peer):
                    continue
                try:
                    message = decode(line)
                    if message["type"] == "hello":
                        raise ProtocolError("hello: already said")
                    if peer.seat is None and message["type"] != "ping":
                        raise RefereeError(f"{message['type']}: spectators only watch")
                    if peer.seat is not None:
                        self.referee.handle(peer.seat, message)
                except (ProtocolError, RefereeError) as error:
                    self._refuse(peer, str(error))
                    continue
                if message["type"] != "ping":
                    self._broadcast()
        except asyncio.CancelledError:  # the host stops: the connection ends quietly
            return
        except Exception as error:  # never let one connection end the host  # noqa: BLE001
            self._refuse(peer, f"internal error: {type(error).__name__}")
        finally:
            self._close(peer, None)

    def _over_rate(self, peer: _Peer) -> bool:
        """Whether this line is over the peer's rate (refused; too many such and it is closed)."""
        now = time.monotonic()
        peer.tokens = min(self.bounds.burst, peer.tokens + (now - peer.stamp) * self.bounds.rate)
        peer.stamp = now
        if peer.tokens >= 1:
            peer.tokens -= 1
            return False
        peer.strikes += 1
        if peer.strikes > self.bounds.strikes:
            self._close(peer, "too many messages")
        else:
            self._refuse(peer, f"too many messages: at most {self.bounds.rate:g} a second")
        return True

    def _hello(self, peer: _Peer, line: bytes) -> bool:
        """Check the first line; welcome the peer, or answer one error line (the caller closes)."""
        try:
            message = decode(line)
        except ProtocolError as error:
            self._refuse(peer, f"expected hello: {error}")
            return False
        if message["type"] != "hello":
            self._refuse(peer, "expected hello first")
            return False
        if message["v"] != VERSION:
            self._refuse(peer, f"protocol version {VERSION} only")
            return False
        code = message["code"].encode("utf-8")
        role = message["role"]
        if role == "play" and hmac.compare_digest(code, self.code.encode("utf-8")):
            if self.referee.present[GUEST]:
                self._refuse(peer, "the guest's seat is taken")
                return False
            if self.referee.aids and not message["aids"]:  # asked first: the seat is not taken without it
                self._refuse(peer, AIDS_ASKED)
                return False
            peer.seat = GUEST
        elif role == "watch" and hmac.compare_digest(code, self.watch_code.encode("utf-8")):
            watching = sum(1 for other in self.peers if other.extra.get("welcomed") and other.seat is None)
            if watching >= self.bounds.connections:
                self._refuse(peer, "too many connections: no room for another spectator")
                return False
            peer.seat = None
        else:
            self._refuse(peer, "wrong code")
            return False
        peer.tokens, peer.stamp = float(self.bounds.burst), time.monotonic()
        peer.extra["welcomed"] = True
        self._send(peer, {"type": "welcome", "v": VERSION, "role": role})
        if peer.seat == GUEST:
            self.referee.connected(GUEST, True)
            self._broadcast()
        else:
            self._send(peer, self.referee.state(None))
        return True
