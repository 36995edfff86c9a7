"""The ``bench`` sub-command of the ``ricochet`` command line: the solver
benchmark (also ``benchmarks/solver.py``), :func:`run_benchmark`.

The sets (ASP 2015, random puzzles, the hard ones) in one process and on N,
against the C solver and DriftingDroids where they are built
(``benchmarks/peers.py``), with the batch's anatomy, a model of 16 workers,
the start-up and a trivial puzzle on a new board; ``benchmarks/README.md``
says what each figure means.  Importing this module registers the command in
:data:`ricochet.cli.COMMANDS`.
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import resource
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from .. import datasets
from ..puzzle import Puzzle
from . import EXIT_FAIL, EXIT_OK, CliError, add_command
from .solve import _jobs, _time_limit

if TYPE_CHECKING:
    from ..solver import Solution

__all__ = ["BenchRow", "build_bench", "run_bench", "run_benchmark"]


REPO = Path(__file__).resolve().parents[3]
"""The source checkout (``src/ricochet/cli/bench.py`` → the repository)."""
DEFAULT_DATA = datasets.directory()
"""Where ``asp2015.jsonl`` is: shipped with the package (:mod:`ricochet.datasets`)."""
DEFAULT_HARD = datasets.path("hard")
SETS = ("asp", "random", "hard")

# Published numbers of the C solver (the issue; another machine, 2 processes of ours), and our targets.
THEIRS = {"asp": 47.0, "random": 1.8e-3, "25-move": 9.0}
TARGETS = {"asp": 20.0, "random": 1.0e-3, "25-move": 4.0, "memory_mib": 2048.0}
PEERS_MODULE = REPO / "benchmarks" / "peers.py"


@dataclass
class BenchRow:
    """One set's figures: ``wall`` etc. on ``jobs`` processes (``solve_many``),
    ``wall1`` in one process (``solve`` in a loop, here), ``peer`` the other
    solvers' seconds on the puzzles they can take (with ours on the same ones)."""

    name: str
    count: int
    wall: float
    median: float
    mean: float
    max: float
    states_per_second: float
    peak_mib: float
    check: str
    ok: bool
    longest: tuple[int, float] | None = None  # (optimal length, seconds) of the longest puzzle
    solutions: list[Any] = field(default_factory=list, repr=False)
    jobs: int = 1
    wall1: float | None = None
    peers: list[tuple[str, int, float, float, int]] = field(default_factory=list)
    """(peer, puzzles it took, its seconds, ours in one process on those (each ``solve`` call's
    wall time), answers that differ)."""
    peer_bands: list[tuple[str, list[tuple[str, int, float, float]]]] = field(default_factory=list)
    """(peer, [(optimal lengths, puzzles, its seconds, ours) per band of :data:`LENGTH_BANDS`])."""
    peer_short: list[tuple[str, int, float, float]] = field(default_factory=list)
    """(peer, puzzles of 1 to :data:`SHORT_MAX` moves, its seconds on them, ours): the short
    puzzles' sum, the solver issue's measure."""
    peer_skipped: list[tuple[str, dict[str, int]]] = field(default_factory=list)
    """(peer, {why: how many puzzles it left out})."""
    interleaved: list[str] = field(default_factory=list)
    """The peers that took each puzzle in turn with ours, first on every other one (the others
    ran their batch after)."""
    modelled: list[tuple[int, float, float]] = field(default_factory=list)
    """(workers, speed-up, batch time / longest puzzle) of :func:`model_batch` on the one-process times."""
    bound: float | None = None
    """One-process total / longest puzzle: no schedule of whole puzzles beats this speed-up."""
    longest_one: float | None = None
    """The slowest puzzle's seconds in the one-process run (what a batch can not end before)."""
    threaded: tuple[int, float, float, int] | None = None
    """(threads, one thread's seconds, ``solve(threads=…)``'s, answers that differ) for the
    sets whose puzzles are searched on several threads too (:data:`THREADED_SETS`)."""
    scaling: list[tuple[int, float]] = field(default_factory=list)
    """(processes, wall seconds) of one more ``solve_many`` batch per ``--scale`` entry above 1."""
    thread_scaling: list[tuple[int, float]] = field(default_factory=list)
    """(threads, seconds) of the set's slowest puzzle by ``solve(threads=…)``, per ``--scale``
    entry (1: its one-process time), for :data:`THREADED_SETS`."""
    slowest_id: str | None = None
    """The puzzle of :attr:`thread_scaling`."""
    solve_seconds: tuple[float, float] | None = None
    """(one process, N processes): the puzzles' own solve times summed (``Solution.seconds``,
    each measured where it ran), to split a batch's speed-up into the slowdown of solving
    N at once and the workers' idle time."""
    rounds: list[tuple[float, float]] = field(default_factory=list)
    """``--rounds``: (one process, ``jobs`` processes) wall seconds of each round, the
    one-process loop and the batch alternated (the first: the run above)."""
    cli: list[tuple[int, float, int]] = field(default_factory=list)
    """``--cli``: (``--jobs``, wall seconds, answers whose length differs) of ``ricochet solve``
    on the set's file, a fresh process each (start-up, reading and writing included): the
    median of :data:`CLI_RUNS`."""
    cli_one: float | None = None
    """``--cli``: the median wall seconds of ``ricochet solve --jobs 1`` on a file of the set's
    first puzzle alone, run in turn with the whole set's: the start-up that
    :func:`format_cli` sets aside (the solver issue's item 4)."""


def peak_mib() -> float:
    """Peak resident memory of this process plus its (largest) finished child, MiB."""
    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB elsewhere
    return (me + kids) * scale / 2**20


def _read_set(path: Path, limit: int | None = None) -> list[Puzzle]:
    from ..notation import read_jsonl

    if not path.exists():
        raise CliError(f"{path}: no such file (benchmark data)")
    puzzles = []
    for line, item in read_jsonl(path.read_text(encoding="utf-8").splitlines()):
        if not isinstance(item, Puzzle):
            raise CliError(f"{path}: {item}")
        puzzles.append(item)
    return puzzles[:limit] if limit is not None else puzzles


MODEL_WORKERS = 16  # the many-core machine, modelled where none is at hand
TASK_SECONDS = 4e-4  # a task's round trip between solve_many's processes (0.38 ms measured, 2 cores)


