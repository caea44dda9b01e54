"""The engines' turns in the game screen: their searches, their panels, the eval beside the board.

:class:`EngineTurns` is a plain object the game screen
(:class:`~tui.app.screens.game.GameScreen`) composes, like the board aids and
the commands, and acts through the screen it is given (a
:class:`~tui.app.screens.host.GameHost`).  When the controller says an engine
is to move, :meth:`EngineTurns.play` starts its search in the app's search
process through the :class:`~tui.app.engine_link.EngineLink` -- after the
watching delay when two engines play each other -- and the link's reader
thread posts the search's figures and move to the screen as messages
(:class:`~tui.app.engine_link.EngineInfo`, ``EngineDone``, ``EngineFailed``,
naming the side whose search it was), which the screen hands to
:meth:`EngineTurns.answered`.  Figures of a search stopped since are dropped.
A learned engine that loses its model mid-game falls back to ``h0`` and the
game goes on; any other failure pauses the game.  Each engine side has a panel;
on a short terminal only the one searching keeps its full size.  The latest
score (an engine's or the analysis's) fills the eval bar while the position
shown is the one it is of, or the one after it.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from textual.timer import Timer

from engines import Limits
from games import GameError

from ..engine_link import EngineDone, EngineFailed, EngineInfo
from ..session import fallback_notice
from ..widgets.engine_panel import EnginePanel
from ..widgets.eval_bar import EvalBar
from ..widgets.material import MaterialLine
from .commands import DELAYS

if TYPE_CHECKING:
    from .host import GameHost

__all__ = ["EngineTurns", "SHORT_SCREEN"]

#: Below this many rows the idle engine's panel shrinks to one line.
SHORT_SCREEN = 32


class EngineTurns:
    """The engine sides' searches in ``screen``'s game (see the module doc)."""

    def __init__(self, screen: GameHost) -> None:
        #: The game screen it acts through.
        self.screen = screen
        #: The request id of the running search, if any, and whose it is.
        self.request: int | None = None
        self.searching_side: int | None = None
        #: Seconds between two engines' moves, for watching them.
        self.delay = DELAYS[2] if len(screen.controller.setup.engine_sides) == 2 else 0.0
        #: The watching delay's timer while it runs.
        self.delay_timer: Timer | None = None
        #: Each engine side's last score and mate, for itself (draw offers).
        self.last_scores: list[tuple[float, int | None] | None] = [None, None]
        #: A fallback notice still to repeat with the next engine move (else it would flash by).
        self.unread_notice = ""
        #: The latest eval shown beside the board: the first player's score and mate, and the
        #: ply of the position it is of.
        self._eval: tuple[float, int | None, int] | None = None

    @property
    def held(self) -> bool:
        """Engines wait: a dialog covers the screen, an earlier position is reviewed, the report runs."""
        screen = self.screen
        return not screen.is_active or screen.review is not None or screen.coach.report_running

    def clock_side(self) -> int | None:
        """The side whose clock runs now: the side to move, unless the game is over,
        paused, reviewed, reported on or behind a dialog, or waiting out the delay
        between two engines' moves (that is for watching, not thinking) -- or both
        sides have not made their first move yet (as on lichess: nobody loses on time
        before moving)."""
        screen = self.screen
        return screen.controller.clock_side(held=not screen.is_active or screen.coach.report_running,
                                            delaying=self.delay_timer is not None)

    def analysis_target(self) -> tuple[tuple[str, ...] | None, str]:
        """The moves of the position the analysis may search now, or ``None`` and why it waits
        (beside an engine it searches only while that engine does not: they never share the CPU)."""
        screen = self.screen
        if not screen.is_active:
            return None, "waits for the dialog"
        if screen.coach.report_running:
            return None, "waits for the report"
        if screen.review is not None:
            moves = tuple(screen.moves[:screen.review])
        elif screen.outcome() is not None:
            return None, "game over"
        elif screen.controller.setup.is_human(screen.game.turn) or screen.controller.engines_paused:
            moves = tuple(screen.moves)
        else:
            return None, "waits: the engine's turn"  # it has the CPU
        return (None, "game over") if screen.played.shown_game().outcome() is not None else (moves, "")

    # -- searches --------------------------------------------------------------------------

    def play(self, side: int) -> None:
        """``side``'s engine is to move: search now, or after the watching delay."""
        if self.delay_timer is not None:
            self.delay_timer.stop()
            self.delay_timer = None
        controller = self.screen.controller
        if self.delay and len(controller.setup.engine_sides) == 2 and self.screen.moves and not controller.stepping:
            self.set_panel_status(side, f"next in {self.delay:g}s")
            self.delay_timer = self.screen.set_timer(self.delay, self.start_search)
            self.screen.clocks.running = self.clock_side()  # the watching delay stops the clocks
        else:
            self.start_search()

    def start_search(self) -> None:
        """Ask the search process for the side to move's engine move."""
        self.delay_timer = None
        screen = self.screen
        if screen.outcome() is not None or self.request is not None or self.held:
            return
        side = screen.game.turn
        setup = screen.controller.setup
        if setup.is_human(side):
            return
        screen.coach.cancel("analysis")
        self.request = screen.link.search(screen, side, setup.game, setup.players[side], setup.position,
                                          screen.moves, self.clock_limits(side))
        self.searching_side = side
        self.set_panel_status(side, "thinking…", thinking=True)
        screen.update_status()

    def clock_limits(self, side: int) -> Limits | None:
        """``side``'s engine's limits under its clock (``None`` without clocks: its spec's own)."""
        return self.screen.controller.limits(side, time.monotonic())

    def cancel(self) -> None:
        """Stop the running search (its figures stay in the panel) and any pending start."""
        if self.delay_timer is not None:
            self.delay_timer.stop()
            self.delay_timer = None
        if self.request is not None:
            self.screen.link.cancel(self.request)
            side = self.searching_side
            self.request = None
            self.searching_side = None
            if side is not None:
                self.set_panel_status(side, "stopped")

    # -- the search process's answers ----------------------------------------------------------

    def answered(self, message: EngineInfo | EngineDone | EngineFailed) -> None:
        """A search's figures, move or failure; those of a search stopped since are dropped."""
        if message.request_id != self.request:
            return
        if isinstance(message, EngineInfo):
            panel = self.screen.panel(message.owner)
            if panel is not None:
                panel.show_stats(message.stats)
                self.show_eval(*panel.first_view(message.stats.score, message.stats.mate))
        elif isinstance(message, EngineDone):
            self._moved(message)
        else:
            self._failed(message)

    def _failed(self, message: EngineFailed) -> None:
        side = message.owner
        self.request = None
        self.searching_side = None
        if message.model_error:
            self._fall_back(side, message.message)
            return
        self.screen.controller.paused = True
        self.set_panel_status(side, "failed")
        self.screen.say(f"{self.screen.sides[side]}'s engine failed: {message.message} — paused", error=True)
        self.screen.update_status()

    def _fall_back(self, side: int, message: str) -> None:
        """The side's learned engine lost its model mid-game: play ``h0`` instead and go on."""
        screen = self.screen
        fallback, notice = fallback_notice(screen.controller.setup.players[side], ValueError(message))
        screen.controller.fall_back(side, fallback, notice)
        panel = screen.panel(side)
        if panel is not None:
            panel.spec = fallback
            panel.border_title = f"{screen.sides[side]} · {fallback} · fallback"
            panel.set_status("waiting")
        self.unread_notice = notice
        screen.say(notice, error=True)
        screen.sub_title = f"{screen.controller.setup.player_label(0)} vs {screen.controller.setup.player_label(1)}"
        screen.next_turn()

    def _moved(self, message: EngineDone) -> None:
        screen = self.screen
        side = message.owner
        self.request = None
        self.searching_side = None
        panel = screen.panel(side)
        if panel is not None:
            panel.show_stats(message.stats)
            panel.record_score(message.stats.score, message.stats.mate, len(screen.moves))
            panel.set_status("waiting")
            self.show_eval(*panel.first_view(message.stats.score, message.stats.mate))
        self.last_scores[side] = (message.stats.score, message.stats.mate)
        try:
            move = screen.game.parse_move(message.move)
        except GameError as error:  # the process searched another position: a bug
            screen.controller.paused = True
            screen.say(f"engine move {message.move!r} rejected: {error}", error=True)
            return
        screen.controller.engine_played(move, time.monotonic())
        if screen.controller.setup.is_human(screen.game.turn):
            notice = self.unread_notice
            self.unread_notice = ""
            if notice:  # the fallback's first move: keep saying why it plays
                screen.say(f"{screen.sides[side]} played {message.move} · {notice}", error=True)
            else:
                screen.say(f"{screen.sides[side]} played {message.move}")
        screen.next_turn()

    # -- the panels and the eval -----------------------------------------------------------------

    def set_panel_status(self, side: int, text: str, *, thinking: bool = False) -> None:
        panel = self.screen.panel(side)
        if panel is not None:
            panel.set_status(text, thinking=thinking)
        self.fit_panels()

    def fit_panels(self) -> None:
        """On a short terminal with two panels or more, only the one searching (or
        the side to move's) gets the full panel; the others shrink to a line."""
        screen = self.screen
        panels = list(screen.query(EnginePanel))
        short = screen.size.height < SHORT_SCREEN and len(panels) >= 2
        analysing = screen.coach.analysing
        for panel in panels:
            if panel.id == "panel-analysis":
                active = analysing
            else:
                active = (self.searching_side == panel.side if self.request is not None
                          else panel.side == screen.game.turn and not analysing)
            panel.compact = short and not active

    def show_eval(self, score: float, mate: int | None, ply: int | None = None) -> None:
        """An engine's latest score for the first player, of the position after ``ply`` moves
        (default: the game's): the eval bar and the material line's eval, while the position
        shown is that one or the one after it."""
        self._eval = (score, mate, len(self.screen.moves) if ply is None else ply)
        self.refresh_eval()

    def refresh_eval(self) -> None:
        """The eval bar and the material line follow the position shown."""
        screen = self.screen
        bar = screen.query_one("#eval-bar", EvalBar)
        shown = len(screen.moves) if screen.review is None else screen.review
        evaluated = self._eval
        if evaluated is not None and evaluated[2] <= shown <= evaluated[2] + 1:
            bar.show(evaluated[0], evaluated[1])
        else:
            bar.clear()  # a score of another position would mislead
        screen.query_one("#material", MaterialLine).show(screen.played.shown_game(),
                                                         "" if bar.score is None else bar.text)
