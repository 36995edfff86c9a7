"""The study: the table of every (board, coloured target), each an
independent task on a Dask distributed cluster, reduced to a small result
per table (the histogram, the longest length, the record holders' codes).

Why Dask distributed: the tasks are a plain map of Python functions over
(board, target); Dask's ``LocalCluster`` runs that on this machine with no
set-up (the default), and the same code runs on a real cluster given the
scheduler's address (``dask scheduler`` / ``dask worker`` on the machines,
SSH, Kubernetes, HPC job queues).  Its wheels are pure Python (tornado,
msgpack, cloudpickle).  Ray would serve as well, but it is a much larger
binary install whose wheels trail new Python releases, for features (actors,
object store, GPUs as resources) that a map of 1 536 independent tasks does
not need.

Each task builds one table with every core its worker has (numba threads),
so a worker per machine is the right shape; the study runs its tasks in
the order given and reports them as they finish.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from ..tiles import CHIPS
from .layout import TablebaseError

COLOURED = tuple(f"{c}-{s}" for c, s in CHIPS if s != "vortex")
"""The 16 coloured targets, ``red-circle`` … ``yellow-hexagon``."""


def parse_targets(text: str) -> list[str]:
    """``all`` or a comma-separated list of coloured targets such as ``red-circle``."""
    if text.strip().lower() == "all":
        return list(COLOURED)
    out = []
    for item in text.split(","):
        name = item.strip().lower().replace(" ", "-")
        if name not in COLOURED:
            raise TablebaseError(f"--targets: unknown target {item.strip()!r}; use 'all' or names like "
                                 f"{', '.join(COLOURED[:3])}")
        out.append(name)
    return out


@dataclass(frozen=True)
class Job:
    """One table of the study: a board (``1A,3B,4A,2A``), a coloured target
    (``red-circle``), the robot count, how many record holders to report,
    and where to save the table (None: not saved)."""

    tiles: str
    target: str
    robots: int = 4
    records: int = 5
    keep: str | None = None
    threads: int | None = None

    def layout(self) -> Any:
        from ..tiles import assemble, parse_arrangement
        from .layout import Layout

        board = assemble(*parse_arrangement(self.tiles))
        color, symbol = self.target.split("-")
        return Layout.of(board, board.find_target(color, symbol).cell, self.robots)

    def check(self) -> None:
        """Fail early, here rather than on a worker, when the job cannot run."""
        self.layout()


def work(job: Job) -> dict[str, Any]:
    """Build one table and reduce it to its result (runs on a worker)."""
    from ..notation import puzzle_code
    from .table import Tablebase

    if job.threads:
        import numba
        numba.set_num_threads(min(job.threads, numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]
    layout = job.layout()
    color = job.target.split("-")[0]
    tb = Tablebase.build(layout.board, layout.target, robots=job.robots, active_color=color)
    hist = tb.histogram()
    records = [puzzle_code(tb.puzzle(list(e.cells))) for e in tb.hardest(job.records) if e.length == tb.longest]
    if job.keep:
        os.makedirs(job.keep, exist_ok=True)
        tb.save(os.path.join(job.keep, f"{job.tiles.replace(',', '')}-{job.target}-{job.robots}r.rtb"))
    return {"board": job.tiles, "target": job.target, "cell": list(layout.target), "robots": job.robots,
            "positions": layout.size, "longest": tb.longest, "at_longest": hist[tb.longest],
            "histogram": {str(k): v for k, v in hist.items()}, "unreachable": tb.unreachable,
            "seconds": tb.info["seconds"], "records": records, "worker": socket.gethostname()}


def run(jobs: Sequence[Job], *, scheduler: str | None = None, workers: int = 1, processes: bool = True,
        progress: TextIO | None = None) -> list[dict[str, Any]]:
    """Run the jobs on the Dask scheduler at ``scheduler``, or on a local
    cluster of ``workers`` processes (threads with ``processes=False``)
    sharing this machine's cores; the results come back in job order."""
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise TablebaseError("the study needs Dask distributed: pip install 'ricochet[tablebase]'") from None
    start = time.perf_counter()
    cluster = None
    if scheduler is None:
        per_worker = max(1, (os.cpu_count() or 1) // workers)
        jobs = [Job(j.tiles, j.target, j.robots, j.records, j.keep, j.threads or per_worker) for j in jobs]
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes,
                               dashboard_address=None, memory_limit=0)
    try:
        client = Client(cluster if cluster is not None else scheduler, timeout=30)
    except OSError as e:
        raise TablebaseError(f"--scheduler {scheduler}: cannot connect: {e}") from None
    try:
        futures = client.map(work, list(jobs), pure=False)
        where = {f.key: i for i, f in enumerate(futures)}
        results: list[dict[str, Any] | None] = [None] * len(jobs)
        for done, future in enumerate(as_completed(futures), 1):
            r = future.result()
            results[where[future.key]] = r
            if progress is not None:
                progress.write(f"study: {done}/{len(jobs)} {r['board']} {r['target']}: longest {r['longest']} "
                               f"({r['at_longest']} positions) in {r['seconds']:.1f} s; "
                               f"{time.perf_counter() - start:.0f} s elapsed\n")
                progress.flush()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return [r for r in results if r is not None]


def report(results: Sequence[dict[str, Any]]) -> str:
    """A Markdown table (one row per table) and the record holders."""
    if not results:
        return "no tables"
    top = max(r["longest"] for r in results)
    tail = list(range(max(0, top - 5), top + 1))
    lines = ["| board | target | robots | longest | " + " | ".join(f"at {k}" for k in tail) + " | seconds |",
             "|---|---|---|---|" + "---|" * len(tail) + "---|"]
    for r in results:
        counts = " | ".join(str(r["histogram"].get(str(k), 0)) for k in tail)
        lines.append(f"| {r['board']} | {r['target']} | {r['robots']} | {r['longest']} | {counts} | "
                     f"{r['seconds']:.1f} |")
    best = [r for r in results if r["longest"] == top]
    lines.append("")
    lines.append(f"longest: {top} moves, {sum(r['at_longest'] for r in best)} positions over "
                 f"{len(best)} of {len(results)} tables; record holders:")
    for r in best:
        lines.extend(f"  {code}" for code in r["records"])
    return "\n".join(lines)