def model_batch(tasks: Sequence[Sequence[int]], seconds: Sequence[float], workers: int,
                per_task: float = TASK_SECONDS, max_chunk: int = 16) -> float:
    """When a batch would end on ``workers`` processes that take ``tasks`` in order,
    each the next free worker's, as :func:`~ricochet.solver.solve_many` hands them
    out: once ``workers`` answers are in by a task's start, it takes the tasks
    after it along (:func:`~ricochet.solver.batch.chunk_size`,
    :func:`~ricochet.solver.batch.take_task`).  A puzzle costs
    its one-process ``seconds`` and each task ``per_task`` more.  A model: it
    knows no memory contention, no clock that slows with more busy cores, no
    start-up.

    >>> model_batch([[0], [1], [2, 3]], [4.0, 1.0, 1.0, 1.0], 2, per_task=0.0)
    4.0
    >>> round(model_batch([[i] for i in range(40)], [0.0001] * 40, 2, per_task=0.001), 4)  # one a task: 0.022
    0.0069
    """
    from ..solver.batch import RunningMedian, chunk_size, take_task

    free = [0.0] * workers
    queue = [list(task) for task in reversed(tasks)]  # popped from the end
    left = sum(len(task) for task in tasks)
    answered = RunningMedian()  # the solve times answered by the current start
    pending: list[tuple[float, list[float]]] = []  # (when, solve times) of the tasks out
    end = 0.0
    while queue:
        start = heapq.heappop(free)
        while pending and pending[0][0] <= start:
            for t in heapq.heappop(pending)[1]:
                answered.add(t)
        task = take_task(queue, chunk_size(answered, left, workers, max_chunk))
        left -= len(task)
        done = start + per_task + sum(seconds[i] for i in task)
        heapq.heappush(pending, (done, [seconds[i] for i in task]))
        end = max(end, done)
        heapq.heappush(free, done)
    return end


def _model_rows(row: BenchRow, puzzles: Sequence[Puzzle], seconds: Sequence[float], jobs: int) -> None:
    """Fill ``row.modelled`` (for ``jobs`` and :data:`MODEL_WORKERS` workers) and ``row.bound``."""
    from ..solver import effort_estimate
    from ..solver.batch import schedule

    t0 = time.perf_counter()
    effort = [effort_estimate(p) for p in puzzles]
    estimates = time.perf_counter() - t0  # solve_many computes them in its workers, shared out
    total, longest = sum(seconds), max(seconds, default=0.0)
    if total <= 0 or longest <= 0:
        return
    row.bound = total / longest
    for workers in sorted({jobs, MODEL_WORKERS}):
        end = model_batch(schedule(effort, workers), seconds, workers) + estimates / workers
        row.modelled.append((workers, total / end, end / longest))


THREADED_SETS = ("hard",)
"""Sets whose puzzles the bench also solves one at a time on ``--jobs`` threads (long ones)."""


