"""Rooms, sessions and the lobby: the stateful shell around the pure game flows.

A :class:`Room` plays one game (:class:`ricochet.games.Game`, by the name
stored with the room) and owns its configuration and event log.  Its state
is the fold of the log; an action is checked by the game's ``apply``, the
events it produces are appended to the database *first*, then folded in and
broadcast with the room's increasing ``version``.  A ticker task per room
calls the game's ``tick`` at its next deadline, and the game's jobs (the
solver) run in the worker off the event loop.  Nothing here knows a
particular game.

A :class:`Session` is one connection (a WebSocket, or an in-process pipe for
bots) speaking the protocol of ``docs/protocol.md``.  The
:class:`RoomManager` holds the rooms in use: a room is loaded from the
database when someone needs it (a connection, a request), unloaded once
nobody has been connected to it for a while, and deleted when it never
started and nobody came (:class:`~ricochet.server.limits.ServerLimits`).
Nothing is loaded at start: a room resumes when its players come back.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import json
import logging
import math
import random
import secrets
import string
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..games import Game, GameError, Job, Query, get_game
from ..games.table import name_key
from . import protocol as P
from .limits import Buckets, ServerLimits
from .refused import Refused
from .solving import SolverService
from .storage import REVOKED, RoomRow, SeatRow, Storage, hash_token, revoked

log = logging.getLogger("ricochet.server")

ROOM_ID_ALPHABET = string.ascii_lowercase + string.digits
ROOM_ID_LENGTH = 10
BOT_NAMES = ("Ada", "Babbage", "Curie", "Dijkstra", "Euler", "Fermat", "Gauss", "Hopper", "Noether", "Turing",
             "Lovelace", "Shannon")
SEND_QUEUE = 2000
"""Messages queued for a slow connection before it is dropped."""
MAX_SEAT_ROWS = 64
"""Seats a room keeps; beyond, the oldest seat of someone no longer in the game is given up."""

ConfigFactory = Callable[[Mapping[str, Any], int, int], Any]
"""``(options, room seed, game number) → config`` (default :func:`protocol.config_for`)."""


def new_room_id() -> str:
    return "".join(secrets.choice(ROOM_ID_ALPHABET) for _ in range(ROOM_ID_LENGTH))


def dumps(msg: Mapping[str, Any]) -> str:
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


def public_options(row: RoomRow) -> dict[str, Any]:
    """A room's options as anyone may see them (not how its bots were asked for)."""
    return {k: v for k, v in row.options.items() if k != "bots"} | {"name": row.name, "game": row.game_name}


@dataclass
class Seat:
    """A seat of a room (a person or a bot), known by its token."""

    player_id: str
    name: str
    token_hash: str
    bot: bool = False
    level: str | None = None
    created: float = 0.0


