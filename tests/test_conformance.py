"""The conformance kit (tui/conformance.py) over every registered game, plug-ins included."""

from __future__ import annotations

from games import GAME_NAMES, game_class
from tui.conformance import GameConformance

for _name in GAME_NAMES:
    _suite = GameConformance.for_game(game_class(_name))
    globals()[_suite.__name__] = _suite