def _bench_set(name: str, puzzles: list[Puzzle], jobs: int, time_limit: float | None, single: bool,
               peers: Sequence[Any], scale: Sequence[int] = (), rounds: int = 1,
               progress: Callable[[str], object] = lambda line: None) -> BenchRow:
    """One set's row: its batch on ``jobs`` processes, its one-process loop (and the
    peers'), the rounds and the scaling asked for.  ``progress`` gets a line as each
    part ends (a full bench is minutes of solving)."""
    from ..puzzle import check_solution
    from ..solver import solve, solve_many
    from ..solver.tables import clear_caches

    first = f"round 1 of {rounds}, " if rounds > 1 and single else ""

    def done(what: str, seconds: float) -> None:
        progress(f"  {what}: {_fmt_s(seconds)}")

    def cold_start() -> float:
        """The clock at the start of a timed part, with no board's tables built, as in the
        first part: the caches hold a whole set, and forked workers inherit them, so a later
        part would otherwise skip the table building that the C solver does on every call."""
        clear_caches()
        return time.perf_counter()

    ones = []
    wall1 = None
    # A peer that solves one puzzle at a time here (the C solver) takes each puzzle in turn with
    # our own solve of it: a slow spell of the machine then hits both sides of the ratio.
    interleaved = [peer for peer in peers if getattr(peer, "interleaved", False)]
    results: dict[str, list[Any]] = {peer.name: [] for peer in interleaved}
    # Long puzzles are also searched one at a time on `jobs` threads, right after the one-thread
    # solve of each (so a slow spell of the machine hits both).
    threads = jobs if name in THREADED_SETS and jobs > 1 and single else 1
    threaded = []
    many, wall_many = None, 0.0
    if jobs > 1 or not (single or peers):
        # First: once this process has started threads (below), solve_many's forked workers
        # could not start theirs for a batch of fewer puzzles than processes.
        t0 = cold_start()
        many = solve_many(puzzles, processes=jobs, time_limit=time_limit)
        wall_many = time.perf_counter() - t0
        done(f"{first}{jobs} processes", wall_many)
    scaled: list[tuple[int, float, list[int | None]]] = []
    for procs in scale:
        if procs > 1:  # before the threads below, like the batch above
            t0 = cold_start()
            got = solve_many(puzzles, processes=procs, time_limit=time_limit)
            scaled.append((procs, time.perf_counter() - t0, [s.length for s in got]))
            done(f"--scale, {procs} processes", scaled[-1][1])
    # More rounds of the one-process loop and the batch, alternated, before any thread starts here:
    # this machine's speed drifts, and one run of each can put their ratio off by a fifth.
    extra: list[tuple[float, float, list[int | None]]] = []
    for _ in range(rounds - 1 if single and many is not None else 0):
        t0 = cold_start()
        for p in puzzles:
            solve(p, time_limit=time_limit)
        t1 = cold_start()
        got = solve_many(puzzles, processes=jobs, time_limit=time_limit)
        extra.append((t1 - t0, time.perf_counter() - t1, [s.length for s in got]))
        done(f"round {len(extra) + 1} of {rounds}, one process", extra[-1][0])
        done(f"round {len(extra) + 1} of {rounds}, {jobs} processes", extra[-1][1])
    # Each puzzle's time in the one-process loop, end to end: what a caller of `solve` waits,
    # its argument checks, tables, search, answer and clean-up included.  `Solution.seconds`
    # leaves out the call's first and last microseconds: 7-10 µs of a 1-3-move puzzle's 40.
    walls: list[float] = []
    if single or peers:
        # One process: `solve` in a loop here, end to end (tables, search, the answer's moves).
        def peers_take(p: Puzzle) -> None:
            for peer in interleaved:
                results[peer.name].append(peer.run_one(p))

        cold_start()
        for i, p in enumerate(puzzles):
            # The peers take every other puzzle first: whoever goes second runs with the caches
            # as the other's search left them (after a long search, a short one's code and data
            # are out of them: a third of our 1-3-move puzzles' time, measured in turn after C).
            peers_first = i % 2 == 1
            if peers_first:
                peers_take(p)
            t0 = time.perf_counter()
            ones.append(solve(p, time_limit=time_limit))
            walls.append(time.perf_counter() - t0)
            if not peers_first:
                peers_take(p)
            if threads > 1:
                threaded.append(solve(p, time_limit=time_limit, threads=threads))
        wall1 = sum(walls)
        beside = [peer.name for peer in interleaved] + ([f"ours on {threads} threads"] if threads > 1 else [])
        done(f"{first}one process" + (f" (each puzzle then by {', '.join(beside)})" if beside else ""), wall1)
    sols, wall = (many, wall_many) if many is not None else (ones, wall1 or 0.0)
    secs = [s.seconds for s in sols]
    nodes = sum(s.nodes for s in sols)
    solved = [s for s in sols if s.solved]
    # Every answer replayed by the engine here (the solver itself no longer does by default).
    valid = sum(1 for s in solved if check_solution(s.puzzle, s.moves).ok)
    with_opt = [s for s in sols if s.puzzle.optimal is not None]
    exact = sum(1 for s in with_opt if s.solved and s.length == s.puzzle.optimal)
    parts = []
    if with_opt:
        parts.append(f"{exact}/{len(with_opt)} optimal")
    parts.append(f"{valid}/{len(sols)} valid")
    same = all(a.length == b.length for a, b in zip(ones, sols)) if ones else True
    if not same:
        parts.append("one process and N processes DISAGREE")
    ok = exact == len(with_opt) and valid == len(sols) and same
    longest = None
    if with_opt:
        top = max(with_opt, key=lambda s: (s.puzzle.optimal or 0, s.seconds))
        longest = (top.puzzle.optimal or 0, top.seconds)
    row = BenchRow(name, len(sols), wall, statistics.median(secs) if secs else 0.0,
                   wall / len(sols) if sols else 0.0, max(secs, default=0.0),
                   nodes / sum(secs) if sum(secs) > 0 else 0.0, peak_mib(), ", ".join(parts), ok, longest, sols,
                   jobs, wall1 if single else None)
    row.interleaved = [peer.name for peer in interleaved]
    row.longest_one = max(walls, default=None)
    if ones and many is not None:
        row.solve_seconds = (sum(s.seconds for s in ones), sum(s.seconds for s in many))
    if threaded:
        differ = sum(1 for a, b in zip(ones, threaded, strict=True) if a.length != b.length)
        row.threaded = (threads, sum(s.seconds for s in ones), sum(s.seconds for s in threaded), differ)
        row.ok = row.ok and differ == 0
    lengths = [s.length for s in sols]
    for procs, seconds, got_lengths in scaled:
        row.scaling.append((procs, seconds))
        if got_lengths != lengths:
            row.ok = False
            row.check += f", {procs} processes DISAGREE"
    if extra and wall1 is not None:
        row.rounds = [(wall1, wall_many)] + [(one, batch) for one, batch, _ in extra]
        if any(got_lengths != lengths for _, _, got_lengths in extra):
            row.ok = False
            row.check += ", a later round DISAGREES"
    if ones and name in THREADED_SETS and scale:
        slowest = max(range(len(ones)), key=lambda i: ones[i].seconds)
        row.slowest_id = puzzles[slowest].id
        for n in scale:
            sol = ones[slowest] if n == 1 else solve(puzzles[slowest], time_limit=time_limit, threads=n)
            row.thread_scaling.append((n, sol.seconds))
            if n > 1:
                done(f"--scale, its slowest puzzle on {n} threads", sol.seconds)
            if sol.length != ones[slowest].length:
                row.ok = False
                row.check += f", {n} threads DISAGREE"
    if ones:
        _model_rows(row, puzzles, walls, jobs)
    for peer in peers:
        run = peer.collect(results[peer.name]) if peer in interleaved else peer.run(puzzles)
        done(f"{peer.name}, one thread", run.total)
        taken = [i for i, n in enumerate(run.lengths) if n is not None]
        ours = sum(walls[i] for i in taken)
        differ = sum(1 for i in taken if run.lengths[i] != ones[i].length)
        row.peers.append((peer.name, len(taken), run.total, ours, differ))
        row.peer_bands.append((peer.name, length_bands([ones[i].length for i in taken],
                                                       [run.seconds[i] for i in taken],
                                                       [walls[i] for i in taken])))
        short = [i for i in taken if ones[i].length is not None and 1 <= ones[i].length <= SHORT_MAX]
        row.peer_short.append((peer.name, len(short), sum(run.seconds[i] for i in short),
                               sum(walls[i] for i in short)))
        if run.skipped:
            row.peer_skipped.append((peer.name, dict(run.skipped)))
        if differ:
            row.ok = False
    return row


SHORT_MAX = 5
"""The longest of the short puzzles whose sum the per-core comparison also gives (ours on
them against the peer's: what bots, the trainer and sweeps mostly ask for)."""

LENGTH_BANDS = ((1, 3), (4, 6), (7, 9), (10, 12), (13, 250))
"""Optimal lengths the per-core comparison is also broken down by: short puzzles cost
little to search, and their time is mostly what surrounds the search."""


def length_bands(lengths: Sequence[int | None], theirs: Sequence[float], ours: Sequence[float]
                 ) -> list[tuple[str, int, float, float]]:
    """(band, puzzles, their seconds, ours) per band of :data:`LENGTH_BANDS` that has puzzles
    (a length of 0 or None counts in none).

    >>> length_bands([1, 2, 8, None], [1.0, 1.0, 4.0, 9.0], [2.0, 3.0, 1.0, 9.0])
    [('1-3', 2, 2.0, 5.0), ('7-9', 1, 4.0, 1.0)]
    """
    out = []
    for lo, hi in LENGTH_BANDS:
        picked = [i for i, n in enumerate(lengths) if n is not None and lo <= n <= hi]
        if picked:
            label = f"{lo}-{hi}" if hi < LENGTH_BANDS[-1][1] else f"{lo}+"
            out.append((label, len(picked), sum(theirs[i] for i in picked), sum(ours[i] for i in picked)))
    return out


def _fmt_s(x: float) -> str:
    if x >= 100:
        return f"{x:.0f} s"
    if x >= 1:
        return f"{x:.2f} s"
    if x >= 1e-3:
        return f"{x * 1e3:.2f} ms"
    return f"{x * 1e6:.0f} µs"


