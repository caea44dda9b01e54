"""``tui-games train`` and ``tui-games models``: what they print (with rich).

The work is in :mod:`engines.learning.train` and :mod:`engines.learning.models`; this module
checks the command-line arguments that only make sense here (the output
file), tells the user what is being fitted, and shows the results.  Errors
are raised as the engines' one-line exceptions (``DatasetError``,
``TrainError``, ``ModelError``) and reported by the command line.
"""

from __future__ import annotations

import json
import math
import shlex
import sys
from pathlib import Path
from typing import Any, Callable, Sequence, TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from engines.learning import models as model_files
from engines.learning.models import (
    BUNDLED_NAMES,
    ModelError,
    file_sha256,
    library_versions,
    load_model,
    metadata_path,
    read_metadata,
    save_model,
)
from engines.learning.train import TrainError, grid_candidates, join_datasets, read_dataset, train_model
from games import GAME_NAMES, game_class, game_kind
from games.kind import NetworkPlan

from .common import PROG, capped_jobs
from .report import PipeConsole

__all__ = ["run_train", "run_models", "size_text", "bundled_models"]

#: Width used when the output is not a terminal (files, pipes, tests).
PLAIN_WIDTH = 120


def _console(file: TextIO | None = None) -> Console:
    file = file if file is not None else sys.stdout
    console = PipeConsole(file=file, highlight=False, markup=False, soft_wrap=True)
    if not console.is_terminal:
        console = PipeConsole(file=file, highlight=False, markup=False, soft_wrap=True, width=PLAIN_WIDTH)
    return console


def size_text(size: int) -> str:
    """A file size: ``812 B``, ``91.8 kB``, ``3.40 MB``."""
    for bound, unit in ((1e9, "GB"), (1e6, "MB"), (1e3, "kB")):
        if size >= bound:
            scaled = size / bound
            return f"{scaled:.3g} {unit}" if scaled < 100 else f"{scaled:.0f} {unit}"
    return f"{size} B"


def _number(value: float | None, digits: int = 4) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.{digits}g}"


def _params_text(params: dict[str, Any] | None) -> str:
    if not params:
        return "-"
    return ", ".join(f"{key}={_value_text(value)}" for key, value in params.items())


