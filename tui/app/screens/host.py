"""What the game screen's components use of it: :class:`GameHost`, a :class:`~typing.Protocol`.

The board aids (:mod:`.aids`), the commands (:mod:`.game_commands`) and the
engines' turns (:mod:`.engine_turns`) are plain objects that act through the
game screen (:class:`~tui.app.screens.game.GameScreen`) they are given.  They
type it by this protocol rather than by the screen's class: the screen's module
imports theirs, and two modules typed by each other would be an import circle.
This module imports none of the four; the parts of the screen it names are
the game's state, the widgets shown, its lines and turns, and the few of
Textual's calls the components make.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol, TypeVar

if TYPE_CHECKING:
    from textual.app import App
    from textual.css.query import DOMQuery
    from textual.geometry import Size
    from textual.message import Message
    from textual.timer import Timer
    from textual.widget import Widget

    from games import Game, Outcome

    from ..controller import GameController
    from ..engine_link import EngineLink
    from ..widgets.board import BoardView
    from ..widgets.engine_panel import EnginePanel
    from ..widgets.game_clocks import GameClocks
    from ..widgets.move_input import MoveInput
    from ..widgets.move_list import MoveList
    from .coach import Coach
    from .played import PlayedGame

__all__ = ["GameHost"]

W = TypeVar("W", bound="Widget")


class GameHost(Protocol):
    """The game screen as its components see it."""

    controller: GameController
    played: PlayedGame
    sides: tuple[str, str]
    clocks: GameClocks
    coach: Coach
    link: EngineLink
    back_to_lab: bool
    #: The engine panels show the search's numbers (``True``) or a player's words.
    advanced: bool
    sub_title: str | None

    # -- the game's state and what is shown ------------------------------------------------

    @property
    def game(self) -> Game: ...

    @property
    def moves(self) -> list[str]: ...

    @property
    def review(self) -> int | None: ...

    def outcome(self) -> Outcome | None: ...

    @property
    def board(self) -> BoardView: ...

    @property
    def move_input(self) -> MoveInput: ...

    @property
    def move_list(self) -> MoveList: ...

    def panel(self, side: int) -> EnginePanel | None: ...

    # -- what the screen does for them ---------------------------------------------------------

    def say(self, text: str, *, error: bool = False) -> None: ...

    def next_turn(self) -> None: ...

    def update_status(self) -> None: ...

    def refresh_position(self) -> None: ...

    def update_analysis(self) -> None: ...

    def human_moved(self, move: object) -> None: ...

    def end_game(self, outcome: Outcome, why: str = "") -> None: ...

    # -- Textual's, as they use it ---------------------------------------------------------------

    @property
    def app(self) -> App[object]: ...

    @property
    def is_active(self) -> bool: ...

    @property
    def size(self) -> Size: ...

    def query_one(self, selector: str, expect_type: type[W]) -> W: ...

    def query(self, selector: type[W]) -> DOMQuery[W]: ...

    def set_timer(self, delay: float, callback: Callable[[], Any]) -> Timer: ...

    def call_later(self, callback: Callable[..., Any], *args: Any) -> bool: ...

    def call_after_refresh(self, callback: Callable[..., Any], *args: Any) -> bool: ...

    def run_worker(self, work: Callable[[], None], *, thread: bool, exclusive: bool, group: str) -> object: ...

    def post_message(self, message: Message) -> bool: ...

    def refresh_bindings(self) -> None: ...
