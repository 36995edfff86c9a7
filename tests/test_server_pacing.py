"""Per-address pacing (``ricochet.server.pacing``): requests over an address's rate wait their
turn, those whose turn is too far are refused before any routing, other addresses are not
touched.  The real server under a flood: ``test_server_hardening.py``, item 9."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocket, WebSocketDisconnect

from ricochet.server.limits import ServerLimits, parse_limit
from ricochet.server.pacing import AddressPacing, Pacer


async def ok(scope: Any, receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"ok"})


def test_pacer_turns_bursts_and_refusals() -> None:
    clock = [100.0]
    p = Pacer(rate=4.0, burst=2, max_wait=0.5, clock=lambda: clock[0])
    assert [p.delay("a") for _ in range(5)] == [0.0, 0.0, 0.25, 0.5, None]
    clock[0] += 0.25  # one turn later, one more fits in the wait
    assert p.delay("a") == 0.5
    assert p.delay("b") == 0.0 and len(p) == 2
    clock[0] += 60
    p.prune()  # both bursts whole again: forgotten
    assert len(p) == 0
    assert [p.delay("a") for _ in range(2)] == [0.0, 0.0]


def test_a_refusal_holds_no_turn() -> None:
    clock = [0.0]
    p = Pacer(rate=1.0, burst=1, max_wait=0.0, clock=lambda: clock[0])
    assert p.delay("a") == 0.0
    assert [p.delay("a") for _ in range(100)] == [None] * 100  # a flood of refusals ...
    clock[0] = 1.0
    assert p.delay("a") == 0.0  # ... does not push the address's next turn back


def test_pacing_off() -> None:
    p = Pacer(rate=0, burst=10, max_wait=1)
    assert not p.enabled and all(p.delay("a") == 0.0 for _ in range(1000)) and len(p) == 0
    limits = ServerLimits.unlimited()
    assert limits.http_rate == 0 and limits.socket_rate == 0


def test_limits_are_set_by_name() -> None:
    limits = parse_limit("http_rate=5", parse_limit("socket-burst=3", ServerLimits()))
    assert (limits.http_rate, limits.socket_burst) == (5.0, 3)
    with pytest.raises(ValueError, match="pace_wait_seconds must be a number, 0 or more"):
        ServerLimits(pace_wait_seconds=-1)


async def _requests(app: Any, address: str, n: int) -> list[tuple[int, float, httpx.Response]]:
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        t0 = time.monotonic()

        async def one() -> tuple[int, float, httpx.Response]:
            r = await c.get("/")
            return r.status_code, time.monotonic() - t0, r

        return list(await asyncio.gather(*(one() for _ in range(n))))


def test_http_requests_over_the_rate_wait_then_are_refused() -> None:
    # Slow enough that the six requests' own spread (they start one after another, on a busy
    # machine over tens of milliseconds) is far from a turn: 0.5 s a turn, waits of up to 1.25 s.
    limits = ServerLimits(http_rate=2, http_burst=2, pace_wait_seconds=1.25)
    app = AddressPacing(ok, limits)

    async def scenario() -> tuple[list[Any], list[Any]]:
        # six at once from one address, and at the same time one from another
        return await asyncio.gather(_requests(app, "10.0.0.1", 6), _requests(app, "10.0.0.2", 1))

    flood, other = asyncio.run(scenario())
    statuses = sorted(s for s, _, _ in flood)
    assert statuses == [200] * 4 + [429] * 2  # two at once, two after 0.5 s and 1 s, two refused
    served = sorted(t for s, t, _ in flood if s == 200)
    # Times are judged against each other, not against a clock bound (a busy machine delays all of
    # them): two at once, then one each 0.5 s (lower bounds: they cannot be met without waiting).
    assert served[1] < served[2] - 0.25 and 0.45 < served[2] and 0.95 < served[3], served
    refused = [r for s, _, r in flood if s == 429]
    for r in refused:
        assert r.json()["error"]["code"] == "rate_limited"
        assert "at most 2 per second after 2" in r.json()["error"]["message"]
        assert r.headers["connection"] == "close" and int(r.headers["retry-after"]) >= 1
    refused_at = sorted(t for s, t, _ in flood if s == 429)
    assert 1.2 < refused_at[0]  # a refusal is held for the longest wait (a flooder's loop slows down)
    assert other[0][0] == 200 and other[0][1] < served[2]  # the other address was not paced by the flood


def test_socket_opens_over_the_rate_are_closed_before_the_handshake() -> None:
    async def echo(ws: WebSocket) -> None:
        await ws.accept()
        await ws.send_text("hi")
        await ws.close()

    app = Starlette(routes=[WebSocketRoute("/ws", echo)])
    app.add_middleware(AddressPacing, limits=ServerLimits(socket_rate=1, socket_burst=2, pace_wait_seconds=0))
    client = TestClient(app)
    for _ in range(2):
        with client.websocket_connect("/ws") as ws:
            assert ws.receive_text() == "hi"
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect("/ws"):
        pass
    assert refused.value.code == 1008 and "too many connection attempts" in refused.value.reason
    # HTTP requests are paced apart from socket opens
    assert client.get("/nothing").status_code == 404


def test_the_listening_socket_keeps_receive_buffers_small() -> None:
    """``ricochet serve`` binds its own socket: the connections it accepts inherit a small
    receive buffer (see ``ricochet.cli.serve.RECEIVE_BUFFER``), and a taken port is a clear error."""
    import socket

    from ricochet.cli.serve import RECEIVE_BUFFER, listening_socket

    sock = listening_socket("127.0.0.1", 0)
    try:
        sock.listen()
        port = sock.getsockname()[1]
        # Linux doubles the value it is given (bookkeeping); the default is several times larger
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF) <= 2 * RECEIVE_BUFFER
        with socket.create_connection(("127.0.0.1", port)):
            conn, _ = sock.accept()
            with conn:
                assert conn.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF) <= 2 * RECEIVE_BUFFER
        with pytest.raises(OSError):
            listening_socket("127.0.0.1", port)  # taken (and listening): serve says "cannot listen on …"
    finally:
        sock.close()