def format_table(rows: Sequence[BenchRow]) -> str:
    """The sets' figures: one process (``1-proc wall``, per puzzle) and N processes (``N-proc wall``,
    speed-up), per-puzzle median and max, states/s, peak memory, checks."""
    header = ("set", "count", "1-proc wall", "1-proc/puzzle", "N-proc wall", "N", "speed-up", "median", "max",
              "states/s", "peak MiB", "check")
    body = []
    for r in rows:
        one = r.wall1
        body.append((r.name, str(r.count), _fmt_s(one) if one is not None else "-",
                     _fmt_s(one / r.count) if one is not None and r.count else "-",
                     _fmt_s(r.wall) if r.jobs > 1 else "-", str(r.jobs),
                     f"{one / r.wall:.2f}x" if one is not None and r.jobs > 1 and r.wall > 0 else "-",
                     _fmt_s(r.median), _fmt_s(r.max), f"{r.states_per_second / 1e6:.1f} M", f"{r.peak_mib:.0f}",
                     r.check))
    widths = [max(len(h), *(len(b[i]) for b in body)) for i, h in enumerate(header)]
    last = len(header) - 1
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths)),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) if i in (0, last) else c.rjust(w) for i, (c, w) in enumerate(zip(b, widths)))
              for b in body]
    return "\n".join(lines)


def format_threads(rows: Sequence[BenchRow]) -> str:
    """One puzzle at a time on several threads (``solve(threads=N)``) against one
    thread, each puzzle both ways in turn; empty when no set was run so."""
    lines = []
    for r in rows:
        if r.threaded is None:
            continue
        n, one, many, differ = r.threaded
        lines.append(f"  {r.name:<8} {r.count:>4} puzzles: 1 thread {_fmt_s(one)}, {n} threads {_fmt_s(many)}: "
                     f"{one / many:.2f}x" + (f"; {differ} lengths DIFFER" if differ else "; every length equal"))
    if not lines:
        return ""
    return "one puzzle at a time on several threads (solve(threads=N), shared state map):\n" + "\n".join(lines)


def _timed_runs(runs: Sequence[tuple[int, float]], label: str = "") -> str:
    """``{label}n: seconds (speed-up against the run on 1, where there is one)``, side by side."""
    base = runs[0][1] if runs and runs[0][0] == 1 else None
    return "   ".join(f"{label}{n}: {_fmt_s(w)}" + (f" ({base / w:.2f}x)" if base and n > 1 and w > 0 else "")
                      for n, w in runs)


def format_scaling(rows: Sequence[BenchRow]) -> str:
    """``--scale``: each set's batch on each number of processes against one
    process, and the hard set's slowest puzzle on each number of threads
    against one thread.  Empty without ``--scale``.

    >>> row = BenchRow("asp", 239, 2.2, 0.1, 0.1, 0.8, 1e6, 440, "", True, jobs=16, wall1=25.2,
    ...                scaling=[(2, 12.1), (16, 2.2)])
    >>> print(format_scaling([row]))
    scaling with cores (--scale; 1: the one-process loop, N: one solve_many batch on N processes):
      asp     1: 25.20 s   2: 12.10 s (2.08x)   16: 2.20 s (11.45x)
    """
    lines = []
    for r in rows:
        runs = ([(1, r.wall1)] if r.wall1 is not None else []) + list(r.scaling)
        if len(runs) < 2 and not r.thread_scaling:
            continue
        if runs:
            lines.append(f"  {r.name:<7} " + _timed_runs(runs))
        if r.thread_scaling:
            lines.append(f"  {r.name:<7} its slowest puzzle ({r.slowest_id}) on N threads: "
                         + _timed_runs(r.thread_scaling))
    if not lines:
        return ""
    return ("scaling with cores (--scale; 1: the one-process loop, N: one solve_many batch on N processes):\n"
            + "\n".join(lines))


def format_rounds(rows: Sequence[BenchRow]) -> str:
    """``--rounds``: each set's one-process loop and its batch on N processes,
    alternated, as medians, and the speed-up as the ratio of the medians with
    its range over the rounds.  Empty without ``--rounds``.

    >>> row = BenchRow("asp", 239, 1.7, 0.1, 0.1, 0.4, 1e6, 440, "", True, jobs=16, wall1=16.1,
    ...                rounds=[(16.1, 1.74), (18.5, 1.56), (17.0, 1.80)])
    >>> print(format_rounds([row]))
    one process against N processes, 3 rounds alternated (--rounds; medians, then the speed-up's range over the rounds):
      asp      1: 17.00 s (16.10 s-18.50 s)   16: 1.74 s (1.56 s-1.80 s)   9.77x (9.25x-11.86x)
    """
    lines = []
    for r in rows:
        if len(r.rounds) < 2:
            continue
        ones, batches = [one for one, _ in r.rounds], [batch for _, batch in r.rounds]
        ratios = [one / batch for one, batch in r.rounds if batch > 0]
        one, batch = statistics.median(ones), statistics.median(batches)
        lines.append(f"  {r.name:<7}  1: {_fmt_s(one)} ({_fmt_s(min(ones))}-{_fmt_s(max(ones))})   "
                     f"{r.jobs}: {_fmt_s(batch)} ({_fmt_s(min(batches))}-{_fmt_s(max(batches))})   "
                     f"{one / batch:.2f}x ({min(ratios):.2f}x-{max(ratios):.2f}x)")
    if not lines:
        return ""
    count = max(len(r.rounds) for r in rows)
    return (f"one process against N processes, {count} rounds alternated (--rounds; medians, then the speed-up's "
            "range over the rounds):\n" + "\n".join(lines))


LONG_BATCH_TARGET = 1.2
"""A batch of N long puzzles on N processes or more should end within this
multiple of its longest puzzle alone (the solver issue's target)."""


