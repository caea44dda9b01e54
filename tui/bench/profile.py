"""``tui-games bench profile``: where a search's time goes, per game.

A search runs twice on the same position with the same engine (by default ``pvs`` with a node
budget, :data:`NODES`, on the last -- deepest -- middlegame of the game's benchmark positions, the
ones ``bench search`` times): once plain, for nodes and nodes/s, and once watched by a sampling
profiler, for the shares.  Both runs search the same tree (a node budget and the engine's fixed
seed make it so; the two node counts are reported and should agree).

**The method: sampling, not tracing.**  A deterministic profiler (cProfile) runs code at every
call and return; it inflates small, often-called functions -- exactly the ones a game search is
made of (``play``, ``undo``, ``key``, an evaluator) -- and so overstates their share.  Here a
thread wakes every :data:`INTERVAL` seconds, reads the searching thread's stack with
:func:`sys._current_frames` and counts one sample for a category; the search itself runs
untouched between samples.  While it runs, :func:`sys.setswitchinterval` is lowered to
:data:`SWITCH_INTERVAL` so that the search hands the interpreter lock over promptly when the
sampler wakes (otherwise every sample would wait up to 5 ms).

**Which category a sample counts for.**  The stack is read from the outermost frame in:

1. the *outermost* frame that is a method of the game (its class's, or one it binds on each
   instance straight to a library's, with no frame of its own) or one of its
   evaluators decides, by the Game contract's names (:data:`GAME_METHODS`): ``legal_moves``,
   ``count_moves``, ``tactical_moves`` are move generation; ``play``, ``undo``, ``play_null``,
   ``undo_null`` make/undo; the evaluators (the game's heuristics and the engine's own
   ``evaluate``) evaluation; ``capture_score``/``capture_scores`` move ordering; ``key`` the table;
   every other method of the game (``outcome``, ``in_check``, ``capture_gain``, ...) "rules".
   Outermost, so an evaluation that counts mobility with ``legal_moves`` is evaluation, and what a
   game's method calls (a library under the game's adapter) is that method's;
2. else the *innermost* frame of the engines' code decides, by the statement it stands at
   (:func:`search_lines`): a statement that calls one of the contract's methods counts for it (a
   library's move generator bound as ``partial(list, generator)`` runs with no frame
   of the game's above it); one that names the table (``tt``: its probe and its store, the ``if tt``
   blocks whole) is the table; one that names the killers or the history is move ordering; any
   other statement of the selectors' module is move ordering, of the shared table's the table;
3. else the sample is the search loop: the rest (negamax, quiescence, the engine's driver).

So move generation done lazily inside the move-ordering generator counts as move generation, and
the ordering's share is its own work: capture scores, sorting, the staged lists, killers and history.
A sample with no frame of the engines' code on its stack is not the search's (the sampler's own
start) and is not counted.

**The method's bias.**  A sample can only be taken where the search thread lets go of the
interpreter lock, which CPython does between bytecodes -- on entering a function, resuming a
generator, jumping back in a loop, after a call of a C function -- and never inside a C function.
The time since the previous such point is counted at the next one.  A frame sampled at its
``RESUME`` (just entered: the time before it was its caller's, a getter such as ``turn`` would
otherwise collect the time of the line that called it) is therefore counted as its caller
(:meth:`Classifier.working`), whose statement calls it: so a call's cost (its arguments, its frame)
counts for the method called; a C call (a ``dict`` probe, ``list.sort``) is counted at the line
that made it.  Each share is a proportion of ``n`` samples, so its standard error is about
``sqrt(p (1 - p) / n)``: 1.5 points at ``p = 0.3`` and ``n = 1000``; the samples are reported.  The
sampler costs time while it reads a stack (the search waits), which each game's top functions
title shows (profiled time over plain time, noisy on a loaded machine); the shares are of the search's own
time, since the search stands still while a sample is taken.  Garbage collection runs as in any
search and is counted where it strikes.

May import :mod:`games` and :mod:`engines`; names no game (every game comes from the registry).
"""

from __future__ import annotations

import ast
import dis
import functools
import gc
import os
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from types import CodeType, FrameType
from typing import Any, Iterable, Sequence

from engines import Limits, SpecError, create_engine
from engines.search import selectors as _selectors_module
from engines.search import table as _table_module
from games import Game, game_kind, new_game

