"""Compiled search kernels (numba).  Everything here works on flat arrays
produced by :mod:`ricochet.solver.tables` from a :class:`~ricochet.board.Board`.

Directions are indices 0..3 = N, E, S, W (bit ``1 << d`` in a wall mask).
Colours are indices 0..5 = red, green, blue, yellow, silver, transparent.

The physics mirrors :mod:`ricochet.position` exactly (property tests compare
the two on random boards); see that module for the rules themselves.
"""

from __future__ import annotations

import numpy as np
from numba import njit

DX = np.array([0, 1, 0, -1], dtype=np.int64)
DY = np.array([-1, 0, 1, 0], dtype=np.int64)
# Mirror tables indexed [orientation code][heading]: 1 = '/', 2 = '\'.
DEFLECT = np.array([[0, 1, 2, 3], [1, 0, 3, 2], [3, 2, 1, 0]], dtype=np.int64)
INF = 255
TRANSPARENT = 5


@njit(cache=True)
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
                nxt, wrapped = _step(cell, h, W, H, wall, openm)
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
def transparent_moves(s, d, W, H, wall, openm, obst, diag, passable, occ,
                      best, bstamp, stamp, bdefl, queue, qhead, qtail, stopc, sstamp,
                      out_end, out_cost, out_head, out_defl, n_out):
    """Append the transparent robot's cheapest stops moving ``d`` from ``s``
    (occupancy ``occ`` must not include the robot itself).  A bucketed
    Dijkstra over (cell, heading), FIFO within a cost, like the engine's."""
    N = W * H
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
    first = n_out
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
        nxt, wrapped = _step(cell, h, W, H, wall, openm)
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
def _hash(k1, k2):
    x = k1 ^ (np.uint64(k2) * np.uint64(0xD6E8FEB86659FD93))
    x = x * np.uint64(0x9E3779B97F4A7C15)
    return x ^ (x >> np.uint64(29))


PROBES = 8
GEN_SHIFT = 20
MAX_GEN = (1 << 12) - 1


@njit(cache=True)
def tt_lookup(k1, k2, tk1, tk2, tv, mask):
    """Stored value for a key (0: unknown)."""
    i = _hash(k1, k2)
    for p in range(PROBES):
        j = (i + np.uint64(p)) & mask
        v = tv[j]
        if v == 0:
            return 0
        if tk1[j] == k1 and tk2[j] == k2:
            return v
    return 0


@njit(cache=True)
def tt_store(k1, k2, v, tk1, tk2, tv, mask):
    """Record value v for a key; returns 1 when a slot was newly taken.  An
    entry of another generation is free; when the probe window is full the
    shallowest entry is replaced (entries are hints: losing one costs time,
    never correctness)."""
    i = _hash(k1, k2)
    gen = k2 >> np.uint32(GEN_SHIFT)
    worst = i & mask
    worst_v = 256
    for p in range(PROBES):
        j = (i + np.uint64(p)) & mask
        tvj = tv[j]
        if tvj == 0 or (tk2[j] >> np.uint32(GEN_SHIFT)) != gen:
            tk1[j] = k1
            tk2[j] = k2
            tv[j] = v
            return 1
        if tk1[j] == k1 and tk2[j] == k2:
            if v > tvj:
                tv[j] = v
            return 0
        if tvj < worst_v:
            worst_v = tvj
            worst = j
    if v >= worst_v:
        tk1[worst] = k1
        tk2[worst] = k2
        tv[worst] = v
    return 0



@njit(cache=True)
def state_key(pos, R, t, bits, sort_helpers, nsb, last_r, last_h, mr, turned, t_head, scratch, gen):
    """Pack a search state into (k1, k2).  With interchangeable helpers their
    cells are sorted (a state and its helper permutations are one entry)."""
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
    k1 = np.uint64(pos[t])
    for i in range(n):
        k1 = (k1 << np.uint64(bits)) | np.uint64(scratch[i])
    k2 = 0
    if nsb:
        code = 0
        if last_r >= 0:
            if last_r == t:
                code = 1
            else:
                cell = pos[last_r]
                for i in range(n):
                    if scratch[i] == cell:
                        code = 2 + i
                        break
            code = code * 4 + last_h
        k2 = code
    if mr:
        k2 = (k2 * 2 + turned) * 5 + (t_head + 1)
    k2 = k2 * 8 + t
    # The search's generation tags every entry, so a table can serve many
    # searches without being cleared (see tt_lookup / tt_store).
    return k1, np.uint32(k2 | (gen << GEN_SHIFT))


@njit(cache=True)
def _gen(depth, pos, occ, R, t, colors, tr, nsb, last_r, last_h, helpers, no_undo,
         pstart, plen, pcyc, pcells, pheads, pdefl,
         W, H, wall, openm, obst, diag, passable, ws_best, ws_bstamp, ws_bdefl, ws_queue, ws_qh, ws_qt,
         ws_stopc, ws_sstamp, stamp,
         mv_r, mv_d, mv_e, mv_h, mv_f, mv_c):
    """Every legal move at this node into row ``depth`` of the move buffers;
    the target robot's moves first (they are the ones that can finish)."""
    n = 0
    for k in range(R if helpers else 1):
        r = t if k == 0 else (k - 1 if k - 1 < t else k)
        s = pos[r]
        occ[s] = 0
        for d in range(4):
            # Reversing one's own last move: forbidden by no-straight-back, and
            # without diagonals never useful (the pair equals one move back).
            if (nsb or no_undo) and last_r == r and d == (last_h + 2) % 4:
                continue
            if r == tr:
                stamp += 1
                n0 = n
                n = transparent_moves(s, d, W, H, wall, openm, obst, diag, passable, occ,
                                      ws_best, ws_bstamp, stamp, ws_bdefl, ws_queue, ws_qh, ws_qt,
                                      ws_stopc, ws_sstamp, mv_e[depth], mv_c[depth], mv_h[depth], mv_f[depth], n)
                for j in range(n0, n):
                    mv_r[depth, j] = r
                    mv_d[depth, j] = d
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
            mv_r[depth, n] = r
            mv_d[depth, n] = d
            mv_e[depth, n] = end
            mv_h[depth, n] = pheads[o + last]
            mv_f[depth, n] = pdefl[o + last]
            mv_c[depth, n] = 1
            n += 1
        occ[s] = 1
    return n, stamp


