"""``stockfish``: the Stockfish chess engine as an opponent and a yardstick.

The spec ``stockfish[:elo=N|skill=N|depth=N|time=S|nodes=N|path=FILE]`` runs
a ``stockfish`` binary through python-chess's UCI client (``chess.engine``):
``elo`` limits its strength (``UCI_LimitStrength`` and ``UCI_Elo``), ``skill``
sets its ``Skill Level`` (0-20), ``depth``/``time``/``nodes`` limit each
search (0.1 s a move by default; a depth or node budget alone drops the
default time, as for our engines).

The binary is, in order: the ``path`` option, the ``TUI_GAMES_STOCKFISH``
environment variable, ``stockfish`` on the ``PATH``, ``/usr/games/stockfish``
(where Debian's package puts it).  Without one the spec is refused with a
one-line :class:`~engines.spec.SpecError` that says how to get one.  Any UCI
engine at that path works the same (the tests use ``tui-games uci``).

The engine process starts with the engine object (so a bad binary or option
is reported at once) and ends with :meth:`StockfishEngine.close`.  Its
statistics map from the UCI ``info`` lines: ``nodes``, ``depth``,
``seldepth``, ``time_s``, ``nps``, ``score`` (centipawns for the side to
move; mates as our engines score wins), ``mate``, ``best`` and ``pv`` in SAN;
the counters UCI does not report stay 0.  Limits that come from clocks
(a match's ``tc``) are passed as the clocks themselves (``go wtime btime
winc binc movestogo``): Stockfish manages its time.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from typing import Any, Sequence

from games import WIN, Game

from .base import Engine, InfoCallback, Limits, SearchResult, SearchStats, StopFlag, root_moves
from .spec import EngineSpec, Option, SpecError

__all__ = ["ENVIRONMENT_VARIABLE", "OPTIONS", "StockfishEngine", "UCI_GAME", "check_game", "find_stockfish"]

#: Names the stockfish binary to use (a path), before the ``PATH`` is searched.
ENVIRONMENT_VARIABLE = "TUI_GAMES_STOCKFISH"
#: Where Debian's ``stockfish`` package installs the binary (not on a user's PATH).
DEBIAN_PATH = "/usr/games/stockfish"
#: Seconds to wait for the engine to start and answer ``uci``.
START_TIMEOUT = 20.0
#: Seconds between two looks at the stop flag during a search.
STOP_POLL = 0.01

#: The options of the ``stockfish`` spec (registered in :mod:`engines.registry`).
OPTIONS: tuple[Option, ...] = (
    Option("elo", int, None, "limit the strength to this Elo (UCI_LimitStrength, UCI_Elo)", minimum=1),
    Option("skill", int, None, "Stockfish's Skill Level, 0 to 20", minimum=0),
    Option("depth", int, None, "plies to search (L)", minimum=1),
    Option("time", float, 0.1, "seconds per move", minimum=0.001),
    Option("nodes", int, None, "node budget per move (iterative deepening)", minimum=1),
    Option("path", str, None, f"the binary (default: ${ENVIRONMENT_VARIABLE}, stockfish on the PATH, "
                              f"{DEBIAN_PATH})"),
)

_MISSING = (f"stockfish: no stockfish binary found (install Debian's 'stockfish' package "
            f"or set {ENVIRONMENT_VARIABLE})")


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


def check_game(game_class: type[Game]) -> None:
    """Stockfish plays chess only: a :class:`SpecError` for any other game."""
    if game_class.NAME != UCI_GAME:
        raise SpecError(f"stockfish: plays chess only, not {game_class.NAME}")


class StockfishEngine(Engine):
    """A UCI chess engine process (Stockfish) behind the :class:`Engine` interface."""

    def __init__(self, spec: EngineSpec, game_class: type[Game]) -> None:
        super().__init__(spec, game_class)
        check_game(game_class)
        self.path = find_stockfish(spec.get("path"))
        import chess.engine

        try:
            self.process: Any = chess.engine.SimpleEngine.popen_uci(self.path, timeout=START_TIMEOUT)
        except (OSError, chess.engine.EngineError, TimeoutError) as error:
            raise SpecError(f"stockfish: could not start {self.path}: "
                            f"{' '.join(str(error).split()) or type(error).__name__}") from None
        try:
            self.process.configure(self._options())
        except (chess.engine.EngineError, SpecError) as error:
            self.close()
            raise SpecError(f"stockfish: {error}") from None

    def _options(self) -> dict[str, Any]:
        """The UCI options the spec sets, checked against what the binary offers."""
        wanted: dict[str, Any] = {}
        if "elo" in self.spec.options:
            wanted["UCI_LimitStrength"] = True
            wanted["UCI_Elo"] = self.spec.get("elo")
        if "skill" in self.spec.options:
            wanted["Skill Level"] = self.spec.get("skill")
        offered = self.process.options
        for name, value in wanted.items():
            if name not in offered:
                raise SpecError(f"{self.path} has no UCI option {name!r}")
            option = offered[name]
            if option.min is not None and option.max is not None and not option.min <= value <= option.max:
                raise SpecError(f"{name} must be between {option.min} and {option.max} for {self.path}, "
                                f"got {value}")
        return wanted

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
            raise RuntimeError("this stockfish engine is closed")
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
        latest: dict[str, Any] = {}
        with self.process.analysis(board, limit, root_moves=list(legal) if moves is not None else None) as analysis:
            done = threading.Event()
            watcher = None
            if stop is not None:
                def watch() -> None:
                    while not done.wait(STOP_POLL):
                        if stop.is_set():
                            analysis.stop()
                            return

                watcher = threading.Thread(target=watch, name="stockfish-stop", daemon=True)
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
        move = best.move if best.move in legal else legal[0]
        stats = self._stats(board, latest, start)
        pv = list(latest.get("pv", [])) or [move]
        if pv[0] != move:
            pv = [move]
            stats.pv = [board.san(move)]
        stats.best = board.san(move)
        return SearchResult(move, int(stats.score), pv, stats)

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


