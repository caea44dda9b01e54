"""UCI engines as players: any UCI program (``uci``), and Stockfish (``stockfish``) over it.

The spec ``uci:path=PROGRAM[,time=S|depth=N|nodes=N][,option.NAME=VALUE...]``
runs any UCI chess engine through python-chess's UCI client
(``chess.engine``): ``path`` is the program (a file, or a name on the
``PATH``), ``time``/``depth``/``nodes`` limit each search (0.1 s a move by
default; a depth or node budget alone drops the default time, as for our
engines), and every ``option.NAME=VALUE`` is set with ``setoption`` before
the first search.  ``NAME`` is matched against the options the program
declares, ignoring case and with ``_`` standing for a space
(``option.Skill_Level=5`` sets ``Skill Level``); ``VALUE`` is read as the
option's declared type (``check``: on/off, ``spin``: a whole number in its
range, ``combo``: one of its values, ``string`` as written, ``button``: any
value presses it).  An option the program does not declare is refused in one
line naming those it does; ``MultiPV``, ``Ponder``, ``UCI_Chess960`` and
``UCI_Variant`` are the client's to set.

``stockfish[:elo=N|skill=N|depth=N|time=S|nodes=N|path=FILE|option.NAME=VALUE]``
is the same engine with a binary found for it: the ``path`` option, the
``TUI_GAMES_STOCKFISH`` environment variable, ``stockfish`` on the ``PATH``,
``/usr/games/stockfish`` (where Debian's package puts it); ``elo`` limits its
strength (``UCI_LimitStrength`` and ``UCI_Elo``), ``skill`` sets its ``Skill
Level`` (0-20).

The engine process starts with the engine object (so a program that is
missing, not executable, not a UCI engine, or refuses an option is reported
at once, in one line: a :class:`~engines.spec.SpecError`), ends with
:meth:`UciEngine.close`, and is killed by the kernel if this process dies
(:func:`engines.lifetime.killed_with_parent`); one that dies while searching
is a :class:`~engines.spec.SpecError` too.  Its statistics map from the UCI
``info`` lines: ``nodes``, ``depth``, ``seldepth``, ``time_s``, ``nps``,
``score`` (centipawns for the side to move; mates as our engines score wins),
``mate``, ``best`` and ``pv`` in SAN; the counters UCI does not report stay 0.
Limits that come from clocks (a match's ``tc``) are passed as the clocks
themselves (``go wtime btime winc binc movestogo``): the program manages its time.

The game UCI engines play is :data:`UCI_GAME`; this module and
:mod:`tui.uci` are the only ones above :mod:`games` that name it.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from typing import Any, Sequence

from games import WIN, Game

from .base import Engine, InfoCallback, Limits, SearchResult, SearchStats, StopFlag, root_moves
from .lifetime import killed_with_parent
from .spec import EngineSpec, Option, SpecError, parse_switch

__all__ = ["ENVIRONMENT_VARIABLE", "OPTIONS", "UCI_OPTIONS", "StockfishEngine", "UCI_GAME", "UciEngine",
           "check_game", "find_program", "find_stockfish"]

#: Names the stockfish binary to use (a path), before the ``PATH`` is searched.
ENVIRONMENT_VARIABLE = "TUI_GAMES_STOCKFISH"
#: Where Debian's ``stockfish`` package installs the binary (not on a user's PATH).
DEBIAN_PATH = "/usr/games/stockfish"
#: Seconds to wait for the engine to start and answer ``uci``.
START_TIMEOUT = 20.0
#: Seconds between two looks at the stop flag during a search.
STOP_POLL = 0.01

#: The family of options set with ``setoption`` (``option.NAME=VALUE``).
ENGINE_OPTION = Option("option.NAME", str, None, "a UCI option of the program, set before the first search "
                                             "(spaces in NAME as _)")
#: The limits every UCI engine spec has.
LIMITS: tuple[Option, ...] = (
    Option("depth", int, None, "plies to search (L)", minimum=1),
    Option("time", float, 0.1, "seconds per move", minimum=0.001),
    Option("nodes", int, None, "node budget per move (iterative deepening)", minimum=1),
)
#: The options of the ``uci`` spec (registered in :mod:`engines.registry`).
UCI_OPTIONS: tuple[Option, ...] = (
    Option("path", str, None, "the UCI program: a file, or a name on the PATH (required)"),
    *LIMITS, ENGINE_OPTION,
)
#: The options of the ``stockfish`` spec.
OPTIONS: tuple[Option, ...] = (
    Option("elo", int, None, "limit the strength to this Elo (UCI_LimitStrength, UCI_Elo)", minimum=1),
    Option("skill", int, None, "Stockfish's Skill Level, 0 to 20", minimum=0),
    *LIMITS,
    Option("path", str, None, f"the binary (default: ${ENVIRONMENT_VARIABLE}, stockfish on the PATH, "
                              f"{DEBIAN_PATH})"),
    ENGINE_OPTION,
)
#: The options python-chess sets itself, search by search.
MANAGED = ("multipv", "ponder", "uci_chess960", "uci_variant")

_MISSING = (f"stockfish: no stockfish binary found (install Debian's 'stockfish' package "
            f"or set {ENVIRONMENT_VARIABLE})")


def find_program(path: str, engine: str = "uci") -> str:
    """The program ``path`` names (a file, or a name on the ``PATH``); a one-line
    :class:`SpecError` saying why when it cannot be run."""
    named = os.path.expanduser(path)
    found = shutil.which(named)
    if found is not None:
        return found
    shown = repr(path[:80])
    if os.path.isdir(named):
        raise SpecError(f"{engine}: {shown} is a directory, not a UCI program")
    if os.path.exists(named):
        raise SpecError(f"{engine}: {shown} is not executable (chmod +x it, or name the interpreter's "
                        f"launcher)")
    where = "no such file" if os.sep in named else "no such file, and not a program on the PATH"
    raise SpecError(f"{engine}: {shown}: {where}")


def find_stockfish(path: str | None = None) -> str:
    """The stockfish binary to run (see the module doc); :class:`SpecError` if none."""
    named = path or os.environ.get(ENVIRONMENT_VARIABLE)
    if named:
        found = shutil.which(os.path.expanduser(named))
        if found is None:
            source = "option path" if path else ENVIRONMENT_VARIABLE
            raise SpecError(f"stockfish: {source} names {named[:80]!r}, which is not an executable file")
        return found
    found = shutil.which("stockfish")
    if found is None and os.access(DEBIAN_PATH, os.X_OK):
        found = DEBIAN_PATH
    if found is None:
        raise SpecError(_MISSING)
    return found


#: The game UCI engines play (Stockfish, sunfish, our own UCI front end).
UCI_GAME = "chess"


def check_game(game_class: type[Game], engine: str = "stockfish") -> None:
    """UCI engines play chess only: a :class:`SpecError` for any other game."""
    if game_class.NAME != UCI_GAME:
        raise SpecError(f"{engine}: plays {UCI_GAME} only, not {game_class.NAME}")


class UciEngine(Engine):
    """A UCI chess engine process behind the :class:`Engine` interface (the ``uci`` spec)."""

    def __init__(self, spec: EngineSpec, game_class: type[Game]) -> None:
        super().__init__(spec, game_class)
        check_game(game_class, spec.name)
        self.path = self.program()
        import chess.engine

        try:
            self.process: Any = chess.engine.SimpleEngine.popen_uci(
                self.path, timeout=START_TIMEOUT, preexec_fn=killed_with_parent())
        except chess.engine.EngineTerminatedError:
            raise SpecError(f"{spec.name}: {self.path} is not a UCI engine: it ended before answering "
                            f"'uci' with 'uciok'") from None
        except TimeoutError:
            raise SpecError(f"{spec.name}: {self.path} is not a UCI engine: no 'uciok' within "
                            f"{START_TIMEOUT:g} s of 'uci'") from None
        except (OSError, chess.engine.EngineError) as error:
            raise SpecError(f"{spec.name}: could not start {self.path}: {_one_line(error)}") from None
        # A program that dies leaves python-chess futures holding the error we report ourselves;
        # the event loop would otherwise print them again when they are collected.
        self.process.protocol.loop.set_exception_handler(_quiet_on_termination)
        try:
            self.process.configure(self._options())
        except (chess.engine.EngineError, SpecError) as error:
            self.close()
            raise SpecError(f"{spec.name}: {_one_line(error)}") from None

    def program(self) -> str:
        """The program to run: the ``path`` option (required)."""
        path = self.spec.get("path")
        if not path:
            raise SpecError(f"{self.spec.name}: which program? give its path: "
                            f"'{self.spec.name}:path=PROGRAM[,option.NAME=VALUE...]'")
        return find_program(path, self.spec.name)

    def wanted(self) -> dict[str, Any]:
        """The options the spec sets, by the names it gives them (``option.NAME``), as texts."""
        return self.spec.family(ENGINE_OPTION.prefix)

    def _options(self) -> dict[str, Any]:
        """The UCI options the spec sets, checked against what the program declares and typed as it does."""
        offered = self.process.options
        chosen: dict[str, Any] = {}
        for given, value in self.wanted().items():
            if _normal(given) in MANAGED:
                raise SpecError(f"option {given} is set by the client search by search, "
                                f"not by the spec; leave it out")
            option = _declared(offered, given, self.path)
            chosen[option.name] = _typed(option, value, self.path)
        return chosen

    def limits(self) -> Limits:
        """The spec's limits; a depth or node budget alone drops the default time."""
        limits = super().limits()
        given = self.spec.options
        if "time" not in given and ("depth" in given or "nodes" in given):
            return Limits(limits.depth, None, limits.nodes)
        return limits

    def close(self) -> None:
        """End the engine process (idempotent)."""
        process = getattr(self, "process", None)
        if process is not None:
            self.process = None
            try:
                process.quit()
            except Exception:  # already gone: nothing to release
                process.close()

    # ------------------------------------------------------------------ search
    def search(self, game: Game, limits: Limits | None = None, *,
               stop: StopFlag | None = None, on_info: InfoCallback | None = None,
               moves: Sequence[Any] | None = None) -> SearchResult:
        import chess.engine

        if self.process is None:
            raise RuntimeError(f"this {self.spec.name} engine is closed")
        legal = root_moves(game, moves)
        limits = limits if limits is not None else self.limits()
        board = _board(game)
        clocks = limits.clocks
        if clocks is None:
            limit = chess.engine.Limit(time=limits.time, depth=limits.depth, nodes=limits.nodes)
        else:  # its own time management, told the clocks as a GUI does (White is the first player)
            limit = chess.engine.Limit(white_clock=clocks.left[0], black_clock=clocks.left[1],
                                       white_inc=clocks.increment[0], black_inc=clocks.increment[1],
                                       remaining_moves=clocks.moves_to_go, depth=limits.depth, nodes=limits.nodes)
        start = time.perf_counter()
        try:
            best, latest = self._analyse(board, limit, legal if moves is not None else None, start, stop, on_info)
        except chess.engine.EngineError as error:  # it died, or broke the protocol
            raise SpecError(f"{self.spec.name}: {self.path} {self._failure(error)} while searching") from None
        move = best.move if best.move in legal else legal[0]
        stats = self._stats(board, latest, start)
        pv = list(latest.get("pv", [])) or [move]
        if pv[0] != move:
            pv = [move]
            stats.pv = [board.san(move)]
        stats.best = board.san(move)
        return SearchResult(move, int(stats.score), pv, stats)

    def _failure(self, error: BaseException) -> str:
        """What went wrong with the program: its death with its exit status, or python-chess's words."""
        status = getattr(getattr(self.process, "protocol", None), "returncode", None)
        try:
            if status is not None and status.done():
                code = status.result()
                return f"died (exit status {code})" if code >= 0 else f"died (signal {-code})"
        except Exception:  # pragma: no cover - a future in another state: python-chess's words then
            pass
        return f"failed ({_one_line(error)})"

    def _analyse(self, board: Any, limit: Any, moves: list[Any] | None, start: float,
                 stop: StopFlag | None, on_info: InfoCallback | None) -> tuple[Any, dict[str, Any]]:
        """The engine's answer and its last ``info`` with a score or PV (reported as it comes)."""
        latest: dict[str, Any] = {}
        with self.process.analysis(board, limit, root_moves=moves) as analysis:
            done = threading.Event()
            watcher = None
            if stop is not None:
                def watch() -> None:
                    while not done.wait(STOP_POLL):
                        if stop.is_set():
                            analysis.stop()
                            return

                watcher = threading.Thread(target=watch, name="uci-engine-stop", daemon=True)
                watcher.start()
            try:
                for info in analysis:
                    if "pv" in info or "score" in info:
                        latest = dict(info)
                        if on_info is not None:
                            on_info(self._stats(board, latest, start))
                best = analysis.wait()
            finally:
                done.set()
                if watcher is not None:
                    watcher.join()
        return best, latest

    def _stats(self, board: Any, info: dict[str, Any], start: float) -> SearchStats:
        elapsed = time.perf_counter() - start
        score = info.get("score")
        value, mate = 0, None
        if score is not None:
            relative = score.pov(board.turn)
            mate = relative.mate()
            if mate is None:
                value = relative.score()
            else:  # our engines' scale: a win in N moves is WIN - (2N - 1) plies
                value = WIN - (2 * mate - 1) if mate > 0 else -(WIN + 2 * mate)
        pv = info.get("pv") or []
        texts = _san_line(board, pv)
        return self.new_stats().copy(
            nodes=int(info.get("nodes", 0)), depth=int(info.get("depth", 0)),
            seldepth=int(info.get("seldepth", 0)), time_s=round(float(info.get("time", elapsed)), 4),
            nps=int(info.get("nps", 0)), score=int(value), mate=mate,
            best=texts[0] if texts else None, pv=texts,
        )


