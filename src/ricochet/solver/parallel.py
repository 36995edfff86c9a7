"""A* of one puzzle on several threads: the search of :func:`kernel.astar`,
its layers expanded by several workers at once over one shared state map.

The search goes in rounds (numba ``prange``).  The states queued in the
current layer F, by any worker, are gathered onto one stack, the deepest
(highest g) and newest on top (:func:`kernel.astar`'s order, so that in the
last layer a goal comes early); a round shares the top ``P · batch`` of
them out, one slice per worker, which each claims a few states at a time and
then helps with the slices not done yet.  Each worker raises their bound as A* does
(:func:`kernel.bound_rises`, every blocker set built beforehand) or expands
them, and queues what it finds in its own lists.  A child is looked up in the
shared map; a new state, or one reached more cheaply, gets a new record
(indices are taken in blocks from a shared counter), which is written first
and then published by one compare-and-swap of its map slot: a reader sees a
slot before or after, never half of it.  Each record is written by one worker
only; the map and the records grow between rounds only (the rehash shared
out too).  A state reached more cheaply keeps its old record as well; that
one may still be expanded, which costs time but not correctness: every path
stored is real and the bound is the same consistent one.  Small rounds (the
first layers, a layer's tail) run on one worker: starting the threads would
cost more.

It is the same A* (pathmax, a state reached more cheaply is queued again, a
goal of cost F found while expanding layer F is optimal since every state of
a lower f was expanded in earlier rounds), so its answer is optimal; which
one of equal length may differ from :func:`kernel.astar`'s and from run to
run.  Plain moves only (one finishing robot, no transparent robot, no rule
state) and keys that fit the compact map (4 robots on 16×16): the caller
falls back to :func:`kernel.astar` otherwise."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from .. import jitcache
from . import kernel, records
from .kernel import (
    C_IDX,
    INF,
    _cmap_find,
    _gen,
    _gen_lines,
    _hash,
    _rebuild,
    _slot_cost,
    _slot_index,
    child_key,
    cmap_word,
    inheritable,
    prefetch,
    raise_levels,
    record_word,
    state_key,
    word_key,
)
from .records import Goal, SearchStatus

# The workers inline the kernel's functions and build records: an edit to kernel.py or records.py
# must compile them again.
jitcache.depends_on(__file__, kernel.__file__, records.__file__)

BATCH = 1024
"""States a worker takes per round: larger rounds pay the threads' start and
join less often; smaller ones keep the first layers balanced."""
CHUNK = 32
"""States a worker claims at once in a round (from its own slice, then from
others'): 16, 32 and 64 measured alike on two threads, 4 and 256 worse."""
BLOCK = 256
"""Record indices a worker takes from the shared counter at once."""
SERIAL_BELOW = 512
"""A round of at most this many states runs on one worker, without the threads:
starting and joining them costs tens of microseconds, more than a few states
take (a layer's last rounds are often that small)."""


class Plan(NamedTuple):
    """How :func:`parallel_astar` shares a search out (:data:`BATCH`,
    :data:`CHUNK`, :data:`SERIAL_BELOW`)."""

    P: int
    """Workers."""
    batch: int
    """States per worker and round."""
    chunk: int
    """States a worker claims at once."""
    serial_below: int
    """A round of at most this many states runs on one worker."""


class Round(NamedTuple):
    """One round of layer ``F`` (:func:`_work`): the layer's states ``pool``,
    shared out in slices (``cursor[8 w]``: worker w's next unclaimed state,
    ``cursor[8 w + 1]``: its slice's end) among ``P`` workers that claim
    ``chunk`` states at a time."""

    F: int
    pool: np.ndarray
    cursor: np.ndarray
    P: int
    chunk: int


class Shared(NamedTuple):
    """What every worker reads and writes: the state records ``rec`` (2 words
    each, :func:`kernel.astar`'s), the compact state map ``hm`` (``hmask``:
    its slots - 1) and ``counter[0]``, the next free record index."""

    rec: np.ndarray
    hm: np.ndarray
    hmask: np.uint64
    counter: np.ndarray


class Own(NamedTuple):
    """One worker: its index ``me`` and its own arrays (rows of
    :func:`parallel_astar`'s, on cache lines of their own): its queue lists
    ``items`` (pairs state, next) and
    ``head`` (per f and g), ``queued`` (per f and g, since gathered),
    ``block`` (its next free record index and the end of its block), scratch
    ``pos``, ``occ``, move buffers ``mv`` (:func:`kernel._move_buffers`),
    the bound's ``ws`` (:func:`kernel.bound_workspace`), the children's keys
    ``ck``, the best goal it found ``found`` (cost, parent, r, d, e) and the
    row and column bit masks ``lines`` (:func:`kernel._gen_lines`)."""

    me: int
    items: np.ndarray
    head: np.ndarray
    queued: np.ndarray
    block: np.ndarray
    pos: np.ndarray
    occ: np.ndarray
    mv: np.ndarray
    ws: np.ndarray
    ck: np.ndarray
    found: np.ndarray
    lines: np.ndarray


@intrinsic
def _cas(typingctx, array, index, expected, new):  # type: ignore[no-untyped-def]
    """Atomically: if ``array[index] == expected`` store ``new``; return the
    value found (== ``expected``: it was stored)."""
    sig = types.uint64(array, index, types.uint64, types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False, boundscheck=False)
        pair = builder.cmpxchg(ptr, args[2], args[3], "seq_cst", "seq_cst")
        return builder.extract_value(pair, 0)

    return sig, codegen


@intrinsic
def _fetch_add(typingctx, array, index, value):  # type: ignore[no-untyped-def]
    """Atomically add ``value`` to ``array[index]`` (int64); return the old value."""
    sig = types.int64(array, index, types.int64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False, boundscheck=False)
        return builder.atomic_rmw("add", ptr, args[2], "seq_cst")

    return sig, codegen


@njit(cache=True, inline="always")
def _publish(k1, g, idx, hm, hmask):
    """Store state ``idx`` at cost ``g`` for key ``k1`` in the compact map
    (:func:`kernel._cmap_find`'s layout) unless it holds the key as cheaply;
    True when stored.  Lock-free: a slot changes by compare-and-swap only."""
    word = cmap_word(k1, g, idx)
    j = _hash(k1, 0) & hmask
    while True:
        v = hm[j]
        if v == 0:
            if _cas(hm, np.int64(j), np.uint64(0), word) == np.uint64(0):
                return True
            continue  # taken meanwhile: look again at the same slot
        if (v >> np.uint64(32)) == k1:
            if np.int64((v >> np.uint64(25)) & np.uint64(0x7F)) <= g:
                return False
            if _cas(hm, np.int64(j), v, word) == v:
                return True
            continue  # changed meanwhile
        j = (j + np.uint64(1)) & hmask


@njit(cache=True)
def _work(rnd, spec, board, paths, goal, limits, sets, unions, shared, own, nit):
    """One round (:class:`Round`) of worker ``own.me`` (of ``rnd.P``) in layer
    ``rnd.F``: the states of ``rnd.pool`` it claims, ``rnd.chunk`` at a
    time, first from its own slice (from ``cursor[8 * me]``, the next
    unclaimed state, to ``cursor[8 * me + 1]``), then from the slices of the
    others that are not done yet.  A slice's states are not all alike (the
    newest are mostly raised, not expanded, and cost less), so equal slices
    alone left one worker waiting for another at the round's end for a fifth
    of the time on two threads.  What it queues goes to its own lists
    (``own``, :class:`Own`: ``items``/``head``, one per f and g; ``nit``
    used, ``queued`` counting per f and g); ``own.block`` holds its next
    free record index and the end of its block, taken from
    ``shared.counter`` (:class:`Shared`).  The best goal seen goes to
    ``own.found`` (cost, parent, r, d, e).  Returns (items used, expanded).

    ``spec``, ``board``, ``paths``, ``limits`` (``max_cost``,
    ``max_level``), ``sets`` (every blocker set, built beforehand) and their
    ``unions`` are :func:`parallel_astar`'s; ``goal``
    (:class:`~.records.Goal`) holds its relaxed distance.  The expansion is :func:`kernel.astar`'s: the
    same children, inherited levels and pathmax, from the same kernel
    functions (:func:`kernel.raise_levels`, ``_gen``,
    :func:`kernel.child_key`, :func:`kernel.inheritable`,
    :func:`kernel.record_word`).  The few lines around them that read or
    write arrays (the inherited level, the requeue) are repeated rather than
    shared: a numba helper taking arrays costs reference counting on every
    child, in both hot loops."""
    F, pool, cursor, P, chunk = rnd.F, rnd.pool, rnd.cursor, rnd.P, rnd.chunk
    t, target, R, bits = spec.t, spec.target, spec.R, spec.bits
    max_cost, max_level = limits.max_cost, limits.max_level
    hdist = goal.hdist
    rec, hm, hmask, counter = shared.rec, shared.hm, shared.hmask, shared.counter
    me, items, head, queued, block, pos, occ, mv, ws, ck, found, lines = own.me, own.items, own.head, own.queued, \
        own.block, own.pos, own.occ, own.mv, own.ws, own.ck, own.found, own.lines
    H, xy = board.H, board.xy
    mv_r, mv_d, mv_e, mv_h = mv[0], mv[1], mv[2], mv[3]  # (mv: kernel._move_buffers)
    FINAL = np.uint64(1) << np.uint64(62)
    cmask = np.uint64((1 << bits) - 1)
    expanded = 0
    v = np.int64(me)
    while True:
        lo = _fetch_add(cursor, 8 * v, chunk)
        if lo >= cursor[8 * v + 1]:
            v = (v + 1) % P  # that slice is done: help the next one
            if v == me:
                break
            continue
        hi = min(lo + chunk, cursor[8 * v + 1])
        for j in range(lo, hi):
            i = pool[j]
            if j + 1 < hi:
                prefetch(rec, 2 * pool[j + 1])
            w0 = rec[2 * i]
            w1 = rec[2 * i + 1]
            g = np.int64((w1 >> np.uint64(32)) & np.uint64(0xFF))
            ex = np.int64((w1 >> np.uint64(45)) & np.uint64(0x7FFF))
            for q in range(R):
                pos[q] = np.int64((w0 >> np.uint64(q * bits)) & cmask)
            ct = pos[t]
            level = np.int64((w1 >> np.uint64(60)) & np.uint64(3))
            if g + max(1, hdist[ct]) + level != F:
                continue  # stale: raised since
            if (w1 & FINAL) == np.uint64(0) and level < max_level and hdist[ct] > 0:
                up, final, _checks = raise_levels(level, max_level, True, pos, occ, goal, sets, ws)
                if up > 0:
                    nw = w1 + (np.uint64(up) << np.uint64(60))
                    if final:
                        nw |= FINAL
                    rec[2 * i + 1] = nw
                    if F + up <= max_cost:
                        items[2 * nit] = i
                        items[2 * nit + 1] = head[F + up, g]
                        head[F + up, g] = nit
                        nit += 1
                        queued[F + up, g] += 1
                    continue
                rec[2 * i + 1] = w1 | FINAL
            expanded += 1
            for q in range(R):
                occ[pos[q]] = 1
            helpers = g + 1 + hdist[ct] <= max_cost
            if xy.shape[1] > 0:  # straight moves: kernel._gen_lines, as kernel.astar
                for q in range(R):
                    c = pos[q]
                    lines[xy[1, c]] |= np.uint64(1) << np.uint64(xy[0, c])
                    lines[H + xy[0, c]] |= np.uint64(1) << np.uint64(xy[1, c])
                n = _gen_lines(0, pos, spec, (ex // 64) % 8 - 1, (ex // 16) % 4, ex // 512, helpers, board,
                               paths.length, lines, mv)  # (commuting moves dropped: as kernel.astar)
                for q in range(R):
                    c = pos[q]
                    lines[xy[1, c]] = np.uint64(0)
                    lines[H + xy[0, c]] = np.uint64(0)
            else:
                n = _gen(0, pos, occ, spec, (ex // 64) % 8 - 1, (ex // 16) % 4, helpers, paths, mv)
            inherit = 0
            if hdist[ct] > 0:
                occ[ct] = 0
                inherit = inheritable(ct, max_level, occ, sets)
            for q in range(R):
                occ[pos[q]] = 0
            pk1 = word_key(w0, spec)
            for k in range(n):
                r = np.int64(mv_r[0, k])
                field = -1 if r == t else (r if r < t else r - 1)
                k1, _k2 = child_key(pk1, spec, field, pos[r], mv_e[0, k], mv_h[0, k], 0, -1)
                ck[k] = k1
                prefetch(hm, np.int64(_hash(k1, 0) & hmask))
            g2 = g + 1
            for k in range(n):
                r = np.int64(mv_r[0, k])
                e = np.int64(mv_e[0, k])
                if r == t and e == target:
                    if g2 < found[0]:
                        found[0] = g2
                        found[1] = i
                        found[2] = r
                        found[3] = mv_d[0, k]
                        found[4] = e
                    continue
                f2 = g2 + max(1, hdist[e if r == t else ct])
                child_level = np.uint64(0)
                if inherit > 0 and r != t:
                    word = e >> 6
                    bit = np.uint64(1) << np.uint64(e & 63)
                    if unions[0, ct, word] & bit == np.uint64(0):
                        child_level = np.uint64(2 if inherit == 2 and unions[1, ct, word] & bit == np.uint64(0) else 1)
                        f2 += np.int64(child_level)
                if f2 < F:
                    child_level += np.uint64(F - f2)  # pathmax below a raised parent
                    f2 = F
                if f2 > max_cost:
                    continue
                k1 = ck[k]
                slot = _cmap_find(k1, hm, hmask)
                if _slot_index(True, hm, slot) >= 0 and _slot_cost(True, hm, slot) <= g2:
                    continue  # most children: known as cheaply
                if block[0] >= block[1]:
                    block[0] = _fetch_add(counter, 0, BLOCK)
                    block[1] = block[0] + BLOCK
                idx = block[0]
                sh = np.uint64(r * bits)
                rec[2 * idx] = (w0 & ~(cmask << sh)) | (np.uint64(e) << sh)
                ext = ((r + 1) * 4 + np.int64(mv_h[0, k])) * 16
                if xy.shape[1] > 0:  # where the move started along its row or column (as kernel.astar)
                    ext += xy[1 - mv_d[0, k] % 2, pos[r]] * 512
                rec[2 * idx + 1] = record_word(i, g2, r, mv_d[0, k], ext, child_level)
                if not _publish(k1, g2, idx, hm, hmask):
                    continue  # another worker stored it as cheaply meanwhile (the record is reused)
                block[0] += 1
                items[2 * nit] = idx
                items[2 * nit + 1] = head[f2, g2]
                head[f2, g2] = nit
                nit += 1
                queued[f2, g2] += 1
    return nit, expanded


@njit(cache=True)
def _walk(head, items, queued, F, pool, ends):
    """Worker's lists of layer ``F``, one per g (newest first), into the pool:
    g's list into ``pool[ends[g] - count:ends[g]]`` with the newest on top;
    the lists emptied."""
    for g in range(head.shape[1]):
        if queued[F, g] == 0:
            continue
        k = ends[g] - 1
        it = head[F, g]
        while it >= 0:
            pool[k] = items[2 * it]
            k -= 1
            it = items[2 * it + 1]
        head[F, g] = -1
        queued[F, g] = 0


@njit(cache=True)
def _wider(a, cols):
    """``a`` (one row per worker) with ``cols`` columns, the old ones copied."""
    out = np.empty((a.shape[0], cols), dtype=a.dtype)
    out[:, :a.shape[1]] = a
    return out


@njit(cache=True)
def _longer(a, n):
    """``a`` with room for ``n`` elements, the old ones copied."""
    out = np.empty(n, dtype=a.dtype)
    out[:a.shape[0]] = a
    return out


@njit(cache=True)
def _rehash(old, lo, hi, hm, mask):
    """The entries ``old[lo:hi]`` of a compact map into the larger ``hm``; the
    workers share the old map out and claim slots by compare-and-swap."""
    for x in range(lo, hi):
        v = old[x]
        if v == 0:
            continue
        j = _hash(v >> np.uint64(32), 0) & mask
        while True:
            if hm[j] == 0 and _cas(hm, np.int64(j), np.uint64(0), v) == np.uint64(0):
                break
            j = (j + np.uint64(1)) & mask


def supported(R: int, bits: int, nsb: bool, mr: bool, tr: int, t: int, max_cost: int, max_states: int) -> bool:
    """Whether :func:`parallel_astar` takes this search (else :func:`kernel.astar`)."""
    return t >= 0 and tr < 0 and not nsb and not mr and R * bits <= 32 and max_cost < 128 and max_states < int(C_IDX)


@njit(cache=True, parallel=True)
def parallel_astar(spec, board, paths, hdist, start, limits, sets, unions, plan):
    """:func:`kernel.astar` for target robot ``spec.t`` from ``start.pos`` on
    ``plan.P`` workers (:class:`Plan`; see the module's docstring;
    :func:`supported` says which searches), ``plan.batch`` states per worker
    and round, claimed ``plan.chunk`` at a time, rounds of at most
    ``plan.serial_below`` states on one worker (:data:`BATCH`,
    :data:`CHUNK`, :data:`SERIAL_BELOW`), with the blocker sets of every
    slack below ``limits.max_level`` built beforehand (``sets``,
    :class:`~.records.BlockerSets`: :func:`kernel.blocker_sets`, and their
    ``unions``: :func:`kernel.set_unions`).  ``spec``, ``board``, ``paths``, ``hdist``
    and ``limits`` (``max_cost``, ``max_states``, ``max_level``) are as
    :func:`kernel.astar` reads them (``board.xy`` empty where moves are not
    all straight).  Returns what :func:`kernel.astar` returns: (status,
    cost, expansions, stored, moves).  (It takes records as they are: a
    search worth threads is long, and numba's parallel lowering does not take
    the kernels' ``Spec(*spec)`` renaming of an argument.)"""
    P, batch, chunk, serial_below = plan.P, plan.batch, plan.chunk, plan.serial_below
    t, R, M, bits = spec.t, spec.R, spec.M, spec.bits
    N, W, H = board.N, board.W, board.H
    max_cost, max_states = limits.max_cost, limits.max_states
    pos0 = start.pos
    goal = Goal(R, t, spec.target, hdist, paths.start, paths.length, paths.cyclic, paths.cells)  # (the bound's)
    empty = np.zeros((3, 0), dtype=np.int32)
    rec = np.empty(2 << 16, dtype=np.uint64)
    hbits = 16
    hm = np.zeros(1 << hbits, dtype=np.uint64)
    counter = np.zeros(8, dtype=np.int64)  # [0]: the next free record index
    items = np.empty((P, 2 << 12), dtype=np.int32)
    G = max_cost + 3
    head = np.full((P, G, G), -1, dtype=np.int32)  # per worker, f and g
    nit = np.zeros(P, dtype=np.int64)
    queued = np.zeros((P, G, G), dtype=np.int64)  # per worker, f and g: queued since gathered
    block = np.zeros((P, 8), dtype=np.int64)  # [w, 0:2]: next free record, end of the block
    pos = np.empty((P, 16), dtype=np.int64)  # rows of their own cache lines: no false sharing
    occ = np.zeros((P, N + 64), dtype=np.uint8)
    mv = np.empty((P, 6, 1, M), dtype=np.int32)  # kernel._move_buffers(1, M), per worker
    ws = np.zeros((P, 8, N + 2), dtype=np.int64)
    ck = np.empty((P, max(M, 8)), dtype=np.uint64)
    lines = np.zeros((P, max(W + H, 64)), dtype=np.uint64)  # kernel._gen_lines' masks, per worker
    found = np.full((P, 8), max_cost + 1, dtype=np.int64)
    expanded = np.zeros((P, 8), dtype=np.int64)
    cursor = np.zeros(8 * P, dtype=np.int64)  # per worker, a cache line: [8w] next unclaimed state, [8w + 1] end

    scratch = np.empty(8, dtype=np.int64)
    k1, _k2 = state_key(pos0, spec, -1, 0, 0, -1, scratch)
    w0 = np.uint64(0)
    for q in range(R):
        w0 |= np.uint64(pos0[q]) << np.uint64(q * bits)
    rec[0] = w0
    rec[1] = np.uint64(0)
    _publish(k1, 0, 0, hm, np.uint64((1 << hbits) - 1))
    counter[0] = 1
    F = max(1, hdist[pos0[t]])
    if hdist[pos0[t]] >= INF or F > max_cost:
        return SearchStatus.NONE_WITHIN, 0, 0, 1, empty
    items[0, 0] = 0
    items[0, 1] = -1
    head[0, F, 0] = 0
    nit[0] = 1
    queued[0, F, 0] = 1
    # Layer F's states, gathered from every worker's lists: a stack, the deepest
    # (highest g) and newest on top, the order of kernel.astar (in the last
    # layer a goal then comes early).
    pool = np.empty(1024, dtype=np.int64)
    pooled = kernel.ZERO
    while True:
        best = 0
        for w in range(1, P):
            if found[w, 0] < found[best, 0]:
                best = w
        if found[best, 0] <= min(F, max_cost):
            moves = _rebuild(found[best, 1], found[best, 2], found[best, 3], found[best, 4], rec, bits, R)
            return SearchStatus.FOUND, found[best, 0], expanded[:, 0].sum(), counter[0], moves
        if F > max_cost:
            return SearchStatus.NONE_WITHIN, 0, expanded[:, 0].sum(), counter[0], empty
        # Every worker's new states of layer F onto the stack, each worker walking
        # its own lists (a chase through memory: in parallel), by g (the highest
        # on top; within one g, worker by worker), newest on top.
        total = queued[:, F, :].sum()
        if total > 0:
            if pooled + total > pool.shape[0]:
                pool = _longer(pool, max(2 * pool.shape[0], pooled + total))
            ends = np.empty((P, G), dtype=np.int64)
            top = pooled
            for g in range(G):
                for w in range(P):
                    top += queued[w, F, g]
                    ends[w, g] = top
            if total <= serial_below:
                for w in range(P):
                    _walk(head[w], items[w], queued[w], F, pool, ends[w])
            else:
                for w in prange(P):
                    _walk(head[w], items[w], queued[w], F, pool, ends[w])
            pooled = top
        if pooled == 0:
            F += 1
            continue
        if counter[0] >= max_states:
            return SearchStatus.CAP_REACHED, 0, expanded[:, 0].sum(), counter[0], empty
        # Room for a round: every child of every state taken may be new.
        room = batch * M + BLOCK
        for w in range(P):
            if 2 * (nit[w] + batch + room) > items.shape[1]:
                items = _wider(items, max(2 * items.shape[1], 2 * (nit[w] + batch + room)))
        top = counter[0] + P * room  # the blocks handed out so far end below counter[0]
        if 2 * top > rec.shape[0]:
            rec = _longer(rec, max(2 * rec.shape[0], 2 * top))
        if top * 4 > 3 * (1 << hbits):
            old = hm
            while top * 4 > 3 * (1 << hbits):
                hbits += 1
            hm = np.zeros(1 << hbits, dtype=np.uint64)
            nmask = np.uint64((1 << hbits) - 1)
            part = (old.shape[0] + P - 1) // P
            for w in prange(P):
                _rehash(old, w * part, min(old.shape[0], (w + 1) * part), hm, nmask)
        hmask = np.uint64((1 << hbits) - 1)
        if pooled <= serial_below:
            cursor[0] = 0
            cursor[1] = pooled
            nit[0], done = _work(Round(F, pool, cursor, kernel.ONE, pooled), spec, board, paths, goal, limits, sets,
                                 unions, Shared(rec, hm, hmask, counter),
                                 Own(kernel.ZERO, items[0], head[0], queued[0], block[0], pos[0], occ[0], mv[0], ws[0],
                                     ck[0], found[0], lines[0]), nit[0])
            expanded[0, 0] += done
            pooled = kernel.ZERO
            continue
        share = min(batch, (pooled + P - 1) // P)
        base = max(0, pooled - P * share)
        for w in range(P):
            cursor[8 * w] = min(pooled, base + w * share)
            cursor[8 * w + 1] = min(pooled, base + (w + 1) * share)
        for w in prange(P):
            nit[w], done = _work(Round(F, pool, cursor, P, chunk), spec, board, paths, goal, limits, sets, unions,
                                 Shared(rec, hm, hmask, counter),
                                 Own(w, items[w], head[w], queued[w], block[w], pos[w], occ[w], mv[w], ws[w], ck[w],
                                     found[w], lines[w]), nit[w])
            expanded[w, 0] += done
        pooled = base
