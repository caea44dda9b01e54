"""``tui-games serve``: the app in a web browser, seen by headless Chromium.

The test starts ``tui-games serve`` on a free port, opens the page in headless Chromium driven over its
DevTools protocol (aiohttp, which textual-serve brings), waits until the page's terminal has received
the app's start screen -- the bytes the browser's terminal is sent over its websocket, read from
Chromium's own network events -- and saves a screenshot (its path is printed).  Skipped only where no
Chromium is installed.  Every process it starts is killed with its group at the end.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
#: Words of the start screen (its field labels), as the page's terminal receives them.
START_WORDS = ("Play against", "You play")
TIMEOUT = 90.0
ANSI = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, deadline: float) -> None:
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise AssertionError(f"nothing listens on port {port}") from None
            time.sleep(0.1)


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as file:
                    fields = file.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
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


async def browse(devtools: str, url: str, screenshot: str, deadline: float) -> bytes:
    """Open ``url`` in the browser at ``devtools``; the terminal bytes it received once the start
    screen's words are among them (or at the deadline), with a screenshot saved."""
    import aiohttp

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

        reader = asyncio.create_task(read())
        target = (await call("Target.createTarget", url="about:blank"))["targetId"]
        page = (await call("Target.attachToTarget", targetId=target, flatten=True))["sessionId"]
        await call("Network.enable", page)
        await call("Page.enable", page)
        await call("Page.navigate", page, url=url)
        while time.monotonic() < deadline:
            text = ANSI.sub(b"", bytes(received))
            if all(word.encode() in text for word in START_WORDS):
                await asyncio.sleep(1.0)  # let it paint before the screenshot
                break
            await asyncio.sleep(0.2)
        shot = await call("Page.captureScreenshot", page, format="png")
        with open(screenshot, "wb") as file:
            file.write(base64.b64decode(shot["data"]))
        reader.cancel()
    return ANSI.sub(b"", bytes(received))


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed")
def test_serve_shows_the_start_screen_in_headless_chromium(tmp_path):
    deadline = time.monotonic() + TIMEOUT
    port = free_port()
    serve = group([sys.executable, "-m", "tui.launch", "serve", "--port", str(port)], cwd=tmp_path,
                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    browser = None
    try:
        wait_for_port(port, deadline)
        browser = group([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1200,800",
                         f"--user-data-dir={tmp_path / 'profile'}", "--remote-debugging-port=0", "about:blank"],
                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        devtools = None
        while devtools is None:
            line = browser.stderr.readline()
            assert line or time.monotonic() < deadline, "Chromium said no DevTools address"
            match = re.search(r"(ws://\S+/devtools/browser/\S+)", line)
            devtools = match.group(1) if match else None
        screenshot = str(tmp_path / "serve.png")
        text = asyncio.run(browse(devtools, f"http://127.0.0.1:{port}/", screenshot, deadline))
        print(f"screenshot of the page: {screenshot}")
        for word in START_WORDS:
            assert word.encode() in text, f"the page's terminal never showed {word!r}"
        assert os.path.getsize(screenshot) > 0
        # the tab's app is the server's child, and ends with it when the server is killed
        apps = children(serve.pid)
        assert apps, "the server started no app for the page"
        os.kill(serve.pid, signal.SIGKILL)
        serve.wait(10)
        end = time.monotonic() + 5
        while any(alive(pid) for pid in apps):
            assert time.monotonic() < end, f"the page's app outlived the server: {apps}"
            time.sleep(0.1)
    finally:
        if browser is not None:
            kill_group(browser)
        kill_group(serve)
