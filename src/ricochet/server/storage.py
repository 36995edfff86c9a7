"""The server's database: rooms, their append-only event logs, seats and chat.

SQLAlchemy 2 (async) on SQLite (``sqlite+aiosqlite:///file.db``) or PostgreSQL
(``postgresql+asyncpg://…``; a plain ``postgresql://`` URL is mapped to asyncpg).
The schema is created and upgraded by the Alembic migrations shipped in
``ricochet/server/migrations``, run by :meth:`Storage.migrate` at start.

Events are the truth: a room's game state is the fold of its events; rows of
``events`` are only ever inserted (a room that expired before its first
start is deleted whole: :meth:`Storage.delete_room`).  ``(room_id, seq)`` is the primary key, so
two writers can never both append the same version.  One server process owns
a database at a time (rooms live in its memory between writes).

Appending events is the hot path (one append per move, awaited before the
move is broadcast), so it goes through a single writer per storage doing
*group commit*: callers enqueue their rows and await a future; the writer
takes everything pending, commits it in ONE transaction and resolves the
futures.  On a SQLite file the writer is a dedicated thread with its own
stdlib ``sqlite3`` connection (WAL, ``synchronous=NORMAL``): one thread
hand-off per batch instead of several per commit through aiosqlite.  On
PostgreSQL (and SQLite ``:memory:``) it is an asyncio task using the
SQLAlchemy engine.  If a batch fails, its appends are retried one
transaction each, so only the faulty one fails.  Everything else (reads,
rooms, seats, chat) uses the SQLAlchemy engine.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import queue
import random
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import sqlalchemy as sa
from sqlalchemy import event as sa_event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from ..errors import RicochetError
from .refused import Refused

MIGRATIONS = Path(__file__).parent / "migrations"
# The key of the PostgreSQL advisory lock that migrations hold: any fixed 64-bit number that no
# other program on the same database uses ("ricochet" in ASCII).
MIGRATION_LOCK = int.from_bytes(b"ricochet", "big") & (2**63 - 1)

metadata = sa.MetaData()
rooms_table = sa.Table(
    "rooms", metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("private", sa.Boolean, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("game", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
    sa.Column("game_name", sa.String(32), nullable=False, server_default="ricochet-robots"),
    sa.Column("game_version", sa.Integer, nullable=False, server_default="1"),
    sa.Column("alive", sa.Float, nullable=True),
)
events_table = sa.Table(
    "events", metadata,
    sa.Column("room_id", sa.String(16), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("game", sa.Integer, nullable=False),
    sa.Column("type", sa.String(32), nullable=False),
    sa.Column("payload", sa.JSON, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)
seats_table = sa.Table(
    "seats", metadata,
    sa.Column("room_id", sa.String(16), primary_key=True),
    sa.Column("player_id", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=False),
    sa.Column("bot", sa.Boolean, nullable=False),
    sa.Column("level", sa.String(16), nullable=True),
    sa.Column("created", sa.Float, nullable=False),
)
chat_table = sa.Table(
    "chat", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("room_id", sa.String(16), nullable=False),
    sa.Column("player_id", sa.String(16), nullable=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)


leases_table = sa.Table(
    "room_leases", metadata,
    sa.Column("room_id", sa.String(16), primary_key=True),
    sa.Column("owner", sa.String(80), nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
    sa.Column("wanted_by", sa.String(80), nullable=True),
    sa.Column("summary", sa.Text, nullable=True),
    sa.Column("created", sa.Float, nullable=False, server_default="0"),
)
"""Which worker of a cluster holds which room (:mod:`ricochet.server.cluster`)."""

BUSY_SECONDS = 30.0
"""How long a write waits for SQLite's lock (another process or the writer thread holds it)
before it gives up; a busy database is waited for and retried, never reported as an error
sooner."""


def wal_mode(execute: Callable[[str], Any], seconds: float = BUSY_SECONDS) -> Any:
    """``execute("PRAGMA journal_mode=WAL")``, tried again while SQLite says the database is
    locked, for up to ``seconds``; what it returns.

    Turning a new database's rollback journal into WAL takes the file's exclusive lock. When
    processes open it at once, two may each hold the shared lock and both ask for it: SQLite
    then answers "database is locked" at once, without waiting (the connection's busy timeout
    is not used, as waiting could not help). Seen in the suite as a server that failed to
    start beside three others; one of them wins, and the others find WAL set."""
    deadline = time.monotonic() + seconds
    pause = 0.005
    while True:
        try:
            return execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause * random.uniform(0.5, 1.5))  # (spread: the others retry too)
        pause = min(2 * pause, 0.1)


def default_database_url() -> str:
    """``sqlite+aiosqlite:///`` a file ``ricochet.db`` in the user's data directory:
    ``$RICOCHET_DATA_DIR``, else ``$XDG_DATA_HOME/ricochet``, else ``~/.local/share/ricochet``."""
    base = os.environ.get("RICOCHET_DATA_DIR")
    if not base:
        xdg = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
        base = os.path.join(xdg, "ricochet")
    return f"sqlite+aiosqlite:///{os.path.join(base, 'ricochet.db')}"


def normalize_url(url: str) -> str:
    """An async SQLAlchemy URL: ``postgresql://`` / ``postgres://`` → asyncpg,
    ``sqlite://`` → aiosqlite, a bare file path → SQLite file.

    >>> normalize_url("postgresql://u@localhost/db")
    'postgresql+asyncpg://u@localhost/db'
    >>> normalize_url("games.db")
    'sqlite+aiosqlite:///games.db'
    """
    if "://" not in url:
        return f"sqlite+aiosqlite:///{url}"
    scheme, rest = url.split("://", 1)
    scheme = {"postgresql": "postgresql+asyncpg", "postgres": "postgresql+asyncpg",
              "postgresql+psycopg2": "postgresql+asyncpg", "sqlite": "sqlite+aiosqlite"}.get(scheme, scheme)
    return f"{scheme}://{rest}"


def _json_text(value: Any) -> str:
    """JSON text of a stored value (orjson: compact, UTF-8 kept; what :mod:`json` reads back)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


