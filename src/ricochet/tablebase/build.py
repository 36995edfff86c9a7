"""Build a table: the backward breadth-first search, layer by layer, on the
CPU (the reference) or the GPU, with a progress line on stderr.

>>> from ricochet.board import Board
>>> from ricochet.tablebase.layout import Layout
>>> table = build_table(Layout.of(Board.build(3, 3), (0, 0), robots=1))
>>> table.reshape(3, 3).tolist()    # one robot: corners 0 or 2 moves, the rest 1 or 2
[[0, 1, 1], [1, 2, 2], [1, 2, 2]]
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

import numpy as np

from .layout import Layout, TablebaseError
from .retro import PAGE, UNSEEN


@dataclass(frozen=True)
class LayerReport:
    """What one finished layer says: ``k`` moves, ``count`` positions at
    exactly ``k`` moves, ``settled`` positions at ``k`` or fewer, of ``size``."""

    k: int
    count: int
    settled: int
    size: int
    elapsed: float

    @property
    def eta(self) -> float:
        """Seconds left, assuming the time per settled position stays the same
        (each position is expanded once; unreachable ones never are)."""
        if self.settled == 0:
            return float("nan")
        return self.elapsed * (self.size - self.settled) / self.settled


Progress = Callable[[LayerReport], None]
PULL_RATIO = 2.0


class ProgressLine:
    """A one-line progress display on ``stream`` (stderr): layer, positions
    settled, elapsed time and an estimate of the time left."""

    def __init__(self, stream: TextIO | None = None, label: str = "tablebase") -> None:
        self.stream = stream or sys.stderr
        self.label = label
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def __call__(self, r: LayerReport) -> None:
        width = 20
        done = int(width * r.settled / r.size) if r.size else width
        bar = "#" * done + "." * (width - done)
        line = (f"{self.label}: [{bar}] layer {r.k:2d}: {r.count:,} at {r.k} moves, "
                f"{r.settled:,}/{r.size:,} settled ({100 * r.settled / r.size:.1f}%), "
                f"{r.elapsed:.1f} s, ETA {r.eta:.0f} s")
        self.stream.write(("\r" + line + "\x1b[K") if self.tty else line + "\n")
        self.stream.flush()

    def finish(self, text: str) -> None:
        self.stream.write(("\r" + text + "\x1b[K\n") if self.tty else text + "\n")
        self.stream.flush()


def build_table(layout: Layout, *, gpu: bool = False, progress: Progress | None = None) -> np.ndarray:
    """The table of ``layout``: one byte per position, its optimal number of
    moves (:data:`~ricochet.tablebase.retro.UNSEEN`, 255, when the target cannot be
    reached).  ``gpu`` runs the layers on a CUDA GPU (same bytes)."""
    if layout.size > np.iinfo(np.int64).max:  # pragma: no cover - 32×32 boards with 4 robots still fit
        raise TablebaseError("the table is too large")
    start = time.perf_counter()
    if gpu:
        from . import gpu as backend
        return backend.build(layout, progress, start)
    return _build_cpu(layout, progress, start)


def pages(size: int) -> int:
    """The page flags a table of ``size`` bytes needs (see ``retro.PAGE``)."""
    return (size >> PAGE) + 1


def _build_cpu(layout: Layout, progress: Progress | None, start: float) -> np.ndarray:
    from . import cpu

    n, B, m, r = layout.cells, layout.block, layout.helpers, layout.robots
    table = np.full(layout.size, UNSEEN, dtype=np.uint8)
    t = layout.target_number
    cur = np.zeros(pages(layout.size), dtype=np.uint8)
    nxt = np.zeros_like(cur)
    parts = cpu.threads()
    if layout.any_robot:
        units = cpu.vunits(n, r, parts)
        cpu.vgoals(table, r, layout.binom, units, t)
        cur[:] = 1

        def step(k: int, pull: bool, counts: np.ndarray) -> None:
            cpu.vlayer(table, k, r, layout.nbr, layout.binom, units, t, counts, pull, cur, nxt)
        first = units
    else:
        table[t * B:(t + 1) * B] = 0
        cur[(t * B) >> PAGE:(((t + 1) * B - 1) >> PAGE) + 1] = 1
        units = cpu.units(n, m, parts)
        first = cpu.units(n, m, parts, split=t)  # layer 0 is the target's block alone: share it out
        room = cpu.room(layout.board.width, layout.board.height)

        def step(k: int, pull: bool, counts: np.ndarray) -> None:
            cpu.layer(table, k, m, n, B, layout.nbr, layout.binom, first if k == 0 else units, t, counts, pull,
                      cur, nxt, room)
    settled = 0
    pull = False
    scanned = True  # are the counts of layer k those of a scan of every row that may hold it?
    known = 0  # pulling: the size of layer k, counted as it was written
    for k in range(UNSEEN - 1):
        counts = np.zeros(((len(first) if k == 0 else len(units)), 2), dtype=np.int64)
        step(k, pull, counts)
        count = int(counts[:, 0].sum()) if scanned else known
        if count == 0:
            break
        settled += count
        if progress is not None:
            progress(LayerReport(k, count, settled, layout.size, time.perf_counter() - start))
        known = int(counts[:, 1].sum())
        # Pull once the positions left (layer k + 1 among them) are few beside
        # the frontier: each costs up to 16 forward moves, a frontier position
        # about 13 predecessors.  The unseen set only shrinks: pull to the end.
        switch = not pull and layout.size - settled < PULL_RATIO * count
        if switch:
            cur[:] = 1  # pulling, cur flags the pages that may hold unseen positions: all, at first
            nxt[:] = 0
            scanned = True
        else:
            cur, nxt = nxt, cur
            nxt[:] = 0
            scanned = not pull
        pull = pull or switch
    else:  # pragma: no cover - a byte holds 254 layers; no board comes near
        raise TablebaseError("more than 254 layers: the table's bytes cannot hold the lengths")
    return table
