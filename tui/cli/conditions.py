"""The flags of a match's conditions -- its opening book, adjudication and clocks -- shared by
``match``, ``tournament`` and ``experiment`` (:func:`add_condition_flags`, :func:`conditions_of`)."""

from __future__ import annotations

import argparse
from typing import Any, Callable

from .common import UsageError, path_arg, whole

__all__ = ["add_condition_flags", "conditions_of", "given_conditions", "opening_plies"]

#: The flags that tune a book, without which they mean nothing.
_BOOK_TUNING = (("book_order", "--book-order"), ("book_plies", "--book-plies"),
                ("book_include_lost", "--book-include-lost"))


def _rule(name: str) -> Callable[[str], Any]:
    """An argparse type: an adjudication rule (``Resign``, ``DrawRule``) read from its text."""
    def convert(text: str) -> Any:
        from engines.tournament import conditions

        try:
            return getattr(conditions, name).parse(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return convert


def _tc(text: str) -> str:
    from engines.tournament.conditions import parse_time_control

    try:
        return parse_time_control(text).seconds_text
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_condition_flags(p: argparse.ArgumentParser, *, overrides: bool = False) -> None:
    """Add the book, adjudication and clock flags to ``p`` (``overrides``: they replace
    an experiment file's settings)."""
    over = " (replaces the experiment's)" if overrides else ""
    g = p.add_argument_group("openings from a book" + over)
    g.add_argument("--book", type=path_arg, metavar="FILE|NAME",
                   help="start the games from this book's lines, each played by both engines with both colours "
                        "(instead of random plies): EPD or PGN (chess), PDN (checkers), lines of moves (any "
                        "game), or a book the game ships ('tui-games book GAME' lists them: ballots, balanced)")
    g.add_argument("--book-order", choices=("sequential", "random"), default=None,
                   help="take the lines in file order (default) or shuffled by --seed")
    g.add_argument("--book-plies", type=whole(0), metavar="N", help="play only the first N plies of each line")
    g.add_argument("--book-include-lost", action="store_true", default=None,
                   help="play the lines the book marks lost too (the checkers ballots' 17)")
    g = p.add_argument_group("adjudication, off unless asked (scores in the game's unit: pawns in chess)" + over)
    g.add_argument("--resign", type=_rule("Resign"), metavar="movecount=N,score=S[,twosided=true]",
                   help="a side whose score has been S or more below zero for N of its moves in a row loses "
                        "(twosided: both sides' scores S or more from zero for N moves each)")
    g.add_argument("--draw", type=_rule("DrawRule"), metavar="movenumber=M,movecount=N,score=S",
                   help="a draw when, after move M, both sides' scores have been within S of zero for N moves "
                        "each, counted again after each irreversible move (a capture, a pawn's or a man's move)")
    g.add_argument("--maxmoves", type=whole(1), metavar="N", help="a draw when the game reaches N moves")
    g = p.add_argument_group("clocks (wall time, measured around each search)" + over)
    g.add_argument("--tc", type=_tc, metavar="BASE+INC|MOVES/BASE+INC",
                   help="both engines' clocks in seconds (10+0.1; 40/60+0.6: 60 s every 40 moves); an engine "
                        "spec's own tc=... gives it other time (odds)")
    g.add_argument("--timemargin", type=whole(0), metavar="MS",
                   help="milliseconds an engine may go beyond its clock before it loses on time (default 0)")


def given_conditions(args: argparse.Namespace) -> dict[str, Any]:
    """The condition flags given on the command line, by the name of the setting they set."""
    names = ("book", "book_order", "book_plies", "book_include_lost", "resign", "draw", "maxmoves", "tc",
             "timemargin")
    return {name: getattr(args, name) for name in names if getattr(args, name, None) is not None}


def conditions_of(prog: str, game: str, settings: dict[str, Any]) -> Any:
    """The :class:`~engines.tournament.conditions.Conditions` of the flags given
    (``settings``: :func:`given_conditions`), the book read; one line for a bad one."""
    from engines.tournament.conditions import conditions_from

    if settings.get("book") is None:
        for name, flag in _BOOK_TUNING:
            if settings.get(name) is not None:
                raise UsageError(prog, f"{flag} goes with --book")
    return conditions_from(game, settings)


def opening_plies(prog: str, args: argparse.Namespace, default: int = 4) -> int:
    """The random plies ``--openings`` asks for (``default`` when not given); refused beside ``--book``."""
    if args.openings is not None and args.book is not None:
        raise UsageError(prog, "--openings (random plies) and --book are two ways to open the games; give one")
    return default if args.openings is None else args.openings
