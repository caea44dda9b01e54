"""Benchmarks, reported as ratios against references measured in the same run.

- :mod:`~tui.bench.perft` -- perft leaves/s beside python-chess and naive move generators;
- :mod:`~tui.bench.search` -- engine nodes/s at fixed depth beside perft and a
  deep-copying alpha-beta (the seeds' way), optionally beside sunfish;
- :mod:`~tui.bench.profile` -- where a search's time goes, per game (a sampling profiler:
  move generation, make/undo, evaluation, ordering, the table, the search loop);
- :mod:`~tui.bench.models` -- a learned evaluation's cost per node;
- :mod:`~tui.bench.keys` -- key-press-to-echo latency of the real app in a pty;
- :mod:`~tui.bench.clock` -- chess games on a real clock against Stockfish,
  counting losses on time (our UCI engine and Stockfish as processes, as a GUI runs them).

May import :mod:`games`, :mod:`engines` and rich; :mod:`~tui.bench.keys` runs
the app as a subprocess and never imports it.
"""
