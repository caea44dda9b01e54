"""The lab: declarative experiments over the engines, and the seeds' claims tested.

- :mod:`~engines.lab.experiment` -- an experiment file (TOML): game, arms
  (engines against opponents, listed or swept), games, openings, seed, claims;
  the shipped ones (``experiments/*.toml``);
- :mod:`~engines.lab.claims` -- each arm's figures and each claim's verdict
  at 95%;
- :mod:`~engines.lab.folder` -- a run's folder: the experiment, its games
  (results and game records), resumable.

May import :mod:`games` and :mod:`engines`; draws nothing (its tables and
charts are :mod:`tui.views`', for the command line and the app).
"""

from .claims import AGREES, DISAGREES, INCONCLUSIVE, PENDING, ArmResult, Verdict, arm_results, judge
from .experiment import Arm, Claim, Experiment, ExperimentError, load_experiment, parse_experiment, shipped

__all__ = ["AGREES", "DISAGREES", "INCONCLUSIVE", "PENDING", "ArmResult", "Verdict", "arm_results", "judge",
           "Arm", "Claim", "Experiment", "ExperimentError", "load_experiment", "parse_experiment", "shipped"]
