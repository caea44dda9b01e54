"""``dataset``, ``train`` and ``models``: learned evaluators from the command line."""

from __future__ import annotations

import argparse
import sys

from .common import (PROG, Parser, path_arg, UsageError, capped_jobs, error_text, fraction, game_name, integer,
                     refuse_link_to_nowhere, share, whole)



def add_commands(sub: argparse._SubParsersAction) -> None:
    """Add this module's commands to the ``tui-games`` parser."""
    p = sub.add_parser(
        "dataset",
        help="self-play positions with features, H0 and a depth-L search label, as CSV for 'train'",
        description="Play N seeded self-play games from random openings and write every position "
                    "with its feature vector, H0 (the static heuristic) and H_L (the depth-L alpha-beta "
                    "value, forced results as +/- the game's DECISIVE_SCORE) for the side to move, one "
                    "CSV row each, plus FILE.meta.json.  The file is the same, byte for byte, for any "
                    "--jobs.  An existing non-empty --out is refused.",
    )
    p.add_argument("game", type=game_name, metavar="GAME")
    p.add_argument("--games", type=whole(1), required=True, metavar="N", help="self-play games")
    p.add_argument("--depth", type=whole(1), required=True, metavar="L",
                   help="plies of the alpha-beta search that labels each position (and picks the move)")
    p.add_argument("--openings", type=whole(0), default=4, metavar="PLIES",
                   help="random plies before self-play starts (default 4)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of everything random (default 0)")
    p.add_argument("--jobs", type=whole(1), default=1, metavar="J",
                   help="worker processes (joblib; default 1: in this process)")
    p.add_argument("--explore", type=float, default=0.1, metavar="P",
                   help="chance of a random legal move instead of the searched one (default 0.1)")
    p.add_argument("--max-plies", type=whole(1), default=200, metavar="M",
                   help="self-play plies after which a game stops (default 200)")
    p.add_argument("--heuristic", metavar="NAME",
                   help="heuristic of H0 and of the search (default: the game's default heuristic)")
    p.add_argument("--label", default="search", metavar="search|stockfish[:OPTS]",
                   help="who labels and picks moves: our search (default) or, for chess, a stockfish spec "
                        "(depth L unless it sets depth, time or nodes)")
    p.add_argument("--out", required=True, type=path_arg, metavar="FILE.csv", help="the CSV to write (must not hold data)")
    p.set_defaults(run=_cmd_dataset)

    p = sub.add_parser(
        "train", help="fit a model of the search value from a dataset (random forest or neural network)",
        description="Fit a scikit-learn regressor from a 'tui-games dataset' CSV to its depth-L search "
                    "value h_l, from the static heuristic h0 alone (--inputs h0: the 'pred' engine) or "
                    "from the game's features (--inputs features: 'hr' and 'mi-pred').  Repeated "
                    "positions are dropped before a seeded train/test split.  Prints train and test "
                    "MSE, MAE and R², and writes MODEL.npz (plain arrays, no pickle) with its metadata MODEL.json beside it "
                    "(never overwriting either).",
    )
    p.add_argument("game", type=game_name, metavar="GAME")
    p.add_argument("--data", required=True, type=path_arg, nargs="+", metavar="FILE",
                   help="the dataset CSV (its FILE.meta.json beside it), or several labelled alike: "
                        "their rows are joined")
    p.add_argument("--model", required=True, choices=("rf", "mlp", "network", "tables"),
                   help="rf: RandomForestRegressor; mlp: MLPRegressor on standardised inputs and target; "
                        "network: the game's piece-square network (games that have one), played with "
                        "heuristic=network:FILE; tables: the game's tapered tables fitted to the data "
                        "(games that have them: chess's hand-made piece-square tables again, Texel tuning; "
                        "the other games' patterns' tables), played with heuristic=tables:FILE")
    p.add_argument("--hidden", type=whole(1), default=None, metavar="H",
                   help="--model network: hidden units (default 64)")
    p.add_argument("--max-iter", type=whole(1), default=60, metavar="N",
                   help="--model network or tables: passes over the training positions at most (default 60)")
    p.add_argument("--outcome", type=share, default=None, metavar="W",
                   help="--model network or tables: the weight of the game's result in the winning chance "
                        "fitted, the rest the label's (default 0: the label alone; rows whose game's "
                        "result is not known keep their label's)")
    p.add_argument("--inputs", choices=("features", "h0"), default="features",
                   help="what the model sees (default: features)")
    p.add_argument("--grid", action="store_true",
                   help="choose the parameters by a cross-validated grid search (else the defaults)")
    p.add_argument("--test-size", type=fraction, default=0.2, metavar="F",
                   help="fraction of the positions held out for testing (default 0.2)")
    p.add_argument("--seed", type=integer, default=0, metavar="S",
                   help="seed of the split, the model and the folds (default 0)")
    p.add_argument("--jobs", type=whole(1), default=1, metavar="J",
                   help="processes for the grid search (default 1)")
    p.add_argument("--cv", type=whole(2), default=5, metavar="K", help="cross-validation folds (default 5)")
    p.add_argument("--out", required=True, type=path_arg, metavar="MODEL.npz", help="the model file to write")
    p.set_defaults(run=_cmd_train)

    p = sub.add_parser(
        "rebuild", help="make a game's bundled learned tables again, from nothing (its recipe's datasets and fits)",
        description="Run the dataset and train steps that made GAME's bundled learned tables, each in this "
                    "process, their files in the folder --out; a step whose files are there is skipped (a "
                    "stopped run goes on), and the step Ctrl-C stops leaves nothing.  At the end the tables "
                    "are compared, byte for byte, with the bundled ones.  Hours on two cores: see "
                    "docs/learning.md.",
    )
    p.add_argument("game", type=game_name, metavar="GAME")
    p.add_argument("--out", required=True, type=path_arg, metavar="DIR", help="the folder of the steps' files")
    p.add_argument("--jobs", type=whole(1), default=1, metavar="J",
                   help="worker processes of the dataset steps (the files are the same for any J)")
    p.set_defaults(run=_cmd_rebuild)

    p = sub.add_parser(
        "models", help="list the bundled models, or check a model file",
        description="List the models bundled with the package (from their metadata), or with --check "
                    "load a model file the way the engines do and summarise it.",
    )
    p.add_argument("game", nargs="?", type=game_name, metavar="GAME", help="only this game's models")
    p.add_argument("--check", type=path_arg, metavar="PATH", help="load this model file (or bundled name pred/mi) and summarise it")
    p.add_argument("--game", dest="game_option", type=game_name, metavar="GAME", help="the game, for --check")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(run=_cmd_models)



