"""The room manager: the rooms of the server that are in use.

A room is loaded from the database when someone needs it (a connection, a
request), unloaded once nobody has been connected to it for a while, and
deleted when it never started and nobody came
(:class:`~ricochet.server.limits.ServerLimits`).  Nothing is loaded at start: a
room resumes when its players come back.  The manager also counts connections
per address, rate-limits room creation and runs the server's own bots.

**Restarts are not charged to players.**  A room let go by its players pauses
its clocks (the game's ``pause``: ``game_paused``) and resumes them when it is
loaded again (``game_resumed``: every deadline moves by the pause).  A server
that stops — SIGTERM or ``kill -9`` — lets go of the rooms it holds without
pausing them, so the manager keeps, for each room in memory, the last time a
server holding it was known alive: ``rooms.alive`` in the database, stamped
every ``heartbeat_seconds`` (:meth:`RoomManager.heartbeat`) and once more at
shutdown.  When a room is loaded with a clock still running (not paused), the
server that held it stopped without letting it go: the room is paused as of
its *last alive* time — the later of that stamp and its last event, both moments
a server held it — and resumed now, the same two events as an idle room's.
A restart lasting N seconds (up to the room's loading) thus leaves every game
clock (sand clock, timer, demonstration, intermission, programming timer)
N seconds later than it was, give or take one heartbeat in the players' favour
after a ``kill -9``.  Seat grace periods count anew from the load (someone must
be back for an absent player's seat to run out: :meth:`Room.seat_deadline`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import math
import random
import secrets
import string
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..games import get_game
from . import protocol as P
from .limits import Buckets, FairShare, ServerLimits
from .refused import Refused
from .room import Room, Seat
from .solving import SolverService
from .storage import RoomRow, Storage

if TYPE_CHECKING:
    from .cluster import Cluster

__all__ = ["ConfigFactory", "RoomManager", "new_room_id", "valid_room_id"]

log = logging.getLogger("ricochet.server")

ROOM_ID_ALPHABET = string.ascii_lowercase + string.digits
ROOM_ID_LENGTH = 10

ConfigFactory = Callable[[Mapping[str, Any], int, int], Any]
"""``(options, room seed, game number) → config`` (default :func:`protocol.config_for`)."""


def new_room_id() -> str:
    return "".join(secrets.choice(ROOM_ID_ALPHABET) for _ in range(ROOM_ID_LENGTH))


class RoomManager:
    """The rooms of the server that are in use, loaded from the database on demand.

    ``now`` is the clock (seconds since the epoch; inject a fake one in tests);
    with ``realtime=False`` no ticker or sweeper tasks run and the caller calls
    :meth:`tick_all` (and :meth:`sweep`) after moving its clock.  ``bot_speed``
    scales the bots' thinking and move delays (0: instant).  ``limits`` bound
    rooms, connections and message rates; ``rate`` (messages per second,
    burst) overrides its per-seat rate."""

    def __init__(self, storage: Storage, *, now: Callable[[], float] = time.time, realtime: bool = True,
                 solver: SolverService | None = None, bot_speed: float = 1.0, bots: bool = True,
                 config_factory: ConfigFactory = P.config_for, rng: random.Random | None = None,
                 rate: tuple[float, int] | None = None, limits: ServerLimits | None = None,
                 cluster: Cluster | None = None) -> None:
        self.storage = storage
        self.cluster = cluster
        """This worker's part in a cluster of workers (``None``: the only process; :mod:`.cluster`)."""
        limits = limits or ServerLimits()
        if rate is not None:
            limits = dataclasses.replace(limits, message_rate=rate[0], message_burst=rate[1])
        self.limits = limits
        self.now = now
        self.realtime = realtime
        self.solver = solver or SolverService()
        self.bot_speed = bot_speed
        self.bots_enabled = bots
        self.config_factory = config_factory
        self.rng = rng or random.Random()
        self.rooms: dict[str, Room] = {}
        """The rooms in memory (at most ``limits.max_rooms``)."""
        self.bots: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self.message_buckets = Buckets(limits.message_rate, limits.message_burst)
        self.address_buckets = Buckets(limits.address_rate, limits.address_burst)
        self.total_rooms = FairShare(limits.total_rooms_per_second, floor=1)
        """The whole server's room creations per second, fairly shared among addresses."""
        self.total_messages = FairShare(limits.total_message_rate, floor=limits.message_rate)
        """The whole server's socket messages per second, fairly shared among addresses."""
        self.room_buckets = Buckets(limits.rooms_per_minute / 60, limits.room_burst)
        self.connections: dict[str, int] = {}
        """Open WebSocket connections by client address."""
        self.cooling: dict[str, float] = {}
        """Addresses whose new connections are refused until then (``time.monotonic``), after
        one of their connections was closed for flooding (:meth:`flooded`)."""
        self.closing = False
        """Set once the server is stopping: new connections are turned away."""
        self._sweeper: asyncio.Task[None] | None = None
        self._heart: asyncio.Task[None] | None = None

    # -- the life of the server ---------------------------------------------------------------------
    async def start(self) -> None:
        """Start sweeping idle and expired rooms.  No room is loaded now: each is
        loaded, and resumes, when someone comes back to it."""
        if self.realtime and self._sweeper is None:
            self._sweeper = asyncio.ensure_future(self._sweep_loop())
        if self.realtime and self._heart is None and self.limits.heartbeat_seconds:
            self._heart = asyncio.ensure_future(self._heartbeat_loop())
        if self.cluster is not None:
            await self.cluster.start(self)

    async def heartbeat(self) -> None:
        """Stamp every room in memory alive now (``rooms.alive``): see "Restarts" above."""
        await self.storage.stamp_alive(list(self.rooms), self.now())

    async def _heartbeat_loop(self) -> None:
        while True:
            await asyncio.sleep(self.limits.heartbeat_seconds)
            try:
                await self.heartbeat()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("could not stamp the rooms alive; trying again", exc_info=True)

    async def announce_restart(self, timeout: float = 1.0) -> None:
        """Tell every connected person the server is stopping (``server_restarting``,
        then close 1012) and give their connections up to ``timeout`` s to say it."""
        self.closing = True
        for room in list(self.rooms.values()):
            for s in list(room.sessions):
                if not s.bot:
                    s.error("server_restarting", "the server is restarting: reconnect in a moment",
                            retry_after=P.RESTART_RETRY)
                    s.close(1012, "server restarting")
        end = time.monotonic() + timeout
        while any(self.connections.values()) and time.monotonic() < end:
            await asyncio.sleep(0.02)

    async def close(self) -> None:
        self.closing = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._heart is not None:
            self._heart.cancel()
        try:  # the last word of this server: its rooms were alive until now
            await self.heartbeat()
        except Exception:
            log.warning("could not stamp the rooms alive at shutdown", exc_info=True)
        for task in list(self.bots.values()):
            task.cancel()
        for room in self.rooms.values():
            for s in list(room.sessions):
                s.error("server_restarting", "the server is restarting: reconnect in a moment",
                        retry_after=P.RESTART_RETRY)
                s.close(1012, "server restarting")
            room.stop()
        tasks = [*self.bots.values(), *(r.ticker for r in self.rooms.values() if r.ticker)]
        tasks += [t for r in self.rooms.values() for t in r.tasks]
        tasks += [t for t in (self._sweeper, self._heart) if t is not None]
        await asyncio.gather(*tasks, return_exceptions=True)
        self.bots.clear()
        if self.cluster is not None:
            await self.cluster.close()

    # -- connections ----------------------------------------------------------------------------------
    def admit(self, address: str) -> Refused | None:
        """Count a new connection from ``address``, or say why it is refused."""
        if self.closing:
            return Refused("the server is restarting: reconnect in a moment", "server_restarting", status=503,
                           close_code=1012, retry_after=P.RESTART_RETRY)
        lim = self.limits
        if lim.max_connections and sum(self.connections.values()) >= lim.max_connections:
            return Refused(f"the server has {lim.max_connections} connections open, the most it takes: try again "
                           "in a minute", "server_full", status=503, close_code=1013)
        until = self.cooling.get(address)
        if until is not None and time.monotonic() < until:
            return Refused("a connection from your address sent too many messages: new connections are refused "
                           f"for {math.ceil(until - time.monotonic())} s", "rate_limited", status=429, close_code=4429)
        if lim.connections_per_address and self.connections.get(address, 0) >= lim.connections_per_address:
            return Refused(f"{lim.connections_per_address} connections are open from your address, the most "
                           "allowed: close a tab (one connection per room is enough)", "too_many_connections",
                           status=429, close_code=4429)
        self.connections[address] = self.connections.get(address, 0) + 1
        return None

    def flooded(self, address: str | None) -> None:
        """One of ``address``'s connections was closed for flooding: refuse its new ones for
        ``flood_cooldown_seconds``."""
        if address is not None and self.limits.flood_cooldown_seconds:
            self.cooling[address] = time.monotonic() + self.limits.flood_cooldown_seconds

    def release(self, address: str) -> None:
        """A connection counted by :meth:`admit` ended."""
        n = self.connections.get(address, 0) - 1
        if n > 0:
            self.connections[address] = n
        else:
            self.connections.pop(address, None)

    # -- rooms -------------------------------------------------------------------------------------------
    async def _load(self, row: RoomRow) -> Room:
        await self._make_space()
        seats = [Seat(s.player_id, s.name, s.token_hash, s.bot, s.level, s.created)
                 for s in await self.storage.seats(row.id)]
        room = Room(self, row, seats)
        room.load_events(await self.storage.events(row.id, row.game), await self.storage.last_version(row.id))
        await self._clocks(room, lambda state, now: room.game.pause(state, self.last_alive(room, row)), "pause")
        await self._clocks(room, room.game.resume, "resume")
        self.rooms[room.id] = room
        self._activate(room)
        return room

    def _activate(self, room: Room) -> None:
        if self.realtime:
            room.start_ticker()
        room.schedule_jobs()
        for seat in room.seats.values():
            if seat.bot and room.seated(seat.player_id):
                self.start_bot(room, seat, room.bot_token(seat.player_id))

    async def _make_space(self) -> None:
        """Below ``max_rooms`` rooms in memory: unload the rooms idle longest, or :class:`Refused`."""
        cap = self.limits.max_rooms
        if not cap or len(self.rooms) < cap:
            return
        for room in sorted((r for r in self.rooms.values() if not r.attached), key=lambda r: r.idle_since):
            await self.unload(room)
            if len(self.rooms) < cap:
                return
        raise Refused(f"the server has {cap} rooms in use, the most it holds: try again in a few minutes",
                      "server_full", status=503, close_code=1013)

    async def create_room(self, options: Mapping[str, Any], address: str | None = None) -> Room:
        """A new room with normalised ``options`` (see :func:`protocol.normalize_options`), bots
        seated; :class:`Refused` when ``address`` created too many lately or the server has too
        many rooms waiting for players."""
        lim = self.limits
        if address is not None and not self.room_buckets.take(address):
            wait = self.room_buckets.wait(address)
            raise Refused(f"too many rooms created from your address: at most {lim.room_burst} at once, then "
                          f"{lim.rooms_per_minute:g} a minute; try again in {max(1, round(wait))} s", "rate_limited",
                          status=429, retry_after=wait, close_code=1013)
        if address is not None and not self.total_rooms.take(address):
            raise Refused("the server is creating many rooms at once: try again in a few seconds", "rate_limited",
                          status=429, retry_after=2.0, close_code=1013)
        if lim.max_lobby_rooms and await self.storage.count_lobby_rooms() >= lim.max_lobby_rooms:
            raise Refused(f"{lim.max_lobby_rooms} rooms are waiting for players, the most this server keeps: join "
                          "one of them, or try again later", "server_full", status=503, close_code=1013)
        await self._make_space()
        now = self.now()
        rid = new_room_id()
        game = get_game(options.get("game", P.DEFAULT_OPTIONS["game"]))
        row = RoomRow(rid, options.get("name") or f"Room {rid[:4]}", dict(options), bool(options["private"]),
                      "lobby", 1, secrets.randbits(62), now, now, game.name, game.version)
        await self.storage.create_room(row)
        room = Room(self, row, [])
        if self.cluster is not None:
            return room  # stored only: the worker its first connection reaches (the proxy's choice) loads it
        self.rooms[rid] = room
        if self.realtime:
            room.start_ticker()
        return room

    async def get_room(self, room_id: str) -> Room | None:
        """The room (from memory, or loaded from the database: finished rooms too);
        :class:`Refused` when memory is full of rooms in use."""
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        if not valid_room_id(room_id):
            return None
        fut = self._loading.get(room_id)
        if fut is None:
            fut = asyncio.ensure_future(self._fetch(room_id))
            self._loading[room_id] = fut
            fut.add_done_callback(lambda _: self._loading.pop(room_id, None))
        return await asyncio.shield(fut)  # a caller that gives up does not cancel the others' load

    async def _fetch(self, room_id: str) -> Room | None:
        row = await self.storage.get_room(room_id)
        if row is None:
            return None
        if self.cluster is None:
            return await self._load(row)
        await self.cluster.claim(room_id)  # this worker holds it from now on (or Refused: try again)
        try:
            row = await self.storage.get_room(room_id) or row  # as its last owner left it
            return await self._load(row)
        except BaseException:
            with contextlib.suppress(Exception):
                await self.cluster.release(room_id)
            raise

    @property
    def loading(self) -> set[str]:
        """Rooms being loaded now."""
        return set(self._loading)

    async def room_row(self, room_id: str) -> RoomRow | None:
        """The room's stored description, without loading it (replays)."""
        if not valid_room_id(room_id):
            return None
        return await self.storage.get_room(room_id)

    async def unload(self, room: Room, *, release: bool = True) -> bool:
        """Let go of a room nobody is connected to: its ticker, jobs and bots stop, its
        memory is freed; it is loaded again on use; its lease (:mod:`.cluster`) is given back
        unless ``release`` is False.  False if someone came meanwhile."""
        async with room.lock:
            if self.rooms.get(room.id) is not room or room.attached:
                return False
            await self._clocks(room, room.game.pause, "pause")
            room.unloaded = True
            del self.rooms[room.id]
            room.stop()
            for key in [k for k in self.bots if k[0] == room.id]:
                self.stop_bot(room, key[1])
        for s in list(room.sessions):  # the bots' in-process connections
            s.disconnect()
        if release and self.cluster is not None:
            with contextlib.suppress(Exception):
                await self.cluster.release(room.id)
        return True

    async def evict(self, room: Room, *, release: bool = True) -> None:
        """Let go of a room whoever is connected (another worker holds it now, or asked for it:
        :mod:`.cluster`): its people are told to reconnect (they reach the room's new worker
        through the proxy), then it is unloaded; its lease is given back unless ``release``
        is False (it was lost already)."""
        for s in list(room.sessions):
            if not s.bot:
                s.error("room_moving", "this room moves to another server: reconnecting", retry_after=0.25)
                s.close(1012, "room moved")
        await self.unload(room, release=release)

    def last_alive(self, room: Room, row: RoomRow) -> float:
        """When a server last held ``room`` alive, as loaded from ``row``: the later of its stamp
        (:meth:`heartbeat`) and its last event.  A room whose clocks still run (not paused) is
        paused as of then on loading: the time since was nobody's to play."""
        return max(row.alive or 0.0, room.last_event_at)

    async def _clocks(self, room: Room, change: Callable[[Any, float], tuple[Any, list[Any]]], what: str) -> None:
        """Pause a room's clocks as it is let go, resume them as it is loaded (the game's
        ``pause``/``resume``: nobody is kept waiting for a clock that ran out while nobody
        was there).  If the events cannot be stored, the room goes on as it is (a paused
        game resumes at its next action)."""
        try:
            _, events = change(room.state, self.now())
            if events:
                await room._commit(events)
        except Exception:
            log.warning("room %s: could not %s its clocks", room.id, what, exc_info=True)

    def abandoned(self, room: Room, now: float) -> bool:
        """A room that never started, with nobody connected and nothing happening for ``lobby_ttl_seconds``."""
        ttl = self.limits.lobby_ttl_seconds
        return bool(ttl) and room.game_number == 1 and room.status == "lobby" and not room.attached \
            and now - max(room.last_event_at, room.idle_since, room.created) >= ttl

    async def sweep(self) -> None:
        """Unload rooms idle for ``idle_seconds``, delete rooms abandoned before their
        first start (in memory and in the database), forget full rate buckets."""
        now = self.now()
        lim = self.limits
        for room in list(self.rooms.values()):
            if room.attached:
                continue
            if self.abandoned(room, now):
                if await self.unload(room):
                    await self.storage.delete_room(room.id)
                    log.info("room %s expired: never started, nobody came", room.id)
            elif lim.idle_seconds and now - room.idle_since >= lim.idle_seconds:
                await self.unload(room)
        if lim.lobby_ttl_seconds:
            for rid in await self.storage.stale_lobby_rooms(now - lim.lobby_ttl_seconds, limit=200):
                if self.cluster is not None and await self.cluster.held_elsewhere(rid):
                    continue  # loaded by another worker
                if rid not in self.rooms and rid not in self._loading:
                    await self.storage.delete_room(rid)
                    log.info("room %s expired: never started, nobody came", rid)
        for buckets in (self.message_buckets, self.address_buckets, self.room_buckets):
            buckets.prune()
        clock = time.monotonic()
        self.cooling = {a: until for a, until in self.cooling.items() if until > clock}

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_seconds or 10.0)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("sweeping idle rooms failed; trying again later")

    async def lobby_rooms(self) -> list[dict[str, Any]]:
        """The lobby: :meth:`public_rooms`, or in a cluster every worker's."""
        if self.cluster is not None:
            return await self.cluster.lobby()
        return self.public_rooms()

    def public_rooms(self) -> list[dict[str, Any]]:
        """Public rooms in use (in memory) that are not over, newest first."""
        rooms = [r for r in self.rooms.values() if not r.private and r.status != "over"]
        rooms.sort(key=lambda r: r.created, reverse=True)
        return [r.summary() for r in rooms[:100]]

    async def tick_all(self) -> None:
        """Tick every room now (tests with a fake clock; the tickers do this in real time)."""
        for room in list(self.rooms.values()):
            await room.tick()

    async def idle(self) -> None:
        """Wait for background work (solver reports) of every room to finish (tests)."""
        while True:
            tasks = [t for r in self.rooms.values() for t in r.tasks]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    # -- bots --------------------------------------------------------------------------------------
    def start_bot(self, room: Room, seat: Seat, token: str) -> None:
        if not self.bots_enabled or (room.id, seat.player_id) in self.bots:
            return
        from .bots import run_in_process_bot

        task = asyncio.ensure_future(run_in_process_bot(self, room.id, token, seat.level or "intermediate"))
        self.bots[(room.id, seat.player_id)] = task
        task.add_done_callback(lambda t: self.bots.pop((room.id, seat.player_id), None)
                               if self.bots.get((room.id, seat.player_id)) is t else None)

    def stop_bot(self, room: Room, player_id: str) -> None:
        task = self.bots.pop((room.id, player_id), None)
        if task is not None:
            task.cancel()


def valid_room_id(room_id: str) -> bool:
    """Could this be a room id (not too long, only the id alphabet)?"""
    return 0 < len(room_id) <= 16 and all(c in ROOM_ID_ALPHABET for c in room_id)