REVOKED = "revoked:"
"""How the token hash of a seat whose token no longer works begins (then its player id,
unique in the room as the index wants): no token hashes to it."""


def revoked(token_hash: str) -> bool:
    return token_hash.startswith(REVOKED)


def busy(error: BaseException) -> bool:
    """Is ``error`` SQLite's "database is locked" (or "busy"), raw or wrapped by SQLAlchemy?"""
    inner = getattr(error, "orig", None) or error
    return isinstance(inner, sqlite3.OperationalError) and any(w in str(inner) for w in ("locked", "busy"))


def hash_token(token: str) -> str:
    """Seat tokens are stored hashed: a leaked database does not hand out seats."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class RoomRow:
    id: str
    name: str
    options: dict[str, Any]
    private: bool
    status: str
    game: int
    seed: int
    created: float
    updated: float
    game_name: str = "ricochet-robots"
    """Which game the room plays (``ricochet.games.GAMES``)."""
    game_version: int = 1
    """The version of that game's event format the log was written in."""
    alive: float | None = None
    """When a server holding the room in memory was last known alive (``None``: never stamped);
    see :meth:`Storage.stamp_alive` and ``RoomManager`` ("Restarts")."""


@dataclass(frozen=True)
class EventRow:
    seq: int
    game: int
    payload: dict[str, Any]


@dataclass(frozen=True)
class SeatRow:
    player_id: str
    name: str
    token_hash: str
    bot: bool
    level: str | None
    created: float


class StorageError(RicochetError, RuntimeError):
    """The database cannot be used; the message says which and why."""

    default_code = "storage"


class LeaseLost(Refused):
    """An append to the log of a room this worker no longer holds (another worker took it
    over: :mod:`.cluster`); nothing was stored.  The client is told to reconnect."""

    def __init__(self, room_id: str) -> None:
        super().__init__(f"room {room_id} moved to another server: reconnect", "room_moving", status=503,
                         close_code=1012)
        self.room_id = room_id


_HELD = "SELECT room_id FROM room_leases WHERE owner = ? AND room_id IN ({})"


def _check_fence(conn: sqlite3.Connection, fence: str | None, items: list[_Append]) -> None:
    """In the writer's transaction: every room appended to is still held by this worker."""
    if fence is None:
        return
    ids = sorted({it.room_id for it in items})
    held = {r[0] for r in conn.execute(_HELD.format(",".join("?" * len(ids))), [fence, *ids])}
    lost = [rid for rid in ids if rid not in held]
    if lost:
        raise LeaseLost(lost[0])


