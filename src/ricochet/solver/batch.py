"""Many puzzles on every core: :func:`solve_many` and :func:`solve_as_answered`.

A batch runs in worker processes forked from the caller (they inherit the
puzzles, so a task is an index; spawned where a fork could not start threads),
in two steps: every puzzle's
:func:`~ricochet.solver.api.effort_estimate`, in parallel, then tasks handed
out as workers become free, in :func:`schedule`'s order (the likely-long
puzzles first, one a task; cheap ones later in chunks, :func:`chunk_size`).
Fewer puzzles than cores get the spare cores as threads (:func:`share_cores`);
a puzzle that turns out far longer than the rest late in a batch gives up and
is searched again on threads at the end (:class:`_Batch`).  One puzzle's
search is :func:`~ricochet.solver.api.solve`'s, unchanged.
"""

from __future__ import annotations

import contextlib
import dataclasses
import heapq
import os
import queue
import signal
import threading
import time
import weakref
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any

from ..puzzle import Puzzle
from ..rules import Rules
from .api import (
    _SOLVE_DEFAULTS,
    _TABLE,
    ASTAR_STATES_PER_SECOND,
    MAX_THREADS,
    Solution,
    SolverError,
    _check_options,
    _check_puzzle,
    _GaveUp,
    _load_thread_helpers,
    _search,
    _threads_survive_fork,
    effort_estimate,
    forked_workers_may_thread,
    solve,
    takes_threads,
    warm_up,
    warm_up_threads,
)

GIVE_UP_SHARE = 0.5
"""solve_many: a puzzle started late gives up (to be searched again on threads
once the other tasks are done) past the states this share of the batch's
expected remaining time would store, at ASTAR_STATES_PER_SECOND ..."""
GIVE_UP_OUTLIER = 10
"""... and past this many times a typical puzzle of the batch: only an
outlier gives up (the longest of 1000 random puzzles takes a fifth of their
time; ASP's longest are a few times its median, and threads do not pay for
them)."""
MIN_GIVE_UP = 200_000
"""solve_many: the least such cap (about 100 ms of search): a search again on
threads starts with costs of its own (the threaded kernel's first load in
that worker, 60 ms; every blocker set), which a shorter puzzle never wins back."""
GIVE_UP_CORES = 4
"""solve_many: the cores per puzzle that gives up, at least (so at most
cores / 4 of them in a batch, and none on fewer than 4 cores): on fewer
threads the search again cannot win back the search thrown away (2
threads: 1.5-1.9 times faster on a long random puzzle)."""
CHUNK_SECONDS = 0.004
"""solve_many: once a batch's typical puzzle (the median of its answers so
far) is known to be cheap, the tasks handed out next take that many seconds
of typical puzzles each (:func:`chunk_size`): a task's round trip costs the
calling process 0.1-0.3 ms, which it pays for every worker's tasks in turn."""


def _solve_one(args: tuple[Puzzle, Rules | None, dict[str, object]], give_up: int = 0) -> Solution | _GaveUp:
    """:func:`~ricochet.solver.api.solve` of ``(puzzle, rules, options)``; with ``give_up`` > 0,
    no answer once its A* has stored that many states (``api._search``)."""
    puzzle, rules, options = args
    if not give_up:
        return solve(puzzle, rules, **options)  # type: ignore[arg-type]
    with _TABLE.lock:
        return _search(puzzle, rules, **{**_SOLVE_DEFAULTS, **options}, give_up=give_up)


# solve_many's batch, inherited by its forked workers, so a task is an index
# and a result travels back without its puzzle (the parent has it): pickling a
# board costs more than solving an easy puzzle.
_BATCH: list[tuple[Puzzle, Rules | None, dict[str, object]]] = []
_BATCH_LOCK = threading.RLock()  # (reentrant: a batch opened inside another's loop is refused, not deadlocked)


def _start_worker(items: list[tuple[Puzzle, Rules | None, dict[str, object]]] | None = None) -> None:
    """A pool worker (a batch's, ``ricochet solve``'s) ignores Ctrl-C: that is
    the caller's, which ends the workers itself (:func:`_worker_pool`) rather
    than each printing a traceback; a spawned batch worker is given its batch
    (a forked one inherits it)."""
    global _BATCH
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if items is not None:
        _BATCH = items


