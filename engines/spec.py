"""Engine spec strings: ``NAME`` or ``NAME:key=value,key=value``.

A spec names an engine and sets its options, e.g. ``alphabeta:depth=4,heuristic=sef``
or ``pvs:time=0.5``.  An option named ``PREFIX.NAME`` is a family: it
takes any key that starts with ``PREFIX.`` (``uci:option.Hash=64``); the part after
the dot keeps its case (spaces become ``_``), the engine checks it.  The same string works in the app, the command line and
tournaments.  :func:`parse_spec` checks it against the engine's option table and
raises :class:`SpecError` with a one-line message naming what is wrong and
what would be right.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

__all__ = ["SpecError", "Option", "EngineSpec", "parse_spec", "format_spec", "parse_switch"]


class SpecError(ValueError):
    """A bad engine spec; the message is one line and says what was expected."""


def parse_switch(text: str) -> bool | None:
    """``on``/``true``/``yes``/``1`` as True, ``off``/``false``/``no``/``0`` as False, else ``None``."""
    lowered = text.strip().lower()
    if lowered in ("on", "true", "yes", "1"):
        return True
    if lowered in ("off", "false", "no", "0"):
        return False
    return None


@dataclass(frozen=True)
class Option:
    """One option an engine accepts: its type, default and allowed range."""

    name: str
    kind: type  # int, float, bool or str
    default: Any
    help: str
    minimum: float | None = None
    choices: tuple[str, ...] | None = None
    maximum: float | None = None
    #: Which games the option means something for (``None``: every game), for lists shown to players.
    applies: Callable[[type], bool] | None = None

    def applies_to(self, game_class: type) -> bool:
        """Whether the option means something when ``game_class`` is played (a solver's reach: only in
        games with a solver)."""
        return self.applies is None or self.applies(game_class)

    @property
    def family(self) -> bool:
        """Whether this option names a family of keys (``option.NAME`` takes ``option.Hash``, ...)."""
        return self.name.endswith(".NAME")

    @property
    def prefix(self) -> str:
        """What a family's keys start with (``option.``)."""
        return self.name.removesuffix("NAME")

    def convert(self, engine: str, text: str) -> Any:
        """The option's value from its text in a spec."""
        what = f"{engine}: option {self.name}"
        if self.kind is bool:
            switch = parse_switch(text)
            if switch is None:
                raise SpecError(f"{what} must be on or off, got {text!r}")
            return switch
        if self.kind is int:
            try:
                value: Any = int(text)
            except ValueError:
                raise SpecError(f"{what} must be a whole number{self._range()}, got {text!r}") from None
        elif self.kind is float:
            try:
                value = float(text)
            except ValueError:
                raise SpecError(f"{what} must be a number{self._range()}, got {text!r}") from None
            if value != value or value in (float("inf"), float("-inf")):
                raise SpecError(f"{what} must be a finite number, got {text!r}")
        else:
            value = text
            if self.choices is not None and value not in self.choices:
                raise SpecError(f"{what} must be one of {', '.join(self.choices)}, got {text!r}")
        if self.minimum is not None and value < self.minimum:
            raise SpecError(f"{what} must be{self._range()}, got {text[:40]!r}")
        if self.maximum is not None and value > self.maximum:
            raise SpecError(f"{what} must be <= {self.maximum:g}, got {text[:40]!r}")
        return value

    def _range(self) -> str:
        return "" if self.minimum is None else f" >= {self.minimum:g}"


@dataclass(frozen=True)
class EngineSpec:
    """A parsed spec: the engine's name and the options given explicitly.

    ``options`` holds only what the spec string set; :meth:`get` falls back to
    the engine's defaults.
    """

    name: str
    options: Mapping[str, Any] = field(default_factory=dict)
    table: Mapping[str, Option] = field(default_factory=dict, repr=False, compare=False)

    def get(self, key: str) -> Any:
        if key in self.options:
            return self.options[key]
        return self.table[key].default

    def family(self, prefix: str) -> dict[str, Any]:
        """The values the spec sets in a family of options, by the name after
        ``prefix`` (``family("option.")`` of ``uci:option.Hash=64`` is ``{"Hash": "64"}``)."""
        return {key[len(prefix):]: value for key, value in self.options.items()
                if key.lower().startswith(prefix) and len(key) > len(prefix)}

    def __str__(self) -> str:
        return format_spec(self.name, self.options)


_NAME_RE = re.compile(r"[a-z][a-z0-9-]*\Z")


def format_spec(name: str, options: Mapping[str, Any]) -> str:
    """The canonical spec text: ``name`` or ``name:key=value,...`` in the given order."""
    if not options:
        return name

    def text(value: Any) -> str:
        if isinstance(value, bool):
            return "on" if value else "off"
        if isinstance(value, float):
            return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
        return str(value)

    return name + ":" + ",".join(f"{k}={text(v)}" for k, v in options.items())


def parse_spec(text: str, tables: Mapping[str, Mapping[str, Option]],
               check: Callable[[EngineSpec], None] | None = None) -> EngineSpec:
    """Parse ``text`` against ``tables`` (engine name -> its options).

    Names and keys are case-insensitive; spaces around them are ignored.
    ``check`` may raise :class:`SpecError` for constraints between options.
    """
    if not isinstance(text, str) or not text.strip():
        raise SpecError(f"empty engine spec; expected NAME or NAME:key=value,... "
                        f"with NAME one of: {', '.join(tables)}")
    name_part, colon, rest = text.strip().partition(":")
    name = name_part.strip().lower()
    if name not in tables:
        shown = name_part.strip()
        hint = "" if _NAME_RE.match(name) else " (expected NAME or NAME:key=value,...)"
        raise SpecError(f"unknown engine {shown[:40]!r}{hint}; expected one of: {', '.join(tables)}")
    table = tables[name]
    options: dict[str, Any] = {}
    if colon and not rest.strip():
        raise SpecError(f"{name}: nothing after ':'; expected key=value pairs such as "
                        f"{_example(name, table)}")
    for item in rest.split(",") if rest.strip() else ():
        written, eq, value = item.partition("=")
        key = written.strip().lower()
        value = value.strip()
        if not eq or not key or not value:
            raise SpecError(f"{name}: expected key=value, got {item.strip()[:40]!r}; "
                            f"for example {_example(name, table)}")
        option = table.get(key)
        if option is None:
            option = next((o for o in table.values() if o.family and key.startswith(o.prefix)
                           and len(key) > len(o.prefix)), None)
            if option is not None:  # a family's member keeps its spelling after the prefix, spaces as _
                key = option.prefix + "_".join(written.strip()[len(option.prefix):].split())
        if option is None:
            known = ", ".join(table) or "none"
            raise SpecError(f"{name}: unknown option {key[:40]!r}; its options are: {known}")
        if key.lower() in (k.lower() for k in options):
            raise SpecError(f"{name}: option {key[:40]} given twice")
        options[key] = option.convert(name, value)
    spec = EngineSpec(name, options, table)
    if check is not None:
        check(spec)
    return spec


def _example(name: str, table: Mapping[str, Option]) -> str:
    for option in table.values():
        if option.default is not None:
            value = "on" if option.default is True else option.default
            return f"'{name}:{option.name}={value}'"
    return f"'{name}'"
