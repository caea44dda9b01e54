"""Train chess's residual network over pesto from Stockfish-labelled datasets
(:mod:`engines.learning.residual_training`; docs/learning.md).

    python tools/train_residual.py --data chess-sf8-3.csv chess-sf8-21.csv --hidden 32 --rescale --out residual.npz
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engines.learning.residual_training import train_residual, write_residual


def main() -> int:
    parser = argparse.ArgumentParser(description="Fit chess's residual network over pesto to Stockfish-labelled datasets.")
    parser.add_argument("--data", nargs="+", required=True, help="tui-games dataset CSVs, labelled alike")
    parser.add_argument("--hidden", type=int, default=32, help="units (default 32)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--test-size", type=float, default=0.1, help="share of the games held out (default 0.1)")
    parser.add_argument("--max-iter", type=int, default=40, help="passes at most (default 40)")
    parser.add_argument("--outcome", type=float, default=0.0, help="weight of the game's result in the target")
    parser.add_argument("--shift", type=int, default=6, help="lanes in 1/2**SHIFT centipawn (default 6)")
    parser.add_argument("--rate", type=float, default=1e-3, help="Adam's first learning rate (default 1e-3)")
    parser.add_argument("--rescale", action="store_true", help="bring the labels to pesto's scale first")
    parser.add_argument("--out", required=True, type=Path, help="the new .npz (its .json goes beside it)")
    args = parser.parse_args()
    meta = args.out.with_suffix(".json")
    if args.out.suffix != ".npz" or args.out.exists() or meta.exists():
        print(f"train_residual: {args.out} must end in .npz and neither it nor {meta.name} may exist", file=sys.stderr)
        return 2
    residual, facts = train_residual(args.data, hidden=args.hidden, seed=args.seed, test_size=args.test_size,
                                     max_iter=args.max_iter, outcome_weight=args.outcome, shift=args.shift,
                                     rate=args.rate, rescale=args.rescale)
    write_residual(residual, facts, args.out, "python tools/train_residual.py " + " ".join(sys.argv[1:]))
    print(json.dumps(facts["test"], indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
