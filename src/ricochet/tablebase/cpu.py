"""The CPU build: one backward breadth-first layer per call, in parallel
over work units of the table (numba ``prange``; ``cache=True``).

Early layers *push*: each frontier position settles its predecessors.  Once
the unseen positions are few beside the frontier (see ``build.PULL_RATIO``)
the layers *pull*: each unseen position looks for a move into the frontier
(:func:`retro.reaches`) and settles itself — fewer checks for those layers,
and each byte is written by one thread only.

Layer ``k`` holds the positions whose byte is ``k``.  A unit is a block (the
positions of one active-robot cell) or, for layer 0 whose frontier is the
target's block alone, a slice of that block.  A worker scans its unit row by
row (a row: the helpers above the lowest fixed, so its bytes are contiguous
and the lowest helper is the offset).  A block is 1/N of the table, so the
helpers' moves stay in the block a worker is scanning (a few MiB, cached)
and the active robot's moves read the other blocks at about the same rank.

**Page flags** spare the scan of rows with nothing to do: settling a byte
flags its 4 KiB page (``retro.mark``), and the next push layer reads only the
rows of flagged pages (``cur``; ``nxt`` collects the flags for the layer
after).  Pulling, ``cur`` flags the pages that may still hold unseen
positions and ``nxt`` those that still do.

**Four robots, push**: in a row with several frontier positions the moves of
the three robots the row fixes are worked out once (:func:`_prepare`), and
each position adds only its lowest helper's part of each predecessor's index
(a position whose lowest helper touches those moves is expanded in full).
"""

from __future__ import annotations

import itertools

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
PAGE = R.PAGE
ROW_MIN = 4
"""Rows with fewer frontier positions are expanded position by position."""


def room(width: int, height: int) -> int:
    """Room for the precomputed predecessors of the three robots a row fixes
    (:func:`_prepare`): 3 robots × 4 directions × a ray."""
    return 3 * 4 * max(width, height)


@njit(cache=True, inline="always")
def _live(flags, start, length):  # type: ignore[no-untyped-def]
    """Is either page of the row [start, start + length) flagged?  (A row is
    shorter than a page, so it spans one or two.)"""
    return flags[start >> PAGE] != 0 or flags[(start + length - 1) >> PAGE] != 0


@njit(cache=True, inline="always")
def _pull_row(table, k, m, a, start, length, h1, h2, B, nbr, binom, nxt):  # type: ignore[no-untyped-def]
    """Settle the unseen positions of a row that have a move into layer
    ``k``; flag the row's pages in ``nxt`` if some stay unseen.  Returns how
    many were settled (only this thread writes these bytes: no race)."""
    written = 0
    left = False
    for j in range(length):
        if table[start + j] == UNSEEN:
            h0 = UNUSED if m < 1 else j + (j >= a)
            if R.reaches(table, k, m, a, h0, h1, h2, B, nbr, binom):
                table[start + j] = k + 1
                written += 1
            else:
                left = True
    if left:
        nxt[start >> PAGE] = 1
        nxt[(start + length - 1) >> PAGE] = 1
    return written


@njit(cache=True, inline="always")
def _scan(table, k, start, length):  # type: ignore[no-untyped-def]
    """How many bytes of the row are ``k``, and is one of them unseen?"""
    count = 0
    unseen = False
    for j in range(length):  # no early exit: the loop vectorises
        count += table[start + j] == k
        unseen |= table[start + j] == UNSEEN
    return count, unseen


@njit(cache=True, inline="always")
def _row(table, k, m, a, start, length, u1, u2, B, nbr, binom, t, pull, cur, nxt):  # type: ignore[no-untyped-def]
    """Process one row; return how many of its positions are in layer ``k``
    and how many it settled pulling.  Push: expand those positions.  Pull:
    settle the unseen positions that have a move into layer ``k``."""
    if not _live(cur, start, length):
        return 0, 0
    count, unseen = _scan(table, k, start, length)
    if not (unseen if pull else count):
        return count, 0
    h1 = UNUSED if m < 2 else u1 + (u1 >= a)
    h2 = UNUSED if m < 3 else u2 + (u2 >= a)
    if pull:
        return count, _pull_row(table, k, m, a, start, length, h1, h2, B, nbr, binom, nxt)
    for j in range(length):
        if table[start + j] == k:
            h0 = UNUSED if m < 1 else j + (j >= a)
            R.expand(table, k, m, a, h0, h1, h2, B, nbr, binom, t, nxt)
    return count, 0


