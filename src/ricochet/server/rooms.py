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
:class:`RoomManager` holds the rooms, loads every unfinished room from the
database at start and resumes it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
import string
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..games import Game, GameError, Job, Query, get_game
from . import protocol as P
from .protocol import ProtocolError
from .solving import SolverService
from .storage import RoomRow, SeatRow, Storage, hash_token

log = logging.getLogger("ricochet.server")

ROOM_ID_ALPHABET = string.ascii_lowercase + string.digits
ROOM_ID_LENGTH = 10
BOT_NAMES = ("Ada", "Babbage", "Curie", "Dijkstra", "Euler", "Fermat", "Gauss", "Hopper", "Noether", "Turing",
             "Lovelace", "Shannon")
SEND_QUEUE = 2000
"""Messages queued for a slow connection before it is dropped."""

ConfigFactory = Callable[[Mapping[str, Any], int, int], Any]
"""``(options, room seed, game number) → config`` (default :func:`protocol.config_for`)."""


def new_room_id() -> str:
    return "".join(secrets.choice(ROOM_ID_ALPHABET) for _ in range(ROOM_ID_LENGTH))


def dumps(msg: Mapping[str, Any]) -> str:
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


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
        self.game = row.game
        """The number of the room's current game (1, then +1 at each restart)."""
        self.kind: Game = get_game(row.game_name)
        """What the room plays."""
        if row.game_version > self.kind.version:
            raise RuntimeError(f"room {row.id} was written by {self.kind.title} event format {row.game_version}, "
                               f"newer than this server's {self.kind.version}: upgrade the server")
        self.config = manager.config_factory(self.options, self.seed, self.game)
        self.state: Any = self.kind.new(self.config)
        self.version = 0
        self.game_start_version = 0
        """Version of the ``game_reset`` that opened the current game (0 for the first game)."""
        self.log: list[tuple[int, str]] = []
        """The current game's public events (``game_reset`` included) with their versions, as JSON
        text: strings are not tracked by the garbage collector, whose full passes would otherwise
        scan every event of every room (pauses of a tenth of a second under load)."""
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

    # -- loading ----------------------------------------------------------------------------
    def load_events(self, rows: list[Any]) -> None:
        """Fold the stored log of the current game (rows of :class:`EventRow`, in order)."""
        kind = self.kind
        state = kind.new(self.config)
        for r in rows:
            self.version = max(self.version, r.seq)
            if r.game != self.game:
                continue
            if r.payload["type"] == "game_reset":
                self.game_start_version = r.seq
                text = dumps(r.payload)
            else:
                event = kind.event_from_dict(r.payload)
                state = kind.evolve(state, event)
                text = dumps(kind.public_event(event))
            self.log.append((r.seq, text))
        self.state = state

    @property
    def status(self) -> str:
        return self.kind.status(self.state)

    # -- views ---------------------------------------------------------------------------------
    def view(self, player: str | None) -> dict[str, Any]:
        """The whole state as ``player`` may see it (``None``: a spectator)."""
        v = self.kind.view(self.state, player)
        v["version"] = self.version
        return v

    def presence(self) -> dict[str, Any]:
        online = {s.player for s in self.sessions if s.player is not None}
        seats = []
        for p in self.kind.players(self.state):
            if not p.seated:
                continue
            seat = self.seats.get(p.id)
            seats.append({"player": p.id, "name": p.name, "bot": bool(seat and seat.bot),
                          "level": seat.level if seat else None, "online": p.id in online})
        return {"seats": seats, "spectators": sum(1 for s in self.sessions if s.player is None)}

    def info(self, protocol: int = P.PROTOCOL_VERSION) -> dict[str, Any]:
        """The room as ``welcome`` describes it (protocol 1: ``game`` is the game number)."""
        out = {"room_id": self.id, "name": self.name, "private": self.private, "game": self.kind.name,
               "game_number": self.game, "title": self.kind.title, "options": self.public_options()}
        if protocol < 2:
            out["game"] = self.game
        return out

    def summary(self) -> dict[str, Any]:
        pres = {s["player"]: s for s in self.presence()["seats"]}
        return {
            "room_id": self.id, "name": self.name, "private": self.private, "status": self.status,
            "phase": self.kind.phase(self.state), "created": self.created, "url": f"/r/{self.id}",
            "game": self.kind.name, "title": self.kind.title, "game_number": self.game,
            "players": [{"id": p.id, "name": p.name, "bot": pres[p.id]["bot"], "online": pres[p.id]["online"],
                         "score": p.score} for p in self.kind.players(self.state) if p.id in pres],
            "spectators": sum(1 for s in self.sessions if s.player is None), "options": self.public_options(),
        }

    def public_options(self) -> dict[str, Any]:
        return {k: v for k, v in self.options.items() if k != "bots"} | {"name": self.name,
                                                                         "game": self.kind.name}

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
        now = self.manager.now()
        _, due = self.kind.tick(self.state, now)
        if due:
            await self._commit(due)
        _state, events = self.kind.apply(self.state, action, now)
        await self._commit(events)
        return events

    async def tick(self) -> None:
        """Let time pass: run out clocks that are due."""
        async with self.lock:
            _, events = self.kind.tick(self.state, self.manager.now())
            if events:
                await self._commit(events)

    async def _commit(self, events: list[Any], *, reset_to: int | None = None, reset_state: Any = None) -> None:
        """Persist events, then fold, broadcast and react to them.  With ``reset_to``
        a ``game_reset`` to that game comes first and ``events`` belong to it."""
        kind = self.kind
        payloads = [e.to_dict() for e in events]
        if reset_to is not None:
            payloads.insert(0, {"type": "game_reset", "game": reset_to, "at": self.manager.now()})
        if not payloads:
            return
        state = reset_state if reset_to is not None and reset_state is not None else self.state
        game = reset_to if reset_to is not None else self.game
        states: list[Any] = []
        for e in events:
            state = kind.evolve(state, e)
            states.append(state)
        texts = [dumps(kind.public_event(e)) for e in events]
        if reset_to is not None:
            states.insert(0, reset_state if reset_state is not None else kind.new(self.config))
            texts.insert(0, dumps(payloads[0]))
        new_status = kind.status(state)
        append = asyncio.ensure_future(self.manager.storage.append_events(
            self.id, game, self.version + 1, payloads,
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
            self.game = reset_to
            self.log = []
            self.game_start_version = self.version + 1
            self.warmed.clear()
        now = self.manager.now()
        presence_changed = False
        for payload, text, st in zip(payloads, texts, states, strict=True):
            self.version += 1
            self.log.append((self.version, text))
            self.state = st
            kind_of_event = payload["type"]
            if self.sessions:  # the event's JSON is encoded once, for the log and the message
                view = kind.event_state(st, kind_of_event)
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
            own = self.kind.private(state, s.player) if s.player is not None else None
            s.deliver(public if own is None else f'{head},"private":{dumps(own)}}}')

    # -- the game's jobs (the solver) -----------------------------------------------------------------
    def schedule_jobs(self) -> None:
        """Start the jobs the game wants now and are not running or done."""
        for job in self.kind.jobs(self.state):
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
        try:
            result = await self.manager.solver.run(job)
        finally:
            self.jobs.pop(job.key, None)
        async with self.lock:
            # The game decides with the state of now, not of when the job began.
            wanted = next((j for j in self.kind.jobs(self.state) if j.key == job.key), None)
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

    async def _tick_loop(self) -> None:
        while True:
            self.wake.clear()
            deadline = self.kind.deadline(self.state)
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
            if secrets.compare_digest(seat.token_hash, h):
                return seat
        return None

    def bot_token(self, player_id: str) -> str:
        """A bot's seat token: derived from the room's secret seed, so it survives restarts."""
        return hash_token(f"bot:{self.seed}:{player_id}")[:32]

    def _check_room_for(self, bot: bool) -> None:
        seated = [p for p in self.kind.players(self.state) if p.seated]
        if len(seated) >= P.MAX_SEATS:
            raise ProtocolError(f"the room is full ({P.MAX_SEATS} seats): watch as a spectator", "full")
        if bot and sum(1 for p in seated if self.seats.get(p.id) and self.seats[p.id].bot) >= P.MAX_BOTS:
            raise ProtocolError(f"at most {P.MAX_BOTS} bots per room", "full")

    async def add_seat(self, name: str, *, bot: bool = False, level: str | None = None) -> tuple[Seat, str]:
        """Seat a new player (``Join``): the seat and its secret token.  Locked by the caller."""
        self._check_room_for(bot)
        pid = f"{'b' if bot else 'p'}{len(self.seats) + 1}"
        now = self.manager.now()
        self.kind.apply(self.state, self.kind.join(pid, name), now)  # refuse before anything is stored
        token = self.bot_token(pid) if bot else secrets.token_urlsafe(24)
        seat = Seat(pid, name, hash_token(token), bot, level, now)
        await self.manager.storage.add_seat(self.id, SeatRow(pid, name, seat.token_hash, bot, level, now))
        self.seats[pid] = seat
        await self._act_locked(self.kind.join(pid, name))
        return seat, token

    def bot_name(self, level: str) -> str:
        taken = {p.name.casefold() for p in self.kind.players(self.state) if p.seated}
        label = self.kind.bot_name(level)
        for n in BOT_NAMES:
            name = f"{n} ({label})"
            if name.casefold() not in taken:
                return name
        return f"Bot {len(self.seats) + 1} ({label})"

    async def add_bot(self, level: str, name: str | None = None) -> Seat:
        if level not in self.kind.bot_levels:
            raise ProtocolError(f"level must be one of {', '.join(self.kind.bot_levels)} in {self.kind.title}, "
                                f"got {level!r}")
        async with self.lock:
            seat, token = await self.add_seat(name or self.bot_name(level), bot=True, level=level)
        self.manager.start_bot(self, seat, token)
        return seat

    def seated(self, player: str | None) -> bool:
        me = self.player(player)
        return me is not None and me.seated

    def player(self, player: str | None) -> Any:
        return next((p for p in self.kind.players(self.state) if p.id == player), None)

    async def restart(self, player: str) -> None:
        """The host opens a new game in this room: the current one ends, everyone is seated again."""
        async with self.lock:
            kind, s = self.kind, self.state
            host = kind.host(s)
            if not self.seated(player):
                raise GameError("you are not in this game: join it first", "not_seated")
            if host != player:
                raise GameError(f"only the host ({getattr(self.player(host), 'name', host)}) can restart",
                                "not_host")
            if kind.phase(s) == "lobby":
                raise GameError("the game has not started yet: start it instead", "phase")
            if kind.status(s) != "over":
                await self._act_locked(kind.end(player))
            old = self.state
            game = self.game + 1
            config = self.manager.config_factory(self.options, self.seed, game)
            fresh = kind.new(config)
            seated = [p for p in kind.players(old) if p.seated]
            order = sorted(seated, key=lambda p: p.id != host)  # the host first: host again
            state, joins = fresh, []
            now = self.manager.now()
            for p in order:
                state, ev = kind.apply(state, kind.join(p.id, p.name), now)
                joins.extend(ev)
            self.config = config
            await self._commit(joins, reset_to=game, reset_state=fresh)


class Session:
    """One connection to a room, whatever carries it (WebSocket or in-process).

    ``send`` queues a text for the client and returns ``False`` when the queue
    is full; ``close(code, reason)`` ends the connection after what is queued."""

    def __init__(self, manager: RoomManager, room: Room, send: Callable[[str], bool],
                 close: Callable[[int, str], None]) -> None:
        self.manager = manager
        self.room = room
        self._send = send
        self._close = close
        self.player: str | None = None
        self.name: str | None = None
        self.spectator = False
        self.protocol = P.PROTOCOL_VERSION
        self.welcomed = False
        self.closed = False
        self.bucket = P.TokenBucket(manager.rate[0], manager.rate[1])
        self.drops: deque[float] = deque()

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
        """The connection is gone: stop broadcasting to it."""
        self.closed = True
        if self in self.room.sessions:
            self.room.sessions.discard(self)
            self.room.broadcast_presence()

    # -- input ------------------------------------------------------------------------------------
    async def receive(self, text: str | bytes) -> None:
        """Handle one frame from the client: an answer, an error message, or broadcast events."""
        if self.closed:
            return
        if not self.bucket.take():
            now = time.monotonic()
            self.drops.append(now)
            while self.drops and self.drops[0] < now - P.FLOOD_WINDOW:
                self.drops.popleft()
            if len(self.drops) > P.FLOOD_DROPS:
                self.error("rate_limited", "too many messages: closing the connection")
                self.close(4429, "rate limit")
                return
            self.error("rate_limited", f"too many messages: at most {P.RATE_BURST} at once and "
                                       f"{P.RATE_PER_SECOND:g} per second; this one was dropped")
            return
        ref: object = None
        try:
            msg = P.parse_message(text, self.room.kind.name)
            ref = msg.get("ref")
            if msg["type"] == "hello":
                await self._hello(msg)
                return
            if msg["type"] == "ping":  # allowed before hello too: keep-alives and round trips
                self.send({"type": "pong", "server_time": self.manager.now()})
                return
            if not self.welcomed:
                raise ProtocolError("send hello first", "not_welcomed")
            await self._dispatch(msg)
            if ref is not None:
                self.send({"type": "ack", "ref": ref})
        except ProtocolError as e:
            self.error(e.code, e.message, getattr(e, "ref", ref))
            if e.code == "protocol":
                self.close(4400, "unsupported protocol version")
        except GameError as e:
            self.error(e.code, e.message, ref)
        except Exception:
            log.exception("room %s: message failed", self.room.id)
            self.error("server_error", "something went wrong on the server; nothing was changed", ref)

    async def _hello(self, msg: dict[str, Any]) -> None:
        if self.welcomed:
            raise ProtocolError("hello was already sent on this connection (send sync to catch up)")
        room = self.room
        kind = room.kind
        if msg["protocol"] < kind.min_protocol:
            raise ProtocolError(f"this room plays {kind.title}, which needs protocol {P.PROTOCOL_VERSION} "
                                f"(you speak {msg['protocol']}): reload the page", "protocol")
        self.protocol = msg["protocol"]
        token_out: str | None = None
        if msg["seat_token"] is not None:
            seat = room.seat_by_token(msg["seat_token"])
            if seat is None:
                raise ProtocolError("this seat token is not valid in this room: send hello again without it "
                                    "to join as a new player", "bad_token")
            self.player, self.name, token_out = seat.player_id, seat.name, msg["seat_token"]
            me = room.player(seat.player_id)
            if me is not None and not me.seated and room.status != "over" and not seat.bot:
                try:
                    await room.act(kind.join(seat.player_id, seat.name))  # back after a leave
                except GameError:
                    pass
        elif msg["spectate"]:
            self.spectator = True
            self.name = msg["name"]
        else:
            if not msg["name"]:
                raise ProtocolError("hello needs a name to join (or \"spectate\": true to watch)")
            async with room.lock:
                seat, token_out = await room.add_seat(msg["name"])
            self.player, self.name = seat.player_id, seat.name
            if (room.game == 1 and room.options.get("bots") and len(room.seats) == 1):
                for b in room.options["bots"]:  # the room's bots sit down after the first person (the host)
                    await room.add_bot(b["level"], b.get("name"))
        chat = await self.manager.storage.recent_chat(room.id, P.CHAT_HISTORY)
        async with room.lock:  # no event may slip between the welcome's state and the next broadcast
            self.welcomed = True
            room.sessions.add(self)
            welcome = {
                "type": "welcome", "protocol": self.protocol, "server_time": self.manager.now(),
                "room": room.info(self.protocol),
                "you": {"player": self.player, "name": self.name, "seat_token": token_out,
                        "spectator": self.player is None, "host": self.player is not None
                        and kind.host(room.state) == self.player},
                "version": room.version, "state": room.view(self.player), "missed": room.missed(msg["since"]),
                "presence": room.presence(), "chat": chat,
            }
            own = kind.private(room.state, self.player) if self.player is not None else None
            if own is not None:
                welcome["private"] = own
            self.send(welcome)
            presence = dumps({"type": "presence", **room.presence()})
            for other in list(room.sessions):
                if other is not self:
                    other.deliver(presence)

    def _seated(self) -> str:
        if self.player is None:
            raise ProtocolError("spectators cannot play: join the room with a name to play", "spectator")
        return self.player

    def _host(self) -> str:
        me = self._seated()
        host = self.room.kind.host(self.room.state)
        if host != me:
            raise GameError(f"only the host ({getattr(self.room.player(host), 'name', host)}) can do this",
                            "not_host")
        return me

    async def _dispatch(self, msg: dict[str, Any]) -> None:
        room = self.room
        game = room.kind
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
            me = self._seated()
            at = self.manager.now()
            name = getattr(room.player(me), "name", me)
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
                raise ProtocolError(f"{msg['player']!r} is not a bot of this room")
            if not room.seated(bot.player_id):
                raise GameError(f"{bot.name} is not seated", "not_seated")
            await room.act(game.leave(bot.player_id))
            self.manager.stop_bot(room, bot.player_id)
        else:  # the game's own messages (parse_message let through only those it takes)
            action = game.parse_action(room.state, self.player or "", msg)
            if isinstance(action, Query):
                self.send(game.answer(room.state, action))
            else:
                self._seated()
                await room.act(action)


class RoomManager:
    """All rooms of the server.

    ``now`` is the clock (seconds since the epoch; inject a fake one in tests);
    with ``realtime=False`` no ticker tasks run and the caller calls
    :meth:`tick_all` after moving its clock.  ``bot_speed`` scales the bots'
    thinking and move delays (0: instant)."""

    def __init__(self, storage: Storage, *, now: Callable[[], float] = time.time, realtime: bool = True,
                 solver: SolverService | None = None, bot_speed: float = 1.0, bots: bool = True,
                 config_factory: ConfigFactory = P.config_for, rng: random.Random | None = None,
                 rate: tuple[float, int] = (P.RATE_PER_SECOND, P.RATE_BURST)) -> None:
        self.storage = storage
        self.rate = rate
        """Per connection: messages per second and burst (the token bucket)."""
        self.now = now
        self.realtime = realtime
        self.solver = solver or SolverService()
        self.bot_speed = bot_speed
        self.bots_enabled = bots
        self.config_factory = config_factory
        self.rng = rng or random.Random()
        self.rooms: dict[str, Room] = {}
        self.bots: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}

    async def start(self) -> None:
        """Load and resume every room whose game is not over."""
        for row in await self.storage.active_rooms():
            try:
                await self._load(row)
            except Exception:
                log.exception("room %s could not be resumed", row.id)

    async def _load(self, row: RoomRow) -> Room:
        seats = [Seat(s.player_id, s.name, s.token_hash, s.bot, s.level, s.created)
                 for s in await self.storage.seats(row.id)]
        room = Room(self, row, seats)
        room.load_events(await self.storage.events(row.id))
        self.rooms[room.id] = room
        self._activate(room)
        return room

    def _activate(self, room: Room) -> None:
        if self.realtime:
            room.start_ticker()
        room.schedule_jobs()
        for seat in room.seats.values():
            p = room.state.player(seat.player_id)
            if seat.bot and p is not None and p.seated:
                self.start_bot(room, seat, room.bot_token(seat.player_id))

    async def close(self) -> None:
        for task in list(self.bots.values()):
            task.cancel()
        for room in self.rooms.values():
            for s in list(room.sessions):
                s.error("server_restarting", "the server is restarting: reconnect in a moment")
                s.close(1012, "server restarting")
            if room.ticker is not None:
                room.ticker.cancel()
            for t in list(room.tasks):
                t.cancel()
        tasks = [*self.bots.values(), *(r.ticker for r in self.rooms.values() if r.ticker)]
        tasks += [t for r in self.rooms.values() for t in r.tasks]
        await asyncio.gather(*tasks, return_exceptions=True)
        self.bots.clear()

    async def create_room(self, options: Mapping[str, Any]) -> Room:
        """A new room with normalised ``options`` (see :func:`protocol.normalize_options`), bots seated."""
        now = self.now()
        rid = new_room_id()
        kind = get_game(options.get("game", P.DEFAULT_OPTIONS["game"]))
        row = RoomRow(rid, options.get("name") or f"Room {rid[:4]}", dict(options), bool(options["private"]),
                      "lobby", 1, secrets.randbits(62), now, now, kind.name, kind.version)
        await self.storage.create_room(row)
        room = Room(self, row, [])
        self.rooms[rid] = room
        if self.realtime:
            room.start_ticker()
        return room

    async def get_room(self, room_id: str) -> Room | None:
        """The room (from memory, or loaded from the database: finished rooms too)."""
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        if not (0 < len(room_id) <= 16) or not all(c in ROOM_ID_ALPHABET for c in room_id):
            return None
        fut = self._loading.get(room_id)
        if fut is None:
            fut = asyncio.ensure_future(self._fetch(room_id))
            self._loading[room_id] = fut
            fut.add_done_callback(lambda _: self._loading.pop(room_id, None))
        return await fut

    async def _fetch(self, room_id: str) -> Room | None:
        row = await self.storage.get_room(room_id)
        if row is None:
            return None
        return await self._load(row)

    def public_rooms(self) -> list[dict[str, Any]]:
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