__all__ = [
    "CATEGORIES",
    "CATEGORY_TITLES",
    "GAME_METHODS",
    "INTERVAL",
    "NODES",
    "QUICK_NODES",
    "Classifier",
    "Profile",
    "Sampler",
    "load_average",
    "default_position",
    "limited_spec",
    "profile_search",
    "profile_json",
    "run_profile_bench",
    "search_lines",
]

#: The categories, in the order the tables show them.
CATEGORIES: tuple[str, ...] = ("movegen", "make", "eval", "ordering", "table", "rules", "search")
CATEGORY_TITLES: dict[str, str] = {
    "movegen": "movegen", "make": "make/undo", "eval": "eval", "ordering": "order",
    "table": "table", "rules": "rules", "search": "loop",
}
#: The Game contract's methods and the category each counts for (any other method of the game's
#: class: ``rules``; the evaluators: ``eval``).
GAME_METHODS: dict[str, str] = {
    "legal_moves": "movegen", "count_moves": "movegen", "tactical_moves": "movegen",
    "play": "make", "undo": "make", "play_null": "make", "undo_null": "make",
    "evaluate": "eval",
    "capture_score": "ordering", "capture_scores": "ordering",
    "key": "table",
}
#: Names whose statements in the search core count for a category (see :func:`search_lines`).
SEARCH_NAMES: dict[str, str] = {"tt": "table", "killers": "ordering", "history": "ordering"}
#: Seconds between two samples, and the interpreter's switch interval while sampling.
INTERVAL = 0.001
SWITCH_INTERVAL = 0.0002
#: The default engine's node budget (``pvs:nodes=N``), full and ``--quick``.
NODES = 200_000
QUICK_NODES = 3_000
#: The engine options that limit a search: a spec with none of them gets the node budget.
LIMIT_OPTIONS = ("depth", "nodes", "time")
#: The warm-up search's node budget (run first, outside the timing).
WARM_NODES = 500
#: The tables' width at least (wider in a wider terminal).
WIDTH = 110
#: Functions listed per game.
TOP = 15


# ------------------------------------------------------------------ the categories
def _codes(function: Any) -> list[CodeType]:
    """The code objects a callable runs first: a function's, a bound method's, a property's
    getter's, a partial's function's, a callable object's ``__call__``; none for a builtin."""
    seen: list[CodeType] = []
    for _ in range(4):  # unwrap a few layers at most
        if isinstance(function, (staticmethod, classmethod)):
            function = function.__func__
        elif isinstance(function, property):  # a getter such as ``turn``
            function = function.fget
        code = getattr(function, "__code__", None)
        if isinstance(code, CodeType):
            seen.append(code)
        if isinstance(function, functools.partial) and isinstance(function.func, type):
            # ``partial(list, generator)``: list() runs the generator's ``__iter__``
            for argument in function.args:
                seen += _codes(getattr(type(argument), "__iter__", None))
        inner = getattr(function, "__wrapped__", None) or getattr(function, "func", None) \
            or getattr(function, "__func__", None)
        if inner is None and code is None and callable(function) and not isinstance(function, type):
            inner = getattr(type(function), "__call__", None)
            if inner is not None and getattr(inner, "__code__", None) is None:
                inner = None
        if inner is None or inner is function:
            break
        function = inner
    return seen


def search_lines(path: str) -> dict[int, str]:
    """The lines of the engines' source file ``path`` that count for a category of their own: a
    statement naming one of :data:`SEARCH_NAMES` (as a variable or an attribute) counts for its
    category, and an ``if`` whose test names one counts whole (body and ``else``), unless a
    statement inside names another."""
    try:
        with open(path, encoding="utf-8") as handle:
            tree = ast.parse(handle.read(), path)
    except (OSError, SyntaxError, ValueError):
        return {}
    lines: dict[int, str] = {}

    def named(node: ast.AST | None, *, calls: bool = True) -> str | None:
        if node is None:
            return None
        for part in ast.walk(node):
            if calls and isinstance(part, ast.Call):
                called = part.func
                name = called.id if isinstance(called, ast.Name) else \
                    called.attr if isinstance(called, ast.Attribute) else None
                if name in GAME_METHODS:
                    return GAME_METHODS[name]
            name = part.id if isinstance(part, ast.Name) else part.attr if isinstance(part, ast.Attribute) else None
            if name in SEARCH_NAMES:
                return SEARCH_NAMES[name]
        return None

    def mark(first: int, last: int, category: str | None) -> None:
        if category is not None:
            for line in range(first, last + 1):
                lines[line] = category

    def visit(statements: Iterable[ast.stmt], inherited: str | None) -> None:
        for statement in statements:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                visit(statement.body, None)
                continue
            bodies = [getattr(statement, name) for name in ("body", "orelse", "finalbody")
                      if getattr(statement, name, None)]
            bodies += [handler.body for handler in getattr(statement, "handlers", ())]
            if not bodies:  # a simple statement
                mark(statement.lineno, statement.end_lineno or statement.lineno,
                     named(statement) or inherited)
                continue
            header = statement.test if isinstance(statement, (ast.If, ast.While)) else \
                statement.iter if isinstance(statement, (ast.For, ast.AsyncFor)) else None
            mark(statement.lineno, bodies[0][0].lineno - 1, named(header) or inherited)
            # an ``if`` on the table, the killers or the history is that work, whole
            inner = (named(header, calls=False) if isinstance(statement, ast.If) else None) or inherited
            for body in bodies:
                visit(body, inner)

    visit(tree.body, None)
    return lines


