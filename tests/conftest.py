"""Shared test set-up: put ``tests/`` on ``sys.path`` so test modules can
``from strategies import boards, positions, PROPERTY`` whether or not
``tests`` is a package; compile the solver's kernels once per test
process before any test runs; and run each test in one of the machine's test
slots (:mod:`machineslots`)."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator

import pytest

# The threaded solver tests' GNU OpenMP threads sleep while they wait instead of spinning:
# the test workers share two cores in CI, beside servers whose latency the hardening tests
# measure (a spinning thread holds a core; read when OpenMP starts, inherited by subprocesses).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

_HERE = os.path.dirname(os.path.abspath(__file__))


def _own_postgres_database() -> None:
    """Under pytest-xdist, each worker gets a database of its own on the test PostgreSQL server
    (``<name>_gw0``, made afresh), and ``RICOCHET_TEST_POSTGRES`` names it: the tests empty the
    tables they use as they start, which would pull the rows from under a test running beside
    them on the other worker.  Done on import, before any test module reads the variable."""
    url, worker = os.environ.get("RICOCHET_TEST_POSTGRES"), os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker:
        return
    import asyncio

    import asyncpg

    base, _, name = url.rpartition("/")
    mine = f"{name}_{worker}"

    async def create() -> None:
        conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1))
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{mine}" WITH (FORCE)')
            await conn.execute(f'CREATE DATABASE "{mine}"')
        finally:
            await conn.close()

    asyncio.run(create())
    os.environ["RICOCHET_TEST_POSTGRES"] = f"{base}/{mine}"


_own_postgres_database()

# The plug-in test game registers itself when imported: pytest's collection (doctests of every
# module under tests/) must not import it, or every test of the worker would see a fifth game.
# tests/test_plugin_game.py plugs it in, and takes it out, itself.
collect_ignore = ["higher_lower"]
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from machineslots import Slots, slot_count  # tests/ is on sys.path from here


@pytest.fixture(scope="session", autouse=True)
def _solver_kernels_compiled() -> None:
    """On a fresh checkout numba's cache is empty and the first solve compiles
    for 10-25 s.  Done here, that time is not charged to a test that waits
    with a timeout (a server test whose bots solve in a thread, say)."""
    from ricochet.solver import warm_up

    warm_up()


_SLOTS: Slots | None = None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Each test (its set-up, call and tear-down) holds one of the machine's test slots
    (:mod:`machineslots`): two suites side by side run no more tests at once than one."""
    slots = _slots()
    if slots.count == 0:
        yield
        return
    waited = slots.acquire()
    item.user_properties.append(("slot_wait", waited))  # summed in the run's summary (../conftest.py)
    try:
        yield
    finally:
        slots.release()


def _slots() -> Slots:
    global _SLOTS
    if _SLOTS is None:
        _SLOTS = Slots(slot_count())
    return _SLOTS


@pytest.fixture
def machine_alone() -> Callable[[], contextlib.AbstractContextManager[object]]:
    """``with machine_alone(): …`` runs the block while no other test runs on the machine
    (:meth:`machineslots.Slots.alone`; nothing to wait for where the budget is off): for a
    measurement judged again after a run over its bound, to tell a slow server from a busy machine."""
    slots = _slots()
    return slots.alone if slots.count else contextlib.nullcontext
