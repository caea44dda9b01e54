"""A minimal UCI engine with Stockfish's strength options, for the stockfish adapter's tests.

It declares ``UCI_LimitStrength``, ``UCI_Elo`` (1320-3190) and ``Skill Level``
(0-20) as Stockfish does, plus a combo, a string and a button, appends every
``setoption`` and ``go`` line to the file named by ``FAKE_UCI_LOG`` and answers
``go`` with the first legal move -- or dies on it when ``FAKE_UCI_DIE`` is set, or
thinks for ten minutes without reading its input when ``FAKE_UCI_HANG`` is.

``FAKE_UCI_MODE`` makes it misbehave as engines in the wild do, on every ``go``:
``illegal`` (``bestmove e2e5``), ``garbage`` (a line of noise, then ``bestmove
zz9``), ``null`` (``bestmove 0000``), ``flood`` (``info string`` lines without
end), ``silent`` (no answer, reading on), ``deaf`` (its move, but it ignores
``quit`` and ``stop`` and starts a child that sleeps: only killing its process
group ends both; the child's pid goes to ``FAKE_UCI_CHILD``), ``longline`` (one
``info string`` line of 100,000 bytes), ``absurd`` (``info`` with a score and a
mate of 20 digits, then its move), ``stubborn`` (an ``info`` with a line, then
nothing: it ignores ``stop``).  ``FAKE_UCI_STARTS`` names a file counting its
starts: from start ``FAKE_UCI_GOOD_STARTS`` + 1 on it exits before ``uciok``.
``FAKE_UCI_SPAWN`` makes it start two ``sleep`` children as it starts (one in
its process group, one in a session of its own) and ignore ``quit``, as an
engine with helper processes that is slow to quit: only its guard ends them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import chess


def main() -> None:
    board = chess.Board()
    log = os.environ.get("FAKE_UCI_LOG")

    def send(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    counter = os.environ.get("FAKE_UCI_STARTS")
    if counter:
        starts = int(open(counter).read() or 0) + 1 if os.path.exists(counter) else 1
        with open(counter, "w", encoding="utf-8") as handle:
            handle.write(str(starts))
        if starts > int(os.environ.get("FAKE_UCI_GOOD_STARTS", "1")):
            sys.exit(5)
    spawn = bool(os.environ.get("FAKE_UCI_SPAWN"))
    if spawn:
        subprocess.Popen(["sleep", "600"])
        subprocess.Popen(["sleep", "601"], start_new_session=True)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            send("id name FakeFish")
            send("option name UCI_LimitStrength type check default false")
            send("option name UCI_Elo type spin default 1320 min 1320 max 3190")
            send("option name Skill Level type spin default 20 min 0 max 20")
            send("option name Style type combo default Normal var Solid var Normal var Risky")
            send("option name Book File type string default <empty>")
            send("option name Clear Hash type button")
            send("uciok")
        elif words[0] == "isready":
            send("readyok")
        elif words[0] in ("setoption", "go") and log:
            with open(log, "a", encoding="utf-8") as handle:
                handle.write(line.strip() + "\n")
            if words[0] == "go":
                move = next(iter(board.legal_moves))
                send(f"info depth 1 seldepth 1 nodes 1 nps 1000 time 1 score cp 0 pv {move.uci()}")
                send(f"bestmove {move.uci()}")
        elif words[0] == "setoption" and log:
            with open(log, "a", encoding="utf-8") as handle:
                handle.write(line.strip() + "\n")
        elif words[0] == "position":
            board = chess.Board() if words[1] == "startpos" else chess.Board(" ".join(words[2:8]))
            if "moves" in words:
                for move in words[words.index("moves") + 1:]:
                    board.push_uci(move)
        elif words[0] == "go" and os.environ.get("FAKE_UCI_MODE") in MISBEHAVIOURS:
            MISBEHAVIOURS[os.environ["FAKE_UCI_MODE"]](send, board)
        elif words[0] == "quit" and (spawn or os.environ.get("FAKE_UCI_MODE") == "deaf"):
            continue
        elif words[0] == "go" and os.environ.get("FAKE_UCI_DIE"):
            os._exit(9)
        elif words[0] == "go" and os.environ.get("FAKE_UCI_HANG"):
            time.sleep(600)
        elif words[0] == "go":
            move = next(iter(board.legal_moves))
            send(f"info depth 1 seldepth 1 nodes 1 nps 1000 time 1 score cp 0 pv {move.uci()}")
            send(f"bestmove {move.uci()}")
        elif words[0] == "quit":
            return


def _flood(send, board) -> None:
    while True:
        send("info string " + "x" * 4000)


def _deaf(send, board) -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    record = os.environ.get("FAKE_UCI_CHILD")
    if record:
        with open(record, "w", encoding="utf-8") as handle:
            handle.write(str(child.pid))
    send(f"bestmove {next(iter(board.legal_moves)).uci()}")


MISBEHAVIOURS = {
    "illegal": lambda send, board: send("bestmove e2e5"),
    "garbage": lambda send, board: (send("\x01\x02 no such thing ~~~"), send("bestmove zz9")),
    "null": lambda send, board: send("bestmove 0000"),
    "flood": _flood,
    "silent": lambda send, board: None,
    "deaf": _deaf,
    "longline": lambda send, board: (send("info string " + "y" * 100_000),
                                     send(f"bestmove {next(iter(board.legal_moves)).uci()}")),
    "absurd": lambda send, board: (send("info depth 3 score cp 99999999999999999999 pv e2e4"),
                                   send("info depth 4 score mate 99999999999999999999 pv e2e4"),
                                   send(f"bestmove {next(iter(board.legal_moves)).uci()}")),
    "stubborn": lambda send, board: send("info depth 1 score cp 12 pv e2e4 e7e5"),
}


if __name__ == "__main__":
    main()
