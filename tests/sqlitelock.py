"""Another process's writer holding a SQLite file's write lock, for the tests of what waits for it."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path


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