def format_batches(rows: Sequence[BenchRow]) -> str:
    """When each set's batch on N processes ended, measured against its slowest
    puzzle in the one-process run; a set of no more puzzles than processes is
    the "N long puzzles on N cores or more" case, with its target.  Then
    where the speed-up was lost: each solve in the batch against the same
    solve alone (memory and caches shared by N searches), and the share of
    the workers' time spent solving (the rest: start-up, the estimates,
    idle at the end).  Empty without both runs.

    >>> row = BenchRow("hard", 11, 3.6, 1.0, 1.0, 3.3, 1e6, 800, "", True, jobs=16, wall1=14.4, longest_one=3.3)
    >>> print(format_batches([row]))
    batches on N processes (solve_many), measured against their slowest puzzle alone in one process:
      hard      16 processes: 3.60 s, 1.09x its slowest puzzle (3.30 s); 11 puzzles on 16 processes: target <= 1.2x met
    >>> row = BenchRow("asp", 239, 2.0, 0.1, 0.1, 0.6, 1e6, 800, "", True, jobs=16, wall1=24.0, longest_one=0.6,
    ...                solve_seconds=(24.0, 28.8))
    >>> print(format_batches([row]).splitlines()[-1])
      asp       16 processes: each solve 1.20x its time alone; the workers spent 90% of 16 x 2.00 s solving
    """
    lines = []
    for r in rows:
        if r.jobs <= 1 or r.wall1 is None or not r.longest_one:
            continue
        ratio = r.wall / r.longest_one
        line = (f"  {r.name:<8} {r.jobs:>3} processes: {_fmt_s(r.wall)}, {ratio:.2f}x its slowest puzzle "
                f"({_fmt_s(r.longest_one)})")
        if r.count <= r.jobs:
            line += (f"; {r.count} puzzles on {r.jobs} processes: target <= {LONG_BATCH_TARGET}x "
                     + ("met" if ratio <= LONG_BATCH_TARGET else "NOT met"))
        lines.append(line)
    split = [(r, r.solve_seconds) for r in rows if r.jobs > 1 and r.wall > 0 and r.solve_seconds
             and r.solve_seconds[0] > 0 and r.count > r.jobs]
    if split:
        lines.append("  where the rest of the speed-up went (speed-up ~ processes x share solving / slowdown):")
    for r, (alone, together) in split:
        lines.append(f"  {r.name:<8} {r.jobs:>3} processes: each solve {together / alone:.2f}x its time alone; "
                     f"the workers spent {together / (r.jobs * r.wall):.0%} of {r.jobs} x {_fmt_s(r.wall)} solving")
    if not lines:
        return ""
    return ("batches on N processes (solve_many), measured against their slowest puzzle alone in one process:\n"
            + "\n".join(lines))


def format_model(rows: Sequence[BenchRow]) -> str:
    """The speed-ups :func:`model_batch` predicts from the one-process times (empty without them)."""
    lines = []
    for r in rows:
        for workers, speedup, ratio in r.modelled:
            bound = f" (no schedule of whole puzzles beats {r.bound:.1f}x)" if r.bound and r.bound < workers else ""
            lines.append(f"  {r.name:<7}  {workers:>2} workers: {speedup:5.1f}x, the batch ends at "
                         f"{ratio:.2f}x its longest puzzle{bound}")
    if not lines:
        return ""
    return ("modelled from the one-process times (solve_many's schedule, each task to the next free worker, "
            f"{TASK_SECONDS * 1e3:.1f} ms a task;\nno memory contention, no slower clock on busy cores: "
            "a prediction, not a measurement):\n" + "\n".join(lines))


def format_peers(rows: Sequence[BenchRow], wanted: Sequence[str]) -> str:
    """Same-run comparison per core: each peer on one thread against our one process, on the
    puzzles the peer can take (ours: the clock around each ``solve`` call, end to end).
    An ``interleaved`` peer took each puzzle in turn with ours, before ours on every other
    puzzle (``BenchRow.interleaved``); any other ran its batch after our loop."""
    lines = ["same run, per core (peer: one thread; ours: one process, the same puzzles):",
             "  set      peer                      puzzles   peer        ours        ours/peer  answers"]
    any_row = False
    for r in rows:
        for name, n, theirs, ours, differ in r.peers:
            any_row = True
            ratio = f"{ours / theirs:8.2f}" if theirs > 0 else "       -"
            lines.append(f"  {r.name:<8} {name:<25} {n:>7}   {_fmt_s(theirs):>9}   {_fmt_s(ours):>9}   {ratio}   "
                         + ("all equal" if not differ else f"{differ} DIFFER"))
    banded = [(r.name, name, bands) for r in rows for name, bands in r.peer_bands if len(bands) > 1]
    if banded:
        lines.append("  by optimal length, ours/peer (puzzles):")
        for set_name, name, bands in banded:
            cells = "  ".join(f"{label} {ours / theirs:.2f} ({n})" if theirs > 0 else f"{label} - ({n})"
                              for label, n, theirs, ours in bands)
            lines.append(f"  {set_name:<8} {name:<25} {cells}")
    shorts = [(r.name, name, n, theirs, ours) for r in rows for name, n, theirs, ours in r.peer_short if n]
    if shorts:
        lines.append(f"  short puzzles (1-{SHORT_MAX} moves), summed, ours/peer:")
        for set_name, name, n, theirs, ours in shorts:
            ratio = f"{ours / theirs:.2f}" if theirs > 0 else "-"
            lines.append(f"  {set_name:<8} {name:<25} {ratio} ({n} puzzles: peer {_fmt_s(theirs)}, ours {_fmt_s(ours)})")
    for r in rows:
        for name, skipped in r.peer_skipped:
            why = "; ".join(f"{k} {w}" for w, k in sorted(skipped.items(), key=lambda kv: (-kv[1], kv[0])))
            lines.append(f"  left out ({r.name}, {name}): {why}")
    timed_along = sorted({name for r in rows for name in r.interleaved})
    if timed_along and any_row:
        lines.append(f"  interleaved: {', '.join(timed_along)} took each puzzle in turn with ours, first on "
                     "every other one (a slow spell of the machine hits both, and each side runs as often "
                     "after the other's search); any other peer ran its batch after ours")
    lines += [f"  {w}" for w in wanted]
    if not any_row and not wanted:
        return ""
    return "\n".join(lines)


def format_comparison(rows: Sequence[BenchRow], quick: bool) -> str:
    by = {r.name: r for r in rows}
    lines = ["targets (the C solver's published figures, another machine; ours on N processes):",
             "  what                 ours        C solver    ours/C   target     met"]

    def row(what: str, ours: float, theirs: float, target: float) -> None:
        met = "yes" if ours < target else "NO"
        lines.append(f"  {what:<20} {_fmt_s(ours):>10}  {_fmt_s(theirs):>10}  {ours / theirs:6.2f}   "
                     f"< {_fmt_s(target):<8} {met}")

    if "asp" in by:
        r = by["asp"]
        if r.count == 239:
            row("ASP 2015 (239)", r.wall, THEIRS["asp"], TARGETS["asp"])
        else:
            lines.append(f"  ASP ({r.count} of 239)      {_fmt_s(r.wall):>10}  (a subset: C takes ~47 s for all 239, "
                         f"target < 20 s)")
    if "random" in by:
        row("random, per puzzle", by["random"].mean, THEIRS["random"], TARGETS["random"])
    hard = by.get("hard")
    if hard is not None and hard.longest is not None:
        n, secs = hard.longest
        row(f"{n}-move puzzle", secs, THEIRS["25-move"], TARGETS["25-move"])
        if n != 25:
            lines.append(f"  (the C figure is for a 25-move puzzle; our longest here has {n} moves)")
    peak = max((r.peak_mib for r in rows), default=0.0)
    lines.append(f"  peak memory          {peak:7.0f} MiB  (target < {TARGETS['memory_mib']:.0f} MiB: "
                 f"{'yes' if peak < TARGETS['memory_mib'] else 'NO'})")
    if quick:
        lines.append("  (--quick: small subsets, not comparable with the published figures)")
    return "\n".join(lines)


