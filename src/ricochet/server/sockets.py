"""The WebSocket endpoint (``/ws/{room_id}``): origin and connection checks, then one
:class:`~.session.Session` for the connection, a writer task draining its queue, and
the reading loop (the hello deadline, the pause after a dropped message)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from urllib.parse import urlsplit

from starlette.websockets import WebSocket, WebSocketState

from . import protocol as P
from .frames import SEND_KEY, DirectWriter, Outgoing
from .manager import RoomManager
from .protocol import dumps
from .refused import Refused
from .session import SEND_QUEUE, Session
from .site import client_address, manager_of, site_of

__all__ = ["BINARY_CLOSE_CODE", "HELLO_TIMEOUT_CODE", "Line", "origin_allowed", "ws_endpoint"]

log = logging.getLogger("ricochet.server")

HELLO_TIMEOUT_CODE = 4408
BINARY_CLOSE_CODE = 1003
"""The close of a connection that sent a binary frame (RFC 6455: "unsupported data")."""
FLOOD_BACKLOG = 2 * P.RATE_BURST
"""Unread messages behind a dropped one beyond which a connection is closed as a flood."""
CLOSE_GRACE = 5.0
"""Seconds a connection closed while its client is not reading (a full send buffer) is given
to take the close before it is cut off."""


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """May a page of ``origin`` open our sockets?  No ``Origin`` (not a browser), the
    page's own host (``Host``), or one of ``allowed`` (``scheme://host[:port]``).

    >>> origin_allowed("http://localhost:8000", "localhost:8000", ())
    True
    >>> origin_allowed("https://evil.example", "localhost:8000", ())
    False
    """
    if origin is None:
        return True
    if origin.rstrip("/") in allowed:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and bool(parts.netloc) and parts.netloc == host


async def ws_endpoint(websocket: WebSocket) -> None:
    manager = manager_of(websocket)
    if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"),
                          site_of(websocket).allowed_origins):
        # Another site's page in someone's browser: refused before the handshake completes.
        await websocket.close(1008, "origin not allowed")
        return
    address = client_address(websocket)
    refusal = manager.admit(address)
    await websocket.accept()
    if refusal is not None:
        await say_and_close(websocket, refusal.code, refusal.message, refusal.close_code or 1013, refusal.retry_after)
        return
    try:
        await serve_socket(websocket, manager, address)
    finally:
        manager.release(address)

async def say_and_close(websocket: WebSocket, code: str, message: str, close_code: int,
                        retry_after: float | None = None) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(dumps(P.error_message(code, message, retry_after=retry_after)))
        await websocket.close(close_code, code)

async def serve_socket(websocket: WebSocket, manager: RoomManager, address: str) -> None:
    rid = websocket.path_params["room_id"]
    try:
        room = await manager.get_room(rid)
    except Refused as r:
        await say_and_close(websocket, r.code, r.message, r.close_code or 1013, r.retry_after)
        return
    if room is None:
        await say_and_close(websocket, "no_room", f"there is no room {rid}; check the link", 4404)
        return
    loop = asyncio.get_running_loop()
    line = Line(websocket, loop)
    session = Session(manager, room, line.send, line.close, address=address)  # no await since get_room: see unload
    limits = manager.limits

    def no_hello() -> None:
        if not session.welcomed and not session.closed:
            session.error("hello_timeout", f"say hello within {limits.hello_seconds:g} s of connecting")
            session.close(HELLO_TIMEOUT_CODE, "no hello")

    hello_timer = loop.call_later(limits.hello_seconds, no_hello) if limits.hello_seconds else None
    try:
        # Read until the connection ends; a close the server sends (line.close) ends it too:
        # uvicorn hands the reader a disconnect as it sends the close frame.
        while True:
            msg = await websocket.receive()
            if msg["type"] == "websocket.disconnect":
                break
            data = msg.get("text")
            if data is None:
                if msg.get("bytes") is not None and not session.closed:
                    session.error("binary", "this server takes text frames only (one JSON object each): "
                                            "binary frames are refused")
                    session.close(BINARY_CLOSE_CODE, "binary frames are not accepted")
                continue
            await session.receive(data)
            if session.closed:  # what the client sent after that is not read (nor parsed)
                await line.flushed(CLOSE_GRACE)  # the error, then the closing frame with its code
                break
            pause = session.read_pause()
            if pause > 0:  # over its rate: read on when it may send again (TCP holds the rest)
                if line.backlog() > FLOOD_BACKLOG and not session.closed:
                    # Dropped, and more unread behind it than any client of ours sends at once:
                    # a flood.  Closed now, not after its next drops: each read of it costs a parse.
                    session.error("rate_limited", "too many messages: closing the connection")
                    session.close(4429, "rate limit")
                    manager.flooded(address)
                    continue
                await asyncio.sleep(pause)
    except Exception as e:  # noqa: BLE001 - a socket that went away mid-read: a normal end
        log.debug("room %s: connection ended: %r", rid, e)
    finally:
        if hello_timer is not None:
            hello_timer.cancel()
        session.disconnect()
        await line.finish()


class Line:
    """The way out of one connection: messages are written at once when nothing is waiting
    (:class:`~.frames.DirectWriter`), else queued, in order, for a writer task; at most
    :data:`~.session.SEND_QUEUE` wait (``send`` says False beyond: the session drops a
    connection that does not keep up).  ``close`` closes after what is queued."""

    def __init__(self, websocket: WebSocket, loop: asyncio.AbstractEventLoop) -> None:
        self.websocket = websocket
        self.loop = loop
        self.direct = DirectWriter(websocket.scope.get(SEND_KEY))
        self.queue: deque[Outgoing] = deque()
        self.busy = False
        """The writer task holds a message (waiting until the connection takes it)."""
        self.closing: tuple[int, str] | None = None
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def backlog(self) -> int:
        """Messages the client sent that the web server has read but we have not (0 if unknown)."""
        proto = self.direct.proto
        queue = getattr(proto, "queue", None)
        return queue.qsize() if queue is not None else 0

    def send(self, out: Outgoing) -> bool:
        if not self.queue and not self.busy and self.closing is None and self.direct.write(out.frame):
            return True
        if len(self.queue) >= SEND_QUEUE or self.closing is not None:
            return False
        self.queue.append(out)
        self._start()
        return True

    def close(self, code: int, reason: str) -> None:
        if self.closing is None:
            self.closing = (code, reason)
            self._start()
            if self.direct.proto is not None:  # a client that does not read: cut off after a moment
                self.loop.call_later(CLOSE_GRACE, self._abort)

    def _abort(self) -> None:
        proto = self.direct.proto
        if proto is not None and self.task is not None and not self.task.done():
            proto.transport.abort()

    def _start(self) -> None:
        if self.task is None:
            self.task = asyncio.ensure_future(self._write())
        self.wake.set()

    async def _write(self) -> None:
        ws = self.websocket
        while True:
            while self.queue:
                out = self.queue.popleft()
                if not self.direct.write(out.frame):
                    self.busy = True
                    try:
                        await ws.send_text(out.text)
                    finally:
                        self.busy = False
            if self.closing is not None:
                await ws.close(*self.closing)
                return
            self.wake.clear()
            await self.wake.wait()

    async def flushed(self, timeout: float) -> None:
        """Wait (up to ``timeout`` s) until the writer has sent what is queued and the close."""
        task = self.task
        if task is not None and not task.done():
            with contextlib.suppress(TimeoutError, Exception):
                await asyncio.wait_for(asyncio.shield(task), timeout)

    async def finish(self) -> None:
        """The connection ended: let what is queued go out (an error before a close), briefly,
        then stop the writer and close the socket if it is still open."""
        task = self.task
        if task is not None:
            if not task.done():
                with contextlib.suppress(TimeoutError, Exception):
                    await asyncio.wait_for(asyncio.shield(task), 0.05)
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            if self.websocket.client_state == WebSocketState.CONNECTED \
                    and self.websocket.application_state == WebSocketState.CONNECTED:
                await self.websocket.close()