@njit(cache=True)
def _row_any(table, k, m, a, start, length, u1, u2, B, nbr, binom, t, pull, cur, nxt):  # type: ignore[no-untyped-def]
    """:func:`_row` as a call.  Inlined into a branch where the robot count
    is known, LLVM specialises the whole step for it (twice as fast); only the
    four-robot branch, the one that matters, gets that copy: each copy adds
    about 20 s of compiling."""
    return _row(table, k, m, a, start, length, u1, u2, B, nbr, binom, t, pull, cur, nxt)


@njit(cache=True, inline="always")
def _prepare(a, h1, h2, stamp, B, nbr, binom, t, moves, ends, inter, touch):  # type: ignore[no-untyped-def]
    """The predecessors of the moves of the robots a row fixes (a, h1, h2),
    as they are for every lowest helper h0 that does not touch them.  The
    active robot's are ``moves[0]`` (from cell) and ``moves[1]`` (its index
    but the lowest helper's part), entries ``0..ends[0]``; the helpers' are
    ``moves[2..4]`` (from cell, then the index parts for h0 below or above
    it), h1's entries ``ends[0]..ends[1]``, h2's up to ``ends[2]``.
    ``inter[c] == stamp`` marks the cells where h0 would touch those moves
    (on a ray, or right ahead of a robot), ``touch[c]`` whose (bits 1, 2, 4:
    a, h1, h2)."""
    n = 0
    movers = 1 if a == t else 3
    for jj in range(movers):
        x = a if jj == 0 else (h1 if jj == 1 else h2)
        bit = 1 << jj
        for d in range(4):
            ahead = nbr[x, d]
            if ahead >= 0 and not R.occupied(ahead, a, UNUSED, h1, h2):
                _touch(inter, touch, ahead, stamp, bit)  # a lowest helper there would block x
                continue
            back = (d + 2) % 4
            s = nbr[x, back]
            while s >= 0 and not R.occupied(s, a, UNUSED, h1, h2):
                _touch(inter, touch, s, stamp, bit)  # a lowest helper there would cut the ray
                _entry(moves, n, jj, s, a, h1, h2, B, binom)
                n += 1
                s = nbr[s, back]
        ends[jj] = n
    for jj in range(movers, 3):
        ends[jj] = n


@njit(cache=True, inline="always")
def _entry(moves, n, jj, s, a, h1, h2, B, binom):  # type: ignore[no-untyped-def]
    """Entry ``n`` of :func:`_prepare`'s lists: robot ``jj`` (0: the active one, 1 and 2:
    the helpers h1 and h2) has its other end at cell ``s``."""
    if jj == 0:
        # The active robot at s: block s, helpers renumbered to skip s.
        moves[0, n] = s
        moves[1, n] = s * B + binom[h1 - (h1 > s), 2] + binom[h2 - (h2 > s), 3]
    else:
        # A helper at s; ``other`` stays besides h0.  With h0 < s the helpers are
        # h0, then s and other in order; with s < h0: s, h0, other.
        other = h2 if jj == 1 else h1
        sp = s - (s > a)
        op = other - (other > a)
        moves[2, n] = s
        moves[3, n] = binom[op, 2] + binom[sp, 3] if s > other else binom[sp, 2] + binom[op, 3]
        moves[4, n] = sp + binom[op, 3]


@njit(cache=True, inline="always")
def _touch(inter, touch, c, stamp, bit):  # type: ignore[no-untyped-def]
    if inter[c] != stamp:
        inter[c] = stamp
        touch[c] = 0
    touch[c] |= bit


@njit(cache=True, inline="always")
def _moves_of(table, k, m, a, h0, h1, h2, j, B, nbr, binom, flags):  # type: ignore[no-untyped-def]
    """Settle the predecessors of robot slot ``j``'s moves (one robot's part
    of :func:`retro.expand`)."""
    c = R.slot(j, a, h0, h1, h2)
    for d in range(4):
        ahead = nbr[c, d]
        if ahead >= 0 and not R.occupied(ahead, a, h0, h1, h2):
            continue
        back = (d + 2) % 4
        s = nbr[c, back]
        while s >= 0 and not R.occupied(s, a, h0, h1, h2):
            R.settle(table, k, m, a, h0, h1, h2, s, j, B, binom, flags)
            s = nbr[s, back]


