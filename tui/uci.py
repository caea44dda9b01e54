"""``tui-games uci``: our chess engines over the Universal Chess Interface.

Commands read from stdin, one per line: ``uci``, ``isready``, ``ucinewgame``,
``position startpos|fen FEN [moves M ...]``, ``go`` with ``depth``, ``nodes``,
``movetime``, ``wtime``/``btime``/``winc``/``binc``/``movestogo``,
``infinite``, ``ponder`` and ``searchmoves``, ``ponderhit``, ``stop``, ``quit`` and
``setoption``.  The options (``uci`` lists them with their types):

- ``Engine``: any engine spec of ``tui-games engines``;
- ``Hash``, ``Threads`` and ``MultiPV``, the ones GUIs and match runners set
  first: the engine's ``hash`` (megabytes of transposition table),
  ``workers`` (processes) and ``multipv`` options (``MultiPV N`` reports the
  best N root moves, each in an ``info ... multipv K ...`` line);
- ``Ponder``, which a GUI needs declared before it sends ``go ponder``;
- ``SyzygyPath``, the folder of Syzygy endgame tables: the engine's ``tables``
  option (``<empty>`` or nothing: none);
- every other option of the engine's spec under its own name (``null``,
  ``lmr``, ``checks``, ``heuristic``, ...), but the limits ``go`` gives.

Setting one builds the engine again from its spec with that option changed;
a bad value is answered with ``info string error ...`` and the previous
engine stays.  Unknown commands are ignored, as UCI asks.

The search runs in a thread with a stop event, so ``stop``, ``isready`` and
``quit`` are answered while it thinks.  ``info`` lines (depth, seldepth,
nodes, nps, time, score in centipawns or mate in moves, PV in long algebraic
notation) follow the engine's live statistics, about ten a second.

Time from the clock: :func:`engines.timing.time_for_move`, a budget the
search may end early; ``movetime`` is a fixed time, used in full
(:func:`engines.timing.fixed_time`).  ``go ponder`` searches without a limit
until ``ponderhit`` gives it the limits its ``go`` named, counted from then.
Ctrl-C answers the running search's ``bestmove`` and ends the session.
A line over :data:`games.lines.MAX_LINE` bytes (1 MiB) is answered with one
``info string error`` line naming it and skipped, never read whole; a
``position`` of more than :data:`games.variations.MAX_NODES` moves is refused.
"""

from __future__ import annotations

import signal
import sys
import threading
from typing import Any, Callable, Iterator, Iterable, TextIO

import chess

from engines import Engine, GameOverError, Limits, Option, PvLine, SearchStats, SpecError, create_engine
from engines.registry import MAX_HASH, MAX_MULTIPV, MAX_WORKERS, with_tables
from engines.search.core import TT_CAPACITY
from engines.search.table import DICT_ENTRY_BYTES, SHARED_ENTRIES, WORDS
from engines.spec import format_spec
from engines.timing import FOREVER, fixed_time, time_for_move
from games import GameError, Termination
from games.chess import ChessGame, ChessTermination
from games.lines import MAX_LINE, capped_lines, long_line
from games.variations import MAX_NODES

__all__ = ["UciServer", "info_line", "info_lines", "run_uci", "time_for_move"]

#: Moves that claimable draws make final: a GUI may still ask for a move there.
_CLAIMABLE = (Termination.THREEFOLD_REPETITION, ChessTermination.FIFTY_MOVES)

#: The UCI options GUIs set first, by their UCI names, and the spec option each sets.
STANDARD = {"Hash": "hash", "Threads": "workers", "MultiPV": "multipv", "SyzygyPath": "tables"}
#: The spec options a ``go`` gives instead: not offered as UCI options.
GO_LIMITS = ("depth", "time", "nodes")
#: The widest range a spin option without bounds is declared with.
SPIN_RANGE = (-(1 << 31), (1 << 31) - 1)


