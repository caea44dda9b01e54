"""A game screen's unfinished game kept for Continue (:mod:`tui.unfinished`), and set up again.

:func:`kept_of` takes what a game screen holds -- the players, the whole tree of
moves as the game's record text (written by its record format, as a save
writes it: the main line, variations, comments, marks), the line to the
position it stands at, the clocks, analysis, whether the engines were waiting
-- and :func:`continued_setup` makes the setup that plays it on; the app puts
the clocks back as they stood (:func:`restore`).
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

from games import game_kind
from games.reading import read_records, resaved_record
from games.records import RecordNotes

from ..unfinished import KeptGame, new_id, player_name
from .session import HUMAN, GameSetup

if TYPE_CHECKING:
    from .screens.game import GameScreen

__all__ = ["continued_setup", "keeps", "kept_of", "opponents_text", "record_text", "restore"]


def keeps(screen: GameScreen) -> bool:
    """Whether ``screen``'s game may be kept: a person plays in it, it is not a lab game's review,
    not a spectator's (a network game whose link cannot play), and not a record file's game as
    read, untouched (its file holds it; it was opened only to choose how to go on, say)."""
    network = getattr(screen, "network", None)
    if network is not None and not network.plays:
        return False
    setup = screen.controller.setup
    played = screen.played
    untouched = (screen.kept_id is None and bool(setup.source) and not played.unsaved
                 and played.moves == list(setup.moves))
    return not screen.back_to_lab and not untouched and any(setup.is_human(side) for side in (0, 1))


def record_text(screen: GameScreen) -> str:
    """The whole tree of ``screen``'s game as its record text (the game at the main line's end,
    a record read from a file written back with all it held)."""
    played = screen.played
    setup = screen.controller.setup
    tree = played.tree.copy()
    main = [node.move or "" for node in tree.mainline()]
    game = played.game if main == played.moves else type(played.game).replay(tree.start, main)[0]
    notes = RecordNotes(tree=tree)
    if setup.record is not None:
        return resaved_record(setup.record, game, notes)
    return game_kind(setup.game).records.text(game, first_player=setup.record_name(0),
                                              second_player=setup.record_name(1), notes=notes)


def kept_of(screen: GameScreen, id_: str | None = None) -> KeptGame:
    """What ``screen``'s game is kept as (``id_``: its entry's, else a new one)."""
    controller = screen.controller
    setup = controller.setup
    clock = controller.clock
    return KeptGame(
        id_ or new_id(setup.game), setup.game, setup.players, setup.position or "", tuple(controller.moves),
        record_text(screen), "" if setup.clock is None else str(setup.clock),
        tuple(clock.standing(time.monotonic())) if clock is not None else (), setup.analysis or "",
        paused=bool(setup.engine_sides) and (controller.paused or screen.played.review is not None),
        source=setup.source, unsaved=screen.played.unsaved)


def continued_setup(kept: KeptGame) -> GameSetup:
    """The setup that plays ``kept`` on: its players, clock and analysis checked again, its tree
    read back from its record text, at the position it was left at.  Raises
    :class:`~tui.app.session.SetupError`, :class:`~games.records.RecordError` or
    :class:`~games.GameError` (one line)."""
    setup = GameSetup.checked(kept.game, *kept.specs, kept.position or None,
                              clock=kept.clock or None, analysis=kept.analysis or None)
    if kept.record:
        loaded = read_records(kept.game, kept.record)[0]
        setup = replace(setup, position=loaded.start, record=loaded, source=kept.source,
                        names=loaded.player_names if kept.source else ("", ""))
    return replace(setup, moves=kept.moves, continued=not kept.paused)


def restore(screen: GameScreen, kept: KeptGame) -> None:
    """Put back on ``screen`` what its setup does not hold: the clocks as they stood, whether a file
    holds the game, the entry it updates when left again."""
    controller = screen.controller
    clock = controller.clock
    if clock is not None and len(kept.left) == len(kept.moves) + 1:
        clock.history = [tuple(pair) for pair in kept.left]  # type: ignore[misc]
        clock.back_to(len(kept.moves))
    played = screen.played
    played.saved = None if kept.unsaved else played.tree.key()
    controller.paused = kept.paused
    screen.kept_id = kept.id


def opponents_text(kept: KeptGame) -> str:
    """``human vs beginner``: the players, first mover first, a level by its name."""
    names = [HUMAN if spec == HUMAN else player_name(kept.game, spec) for spec in kept.specs]
    return f"{names[0]} vs {names[1]}"