@dataclass
class Classifier:
    """Tells the category of a sampled stack (the rules in the module docstring)."""

    #: The game's methods and evaluators: code -> category.
    game: dict[CodeType, str]
    #: Whole modules of the engines: file -> category.
    modules: dict[str, str]
    #: The engines' package folder (its files' statements are looked up in :func:`search_lines`).
    engines_folder: str
    _lines: dict[str, dict[int, str]] = field(default_factory=dict)
    _resumes: dict[CodeType, frozenset[int]] = field(default_factory=dict)

    @classmethod
    def for_search(cls, game: Game, engine: Any) -> Classifier:
        """The classifier for a search of ``engine`` on ``game`` (or a copy of it)."""
        import engines

        game_class = type(game)
        codes: dict[CodeType, str] = {}
        for klass in reversed(game_class.__mro__):  # a subclass's method wins over its base's
            if klass is object:
                continue
            for name, member in vars(klass).items():
                category = GAME_METHODS.get(name, "rules")
                for code in _codes(member):
                    codes[code] = category
        for name, member in vars(game).items():
            # a game may bind its methods on each instance, straight to a library's (no wrapper frame)
            if callable(member):
                for code in _codes(member):
                    codes[code] = GAME_METHODS.get(name, "rules")
        evaluators = list(getattr(game_class, "HEURISTICS", {}).values())
        evaluators.append(getattr(engine, "evaluate", None))
        for evaluator in evaluators:
            for code in _codes(evaluator):
                codes[code] = "eval"
        modules = {os.path.abspath(_selectors_module.__file__ or ""): "ordering",
                   os.path.abspath(_table_module.__file__ or ""): "table"}
        folder = os.path.dirname(os.path.abspath(engines.__file__ or ""))
        return cls(codes, modules, folder + os.sep)

    def lines_of(self, path: str) -> dict[int, str]:
        if path not in self._lines:
            self._lines[path] = search_lines(path) if os.path.abspath(path).startswith(self.engines_folder) else {}
        return self._lines[path]

    def working(self, frame: FrameType) -> FrameType:
        """The frame whose work a sample taken at ``frame`` measures: ``frame`` itself, or its caller
        when ``frame`` stands at a ``RESUME`` (just entered, or resumed after a ``yield``): the time
        before that point was the caller's."""
        code = frame.f_code
        resumes = self._resumes.get(code)
        if resumes is None:
            resumes = self._resumes[code] = frozenset(
                instruction.offset for instruction in dis.get_instructions(code)
                if instruction.opname == "RESUME")
        caller = frame.f_back
        return caller if caller is not None and frame.f_lasti in resumes else frame

    def category(self, frame: FrameType | None) -> str | None:
        """The category of the stack whose innermost frame is ``frame``; ``None`` when no frame of
        the engines' code is on it (the search has not begun: the sampler's own start, say)."""
        game_category: str | None = None
        engine_frame: FrameType | None = None
        game, folder = self.game, self.engines_folder
        while frame is not None:
            code = frame.f_code
            found = game.get(code)
            if found is not None:
                game_category = found  # the last one met is the outermost
            elif engine_frame is None and code.co_filename.startswith(folder):
                engine_frame = frame
            frame = frame.f_back
        if engine_frame is None:
            return None
        if game_category is not None:
            return game_category
        path = engine_frame.f_code.co_filename
        line = self.lines_of(path).get(engine_frame.f_lineno or 0)
        if line is not None:
            return line
        return self.modules.get(os.path.abspath(path), "search")


