"""Server messages encoded once, whoever they go to.

A broadcast reaches every connection of a room.  :class:`Outgoing` holds one message
as the UTF-8 bytes of its JSON (:func:`~.protocol.dumpb`), its text (for the
in-process bots) and its WebSocket frame (RFC 6455 5.2: a final, unmasked text frame,
as a server sends it), each made at most once, on first use, and shared by all the
recipients.

:class:`DirectWriter` writes such a frame straight to a connection's transport when
nothing else is queued for it, instead of a trip through a writer task, the ASGI send
and the WebSocket library's framing per recipient (py-spy: the largest share of the
server's time per move after the game itself).  It works with uvicorn's default
WebSocket protocol (``websockets-sansio``) and only in states where that protocol would
have written the same bytes itself (open, no extension such as compression, not paused
by back-pressure, no close sent); anything else goes the ordinary way.

>>> out = Outgoing(b'{"type":"pong"}')
>>> out.text, out.frame[:2], out.frame[2:] == out.data
('{"type":"pong"}', b'\\x81\\x0f', True)
>>> len(text_frame(b"x" * 200)[:4]), text_frame(b"x" * 200)[:4]
(4, b'\\x81~\\x00\\xc8')
"""

from __future__ import annotations

import struct
from typing import Any

__all__ = ["SEND_KEY", "DirectWriter", "KeepRawSend", "Outgoing", "bounded_websocket_protocol", "text_frame"]


def text_frame(payload: bytes) -> bytes:
    """The bytes of one final, unmasked WebSocket text frame carrying ``payload`` (UTF-8)."""
    n = len(payload)
    if n < 126:
        head = bytes((0x81, n))
    elif n < 65536:
        head = struct.pack("!BBH", 0x81, 126, n)
    else:
        head = struct.pack("!BBQ", 0x81, 127, n)
    return head + payload


class Outgoing:
    """One server message: its JSON as UTF-8 ``data``, and lazily its ``text`` and ``frame``."""

    __slots__ = ("_frame", "_text", "data")

    def __init__(self, data: bytes, text: str | None = None) -> None:
        self.data = data
        self._text = text
        self._frame: bytes | None = None

    @classmethod
    def of_text(cls, text: str) -> Outgoing:
        return cls(text.encode(), text)

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = self.data.decode()
        return self._text

    @property
    def frame(self) -> bytes:
        if self._frame is None:
            self._frame = text_frame(self.data)
        return self._frame

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Outgoing({self.text[:60]!r})"


def _sansio_protocol() -> tuple[type | None, Any]:
    """uvicorn's ``websockets-sansio`` protocol class and the open state of its connections."""
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
        from websockets.protocol import State
    except ImportError:  # another uvicorn, or no uvicorn (tests in process): the ordinary way
        return None, None
    return WebSocketsSansIOProtocol, State.OPEN


_PROTOCOL, _OPEN = _sansio_protocol()


class DirectWriter:
    """Writes frames straight to one connection's transport when that is what its protocol
    would do (see the module docstring).  ``send`` is the connection's raw ASGI send
    callable, as the server gave it (before any middleware wrapped it)."""

    __slots__ = ("proto",)

    def __init__(self, send: Any) -> None:
        proto = getattr(send, "__self__", None)
        ok = (_PROTOCOL is not None and isinstance(proto, _PROTOCOL)
              and all(hasattr(proto, a) for a in ("conn", "transport", "writable", "close_sent", "disconnected")))
        self.proto = proto if ok else None

    @property
    def usable(self) -> bool:
        """Can frames be written directly at all (the protocol is the one this knows)?"""
        return self.proto is not None

    def write(self, frame: bytes) -> bool:
        """Write ``frame`` now if the connection is open, unpaused and uncompressed; False
        when it must go the ordinary way (then nothing was written)."""
        p = self.proto
        if p is None or p.close_sent or p.disconnected or not p.writable.is_set():
            return False
        conn = p.conn
        if conn.state is not _OPEN or conn.extensions or conn.expect_continuation_frame:
            return False
        transport = p.transport
        if transport is None or transport.is_closing():
            return False
        transport.write(frame)
        return True


SEND_KEY = "ricochet.raw_send"
"""Where :class:`KeepRawSend` leaves a WebSocket's raw ASGI send callable in its scope."""


class KeepRawSend:
    """ASGI middleware, the outermost: keeps each WebSocket's send callable, as the server
    gave it, in the scope (``scope[SEND_KEY]``) for its :class:`DirectWriter` (the
    middleware inside wraps it)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            scope[SEND_KEY] = send
        await self.app(scope, receive, send)


PARSE_STEP = 512
"""Bytes of a client's data parsed at a time (see :func:`bounded_websocket_protocol`)."""
AFTER_CLOSE_BYTES = 4096
"""Bytes a client may still send once the server closed its connection (its closing frame)."""


def bounded_websocket_protocol(backlog: int) -> Any:
    """uvicorn's WebSocket protocol (``websockets-sansio``) that parses what a client sent a
    little at a time, and stops while more than ``backlog`` of its messages wait to be read.

    uvicorn parses every frame of what it reads from a socket at once: a client that writes as
    fast as it can (a flood of tiny messages) costs one parse of a whole socket buffer — about
    1 500 frames, 40 ms of the event loop — per read, most of them for messages the rate limits
    then drop.  Here the rest of such a read waits, unparsed, until the server has read the
    messages before it (an honest client never has that many unread: its burst is smaller),
    and is thrown away unparsed if the connection is closed for flooding meanwhile; a client that
    goes on flooding after the server's closing frame is cut off.
    ``None`` when uvicorn has not that protocol (the server then uses uvicorn's default)."""
    if _PROTOCOL is None:
        return None
    base: Any = _PROTOCOL

    class BoundedWebSocket(base):  # type: ignore[misc, valid-type]
        _stash = b""
        _after_close = 0

        def data_received(self, data: bytes) -> None:
            if self.close_sent:
                # Closed: uvicorn reads on only for the client's closing frame, which comes at
                # once; a client that sends more meanwhile is cut off rather than parsed.
                self._after_close += len(data)
                if self._after_close > AFTER_CLOSE_BYTES:
                    self._stash = b""
                    self.transport.abort()
                    return
            if self._stash:  # (already paused: what the transport had read)
                self._stash += data
                return
            self._feed(data)

        def _feed(self, data: bytes) -> None:
            for i in range(0, len(data), PARSE_STEP):
                super().data_received(data[i:i + PARSE_STEP])
                if self.queue.qsize() > backlog and i + PARSE_STEP < len(data):
                    self._stash = data[i + PARSE_STEP:]
                    if not self.read_paused:
                        self.read_paused = True
                        self.transport.pause_reading()
                    return

        async def receive(self) -> Any:
            message = await self.queue.get()
            if self._stash and self.queue.qsize() <= backlog // 2:
                data, self._stash = self._stash, b""
                self._feed(data)
            if self.read_paused and self.queue.empty() and not self._stash:
                self.read_paused = False
                self.transport.resume_reading()
            return message

    return BoundedWebSocket