class StockfishEngine(UciEngine):
    """Stockfish (the ``stockfish`` spec): a UCI engine whose binary is found
    for it, with its strength options as spec options (``elo``, ``skill``)."""

    def program(self) -> str:
        return find_stockfish(self.spec.get("path"))

    def wanted(self) -> dict[str, Any]:
        wanted: dict[str, Any] = {}
        if "elo" in self.spec.options:
            wanted["UCI_LimitStrength"] = "true"
            wanted["UCI_Elo"] = str(self.spec.get("elo"))
        if "skill" in self.spec.options:
            wanted["Skill Level"] = str(self.spec.get("skill"))
        return {**wanted, **super().wanted()}


def _normal(name: str) -> str:
    """An option's name as the spec matches it: no case, ``_`` for spaces."""
    return "_".join(name.lower().split()).replace(" ", "_")


def _declared(offered: Any, given: str, path: str) -> Any:
    """The option of ``offered`` (the program's) that ``given`` names; a
    one-line :class:`SpecError` naming the declared ones if none does."""
    if given in offered:  # python-chess's options ignore case
        return offered[given]
    matches = [option for name, option in offered.items() if _normal(name) == _normal(given)]
    if len(matches) == 1:
        return matches[0]
    names = ", ".join(sorted(("_".join(name.split()) for name in offered), key=str.lower)) or "none"
    if matches:
        raise SpecError(f"{given!r} names several options of {path} ({', '.join(o.name for o in matches)}); "
                        f"write its spaces as spaces")
    raise SpecError(f"{path} has no UCI option {given[:40]!r}; its options are: {names}")


