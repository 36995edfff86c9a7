"""Several server processes, one site: each room owned by exactly one worker at a time.

``ricochet serve --workers N`` (one machine) and ``ricochet serve --cluster-name NAME``
(one worker of a deployment, ``docs/deploy.md``) run workers that share one database.  A
proxy in front (HAProxy, :mod:`.proxy`) sends every request of a room to the same worker, by a
consistent hash of the room's id; which worker *holds* a room is decided by the database:

* **A lease per room** (table ``room_leases``): a worker loads a room only once it holds the
  room's lease; it renews its leases every :data:`RENEW_SECONDS` and gives a lease back when
  it lets the room go.  A lease not renewed for :data:`LEASE_SECONDS` may be taken by another
  worker — and on PostgreSQL at once when its owner's database session has ended (a worker
  killed with ``kill -9``: each worker holds an advisory lock named after itself for its
  life, which PostgreSQL releases with its connection).  A worker that finds a room held by a
  live worker asks for it (``wanted_by``); the owner closes the room's connections (they
  reconnect, through the proxy, to the asker) and gives the lease back.
* **Fencing**: every append to a room's event log checks, in its own transaction, that the
  appending worker still holds the room's lease (:attr:`Storage.fence`): a worker that lost
  a room (it stalled past its lease) can never write into the log of the room's new owner, and
  what it could not store it never acknowledged.
* **News between workers**: on PostgreSQL by ``LISTEN``/``NOTIFY`` (``asyncpg``): the asker
  notifies the owner's channel, which hands the room over at once; it notifies the asker's
  channel back when the lease is free.  Without PostgreSQL (SQLite: one machine) the same
  news waits for the next renewal (polling the table, :data:`RENEW_SECONDS`).  PostgreSQL
  is already the database of a deployment on several machines; Redis would be one more
  service to run, secure and watch, and its pub/sub news would not be in the transactions
  that take and give leases.
* **One lobby**: each worker writes the lobby lines of its public rooms into their lease rows
  (at each renewal, those that changed); every worker's lobby reads them all.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import orjson
import sqlalchemy as sa
from sqlalchemy.engine import make_url

from .refused import Refused
from .storage import Storage, leases_table

if TYPE_CHECKING:
    from .manager import RoomManager

__all__ = ["LEASE_SECONDS", "RENEW_SECONDS", "Cluster", "channel_of", "lock_key"]

log = logging.getLogger("ricochet.server")

LEASE_SECONDS = 6.0
"""How long a lease holds without renewal."""
RENEW_SECONDS = 1.0
"""How often a worker renews its leases, looks for rooms asked of it and writes its lobby lines."""
CLAIM_SECONDS = LEASE_SECONDS + 3.0
"""How long a worker waits for a room held by another before it says "try again"."""
LOBBY_ROOMS = 100


def lock_key(owner: str) -> int:
    """The PostgreSQL advisory lock (a signed 64-bit number) a worker holds for its life."""
    return int.from_bytes(hashlib.sha256(b"ricochet-worker:" + owner.encode()).digest()[:8], "big", signed=True)


def channel_of(owner: str) -> str:
    """The ``LISTEN`` channel of a worker (an identifier: letters and digits)."""
    return "ricochet_" + hashlib.sha256(owner.encode()).hexdigest()[:24]


class Cluster:
    """This worker's part in a cluster: its name (``name/incarnation``), its leases, its
    news.  ``clock``: seconds since the epoch (leases are compared across machines: keep
    their clocks synchronised, as any database-backed service needs)."""

    def __init__(self, storage: Storage, name: str, *, lease_seconds: float = LEASE_SECONDS,
                 renew_seconds: float = RENEW_SECONDS, clock: Callable[[], float] = time.time) -> None:
        self.storage = storage
        self.name = name
        self.owner = f"{name}/{secrets.token_hex(4)}"
        """This worker's name in the leases: its name and this run's incarnation."""
        self.lease_seconds = lease_seconds
        self.renew_seconds = renew_seconds
        self.clock = clock
        self.postgres = make_url(storage.url).get_backend_name() == "postgresql"
        self.manager: RoomManager | None = None
        self.news = asyncio.Event()
        """Set when a notification came (a lease freed, a room asked of us)."""
        self._listener: Any = None
        self._renewer: asyncio.Task[None] | None = None
        self._summaries: dict[str, bytes] = {}
        self._lobby: tuple[float, list[dict[str, Any]]] = (0.0, [])
        storage.fence = self.owner

    # -- life ------------------------------------------------------------------------------------
    async def start(self, manager: RoomManager) -> None:
        """Join: listen for news (PostgreSQL), hold this worker's liveness lock, renew leases."""
        self.manager = manager
        if self.postgres:
            import asyncpg

            url = make_url(self.storage.url).set(drivername="postgresql")
            self._listener = await asyncpg.connect(url.render_as_string(hide_password=False))
            await self._listener.execute("SELECT pg_advisory_lock($1)", lock_key(self.owner))
            await self._listener.add_listener(channel_of(self.owner), self._notified)
        self._renewer = asyncio.ensure_future(self._renew_loop())
        log.info("cluster: worker %s joined", self.owner)

    async def close(self) -> None:
        """Leave: stop renewing, give every lease back, stop listening."""
        if self._renewer is not None:
            self._renewer.cancel()
            with contextlib.suppress(BaseException):
                await self._renewer
        with contextlib.suppress(Exception):
            async with self.storage.engine.begin() as conn:
                await conn.execute(leases_table.delete().where(leases_table.c.owner == self.owner))
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await self._listener.close()

    def _notified(self, *_: Any) -> None:
        self.news.set()

    async def _notify(self, owner: str, what: str) -> None:
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await self._listener.execute("SELECT pg_notify($1, $2)", channel_of(owner), what)

    # -- leases ----------------------------------------------------------------------------------
    async def claim(self, room_id: str, wait: float = CLAIM_SECONDS) -> None:
        """Hold ``room_id``'s lease, waiting (up to ``wait`` s) for its owner to hand it over or
        to be gone; :class:`Refused` (try again) if it is not ours by then."""
        end = time.monotonic() + wait
        asked = False
        while True:
            holder = await self._try_take(room_id)
            if holder is None:
                return
            if not asked:
                asked = True
                await self._notify(holder, f"want {room_id}")
            left = end - time.monotonic()
            if left <= 0:
                raise Refused(f"room {room_id} is moving between servers: try again in a moment", "room_moving",
                              status=503, retry_after=1.0, close_code=1013)
            self.news.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.news.wait(), min(left, self.renew_seconds / 2))

    async def _try_take(self, room_id: str) -> str | None:
        """Take the lease if it is free, ours, expired or its owner is gone (None); else mark it
        wanted by us and return its owner."""
        now = self.clock()
        t = leases_table
        async with self.storage.begin_write() as conn:
            q = sa.select(t.c.owner, t.c.expires).where(t.c.room_id == room_id)
            row = (await conn.execute(q.with_for_update() if self.postgres else q)).first()
            if row is None:
                await conn.execute(t.insert().values(room_id=room_id, owner=self.owner, expires=now + self.lease_seconds,
                                                     created=now))
                return None
            owner, expires = row
            if owner == self.owner or expires < now or await self._gone(conn, owner):
                if owner != self.owner:
                    log.info("cluster: room %s taken over from %s", room_id, owner)
                await conn.execute(t.update().where(t.c.room_id == room_id).values(
                    owner=self.owner, expires=now + self.lease_seconds, wanted_by=None, summary=None))
                return None
            await conn.execute(t.update().where(t.c.room_id == room_id).values(wanted_by=self.owner))
            return str(owner)

    async def _gone(self, conn: Any, owner: str) -> bool:
        """Has ``owner``'s database session ended (PostgreSQL; elsewhere the lease must run out)?"""
        if not self.postgres:
            return False
        got = await conn.scalar(sa.text("SELECT pg_try_advisory_xact_lock(:k)"), {"k": lock_key(owner)})
        return bool(got)

    async def release(self, room_id: str) -> None:
        """Give a room's lease back (the room was let go); whoever asked for it is told."""
        t = leases_table
        async with self.storage.begin_write() as conn:
            wanted = await conn.scalar(sa.select(t.c.wanted_by).where(t.c.room_id == room_id, t.c.owner == self.owner))
            await conn.execute(t.delete().where(t.c.room_id == room_id, t.c.owner == self.owner))
        self._summaries.pop(room_id, None)
        if wanted:
            await self._notify(wanted, f"free {room_id}")

    async def held_elsewhere(self, room_id: str) -> bool:
        """Is the room held by another worker's live lease?"""
        t = leases_table
        async with self.storage.engine.connect() as conn:
            row = (await conn.execute(sa.select(t.c.owner, t.c.expires).where(t.c.room_id == room_id))).first()
        return row is not None and row.owner != self.owner and row.expires >= self.clock()

    async def _renew_loop(self) -> None:
        while True:
            try:
                await self.renew()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: renewing leases failed; trying again")
            self.news.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.news.wait(), self.renew_seconds)

    async def renew(self) -> None:
        """Renew our leases, let go of rooms asked of us or lost, write our lobby lines."""
        manager = self.manager
        assert manager is not None
        now = self.clock()
        t = leases_table
        async with self.storage.begin_write() as conn:
            await conn.execute(t.update().where(t.c.owner == self.owner).values(expires=now + self.lease_seconds))
            rows = (await conn.execute(sa.select(t.c.room_id, t.c.wanted_by).where(t.c.owner == self.owner))).all()
            held = {r.room_id: r.wanted_by for r in rows}
            lines = []
            for room in list(manager.rooms.values()):
                if room.id not in held:
                    continue
                line = orjson.dumps(room.summary()) if not room.private and room.status != "over" else b""
                if self._summaries.get(room.id) != line:
                    self._summaries[room.id] = line
                    lines.append({"rid": room.id, "summary": line.decode() or None})
            if lines:
                await conn.execute(t.update().where(t.c.room_id == sa.bindparam("rid"), t.c.owner == self.owner)
                                   .values(summary=sa.bindparam("summary")), lines)
        for room in list(manager.rooms.values()):
            if room.id not in held:
                log.warning("cluster: room %s is no longer ours (lease lost): letting it go", room.id)
                await manager.evict(room, release=False)
            elif held[room.id]:
                log.info("cluster: room %s asked for by %s: handing it over", room.id, held[room.id])
                await manager.evict(room)
        for rid in [r for r in held if r not in manager.rooms and r not in manager.loading]:
            await self.release(rid)  # a lease left over (a load that failed): give it back

    # -- the lobby -------------------------------------------------------------------------------
    async def lobby(self) -> list[dict[str, Any]]:
        """The public rooms in use on every worker, newest first (read at most once a second)."""
        now = time.monotonic()
        if now < self._lobby[0]:
            return self._lobby[1]
        t = leases_table
        async with self.storage.engine.connect() as conn:
            rows = (await conn.execute(sa.select(t.c.summary).where(t.c.summary.is_not(None),
                                                                    t.c.expires >= self.clock())
                                       .order_by(t.c.created.desc()).limit(LOBBY_ROOMS))).all()
        rooms = [orjson.loads(r.summary) for r in rows]
        self._lobby = (now + 1.0, rooms)
        return rooms

    @staticmethod
    async def clear_owner(storage: Storage, name: str) -> int:
        """Give back every lease of worker ``name`` (any incarnation): its process is known to be
        dead (the supervisor saw it exit).  Returns how many."""
        t = leases_table
        async with storage.begin_write() as conn:
            result = await conn.execute(t.delete().where(t.c.owner.like(f"{name}/%")))
        return int(result.rowcount or 0)
