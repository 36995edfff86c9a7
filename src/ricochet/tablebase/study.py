"""The study: the table of every (board, target), each an independent task,
reduced to a small result per table (the histogram, the longest length, the
record holders' codes with one optimal solution each).

It runs three ways, the same tasks and the same results:

- **in this process** (``local=True``, or when Dask is not installed): one
  table after the other, each with every core (numba's threads) or on the
  GPU.  Needs only numpy and numba (numba-cuda for ``gpu``): no Dask, no
  zstandard unless tables are kept.
- on a **local Dask cluster** (the default when ``distributed`` is installed).
- on a **Dask cluster** of several machines (``scheduler``: ``dask scheduler``
  on one, ``dask worker ADDRESS`` on each of the others).

Why Dask distributed: the tasks are a plain map of Python functions over
(board, target); Dask's ``LocalCluster`` runs that on this machine with no
set-up, and the same code runs on a real cluster given the scheduler's
address (SSH, Kubernetes, HPC job queues).  Its wheels are pure Python
(tornado, msgpack, cloudpickle).  Ray would serve as well, but it is a much
larger binary install whose wheels trail new Python releases, for features
(actors, object store, GPUs as resources) that a map of independent tasks
does not need.

**Resuming**: with an output file, each result is appended as one JSON line
as soon as its table is done, and a later run skips the tables already in
the file (same board, target and robot count), saying so.
"""

from __future__ import annotations

import json
import os
import socket
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, TextIO

from ..tiles import CHIPS
from .layout import TablebaseError

COLOURED = tuple(f"{c}-{s}" for c, s in CHIPS if s != "vortex")
"""The 16 coloured targets, ``red-circle`` … ``yellow-hexagon``."""
VORTEX = "vortex"
"""The cosmic vortex: any robot may reach it (a vortex table)."""
TARGETS = COLOURED + (VORTEX,)


def parse_targets(text: str) -> list[str]:
    """``all`` (the 16 coloured targets and the vortex), ``coloured`` (the 16)
    or a comma-separated list of targets such as ``red-circle,vortex``."""
    key = text.strip().lower()
    if key == "all":
        return list(TARGETS)
    if key in ("coloured", "colored"):
        return list(COLOURED)
    out = []
    for item in text.split(","):
        name = item.strip().lower().replace(" ", "-")
        if name in ("any-vortex", "cosmic-vortex"):
            name = VORTEX
        if name not in TARGETS:
            raise TablebaseError(f"--targets: unknown target {item.strip()!r}; use 'all', 'coloured' or names "
                                 f"like {', '.join(COLOURED[:3])}, vortex")
        out.append(name)
    return out


@dataclass(frozen=True)
class Job:
    """One table of the study: a board (``1A,3B,4A,2A``), a target
    (``red-circle``, or ``vortex``), the robot count, how many record holders
    to report, where to save the table (None: not saved), the numba threads
    (None: all) and whether to build it on the GPU."""

    tiles: str
    target: str
    robots: int = 4
    records: int = 5
    keep: str | None = None
    threads: int | None = None
    gpu: bool = False

    @property
    def key(self) -> tuple[str, str, int]:
        """What names a table in the results: board, target, robots."""
        return (self.tiles, self.target, self.robots)

    def layout(self) -> Any:
        from ..tiles import assemble, parse_arrangement
        from .layout import Layout

        board = assemble(*parse_arrangement(self.tiles))
        if self.target == VORTEX:
            return Layout.of(board, board.find_target("any", "vortex").cell, self.robots, any_robot=True)
        color, symbol = self.target.split("-")
        return Layout.of(board, board.find_target(color, symbol).cell, self.robots)

    def check(self) -> None:
        """Fail early, here rather than on a worker, when the job cannot run."""
        self.layout()


def result_key(result: dict[str, Any]) -> tuple[str, str, int]:
    return (str(result["board"]), str(result["target"]), int(result["robots"]))