class Room:
    """One room: its game, options, the current game's state (a fold of its log), sessions."""

    def __init__(self, manager: RoomManager, row: RoomRow, seats: list[Seat]) -> None:
        self.manager = manager
        self.id = row.id
        self.name = row.name
        self.options = row.options
        self.private = row.private
        self.seed = row.seed
        self.created = row.created
        self.game: Game = get_game(row.game_name)
        """What the room plays."""
        self.game_number = row.game
        """The number of the room's current game (1, then +1 at each restart)."""
        if row.game_version > self.game.version:
            raise RuntimeError(f"room {row.id} was written by {self.game.title} event format {row.game_version}, "
                               f"newer than this server's {self.game.version}: upgrade the server")
        self.config = manager.config_factory(self.options, self.seed, self.game_number)
        self.state: Any = self.game.new(self.config)
        self.version = 0
        self.game_start_version = 0
        """Version of the ``game_reset`` that opened the current game (0 for the first game)."""
        self.log: deque[tuple[int, str]] = deque(maxlen=P.MISSED_LIMIT)
        """The current game's last public events (``game_reset`` included) with their versions, as
        JSON text (what ``missed`` can send, no more): strings are not tracked by the garbage
        collector, whose full passes would otherwise scan every event of every room."""
        self.seats: dict[str, Seat] = {s.player_id: s for s in seats}
        self.sessions: set[Session] = set()
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.jobs: dict[Any, asyncio.Task[None]] = {}
        """The game's jobs running now, by key."""
        self.warmed: set[Any] = set()
        """Keys of finished jobs that only warmed the cache (not run again)."""
        self.tasks: set[asyncio.Task[Any]] = set()
        self.ticker: asyncio.Task[None] | None = None
        self.attached = 0
        """Connections of people (not bots) holding this room, welcomed or not: it is not unloaded meanwhile."""
        self.idle_since = manager.now()
        """When the last person's connection ended (or the room was loaded)."""
        self.last_event_at = row.created
        self.away: dict[str, float] = {}
        """Seated people without a connection, since when (their seat expires after the grace period)."""
        self.unloaded = False
        self.stopped = False
        """Set by :meth:`stop`: the ticker ends."""

    # -- loading ----------------------------------------------------------------------------
    def load_events(self, rows: list[Any], last_version: int = 0) -> None:
        """Fold the stored log of the current game (rows of :class:`EventRow`, in order);
        ``last_version`` is the room's last version (of any game)."""
        game = self.game
        state = game.new(self.config)
        self.version = last_version
        keep_from = (rows[-1].seq if rows else 0) - P.MISSED_LIMIT  # only these go into self.log
        for r in rows:
            self.version = max(self.version, r.seq)
            if r.game != self.game_number:
                continue
            if r.payload["type"] == "game_reset":
                self.game_start_version = r.seq
                text = dumps(r.payload) if r.seq > keep_from else ""
            else:
                event = game.event_from_dict(r.payload)
                state = game.evolve(state, event)
                text = dumps(game.public_event(event)) if r.seq > keep_from else ""
            if r.seq > keep_from:
                self.log.append((r.seq, text))
            self.last_event_at = max(self.last_event_at, float(r.payload.get("at", 0.0)))
        self.state = state
        now = self.manager.now()
        self.away = {p.id: now for p in game.players(state)
                     if p.seated and p.id in self.seats and not self.seats[p.id].bot}

    @property
    def status(self) -> str:
        return self.game.status(self.state)

    # -- views ---------------------------------------------------------------------------------
    def view(self, player: str | None) -> dict[str, Any]:
        """The whole state as ``player`` may see it (``None``: a spectator)."""
        v = self.game.view(self.state, player)
        v["version"] = self.version
        return v

    def presence(self) -> dict[str, Any]:
        online = {s.player for s in self.sessions if s.player is not None}
        seats = []
        for p in self.game.players(self.state):
            if not p.seated:
                continue
            seat = self.seats.get(p.id)
            seats.append({"player": p.id, "name": p.name, "bot": bool(seat and seat.bot),
                          "level": seat.level if seat else None, "online": p.id in online})
        return {"seats": seats, "spectators": sum(1 for s in self.sessions if s.player is None)}

    def info(self, protocol: int = P.PROTOCOL_VERSION) -> dict[str, Any]:
        """The room as ``welcome`` describes it (protocol 1: ``game`` is the game number)."""
        out = {"room_id": self.id, "name": self.name, "private": self.private, "game": self.game.name,
               "game_number": self.game_number, "title": self.game.title, "options": self.public_options()}
        if protocol < 2:
            out["game"] = self.game_number
        return out

    def summary(self) -> dict[str, Any]:
        pres = {s["player"]: s for s in self.presence()["seats"]}
        return {
            "room_id": self.id, "name": self.name, "private": self.private, "status": self.status,
            "phase": self.game.phase(self.state), "created": self.created, "url": f"/r/{self.id}",
            "game": self.game.name, "title": self.game.title, "game_number": self.game_number,
            "players": [{"id": p.id, "name": p.name, "bot": pres[p.id]["bot"], "online": pres[p.id]["online"],
                         "score": p.score} for p in self.game.players(self.state) if p.id in pres],
            "spectators": sum(1 for s in self.sessions if s.player is None), "options": self.public_options(),
        }

    def public_options(self) -> dict[str, Any]:
        return public_options(self.row())

    def row(self) -> RoomRow:
        """The room as stored (its status and game of now)."""
        return RoomRow(self.id, self.name, self.options, self.private, self.status, self.game_number, self.seed,
                       self.created, self.created, self.game.name, self.game.version)

    def missed(self, since: int | None) -> list[dict[str, Any]] | None:
        if since is None or since < self.game_start_version or since > self.version:
            return None
        if self.version - since > P.MISSED_LIMIT:
            return None
        return [{"version": v, "event": json.loads(text)} for v, text in self.log if v > since]

    def broadcast(self, msg: Mapping[str, Any]) -> None:
        self.broadcast_text(dumps(msg))

    def broadcast_text(self, text: str) -> None:
        for s in list(self.sessions):
            s.deliver(text)

    def broadcast_presence(self) -> None:
        self.broadcast({"type": "presence", **self.presence()})

    # -- changing the game ------------------------------------------------------------------------
    async def act(self, action: Any) -> None:
        """Apply an action now (clocks first), persist and broadcast; :class:`GameError` if refused."""
        async with self.lock:
            await self._act_locked(action)

    async def _act_locked(self, action: Any) -> list[Any]:
        if self.unloaded:  # a stale reference: the room lives on in a newer object (or nowhere)
            raise Refused("this room was closed for a moment: reconnect", "server_restarting")
        now = self.manager.now()
        _, due = self.game.tick(self.state, now)
        if due:
            await self._commit(due)
        _state, events = self.game.apply(self.state, action, now)
        await self._commit(events)
        return events

    async def tick(self) -> None:
        """Let time pass: run out clocks that are due, free the seats of people away too long."""
        async with self.lock:
            if self.unloaded:
                return
            now = self.manager.now()
            _, events = self.game.tick(self.state, now)
            if events:
                await self._commit(events)
            await self._expire_seats(now)

    async def _commit(self, events: list[Any], *, reset_to: int | None = None, reset_state: Any = None) -> None:
        """Persist events, then fold, broadcast and react to them.  With ``reset_to``
        a ``game_reset`` to that game comes first and ``events`` belong to it."""
        game = self.game
        payloads = [e.to_dict() for e in events]
        if reset_to is not None:
            payloads.insert(0, {"type": "game_reset", "game": reset_to, "at": self.manager.now()})
        if not payloads:
            return
        state = reset_state if reset_to is not None and reset_state is not None else self.state
        number = reset_to if reset_to is not None else self.game_number
        states: list[Any] = []
        for e in events:
            state = game.evolve(state, e)
            states.append(state)
        texts = [dumps(game.public_event(e)) for e in events]
        if reset_to is not None:
            states.insert(0, reset_state if reset_state is not None else game.new(self.config))
            texts.insert(0, dumps(payloads[0]))
        new_status = game.status(state)
        append = asyncio.ensure_future(self.manager.storage.append_events(
            self.id, number, self.version + 1, payloads,
            status=new_status if (new_status != self.status or reset_to is not None) else None,
            game_changed=reset_to is not None))
        cancelled = False
        while not append.done():  # once handed to the writer, the events may be stored whatever we do:
            try:                  # a cancelled caller still folds them, so versions follow the log
                await asyncio.shield(append)
            except asyncio.CancelledError:
                if append.cancelled():
                    raise
                cancelled = True
        append.result()  # the database's error, if any: nothing was stored and nothing changes
        if reset_to is not None:
            self.game_number = reset_to
            self.log.clear()
            self.game_start_version = self.version + 1
            self.warmed.clear()
        now = self.manager.now()
        self.last_event_at = max(self.last_event_at, now)
        presence_changed = False
        for payload, text, st in zip(payloads, texts, states, strict=True):
            self.version += 1
            self.log.append((self.version, text))
            self.state = st
            kind_of_event = payload["type"]
            if self.sessions:  # the event's JSON is encoded once, for the log and the message
                view = game.event_state(st, kind_of_event)
                view["version"] = self.version
                self.broadcast_event(f'{{"type":"event","version":{self.version},"server_time":{json.dumps(now)},'
                                     f'"event":{text},"state":{dumps(view)}', st)
            presence_changed |= kind_of_event in ("player_joined", "player_left", "game_reset")
        self.state = state
        if presence_changed and self.sessions:
            self.broadcast_presence()
        self.schedule_jobs()
        self.wake.set()
        if cancelled:
            raise asyncio.CancelledError

    def broadcast_event(self, head: str, state: Any) -> None:
        """Send an event message (``head`` lacks its closing brace) to every session,
        with the ``private`` part of the game's state for those who have one."""
        public = head + "}"
        for s in list(self.sessions):
            own = self.game.private(state, s.player) if s.player is not None else None
            s.deliver(public if own is None else f'{head},"private":{dumps(own)}}}')

    # -- the game's jobs (the solver) -----------------------------------------------------------------
    def schedule_jobs(self) -> None:
        """Start the jobs the game wants now and are not running or done."""
        for job in self.game.jobs(self.state):
            if job.key not in self.jobs and not (job.to_action is None and job.key in self.warmed):
                task = asyncio.ensure_future(self._run_job(job))
                self.jobs[job.key] = task
                self.tasks.add(task)
                task.add_done_callback(self._job_done)

    def _job_done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("room %s: a job failed", self.id, exc_info=task.exception())

    async def _run_job(self, job: Job) -> None:
        try:  # shielded: the future is shared (same key, other rooms, bots); leaving must not cancel it
            result = await asyncio.shield(self.manager.solver.run(job))
        finally:
            self.jobs.pop(job.key, None)
        async with self.lock:
            # The game decides with the state of now, not of when the job began.
            wanted = next((j for j in self.game.jobs(self.state) if j.key == job.key), None)
            if wanted is None:
                return
            if wanted.to_action is None:
                self.warmed.add(job.key)
                return
            await self._act_locked(wanted.to_action(result))

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)

        def done(t: asyncio.Task[Any]) -> None:
            self.tasks.discard(t)
            if not t.cancelled() and t.exception() is not None:
                log.error("room %s: background task failed", self.id, exc_info=t.exception())
        task.add_done_callback(done)

    # -- the ticker ----------------------------------------------------------------------------------
    def start_ticker(self) -> None:
        if self.ticker is None:
            self.ticker = asyncio.ensure_future(self._tick_loop())

    def next_deadline(self) -> float | None:
        """When :meth:`tick` has something to do: the game's next clock or a seat's grace running out."""
        times = [t for t in (self.game.deadline(self.state), self.seat_deadline()) if t is not None]
        return min(times, default=None)

    def stop(self) -> None:
        """Cancel the ticker and background tasks (the room is unloaded or the server stops)."""
        self.stopped = True  # the ticker also checks this: wait_for may swallow a cancellation (Python 3.11)
        self.wake.set()
        if self.ticker is not None:
            self.ticker.cancel()
        for t in list(self.tasks):
            t.cancel()

    async def _tick_loop(self) -> None:
        while not self.stopped:
            self.wake.clear()
            deadline = self.next_deadline()
            if deadline is None:
                await self.wake.wait()
                continue
            delay = deadline - self.manager.now()
            if delay > 0:
                try:
                    await asyncio.wait_for(self.wake.wait(), delay + 0.002)
                    continue  # something changed: look again
                except TimeoutError:
                    pass
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("room %s: tick failed; retrying", self.id)
                await asyncio.sleep(1.0)

    # -- seats ---------------------------------------------------------------------------------------
    def seat_by_token(self, token: str) -> Seat | None:
        h = hash_token(token)
        for seat in self.seats.values():
            if not revoked(seat.token_hash) and secrets.compare_digest(seat.token_hash, h):
                return seat
        return None

    def bot_token(self, player_id: str) -> str:
        """A bot's seat token: derived from the room's secret seed, so it survives restarts."""
        return hash_token(f"bot:{self.seed}:{player_id}")[:32]

    def _check_room_for(self, bot: bool) -> None:
        seated = [p for p in self.game.players(self.state) if p.seated]
        if len(seated) >= P.MAX_SEATS:
            raise Refused(f"the room is full ({P.MAX_SEATS} seats): watch as a spectator", "full")
        if bot and sum(1 for p in seated if self.seats.get(p.id) and self.seats[p.id].bot) >= P.MAX_BOTS:
            raise Refused(f"at most {P.MAX_BOTS} bots per room", "full")

    async def add_seat(self, name: str, *, bot: bool = False, level: str | None = None) -> tuple[Seat, str]:
        """Seat a new player (``Join``): the seat and its secret token.  Locked by the caller."""
        self._check_room_for(bot)
        players = self.game.players(self.state)
        if len(players) >= P.MAX_PLAYERS_PER_GAME:  # who left keeps a line in the game: join/leave cycles add up
            raise Refused(f"{len(players)} different players have sat in this game, the most it keeps: "
                                "watch as a spectator, or join the next game", "full")
        pid = f"{'b' if bot else 'p'}{self._next_seat_number()}"
        now = self.manager.now()
        self.game.apply(self.state, self.game.join(pid, name), now)  # refuse before anything is stored
        await self._reclaim_seat()
        token = self.bot_token(pid) if bot else secrets.token_urlsafe(24)
        seat = Seat(pid, name, hash_token(token), bot, level, now)
        await self.manager.storage.add_seat(self.id, SeatRow(pid, name, seat.token_hash, bot, level, now))
        self.seats[pid] = seat
        await self._act_locked(self.game.join(pid, name))
        return seat, token

    def _next_seat_number(self) -> int:
        numbers = [int(p[1:]) for p in self.seats if p[1:].isdigit()]
        return max(numbers, default=0) + 1

    async def _reclaim_seat(self) -> None:
        """Keep at most :data:`MAX_SEAT_ROWS` seats: give up the oldest seat of a person no
        longer in the game (who left the lobby), or refuse (``full``)."""
        if len(self.seats) < MAX_SEAT_ROWS:
            return
        in_game = {p.id for p in self.game.players(self.state)}
        online = {s.player for s in self.sessions}
        old = [s for s in self.seats.values() if not s.bot and s.player_id not in in_game
               and s.player_id not in online]
        if not old:
            raise Refused(f"this room has kept {len(self.seats)} seats, the most it may: "
                                "watch as a spectator", "full")
        oldest = min(old, key=lambda s: (s.created, s.player_id))
        await self.manager.storage.delete_seat(self.id, oldest.player_id)
        del self.seats[oldest.player_id]

    def bot_name(self, level: str) -> str:
        taken = {name_key(p.name) for p in self.game.players(self.state) if p.seated}
        label = self.game.bot_name(level)
        for n in BOT_NAMES:
            name = f"{n} ({label})"
            if name_key(name) not in taken:
                return name
        return f"Bot {self._next_seat_number()} ({label})"

    # -- people coming and going ---------------------------------------------------------------------
    def humans_online(self) -> set[str]:
        """Players with a welcomed connection of a person (not a bot)."""
        return {s.player for s in self.sessions if s.player is not None and not s.bot}

    def grace(self) -> float | None:
        """Seconds a seated person may be away before their seat is freed (``None``: never)."""
        g = self.options.get("seat_grace_seconds", P.COMMON_OPTIONS["seat_grace_seconds"])
        return None if g is None else float(g)

    def seat_deadline(self) -> float | None:
        """When the next seat of someone away expires.  Seats expire only while someone
        else is here to wait for them: in an empty room nobody is kept waiting."""
        grace = self.grace()
        if grace is None or not self.away or not self.humans_online() or self.status == "over":
            return None
        return min(self.away.values()) + grace

    def came(self, session: Session) -> None:
        """A person's connection was welcomed (bots are never away)."""
        if session.bot:
            return
        if not self.humans_online():  # the grace of those away counts from when someone is here
            now = self.manager.now()
            self.away = dict.fromkeys(self.away, now)
        if session.player is not None:
            self.away.pop(session.player, None)
        self.wake.set()

    def went(self, session: Session) -> None:
        """A welcomed connection ended: its player is away if it was their last one."""
        if session.bot or session.player is None:
            return
        p = session.player
        if self.seated(p) and p not in self.humans_online():
            self.away[p] = self.manager.now()
            self.wake.set()

    async def _expire_seats(self, now: float) -> None:
        """Free the seats of people away for longer than the grace period (``Leave``).  Locked."""
        deadline = self.seat_deadline()
        if deadline is None or now < deadline:
            return
        grace = self.grace()
        assert grace is not None
        online = self.humans_online()
        for p, since in sorted(self.away.items(), key=lambda kv: kv[1]):
            if p in online or not self.seated(p):
                self.away.pop(p, None)
            elif now >= since + grace:
                self.away.pop(p, None)
                log.info("room %s: %s was away %.0f s: seat freed", self.id, p, now - since)
                await self._act_locked(self.game.leave(p))

    async def remove_player(self, player: str) -> None:
        """The host sends a person away: their seat is freed and its token stops working."""
        async with self.lock:
            seat = self.seats[player]
            await self.manager.storage.revoke_seat(self.id, player)
            seat.token_hash = REVOKED + player
            self.away.pop(player, None)
            if self.seated(player) and self.status != "over":
                await self._act_locked(self.game.leave(player))
        for s in list(self.sessions):
            if s.player == player:
                s.error("removed", "the host removed you from this game: you may watch, or join again")
                s.close(4403, "removed by the host")

    async def add_bot(self, level: str, name: str | None = None) -> Seat:
        if level not in self.game.bot_levels:
            raise Refused(f"level must be one of {', '.join(self.game.bot_levels)} in {self.game.title}, "
                                f"got {level!r}")
        async with self.lock:
            seat, token = await self.add_seat(name or self.bot_name(level), bot=True, level=level)
        self.manager.start_bot(self, seat, token)
        return seat

    def seated(self, player: str | None) -> bool:
        me = self.player(player)
        return me is not None and me.seated

    def player(self, player: str | None) -> Any:
        return next((p for p in self.game.players(self.state) if p.id == player), None)

    async def restart(self, player: str) -> None:
        """The host opens a new game in this room: the current one ends, everyone is seated again."""
        async with self.lock:
            game, s = self.game, self.state
            host = game.host(s)
            if not self.seated(player):
                raise GameError("you are not in this game: join it first", "not_seated")
            if host != player:
                raise GameError(f"only the host ({getattr(self.player(host), 'name', host)}) can restart",
                                "not_host")
            if game.phase(s) == "lobby":
                raise GameError("the game has not started yet: start it instead", "phase")
            if game.status(s) != "over":
                await self._act_locked(game.end(player))
            old = self.state
            number = self.game_number + 1
            config = self.manager.config_factory(self.options, self.seed, number)
            fresh = game.new(config)
            seated = [p for p in game.players(old) if p.seated]
            order = sorted(seated, key=lambda p: p.id != host)  # the host first: host again
            state, joins = fresh, []
            now = self.manager.now()
            for p in order:
                state, ev = game.apply(state, game.join(p.id, p.name), now)
                joins.extend(ev)
            self.config = config
            await self._commit(joins, reset_to=number, reset_state=fresh)


