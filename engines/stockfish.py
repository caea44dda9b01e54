"""UCI engines as players: any UCI program (``uci``), and Stockfish (``stockfish``) over it.

The spec ``uci:path=PROGRAM[,time=S|depth=N|nodes=N][,option.NAME=VALUE...]``
runs any UCI chess engine through our watched UCI client
(:mod:`engines.uci_client`): ``path`` is the program (a file, or a name on the
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
``UCI_Variant`` are refused (a search sets what it needs itself).

``stockfish[:elo=N|skill=N|depth=N|time=S|nodes=N|path=FILE|option.NAME=VALUE]``
is the same engine with a binary found for it: the ``path`` option, the
``TUI_GAMES_STOCKFISH`` environment variable, ``stockfish`` on the ``PATH``,
``/usr/games/stockfish`` (where Debian's package puts it); ``elo`` limits its
strength (``UCI_LimitStrength`` and ``UCI_Elo``), ``skill`` sets its ``Skill
Level`` (0-20).

The engine process starts with the engine object (so a program that is
missing, not executable, not a UCI engine, or refuses an option is reported
at once, in one line: a :class:`~engines.spec.SpecError`) and ends with
:meth:`UciEngine.close` (``quit``, then its process group killed); it dies
with this process however that dies.  A search is held to a deadline
(:meth:`UciEngine.deadline`: the movetime or the clock, plus :data:`GRACE`);
a program that misses it, answers an illegal, null or malformed move, floods
its output or dies raises :class:`~engines.uci_client.EngineFailure` (a
``SpecError`` whose ``reason`` a match records as the engine's forfeit), and
is killed.  Its statistics map from the UCI
``info`` lines: ``nodes``, ``depth``, ``seldepth``, ``time_s``, ``nps``,
``score`` (centipawns for the side to move; mates as our engines score wins),
``mate``, ``best`` and ``pv`` in SAN; the counters UCI does not report stay 0.
Limits that come from clocks (a match's ``tc``) are passed as the clocks
themselves (``go wtime btime winc binc movestogo``): the program manages its time.

The game UCI engines play is :data:`UCI_GAME`; this module and
:mod:`tui.uci` are the only ones above :mod:`games` that name it.
"""

from __future__ import annotations

import math
import os
import shutil
import time
from typing import Any, Sequence

from games import WIN, Game

from .base import Engine, InfoCallback, Limits, SearchResult, SearchStats, StopFlag, root_moves
from .spec import EngineSpec, Option, SpecError, parse_switch
from .uci_client import EngineFailure, UciInfo, UciOption, UciProcess, parse_info, parse_option

__all__ = ["ENVIRONMENT_VARIABLE", "NO_PROGRAMS_VARIABLE", "OPTIONS", "UCI_OPTIONS", "StockfishEngine", "UCI_GAME", "UciEngine",
           "check_game", "find_program", "find_stockfish", "programs_allowed"]

#: Names the stockfish binary to use (a path), before the ``PATH`` is searched.
ENVIRONMENT_VARIABLE = "TUI_GAMES_STOCKFISH"
#: Set (to anything but an empty text) in the environment of a process that may start no other program,
#: such as an app served to a web browser: the engines that run one (``uci``, ``stockfish``) are refused.
NO_PROGRAMS_VARIABLE = "TUI_GAMES_NO_PROGRAMS"
#: Where Debian's ``stockfish`` package installs the binary (not on a user's PATH).
DEBIAN_PATH = "/usr/games/stockfish"
#: Seconds to wait for the engine to start and answer ``uci``.
START_TIMEOUT = 10.0
#: Seconds an engine is given beyond its movetime (or its clock and the match's margin), and to answer
#: ``stop``, before it forfeits on ``timeout``.
GRACE = 1.0
#: Seconds a search limited by depth or nodes alone may take before the engine forfeits on ``timeout``.
UNTIMED_DEADLINE = 600.0
#: The standard start, sent as ``position startpos``.
STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

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


