"""A minimal UCI engine with Stockfish's strength options, for the stockfish adapter's tests.

It declares ``UCI_LimitStrength``, ``UCI_Elo`` (1320-3190) and ``Skill Level``
(0-20) as Stockfish does, appends every ``setoption`` and ``go`` line to the
file named by ``FAKE_UCI_LOG`` and answers ``go`` with the first legal move.
"""

from __future__ import annotations

import os
import sys

import chess


def main() -> None:
    board = chess.Board()
    log = os.environ.get("FAKE_UCI_LOG")

    def send(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            send("id name FakeFish")
            send("option name UCI_LimitStrength type check default false")
            send("option name UCI_Elo type spin default 1320 min 1320 max 3190")
            send("option name Skill Level type spin default 20 min 0 max 20")
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
        elif words[0] == "go":
            move = next(iter(board.legal_moves))
            send(f"info depth 1 seldepth 1 nodes 1 nps 1000 time 1 score cp 0 pv {move.uci()}")
            send(f"bestmove {move.uci()}")
        elif words[0] == "quit":
            return


if __name__ == "__main__":
    main()