class Session:
    """One connection to a room, whatever carries it (WebSocket or in-process).

    ``send`` queues a text for the client and returns ``False`` when the queue
    is full; ``close(code, reason)`` ends the connection after what is queued.
    ``address`` is the client's (for the per-address rate limit; ``None``: in
    process); ``bot``: one of the server's own bots (never away, never keeps a
    room loaded).  A session holds its room from creation to :meth:`disconnect`."""

    _numbers = itertools.count(1)

    def __init__(self, manager: RoomManager, room: Room, send: Callable[[str], bool],
                 close: Callable[[int, str], None], *, address: str | None = None, bot: bool = False) -> None:
        self.manager = manager
        self.room = room
        self._send = send
        self._close = close
        self.address = address
        self.bot = bot
        self.number = next(Session._numbers)
        self.player: str | None = None
        self.name: str | None = None
        self.spectator = False
        self.protocol = P.PROTOCOL_VERSION
        self.welcomed = False
        self.closed = False
        self.drops: deque[float] = deque()
        self.throttled = False
        """A message was just dropped by the rate limits (see :meth:`read_pause`)."""
        self._holds_room = not bot
        if self._holds_room:
            room.attached += 1

    # -- output ---------------------------------------------------------------------------------
    def deliver(self, text: str) -> None:
        if self.closed:
            return
        if not self._send(text):
            log.warning("room %s: dropping a connection that does not keep up", self.room.id)
            self.close(1008, "too slow: reconnect")

    def send(self, msg: Mapping[str, Any]) -> None:
        self.deliver(dumps(msg))

    def error(self, code: str, message: str, ref: object = None) -> None:
        self.send(P.error_message(code, message, ref))

    def close(self, code: int, reason: str) -> None:
        if not self.closed:
            self.closed = True
            self.disconnect()
            self._close(code, reason)

    def disconnect(self) -> None:
        """The connection is gone: stop broadcasting to it, let go of the room."""
        self.closed = True
        room = self.room
        if self._holds_room:
            self._holds_room = False
            room.attached -= 1
            if not room.attached:
                room.idle_since = self.manager.now()
        if self in room.sessions:
            room.sessions.discard(self)
            room.went(self)
            room.broadcast_presence()

    def _allowed(self) -> bool:
        """Rate limits: the client address's bucket, then the seat's (every connection of a seat
        shares it) or, for spectators and before ``hello``, the connection's own."""
        m = self.manager
        if self.address is not None and not m.address_buckets.take(self.address):
            return False
        return m.message_buckets.take(self._bucket_key())

    def _bucket_key(self) -> tuple[Any, ...]:
        return ("seat", self.room.id, self.player) if self.player is not None else ("connection", self.number)

    def read_pause(self) -> float:
        """After a dropped message: how long to read nothing more from this connection (the
        time until it may send again, at most :data:`protocol.DROP_PAUSE`).  A flooder is then
        held back by TCP itself: each of its connections costs the server at most one read,
        parse and answer per pause, not one per message it manages to write."""
        if not self.throttled:
            return 0.0
        self.throttled = False
        m = self.manager
        wait = m.message_buckets.wait(self._bucket_key())
        if self.address is not None:
            wait = max(wait, m.address_buckets.wait(self.address))
        return min(wait, P.DROP_PAUSE)

    # -- input ------------------------------------------------------------------------------------
    async def receive(self, text: str | bytes) -> None:
        """Handle one frame from the client: an answer, an error message, or broadcast events."""
        if self.closed:
            return
        if not self._allowed():
            self.throttled = True
            now = time.monotonic()
            self.drops.append(now)
            while self.drops and self.drops[0] < now - P.FLOOD_WINDOW:
                self.drops.popleft()
            if len(self.drops) > P.FLOOD_DROPS:
                self.error("rate_limited", "too many messages: closing the connection")
                self.close(4429, "rate limit")
                self.manager.flooded(self.address)
                return
            limits = self.manager.limits
            self.error("rate_limited", f"too many messages: at most {limits.message_burst} at once and "
                                       f"{limits.message_rate:g} per second per player (and "
                                       f"{limits.address_rate:g} per second from one address); "
                                       "this one was dropped")
            return
        ref: object = None
        try:
            msg = P.parse_message(text, self.room.game.name)
            ref = msg.get("ref")
            if msg["type"] == "hello":
                await self._hello(msg)
                return
            if msg["type"] == "ping":  # allowed before hello too: keep-alives and round trips
                self.send({"type": "pong", "server_time": self.manager.now()})
                return
            if not self.welcomed:
                raise Refused("send hello first", "not_welcomed")
            await self._dispatch(msg)
            if ref is not None:
                self.send({"type": "ack", "ref": ref})
        except Refused as e:
            self.error(e.code, e.message, ref if e.ref is None else e.ref)
            if e.close_code is not None:
                self.close(e.close_code, e.code)
        except GameError as e:
            self.error(e.code, e.message, ref)
        except Exception:
            log.exception("room %s: message failed", self.room.id)
            self.error("server_error", "something went wrong on the server; nothing was changed", ref)

    async def _hello(self, msg: dict[str, Any]) -> None:
        if self.welcomed:
            raise Refused("hello was already sent on this connection (send sync to catch up)")
        room = self.room
        game = room.game
        if msg["protocol"] < game.min_protocol:
            raise Refused(f"this room plays {game.title}, which needs protocol {P.PROTOCOL_VERSION} "
                          f"(you speak {msg['protocol']}): reload the page", "protocol", close_code=4400)
        self.protocol = msg["protocol"]
        token_out: str | None = None
        if msg["seat_token"] is not None:
            seat = room.seat_by_token(msg["seat_token"])
            if seat is None:
                raise Refused("this seat token is not valid in this room: send hello again without it "
                                    "to join as a new player", "bad_token")
            self.player, self.name, token_out = seat.player_id, seat.name, msg["seat_token"]
            me = room.player(seat.player_id)
            if (me is None or not me.seated) and room.status != "over" and not seat.bot:
                try:
                    await room.act(game.join(seat.player_id, seat.name))  # back after a leave
                except GameError:
                    pass
        elif msg["spectate"]:
            self.spectator = True
            self.name = msg["name"]
        else:
            if not msg["name"]:
                raise Refused("hello needs a name to join (or \"spectate\": true to watch)")
            async with room.lock:
                seat, token_out = await room.add_seat(msg["name"])
            self.player, self.name = seat.player_id, seat.name
            if (room.game_number == 1 and room.options.get("bots") and len(room.seats) == 1):
                for b in room.options["bots"]:  # the room's bots sit down after the first person (the host)
                    await room.add_bot(b["level"], b.get("name"))
        chat = await self.manager.storage.recent_chat(room.id, P.CHAT_HISTORY)
        async with room.lock:  # no event may slip between the welcome's state and the next broadcast
            if self.closed:  # gone while we waited
                return
            self.welcomed = True
            room.came(self)
            room.sessions.add(self)
            welcome = {
                "type": "welcome", "protocol": self.protocol, "server_time": self.manager.now(),
                "room": room.info(self.protocol),
                "you": {"player": self.player, "name": self.name, "seat_token": token_out,
                        "spectator": self.player is None, "host": self.player is not None
                        and game.host(room.state) == self.player},
                "version": room.version, "state": room.view(self.player), "missed": room.missed(msg["since"]),
                "presence": room.presence(), "chat": chat,
            }
            own = game.private(room.state, self.player) if self.player is not None else None
            if own is not None:
                welcome["private"] = own
            self.send(welcome)
            presence = dumps({"type": "presence", **room.presence()})
            for other in list(room.sessions):
                if other is not self:
                    other.deliver(presence)

    def _seated(self) -> str:
        if self.player is None:
            raise Refused("spectators cannot play: join the room with a name to play", "spectator")
        return self.player

    def _host(self) -> str:
        me = self._seated()
        host = self.room.game.host(self.room.state)
        if host != me:
            raise GameError(f"only the host ({getattr(self.room.player(host), 'name', host)}) can do this",
                            "not_host")
        return me

    async def _dispatch(self, msg: dict[str, Any]) -> None:
        room = self.room
        game = room.game
        kind = msg["type"]
        if kind == "ping":
            self.send({"type": "pong", "server_time": self.manager.now()})
        elif kind == "sync":
            async with room.lock:
                reply = {"type": "sync", "version": room.version, "server_time": self.manager.now(),
                         "state": room.view(self.player), "missed": room.missed(msg["since"])}
                own = game.private(room.state, self.player) if self.player is not None else None
                if own is not None:
                    reply["private"] = own
                self.send(reply)
        elif kind == "chat":
            if self.player is None and room.options.get("spectator_chat") and self.name:
                me, name = None, self.name  # spectators may chat (a room option); "player": null marks them
            elif self.player is None and room.options.get("spectator_chat"):
                raise Refused("to chat as a spectator, say hello with a name", "spectator")
            else:
                me = self._seated()
                name = getattr(room.player(me), "name", me)
            at = self.manager.now()
            cid = await self.manager.storage.add_chat(room.id, me, name, msg["text"], at)
            room.broadcast({"type": "chat", "id": cid, "player": me, "name": name, "text": msg["text"], "at": at})
        elif kind == "start":
            await room.act(game.start(self._seated()))
        elif kind == "end_game":
            await room.act(game.end(self._seated()))
        elif kind == "leave":
            await room.act(game.leave(self._seated()))
        elif kind == "join":
            me = self._seated()
            await room.act(game.join(me, room.seats[me].name))
        elif kind == "restart":
            await room.restart(self._seated())
        elif kind == "add_bot":
            self._host()
            if room.status == "over":
                raise GameError("the game is over: restart it to play again", "phase")
            await room.add_bot(msg["level"], msg["name"])
        elif kind == "remove_bot":
            self._host()
            bot = room.seats.get(msg["player"])
            if bot is None or not bot.bot:
                raise Refused(f"{msg['player']!r} is not a bot of this room")
            if not room.seated(bot.player_id):
                raise GameError(f"{bot.name} is not seated", "not_seated")
            await room.act(game.leave(bot.player_id))
            self.manager.stop_bot(room, bot.player_id)
        elif kind == "remove_player":
            me = self._host()
            seat = room.seats.get(msg["player"])
            if seat is None or revoked(seat.token_hash):
                raise Refused(f"{msg['player']!r} is not a player of this room")
            if seat.player_id == me:
                raise GameError("you cannot remove yourself: leave instead", "not_host")
            if seat.bot:
                if room.seated(seat.player_id):
                    await room.act(game.leave(seat.player_id))
                self.manager.stop_bot(room, seat.player_id)
            else:
                await room.remove_player(seat.player_id)
        else:  # the game's own messages (parse_message let through only those it takes)
            action = game.parse_action(room.state, self.player or "", msg)
            if isinstance(action, Query):
                self.send(game.answer(room.state, action))
            else:
                self._seated()
                await room.act(action)


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
                 rate: tuple[float, int] | None = None, limits: ServerLimits | None = None) -> None:
        self.storage = storage
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
        self.room_buckets = Buckets(limits.rooms_per_minute / 60, limits.room_burst)
        self.connections: dict[str, int] = {}
        """Open WebSocket connections by client address."""
        self.cooling: dict[str, float] = {}
        """Addresses whose new connections are refused until then (``time.monotonic``), after
        one of their connections was closed for flooding (:meth:`flooded`)."""
        self.closing = False
        """Set once the server is stopping: new connections are turned away."""
        self._sweeper: asyncio.Task[None] | None = None

    # -- the life of the server ---------------------------------------------------------------------
    async def start(self) -> None:
        """Start sweeping idle and expired rooms.  No room is loaded now: each is
        loaded, and resumes, when someone comes back to it."""
        if self.realtime and self._sweeper is None:
            self._sweeper = asyncio.ensure_future(self._sweep_loop())

    async def announce_restart(self, timeout: float = 1.0) -> None:
        """Tell every connected person the server is stopping (``server_restarting``,
        then close 1012) and give their connections up to ``timeout`` s to say it."""
        self.closing = True
        for room in list(self.rooms.values()):
            for s in list(room.sessions):
                if not s.bot:
                    s.error("server_restarting", "the server is restarting: reconnect in a moment")
                    s.close(1012, "server restarting")
        end = time.monotonic() + timeout
        while any(self.connections.values()) and time.monotonic() < end:
            await asyncio.sleep(0.02)

    async def close(self) -> None:
        self.closing = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        for task in list(self.bots.values()):
            task.cancel()
        for room in self.rooms.values():
            for s in list(room.sessions):
                s.error("server_restarting", "the server is restarting: reconnect in a moment")
                s.close(1012, "server restarting")
            room.stop()
        tasks = [*self.bots.values(), *(r.ticker for r in self.rooms.values() if r.ticker)]
        tasks += [t for r in self.rooms.values() for t in r.tasks]
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        await asyncio.gather(*tasks, return_exceptions=True)
        self.bots.clear()

    # -- connections ----------------------------------------------------------------------------------
    def admit(self, address: str) -> Refused | None:
        """Count a new connection from ``address``, or say why it is refused."""
        if self.closing:
            return Refused("the server is restarting: reconnect in a moment", "server_restarting", status=503,
                           close_code=1012)
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
        return await self._load(row)

    async def room_row(self, room_id: str) -> RoomRow | None:
        """The room's stored description, without loading it (replays)."""
        if not valid_room_id(room_id):
            return None
        return await self.storage.get_room(room_id)

    async def unload(self, room: Room) -> bool:
        """Let go of a room nobody is connected to: its ticker, jobs and bots stop, its
        memory is freed; it is loaded again on use.  False if someone came meanwhile."""
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
        return True

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