def programs_allowed() -> bool:
    """Whether this process may start another program (see :data:`NO_PROGRAMS_VARIABLE`)."""
    return not os.environ.get(NO_PROGRAMS_VARIABLE)


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
    """A UCI chess engine process behind the :class:`Engine` interface (the ``uci`` spec).

    The program is watched (:class:`~engines.uci_client.UciProcess`): a search
    that misses its deadline (:meth:`deadline`), answers a move that is not
    legal, null or malformed, floods its output or ends with the program's
    death raises :class:`~engines.uci_client.EngineFailure` with the reason,
    the program killed; a match scores it as the engine's forfeit."""

    def __init__(self, spec: EngineSpec, game_class: type[Game]) -> None:
        super().__init__(spec, game_class)
        check_game(game_class, spec.name)
        if not programs_allowed():
            raise SpecError(f"{spec.name}: runs another program, and this process may start none")
        self.path = self.program()
        self.uci: UciProcess | None = None
        #: Closed for good (:meth:`close`); a program killed for breaking the rules is started again.
        self.closed = False
        self.declared: dict[str, UciOption] = {}
        #: What the program says of itself (``id name``, ``id author``), by key.
        self.identity: dict[str, str] = {}
        self._start()

    def _start(self) -> None:
        """Start the program: ``uci`` and its declarations, then the spec's options and ``isready``
        (a one-line :class:`SpecError` for a program that cannot play)."""
        spec = self.spec
        self.uci = UciProcess(spec.name, self.path)
        try:
            self._handshake()
        except EngineFailure as failure:
            self.close()
            if failure.reason == "engine crashed":
                raise SpecError(f"{spec.name}: {self.path} is not a UCI engine: it ended before answering "
                                f"'uci' with 'uciok'") from None
            if failure.reason == "timeout":
                raise SpecError(f"{spec.name}: {self.path} is not a UCI engine: no 'uciok' within "
                                f"{START_TIMEOUT:g} s of 'uci'") from None
            raise SpecError(f"{spec.name}: {self.path} is not a UCI engine: {failure.reason}") from None
        try:
            chosen = self._options()
        except SpecError as error:
            self.close()
            raise SpecError(f"{spec.name}: {_one_line(error)}") from None
        try:
            for name, value in chosen.items():
                self.uci.send(f"setoption name {name}" + ("" if value is None else f" value {value}"))
            self.uci.send("isready")
            self.uci.expect("readyok", time.monotonic() + START_TIMEOUT)
        except EngineFailure as failure:
            self.close()
            raise SpecError(f"{spec.name}: {self.path} failed while setting its options: "
                            f"{failure.reason}") from None

    def _handshake(self) -> None:
        """``uci`` and the program's declarations up to ``uciok``."""
        assert self.uci is not None

        def declared(words: list[str]) -> None:
            if words[0] == "id" and len(words) > 2:
                self.identity[words[1]] = " ".join(words[2:])[:200]
            if words[0] == "option":
                option = parse_option(words)
                if option is not None:
                    self.declared[option.name] = option

        self.uci.send("uci")
        self.uci.expect("uciok", time.monotonic() + START_TIMEOUT, declared)

    @property
    def program_name(self) -> str:
        """The name the program gives itself (``id name``; empty if it gave none)."""
        return self.identity.get("name", "")

    @property
    def pid(self) -> int | None:
        """The program's process id (``None`` once closed)."""
        return self.uci.pid if self.uci is not None else None

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

    def _options(self) -> dict[str, str | None]:
        """The UCI options the spec sets, checked against what the program declares and written as
        ``setoption`` gives them (``None``: a button, pressed)."""
        chosen: dict[str, str | None] = {}
        for given, value in self.wanted().items():
            if _normal(given) in MANAGED:
                raise SpecError(f"option {given} is set by the client search by search, "
                                f"not by the spec; leave it out")
            option = _declared(self.declared, given, self.path)
            typed = _typed(option, value, self.path)
            chosen[option.name] = (None if typed is None else "true" if typed is True
                                   else "false" if typed is False else str(typed))
        return chosen

    def limits(self) -> Limits:
        """The spec's limits; a depth or node budget alone drops the default time."""
        limits = super().limits()
        given = self.spec.options
        if "time" not in given and ("depth" in given or "nodes" in given):
            return Limits(limits.depth, None, limits.nodes)
        return limits

    def close(self) -> None:
        """End the engine process (idempotent): ``quit``, then its process group killed."""
        self.closed = True
        uci = getattr(self, "uci", None)
        if uci is not None:
            self.uci = None
            uci.close()

    # ------------------------------------------------------------------ search
    @staticmethod
    def deadline(limits: Limits, white_to_move: bool) -> float:
        """Seconds a search under ``limits`` may take before the engine forfeits on ``timeout``: its
        movetime, or what is left on its clock plus the match's margin, then :data:`GRACE` more; a search
        limited by depth or nodes alone gets :data:`UNTIMED_DEADLINE`."""
        if limits.clocks is not None:
            clocks = limits.clocks
            return clocks.left[0 if white_to_move else 1] + clocks.margin + GRACE
        if limits.time is not None:
            return limits.time + GRACE
        if limits.depth is not None or limits.nodes is not None:
            return UNTIMED_DEADLINE
        return math.inf  # analysis without end: the stop flag ends it

    def search(self, game: Game, limits: Limits | None = None, *,
               stop: StopFlag | None = None, on_info: InfoCallback | None = None,
               moves: Sequence[Any] | None = None) -> SearchResult:
        import chess

        if self.closed:
            raise RuntimeError(f"this {self.spec.name} engine is closed")
        if self.uci is None or self.uci.pid is None:  # killed for breaking the rules: a new start
            self._start()
        uci = self.uci
        assert uci is not None
        legal = root_moves(game, moves)
        limits = limits if limits is not None else self.limits()
        board = _board(game)
        start = time.perf_counter()
        began = time.monotonic()
        deadline = began + self.deadline(limits, board.turn == chess.WHITE)
        try:
            move, latest = self._search(uci, board, limits, legal if moves is not None else None, deadline,
                                        stop, on_info, start)
        except EngineFailure as failure:
            raise EngineFailure(failure.reason, f"{failure} while searching") from None
        stats = self._stats(board, latest, start)
        pv = _uci_line(board, latest.pv) if latest is not None else []
        if not pv or pv[0] != move:
            pv = [move]
            stats.pv = [board.san(move)]
        stats.best = board.san(move)
        return SearchResult(move, int(stats.score), pv, stats)

    def _search(self, uci: UciProcess, board: Any, limits: Limits, moves: list[Any] | None, deadline: float,
                stop: StopFlag | None, on_info: InfoCallback | None, start: float) -> tuple[Any, UciInfo | None]:
        """``position`` and ``go``, then the program's lines up to its ``bestmove``: the move and the last
        ``info`` with a score or a line (each given to ``on_info`` as it comes)."""
        uci.send(_position_command(board), deadline)
        uci.send(_go_command(limits, moves), deadline)
        legal = list(moves) if moves is not None else list(board.legal_moves)
        latest: UciInfo | None = None
        stopping: list[float] = []

        def poll() -> float | None:
            if stop is not None and not stopping and stop.is_set():
                uci.send("stop", deadline)
                stopping.append(time.monotonic() + GRACE)
            return stopping[0] if stopping else None

        while True:
            try:
                line = uci.next_line(deadline, poll)
            except EngineFailure as failure:
                # Told to stop, it went on: it is killed, and its line so far answers for it.
                line_so_far = _uci_line(board, latest.pv) if latest is not None else []
                if stopping and failure.reason == "timeout" and line_so_far and line_so_far[0] in legal:
                    return line_so_far[0], latest
                raise
            words = line.split()
            if not words:
                continue
            if words[0] == "info":
                info = parse_info(words)
                if info is not None and info.multipv == 1 and (info.pv or info.cp is not None
                                                                or info.mate is not None):
                    latest = info
                    if on_info is not None:
                        on_info(self._stats(board, latest, start))
            elif words[0] == "bestmove":
                return self._answer(board, words, legal), latest

    def _answer(self, board: Any, words: list[str], legal: list[Any]) -> Any:
        """The move of a ``bestmove`` line, if it is a legal one (of ``legal``); else the forfeit."""
        import chess

        assert self.uci is not None
        text = words[1] if len(words) > 1 else ""
        if text in ("0000", "(none)", ""):
            raise self.uci.fail("null move", f"answered a null move (bestmove {text or 'with no move'})")
        try:
            move = chess.Move.from_uci(text)
        except ValueError:
            raise self.uci.fail(f"malformed move {text[:20]!r}", f"answered a malformed move {text[:20]!r}") from None
        if move not in legal:
            raise self.uci.fail(f"illegal move {text}", f"answered an illegal move {text} in {board.fen()}")
        return move

    def _stats(self, board: Any, info: UciInfo | None, start: float) -> SearchStats:
        elapsed = time.perf_counter() - start
        info = info if info is not None else UciInfo()
        value, mate = 0, info.mate
        if mate is None:
            value = info.cp or 0
        elif mate != 0:  # our engines' scale: a win in N moves is WIN - (2N - 1) plies
            value = WIN - (2 * mate - 1) if mate > 0 else -(WIN + 2 * mate)
        else:  # mated on the board: no legal move is searched, but say it as a loss
            value, mate = -WIN, None
        texts = _san_line(board, _uci_line(board, info.pv))
        return self.new_stats().copy(
            nodes=info.nodes or 0, depth=info.depth or 0, seldepth=info.seldepth or 0,
            time_s=round(info.time_ms / 1000 if info.time_ms is not None else elapsed, 4),
            nps=info.nps or 0, score=int(value), mate=mate,
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
    if given in offered:
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


def _position_command(board: Any) -> str:
    """``position`` for ``board`` with its history: the root position and the moves since."""
    root = board.root()
    moves = " ".join(move.uci() for move in board.move_stack)
    where = "startpos" if root.fen() == STARTING_FEN else f"fen {root.fen()}"
    return f"position {where}" + (f" moves {moves}" if moves else "")


def _go_command(limits: Limits, moves: list[Any] | None) -> str:
    """``go`` for ``limits``: clocks as clocks (the program manages its time), else movetime, depth, nodes."""
    words = ["go"]
    clocks = limits.clocks
    if clocks is not None:
        words += ["wtime", _ms(clocks.left[0]), "btime", _ms(clocks.left[1]),
                  "winc", _ms(clocks.increment[0]), "binc", _ms(clocks.increment[1])]
        if clocks.moves_to_go:
            words += ["movestogo", str(clocks.moves_to_go)]
    elif limits.time is not None:
        words += ["movetime", _ms(limits.time)]
    if limits.depth is not None:
        words += ["depth", str(limits.depth)]
    if limits.nodes is not None:
        words += ["nodes", str(limits.nodes)]
    if moves is not None:
        words += ["searchmoves", *(move.uci() for move in moves)]
    if len(words) == 1:
        words.append("infinite")
    return " ".join(words)


def _ms(seconds: float) -> str:
    return str(max(0, int(round(seconds * 1000))))


def _uci_line(board: Any, texts: Sequence[str]) -> list[Any]:
    """The moves of a UCI line (texts) while they are legal in turn from ``board``."""
    import chess

    board = board.copy(stack=False)
    line = []
    for text in texts:
        try:
            move = chess.Move.from_uci(text)
        except ValueError:
            break
        if not board.is_legal(move):
            break
        line.append(move)
        board.push(move)
    return line


def _san_line(board: Any, line: Sequence[Any]) -> list[str]:
    """The SAN of ``line``, a line of legal moves from ``board`` (as :func:`_uci_line` gives)."""
    board = board.copy(stack=False)
    texts = []
    for move in line:
        texts.append(board.san(move))
        board.push(move)
    return texts


