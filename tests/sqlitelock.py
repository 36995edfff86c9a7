"""SQLite's locks in the tests: another process's writer holding a file's write lock, for the tests
of what waits for it; processes turning on a new file's WAL at once."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any


@contextlib.contextmanager
def lock_held(path: Path | str, mode: str = "IMMEDIATE") -> Iterator[threading.Event]:
    """Hold SQLite's write lock on ``path`` (``BEGIN IMMEDIATE`` or ``EXCLUSIVE``) from another
    connection, in a thread, from the start of the block until the event it gives is set (or
    the block ends); then that connection commits and closes."""
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        conn = sqlite3.connect(path, timeout=30, isolation_level=None)
        conn.execute(f"BEGIN {mode}")
        locked.set()
        release.wait(30)
        conn.execute("COMMIT")
        conn.close()

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    assert locked.wait(10), f"{path}: the write lock was not taken"
    try:
        yield release
    finally:
        release.set()
        holder.join(30)


def wal_when_all_are_ready(path: str, ready: Any) -> str:
    """In a process of its own: a new file's first connection turns on WAL (:func:`wal_mode`) at
    the same moment as the others' (``ready``, a manager's barrier); the mode, or the error.
    Here rather than in the test's module, so that each spawned process imports little."""
    from ricochet.server.storage import wal_mode

    ready.wait()
    try:
        conn = sqlite3.connect(path, timeout=30)
        try:
            return str(wal_mode(lambda sql: conn.execute(sql).fetchone()[0]))
        finally:
            conn.close()
    except sqlite3.Error as e:
        return f"{type(e).__name__}: {e}"
