"""Engine spec strings (docs/engines.md): ``NAME`` or ``NAME:key=value,...``.

Parsing is checked against the engines' option tables: names and keys ignore
case and surrounding spaces, values are typed, and every mistake raises a
:class:`SpecError` whose message is one line and quotes the part that is wrong.
``str(spec)`` is the canonical text and parses back to the same spec.
"""

from __future__ import annotations

import string
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import (
    ENGINE_NAMES,
    ENGINES,
    EngineSpec,
    Limits,
    SpecError,
    create_engine,
    parse_engine_spec,
)
from games import GAME_NAMES, game_class


def assert_one_line_error(error: pytest.ExceptionInfo[SpecError], *fragments: str) -> str:
    """The error's message, checked to be a single non-empty line containing every fragment."""
    message = str(error.value)
    assert message and "\n" not in message and "\r" not in message, repr(message)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    return message


# ---------------------------------------------------------------- good specs
@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_a_bare_name_is_a_spec_with_no_options(name: str) -> None:
    spec = parse_engine_spec(name)
    assert spec.name == name
    assert dict(spec.options) == {}
    assert str(spec) == name


def test_the_seed_family_and_pvs_are_registered() -> None:
    assert set(ENGINE_NAMES) >= {"random", "minimax", "alphabeta", "alphabeta-hard", "bl", "h0", "hl", "pvs"}


def test_options_are_converted_to_their_types() -> None:
    spec = parse_engine_spec("alphabeta:depth=3,time=0.25,nodes=5000,heuristic=sef,seed=-7,tt=off,order=on")
    assert dict(spec.options) == {
        "depth": 3, "time": 0.25, "nodes": 5000, "heuristic": "sef", "seed": -7, "tt": False, "order": True,
    }
    assert type(spec.options["depth"]) is int
    assert type(spec.options["time"]) is float
    assert type(spec.options["tt"]) is bool


def test_names_and_keys_ignore_case_and_spaces() -> None:
    spec = parse_engine_spec("  AlphaBeta-HARD : Depth = 3 ,TT= OFF,  Heuristic =sef  ")
    assert spec.name == "alphabeta-hard"
    assert dict(spec.options) == {"depth": 3, "tt": False, "heuristic": "sef"}
    assert str(spec) == "alphabeta-hard:depth=3,tt=off,heuristic=sef"


@pytest.mark.parametrize(("text", "value"), [
    ("on", True), ("ON", True), ("true", True), ("True", True), ("yes", True), ("1", True),
    ("off", False), ("Off", False), ("false", False), ("FALSE", False), ("no", False), ("0", False),
])
def test_boolean_options_accept_on_off_true_false(text: str, value: bool) -> None:
    spec = parse_engine_spec(f"alphabeta:tt={text}")
    assert spec.options["tt"] is value
    assert str(spec) == f"alphabeta:tt={'on' if value else 'off'}"


def test_options_not_given_fall_back_to_the_engine_defaults() -> None:
    assert parse_engine_spec("alphabeta").get("depth") == 4
    assert parse_engine_spec("minimax").get("depth") == 3
    assert parse_engine_spec("minimax").get("tt") is False
    assert parse_engine_spec("alphabeta").get("tt") is True
    assert parse_engine_spec("pvs").get("time") == 1.0
    assert parse_engine_spec("bl").get("bf") == 5
    assert parse_engine_spec("h0:k=3").get("k") == 3


@pytest.mark.parametrize(("text", "limits"), [
    ("alphabeta:depth=3", Limits(depth=3)),
    ("alphabeta", Limits(depth=4)),
    ("alphabeta:time=0.5", Limits(time=0.5)),  # a time budget without a depth deepens freely
    ("alphabeta:nodes=100", Limits(nodes=100)),
    ("alphabeta:depth=2,nodes=100", Limits(depth=2, nodes=100)),
    ("pvs", Limits(time=1.0)),
    ("pvs:depth=5", Limits(depth=5)),  # pvs's default time only when no depth or node budget is given
    ("pvs:nodes=100", Limits(nodes=100)),
    ("pvs:depth=5,time=2", Limits(depth=5, time=2.0)),
])
def test_an_engine_takes_its_limits_from_the_spec(text: str, limits: Limits) -> None:
    assert create_engine(text, game_class("checkers")).limits() == limits


