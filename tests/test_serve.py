"""``tui-games serve``: the app in a web browser, for its owner only.

Each test starts ``tui-games serve`` on a free port of 127.0.0.1 and reads the address it prints
(with its token).  Requests go through aiohttp's client: the page and its assets without the token
are refused, and so is a websocket without it, from another Origin, or past ``--max-sessions``;
the app processes are counted (the server's children, from /proc) to prove that a refused one
started none.  The last test opens the page in headless Chromium, driven over its DevTools protocol,
waits until the page's terminal has received the app's start screen -- the bytes the browser's
terminal is sent over its websocket, read from Chromium's own network events -- and saves a
screenshot (its path is printed); it is skipped only where no Chromium is installed.  Every wait
has a deadline; every process started is killed with its group at the end.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import aiohttp
import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
#: Words of the start screen (its field labels), as the page's terminal receives them.
START_WORDS = ("Play against", "You play")
TIMEOUT = 90.0
ANSI = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]")
EVIL = "http://evil.example.com"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(condition: Callable[[], bool], deadline: float, what: str, step: float = 0.05) -> None:
    """Wait until ``condition()`` holds, or fail saying ``what`` at the deadline."""
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(step)


async def wait_until_async(condition: Callable[[], bool], deadline: float, what: str) -> None:
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        await asyncio.sleep(0.05)


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def children(pid: int) -> list[int]:
    """The running processes whose parent is ``pid`` (from /proc; zombies not counted)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as file:
                    fields = file.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry))
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its new parent to reap it does not count)."""
    try:
        with open(f"/proc/{pid}/stat") as file:
            return file.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def group(command: list[str], **kwargs) -> subprocess.Popen:
    """A process in a group of its own (killed whole at the end)."""
    return subprocess.Popen(command, start_new_session=True, **kwargs)


def kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(10)


class Served:
    """A running ``tui-games serve``: its process, port, printed address and token."""

    def __init__(self, process: subprocess.Popen, port: int, url: str) -> None:
        self.process, self.port, self.url = process, port, url
        self.token = url.split("token=", 1)[1]
        self.base = f"http://127.0.0.1:{port}"
        self.cookie = f"tui-games-{port}"

    def apps(self) -> list[int]:
        """The app processes the server runs now."""
        return children(self.process.pid)


@contextmanager
def serve(tmp_path: Path, *flags: str, deadline: float, scheme: str = "http") -> Iterator[Served]:
    """``tui-games serve`` on a free port with ``flags``, until the block ends."""
    port = free_port()
    env = {**os.environ, "TUI_GAMES_DATA_DIR": str(tmp_path / "data"), "TUI_GAMES_CONFIG_DIR": str(tmp_path / "config")}
    process = group([sys.executable, "-m", "tui.launch", "serve", "--port", str(port), *flags], cwd=tmp_path,
                    env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        line = b""
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            while not line.endswith(b"\n"):
                assert selector.select(max(0.0, deadline - time.monotonic())), "serve printed no address"
                chunk = os.read(process.stdout.fileno(), 4096)  # the pipe itself: no buffer hides a line
                assert chunk, f"serve ended before printing its address (status {process.poll()})"
                line += chunk
                line = line.split(b"\n", 1)[0] + b"\n" if b"\n" in line else line
        match = re.search(rf"({scheme}://127\.0\.0\.1:{port}/\?token=\S+)", line.decode())
        assert match, f"no address with a token in {line!r}"
        wait_until(lambda: listening(port), deadline, f"serve listens on {port}")
        yield Served(process, port, match.group(1))
    finally:
        kill_group(process)


def ws_url(served: Served, token: bool = True) -> str:
    return f"ws://127.0.0.1:{served.port}/ws?width=80&height=24" + (f"&token={served.token}" if token else "")


async def refused_status(url: str, **kwargs) -> int:
    """The HTTP status a websocket to ``url`` was refused with (fails if it was accepted)."""
    async with aiohttp.ClientSession() as session:
        try:
            async with session.ws_connect(url, **kwargs):
                pass
        except aiohttp.WSServerHandshakeError as error:
            return error.status
    raise AssertionError(f"the websocket to {url} was accepted")


def test_the_page_and_its_assets_need_the_token(tmp_path):
    deadline = time.monotonic() + TIMEOUT
    with serve(tmp_path, deadline=deadline) as served:
        assert served.url.startswith(f"http://127.0.0.1:{served.port}/?token=")
        assert len(served.token) >= 22  # at least 128 bits, URL-safe base64

        async def probe() -> None:
            async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session:
                for url in (f"{served.base}/", f"{served.base}/?token=wrong", f"{served.base}/static/js/textual.js",
                            f"{served.base}/download/x"):
                    async with session.get(url) as response:
                        assert response.status == 403, url
                        assert "token" in await response.text()
                async with session.get(served.url) as response:
                    assert response.status == 200
                    page = await response.text()
                    cookie = response.headers["Set-Cookie"]
                for part in (f"{served.cookie}={served.token}", "HttpOnly", "SameSite=Strict", "Path=/"):
                    assert part in cookie
                assert f"ws://127.0.0.1:{served.port}/ws" in page  # the page's websocket: the server's own origin
                with_cookie = {"Cookie": f"{served.cookie}={served.token}"}
                async with session.get(f"{served.base}/static/js/textual.js", headers=with_cookie) as response:
                    assert response.status == 200
                # another name for this machine (a DNS name rebound to 127.0.0.1): refused, even with the token
                async with session.get(served.url, headers={"Host": f"evil.example.com:{served.port}"}) as response:
                    assert response.status == 403
                # localhost is loopback too: sent on to the address printed, with the token
                alias = served.url.replace("127.0.0.1", "localhost")
                async with session.get(alias, allow_redirects=False) as response:
                    assert response.status == 302 and response.headers["Location"] == served.url
                async with session.get(alias.split("?")[0], allow_redirects=False) as response:
                    assert response.status == 403

        asyncio.run(probe())
        assert served.apps() == []


def test_a_file_saved_in_the_served_folder_is_not_imported(tmp_path):
    """The app starts in the served folder, where a session may save any name: not on its import path."""
    from tui.cli.serve import app_command

    (tmp_path / "textual.py").write_text("raise SystemExit('imported from the served folder')\n")
    command = app_command(tmp_path, allow_programs=False).replace(" -m tui.launch", " -c 'import textual'")
    done = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_a_websocket_without_the_secret_or_from_another_origin_starts_no_app(tmp_path):
    deadline = time.monotonic() + TIMEOUT
    with serve(tmp_path, deadline=deadline) as served:
        own = f"http://127.0.0.1:{served.port}"
        cookie = {"Cookie": f"{served.cookie}={served.token}"}

        async def probe() -> list[int]:
            return [
                await refused_status(ws_url(served, token=False)),
                await refused_status(ws_url(served, token=False), origin=own),
                await refused_status(ws_url(served), origin=EVIL),
                await refused_status(ws_url(served, token=False), origin=EVIL, headers=cookie),
                await refused_status(ws_url(served), origin="null"),
                await refused_status(ws_url(served), origin=f"https://127.0.0.1:{served.port}"),
            ] + [await refused_status(ws_url(served), origin=EVIL) for _ in range(12)]

        statuses = asyncio.run(probe())
        assert statuses == [403] * len(statuses)
        assert served.apps() == [], "a refused websocket started an app"


async def open_session(served: Served, session: aiohttp.ClientSession, deadline: float,
                       received: bytearray) -> aiohttp.ClientWebSocketResponse:
    """A websocket with the token and the server's own Origin, and a task reading what it is sent."""
    ws = await session.ws_connect(ws_url(served), origin=f"http://127.0.0.1:{served.port}")

    async def read() -> None:
        async for message in ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                received.extend(message.data)

    asyncio.get_running_loop().create_task(read())
    return ws


