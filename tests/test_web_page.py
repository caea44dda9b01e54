"""``tui-games serve``'s page works offline: no link to another host, the font from the server itself
(tui/web_page.py); in headless Chromium that can reach no other host, the start screen shows."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import aiohttp
import pytest
import textual_serve

from test_serve import CHROMIUM, START_WORDS, TIMEOUT, browse, headless_chromium, kill_group, serve
from tui.web_page import offline_page

#: Where a page names something to fetch: ``href=``, ``src=``, CSS ``url(…)``.
FETCHED = re.compile(r"""(?:\b(?:href|src)\s*=\s*["']|url\(\s*["']?)([^"')\s]+)""", re.IGNORECASE)


def elsewhere(page: str, base: str) -> list[str]:
    """The addresses ``page`` (served at ``base``) fetches from another host."""
    ours = urlsplit(base).netloc
    return [url for url in FETCHED.findall(page) if urlsplit(urljoin(base, url)).netloc not in ("", ours)]


def test_the_template_without_its_web_font_link() -> None:
    shipped = (Path(textual_serve.__file__).parent / "templates" / "app_index.html").read_text()
    base = "http://127.0.0.1:8000/"
    assert elsewhere(shipped, base)  # textual-serve's page links Google Fonts ...
    page = offline_page(shipped)
    assert elsewhere(page, base) == [] and "fonts.googleapis" not in page  # ... ours links nothing elsewhere
    assert "@font-face" in page and "fonts/RobotoMono-VariableFont_wght.ttf" in page
    assert page.count("<link") == shipped.count("<link") - 1  # its own stylesheet stays


def test_the_served_page_fetches_from_the_server_alone(tmp_path: Path) -> None:
    deadline = time.monotonic() + TIMEOUT
    with serve(tmp_path, deadline=deadline) as served:
        async def probe() -> None:
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:  # an IP's cookie
                async with session.get(served.url) as response:
                    assert response.status == 200
                    page = await response.text()
                assert elsewhere(page, served.base + "/") == []
                fonts = [url for url in FETCHED.findall(page) if url.endswith(".ttf")]
                assert fonts
                for font in fonts:  # the font is there, on the page's cookie
                    async with session.get(urljoin(served.base + "/", font)) as response:
                        assert response.status == 200 and len(await response.read()) > 10_000

        asyncio.run(probe())


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed")
def test_the_page_shows_the_start_screen_with_no_other_host_reachable(tmp_path: Path) -> None:
    deadline = time.monotonic() + TIMEOUT
    browser = None
    with serve(tmp_path, deadline=deadline) as served:
        try:
            # every name but the server's resolves to nothing: the browser is offline
            browser, devtools = headless_chromium(tmp_path, deadline,
                                                  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1")
            text = asyncio.run(browse(devtools, served.url, str(tmp_path / "offline.png"), deadline))
            for word in START_WORDS:
                assert word.encode() in text, f"offline, the page's terminal never showed {word!r}"
        finally:
            if browser is not None:
                kill_group(browser)
