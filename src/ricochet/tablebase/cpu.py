"""The CPU build: one backward breadth-first layer per call, in parallel
over the active robot's cell (numba ``prange``; ``cache=True``).

Early layers *push*: each frontier position settles its predecessors.  Once
the unseen positions are few beside the frontier (see ``build.PULL_RATIO``)
the layers *pull*: each unseen position looks for a move into the frontier
(:func:`retro.reaches`) and settles itself — fewer checks for those layers,
and each byte is written by one thread only.

Layer ``k`` holds the positions whose byte is ``k``.  Each worker scans the
block of one active cell row by row (a row: the helpers above the lowest
fixed, so its bytes are contiguous and the lowest helper is the offset) and
expands every frontier position with :func:`retro.expand`, which writes
``k + 1`` into unseen predecessors.  A block is 1/N of the table, so the
helpers' moves stay in the block a worker is scanning (a few MiB, cached)
and the active robot's moves read the other blocks at about the same rank.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

from .. import jitcache
from . import compiled, retro

# The functions below inline retro.py's: an edit to it must compile them again.
jitcache.depends_on(__file__, retro.__file__)
# Inlined: calls are 2.5x slower.
R = compiled.load("cpu", njit(cache=True, inline="always"))
UNSEEN = R.UNSEEN
UNUSED = R.UNUSED


@njit(cache=True, inline="always")
def _row(table, k, m, a, start, length, u1, u2, B, nbr, binom, t, pull):  # type: ignore[no-untyped-def]
    """Process one row; return how many of its positions are in layer ``k``.
    Push: expand those positions.  Pull: settle the unseen positions that
    have a move into layer ``k``."""
    count = 0
    unseen = False
    for j in range(length):  # no early exit: the loop vectorises
        count += table[start + j] == k
        unseen |= table[start + j] == UNSEEN
    if not (unseen if pull else count):
        return count
    h1 = UNUSED if m < 2 else u1 + (u1 >= a)
    h2 = UNUSED if m < 3 else u2 + (u2 >= a)
    for j in range(length):
        h0 = UNUSED if m < 1 else j + (j >= a)
        if pull:
            # Only this thread writes this byte: no race.
            if table[start + j] == UNSEEN and R.reaches(table, k, m, a, h0, h1, h2, B, nbr, binom):
                table[start + j] = k + 1
        elif table[start + j] == k:
            R.expand(table, k, m, a, h0, h1, h2, B, nbr, binom, t)
    return count


@njit(cache=True)
def _row_any(table, k, m, a, start, length, u1, u2, B, nbr, binom, t, pull):  # type: ignore[no-untyped-def]
    """:func:`_row` as a call.  Inlined into a branch where the robot count
    is known, LLVM specialises the whole step for it (twice as fast); only the
    four-robot branch, the one that matters, gets that copy: each copy adds
    about 20 s of compiling."""
    return _row(table, k, m, a, start, length, u1, u2, B, nbr, binom, t, pull)


@njit(parallel=True, cache=True)
def layer(table, k, m, n, B, nbr, binom, order, t, counts, pull):  # type: ignore[no-untyped-def]
    """Settle layer ``k + 1`` from layer ``k``, pushing (predecessors of the
    frontier) or pulling (unseen positions with a move into it);
    ``counts[a]`` gets the size of layer ``k`` in block ``a``.  ``order``
    lists the blocks so that each thread's share mixes near and far ones."""
    for i in prange(n):
        a = order[i]
        base = a * B
        count = 0
        if m == 3:  # here LLVM knows m: the inlined step is specialised for four robots
            for u2 in range(2, n - 1):
                row = base + binom[u2, 3]
                for u1 in range(1, u2):
                    count += _row(table, k, m, a, row + binom[u1, 2], u1, u1, u2, B, nbr, binom, t, pull)
        elif m == 2:
            for u1 in range(1, n - 1):
                count += _row_any(table, k, m, a, base + binom[u1, 2], u1, u1, 0, B, nbr, binom, t, pull)
        else:
            count = _row_any(table, k, m, a, base, n - 1 if m == 1 else 1, 0, 0, B, nbr, binom, t, pull)
        counts[a] = count


# -- the vortex table (any robot, all robots interchangeable) ---------------------------
@njit(cache=True, inline="always")
def _vrow(table, k, r, start, length, c1, c2, c3, nbr, binom, t, pull):  # type: ignore[no-untyped-def]
    """:func:`_row` for the vortex table: a row fixes the upper cells, the
    lowest cell ``c0`` is the offset."""
    count = 0
    unseen = False
    for j in range(length):  # no early exit: the loop vectorises
        count += table[start + j] == k
        unseen |= table[start + j] == UNSEEN
    if not (unseen if pull else count):
        return count
    for c0 in range(length):
        if pull:
            if table[start + c0] == UNSEEN and R.vreaches(table, k, r, c0, c1, c2, c3, nbr, binom):
                table[start + c0] = k + 1
        elif table[start + c0] == k:
            R.vexpand(table, k, r, c0, c1, c2, c3, nbr, binom, t)
    return count