def test_sessions_past_the_cap_are_refused_in_words(tmp_path):
    deadline = time.monotonic() + TIMEOUT
    with serve(tmp_path, "--max-sessions", "2", deadline=deadline) as served:

        async def probe() -> None:
            async with aiohttp.ClientSession() as session:
                screens = [bytearray(), bytearray()]
                first = [await open_session(served, session, deadline, screen) for screen in screens]
                await wait_until_async(lambda: len(served.apps()) == 2, deadline, "two apps run")
                extra = await session.ws_connect(ws_url(served), origin=f"http://127.0.0.1:{served.port}")
                said = await extra.receive(timeout=max(0.1, deadline - time.monotonic()))
                assert said.type == aiohttp.WSMsgType.BINARY and b"2 sessions at most" in said.data
                closing = await extra.receive(timeout=max(0.1, deadline - time.monotonic()))
                assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == 1013
                async with session.get(served.url) as page:
                    assert page.status == 503 and "2 sessions at most" in await page.text()
                assert len(served.apps()) == 2, "the refused session started an app"
                await first[0].close()  # a session closed: its app ends, and its place is free again
                await wait_until_async(lambda: len(served.apps()) == 1, deadline, "the closed session's app ends")
                again = await open_session(served, session, deadline, bytearray())
                await wait_until_async(lambda: len(served.apps()) == 2, deadline, "a new app runs")
                await again.close()
                await first[1].close()

        asyncio.run(probe())


