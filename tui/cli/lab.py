"""``experiment`` (a declarative experiment, the seeds' shipped) and
``tournament`` (round-robin or gauntlet, crosstable, maximum-likelihood Elo)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .common import PROG, UsageError, check_workers, finite, game_name, path_arg, whole
from .conditions import add_condition_flags, conditions_of, given_conditions, opening_plies
from .report import play_run


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Add this module's commands to the ``tui-games`` parser."""
    p = sub.add_parser(
        "experiment", help="run a declarative experiment (the seeds' ship with it); 'experiment list' names them",
        description="Play an experiment's arms (engines against opponents, a parameter swept) like matches: "
                    "reproducible, in parallel, resumable.  The folder --out gets the games (JSON lines "
                    "and game records), the summary with 95%% intervals, the seeds' claims with our "
                    "verdicts, and charts (text; PNG/SVG too with matplotlib).  NAME is a shipped "
                    "experiment ('list' names them) or a FILE.toml.",
    )
    p.add_argument("name", metavar="NAME|FILE.toml|list")
    p.add_argument("--games", type=whole(1), metavar="N", help="games per arm (default: the experiment's)")
    p.add_argument("--jobs", type=whole(1), default=1, metavar="J",
                   help="worker processes (joblib; default 1: in this process)")
    p.add_argument("--dask", metavar="ADDRESS", help="play on this dask.distributed scheduler")
    p.add_argument("--out", type=path_arg, metavar="DIR", help="the results folder (default lab/NAME)")
    p.add_argument("--resume", action="store_true", help="finish the run in --out (the same --games)")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    add_condition_flags(p, overrides=True)
    p.set_defaults(run=_cmd_experiment)

    p = sub.add_parser(
        "tournament", help="round-robin or gauntlet between engines: crosstable and Elo ratings",
        description="Every pair of engines plays --games games (or, with --gauntlet, the first engine "
                    "against each other), colours alternating and pairs of games sharing a random "
                    "opening.  Prints a crosstable and maximum-likelihood Elo ratings with 95%% "
                    "intervals (the first engine at --anchor).  --out keeps every game (JSON lines "
                    "and game records) and lets --resume finish a broken run.",
    )
    p.add_argument("game", type=game_name, metavar="GAME")
    p.add_argument("--engine", action="append", required=True, metavar="SPEC", dest="engines",
                   help="an engine (give it twice or more)")
    p.add_argument("--gauntlet", action="store_true", help="the first engine plays each other; no other pairs")
    p.add_argument("--games", type=whole(1), required=True, metavar="N", help="games per pairing")
    p.add_argument("--jobs", type=whole(1), default=1, metavar="J", help="worker processes (default 1)")
    p.add_argument("--openings", type=whole(0), default=None, metavar="PLIES",
                   help="random plies before the engines take over (default 4; not with --book)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of openings and tie-breaks (default 0)")
    p.add_argument("--anchor", type=finite, default=0.0, metavar="ELO",
                   help="the first engine's rating (default 0)")
    p.add_argument("--out", type=path_arg, metavar="FILE.jsonl", help="keep every game here (and game records beside)")
    p.add_argument("--resume", action="store_true", help="play only the games missing from --out")
    p.add_argument("--dask", metavar="ADDRESS", help="play on this dask.distributed scheduler")
    p.add_argument("--json", action="store_true", help="print the crosstable and ratings as one JSON object")
    add_condition_flags(p)
    p.set_defaults(run=_cmd_tournament)


# ----------------------------------------------------------------- experiment
def _cmd_experiment(args: argparse.Namespace) -> int:
    from engines.lab import load_experiment, shipped
    from engines.lab.folder import LabFolder

    prog = f"{PROG} experiment"
    if args.name == "list":
        if args.json:  # one JSON object: every shipped experiment, its arms and the claims it checks
            listed = [load_experiment(name) for name in shipped()]
            print(json.dumps({"experiments": [
                {"name": e.name, "title": e.title, "source": e.source, "game": e.game, "games": e.games,
                 "arms": [arm.label for arm in e.arms], "claims": [claim.text for claim in e.claims]}
                for e in listed]}))
            return 0
        for name in shipped():
            experiment = load_experiment(name)
            print(f"{name:<17} {experiment.source}: {experiment.title}")
            for claim in experiment.claims:
                print(f"{'':<19}- {claim.text}")
        return 0
    check_workers(prog, args)
    experiment = load_experiment(args.name)
    given = given_conditions(args)
    if given:  # the flags replace the file's settings
        experiment = experiment.with_conditions(given)
    out = Path(args.out) if args.out else Path("lab") / experiment.name
    folder, notes = LabFolder.open(experiment, out, games=args.games, resume=args.resume)
    for note in notes:
        print(f"{prog}: {note}", file=sys.stderr)
    interrupted = play_run(folder.run, prog=prog, jobs=args.jobs, dask=args.dask, score=False)
    _finish_experiment(folder, args.json)
    if interrupted:
        print(f"{prog}: interrupted after {len(folder.run.results)} of {folder.run.planned} games; they are "
              f"in {out}: run the same command with --resume to play the rest", file=sys.stderr)
        return 130
    return 0


def _finish_experiment(folder: Any, as_json: bool) -> None:
    from ..views.lab_report import ExperimentReport, render_text, write_outputs

    report = ExperimentReport(folder.experiment, folder.run.results, folder.games)
    written = write_outputs(report, folder.path)
    if as_json:
        print(json.dumps(report.to_dict()))
        return
    print(render_text(report))
    print(f"results in {folder.path}/: " + ", ".join(path.name for path in written[:2]) + ", the charts and "
          + ", ".join(p.name for p in sorted(folder.path.glob("games.*"))))


# ----------------------------------------------------------------- tournament
def _cmd_tournament(args: argparse.Namespace) -> int:
    from engines.tournament.crosstable import Tournament
    from engines.tournament.run import Run

    prog = f"{PROG} tournament"
    game = args.game
    if len(args.engines) < 2:
        raise UsageError(prog, "a tournament needs two --engine specs or more")
    if args.resume and args.out is None:
        raise UsageError(prog, "--resume needs --out FILE.jsonl, the results file to finish")
    check_workers(prog, args)
    openings = opening_plies(prog, args)
    conditions = conditions_of(prog, game, given_conditions(args))
    tournament = Tournament.create(game, args.engines, args.games, gauntlet=args.gauntlet,
                                   openings=openings, seed=args.seed, conditions=conditions)
    run, notes = Run.open(tournament.configs, args.out, resume=args.resume, event="tui-games tournament")
    for note in notes:
        print(f"{prog}: {note}", file=sys.stderr)
    interrupted = play_run(run, prog=prog, jobs=args.jobs, dask=args.dask, score=False)
    standings = tournament.standings(run.results, anchor=args.anchor)
    if args.json:
        print(json.dumps(standings.to_dict()))
    else:
        from .report import print_tournament

        print_tournament(standings)
    if interrupted:
        where = (f"; they are in {args.out}: run the same command with --resume to play the rest"
                 if args.out else "")
        print(f"{prog}: interrupted after {len(run.results)} of {run.planned} games{where}", file=sys.stderr)
        return 130
    return 0
