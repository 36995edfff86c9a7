"""The WebSocket endpoint (``/ws/{room_id}``): origin and connection checks, then one
:class:`~.session.Session` for the connection, a writer task draining its queue, and
the reading loop (the hello deadline, the pause after a dropped message)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any
from urllib.parse import urlsplit

from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketState

from . import protocol as P
from .manager import RoomManager
from .protocol import dumps
from .refused import Refused
from .session import SEND_QUEUE, Session
from .site import client_address, manager_of, site_of

__all__ = ["HELLO_TIMEOUT_CODE", "origin_allowed", "ws_endpoint"]

log = logging.getLogger("ricochet.server")

HELLO_TIMEOUT_CODE = 4408


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
    queue: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue(maxsize=SEND_QUEUE)

    def send(text: str) -> bool:
        try:
            queue.put_nowait(text)
            return True
        except asyncio.QueueFull:
            return False

    def close(code: int, reason: str) -> None:
        with contextlib.suppress(asyncio.QueueFull):
            queue.put_nowait((code, reason))

    session = Session(manager, room, send, close, address=address)  # no await since get_room: see unload

    async def writer() -> None:
        while True:
            item = await queue.get()
            if isinstance(item, tuple):
                await websocket.close(*item)
                return
            await websocket.send_text(item)

    loop = asyncio.get_running_loop()
    limits = manager.limits
    hello_by = loop.time() + limits.hello_seconds if limits.hello_seconds else None
    writing = asyncio.ensure_future(writer())
    reading: asyncio.Future[Message] | None = None
    try:
        while not writing.done():
            if reading is None:
                reading = asyncio.ensure_future(websocket.receive())
            timeout = None if session.welcomed or hello_by is None else max(0.0, hello_by - loop.time())
            waiting: set[asyncio.Future[Any]] = {reading, writing}
            done, _ = await asyncio.wait(waiting, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            if reading not in done:
                if not done and not session.closed:  # no hello in time
                    session.error("hello_timeout", f"say hello within {limits.hello_seconds:g} s of connecting")
                    session.close(HELLO_TIMEOUT_CODE, "no hello")
                    hello_by = None
                continue
            msg, reading = reading.result(), None
            if msg["type"] == "websocket.disconnect":
                break
            data = msg.get("text")
            if data is None and msg.get("bytes") is not None:
                data = msg["bytes"]
            if data is not None:
                await session.receive(data)
                pause = session.read_pause()
                if pause > 0:  # over its rate: read on when it may send again (TCP holds the rest)
                    await asyncio.sleep(pause)
    except Exception as e:  # noqa: BLE001 - a socket that went away mid-read: a normal end
        log.debug("room %s: connection ended: %r", rid, e)
    finally:
        session.disconnect()
        if not writing.done():
            # let queued messages (an error before a close) go out, briefly
            with contextlib.suppress(TimeoutError, Exception):
                await asyncio.wait_for(asyncio.shield(writing), 0.05)
        for task in (reading, writing):  # every outcome retrieved: nothing is logged for a normal end
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        with contextlib.suppress(Exception):
            if websocket.client_state == WebSocketState.CONNECTED:
                await websocket.close()