@njit(cache=True)
def ida(bound, t, target, R, N, W, H, pos0, colors, tr,
        nsb, last_r0, last_h0, mr, turned0, t_head0,
        pstart, plen, pcyc, pcells, pheads, pdefl, hdist,
        wall, openm, obst, diag, passable,
        bits, sort_helpers, tk1, tk2, tv, mask,
        node_budget, all_mode, sol_r, sol_d, sol_e, max_moves_per_node, no_undo, gen):
    """One cost-bounded depth-first iteration (IDA*) for target robot ``t``.

    Prunes with ``g + h > bound`` (h: the relaxed distance of the target robot)
    and with the transposition table, whose value for a state is 1 + the
    remaining cost proven to hold no solution.  Returns (status, nodes,
    solutions, filled): status 1 found, 0 none within ``bound``, 2 out of
    node budget.  Solutions are written to sol_* rows (-1 terminated)."""
    maxd = bound + 1
    M = max_moves_per_node
    mv_r = np.empty((maxd, M), dtype=np.int32)
    mv_d = np.empty((maxd, M), dtype=np.int32)
    mv_e = np.empty((maxd, M), dtype=np.int32)
    mv_h = np.empty((maxd, M), dtype=np.int32)
    mv_f = np.empty((maxd, M), dtype=np.int32)
    mv_c = np.empty((maxd, M), dtype=np.int32)
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
    # workspace of the transparent robot's search
    ws_best = np.zeros(N * 4, dtype=np.int32)
    ws_bstamp = np.zeros(N * 4, dtype=np.int64)
    ws_bdefl = np.zeros(N * 4, dtype=np.int32)
    ws_queue = np.zeros((3, N * 4 + 1), dtype=np.int32) if tr >= 0 else np.zeros((3, 1), dtype=np.int32)
    ws_qh = np.zeros(3, dtype=np.int64)
    ws_qt = np.zeros(3, dtype=np.int64)
    ws_stopc = np.zeros(N, dtype=np.int32)
    ws_sstamp = np.zeros(N, dtype=np.int64)
    stamp = 0

    pos = pos0.copy()
    occ = np.zeros(N, dtype=np.uint8)
    for i in range(R):
        occ[pos[i]] = 1
    last_r = last_r0
    last_h = last_h0
    turned = turned0
    t_head = t_head0
    nodes = 0
    nsol = 0
    filled = 0
    max_sol = sol_r.shape[0]

    depth = 0
    n, stamp = _gen(0, pos, occ, R, t, colors, tr, nsb, last_r, last_h,
                    1 + hdist[pos[t]] <= bound, no_undo, pstart, plen, pcyc, pcells, pheads, pdefl,
                    W, H, wall, openm, obst, diag, passable, ws_best, ws_bstamp, ws_bdefl, ws_queue, ws_qh, ws_qt,
                    ws_stopc, ws_sstamp, stamp, mv_r, mv_d, mv_e, mv_h, mv_f, mv_c)
    nmv[0] = n
    it[0] = 0
    while True:
        if it[depth] >= nmv[depth]:
            if found_below[depth] == 0:
                k1, k2 = state_key(pos, R, t, bits, sort_helpers, nsb, last_r, last_h, mr, turned, t_head, scratch, gen)
                filled += tt_store(k1, k2, np.uint8(bound - g[depth] + 1), tk1, tk2, tv, mask)
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
                return 1, nodes, nsol, filled
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
        k1, k2 = state_key(pos, R, t, bits, sort_helpers, nsb, last_r, last_h, mr, turned, t_head, scratch, gen)
        stored = tt_lookup(k1, k2, tk1, tk2, tv, mask)
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
        n, stamp = _gen(depth, pos, occ, R, t, colors, tr, nsb, last_r, last_h,
                        g2 + 1 + hdist[pos[t]] <= bound, no_undo, pstart, plen, pcyc, pcells,
                        pheads, pdefl, W, H, wall, openm, obst, diag, passable, ws_best, ws_bstamp, ws_bdefl,
                        ws_queue, ws_qh, ws_qt, ws_stopc, ws_sstamp, stamp, mv_r, mv_d, mv_e, mv_h, mv_f, mv_c)
        nmv[depth] = n
        it[depth] = 0
        if nodes > node_budget:
            return 2, nodes, nsol, filled
    return (1 if nsol > 0 else 0), nodes, nsol, filled


@njit(cache=True)
def tt_rehash(tk1, tk2, tv, nk1, nk2, nv, nmask, gen):
    """Move the entries of generation ``gen`` into a larger table; returns the count."""
    n = 0
    for j in range(tv.shape[0]):
        if tv[j] != 0 and (tk2[j] >> np.uint32(GEN_SHIFT)) == gen:
            n += tt_store(tk1[j], tk2[j], tv[j], nk1, nk2, nv, nmask)
    return n