@dataclass
class _Append:
    """One caller's append: rows of ``events`` and maybe an update of its room."""

    room_id: str
    rows: list[dict[str, Any]]
    room_values: dict[str, Any] | None
    future: asyncio.Future[None]


_INSERT_EVENT = "INSERT INTO events (room_id, seq, game, type, payload, at) VALUES (?, ?, ?, ?, ?, ?)"


def _resolve(batch: list[_Append], errors: list[BaseException | None]) -> None:
    for item, err in zip(batch, errors, strict=True):
        if item.future.done():
            continue
        if err is None:
            item.future.set_result(None)
        else:
            item.future.set_exception(err)


CHECKPOINT_SECONDS = 1.0
"""How often the writer thread checkpoints the WAL that the event loop's own commits fill."""


class _SqliteWriter:
    """The group-commit writer of a SQLite file.

    A turn of the event loop's appends are one batch, one transaction.  A batch is written
    at once on the event loop's own thread (:meth:`_write_here`: a connection that never
    waits for a lock, tens of microseconds a commit) whenever nothing is pending in the
    writer thread, rather than handed to the thread and back (a wake-up each way, the GIL
    passed back and forth): 3-6 % of the server's CPU per move through sockets on uvloop,
    far more on asyncio's own loop (``benchmarks/move_cost.py``, ``benchmarks/README.md``).
    A batch that cannot be written so (another connection holds the write lock, a lease
    lost, any error) goes to the thread, one ``sqlite3`` connection that waits out a busy
    database and answers each append's error apart.  Either way an append's future is
    resolved once its transaction is committed.  The thread also runs the WAL's
    checkpoints (their file syncs stay off the event loop)."""

    def __init__(self, path: str, loop: asyncio.AbstractEventLoop, fence: str | None = None) -> None:
        self.path = path
        self.loop = loop
        self.fence = fence
        self.queue: queue.SimpleQueue[_Append | list[_Append] | None] = queue.SimpleQueue()
        self.gathered: list[_Append] = []
        """Appends of this turn of the event loop, written together at its end."""
        self.direct: sqlite3.Connection | None = None
        """The event loop's own connection (:meth:`_write_here`), opened at its first batch."""
        self.in_thread = 0
        """Appends handed to the thread and not yet resolved (loop thread only)."""
        self.written_here = 0
        """Batches committed by :meth:`_write_here` (the thread checkpoints after them)."""
        self.wal: bool | None = None
        """Whether the file is in WAL mode, once the thread has set it (None: not yet)."""
        self.thread = threading.Thread(target=self._run, name="ricochet-db-writer", daemon=True)
        self.thread.start()

    def submit(self, item: _Append) -> None:
        # One batch per turn of the event loop, not one per append: the appends of the rooms
        # that moved in the same turn share a transaction.
        if not self.gathered:
            self.loop.call_soon(self._hand_over)
        self.gathered.append(item)

    def _hand_over(self) -> None:
        items, self.gathered = self.gathered, []
        if not items or (not self.in_thread and self._write_here(items)):
            return
        self.in_thread += len(items)
        self.queue.put(items)

    def _write_here(self, items: list[_Append]) -> bool:
        """Write a batch on this (the event loop's) thread if it can be at once; False: it was
        not written (nothing of it is stored), and the thread is to write it."""
        conn = self.direct
        if conn is None:
            if not self.wal:
                return False
            conn = self.direct = self._direct_connection()
            if conn is None:
                self.wal = False  # (not tried again)
                return False
        try:
            self._write(conn, items)
        except Exception:  # noqa: BLE001 - busy (not waited for here), a lease lost...: the thread's to answer
            return False
        self.written_here += 1
        _resolve(items, [None] * len(items))
        return True

    def _connect(self, timeout: float) -> sqlite3.Connection:
        """A connection of this writer's: transactions its own (``BEGIN``), synchronous NORMAL
        (in WAL mode: durable across the application's crashes, synced at checkpoints)."""
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=timeout)
        conn.execute("PRAGMA synchronous=NORMAL")
        return conn

    def _direct_connection(self) -> sqlite3.Connection | None:
        """The loop's connection, once the thread has put the file in WAL mode (:attr:`wal`; in
        rollback-journal mode every reader would lock it out): no busy timeout (a locked
        database is the thread's to wait for), no checkpoints of its own.  None where it
        cannot be opened."""
        try:
            conn = self._connect(0)
        except sqlite3.Error:
            return None
        try:
            conn.execute("PRAGMA wal_autocheckpoint=0")
        except sqlite3.Error:
            conn.close()
            return None
        return conn

    def _thread_done(self, batch: list[_Append], errors: list[BaseException | None]) -> None:
        self.in_thread -= len(batch)
        _resolve(batch, errors)

    async def close(self) -> None:
        self._hand_over()
        self.queue.put(None)
        await asyncio.get_running_loop().run_in_executor(None, self.thread.join)
        if self.direct is not None:
            self.direct.close()
            self.direct = None

    def _write(self, conn: sqlite3.Connection, items: list[_Append]) -> None:
        conn.execute("BEGIN IMMEDIATE")
        try:
            _check_fence(conn, self.fence, items)
            for it in items:
                conn.executemany(_INSERT_EVENT, [(r["room_id"], r["seq"], r["game"], r["type"], r["payload"], r["at"])
                                                 for r in it.rows])
                if it.room_values:
                    cols = ", ".join(f"{k} = ?" for k in it.room_values)
                    conn.execute(f"UPDATE rooms SET {cols} WHERE id = ?", [*it.room_values.values(), it.room_id])
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    @staticmethod
    def _error(e: Exception) -> BaseException:
        """sqlite3's errors as SQLAlchemy's, as the engine would raise them."""
        if isinstance(e, LeaseLost):
            return e
        if isinstance(e, sqlite3.IntegrityError):
            return sa.exc.IntegrityError(_INSERT_EVENT, None, e)
        if isinstance(e, sqlite3.OperationalError):
            return sa.exc.OperationalError(_INSERT_EVENT, None, e)
        return e

    def _run(self) -> None:
        conn = self._connect(BUSY_SECONDS)
        # WAL: readers (the engine's connections) do not block the writer.
        self.wal = wal_mode(lambda sql: conn.execute(sql).fetchone()[0]) == "wal"
        checkpointed = 0  # written_here at the last checkpoint
        stop = False
        try:
            while not stop:
                try:
                    first = self.queue.get(timeout=CHECKPOINT_SECONDS)
                except queue.Empty:
                    first = []
                if first is None:
                    break
                if self.written_here != checkpointed:
                    # The loop's commits never checkpoint (a checkpoint syncs files): done here, PASSIVE
                    # (it waits for no reader or writer; the loop's next commit restarts the WAL).
                    checkpointed = self.written_here
                    with contextlib.suppress(sqlite3.Error):
                        conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                if not first:
                    continue
                batch, stop = _pending(first, self.queue)
                errors: list[BaseException | None]
                try:
                    self._write(conn, batch)
                    errors = [None] * len(batch)
                except Exception:  # noqa: BLE001 - retried one by one below
                    errors = []
                    for it in batch:  # one transaction each: only the faulty append fails
                        try:
                            self._write(conn, [it])
                            errors.append(None)
                        except Exception as e:  # noqa: BLE001 - handed to the caller
                            errors.append(self._error(e))
                try:
                    self.loop.call_soon_threadsafe(self._thread_done, batch, errors)
                except RuntimeError:  # the loop is closed: nobody is waiting any more
                    pass
        finally:
            conn.close()


