"""Opening the files the user points us at: every file the project reads goes through here.

A file from elsewhere is data, never trusted.  :func:`read_bytes` opens it
without blocking (``O_RDONLY | O_NONBLOCK | O_NOCTTY``), asks the *open
descriptor* whether it is a regular file (a FIFO, a device such as
``/dev/zero``, a socket or a directory is refused at once, before a byte is
read) and reads at most ``limit + 1`` bytes, whatever its size claims: a file
over the limit its loader declares is refused, not read to the end.  Text is
UTF-8 without NUL bytes, and no line of it over a cap (:func:`read_text`,
:data:`games.lines.MAX_LINE` unless the loader names its own); TOML and JSON are parsed only
after their nesting is counted (:func:`parse_toml`, :func:`parse_json`), so a
file of 3,000 nested brackets is one line, not a ``RecursionError``.

Paths the user types go through :func:`user_path`: ``~`` is expanded where it
can be, and ``~nosuchuser/x`` stays as typed (``Path.expanduser`` would raise
``RuntimeError``); reading it then says there is no such user.

Every problem is one line of the loader's own error type (a ``ValueError``),
naming the file and what is wrong.
"""

from __future__ import annotations

import json
import os
import stat
import tomllib
from pathlib import Path
from collections.abc import Iterable
from typing import Any, BinaryIO

from .lines import MAX_LINE, first_long_line, long_line

__all__ = ["MAX_DEPTH", "MAX_LINE", "user_path", "unknown_user", "open_regular", "read_bytes", "read_head", "read_text", "decode_text", "read_toml", "read_json",
           "parse_toml", "parse_json", "nesting_depth"]

#: The deepest nesting of tables, arrays or objects any of our TOML or JSON files has (they have 4 or 5).
MAX_DEPTH = 32

_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
_CHUNK = 1 << 20


def unknown_user(path: str | os.PathLike[str]) -> str | None:
    """The user of a ``~user`` path that cannot be expanded (no such user, no home), else ``None``."""
    text = os.fspath(path)
    if not isinstance(text, str) or not text.startswith("~"):
        return None
    if os.path.expanduser(text) != text:
        return None
    return text[1:].split("/", 1)[0]


def user_path(path: str | os.PathLike[str]) -> Path:
    """A path the user named, ``~`` and ``~user`` expanded where they can be; never raises for a
    user that does not exist (the path stays as typed, and reading it says so)."""
    return Path(os.path.expanduser(os.fspath(path)))


def _open_problem(shown: str, what: str, failure: OSError) -> str:
    """The line for a file that could not be opened."""
    if isinstance(failure, FileNotFoundError):
        user = unknown_user(shown)
        if user is not None:
            return f"{shown}: there is no user {user[:40]!r} to expand ~{user[:40]}"
        return f"{shown}: no such file"
    if isinstance(failure, IsADirectoryError):
        return f"{shown} is a directory, not {what}"
    return f"{shown}: cannot read it ({failure.strerror or failure})"


def _open_regular(path: str | os.PathLike[str], what: str, error: type[ValueError]) -> tuple[int, int, str]:
    """An open descriptor of the regular file at ``path``, its size and its name as shown; anything
    else is refused in one ``error`` line without waiting on it."""
    typed = os.fspath(path)
    file = user_path(path)
    shown = typed if unknown_user(typed) else str(file)
    try:
        descriptor = os.open(file, _FLAGS)
    except ValueError:  # a NUL in the path
        raise error(f"{shown[:60]!r}: a file path cannot contain a NUL character") from None
    except OSError as failure:
        raise error(_open_problem(shown, what, failure)) from None
    try:
        status = os.fstat(descriptor)
        if stat.S_ISDIR(status.st_mode):
            raise error(f"{shown} is a directory, not {what}")
        if not stat.S_ISREG(status.st_mode):
            raise error(f"{shown}: not a regular file (a device, a FIFO or a socket), not {what}")
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor, status.st_size, shown


