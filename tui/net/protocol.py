"""The wire protocol: one JSON object per line (UTF-8, ``\\n``-ended), version :data:`VERSION`.

Every message has a ``"type"``; what the peer sends is checked here against :data:`SCHEMAS` (the
fields, their types, their bounds) before anything looks at it: a line that is not JSON, not an
object, of an unknown type, with a missing, extra or ill-typed field, or longer than
:data:`MAX_LINE` bytes is a :class:`ProtocolError` whose text is the one line the host answers with.
Nothing from the wire is executed: JSON is parsed with the standard library's parser, numbers must be
plain integers, strings are bounded.  See ``docs/network.md`` for every message.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Iterable

__all__ = [
    "VERSION", "MAX_LINE", "MAX_HOST_LINE", "MAX_PLIES", "ProtocolError", "SCHEMAS", "HOST_SCHEMAS",
    "HOST_TYPES", "OFFERS", "AIDS_ASKED", "ENDED", "encode", "decode", "decode_host",
]

#: The protocol's version: a hello of another version is refused.
VERSION = 1
#: The longest line either side reads, in bytes (its newline included).
MAX_LINE = 4096
#: The longest line the host sends, in bytes: a state holds the whole game's moves.
MAX_HOST_LINE = 1 << 20
#: The longest string field.
MAX_TEXT = 200
#: The longest reason the host gives (a refusal may quote the game's own words).
MAX_REASON = 500
#: The most plies a game's state may list (no game of ours comes near it).
MAX_PLIES = 5000
#: The longest position text a state may start from.
MAX_START = 1000
#: The clock's bounds: a day of base time, an hour of increment (as ``--clock`` takes).
MAX_SECONDS = 86400.0
MAX_INCREMENT = 3600.0
#: What a player may offer the other: each needs the other's answer.
OFFERS = ("draw", "takeback", "rematch")

#: What a peer (player or spectator) may send: each type's fields and their Python types.  ``seq`` is
#: the sender's message number, strictly increasing over its whole seat (reconnections included);
#: a hello's ``aids`` says whether the guest agrees to the engine aids if the host allows them.
SCHEMAS: dict[str, dict[str, type]] = {
    "hello": {"v": int, "code": str, "role": str, "aids": bool},
    "move": {"seq": int, "ply": int, "move": str},
    "offer": {"seq": int, "ply": int, "what": str},
    "answer": {"seq": int, "ply": int, "what": str, "accept": bool},
    "resign": {"seq": int, "ply": int},
    "ping": {},
}

#: The refusal of a guest's hello that does not agree to the engine aids the host allows: the guest
#: is asked, and says hello again with ``aids`` true, or leaves (its seat is never taken meanwhile).
AIDS_ASKED = "aids: the host allows engine aids in this game: join agreeing to them, or leave"
#: The start of a ``bye``'s reason when the host ended the game (it quit): the game is over for good,
#: and a guest does not join again (any other ``bye``, or a dropped line, is joined again).
ENDED = "ended:"

#: What the host sends: ``welcome`` (once, after a good hello), ``state`` (the whole game after every
#: change), ``error`` (a refusal; nothing changed), ``bye`` (the host closes the connection).
HOST_TYPES = ("welcome", "state", "error", "bye")


class Shape:
    """What a field of a host's message may hold: :meth:`check` raises :class:`ProtocolError` naming
    the field (``state.clock.left[1]``) when the value does not fit."""

    def check(self, where: str, value: Any) -> None:
        raise NotImplementedError


@dataclass(frozen=True)
class Int(Shape):
    low: int = 0
    high: int = 2**53 - 1

    def check(self, where: str, value: Any) -> None:
        if type(value) is not int:
            raise ProtocolError(f"{where} must be an integer")
        if not self.low <= value <= self.high:
            raise ProtocolError(f"{where} out of range ({self.low} to {self.high})")


@dataclass(frozen=True)
class Seconds(Shape):
    """A finite number of seconds (an integer or a fraction)."""

    low: float
    high: float

    def check(self, where: str, value: Any) -> None:
        if type(value) not in (int, float) or not math.isfinite(value):
            raise ProtocolError(f"{where} must be a finite number")
        if not self.low <= value <= self.high:
            raise ProtocolError(f"{where} out of range ({self.low:g} to {self.high:g})")


@dataclass(frozen=True)
class Text(Shape):
    longest: int = MAX_TEXT
    among: tuple[str, ...] = ()

    def check(self, where: str, value: Any) -> None:
        if type(value) is not str:
            raise ProtocolError(f"{where} must be a string")
        if len(value) > self.longest:
            raise ProtocolError(f"{where} is at most {self.longest} characters")
        if self.among and value not in self.among:
            raise ProtocolError(f"{where} must be one of {', '.join(self.among)}")


@dataclass(frozen=True)
class Flag(Shape):
    def check(self, where: str, value: Any) -> None:
        if type(value) is not bool:
            raise ProtocolError(f"{where} must be true or false")


@dataclass(frozen=True)
class Maybe(Shape):
    """``null`` or ``inner``."""

    inner: Shape

    def check(self, where: str, value: Any) -> None:
        if value is not None:
            self.inner.check(where, value)


@dataclass(frozen=True)
class Items(Shape):
    """A list of ``inner`` of ``least`` to ``most`` items."""

    inner: Shape
    most: int
    least: int = 0

    def check(self, where: str, value: Any) -> None:
        if type(value) is not list:
            raise ProtocolError(f"{where} must be a list")
        if not self.least <= len(value) <= self.most:
            count = f"{self.most}" if self.least == self.most else f"{self.least} to {self.most}"
            raise ProtocolError(f"{where} has {count} items, not {len(value)}")
        for index, item in enumerate(value):
            self.inner.check(f"{where}[{index}]", item)


@dataclass(frozen=True)
class Fields(Shape):
    """An object with exactly these fields.  ``later``: fields a host of the protocol's first
    release does not send, with the value their absence means (filled in, then checked)."""

    fields: dict[str, Shape]
    later: dict[str, Any] = field(default_factory=dict)

    def check(self, where: str, value: Any) -> None:
        if type(value) is not dict:
            raise ProtocolError(f"{where} must be an object")
        extra = set(value) - set(self.fields)
        if extra:
            raise ProtocolError(f"{where}: unknown field {sorted(extra)[0][:40]!r}")
        for name, shape in self.fields.items():
            if name not in value and name in self.later:
                value[name] = self.later[name]
            if name not in value:
                raise ProtocolError(f"{where}: missing field {name!r}")
            shape.check(f"{where}.{name}", value[name])


_SIDE = Int(0, 1)
_CLOCK_TIME = Seconds(-MAX_SECONDS, 2 * MAX_SECONDS)  # a flag may fall a little below 0; moves may add
#: What the host may send, each type's fields (``type`` aside): its messages are checked as strictly as
#: a guest's (:func:`decode_host`), and the state's game is then replayed by the rules (:mod:`.trust`).
HOST_SCHEMAS: dict[str, Fields] = {
    "welcome": Fields({"v": Int(VERSION, VERSION), "role": Text(among=("play", "watch"))}),
    "state": Fields({
        "game": Text(40), "start": Maybe(Text(MAX_START)), "number": Int(1), "moves": Items(Text(100), MAX_PLIES),
        "ply": Int(), "turn": _SIDE, "you": Maybe(_SIDE), "seq": Int(), "paused": Flag(), "aids": Flag(),
        "clock": Maybe(Fields({"base": Seconds(0, MAX_SECONDS), "increment": Seconds(0, MAX_INCREMENT),
                               "left": Items(_CLOCK_TIME, 2, 2), "running": Maybe(_SIDE),
                               "history": Items(Items(_CLOCK_TIME, 2, 2), MAX_PLIES + 1)})),
        "offer": Maybe(Fields({"what": Text(among=OFFERS), "by": _SIDE})),
        "outcome": Maybe(Fields({"winner": Maybe(_SIDE), "reason": Text(), "said": Maybe(Text())})),
        "away": Maybe(Fields({"side": _SIDE, "seconds": Seconds(0, 10 * MAX_SECONDS),
                              "limit": Maybe(Seconds(0, MAX_SECONDS)), "claimable": Flag()})),
    }, later={"aids": False, "away": None}),
    "error": Fields({"reason": Text(MAX_REASON)}),
    "bye": Fields({"reason": Text(MAX_REASON)}),
}


class ProtocolError(ValueError):
    """A line refused: the message is the one-line reason sent back."""


def encode(message: dict[str, Any]) -> bytes:
    """One message as its line of the wire."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=True).encode("ascii") + b"\n"


