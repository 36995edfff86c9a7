"""The GPU build (numba-cuda): the same layers as the CPU build, the same
retrograde step (:mod:`.retro` compiled as device functions), hence the
same bytes.

Each layer is two kernels.  **Compact**: the table is read a page per
thread block at a time (16 consecutive bytes per thread), pages not flagged
by the last layer are skipped (``retro.PAGE``, as on the CPU), and the
indices of the frontier bytes are appended to a queue (one shared-memory
counter per page, one global atomic per page).  **Expand**: one thread per queued position
unranks it and settles its predecessors (``retro.expand``/``vexpand``).  A
thread per table byte instead would leave most lanes of a warp idle (in the
middle layers about one byte in six is in the frontier) while the others
expand.

Why numba-cuda: the kernels are already numba, so the GPU path is the CPU's
Python source compiled for another target, not a second implementation in
CUDA C (CuPy's RawKernel) or in CuPy's array language.  numba-cuda is the
CUDA target NVIDIA maintains for numba (numba's own ``numba.cuda`` hands over
to it), with wheels for CUDA 12 and 13.  The whole table stays on the device
(≈ 650 MB for four robots on 16×16) with the queue; only a counter crosses
per layer.

Tested for byte-identity with the CPU build under numba's CUDA simulator
(``NUMBA_ENABLE_CUDASIM=1``).
"""

from __future__ import annotations

import time
from functools import lru_cache
from typing import Any

import numpy as np

if not hasattr(np, "row_stack"):
    # numpy 2.5 removed row_stack, and numba-cuda (0.2x) still registers an overload for it when it
    # compiles its first kernel: the same function under the old name lets that compile go through.
    np.row_stack = np.vstack  # type: ignore[attr-defined]

from numba import cuda, int64

from . import compiled
from .build import LayerReport, Progress, pages
from .layout import Layout, TablebaseError
from .retro import PAGE, UNSEEN

THREADS = 256
BLOCKS = 8192
PER = 16
"""Bytes each thread reads per compaction tile: a tile of THREADS * PER bytes is one page."""
assert (1 << PAGE) % (THREADS * PER) == 0 and (1 << PAGE) % (32 * PER) == 0  # a tile lies in one page


def available() -> bool:
    """Is a CUDA GPU (or numba's CUDA simulator) there?"""
    try:
        return bool(cuda.is_available())
    except Exception:  # noqa: BLE001 -- a missing driver or library raises many kinds of errors
        return False


@lru_cache(maxsize=1)
def _kernels() -> Any:
    # ``cuda`` stays a module global: the simulator swaps it for its fake module.
    R = compiled.load("cuda", cuda.jit(device=True))

    @cuda.jit
    def compact(table, k, total, cur, queue, qlen):  # type: ignore[no-untyped-def]
        """Append the index of every byte ``k`` of a flagged page to ``queue``
        (``qlen[0]`` counts them all, even past the queue's end).  A block
        reads a tile of ``PER`` bytes per thread (a page, at full width)."""
        width = cuda.blockDim.x * PER
        tile = cuda.blockIdx.x * width
        stride = cuda.gridDim.x * width
        here = cuda.shared.array(1, int64)
        base = cuda.shared.array(1, int64)
        while tile < total:  # the same trips for every thread of the block: syncthreads is safe
            if cur[tile >> PAGE] != 0:
                lo = tile + cuda.threadIdx.x * PER
                hi = min(lo + PER, total)
                mine = 0
                for i in range(lo, hi):
                    mine += table[i] == k
                if cuda.threadIdx.x == 0:
                    here[0] = 0
                cuda.syncthreads()
                at = cuda.atomic.add(here, 0, mine) if mine > 0 else 0
                cuda.syncthreads()
                if cuda.threadIdx.x == 0:
                    base[0] = cuda.atomic.add(qlen, 0, here[0])
                cuda.syncthreads()
                w = base[0] + at
                for i in range(lo, hi):
                    if table[i] == k:
                        if w < len(queue):
                            queue[w] = i
                        w += 1
                cuda.syncthreads()
            tile += stride

    @cuda.jit
    def expand(table, k, m, n, B, queue, count, nbr, binom, t, nxt):  # type: ignore[no-untyped-def]
        q = cuda.grid(1)
        stride = cuda.gridsize(1)
        while q < count:
            i = queue[q]
            a = i // B
            h0, h1, h2 = R.unrank(i - a * B, m, a, n, binom)
            R.expand(table, k, m, a, h0, h1, h2, B, nbr, binom, t, nxt)
            q += stride

    @cuda.jit
    def vexpand(table, k, r, n, queue, count, nbr, binom, t, nxt):  # type: ignore[no-untyped-def]
        q = cuda.grid(1)
        stride = cuda.gridsize(1)
        while q < count:
            c0, c1, c2, c3 = R.vunrank(queue[q], r, n, binom)
            R.vexpand(table, k, r, c0, c1, c2, c3, nbr, binom, t, nxt)
            q += stride

    @cuda.jit
    def vgoals(table, r, n, total, binom, t):  # type: ignore[no-untyped-def]
        i = cuda.grid(1)
        stride = cuda.gridsize(1)
        while i < total:
            c0, c1, c2, c3 = R.vunrank(i, r, n, binom)
            if R.occupied(t, c0, c1, c2, c3):
                table[i] = 0
            i += stride

    return compact, expand, vexpand, vgoals


