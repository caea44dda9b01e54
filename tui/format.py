"""Forwards to :mod:`tui.views.format`, where how figures read now lives, for the app's
modules that import it here (the game screen's coach, the engine panel, the game setup; they
are being reworked apart).  New code imports :mod:`tui.views.format`."""

from .views.format import CUTOFF_STATS, count_text, default_text, line_text, score_text

__all__ = ["CUTOFF_STATS", "score_text", "line_text", "count_text", "default_text"]