def _no_constant(name: str) -> Any:
    raise ProtocolError(f"not JSON: {name} is not a number")


def _typed_object(line: bytes, longest: int, kinds: Iterable[str], *, fractions: bool) -> tuple[dict[str, Any], str]:
    """A line read as a JSON object whose ``type`` is one of ``kinds``: the object and its type."""
    if len(line) > longest:
        raise ProtocolError(f"line too long: at most {longest} bytes")
    try:
        message = json.loads(line.decode("utf-8"), parse_constant=_no_constant,
                             parse_float=None if fractions else _no_float)
    except ProtocolError:
        raise
    except UnicodeDecodeError:
        raise ProtocolError("not UTF-8") from None
    except RecursionError:
        raise ProtocolError("not JSON of this protocol: nested too deep") from None
    except ValueError:
        raise ProtocolError("not JSON") from None
    if not isinstance(message, dict):
        raise ProtocolError("not a JSON object")
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in kinds:
        raise ProtocolError(f"unknown type: expected one of {', '.join(kinds)}")
    return message, kind


#: A peer's fields a client of the protocol's first release does not send, and what their absence means:
#: a hello without ``aids`` does not agree to engine aids (a host that allows them refuses it the seat).
LATER: dict[tuple[str, str], Any] = {("hello", "aids"): False}


