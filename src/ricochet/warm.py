"""Compile every numba kernel the product uses into numba's on-disk cache, once.

A fresh checkout or installation has an empty cache: without this, the first
``ricochet solve``, the first round of a new server and the first tablebase
wait a minute or more, silently, while numba compiles.  ``./run`` and
``./test`` call ``ricochet warm`` when they create the environment, and again
before the tests (a no-op in under a second while the cache is current, so the
test workers load kernels instead of each compiling them); ``ricochet serve``
warms its solver worker in the background at start.

The kernels come in :data:`GROUPS`, each warmed by running a tiny problem
through every code path of one part of the product.  :func:`warm` reports, per
group, whether it compiled or only loaded from the cache and how long it took;
with ``details`` it also names each compiled function and specialization and
its own compile time (numba's event API), which is how compile time is
measured and cut (``ricochet warm --details``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field


def _solver() -> None:
    from .solver import warm_up

    warm_up()


def _solver_threads() -> None:
    from .solver import warm_up_threads

    warm_up_threads()


def _tablebase() -> None:
    from .tablebase.warm import warm_up

    warm_up()


@dataclass(frozen=True)
class Group:
    """One part of the product's kernels: its name, what it covers, its warm-up.  A group
    ``apart`` shares (almost) no kernel with the others: with ``jobs`` > 1, :func:`warm`
    compiles it in another process at the same time (numba compiles on one core)."""

    name: str
    covers: str
    run: Callable[[], None]
    apart: bool = False


GROUPS: tuple[Group, ...] = (
    Group("solver", "A*, IDA*, the bounds and board tables: solve, bots, goal checks, the trainer", _solver),
    Group("threads", "the solver's A* on several threads: solve(threads=N), batches' long puzzles", _solver_threads),
    Group("tablebase", "the tablebase's CPU layers and histogram: ricochet tablebase", _tablebase, apart=True),
)
"""Every group, in the order :func:`warm` runs them (the threaded kernels call the solver's:
one process compiles both, one after the other)."""


@dataclass(frozen=True)
class Compiled:
    """One function compiled for one signature: its own time (its callees' excluded)."""

    function: str
    signature: str
    seconds: float


@dataclass
class Report:
    """What warming one group did: ``compiled`` is empty when everything came from the cache."""

    group: Group
    seconds: float = 0.0
    compiled: list[Compiled] = field(default_factory=list)

    @property
    def from_cache(self) -> bool:
        return not self.compiled

    def line(self) -> str:
        what = "loaded from the cache" if self.from_cache else f"compiled {len(self.compiled)} functions"
        return f"{self.group.name:10s} {what:32s} {self.seconds:6.1f} s   ({self.group.covers})"


@contextmanager
def _recording(into: list[Compiled]) -> Iterator[None]:
    """Record every numba compilation in the block, each with its own time."""
    from numba.core import event

    stack: list[list[float]] = []  # per open compilation: [start, seconds spent in nested ones]

    class Listener(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            stack.append([time.perf_counter(), 0.0])

        def on_end(self, ev: event.Event) -> None:
            start, nested = stack.pop()
            total = time.perf_counter() - start
            if stack:
                stack[-1][1] += total
            dispatcher = ev.data["dispatcher"]
            func = dispatcher.py_func
            into.append(Compiled(f"{func.__module__}.{func.__qualname__}", str(ev.data["args"]), total - nested))

    listener = Listener()
    event.register("numba:compile", listener)  # type: ignore[no-untyped-call]
    try:
        yield
    finally:
        event.unregister("numba:compile", listener)  # type: ignore[no-untyped-call]


def group_names() -> tuple[str, ...]:
    return tuple(g.name for g in GROUPS)


def select(names: Sequence[str] | None) -> list[Group]:
    """The groups named (all for ``None``), in :data:`GROUPS` order; ValueError for an unknown name."""
    if names is None:
        return list(GROUPS)
    unknown = [n for n in names if n not in group_names()]
    if unknown:
        raise ValueError(f"unknown kernel group {unknown[0]!r}: use {', '.join(group_names())}")
    return [g for g in GROUPS if g.name in names]


def _warm_here(group: Group) -> Report:
    report = Report(group)
    t0 = time.perf_counter()
    with _recording(report.compiled):
        group.run()
    report.seconds = time.perf_counter() - t0
    return report


def _warm_elsewhere(groups: Sequence[Group]) -> list[Report]:
    """:func:`warm` of ``groups`` (run in another process)."""
    return [_warm_here(g) for g in groups]


def warm(groups: Sequence[Group] | None = None,
         progress: Callable[[Report], None] | None = None, jobs: int = 1) -> list[Report]:
    """Compile (or load from the cache) the kernels of ``groups`` (all by
    default) in this process; ``progress`` gets each group's report as it ends.

    With ``jobs`` > 1 the groups marked ``apart`` are compiled meanwhile in a
    process of their own (spawned), then loaded here: a kernel the two
    processes compiled at once may have lost its entry in numba's index (the
    last writer wins), and loading here compiles again whatever is missing, so
    the cache is whole when this returns.  Their reports add both times up."""
    chosen = list(GROUPS if groups is None else groups)
    apart = [g for g in chosen if g.apart] if jobs > 1 and len(chosen) > 1 else []
    reports: dict[str, Report] = {}

    def done(report: Report) -> None:
        reports[report.group.name] = report
        if progress is not None:
            progress(report)

    if not apart:
        for group in chosen:
            done(_warm_here(group))
        return [reports[g.name] for g in chosen]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        elsewhere = pool.submit(_warm_elsewhere, apart)
        for group in chosen:
            if not group.apart:
                done(_warm_here(group))
        compiled_there = elsewhere.result()
    for there in compiled_there:
        here = _warm_here(there.group)  # loads what the other process stored; compiles what got lost
        there.compiled.extend(here.compiled)
        there.seconds += here.seconds
        done(there)
    return [reports[g.name] for g in chosen]
