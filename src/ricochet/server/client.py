"""A small asyncio client of the protocol (``docs/protocol.md``), for bots,
tests and the load benchmark.

>>> async def play():                                   # doctest: +SKIP
...     async with RicochetClient("ws://127.0.0.1:8000/ws/k3x9m2qa7d") as c:
...         welcome = await c.hello("Ann")
...         await c.bid(7)
...         async for msg in c:
...             print(msg["type"], c.state["phase"])

The client keeps the room's public state up to date (``client.state``,
``client.version``): ``welcome`` and ``sync`` replace it, each ``event`` is
merged in as the protocol says (:func:`~ricochet.server.protocol.merge_event_state`:
shallow, and lists that grew extended).  A gap in versions, or a list that cannot be extended,
triggers a ``sync`` by itself.

Transports: :class:`WebSocketTransport` (a real socket, ``websockets``
library) and :class:`InProcessTransport` (straight into a running server's
room, used by the server's own bots; same messages, no socket).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any, Protocol, Self

import orjson

from ..errors import RicochetError
from .protocol import PROTOCOL_VERSION, merge_event_state

if TYPE_CHECKING:
    from .frames import Outgoing
    from .manager import RoomManager
    from .session import Session


class ClientError(RicochetError):
    """An ``error`` message from the server (its ``message`` and ``code``) or a closed
    connection (code ``closed``)."""

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


class Transport(Protocol):
    async def connect(self) -> None: ...
    async def send(self, text: str) -> None: ...
    async def recv(self) -> str | None:
        """The next frame, or ``None`` once the connection is closed."""
    async def close(self) -> None: ...


class WebSocketTransport:
    """A real WebSocket (``ws://host:port/ws/ROOM``).  ``source``: the local address to connect
    from (default: the system's choice).  On Linux every ``127.x.y.z`` reaches a server on
    loopback and counts there as another client address (its per-address limits): the load
    benchmark spreads its simulated players that way."""

    def __init__(self, url: str, *, open_timeout: float = 10.0, source: str | None = None) -> None:
        self.url = url
        self.open_timeout = open_timeout
        self.source = source
        self.ws: Any = None
        self.close_reason: str | None = None

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        bind: dict[str, Any] = {} if self.source is None else {"local_addr": (self.source, 0)}
        self.ws = await connect(self.url, open_timeout=self.open_timeout, max_size=2**22, **bind)

    async def send(self, text: str) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            await self.ws.send(text)
        except ConnectionClosed as e:
            raise ClientError(f"the connection is closed ({e})", "closed") from None

    async def recv(self) -> str | None:
        from websockets.exceptions import ConnectionClosed

        try:
            data = await self.ws.recv()
        except ConnectionClosed as e:
            self.close_reason = str(e)
            return None
        return data if isinstance(data, str) else data.decode()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


class InProcessTransport:
    """A connection straight into a room of a :class:`~ricochet.server.manager.RoomManager`
    running in this event loop: the same protocol, no socket (the server's own bots:
    it never keeps a room loaded, and its seat is never "away")."""

    def __init__(self, manager: RoomManager, room_id: str) -> None:
        self.manager = manager
        self.room_id = room_id
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.session: Session | None = None

    async def connect(self) -> None:
        from .session import Session

        room = await self.manager.get_room(self.room_id)
        if room is None:
            raise ClientError(f"there is no room {self.room_id}", "no_room")
        self.session = Session(self.manager, room, self._put, self._closed, bot=True)

    def _put(self, out: Outgoing) -> bool:
        self.queue.put_nowait(out.text)
        return True

    def _closed(self, code: int, reason: str) -> None:
        self.queue.put_nowait(None)

    async def send(self, text: str) -> None:
        if self.session is None or self.session.closed:
            raise ClientError("the connection is closed", "closed")
        await self.session.receive(text)

    async def recv(self) -> str | None:
        return await self.queue.get()

    async def close(self) -> None:
        if self.session is not None:
            self.session.disconnect()
        self.queue.put_nowait(None)


class RicochetClient:
    """One connection to one room.  Give a ``ws://…/ws/ROOM`` URL or a transport."""

    def __init__(self, url: str | None = None, *, transport: Transport | None = None, auto_sync: bool = True,
                 reconnect: float = 0.0) -> None:
        if transport is None:
            if url is None:
                raise ValueError("give the room's WebSocket URL (ws://host:port/ws/ROOM) or a transport")
            transport = WebSocketTransport(url)
        self.transport = transport
        self.auto_sync = auto_sync
        self.state: dict[str, Any] | None = None
        self.version = 0
        self.you: dict[str, Any] | None = None
        self.room: dict[str, Any] | None = None
        self.private: dict[str, Any] | None = None
        """The seat's own secrets, as the last message that carried them said (games with secrets)."""
        self.closed = False
        self.skew = 0.0
        """``server_time - time.time()`` at the last message that carried it."""
        self._ref = 0
        self.reconnect = reconnect
        """After a welcome, when the server closes the connection: keep trying for this many
        seconds to connect again (backoff 0.25 s doubling to 4 s) and say hello on the same seat,
        from the version seen (``since``), as the web client does (0: do not)."""
        self.reconnects = 0
        """How many times the connection was made again (:attr:`reconnect`)."""

    # -- connection -------------------------------------------------------------------------
    async def connect(self) -> Self:
        await self.transport.connect()
        return self

    async def close(self) -> None:
        self.closed = True
        await self.transport.close()

    async def __aenter__(self) -> Self:
        return await self.connect()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def player(self) -> str | None:
        return self.you["player"] if self.you else None

    def server_now(self) -> float:
        """The server's clock, as far as this client can tell."""
        return time.time() + self.skew

    # -- messages --------------------------------------------------------------------------------
    async def send(self, msg: dict[str, Any]) -> None:
        await self.transport.send(json.dumps(msg))

    async def recv(self, timeout: float | None = None) -> dict[str, Any]:
        """The next server message (state tracking applied); :class:`ClientError` ``closed`` at the end."""
        if self.closed:
            raise ClientError("the connection is closed", "closed")
        text = await (asyncio.wait_for(self.transport.recv(), timeout) if timeout else self.transport.recv())
        if text is None and self.reconnect > 0 and self.you is not None and self._may_reconnect():
            return await self._connect_again()
        if text is None:
            self.closed = True
            raise ClientError("the server closed the connection", "closed")
        msg: dict[str, Any] = orjson.loads(text)  # several times json's speed: a message holds a whole state
        await self._track(msg)
        return msg

    def _may_reconnect(self) -> bool:
        """Would connecting again help?  Not after "no such room" (4404), a protocol mismatch
        (4400) or the host's removal (4403)."""
        code = getattr(getattr(self.transport, "ws", None), "close_code", None)
        return code not in (4404, 4400, 4403)

    async def _connect_again(self) -> dict[str, Any]:
        """Connect again and say hello on the same seat (or as a spectator), from the version
        seen: the ``welcome`` (its state replaces ours; ``missed`` lists what we missed)."""
        assert self.you is not None
        end = time.monotonic() + self.reconnect
        wait = 0.25
        last: Exception | None = None
        while time.monotonic() < end:
            await asyncio.sleep(min(wait, max(0.0, end - time.monotonic())))
            wait = min(wait * 2, 4.0)
            try:
                with contextlib.suppress(Exception):
                    await self.transport.close()
                await self.transport.connect()
                token = self.you.get("seat_token")
                await self.send({"type": "hello", "protocol": PROTOCOL_VERSION, "seat_token": token,
                                 "since": self.version, "spectate": token is None,
                                 "name": None if token else self.you.get("name")})
                while True:
                    text = await asyncio.wait_for(self.transport.recv(), 15)
                    if text is None:
                        raise ClientError("closed during hello", "closed")
                    msg: dict[str, Any] = orjson.loads(text)
                    if msg.get("type") == "error" and msg.get("code") not in ("room_moving", "server_restarting"):
                        raise ClientError(msg["message"], msg["code"])
                    if msg.get("type") == "welcome":
                        await self._track(msg)
                        self.reconnects += 1
                        return msg
            except (OSError, ClientError, TimeoutError) as e:
                last = e
            except Exception as e:  # noqa: BLE001 - the websockets library's handshake errors
                last = e
        self.closed = True
        raise ClientError(f"the server closed the connection and connecting again failed for "
                          f"{self.reconnect:g} s ({last})", "closed")

    async def _track(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if "server_time" in msg:
            self.skew = float(msg["server_time"]) - time.time()
        if kind in ("welcome", "sync", "event") and "private" in msg:
            self.private = msg["private"]
        if kind == "welcome":
            self.you, self.room = msg["you"], msg["room"]
            self.state, self.version = msg["state"], msg["version"]
        elif kind == "sync":
            self.state, self.version = msg["state"], msg["version"]
            if isinstance(msg.get("game_number"), int) and self.room is not None:
                self.room["game_number"] = msg["game_number"]  # a game_reset the sync covered
        elif kind == "event" and self.state is not None:
            v = msg["version"]
            if msg["event"]["type"] == "game_reset" and self.room is not None and v > self.version:
                # Taken before the state is merged: a reset merged by a later sync instead (a gap,
                # a list to extend that this client lacks) must not leave the old number behind.
                self.room["game_number"] = msg["event"]["game"]
            if v <= self.version:
                return  # already covered by a sync
            if v != self.version + 1 and self.auto_sync:
                await self.sync(self.version)
            merged = merge_event_state(self.state, msg["state"])
            if merged is None:  # a list to extend that we do not hold: the whole state again
                if self.auto_sync:
                    await self.sync(self.version)
                return
            self.state = merged
            self.version = v

    def __aiter__(self) -> AsyncIterator[dict[str, Any]]:
        return self._iter()

    async def _iter(self) -> AsyncIterator[dict[str, Any]]:
        while True:
            try:
                yield await self.recv()
            except ClientError as e:
                if e.code == "closed":
                    return
                raise

    async def wait_for(self, match: str | Callable[[dict[str, Any]], bool], timeout: float = 10.0,
                       *, raise_errors: bool = False) -> dict[str, Any]:
        """Read messages until one matches (a message type, or a predicate); others are skipped.
        With ``raise_errors`` an ``error`` message raises :class:`ClientError`."""
        pred = (lambda m: m.get("type") == match) if isinstance(match, str) else match
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching message within {timeout} s")
            msg = await self.recv(left)
            if pred(msg):
                return msg
            if raise_errors and msg.get("type") == "error":
                raise ClientError(msg["message"], msg["code"])

    async def hello(self, name: str | None = None, *, seat_token: str | None = None, since: int | None = None,
                    spectate: bool = False, timeout: float = 10.0) -> dict[str, Any]:
        """Say hello and wait for ``welcome`` (:class:`ClientError` with the server's refusal)."""
        await self.send({"type": "hello", "protocol": PROTOCOL_VERSION, "name": name, "seat_token": seat_token,
                         "since": since, "spectate": spectate})
        return await self.wait_for("welcome", timeout, raise_errors=True)

    def next_ref(self) -> int:
        self._ref += 1
        return self._ref

    async def _action(self, kind: str, ref: str | int | None = None, **fields: Any) -> None:
        msg: dict[str, Any] = {"type": kind, **{k: v for k, v in fields.items() if v is not None}}
        if ref is not None:
            msg["ref"] = ref
        await self.send(msg)

    # -- actions (each sends one message; answers come through recv / iteration) -------------------
    async def bid(self, moves: int, ref: str | int | None = None) -> None:
        await self._action("bid", ref, moves=moves)

    async def move(self, robot: str | int, direction: str, stop: tuple[int, int] | None = None,
                   ref: str | int | None = None) -> None:
        await self._action("move", ref, robot=robot, direction=direction, stop=list(stop) if stop else None)

    async def give_up(self, ref: str | int | None = None) -> None:
        await self._action("give_up", ref)

    async def turn_clock(self, ref: str | int | None = None) -> None:
        await self._action("turn_clock", ref)

    async def start(self, ref: str | int | None = None) -> None:
        await self._action("start", ref)

    async def restart(self, ref: str | int | None = None, *, start: bool = False) -> None:
        """The next game of the room, in its lobby; ``start``: and started at once (Play again)."""
        await self._action("restart", ref, **({"start": True} if start else {}))

    async def end_game(self, ref: str | int | None = None) -> None:
        await self._action("end_game", ref)

    async def leave(self, ref: str | int | None = None) -> None:
        await self._action("leave", ref)

    async def join(self, ref: str | int | None = None) -> None:
        await self._action("join", ref)

    async def chat(self, text: str, ref: str | int | None = None) -> None:
        await self._action("chat", ref, text=text)

    async def add_bot(self, level: str = "intermediate", name: str | None = None,
                      ref: str | int | None = None) -> None:
        await self._action("add_bot", ref, level=level, name=name)

    async def remove_bot(self, player: str, ref: str | int | None = None) -> None:
        await self._action("remove_bot", ref, player=player)

    async def request_solution(self, round: int, ref: str | int | None = None) -> None:
        await self._action("request_solution", ref, round=round)

    async def sync(self, since: int | None = None) -> None:
        await self.send({"type": "sync", "since": since})

    async def ping(self) -> None:
        await self.send({"type": "ping"})