def _typed(option: Any, text: Any, path: str) -> Any:
    """``text`` as a value of the declared ``option`` (see the module doc)."""
    text = str(text)
    kind = option.type
    if kind == "check":
        switch = parse_switch(text)
        if switch is None:
            raise SpecError(f"{option.name} is on or off for {path}, got {text[:40]!r}")
        return switch
    if kind == "spin":
        try:
            value = int(text)
        except ValueError:
            raise SpecError(f"{option.name} must be a whole number for {path}, got {text[:40]!r}") from None
        if option.min is not None and option.max is not None and not option.min <= value <= option.max:
            raise SpecError(f"{option.name} must be between {option.min} and {option.max} for {path}, "
                            f"got {value}")
        return value
    if kind == "combo":
        for choice in option.var or ():
            if choice.lower() == text.lower():
                return choice
        raise SpecError(f"{option.name} must be one of {', '.join(option.var or ())} for {path}, "
                        f"got {text[:40]!r}")
    if kind == "button":
        return None
    return text


def _quiet_on_termination(loop: Any, context: dict[str, Any]) -> None:
    """The engine's event loop's handler: a dead engine's leftover errors are already reported."""
    import chess.engine

    if not isinstance(context.get("exception"), chess.engine.EngineTerminatedError):
        loop.default_exception_handler(context)


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def _board(game: Game) -> Any:
    """A python-chess board of ``game`` with its history (for repetitions),
    built through the game protocol: the start position and the moves."""
    import chess

    root = game.copy()
    for _ in range(game.ply):
        root.undo()
    board = chess.Board(root.to_text())
    for move in game.move_stack:
        board.push(move)
    return board


def _san_line(board: Any, line: Sequence[Any]) -> list[str]:
    board = board.copy(stack=False)
    texts = []
    for move in line:
        if not board.is_legal(move):
            break
        texts.append(board.san(move))
        board.push(move)
    return texts