@njit(cache=True)
def _vrow_any(table, k, r, start, length, c1, c2, c3, nbr, binom, t, pull):  # type: ignore[no-untyped-def]
    """:func:`_vrow` as a call (only four robots get a specialised copy)."""
    return _vrow(table, k, r, start, length, c1, c2, c3, nbr, binom, t, pull)


def vunits(n: int, r: int, parts: int) -> np.ndarray:
    """The vortex table's work units, ``(u, v)`` pairs dealt round-robin into
    ``parts`` shares (see :func:`interleaved`): four robots, one unit per
    ``c3 = u, c2 = v``; three, per ``c2 = u``; two, the row ``c1 = u``; one,
    the whole table (``u = n``)."""
    if r == 4:
        units = [(u, v) for u in range(3, n) for v in range(2, u)]
    elif r == 3:
        units = [(u, 0) for u in range(2, n)]
    elif r == 2:
        units = [(u, 0) for u in range(1, n)]
    else:
        units = [(n, 0)]
    arr = np.array(units, dtype=np.int64).reshape(-1, 2)
    return arr[interleaved(len(arr), parts)]


@njit(parallel=True, cache=True)
def vlayer(table, k, r, nbr, binom, units, t, counts, pull):  # type: ignore[no-untyped-def]
    """:func:`layer` for the vortex table, over the units of :func:`vunits`;
    ``counts[i]`` gets the size of layer ``k`` in unit ``i``."""
    for i in prange(len(units)):
        u = units[i, 0]
        v = units[i, 1]
        count = 0
        if r == 4:  # specialised for four robots, as in layer()
            base = binom[u, 4] + binom[v, 3]
            for c1 in range(1, v):
                count += _vrow(table, k, 4, base + binom[c1, 2], c1, c1, v, u, nbr, binom, t, pull)
        elif r == 3:
            for c1 in range(1, u):
                count += _vrow_any(table, k, 3, binom[u, 3] + binom[c1, 2], c1, c1, u, UNUSED, nbr, binom, t, pull)
        elif r == 2:
            count = _vrow_any(table, k, 2, binom[u, 2], u, u, UNUSED, UNUSED, nbr, binom, t, pull)
        else:
            count = _vrow_any(table, k, 1, 0, u, UNUSED, UNUSED, UNUSED, nbr, binom, t, pull)
        counts[i] = count


@njit(parallel=True, cache=True)
def vgoals(table, r, binom, units, t):  # type: ignore[no-untyped-def]
    """Layer 0 of the vortex table: 0 for every position with a robot on
    ``t`` (the rest stays UNSEEN)."""
    for i in prange(len(units)):
        u = units[i, 0]
        v = units[i, 1]
        if r == 4:
            base = binom[u, 4] + binom[v, 3]
            for c1 in range(1, v):
                _vgoal_row(table, base + binom[c1, 2], c1, t, c1 == t or v == t or u == t)
        elif r == 3:
            for c1 in range(1, u):
                _vgoal_row(table, binom[u, 3] + binom[c1, 2], c1, t, c1 == t or u == t)
        elif r == 2:
            _vgoal_row(table, binom[u, 2], u, t, u == t)
        else:
            _vgoal_row(table, 0, u, t, False)


@njit(cache=True, inline="always")
def _vgoal_row(table, start, length, t, whole):  # type: ignore[no-untyped-def]
    if whole:
        table[start:start + length] = 0
    elif t < length:
        table[start + t] = 0


def threads() -> int:
    """The number of threads numba's parallel loops use."""
    return int(numba.get_num_threads())


def interleaved(n: int, parts: int) -> np.ndarray:
    """0..n-1 dealt round-robin into ``parts`` contiguous shares: ``prange``
    cuts its range into equal contiguous chunks, and neighbouring blocks have
    similar frontiers, so dealing them out balances the threads."""
    return np.concatenate([np.arange(p, n, parts) for p in range(max(1, parts))]).astype(np.int64)


@njit(parallel=True, cache=True)
def histogram(table):  # type: ignore[no-untyped-def]
    """How many bytes of ``table`` hold each value 0..255 (without the
    int64 copy ``np.bincount`` would make of a 650 MB table)."""
    parts = 64
    step = (len(table) + parts - 1) // parts
    counts = np.zeros((parts, 256), dtype=np.int64)
    for p in prange(parts):
        for i in range(p * step, min(len(table), (p + 1) * step)):
            counts[p, table[i]] += 1
    return counts.sum(axis=0)