class UciServer:
    """One UCI session: the position, the engine and the search thread."""

    def __init__(self, spec: str, out: TextIO | None = None, *, tables: str | None = None) -> None:
        self.out = out if out is not None else sys.stdout
        self.lock = threading.Lock()
        #: The Syzygy tables' folder every engine of the session reads unless its spec names its own
        #: (``tui-games uci --syzygy DIR``); ``setoption name SyzygyPath`` sets the engine's own.
        self.tables = tables
        spec = with_tables(spec, ChessGame, tables)
        self.spec = spec
        self.engine: Engine = create_engine(spec, ChessGame)
        self.game = ChessGame()
        self.thread: threading.Thread | None = None
        self.stop_event = threading.Event()
        #: Set when the running search may answer (at once, or after stop/ponderhit).
        self.release = threading.Event()
        #: Whether the running search ponders, and the limits a 'ponderhit' gives it.
        self.pondering = False
        self.after_ponderhit: Limits | None = None
        self.timer: threading.Timer | None = None
        #: Why the last 'position' was refused (``go`` then answers ``bestmove 0000``, searching nothing).
        self.refused: str | None = None
        #: The last 'position' read: its start words and the moves played on :attr:`game`.
        self.position_read: tuple[list[str], list[str]] = ([], [])

    # ------------------------------------------------------------------ output
    def send(self, line: str) -> None:
        with self.lock:
            self.out.write(line + "\n")
            self.out.flush()

    # ---------------------------------------------------------------- commands
    def handle(self, line: str) -> bool:
        """Carry out one command line; ``False`` after ``quit``."""
        tokens = line.split()
        if not tokens:
            return True
        command, args = tokens[0], tokens[1:]
        if command == "quit":
            self.finish_search()
            return False
        if command == "uci":
            self.send(f"id name tui-games ({self.spec})")
            self.send("id author tui-games developers")
            for line in self.option_lines():
                self.send(line)
            self.send("uciok")
        elif command == "isready":
            if self.thread is None:
                self.engine.prepare()  # helpers start here, not on the clock of the first move
            self.send("readyok")
        elif command == "ucinewgame":
            self.finish_search()
            self.engine.new_game()  # the same engine (and its worker processes), its table emptied
            self.game = ChessGame()
            self.position_read = ([], [])
            self.refused = None
        elif command == "setoption":
            self._setoption(args)
        elif command == "position":
            self.finish_search()
            self._position(args)
        elif command == "go":
            self.finish_search()
            self._go(args)
        elif command == "stop":
            self.finish_search()
        elif command == "ponderhit":
            self.ponderhit()
        # debug, register and anything unknown: ignored (UCI says so).
        return True

    def _replace_engine(self, spec: str) -> None:
        spec = with_tables(spec, ChessGame, self.tables)
        engine = create_engine(spec, ChessGame)
        self.engine.close()
        self.engine = engine
        self.spec = spec

    def option_lines(self) -> list[str]:
        """The ``option`` lines ``uci`` answers: Engine, the standard ones, the spec's own."""
        table = self.engine.spec.table
        spec = self.engine.spec
        workers = spec.get("workers") if "workers" in table else 1
        hash_mb = spec.get("hash") if "hash" in table else None
        if hash_mb is None:  # what the engine's table holds by default, in megabytes
            hash_mb = (SHARED_ENTRIES * WORDS * 8 if workers > 1 else TT_CAPACITY * DICT_ENTRY_BYTES) >> 20
        multipv = spec.get("multipv") if "multipv" in table else 1
        lines = [
            f"option name Engine type string default {self.spec}",
            f"option name Hash type spin default {hash_mb} min 1 max {MAX_HASH}",
            f"option name Threads type spin default {workers} min 1 max {MAX_WORKERS}",
            f"option name MultiPV type spin default {multipv} min 1 max {MAX_MULTIPV}",
            "option name Ponder type check default false",
        ]
        if "tables" in table:
            lines.append(f"option name SyzygyPath type string default {spec.get('tables') or '<empty>'}")
        for name, option in table.items():
            if name in GO_LIMITS or name in STANDARD.values() or option.family:
                continue
            lines.append(f"option name {name} {_declaration(option, spec.get(name))}")
        return lines

    def _setoption(self, args: list[str]) -> None:
        text = " ".join(args)
        name, _, value = text.partition(" value ")
        name = name.removeprefix("name").strip()
        value = value.strip()
        key = name.lower()
        if key == "engine":
            self.finish_search()
            try:
                self._replace_engine(value)
            except (SpecError, GameError) as error:
                self.send(f"info string error: {error}; still {self.spec}")
            return
        if key == "ponder":  # pondering is the GUI's to start ('go ponder'); the option only says it may
            return
        standard = {uci.lower(): option for uci, option in STANDARD.items()}
        table = self.engine.spec.table
        option_name = standard.get(key, key)
        if key not in standard and (option_name not in table or option_name in GO_LIMITS
                                    or table[option_name].family):
            known = ", ".join(line.split()[2] for line in self.option_lines())
            self.send(f"info string error: unknown option {name[:40]!r}; the options are: {known}")
            return
        if option_name not in table:  # a standard option this engine has no use for
            if (value != "1" or key == "hash") and value not in ("", "<empty>"):
                self.send(f"info string {name} does not apply to {self.spec} (no {option_name} option); "
                          f"ignored")
            return
        spec = self.engine.spec
        try:
            changed = dict(spec.options)
            if option_name == "tables" and value in ("", "<empty>"):  # no tables
                changed.pop(option_name, None)
            elif option_name == "tables" and "," in value:
                raise SpecError(f"{value[:60]!r}: a folder with a comma in its name cannot go into an "
                                f"engine spec; rename it")
            else:
                changed[option_name] = table[option_name].convert(spec.name, value)
            text = format_spec(spec.name, changed)
            if text != self.spec:
                self.finish_search()
                self._replace_engine(text)
        except (SpecError, GameError) as error:
            self.send(f"info string error: {name}: {error}; still {self.spec}")

    def _position(self, args: list[str]) -> None:
        if not args:
            return
        if "moves" in args:
            at = args.index("moves")
            where, moves = args[:at], args[at + 1:]
        else:
            where, moves = args, []
        if not where:
            self._refuse("expected 'position startpos [moves ...]' or 'position fen FEN [moves ...]'")
            return
        if len(moves) > MAX_NODES:  # a game is never this long: its replay and stack would be the cost
            self._refuse(f"{len(moves):,} moves; a position of more than {MAX_NODES:,} is refused")
            return
        previous_where, previous_moves = self.position_read
        if where == previous_where and moves[:len(previous_moves)] == previous_moves:
            # A GUI sends the whole game before every move: play only the new moves
            # (replaying 150 plies with legality checks took 6 ms of each move's clock).
            game, done = self.game, len(previous_moves)
        else:
            game, done = None, 0
        try:
            if game is not None:
                pass
            elif where[0] == "startpos":
                game = ChessGame()
            elif where[0] == "fen":
                game = ChessGame.from_text(" ".join(where[1:]))
            else:
                self._refuse(f"expected 'position startpos' or 'position fen FEN', got {' '.join(where)[:60]!r}")
                return
        except GameError as error:
            self._refuse(str(error))
            return
        self.refused = None
        self.position_read = (where, [])
        for index, text in enumerate(moves[done:], done):
            try:
                move = chess.Move.from_uci(text)
            except ValueError:
                move = None
            if move is None or not game.board.is_legal(move):
                self.send(f"info string error: illegal move {text!r} in {game.to_text()}; "
                          f"the position stops before it")
                moves = moves[:index]
                break
            game.play(move)
        self.game = game
        self.position_read = (where, moves)

    def _refuse(self, why: str) -> None:
        """A 'position' that cannot be set up: said, and no position is searched until a good one comes
        (a search of the previous position would answer a move for a game the GUI is not playing)."""
        self.send(f"info string error: {why}")
        self.refused = why
        self.position_read = ([], [])

    def _limits(self, args: list[str]) -> tuple[Limits | None, list[chess.Move] | None, str]:
        """The limits ``go`` asks for (``None``: the engine's own), the
        ``searchmoves`` and the mode: ``"infinite"``, ``"ponder"`` (the
        limits are then those of the search a ``ponderhit`` turns it into) or
        ``""``."""
        values: dict[str, int] = {}
        searchmoves: list[chess.Move] = []
        mode = ""
        i = 0
        while i < len(args):
            word = args[i]
            if word in ("infinite", "ponder"):
                mode = mode or word
            elif word == "searchmoves":
                i += 1
                while i < len(args):
                    try:
                        searchmoves.append(chess.Move.from_uci(args[i]))
                    except ValueError:
                        break
                    i += 1
                continue
            elif i + 1 < len(args):
                try:
                    values[word] = int(args[i + 1])
                    i += 1
                except ValueError:
                    pass
            i += 1
        moves = searchmoves or None
        if mode == "infinite":
            return Limits(time=FOREVER), moves, mode
        white = self.game.board.turn == chess.WHITE
        clock = values.get("wtime" if white else "btime")
        increment = values.get("winc" if white else "binc", 0)
        depth = values.get("depth")
        if "mate" in values and depth is None:
            depth = 2 * values["mate"] - 1
        seconds: float | None = None
        flexible = False
        if "movetime" in values:
            seconds = fixed_time(values["movetime"])
        elif clock is not None:
            seconds = time_for_move(clock, increment, values.get("movestogo"))
            flexible = True
        nodes = values.get("nodes")
        if depth is None and seconds is None and nodes is None:
            return None, moves, mode
        return Limits(depth=depth if depth is None else max(1, depth), time=seconds,
                      nodes=nodes if nodes is None else max(1, nodes), flexible=flexible), moves, mode

    def _go(self, args: list[str]) -> None:
        if self.refused is not None:
            self.send(f"info string error: no position to search (the last 'position' was refused: "
                      f"{self.refused[:80]})")
            self.send("bestmove 0000")
            return
        limits, moves, mode = self._limits(args)
        # Pondering searches without a limit until 'ponderhit' gives it the one
        # this 'go' names (counted from the ponderhit) or 'stop' ends it.
        self.pondering = mode == "ponder"
        self.after_ponderhit = limits
        if mode == "ponder":
            limits = Limits(time=FOREVER)
        # UCI: no bestmove before 'stop' (or 'ponderhit') when infinite or pondering.
        release = self.release = threading.Event()
        if not mode:
            release.set()
        game = self.game.copy()
        outcome = game.outcome()
        if outcome is not None and outcome.reason in _CLAIMABLE:
            game.claim_draws = False  # nobody claimed it: play on
        legal = set(game.legal_moves())
        if moves is not None:
            moves = [move for move in moves if move in legal] or None
        stop = self.stop_event = threading.Event()
        engine = self.engine
        root = game.board.copy(stack=False)

        def on_info(stats: SearchStats) -> None:
            for line in info_lines(stats, root):
                self.send(line)

        def search() -> None:
            try:
                result = engine.search(game, limits, stop=stop, on_info=on_info, moves=moves)
            except GameOverError as error:
                self.send(f"info string {error}")
                release.wait()
                self.send("bestmove 0000")
                return
            except Exception as error:  # pragma: no cover - a bug: say so, keep the GUI going
                self.send(f"info string error: {type(error).__name__}: {error}")
                self.send("bestmove 0000")
                return
            for line in info_lines(result.stats, root):
                self.send(line)
            release.wait()
            line = f"bestmove {result.move.uci()}"
            if len(result.pv) > 1 and result.pv[0] == result.move:
                line += f" ponder {result.pv[1].uci()}"
            self.send(line)

        self.thread = threading.Thread(target=search, name="uci-search", daemon=True)
        self.thread.start()

    def ponderhit(self) -> None:
        """The opponent played the move pondered on: the search goes on as the
        ``go`` that started it asked, its time counted from now."""
        if self.thread is None or not self.pondering:
            return
        self.pondering = False
        limits = self.after_ponderhit or self.engine.limits()  # no limit given: the engine's own
        if limits.time is not None:
            self.timer = threading.Timer(limits.time, self.stop_event.set)
            self.timer.daemon = True
            self.timer.start()
        else:  # a depth or node limit only: what pondering found is the answer
            self.stop_event.set()
        self.release.set()

    def finish_search(self) -> None:
        """Stop a running search and wait for its ``bestmove``."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.thread is not None:
            self.stop_event.set()
            self.release.set()
            self.thread.join()
            self.thread = None
        self.pondering = False

    def run(self, lines: Iterable[str]) -> int:
        """Serve commands until ``quit`` or the end of input.  A command that
        fails, whatever the reason, is answered with one ``info string error``
        line and the session carries on.

        Ctrl-C (SIGINT) ends the session as ``quit`` does -- the search running
        answers its ``bestmove`` and the engine's helpers are stopped -- and
        then raises :class:`KeyboardInterrupt`.  Only a wait for input is
        interrupted at once; a signal at any other moment is noted and acted
        on at the next command, so it never cuts the ``bestmove`` or the
        cleanup short."""
        interrupted = False
        waiting = False

        def on_sigint(signum: int, frame: Any) -> None:
            nonlocal interrupted
            interrupted = True
            if waiting:
                raise KeyboardInterrupt

        previous = None
        if threading.current_thread() is threading.main_thread():
            previous = signal.signal(signal.SIGINT, on_sigint)
        try:
            commands = iter(lines)
            while not interrupted:
                waiting = True
                try:
                    line = next(commands, None)
                finally:
                    waiting = False
                if line is None or interrupted:
                    break
                try:
                    if not self.handle(line):
                        break
                except Exception as error:  # one bad command must not end a GUI's engine
                    text = " ".join(str(error).split()) or type(error).__name__
                    self.send(f"info string error: {text[:200]}")
        except KeyboardInterrupt:
            interrupted = True
        finally:
            waiting = False
            self.finish_search()
            self.engine.close()
            if previous is not None:
                signal.signal(signal.SIGINT, previous)
        if interrupted:
            raise KeyboardInterrupt
        return 0


def info_line(stats: SearchStats, root: chess.Board, line: PvLine | None = None, number: int = 0) -> str:
    """A UCI ``info`` line from engine statistics; the PV (SAN texts from
    ``root``) goes out in long algebraic notation.  ``line`` replaces the
    statistics' score and PV, as the ``number``-th best (``multipv``)."""
    parts = ["info"]
    depth = stats.depth
    if depth:
        parts += ["depth", str(depth), "seldepth", str(max(depth, stats.seldepth))]
    if number:
        parts += ["multipv", str(number)]
    parts += ["nodes", str(stats.nodes), "nps", str(stats.nps), "time", str(int(1000 * stats.time_s))]
    if depth:
        score, mate, texts = (stats.score, stats.mate, stats.pv) if line is None else line
        parts += ["score", "mate", str(mate)] if mate is not None else ["score", "cp", str(score)]
        pv = uci_line(root, texts)
        if pv:
            parts += ["pv", *pv]
    return " ".join(parts)


