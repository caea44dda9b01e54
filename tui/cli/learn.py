"""``learn``: open the app on the course in game search (:mod:`engines.course`), through
:func:`tui.cli.play.run_app`, the one command-line module that opens the app."""

from __future__ import annotations

import argparse

from . import play


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Add ``learn`` to the ``tui-games`` parser."""
    learn = sub.add_parser("learn", help="open the app's course in game search: lessons on real trees, exercises",
                           description="The course: ten lessons from the game tree and minimax to the seeds' "
                                       "cutoffs, each beside a live board and its recorded search tree, and "
                                       "exercises on fresh positions graded from the real search.  Progress is "
                                       "kept in course.json in the settings directory.")
    learn.add_argument("--ascii", action="store_true", help="draw pieces as letters")
    learn.set_defaults(run=lambda args: play.run_app(ascii=args.ascii, learn=True))
