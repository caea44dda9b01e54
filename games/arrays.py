"""Reading the NumPy ``.npz`` files of learned evaluations (networks, tables, models) safely, and writing them.

The file is read through :func:`games.files.read_bytes` (a regular file, at most its loader's
limit); then every array's ``.npy`` header is read *before* its data: an object array (which
would need a pickle) or a type the loader does not take (complex, bytes, records) is refused,
and so is a header that declares more data than its archive entry holds (a truncated or crafted
archive is never allowed to allocate what it claims).  Real arrays must be finite.  No pickle is
ever loaded.  Every problem is one line of the loader's error type.
"""

from __future__ import annotations

import io
import math
import os
import zipfile
from pathlib import Path
from typing import IO, Mapping

import numpy as np

from .files import read_bytes, user_path

__all__ = ["REAL", "read_arrays", "unpack_arrays", "within", "scalar", "write_arrays"]

#: The array types a loader takes unless it says otherwise: booleans, integers, reals and text.
REAL = "biufU"
#: How many times its file's size the arrays of an archive may unpack to (compressed zeros pack well).
UNPACKED_RATIO = 64


def write_arrays(path: str | os.PathLike[str], **arrays: object) -> Path:
    """Write ``arrays`` as a compressed ``.npz`` to a new file at ``path`` (``~`` expanded),
    never over an existing one (:class:`FileExistsError`); the file holds the whole archive
    or nothing of it, the archive being made in memory first.  The path written."""
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]
    target = Path(path).expanduser()
    with target.open("xb") as file:
        file.write(buffer.getvalue())
    return target


def read_arrays(target: str | os.PathLike[str], names: tuple[str, ...] | None, max_bytes: int,
                error: type[ValueError], what: str, kinds: Mapping[str, str] | None = None,
                infinite: tuple[str, ...] = ()) -> dict[str, np.ndarray]:
    """The arrays ``names`` (all of them when ``None``) of the ``.npz`` file ``target``, or ``error``
    with one line: not a regular file, over ``max_bytes``, not an archive, an array missing, an
    array of a type not in ``kinds[name]`` (default :data:`REAL`), not finite (infinities allowed
    in the arrays named in ``infinite``), or truncated."""
    data = read_bytes(target, f"a {what} file", max_bytes, error)
    return unpack_arrays(data, str(user_path(target)), names, error, what, kinds, max_bytes * UNPACKED_RATIO, infinite)


def unpack_arrays(data: bytes, where: str, names: tuple[str, ...] | None, error: type[ValueError], what: str,
                  kinds: Mapping[str, str] | None = None, unpacked: int = 1 << 30,
                  infinite: tuple[str, ...] = ()) -> dict[str, np.ndarray]:
    """The arrays of the ``.npz`` bytes ``data`` (read from ``where``), checked as :func:`read_arrays`
    says; the arrays together may unpack to at most ``unpacked`` bytes, and only the arrays named in
    ``infinite`` may hold infinities (a forest's leaves); none may hold NaN."""
    if not data.startswith(b"PK"):
        raise error(f"{where}: not a {what} file (not a NumPy .npz archive)")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = {info.filename[:-4]: info for info in archive.infolist() if info.filename.endswith(".npy")}
            wanted = tuple(members) if names is None else names
            missing = [name for name in wanted if name not in members]
            if missing:
                raise error(f"{where}: no array {missing[0]!r} in it: not a {what} file")
            total = sum(members[name].file_size for name in wanted)
            if total > unpacked:
                raise error(f"{where}: its arrays unpack to {total:,} bytes, over {unpacked:,}: not a {what} file")
            arrays = {}
            for name in wanted:
                allowed = (kinds or {}).get(name, REAL)
                with archive.open(members[name]) as member:
                    _check_header(member, members[name].file_size, allowed, f"{where}: array {name!r}", error, what)
                with archive.open(members[name]) as member:
                    array = np.lib.format.read_array(member, allow_pickle=False)
                if array.dtype.kind in "fc" and not (np.isfinite(array).all() if name not in infinite
                                                     else not np.isnan(array).any()):
                    raise error(f"{where}: non-finite values (NaN or infinite) in array {name!r}")
                arrays[name] = array
            return arrays
    except error:
        raise
    except Exception as problem:  # zip or npy refusals, a CRC that does not match: all mean "not ours"
        raise error(f"{where}: not a {what} file ({' '.join(str(problem).split())[:80]})") from None


def _check_header(member: IO[bytes], size: int, allowed: str, where: str, error: type[ValueError],
                  what: str) -> None:
    """Refuse an ``.npy`` entry whose header names a type not ``allowed`` or more data than ``size``."""
    version = np.lib.format.read_magic(member)
    if version == (1, 0):
        shape, _fortran, dtype = np.lib.format.read_array_header_1_0(member)
    elif version == (2, 0):
        shape, _fortran, dtype = np.lib.format.read_array_header_2_0(member)
    else:
        raise error(f"{where}: .npy version {version} is not read")
    if dtype.hasobject:
        raise error(f"{where}: holds Python objects (it would need a pickle): not a {what} file")
    if dtype.kind not in allowed:
        raise error(f"{where}: of the wrong types ({dtype.name}, not {_kinds_named(allowed)})")
    declared = math.prod(shape) * dtype.itemsize
    if declared > size:
        raise error(f"{where}: declares {declared:,} bytes of data ({'x'.join(map(str, shape))[:40]}) in an "
                    f"entry of {size:,}: truncated or crafted")


def _kinds_named(kinds: str) -> str:
    words = {"b": "booleans", "i": "integers", "u": "integers", "f": "reals", "c": "complex numbers", "U": "text"}
    return " or ".join(dict.fromkeys(words[kind] for kind in kinds if kind in words))


def within(array: np.ndarray, bound: int | float) -> bool:
    """Whether every entry of ``array`` lies in ``[-bound, bound]`` (compared as they are: the most
    negative integer, whose absolute value overflows, is out)."""
    if array.size == 0:
        return True
    low, high = array.min(), array.max()
    return bool(-bound <= low.item() and high.item() <= bound)


def scalar(arrays: Mapping[str, np.ndarray], name: str, kinds: str, where: str, error: type[ValueError],
           bound: float) -> int | float:
    """The one number of the array ``name``: of a type in ``kinds`` (``"i"``, ``"iu"``, ``"if"`` ...),
    finite and within ``[-bound, bound]``, else one ``error`` line."""
    array = arrays[name]
    if array.size != 1 or array.dtype.kind not in kinds:
        raise error(f"{where}: {name!r} is not one number of the right type ({_kinds_named(kinds)})")
    value = array.reshape(-1)[0].item()
    if not (isinstance(value, (int, float)) and math.isfinite(value)):
        raise error(f"{where}: {name!r} is {str(value)[:30]}, not a finite number")
    if not -bound <= value <= bound:
        raise error(f"{where}: {name!r} is {str(value)[:30]}, beyond ±{bound:g}")
    return value
