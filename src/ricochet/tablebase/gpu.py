"""The GPU build (numba-cuda): the same layers as the CPU build, one thread
per table byte (a grid-stride loop), the same retrograde step
(:mod:`.retro` compiled as device functions), hence the same bytes.

Why numba-cuda: the kernels are already numba, so the GPU path is the CPU's
Python source compiled for another target, not a second implementation in
CUDA C (CuPy's RawKernel) or in CuPy's array language.  numba-cuda is the
CUDA target NVIDIA maintains for numba (numba's own ``numba.cuda`` hands over
to it), with wheels for CUDA 12 and 13.  The whole table stays on the device
(≈ 650 MB for four robots on 16×16); only a counter crosses per layer.

Never yet run on a GPU: it is tested for byte-identity with the CPU build
under numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``).
"""

from __future__ import annotations

import time
from functools import lru_cache
from typing import Any

import numpy as np
from numba import cuda, int64

from . import compiled
from .build import LayerReport, Progress
from .layout import Layout, TablebaseError
from .retro import UNSEEN

THREADS = 256
BLOCKS = 4096


def available() -> bool:
    """Is a CUDA GPU (or numba's CUDA simulator) there?"""
    try:
        return bool(cuda.is_available())
    except Exception:  # noqa: BLE001 -- a missing driver or library raises many kinds of errors
        return False


@lru_cache(maxsize=1)
def _kernel() -> Any:
    # ``cuda`` stays a module global: the simulator swaps it for its fake module.
    R = compiled.load("cuda", cuda.jit(device=True))

    @cuda.jit
    def layer(table, k, m, n, B, total, nbr, binom, t, count, flags):  # type: ignore[no-untyped-def]
        shared = cuda.shared.array(1, int64)
        if cuda.threadIdx.x == 0:
            shared[0] = 0
        cuda.syncthreads()
        local = 0
        i = cuda.grid(1)
        stride = cuda.gridsize(1)
        while i < total:
            if table[i] == k:
                a = i // B
                h0, h1, h2 = R.unrank(i - a * B, m, a, n, binom)
                R.expand(table, k, m, a, h0, h1, h2, B, nbr, binom, t, flags)
                local += 1
            i += stride
        cuda.atomic.add(shared, 0, local)  # one global atomic per block, not per position
        cuda.syncthreads()
        if cuda.threadIdx.x == 0:
            cuda.atomic.add(count, 0, shared[0])

    @cuda.jit
    def vlayer(table, k, r, n, total, nbr, binom, t, count, flags):  # type: ignore[no-untyped-def]
        shared = cuda.shared.array(1, int64)
        if cuda.threadIdx.x == 0:
            shared[0] = 0
        cuda.syncthreads()
        local = 0
        i = cuda.grid(1)
        stride = cuda.gridsize(1)
        while i < total:
            if table[i] == k:
                c0, c1, c2, c3 = R.vunrank(i, r, n, binom)
                R.vexpand(table, k, r, c0, c1, c2, c3, nbr, binom, t, flags)
                local += 1
            i += stride
        cuda.atomic.add(shared, 0, local)
        cuda.syncthreads()
        if cuda.threadIdx.x == 0:
            cuda.atomic.add(count, 0, shared[0])

    @cuda.jit
    def vgoals(table, r, n, total, binom, t):  # type: ignore[no-untyped-def]
        i = cuda.grid(1)
        stride = cuda.gridsize(1)
        while i < total:
            c0, c1, c2, c3 = R.vunrank(i, r, n, binom)
            if R.occupied(t, c0, c1, c2, c3):
                table[i] = 0
            i += stride

    return layer, vlayer, vgoals


def build(layout: Layout, progress: Progress | None, start: float) -> np.ndarray:
    """The table of ``layout`` built on the GPU (byte-identical to the CPU's)."""
    if not available():
        raise TablebaseError("--gpu: no CUDA GPU found (numba.cuda.is_available() is false; "
                             "is the NVIDIA driver installed and numba-cuda, pip install 'ricochet[gpu]'?)")
    from numba.core import config

    layer, vlayer, vgoals = _kernel()
    n, B, m, r = layout.cells, layout.block, layout.helpers, layout.robots
    t = layout.target_number
    # The simulator runs every thread as a Python thread: a small grid.
    simulated = bool(config.ENABLE_CUDASIM)  # type: ignore[attr-defined]
    threads, blocks = (8, 2) if simulated else (THREADS, min(BLOCKS, -(-layout.size // THREADS)))
    nbr = cuda.to_device(layout.nbr)
    binom = cuda.to_device(layout.binom)
    count = cuda.to_device(np.zeros(1, dtype=np.int64))
    flags = cuda.to_device(np.zeros((layout.size >> 12) + 1, dtype=np.uint8))
    if layout.any_robot:
        table = cuda.to_device(np.full(layout.size, UNSEEN, dtype=np.uint8))
        vgoals[blocks, threads](table, r, n, layout.size, binom, t)
    else:
        host = np.full(layout.size, UNSEEN, dtype=np.uint8)
        host[t * B:(t + 1) * B] = 0
        table = cuda.to_device(host)
    settled = 0
    for k in range(UNSEEN - 1):
        count.copy_to_device(np.zeros(1, dtype=np.int64))
        if layout.any_robot:
            vlayer[blocks, threads](table, k, r, n, layout.size, nbr, binom, t, count, flags)
        else:
            layer[blocks, threads](table, k, m, n, B, layout.size, nbr, binom, t, count, flags)
        found = int(count.copy_to_host()[0])
        if found == 0:
            break
        settled += found
        if progress is not None:
            progress(LayerReport(k, found, settled, layout.size, time.perf_counter() - start))
    else:  # pragma: no cover
        raise TablebaseError("more than 254 layers: the table's bytes cannot hold the lengths")
    return table.copy_to_host()