def _cmd_dataset(args: argparse.Namespace) -> int:
    from engines.learning.dataset import DatasetConfig, DatasetError, DatasetInterrupted, write_dataset

    prog = f"{PROG} dataset"
    refuse_link_to_nowhere(prog, args.out)
    try:
        config = DatasetConfig(args.game, args.games, args.depth, openings=args.openings, seed=args.seed,
                               explore=args.explore, max_plies=args.max_plies, heuristic=args.heuristic,
                               label=args.label)
        from .report import DatasetProgress

        with DatasetProgress(config.games) as progress:
            summary = write_dataset(config, args.out, jobs=capped_jobs(prog, args.jobs, config.games),
                                    on_start=progress.start, on_game=progress.advance)
    except DatasetError as error:
        raise UsageError(prog, error_text(error)) from None
    except DatasetInterrupted as interrupt:
        print("\n".join(interrupt.summary.lines()))
        print(f"{prog}: interrupted after {interrupt.summary.games} of {config.games} games; "
              f"they are in {args.out}", file=sys.stderr)
        return 130
    print("\n".join(summary.lines()))
    return 0


def _cmd_train(args: argparse.Namespace) -> int:
    from engines.learning.models import ModelError
    from engines.learning.train import DatasetError, TrainError

    from .training import run_train

    try:
        return run_train(args)
    except (DatasetError, TrainError, ModelError) as error:
        raise UsageError(f"{PROG} train", str(error)) from None


def _cmd_models(args: argparse.Namespace) -> int:
    from engines.learning.models import ModelError
    from engines.learning.train import TrainError

    from .training import run_models

    if args.game is not None and args.game_option is not None and args.game != args.game_option:
        raise UsageError(f"{PROG} models", f"two games named: {args.game} and --game {args.game_option}")
    args.game = args.game or args.game_option
    try:
        return run_models(args)
    except (TrainError, ModelError) as error:
        raise UsageError(f"{PROG} models", str(error)) from None


def _cmd_rebuild(args: argparse.Namespace) -> int:
    from pathlib import Path

    from games import game_class

    from .rebuild import run_rebuild

    bundled = Path(sys.modules[game_class(args.game).__module__].__file__ or "").with_name("learned.npz")
    return run_rebuild(args.game, Path(args.out).expanduser(), args.jobs, run_step, bundled)


def run_step(words: list[str]) -> int:
    """Run one ``dataset`` or ``train`` command (``words`` after ``tui-games``) in this process: its
    exit status, a usage error said in one line as the command line says it."""
    parser = Parser(prog=PROG)
    add_commands(parser.add_subparsers(dest="command", parser_class=Parser))
    try:
        args = parser.parse_args(words)
        return args.run(args)
    except UsageError as error:
        print(f"{error.prog}: error: {error}", file=sys.stderr)
        return 2