@pytest.mark.parametrize("text", [
    "random", "minimax:depth=2", "alphabeta:depth=3,tt=off", "alphabeta-hard:order=off,seed=3",
    "bl:bf=200,l=0", "h0:k=2,cut=material", "hl:k=3,l=2", "pvs:time=0.3", "pvs:workers=2,nodes=10",
    "alphabeta:heuristic=line-potential,depth=1",
])
def test_str_is_canonical_and_parses_back_to_the_same_spec(text: str) -> None:
    spec = parse_engine_spec(text)
    assert str(spec) == text
    again = parse_engine_spec(str(spec))
    assert again == spec
    assert str(again) == text


def test_create_engine_takes_a_parsed_spec_or_its_text() -> None:
    checkers = game_class("checkers")
    spec = parse_engine_spec("alphabeta:depth=2")
    assert create_engine(spec, checkers).spec == spec
    assert create_engine("alphabeta:depth=2", checkers).spec == spec
    assert isinstance(create_engine(spec, checkers).spec, EngineSpec)


@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_every_heuristic_of_a_game_is_accepted(game_name: str) -> None:
    cls = game_class(game_name)
    for heuristic in cls.HEURISTICS:
        assert create_engine(f"alphabeta:heuristic={heuristic}", cls).spec.get("heuristic") == heuristic
        create_engine(f"h0:cut={heuristic}", cls)
        create_engine(f"hl:cut={heuristic},heuristic={heuristic}", cls)


# ----------------------------------------------------------------- bad specs
@pytest.mark.parametrize(("text", "fragments"), [
    ("", ("empty", "alphabeta")),
    ("   ", ("empty",)),
    ("foo", ("unknown engine", "'foo'", "alphabeta")),
    ("Foo:depth=3", ("unknown engine", "'Foo'")),
    ("alpha beta", ("unknown engine", "'alpha beta'")),
    ("alphabeta:", ("alphabeta", "nothing after ':'")),
    ("alphabeta:depth", ("alphabeta", "key=value", "'depth'")),
    ("alphabeta:depth=", ("key=value", "'depth='")),
    ("alphabeta:=3", ("key=value", "'=3'")),
    ("alphabeta:depth=3,,tt=off", ("key=value",)),
    ("alphabeta:k=3", ("unknown option", "'k'", "depth")),
    ("random:depth=3", ("random", "unknown option", "'depth'", "seed")),
    ("alphabeta:depth=abc", ("depth", "whole number", "'abc'")),
    ("alphabeta:depth=2.5", ("depth", "'2.5'")),
    ("alphabeta:depth=0", ("depth", ">= 1", "'0'")),
    ("h0:k=0", ("k", ">= 1", "'0'")),
    ("bl:l=-1", ("option l", ">= 0", "'-1'")),
    ("pvs:time=0", ("time", "'0'")),
    ("pvs:time=soon", ("time", "number", "'soon'")),
    ("pvs:time=nan", ("time", "finite", "'nan'")),
    ("pvs:time=inf", ("time", "finite", "'inf'")),
    ("pvs:workers=0", ("workers", "'0'")),
    ("alphabeta:depth=3,depth=4", ("depth", "twice")),
    ("alphabeta:depth=3,DEPTH=4", ("depth", "twice")),
    ("alphabeta:tt=maybe", ("tt", "on or off", "'maybe'")),
    ("alphabeta:depth=3\nx", ("depth",)),
    ("x" * 500, ("unknown engine",)),
])
def test_bad_specs_raise_one_line_errors_naming_the_bad_part(text: str, fragments: tuple[str, ...]) -> None:
    with pytest.raises(SpecError) as error:
        parse_engine_spec(text)
    message = assert_one_line_error(error, *fragments)
    assert len(message) < 300


#: The engines' options that name a heuristic of the game.
HEURISTIC_OPTIONS = ("alphabeta:heuristic", "pvs:heuristic", "bl:heuristic", "h0:cut", "hl:cut")


def _foreign_heuristics(game_name: str) -> set[str]:
    """The heuristics other registered games have and ``game_name`` has not."""
    return {name for other in GAME_NAMES for name in game_class(other).HEURISTICS} - set(game_class(game_name).HEURISTICS)