@njit(cache=True, inline="always")
def _prepare_forward(a, h1, h2, stamp, B, nbr, binom, moves, ends, inter, touch):  # type: ignore[no-untyped-def]
    """Pulling: the forward moves of the robots a row fixes (a, h1, h2), as
    they are for every lowest helper h0 off their paths, in the lists of
    :func:`_prepare` (the cell a robot stops on in place of the one it came
    from).  ``inter``/``touch`` mark the cells of their paths: h0 there
    would stop the robot sooner."""
    n = 0
    for jj in range(3):
        x = a if jj == 0 else (h1 if jj == 1 else h2)
        bit = 1 << jj
        for d in range(4):
            s = x
            nn = nbr[s, d]
            while nn >= 0 and not R.occupied(nn, a, UNUSED, h1, h2):
                _touch(inter, touch, nn, stamp, bit)
                s = nn
                nn = nbr[s, d]
            if s == x:
                continue
            _entry(moves, n, jj, s, a, h1, h2, B, binom)
            n += 1
        ends[jj] = n


@njit(cache=True, inline="always")
def _gather(table, k, mask, hit, lo, hi, src):  # type: ignore[no-untyped-def]
    """``hit[j] |= mask[j] and table[src + j] == k`` for j in lo..hi - 1:
    loads and a local store only, so the loop vectorises (over slices: an
    index ``src + j`` would be checked for wrapping around, element by element)."""
    if hi <= lo:
        return
    t = table[src + lo:src + hi]
    m = mask[lo:hi]
    h = hit[lo:hi]
    kk = np.uint8(k)
    for j in range(hi - lo):
        h[j] |= m[j] & (t[j] == kk)


@njit(cache=True, inline="always")
def _pull_row4(table, k, a, start, length, u1, u2, h1, h2, B, nbr, binom, nxt, moves, ends,  # type: ignore[no-untyped-def]
               inter, touch, masks, hit):
    """Pull one row of four robots: settle its unseen positions that have a
    move into layer ``k``.  The moves of the three robots the row fixes are
    worked out once (:func:`_prepare_forward`) and tested for all the row's
    positions at once where the positions they lead to are consecutive bytes
    (:func:`_gather`); the rest — the lowest helper's own moves, the moves it
    cuts short, the positions they lead to that are not consecutive — one
    position at a time.  Only this thread writes this row, so the row is
    written back whole (a loop that vectorises)."""
    stamp = start + 1
    _prepare_forward(a, h1, h2, stamp, B, nbr, binom, moves, ends, inter, touch)
    for j in range(length):
        hit[j] = 0
        masks[0, j] = 1
        masks[1, j] = 1
        masks[2, j] = 1
    for j in range(length):
        h0 = j + (j >= a)
        if inter[h0] == stamp:
            bits = touch[h0]
            masks[0, j] = (bits & 1) == 0
            masks[1, j] = (bits & 2) == 0
            masks[2, j] = (bits & 4) == 0
    base = a * B
    for i in range(ends[0]):  # the active robot's moves: three runs of consecutive bytes
        s = moves[0, i]
        b1 = min(a, length)
        b2 = min(s + 1 - (s > a), length)
        lo = min(b1, b2)
        hi = max(b1, b2)
        src = moves[1, i]
        _gather(table, k, masks[0], hit, 0, lo, src)
        _gather(table, k, masks[0], hit, lo, hi, src + (1 if b1 <= b2 else -1))
        _gather(table, k, masks[0], hit, hi, length, src)
    for jj in range(1, 3):  # the helpers': consecutive while h0 < s, one by one after
        for i in range(ends[jj - 1], ends[jj]):
            s = moves[2, i]
            ps = min(s + 1 - (s > a), length)
            _gather(table, k, masks[jj], hit, 0, ps, base + moves[3, i])
            alt = base + moves[4, i]
            for j in range(ps, length):
                if masks[jj, j] and not hit[j] and table[start + j] == UNSEEN:
                    hit[j] = table[alt + binom[j, 2]] == k
    # The lowest helper's own moves leave helpers {s, h1, h2}: in that order when
    # s < h1 (every horizontal move), h1 < s < h2, or h2 < s (renumbered: u1, u2).
    below = binom[u1, 2] + binom[u2, 3]
    between = u1 + binom[u2, 3]
    above = u1 + binom[u2, 2]
    written = 0
    left = False
    for j in range(length):
        if hit[j] or table[start + j] != UNSEEN:
            continue
        h0 = j + (j >= a)
        found = False
        if inter[h0] == stamp:
            bits = touch[h0]
            for jj in range(3):
                if bits & (1 << jj) and not found:
                    found = _reaches_one(table, k, a, h0, h1, h2, 0 if jj == 0 else jj + 1, B, nbr, binom)
        for d in range(4):
            if found:
                break
            s = h0
            nn = nbr[s, d]
            while nn >= 0 and not R.occupied(nn, a, h0, h1, h2):
                s = nn
                nn = nbr[s, d]
            if s != h0:
                sp = s - (s > a)
                if s < h1:
                    r = sp + below
                elif s < h2:
                    r = between + binom[sp, 2]
                else:
                    r = above + binom[sp, 3]
                found = table[base + r] == k
        hit[j] = found
        left |= not found
    k1 = np.uint8(k + 1)
    row = table[start:start + length]
    for j in range(length):  # only this thread writes this row: write it whole
        v = row[j]
        settle = (v == np.uint8(UNSEEN)) & (hit[j] != 0)
        written += settle
        row[j] = k1 if settle else v
    if left:
        nxt[start >> PAGE] = 1
        nxt[(start + length - 1) >> PAGE] = 1
    return written


