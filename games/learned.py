"""Learned evaluations of one form for every game: tapered tables over a game's *terms*.

A game that has such an evaluation describes its terms in a :class:`TermsForm`:
for a position, seen by its side to move,

- a few *scalars* -- whole numbers such as the difference in mobility -- each
  weighted by one entry of the tables (entries ``0 .. scalars-1``);
- the *indices* of the pattern states the position holds -- a row of an
  Othello board, a line of a Quixo board, two rows of a checkers board, each
  read as a number in base 3 (empty, own, other) and offset into its
  pattern's table -- each adding its entry once;
- and the *phase*, a whole number from 0 (the end) to :attr:`TermsForm.phases`
  (the opening).

The value for the side to move is the weighted sum under a midgame table
blended with the same sum under an endgame table by the phase, plus a tempo:
the form of chess's PeSTO, with patterns in place of pieces on squares.  It
is linear in the tables, so they can be fitted to a deeper search's values
and the games' results (``tui-games train GAME --model tables``), and it costs
a few table lookups a pattern.  Finished positions are scored by the form's
:attr:`TermsForm.finished` (beyond every unfinished value) and unfinished ones
clamped to ``±clamp``.  A form may also give its own evaluation of the same value built for
speed (:attr:`TermsForm.fast`: checkers' and Quixo's fold their hand-made evaluation's parts into
the entries and read the patterns through small lookup tables); :func:`tables_heuristic` uses it,
and ``generic=True`` gives the generic sum the tests compare it with.

A tables file is a NumPy ``.npz`` of plain arrays, read with
``allow_pickle=False``: ``format`` (:data:`FORMAT`), ``form`` (the layout's
name, such as ``othello-patterns/1``: a file of another layout is refused),
``mg`` and ``eg`` (int32, one entry a weight) and ``tempo`` (int32).
"""

from __future__ import annotations

import os
import sys
from operator import mul
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence, Union

__all__ = ["FORMAT", "MAX_BYTES", "MAX_VALUE", "TablesError", "TermsForm", "PatternLayout", "Tables", "tables_heuristic",
           "packed_entries", "tapered",
           "save_tables", "load_tables", "plan_terms", "tables_file", "bundled_heuristic", "tables_plan",
           "DatasetStep", "TrainStep", "Step"]

#: The ``format`` of a tables file.
FORMAT = "tui-games-tables/1"
#: The largest tables file read (a file is mostly zeros, compressed), and the largest entry.
MAX_BYTES = 8 * 1024 * 1024
MAX_VALUE = 100_000
#: The types of a tables file's arrays: text tags, whole-number entries.
_KINDS = {"format": "U", "form": "U", "mg": "i", "eg": "i", "tempo": "i"}


_LITTLE_ENDIAN = sys.byteorder == "little"


class TablesError(ValueError):
    """A tables file that cannot be used; the message is one line."""


#: What a form's terms are: the pattern indices, the scalars and the phase.
Terms = tuple[Sequence[int], Sequence[int], int]


@dataclass(frozen=True)
class TermsForm:
    """A game's terms (see the module's docstring): the layout a tables file is trained for."""

    #: The layout's name, written in the files (a new layout gets a new name).
    name: str
    #: The entries of one table (scalars first, then every pattern's states).
    weights: int
    #: How many of the first entries weight the scalars.
    scalars: int
    #: The phase of an opening (the end is 0).
    phases: int
    #: A position's terms, for its side to move.
    terms: Callable[[Any], Terms]
    #: The side to move's score of a finished game, ``None`` for a game in play.
    finished: Callable[[Any], int | None]
    #: Unfinished positions score within ``±clamp``.
    clamp: int
    #: The names of the scalars, and of the patterns with the first entry of each (for ``describe``).
    scalar_names: tuple[str, ...] = ()
    patterns: tuple[tuple[str, int, int], ...] = ()
    #: Entries are whole ``1/scale`` units of the game's score (a scalar such as a hand-made
    #: evaluation's value needs a weight near 1 to be set finely).
    scale: int = 1
    #: Where the fit starts: the first scalars' (midgame, endgame) weights, the rest 0 (a scalar that
    #: is a hand-made evaluation starts at (1, 1): the fit learns corrections to it).
    start: tuple[tuple[float, float], ...] = ()
    #: The game's own evaluation of tables over these terms, built for speed (``None``: the generic
    #: one, :func:`tables_heuristic` with ``generic=True``, which it must equal on every position).
    fast: Callable[["Tables"], Callable[[Any, int], int]] | None = None


