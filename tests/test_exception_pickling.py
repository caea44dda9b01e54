"""Every exception we define survives pickling: an error raised in a worker reaches the parent whole.

A match, a book or a dataset played over worker processes gets a worker's
exception back through pickle; one whose ``__init__`` takes other arguments
than it passes on (``EngineFailure(reason, message)``) failed to unpickle and
broke the pool with a traceback.  The test finds every exception class defined
in ``games``, ``engines`` and ``tui``, makes one of each and round-trips it.
It only loads what it pickled itself: no pickle from elsewhere is ever loaded.
"""

from __future__ import annotations

import importlib
import pickle
import pkgutil
from typing import Callable

import pytest

from engines.learning.dataset import DatasetSummary
from engines.remedy import Remedy, RunError
from games.base import IllegalMoveError

#: The packages whose exceptions may cross a process pool.
PACKAGES = ("games", "engines", "tui")

#: How to make one of each exception class with an ``__init__`` of its own (by the class, or by
#: the nearest base that has one), with representative arguments.
MAKERS: dict[str, Callable[[type[BaseException]], BaseException]] = {
    "engines.remedy.RunError": lambda cls: cls("the results file is finished", remedy=Remedy.GAMES, games=40),
    "engines.uci_client.EngineFailure": lambda cls: cls("illegal move e2e5",
                                                        "uci: ./engine answered an illegal move e2e5"),
    "games.base.ReplayError": lambda cls: cls(3, IllegalMoveError("e2e5 is not legal here")),
    "engines.learning.dataset.DatasetInterrupted": lambda cls: cls(DatasetSummary("d.csv", "chess", 8, games=2)),
    "tui.cli.common.UsageError": lambda cls: cls("tui-games match", "--games must be at least 1"),
}


def _name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def defined_exceptions() -> list[type[BaseException]]:
    """Every exception class a module of :data:`PACKAGES` defines (each module imported)."""
    found: dict[str, type[BaseException]] = {}
    for package in PACKAGES:
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            if info.name.rsplit(".", 1)[-1] == "__main__":  # running it is the command line
                continue
            module = importlib.import_module(info.name)
            for value in vars(module).values():
                if isinstance(value, type) and issubclass(value, BaseException) \
                        and value.__module__ == module.__name__:
                    found[_name(value)] = value
    return [found[name] for name in sorted(found)]


def example(cls: type[BaseException]) -> BaseException:
    """One ``cls`` with representative arguments: a message, or what :data:`MAKERS` gives."""
    for base in cls.__mro__:
        if _name(base) in MAKERS:
            return MAKERS[_name(base)](cls)
        if "__init__" in vars(base) and base.__module__.split(".")[0] in PACKAGES:
            raise AssertionError(f"{_name(cls)} has an __init__ of its own: add its arguments to MAKERS")
    return cls("a one-line message")


def described(error: BaseException) -> tuple[object, ...]:
    """What must survive the round trip: type, arguments, message and attributes (as texts, since
    exceptions inside do not compare equal)."""
    return (type(error), repr(error.args), str(error),
            {key: repr(value) for key, value in vars(error).items()})


EXCEPTIONS = defined_exceptions()


def test_the_walk_finds_the_exceptions_that_cross_pools() -> None:
    names = {_name(cls) for cls in EXCEPTIONS}
    assert {"engines.uci_client.EngineFailure", "engines.tournament.config.MatchError",
            "engines.learning.dataset.DatasetError", "games.base.ReplayError"} <= names
    assert RunError in EXCEPTIONS


@pytest.mark.parametrize("cls", EXCEPTIONS, ids=_name)
def test_every_exception_we_define_pickles_and_unpickles(cls: type[BaseException]) -> None:
    error = example(cls)
    copy = pickle.loads(pickle.dumps(error))
    assert described(copy) == described(error)
