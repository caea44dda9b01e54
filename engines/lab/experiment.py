"""Declarative experiments: a TOML file names a game, the engines to compare
(the *arms*), their opponents, the games per arm, the openings and a seed;
:class:`Experiment` turns it into one :class:`~engines.tournament.MatchConfig`
per arm, whose games are played like any match (reproducible, parallel,
resumable) into one results file.

The file::

    name = "quixo-depths"                 # a word: letters, digits, '-', '_'
    title = "Alpha-beta at depths 1-4 against random"
    source = "seed 004 (Quixo)"           # where the claims come from
    game = "quixo"
    games = 100                           # per arm (--games overrides it)
    openings = 0                          # random plies before the engines play
    seed = 0
    opponent = "random"                   # the arms' opponent unless an arm names its own
    x = "depth"                           # what the charts put on their x axis
    book = "balanced"                     # openings from a book instead (a shipped name, or a file
    book_order = "random"                 #   beside the experiment file); book_plies, book_include_lost
    resign = "movecount=3,score=5"        # adjudication, off unless given: also draw, maxmoves
    tc = "10+0.1"                         # clocks (seconds), and timemargin (ms)

    [sweep]                               # arms from a template ...
    engine = "alphabeta:depth={depth}"
    values = [1, 2, 3, 4]
    label = "depth {depth}"

    [[arm]]                               # ... and/or listed one by one
    label = "minimax"
    engine = "minimax:depth=3"
    x = 3                                 # its place on the x axis (else its index)
    series = "minimax"                    # its line in the charts (arms with the same series)

    [[claim]]                             # the seed's claims, each tested (see claims)
    text = "depth 1 already wins every game"
    kind = "equals"
    arm = "depth 1"
    measure = "wins"
    value = 1.0

Every arm is a match between its ``engine`` (agent A) and its ``opponent``
(agent B, the file's ``opponent`` unless given); its results are A's.  The
book, adjudication and clock keys are those of ``tui-games match`` (see
:mod:`engines.tournament.conditions`); every arm plays under them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

from games import GAME_NAMES
from games.files import parse_toml, read_text, unknown_user, user_path

from ..tournament.conditions import BOOK_ORDERS, MAX_TIMEMARGIN, SETTINGS, ConditionsError, DrawRule, Resign, \
    conditions_from, parse_time_control
from ..tournament.config import MatchConfig, MatchError

__all__ = ["Arm", "Claim", "Experiment", "ExperimentError", "CLAIM_KINDS", "MEASURES", "shipped",
           "load_experiment"]

#: How a claim is tested (see :mod:`engines.lab.claims`).
CLAIM_KINDS = ("equals", "above", "below", "better", "best", "order", "faster", "slower", "balance")
#: What a claim measures of an arm's games: its engine's score (draws a half),
#: wins or draws, or the score of whichever side moved first.
MEASURES = ("score", "wins", "draws", "first")
#: The keys an experiment file may have, and an arm's, and a claim's.
_KEYS = {"name", "title", "source", "game", "games", "openings", "seed", "opponent", "x", "sweep", "arm",
         "claim", "about", *SETTINGS}
_ARM_KEYS = {"label", "engine", "opponent", "x", "series"}
_SWEEP_KEYS = {"engine", "values", "label", "opponent"}
_CLAIM_KEYS = {"text", "kind", "arm", "arms", "measure", "value", "other"}
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
#: Largest experiment file read.
MAX_BYTES = 200_000
#: Control characters a text of the file may not hold: ESC (which starts a terminal's escape
#: sequences), CR, BEL, DEL, the C1 controls... every one but a line break and a tab.  A file's texts
#: reach the terminal and summary.txt.
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
#: The same, for the texts shown on one line (a table's row, a chart's legend): no break nor tab either.
_ONE_LINE_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_ONE_LINE_KEYS = {"name", "title", "x", "label", "series", "values", "engine", "opponent", "arm", "arms",
                  "other"}


class ExperimentError(MatchError):
    """A bad experiment file or name; the message is one line."""


@dataclass(frozen=True)
class Arm:
    """One compared engine: its label, spec, opponent, place on the x axis and
    the line it belongs to in the charts (``series``, one line when empty)."""

    label: str
    engine: str
    opponent: str
    x: float
    series: str = ""


@dataclass(frozen=True)
class Claim:
    """A seed's claim in its words, and how it is tested."""

    text: str
    kind: str
    arms: tuple[str, ...]
    measure: str = "score"
    value: float | None = None


