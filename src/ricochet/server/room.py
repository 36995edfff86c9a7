"""A room: the stateful shell around one pure game flow.

A :class:`Room` plays one game (:class:`ricochet.games.Game`, by the name stored
with the room) and owns its configuration and event log.  Its state is the fold
of the log; an action is checked by the game's ``apply``, the events it produces
are appended to the database *first*, then folded in and broadcast with the
room's increasing ``version``.  A ticker task per room calls the game's ``tick``
at its next deadline, and the game's jobs (the solver) run in the worker off the
event loop.  Nothing here knows a particular game.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import deque
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

from ..games import Game, GameError, Job, get_game
from ..games.table import name_key
from . import protocol as P
from .frames import Outgoing
from .protocol import dumpb, dumps
from .refused import Refused
from .storage import REVOKED, RoomRow, SeatRow, hash_token, revoked

if TYPE_CHECKING:
    from .manager import RoomManager
    from .session import Session

__all__ = ["BOT_NAMES", "MAX_SEAT_ROWS", "Room", "Seat", "public_options"]

log = logging.getLogger("ricochet.server")

BOT_NAMES = ("Ada", "Babbage", "Curie", "Dijkstra", "Euler", "Fermat", "Gauss", "Hopper", "Noether", "Turing",
             "Lovelace", "Shannon")
MAX_SEAT_ROWS = 64
"""Seats a room keeps; beyond, the oldest seat of someone no longer in the game is given up."""


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
        self._presence_due = False
        self.waiting_for: float | None = None
        """The deadline the ticker waits for (it is woken when the next one differs)."""
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
        return [{"version": v, "event": orjson.loads(text)} for v, text in self.log if v > since]

    def broadcast(self, msg: Mapping[str, Any]) -> None:
        """Send ``msg`` to every connection, encoded once (:class:`~.frames.Outgoing`)."""
        out = Outgoing(dumpb(msg))
        for s in list(self.sessions):
            s.deliver(out)

    def broadcast_presence(self) -> None:
        """Tell everyone who is here, once for all the comings and goings of this turn of the
        event loop (400 spectators leaving at once: one message each, not one per departure)."""
        if self._presence_due:
            return
        self._presence_due = True
        try:
            asyncio.get_running_loop().call_soon(self._send_presence)
        except RuntimeError:  # no loop running (a room used outside the server): now
            self._send_presence()

    def _send_presence(self) -> None:
        self._presence_due = False
        if self.sessions:
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
        after, due = self.game.tick(self.state, now)
        if due:
            await self._commit(due, final=after)
        after, events = self.game.apply(self.state, action, now)
        await self._commit(events, final=after)
        return events

    async def tick(self) -> None:
        """Let time pass: run out clocks that are due, free the seats of people away too long."""
        async with self.lock:
            if self.unloaded:
                return
            now = self.manager.now()
            after, events = self.game.tick(self.state, now)
            if events:
                await self._commit(events, final=after)
            await self._expire_seats(now)

    async def _commit(self, events: list[Any], *, reset_to: int | None = None, reset_state: Any = None,
                      final: Any = None) -> None:
        """Persist events, then fold, broadcast and react to them.  With ``reset_to``
        a ``game_reset`` to that game comes first and ``events`` belong to it.  ``final``:
        the state after ``events``, when the caller has it (the game's ``apply`` and ``tick``
        fold what they decide): one event is then not folded again."""
        game = self.game
        payloads = [e.to_dict() for e in events]
        if reset_to is not None:
            payloads.insert(0, {"type": "game_reset", "game": reset_to, "at": self.manager.now()})
        if not payloads:
            return
        state = reset_state if reset_to is not None and reset_state is not None else self.state
        number = reset_to if reset_to is not None else self.game_number
        states: list[Any] = []
        if final is not None and reset_to is None and len(events) == 1:
            state = final
            states.append(state)
        else:
            for e in events:
                state = game.evolve(state, e)
                states.append(state)
        texts = [dumpb(game.public_event(e)) for e in events]
        if reset_to is not None:
            states.insert(0, reset_state if reset_state is not None else game.new(self.config))
            texts.insert(0, dumpb(payloads[0]))
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
            self.log.append((self.version, text.decode()))
            self.state = st
            kind_of_event = payload["type"]
            if self.sessions:  # the event's JSON is encoded once, for the log and the message
                view = game.event_state(st, kind_of_event)
                view["version"] = self.version
                self.broadcast_event(b'{"type":"event","version":%d,"server_time":%b,"event":%b,"state":%b'
                                     % (self.version, dumpb(now), text, dumpb(view)), st)
            presence_changed |= kind_of_event in ("player_joined", "player_left", "game_reset")
        self.state = state
        if presence_changed and self.sessions:
            self.broadcast_presence()
        self.schedule_jobs()
        if self.next_deadline() != self.waiting_for:  # the ticker looks again only if its deadline moved
            self.wake.set()
        if cancelled:
            raise asyncio.CancelledError

    def broadcast_event(self, head: bytes, state: Any) -> None:
        """Send an event message (``head`` lacks its closing brace) to every session,
        with the ``private`` part of the game's state for those who have one.  The public
        message is encoded and framed once for all who get it."""
        public: Outgoing | None = None
        for s in list(self.sessions):
            own = self.game.private(state, s.player) if s.player is not None else None
            if own is None:
                if public is None:
                    public = Outgoing(head + b"}")
                s.deliver(public)
            else:
                s.deliver(Outgoing(b'%b,"private":%b}' % (head, dumpb(own))))

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
            deadline = self.waiting_for = self.next_deadline()
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

    async def restart(self, player: str, *, start: bool = False) -> None:
        """The host opens a new game in this room: the current one ends, everyone seated is seated
        again (bots too: their connections play on), with the room's options.  ``start``: a rematch
        ("Play again"): the new game starts at once, as if the host had sent ``start`` — checked
        first, so that a game that could not start (too few players) changes nothing."""
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
            number = self.game_number + 1
            config = self.manager.config_factory(self.options, self.seed, number)
            fresh = game.new(config)
            seated = [p for p in game.players(s) if p.seated]  # ending the game does not change them
            order = sorted(seated, key=lambda p: p.id != host)  # the host first: host again
            state, joins = fresh, []
            now = self.manager.now()
            for p in order:
                state, ev = game.apply(state, game.join(p.id, p.name), now)
                joins.extend(ev)
            if start:
                _, ev = game.apply(state, game.start(player), now)  # GameError: nothing is changed yet
                joins.extend(ev)
            if game.status(s) != "over":
                await self._act_locked(game.end(player))
            self.config = config
            await self._commit(joins, reset_to=number, reset_state=fresh)