def _pending(first: _Append | list[_Append],
             q: queue.SimpleQueue[_Append | list[_Append] | None] | asyncio.Queue[_Append | None]
             ) -> tuple[list[_Append], bool]:
    """Group commit: ``first`` and every append already waiting (single ones or lists), for
    one transaction; True when the stop marker (None) was among them."""
    batch = list(first) if isinstance(first, list) else [first]
    while True:
        try:
            nxt = q.get_nowait()
        except (queue.Empty, asyncio.QueueEmpty):
            return batch, False
        if nxt is None:
            return batch, True
        if isinstance(nxt, list):
            batch.extend(nxt)
        else:
            batch.append(nxt)


class _EngineWriter:
    """The group-commit writer on the SQLAlchemy engine (PostgreSQL, SQLite ``:memory:``)."""

    def __init__(self, engine: AsyncEngine, fence: str | None = None) -> None:
        self.engine = engine
        self.fence = fence
        self.queue: asyncio.Queue[_Append | None] = asyncio.Queue()
        self.task = asyncio.ensure_future(self._run())

    def submit(self, item: _Append) -> None:
        self.queue.put_nowait(item)

    async def close(self) -> None:
        self.queue.put_nowait(None)
        await self.task

    async def _write(self, items: list[_Append]) -> None:
        rows = [r | {"payload": orjson.loads(r["payload"])} for it in items for r in it.rows]
        async with self.engine.begin() as conn:
            if self.fence is not None:
                ids = sorted({it.room_id for it in items})
                q = sa.select(leases_table.c.room_id).where(leases_table.c.owner == self.fence,
                                                            leases_table.c.room_id.in_(ids))
                if conn.dialect.name == "postgresql":
                    q = q.with_for_update(read=True)  # a takeover waits for this append, or this one fails
                held = set((await conn.execute(q)).scalars())
                lost = [rid for rid in ids if rid not in held]
                if lost:
                    raise LeaseLost(lost[0])
            await conn.execute(events_table.insert(), rows)
            for it in items:
                if it.room_values:
                    await conn.execute(rooms_table.update().where(rooms_table.c.id == it.room_id)
                                       .values(**it.room_values))

    async def _run(self) -> None:
        stop = False
        while not stop:
            first = await self.queue.get()
            if first is None:
                break
            batch, stop = _pending(first, self.queue)
            errors: list[BaseException | None]
            try:
                await self._write(batch)
                errors = [None] * len(batch)
            except Exception:  # noqa: BLE001 - retried one by one below
                errors = []
                for it in batch:
                    try:
                        await self._write([it])
                        errors.append(None)
                    except Exception as e:  # noqa: BLE001 - handed to the caller
                        errors.append(e)
            _resolve(batch, errors)