@njit(cache=True, inline="always")
def _reaches_one(table, k, a, h0, h1, h2, j, B, nbr, binom):  # type: ignore[no-untyped-def]
    """Does a move of robot slot ``j`` lead into layer ``k``?  (One robot's
    part of :func:`retro.reaches`.)"""
    c = R.slot(j, a, h0, h1, h2)
    for d in range(4):
        s = c
        nn = nbr[s, d]
        while nn >= 0 and not R.occupied(nn, a, h0, h1, h2):
            s = nn
            nn = nbr[s, d]
        if s != c and table[R.moved(3, a, h0, h1, h2, s, j, B, binom)] == k:
            return True
    return False


@njit(cache=True, inline="always")
def _row4(table, k, a, start, length, u1, u2, B, nbr, binom, t, pull, cur, nxt, moves, ends,  # type: ignore[no-untyped-def]
          inter, touch, masks, hit, front):
    """:func:`_row` for four robots.  Pushing a row with several frontier
    positions, the moves of the three robots the row fixes are worked out
    once (:func:`_prepare`) and each is applied to the row's frontier
    positions in turn (ascending, so its predecessors are read in order); a
    position whose lowest helper touches a robot's moves gets that robot's
    moves in full, and every position its lowest helper's own moves."""
    if not _live(cur, start, length):
        return 0, 0
    count, unseen = _scan(table, k, start, length)
    if not (unseen if pull else count):
        return count, 0
    h1 = u1 + (u1 >= a)
    h2 = u2 + (u2 >= a)
    if pull:
        return count, _pull_row4(table, k, a, start, length, u1, u2, h1, h2, B, nbr, binom, nxt, moves, ends, inter,
                                 touch, masks, hit)
    if count < ROW_MIN:
        for j in range(length):
            if table[start + j] == k:
                R.expand(table, k, 3, a, j + (j >= a), h1, h2, B, nbr, binom, t, nxt)
        return count, 0
    stamp = start + 1
    _prepare(a, h1, h2, stamp, B, nbr, binom, t, moves, ends, inter, touch)
    movers = 1 if a == t else 3
    # The frontier positions of the row (``front`` holds their j, ascending) and,
    # for each robot jj the row fixes, whether their lowest helper leaves its
    # moves alone (masks[jj, x]); those it touches get the robot's moves in full.
    nf = 0
    row = table[start:start + length]
    for j in range(length):
        if row[j] == k:
            front[nf] = j
            h0 = j + (j >= a)
            bits = touch[h0] if inter[h0] == stamp else 0
            masks[0, nf] = (bits & 1) == 0
            masks[1, nf] = (bits & 2) == 0
            masks[2, nf] = (bits & 4) == 0
            for jj in range(movers):
                if bits & (1 << jj):
                    _moves_of(table, k, 3, a, h0, h1, h2, 0 if jj == 0 else jj + 1, B, nbr, binom, nxt)
            nf += 1
    for i in range(ends[0]):  # the active robot's moves: from s, block s
        s = moves[0, i]
        dst = moves[1, i]
        for x in range(nf):
            if masks[0, x]:
                j = front[x]
                h0 = j + (j >= a)
                R.mark(table, k, dst + h0 - (h0 > s), nxt)
    if movers == 1:
        return count, 0
    base = a * B
    for jj in range(1, 3):  # the helpers' moves: while h0 < s one run of bytes, then one row each
        for i in range(ends[jj - 1], ends[jj]):
            s = moves[2, i]
            ps = s + 1 - (s > a)  # the first j with h0 > s
            dst = base + moves[3, i]
            alt = base + moves[4, i]
            x = 0
            while x < nf and front[x] < ps:
                if masks[jj, x]:
                    R.mark(table, k, dst + front[x], nxt)
                x += 1
            while x < nf:
                if masks[jj, x]:
                    R.mark(table, k, alt + binom[front[x], 2], nxt)
                x += 1
    # The lowest helper's own moves leave helpers {s, h1, h2}: in that order when
    # s < h1 (every horizontal move), h1 < s < h2, or h2 < s (renumbered: u1, u2).
    below = binom[u1, 2] + binom[u2, 3]
    between = u1 + binom[u2, 3]
    above = u1 + binom[u2, 2]
    for x in range(nf):
        j = front[x]
        h0 = j + (j >= a)
        for d in range(4):
            ahead = nbr[h0, d]
            if ahead >= 0 and not R.occupied(ahead, a, h0, h1, h2):
                continue
            back = (d + 2) % 4
            s = nbr[h0, back]
            while s >= 0 and not R.occupied(s, a, h0, h1, h2):
                sp = s - (s > a)
                if s < h1:
                    r = sp + below
                elif s < h2:
                    r = between + binom[sp, 2]
                else:
                    r = above + binom[sp, 3]
                R.mark(table, k, base + r, nxt)
                s = nbr[s, back]
    return count, 0


