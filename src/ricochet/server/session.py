"""A session: one connection to a room (a WebSocket, or an in-process pipe for bots)
speaking the protocol of ``docs/protocol.md``: rate limits, ``hello``, the shell's
messages, and the game's own messages handed to the game."""

from __future__ import annotations

import itertools
import logging
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..games import GameError, Query
from . import protocol as P
from .frames import Outgoing
from .protocol import dumpb
from .refused import Refused
from .storage import busy, revoked

if TYPE_CHECKING:
    from .manager import RoomManager
    from .room import Room

__all__ = ["SEND_QUEUE", "Session"]

log = logging.getLogger("ricochet.server")

SEND_QUEUE = 2000
"""Messages queued for a slow connection before it is dropped."""


class Session:
    """One connection to a room, whatever carries it (WebSocket or in-process).

    ``send`` writes or queues a message for the client and returns ``False`` when
    its queue is full; ``close(code, reason)`` ends the connection after what is queued.
    ``address`` is the client's (for the per-address rate limit; ``None``: in
    process); ``bot``: one of the server's own bots (never away, never keeps a
    room loaded).  A session holds its room from creation to :meth:`disconnect`."""

    _numbers = itertools.count(1)

    def __init__(self, manager: RoomManager, room: Room, send: Callable[[Outgoing], bool],
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
    def deliver(self, out: Outgoing | str) -> None:
        """Send one message (encoded once for all its recipients: :class:`~.frames.Outgoing`)."""
        if self.closed:
            return
        if not self._send(out if isinstance(out, Outgoing) else Outgoing.of_text(out)):
            log.warning("room %s: dropping a connection that does not keep up", self.room.id)
            self.close(1008, "too slow: reconnect")

    def send(self, msg: Mapping[str, Any]) -> None:
        self.deliver(Outgoing(dumpb(msg)))

    def error(self, code: str, message: str, ref: object = None, retry_after: float | None = None) -> None:
        self.send(P.error_message(code, message, ref, retry_after))

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
        if self.address is not None and not (m.address_buckets.take(self.address)
                                             and m.total_messages.take(self.address)):
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
        return min(max(wait, P.DROP_PAUSE / 2), P.DROP_PAUSE)  # (over the total budget: no bucket says when)

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
            self.error(e.code, e.message, ref if e.ref is None else e.ref, e.retry_after)
            if e.close_code is not None:
                self.close(e.close_code, e.code)
        except GameError as e:
            self.error(e.code, e.message, ref)
        except Exception as e:
            if busy(e):  # the database stayed locked longer than its busy timeout: say so, retry-able
                log.warning("room %s: the database is busy: %s", self.room.id, e)
                self.error("busy", "the server's database is busy: try again in a moment", ref)
                return
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
            room.broadcast_presence()  # (the newcomer gets it too, after its welcome: the same)

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
                         "state": room.view(self.player), "missed": room.missed(msg["since"]),
                         "game_number": room.game_number}
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
            await room.restart(self._seated(), start=msg["start"])
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