def info_lines(stats: SearchStats, root: chess.Board) -> list[str]:
    """The ``info`` lines of one report: one, or one per line of a ``multipv`` search."""
    if not stats.lines or not stats.depth:
        return [info_line(stats, root)]
    return [info_line(stats, root, line, number) for number, line in enumerate(stats.lines, 1)]


def _declaration(option: Option, value: Any) -> str:
    """How ``uci`` declares a spec option: its UCI type and default (and range, or choices)."""
    if option.kind is bool:
        return f"type check default {'true' if value else 'false'}"
    if option.kind is int:
        low = SPIN_RANGE[0] if option.minimum is None else int(option.minimum)
        high = SPIN_RANGE[1] if option.maximum is None else int(option.maximum)
        return f"type spin default {low if value is None else value} min {low} max {high}"
    if option.choices:
        return f"type combo default {value} " + " ".join(f"var {choice}" for choice in option.choices)
    return f"type string default {'<empty>' if value is None else value}"


def uci_line(root: chess.Board, line: Iterable[str]) -> list[str]:
    """SAN moves from ``root`` in UCI notation (up to the first that does not parse)."""
    board = root.copy(stack=False)
    moves = []
    for san in line:
        try:
            move = board.parse_san(san)
        except ValueError:
            break
        moves.append(move.uci())
        board.push(move)
    return moves


def run_uci(spec: str, lines: Iterable[str] | None = None, out: TextIO | None = None, *,
            tables: str | None = None) -> int:
    """Serve UCI on stdin/stdout (or ``lines``/``out``) with engine ``spec``, its
    engines reading the Syzygy tables in ``tables`` (checked first: a
    :class:`GameError` of one line)."""
    if tables is not None:
        ChessGame.open_tables(tables)
    server = UciServer(spec, out, tables=tables)
    return server.run(_stdin_lines(server.send) if lines is None else lines)


def _stdin_lines(send: Callable[[str], None]) -> Iterator[str]:
    """Standard input line by line; bytes that are not UTF-8 become U+FFFD instead of an error.  A
    line over :data:`games.lines.MAX_LINE` bytes is never held whole: it is answered with one
    ``info string error`` line naming it, and skipped."""
    def overlong(number: int) -> None:
        send(f"info string error: {long_line('standard input', number, MAX_LINE)}")

    for raw in capped_lines(sys.stdin.buffer, "standard input", ValueError, MAX_LINE, overlong):
        yield raw.decode("utf-8", errors="replace")
