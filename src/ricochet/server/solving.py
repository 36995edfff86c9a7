"""The solver as a service for the server: optimal lengths of rounds and the
bots' brains.

The solver is CPU-bound compiled code that holds the GIL, so by default it
runs in one worker *process* (the event loop keeps answering sockets).
Answers are memoised by puzzle: the server's "optimal length" of a round and
every bot at that table share one search.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any

from ..position import Move
from ..puzzle import Puzzle
from ..rules import Rules

log = logging.getLogger("ricochet.server")


@dataclass(frozen=True)
class Answer:
    """An optimal solution (``optimal`` moves, ``None`` when none was found:
    ``status`` says why: ``unsolvable``, ``limit``, ``timeout`` or ``error``)."""

    status: str
    optimal: int | None
    moves: tuple[Move, ...] = ()


def _solve_job(puzzle: Puzzle, rules: Rules, time_limit: float, max_moves: int) -> Answer:
    from ..solver import solve

    sol = solve(puzzle, rules, time_limit=time_limit, max_moves=max_moves)
    return Answer(sol.status, sol.length if sol.solved else None, tuple(sol.moves) if sol.solved else ())


class SolverService:
    """Solve puzzles off the event loop, memoised.

    ``mode``: ``"process"`` (one worker process; the default for ``serve``),
    ``"thread"`` (a worker thread; fine for the tiny boards of tests) or a
    custom ``solve_fn(puzzle, rules) -> Answer`` run in a thread."""

    def __init__(self, mode: str = "process", *, time_limit: float = 30.0, max_moves: int = 40,
                 solve_fn: Callable[[Puzzle, Rules], Answer] | None = None, cache_size: int = 512) -> None:
        if mode not in ("process", "thread"):
            raise ValueError(f"mode must be 'process' or 'thread', got {mode!r}")
        self.mode = mode
        self.time_limit = time_limit
        self.max_moves = max_moves
        self.solve_fn = solve_fn
        self._executor: Executor | None = None
        self._cache: OrderedDict[Any, asyncio.Future[Answer]] = OrderedDict()
        self._cache_size = cache_size

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.mode == "process" and self.solve_fn is None:
                # spawn: a forked child of a process with threads (uvicorn, aiosqlite) may deadlock.
                self._executor = ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn"))
            else:
                self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="solver")
        return self._executor

    def warm_up(self) -> None:
        """Start the worker and compile/load the kernels now rather than at the first chip."""
        if self.solve_fn is None:
            from ..solver import warm_up

            self._pool().submit(warm_up)

    @staticmethod
    def key(puzzle: Puzzle, rules: Rules) -> Any:
        return (puzzle.position.board, puzzle.position.robots, puzzle.target, puzzle.active, rules)

    def solve(self, puzzle: Puzzle, rules: Rules) -> asyncio.Future[Answer]:
        """A future of the answer; the same puzzle asked twice shares one search."""
        key = self.key(puzzle, rules)
        fut = self._cache.get(key)
        if fut is not None and not (fut.done() and fut.exception() is not None):
            self._cache.move_to_end(key)
            return fut
        loop = asyncio.get_running_loop()
        if self.solve_fn is not None:
            inner = loop.run_in_executor(self._pool(), self.solve_fn, puzzle, rules)
        else:
            inner = loop.run_in_executor(self._pool(), _solve_job, puzzle, rules, self.time_limit, self.max_moves)
        fut = asyncio.ensure_future(self._guard(inner))
        self._cache[key] = fut
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return fut

    @staticmethod
    async def _guard(inner: asyncio.Future[Answer]) -> Answer:
        try:
            return await inner
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("solver failed")
            return Answer("error", None)

    def close(self) -> None:
        for fut in self._cache.values():
            fut.cancel()
        self._cache.clear()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
