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
from typing import Any

__all__ = [
    "VERSION", "MAX_LINE", "ProtocolError", "SCHEMAS", "HOST_TYPES", "OFFERS", "encode", "decode",
]

#: The protocol's version: a hello of another version is refused.
VERSION = 1
#: The longest line either side reads, in bytes (its newline included).
MAX_LINE = 4096
#: The longest string field.
MAX_TEXT = 200
#: What a player may offer the other: each needs the other's answer.
OFFERS = ("draw", "takeback", "rematch")

#: What a peer (player or spectator) may send: each type's fields and their Python types.  ``seq`` is
#: the sender's message number, strictly increasing over its whole seat (reconnections included).
SCHEMAS: dict[str, dict[str, type]] = {
    "hello": {"v": int, "code": str, "role": str},
    "move": {"seq": int, "ply": int, "move": str},
    "offer": {"seq": int, "ply": int, "what": str},
    "answer": {"seq": int, "ply": int, "what": str, "accept": bool},
    "resign": {"seq": int, "ply": int},
    "ping": {},
}

#: What the host sends: ``welcome`` (once, after a good hello), ``state`` (the whole game after every
#: change), ``error`` (a refusal; nothing changed), ``bye`` (the host closes the connection).
HOST_TYPES = ("welcome", "state", "error", "bye")


class ProtocolError(ValueError):
    """A line refused: the message is the one-line reason sent back."""


def encode(message: dict[str, Any]) -> bytes:
    """One message as its line of the wire."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=True).encode("ascii") + b"\n"


def _no_constant(name: str) -> Any:
    raise ProtocolError(f"not JSON: {name} is not a number")


def decode(line: bytes) -> dict[str, Any]:
    """A peer's line read and checked against :data:`SCHEMAS`; :class:`ProtocolError` otherwise."""
    if len(line) > MAX_LINE:
        raise ProtocolError(f"line too long: at most {MAX_LINE} bytes")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError("not UTF-8") from None
    try:
        message = json.loads(text, parse_constant=_no_constant, parse_float=_no_float)
    except ProtocolError:
        raise
    except (ValueError, RecursionError):
        raise ProtocolError("not JSON") from None
    if not isinstance(message, dict):
        raise ProtocolError("not a JSON object")
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in SCHEMAS:
        raise ProtocolError(f"unknown type: expected one of {', '.join(SCHEMAS)}")
    fields = SCHEMAS[kind]
    extra = set(message) - set(fields) - {"type"}
    if extra:
        raise ProtocolError(f"{kind}: unknown field {sorted(extra)[0][:40]!r}")
    for name, expected in fields.items():
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
