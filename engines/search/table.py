"""A transposition table in shared memory, for searches in several processes.

:class:`SharedTable` has the part of a ``dict`` the search core uses (``get``,
item assignment, ``clear``), over a fixed array of entries in a
:class:`multiprocessing.shared_memory.SharedMemory` block that every process
of a parallel search maps (see :mod:`engines.search.parallel`).  An entry is
three 64-bit words, viewed as a numpy array ``(entries, 3)``:

- ``check``: the position's hash XOR the two others;
- ``value``: the score, fixed point with 16 fraction bits (exact for the
  integer heuristics, close for learned ones);
- ``data``: the depth (8 bits), the bound (2 bits) and the best move's
  :meth:`~games.Game.move_code` plus one (0: no move).

No lock: a process writes the three words while others may read them.  A
reader recomputes the hash from the words it got, so a torn entry (half old,
half new) or another position's entry fails the check and counts as a miss --
Hyatt's lock-free hashing.

After the entries comes a *busy list*: the hashes of the positions the
processes are searching at the moment (at the top of the tree only), which
lets a process put off a move another one is already searching -- the
"deferred moves" of ABDADA -- and find its result in the table later.  The table always replaces (the newest result is
the one the other workers want), and moves it gives back are checked legal
in the position they are asked for (:meth:`~games.Game.move_from_code`), so
even a 64-bit hash collision cannot play an illegal move.

The hash is Python's ``hash()`` of the game's key, which is the same in every
process for ints and tuples of ints and bools (the games' keys are those).

A table costs what it holds, not its size: a new block reads as zeros without
being written (the kernel gives zero pages on first touch), and :meth:`clear`
hands the touched pages back to the kernel (``madvise(MADV_REMOVE)``) instead
of writing zeros over the whole block, so a 0.1 s search on a table of
gigabytes takes about 0.1 s, and a stop is as quick.  The ``hash`` option is
capped by what the machine can give (:func:`hash_cap`): half the memory it has
available (``MemAvailable``), and for a shared table half the free space of
``/dev/shm`` too, where the block lives.
"""

from __future__ import annotations

import ctypes
import os
import sys
from multiprocessing import resource_tracker, shared_memory
from typing import Any, Hashable

import numpy as np

from games import Game

__all__ = ["SharedTable", "SHARED_ENTRIES", "DICT_ENTRY_BYTES", "dict_entries", "shared_entries", "hash_cap",
           "available_memory", "shared_memory_free"]

#: Entries in a shared table (a power of two): 24 MiB.
SHARED_ENTRIES = 1 << 20
#: Words an entry takes.
WORDS = 3
#: About what one entry of a serial search's dict table costs in chess (its key tuple, its value
#: tuple, the dict's slot; measured with tracemalloc at 450 bytes with the search's other
#: allocations): what a ``hash`` option in megabytes is divided by.
DICT_ENTRY_BYTES = 400
#: The fewest entries a table is given, however small its ``hash``.
MIN_ENTRIES = 1 << 10
MEGABYTE = 1 << 20