# ------------------------------------------------------------------ the sampler
def _where(code: CodeType) -> str:
    """A function's name as the top functions list it: ``module-file:qualified name``."""
    parts = code.co_filename.replace(os.sep, "/").split("/")
    short = "/".join(parts[-2:])
    return f"{short}:{getattr(code, 'co_qualname', code.co_name)}"


class Sampler:
    """A thread that samples one thread's stack every ``interval`` seconds until stopped."""

    def __init__(self, classifier: Classifier, thread_id: int, interval: float = INTERVAL) -> None:
        self.classifier = classifier
        self.thread_id = thread_id
        self.interval = interval
        self.categories: Counter[str] = Counter()
        #: Self samples per ``(function, category)``: the function the sample stood in, and the
        #: category the whole stack counted for.
        self.functions: Counter[tuple[str, str]] = Counter()
        self._codes: Counter[tuple[CodeType, str]] = Counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="bench-profile-sampler", daemon=True)

    def __enter__(self) -> Sampler:
        self._switch = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_INTERVAL)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        sys.setswitchinterval(self._switch)
        for (code, category), count in self._codes.items():
            self.functions[_where(code), category] += count

    def _run(self) -> None:
        sleep, stopped = time.sleep, self._stop.is_set
        frames, thread_id = sys._current_frames, self.thread_id
        category, working = self.classifier.category, self.classifier.working
        while not sleep(self.interval) and not stopped():
            frame = frames().get(thread_id)
            if frame is None:
                continue
            frame = working(frame)
            counted = category(frame)
            if counted is None:
                continue
            self.categories[counted] += 1
            self._codes[frame.f_code, counted] += 1

    @property
    def samples(self) -> int:
        return sum(self.categories.values())


# ------------------------------------------------------------------ a profile
@dataclass
class Profile:
    """Where one search's time went."""

    game: str
    position: str  # the position's label, or its text when given
    engine: str
    nodes: int
    seconds: float  # the plain run
    profiled_nodes: int
    profiled_seconds: float
    samples: int
    counts: dict[str, int]
    top: list[tuple[tuple[str, str], int]]  # ((function, category), self samples), most first

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    @property
    def overhead(self) -> float:
        """Profiled time over plain time."""
        return self.profiled_seconds / self.seconds if self.seconds > 0 else 0.0

    def share(self, category: str) -> float:
        return self.counts.get(category, 0) / self.samples if self.samples else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game, "position": self.position, "engine": self.engine, "nodes": self.nodes,
            "seconds": round(self.seconds, 4), "nodes_per_second": round(self.nps),
            "profiled_nodes": self.profiled_nodes, "profiled_seconds": round(self.profiled_seconds, 4),
            "samples": self.samples,
            "shares": {category: round(self.share(category), 4) for category in CATEGORIES},
            "top": [{"function": name, "category": category,
                     "share": round(count / self.samples, 4) if self.samples else 0.0}
                    for (name, category), count in self.top],
        }


def default_position(game: str) -> tuple[str, str | None]:
    """The position a game is profiled on by default: the last (deepest) middlegame of its
    benchmark positions (the start if it has none), as ``(label, text)``."""
    position = game_kind(game).bench.positions[-1]
    return position.label, position.text


def limited_spec(spec: str, game_class: type[Game], nodes: int) -> str:
    """``spec`` with a node budget of ``nodes`` when it sets no limit of its own (depth, nodes,
    time) and its engine takes one; :class:`~engines.SpecError` if it is bad, or if it searches in
    other processes too (``workers``: the profiler samples this one)."""
    engine = create_engine(spec, game_class)
    try:
        given = engine.spec.options
        table = engine.spec.table
        workers = engine.spec.get("workers") if "workers" in table else 1
    finally:
        engine.close()
    if workers != 1:
        raise SpecError(f"{spec} searches in {workers} processes and the profiler samples this one; "
                        "leave workers out")
    if any(name in given for name in LIMIT_OPTIONS) or "nodes" not in table:
        return spec
    return f"{spec}{',' if ':' in spec else ':'}nodes={nodes}"


def _plain(spec: str, game: Game) -> tuple[int, float]:
    """The nodes and seconds of a plain search (a new engine: the same tree each time)."""
    engine = create_engine(spec, type(game))
    try:
        start = time.perf_counter()
        result = engine.search(game)
        seconds = time.perf_counter() - start
    finally:
        engine.close()
    return result.stats.nodes, seconds


