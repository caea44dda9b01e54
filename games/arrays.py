"""Reading the NumPy ``.npz`` files of learned evaluations (networks, tables) safely: no pickle, one-line refusals."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np

__all__ = ["read_arrays"]


def read_arrays(target: Path, names: tuple[str, ...], max_bytes: int, error: type[ValueError],
                what: str) -> dict[str, np.ndarray]:
    """The arrays ``names`` of the ``.npz`` file ``target`` (read with ``allow_pickle=False``), or
    ``error`` with one line: too large, unreadable, not an archive, an array missing, not arrays."""
    try:
        if target.stat().st_size > max_bytes:
            raise error(f"{target}: larger than {max_bytes // 1024:,} kB: not a {what} file")
        data = target.read_bytes()
    except OSError as problem:
        raise error(f"{target}: {problem.strerror or problem}") from None
    if not data.startswith(b"PK"):
        raise error(f"{target}: not a {what} file (not a NumPy .npz archive)")
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as archive:
            missing = [name for name in names if name not in archive.files]
            if missing:
                raise error(f"{target}: no array {missing[0]!r} in it: not a {what} file")
            return {name: archive[name] for name in names}
    except error:
        raise
    except Exception as problem:  # zip, npy or pickle refusals: all mean "not ours"
        raise error(f"{target}: not a {what} file ({' '.join(str(problem).split())[:80]})") from None