class PatternLayout:
    """Where a game's patterns lie on its board, and their states' indices read fast.

    ``instances`` are the patterns on the board: each its first entry in the tables and its
    cells in reading order (bit numbers of the game's bitboards; the first cell is the lowest
    base-3 digit).  :meth:`indices` gives every instance's entry -- its first entry plus its state
    in base 3, 1 for the ``own`` side's cell and 2 for the ``other``'s -- for two bitboards of
    ``cells`` bits.

    How: the contributions of every value of every byte of a bitboard to every instance are
    packed, 32 bits an instance, into one integer each, so that a position's instances are the
    sum of one such integer a byte a side, unpacked once (no instance's field ever carries into
    the next: an index stays far below 2**32).
    """

    def __init__(self, cells: int, instances: Sequence[tuple[int, Sequence[int]]]) -> None:
        self.cells = cells
        #: The instances: each its first entry and its cells in reading order.
        self.instances = tuple((first, tuple(pattern)) for first, pattern in instances)
        self.count = len(instances)
        self.bytes = (cells + 7) // 8
        self._width = 4 * self.count
        where: dict[int, list[int]] = {}  # a cell: the packed place values of its digit in each instance
        offsets = 0
        for number, (first, pattern) in enumerate(instances):
            offsets += first << (32 * number)
            for digit, cell in enumerate(pattern):
                if not 0 <= cell < cells:
                    raise ValueError(f"instance {number}: cell {cell} is not on a board of {cells} cells")
                where.setdefault(cell, []).append(3 ** digit << (32 * number))
        self._offsets = offsets
        own: list[list[int]] = []
        other: list[list[int]] = []
        for byte in range(self.bytes):
            values = []
            for value in range(256):
                packed = 0
                for bit in range(8):
                    if value >> bit & 1:
                        packed += sum(where.get(8 * byte + bit, ()))
                values.append(packed)
            own.append(values)
            other.append([2 * packed for packed in values])
        self._own = tuple(own)
        self._other = tuple(other)

    def indices(self, own: int, other: int) -> list[int]:
        """Every instance's entry in the tables for the ``own`` and ``other`` sides' bitboards."""
        packed = self._offsets
        for table, value in zip(self._own, own.to_bytes(self.bytes, "little")):
            packed += table[value]
        for table, value in zip(self._other, other.to_bytes(self.bytes, "little")):
            packed += table[value]
        if _LITTLE_ENDIAN:
            return memoryview(packed.to_bytes(self._width, "little")).cast("I").tolist()
        return [packed >> shift & 0xFFFFFFFF for shift in range(0, 32 * self.count, 32)]


@dataclass(frozen=True)
class Tables:
    """Fitted tables: midgame and endgame entries (whole units of the game's score) and a tempo."""

    mg: tuple[int, ...]
    eg: tuple[int, ...]
    tempo: int


#: Each entry of the tables is kept as one integer, ``mg + eg << 32``, so that one sum adds both tables.
_PACK = 32
_HALF = 1 << (_PACK - 1)


def packed_entries(tables: Tables) -> list[int]:
    """Every entry of the tables as one integer, ``mg + eg << 32``: one sum adds both tables."""
    return [mg + (eg << _PACK) for mg, eg in zip(tables.mg, tables.eg)]