def test_an_idle_session_is_ended(tmp_path):
    deadline = time.monotonic() + TIMEOUT
    with serve(tmp_path, "--idle-minutes", "0.05", deadline=deadline) as served:  # 3 seconds

        async def probe() -> None:
            async with aiohttp.ClientSession() as session:
                screen = bytearray()
                ws = await open_session(served, session, deadline, screen)
                await wait_until_async(lambda: len(served.apps()) == 1, deadline, "the app runs")
                await wait_until_async(lambda: ws.closed, deadline, "the idle session is closed")
                assert ws.close_code == 1001
                assert b"idle for 0.05 minutes" in screen
                await wait_until_async(lambda: served.apps() == [], deadline, "the idle session's app ends")

        asyncio.run(probe())


def test_the_apps_command_carries_the_served_limits(tmp_path):
    from tui.cli.serve import app_command

    command = app_command(tmp_path, allow_programs=True)
    assert "TUI_GAMES_NO_PROGRAMS" not in command and f"TUI_GAMES_SERVED_FILES={tmp_path}" in command
    command = app_command(tmp_path, allow_programs=False)
    assert "TUI_GAMES_NO_PROGRAMS=1" in command and command.startswith(f"cd {tmp_path} && ")
    assert " exec " in command and command.endswith(" -P -m tui.launch")  # the server's own child


@pytest.mark.skipif(shutil.which("openssl") is None, reason="no openssl to make a certificate")
def test_tls_serves_https_with_a_secure_cookie(tmp_path):
    import ssl

    deadline = time.monotonic() + TIMEOUT
    with serve(tmp_path, "--tls", deadline=deadline, scheme="https") as served:
        insecure = ssl.create_default_context()
        insecure.check_hostname, insecure.verify_mode = False, ssl.CERT_NONE  # a certificate made for the run
        base = f"https://127.0.0.1:{served.port}"

        async def probe() -> None:
            connector = aiohttp.TCPConnector(ssl=insecure)
            async with aiohttp.ClientSession(connector=connector, cookie_jar=aiohttp.DummyCookieJar()) as session:
                async with session.get(f"{base}/") as response:
                    assert response.status == 403
                async with session.get(served.url) as response:
                    assert response.status == 200
                    assert "Secure" in response.headers["Set-Cookie"]
                    assert f"wss://127.0.0.1:{served.port}/ws" in await response.text()
                url = f"wss://127.0.0.1:{served.port}/ws?width=80&height=24&token={served.token}"
                for origin in (f"http://127.0.0.1:{served.port}", EVIL):
                    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                        await session.ws_connect(url, origin=origin)
                    assert refused.value.status == 403
                ws = await session.ws_connect(url, origin=base)
                await wait_until_async(lambda: len(served.apps()) == 1, deadline, "the app runs")
                await ws.close()

        asyncio.run(probe())


@pytest.mark.parametrize("flags, words", [
    (["--public", "--allow-programs"], "--allow-programs on 0.0.0.0 without --tls"),
    (["--public", "--host", "10.0.0.1"], "give it or --host, not both"),
    (["--idle-minutes", "0"], "expected minutes"),
    (["--max-sessions", "0"], "expected a whole number >= 1"),
])
def test_bad_serve_flags_are_one_line(tmp_path, flags, words):
    done = subprocess.run([sys.executable, "-m", "tui.launch", "serve", "--port", str(free_port()), *flags],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "TUI_GAMES_DATA_DIR": str(tmp_path / "data")})
    assert done.returncode == 2
    assert words in done.stderr and len(done.stderr.strip().splitlines()) <= 2  # argparse adds its usage line
    assert "Traceback" not in done.stderr