def _peers_module() -> Any:
    """``benchmarks/peers.py`` of this checkout, imported once."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("ricochet_bench_peers", PEERS_MODULE)
    assert spec is not None and spec.loader is not None
    module = sys.modules.get(spec.name) or importlib.util.module_from_spec(spec)
    if spec.name not in sys.modules:
        sys.modules[spec.name] = module  # its dataclasses look themselves up there
        spec.loader.exec_module(module)
    return module


def load_peers(peer_c: Path | None, peer_dd: Path | None = None) -> tuple[list[Any], list[str]]:
    """The peer solvers to compare with (adapters from ``benchmarks/peers.py`` of this
    checkout), and a line for each one not asked for.  A peer that is asked for but
    cannot run is a :class:`CliError` naming its option, raised before the
    benchmark spends its minutes without it."""
    notes = []
    peers: list[Any] = []
    if peer_c is None:
        notes.append("C solver (fogleman/Ricochet): not compared (--peer-c PATH: its _ricochet library, "
                     "built from its source by its build_ricochet script; see benchmarks/peers.py)")
    if peer_dd is None:
        notes.append("DriftingDroids (smack42, Java): not compared (--peer-dd PATH: its compiled "
                     "driftingdroids.model classes, a directory or a jar; see benchmarks/peers.py)")
    wanted = [flag for flag, path in (("--peer-c", peer_c), ("--peer-dd", peer_dd)) if path is not None]
    if not wanted:
        return peers, notes
    if not PEERS_MODULE.exists():
        raise CliError(f"{wanted[0]}: {PEERS_MODULE} is missing (the peers' adapters live in a source checkout)")
    module = _peers_module()
    if peer_c is not None:
        if not Path(peer_c).exists():
            raise CliError(f"--peer-c {peer_c}: no such file (the C solver's _ricochet library; see "
                           "benchmarks/peers.py)")
        try:
            peers.append(module.CSolver(peer_c))
        except (OSError, AttributeError) as e:  # not a library; a library without its `search`
            raise CliError(f"--peer-c {peer_c}: cannot load the C solver ({e})") from None
    if peer_dd is not None:
        try:
            peers.append(module.DriftingDroids(peer_dd))
        except (OSError, module.PeerError) as e:
            raise CliError(f"--peer-dd: cannot run DriftingDroids: {e}") from None
    return peers, notes


def startup_seconds(repeat: int = 3) -> float:
    """Median time from starting ``python -m ricochet solve CODE`` (a 2-move puzzle, numba's
    cache warm) to its first answer on stdout."""
    import subprocess

    code = "1A3B4A2A.r52ge9bdey0e.r41"
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "ricochet", "solve", code], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        assert proc.stdout is not None
        proc.stdout.readline()
        times.append(time.perf_counter() - t0)
        proc.wait()
    return statistics.median(times)


TRIVIAL_MAX = 3  # moves: the "trivial puzzle"
TRIVIAL_COUNT = 100  # puzzles timed


def trivial_new_board_micros(solutions: Sequence[Solution], tries: int = 7) -> tuple[int, float, float] | None:
    """A trivial puzzle (optimum ≤ :data:`TRIVIAL_MAX`) on a board not seen
    before: the first :data:`TRIVIAL_COUNT` such puzzles among ``solutions``,
    every table cache cleared before each ``solve``.  ``(puzzles, median µs
    solving each once in turn, median µs of each one's best of ``tries``)``:
    the first has its code and data cold, as in a batch of new boards, the
    second is the hot-cache figure.  None without such a puzzle."""
    from ..solver import solve
    from ..solver.tables import clear_caches

    trivial = [s.puzzle for s in solutions if s.solved and s.length <= TRIVIAL_MAX][:TRIVIAL_COUNT]
    if not trivial:
        return None

    def once(puzzle: Puzzle) -> float:
        clear_caches()
        t0 = time.perf_counter()
        solve(puzzle)
        return time.perf_counter() - t0

    in_turn = [once(p) for p in trivial]
    best = [min(once(p) for _ in range(tries)) for p in trivial]
    return len(trivial), statistics.median(in_turn) * 1e6, statistics.median(best) * 1e6


CLI_RUNS = 5
"""``--cli``: runs of each command, in turn, whose median is reported (a fresh process's start-up varies)."""
CLI_TARGET = 1.3
"""``--cli``: the most ``ricochet solve --jobs 1 FILE`` may cost, start-up aside, over the one-process loop."""


def cli_run(puzzles: Sequence[Puzzle], jobs: int, runs: int = CLI_RUNS
            ) -> tuple[float, list[int | None], float | None]:
    """Wall seconds of ``python -m ricochet solve FILE --jobs N`` on these
    puzzles (written to a scratch JSON Lines file), from its start to its exit
    (the median of ``runs``), the length of each answer (None: unsolved), and
    with ``--jobs 1`` the median wall seconds of the same command on a file of
    the first puzzle alone, each run in turn with the whole file's (None on
    more jobs).  The difference is what the command costs beyond its start-up
    (imports, loading the solver, the first answer): reading, solving, checking
    and writing the rest."""
    import tempfile

    from ..notation import dumps_puzzle

    with tempfile.TemporaryDirectory(prefix="ricochet-bench-") as tmp:
        path, one = Path(tmp) / "set.jsonl", Path(tmp) / "one.jsonl"
        path.write_text("".join(dumps_puzzle(p) + "\n" for p in puzzles), encoding="utf-8")
        one.write_text(dumps_puzzle(puzzles[0]) + "\n", encoding="utf-8")
        walls, one_walls = [], []
        lengths: list[int | None] = []
        for _ in range(max(1, runs)):
            wall, out = _solve_file(path, jobs)
            walls.append(wall)
            lengths = [json.loads(line)["moves"] for line in out.splitlines()]
            if jobs == 1:
                one_walls.append(_solve_file(one, jobs)[0])
    return (statistics.median(walls), lengths, statistics.median(one_walls) if one_walls else None)


def _solve_file(path: Path, jobs: int) -> tuple[float, str]:
    """Wall seconds and standard output of one ``python -m ricochet solve PATH --jobs N``."""
    import subprocess

    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "ricochet", "solve", str(path), "--jobs", str(jobs)],
                          capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    if done.returncode not in (EXIT_OK, EXIT_FAIL):
        raise CliError(f"ricochet solve --jobs {jobs} failed (status {done.returncode}): "
                       + " ".join(done.stderr.split())[-300:])
    return wall, done.stdout


def format_cli(rows: Sequence[BenchRow], medians_of: int = CLI_RUNS) -> str:
    """``--cli``: each set through ``ricochet solve`` on one process and on N,
    and on one process what it costs beyond its start-up against the one-process loop.

    >>> row = BenchRow("random", 1000, 0.6, 0.1, 0.1, 0.3, 1e6, 200, "", True, jobs=2, wall1=0.6,
    ...                cli=[(1, 1.4, 0), (2, 1.1, 0)], cli_one=0.7)
    >>> print(format_cli([row]))
    the command line, `ricochet solve FILE --jobs N` (a fresh process each: start-up, reading and writing included; medians of 5):
      random   1000 puzzles   --jobs 1: 1.40 s   --jobs 2: 1.10 s (1.27x)   answers: the batch's lengths
      random  --jobs 1 less its start-up (its first puzzle alone: 700.00 ms): 700.00 ms,
                  1.17x the one-process loop's 600.00 ms (target <= 1.3x: met)
    """
    lines = []
    for r in rows:
        if not r.cli:
            continue
        runs = _timed_runs([(n, w) for n, w, _ in r.cli], "--jobs ")
        differ = sum(d for _, _, d in r.cli)
        lines.append(f"  {r.name:<7} {r.count:>5} puzzles   {runs}   answers: "
                     + ("the batch's lengths" if not differ else f"{differ} lengths DISAGREE"))
        one_proc = next((w for n, w, _ in r.cli if n == 1), None)
        if one_proc is not None and r.cli_one is not None and r.wall1:
            beyond = one_proc - r.cli_one
            ratio = beyond / r.wall1
            if beyond <= 0:  # (one run each on a busy machine: the start-up's noise outweighs the work)
                lines.append(f"  {r.name:<7} --jobs 1 less its start-up (its first puzzle alone: {_fmt_s(r.cli_one)}): "
                             f"not measured, the file took less ({_fmt_s(one_proc)}): the start-up's noise is larger")
                continue
            lines.append(f"  {r.name:<7} --jobs 1 less its start-up (its first puzzle alone: {_fmt_s(r.cli_one)}): "
                         f"{_fmt_s(beyond)},\n{'':14}{ratio:.2f}x the one-process loop's {_fmt_s(r.wall1)} "
                         f"(target <= {CLI_TARGET:g}x: {'met' if ratio <= CLI_TARGET else 'NOT met'})")
    if not lines:
        return ""
    return ("the command line, `ricochet solve FILE --jobs N` (a fresh process each: start-up, reading and "
            f"writing included; {f'medians of {medians_of}' if medians_of > 1 else 'one run each'}):\n"
            + "\n".join(lines))


def run_benchmark(sets: Sequence[str] = SETS, *, quick: bool = False, jobs: int | None = None,
                  data: Path = DEFAULT_DATA, hard: Path = DEFAULT_HARD, time_limit: float | None = None,
                  stream: TextIO | None = None, single: bool = True, peer_c: Path | None = None,
                  peer_dd: Path | None = None, startup: bool = True, scale: Sequence[int] = (),
                  cli: bool = False, rounds: int = 1) -> list[BenchRow]:
    """Run the benchmark sets and print the table and the comparisons to ``stream``.

    - ``asp``: the 239 ASP 2015 puzzles (``data/asp2015.jsonl``), checked against
      their recorded optimal lengths;
    - ``random``: 1000 random puzzles, ``random_puzzles(2026, 1000)``, in one batch;
    - ``hard``: the package's ``data/sets/hard.jsonl``.

    ``quick``: 12 ASP puzzles, 100 random ones, the 2 shortest hard ones.
    Each set is solved in one process (``solve`` in a loop; ``single=False``
    skips it) and on ``jobs`` processes (:func:`~ricochet.solver.solve_many`,
    default all cores), after a warm-up that is not counted.  ``peer_c``: the C
    solver's library, run on the same puzzles in this process (one thread) for
    a per-core ratio; ``peer_dd``: DriftingDroids' compiled model (a directory of
    classes or a jar), run in one JVM per set (one thread, JIT warmed up first).
    ``startup``: also time a fresh ``ricochet solve`` to its
    first answer.  ``scale``: numbers of processes (and threads) to run each
    set's batch on too (and the hard set's slowest puzzle), for a table of
    scaling with cores.  ``cli``: also run each set through ``ricochet solve
    FILE`` on one process and on ``jobs`` (:func:`cli_run`).  ``rounds``: run
    each set's one-process loop and its batch on ``jobs`` processes this many
    times, alternated, for a speed-up from their medians (:func:`format_rounds`)."""
    from ..generate import random_puzzles

    stream = stream or sys.stdout
    unknown = [s for s in sets if s not in SETS]
    if unknown:
        raise CliError(f"unknown benchmark set {unknown[0]!r}; choose from {', '.join(SETS)}")
    jobs = _jobs(jobs)
    _time_limit(time_limit)
    if rounds > 1 and (jobs < 2 or not single):
        raise CliError("--rounds: it compares the one-process run with a batch on --jobs processes, so it needs "
                       "--jobs 2 or more and the one-process run (not --no-single)")

    # Everything that can be refused is read before anything runs: a mistyped path fails at once.
    peers, notes = load_peers(peer_c, peer_dd)
    chosen: list[tuple[str, list[Puzzle]]] = []
    for name in sets:
        if name == "asp":
            puzzles = _read_set(data / "asp2015.jsonl")
            if quick:
                puzzles = sorted(puzzles, key=lambda p: (p.optimal or 0, p.id or ""))[:12]
        elif name == "random":
            puzzles = random_puzzles(2026, 100 if quick else 1000)
        else:
            puzzles = _read_set(hard)
            if quick:
                puzzles = sorted(puzzles, key=lambda p: (p.optimal or 0, p.id or ""))[:2]
        chosen.append((name, puzzles))

    def say(text: str) -> None:
        stream.write(text + "\n")
        stream.flush()

    huge = "hugetlb=1" in os.environ.get("GLIBC_TUNABLES", "")
    try:
        load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        load = "?"
    say(f"ricochet solver benchmark: {jobs} process{'es' if jobs != 1 else ''}, {os.cpu_count()} cores, "
        f"{'huge' if huge else 'normal'} pages, load average {load}" + (", --quick" if quick else ""))
    t = time.perf_counter()
    from ..solver import solve, warm_up

    warm_up()  # in this process, so forked workers inherit the kernels
    for p in random_puzzles(1, 3):
        solve(p)
    say(f"warm-up (not counted): {time.perf_counter() - t:.2f} s")
    rows = []
    cli_runs = 1 if quick else CLI_RUNS
    for name, puzzles in chosen:
        if not puzzles:
            say(f"{name}: no puzzles, skipped")
            continue
        say(f"{name}: {len(puzzles)} puzzles ...")
        row = _bench_set(name, puzzles, jobs, time_limit, single, peers, scale, rounds, progress=say)
        if cli:
            lengths = [s.length for s in row.solutions]
            for n in sorted({1, jobs}):
                wall, got, one = cli_run(puzzles, n, runs=cli_runs)
                differ = sum(1 for a, b in zip(lengths, got, strict=True) if a != b)
                row.cli.append((n, wall, differ))
                if one is not None:
                    row.cli_one = one
                row.ok = row.ok and differ == 0
        rows.append(row)
    say("")
    say(format_table(rows))
    say("")
    # The sections the run has figures for, each followed by a blank line.
    for text in (format_peers(rows, notes), format_threads(rows), format_scaling(rows), format_rounds(rows),
                 format_batches(rows), format_cli(rows, cli_runs), format_model(rows)):
        if text:
            say(text)
            say("")
    if startup:
        say(f"start-up: `python -m ricochet solve CODE` to its first answer: {_fmt_s(startup_seconds())} "
            "(median of 3, numba's cache warm)")
        say("")
    trivial = next((trivial_new_board_micros(r.solutions) for r in rows if r.name == "random"), None)
    if trivial is not None:
        count, in_turn, best = trivial
        say(f"a trivial puzzle (optimum <= {TRIVIAL_MAX}) on a board not seen before (every table cache cleared), "
            f"median of {count}: {in_turn:.0f} µs solved once each in turn, {best:.0f} µs best of 7 "
            "(target: well under 100 µs)")
        say("")
    say(format_comparison(rows, quick))
    try:
        load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
        say(f"load average at the end: {load}")
    except OSError:
        pass
    return rows


def build_bench(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true",
                        help="CI size: 12 ASP puzzles, 100 random, the 2 shortest hard ones")
    parser.add_argument("--sets", default=",".join(SETS), metavar="SET,...",
                        help="which sets: asp, random, hard (default: all three)")
    parser.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                        help="worker processes (default: all cores)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, metavar="DIR",
                        help=f"directory holding asp2015.jsonl (default {DEFAULT_DATA})")
    parser.add_argument("--hard", type=Path, default=DEFAULT_HARD, metavar="FILE",
                        help=f"the hard puzzles (default {DEFAULT_HARD})")
    parser.add_argument("--time-limit", type=float, default=None, metavar="S",
                        help="per-puzzle time limit (default: none)")
    parser.add_argument("--no-single", dest="single", action="store_false",
                        help="skip the one-process run of each set (only the --jobs figures)")
    parser.add_argument("--peer-c", type=Path, default=None, metavar="PATH",
                        help="the C solver (fogleman/Ricochet) built by its build_ricochet script: compare with "
                             "it in the same run (see benchmarks/peers.py)")
    parser.add_argument("--peer-dd", type=Path, default=None, metavar="PATH",
                        help="DriftingDroids (smack42, Java): its compiled driftingdroids.model classes, a "
                             "directory or a jar; compare with it in the same run (needs java and javac; see "
                             "benchmarks/peers.py)")
    parser.add_argument("--no-startup", dest="startup", action="store_false",
                        help="do not time a fresh `ricochet solve` to its first answer")
    parser.add_argument("--cli", action="store_true",
                        help="also run each set through `ricochet solve FILE` on one process and on --jobs "
                             "(fresh processes: start-up, reading and writing included)")
    parser.add_argument("--scale", default=None, metavar="N,...",
                        help="also run each set's batch on these numbers of processes, and the hard set's "
                             "slowest puzzle on these numbers of threads: a table of scaling with cores "
                             "(e.g. 1,2,4,8,16)")
    parser.add_argument("--rounds", default=1, type=_rounds, metavar="K",
                        help="run each set's one-process loop and its --jobs batch K times, alternated, and "
                             "give the speed-up from their medians with its range (default 1: a machine whose "
                             "speed drifts can put one run's ratio off by a fifth)")


