"""``tui-games serve``'s web server: textual-serve's, for its owner only.

textual-serve (:class:`textual_serve.server.Server`) starts an app process for each websocket a
browser tab opens.  :class:`OwnerServer` keeps its pages, assets and protocol, and puts a guard in
front of them (aiohttp middleware and two small overrides):

- every request carries the secret: ``?token=…`` in the address the server prints, or the cookie the
  page's first request sets (HttpOnly, SameSite=Strict, Secure over TLS), which the page's assets, its
  websocket and its downloads then carry.  Else 403, and no process starts.  The secret is compared in
  constant time;
- the request's ``Host`` is the one the server prints, or on loopback another name of loopback
  (``localhost``, ``127.0.0.1``, ``[::1]``, whose page is sent on to the printed one): a page at
  another name, such as a DNS name rebound to 127.0.0.1, is refused.  A request's ``Origin``, when
  one is sent, is the server's own (``scheme://host:port``, those hosts): a page elsewhere cannot
  open a websocket, even in the owner's browser;
- at most ``max_sessions`` apps run at once: the next websocket is told so on its terminal and
  closed (1013, try again later), and the page itself answers 503 while they are all taken;
- a session whose browser has sent nothing (no key, click or resize) for ``idle`` seconds is told so
  and closed, which ends its app.

Its page is textual-serve's without links to other hosts (:mod:`tui.web_page`): it works offline.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import secrets
import ssl
import time
from typing import Any, Awaitable, Callable

import aiohttp_jinja2
from aiohttp import WSCloseCode, WSMessage, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from .web_page import OfflineLoader

__all__ = ["OwnerServer", "is_loopback", "new_token", "TOKEN_BYTES"]

#: Random bytes in the secret (192 bits).
TOKEN_BYTES = 24
#: Seconds between two looks at a session's idleness, at most.
IDLE_CHECK = 30.0
#: The names of the loopback interface a browser may use for a server on it.
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def new_token() -> str:
    """A fresh secret for the served address (URL-safe text)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) is this machine's loopback interface."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def url_host(host: str) -> str:
    """``host`` as it goes into a URL (an IPv6 address in brackets)."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


class _Timed:
    """A websocket whose incoming messages are timed (:attr:`last`); everything else is the socket's."""

    def __init__(self, websocket: web.WebSocketResponse) -> None:
        self.websocket = websocket
        #: When the browser last sent a message (time.monotonic).
        self.last = time.monotonic()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.websocket, name)

    def __aiter__(self) -> _Timed:
        return self

    async def __anext__(self) -> WSMessage:
        message = await self.websocket.__anext__()
        self.last = time.monotonic()
        return message