def test_a_taken_port_is_one_line_and_no_address(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "tui.launch", "serve", "--port", str(port)], cwd=tmp_path,
                              capture_output=True, text=True, timeout=60,
                              env={**os.environ, "TUI_GAMES_DATA_DIR": str(tmp_path / "data")})
    assert done.returncode == 2 and done.stdout == ""  # no address printed for a server that never listened
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr and len(done.stderr.strip().splitlines()) == 1


async def browse(devtools: str, url: str, screenshot: str, deadline: float) -> bytes:
    """Open ``url`` in the browser at ``devtools``; the terminal bytes it received once the start
    screen's words are among them (or at the deadline), with a screenshot saved."""
    received = bytearray()
    async with aiohttp.ClientSession() as session, session.ws_connect(devtools, max_msg_size=0) as ws:
        ids = iter(range(1, 10**6))
        pending: dict[int, asyncio.Future] = {}

        async def call(method: str, session_id: str | None = None, **params):
            number = next(ids)
            pending[number] = asyncio.get_running_loop().create_future()
            message = {"id": number, "method": method, "params": params}
            if session_id:
                message["sessionId"] = session_id
            await ws.send_str(json.dumps(message))
            return await asyncio.wait_for(pending[number], deadline - time.monotonic())

        async def read() -> None:
            async for frame in ws:
                message = json.loads(frame.data)
                if "id" in message and message["id"] in pending:
                    pending.pop(message["id"]).set_result(message.get("result", {}))
                elif message.get("method") == "Network.webSocketFrameReceived":
                    response = message["params"]["response"]
                    if response.get("opcode") == 2:
                        received.extend(base64.b64decode(response["payloadData"]))

        def shown() -> bool:
            text = ANSI.sub(b"", bytes(received))
            return all(word.encode() in text for word in START_WORDS)

        reader = asyncio.create_task(read())
        target = (await call("Target.createTarget", url="about:blank"))["targetId"]
        page = (await call("Target.attachToTarget", targetId=target, flatten=True))["sessionId"]
        await call("Network.enable", page)
        await call("Page.enable", page)
        await call("Page.navigate", page, url=url)
        while not shown() and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        painted = len(received)  # the screenshot once the terminal has had no new bytes for a moment
        quiet = time.monotonic() + 0.5
        while time.monotonic() < min(quiet, deadline):
            if len(received) != painted:
                painted, quiet = len(received), time.monotonic() + 0.5
            await asyncio.sleep(0.05)
        shot = await call("Page.captureScreenshot", page, format="png")
        with open(screenshot, "wb") as file:
            file.write(base64.b64decode(shot["data"]))
        reader.cancel()
    return ANSI.sub(b"", bytes(received))


def headless_chromium(tmp_path: Path, deadline: float, *flags: str) -> tuple[subprocess.Popen, str]:
    """Headless Chromium with ``flags`` (its own profile under ``tmp_path``) and its DevTools address."""
    assert CHROMIUM is not None
    browser = group([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1200,800", *flags,
                     f"--user-data-dir={tmp_path / 'profile'}", "--remote-debugging-port=0", "about:blank"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        while True:
            line = browser.stderr.readline()
            assert line or time.monotonic() < deadline, "Chromium said no DevTools address"
            match = re.search(r"(ws://\S+/devtools/browser/\S+)", line)
            if match:
                return browser, match.group(1)
    except BaseException:
        kill_group(browser)
        raise


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed")
def test_serve_shows_the_start_screen_in_headless_chromium(tmp_path):
    deadline = time.monotonic() + TIMEOUT
    browser = None
    with serve(tmp_path, deadline=deadline) as served:
        try:
            browser, devtools = headless_chromium(tmp_path, deadline)
            screenshot = str(tmp_path / "serve.png")
            text = asyncio.run(browse(devtools, served.url, screenshot, deadline))
            print(f"screenshot of the page: {screenshot}")
            for word in START_WORDS:
                assert word.encode() in text, f"the page's terminal never showed {word!r}"
            assert os.path.getsize(screenshot) > 0
            # the tab's app is the server's child, and ends with it when the server is killed
            apps = served.apps()
            assert len(apps) == 1, f"the server runs {len(apps)} apps for one page"
            os.kill(served.process.pid, signal.SIGKILL)
            served.process.wait(10)
            end = time.monotonic() + 5
            wait_until(lambda: not any(alive(pid) for pid in apps), end, f"the page's apps {apps} end with the server")
        finally:
            if browser is not None:
                kill_group(browser)