def work(job: Job) -> dict[str, Any]:
    """Build one table and reduce it to its result (runs on a worker)."""
    from ..notation import format_solution, puzzle_code
    from .table import Tablebase

    if job.threads:
        import numba
        numba.set_num_threads(min(job.threads, numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]
    layout = job.layout()
    color = "red" if job.target == VORTEX else job.target.split("-")[0]
    tb = Tablebase.build(layout.board, layout.target, robots=job.robots, active_color=color,
                         any_robot=layout.any_robot, gpu=job.gpu)
    start = time.perf_counter()
    hist = tb.histogram()
    records = []
    for e in tb.hardest(job.records):
        if e.length != tb.longest:
            break
        pz = tb.puzzle(list(e.cells))
        moves = tb.solution(pz) or []
        records.append({"code": puzzle_code(pz), "moves": e.length, "solution": format_solution(moves, pz.position)})
    if job.keep:
        os.makedirs(job.keep, exist_ok=True)
        tb.save(os.path.join(job.keep, f"{job.tiles.replace(',', '')}-{job.target}-{job.robots}r.rtb"))
    return {"board": job.tiles, "target": job.target, "cell": list(layout.target), "robots": job.robots,
            "positions": layout.size, "longest": tb.longest, "at_longest": hist[tb.longest],
            "histogram": {str(k): v for k, v in hist.items()}, "unreachable": tb.unreachable,
            "seconds": tb.info["seconds"], "reduce_seconds": round(time.perf_counter() - start, 3),
            "device": tb.info["device"], "records": records, "worker": socket.gethostname()}


def read_results(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The results already in a study's JSON-lines file (none if it does not
    exist); a line that is not a study result is an error naming it."""
    name = os.fspath(path)
    if not os.path.exists(name):
        return []
    out = []
    with open(name, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
                result_key(r)
                int(r["longest"])
            except (ValueError, KeyError, TypeError) as e:
                raise TablebaseError(f"{name}:{number}: not a study result line ({type(e).__name__}: {e}); "
                                     "each line is one JSON object with board, target, robots, longest, …") from None
            out.append(r)
    return out


def _dask() -> Any:
    try:
        from dask import distributed
    except ImportError:
        return None
    return distributed


def run(jobs: Sequence[Job], *, scheduler: str | None = None, workers: int = 1, processes: bool = True,
        local: bool = False, output: str | os.PathLike[str] | None = None,
        progress: TextIO | None = None) -> list[dict[str, Any]]:
    """Run the jobs and return every job's result in job order.

    ``local``: in this process, one table after the other (also when Dask
    is not installed and no ``scheduler`` is given).  Otherwise on the Dask
    scheduler at ``scheduler``, or on a local cluster of ``workers``
    processes (threads with ``processes=False``) sharing this machine's
    cores.  With ``output``, the tables already in that JSON-lines file are
    skipped (their lines are the results) and each new result is appended as
    soon as it is done."""
    def say(line: str) -> None:
        if progress is not None:
            progress.write(line + "\n")
            progress.flush()

    old = {result_key(r): r for r in read_results(output)} if output is not None else {}
    todo = []
    for job in jobs:
        if job.key in old:
            say(f"study: skipping {job.tiles} {job.target} ({job.robots} robot{'s' if job.robots != 1 else ''}): "
                f"already in {os.fspath(output or '')}")
        else:
            todo.append(job)
    dask = None if local else _dask()
    if dask is None and not local and scheduler is not None:
        raise TablebaseError("--scheduler needs Dask distributed: pip install 'ricochet[tablebase]'")
    if dask is None and not local and progress is not None:
        say("study: Dask distributed is not installed: running in this process (--local)")
    start = time.perf_counter()
    new: dict[tuple[str, str, int], dict[str, Any]] = {}
    sink = open(output, "a", encoding="utf-8") if output is not None and todo else None  # noqa: SIM115
    try:
        finished = _in_process(todo) if dask is None else _on_dask(dask, todo, scheduler, workers, processes)
        for done, r in enumerate(finished, 1):
            new[result_key(r)] = r
            if sink is not None:
                sink.write(json.dumps(r) + "\n")
                sink.flush()
            say(f"study: {done}/{len(todo)} {r['board']} {r['target']}: longest {r['longest']} "
                f"({r['at_longest']} positions) in {r['seconds']:.1f} s ({r.get('device', 'cpu')}); "
                f"{time.perf_counter() - start:.0f} s elapsed")
    except KeyboardInterrupt:
        where = f"; the {len(new)} done are in {os.fspath(output)}: run again to resume" if output is not None else ""
        say(f"study: interrupted after {len(new)} of {len(todo)} tables{where}")
        raise
    finally:
        if sink is not None:
            sink.close()
    return [new.get(j.key) or old[j.key] for j in jobs]


def _in_process(jobs: Sequence[Job]) -> Iterator[dict[str, Any]]:
    for job in jobs:
        yield work(job)


def _on_dask(dask: Any, jobs: Sequence[Job], scheduler: str | None, workers: int,
             processes: bool) -> Iterator[dict[str, Any]]:
    if not jobs:
        return
    cluster = None
    if scheduler is None:
        per_worker = max(1, (os.cpu_count() or 1) // workers)
        jobs = [replace(j, threads=j.threads or per_worker) for j in jobs]
        # (":0": the scheduler's HTTP server, which runs even without a dashboard, on a free port:
        # two studies at once on one machine would otherwise share 8787 and warn.)
        cluster = dask.LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes,
                                    dashboard_address=":0", memory_limit=0)
    try:
        client = dask.Client(cluster if cluster is not None else scheduler, timeout=30)
    except OSError as e:
        if cluster is not None:
            cluster.close()
        raise TablebaseError(f"--scheduler {scheduler}: cannot connect: {e}") from None
    try:
        futures = client.map(work, list(jobs), pure=False)
        for future in dask.as_completed(futures):
            yield future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


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
        lines.extend(f"  {record_code(code)}" for code in r["records"])
    return "\n".join(lines)


def record_code(record: Any) -> str:
    """The position code of a record (the first study files kept bare codes)."""
    return str(record["code"]) if isinstance(record, dict) else str(record)
