"""``tui-games serve``'s page, offline: textual-serve's page without its links to the internet.

textual-serve's page (its ``app_index.html`` template) links its font, Roboto Mono, from Google
Fonts: offline the page waits on that link, and online it tells another host who opens it.
:class:`OfflineLoader` reads the template as textual-serve ships it and drops every stylesheet
linked from another host; the font comes instead from the copy textual-serve bundles in its own
static files (:data:`FONT_FACES`), and where that copy is missing the page's own fallbacks
(Monaco, Courier New, the browser's monospace) draw the terminal.
"""

from __future__ import annotations

import re
from typing import Callable

import jinja2

__all__ = ["FONT_FACES", "OfflineLoader", "offline_page"]

#: A ``<link>`` to a stylesheet on another host (``href="https://…"`` or ``"//…"``).
EXTERNAL_LINK = re.compile(r"""<link\b[^>]*\bhref\s*=\s*["'](?:https?:)?//[^"']*["'][^>]*>""", re.IGNORECASE)

#: Roboto Mono from textual-serve's static files (``{{ config.static.url }}`` is the page's own).
FONT_FACES = """<style>
      @font-face {
        font-family: "Roboto Mono"; font-style: normal; font-weight: 100 700; font-display: block;
        src: url("{{ config.static.url }}fonts/RobotoMono-VariableFont_wght.ttf") format("truetype");
      }
      @font-face {
        font-family: "Roboto Mono"; font-style: italic; font-weight: 100 700; font-display: block;
        src: url("{{ config.static.url }}fonts/RobotoMono-Italic-VariableFont_wght.ttf") format("truetype");
      }
    </style>"""


def offline_page(source: str) -> str:
    """The template ``source`` without stylesheets from other hosts, the bundled font in the first's place."""
    faces = [FONT_FACES]
    return EXTERNAL_LINK.sub(lambda match: faces.pop() if faces else "", source)


class OfflineLoader(jinja2.FileSystemLoader):
    """textual-serve's templates, read through :func:`offline_page`."""

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        source, filename, uptodate = super().get_source(environment, template)
        return offline_page(source), filename, uptodate
