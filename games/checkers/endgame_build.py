"""Building the checkers endgame database by retrograde analysis, and checking it against itself.

The signatures are built in order: fewer pieces first, and within one number of pieces fewer men
first, so that whatever a capture or a crowning leads to is already known.  A signature and its
mirror (the same material with the other side to move: ``(a, b, c, d)`` and ``(c, d, a, b)``) lead
into each other by quiet moves and are solved together:

1. every position of both is decoded from its index (:func:`games.checkers.endgame.decode`) into
   arrays of squares; the positions with a capture (compulsory) get their value at once from their
   successors, which have fewer pieces (a loop in Python over those positions only);
2. every quiet move of every other position is made at once with numpy, one piece and one
   direction at a time, and its successor's index computed: an edge into the mirror table, or a
   fixed value when a man is crowned (a signature built before); a position without a move is lost;
3. then ply by ply, ``n = 1, 2, ...``: an unknown position is won in ``n`` plies when a successor is
   lost in ``n - 1``, and lost in ``n`` when every successor is won in at most ``n - 1``; when a ply
   settles nothing more (and no known value is further away) what is left is drawn.

:func:`check` runs the self-consistency pass: every position's code is recomputed from its
successors' codes (the best of them, a win quickest, a loss longest) and must be the stored one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from .bitboards import DL3, DL4, DR4, DR5, UL4, UL5, UR3, UR4, square_at, square_coords
from .endgame import (
    EndgameError,
    Signature,
    child_code,
    code_score,
    decode,
    encode,
    file_name,
    index_of,
    load,
    flip_array,
    masks_of,
    save,
    signature_size,
    signatures,
    successors,
)

__all__ = ["BuildReport", "build", "build_saying", "check", "check_signature", "solve_pair"]

#: A code not settled yet (above any real code).
UNKNOWN = 1 << 20
#: ``NEXT[d, s]``: the square next to ``s`` in direction ``d`` (down-left, down-right, up-left,
#: up-right), 0 off the board.
NEXT = np.zeros((4, 33), dtype=np.int64)
for _d, (_dr, _dc) in enumerate(((1, -1), (1, 1), (-1, -1), (-1, 1))):
    for _s in range(1, 33):
        _row, _col = square_coords(_s)
        NEXT[_d, _s] = square_at(_row + _dr, _col + _dc)

Tables = dict[Signature, np.ndarray]


@dataclass
class BuildReport:
    """What a build did: per number of pieces, the positions (legal, mover as Black), the seconds
    taken, and the bytes written."""

    positions: dict[int, int] = field(default_factory=dict)
    seconds: dict[int, float] = field(default_factory=dict)
    bytes: dict[int, int] = field(default_factory=dict)
    reused: int = 0
    longest: int = 0  # the longest win, in plies


def mirror(sig: Signature) -> Signature:
    return (sig[2], sig[3], sig[0], sig[1])


def _popcount(masks: np.ndarray) -> np.ndarray:
    return np.bitwise_count(masks.astype(np.uint64)).astype(np.int64)


def _jumpers(own: np.ndarray, opp: np.ndarray, kings: np.ndarray) -> np.ndarray:
    """Whether the mover (Black's way: men down) has a capture, by shifts over arrays of masks."""
    empty = ~(own | opp) & 0xFFFFFFFF
    down, up = own, own & kings
    t = (((empty & UR4) >> 4) | ((empty & UR3) >> 3)) & opp
    u = (((empty & UL4) >> 4) | ((empty & UL5) >> 5)) & opp
    jumpers = (((t & UR4) >> 4) | ((t & UR3) >> 3) | ((u & UL4) >> 4) | ((u & UL5) >> 5)) & down
    t = (((empty & DR4) << 4) | ((empty & DR5) << 5)) & opp
    u = (((empty & DL4) << 4) | ((empty & DL3) << 3)) & opp
    jumpers |= (((t & DR4) << 4) | ((t & DR5) << 5) | ((u & DL4) << 4) | ((u & DL3) << 3)) & up
    return jumpers != 0


def _lookup(tables: Tables, own: int, opp: int, kings: int) -> int:
    if not own:
        return -1
    sig, index = index_of(own, opp, kings)
    return int(tables[sig][index])


def capture_code(tables: Tables, own: int, opp: int, kings: int) -> int:
    """The code of a position from its successors' codes (looked up in ``tables``): the best move's."""
    best = None
    for (c_own, c_opp, c_kings), _move in successors(own, opp, kings):
        code = child_code(_lookup(tables, c_own, c_opp, c_kings))
        if best is None or code_score(code) > code_score(best):
            best = code
    return -1 if best is None else best


def _parent_codes(child: np.ndarray) -> np.ndarray:
    """:func:`~games.checkers.endgame.child_code` over an array: successors' codes as their movers'."""
    return np.where(child > 0, -(child + 1), np.where(child < 0, -child + 1, 0))


def _scores(codes: np.ndarray) -> np.ndarray:
    """:func:`~games.checkers.endgame.code_score` over an array (:func:`_codes` takes it back)."""
    return np.where(codes > 0, 10_000 - codes, np.where(codes < 0, -10_000 - codes, 0))


def _codes(scores: np.ndarray) -> np.ndarray:
    return np.where(scores > 0, 10_000 - scores, np.where(scores < 0, -10_000 - scores, 0))


def _bits_to_squares(masks: np.ndarray, count: int) -> np.ndarray:
    """The squares (1-32, ascending) of masks that each hold ``count`` bits."""
    out = np.zeros((masks.size, count), dtype=np.int64)
    filled = np.zeros(masks.size, dtype=np.int64)
    for bit in range(32):
        on = np.flatnonzero((masks >> bit) & 1)
        out[on, filled[on]] = bit + 1
        filled[on] += 1
    return out


def lookup_many(tables: Tables, own: np.ndarray, opp: np.ndarray, kings: np.ndarray) -> np.ndarray:
    """The codes of positions given by masks (the mover as Black), of any signatures in ``tables``."""
    groups = (own & ~kings, own & kings, opp & ~kings, opp & kings)
    counts = np.stack([_popcount(g) for g in groups], axis=1)
    codes = np.full(own.size, -1, dtype=np.int64)  # no piece left: lost now
    key = counts @ np.array([1000, 100, 10, 1])
    for value in np.unique(key[(counts[:, 0] + counts[:, 1]) > 0]):
        at = np.flatnonzero(key == value)
        sig: Signature = (int(counts[at[0], 0]), int(counts[at[0], 1]), int(counts[at[0], 2]), int(counts[at[0], 3]))
        squares = [_bits_to_squares(g[at], k) for g, k in zip(groups, sig)]
        codes[at] = tables[sig][encode(sig, squares)]
    return codes


def capture_codes(tables: Tables, men: np.ndarray, kings_at: np.ndarray, own: np.ndarray, opp: np.ndarray,
                  kings: np.ndarray) -> np.ndarray:
    """The codes of positions with a capture, from every jump sequence of every piece, all followed at
    once with arrays: the best successor's code for each position (they all have fewer pieces)."""
    rows = np.arange(own.size)
    starts = np.concatenate([men, kings_at], axis=1)
    is_king = np.concatenate([np.zeros_like(men, dtype=bool), np.ones_like(kings_at, dtype=bool)], axis=1)
    row = np.repeat(rows, starts.shape[1])
    start, king = starts.reshape(-1), is_king.reshape(-1)
    square, captured = start.copy(), np.zeros(start.size, dtype=np.int64)
    jumped = np.zeros(start.size, dtype=bool)
    best = np.full(own.size, np.iinfo(np.int64).min, dtype=np.int64)
    while row.size:
        blocked = (own[row] ^ (np.int64(1) << (start - 1))) | opp[row]
        more = np.zeros(row.size, dtype=bool)
        grown = []
        for direction in range(4):
            mid = NEXT[direction][square]
            land = NEXT[direction][mid]
            ok = (mid > 0) & (land > 0) & (king | (direction < 2))
            ok &= ((opp[row] & ~captured) >> np.maximum(mid - 1, 0)) & 1 == 1
            ok &= (blocked >> np.maximum(land - 1, 0)) & 1 == 0
            more |= ok
            at = np.flatnonzero(ok)
            grown.append((at, land[at], captured[at] | (np.int64(1) << (mid[at] - 1))))
        done = np.flatnonzero(jumped & ~more)
        if done.size:
            r, end, taken = row[done], np.int64(1) << (square[done] - 1), captured[done]
            begin = np.int64(1) << (start[done] - 1)
            new_own = (own[r] & ~begin) | end
            new_kings = kings[r] & ~taken & ~begin
            new_kings |= np.where(king[done] | (square[done] >= 29), end, 0)
            child = lookup_many(tables, flip_array(opp[r] & ~taken), flip_array(new_own), flip_array(new_kings))
            np.maximum.at(best, r, _scores(_parent_codes(child)))
        at = np.concatenate([g[0] for g in grown])
        land = np.concatenate([g[1] for g in grown])
        taken = np.concatenate([g[2] for g in grown])
        crowned = ~king[at] & (land >= 29)  # a man crowned ends its move
        if crowned.any():
            c = at[crowned]
            r, end, begin = row[c], np.int64(1) << (land[crowned] - 1), np.int64(1) << (start[c] - 1)
            new_kings = (kings[r] & ~taken[crowned] & ~begin) | end
            child = lookup_many(tables, flip_array(opp[r] & ~taken[crowned]), flip_array((own[r] & ~begin) | end),
                                flip_array(new_kings))
            np.maximum.at(best, r, _scores(_parent_codes(child)))
        go = ~crowned
        at, land, taken = at[go], land[go], taken[go]
        row, start, king, square, captured = row[at], start[at], king[at], land, taken
        jumped = np.ones(row.size, dtype=bool)
    return _codes(best)


@dataclass
class Quiet:
    """The quiet moves of a table's positions: edges into the mirror table (``parent``,
    ``child``) and fixed successors' codes already seen from the parent's side (``fixed_parent``,
    ``fixed_code``)."""

    parent: np.ndarray
    child: np.ndarray
    fixed_parent: np.ndarray
    fixed_code: np.ndarray


def _sorted(squares: np.ndarray) -> np.ndarray:
    return np.sort(squares, axis=1)


def quiet_moves(sig: Signature, index: np.ndarray, groups: list[np.ndarray], occupied: np.ndarray,
                tables: Tables) -> Quiet:
    """Every step of every piece of the positions ``index`` (none of which has a capture)."""
    men, kings, opp_men, opp_kings = groups
    turned = [33 - opp_men[:, ::-1], 33 - opp_kings[:, ::-1]]  # the successor's mover, as it sees itself
    back_men, back_kings = 33 - men[:, ::-1], 33 - kings[:, ::-1]
    promoted_sig = (sig[2], sig[3], sig[0] - 1, sig[1] + 1)
    parents, children, fixed_parents, fixed_codes = [], [], [], []

    def step(slot: np.ndarray, direction: int) -> tuple[np.ndarray, np.ndarray]:
        target = NEXT[direction][slot]
        free = (target > 0) & (((occupied >> np.maximum(target - 1, 0)) & 1) == 0)
        return target, free

    for i in range(sig[0]):
        for direction in (0, 1):
            target, free = step(men[:, i], direction)
            crowned = free & (target >= 29)
            quiet = free & ~crowned
            if quiet.any():
                moved = men[quiet].copy()
                moved[:, i] = target[quiet]
                child = encode(mirror(sig), [turned[0][quiet], turned[1][quiet],
                                             _sorted(33 - moved), back_kings[quiet]])
                parents.append(index[quiet])
                children.append(child)
            if crowned.any():
                left = np.delete(men[crowned], i, axis=1)
                new_kings = _sorted(np.concatenate([kings[crowned], target[crowned, None]], axis=1))
                child = encode(promoted_sig, [turned[0][crowned], turned[1][crowned],
                                              _sorted(33 - left), _sorted(33 - new_kings)])
                fixed_parents.append(index[crowned])
                fixed_codes.append(tables[promoted_sig][child].astype(np.int64))
    for j in range(sig[1]):
        for direction in range(4):
            target, free = step(kings[:, j], direction)
            if free.any():
                moved = kings[free].copy()
                moved[:, j] = target[free]
                child = encode(mirror(sig), [turned[0][free], turned[1][free], back_men[free], _sorted(33 - moved)])
                parents.append(index[free])
                children.append(child)
    empty = np.zeros(0, dtype=np.int64)
    fixed = np.concatenate(fixed_codes) if fixed_codes else empty
    # a successor's code seen from the side that moved into it
    fixed = _parent_codes(fixed)
    return Quiet(np.concatenate(parents) if parents else empty, np.concatenate(children) if children else empty,
                 np.concatenate(fixed_parents) if fixed_parents else empty, fixed)


def positions(sig: Signature) -> tuple[np.ndarray, list[np.ndarray], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The legal positions of ``sig``: their indices, groups, masks (mover, opponent, kings, all)."""
    index = np.arange(signature_size(sig), dtype=np.int64)
    groups = decode(sig, index)
    own, opp, kings, occupied = masks_of(groups)
    legal = _popcount(occupied) == sum(sig)
    return index[legal], [g[legal] for g in groups], own[legal], opp[legal], kings[legal], occupied[legal]


def prepare(sig: Signature, tables: Tables) -> tuple[np.ndarray, np.ndarray, Quiet]:
    """A table's codes so far (captures and positions without a move settled, the rest
    :data:`UNKNOWN`, illegal entries 0), the legal indices and the quiet moves of the rest."""
    index, groups, own, opp, kings, occupied = positions(sig)
    codes = np.zeros(signature_size(sig), dtype=np.int64)
    codes[index] = UNKNOWN
    jumps = _jumpers(own, opp, kings)
    at = np.flatnonzero(jumps)
    codes[index[at]] = capture_codes(tables, groups[0][at], groups[1][at], own[at], opp[at], kings[at])
    quiet = ~jumps
    moves = quiet_moves(sig, index[quiet], [g[quiet] for g in groups], occupied[quiet], tables)
    degree = np.bincount(moves.parent, minlength=codes.size) + np.bincount(moves.fixed_parent, minlength=codes.size)
    stuck = (codes == UNKNOWN) & (degree == 0)
    codes[stuck] = -1
    return codes, index, moves


def _buckets(index: np.ndarray, codes: np.ndarray) -> dict[int, list[np.ndarray]]:
    """``index`` grouped by the size of its ``codes`` (a distance plus one)."""
    out: dict[int, list[np.ndarray]] = {}
    sizes = np.abs(codes)
    order = np.argsort(sizes, kind="stable")
    index, sizes = index[order], sizes[order]
    bounds = np.flatnonzero(np.diff(sizes)) + 1
    for part, size in zip(np.split(index, bounds), np.split(sizes, bounds)):
        if part.size:
            out.setdefault(int(size[0]), []).append(part)
    return out


def _edges_into(child_sorted: np.ndarray, parent_sorted: np.ndarray, fresh: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The edges (parent, child) whose child is in ``fresh``, from edges sorted by child."""
    low = np.searchsorted(child_sorted, fresh, side="left")
    high = np.searchsorted(child_sorted, fresh, side="right")
    counts = high - low
    total = int(counts.sum())
    if not total:
        return parent_sorted[:0], child_sorted[:0]
    starts = np.repeat(low - np.cumsum(counts) + counts, counts)
    at = starts + np.arange(total)
    return parent_sorted[at], child_sorted[at]


def solve_pair(sigs: list[Signature], tables: Tables) -> None:
    """Solve a signature and its mirror together (one table when it is its own mirror), into ``tables``.

    Retrograde by distance: ``fresh`` positions are those whose value is ``n - 1`` plies from the end;
    at ply ``n`` each of their predecessors is won (the fresh one lost) or has one successor fewer
    left to refute (the fresh one won) -- when none is left it is lost in ``n``."""
    codes, remaining, by_child, pending, fixed = {}, {}, {}, {}, {}
    for sig in sigs:
        codes[sig], index, moves = prepare(sig, tables)
        size = codes[sig].size
        remaining[sig] = (np.bincount(moves.parent, minlength=size)
                          + np.bincount(moves.fixed_parent, minlength=size))
        order = np.argsort(moves.child, kind="stable")
        by_child[sig] = (moves.child[order], moves.parent[order])
        known = index[(codes[sig][index] != UNKNOWN) & (codes[sig][index] != 0)]  # a draw frees no one
        pending[sig] = _buckets(known, codes[sig][known])
        # a crowning's code is the parent's side already: a win in n plies (code n + 1) counts at ply n
        fixed_codes = _buckets(np.flatnonzero(moves.fixed_code), moves.fixed_code[moves.fixed_code != 0])
        fixed[sig] = {size - 1: (moves.fixed_parent[np.concatenate(parts)], moves.fixed_code[np.concatenate(parts)])
                      for size, parts in fixed_codes.items()}
    n = 0
    while any(pending[sig] for sig in sigs) or any(fixed[sig] for sig in sigs):
        n += 1
        for sig in sigs:
            partner = mirror(sig)
            mine = codes[sig]
            parts = pending[partner].pop(n, [])
            fresh = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
            parent, child = _edges_into(*by_child[sig], np.sort(fresh))
            seen = codes[partner][child]
            won = parent[seen == -n]
            refuted = parent[seen == n]
            if n in fixed[sig]:
                f_parent, f_code = fixed[sig].pop(n)
                won = np.concatenate([won, f_parent[f_code == n + 1]])
                refuted = np.concatenate([refuted, f_parent[f_code == -(n + 1)]])
            won = np.unique(won[mine[won] == UNKNOWN])
            mine[won] = n + 1
            np.subtract.at(remaining[sig], refuted, 1)
            lost = np.unique(refuted[(remaining[sig][refuted] == 0) & (mine[refuted] == UNKNOWN)])
            mine[lost] = -(n + 1)
            settled = np.concatenate([won, lost])
            if settled.size:
                pending[sig].setdefault(n + 1, []).append(settled)
    for sig in sigs:
        final = codes[sig]
        final[final == UNKNOWN] = 0
        if np.abs(final).max(initial=0) >= 1 << 15:
            raise EndgameError(f"a distance in {sig} does not fit the format")
        tables[sig] = final.astype(np.int16)

def pairs(pieces: int) -> list[list[Signature]]:
    """The signatures of ``pieces`` pieces in build order, each with its mirror."""
    out: list[list[Signature]] = []
    seen: set[Signature] = set()
    for sig in signatures(pieces):
        if sig not in seen:
            group = [sig] if mirror(sig) == sig else [sig, mirror(sig)]
            seen.update(group)
            out.append(group)
    return out


def build(directory: Path, pieces: int, say: Callable[[str], object] = lambda _text: None) -> BuildReport:
    """Build every signature of up to ``pieces`` pieces into ``directory``; a file already there
    that reads back and checks is used as it is (never written over), so a stopped build resumes."""
    directory.mkdir(parents=True, exist_ok=True)
    tables: Tables = {}
    report = BuildReport()
    for n in range(2, pieces + 1):
        start = time.perf_counter()
        count = 0
        for group in pairs(n):
            paths = [directory / file_name(sig) for sig in group]
            if all(path.exists() for path in paths):
                for sig, path in zip(group, paths):
                    tables[sig] = load(path, sig)
                report.reused += len(group)
            else:
                solve_pair(group, tables)
                for sig, path in zip(group, paths):
                    if path.exists():
                        if not np.array_equal(load(path, sig), tables[sig]):
                            raise EndgameError(f"{path}: differs from what was built; move it away and build again")
                    else:
                        save(path, sig, tables[sig])
            for sig, path in zip(group, paths):
                count += _legal_count(sig)
                report.bytes[n] = report.bytes.get(n, 0) + path.stat().st_size
                report.longest = max(report.longest, int(tables[sig].max(initial=0)) - 1)
            say(f"{n} pieces: {', '.join(''.join(map(str, sig)) for sig in group)} done")
        report.positions[n] = count
        report.seconds[n] = time.perf_counter() - start
    return report


def build_saying(directory: Path, pieces: int, say: Callable[[str], object]) -> BuildReport:
    """:func:`build`, then one line per number of pieces: positions, seconds, bytes on disk."""
    report = build(directory, pieces, say)
    for n, count in report.positions.items():
        say(f"{n} pieces: {count:,} positions (side to move as Black), {report.seconds[n]:.1f} s, "
            f"{report.bytes[n]:,} bytes")
    say(f"longest win: {report.longest} plies; {report.reused} files kept as they were; in {directory}")
    return report


def _legal_count(sig: Signature) -> int:
    """The legal positions of ``sig`` (the mover as Black), counted without decoding them."""
    from math import comb

    sm, sk, om, ok = sig
    total = 0
    # the mover's men on 1-28 and the opponent's on 5-32: count by how many of each stand on 5-28
    for a in range(sm + 1):  # mover's men on 5-28
        for b in range(om + 1):  # opponent's men on 5-28
            ways = comb(4, sm - a) * comb(24, a) * comb(24 - a, b) * comb(4, om - b)
            free = 32 - sm - om
            total += ways * comb(free, sk) * comb(free - sk, ok)
    return total


def check(directory: Path, pieces: int, say: Callable[[str], object] = lambda _text: None) -> int:
    """The self-consistency pass over every signature of up to ``pieces`` pieces in ``directory``:
    every legal position's code must be the best of its successors' (a position without a move
    lost now).  Returns the positions checked; :class:`EndgameError` (one line) on the first wrong one."""
    tables: Tables = {}
    checked = 0
    for n in range(2, pieces + 1):
        for sig in signatures(n):
            tables[sig] = load(directory / file_name(sig), sig)
        for sig in signatures(n):
            checked += check_signature(sig, tables)
        say(f"{n} pieces: {checked:,} positions agree with their successors")
    return checked


def check_signature(sig: Signature, tables: Tables) -> int:
    """Check one signature's codes against its successors' (in ``tables``, with everything it leads
    to); the positions checked, or :class:`EndgameError` naming the first wrong entry."""
    codes = tables[sig]
    index, groups, own, opp, kings, occupied = positions(sig)
    expected = np.full(codes.size, np.iinfo(np.int64).min, dtype=np.int64)
    jumps = _jumpers(own, opp, kings)
    at = np.flatnonzero(jumps)
    expected[index[at]] = capture_codes(tables, groups[0][at], groups[1][at], own[at], opp[at], kings[at])
    quiet = ~jumps
    moves = quiet_moves(sig, index[quiet], [g[quiet] for g in groups], occupied[quiet], tables)
    parent = np.concatenate([moves.parent, moves.fixed_parent])
    code = np.concatenate([_parent_codes(tables[mirror(sig)][moves.child].astype(np.int64)), moves.fixed_code])
    best = np.full(codes.size, np.iinfo(np.int64).min, dtype=np.int64)
    np.maximum.at(best, parent, _scores(code))
    steps = index[quiet]
    expected[steps] = np.where(best[steps] == np.iinfo(np.int64).min, -1, _codes(best[steps]))
    wrong = np.flatnonzero(expected[index] != codes[index])
    if wrong.size:
        entry = int(index[wrong[0]])
        raise EndgameError(f"{file_name(sig)}: entry {entry} holds {int(codes[entry])}, its successors "
                           f"say {int(expected[entry])}")
    return int(index.size)