def dict_entries(megabytes: int) -> int:
    """The entries a serial search's dict table may hold in ``megabytes`` (the ``hash`` option)."""
    return max(MIN_ENTRIES, megabytes * MEGABYTE // DICT_ENTRY_BYTES)


def shared_entries(megabytes: int | None) -> int:
    """The entries of a shared table in ``megabytes``: the largest power of two that fits
    (:data:`SHARED_ENTRIES` when no size is given)."""
    if megabytes is None:
        return SHARED_ENTRIES
    fits = megabytes * MEGABYTE // (WORDS * 8)
    return max(MIN_ENTRIES, 1 << (fits.bit_length() - 1)) if fits else MIN_ENTRIES
#: Where shared memory blocks live (a tmpfs: its free space bounds them).
SHM_DIR = "/dev/shm"
#: The share of the machine's free memory a table may take.
MEMORY_SHARE = 0.5
#: ``madvise``'s advice that frees a shared mapping's pages and their backing (linux/mman.h).
MADV_REMOVE = 9


def available_memory(meminfo: str = "/proc/meminfo") -> int | None:
    """The bytes of memory the machine can give without swapping (``MemAvailable``), or
    ``None`` where it does not say."""
    try:
        with open(meminfo, encoding="ascii") as lines:
            for line in lines:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def shared_memory_free(folder: str = SHM_DIR) -> int | None:
    """The free bytes of the file system shared memory blocks live in, or ``None``."""
    try:
        stats = os.statvfs(folder)
    except (OSError, AttributeError):
        return None
    return stats.f_bavail * stats.f_frsize


def hash_cap(megabytes: int, *, shared: bool, memory: int | None = None,
             shm: int | None = None) -> tuple[int, str | None]:
    """The megabytes a table of ``megabytes`` (the ``hash`` option) gets on this machine, and
    why it gets fewer (``None`` when it gets them all): at most :data:`MEMORY_SHARE` of the
    memory available (``memory``, read from the machine by default), and for a ``shared``
    table of the free space where its block lives (``shm``) too."""
    memory = available_memory() if memory is None else memory
    limits = [] if memory is None else [(memory, f"{memory // MEGABYTE:,} MB of memory available")]
    if shared:
        shm = shared_memory_free() if shm is None else shm
        if shm is not None:
            limits.append((shm, f"{shm // MEGABYTE:,} MB free in {SHM_DIR}"))
    if not limits:
        return megabytes, None
    room, why = min(limits)
    most = max(1, int(room * MEMORY_SHARE) // MEGABYTE)
    if megabytes <= most:
        return megabytes, None
    return most, (f"hash={megabytes:,} MB is more than this machine can hold ({why}): "
                  f"the table gets {most:,} MB")


def _release(address: int, length: int) -> bool:
    """Give the pages of a shared mapping back to the kernel (they read as zeros
    again, in every process that maps them); False where that cannot be done."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        madvise = ctypes.CDLL(None, use_errno=True).madvise
    except (OSError, AttributeError):  # pragma: no cover - a Linux without libc's madvise
        return False
    madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    return madvise(address, length, MADV_REMOVE) == 0


#: Slots of the busy list after the entries (a power of two).
BUSY_SLOTS = 1 << 14
#: Fibonacci hashing spreads keys whose low bits vary little (Quixo's are the board itself).
_MIX = 0x9E3779B97F4A7C15
_FRACTION = 16
_ONE = 1 << _FRACTION


def _attach(name: str) -> shared_memory.SharedMemory:
    """Map the block ``name`` without registering it with this process's
    resource tracker: only its maker removes it (Python before 3.13 registers
    every attachment, and a tracker of another process tree would remove the
    block when that process ends, under its maker's feet)."""
    register = resource_tracker.register
    resource_tracker.register = lambda *args, **kwargs: None
    try:
        return shared_memory.SharedMemory(name=name)
    finally:
        resource_tracker.register = register


class SharedTable:
    """A fixed-size transposition table other processes can attach to by :attr:`name`.

    ``SharedTable()`` creates the block (this object owns it and unlinks it in
    :meth:`close`); ``SharedTable(entries, name=...)`` attaches to one made
    elsewhere.  Before searching, :meth:`bind` the game whose moves it codes.
    """

    def __init__(self, entries: int = SHARED_ENTRIES, *, name: str | None = None) -> None:
        if entries < 1 or entries & (entries - 1):
            raise ValueError(f"a shared table's entries must be a power of two, not {entries}")
        size = (entries * WORDS + BUSY_SLOTS) * 8
        self.owner = name is None
        if self.owner:
            self.memory = shared_memory.SharedMemory(create=True, size=size)
        else:
            self.memory = _attach(name)  # type: ignore[arg-type]
        if self.memory.size < size:
            self.memory.close()
            raise ValueError(f"shared table {name} holds fewer than {entries} entries")
        self.entries = entries
        buffer = self.memory.buf
        if buffer is None:  # pragma: no cover - a block just opened has its buffer
            raise ValueError(f"shared table {name} is closed")
        #: The entries as numpy sees them (for clearing and inspection).
        self.array = np.ndarray((entries, WORDS), dtype=np.int64, buffer=buffer)
        #: The same words as a flat memoryview: indexing it gives Python ints, fast.
        self.words = buffer[: size].cast("q")
        #: The busy list: the hashes of positions some process is searching
        #: right now, one per slot (see :mod:`engines.search.parallel`).
        self.busy = self.words[entries * WORDS:]
        self.busy_mask = BUSY_SLOTS - 1
        self.shift = 64 - entries.bit_length() + 1
        self.mask = entries - 1
        self.game: Game | None = None
        #: Whether the block's name is gone (it lives on while mapped).
        self.unlinked = False
        #: A new block reads as zeros: nothing to clear, and nothing touched.

    @property
    def name(self) -> str:
        return self.memory.name

    def unlink(self) -> None:
        """Remove the block's name once every process has mapped it: the memory
        then lives exactly as long as some process maps it, and is freed when
        the last one ends, however it ends (no block is left in /dev/shm)."""
        if self.owner and not self.unlinked:
            self.memory.unlink()
            self.unlinked = True

    def bind(self, game: Game) -> None:
        """Code and decode moves with ``game`` (the position a search plays on)."""
        self.game = game

    def slot(self, key: Hashable) -> tuple[int, int]:
        """The hash of ``key`` and the index of its entry's first word."""
        h = hash(key)
        return h, ((h * _MIX) >> self.shift & self.mask) * WORDS

    def get(self, key: Hashable) -> tuple[int, int, float, Any] | None:
        """``(depth, bound, value, move)`` stored for ``key``, or ``None``."""
        h = hash(key)
        i = ((h * _MIX) >> self.shift & self.mask) * WORDS
        words = self.words
        check = words[i]
        value = words[i + 1]
        data = words[i + 2]
        if not data or check ^ value ^ data != h:
            return None
        code = (data >> 10) - 1
        move = None if code < 0 else self.game.move_from_code(code)  # type: ignore[union-attr]
        return (data & 255, data >> 8 & 3,
                value >> _FRACTION if not value & (_ONE - 1) else value / _ONE, move)

    def __setitem__(self, key: Hashable, entry: tuple[int, int, float, Any]) -> None:
        depth, bound, value, move = entry
        h = hash(key)
        i = ((h * _MIX) >> self.shift & self.mask) * WORDS
        code = -1 if move is None else self.game.move_code(move)  # type: ignore[union-attr]
        fixed = value << _FRACTION if type(value) is int else round(value * _ONE)
        data = (depth & 255) | bound << 8 | (code + 1) << 10
        words = self.words
        words[i + 1] = fixed
        words[i + 2] = data
        words[i] = h ^ fixed ^ data

    def clear(self) -> None:
        """Empty every entry and the busy list (no other process may be searching): the
        pages are given back to the kernel, which costs what was touched, not the
        table's size (zeros are written where that cannot be done)."""
        if not _release(self.array.ctypes.data, self.array.nbytes):
            self.array[:] = 0
        self.clear_busy()

    def clear_busy(self) -> None:
        """Forget every busy mark (left by a search that was stopped)."""
        np.ndarray((BUSY_SLOTS,), dtype=np.int64, buffer=self.memory.buf,
                   offset=self.entries * WORDS * 8)[:] = 0

    def used(self) -> float:
        """The share of entries holding something."""
        return float(np.count_nonzero(self.array[:, 2])) / self.entries

    def close(self) -> None:
        """Unmap the block (and remove it, in the process that made it)."""
        if self.words is None:
            return
        self.busy.release()
        self.words.release()
        self.words = None  # type: ignore[assignment]
        del self.array
        self.memory.close()
        self.unlink()

    def __del__(self) -> None:
        # Views first: the block cannot be unmapped while they point into it.
        if getattr(self, "words", None) is not None:
            self.close()

    def __enter__(self) -> SharedTable:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