@dataclass(frozen=True)
class Experiment:
    """A parsed experiment file (see the module doc)."""

    name: str
    title: str
    source: str
    game: str
    games: int
    openings: int
    seed: int
    x: str
    arms: tuple[Arm, ...]
    claims: tuple[Claim, ...]
    about: str = ""
    text: str = field(default="", compare=False, repr=False)
    #: The book, adjudication and clock settings, by name (``book``, ``resign``, ``tc`` ...).
    settings: tuple[tuple[str, Any], ...] = ()
    #: The folder of the experiment's file: a relative book path is read from there.
    folder: str = field(default="", compare=False, repr=False)

    def configs(self, games: int | None = None) -> list[MatchConfig]:
        """One match per arm (``games`` overrides the file's games per arm);
        a :class:`~engines.spec.SpecError` names a bad spec."""
        count = self.games if games is None else games
        conditions = conditions_from(self.game, dict(self.settings), folder=self.folder or None)
        return [MatchConfig.create(self.game, arm.engine, arm.opponent, count, self.openings, self.seed,
                                   conditions) for arm in self.arms]

    def with_conditions(self, given: dict[str, Any]) -> Experiment:
        """The experiment with ``given`` settings replacing the file's (command-line
        flags); its text, which a run's folder keeps, ends with a comment naming them."""
        settings = {**dict(self.settings), **given}
        if "book" in given:  # another book: the file's ways of taking its lines go with it
            settings = {key: value for key, value in settings.items()
                        if not key.startswith("book_") or key in given}
        shown = ", ".join(f"{key} = {_setting_text(value)}" for key, value in given.items())
        return replace(self, settings=tuple(settings.items()),
                       text=self.text.rstrip("\n") + f"\n# run with: {shown}\n")


def _fail(where: str, message: str) -> ExperimentError:
    return ExperimentError(f"{where}: {message}")


def _get(table: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str, default: Any = ...) -> Any:
    if key not in table:
        if default is ...:
            raise _fail(where, f"no {key!r}")
        return default
    value = table[key]
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise _fail(where, f"{key!r} must be {_kind_name(kind)}, not {value!r}")
    if not isinstance(value, kind):
        raise _fail(where, f"{key!r} must be {_kind_name(kind)}, not {value!r}")
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join({"str": "a text", "int": "a whole number", "float": "a number", "list": "a list",
                        "dict": "a table"}.get(k.__name__, k.__name__) for k in kinds)


def _unknown(table: dict[str, Any], allowed: set[str], where: str) -> None:
    extra = sorted(set(table) - allowed)
    if extra:
        raise _fail(where, f"unknown key {extra[0]!r}; expected one of: {', '.join(sorted(allowed))}")