def _read_upto(descriptor: int, size: int) -> bytes:
    """At most ``size`` bytes from ``descriptor`` (fewer at the end of the file)."""
    chunks: list[bytes] = []
    left = size
    while left > 0:
        chunk = os.read(descriptor, min(left, _CHUNK))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _too_large(shown: str, size: int, what: str, limit: int) -> str:
    return f"{shown}: {size:,} bytes; {what} over {limit:,} bytes is refused"


def read_bytes(path: str | os.PathLike[str], what: str, limit: int, error: type[ValueError],
               max_line: int | None = None) -> bytes:
    """The bytes of the regular file at ``path`` (``what`` it should be, such as ``a tables file``),
    at most ``limit`` of them.  Refused in one ``error`` line: missing, a directory, a FIFO, a
    device or anything else that is not a regular file (without waiting on it), over ``limit``
    bytes (read no further than ``limit + 1``), unreadable, or (a file of lines) with a line over
    ``max_line`` bytes (the line's number said)."""
    descriptor, size, shown = _open_regular(path, what, error)
    try:
        if size > limit:
            raise error(_too_large(shown, size, what, limit))
        data = _read_upto(descriptor, limit + 1)
        if len(data) > limit:
            raise error(f"{shown}: over {limit:,} bytes; {what} over that is refused")
        number = None if max_line is None else first_long_line(data, max_line)
        if number is not None:
            raise error(long_line(shown, number, max_line or 0))
        return data
    except OSError as failure:
        raise error(f"{shown}: cannot read it ({failure.strerror or failure})") from None
    finally:
        os.close(descriptor)


def open_regular(path: str | os.PathLike[str], what: str, error: type[ValueError],
                 limit: int | None = None) -> BinaryIO:
    """The regular file at ``path`` open to be read as a stream (a file too large to hold); missing,
    a directory, a FIFO, a device, unreadable or (given ``limit``) over ``limit`` bytes is refused
    in one ``error`` line, without waiting."""
    descriptor, size, shown = _open_regular(path, what, error)
    if limit is not None and size > limit:
        os.close(descriptor)
        raise error(_too_large(shown, size, what, limit))
    return os.fdopen(descriptor, "rb")


def read_head(path: str | os.PathLike[str], size: int) -> bytes:
    """The first ``size`` bytes of the regular file at ``path`` (to recognise what it is); a file
    that is missing, not a regular file or unreadable raises ``OSError`` without being waited on."""
    try:
        descriptor, _size, _shown = _open_regular(path, "a file", ValueError)
    except ValueError as refusal:
        raise OSError(str(refusal)) from None
    try:
        return _read_upto(descriptor, size)
    finally:
        os.close(descriptor)


def read_text(path: str | os.PathLike[str], what: str, limit: int, error: type[ValueError],
              max_line: int = MAX_LINE) -> str:
    """The text of the file at ``path`` (:func:`read_bytes`), checked to be UTF-8 (a byte-order
    mark is dropped), not binary (no NUL bytes) and without a line over ``max_line`` bytes."""
    data = read_bytes(path, what, limit, error, max_line)
    return decode_text(data, str(user_path(path)), what, error)