class Storage:
    """Async access to the database.  Create with :meth:`open` (connects and migrates)."""

    def __init__(self, engine: AsyncEngine, url: str) -> None:
        self.engine = engine
        self.url = url
        parsed = make_url(url)
        db = parsed.database
        self._sqlite_file = (str(Path(db).expanduser()) if parsed.get_backend_name() == "sqlite"
                             and db and db != ":memory:" and not db.startswith("file:") else None)
        self._writer: _SqliteWriter | _EngineWriter | None = None
        self.fence: str | None = None
        """In a cluster: this worker's name; every append checks, in its transaction, that the
        worker still holds the room's lease (:class:`LeaseLost` otherwise)."""

    @classmethod
    async def open(cls, url: str | None = None, *, migrate: bool = True) -> Storage:
        url = normalize_url(url or default_database_url())
        parsed = make_url(url)
        kwargs: dict[str, Any] = {}
        if parsed.get_backend_name() == "sqlite":
            path = parsed.database
            if path and path != ":memory:":
                Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
            kwargs["connect_args"] = {"timeout": BUSY_SECONDS}  # wait for another writer's lock
        else:
            kwargs.update(pool_size=10, max_overflow=10, pool_pre_ping=True)
        try:
            engine = create_async_engine(url, json_serializer=_json_text, json_deserializer=orjson.loads, **kwargs)
        except Exception as e:  # noqa: BLE001 - unknown driver, bad URL
            raise StorageError(f"cannot use database {parsed.render_as_string(hide_password=True)}: {e}") from None
        if parsed.get_backend_name() == "sqlite":
            @sa_event.listens_for(engine.sync_engine, "connect")
            def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
                cur = dbapi_conn.cursor()
                # WAL: readers do not block the writer; NORMAL sync is durable across app crashes.
                wal_mode(cur.execute)
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.close()
        storage = cls(engine, url)
        if migrate:
            try:
                await storage.migrate()
            except Exception as e:
                await engine.dispose()
                raise StorageError(f"cannot open database {parsed.render_as_string(hide_password=True)}: "
                                   f"{type(e).__name__}: {e}") from e
        return storage

    async def migrate(self) -> None:
        """Bring the schema to the newest migration (Alembic, programmatically)."""
        from alembic import command
        from alembic.config import Config

        def upgrade(sync_conn: sa.Connection) -> None:
            cfg = Config()
            cfg.set_main_option("script_location", str(MIGRATIONS))
            cfg.attributes["connection"] = sync_conn
            command.upgrade(cfg, "head")

        async with self.engine.begin() as conn:
            # Servers (or test processes) starting together on a fresh database would each create the
            # tables, and all but one fail. Each takes a lock held until its transaction ends, so the
            # next one in line finds the schema at head and has nothing to do.
            if conn.dialect.name == "postgresql":
                await conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            elif conn.dialect.name == "sqlite":
                await conn.exec_driver_sql("BEGIN IMMEDIATE")  # SQLite's write lock, taken before reading
            await conn.run_sync(upgrade)

    async def close(self) -> None:
        """Finish the pending appends, then close the connections."""
        if self._writer is not None:
            writer, self._writer = self._writer, None
            await writer.close()
        await self.engine.dispose()

    def _get_writer(self) -> _SqliteWriter | _EngineWriter:
        loop = asyncio.get_running_loop()
        w = self._writer
        if w is not None and (w.loop if isinstance(w, _SqliteWriter) else w.task.get_loop()) is not loop:
            w = None  # a storage reused from another event loop (tests): start afresh
        if w is None:
            w = (_SqliteWriter(self._sqlite_file, loop, self.fence) if self._sqlite_file
                 else _EngineWriter(self.engine, self.fence))
            self._writer = w
        return w

    @contextlib.asynccontextmanager
    async def begin_write(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction that reads what it then changes (leases): SQLite's write lock is
        taken at its start (``BEGIN IMMEDIATE``), so two processes cannot both read then write."""
        async with self.engine.begin() as conn:
            if conn.dialect.name == "sqlite":
                await conn.exec_driver_sql("BEGIN IMMEDIATE")
            yield conn

    # -- rooms ---------------------------------------------------------------------------
    async def create_room(self, row: RoomRow) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(rooms_table.insert().values(**row.__dict__))

    async def update_room(self, room_id: str, *, status: str | None = None, game: int | None = None,
                          updated: float) -> None:
        values: dict[str, Any] = {"updated": updated}
        if status is not None:
            values["status"] = status
        if game is not None:
            values["game"] = game
        async with self.engine.begin() as conn:
            await conn.execute(rooms_table.update().where(rooms_table.c.id == room_id).values(**values))

    async def stamp_alive(self, room_ids: Sequence[str], at: float) -> None:
        """Record that the server holding these rooms is alive at ``at`` (its heartbeat, and its
        last word at shutdown): after a crash, a room's clocks move by the time since."""
        ids = list(room_ids)
        if not ids:
            return
        async with self.engine.begin() as conn:
            for k in range(0, len(ids), 500):
                await conn.execute(rooms_table.update().where(rooms_table.c.id.in_(ids[k:k + 500])).values(alive=at))

    async def get_room(self, room_id: str) -> RoomRow | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(rooms_table.select().where(rooms_table.c.id == room_id))).first()
        return RoomRow(**row._mapping) if row else None

    async def count_lobby_rooms(self) -> int:
        """Rooms whose first game has not started yet."""
        async with self.engine.connect() as conn:
            n = await conn.scalar(sa.select(sa.func.count()).select_from(rooms_table).where(
                rooms_table.c.status == "lobby", rooms_table.c.game == 1))
        return int(n or 0)

    async def stale_lobby_rooms(self, before: float, limit: int = 200) -> list[str]:
        """Ids of rooms whose first game never started, created before ``before`` and
        without an event since then (at most ``limit``, oldest first)."""
        recent = sa.select(events_table.c.room_id).where(events_table.c.room_id == rooms_table.c.id,
                                                         events_table.c.at >= before)
        q = (sa.select(rooms_table.c.id)
             .where(rooms_table.c.status == "lobby", rooms_table.c.game == 1, rooms_table.c.created < before,
                    ~recent.exists())
             .order_by(rooms_table.c.created).limit(limit))
        async with self.engine.connect() as conn:
            return [r.id for r in await conn.execute(q)]

    async def delete_room(self, room_id: str) -> None:
        """Delete a room and everything of it (events, seats, chat), in one transaction."""
        async with self.engine.begin() as conn:
            for table in (events_table, seats_table):
                await conn.execute(table.delete().where(table.c.room_id == room_id))
            await conn.execute(chat_table.delete().where(chat_table.c.room_id == room_id))
            await conn.execute(rooms_table.delete().where(rooms_table.c.id == room_id))

    async def active_rooms(self) -> list[RoomRow]:
        """Rooms whose current game is not over, oldest first."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(rooms_table.select().where(rooms_table.c.status != "over")
                                      .order_by(rooms_table.c.created))
            return [RoomRow(**r._mapping) for r in rows]

    # -- events ---------------------------------------------------------------------------
    async def append_events(self, room_id: str, game: int, first_seq: int, payloads: Sequence[dict[str, Any]],
                            *, status: str | None = None, game_changed: bool = False) -> None:
        """Append events with versions ``first_seq``, ``first_seq + 1``, …, in one
        transaction (with the room's new status, if given); returns once committed.
        Appends of several rooms pending at once share a transaction (group commit)."""
        if not payloads:
            return
        at = float(payloads[-1]["at"])
        rows = [{"room_id": room_id, "seq": first_seq + i, "game": game, "type": p["type"],
                 "payload": _json_text(p), "at": float(p["at"])} for i, p in enumerate(payloads)]
        values: dict[str, Any] | None = None
        if status is not None or game_changed:
            values = {"updated": at}
            if status is not None:
                values["status"] = status
            if game_changed:
                values["game"] = game
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._get_writer().submit(_Append(room_id, rows, values, fut))
        await fut

    async def events(self, room_id: str, game: int | None = None, since: int = 0, *, until: int | None = None,
                     limit: int | None = None) -> list[EventRow]:
        """The room's events after version ``since`` and up to ``until`` (of one game, if
        given), in order; at most ``limit``."""
        q = sa.select(events_table.c.seq, events_table.c.game, events_table.c.payload).where(
            events_table.c.room_id == room_id, events_table.c.seq > since)
        if game is not None:
            q = q.where(events_table.c.game == game)
        if until is not None:
            q = q.where(events_table.c.seq <= until)
        q = q.order_by(events_table.c.seq)
        if limit is not None:
            q = q.limit(limit)
        async with self.engine.connect() as conn:
            rows = await conn.execute(q)
            return [EventRow(r.seq, r.game, r.payload) for r in rows]

    async def last_version(self, room_id: str) -> int:
        async with self.engine.connect() as conn:
            v = await conn.scalar(sa.select(sa.func.max(events_table.c.seq)).where(events_table.c.room_id == room_id))
        return int(v or 0)

    # -- seats -------------------------------------------------------------------------------
    async def add_seat(self, room_id: str, seat: SeatRow) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(seats_table.insert().values(room_id=room_id, **seat.__dict__))

    async def delete_seat(self, room_id: str, player_id: str) -> None:
        """Give up a seat for good (its token stops working; the log keeps what it did)."""
        async with self.engine.begin() as conn:
            await conn.execute(seats_table.delete().where(seats_table.c.room_id == room_id,
                                                          seats_table.c.player_id == player_id))

    async def revoke_seat(self, room_id: str, player_id: str) -> None:
        """The seat's token stops working (the host removed its player)."""
        async with self.engine.begin() as conn:
            await conn.execute(seats_table.update().where(seats_table.c.room_id == room_id,
                                                          seats_table.c.player_id == player_id)
                               .values(token_hash=REVOKED + player_id))

    async def seats(self, room_id: str) -> list[SeatRow]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(seats_table.select().where(seats_table.c.room_id == room_id)
                                      .order_by(seats_table.c.created, seats_table.c.player_id))
            return [SeatRow(r.player_id, r.name, r.token_hash, r.bot, r.level, r.created) for r in rows]

    # -- chat ----------------------------------------------------------------------------------
    async def add_chat(self, room_id: str, player_id: str | None, name: str, text: str, at: float) -> int:
        async with self.engine.begin() as conn:
            result = await conn.execute(chat_table.insert().values(room_id=room_id, player_id=player_id, name=name,
                                                                   text=text, at=at))
            key = result.inserted_primary_key
            assert key is not None
            return int(key[0])

    async def recent_chat(self, room_id: str, limit: int) -> list[dict[str, Any]]:
        """The last ``limit`` chat lines, oldest first, as ``chat`` messages."""
        async with self.engine.connect() as conn:
            rows = list(await conn.execute(chat_table.select().where(chat_table.c.room_id == room_id)
                                           .order_by(chat_table.c.id.desc()).limit(limit)))
        return [{"type": "chat", "id": r.id, "player": r.player_id, "name": r.name, "text": r.text, "at": r.at}
                for r in reversed(rows)]