class OwnerServer(Server):
    """textual-serve's server with a secret, an Origin check, a cap on apps and an idle limit."""

    def __init__(self, command: str, *, host: str, port: int, name: str, token: str, max_sessions: int,
                 idle: float, ssl_context: ssl.SSLContext | None = None, title: str = "tui-games") -> None:
        """``host``: the interface listened on; ``name``: the host the address printed names (the one
        the browser must use); ``idle``: seconds a session may stay silent."""
        scheme = "https" if ssl_context else "http"
        origin = f"{scheme}://{url_host(name)}:{port}"
        super().__init__(command, host=host, port=port, title=title, public_url=origin)
        self.origin = origin
        default = 443 if ssl_context else 80
        #: The Host headers of the address printed (a browser leaves out a default port).
        self.printed = {f"{url_host(name)}:{port}".lower()} | ({url_host(name).lower()} if port == default else set())
        names = {name, *(LOOPBACK_NAMES if is_loopback(name) else ())}
        #: The Host headers answered.
        self.hosts = {f"{url_host(each)}:{port}".lower() for each in names}
        self.hosts |= {url_host(each).lower() for each in names} if port == default else set()
        #: The origins whose pages may use the server.
        self.origins = {f"{scheme}://{each}" for each in self.hosts}
        self.token = token
        self.cookie = f"tui-games-{port}"  # a cookie is shared by every port of a host: one name each
        self.max_sessions = max_sessions
        self.idle = idle
        self.ssl_context = ssl_context
        #: Websockets whose app runs now.
        self.sessions = 0

    @property
    def url(self) -> str:
        """The address to open: the server's, with the secret."""
        return f"{self.origin}/?token={self.token}"

    def _has_secret(self, request: web.Request) -> bool:
        given = request.query.get("token") or request.cookies.get(self.cookie) or ""
        return hmac.compare_digest(given.encode(), self.token.encode())

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Refuse what lacks the secret, comes for another host or from another origin (403)."""
        host = (request.headers.get("Host") or "").lower()
        if host not in self.hosts:
            return _refused(403, f"this server answers at {self.origin} only")
        if not self._has_secret(request):
            return _refused(403, "the address needs its token: open the one tui-games serve printed")
        origin = request.headers.get("Origin")
        if origin is not None and origin.lower() not in self.origins:
            return _refused(403, f"a page from {origin[:80]} may not use this server")
        if request.path == "/" and host not in self.printed:  # another name of loopback: on to the printed one
            raise web.HTTPFound(f"{self.origin}/?{request.query_string}", headers={"Referrer-Policy": "no-referrer"})
        if request.path == "/" and self.sessions >= self.max_sessions:
            return _refused(503, self._full())
        response = await handler(request)
        if not response.prepared:
            response.headers["Referrer-Policy"] = "no-referrer"
            if request.path == "/" and request.cookies.get(self.cookie) != self.token:
                response.set_cookie(self.cookie, self.token, httponly=True, samesite="Strict",
                                    secure=self.ssl_context is not None, path="/")
        return response

    def _full(self) -> str:
        return (f"{self.max_sessions} session{'s' * (self.max_sessions != 1)} at most, and all are open: "
                "close a tab, then reload")

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """textual-serve's session, or a refusal when :attr:`max_sessions` run already."""
        if self.sessions >= self.max_sessions:
            return await _close_with(request, self._full(), WSCloseCode.TRY_AGAIN_LATER)
        self.sessions += 1  # counted before any await: two websockets at once cannot both pass
        try:
            return await super().handle_websocket(request)
        finally:
            self.sessions -= 1

    async def _process_messages(self, websocket: web.WebSocketResponse, app_service: AppService) -> None:
        """textual-serve's message loop, ended when the browser stays silent for :attr:`idle` seconds."""
        timed = _Timed(websocket)
        watch = asyncio.create_task(self._end_when_idle(timed))
        try:
            await super()._process_messages(timed, app_service)  # type: ignore[arg-type]  # a websocket's stand-in
        finally:
            watch.cancel()

    async def _end_when_idle(self, timed: _Timed) -> None:
        while (left := timed.last + self.idle - time.monotonic()) > 0:
            await asyncio.sleep(min(left, IDLE_CHECK))
        minutes = f"{self.idle / 60:g} minute{'s' * (self.idle != 60)}"
        line = f"tui-games serve: this session was idle for {minutes}, and has ended: reload to start again"
        await _say(timed.websocket, line)
        await timed.websocket.close(code=WSCloseCode.GOING_AWAY, message=b"idle")

    async def on_startup(self, app: web.Application) -> None:
        """Nothing printed: the command line says where to go."""

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.append(self._guard)
        aiohttp_jinja2.setup(app, loader=OfflineLoader(self.templates_path))  # the page without web fonts
        return app

    def serve(self, debug: bool = False, ready: Callable[[], None] = lambda: None) -> None:
        """Serve until Ctrl-C or SIGTERM (the apps end with the server); ``ready`` is called once
        the server listens (an OSError before, for a port taken)."""
        self.debug = debug
        self.initialize_logging()
        web.run_app(self._make_app(), host=self.host, port=self.port, ssl_context=self.ssl_context,
                    access_log=None, print=lambda *args: ready())


def _refused(status: int, line: str) -> web.Response:
    return web.Response(status=status, text=f"tui-games serve: {line}\n",
                        headers={"Referrer-Policy": "no-referrer", "Cache-Control": "no-store"})


async def _say(websocket: web.WebSocketResponse, line: str) -> None:
    """Show ``line`` on the page's terminal (what the app would draw)."""
    try:
        await websocket.send_bytes(f"\x1b[2J\x1b[H\r\n  {line}\r\n".encode())
    except (ConnectionError, RuntimeError):
        pass


async def _close_with(request: web.Request, line: str, code: int) -> web.WebSocketResponse:
    """A websocket that shows ``line`` and closes with ``code``: a refusal the page shows."""
    websocket = web.WebSocketResponse()
    await websocket.prepare(request)
    await _say(websocket, f"tui-games serve: {line}")
    await websocket.close(code=code, message=line.encode()[:120])
    return websocket