def decode(line: bytes) -> dict[str, Any]:
    """A peer's line read and checked against :data:`SCHEMAS`; :class:`ProtocolError` otherwise."""
    message, kind = _typed_object(line, MAX_LINE, SCHEMAS, fractions=False)
    fields = SCHEMAS[kind]
    extra = set(message) - set(fields) - {"type"}
    if extra:
        raise ProtocolError(f"{kind}: unknown field {sorted(extra)[0][:40]!r}")
    for name, expected in fields.items():
        if name not in message and (kind, name) in LATER:
            message[name] = LATER[kind, name]
        if name not in message:
            raise ProtocolError(f"{kind}: missing field {name!r}")
        value = message[name]
        # bool is an int to Python: an int field takes no bool, a bool field no int.
        if type(value) is not expected:
            raise ProtocolError(f"{kind}: {name!r} must be {expected.__name__}")
        if isinstance(value, int) and not 0 <= value < 2**53:
            raise ProtocolError(f"{kind}: {name!r} out of range")
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise ProtocolError(f"{kind}: {name!r} is at most {MAX_TEXT} characters")
    return message


def _no_float(text: str) -> Any:
    raise ProtocolError("not JSON of this protocol: no fractions")


def decode_host(line: bytes) -> dict[str, Any]:
    """A host's line read and checked against :data:`HOST_SCHEMAS`; :class:`ProtocolError` otherwise.

    The host is trusted no more than a guest: the line's size is bounded, JSON nested deeper than
    the schema allows is refused by its shape (and a line nested too deep to parse is "not JSON"),
    numbers are finite, strings bounded, and no field the schema does not name is taken."""
    message, kind = _typed_object(line, MAX_HOST_LINE, HOST_SCHEMAS, fractions=True)
    body = {name: value for name, value in message.items() if name != "type"}
    HOST_SCHEMAS[kind].check(kind, body)  # fills in the fields an earlier host leaves out
    return {"type": kind, **body}
