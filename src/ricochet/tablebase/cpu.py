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