@njit(parallel=True, cache=True)
def layer(table, k, m, n, B, nbr, binom, units, t, counts, pull, cur, nxt, room):  # type: ignore[no-untyped-def]
    """Settle layer ``k + 1`` from layer ``k``, pushing (predecessors of the
    frontier) or pulling (unseen positions with a move into it), over the
    work units ``(a, lo, hi)``: the rows of block ``a`` whose top helper
    (renumbered) is in ``lo..hi - 1`` (see :func:`units`).  ``counts[i]``
    gets the size of layer ``k`` among unit ``i``'s scanned rows and the
    positions it settled pulling."""
    for i in prange(len(units)):
        a = units[i, 0]
        base = a * B
        count = 0
        written = 0
        if m == 3:  # here LLVM knows m: the inlined step is specialised for four robots
            moves = np.empty((5, room), dtype=np.int64)
            ends = np.zeros(3, dtype=np.int64)
            inter = np.zeros(n, dtype=np.int64)
            touch = np.zeros(n, dtype=np.int64)
            masks = np.zeros((3, n), dtype=np.uint8)
            hit = np.zeros(n, dtype=np.uint8)
            front = np.zeros(n, dtype=np.int64)
            for u2 in range(units[i, 1], units[i, 2]):
                row = base + binom[u2, 3]
                for u1 in range(1, u2):
                    c, w = _row4(table, k, a, row + binom[u1, 2], u1, u1, u2, B, nbr, binom, t, pull, cur, nxt,
                                 moves, ends, inter, touch, masks, hit, front)
                    count += c
                    written += w
        elif m == 2:
            for u1 in range(1, n - 1):
                c, w = _row_any(table, k, m, a, base + binom[u1, 2], u1, u1, 0, B, nbr, binom, t, pull, cur, nxt)
                count += c
                written += w
        else:
            count, written = _row_any(table, k, m, a, base, n - 1 if m == 1 else 1, 0, 0, B, nbr, binom, t, pull,
                                      cur, nxt)
        counts[i, 0] = count
        counts[i, 1] = written


