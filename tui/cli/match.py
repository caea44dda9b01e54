"""``match`` (two engines, many games, resumable) and ``report`` (summaries of results files)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from .common import PROG, path_arg, UsageError, capped_jobs, check_workers, game_name, whole
from .conditions import add_condition_flags, conditions_of, given_conditions, opening_plies

if TYPE_CHECKING:
    from engines.tournament import GameResult, MatchConfig



def add_commands(sub: argparse._SubParsersAction) -> None:
    """Add this module's commands to the ``tui-games`` parser."""
    p = sub.add_parser(
        "match",
        help="a tournament between two engines: many games, in parallel, resumable",
        description="Engine A against engine B over N games.  Colours alternate; games 2k and 2k+1 "
                    "start from the same opening (random plies, or a line of --book) with colours swapped.  "
                    "Each finished game is appended to --out as one JSON line; at the end, a summary table.  "
                    "Everything but wall times is reproducible from --seed (for depth-limited engines).  "
                    "Adjudication and clocks are off unless asked.",
    )
    p.add_argument("game", type=game_name, metavar="GAME")
    p.add_argument("--a", required=True, metavar="SPEC", help="engine spec of agent A")
    p.add_argument("--b", required=True, metavar="SPEC", help="engine spec of agent B")
    p.add_argument("--games", type=whole(1), required=True, metavar="N", help="games to play")
    p.add_argument("--jobs", type=whole(1), default=1, metavar="J",
                   help="worker processes (joblib; default 1: in this process)")
    p.add_argument("--openings", type=whole(0), default=None, metavar="PLIES",
                   help="random plies before the engines take over, the same for a pair of games "
                        "(default 4; not with --book)")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="seed of the openings and of the engines' tie-breaks (default 0)")
    p.add_argument("--out", type=path_arg, metavar="FILE.jsonl", help="append one JSON line per finished game here")
    p.add_argument("--resume", action="store_true",
                   help="play only the games missing from --out (same match arguments)")
    p.add_argument("--dask", metavar="ADDRESS",
                   help="play the games on this dask.distributed scheduler (extra 'tui-games[dask]')")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object (--format json)")
    _format_arg(p)
    p.add_argument("--sprt", type=_sprt_arg, metavar="ELO0,ELO1[,ALPHA,BETA]",
                   help="a sequential test on the paired games (pentanomial GSPRT, alpha=beta=0.05 unless "
                        "given): stops when H0 (A is ELO0 stronger) or H1 (ELO1) is accepted; --games is "
                        "then the most it plays")
    p.add_argument("--records", type=path_arg, metavar="FILE",
                   help="the game records (PGN, PDN or a move list); default: beside --out with the game's "
                        "extension")
    add_condition_flags(p)
    p.set_defaults(run=_cmd_match)

    p = sub.add_parser(
        "levels", help="the named levels of a game with their ratings; --measure plays the ladder again",
        description="The levels the start screen offers (beginner to master), each an engine spec with "
                    "the rating it measured on the game's scale (Stockfish's UCI_Elo for chess, "
                    "random at 0 for the others).  --measure plays the ladder's pairings (a 'match' each, kept "
                    "in --out and resumable) and prints the maximum-likelihood ratings.",
    )
    p.add_argument("game", type=game_name, metavar="GAME")
    p.add_argument("--measure", action="store_true", help="play the ladder and fit the ratings")
    p.add_argument("--games", type=whole(2), default=10, metavar="N", help="games per pairing (default 10)")
    p.add_argument("--jobs", type=whole(1), default=2, metavar="J",
                   help="worker processes for pairings without a parallel engine (default 2)")
    p.add_argument("--out", type=path_arg, default="levels", metavar="DIR",
                   help="the folder of the pairings' results files (default ./levels)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the openings (default 0)")
    p.set_defaults(run=_cmd_levels)

    p = sub.add_parser("report", help="the summary of 'match' results files",
                       description="Summary tables of the games in results files written by "
                                   "'tui-games match --out', one summary per pairing of engines.")
    p.add_argument("files", nargs="+", type=path_arg, metavar="FILE.jsonl")
    p.add_argument("--json", action="store_true", help="one JSON object per pairing instead of tables "
                                                       "(--format json)")
    _format_arg(p)
    p.set_defaults(run=_cmd_report)


#: The summaries' output formats.
FORMATS = ("text", "json", "fastchess")


def _format_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=FORMATS, default="text",
                   help="text: the tables, then fastchess's figures (Elo, nElo, LOS, draw and pairs ratios, "
                        "Ptnml) and the SPRT; json: one object per pairing with every field; fastchess: "
                        "fastchess's summary alone (default text)")



