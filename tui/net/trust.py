"""The host's states checked by the rules before the guest believes them.

:func:`.protocol.decode_host` checks a state's shape; :class:`StateCheck` checks what it says: the game
is one this machine knows, the start is a position of it, every move is legal from there in turn, and
the ply, the side to move, the seat and the clock agree with the moves.  A state that does not is a
:class:`~.protocol.ProtocolError`: the guest ends the connection with that one line, as the host does
with a guest that breaks the protocol.  The replay goes on from the last state checked (a state
usually adds one move), so a long game costs one move a state.
"""

from __future__ import annotations

from typing import Any

from games import Game, game_class, new_game

from .protocol import ProtocolError

__all__ = ["StateCheck"]


class StateCheck:
    """Checks each state a host sends for ``role`` (``play``: ``you`` is a side; ``watch``: none)."""

    def __init__(self, role: str) -> None:
        self.role = role
        self._key: tuple[str, str | None, int] | None = None
        self._game: Game | None = None
        self._moves: list[str] = []

    def check(self, state: dict[str, Any]) -> None:
        """Raise :class:`ProtocolError` (one line) unless ``state`` is a game the rules allow."""
        name, start, number = state["game"], state["start"], state["number"]
        if self._key is not None and self._key[0] != name:
            raise ProtocolError(f"state: the game changed from {self._key[0]} to {name[:40]}")
        if self._key is not None and number < self._key[2]:
            raise ProtocolError(f"state: game number {number} comes after {self._key[2]}")
        game = self._replayed(name, start, number, state["moves"])
        if state["ply"] != game.ply:
            raise ProtocolError(f"state: ply {state['ply']}, but its moves reach ply {game.ply}")
        if state["turn"] != game.turn:
            raise ProtocolError(f"state: side {state['turn']} to move, but its moves give the move to {game.turn}")
        if (state["you"] is None) != (self.role == "watch"):
            raise ProtocolError("state: 'you' does not fit this seat" if self.role == "play"
                                else "state: a spectator was given a side")
        clock = state["clock"]
        if clock is not None:
            if clock["base"] <= 0:
                raise ProtocolError("state: clock.base must be above 0 seconds")
            if len(clock["history"]) > len(state["moves"]) + 1:
                raise ProtocolError("state: the clock's history is longer than the game")

    def _replayed(self, name: str, start: str | None, number: int, moves: list[str]) -> Game:
        """The game after ``moves`` from ``start``, replayed from the last state checked where it can."""
        key = (name, start, number)
        if key != self._key or self._game is None:
            try:
                game_class(name)
                fresh = new_game(name, start)
            except ValueError as error:  # a GameError, or a plug-in's own
                raise ProtocolError(f"state: {str(error)[:200]}") from None
            self._key, self._game, self._moves = key, fresh, []
        game = self._game
        common = 0
        while common < min(len(moves), len(self._moves)) and moves[common] == self._moves[common]:
            common += 1
        while len(self._moves) > common:
            game.undo()
            self._moves.pop()
        for text in moves[common:]:
            try:
                game.play(game.parse_move(text))
            except ValueError as error:  # a GameError, or a plug-in's own
                self._key = None  # the game was left part-way: start again next time
                raise ProtocolError(f"state: move {len(self._moves) + 1} {text[:40]!r}: {str(error)[:200]}") from None
            self._moves.append(text)
        return game
