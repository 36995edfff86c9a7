"""The database layer on SQLite and — when ``RICOCHET_TEST_POSTGRES`` holds an
SQLAlchemy URL (``scripts/start-test-postgres.sh`` prints one) — on PostgreSQL."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import secrets
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import sqlalchemy.exc
from sqlalchemy.ext.asyncio import create_async_engine

from ricochet.server import storage
from ricochet.server.storage import RoomRow, SeatRow, Storage, hash_token, normalize_url, wal_mode
from sqlitelock import lock_held, wal_when_all_are_ready
from test_server_harness import Harness, solution_of

PG = os.environ.get("RICOCHET_TEST_POSTGRES")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path}/storage.db"
    if not PG:
        pytest.skip("PostgreSQL tests need RICOCHET_TEST_POSTGRES=<SQLAlchemy URL> "
                    "(scripts/start-test-postgres.sh starts a throwaway server and prints it)")
    return PG


def room_row(now: float = 1000.0) -> RoomRow:
    rid = secrets.token_hex(5)
    return RoomRow(rid, "Test", {"clock_seconds": 60}, False, "lobby", 1, secrets.randbits(62), now, now)


def test_storage_roundtrip(db_url: str) -> None:
    async def go() -> None:
        st = await Storage.open(db_url)
        try:
            await st.migrate()  # twice is fine
            row = room_row()
            await st.create_room(row)
            assert await st.get_room(row.id) == row
            assert row.id in [r.id for r in await st.active_rooms()]
            payloads = [{"type": "player_joined", "player": "p1", "name": "Ann", "at": 1000.5},
                        {"type": "player_joined", "player": "p2", "name": "Bob ✓", "at": 1001.0}]
            await st.append_events(row.id, 1, 1, payloads, status="playing")
            got = await st.events(row.id)
            assert [(e.seq, e.game, e.payload) for e in got] == [(1, 1, payloads[0]), (2, 1, payloads[1])]
            assert [e.seq for e in await st.events(row.id, since=1)] == [2]
            assert await st.last_version(row.id) == 2
            assert (await st.get_room(row.id)).status == "playing"  # type: ignore[union-attr]
            # the heartbeat: rooms stamped alive (only those named)
            other = room_row()
            await st.create_room(other)
            await st.stamp_alive([row.id], 1234.5)
            assert (await st.get_room(row.id)).alive == 1234.5  # type: ignore[union-attr]
            assert (await st.get_room(other.id)).alive is None  # type: ignore[union-attr]
            # append-only: a version is written once
            with pytest.raises(sqlalchemy.exc.IntegrityError):
                await st.append_events(row.id, 1, 2, [payloads[0]])
            assert len(await st.events(row.id)) == 2
            await st.append_events(row.id, 2, 3, [{"type": "game_reset", "game": 2, "at": 1002.0}],
                                   status="lobby", game_changed=True)
            assert (await st.get_room(row.id)).game == 2  # type: ignore[union-attr]
            assert [e.seq for e in await st.events(row.id, game=2)] == [3]
            seat = SeatRow("p1", "Ann", hash_token("secret"), False, None, 1000.0)
            await st.add_seat(row.id, seat)
            assert await st.seats(row.id) == [seat]
            ids = [await st.add_chat(row.id, "p1", "Ann", f"line {i} <b>", 1000.0 + i) for i in range(3)]
            chat = await st.recent_chat(row.id, 2)
            assert [c["id"] for c in chat] == ids[1:] and chat[-1]["text"] == "line 2 <b>"
            await st.update_room(row.id, status="over", updated=1003.0)
            assert row.id not in [r.id for r in await st.active_rooms()]
        finally:
            await st.close()

    asyncio.run(go())


def test_expiry_paging_and_seats(db_url: str) -> None:
    """What the room lifecycle asks of the database: rooms waiting for their first start, the
    stale ones (no event since), deleting a room whole, pages of a log, seats given up or revoked."""
    async def go() -> None:
        st = await Storage.open(db_url)
        try:
            before = await st.count_lobby_rooms()
            old, busy, started = room_row(100.0), room_row(100.0), room_row(100.0)
            for row in (old, busy, started):
                await st.create_room(row)
            await st.append_events(busy.id, 1, 1, [{"type": "player_joined", "player": "p1", "name": "A",
                                                    "at": 900.0}])
            await st.append_events(started.id, 1, 1, [{"type": "game_started", "at": 150.0}], status="playing")
            assert await st.count_lobby_rooms() >= before + 2  # (other tests may add rooms to a shared database)
            stale = await st.stale_lobby_rooms(500.0, limit=10_000)
            assert old.id in stale and busy.id not in stale and started.id not in stale
            await st.add_seat(old.id, SeatRow("p1", "Ann", hash_token("a"), False, None, 100.0))
            await st.add_seat(old.id, SeatRow("p2", "Bob", hash_token("b"), False, None, 100.0))
            await st.revoke_seat(old.id, "p1")
            await st.revoke_seat(old.id, "p2")  # two revoked seats: still unique in the room
            assert {s.token_hash for s in await st.seats(old.id)} == {"revoked:p1", "revoked:p2"}
            await st.delete_seat(old.id, "p2")
            assert [s.player_id for s in await st.seats(old.id)] == ["p1"]
            await st.add_chat(old.id, "p1", "Ann", "hi", 101.0)
            await st.delete_room(old.id)
            assert await st.get_room(old.id) is None and await st.seats(old.id) == []
            assert await st.recent_chat(old.id, 5) == [] and await st.events(old.id) == []
            await st.append_events(busy.id, 1, 2, [{"type": "player_left", "player": "p1", "at": 901.0 + i}
                                                   for i in range(5)])
            assert [e.seq for e in await st.events(busy.id, since=2, limit=2)] == [3, 4]
            assert [e.seq for e in await st.events(busy.id, until=3)] == [1, 2, 3]
        finally:
            await st.close()

    asyncio.run(go())


def test_a_round_on_the_database(db_url: str, tmp_path: Path) -> None:
    """The whole server on this database: a round played, then the log read back."""
    with Harness(tmp_path, db=db_url) as h:
        rid = h.room()
        ann, bob = h.join(rid, "Ann"), h.join(rid, "Bob")
        ann.ok(type="start")
        bob.ok(type="bid", moves=2)
        h.advance(60)
        for m in solution_of(bob.state):
            events = bob.ok(**m)
        # round_ended, maybe followed already by round_solved (the solver's report races the ping)
        ended = [e for e in events if e["type"] == "round_ended"]
        assert len(ended) == 1 and ended[0]["winner"] == bob.id
        assert {e["type"] for e in events[events.index(ended[0]) + 1:]} <= {"round_solved"}
        log = h.client.get(f"/api/rooms/{rid}/events").json()["events"]
        assert [e["version"] for e in log] == list(range(1, len(log) + 1))
        ann.drain()
    with Harness(tmp_path, db=db_url) as h2:
        assert h2.loaded(rid).version >= len(log)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def new_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], str]]:
    """Makes databases with no tables yet: new files, or new databases on the test server
    (dropped at the end)."""
    if request.param == "sqlite":
        yield lambda: f"sqlite+aiosqlite:///{tmp_path}/{secrets.token_hex(4)}.db"
        return
    if not PG:
        pytest.skip("PostgreSQL tests need RICOCHET_TEST_POSTGRES=<SQLAlchemy URL>")
    server = normalize_url(PG)
    made: list[str] = []

    async def admin(sql: str) -> None:
        engine = create_async_engine(server, isolation_level="AUTOCOMMIT")
        try:
            async with engine.connect() as conn:
                await conn.execute(sa.text(sql))
        finally:
            await engine.dispose()

    def make() -> str:
        made.append(f"ricochet_fresh_{secrets.token_hex(4)}")
        asyncio.run(admin(f"CREATE DATABASE {made[-1]}"))
        return server.rsplit("/", 1)[0] + "/" + made[-1]

    try:
        yield make
    finally:
        for name in made:
            asyncio.run(admin(f"DROP DATABASE {name} WITH (FORCE)"))


def _open_when_all_are_ready(url: str, ready: Any) -> str:
    """In a process of its own: open (and so migrate) the database at the same moment as the others
    (``ready`` is a manager's barrier)."""
    async def go() -> None:
        ready.wait()
        st = await Storage.open(url)
        await st.close()

    try:
        asyncio.run(go())
    except Exception as e:  # noqa: BLE001 - reported to the test, which shows it
        return f"{type(e).__name__}: {e}"
    return "ok"


def _tables(url: str) -> set[str]:
    async def go() -> set[str]:
        st = await Storage.open(url, migrate=False)
        try:
            async with st.engine.connect() as conn:
                return set(await conn.run_sync(lambda c: sa.inspect(c).get_table_names()))
        finally:
            await st.close()

    return asyncio.run(go())


def test_servers_starting_together_on_a_new_database(new_database: Callable[[], str]) -> None:
    """Servers (or test processes) started at once on a new database migrate one after the other,
    instead of each creating the tables and all but one failing. The race is not certain to happen
    in one round (without the lock, about half the rounds of four processes failed), hence three."""
    processes = 4
    ctx = multiprocessing.get_context("spawn")
    with ctx.Manager() as manager, ctx.Pool(processes) as pool:
        for _ in range(3):
            url, ready = new_database(), manager.Barrier(processes)
            assert pool.starmap(_open_when_all_are_ready, [(url, ready)] * processes) == ["ok"] * processes
            assert {"alembic_version", "rooms", "events", "seats"} <= _tables(url)


def test_wal_is_turned_on_by_processes_opening_a_new_file_at_once(tmp_path: Path) -> None:
    """Two connections that both hold a new file's shared lock and both ask for the exclusive one
    (to leave the rollback journal for WAL) deadlock, and SQLite answers "database is locked" at
    once, busy timeout or not: without the retries, about 8 % of the processes failed (ci: a server
    of test_servers_starting_together…[sqlite]); over 30 rounds of four, none may."""
    ctx = multiprocessing.get_context("spawn")
    with ctx.Manager() as manager, ctx.Pool(4) as pool:
        for i in range(30):
            got = pool.starmap(wal_when_all_are_ready, [(str(tmp_path / f"{i}.db"), manager.Barrier(4))] * 4)
            assert got == ["wal"] * 4, (i, got)


def test_wal_mode_retries_a_locked_database_only_and_only_so_long(monkeypatch: pytest.MonkeyPatch) -> None:
    class Clock:  # the retries' time, so that a busy machine's stall cannot use up their 0.2 s
        now = 0.0

        def monotonic(self) -> float:
            return self.now

        def sleep(self, seconds: float) -> None:
            self.now += seconds

    monkeypatch.setattr(storage, "time", Clock())
    said: list[str] = []

    def locked_twice(sql: str) -> str:
        said.append(sql)
        if len(said) <= 2:
            raise sqlite3.OperationalError("database is locked")
        return "wal"

    assert wal_mode(locked_twice) == "wal" and said == ["PRAGMA journal_mode=WAL"] * 3

    def broken(sql: str) -> str:
        said.append(sql)
        raise sqlite3.OperationalError("disk I/O error")

    said.clear()
    with pytest.raises(sqlite3.OperationalError, match="disk I/O"):
        wal_mode(broken)
    assert len(said) == 1  # not a lock: said at once

    def always_locked(sql: str) -> str:
        said.append(sql)
        raise sqlite3.OperationalError("database is locked")

    said.clear()
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        wal_mode(always_locked, seconds=0.2)
    assert 3 <= len(said) <= 40  # tried again, then given up after its time


def test_appends_are_committed_on_the_loop_and_a_locked_database_is_waited_for_in_the_thread(tmp_path: Path) -> None:
    """SQLite: a turn's appends are committed on the event loop's own thread when the database
    is free (no hand-over to the writer thread); while another connection holds the write lock
    they go to the thread, which waits for it, and are stored once it is let go, in order, with
    no error; after that the loop commits again."""
    path = tmp_path / "writer.db"

    async def go() -> None:
        st = await Storage.open(f"sqlite+aiosqlite:///{path}")
        try:
            await st.migrate()
            row = room_row()
            await st.create_room(row)
            writer = st._get_writer()
            for seq in (1, 2, 3):
                await st.append_events(row.id, 1, seq, [{"type": "player_left", "player": "p1", "at": float(seq)}])
            here = writer.written_here
            assert here >= 2  # (the first may come before the thread has put the file in WAL mode)
            with lock_held(path):  # another process's writer
                waiting = asyncio.ensure_future(st.append_events(row.id, 1, 4, [{"type": "player_left", "at": 4.0}]))
                await asyncio.sleep(0.5)
                assert not waiting.done() and writer.in_thread == 1
            await asyncio.wait_for(waiting, 10)
            assert writer.written_here == here and writer.in_thread == 0
            await st.append_events(row.id, 1, 5, [{"type": "player_left", "at": 5.0}])
            assert writer.written_here == here + 1
            assert [e.seq for e in await st.events(row.id)] == [1, 2, 3, 4, 5]
        finally:
            await st.close()

    asyncio.run(go())


def test_url_forms() -> None:
    assert normalize_url("postgresql://u:p@h:5/d") == "postgresql+asyncpg://u:p@h:5/d"
    assert normalize_url("postgres://h/d") == "postgresql+asyncpg://h/d"
    assert normalize_url("sqlite:///x.db") == "sqlite+aiosqlite:///x.db"
    assert normalize_url("sqlite+aiosqlite:///x.db") == "sqlite+aiosqlite:///x.db"
    assert normalize_url("/tmp/x.db") == "sqlite+aiosqlite:////tmp/x.db"


def test_unusable_database_says_why(tmp_path: Path) -> None:
    from ricochet.server.storage import StorageError

    async def go() -> None:
        with pytest.raises(StorageError, match="cannot"):
            await Storage.open("postgresql://nobody@127.0.0.1:1/none")

    asyncio.run(go())


def test_cancelled_action_still_folds_what_was_stored(tmp_path: Path) -> None:
    """An action cancelled while its events wait for the writer: once stored they are folded too,
    so the room's version stays the log's and the next action appends after it."""
    from ricochet.games.table import Start
    from ricochet.server import protocol as P
    from ricochet.server.manager import RoomManager
    from ricochet.server.solving import SolverService

    async def go() -> None:
        st = await Storage.open(f"sqlite+aiosqlite:///{tmp_path}/cancel.db")
        svc = SolverService()
        manager = RoomManager(st, realtime=False, solver=svc, bots=False)
        try:
            room = await manager.create_room(P.normalize_options({"name": "c", "min_players": 1}))
            async with room.lock:
                await room.add_seat("Ann")
            task = asyncio.ensure_future(room.act(Start("p1")))
            await asyncio.sleep(0)  # in the writer's queue now
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert room.state.phase != "lobby"
            assert room.version == await st.last_version(room.id)
            assert [e.seq for e in await st.events(room.id)] == list(range(1, room.version + 1))
            await manager.close()
        finally:
            svc.close()
            await st.close()

    asyncio.run(go())