def profile_search(game_name: str, spec: str, text: str | None, label: str, *,
                   interval: float = INTERVAL) -> Profile:
    """Search ``text`` (``None``: the start) of ``game_name`` with the engine ``spec`` plainly and
    then sampled (see the module docstring)."""
    game = new_game(game_name, text)
    warm = create_engine(spec, type(game))
    try:  # what a game or an evaluator builds on first use (tables, models) is built outside the timing
        warm.search(game, Limits(depth=2, nodes=WARM_NODES))
    finally:
        warm.close()
    nodes, seconds = _plain(spec, game)
    engine = create_engine(spec, type(game))
    classifier = Classifier.for_search(game, engine)
    gc.collect()
    try:
        with Sampler(classifier, threading.get_ident(), interval) as sampler:
            start = time.perf_counter()
            result = engine.search(game)
            profiled = time.perf_counter() - start
    finally:
        engine.close()
    top = sampler.functions.most_common(TOP)
    return Profile(game_name, label, spec, nodes, seconds, result.stats.nodes, profiled, sampler.samples,
                   dict(sampler.categories), top)


def load_average() -> tuple[float, float, float] | None:
    """The machine's load average (1, 5, 15 minutes), where the system tells it."""
    try:
        one, five, fifteen = os.getloadavg()
    except (OSError, AttributeError):
        return None
    return one, five, fifteen


def profile_json(profiles: Sequence[Profile], load: tuple[float, float, float] | None) -> dict[str, Any]:
    """The profiles as ``bench profile --json`` prints them."""
    return {
        "method": f"sampling every {INTERVAL * 1000:g} ms, the outermost game frame's category, "
                  "else the innermost engine frame's",
        "load_average": list(load) if load is not None else None,
        "categories": list(CATEGORIES),
        "games": [profile.as_dict() for profile in profiles],
    }


# ------------------------------------------------------------------ the command
def _rate(value: float) -> str:
    return f"{value / 1e3:.1f}k" if value >= 10_000 else f"{value:,.0f}"


def run_profile_bench(runs: Sequence[tuple[str, str, str | None, str]], *, as_json: bool = False,
                      top: int = TOP) -> list[Profile]:
    """Profile each ``(game, spec, position text, label)`` and print the tables (or the JSON)."""
    import json

    profiles: list[Profile] = []
    load_before = load_average()
    if as_json:
        for game, spec, text, label in runs:
            profiles.append(profile_search(game, spec, text, label))
        print(json.dumps(profile_json(profiles, load_before)))
        return profiles

    from rich.console import Console
    from rich.table import Table

    console = Console(width=max(WIDTH, Console().width))
    with console.status("profiling…") as status:
        for game, spec, text, label in runs:
            status.update(f"profiling {game}: {spec} on {label}")
            profiles.append(profile_search(game, spec, text, label))
    load = load_average()
    engines = sorted({profile.engine for profile in profiles})
    shares = Table(
        title=f"where the search's time goes: {', '.join(engines)} (shares of samples)",
        caption=f"a sample (every {INTERVAL * 1000:g} ms) counts for the outermost game method on the stack "
                "(rules: its other methods, outcome, in_check ...), else the engines' ordering or table code, "
                "else the search loop;  nodes/s from a plain run;  load average "
                + ("-" if load is None else " ".join(f"{value:.2f}" for value in load)),
    )
    for column in ("game", "position", "nodes", "nodes/s", *(CATEGORY_TITLES[category] for category in CATEGORIES)):
        shares.add_column(column, no_wrap=True, justify="left" if column in ("game", "position") else "right")
    for profile in profiles:
        shares.add_row(
            profile.game, profile.position, f"{profile.nodes:,}", _rate(profile.nps),
            *(f"{profile.share(category):.0%}" if profile.samples else "-" for category in CATEGORIES),
        )
    console.print(shares)
    if not all(profile.samples for profile in profiles):
        console.print(f"-: no sample (the search took less than the sampling interval, {INTERVAL * 1000:g} ms)")
    for profile in profiles:
        if not profile.samples:
            continue
        functions = Table(title=f"{profile.game}: top functions ({profile.samples:,} samples; the profiled "
                                f"search took {profile.overhead:.2f}x the plain one's time)")
        functions.add_column("share", justify="right")
        functions.add_column("function")
        functions.add_column("counted as")
        for (name, category), count in profile.top[:top]:
            functions.add_row(f"{count / profile.samples:.1%}" if profile.samples else "-", name,
                              CATEGORY_TITLES[category])
        console.print(functions)
    return profiles