def _sprt_arg(text: str) -> Any:
    from engines.tournament.sprt import parse_sprt

    try:
        return parse_sprt(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _cmd_match(args: argparse.Namespace) -> int:
    from engines.tournament import MatchConfig
    from engines.tournament.run import Run

    from .report import play_run

    prog = f"{PROG} match"
    if args.resume and args.out is None:
        raise UsageError(prog, "--resume needs --out FILE.jsonl, the results file to finish")
    if args.records is not None and args.out is None:
        raise UsageError(prog, "--records goes with --out (the games are kept only with a results file)")
    check_workers(prog, args)
    openings = opening_plies(prog, args)
    conditions = conditions_of(prog, args.game, given_conditions(args))
    config = MatchConfig.create(args.game, args.a, args.b, args.games, openings, args.seed, conditions)
    sprt = args.sprt
    run, notes = Run.open([config], args.out, resume=args.resume, event="tui-games match",
                          records_file=args.records, sprt=sprt.parameters if sprt else None)  # kept for `report`
    for note in notes:
        print(f"{prog}: {note}", file=sys.stderr)
    if sprt is None and run.sprt is not None:  # --resume of a test: it goes on
        sprt = _kept_test(run.sprt)
    results = run.results
    state = sprt.state(results) if sprt else None

    def test(results: list[GameResult]) -> tuple[str | None, bool]:
        """The test after another game: its LLR beside the score, and whether it decided."""
        nonlocal state
        state = sprt.state(results)
        lower, upper = sprt.bounds
        return f"LLR {state.llr:+.2f} ({lower:.2f}, {upper:.2f})", state.verdict is not None

    interrupted = False
    if state is None or state.verdict is None:
        # One pairing's games go in index order: with a test, pair by pair (both at once with --jobs 2).
        interrupted = play_run(run, prog=prog, jobs=args.jobs, dask=args.dask, after=test if sprt else None)
    _print_report(sorted(results, key=lambda result: result.index), _format(args), sprt)
    if interrupted:
        where = (f"; they are in {args.out}: run the same command with --resume to play the rest"
                 if args.out else "")
        print(f"{prog}: interrupted after {len(results)} of {config.games} games{where}", file=sys.stderr)
        return 130
    return 0


def _format(args: argparse.Namespace) -> str:
    """The output format asked for (``--json`` is ``--format json``)."""
    return "json" if args.json else args.format


def _kept_test(parameters: Any) -> Any:
    """The test a results file keeps (``ELO0, ELO1[, ALPHA, BETA]``), or ``None`` if it is not one."""
    from engines.tournament.sprt import parse_sprt

    try:
        return parse_sprt(",".join(str(float(number)) for number in parameters))
    except ValueError:
        return None


def _print_report(results: list[GameResult], fmt: str, sprt: Any = None) -> None:
    """Each pairing's summary in ``fmt`` (text, json or fastchess), with its
    sequential test: ``sprt``, else the one its games keep (``match --sprt``)."""
    from engines.tournament import summarize

    from ..views.tournament import fastchess_lines
    from .report import print_summaries

    by_pairing: dict[tuple[str, str, str], list[GameResult]] = {}
    for result in results:
        by_pairing.setdefault((result.match.game, result.match.a, result.match.b), []).append(result)
    for number, summary in enumerate(summarize(results)):
        games = sorted(by_pairing[(summary.game, summary.a.spec, summary.b.spec)], key=lambda r: r.index)
        test = sprt
        kept = [result.sprt for result in games if result.sprt is not None]
        if test is None and kept:
            test = _kept_test(kept[-1])
            if test is None:
                print(f"{PROG} report: {summary.a.spec} vs {summary.b.spec}: its SPRT {str(list(kept[-1]))[:40]} "
                      f"is not a test; left out", file=sys.stderr)
        state = test.state(games) if test is not None else None
        ended = summary.games >= summary.planned
        if fmt == "json":
            line = summary.to_dict()
            if state is not None:
                line["sprt"] = state.to_json()
            print(json.dumps(line))
            continue
        if number:
            print()
        if fmt == "text":
            print_summaries([summary])
            print()
        lines = fastchess_lines(summary, state, verdict=fmt == "text")
        if fmt == "text" and state is not None and state.verdict is None and ended:
            lines.append(f"no verdict after {state.games} games, the most --games allows")
        if fmt == "fastchess":
            lines = [FASTCHESS_RULE, *lines, FASTCHESS_RULE]
        print("\n".join(lines))


#: The rule fastchess prints above and below its summary.
FASTCHESS_RULE = "-" * 50


def _cmd_report(args: argparse.Namespace) -> int:
    from engines.tournament import read_results_files

    results, notes = read_results_files(args.files)
    for note in notes:
        print(f"{PROG} report: {note}", file=sys.stderr)
    if not results:
        raise UsageError(f"{PROG} report", f"no finished games in {', '.join(args.files)}")
    _print_report(results, _format(args))
    return 0


def _cmd_levels(args: argparse.Namespace) -> int:
    from engines.levels import levels_for, scale

    if not args.measure:
        print(f"{args.game} levels (ratings: {scale(args.game)})")
        for level in levels_for(args.game):
            rating = "unrated" if level.elo is None else f"{level.elo} ± {level.margin}"
            print(f"  {level.name:<9} {rating:>12}  {level.spec:<40} {level.about}")
        return 0
    return _measure_levels(args)


def _measure_levels(args: argparse.Namespace) -> int:
    from pathlib import Path

    from engines import levels
    from engines.tournament import MatchConfig, ResultsFile, missing_games, play_games, running_score
    from engines.tournament.ratings import Pairing, fit_ratings

    prog = f"{PROG} levels"
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(prog, f"cannot make {out}: {error.strerror}") from None
    # Every pairing is checked (specs, a Stockfish binary, the files) before any game is played.
    planned = []
    for a, b in levels.pairings(args.game):
        config = MatchConfig.create(args.game, levels.player_spec(args.game, a), levels.player_spec(args.game, b),
                                    args.games, seed=args.seed)
        results, _ = ResultsFile.open(str(out / f"{args.game}-{a}-{b}.jsonl"), config, resume=True)
        planned.append((a, b, config, results))
    jobs = capped_jobs(prog, args.jobs, args.games)  # a pairing's games at a time
    pairings = []
    for a, b, config, results in planned:
        parallel = "workers=" in config.a + config.b
        missing = missing_games(config, results.results)
        try:
            for result in play_games(config, missing, jobs=1 if parallel else jobs):
                results.append(result)
        finally:
            results.close()
        points, _ = running_score(results.results)
        games = len(results.results)
        print(f"{a} - {b}: {points:g} / {games}", flush=True)
        pairings.append(Pairing(a, b, points, games))
    print()
    for rating in fit_ratings(pairings, levels.anchors(args.game)):
        print(f"  {rating}")
    return 0
