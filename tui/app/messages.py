"""What a screen asks the app for: messages up, as Textual's own examples (and Harlequin) do.

A screen never calls the app to change screens; it posts one of these, which
bubbles from the screen to :class:`~tui.app.app.TuiGamesApp`, whose ``@on``
handlers do it (the app owns the engine link and the settings, so it alone
knows what a change of screen must stop or keep).  What the app gives a
screen goes down as attributes and arguments.
"""

from __future__ import annotations

from typing import Any

from textual.message import Message

from .session import GameSetup

__all__ = ["ContinueGame", "ForgetGame", "NetworkFailed", "OpenFriend", "OpenGame", "OpenLab", "OpenLearn",
           "OpenNetworkGame", "OpenPuzzles", "OpenStart", "OpenUnfinished", "ReviewGame"]


class OpenGame(Message):
    """Replace the current screen by a new game of ``setup``."""

    def __init__(self, setup: GameSetup) -> None:
        super().__init__()
        self.setup = setup


class ReviewGame(Message):
    """Open ``setup`` (a lab run's game) over the current screen; its New goes back to it."""

    def __init__(self, setup: GameSetup) -> None:
        super().__init__()
        self.setup = setup


class OpenStart(Message):
    """Back to the start screen, filled in with ``setup`` (``None``: the settings' defaults)."""

    def __init__(self, setup: GameSetup | None = None) -> None:
        super().__init__()
        self.setup = setup


class OpenLab(Message):
    """The lab screen (experiments and tournaments) in place of the current one."""


class OpenPuzzles(Message):
    """``puzzles`` of ``game`` (from ``source``) over the current screen."""

    def __init__(self, game: str, puzzles: Any, source: str) -> None:
        super().__init__()
        self.game = game
        self.puzzles = puzzles
        self.source = source


class OpenLearn(Message):
    """The course in game search (its list of lessons) over the current screen."""


class OpenFriend(Message):
    """Play a friend over the network (host a game or join one) over the current screen."""


class OpenUnfinished(Message):
    """The list of the games left unfinished (:mod:`tui.unfinished`) over the current screen."""


class ContinueGame(Message):
    """Play on the unfinished game ``id`` (:mod:`tui.unfinished`) in place of the screens below the
    list: the same players, tree of moves and clocks, as it stood."""

    def __init__(self, id_: str) -> None:
        super().__init__()
        self.id = id_


class ForgetGame(Message):
    """Delete the unfinished game ``id`` from the store (the player confirmed it)."""

    def __init__(self, id_: str) -> None:
        super().__init__()
        self.id = id_


class OpenNetworkGame(Message):
    """The network game of ``link`` (a :class:`tui.net.link.Link`: hosted here or joined) in place of
    the current screen."""

    def __init__(self, link: Any) -> None:
        super().__init__()
        self.link = link


class NetworkFailed(Message):
    """The network game's host broke the protocol (``reason``, one line): the connection is over."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason
