"""The retrograde step, written once in plain Python and compiled twice: for
the CPU by :mod:`ricochet.tablebase.cpu` (numba ``njit``) and for the GPU by
:mod:`ricochet.tablebase.gpu` (numba-cuda device functions).  Every function
takes and returns scalars only (no arrays are created), which is what lets
one source serve both targets; see :func:`ricochet.tablebase.compiled.load`.

Cells are *free-cell numbers* ``0..N-1`` (the board's cells a robot can
stand on, row-major).  ``nbr[c, d]`` is the free cell next to ``c`` in
direction ``d`` (0..3 = N, E, S, W) when no wall separates them, else -1.

A position is the active robot's cell ``a`` and up to three helper cells
``h0 < h1 < h2`` (helpers are interchangeable; an unused slot holds
:data:`UNUSED`, above every cell).  Its index is ``a * B + rank`` where the
rank is the colex rank of the helpers renumbered to skip ``a``
(``h - (h > a)``): a perfect index, ``B = C(N - 1, m)`` for ``m`` helpers.

>>> import numpy as np
>>> binom = binomials(6)
>>> int(rank(2, 3, 1, 5, UNUSED, binom))    # helpers 1 and 5 skip a=3: 1 and 4, C(1,1) + C(4,2)
7
>>> [int(h) for h in unrank(7, 2, 3, 6, binom)[:2]]
[1, 5]
"""

from __future__ import annotations

import numpy as np

UNSEEN = 255
"""A table byte for a position not (yet) known to reach the target."""
UNUSED = 1 << 20
"""An empty helper slot: greater than every cell, never equal to one."""
PAGE = 12
"""Settling index ``i`` marks page ``i >> PAGE`` (4 KiB) in a flag array: the
next layer scans only the rows of marked pages."""


def binomials(n: int) -> np.ndarray:
    """``binom[x, j] = C(x, j)`` for ``x <= n``, ``j <= 4`` (int64)."""
    out = np.zeros((n + 1, 5), dtype=np.int64)
    for x in range(n + 1):
        out[x, 0] = 1
        for j in range(1, 5):
            out[x, j] = out[x - 1, j - 1] + out[x - 1, j] if x > 0 else 0
    return out


def rank(m, a, h0, h1, h2, binom):  # type: ignore[no-untyped-def]
    """The colex rank of the sorted helpers ``h0 < h1 < h2`` (first ``m``
    used), each renumbered to skip the active robot's cell ``a``."""
    r = 0
    if m > 0:
        r += binom[h0 - (h0 > a), 1]
    if m > 1:
        r += binom[h1 - (h1 > a), 2]
    if m > 2:
        r += binom[h2 - (h2 > a), 3]
    return r


def _top(r, j, hi, binom):  # type: ignore[no-untyped-def]
    """The largest ``x < hi`` with ``C(x, j) <= r`` (binary search)."""
    lo = j - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if binom[mid, j] <= r:
            lo = mid
        else:
            hi = mid
    return lo


def unrank(r, m, a, n, binom):  # type: ignore[no-untyped-def]
    """The helpers ``(h0, h1, h2)`` of rank ``r`` beside active cell ``a`` on
    ``n`` free cells (the inverse of :func:`rank`)."""
    h0 = UNUSED
    h1 = UNUSED
    h2 = UNUSED
    hi = n - 1
    if m > 2:
        x = _top(r, 3, hi, binom)
        r -= binom[x, 3]
        h2 = x + (x >= a)
        hi = x
    if m > 1:
        x = _top(r, 2, hi, binom)
        r -= binom[x, 2]
        h1 = x + (x >= a)
        hi = x
    if m > 0:
        h0 = r + (r >= a)
    return h0, h1, h2


def sort3(x, y, z):  # type: ignore[no-untyped-def]
    """Three values in ascending order (UNUSED slots stay last)."""
    if x > y:
        x, y = y, x
    if y > z:
        y, z = z, y
    if x > y:
        x, y = y, x
    return x, y, z


def slot(j, a, h0, h1, h2):  # type: ignore[no-untyped-def]
    """The cell of robot slot ``j``: 0 the active robot, 1.. the helpers."""
    if j == 0:
        return a
    if j == 1:
        return h0
    if j == 2:
        return h1
    return h2


def occupied(c, a, h0, h1, h2):  # type: ignore[no-untyped-def]
    """Is free cell ``c`` taken by a robot?"""
    return c == a or c == h0 or c == h1 or c == h2


def moved(m, a, h0, h1, h2, s, j, B, binom):  # type: ignore[no-untyped-def]
    """The index of the position where robot slot ``j`` (0 = active, 1.. =
    helpers) stands on ``s`` instead of its cell."""
    if j == 0:
        return s * B + rank(m, s, h0, h1, h2, binom)
    if j == 1:
        x, y, z = sort3(s, h1, h2)
    elif j == 2:
        x, y, z = sort3(h0, s, h2)
    else:
        x, y, z = sort3(h0, h1, s)
    return a * B + rank(m, a, x, y, z, binom)


def mark(table, k, idx, flags):  # type: ignore[no-untyped-def]
    """Settle index ``idx`` at ``k + 1`` if it is unseen, and flag its page."""
    # Two threads may both see UNSEEN and both write k + 1: the same byte, so
    # the race is benign and the table does not depend on the interleaving.
    i = np.uint64(idx)  # unsigned: no wrap-around test for a negative index
    if table[i] == UNSEEN:
        table[i] = k + 1
        flags[i >> np.uint64(PAGE)] = 1


def settle(table, k, m, a, h0, h1, h2, s, j, B, binom, flags):  # type: ignore[no-untyped-def]
    """Mark at ``k + 1`` (when unseen) the position where robot slot ``j``
    stood on ``s`` instead of its cell."""
    mark(table, k, moved(m, a, h0, h1, h2, s, j, B, binom), flags)


def expand(table, k, m, a, h0, h1, h2, B, nbr, binom, t, flags):  # type: ignore[no-untyped-def]
    """Settle every unseen predecessor of the position (a, h0, h1, h2) at
    ``k + 1``.  A robot on cell ``c`` can have arrived there moving ``d``
    only if it is blocked there (a wall, or a robot on the next cell); it then
    came from any cell of the free ray behind it, up to a wall or a robot.
    With the active robot on the target ``t`` only its own moves are undone:
    a helper's move would lead back to another goal position."""
    movers = 1 if a == t else m + 1
    for j in range(movers):
        c = slot(j, a, h0, h1, h2)
        for d in range(4):
            ahead = nbr[c, d]
            if ahead >= 0 and not occupied(ahead, a, h0, h1, h2):
                continue
            back = (d + 2) % 4
            s = nbr[c, back]
            while s >= 0 and not occupied(s, a, h0, h1, h2):
                settle(table, k, m, a, h0, h1, h2, s, j, B, binom, flags)
                s = nbr[s, back]


def reaches(table, k, m, a, h0, h1, h2, B, nbr, binom):  # type: ignore[no-untyped-def]
    """Does one move lead from the position (a, h0, h1, h2) into layer ``k``?
    (The forward test of a pull layer: slide each robot each way.)"""
    for j in range(m + 1):
        c = slot(j, a, h0, h1, h2)
        for d in range(4):
            s = c
            n = nbr[s, d]
            while n >= 0 and not occupied(n, a, h0, h1, h2):
                s = n
                n = nbr[s, d]
            if s != c and table[moved(m, a, h0, h1, h2, s, j, B, binom)] == k:
                return True
    return False


# -- the vortex table: any robot may reach the target, so all robots are
# interchangeable.  A position is the sorted cells c0 < c1 < c2 < c3 of its
# r robots (unused slots UNUSED); its index is the colex rank
# C(c0, 1) + C(c1, 2) + C(c2, 3) + C(c3, 4): a perfect index of C(N, r).

def vrank(r, c0, c1, c2, c3, binom):  # type: ignore[no-untyped-def]
    """The colex rank of the sorted cells (first ``r`` used)."""
    x = binom[c0, 1]
    if r > 1:
        x += binom[c1, 2]
    if r > 2:
        x += binom[c2, 3]
    if r > 3:
        x += binom[c3, 4]
    return x


def vunrank(x, r, n, binom):  # type: ignore[no-untyped-def]
    """The sorted cells ``(c0, c1, c2, c3)`` of rank ``x`` on ``n`` free
    cells (the inverse of :func:`vrank`)."""
    c1 = UNUSED
    c2 = UNUSED
    c3 = UNUSED
    hi = n
    if r > 3:
        c3 = _top(x, 4, hi, binom)
        x -= binom[c3, 4]
        hi = c3
    if r > 2:
        c2 = _top(x, 3, hi, binom)
        x -= binom[c2, 3]
        hi = c2
    if r > 1:
        c1 = _top(x, 2, hi, binom)
        x -= binom[c1, 2]
    return x, c1, c2, c3


def vmoved(r, c0, c1, c2, c3, s, j, binom):  # type: ignore[no-untyped-def]
    """The index of the position where the robot of slot ``j`` stands on
    ``s`` instead: the others stay sorted, ``s`` is put in its place."""
    if j == 0:
        x, y, z = c1, c2, c3
    elif j == 1:
        x, y, z = c0, c2, c3
    elif j == 2:
        x, y, z = c0, c1, c3
    else:
        x, y, z = c0, c1, c2
    if s < x:
        return vrank(r, s, x, y, z, binom)
    if s < y:
        return vrank(r, x, s, y, z, binom)
    if s < z:
        return vrank(r, x, y, s, z, binom)
    return vrank(r, x, y, z, s, binom)


def vexpand(table, k, r, c0, c1, c2, c3, nbr, binom, t, flags):  # type: ignore[no-untyped-def]
    """Settle every unseen predecessor of the sorted position at ``k + 1``
    (as :func:`expand`, every robot being a candidate).  With a robot on the
    target only that robot's moves are undone: any other robot's would lead
    back to a position with a robot on the target (layer 0)."""
    on = -1
    for j in range(r):
        if slot(j, c0, c1, c2, c3) == t:
            on = j
    for j in range(r):
        if on >= 0 and j != on:
            continue
        c = slot(j, c0, c1, c2, c3)
        for d in range(4):
            ahead = nbr[c, d]
            if ahead >= 0 and not occupied(ahead, c0, c1, c2, c3):
                continue
            back = (d + 2) % 4
            s = nbr[c, back]
            while s >= 0 and not occupied(s, c0, c1, c2, c3):
                mark(table, k, vmoved(r, c0, c1, c2, c3, s, j, binom), flags)
                s = nbr[s, back]


def vreaches(table, k, r, c0, c1, c2, c3, nbr, binom):  # type: ignore[no-untyped-def]
    """Does one move lead from the sorted position into layer ``k``?"""
    for j in range(r):
        c = slot(j, c0, c1, c2, c3)
        for d in range(4):
            s = c
            n = nbr[s, d]
            while n >= 0 and not occupied(n, c0, c1, c2, c3):
                s = n
                n = nbr[s, d]
            if s != c and table[vmoved(r, c0, c1, c2, c3, s, j, binom)] == k:
                return True
    return False


DEVICE_FUNCTIONS = ("rank", "_top", "unrank", "sort3", "slot", "occupied", "moved", "mark", "settle", "expand",
                    "reaches",
                    "vrank", "vunrank", "vmoved", "vexpand", "vreaches")
"""The functions compiled for a target (CPU or GPU), in dependency order."""