def parse_experiment(text: str, where: str = "experiment") -> Experiment:
    """The experiment a TOML text declares; :class:`ExperimentError` says what is wrong."""
    table = parse_toml(text, where, ExperimentError)
    _no_controls(table, where)
    _unknown(table, _KEYS, where)
    name = _get(table, "name", str, where)
    if not _NAME_RE.match(name):
        raise _fail(where, f"name {name!r} must be a word of letters, digits, '-' and '_'")
    game = _get(table, "game", str, where)
    if game not in GAME_NAMES:
        raise _fail(where, f"unknown game {game!r}; expected one of: {', '.join(GAME_NAMES)}")
    games = _get(table, "games", int, where)
    openings = _get(table, "openings", int, where, 4)
    if games < 1 or openings < 0:
        raise _fail(where, "'games' must be 1 or more and 'openings' 0 or more")
    opponent = _get(table, "opponent", str, where, None)
    arms: list[Arm] = []
    sweep = _get(table, "sweep", dict, where, None)
    if sweep is not None:
        _unknown(sweep, _SWEEP_KEYS, f"{where} [sweep]")
        template = _get(sweep, "engine", str, f"{where} [sweep]")
        values = _get(sweep, "values", list, f"{where} [sweep]")
        label = _get(sweep, "label", str, f"{where} [sweep]", None)
        fields = re.findall(r"\{(\w+)\}", template)
        if len(set(fields)) != 1:
            raise _fail(f"{where} [sweep]", f"the engine {template!r} needs one {{parameter}} to sweep")
        parameter = fields[0]
        unknown = sorted(set(re.findall(r"\{(\w+)\}", label or "")) - {parameter})
        if unknown:
            raise _fail(f"{where} [sweep]", f"the label {label!r} names {{{unknown[0]}}}, which is not the "
                                            f"parameter swept in the engine ({{{parameter}}})")
        for value in values:
            if isinstance(value, bool) or not isinstance(value, (int, float, str)):
                raise _fail(f"{where} [sweep]", f"value {value!r} is not a number or a word")
            spec = template.replace(f"{{{parameter}}}", str(value))
            text_label = (label or f"{parameter}={{{parameter}}}").replace(f"{{{parameter}}}", str(value))
            x = float(value) if isinstance(value, (int, float)) else float(len(arms))
            arms.append(Arm(text_label, spec, _get(sweep, "opponent", str, f"{where} [sweep]", opponent) or "",
                            x))
    for number, raw in enumerate(_get(table, "arm", list, where, []), 1):
        at = f"{where} arm {number}"
        if not isinstance(raw, dict):
            raise _fail(at, "must be a table ([[arm]])")
        _unknown(raw, _ARM_KEYS, at)
        engine = _get(raw, "engine", str, at)
        arm_opponent = _get(raw, "opponent", str, at, opponent)
        if not arm_opponent:
            raise _fail(at, "no 'opponent' (give one for the file or for this arm)")
        x = _get(raw, "x", (int, float), at, len(arms))
        arms.append(Arm(_get(raw, "label", str, at, engine), engine, arm_opponent, float(x),
                        _get(raw, "series", str, at, "")))
    if not arms:
        raise _fail(where, "no arms: give a [sweep] or [[arm]] tables")
    if any(not arm.opponent for arm in arms):
        raise _fail(where, "the sweep has no 'opponent' (give one for the file or the sweep)")
    labels = [arm.label for arm in arms]
    if len(set(labels)) != len(labels):
        raise _fail(where, "two arms have the same label")
    pairs = [(arm.engine, arm.opponent) for arm in arms]
    if len(set(pairs)) != len(pairs):
        raise _fail(where, "two arms play the same engines against each other")
    claims = [_claim(raw, f"{where} claim {number}", set(labels))
              for number, raw in enumerate(_get(table, "claim", list, where, []), 1)]
    settings = _settings(table, where)
    if settings.get("book") is not None and "openings" in table:
        raise _fail(where, "'openings' (random plies) and 'book' are two ways to open the games; give one")
    return Experiment(
        name=name, title=_get(table, "title", str, where, name), source=_get(table, "source", str, where, ""),
        game=game, games=games, openings=openings, seed=_get(table, "seed", int, where, 0),
        x=_get(table, "x", str, where, "arm"), arms=tuple(arms), claims=tuple(claims),
        about=_get(table, "about", str, where, ""), text=text, settings=tuple(settings.items()))


def _no_controls(value: Any, where: str, key: str = "") -> None:
    """Refuse a control character in any text of ``value`` (the file's table, or a value in it, under
    ``key``): an arm's label with ``\\x1b[2J`` would clear the terminal the summary is printed on."""
    if isinstance(value, dict):
        for inner, item in value.items():
            _no_controls(item, where, inner)
    elif isinstance(value, list):
        for item in value:
            _no_controls(item, where, key)
    elif isinstance(value, str):
        found = (_ONE_LINE_CONTROL_RE if key in _ONE_LINE_KEYS else _CONTROL_RE).search(value)
        if found is not None:
            raise _fail(where, f"{key!r} {value[:60]!r} holds the control character {found.group()!r}; "
                               f"the texts of an experiment are shown as they are, on the terminal and in "
                               f"summary.txt")