def build(layout: Layout, progress: Progress | None, start: float) -> np.ndarray:
    """The table of ``layout`` built on the GPU (byte-identical to the CPU's)."""
    if not available():
        raise TablebaseError("--gpu: no CUDA GPU found (numba.cuda.is_available() is false; "
                             "is the NVIDIA driver installed and numba-cuda, pip install 'ricochet[gpu]'?)")
    from numba.core import config

    compact, expand, vexpand, vgoals = _kernels()
    n, B, m, r = layout.cells, layout.block, layout.helpers, layout.robots
    t = layout.target_number
    size = layout.size
    # The simulator runs every thread as a Python thread: a small grid.
    simulated = bool(config.ENABLE_CUDASIM)  # type: ignore[attr-defined]
    threads, blocks = (32, 2) if simulated else (THREADS, BLOCKS)
    nbr = cuda.to_device(layout.nbr)
    binom = cuda.to_device(layout.binom)
    flags = np.zeros(pages(size), dtype=np.uint8)
    if layout.any_robot:
        table = cuda.to_device(np.full(size, UNSEEN, dtype=np.uint8))
        vgoals[blocks, threads](table, r, n, size, binom, t)
        flags[:] = 1
    else:
        host = np.full(size, UNSEEN, dtype=np.uint8)
        host[t * B:(t + 1) * B] = 0
        table = cuda.to_device(host)
        flags[(t * B) >> PAGE:(((t + 1) * B - 1) >> PAGE) + 1] = 1
    cur = cuda.to_device(flags)
    nxt = cuda.to_device(np.zeros_like(flags))
    clear = np.zeros_like(flags)
    qlen = cuda.to_device(np.zeros(1, dtype=np.int64))
    queue = cuda.device_array(max(1, min(size, max(1 << 20, size // 4))), dtype=np.int64)
    settled = 0
    for k in range(UNSEEN - 1):
        while True:
            qlen.copy_to_device(np.zeros(1, dtype=np.int64))
            compact[blocks, threads](table, k, size, cur, queue, qlen)
            found = int(qlen.copy_to_host()[0])
            if found <= len(queue):
                break
            queue = cuda.device_array(found, dtype=np.int64)  # a larger layer than room: again, with room
        if found == 0:
            break
        nxt.copy_to_device(clear)
        if layout.any_robot:
            vexpand[blocks, threads](table, k, r, n, queue, found, nbr, binom, t, nxt)
        else:
            expand[blocks, threads](table, k, m, n, B, queue, found, nbr, binom, t, nxt)
        cur, nxt = nxt, cur
        settled += found
        if progress is not None:
            cuda.synchronize()
            progress(LayerReport(k, found, settled, size, time.perf_counter() - start))
    else:  # pragma: no cover
        raise TablebaseError("more than 254 layers: the table's bytes cannot hold the lengths")
    return table.copy_to_host()
