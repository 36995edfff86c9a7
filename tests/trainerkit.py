"""What the trainer's tests in process share: the databases they run on (a SQLite file, and
PostgreSQL when ``RICOCHET_TEST_POSTGRES`` names a server, ``scripts/start-test-postgres.sh``,
emptied of the trainer's rows first: a shared test server), a clock the test moves, the app
on it, and helpers to play."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ricochet.server.app import create_app
from ricochet.server.solving import SolverService
from ricochet.server.trainer_api import TrainerOptions
from ricochet.trainer.puzzles import from_code

SECRET = b"trainer-kit-secret-0123456789abcdef"
DAY = dt.date(2026, 3, 14)

POSTGRES = os.environ.get("RICOCHET_TEST_POSTGRES")
TABLES = ("trainer_storm_puzzles", "trainer_storms", "trainer_plays", "trainer_daily", "trainer_history",
          "trainer_profiles", "trainer_puzzles", "trainer_players")
"""The trainer's tables, those that refer to others first."""
PARAMS = ["sqlite", pytest.param("postgresql", marks=[
    pytest.mark.postgres,
    pytest.mark.skipif(not POSTGRES, reason="RICOCHET_TEST_POSTGRES is not set (scripts/start-test-postgres.sh)")])]


def empty_postgres(url: str) -> None:
    """Delete the trainer's rows on the PostgreSQL server of ``url`` (once its schema is made)."""
    import sqlalchemy as sa
    from sqlalchemy.ext.asyncio import create_async_engine

    from ricochet.server.storage import normalize_url

    async def reset() -> None:
        engine = create_async_engine(normalize_url(url))
        async with engine.begin() as conn:
            names = set((await conn.execute(sa.text(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"))).scalars())
            for table in TABLES:
                if table in names:
                    await conn.execute(sa.text(f"DELETE FROM {table}"))
        await engine.dispose()

    asyncio.run(reset())


def database(kind: str, tmp_path: Path) -> str:
    """The URL of a trainer database with no rows in it."""
    if kind == "postgresql":
        assert POSTGRES is not None
        empty_postgres(POSTGRES)
        return POSTGRES
    return f"sqlite+aiosqlite:///{tmp_path}/trainer.db"


class Clock:
    """The server's time, moved by the test (from noon UTC on ``day``)."""

    def __init__(self, day: dt.date = DAY) -> None:
        self.t = dt.datetime(day.year, day.month, day.day, 12, 0, tzinfo=dt.UTC).timestamp()

    def __call__(self) -> float:
        return self.t

    def next_day(self) -> None:
        self.t += 86400


@contextmanager
def client(db: str, clock: Clock) -> Iterator[TestClient]:
    """The whole app on ``db`` and ``clock`` (no pool: puzzles are made on request, in a thread)."""
    app = create_app(db, now=clock, realtime=False, solver=SolverService("thread"), bots=False,
                     trainer=TrainerOptions(secret=SECRET, pool=0))
    with TestClient(app) as c:
        yield c


@contextmanager
def no_cookie(c: TestClient) -> Iterator[TestClient]:
    """The same client (its server, its event loop) without its cookie for a while."""
    import httpx

    saved = httpx.Cookies(c.cookies)
    c.cookies.clear()
    try:
        yield c
    finally:
        c.cookies = saved


def moves(p: dict[str, Any]) -> list[Any]:
    """The optimal solution of a served puzzle (solved here from its code)."""
    return [list(m) for m in from_code(p["game"], p["code"]).solution]


def solve(c: TestClient, p: dict[str, Any], right: bool = True) -> dict[str, Any]:
    """An attempt at a served puzzle: its optimal solution, or no moves (a failure)."""
    r = c.post(f"/api/puzzles/{p['id']}/attempt", json={"moves": moves(p) if right else []})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def daily(c: TestClient, game: str, day: dt.date | None = None) -> dict[str, Any]:
    """The daily puzzle of ``day`` (default: the server's today)."""
    params = {"game": game} | ({"date": day.isoformat()} if day else {})
    r = c.get("/api/puzzles/daily", params=params)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]