_UNJOINED_POOLS: weakref.WeakSet[threading.Thread] = weakref.WeakSet()
"""The threads of pools shut down without waiting that may still be joining their workers."""


def _join_pools_at_exit() -> None:
    """At interpreter exit, before ``concurrent.futures`` wakes its pools'
    threads: join the threads of the pools :func:`_worker_pool` shut down
    without waiting.  Python 3.11's own exit hook checks that a pool thread's
    wake-up pipe is open, then writes to it; a thread that closes it in
    between (its workers just joined) makes that write fail, and the
    interpreter prints the error on the way out ("Exception ignored in:
    <module 'threading'> ... handle is closed")."""
    for thread in list(_UNJOINED_POOLS):
        thread.join()


# threading's exit hooks run in reverse order of registration: this one, registered after
# concurrent.futures' own (at the import of ProcessPoolExecutor above), runs before it.
_register_atexit = getattr(threading, "_register_atexit", None)
if _register_atexit is not None:
    _register_atexit(_join_pools_at_exit)


@contextlib.contextmanager
def _worker_pool(processes: int, spawn_with: list[tuple[Puzzle, Rules | None, dict[str, object]]] | None = None
                 ) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``processes`` :func:`_start_worker`'s (a batch's, ``ricochet
    solve``'s), forked, or spawned and given the batch ``spawn_with``.  On the
    way out it is shut down without waiting for its workers to exit (the
    pool's own thread joins them): once the body is done, the idle workers
    exit while the caller goes on (8 workers took 13-16 ms to), and the
    interpreter's exit waits for that thread (:func:`_join_pools_at_exit`);
    left by an exception (Ctrl-C, an error, a generator closed early), its
    workers are ended at once rather than left to finish long searches."""
    pool = ProcessPoolExecutor(max_workers=processes, initializer=_start_worker,
                               mp_context=get_context("fork" if spawn_with is None else "spawn"),
                               initargs=() if spawn_with is None else (spawn_with,))
    finished = False
    try:
        yield pool
        finished = True
    finally:
        if not finished:
            for proc in list((getattr(pool, "_processes", None) or {}).values()):
                proc.terminate()
        thread = getattr(pool, "_executor_manager_thread", None)  # (none if nothing was submitted)
        if thread is not None:
            _UNJOINED_POOLS.add(thread)
        pool.shutdown(wait=False, cancel_futures=True)



def _solve_indexed(i: int, threads: int = 1, give_up: int = 0) -> tuple[bool, Solution] | _GaveUp | SolverError:
    puzzle, rules, options = _BATCH[i]
    try:
        sol = _solve_one((puzzle, rules, {**options, "threads": threads}) if threads > 1 else _BATCH[i], give_up)
    except SolverError as e:  # one puzzle's internal error: the caller decides (ricochet solve goes on)
        return e
    if isinstance(sol, _GaveUp):  # to be searched again on threads
        return sol
    if sol.puzzle is puzzle:
        return True, dataclasses.replace(sol, puzzle=None, _paths=None if sol.moves else ())  # type: ignore[arg-type]
    return False, sol


def _estimate_indexed(i: int) -> tuple[int, bool]:
    """A batch puzzle's :func:`~ricochet.solver.api.effort_estimate`, and whether its search takes threads (:func:`~ricochet.solver.api.takes_threads`)."""
    puzzle, rules, options = _BATCH[i]
    return effort_estimate(puzzle, rules), takes_threads(puzzle, rules, **_thread_options(options))

def schedule(effort: Sequence[int], processes: int, max_chunk: int = 16) -> list[list[int]]:
    """Tasks for :func:`solve_many`'s workers: the puzzles' indices in decreasing
    ``effort``, the likely-long ones one per task and the rest in chunks that
    grow towards the end of the list (to ``max_chunk``), where the puzzles are
    cheap and a task's round trip between processes (a few hundred
    microseconds) would cost more than solving them.  The workers take the
    tasks in this order as they become free (dynamic scheduling): no worker is
    handed a fixed share, so a long puzzle never waits behind another in one
    worker's chunk while other workers are idle.

    >>> schedule([0, 9, 3, 1], 2)
    [[1], [2], [3], [0]]
    >>> [len(t) for t in schedule([2] * 6 + [0] * 60, 2)]
    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 3, 4, 5, 6, 8, 10, 5, 3, 1, 1, 1]
    """
    order = sorted(range(len(effort)), key=lambda i: -effort[i])
    tasks: list[list[int]] = []
    k = 0
    first_chunk = -1
    while k < len(order):
        # Singles: the puzzles that need helper moves (effort > 0: nearly all the
        # solving time), and at least four per process at the head of the list.
        if effort[order[k]] > 0 or k < 4 * processes:
            size = 1
        else:
            # Then chunks growing by one every 2 * processes puzzles, never more
            # than an even share of what is left.
            first_chunk = k if first_chunk < 0 else first_chunk
            size = max(1, min(max_chunk, (k - first_chunk) // (2 * processes) + 1, (len(order) - k) // processes))
        tasks.append(order[k:k + size])
        k += size
    return tasks


class RunningMedian:
    """The median of the values added so far, in O(log n) an addition (two
    heaps): a batch of a million puzzles keeps the median of its answers
    without sorting them again and again.  Of an even count, the upper of the
    two middle values.

    >>> m = RunningMedian([0.04, 0.0001, 0.05, 0.0002]); len(m), m.value
    (4, 0.04)
    """

    def __init__(self, values: Iterable[float] = ()) -> None:
        self._low: list[float] = []  # the lower half, negated (a max-heap)
        self._high: list[float] = []  # the upper half: as many as the lower, or one more
        for x in values:
            self.add(x)

    def add(self, x: float) -> None:
        if self._high and x >= self._high[0]:
            heapq.heappush(self._high, x)
        else:
            heapq.heappush(self._low, -x)
        if len(self._low) > len(self._high):
            heapq.heappush(self._high, -heapq.heappop(self._low))
        elif len(self._high) > len(self._low) + 1:
            heapq.heappush(self._low, -heapq.heappop(self._high))

    def __len__(self) -> int:
        return len(self._low) + len(self._high)

    @property
    def value(self) -> float:
        """The median (the sorted values' element ``len // 2``); no values: an IndexError."""
        return self._high[0]


def chunk_size(answered: RunningMedian, left: int, cores: int, max_chunk: int = 16) -> int:
    """How many puzzles :func:`solve_many`'s next task may hold, given the
    solve times of the answers so far (``answered``), the puzzles not yet
    handed out (``left``) and the ``cores``: one until ``cores`` answers are
    in; then :data:`CHUNK_SECONDS` of the median answer's time, at most
    ``max_chunk`` and an even share of those left.

    >>> cheap = RunningMedian([0.0001] * 3)
    >>> chunk_size(cheap, 500, 4), (cheap.add(0.0001), chunk_size(cheap, 500, 4))[1], chunk_size(cheap, 20, 4)
    (1, 16, 5)
    >>> chunk_size(RunningMedian([0.0001, 0.0002, 0.04, 0.05]), 200, 4)  # (the median: 40 ms)
    1
    """
    if len(answered) < cores:
        return 1
    typical = max(answered.value, 1e-6)
    return max(1, min(max_chunk, int(CHUNK_SECONDS / typical), left // cores))


def take_task(queue: list[list[int]], size: int, alone: Callable[[int], bool] | None = None) -> list[int]:
    """:func:`solve_many`'s next task, off the end of ``queue`` (tasks in
    reverse order), with the tasks after it while together they hold at most
    ``size`` puzzles (:func:`chunk_size`); a one-puzzle task whose puzzle is
    ``alone`` (dealt threads) is not shared.

    >>> queue = [[5], [4], [2, 3], [1], [0]]
    >>> take_task(queue, 3), take_task(queue, 3, alone=lambda i: i == 4), queue
    ([0, 1], [2, 3], [[5], [4]])
    """
    def single(task: list[int]) -> bool:
        return alone is not None and len(task) == 1 and alone(task[0])

    task = queue.pop()
    if single(task):
        return task
    while queue and len(task) + len(queue[-1]) <= size and not single(queue[-1]):
        task = task + queue.pop()
    return task


def share_cores(effort: Sequence[int], cores: int, threaded: Sequence[bool] | None = None) -> list[int]:
    """Threads per puzzle for a batch of fewer puzzles than ``cores``: one
    each, and the cores left over dealt in turn to the puzzles that need
    helper moves (``effort`` > 0, :func:`~ricochet.solver.api.effort_estimate`), the largest
    effort first.  A puzzle a robot finishes alone is short: threads would
    cost it more (their start, the threaded kernel's load) than they save.
    ``threaded``: per puzzle, whether its search would use threads at all
    (:func:`~ricochet.solver.api.takes_threads`); those it says no to get one.

    >>> share_cores([2, 0, 5], 8)
    [3, 1, 4]
    >>> share_cores([0, 0], 8), share_cores([1, 1, 1], 3)
    ([1, 1], [1, 1, 1])
    >>> share_cores([2, 0, 5], 8, threaded=[True, True, False])
    [6, 1, 1]
    """
    threads = [1] * len(effort)
    long = sorted((i for i, e in enumerate(effort) if e > 0 and (threaded is None or threaded[i])),
                  key=lambda i: -effort[i])
    for k in range(max(0, cores - len(effort)) if long else 0):
        threads[long[k % len(long)]] += 1
    return [min(n, MAX_THREADS) for n in threads]


def threads_sleep_while_waiting() -> None:
    """Have GNU OpenMP's threads sleep while they wait, rather than spin
    (``OMP_WAIT_POLICY=PASSIVE``, unless the caller set it), in a worker
    process given threads beside other workers: a spinning thread takes a
    core from them.  Read when OpenMP starts, which it has not in a worker
    that threads are dealt to (:func:`solve_many`, ``ricochet solve``)."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


# What a batch task brings back per puzzle: (whether the parent must put the puzzle
# back, the solution), a search that gave up, or an internal error.
_Landed = tuple[bool, Solution] | _GaveUp | SolverError


def _solve_chunk(indices: list[int], threads: int, give_up: Sequence[int]) -> list[_Landed]:
    """A batch task: its puzzles in turn; ``give_up``: per puzzle its cap (0: none)."""
    if threads > 1:
        threads_sleep_while_waiting()
    return [_solve_indexed(i, threads, cap) for i, cap in zip(indices, give_up, strict=True)]


class _Batch:
    """:func:`solve_many`'s tasks handed to a pool of ``cores`` workers as
    cores become free, in :func:`schedule`'s order, and what came back.

    A puzzle handed out once the first answers are in is given a cap
    (``give_up``, :meth:`give_up_cap`): should its A* store more states than
    both :data:`GIVE_UP_SHARE` of the batch's expected remaining time and
    :data:`GIVE_UP_OUTLIER` typical puzzles allow, it gives up, and is
    searched again on threads once the queue is empty, with the cores the
    other tasks leave.  Otherwise one unforeseen long puzzle, started late,
    would run on one core while every other core waits (the estimates cannot
    tell the longest of a random set from hundreds like it).

    Once ``cores`` answers are in, a task handed out takes the tasks after it
    with it while together they hold about :data:`CHUNK_SECONDS` of the
    batch's typical puzzle (:func:`chunk_size`): each task costs this
    process a round trip, and a batch of cheap puzzles would otherwise wait
    on it (the estimates cannot tell 450 of 1000 random puzzles, at 0.2 ms
    apiece, from ASP's, at 40 ms)."""

    def __init__(self, pool: ProcessPoolExecutor, tasks: list[list[int]], cores: int, threaded: Sequence[bool],
                 may_give_up: bool, progress: Callable[[int, int], object] | None = None,
                 max_chunk: int = 16) -> None:
        self.pool = pool
        self.progress = progress
        self.queue = list(reversed(tasks))  # popped from the end
        self.cores = cores
        self.threaded = threaded
        self.may_give_up = may_give_up
        self.max_chunk = max_chunk
        self.free = cores
        # Tasks handed out beyond the free cores, waiting in the pool's queue: one per core,
        # so that the caps and sizes are set late but a worker that ends a task starts the
        # next without waiting for this process to hear of it.
        self.backlog = cores
        self.seconds = RunningMedian()  # of the answers' solve times
        self.running: dict[Future[list[_Landed]], tuple[list[int], int]] = {}
        self.ended: queue.SimpleQueue[Future[list[_Landed]]] = queue.SimpleQueue()
        self.deferred: list[int] = []  # gave up, waiting for cores
        self.tries: dict[int, _GaveUp] = {}  # every puzzle that gave up: the search it threw away
        self.searched_again = 0  # cores held by those searched again
        self.answered = 0
        self.started = time.perf_counter()
        self.left = self.total = sum(len(t) for t in tasks)  # puzzles not yet handed out; in all

    @property
    def gave_up(self) -> list[int]:
        """The puzzles that gave up, in the order they did."""
        return list(self.tries)

    def give_up_cap(self, task: list[int]) -> list[int]:
        """The state caps of a task's puzzles now (0: none): those whose search
        takes threads, once enough answers came back to tell the batch's pace,
        while fewer than cores / :data:`GIVE_UP_CORES` gave up.
        The pace is the puzzles answered per second of the batch so far: the
        first tasks are the longest-looking, so it errs towards a larger cap."""
        done = self.answered
        if not self.may_give_up or done < self.cores or len(self.tries) >= self.cores // GIVE_UP_CORES:
            return [0] * len(task)
        per_puzzle = (time.perf_counter() - self.started) / done  # of the batch's wall time
        seconds = max(GIVE_UP_SHARE * per_puzzle * self.left, GIVE_UP_OUTLIER * per_puzzle * self.cores)
        cap = max(MIN_GIVE_UP, int(seconds * ASTAR_STATES_PER_SECOND))
        return [cap if self.threaded[i] else 0 for i in task]

    def next_task(self, dealt: Sequence[int]) -> list[int]:
        """The next task off the queue (:func:`take_task`; a puzzle dealt threads goes alone)."""
        return take_task(self.queue, chunk_size(self.seconds, self.left, self.cores, self.max_chunk),
                         alone=lambda i: dealt[i] > 1)

    def submit(self, task: list[int], threads: int, give_up: Sequence[int]) -> None:
        self.free -= threads
        fut = self.pool.submit(_solve_chunk, task, threads, give_up)
        self.running[fut] = (task, threads)
        fut.add_done_callback(self.ended.put)  # (in the pool's thread)

    def answers(self, dealt: Sequence[int]) -> Iterator[tuple[int, tuple[bool, Solution] | SolverError]]:
        """``(index, answer)`` as the answers come in; ``dealt``: threads per puzzle."""
        while self.queue or self.deferred or self.running:
            while self.queue and self.free > -self.backlog:
                task = self.next_task(dealt)
                self.left -= len(task)
                self.submit(task, dealt[task[0]] if len(task) == 1 else 1, self.give_up_cap(task))
            # A puzzle that gave up waits for the queue to empty and for its share of the cores
            # that other such puzzles do not hold: the tasks still out are late ones, short or
            # capped themselves.
            while self.deferred and not self.queue:
                share = max(1, (self.cores - self.searched_again) // len(self.deferred))
                if self.free < share:
                    break
                threads = min(self.free if len(self.deferred) == 1 else share, MAX_THREADS)
                self.searched_again += threads
                self.submit([self.deferred.pop(0)], threads, [0])
            # The tasks that ended, without waiting on each of those out (several end at once
            # where tasks are short).
            finished = [self.ended.get()]
            while not self.ended.empty():
                finished.append(self.ended.get())
            for fut in finished:
                task, threads = self.running.pop(fut)
                self.free += threads
                if task[0] in self.tries:  # (set below when it gave up: this is its search again)
                    self.searched_again -= threads
                for i, got in zip(task, fut.result(), strict=True):
                    if isinstance(got, _GaveUp):
                        self.deferred.append(i)
                        self.tries[i] = got
                        continue
                    if i in self.tries and not isinstance(got, SolverError):  # time and states of both searches
                        tried = self.tries[i]
                        got = got[0], dataclasses.replace(got[1], seconds=got[1].seconds + tried.seconds,
                                                          nodes=got[1].nodes + tried.nodes)
                    if not isinstance(got, SolverError):
                        self.seconds.add(got[1].seconds)
                    self.answered += 1
                    yield i, got
            if self.progress is not None:
                self.progress(self.answered, self.total)


def _thread_options(options: Mapping[str, object]) -> dict[str, Any]:
    """The :func:`~ricochet.solver.api.solve` options that :func:`~ricochet.solver.api.takes_threads` reads."""
    return {k: options[k] for k in ("any_robot", "max_moves", "max_states") if k in options}


def solve_many(puzzles: Iterable[Puzzle], rules: Rules | None = None, *, processes: int | None = None,
               chunksize: int = 16, progress: Callable[[int, int], object] | None = None,
               **options: object) -> list[Solution]:
    """Solve many puzzles on every core; the answers come in the puzzles'
    order.  Options are those of :func:`~ricochet.solver.api.solve`.

    ``progress``: called here as ``progress(answered, total)`` each time
    answers come back (a long batch's progress bar or log line).

    ``processes``: how many worker processes (None or 0: the cores, divided by
    ``threads``).  With one process (or one puzzle) everything runs here,
    without worker start-up.  A batch of fewer puzzles than ``processes``
    gets one worker per puzzle, and the processes left over become threads
    for its puzzles that need helper moves and whose search takes threads
    (:func:`share_cores`, :func:`~ricochet.solver.api.takes_threads`): 2 long puzzles on 16
    cores are searched on 8 threads each.  Not when
    ``threads`` is given, nor after a ``solve(threads=N)`` in this process
    (:func:`~ricochet.solver.api.forked_workers_may_thread`).  ``threads`` (a :func:`~ricochet.solver.api.solve` option) gives each
    worker that many threads for its puzzle.  The workers are forked; with ``threads`` after a
    ``solve(threads=N)`` in this process they are spawned instead (a fork
    could not start threads: :func:`~ricochet.solver.api.forked_workers_may_thread`), which takes
    longer to start and imports the calling script again, so that script
    needs the usual ``if __name__ == "__main__":`` guard.  The workers
    ignore Ctrl-C: on an interruption (or an error) this process ends them.

    The workers first compute every puzzle's :func:`~ricochet.solver.api.effort_estimate` (in
    parallel), then take tasks from :func:`schedule` as they become free:
    the likely-long puzzles first and one per task, cheap ones later in
    chunks of at most ``chunksize`` (a long puzzle started late would leave
    the other cores idle at the end of the batch: longest-first, dynamic
    scheduling).  Once the first answers show the batch's typical puzzle to
    be cheap (a median of a fraction of a millisecond, as for random
    puzzles), tasks hand out about :data:`CHUNK_SECONDS` of them at a time
    (:func:`chunk_size`): this process pays a round trip per task.  On 4
    cores or more, a puzzle that turns out far longer
    than the batch's others late in it gives up and is searched again on
    threads once the other tasks are done (at most one per 4 cores; not
    with ``threads`` or ``time_limit``, nor after a ``solve(threads=N)``
    here); its :attr:`~ricochet.solver.api.Solution.seconds` and ``nodes`` count both searches.
    Where workers may search on threads and numba's threading layer survives
    a fork (:data:`~ricochet.solver.api.FORK_SAFE_LAYERS`, e.g. ``NUMBA_THREADING_LAYER=tbb``), the
    threaded kernel is loaded here first, so no worker loads it again; under
    GNU OpenMP only its helpers that start no threads are."""
    items = list(puzzles)
    out: dict[int, Solution] = {}
    with contextlib.closing(solve_as_answered(items, rules, processes=processes, chunksize=chunksize,
                                              progress=progress, **options)) as answers:
        for i, sol in answers:
            if isinstance(sol, SolverError):
                raise sol
            out[i] = sol
    return [out[i] for i in range(len(items))]


def solve_as_answered(puzzles: Iterable[Puzzle], rules: Rules | None = None, *, processes: int | None = None,
                      chunksize: int = 16, progress: Callable[[int, int], object] | None = None,
                      **options: object) -> Generator[tuple[int, Solution | SolverError], None, None]:
    """:func:`solve_many`, yielding ``(index, answer)`` as the answers come in
    rather than a list at the end (``ricochet solve`` writes each answer out as
    soon as those before it are in).  A puzzle's :class:`~ricochet.solver.api.SolverError` (a bug)
    is its answer, so the others still come.  Close the generator
    (``contextlib.closing``) to stop early: that ends the workers.  The
    options are checked at the first ``next``, before any worker starts.
    One batch runs at a time: another thread's waits for this one to end,
    and one opened in this thread before this one ends is refused
    (:class:`RuntimeError`)."""
    if processes is not None and (isinstance(processes, bool) or not isinstance(processes, int) or processes < 0):
        raise ValueError(f"processes must be a non-negative integer (0 or None: every core), got {processes!r}")
    if isinstance(chunksize, bool) or not isinstance(chunksize, int) or chunksize < 1:
        raise ValueError(f"chunksize must be a positive integer, got {chunksize!r}")
    if progress is not None and not callable(progress):
        raise ValueError(f"progress must be a function of (answered, total), got {progress!r}")
    unknown = sorted(set(options) - set(_SOLVE_DEFAULTS))
    if unknown:
        raise TypeError(f"unknown option {unknown[0]!r} (solve's options: {', '.join(_SOLVE_DEFAULTS)})")
    given = {**_SOLVE_DEFAULTS, **options}
    _check_options(rules, given["max_moves"], given["time_limit"], given["max_solutions"], given["max_tt_bits"],
                   given["max_states"], given["threads"])
    items = [(p, rules, options) for p in puzzles]
    for i, (p, _, _) in enumerate(items):
        _check_puzzle(p, f"puzzles[{i}]")
    threads = int(given["threads"])
    cores = processes or max(1, (os.cpu_count() or 1) // threads)
    if cores <= 1 or len(items) <= 1:
        for i, (p, r, o) in enumerate(items):
            try:
                sol: Solution | SolverError = solve(p, r, **o)  # type: ignore[arg-type]
            except SolverError as e:
                sol = e
            yield i, sol
            if progress is not None:
                progress(i + 1, len(items))
        return
    global _BATCH
    procs = min(cores, len(items))
    # Fewer puzzles than cores: the cores left over become threads for the long-looking
    # puzzles, in forked workers that start their own (this process must not have).
    spare = procs < cores and "threads" not in options and forked_workers_may_thread()
    # A puzzle may give up late in the batch, to be searched again on threads: where
    # forked workers may start them, and no threads or time limit were asked for.
    may_give_up = (not spare and cores >= GIVE_UP_CORES and "threads" not in options
                   and options.get("time_limit") is None and forked_workers_may_thread())
    warm_up()  # once here, not once per forked worker
    if spare or may_give_up:
        # Workers may search on threads: with a fork-safe layer the threaded kernel
        # is loaded once here, not in each of them (~60 ms); else its helpers are.
        if _threads_survive_fork():
            warm_up_threads()
        else:
            _load_thread_helpers()
    fork = threads == 1 or forked_workers_may_thread()
    with _BATCH_LOCK:
        if _BATCH:
            raise RuntimeError("a batch of this thread is still open (solve_as_answered not finished or closed): "
                               "finish or close it before the next")
        _BATCH = items
        try:
            with _worker_pool(procs, spawn_with=None if fork else items) as pool:
                # The estimates build most of the search tables too: in the workers, in parallel.
                effort, threaded = zip(*pool.map(_estimate_indexed, range(len(items)),
                                                 chunksize=max(1, len(items) // (4 * procs))), strict=True)
                dealt = share_cores(effort, cores, threaded) if spare else [1] * len(items)
                batch = _Batch(pool, schedule(effort, procs, max(1, chunksize)), cores, threaded, may_give_up,
                               progress, max_chunk=chunksize)
                for i, got in batch.answers(dealt):
                    if isinstance(got, SolverError):
                        yield i, got
                    else:
                        stripped, sol = got
                        yield i, dataclasses.replace(sol, puzzle=items[i][0]) if stripped else sol
        finally:
            _BATCH = []


__all__ = ["CHUNK_SECONDS", "GIVE_UP_CORES", "GIVE_UP_OUTLIER", "GIVE_UP_SHARE", "MIN_GIVE_UP", "RunningMedian",
           "chunk_size", "schedule", "share_cores", "solve_as_answered", "solve_many", "take_task",
           "threads_sleep_while_waiting"]