def units(n: int, m: int, parts: int, split: int | None = None) -> np.ndarray:
    """The work units ``(a, lo, hi)`` of :func:`layer`: one per block, dealt
    round-robin into ``parts`` shares (see :func:`interleaved`); with
    ``split`` (four robots), the block ``split`` alone cut into slices of
    about equal size (layer 0: its frontier is that block)."""
    top = n - 1 if m == 3 else 3
    if split is None or m != 3:
        blocks = interleaved(n, parts)
        return np.stack([blocks, np.full(n, 2), np.full(n, top)], axis=1).astype(np.int64)
    # Slices of the block by top helper u2 (rows of a slice: C(u2, 2) bytes each u2).
    pieces = max(1, 4 * parts)
    weight = np.array([u * (u - 1) // 2 for u in range(top)], dtype=np.float64)
    cuts = np.searchsorted(np.cumsum(weight), np.linspace(0, weight.sum(), pieces + 1)[1:-1])
    bounds = np.unique(np.concatenate([[2], np.clip(cuts, 2, top), [top]]))
    out = [(split, int(lo), int(hi)) for lo, hi in itertools.pairwise(bounds) if hi > lo]
    return np.array(out, dtype=np.int64)[interleaved(len(out), parts)]


def threads() -> int:
    """The number of threads numba's parallel loops use."""
    return int(numba.get_num_threads())


def interleaved(n: int, parts: int) -> np.ndarray:
    """0..n-1 dealt round-robin into ``parts`` contiguous shares: ``prange``
    cuts its range into equal contiguous chunks, and neighbouring blocks have
    similar frontiers, so dealing them out balances the threads."""
    return np.concatenate([np.arange(p, n, parts) for p in range(max(1, parts))]).astype(np.int64)


# -- the vortex table (any robot, all robots interchangeable) ---------------------------
@njit(cache=True, inline="always")
def _vrow(table, k, r, start, length, c1, c2, c3, nbr, binom, t, pull, cur, nxt):  # type: ignore[no-untyped-def]
    """:func:`_row` for the vortex table: a row fixes the upper cells, the
    lowest cell ``c0`` is the offset."""
    if not _live(cur, start, length):
        return 0, 0
    count, unseen = _scan(table, k, start, length)
    if not (unseen if pull else count):
        return count, 0
    written = 0
    left = False
    for c0 in range(length):
        if pull:
            if table[start + c0] == UNSEEN:
                if R.vreaches(table, k, r, c0, c1, c2, c3, nbr, binom):
                    table[start + c0] = k + 1
                    written += 1
                else:
                    left = True
        elif table[start + c0] == k:
            R.vexpand(table, k, r, c0, c1, c2, c3, nbr, binom, t, nxt)
    if left:
        nxt[start >> PAGE] = 1
        nxt[(start + length - 1) >> PAGE] = 1
    return count, written


@njit(cache=True)
def _vrow_any(table, k, r, start, length, c1, c2, c3, nbr, binom, t, pull, cur, nxt):  # type: ignore[no-untyped-def]
    """:func:`_vrow` as a call (only four robots get a specialised copy)."""
    return _vrow(table, k, r, start, length, c1, c2, c3, nbr, binom, t, pull, cur, nxt)


def vunits(n: int, r: int, parts: int) -> np.ndarray:
    """The vortex table's work units, ``(u, v)`` pairs dealt round-robin into
    ``parts`` shares (see :func:`interleaved`): four robots, one unit per
    ``c3 = u, c2 = v``; three, per ``c2 = u``; two, the row ``c1 = u``; one,
    the whole table (``u = n``)."""
    if r == 4:
        pairs = [(u, v) for u in range(3, n) for v in range(2, u)]
    elif r == 3:
        pairs = [(u, 0) for u in range(2, n)]
    elif r == 2:
        pairs = [(u, 0) for u in range(1, n)]
    else:
        pairs = [(n, 0)]
    arr = np.array(pairs, dtype=np.int64).reshape(-1, 2)
    return arr[interleaved(len(arr), parts)]


@njit(parallel=True, cache=True)
def vlayer(table, k, r, nbr, binom, units, t, counts, pull, cur, nxt):  # type: ignore[no-untyped-def]
    """:func:`layer` for the vortex table, over the units of :func:`vunits`."""
    for i in prange(len(units)):
        u = units[i, 0]
        v = units[i, 1]
        count = 0
        written = 0
        if r == 4:  # specialised for four robots, as in layer()
            base = binom[u, 4] + binom[v, 3]
            for c1 in range(1, v):
                c, w = _vrow(table, k, 4, base + binom[c1, 2], c1, c1, v, u, nbr, binom, t, pull, cur, nxt)
                count += c
                written += w
        elif r == 3:
            for c1 in range(1, u):
                c, w = _vrow_any(table, k, 3, binom[u, 3] + binom[c1, 2], c1, c1, u, UNUSED, nbr, binom, t, pull,
                                 cur, nxt)
                count += c
                written += w
        elif r == 2:
            count, written = _vrow_any(table, k, 2, binom[u, 2], u, u, UNUSED, UNUSED, nbr, binom, t, pull, cur, nxt)
        else:
            count, written = _vrow_any(table, k, 1, 0, u, UNUSED, UNUSED, UNUSED, nbr, binom, t, pull, cur, nxt)
        counts[i, 0] = count
        counts[i, 1] = written


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