def tapered(both: int, phase: int, phases: int, divisor: int, tempo: int, clamp: int) -> int:
    """The value of a packed sum of entries (see :func:`packed_entries`) at ``phase`` of ``phases``:
    its midgame and endgame sums blended, divided by ``divisor`` toward zero, plus the tempo, within
    ``±clamp``.  The fast evaluations end with this, as the generic one does."""
    eg_sum = (both + _HALF) >> _PACK  # the sums stay far inside +-2**31
    mg_sum = both - (eg_sum << _PACK)
    total = mg_sum * phase + eg_sum * (phases - phase)
    score = (total // divisor if total >= 0 else -(-total // divisor)) + tempo
    if score > clamp:
        return clamp
    if score < -clamp:
        return -clamp
    return score


def tables_heuristic(form: TermsForm, tables: Tables, *, generic: bool = False) -> Callable[[Any, int], int]:
    """The evaluation of ``tables`` over ``form``'s terms, for ``player``: zero-sum by construction
    (the side to move's value, negated for the other player).  The form's :attr:`~TermsForm.fast`
    evaluation when it has one and ``generic`` is false; the generic one (the form's ``terms`` summed
    as below, the reference the fast ones are tested against) otherwise."""
    if form.fast is not None and not generic:
        return form.fast(tables)
    packed = packed_entries(tables)
    entry = packed.__getitem__
    weights = packed[:form.scalars]
    tempo = tables.tempo
    phases, clamp, terms, finished = form.phases, form.clamp, form.terms, form.finished
    divisor = phases * form.scale

    def evaluate(game: Any, player: int) -> int:
        score = finished(game)
        if score is None:
            indices, scalars, phase = terms(game)
            score = tapered(sum(map(entry, indices)) + sum(map(mul, scalars, weights)), phase, phases, divisor,
                            tempo, clamp)
        return score if player == game.turn else -score

    return evaluate


def plan_terms(form: TermsForm, read: Callable[[str], Any]) -> Callable[[str], tuple[list[int], list[float], float]]:
    """The terms of a position text as fitting reads them (:class:`~games.kind.TablesPlan`): every
    entry that counts, with its value (a scalar's, or 1 for a pattern state), and the phase from 0 to
    1. ``read`` makes a position of the text."""

    def text_terms(text: str) -> tuple[list[int], list[float], float]:
        indices, scalars, phase = form.terms(read(text))
        weights = [weight for weight, value in enumerate(scalars) if value]
        values = [float(scalars[weight]) for weight in weights]
        return weights + list(indices), values + [1.0] * len(indices), phase / form.phases

    return text_terms


def save_tables(form: TermsForm, mg: Any, eg: Any, tempo: float, path: str | os.PathLike[str]) -> Path:
    """Write tables (in the game's score, rounded to whole ``1/scale`` units; the tempo to whole units)
    for ``form`` to a new file at ``path`` (never overwriting)."""
    import numpy as np

    from .arrays import write_arrays

    mg_array = np.rint(np.asarray(mg, dtype=np.float64).reshape(-1) * form.scale).astype(np.int32)
    eg_array = np.rint(np.asarray(eg, dtype=np.float64).reshape(-1) * form.scale).astype(np.int32)
    if mg_array.shape != (form.weights,) or eg_array.shape != (form.weights,):
        raise TablesError(f"tables of {mg_array.size} and {eg_array.size} entries for {form.name}, which has "
                          f"{form.weights}")
    return write_arrays(path, format=np.array(FORMAT), form=np.array(form.name), mg=mg_array, eg=eg_array,
                        tempo=np.int32(round(float(tempo))))


def load_tables(form: TermsForm, path: str | os.PathLike[str]) -> Tables:
    """Read a tables file for ``form``, checking every array; any problem is one :class:`TablesError` line."""
    from .arrays import read_arrays, scalar, within
    from .files import user_path

    target = user_path(path)
    arrays = read_arrays(target, ("format", "form", "mg", "eg", "tempo"), MAX_BYTES, TablesError, "tables",
                         _KINDS)
    if str(arrays["format"]) != FORMAT:
        raise TablesError(f"{target}: format {str(arrays['format'])[:40]!r}, not {FORMAT!r}")
    if str(arrays["form"]) != form.name:
        raise TablesError(f"{target}: tables of {str(arrays['form'])[:40]!r}, not {form.name!r} "
                          f"(trained for another game or layout)")
    mg, eg = arrays["mg"], arrays["eg"]
    if mg.shape != (form.weights,) or eg.shape != (form.weights,) or arrays["tempo"].size != 1:
        raise TablesError(f"{target}: arrays of the wrong shapes ({form.weights} entries a table and one tempo)")
    tempo = scalar(arrays, "tempo", "i", str(target), TablesError, MAX_VALUE)
    if not (within(mg, MAX_VALUE) and within(eg, MAX_VALUE)):
        raise TablesError(f"{target}: entries beyond {MAX_VALUE:,}")
    return Tables(tuple(mg.tolist()), tuple(eg.tolist()), int(tempo))


def tables_file(form: TermsForm) -> Callable[[str], Callable[[Any, int], int]]:
    """The heuristic kind ``tables:PATH`` of a game: the tables in the file at ``path`` over ``form``.
    A file that is not such tables raises ``ValueError`` (one line)."""

    def read(path: str) -> Callable[[Any, int], int]:
        evaluate = tables_heuristic(form, load_tables(form, path))
        evaluate.__name__ = f"tables:{path}"
        return evaluate

    return read


def bundled_heuristic(form: TermsForm, path: Path, name: str) -> Callable[[Any, int], int]:
    """The heuristic ``name``: the tables a game's package ships at ``path``, read at its first
    evaluation (once a process)."""
    loaded: list[Callable[[Any, int], int]] = []

    def evaluate(game: Any, player: int) -> int:
        if not loaded:
            loaded.append(tables_heuristic(form, load_tables(form, path)))
        return loaded[0](game, player)

    evaluate.__name__ = name
    return evaluate


def tables_plan(form: TermsForm, read: Callable[[str], Any], *, unit: float,
                quiet: Callable[[str], bool] | None = None) -> Any:
    """The :class:`~games.kind.TablesPlan` of ``form``: fitted from the form's start (its hand-made
    scalar at weight 1, every other entry 0), in ``unit``, saved as a tables file of the form;
    ``read`` makes a position of a text."""
    from .kind import TablesPlan

    def start() -> tuple[Any, Any, float]:
        import numpy as np

        mg, eg = np.zeros(form.weights), np.zeros(form.weights)
        for weight, (midgame, endgame) in enumerate(form.start):
            mg[weight], eg[weight] = midgame, endgame
        return mg, eg, 0.0

    def save(mg: Any, eg: Any, tempo: float, path: Any) -> Path:
        return save_tables(form, mg, eg, tempo, path)

    starts = ", ".join(f"{name} at weight {midgame:g}" for name, (midgame, _) in zip(form.scalar_names, form.start)
                       if midgame)
    return TablesPlan(weights=form.weights, terms=plan_terms(form, read), start=start, save=save,
                      heuristic="tables", quiet=quiet, unit=unit,
                      starts_from=f"{starts}, the rest 0" if starts else None)


# ------------------------------------------------------------------ recipes
# How a game's bundled tables were made (its kind's ``recipe``), as data: self-play datasets labelled
# by a deeper search, tables fitted to them, and -- a second generation -- self-play searched with
# those tables and the tables fitted again to both.  ``tui-games rebuild GAME`` runs them.


@dataclass(frozen=True)
class DatasetStep:
    """A self-play dataset (``tui-games dataset``): ``games`` games from ``openings`` random plies,
    each position labelled by a ``depth``-ply search with ``heuristic`` (``{folder}`` in it: the
    folder of the recipe's files), a random move played on a share ``explore`` of the plies."""

    out: str
    games: int
    depth: int
    seed: int
    openings: int = 4
    explore: float = 0.1
    max_plies: int = 200
    heuristic: str | None = None


@dataclass(frozen=True)
class TrainStep:
    """Tables fitted (``tui-games train --model tables``) to the datasets ``data`` of earlier steps."""

    out: str
    data: tuple[str, ...]
    max_iter: int = 60
    outcome: float = 0.0
    test_size: float = 0.2
    seed: int = 0


Step = Union[DatasetStep, TrainStep]