def _value_text(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "(" + ", ".join(str(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _grid_text(grid: dict[str, list[Any]]) -> str:
    return "; ".join(f"{key} {' | '.join(_value_text(v) for v in values)}" for key, values in grid.items())


def _command(args: Any) -> str:
    """The complete command that trains this model again (every option spelled out)."""
    parts = ["tui-games", "train", args.game, "--data", *args.data, "--model", args.model]
    if args.model in ("network", "tables"):
        parts += ["--hidden", str(args.hidden)] if args.model == "network" else []
        parts += ["--outcome", f"{args.outcome:g}"] if args.outcome else []
        parts += ["--max-iter", str(args.max_iter), "--test-size", f"{args.test_size:g}", "--seed", str(args.seed),
                  "--out", args.out]
        return shlex.join(parts)
    parts += ["--inputs", args.inputs]
    if args.grid:
        parts.append("--grid")
    parts += ["--test-size", f"{args.test_size:g}", "--seed", str(args.seed), "--jobs", str(args.jobs),
              "--cv", str(args.cv), "--out", args.out]
    return shlex.join(parts)


def check_out(out: str) -> Path:
    """The ``--out`` path, refused (TrainError) unless it ends in ``.npz``, neither it nor its
    ``.json`` exists, and its directory does."""
    path = Path(out).expanduser()
    if path.suffix != ".npz" or path.name == ".npz":
        raise TrainError(f"--out must name a file ending in .npz (its metadata goes beside it "
                         f"as .json), got {out[:80]!r}")
    for target in (path, metadata_path(path)):
        if target.exists():
            raise TrainError(f"--out: {target} already exists; choose another name "
                             "(models are never overwritten)")
    if not path.parent.is_dir():
        raise TrainError(f"--out: no directory {path.parent}")
    return path


def run_train(args: Any, file: TextIO | None = None) -> int:
    """``tui-games train``: read the dataset, fit, save, print what happened."""
    console = _console(file)
    cls = game_class(args.game)
    out = check_out(args.out)
    plan = game_kind(args.game).network
    if args.model == "network" and plan is None:
        having = [name for name in GAME_NAMES if game_kind(name).network is not None]
        raise TrainError(f"--model network: {args.game} has no network evaluation "
                         f"({', '.join(having) or 'no game'} {'has' if len(having) == 1 else 'have'} one)")
    if args.model in ("network", "tables") and (args.grid or args.inputs != "features"):
        raise TrainError(f"--model {args.model} fits its own inputs: --grid and --inputs go with rf and mlp")
    if args.model != "network" and args.hidden is not None:
        raise TrainError("--hidden goes with --model network")
    if args.model not in ("network", "tables") and getattr(args, "outcome", None) is not None:
        raise TrainError("--outcome goes with --model network or tables")
    if getattr(args, "outcome", None) is None:
        args.outcome = 0.0
    if args.hidden is None:
        args.hidden = 64
    tables = game_kind(args.game).tables
    if args.model == "tables" and tables is None:
        having = [name for name in GAME_NAMES if game_kind(name).tables is not None]
        raise TrainError(f"--model tables: {args.game} has no piece-square tables to fit "
                         f"({', '.join(having) or 'no game'} {'has' if len(having) == 1 else 'have'} them)")
    dataset = join_datasets([read_dataset(path, cls) for path in args.data])
    distinct = len(dataset) - dataset.duplicates
    games = len(set(dataset.game_id.tolist()))
    held = math.ceil(args.test_size * games)
    if args.model in ("network", "tables") and not 0 < held < games:
        raise TrainError(f"--test-size {args.test_size:g} of {games:,} game{'s' if games != 1 else ''} leaves no game "
                         "to train on or none to test on")
    names = ", ".join(name for name, _ in dataset.parts) or dataset.path.name
    console.print(
        f"dataset{'s' if dataset.parts else ''} {names}: {len(dataset):,} rows from {games:,} game{'s' if games != 1 else ''}; "
        f"{dataset.duplicates:,} repeat an earlier position and are dropped: {distinct:,} positions"
    )
    depth = f"depth {dataset.depth}" if dataset.depth is not None else "an unknown depth"
    source = f"(from {dataset.path.name}.meta.json)" if dataset.meta is not None else "(assumed)"
    console.print(f"target h_l: {dataset.label} at {depth}, heuristic {dataset.heuristic} {source}")
    for note in dataset.notes:
        console.print(f"note: {note}")
    if args.model == "network":
        assert plan is not None
        return _train_network(args, console, plan, dataset, out, distinct)
    if args.model == "tables":
        assert tables is not None
        return _train_tables(args, console, tables, dataset, out, distinct)
    width = 1 if args.inputs == "h0" else len(cls.FEATURE_NAMES)
    what = "h0 alone" if args.inputs == "h0" else f"{width} features"
    rows = f"{distinct:,} positions (about {args.test_size:.0%} held out for testing, as whole games)"
    fits = grid_candidates(args.model) * args.cv if args.grid else None
    jobs = capped_jobs(f"{PROG} train", args.jobs, fits, what="fit")
    if fits is not None:
        console.print(f"fitting {args.model} on {what}: grid search, {fits // args.cv} candidates x {args.cv} "
                      f"folds = {fits} fits on {rows}, {jobs} job{'s' if jobs != 1 else ''} ...")
    else:
        console.print(f"fitting {args.model} on {what} with the default parameters on {rows} ...")
    console.file.flush()
    fit = train_model(
        cls, dataset, model=args.model, inputs=args.inputs, grid=args.grid,
        test_size=args.test_size, seed=args.seed, jobs=jobs, cv=args.cv,
    )
    save_model(fit.estimator, out, fit.meta(_command(args)))
    console.print(f"fitted in {fit.fit_s:.1f} s")

    table = _fit_table(f"{cls.NAME} {args.model} model of h_l",
                       {"train": fit.train_metrics, "test": fit.test_metrics})
    table.add_row("rows", f"{fit.rows.train:,}", f"{fit.rows.test:,}")
    console.print(table)
    label = "best params" if args.grid else "params"
    console.print(f"{label}: {_params_text(fit.params)}")
    if fit.cv is not None:
        console.print(f"cross-validation: {fit.cv.folds} folds, best mean MSE {_number(fit.cv.best_mse, 5)}")
    for note in fit.notes[len(dataset.notes):]:
        console.print(f"note: {note}")
    _say_written(console, out)
    return 0


def _fit_table(title: str, metrics: dict[str, dict[str, float]]) -> Table:
    """MSE, MAE and R² on the training and the test positions."""
    table = Table(title=title, title_justify="left")
    table.add_column("")
    for column in ("train", "test"):
        table.add_column(column, justify="right")
    for key, label in (("mse", "MSE"), ("mae", "MAE"), ("r2", "R²")):
        digits = 4 if key == "r2" else 5
        table.add_row(label, _number(metrics["train"][key], digits), _number(metrics["test"][key], digits))
    return table


def _say_written(console: Console, out: Path) -> None:
    json_path = metadata_path(out)
    console.print(f"wrote {out} ({size_text(out.stat().st_size)}) and {json_path} "
                  f"({size_text(json_path.stat().st_size)})")


def _train_network(args: Any, console: Console, plan: NetworkPlan, dataset: Any, out: Path, distinct: int) -> int:
    """``train --model network``: fit the game's piece-square network, write it and its metadata."""
    from engines.learning.network_training import train_network

    kind = game_kind(args.game)
    fit = _fitted(console, args, plan, distinct, f"a network of {plan.inputs} inputs, {args.hidden} hidden units a view",
                  lambda shown: train_network(plan, dataset, hidden=args.hidden, seed=args.seed,
                                              test_size=args.test_size, max_iter=args.max_iter,
                                              unit=kind.scores.unit, outcome_weight=args.outcome, progress=shown))
    fit.network.save(out)
    meta = {"format": "tui-games-network-meta/1", "game": args.game, "kind": "network", "hidden": args.hidden,
            "positions": fit.positions, "trained": fit.trained, "iterations": fit.iterations, "fit_s": round(fit.fit_s, 3),
            "metrics": fit.metrics, "rounding": fit.rounding_cp, "label": dataset.label, "depth": dataset.depth,
            "data": dataset.source, "command": _command(args),
            "versions": library_versions(), "sha256": file_sha256(out)}
    with metadata_path(out).open("x", encoding="utf-8") as handle:
        json.dump(meta, handle, indent=2)
        handle.write("\n")
    console.print(_fit_table(f"{args.game} network of h_l ({_score_unit(args.game)})",
                             fit.metrics))
    stopped = " (stopped at --max-iter)" if fit.iterations >= args.max_iter else " (stopped: no better held-out loss)"
    console.print(f"fitted on the {fit.trained:,} training positions of {fit.positions:,} in {fit.fit_s:.1f} s, {fit.iterations} passes{stopped}; "
                  f"integer first layer within "
                  f"{fit.rounding_cp:.2f} of the float model on the test positions")
    _say_written(console, out)
    return 0


def _score_unit(game: str) -> str:
    """What the table's errors are in: ``pawns x 100``, or the game's raw score."""
    scores = game_kind(game).scores
    return f"{scores.unit_name}s x {scores.unit:g}" if scores.unit_name else "its raw score"


def _passes_bar() -> Any:
    """A progress bar of the passes over the training positions, with the held-out loss, on stderr."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .report import PipeConsole

    return Progress(TextColumn("[bold]passes"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[loss]}"),
                    TimeElapsedColumn(), console=PipeConsole(file=sys.stderr))


def _in_units(game: str, units: float, unit: float) -> str:
    """``units`` of the fit's ``unit`` as the game's scores read: ``4 pawns``, or a raw ``200``."""
    scores = game_kind(game).scores
    if scores.unit_name and unit == scores.unit:
        return f"{units:g} {scores.unit_name}s"
    return f"{units * unit:g}"


def _fitted(console: Console, args: Any, plan: Any, distinct: int, what: str, fit: Callable[[Any], Any],
            unit: float | None = None) -> Any:
    """Say what is fitted on which positions, then fit (``fit(progress)``) under a bar of the passes."""
    from engines.learning.fitting import CLIP_UNITS, SIGMOID_UNITS

    unit = unit or game_kind(args.game).scores.unit
    which = "the quiet ones of " if plan.quiet is not None else ""
    blend = (f", blended {args.outcome:.0%} with the game's result" if args.outcome else "")
    console.print(f"fitting {what}, on {which}{distinct:,} positions (about {args.test_size:.0%} held out as whole "
                  f"games; labels clipped to ±{_in_units(args.game, CLIP_UNITS, unit)}; the loss compares winning "
                  f"chances, sigmoid(score / {_in_units(args.game, SIGMOID_UNITS, unit)}){blend}) ...")
    console.file.flush()
    with _passes_bar() as progress:
        task = progress.add_task("passes", total=args.max_iter, loss="")

        def shown(done: int, loss: float, rate: float) -> None:
            progress.update(task, completed=done, loss=f"held-out loss {loss:.5f}, rate {rate:.2g}")

        return fit(shown)


def _train_tables(args: Any, console: Console, plan: Any, dataset: Any, out: Path, distinct: int) -> int:
    """``train --model tables``: fit the game's tapered tables again from the hand-made ones, write them
    and their metadata."""
    from engines.learning.tables_training import train_tables

    kind = game_kind(args.game)
    unit = plan.unit or kind.scores.unit
    fit = _fitted(console, args, plan, distinct,
                  f"the tapered tables of {args.game} ({plan.weights:,} values a phase and a tempo), from "
                  f"{plan.starts_from or 'nothing (every value 0)'}",
                  lambda shown: train_tables(plan, dataset, seed=args.seed, test_size=args.test_size,
                                             max_iter=args.max_iter, unit=unit,
                                             outcome_weight=args.outcome, progress=shown), unit)
    plan.save(fit.mg, fit.eg, fit.tempo, out)
    meta = {"format": "tui-games-tables-meta/1", "game": args.game, "kind": "tables", "positions": fit.positions,
            "trained": fit.trained,
            "iterations": fit.iterations, "fit_s": round(fit.fit_s, 3), "metrics": fit.metrics,
            "start_metrics": fit.start_metrics, "h0_metrics": fit.h0_metrics, "outcome_weight": args.outcome,
            "label": dataset.label, "depth": dataset.depth,
            "data": dataset.source, "command": _command(args), "versions": library_versions(),
            "sha256": file_sha256(out)}
    with metadata_path(out).open("x", encoding="utf-8") as handle:
        json.dump(meta, handle, indent=2)
        handle.write("\n")
    table = _fit_table(f"{args.game} tables of h_l ({_score_unit(args.game)})", fit.metrics)
    if plan.starts_from:
        table.add_row("R², where the fit started", _number(fit.start_metrics["train"]["r2"], 4),
                      _number(fit.start_metrics["test"]["r2"], 4))
    table.add_row(f"R², h0 ({dataset.heuristic})", _number(fit.h0_metrics["train"]["r2"], 4),
                  _number(fit.h0_metrics["test"]["r2"], 4))
    console.print(table)
    stopped = " (stopped at --max-iter)" if fit.iterations >= args.max_iter else " (stopped: no better held-out loss)"
    console.print(f"fitted on the {fit.trained:,} training positions of {fit.positions:,} in {fit.fit_s:.1f} s, {fit.iterations} passes{stopped}; "
                  f"play them with heuristic={plan.heuristic}:{out}")
    _say_written(console, out)
    return 0


# --------------------------------------------------------------------- models
def bundled_models(games: Sequence[str]) -> list[dict[str, Any]]:
    """A summary of each bundled model present, for the listing (reads metadata only)."""
    rows = []
    for game in games:
        for name in BUNDLED_NAMES:
            path = model_files.resolve_model(game, name)
            if not path.exists() and not metadata_path(path).exists():
                continue
            row: dict[str, Any] = {"game": game, "name": name, "path": str(path)}
            try:
                meta = read_metadata(path)
            except ModelError as error:
                row["error"] = str(error)
                rows.append(row)
                continue
            size = path.stat().st_size if path.exists() else None
            test = (meta.get("metrics") or {}).get("test") or {}
            counts = meta.get("rows") or {}
            row.update(
                model=meta["model"],
                inputs=len(meta["inputs"]),
                kind="h0" if meta["inputs"] == ["h0"] else "features",
                depth=meta.get("depth"),
                heuristic=meta["heuristic"],
                test_r2=test.get("r2"),
                rows=(counts.get("train") or 0) + (counts.get("test") or 0),
                size=size,
                sha256_ok=size is not None and file_sha256(path) == meta["sha256"],
                sklearn=meta["versions"].get("sklearn"),
            )
            rows.append(row)
    return rows


def run_models(args: Any, file: TextIO | None = None) -> int:
    """``tui-games models``: list the bundled models, or check one model file."""
    if args.check is not None:
        return _check_model(args, file)
    games = [args.game] if args.game else list(GAME_NAMES)
    rows = bundled_models(games)
    if args.json:
        print(json.dumps(rows), file=file if file is not None else sys.stdout)
        return 0
    console = _console(file)
    if not rows:
        console.print(f"no bundled models{' for ' + args.game if args.game else ''} "
                      f"(a game's are in the {model_files.BUNDLED_FOLDER} folder of its package)")
        return 0
    table = Table(title=f"bundled models (each game's in the {model_files.BUNDLED_FOLDER} folder of its package)",
                  title_justify="left")
    for column in ("game", "name", "model", "inputs", "depth", "heuristic", "test R²", "rows", "size",
                   "sha256"):
        table.add_column(column, justify="right" if column in ("depth", "test R²", "rows", "size") else "left")
    for row in rows:
        if "error" in row:
            table.add_row(row["game"], row["name"], Text("unreadable", style="red"), "", "", "", "", "", "", "")
            continue
        inputs = "h0" if row["kind"] == "h0" else f"{row['inputs']} features"
        table.add_row(
            row["game"], row["name"], row["model"], inputs, _number(row["depth"]), row["heuristic"],
            _number(row["test_r2"], 3), f"{row['rows']:,}",
            size_text(row["size"]) if row["size"] is not None else "missing",
            "ok" if row["sha256_ok"] else Text("differs", style="red"),
        )
    console.print(table)
    for row in rows:
        if "error" in row:
            console.print(row["error"])
    return 0


def _count(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) else "?"


def _check_model(args: Any, file: TextIO | None) -> int:
    if args.game is None:
        raise TrainError("--check needs --game GAME, the game the model is for")
    cls = game_class(args.game)
    model = load_model(cls, args.check)
    meta = model.meta
    if args.json:
        print(json.dumps({"ok": True, "path": str(model.path), "kind": model.kind, "notes": list(model.notes),
                          "meta": meta}), file=file if file is not None else sys.stdout)
        return 0
    console = _console(file)
    metrics = (meta.get("metrics") or {}).get("test") or {}
    counts = meta.get("rows") or {}
    inputs = "h0 (the static heuristic)" if model.kind == "h0" else f"the {len(model.inputs)} {cls.NAME} features"
    depth = meta.get("depth")
    lines = [
        ("model", f"{model.path}: loads and predicts its check rows as when saved"),
        ("game", cls.NAME),
        ("kind", f"{meta['model']} ({_predictor_text(meta['predictor'])}), "
                 f"params {_params_text(meta.get('params'))}"),
        ("inputs", inputs),
        ("target", f"{meta['target']}: {meta.get('label', 'search')} at "
                   f"{f'depth {depth}' if depth is not None else 'an unknown depth'}, "
                   f"heuristic {meta['heuristic']}"),
        ("test", f"MSE {_number(metrics.get('mse'), 5)}, MAE {_number(metrics.get('mae'), 5)}, "
                 f"R² {_number(metrics.get('r2'), 4)}"),
        ("rows", f"{_count(counts.get('train'))} train, {_count(counts.get('test'))} test, "
                 f"{_count(counts.get('duplicates_dropped'))} duplicates dropped"),
        ("trained", f"{meta.get('created') or '?'} with scikit-learn {meta['versions'].get('sklearn', '?')}"),
        ("size", size_text(model.path.stat().st_size)),
        ("sha256", meta["sha256"]),
    ]
    if meta.get("command"):
        lines.append(("command", meta["command"]))
    lines += [("note", note) for note in model.notes]
    for label, value in lines:
        console.print(f"{label:<8} {value}")
    return 0


def _predictor_text(spec: dict[str, Any]) -> str:
    """What the model's arrays are, in a few words."""
    if spec.get("kind") == "forest":
        return f"a forest of {spec.get('trees')} trees, depth {spec.get('depth')}"
    return f"a network of {spec.get('layers')} layers, {spec.get('activation')}"
