"""The games' jobs as a service for the server: optimal lengths of rounds and
the bots' brains (:class:`ricochet.games.Job`).

The solver is CPU-bound compiled code that holds the GIL, so by default jobs
run in one worker *process* (the event loop keeps answering sockets).
Results are memoised by the job's key: the server's "optimal length" of a
round and every bot at that table share one search.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing import get_context
from typing import Any

from ..games.interface import Job
from ..games.jobs import Answer, solve_job, solve_puzzle
from ..puzzle import Puzzle

__all__ = ["Answer", "SolverService"]

log = logging.getLogger("ricochet.server")


def _worker_init(parent: int, nice: int = 0) -> None:
    """In the worker, first thing.  Ctrl+C reaches the whole process group, but stopping
    is the server's business (it shuts the worker down); without this the worker prints a
    traceback.  And the worker must die with its server, even a server killed with
    ``kill -9`` (which runs no clean-up): Linux's parent-death signal, and a watchdog
    for the time before it was set (or a system without it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice > 0:
        with contextlib.suppress(OSError):
            os.nice(nice)
        if nice >= 19 and hasattr(os, "SCHED_IDLE"):
            with contextlib.suppress(OSError):  # Linux: only the CPU time nobody else wants
                os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    with contextlib.suppress(Exception):
        import ctypes

        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the server died while this worker was starting
        os._exit(0)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()


def _warm_worker() -> tuple[float, int]:
    """In the worker: the solver's kernels loaded or compiled; (seconds, functions compiled)."""
    from ..warm import select, warm

    (report,) = warm(select(["solver"]))
    return report.seconds, len(report.compiled)


def _report_warm_up(done: Future[tuple[float, int]]) -> None:
    if done.cancelled() or done.exception() is not None:
        return  # the worker's failure shows at its first job
    seconds, compiled = done.result()
    if compiled:
        log.warning("the solver's kernels were not in numba's cache: compiled at start in %.0f s "
                    "(`ricochet warm` after installing does it once, ahead)", seconds)


class SolverService:
    """Solve puzzles off the event loop, memoised.

    ``mode``: ``"process"`` (one worker process; the default for ``serve``),
    ``"thread"`` (a worker thread; fine for the tiny boards of tests) or a
    custom ``solve_fn(puzzle) -> Answer`` run in a thread (the puzzle carries its rules).
    ``nice``: the worker process's niceness (background work yields the CPU to the rooms)."""

    def __init__(self, mode: str = "process", *, time_limit: float = 30.0, max_moves: int = 40,
                 solve_fn: Callable[[Puzzle], Answer] | None = None, cache_size: int = 512,
                 nice: int = 0) -> None:
        if mode not in ("process", "thread"):
            raise ValueError(f"mode must be 'process' or 'thread', got {mode!r}")
        self.mode = mode
        self.time_limit = time_limit
        self.max_moves = max_moves
        self.solve_fn = solve_fn
        self._executor: Executor | None = None
        self._cache: OrderedDict[Any, asyncio.Future[Answer]] = OrderedDict()
        self._cache_size = cache_size
        self.nice = nice

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.mode == "process" and self.solve_fn is None:
                # spawn: a forked child of a process with threads (uvicorn, aiosqlite) may deadlock.
                self._executor = ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn"),
                                                     initializer=_worker_init, initargs=(os.getpid(), self.nice))
            else:
                self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="solver")
        return self._executor

    def warm_up(self) -> None:
        """Start the worker and load the kernels now (or compile them, in the background,
        where numba's cache is cold: then say so once, since rounds wait for it)."""
        if self.solve_fn is None:
            self._pool().submit(_warm_worker).add_done_callback(_report_warm_up)

    def solve(self, puzzle: Puzzle) -> asyncio.Future[Answer]:
        """A future of the solver's answer (by the puzzle's rules); the same puzzle asked twice shares one search."""
        return self.run(solve_job(puzzle))

    def run(self, job: Job) -> asyncio.Future[Any]:
        """A future of ``job.fn(*job.args)``, run in the worker; equal keys share one run."""
        key = job.key
        fut = self._cache.get(key)
        if fut is not None and not (fut.done() and (fut.cancelled() or fut.exception() is not None)):
            self._cache.move_to_end(key)
            return fut
        loop = asyncio.get_running_loop()
        if job.fn is solve_puzzle:
            (puzzle,) = job.args
            if self.solve_fn is not None:
                inner = loop.run_in_executor(self._pool(), self.solve_fn, puzzle)
            else:
                inner = loop.run_in_executor(self._pool(), solve_puzzle, puzzle, self.time_limit, self.max_moves)
            fut = asyncio.ensure_future(self._guard(inner, Answer("error", None)))
        else:
            fut = asyncio.ensure_future(self._guard(loop.run_in_executor(self._pool(), job.fn, *job.args), None))
        self._cache[key] = fut
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return fut

    @staticmethod
    async def _guard(inner: asyncio.Future[Any], fallback: Any) -> Any:
        """The result; a failure is logged and raised again, except where a
        ``fallback`` answer says so (the solver's ``error`` status)."""
        try:
            return await inner
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("a job failed in the worker")
            if fallback is None:
                raise
            return fallback

    def close(self) -> None:
        for fut in self._cache.values():
            fut.cancel()
        self._cache.clear()
        if self._executor is not None:
            executor, self._executor = self._executor, None
            if isinstance(executor, ProcessPoolExecutor):
                # A search in progress is not worth waiting for; stopped, the worker lets the pool
                # close cleanly (its queues' semaphores released, no resource-tracker warning).
                for process in list(getattr(executor, "_processes", {}).values()):
                    process.terminate()
                executor.shutdown(wait=True, cancel_futures=True)
            else:
                executor.shutdown(wait=False, cancel_futures=True)
