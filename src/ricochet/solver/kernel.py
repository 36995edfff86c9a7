"""Compiled search kernels (numba).  Everything here works on flat arrays
produced by :mod:`ricochet.solver.tables` from a :class:`~ricochet.board.Board`,
passed in a few records (named tuples, :mod:`ricochet.solver.records`): the
board (``BoardArrays``), the robot-free paths (:class:`~.records.PathTables`), what a
search keeps fixed (``Spec``), its root (``Start``), A*'s ``Limits``, IDA*'s
transposition ``Table``, and what the raised bound reads (``Goal``,
``BlockerSets``); the searches end with a ``SearchStatus``.  The per-state rule
state (the last move's robot and heading, the target robot's turn and
heading) travels as plain numbers: it changes at every move.

Directions are indices 0..3 = N, E, S, W (bit ``1 << d`` in a wall mask).
Colours are indices 0..5 = red, green, blue, yellow, silver, transparent.

The physics mirrors :mod:`ricochet.position` exactly (property tests compare
the two on random boards); see that module for the rules themselves.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from .. import jitcache
from . import records
from .records import (
    BlockerSets,
    BoardArrays,
    Goal,
    Limits,
    PathTables,
    SearchStatus,
    Spec,
    Start,
    Swept,
    Table,
    TransparentWork,
)

# Kernels build records (records.TransparentWork, Goal, ...): a change of their fields must compile them again.
jitcache.depends_on(__file__, records.__file__)


@intrinsic
def prefetch(typingctx, array, index):  # type: ignore[no-untyped-def]
    """Start loading ``array[index]`` into the cache without waiting for it
    (LLVM's prefetch: read, high locality).  A plain load would hold its
    instruction until the memory answers; A* prefetches every child's map
    bucket before probing any, so their misses overlap."""
    sig = types.void(array, index)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False, boundscheck=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        # The name's pointer suffix (p0 or p0i8) depends on llvmlite's pointer mode.
        fn = builder.module.declare_intrinsic("llvm.prefetch", [i8p], ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]))
        builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


def _bit_count_intrinsic(name: str, doc: str):  # type: ignore[no-untyped-def]
    """A uint64 → uint64 function from LLVM's ``name`` (cttz or ctlz), defined
    for 0 (64)."""

    @intrinsic
    def count(typingctx, x):  # type: ignore[no-untyped-def]
        if x != types.uint64:
            return None
        sig = types.uint64(types.uint64)

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            i64, i1 = ir.IntType(64), ir.IntType(1)
            fn = builder.module.declare_intrinsic(f"llvm.{name}", [i64], ir.FunctionType(i64, [i64, i1]))
            return builder.call(fn, [args[0], ir.Constant(i1, 0)])  # 0: defined (64) for 0

        return sig, codegen

    count.__doc__ = doc
    return count


trailing_zeros = _bit_count_intrinsic("cttz", "Zero bits below the lowest set bit of a uint64 (64 for 0).")
leading_zeros = _bit_count_intrinsic("ctlz", "Zero bits above the highest set bit of a uint64 (64 for 0).")

DX = np.array([0, 1, 0, -1], dtype=np.int64)
DY = np.array([-1, 0, 1, 0], dtype=np.int64)
# Mirror tables indexed [orientation code][heading]: 1 = '/', 2 = '\'.
DEFLECT = np.array([[0, 1, 2, 3], [1, 0, 3, 2], [3, 2, 1, 0]], dtype=np.int64)
INF = 255
TRANSPARENT = 5
# States this close to the bound are searched rather than looked up: the
# table's memory miss costs more than their few remaining moves.
TT_MIN_REMAINING = 0
# Blocker sets kept per cell and slack (kernel.blocker_sets); beyond, the cell's checks give up.
MAX_SETS = 64
# Constants passed from one compiled function to another as numpy integers, not Python ones: numba
# compiles a callee once more for each literal argument it is given (Literal[int](0) beside int64),
# which cost 10-15 s of a cold compile of the solver.
ZERO = np.int64(0)
ONE = np.int64(1)
MAX_SETS_ARG = np.int64(MAX_SETS)
# The sets of slack 1 and more cost a millisecond or more to build: by default (astar's
# ``sets_full_after``) only after this many checks past level 0 (until then the solo
# search runs unfiltered at slack 1, and the slack-0 sets are built cell by cell).
SETS_FULL_AFTER = 16384
# A cell whose slack-0 sets are not built yet (kernel.sets_near); read as unknown.
UNBUILT = -2


def _has_option(name: str) -> bool:
    """Whether numba's CPU target (what ``njit`` compiles for) takes this option."""
    try:
        from numba.core.cpu import CPUTargetOptions
    except ImportError:
        return False
    return hasattr(CPUTargetOptions, name)


# The bound's helpers (and the blocker sets' set operations) allocate nothing, so they
# are compiled without numba's runtime: an array argument then costs no reference
# counting, which is otherwise an atomic increment and decrement per array per call
# (and per inlined call in a loop) — a fifth of a mid-length search's time, measured.
# Numba refuses to compile an allocation in them; a view is safe (its parent, the
# caller's, outlives the call).  ``_nrt`` is numba's own, undocumented option: should a
# release drop it, every kernel would fail to compile ("Unrecognized options"), so the
# leaves then fall back to ordinary functions (slower, the same results).
leaf = njit(cache=True, _nrt=False) if _has_option("_nrt") else njit(cache=True)


@njit(cache=True, inline="always")
def _step(cell, d, W, H, wall, openm):
    """Cell entered leaving ``cell`` heading ``d`` (ignoring obstacles), or -1
    for a wall; second value: 1 when it went through an opening."""
    bit = 1 << d
    x = cell % W
    y = cell // W
    if openm[cell] & bit:
        if d == 0:
            return (H - 1) * W + x, 1
        if d == 1:
            return y * W, 1
        if d == 2:
            return x, 1
        return y * W + W - 1, 1
    if wall[cell] & bit:
        return -1, 0
    return (y + DY[d]) * W + x + DX[d], 0


@njit(cache=True)
def build_paths(W, H, wall, openm, obst, diag, dcol, color):
    """Robot-free paths of a robot of colour ``color`` from every cell in every
    direction: the cells entered, the heading after each, whether a diagonal
    turned it so far, and whether the path ends by repeating a state (a cycle:
    the move is illegal unless a robot stands on it).

    Returns (start[N*4], length[N*4], cyclic[N*4], cells[], heads[], defl[])."""
    N = W * H
    start = np.zeros(N * 4, dtype=np.int32)
    length = np.zeros(N * 4, dtype=np.int32)
    cyclic = np.zeros(N * 4, dtype=np.uint8)
    cap = N * 4 * 8
    cells = np.empty(cap, dtype=np.int32)
    heads = np.empty(cap, dtype=np.int8)
    defl = np.empty(cap, dtype=np.uint8)
    seen = np.zeros(N * 4, dtype=np.int32)
    stamp = 0
    used = 0
    for s in range(N):
        for d in range(4):
            stamp += 1
            idx = s * 4 + d
            start[idx] = used
            cell = s
            h = d
            turned = 0
            seen[cell * 4 + h] = stamp
            n = 0
            while True:
                nxt, _wrapped = _step(cell, h, W, H, wall, openm)
                if nxt < 0 or obst[nxt]:
                    break
                if diag[nxt] != 0 and dcol[nxt] != color:
                    h = DEFLECT[diag[nxt], h]
                    turned = 1
                cell = nxt
                if used + n >= cap:
                    cap *= 2
                    c2 = np.empty(cap, dtype=np.int32)
                    c2[:used + n] = cells[:used + n]
                    cells = c2
                    h2 = np.empty(cap, dtype=np.int8)
                    h2[:used + n] = heads[:used + n]
                    heads = h2
                    f2 = np.empty(cap, dtype=np.uint8)
                    f2[:used + n] = defl[:used + n]
                    defl = f2
                cells[used + n] = cell
                heads[used + n] = h
                defl[used + n] = turned
                n += 1
                if seen[cell * 4 + h] == stamp:
                    cyclic[idx] = 1
                    break
                seen[cell * 4 + h] = stamp
            length[idx] = n
            used += n
    return start, length, cyclic, cells[:used].copy(), heads[:used].copy(), defl[:used].copy()


@njit(cache=True)
def relaxed_distance(N, pstart, plen, pcells, target):
    """Lower bound on the moves a robot needs from each cell to ``target``:
    its distance when it may stop on any cell of a robot-free path (other
    robots can only shorten a path, never extend it)."""
    dist = np.full(N, INF, dtype=np.int32)
    dist[target] = 0
    k = 0
    changed = True
    while changed:
        changed = False
        for c in range(N):
            if dist[c] != INF:
                continue
            for d in range(4):
                idx = c * 4 + d
                o = pstart[idx]
                hit = False
                for j in range(plen[idx]):
                    if dist[pcells[o + j]] == k:
                        hit = True
                        break
                if hit:
                    dist[c] = k + 1
                    changed = True
                    break
        k += 1
    return dist


@njit(cache=True)
def solo_approach(pos, t, paths, hdist):
    """How close robot ``t`` gets to the target by moving alone while the
    other robots stand still: the least relaxed distance ``hdist`` over the
    cells it can reach (0: it can finish alone; INF: nowhere), along the
    robots' ``paths`` (:class:`~.records.PathTables`).  Breadth-first over its stops,
    plain moves, no rule state: an estimate of a puzzle's difficulty for
    scheduling, not a bound (the further a robot stays, the more helper
    moves it needs, and those puzzles are the long ones).  ``paths`` may be a
    plain tuple of its fields (see :mod:`.records`: Python's calls pass one)."""
    paths = PathTables(*paths)
    N = hdist.shape[0]
    pstart, plen, pcyc, pcells = paths.start, paths.length, paths.cyclic, paths.cells
    occ = np.zeros(N, dtype=np.uint8)
    for q in range(pos.shape[0]):
        if q != t:
            occ[pos[q]] = 1
    seen = np.zeros(N, dtype=np.uint8)
    queue = np.empty(N, dtype=np.int64)
    seen[pos[t]] = 1
    queue[0] = pos[t]
    head, tail = 0, 1
    best = INF
    while head < tail:
        c = queue[head]
        head += 1
        best = min(best, hdist[c])
        if best == 0:
            return 0
        for d in range(4):
            idx = c * 4 + d
            o = pstart[t, idx]
            end = c
            broke = False
            for j in range(plen[t, idx]):
                x = pcells[o + j]
                if occ[x]:
                    broke = True
                    break
                end = x
            if end != c and (broke or not pcyc[t, idx]) and not seen[end]:
                seen[end] = 1
                queue[tail] = end
                tail += 1
    return best


@njit(cache=True)
def transparent_moves(s, d, board, occ, tw, mv, depth, n_out):
    """Append the transparent robot's cheapest stops moving ``d`` from ``s``
    on ``board`` (:class:`~.records.BoardArrays`: ``W``, ``H``, ``wall``,
    ``openm``, ``obst``, ``diag``, ``passable``) to row ``depth`` of the move
    buffers ``mv`` (:func:`_move_buffers`: its end, heading, deflected flag
    and cost; the caller writes the robot and direction), from ``n_out`` on;
    returns the new count.  Occupancy ``occ`` must not include the robot
    itself.  A bucketed Dijkstra over (cell, heading), FIFO within a cost,
    like the engine's, in the scratch arrays ``tw``
    (:class:`~.records.TransparentWork`: ``best``, ``bstamp``, ``bdefl``,
    ``queue``, ``qhead``, ``qtail``, ``stopc``, ``sstamp``; each call takes
    the next ``stamp``)."""
    W, H, wall, openm, obst, diag, passable = board.W, board.H, board.wall, board.openm, board.obst, board.diag, \
        board.passable
    best, bstamp, bdefl, queue, qhead, qtail, stopc, sstamp = tw.best, tw.bstamp, tw.bdefl, tw.queue, tw.qhead, \
        tw.qtail, tw.stopc, tw.sstamp
    out_end, out_head, out_defl, out_cost = mv[2, depth], mv[3, depth], mv[4, depth], mv[5, depth]
    tw.stamp[0] += 1
    stamp = tw.stamp[0]
    cap = queue.shape[1]
    for b in range(3):
        qhead[b] = 0
        qtail[b] = 0
    st = s * 4 + d
    bstamp[st] = stamp
    best[st] = 0
    bdefl[st] = 0
    queue[0, 0] = st
    qtail[0] = 1
    pending = 1
    cost = 0
    while pending > 0:
        b = cost % 3
        if qhead[b] == qtail[b]:
            cost += 1
            continue
        state = queue[b, qhead[b] % cap]
        qhead[b] += 1
        pending -= 1
        if best[state] != cost:
            continue
        cell = state // 4
        h = state % 4
        nxt, _wrapped = _step(cell, h, W, H, wall, openm)
        passed = 0
        if nxt < 0 and (passable[cell] & (1 << h)):
            nxt = (cell // W + DY[h]) * W + cell % W + DX[h]
            passed = 1
        blocked = nxt < 0 or obst[nxt] != 0 or occ[nxt] != 0
        if (blocked or passed == 1) and cell != s and sstamp[cell] != stamp:
            sstamp[cell] = stamp
            stopc[cell] = n_out
            out_end[n_out] = cell
            out_cost[n_out] = 1 + cost
            out_head[n_out] = h
            out_defl[n_out] = bdefl[state]
            n_out += 1
        if blocked:
            continue
        c0 = cost + passed
        if diag[nxt] == 0:
            opts = 1
        else:
            opts = 2
        for o in range(opts):
            if diag[nxt] == 0:
                nh = h
                nc = c0
                nd = bdefl[state]
            elif o == 0:
                nh = DEFLECT[diag[nxt], h]
                nc = c0
                nd = 1
            else:
                nh = h
                nc = c0 + 1
                nd = bdefl[state]
            ns = nxt * 4 + nh
            if bstamp[ns] != stamp or nc < best[ns]:
                bstamp[ns] = stamp
                best[ns] = nc
                bdefl[ns] = nd
                bb = nc % 3
                queue[bb, qtail[bb] % cap] = ns
                qtail[bb] += 1
                pending += 1
    return n_out


@njit(cache=True)
def _transparent_workspace(N, tr):
    """Scratch arrays of :func:`transparent_moves`, a
    :class:`~.records.TransparentWork` (tiny when there is no transparent
    robot: ``tr`` < 0)."""
    M = N * 4 if tr >= 0 else 1
    n = N if tr >= 0 else 1
    # Views of two buffers: one allocation per dtype (every A* and IDA* call makes these).
    i32 = np.zeros(2 * M + 3 * (M + 1) + n, dtype=np.int32)
    i64 = np.zeros(M + 7 + n, dtype=np.int64)
    return TransparentWork(i32[:M], i64[:M], i32[M:2 * M], i32[2 * M:2 * M + 3 * (M + 1)].reshape((3, M + 1)),
                           i64[M:M + 3], i64[M + 3:M + 6], i32[2 * M + 3 * (M + 1):], i64[M + 6:M + 6 + n],
                           i64[M + 6 + n:])


@njit(cache=True, inline="always")
def _hash(k1, k2):
    x = k1 ^ (np.uint64(k2) * np.uint64(0xD6E8FEB86659FD93))
    x = x * np.uint64(0x9E3779B97F4A7C15)
    return x ^ (x >> np.uint64(29))


PROBES = 4  # entries per bucket: 4 × 16 bytes = one cache line
GEN_SHIFT = 20
MAX_GEN = (1 << 12) - 1
LOW32 = np.uint64(0xFFFFFFFF)

# The transposition table is one uint64 array of 2 words per entry: the packed
# robot cells (k1), then k2 (rule state, target robot, generation) in the low
# 32 bits and the value in the next 8.  A key probes the 4 entries of its
# bucket, which share a cache line: one memory miss per lookup.


@njit(cache=True, inline="always")
def tt_lookup(k1, k2, tt, mask):
    """Stored value for a key (0: unknown)."""
    base = (_hash(k1, k2) & mask) & ~np.uint64(3)
    for p in range(PROBES):
        j = (base + np.uint64(p)) * np.uint64(2)
        meta = tt[j + 1]
        if meta == 0:
            return 0
        if tt[j] == k1 and (meta & LOW32) == k2:
            return (meta >> np.uint64(32)) & np.uint64(0xFF)
    return 0


@njit(cache=True, inline="always")
def tt_store(k1, k2, v, tt, mask):
    """Record value v for a key; returns 1 when a slot was newly taken.  An
    entry of another generation is free; when the bucket is full the
    shallowest entry is replaced (entries are hints: losing one costs time,
    never correctness)."""
    base = (_hash(k1, k2) & mask) & ~np.uint64(3)
    gen = np.uint64(k2) >> np.uint64(GEN_SHIFT)
    worst = base * np.uint64(2)
    worst_v = np.uint64(256)
    meta_new = np.uint64(k2) | (np.uint64(v) << np.uint64(32))
    for p in range(PROBES):
        j = (base + np.uint64(p)) * np.uint64(2)
        meta = tt[j + 1]
        if meta == 0 or ((meta & LOW32) >> np.uint64(GEN_SHIFT)) != gen:
            tt[j] = k1
            tt[j + 1] = meta_new
            return 1
        if tt[j] == k1 and (meta & LOW32) == k2:
            if np.uint64(v) > (meta >> np.uint64(32)):
                tt[j + 1] = meta_new
            return 0
        mv = meta >> np.uint64(32)
        if mv < worst_v:
            worst_v = mv
            worst = j
    if np.uint64(v) >= worst_v:
        tt[worst] = k1
        tt[worst + 1] = meta_new
    return 0


@njit(cache=True, inline="always")
def _rule_key(code, spec, last_h, turned, t_head):
    """The second key word: the no-straight-back ``code`` (0 no last move,
    1 the target robot, 2 + i the i-th helper in key order) and heading
    (with ``spec.nsb``), the must-ricochet state (``spec.mr``) and the
    target robot ``spec.t``, below bit ``GEN_SHIFT``: IDA* adds its
    search's generation above (:func:`generation_bits`)."""
    k2 = 0
    if spec.nsb:
        k2 = code * 4 + last_h
    if spec.mr:
        k2 = (k2 * 2 + turned) * 5 + (t_head + 1)
    return np.uint64(k2 * 8 + (spec.t + 1))


@njit(cache=True, inline="always")
def generation_bits(gen):
    """A search's generation where a key's second word holds it: it tags
    every entry of the transposition table, so a table can serve many
    searches without being cleared (see tt_lookup / tt_store)."""
    return np.uint64(gen) << np.uint64(GEN_SHIFT)


@njit(cache=True, inline="always")
def state_key(pos, spec, last_r, last_h, turned, t_head, scratch):
    """Pack a search state into (k1, k2): the robots' cells ``pos``, the rule
    state (the last move's robot and heading, the target robot's turn and
    heading), keyed as ``spec`` (:class:`~.records.Spec`: ``R``, ``t``,
    ``bits``, ``sort_helpers``, ``nsb``, ``mr``); ``scratch``: room for R
    cells.  With interchangeable helpers their cells are sorted (a
    state and its helper permutations are one entry).  k1 is the target
    robot's cell, then the helpers' cells, the first one in the most
    significant place (t < 0, any robot may finish: every robot is a
    helper).  :func:`child_key` computes the same from a parent's k1."""
    R, t, bits, sort_helpers, nsb = spec.R, spec.t, spec.bits, spec.sort_helpers, spec.nsb
    n = 0
    for i in range(R):
        if i != t:
            scratch[n] = pos[i]
            n += 1
    if sort_helpers:
        for i in range(1, n):
            v = scratch[i]
            j = i - 1
            while j >= 0 and scratch[j] > v:
                scratch[j + 1] = scratch[j]
                j -= 1
            scratch[j + 1] = v
    k1 = np.uint64(pos[t]) if t >= 0 else np.uint64(0)
    for i in range(n):
        k1 = (k1 << np.uint64(bits)) | np.uint64(scratch[i])
    code = 0
    if nsb and last_r >= 0:
        if last_r == t:
            code = 1
        else:
            cell = pos[last_r]
            for i in range(n):
                if scratch[i] == cell:
                    code = 2 + i
                    break
    return k1, _rule_key(code, spec, last_h, turned, t_head)


@njit(cache=True, inline="always")
def word_key(w, spec):
    """The k1 of :func:`state_key` from a record's packed cells ``w`` (robot
    q in bits q·bits up): no array, like :func:`child_key`."""
    R, t, bits, sort_helpers = spec.R, spec.t, spec.bits, spec.sort_helpers
    b = np.uint64(bits)
    cm = (np.uint64(1) << b) - np.uint64(1)
    helpers = np.uint64(0)
    n = 0
    for q in range(R):
        if q == t:
            continue
        v = (w >> (np.uint64(q) * b)) & cm
        if sort_helpers:
            # Insert v into the ascending list (first = most significant).
            below = 0
            for i in range(n):
                if (helpers >> (np.uint64(n - 1 - i) * b)) & cm < v:
                    below += 1
            low_bits = np.uint64(n - below) * b
            low = helpers & ((np.uint64(1) << low_bits) - np.uint64(1))
            helpers = ((((helpers >> low_bits) << b) | v) << low_bits) | low
        else:
            helpers = (helpers << b) | v
        n += 1
    if t < 0:
        return helpers
    return (((w >> (np.uint64(t) * b)) & cm) << (np.uint64(n) * b)) | helpers


@njit(cache=True, inline="always")
def child_key(k1, spec, field, old, new, last_h, turned, t_head):
    """:func:`state_key` of a child, from its parent's k1: the robot that
    moved from ``old`` to ``new`` (its heading now ``last_h``; the target
    robot's turn and heading ``turned``, ``t_head``) is the target robot
    (``field`` -1) or the helper in key place ``field`` (robot order; found
    by value when sorted).  No array (``spec``, :class:`~.records.Spec`,
    holds numbers only): an array argument of an inlined function costs
    reference counting, and this runs for every child."""
    bits, sort_helpers = spec.bits, spec.sort_helpers
    n = spec.R if spec.t < 0 else spec.R - 1  # helpers
    b = np.uint64(bits)
    cm = (np.uint64(1) << b) - np.uint64(1)
    low = np.uint64(n) * b  # at most 60: 6 robots of 10 bits
    helpers = np.uint64(k1) & ((np.uint64(1) << low) - np.uint64(1))
    top = np.uint64(k1) >> low
    result = helpers
    code = 1
    if field < 0:
        top = np.uint64(new)
    elif not sort_helpers:
        sh = np.uint64(n - 1 - field) * b
        result = (helpers & ((cm << sh) ^ np.uint64(0xFFFFFFFFFFFFFFFF))) | (np.uint64(new) << sh)
        code = 2 + field
    else:
        # Remove ``old`` from the ascending list and insert ``new``.
        result = np.uint64(0)
        placed = False
        count = 0
        for i in range(n):
            v = (helpers >> (np.uint64(n - 1 - i) * b)) & cm
            if v == np.uint64(old):
                continue
            if not placed and np.uint64(new) < v:
                result = (result << b) | np.uint64(new)
                code = 2 + count
                count += 1
                placed = True
            result = (result << b) | v
            count += 1
        if not placed:
            result = (result << b) | np.uint64(new)
            code = 2 + count
    return (top << low) | result, _rule_key(code, spec, last_h, turned, t_head)


@njit(cache=True, inline="always")
def _move_buffers(rows, M):
    """The move generators' buffer: ``mv[0..5, depth, k]`` the robot,
    direction, end, heading, deflected flag and cost of move ``k`` at
    ``depth``, ``rows`` × ``M`` each.  The generators take it whole: each
    array an inlined function takes costs numba reference counting on every
    call that it cannot always prune."""
    return np.empty((6, rows, M), dtype=np.int32)


@njit(cache=True, inline="always")
def _gen(depth, pos, occ, spec, last_r, last_h, helpers, paths, mv):
    """Every legal move of the ordinary robots at this node (robots' cells
    ``pos``, occupancy ``occ``, the last move's robot and heading) into row
    ``depth`` of the move buffers ``mv``, the target robot's first (they can
    finish); only the target robot's when ``helpers`` is false.  Reads
    ``spec`` (:class:`~.records.Spec`: ``R``, ``t``, ``tr``, ``nsb``,
    ``no_undo``) and the robot-free ``paths`` (:class:`~.records.PathTables`: every
    field).  Kept small on purpose: this is the hot loop (the transparent
    robot has its own generator)."""
    R, t, tr, nsb, no_undo = spec.R, spec.t, spec.tr, spec.nsb, spec.no_undo
    pstart, plen, pcyc, pcells, pheads, pdefl = paths.start, paths.length, paths.cyclic, paths.cells, paths.heads, \
        paths.defl
    n = 0
    for k in range(R if helpers else 1):
        r = k if t < 0 else (t if k == 0 else (k - 1 if k - 1 < t else k))
        if r == tr:
            continue
        s = pos[r]
        occ[s] = 0
        for d in range(4):
            # Reversing one's own last move: forbidden by no-straight-back, and
            # useless where moves are reversible (see api.py).
            if (nsb or no_undo) and last_r == r and d == (last_h + 2) % 4:
                continue
            idx = s * 4 + d
            o = pstart[r, idx]
            L = plen[r, idx]
            end = s
            last = -1
            broke = False
            for j in range(L):
                c = pcells[o + j]
                if occ[c]:
                    broke = True
                    break
                end = c
                last = j
            if not broke and pcyc[r, idx]:
                continue
            if end == s:
                continue
            mv[0, depth, n] = r
            mv[1, depth, n] = d
            mv[2, depth, n] = end
            mv[3, depth, n] = pheads[o + last]
            mv[4, depth, n] = pdefl[o + last]
            mv[5, depth, n] = 1
            n += 1
        occ[s] = 1
    return n


@njit(cache=True, inline="always")
def commuting_dropped(r, d, s, end, last, spec, xy):
    """Whether :func:`_gen_lines` drops robot ``r``'s move (direction ``d``,
    from ``s`` to ``end``) as the later half of a commuting pair, after the
    state's last move ``last`` (:class:`~.records.Swept`: robot ``last.r``
    moved along its row (``along`` 1) or column (0) numbered ``line``, from
    ``u0`` to ``u1`` (cells along that line), keyed ``key`` (its end cell *
    4 + heading), sweeping the cells ``lo``..``hi``, from its start to the
    cell after its stop); ``spec``: the target robot ``t`` and cell
    ``target``; ``xy``: each cell's column and row.

    The two moves commute when neither can meet the other robot: ``r``
    neither starts nor ends on the cells ``last_r`` swept, and its own path,
    up to and including the cell after its stop, passes neither where
    ``last_r`` started nor where it stopped.  Both orders then lead to the
    same state at the same cost.  Of such a pair only the order whose first
    move has the smaller key (end cell * 4 + direction, which a move keeps
    in either order) is searched.  The state the dropped move leads to is
    then reached through the other order, from a state whose own last move
    may in turn drop that move only in favour of one with a larger key
    still, which cannot go on for ever: A* stays complete and optimal.  (The
    proof needs plain sliding moves and keys without the last move: no
    diagonal, opening, tower or transparent robot, no rule state.)  A move
    that finishes (a finishing robot onto the target) is never dropped."""
    along, line, zlo, zhi, u0, u1, t = last.along, last.line, last.lo, last.hi, last.u0, last.u1, spec.t
    if r == last.r or end * 4 + d >= last.key or ((r == t or t < 0) and end == spec.target):
        return False
    a = xy[along, s]  # the start's and the end's lines (rows, or columns), as ``line``
    b = xy[along, end]
    if a == b:  # along a parallel line, or along the same one
        if a != line:
            return True
        # Along the same line: the cells ``r`` sweeps, its start to the cell after its stop,
        # all on one side of those ``last_r`` swept.  (No min()/max(): see below.)
        va = xy[1 - along, s]
        vb = xy[1 - along, end]
        if vb > va:
            return vb + 1 < zlo or va > zhi
        return va < zlo or vb - 1 > zhi
    # Across the lines: ``r`` meets the line at most at one cell, v along it.
    if b > a:
        if line < a or line > b + 1:
            return True
    elif line > a or line < b - 1:
        return True
    v = xy[1 - along, s]
    if line == a or line == b:  # it starts or stops on the line: off the cells swept
        return v < zlo or v > zhi
    return v != u0 and v != u1  # it crosses the line (or stops before it) off both ends


@njit(cache=True, inline="always")
def _gen_lines(depth, pos, spec, last_r, last_h, last_from, helpers, board, plen, lines, mv):
    """:func:`_gen` where every move is a straight line (no diagonal, no
    opening, no transparent robot): a move stops at the robot-free ray's end
    (``plen``, :attr:`~.records.PathTables.length`) or before the nearest robot on
    its row or column, found in the robots' bit masks (``lines[y]``: bit x
    of each robot in row y; ``lines[H + x]``: bit y of each in column x) by
    counting zero bits, not by walking the ray.  Reads ``board``
    (:class:`~.records.BoardArrays`: ``W``, ``H`` and ``xy``, each cell's
    column and row) and ``spec`` (``R``, ``t``, ``nsb``, ``no_undo``).  Under
    plain sliding moves with keys that hold no rule state (``spec``:
    ``no_undo``, neither ``nsb`` nor ``mr``), after a last move that started
    ``last_from`` cells along its row or column (-1: unknown), of two
    commuting moves one order only (:func:`commuting_dropped`)."""
    R, t, nsb, no_undo = spec.R, spec.t, spec.nsb, spec.no_undo
    W, H, xy = board.W, board.H, board.xy
    one = np.uint64(1)
    n = 0
    drop = no_undo and not nsb and not spec.mr and last_r >= 0 and last_from >= 0
    along = 1 if last_h % 2 == 1 else 0  # the last move went along a row (E, W), else a column
    u1 = xy[1 - along, pos[last_r]] if drop else -1  # where it stopped along the line
    # The cells it swept, its start to the cell after its stop (N and W count down).
    last = Swept(last_r, pos[last_r] * 4 + last_h if drop else -1, along, xy[along, pos[last_r]] if drop else -1,
                 u1 - 1 if last_h == 0 or last_h == 3 else last_from,
                 last_from if last_h == 0 or last_h == 3 else u1 + 1, last_from, u1)
    for k in range(R if helpers else 1):
        r = k if t < 0 else (t if k == 0 else (k - 1 if k - 1 < t else k))
        s = pos[r]
        x = xy[0, s]
        y = xy[1, s]
        row = lines[y]
        col = lines[H + x]
        for d in range(4):
            if (nsb or no_undo) and last_r == r and d == (last_h + 2) % 4:
                continue
            L = np.int64(plen[r, s * 4 + d])
            # The robot's own bit is never in range: each ray starts one cell away.
            if d == 0:  # N: the highest robot bit below y
                steps = y - 64 + np.int64(leading_zeros(col & ((one << np.uint64(y)) - one)))
                stride = -W
            elif d == 1:  # E: the lowest robot bit above x
                steps = np.int64(trailing_zeros(row >> np.uint64(x + 1)))
                stride = 1
            elif d == 2:  # S
                steps = np.int64(trailing_zeros(col >> np.uint64(y + 1)))
                stride = W
            else:  # W
                steps = x - 64 + np.int64(leading_zeros(row & ((one << np.uint64(x)) - one)))
                stride = -1
            # Not min(): a call here (numba's min is one) keeps numba from pruning the
            # reference counting of the array arguments around this inlined function.
            if L < steps:  # noqa: PLR1730
                steps = L
            if steps == 0:
                continue
            end = s + steps * stride
            if drop and commuting_dropped(r, d, s, end, last, spec, xy):
                continue
            mv[0, depth, n] = r
            mv[1, depth, n] = d
            mv[2, depth, n] = end
            mv[3, depth, n] = d
            mv[4, depth, n] = 0
            mv[5, depth, n] = 1
            n += 1
    return n


@njit(cache=True)
def _gen_transparent(depth, n, pos, occ, spec, last_r, last_h, helpers, board, tw, mv):
    """Append the transparent robot's moves (one per reachable stop) to row
    ``depth`` of the move buffers ``mv`` after the ``n`` there; the new count
    (:func:`transparent_moves` on ``board`` with the scratch arrays ``tw``;
    ``spec``: ``t``, ``tr``, ``nsb``)."""
    t, tr = spec.t, spec.tr
    if not helpers and tr != t:
        return n
    s = pos[tr]
    occ[s] = 0
    for d in range(4):
        if spec.nsb and last_r == tr and d == (last_h + 2) % 4:
            continue
        n0 = n
        n = transparent_moves(s, d, board, occ, tw, mv, depth, n)
        for j in range(n0, n):
            mv[0, depth, j] = tr
            mv[1, depth, j] = d
    occ[s] = 1
    return n


@njit(cache=True)
def ida(spec, board, paths, hdist, start, bound, node_budget, all_mode, table, sol):
    """One cost-bounded depth-first iteration (IDA*) for target robot
    ``spec.t`` from ``start`` (:class:`~.records.Start`: the robots' cells
    ``pos`` and the rule state ``last_r``, ``last_h``, ``turned``,
    ``t_head``), on ``board`` (:class:`~.records.BoardArrays`, read by the
    transparent robot's moves) along the robot-free ``paths``
    (:class:`~.records.PathTables`); ``spec`` (:class:`~.records.Spec`): ``R``,
    ``t``, ``target``, ``tr``, ``nsb``, ``mr``, ``no_undo``, ``M`` and the
    keys' ``bits`` and ``sort_helpers``.

    Prunes with ``g + h > bound`` (h: ``hdist``, the relaxed distance of the
    target robot) and with the transposition table (``table``,
    :class:`~.records.Table`: ``entries``, ``mask``, the search's ``gen``),
    whose value for a state is 1 + the remaining cost proven to hold no
    solution.  Returns (status, nodes, solutions, filled): status a
    :class:`~.records.SearchStatus`, ``FOUND``, ``NONE_WITHIN`` the bound or
    ``CAP_REACHED`` past ``node_budget`` nodes; with ``all_mode`` every
    solution within the bound.  Solutions are written to the rows of
    ``sol[0]`` (robots, -1 after the last move), ``sol[1]`` (directions) and
    ``sol[2]`` (ends).  The records may come as plain tuples of their fields
    (see :mod:`.records`: Python's calls pass them so)."""
    spec, board, paths, start, table = Spec(*spec), BoardArrays(*board), PathTables(*paths), Start(*start), \
        Table(*table)
    R, t, target, tr, mr = spec.R, spec.t, spec.target, spec.tr, spec.mr
    tt, mask, gbits = table.entries, table.mask, generation_bits(table.gen)
    sol_r, sol_d, sol_e = sol[0], sol[1], sol[2]
    maxd = bound + 1
    M = spec.M
    mv = _move_buffers(maxd, M)
    mv_r, mv_d, mv_e, mv_h, mv_f, mv_c = mv[0], mv[1], mv[2], mv[3], mv[4], mv[5]
    nmv = np.zeros(maxd, dtype=np.int32)
    it = np.zeros(maxd, dtype=np.int32)
    g = np.zeros(maxd + 1, dtype=np.int32)
    sv_pos = np.zeros(maxd, dtype=np.int32)
    sv_lr = np.zeros(maxd, dtype=np.int32)
    sv_lh = np.zeros(maxd, dtype=np.int32)
    sv_tu = np.zeros(maxd, dtype=np.int32)
    sv_th = np.zeros(maxd, dtype=np.int32)
    found_below = np.zeros(maxd + 1, dtype=np.uint8)
    scratch = np.empty(8, dtype=np.int64)
    tw = _transparent_workspace(board.N, tr)  # the transparent robot's search's

    pos = start.pos.copy()
    occ = np.zeros(board.N, dtype=np.uint8)
    for i in range(R):
        occ[pos[i]] = 1
    last_r = start.last_r
    last_h = start.last_h
    turned = start.turned
    t_head = start.t_head
    nodes = 0
    nsol = 0
    filled = 0
    max_sol = sol_r.shape[0]

    depth = 0
    n = _gen(0, pos, occ, spec, last_r, last_h, 1 + hdist[pos[t]] <= bound, paths, mv)
    if tr >= 0:
        n = _gen_transparent(ZERO, n, pos, occ, spec, last_r, last_h, 1 + hdist[pos[t]] <= bound, board, tw, mv)
    nmv[0] = n
    it[0] = 0
    while True:
        if it[depth] >= nmv[depth]:
            if found_below[depth] == 0 and bound - g[depth] > TT_MIN_REMAINING:
                k1, k2 = state_key(pos, spec, last_r, last_h, turned, t_head, scratch)
                filled += tt_store(k1, k2 | gbits, bound - g[depth] + 1, tt, mask)
            if depth == 0:
                break
            depth -= 1
            k = it[depth] - 1
            r = mv_r[depth, k]
            occ[pos[r]] = 0
            pos[r] = sv_pos[depth]
            occ[pos[r]] = 1
            last_r = sv_lr[depth]
            last_h = sv_lh[depth]
            turned = sv_tu[depth]
            t_head = sv_th[depth]
            if found_below[depth + 1]:
                found_below[depth] = 1
            continue
        k = it[depth]
        it[depth] = k + 1
        r = mv_r[depth, k]
        d = mv_d[depth, k]
        e = mv_e[depth, k]
        g2 = g[depth] + mv_c[depth, k]
        if g2 > bound:
            continue
        n_turned = turned
        n_th = t_head
        if mr and r == t:
            if mv_f[depth, k] or (t_head >= 0 and (t_head - d) % 2 != 0):
                n_turned = 1
            n_th = mv_h[depth, k]
        if r == t and e == target and (n_turned or not mr):
            if nsol < max_sol:
                for j in range(depth):
                    kk = it[j] - 1
                    sol_r[nsol, j] = mv_r[j, kk]
                    sol_d[nsol, j] = mv_d[j, kk]
                    sol_e[nsol, j] = mv_e[j, kk]
                sol_r[nsol, depth] = r
                sol_d[nsol, depth] = d
                sol_e[nsol, depth] = e
                if depth + 1 < sol_r.shape[1]:
                    sol_r[nsol, depth + 1] = -1
            nsol += 1
            if not all_mode:
                return SearchStatus.FOUND, nodes, nsol, filled
            found_below[depth] = 1
            continue
        pt = e if r == t else pos[t]
        hh = hdist[pt]
        if hh == 0:
            hh = 1
        if g2 + hh > bound:
            continue
        # apply
        sv_pos[depth] = pos[r]
        sv_lr[depth] = last_r
        sv_lh[depth] = last_h
        sv_tu[depth] = turned
        sv_th[depth] = t_head
        occ[pos[r]] = 0
        pos[r] = e
        occ[e] = 1
        last_r = r
        last_h = mv_h[depth, k]
        turned = n_turned
        t_head = n_th
        nodes += 1
        stored = 0
        if bound - g2 > TT_MIN_REMAINING:
            k1, k2 = state_key(pos, spec, last_r, last_h, turned, t_head, scratch)
            stored = tt_lookup(k1, k2 | gbits, tt, mask)
        if stored > bound - g2:
            occ[e] = 0
            pos[r] = sv_pos[depth]
            occ[pos[r]] = 1
            last_r = sv_lr[depth]
            last_h = sv_lh[depth]
            turned = sv_tu[depth]
            t_head = sv_th[depth]
            continue
        depth += 1
        g[depth] = g2
        found_below[depth] = 0
        n = _gen(depth, pos, occ, spec, last_r, last_h, g2 + 1 + hdist[pos[t]] <= bound, paths, mv)
        if tr >= 0:
            n = _gen_transparent(depth, n, pos, occ, spec, last_r, last_h, g2 + 1 + hdist[pos[t]] <= bound, board,
                                 tw, mv)
        nmv[depth] = n
        it[depth] = 0
        if nodes > node_budget:
            return SearchStatus.CAP_REACHED, nodes, nsol, filled
    return (SearchStatus.FOUND if nsol > 0 else SearchStatus.NONE_WITHIN), nodes, nsol, filled


@njit(cache=True)
def tt_rehash(tt, new, nmask, gen):
    """Move the entries of generation ``gen`` into a larger table; returns the count."""
    n = 0
    for j in range(0, tt.shape[0], 2):
        meta = tt[j + 1]
        if meta != 0 and ((meta & LOW32) >> np.uint64(GEN_SHIFT)) == gen:
            n += tt_store(tt[j], meta & LOW32, (meta >> np.uint64(32)) & np.uint64(0xFF), new, nmask)
    return n


LOW16 = np.uint64(0xFFFF)


@njit(cache=True, inline="always")
def _map_find(k1, k2, hm, hmask):
    """Slot of a key in the A* state map: one uint64 array of 2 words per slot,
    k1, then k2 (16 bits) | g << 16 (8 bits) | (state index + 1) << 24 (0:
    free).  The cost is in the entry so a duplicate is rejected with one
    memory access; linear probing stays in a cache line most of the time."""
    j = _hash(k1, k2) & hmask
    while True:
        w = hm[2 * j + 1]
        if w == 0 or (hm[2 * j] == k1 and (w & LOW16) == k2):
            return j
        j = (j + np.uint64(1)) & hmask


@njit(cache=True, inline="always")
def _map_index(hm, slot):
    """State index stored in a slot (-1: free)."""
    return np.int64(hm[2 * slot + 1] >> np.uint64(24)) - 1


@njit(cache=True, inline="always")
def _map_cost(hm, slot):
    return np.int64((hm[2 * slot + 1] >> np.uint64(16)) & np.uint64(0xFF))


# The compact map: one word per slot, k1 << 32 | g << 25 | (index + 1), when
# k1 fits in 32 bits and k2 is the same for every state of the search (no
# rule state: 4 robots on 16×16 under plain rules).  Half the memory traffic.
C_IDX = np.uint64((1 << 25) - 1)
MAP_QUADRUPLES_BELOW = 18  # hbits: up to 2**18 slots (2 MiB compact) the map grows 4×


@njit(cache=True, inline="always")
def _cmap_find(k1, hm, hmask):
    j = _hash(k1, 0) & hmask
    while True:
        w = hm[j]
        if w == 0 or (w >> np.uint64(32)) == k1:
            return j
        j = (j + np.uint64(1)) & hmask


@njit(cache=True, inline="always")
def _slot_find(compact, k1, k2, hm, hmask):
    if compact:
        return _cmap_find(k1, hm, hmask)
    return _map_find(k1, k2, hm, hmask)


@njit(cache=True, inline="always")
def _slot_index(compact, hm, slot):
    if compact:
        return np.int64(hm[slot] & C_IDX) - 1
    return _map_index(hm, slot)


@njit(cache=True, inline="always")
def _slot_cost(compact, hm, slot):
    if compact:
        return np.int64((hm[slot] >> np.uint64(25)) & np.uint64(0x7F))
    return _map_cost(hm, slot)


@njit(cache=True, inline="always")
def cmap_word(k1, g, idx):
    """A compact map slot: key ``k1``, cost ``g``, state ``idx``."""
    return (k1 << np.uint64(32)) | (np.uint64(g) << np.uint64(25)) | np.uint64(idx + 1)


@njit(cache=True, inline="always")
def _slot_store(compact, k1, k2, g, idx, hm, slot):
    if compact:
        hm[slot] = cmap_word(k1, g, idx)
    else:
        hm[2 * slot] = k1
        hm[2 * slot + 1] = k2 | (np.uint64(g) << np.uint64(16)) | (np.uint64(idx + 1) << np.uint64(24))


@njit(cache=True)
def _map_grow(compact, hm, hbits):
    """The map rehashed into twice the slots."""
    nhmask = np.uint64((1 << hbits) - 1)
    if compact:
        nm = np.zeros(1 << hbits, dtype=np.uint64)
        for jj in range(hm.shape[0]):
            w = hm[jj]
            if w != 0:
                nm[_cmap_find(w >> np.uint64(32), nm, nhmask)] = w
        return nm
    nm = np.zeros(2 << hbits, dtype=np.uint64)
    for jj in range(hm.shape[0] // 2):
        w = hm[2 * jj + 1]
        if w != 0:
            s2 = _map_find(hm[2 * jj], w & LOW16, nm, nhmask)
            nm[2 * s2] = hm[2 * jj]
            nm[2 * s2 + 1] = w
    return nm


@njit(cache=True)
def _grown(a):
    """A copy of ``a`` with four times the room while it is small, else twice
    (the rest uninitialised: pages never written cost no memory)."""
    out = np.empty((4 if a.shape[0] < (1 << 20) else 2) * a.shape[0], dtype=a.dtype)
    out[:a.shape[0]] = a
    return out


@njit(cache=True, inline="always")
def record_word(parent, g, r, d, ext, level):
    """A state record's second word (see :func:`astar`): ``parent`` + 1, g, the
    move (robot ``r``, direction ``d``), the rule state ``ext`` and the bound's
    ``level`` (uint64)."""
    return (np.uint64(parent + 1) | (np.uint64(g) << np.uint64(32)) | (np.uint64(r) << np.uint64(40))
            | (np.uint64(d) << np.uint64(43)) | (np.uint64(ext) << np.uint64(45)) | (level << np.uint64(60)))


@njit(cache=True)
def _rebuild(i, r, d, e, rec, bits, R):
    """Moves from the root to state ``i`` along parent links, then (r, d, e):
    rows robot, direction and end, a column per move (one array: each array
    a kernel returns costs boxing)."""
    length = 1
    s = i
    while np.int64(rec[2 * s + 1] & LOW32) != 0:
        length += 1
        s = np.int64(rec[2 * s + 1] & LOW32) - 1
    out = np.empty((3, length), dtype=np.int32)
    out_r, out_d, out_e = out[0], out[1], out[2]
    out_r[length - 1] = r
    out_d[length - 1] = d
    out_e[length - 1] = e
    cmask = np.uint64((1 << bits) - 1)
    s = i
    q = length - 2
    while np.int64(rec[2 * s + 1] & LOW32) != 0:
        w1 = rec[2 * s + 1]
        mr_ = np.int64((w1 >> np.uint64(40)) & np.uint64(7))
        out_r[q] = mr_
        out_d[q] = np.int64((w1 >> np.uint64(43)) & np.uint64(3))
        out_e[q] = np.int64((rec[2 * s] >> np.uint64(mr_ * bits)) & cmask)
        q -= 1
        s = np.int64(w1 & LOW32) - 1
    return out


@leaf
def solo_within(c0, goal, occ, slack, sets, ws, stamp):
    """Whether robot ``goal.t`` alone, from ``c0`` among the others standing
    still (``occ``, with ``c0`` already cleared), stops on ``goal.cell``
    within ``hdist[c0] + slack`` moves (``goal``, :class:`~.records.Goal`:
    ``hdist`` and the robot-free paths).  Each move may lower the relaxed
    distance by one or spend slack; a cell is searched again only with more
    slack left (rows of ``ws`` stamped ``stamp``: :func:`bound_workspace`).
    With the blocker sets ``sets`` (:class:`~.records.BlockerSets`, slacks
    below ``sets.table.shape[0]``), a stop is searched from only if some
    relaxed route from it has every blocker standing already (a real route
    is one)."""
    t, target, hdist = goal.t, goal.cell, goal.hdist
    pstart, plen, pcyc, pcells = goal.start, goal.length, goal.cyclic, goal.cells
    qtab = sets.table
    top = 0
    ws[2, 0] = c0
    ws[3, 0] = 0
    ws[4, 0] = slack
    ws[0, c0] = stamp
    ws[1, c0] = slack
    while top >= 0:
        c = ws[2, top]
        d = ws[3, top]
        if d == 4:
            top -= 1
            continue
        ws[3, top] = d + 1
        idx = c * 4 + d
        o = pstart[t, idx]
        end = c
        broke = False
        for j in range(plen[t, idx]):
            x = pcells[o + j]
            if occ[x]:
                broke = True
                break
            end = x
        if end == c or (not broke and pcyc[t, idx]):
            continue
        left = ws[4, top] - (hdist[end] - hdist[c] + 1)
        if left < 0:
            continue
        if end == target:
            return True
        if ws[0, end] == stamp and ws[1, end] >= left:
            continue
        ws[0, end] = stamp
        ws[1, end] = left
        if left < qtab.shape[0] and not sets_within(end, 0, left, occ, sets):
            continue
        top += 1
        ws[2, top] = end
        ws[3, top] = 0
        ws[4, top] = left
    return False


@leaf
def _add_cell(rows, q, x, out, k_out, max_size):
    """Row ``k_out`` of ``out`` = the ascending set in row ``q`` of ``rows``
    (size in column 0) plus cell ``x`` (-1: nothing to add); False when it
    would exceed ``max_size``."""
    n = rows[q, 0]
    k = 0
    placed = x < 0
    for i in range(n):
        v = rows[q, 1 + i]
        if not placed and x <= v:
            placed = True
            if x < v:
                if k >= max_size:
                    return False
                out[k_out, 1 + k] = x
                k += 1
        if k >= max_size:
            return False
        out[k_out, 1 + k] = v
        k += 1
    if not placed:
        if k >= max_size:
            return False
        out[k_out, 1 + k] = x
        k += 1
    out[k_out, 0] = k
    return True


@leaf
def _copy_row(a, i, b, j):
    """Row ``j`` of ``b`` = row ``i`` of ``a`` (same width)."""
    for x in range(a.shape[1]):
        b[j, x] = a[i, x]


@leaf
def _subset(a, i, b, j):
    """Whether the ascending set in row ``i`` of ``a`` is contained in the one
    in row ``j`` of ``b`` (sizes in column 0)."""
    na = a[i, 0]
    nb = b[j, 0]
    if na > nb:
        return False
    m = 0
    for k in range(na):
        v = a[i, 1 + k]
        while m < nb and b[j, 1 + m] < v:
            m += 1
        if m >= nb or b[j, 1 + m] != v:
            return False
        m += 1
    return True


@leaf
def _route_sets(s, c, goal, table, rows, cand, size_cap):
    """The blocker sets of robot ``goal.t``'s relaxed routes from ``c`` of
    slack ``s`` (:func:`blocker_sets`, so far in ``table`` and ``rows``),
    not yet minimal, into the rows of ``cand``: those of slack s - 1, and
    per move c → e each set of e (at the slack left) plus the cell the move
    stops against, of at most ``size_cap`` cells.  Their count; -1 when a
    list they extend is unknown, -2 when ``cand`` has too few rows."""
    t, hdist = goal.t, goal.hdist
    pstart, plen, pcells = goal.start, goal.length, goal.cells
    if c == goal.cell:
        cand[0, 0] = 0
        return 1
    nc = ZERO
    if s > 0:
        first = table[s - 1, 0, c]
        cnt = table[s - 1, 1, c]
        if cnt < 0:
            return -1
        for q in range(first, first + cnt):
            if nc >= cand.shape[0]:
                return -2
            _copy_row(rows, q, cand, nc)
            nc += 1
    for d in range(4):
        idx = c * 4 + d
        o = pstart[t, idx]
        L = plen[t, idx]
        for j in range(L):
            e = pcells[o + j]
            if e == c or hdist[e] >= INF:
                continue
            used = hdist[e] - hdist[c] + 1
            if used > s:
                continue
            s2 = s - used
            need = -1 if j == L - 1 else pcells[o + j + 1]
            first = table[s2, 0, e]
            cnt = table[s2, 1, e]
            if cnt < 0:
                return -1
            for q in range(first, first + cnt):
                if nc >= cand.shape[0]:
                    return -2
                if _add_cell(rows, q, need, cand, nc, size_cap):
                    nc += 1
    return nc


@leaf
def _keep_minimal(cand, nc, rows, m, width, max_sets):
    """Copy the minimal sets among the first ``nc`` rows of ``cand`` into
    ``rows`` from row ``m`` on (room for ``min(nc, max_sets)`` needed):
    smallest first, each unless a kept one is inside it.  Their count, or -1
    when there are more than ``max_sets``."""
    kept = ZERO
    for size in range(width + 1):
        for i in range(nc):
            if cand[i, 0] != size:
                continue
            covered = False
            for q in range(m, m + kept):
                if _subset(rows, q, cand, i):
                    covered = True
                    break
            if covered:
                continue
            if kept >= max_sets:
                return -1
            _copy_row(cand, i, rows, m + kept)
            kept += 1
    return kept


@njit(cache=True, inline="always")
def set_columns(R, max_level):
    """Columns of a blocker-set row (:func:`blocker_sets`): its size, then up
    to R - 1 standing robots and max_level - 1 new blockers."""
    return R + max(0, max_level - 1)


@njit(cache=True)
def _by_distance(cells, hdist):
    """``cells`` by increasing ``hdist``, in their order among equals (a
    counting sort: the distances are small), the unreachable ones left out."""
    start = np.zeros(INF + 2, dtype=np.int64)
    for c in cells:
        start[hdist[c] + 1] += 1
    for v in range(INF + 1):
        start[v + 1] += start[v]
    out = np.empty(len(cells), dtype=np.int64)
    for c in cells:
        out[start[hdist[c]]] = c
        start[hdist[c]] += 1
    return out[:start[INF - 1]]


@njit(cache=True)
def _build_cells(s, cells, goal, max_level, table, rows, m, max_sets):
    """The blocker sets of slack ``s`` (:func:`blocker_sets`) of ``cells``,
    given by increasing hdist (a cell's sets extend those of cells one
    closer), into ``table`` and ``rows`` from row ``m`` on.  The work is in
    leaf functions; out here only the arrays grow (an array variable
    reassigned in a loop costs reference counting on every pass).  Returns
    the rows (grown if needed) and how many are used."""
    width = rows.shape[1] - 1
    size_cap = goal.R - 1 + max(0, max_level - 1 - s)
    cand = np.empty((256, width + 1), dtype=np.int32)
    for c in cells:
        nc = _route_sets(s, c, goal, table, rows, cand, size_cap)
        while nc == -2:
            cand = _grown_rows(cand)
            nc = _route_sets(s, c, goal, table, rows, cand, size_cap)
        table[s, 0, c] = m
        if nc < 0:
            table[s, 1, c] = -1
            continue
        while rows.shape[0] < m + min(nc, max_sets):
            rows = _grown_rows(rows)
        kept = _keep_minimal(cand, nc, rows, m, width, max_sets)
        table[s, 1, c] = kept
        if kept > 0:
            m += kept
    return rows, m


@njit(cache=True)
def blocker_sets(goal, max_level, slacks, max_sets):
    """The blocker sets (:class:`~.records.BlockerSets`) of robot ``goal.t``'s
    relaxed routes to ``goal.cell`` (``goal``, :class:`~.records.Goal`: its
    relaxed distance ``hdist`` and robot-free paths; ``R`` robots), for the
    checks of :func:`bound_rises`.

    A relaxed route moves along the robot-free rays (passing through robots)
    and may stop at a ray's end or on a cell whose next cell on the ray is
    occupied; its blocker set is those next cells.  For slack s (0 to
    ``max_level`` - 2) and cell c, the minimal blocker sets of the routes
    from c of at most ``hdist[c] + s`` moves (s below ``slacks``), each a
    row (size, cells ascending) of ``rows``; ``table[s, 0, c]`` is the first row,
    ``table[s, 1, c]`` the count (-1: more than ``max_sets``, unknown).
    Sets larger than any check can use (R - 1 robots standing plus the free
    blockers) are left out.  A route of slack s consumes hdist[e] - hdist[c] + 1
    of it per move c → e, so the table is built slack by slack, cells by
    increasing hdist."""
    hdist = goal.hdist
    N = hdist.shape[0]
    table = np.zeros((slacks, 2, N), dtype=np.int32)
    rows = np.empty((1024, set_columns(goal.R, max_level)), dtype=np.int32)
    m = ZERO
    order = _by_distance(np.arange(N), hdist)
    for s in range(slacks):
        rows, m = _build_cells(s, order, goal, max_level, table, rows, m, max_sets)
    return BlockerSets(table, rows[:max(m, 1)].copy())


@leaf
def _cell_union(sets, unions, s, c):
    """``unions[s, c]`` (:func:`set_unions`) from ``unions[s - 1, c]`` and
    ``c``'s sets of slack ``s`` (an unknown or unbuilt list adds none)."""
    qtab, qrows = sets.table, sets.rows
    for w in range(unions.shape[2]):
        unions[s, c, w] = unions[s - 1, c, w] if s > 0 else np.uint64(0)
    first = qtab[s, 0, c]
    for q in range(first, first + max(qtab[s, 1, c], 0)):
        for i in range(qrows[q, 0]):
            x = qrows[q, 1 + i]
            unions[s, c, x >> 6] |= np.uint64(1) << np.uint64(x & 63)


@njit(cache=True)
def set_unions(sets, N):
    """The cells of the blocker ``sets`` (:func:`blocker_sets`): ``unions[s, c]``
    is a bitset (``(N + 63) // 64`` words) of the cells in any of ``c``'s sets
    of slack 0 to ``s`` (an unknown list adds none: :func:`inheritable` then
    gives no level that would read it).  A helper's move onto a cell outside
    them cannot lower the target robot's bound."""
    S = sets.table.shape[0]
    unions = np.zeros((max(S, 1), N, (N + 63) // 64), dtype=np.uint64)
    for s in range(S):
        for c in range(N):
            _cell_union(sets, unions, s, c)
    return unions


@njit(cache=True)
def sets_near(seed, goal, max_level, sets, m, unions):
    """The slack-0 blocker sets (:func:`blocker_sets`) of robot ``goal.t``
    built on demand into ``sets`` (:class:`~.records.BlockerSets`): those of
    ``seed`` and of every cell they depend on that is not built yet
    (``table[0, 1, c] == UNBUILT``), that is the cells its progress moves
    reach, recursively; with their ``unions`` (:func:`set_unions`).  A
    search checks the target robot on a few cells, and their closure is a
    small part of the board.  The first ``m`` rows are in use; returns the
    rows (grown if needed: a new array for ``sets.rows``) and their new
    count."""
    t, hdist = goal.t, goal.hdist
    pstart, plen, pcells = goal.start, goal.length, goal.cells
    qtab, qrows = sets.table, sets.rows
    N = hdist.shape[0]
    closure = np.empty(N, dtype=np.int64)
    seen = np.zeros(N, dtype=np.uint8)
    n = 0
    if qtab[0, 1, seed] == UNBUILT and hdist[seed] < INF:
        closure[0] = seed
        seen[seed] = 1
        n = 1
    k = 0
    while k < n:  # the list doubles as the depth-first stack's store
        c = closure[k]
        k += 1
        for d in range(4):
            idx = c * 4 + d
            o = pstart[t, idx]
            for j in range(plen[t, idx]):
                e = pcells[o + j]
                if hdist[e] == hdist[c] - 1 and not seen[e] and qtab[0, 1, e] == UNBUILT:
                    seen[e] = 1
                    closure[n] = e
                    n += 1
    cells = _by_distance(closure[:n], hdist)
    qrows, m = _build_cells(ZERO, cells, goal, max_level, qtab, qrows, m, MAX_SETS_ARG)
    for c in cells:
        _cell_union(BlockerSets(qtab, qrows), unions, ZERO, c)
    return qrows, m


@leaf
def inheritable(c0, max_level, occ, sets):
    """The bound level the children of a state inherit when a helper moves
    onto a cell outside the target robot's blocker ``sets``
    (:class:`~.records.BlockerSets`; their unions of slack below that
    level).  ``occ`` holds the robots other than the target robot (at
    ``c0``).

    Level 1 when no set of slack 0 has all its blockers standing (D_0 >
    hdist, as in :func:`bound_rises`); level 2 when also no set of slack 0
    has at most one free cell and none of slack 1 has all of them (level 1
    rises).  A helper leaving a cell only frees one, and arriving outside
    every set fills none, so the child fails the same tests: its bound is
    as high without a check.  A list not built or unknown (too long) passes
    :func:`sets_within`, so it gives no level."""
    if max_level < 1 or sets_within(c0, 0, 0, occ, sets):
        return 0
    if max_level < 2 or sets_within(c0, 1, 0, occ, sets) or sets_within(c0, 0, 1, occ, sets):
        return 1
    return 2


@njit(cache=True)
def _grown_rows(a):
    out = np.empty((2 * a.shape[0], a.shape[1]), dtype=a.dtype)
    out[:a.shape[0]] = a
    return out


@njit(cache=True, inline="always")
def sets_within(c0, k, s, occ, sets):
    """Whether some blocker set of slack ``s`` from ``c0`` (``sets``,
    :class:`~.records.BlockerSets`: :func:`blocker_sets`' ``table`` and
    ``rows``) has at most ``k`` cells without a robot (``occ``): then the
    target robot may finish in ``hdist + s`` moves with ``k`` helper moves,
    relaxed.  True also when the set list is unknown (too long, or that
    slack not built)."""
    qtab, qrows = sets.table, sets.rows
    if s >= qtab.shape[0]:
        return True
    cnt = qtab[s, 1, c0]
    if cnt < 0:
        return True
    first = qtab[s, 0, c0]
    for q in range(first, first + cnt):
        miss = 0
        for i in range(qrows[q, 0]):
            if occ[qrows[q, 1 + i]] == 0:
                miss += 1
                if miss > k:
                    break
        if miss <= k:
            return True
    return False


@leaf
def bound_rises(level, pos, occ, goal, sets, ws):
    """Whether the bound h = min over k of (k + D_k), capped at
    hdist + max_level, exceeds hdist + level: D_0 is the target robot's
    distance while the others stand still, D_k (k ≥ 1) a lower bound on its
    moves when k helper moves put k new blockers (the relaxed routes of
    :func:`blocker_sets`: rays pass through robots, a stop needs a ray's end,
    a robot or a new blocker next).  A solution moves k helpers for some k;
    the bound is consistent (a helper move turns a standing robot into a new
    blocker: D_k of the child ≥ D_(k+1) of the parent).  A* raises it one
    step at a time, lazily, as a state comes up (see astar).  Level l rises
    when D_0 > hdist + l and, for k = 1..l, no set of slack l - k has at most
    k free cells.  The robots stand on ``pos`` (``occ``: cleared, used as
    scratch); ``goal`` (:class:`~.records.Goal`): ``R``, the target robot
    ``t`` and cell, its relaxed distance and robot-free paths; ``sets``: its
    :class:`~.records.BlockerSets`.  Scratch arrays: :func:`bound_workspace`."""
    R = goal.R
    c0 = pos[goal.t]
    for q in range(R):
        occ[pos[q]] = 1
    occ[c0] = 0
    rises = True
    for k in range(level, 0, -1):
        if sets_within(c0, k, level - k, occ, sets):
            rises = False
            break
    # A route alone, among the robots as they stand, is a relaxed route whose
    # blockers all stand already: without one, no need to search for it.
    if rises and sets_within(c0, 0, level, occ, sets):
        ws[7, 0] += 1
        rises = not solo_within(c0, goal, occ, level, sets, ws, ws[7, 0])
    for q in range(R):
        occ[pos[q]] = 0
    return rises


@leaf
def raise_levels(level, max_level, at_once, pos, occ, goal, sets, ws):
    """A state comes up at bound ``level``: how many levels its bound rises
    now (:func:`bound_rises`, with the same arguments, one level, or every
    level up to ``max_level`` when ``at_once``), whether that is final (a
    level did not rise), and how many checks past level 0 it took.  Shared
    by :func:`astar` and the threaded search (``parallel._work``)."""
    up = 0
    final = False
    checks = 0
    while True:
        if level + up > 0:
            checks += 1
        if not bound_rises(level + up, pos, occ, goal, sets, ws):
            final = True
            break
        up += 1
        if level + up >= max_level or not at_once:
            break
    return up, final, checks


@njit(cache=True, inline="always")
def _h_any(pos, R, hdist):
    """The any-robot bound: the nearest robot's relaxed distance."""
    h = hdist[pos[0]]
    for q in range(1, R):
        v = hdist[pos[q]]
        h = min(h, v)
    return h


@njit(cache=True)
def bound_workspace(N):
    """Scratch rows of :func:`bound_rises`, one array: 0 seen stamp, 1 slack seen,
    2-4 the depth-first stack of :func:`solo_within` (cell, direction,
    slack), 7 the stamp counter in column 0."""
    return np.zeros((8, N + 2), dtype=np.int64)


@njit(cache=True, error_model="numpy")
def astar(spec, board, paths, hdist, start, limits):
    """A* over full states for target robot ``spec.t``, or for any robot when
    ``t < 0`` (the cosmic vortex; every robot shares ``hdist`` then, the
    bound is the nearest robot's, and must-ricochet is not supported), from
    ``start`` (:class:`~.records.Start`: the robots' cells ``pos``, the last
    move's robot and heading ``last_r``, ``last_h``, the target robot's
    ``turned`` and ``t_head``).

    The other records: ``spec`` (:class:`~.records.Spec`): ``R``, ``t``,
    ``target``, ``tr``, ``nsb``, ``mr``, ``no_undo``, ``M`` (the most moves
    a state has) and the keys' ``bits`` and ``sort_helpers``; ``board``
    (:class:`~.records.BoardArrays`): ``N``, ``W``, ``H``, the cell arrays
    the transparent robot's moves read, and ``xy``; ``paths``
    (:class:`~.records.PathTables`): the robot-free paths, a row per robot;
    ``hdist``: the target robot's relaxed distance per cell (with the
    paths, the :class:`~.records.Goal` the raised bound reads); ``limits``
    (:class:`~.records.Limits`): ``max_cost``, ``max_states``,
    ``max_level``, ``check_after``, ``sets_full_after`` (below).

    States are kept once (keyed like the transposition table) and expanded in
    order of f = g + h from buckets, within a layer the deepest (highest g)
    first and newest first among equals.  h is consistent, so each state is
    expanded once and the first goal of cost F found while expanding layer F
    is optimal; in that last layer a deep state is the likeliest to be one
    move from the goal (ties broken for the highest g: 9 % fewer expansions
    on the random set, 16 % on the 150 shortest of ASP, than newest first
    alone, which put a state raised to a later layer ahead of that layer's
    deeper ones).

    A state record is 2 words: the robots' cells packed ``bits`` apiece, then
    parent+1 (32 bits), g (8), the move (robot 3, direction 2) and the rule
    state (last robot+1 3, last heading 2, turned 1, target heading+1 3),
    and where the move started along its row or column (5, where moves come
    from the bit masks, on sides of at most 32: for :func:`commuting_dropped`).

    The bound is h = hdist + level, level 0 to ``max_level`` (at most 3) from
    :func:`bound_rises`, computed lazily: a state is queued at f = g + hdist
    (or its parent's f, which a consistent bound allows: pathmax); each time
    it comes up, one more step is checked and, if the bound rises, it is
    queued one layer later; states past the optimum are never checked
    further.  Bits 60-61 of the record's second word hold the level, bit 62
    "final".  The first ``check_after`` expansions check nothing (h = hdist):
    a short search is over before the checks, and the blocker sets they
    need, would pay for themselves.  The sets of slack 0 are then built cell
    by cell (:func:`sets_near`), before a raised state whose target robot
    stands on a cell without them comes up; a cell not built reads as
    unknown (no rise, no inherited level).  The sets of slack 1 and more,
    for every cell, wait for ``sets_full_after`` checks.  Raising h later
    keeps it admissible and consistent, so A* stays optimal whatever the
    switch point.

    Most children move a helper onto a cell no blocker set of the target
    robot contains: they are queued with the level the parent's sets tests
    give them (:func:`inheritable`), without a check of their own.  Every
    level is a proven lower bound of its state; a state reached again more
    cheaply is queued again, so A* stays optimal with these path-dependent
    (admissible) bounds.

    Two robots' moves that commute (neither can meet the other robot) lead
    to the same state in either order: under plain sliding moves with keys
    that hold no rule state, the children of a state leave out the later
    half of such a pair with its last move, the pair being searched in the
    other order (:func:`commuting_dropped`: about 48 % of the other robots'
    moves, 12 % of the time of ASP and of the random set).

    Where every move is a straight line, the moves come from the robots'
    row and column bit masks (:func:`_gen_lines`) rather than a walk along
    each ray: ``xy``, each cell's column and row, is
    ``tables.BoardTables.line_coords`` (``(2, 0)``: walk along the rays).

    Returns (status, cost, expansions, stored, moves): status a
    :class:`~.records.SearchStatus`, ``FOUND``, ``NONE_WITHIN`` ``max_cost``
    or ``CAP_REACHED``, more than ``max_states`` states (the caller falls
    back to IDA*, which needs no memory); ``moves`` (:func:`_rebuild`) has
    rows robot, direction and end, a column per move.  The records may come
    as plain tuples of their fields (see :mod:`.records`: Python's calls pass
    them so)."""
    spec, board, paths, start, limits = Spec(*spec), BoardArrays(*board), PathTables(*paths), Start(*start), \
        Limits(*limits)
    R, t, target, tr, nsb, mr = spec.R, spec.t, spec.target, spec.tr, spec.nsb, spec.mr
    bits = spec.bits
    N, W, H, xy = board.N, board.W, board.H, board.xy
    plen = paths.length
    pos0 = start.pos
    max_cost, max_states, max_level = limits.max_cost, limits.max_states, limits.max_level
    check_after, sets_full_after = limits.check_after, limits.sets_full_after
    any_robot = t < 0
    if any_robot:
        max_level = 0  # the raised bound follows one robot
    # Small starts: most puzzles are short (a 1-3-move random puzzle stores at most about
    # 130 states, half of the 4-6-move ones fewer than 300), and what a search first
    # writes to is often out of the caches.  Everything grows as needed, four times at
    # once while small (each growth of the map rehashes it: 3-6 % of a search of
    # 10^3-10^4 expansions when it only doubled), then twice.
    rec = np.empty(2 << 8, dtype=np.uint64)
    hbits = 9
    hmask = np.uint64((1 << hbits) - 1)
    compact = R * bits <= 32 and not nsb and not mr and max_cost < 128 and max_states < (1 << 25) - 1
    hm = np.zeros((1 if compact else 2) << hbits, dtype=np.uint64)
    # Queue items: [2k] the state, [2k + 1] the next item of its layer (-1: none).
    items = np.empty(2 << 8, dtype=np.int32)
    head = np.full((max_cost + 3, max_cost + 3), -1, dtype=np.int32)  # per (f, g)
    gtop = np.full(max_cost + 3, -1, dtype=np.int64)  # per f: the highest g that may hold items
    scratch = np.empty(8, dtype=np.int64)
    M = spec.M
    mv = _move_buffers(1, M)
    mv_r, mv_d, mv_e, mv_h, mv_f, mv_c = mv[0], mv[1], mv[2], mv[3], mv[4], mv[5]
    c_keys = np.empty((2, M), dtype=np.uint64)
    c_k1, c_k2 = c_keys[0], c_keys[1]
    c_rules = np.empty((2, M), dtype=np.int64)
    c_tu, c_th = c_rules[0], c_rules[1]
    tw = _transparent_workspace(N, tr)
    empty_moves = np.zeros((3, 0), dtype=np.int32)
    cmask = np.uint64((1 << bits) - 1)
    ws = np.zeros((8, 1), dtype=np.int64)  # bound_workspace(N) once checks start (a short search never does)
    by_lines = xy.shape[1] > 0 and tr < 0  # (_gen_lines would list a transparent robot's moves as well)
    # (_gen_lines drops the later of two commuting moves under plain sliding moves, keys without rule state.)
    lines = np.zeros(W + H if by_lines else 0, dtype=np.uint64)  # a bit per robot: rows, then columns
    # The blocker sets: none until a state first needs a check past level 0 (most
    # short puzzles never do; until then the level-0 check searches unfiltered),
    # then those of slack 0 cell by cell, for the target robot's cells as such states
    # come up (sets_near), then every slack for every cell after sets_full_after checks.
    goal = Goal(R, t, target, hdist, paths.start, paths.length, paths.cyclic, paths.cells)  # (the bound's)
    sets = BlockerSets(np.zeros((0, 2, 1), dtype=np.int32), np.zeros((1, 1), dtype=np.int32))
    qtab = sets.table  # (read in the loop)
    unions = np.zeros((1, 1, 1), dtype=np.uint64)
    q_used = ZERO
    sets_stage = 2 if max_level < 2 else 0  # 1: slack 0 on demand, 2: every slack
    checks = 0
    FINAL = np.uint64(1) << np.uint64(62)

    pos = np.empty(R, dtype=np.int64)
    h_others = np.empty(R, dtype=np.int64)
    occ = np.zeros(N, dtype=np.uint8)
    w0 = np.uint64(0)
    for q in range(R):
        w0 |= np.uint64(pos0[q]) << np.uint64(q * bits)
    rec[0] = w0
    rec[1] = np.uint64(((start.last_r + 1) * 4 + start.last_h) * 16 + start.turned * 8 + start.t_head + 1) \
        << np.uint64(45)
    nstates = 1
    k1, k2 = state_key(pos0, spec, start.last_r, start.last_h, start.turned, start.t_head, scratch)
    _slot_store(compact, k1, k2, 0, 0, hm, _slot_find(compact, k1, k2, hm, hmask))
    f0 = _h_any(pos0, R, hdist) if any_robot else hdist[pos0[t]]
    if f0 == 0:
        f0 = 1
    if f0 > max_cost:
        return SearchStatus.NONE_WITHIN, 0, 0, 1, empty_moves
    items[0] = 0
    items[1] = -1
    head[f0, 0] = 0
    gtop[f0] = 0
    nitems = 1
    F = f0
    expanded = 0
    goal_cost = max_cost + 1
    goal_par = -ONE
    goal_r = ZERO
    goal_d = ZERO
    goal_e = ZERO
    # The growing arrays are reassigned only out here: numba reference-counts
    # an array variable at every assignment, and an assignment inside the
    # hot loop costs counting on every pass (≈15 % of the time).  Each pass
    # of the inner loop first makes sure one expansion fits.
    while True:
        grow = False
        need_sets = False
        need_cell = -1
        while F <= max_cost:
            if goal_cost <= F:
                return SearchStatus.FOUND, goal_cost, expanded, nstates, _rebuild(goal_par, goal_r, goal_d, goal_e, rec,
                                                                                  bits, R)
            if (2 * (nstates + M + 1) > rec.shape[0] or 2 * (nitems + M + 2) > items.shape[0]
                    or (nstates + M + 1) * 4 > 3 * (1 << hbits) or (expanded >= check_after and ws.shape[1] == 1)):
                grow = True
                break
            n_it = -1
            while gtop[F] >= 0:
                n_it = head[F, gtop[F]]
                if n_it >= 0:
                    break
                gtop[F] -= 1
            if n_it < 0:
                F += 1
                continue
            if sets_stage < 2 and (rec[2 * items[2 * n_it] + 1] >> np.uint64(60)) & np.uint64(3) != 0:
                if sets_stage == 0 or checks > sets_full_after:
                    need_sets = True
                    break
                c_head = np.int64((rec[2 * items[2 * n_it]] >> np.uint64(t * bits)) & cmask)
                if qtab[0, 1, c_head] == UNBUILT:
                    need_cell = c_head
                    break
            nxt = items[2 * n_it + 1]
            head[F, gtop[F]] = nxt
            i = items[2 * n_it]
            if nxt >= 0:
                # Software pipeline over the layer's list: the next item's
                # record, and the item after it, are on their way while this
                # state is expanded.
                prefetch(rec, 2 * np.int64(items[2 * nxt]))
                if items[2 * nxt + 1] >= 0:
                    prefetch(items, 2 * np.int64(items[2 * nxt + 1]))
            w0 = rec[2 * i]
            w1 = rec[2 * i + 1]
            g = np.int64((w1 >> np.uint64(32)) & np.uint64(0xFF))
            ex = np.int64((w1 >> np.uint64(45)) & np.uint64(0x7FFF))  # bits 45-59 (60-62: the bound)
            for q in range(R):
                pos[q] = np.int64((w0 >> np.uint64(q * bits)) & cmask)
            hh = _h_any(pos, R, hdist) if any_robot else hdist[pos[t]]
            if hh == 0:
                hh = 1
            level = np.int64((w1 >> np.uint64(60)) & np.uint64(3))
            if g + hh + level != F:
                continue  # stale: this state was reached more cheaply since
            if (w1 & FINAL) == np.uint64(0) and level < max_level and hdist[pos[t]] > 0 and expanded >= check_after:
                # Raised: back in the queue as many layers later (evaluated further
                # only if it comes up again).  In a long search (every set built)
                # the next level is checked at once: the state would come up again
                # in the next layer anyway; in a short one most never do.
                up, final, n_checks = raise_levels(level, max_level, sets_stage >= 2, pos, occ, goal, sets, ws)
                checks += n_checks
                if up > 0:
                    nw = w1 + (np.uint64(up) << np.uint64(60))
                    if final:
                        nw |= FINAL
                    rec[2 * i + 1] = nw
                    if F + up <= max_cost:
                        items[2 * nitems] = i
                        items[2 * nitems + 1] = head[F + up, g]
                        head[F + up, g] = nitems
                        gtop[F + up] = max(gtop[F + up], g)
                        nitems += 1
                    continue
                rec[2 * i + 1] = w1 | FINAL
            t_head = ex % 8 - 1
            turned = (ex // 8) % 2
            last_h = (ex // 16) % 4
            last_r = (ex // 64) % 8 - 1
            last_from = ex // 512  # where the last move started along its row or column (by_lines)
            expanded += 1
            if any_robot:
                # Per moving robot, the bound of the robots it leaves in place.
                for q in range(R):
                    others = INF
                    for q2 in range(R):
                        if q2 != q and hdist[pos[q2]] < others:
                            others = hdist[pos[q2]]
                    h_others[q] = others
            helpers = any_robot or g + 1 + hdist[pos[t]] <= max_cost
            for q in range(R):
                occ[pos[q]] = 1
            if by_lines:
                for q in range(R):
                    c = pos[q]
                    lines[xy[1, c]] |= np.uint64(1) << np.uint64(xy[0, c])
                    lines[H + xy[0, c]] |= np.uint64(1) << np.uint64(xy[1, c])
                n = _gen_lines(0, pos, spec, last_r, last_h, last_from, helpers, board, plen, lines, mv)
                for q in range(R):
                    c = pos[q]
                    lines[xy[1, c]] = np.uint64(0)
                    lines[H + xy[0, c]] = np.uint64(0)
            else:
                n = _gen(0, pos, occ, spec, last_r, last_h, helpers, paths, mv)
            if tr >= 0:
                n = _gen_transparent(ZERO, n, pos, occ, spec, last_r, last_h, helpers, board, tw, mv)
            # What a helper's move onto a cell outside the blocker sets leaves of the bound.
            inherit = 0
            ct = pos[t]
            if not any_robot and sets_stage >= 1 and expanded > check_after and hdist[ct] > 0:
                occ[ct] = 0
                inherit = inheritable(ct, max_level, occ, sets)
            for q in range(R):
                occ[pos[q]] = 0
            # First pass: every child's rule state and key, prefetching its map bucket.
            # The memory misses then overlap instead of each child waiting for its
            # own in the second pass (memory-level parallelism).
            pk1 = word_key(w0, spec)
            for k in range(n):
                r = mv_r[0, k]
                tu = turned
                th = t_head
                if mr and r == t:
                    if mv_f[0, k] or (t_head >= 0 and (t_head - mv_d[0, k]) % 2 != 0):
                        tu = 1
                    th = mv_h[0, k]
                c_tu[k] = tu
                c_th[k] = th
                field = -1 if r == t else (r if t < 0 or r < t else r - 1)
                k1, k2 = child_key(pk1, spec, field, pos[r], mv_e[0, k], mv_h[0, k], tu, th)
                c_k1[k] = k1
                c_k2[k] = k2
                if compact:
                    prefetch(hm, np.int64(_hash(k1, 0) & hmask))
                else:
                    prefetch(hm, np.int64(2 * (_hash(k1, k2) & hmask) + 1))
            for k in range(n):
                r = mv_r[0, k]
                d = mv_d[0, k]
                e = mv_e[0, k]
                g2 = g + mv_c[0, k]
                n_turned = c_tu[k]
                n_th = c_th[k]
                if (r == t or any_robot) and e == target and (n_turned or not mr):
                    if g2 < goal_cost:
                        goal_cost = g2
                        goal_par = i
                        goal_r = r
                        goal_d = d
                        goal_e = e
                    if g2 == F:
                        break
                    continue
                if any_robot:
                    h2 = min(hdist[e], h_others[r])
                else:
                    h2 = hdist[e if r == t else pos[t]]
                if h2 == 0:
                    h2 = 1
                f2 = g2 + h2
                child_level = np.uint64(0)
                if inherit > 0 and r != t:
                    word = e >> 6
                    bit = np.uint64(1) << np.uint64(e & 63)
                    if unions[0, ct, word] & bit == np.uint64(0):
                        child_level = np.uint64(2 if inherit == 2 and unions[1, ct, word] & bit == np.uint64(0) else 1)
                        f2 += np.int64(child_level)
                if f2 < F:
                    # Only below a raised parent: the bound is consistent, so the
                    # child's is at least the parent's f (pathmax).
                    child_level += np.uint64(F - f2)
                    f2 = F
                if f2 > max_cost:
                    continue
                k1 = c_k1[k]
                k2 = c_k2[k]
                slot = _slot_find(compact, k1, k2, hm, hmask)
                idx = _slot_index(compact, hm, slot)
                if idx >= 0 and _slot_cost(compact, hm, slot) <= g2:
                    continue
                if idx < 0:
                    if nstates >= max_states:
                        return SearchStatus.CAP_REACHED, 0, expanded, nstates, empty_moves
                    idx = nstates
                    nstates += 1
                _slot_store(compact, k1, k2, g2, idx, hm, slot)
                sh = np.uint64(r * bits)  # the parent's cells (w0) with robot r's replaced
                rec[2 * idx] = (w0 & ~(cmask << sh)) | (np.uint64(e) << sh)
                ext = ((r + 1) * 4 + mv_h[0, k]) * 16 + n_turned * 8 + (n_th + 1)
                if by_lines:  # where the move started along its row or column (for commuting_dropped)
                    ext += xy[1 - d % 2, pos[r]] * 512
                rec[2 * idx + 1] = record_word(i, g2, r, d, ext, child_level)
                items[2 * nitems] = idx
                items[2 * nitems + 1] = head[f2, g2]
                head[f2, g2] = nitems
                gtop[f2] = max(gtop[f2], g2)
                nitems += 1
        if need_sets:
            if checks > sets_full_after:
                sets_stage = 2
                sets = blocker_sets(goal, max_level, max_level, MAX_SETS_ARG)
                unions = set_unions(sets, N)
            else:
                sets_stage = 1
                sets = BlockerSets(np.full((1, 2, N), UNBUILT, dtype=np.int32),
                                   np.empty((256, set_columns(R, max_level)), dtype=np.int32))
                q_used = ZERO
                unions = np.zeros((1, N, (N + 63) // 64), dtype=np.uint64)
            qtab = sets.table
            continue
        if need_cell >= 0:
            qrows, q_used = sets_near(need_cell, goal, max_level, sets, q_used, unions)
            sets = BlockerSets(qtab, qrows)
            continue
        if not grow:
            break
        if expanded >= check_after and ws.shape[1] == 1:
            ws = bound_workspace(N)
        if 2 * (nstates + M + 1) > rec.shape[0]:
            rec = _grown(rec)
        if 2 * (nitems + M + 2) > items.shape[0]:
            items = _grown(items)
        if (nstates + M + 1) * 4 > 3 * (1 << hbits):
            hbits += 2 if hbits < MAP_QUADRUPLES_BELOW else 1
            hm = _map_grow(compact, hm, hbits)
            hmask = np.uint64((1 << hbits) - 1)

    if goal_cost <= max_cost:
        return SearchStatus.FOUND, goal_cost, expanded, nstates, _rebuild(goal_par, goal_r, goal_d, goal_e, rec, bits, R)
    return SearchStatus.NONE_WITHIN, 0, expanded, nstates, empty_moves


@njit(cache=True)
def run_astar(spec, board, paths, hdist, start, limits):  # type: ignore[no-untyped-def]
    """:func:`astar`, as Python calls it (``api._Search.astar``).  Python never
    calls :func:`astar` itself, because ``plain.plain_astar`` links it in: in
    numba's cache, a compiled function that Python calls and that another
    cached function also links in can come back with the other's copy of its
    environment, never filled, and then fails to hand its arrays to Python
    (``'descr' is NULL``) when the other was loaded first."""
    return astar(spec, board, paths, hdist, start, limits)