def _settings(table: dict[str, Any], where: str) -> dict[str, Any]:
    """The book, adjudication and clock keys of an experiment file, each checked (the book is read
    when the experiment's matches are made)."""
    kinds: dict[str, type | tuple[type, ...]] = {"book": str, "book_order": str, "book_plies": int,
                                                 "book_include_lost": bool, "resign": str, "draw": str,
                                                 "maxmoves": int, "tc": str, "timemargin": int}
    settings = {key: _get(table, key, kinds[key], where) for key in SETTINGS if key in table}
    if settings.get("book_order", "sequential") not in BOOK_ORDERS:
        raise _fail(where, f"'book_order' must be one of: {', '.join(BOOK_ORDERS)}")
    if settings.get("book_plies", 0) < 0 or settings.get("maxmoves", 1) < 1:
        raise _fail(where, "'book_plies' must be 0 or more, 'maxmoves' 1 or more")
    if not 0 <= settings.get("timemargin", 0) <= MAX_TIMEMARGIN:
        raise _fail(where, f"'timemargin' must be 0 to {MAX_TIMEMARGIN:,} (ms: an hour)")
    try:
        for key, parse in (("resign", Resign.parse), ("draw", DrawRule.parse), ("tc", parse_time_control)):
            if key in settings:
                parse(settings[key])
    except ConditionsError as error:
        raise _fail(where, str(error)) from None
    return settings


def _setting_text(value: Any) -> str:
    """A setting as a TOML value (a rule read from a flag as its text)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (Resign, DrawRule)):
        return f'"{value.text()}"'
    return f'"{value}"' if isinstance(value, str) else str(value)


def _claim(raw: Any, where: str, labels: set[str]) -> Claim:
    if not isinstance(raw, dict):
        raise _fail(where, "must be a table ([[claim]])")
    _unknown(raw, _CLAIM_KEYS, where)
    kind = _get(raw, "kind", str, where)
    if kind not in CLAIM_KINDS:
        raise _fail(where, f"kind {kind!r}; expected one of: {', '.join(CLAIM_KINDS)}")
    measure = _get(raw, "measure", str, where, "score")
    if measure not in MEASURES:
        raise _fail(where, f"measure {measure!r}; expected one of: {', '.join(MEASURES)}")
    arms: list[str] = []
    if "arm" in raw:
        arms.append(_get(raw, "arm", str, where))
    if "other" in raw:
        arms.append(_get(raw, "other", str, where))
    for label in _get(raw, "arms", list, where, []):
        if not isinstance(label, str):
            raise _fail(where, f"'arms' must list arm labels, not {label!r}")
        arms.append(label)
    for label in arms:
        if label not in labels:
            raise _fail(where, f"no arm labelled {label!r}")
    needed = {"equals": 1, "above": 1, "below": 1, "better": 2, "faster": 1, "slower": 1, "best": 1,
              "balance": 1, "order": 2}[kind]
    if len(arms) < needed:
        raise _fail(where, f"a {kind!r} claim names {needed} arm{'s' if needed > 1 else ''}")
    value = _get(raw, "value", (int, float), where, None)
    if kind in ("equals", "above", "below") and value is None:
        raise _fail(where, f"a {kind!r} claim needs a 'value' (a rate from 0 to 1)")
    if value is not None and not 0 <= value <= 1:
        raise _fail(where, f"'value' {value!r} is a rate from 0 to 1")
    return Claim(_get(raw, "text", str, where), kind, tuple(arms), measure,
                 None if value is None else float(value))


def shipped() -> dict[str, Path]:
    """The experiments that ship with tui-games, by name."""
    folder = resources.files(__package__) / "experiments"
    found = {}
    for entry in folder.iterdir():
        if entry.name.endswith(".toml"):
            found[entry.name[:-5]] = Path(str(entry))
    return dict(sorted(found.items()))


def load_experiment(name_or_path: str) -> Experiment:
    """A shipped experiment by name, or the experiment file at a path."""
    known = shipped()
    if name_or_path in known:
        path = known[name_or_path]
    else:
        path = user_path(name_or_path)
        if not path.suffix == ".toml" and not path.exists() and not unknown_user(name_or_path):
            raise ExperimentError(f"no experiment named {name_or_path!r}; the shipped ones: "
                                  f"{', '.join(known)} (or give a FILE.toml)")
    text = read_text(path, "an experiment file", MAX_BYTES, ExperimentError)
    return replace(parse_experiment(text, str(path)), folder=str(path.parent))
