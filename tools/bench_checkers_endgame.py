"""Checkers pvs with its endgame database and without it (``tables=off``), in one run.

    TUI_GAMES_DATA_DIR=DIR python tools/bench_checkers_endgame.py convert [TIME]   # won endings played out
    TUI_GAMES_DATA_DIR=DIR python tools/bench_checkers_endgame.py cost              # nodes/s, interleaved

``DIR/endgames/checkers`` holds the database (``tui-games endgame build checkers --out ...``).
``convert`` draws won starting positions from the database (seeded: the side to move wins, far from
the end), has Black (the winner) played by ``pvs`` with the database and by ``pvs:tables=off`` in turn,
White by ``pvs:tables=off``, at TIME seconds a move (0.5), and says how each game ended. ``cost``
times the same fixed-depth searches with and without the database, alternating, five rounds, and
prints the median ratio.  Both print the load average (the machine is shared).  Not imported by the
package.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

import numpy as np

from engines import Limits, create_engine
from games.checkers import Checkers
from games.checkers.endgame import Endgame, default_tables
from games.checkers.endgame_build import positions

#: (seed, least plies to the win, (signature, how many)...): the two sets measured on 2026-11-28.
SETS = (
    (2026, 16, (((0, 2, 0, 1), 2), ((0, 3, 0, 1), 2), ((1, 2, 0, 1), 1), ((0, 3, 0, 2), 1))),
    (2027, 42, (((0, 3, 0, 2), 3), ((1, 2, 0, 1), 2), ((2, 1, 0, 1), 2), ((1, 1, 1, 1), 1))),
)
COST = (("middlegame (22 pieces)", "B:W5,20,21,22,24,25,26,27,28,30,31:B1,2,3,6,8,11,12,15,16", 7),
        ("7 pieces", "B:W18,22,K30,31:B5,9,K14", 9))


def _text(own: int, opp: int, kings: int) -> str:
    def listed(mask: int) -> str:
        return ",".join(("K" if kings >> (s - 1) & 1 else "") + str(s) for s in range(1, 33) if mask >> (s - 1) & 1)
    return f"B:W{listed(opp)}:B{listed(own)}"


def starts(tables: Endgame, seed: int, least: int, wanted: tuple) -> list[tuple[str, int]]:
    rng = random.Random(seed)
    found = []
    for sig, count in wanted:
        index, _groups, own, opp, kings, _occupied = positions(sig)
        codes = tables.table(sig)[index]
        for i in rng.sample(list(np.flatnonzero(codes >= least)), count):
            found.append((_text(int(own[i]), int(opp[i]), int(kings[i])), int(codes[i]) - 1))
    return found


def convert(seconds: float) -> None:
    tables = default_tables()
    assert tables is not None, "no database in TUI_GAMES_DATA_DIR/endgames/checkers"
    limits = Limits(time=seconds)
    defender = create_engine("pvs:tables=off", Checkers)
    for seed, least, wanted in SETS:
        for text, distance in starts(tables, seed, least, wanted):
            for spec in ("pvs", "pvs:tables=off"):
                attacker = create_engine(spec, Checkers)
                game = Checkers.from_text(text)
                start = time.perf_counter()
                while game.outcome() is None:
                    game.play((attacker if game.turn == 0 else defender).search(game, limits).move)
                outcome = game.outcome()
                assert outcome is not None
                said = outcome.reason if outcome.winner is None else ("won" if outcome.winner == 0 else "LOST")
                print(f"{text:28s} dtw {distance:3d}  {spec:15s} -> {said} in {game.ply} plies "
                      f"({time.perf_counter() - start:.0f} s)", flush=True)


def cost() -> None:
    for name, text, depth in COST:
        ratios = []
        for _round in range(5):
            rates = {}
            for spec in ("pvs:tt=off", "pvs:tt=off,tables=off"):
                engine = create_engine(spec, Checkers)
                start = time.perf_counter()
                result = engine.search(Checkers.from_text(text), Limits(depth=depth))
                rates[spec] = result.stats.nodes / (time.perf_counter() - start)
            ratios.append(rates["pvs:tt=off"] / rates["pvs:tt=off,tables=off"])
            print(name, {k: round(v) for k, v in rates.items()}, round(ratios[-1], 3), flush=True)
        print(name, "median ratio with/without", round(statistics.median(ratios), 3), flush=True)


if __name__ == "__main__":
    print("load", open("/proc/loadavg").read().strip(), flush=True)
    if sys.argv[1:2] == ["cost"]:
        cost()
    else:
        convert(float(sys.argv[2]) if len(sys.argv) > 2 else 0.5)
    print("load", open("/proc/loadavg").read().strip())