def decode_text(data: bytes, where: str, what: str, error: type[ValueError]) -> str:
    """``data`` as UTF-8 text without NUL bytes, else one ``error`` line naming ``where``."""
    if b"\x00" in data:
        raise error(f"{where}: not a text file (it holds NUL bytes), not {what}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as failure:
        raise error(f"{where}: not UTF-8 text (byte {failure.start}), not {what}") from None


def nesting_depth(text: str, stop: int = MAX_DEPTH) -> int:
    """How deeply the brackets and braces of a TOML or JSON ``text`` nest outside its strings and
    comments (counting stops past ``stop``).  Counted without recursion, so any text can be asked."""
    depth = deepest = 0
    at, end = 0, len(text)
    while at < end:
        char = text[at]
        if char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > stop:
                    return deepest
        elif char in "]}":
            depth = max(0, depth - 1)
        elif char == "#":
            newline = text.find("\n", at)
            at = end if newline < 0 else newline
            continue
        elif char in "\"'":
            at = _string_end(text, at)
            continue
        at += 1
    return deepest


def _string_end(text: str, at: int) -> int:
    """Where the TOML or JSON string starting at ``at`` ends (one past its closing quote)."""
    quote = text[at]
    if text.startswith(quote * 3, at):
        closing = text.find(quote * 3, at + 3) if quote == "'" else _closing(text, at + 3, quote * 3)
        return len(text) if closing < 0 else closing + 3
    closing = text.find(quote, at + 1) if quote == "'" else _closing(text, at + 1, quote)
    newline = text.find("\n", at + 1)
    if closing < 0 or (0 <= newline < closing):  # an unclosed one-line string: the line ends it
        return len(text) if newline < 0 else newline
    return closing + 1


def _closing(text: str, at: int, quote: str) -> int:
    """The next ``quote`` from ``at`` in a string with backslash escapes, or -1."""
    while True:
        found = text.find(quote, at)
        if found < 0:
            return -1
        backslashes = 0
        while found - backslashes - 1 >= at and text[found - backslashes - 1] == "\\":
            backslashes += 1
        if backslashes % 2 == 0:
            return found
        at = found + 1


def _deepest_value(value: Any, stop: int) -> int:
    """How deeply a parsed value's tables, arrays and objects nest (dotted keys make depth too)."""
    deepest = 0
    pending: list[tuple[Any, int]] = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        children: Iterable[Any]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        depth += 1
        deepest = max(deepest, depth)
        if deepest > stop:
            return deepest
        pending.extend((child, depth) for child in children)
    return deepest


def _too_deep(where: str, depth: int, error: type[ValueError]) -> ValueError:
    return error(f"{where}: nested more than {depth} levels deep; refused")


def parse_toml(text: str, where: str, error: type[ValueError], depth: int = MAX_DEPTH) -> dict[str, Any]:
    """The table of a TOML ``text`` (from ``where``), its nesting counted first: too deep, or not
    TOML, is one ``error`` line."""
    if nesting_depth(text, depth) > depth:
        raise _too_deep(where, depth, error)
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as failure:
        raise error(f"{where}: not valid TOML ({failure})") from None
    except RecursionError:
        raise _too_deep(where, depth, error) from None
    if _deepest_value(table, depth) > depth:
        raise _too_deep(where, depth, error)
    return table


def parse_json(text: str | bytes, where: str, error: type[ValueError], depth: int = MAX_DEPTH) -> Any:
    """The value of a JSON ``text`` (from ``where``), its nesting counted first: too deep, or not
    JSON, is one ``error`` line."""
    if isinstance(text, bytes):
        text = decode_text(text, where, "JSON", error)
    if nesting_depth(text, depth) > depth:
        raise _too_deep(where, depth, error)
    try:
        return json.loads(text)
    except json.JSONDecodeError as failure:
        raise error(f"{where}:{failure.lineno}: not valid JSON ({failure.msg})") from None
    except RecursionError:
        raise _too_deep(where, depth, error) from None


def read_toml(path: str | os.PathLike[str], what: str, limit: int, error: type[ValueError],
              depth: int = MAX_DEPTH) -> dict[str, Any]:
    """The TOML table in the file at ``path``: :func:`read_text`, then :func:`parse_toml`."""
    return parse_toml(read_text(path, what, limit, error), str(user_path(path)), error, depth)


def read_json(path: str | os.PathLike[str], what: str, limit: int, error: type[ValueError],
              depth: int = MAX_DEPTH) -> Any:
    """The JSON value in the file at ``path``: :func:`read_text`, then :func:`parse_json`."""
    return parse_json(read_text(path, what, limit, error), str(user_path(path)), error, depth)
