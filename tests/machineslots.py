"""A machine-wide budget of tests running at once, shared by every test suite on the machine.

Many tests measure a server's round trips against their own quiet baseline (a ratio with a
floor), or wait on a browser, a room's idle timer or a bot for a bounded time.  They hold when
the machine runs a few tests at once, and fail when it runs many: two ``./test`` runs side by
side on two cores doubled the load and failed both.  So a test runs only while it holds one of
:func:`slot_count` slots, each an exclusive ``flock`` on a file in the temporary directory.
Every test process of every suite on the machine (same user) takes its slots from the same
files: one suite alone never waits, and two suites side by side share the slots and each take
longer, but the machine never runs more tests at once than one suite does.  The kernel lets go
of a dead process's locks, so a killed run leaves no slot taken.

``RICOCHET_TEST_SLOTS``: the number of slots (``0``: no budget); by default the machine's cores
plus one, the most tests at once that two cores held steadily.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import random
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

ENV = "RICOCHET_TEST_SLOTS"
POLL_SECONDS = 0.02
"""How often, at most, a process waiting for a slot looks for a free one."""
YIELD_SECONDS = 0.05
"""How long a process that wants a slot while another waits lets the waiter look first."""


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def slot_count() -> int:
    """How many tests the machine runs at once (``RICOCHET_TEST_SLOTS``, else cores + 1)."""
    text = os.environ.get(ENV, "").strip()
    if not text:
        return cores() + 1
    try:
        n = int(text)
    except ValueError:
        raise ValueError(f"{ENV} must be a whole number of tests (0: no budget), got {text!r}") from None
    if n < 0:
        raise ValueError(f"{ENV} must be 0 or more, got {n}")
    return n


def _try_lock(f: IO[bytes] | None) -> bool:
    """Lock ``f`` exclusively if no other process holds it: whether it is now this process's."""
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)  # type: ignore[arg-type]
    except BlockingIOError:
        return False
    return True


class Slots:
    """This process's handles on the machine's slot files (opened once, on first use)."""

    def __init__(self, count: int, folder: Path | None = None) -> None:
        self.count = count
        self.folder = folder or Path(tempfile.gettempdir()) / f"ricochet-test-slots-{os.getuid()}"
        self._files: list[IO[bytes]] = []
        self._waiting: IO[bytes] | None = None
        self._alone: IO[bytes] | None = None
        self._held: IO[bytes] | None = None

    def _open(self) -> list[IO[bytes]]:
        if not self._files:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._files = [open(self.folder / f"slot-{k}", "ab") for k in range(self.count)]  # noqa: SIM115
            self._waiting = open(self.folder / "waiting", "ab")  # noqa: SIM115
            self._alone = open(self.folder / "alone", "ab")  # noqa: SIM115
        return self._files

    def _others_wait(self) -> bool:
        """Whether a process is waiting for a slot (it holds ``waiting`` shared while it does)."""
        if not _try_lock(self._waiting):
            return True
        fcntl.flock(self._waiting, fcntl.LOCK_UN)
        return False

    def acquire(self) -> float:
        """Take a free slot, waiting for one if need be: the seconds waited."""
        assert self._held is None, "a slot is already held"
        files = self._open()
        start = time.monotonic()
        # Turns: a process that has just given a slot back would take it again before a waiting
        # one looks (one suite would run while the other waited minutes); it lets a waiter go first.
        if self._others_wait():
            time.sleep(YIELD_SECONDS)
        pause, waiting = 0.002, False
        try:
            while True:
                for f in random.sample(files, len(files)):
                    if _try_lock(f):
                        self._held = f
                        return time.monotonic() - start
                if not waiting:
                    fcntl.flock(self._waiting, fcntl.LOCK_SH)
                    waiting = True
                time.sleep(pause)
                pause = min(pause * 2, POLL_SECONDS)
        finally:
            if waiting:
                fcntl.flock(self._waiting, fcntl.LOCK_UN)

    def release(self) -> None:
        """Give the slot back."""
        if self._held is not None:
            fcntl.flock(self._held, fcntl.LOCK_UN)
            self._held = None

    @contextlib.contextmanager
    def alone(self) -> Iterator[float]:
        """Every slot of the machine held for the block (the tests running elsewhere end first,
        and no other starts): the seconds waited for them.  The slot held before is given back
        while waiting, and taken again after: two processes that want the machine at once take
        turns (``alone`` is locked first, holding no slot), never wait for each other's slot."""
        held = self._held is not None
        self.release()
        files = self._open()
        start = time.monotonic()
        fcntl.flock(self._alone, fcntl.LOCK_EX)
        taken: list[IO[bytes]] = []
        try:
            fcntl.flock(self._waiting, fcntl.LOCK_SH)  # the others let this process look first
            try:
                while len(taken) < len(files):
                    taken += [f for f in files if f not in taken and _try_lock(f)]
                    if len(taken) < len(files):
                        time.sleep(POLL_SECONDS)
            finally:
                fcntl.flock(self._waiting, fcntl.LOCK_UN)
            yield time.monotonic() - start
        finally:
            for f in taken:
                fcntl.flock(f, fcntl.LOCK_UN)
            fcntl.flock(self._alone, fcntl.LOCK_UN)
            if held:
                self.acquire()
