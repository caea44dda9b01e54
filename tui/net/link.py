"""One face for both ends of a network game: :class:`HostLink` (the referee is here) and
:class:`GuestLink` (it is over the socket), so the app's remote player does not ask which it has.

Each link calls ``listener`` (set with :meth:`Link.listen`) from its own thread with ``("state",
state)``, ``("error", reason)``, ``("closed", reason)`` (the line dropped: the guest joins again) or
``("broken", reason)`` (the host broke the protocol: the guest does not join it again) or ``("ended",
reason)`` (the host ended the game: nor then); the app posts these on as messages.  Every ``reason``
and state a guest's link hears has been checked
(:mod:`.client`): the words are plain text, never markup.
"""

from __future__ import annotations

import ssl
import time
from typing import Any, Callable

from games.clock import TimeControl

from .client import Client
from .host import HostServer
from .referee import ABANDON_AFTER, Referee
from .tls import host_context

__all__ = ["Link", "HostLink", "GuestLink", "Listener"]

Listener = Callable[[str, Any], None]


class Link:
    """What the app's remote player needs of either end."""

    #: Whether this end can play (a spectator cannot).
    plays = True
    #: Whether this end hosts the game (the referee is here).
    hosts = False
    #: The lines that tell the user where the game is (the address, the codes).
    where: tuple[str, ...] = ()

    def __init__(self) -> None:
        self._listener: Listener | None = None

    def listen(self, listener: Listener | None) -> None:
        self._listener = listener

    def _hear(self, kind: str, value: Any) -> None:
        if self._listener is not None:
            self._listener(kind, value)

    def state(self) -> dict[str, Any]:
        raise NotImplementedError

    def act(self, kind: str, **fields: Any) -> None:
        """Do ``kind`` (a move, an offer, an answer, resign); a refusal comes as an ``error``."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class HostLink(Link):
    """The host's end: the referee served on ``port`` (see :class:`HostServer`); ``aids``: the engine
    aids are allowed in this game (a guest joins only if it agrees)."""

    hosts = True

    def __init__(self, game: str, position: str | None = None, *, host_side: int = 0,
                 control: TimeControl | None = None, port: int = 0, public: bool = False,
                 tls: bool = False, abandon: float = ABANDON_AFTER, aids: bool = False) -> None:
        super().__init__()
        context: ssl.SSLContext | None = None
        #: The certificate's fingerprint, shown on both sides (``None``: no TLS).
        self.fingerprint: str | None = None
        if tls:
            context, self.fingerprint = host_context()
        self.server = HostServer(Referee(game, position, host_side=host_side, control=control,
                                         now=time.monotonic, abandon=abandon, aids=aids),
                                 port=port, public=public, on_change=lambda state: self._hear("state", state),
                                 tls=context)
        self.server.start()
        shown = "every interface" if public else "127.0.0.1"
        at = f"THIS-MACHINE:{self.server.port}" if public else f"127.0.0.1:{self.server.port}"
        flag = " --tls" if tls else ""
        self.where = (f"hosting on {shown} port {self.server.port}{' with TLS' if tls else ''}",
                      f"join: tui-games join {at} {self.server.code}{flag}",
                      f"watch: tui-games join {at} {self.server.watch_code} --watch{flag}",
                      *(("engine aids allowed: your friend is asked to agree as it joins",) if aids else ()),
                      *((f"fingerprint: {self.fingerprint}",) if self.fingerprint else ()))

    @property
    def address(self) -> str:
        return f"{self.server.bind}:{self.server.port}"

    def state(self) -> dict[str, Any]:
        return self.server.state()

    def act(self, kind: str, **fields: Any) -> None:
        refusal = self.server.act(kind, **fields)
        if refusal is not None:
            self._hear("error", refusal)

    def close(self) -> None:
        self.server.stop()


class GuestLink(Link):
    """The guest's (or a spectator's) end: a client connected to ``address`` with ``code``; ``aids``: the
    guest agrees to the engine aids if the host allows them (else :class:`~.client.AidsAsked`)."""

    def __init__(self, address: tuple[str, int], code: str, *, watch: bool = False, timeout: float = 10.0,
                 tls: bool = False, fingerprint: str | None = None, aids: bool = False) -> None:
        super().__init__()
        self.address = address
        self.code = code
        self.aids = aids
        self.plays = not watch
        self.tls = tls
        #: The host's fingerprint: the one given (checked), then the one got (a reconnection checks it).
        self.fingerprint = fingerprint
        self.client = self._connect(timeout)
        self.fingerprint = self.client.fingerprint
        self.where = (f"{'watching' if watch else 'playing'} at {address[0]}:{address[1]}",
                      *((f"host's fingerprint: {self.fingerprint}",) if self.fingerprint else ()))

    def _connect(self, timeout: float) -> Client:
        client = Client(self.address, self.code, "play" if self.plays else "watch",
                        on_message=self._message, tls=self.tls, fingerprint=self.fingerprint, aids=self.aids)
        client.on_closed = lambda reason: self._hear(
            "broken" if client.broken else "ended" if client.ended else "closed", reason)
        client.connect(timeout)
        return client

    def _message(self, message: dict[str, Any]) -> None:
        if message["type"] in ("state", "error"):
            self._hear(message["type"], message if message["type"] == "state" else message["reason"])

    def reconnect(self, timeout: float = 10.0) -> None:
        """Join again with the same code after the line dropped (:class:`ConnectError` if refused)."""
        self.client.close()
        self.client = self._connect(timeout)
        self._hear("state", self.client.state)

    def state(self) -> dict[str, Any]:
        return self.client.state

    def act(self, kind: str, **fields: Any) -> None:
        self.client.send(kind, **fields)

    def close(self) -> None:
        self.client.close()