@pytest.mark.parametrize("option", HEURISTIC_OPTIONS)
@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_an_unknown_heuristic_for_the_game_is_a_spec_error(game_name: str, option: str) -> None:
    cls = game_class(game_name)
    engine = option.partition(":")[0]
    cases = [("nope", (engine, "'nope'", *sorted(cls.HEURISTICS)))]  # the message lists the game's own
    cases += [(foreign, (engine, repr(foreign), game_name))  # another game's heuristic: not this game's
              for foreign in sorted(_foreign_heuristics(game_name))]
    for name, fragments in cases:
        text = f"{option}={name}"
        parse_engine_spec(text)  # well formed: only the game can tell
        with pytest.raises(SpecError) as error:
            create_engine(text, cls)
        assert_one_line_error(error, *fragments)


def test_spec_errors_are_value_errors() -> None:
    assert issubclass(SpecError, ValueError)


# ------------------------------------------------------------ generated specs
def _value_text(kind: type, minimum: float | None, maximum: float | None = None,
                choices: tuple[str, ...] | None = None) -> st.SearchStrategy[tuple[Any, str]]:
    """(value, text) pairs an option of this kind accepts (one of its ``choices``, if it has some)."""
    if choices is not None:
        return st.sampled_from(choices).map(lambda v: (v, v))
    if kind is bool:
        return st.sampled_from([(True, "on"), (True, "True"), (False, "off"), (False, "FALSE")])
    if kind is int:
        low = int(minimum) if minimum is not None else -10**6
        high = int(maximum) if maximum is not None else 10**9
        return st.integers(low, high).map(lambda v: (v, str(v)))
    if kind is float:
        low = minimum if minimum is not None else -1e6
        top = maximum if maximum is not None else 1e6
        return st.floats(low, top, allow_nan=False).map(lambda v: (v, repr(v)))
    return st.text(string.ascii_lowercase + string.digits + "-", min_size=1, max_size=12).map(lambda v: (v, v))


def _case(text: str, upper: list[bool]) -> str:
    return "".join(c.upper() if upper[i % len(upper)] else c for i, c in enumerate(text))


@st.composite
def spec_texts(draw: st.DrawFn) -> tuple[str, str, dict[str, Any]]:
    """A spec text in random case and spacing, with the engine name and options it means."""
    name = draw(st.sampled_from(ENGINE_NAMES))
    table = ENGINES[name].options
    keys = draw(st.lists(st.sampled_from(list(table)), unique=True, max_size=len(table)))
    upper = draw(st.lists(st.booleans(), min_size=1, max_size=5))
    space = st.sampled_from(["", " ", "  "])
    options: dict[str, Any] = {}
    items = []
    for key in keys:
        option = table[key]
        value, text = draw(_value_text(option.kind, option.minimum, option.maximum, option.choices))
        options[key] = value
        items.append(f"{draw(space)}{_case(key, upper)}{draw(space)}={draw(space)}{text}{draw(space)}")
    text = draw(space) + _case(name, upper) + draw(space)
    if items:
        text += ":" + ",".join(items)
    return text, name, options


@settings(max_examples=200, deadline=None)
@given(spec_texts())
def test_generated_specs_parse_and_round_trip(case: tuple[str, str, dict[str, Any]]) -> None:
    text, name, options = case
    spec = parse_engine_spec(text)
    assert spec.name == name
    assert dict(spec.options) == options
    assert list(spec.options) == list(options)  # str keeps the order given
    canonical = str(spec)
    assert " " not in canonical and canonical.partition(":")[0] == name
    assert parse_engine_spec(canonical) == spec
    assert str(parse_engine_spec(canonical)) == canonical


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60) | st.from_regex(r"[a-zA-Z -]{0,15}(:[a-zA-Z =,.0-9-]{0,30})?", fullmatch=True))
def test_any_text_parses_or_raises_a_one_line_spec_error(text: str) -> None:
    try:
        spec = parse_engine_spec(text)
    except SpecError as error:
        message = str(error)
        assert message and "\n" not in message and "\r" not in message, repr(message)
    else:
        assert spec.name in ENGINES  # the project's engines and the outside ones (stockfish, uci)
        assert parse_engine_spec(str(spec)) == spec