def _scale(text: str | None) -> list[int]:
    """``--scale``'s numbers of processes, in order, without repeats (at most
    :data:`~ricochet.solver.api.MAX_THREADS`: they are threads too).

    >>> _scale("1,2,4,8,16"), _scale(None), _scale("4, 2,4")
    ([1, 2, 4, 8, 16], [], [4, 2])
    """
    from ..solver.api import MAX_THREADS

    if text is None:
        return []
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit() or not 1 <= int(part) <= MAX_THREADS:
            raise CliError(f"--scale: expected numbers of processes from 1 to {MAX_THREADS} like 1,2,4,8,16, "
                           f"got {part!r}")
        if int(part) not in out:
            out.append(int(part))
    return out


MAX_ROUNDS = 50
"""``--rounds``: a sanity bound (each round solves every set twice)."""


def _rounds(text: str) -> int:
    """``--rounds``: a whole number from 1 to :data:`MAX_ROUNDS`.

    >>> _rounds("3")
    3
    """
    if not text.strip().isdigit() or not 1 <= int(text) <= MAX_ROUNDS:
        raise argparse.ArgumentTypeError(f"expected a whole number of rounds from 1 to {MAX_ROUNDS}, got {text!r}")
    return int(text)


def run_bench(args: argparse.Namespace) -> int:
    """Run the solver benchmark; status 1 when a solution is wrong or not optimal."""
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    if not sets:
        raise CliError("--sets: name at least one of asp, random, hard")
    rows = run_benchmark(sets, quick=args.quick, jobs=args.jobs, data=args.data, hard=args.hard,
                         time_limit=args.time_limit, single=args.single, peer_c=args.peer_c,
                         peer_dd=args.peer_dd, startup=args.startup, scale=_scale(args.scale), cli=args.cli,
                         rounds=args.rounds)
    return EXIT_OK if all(r.ok for r in rows) else EXIT_FAIL


add_command("bench", "benchmark the solver (ASP 2015, random and hard puzzles)", build_bench, run_bench)
